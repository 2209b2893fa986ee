//! `explain --html`: one self-contained page (no request leaves it): the fields as a
//! collapsible tree beside the bytes in hex, coloured by confidence. Hovering or clicking a
//! field highlights its bytes; hovering or clicking a byte highlights the field it belongs to
//! (and opens the tree down to it). `PAGE.html#field=PATH` and `#byte=OFFSET` select on
//! load, so a link can point at a field.
//!
//! Every text that comes from the input (values, the file's name) is HTML-escaped.

use super::model::{thousands, Explained, Row};
use meshspec_formats::rt::Confidence;
use std::fmt::Write;

/// The most bytes the page shows in hex (the fields around them are all in the tree).
pub const MAX_HEX: u64 = 64 * 1024;

/// `s` safe inside HTML text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn class(c: Option<Confidence>) -> &'static str {
    match c {
        Some(Confidence::Proven) => "c-proven",
        Some(Confidence::Observed) => "c-observed",
        Some(Confidence::Sourced) => "c-sourced",
        Some(Confidence::Inferred) => "c-inferred",
        Some(Confidence::Unknown) => "c-unknown",
        None => "c-none",
    }
}

const STYLE: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 12px; border-bottom: 1px solid #ccc; }
header .verdict { font-family: ui-monospace, monospace; }
main { display: flex; height: calc(100vh - 110px); }
#tree { flex: 1 1 50%; overflow: auto; padding: 6px 12px; border-right: 1px solid #ccc; }
#hex { flex: 1 1 50%; overflow: auto; padding: 6px 12px; font-family: ui-monospace, monospace; }
footer { padding: 6px 12px; border-top: 1px solid #ccc; font-size: 13px; }
ul { list-style: none; margin: 0; padding-left: 16px; }
#tree > ul { padding-left: 0; }
.head { cursor: pointer; white-space: nowrap; }
.head .ty { color: #666; } .head .at { color: #888; font-size: 12px; }
.head .val { font-family: ui-monospace, monospace; }
li.sel > .head, li.sel > details > .head { outline: 2px solid #e0a000; background: #fff3c4; }
li.hv > .head, li.hv > details > .head { background: #f0f0f0; }
.line { white-space: pre; }
.off { color: #888; margin-right: 8px; }
.b { cursor: pointer; padding: 0 1px; }
.b.hv { outline: 1px solid #888; }
.b.hl { background: #ffd54a !important; color: #000; }
.gap { color: #888; font-style: italic; }
.c-proven { color: #1b7e1b; } .b.c-proven { background: #e3f5e3; }
.c-observed { color: #0b7285; } .b.c-observed { background: #def3f7; }
.c-sourced { color: #1c4fb8; } .b.c-sourced { background: #e2eafb; }
.c-inferred { color: #9a6a00; } .b.c-inferred { background: #fbf0d4; }
.c-unknown { color: #c01818; font-weight: bold; } .b.c-unknown { background: #fbdede; }
.b.c-none { background: #eee; }
.b.none { background: #fff; color: #c01818; text-decoration: underline wavy; }
.legend span { margin-right: 10px; }
"#;

const SCRIPT: &str = r#"
(function () {
  var sel = null, hover = [];
  function node(el) { while (el && !(el.classList && el.classList.contains('node'))) el = el.parentElement; return el; }
  function mark(s, e, cls) {
    var out = [];
    for (var o = s; o < e; o++) { var b = document.getElementById('b' + o); if (b) { b.classList.add(cls); out.push(b); } }
    return out;
  }
  function unmark(list, cls) { for (var i = 0; i < list.length; i++) list[i].classList.remove(cls); }
  function select(n) {
    if (sel) { unmark(sel.bytes, 'hl'); sel.node.classList.remove('sel'); }
    sel = { node: n, bytes: mark(+n.dataset.s, +n.dataset.e, 'hl') };
    n.classList.add('sel');
    for (var p = n.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    document.getElementById('selected').textContent = n.dataset.path + ': bytes 0x' +
      (+n.dataset.s).toString(16).toUpperCase() + ' to 0x' + (+n.dataset.e).toString(16).toUpperCase();
  }
  function hoverOn(n) { hoverOff(); n.classList.add('hv'); hover = mark(+n.dataset.s, +n.dataset.e, 'hv'); hover.node = n; }
  function hoverOff() { if (hover.node) hover.node.classList.remove('hv'); unmark(hover, 'hv'); hover = []; }
  function ofByte(b) { return document.getElementById('f' + b.dataset.f); }
  var tree = document.getElementById('tree'), hex = document.getElementById('hex');
  tree.addEventListener('click', function (e) {
    if (!e.target.closest('.head')) return;
    var n = node(e.target); if (n) select(n);
  });
  tree.addEventListener('mouseover', function (e) {
    if (!e.target.closest('.head')) return;
    var n = node(e.target); if (n) hoverOn(n);
  });
  tree.addEventListener('mouseleave', hoverOff);
  hex.addEventListener('click', function (e) {
    var b = e.target.closest('.b'); if (!b || !b.dataset.f) return;
    var n = ofByte(b); if (!n) return;
    select(n); n.scrollIntoView({ block: 'nearest' });
  });
  hex.addEventListener('mouseover', function (e) {
    var b = e.target.closest('.b'); if (!b || !b.dataset.f) return;
    var n = ofByte(b); if (n) hoverOn(n);
  });
  hex.addEventListener('mouseleave', hoverOff);
  var h = decodeURIComponent(location.hash.slice(1));
  if (h.indexOf('field=') === 0) {
    var all = document.querySelectorAll('li.node');
    for (var i = 0; i < all.length; i++) if (all[i].dataset.path === h.slice(6)) {
      var head = all[i].querySelector('.head'); if (head) head.click(); break;
    }
  } else if (h.indexOf('byte=') === 0) {
    var b = document.getElementById('b' + h.slice(5)); if (b) b.click();
  }
})();
"#;

fn head(r: &Row) -> String {
    let mut s = format!("<span class=\"name {}\">", class(r.confidence));
    s.push_str(&escape(&r.name));
    s.push_str("</span>");
    let ty = r.ty();
    if !ty.is_empty() {
        let _ = write!(s, " <span class=\"ty\">{}</span>", escape(&ty));
    }
    if let Some(v) = &r.value {
        let _ = write!(s, " = <span class=\"val\">{}</span>", escape(v));
    }
    let _ = write!(
        s,
        " <span class=\"at\">0x{:X}, {} bytes</span>",
        r.start,
        thousands(r.end.saturating_sub(r.start))
    );
    s
}

fn title(r: &Row) -> String {
    let Some(info) = r.info else {
        return "elements not shown".into();
    };
    let mut t = format!(
        "{} ({}, {})",
        r.path,
        info.ty,
        r.confidence.map_or("no confidence", |c| c.word())
    );
    let notes = [
        ("document", info.orig_id),
        ("offset", info.offset),
        ("evidence", info.evidence),
        ("reading", info.reading),
    ];
    for (label, text) in notes {
        if let Some(text) = text {
            let _ = write!(t, "\n{label}: {text}");
        }
    }
    if !info.doc.is_empty() {
        let _ = write!(t, "\n{}", info.doc.trim());
    }
    t
}

/// The tree of rows (they come outermost first, each with its depth).
fn tree(rows: &[Row]) -> String {
    let mut s = String::from("<ul>");
    let mut open: Vec<usize> = vec![];
    for (k, r) in rows.iter().enumerate() {
        while open.last().is_some_and(|&d| d >= r.depth) {
            open.pop();
            s.push_str("</ul></details></li>");
        }
        let has_children = rows.get(k + 1).is_some_and(|n| n.depth > r.depth);
        let _ = write!(
            s,
            "<li class=\"node\" id=\"f{k}\" data-s=\"{}\" data-e=\"{}\" data-path=\"{}\" title=\"{}\">",
            r.start,
            r.end,
            escape(&r.path),
            escape(&title(r))
        );
        if has_children {
            let _ = write!(
                s,
                "<details open><summary class=\"head\">{}</summary><ul>",
                head(r)
            );
            open.push(r.depth);
        } else {
            let _ = write!(s, "<div class=\"head\">{}</div></li>", head(r));
        }
    }
    for _ in open {
        s.push_str("</ul></details></li>");
    }
    s.push_str("</ul>");
    s
}

/// The most bytes shown of one list's folded elements.
const FOLDED_HEX: u64 = 1024;

/// The byte ranges shown in hex: those of the rows that show bytes (and the first bytes of
/// folded elements), merged, at most [`MAX_HEX`] bytes in all.
fn ranges(x: &Explained) -> (Vec<(u64, u64)>, bool) {
    let shown = x
        .rows
        .iter()
        .filter(|r| r.folded.is_none() && (r.leaf || r.folded_fields))
        .map(|r| (r.start, r.end))
        .chain(x.gaps.iter().copied());
    let folded = x
        .rows
        .iter()
        .filter(|r| r.folded.is_some())
        .map(|r| (r.start, r.end.min(r.start + FOLDED_HEX)));
    let mut left = MAX_HEX;
    let mut cut = false;
    let mut rs: Vec<(u64, u64)> = vec![];
    for (s, e) in shown.chain(folded) {
        let e = e.min(x.base + x.size);
        if s >= e {
            continue;
        }
        let e2 = e.min(s + left);
        cut |= e2 < e;
        left -= e2 - s;
        if s < e2 {
            rs.push((s, e2));
        }
    }
    rs.sort();
    let mut merged: Vec<(u64, u64)> = vec![];
    for (s, e) in rs {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    (merged, cut)
}

fn hex(input: &[u8], x: &Explained) -> String {
    // The innermost row shown over each byte (rows come outermost first).
    let (ranges, cut) = ranges(x);
    let mut owner: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (k, r) in x.rows.iter().enumerate() {
        for (s, e) in &ranges {
            let (a, b) = (r.start.max(*s), r.end.min(*e));
            for o in a..b {
                owner.insert(o, k);
            }
        }
    }
    let mut s = String::new();
    let mut prev_end = x.base;
    for (a, b) in &ranges {
        let line0 = a / 16 * 16;
        if *a > prev_end {
            let _ = write!(
                s,
                "<div class=\"gap\">… {} bytes not shown</div>",
                thousands(a - prev_end)
            );
        }
        let mut line = line0;
        while line < *b {
            let _ = write!(
                s,
                "<div class=\"line\"><span class=\"off\">{line:08X}</span>"
            );
            for o in line..line + 16 {
                if o < *a || o >= *b {
                    s.push_str("<span class=\"pad\">   </span>");
                    continue;
                }
                let byte = input[(o - x.base) as usize];
                match owner.get(&o) {
                    Some(&k) => {
                        let _ = write!(
                            s,
                            "<span class=\"b {}\" id=\"b{o}\" data-f=\"{k}\">{byte:02x}</span> ",
                            class(x.rows[k].confidence)
                        );
                    }
                    None => {
                        let _ = write!(
                            s,
                            "<span class=\"b none\" id=\"b{o}\" title=\"no field accounts for this byte\">{byte:02x}</span> "
                        );
                    }
                }
            }
            s.push_str("</div>");
            line += 16;
        }
        prev_end = *b;
    }
    if cut || prev_end < x.base + x.size {
        let _ = write!(
            s,
            "<div class=\"gap\">… the other {} bytes are not shown (--at, --field or --elements choose others)</div>",
            thousands(x.size.saturating_sub(ranges.iter().map(|(a, b)| b - a).sum::<u64>()))
        );
    }
    s
}

/// The page.
pub fn page(title_text: &str, header: &str, input: &[u8], x: &Explained, coverage: &str) -> String {
    let legend: String = Confidence::ALL
        .iter()
        .map(|c| format!("<span class=\"{}\">{}</span>", class(Some(*c)), c.word()))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body><header><div class=\"verdict\">{}</div>\
         <div class=\"legend\">confidence: {legend}</div><div id=\"selected\">click or hover a field or a byte</div></header>\n\
         <main><nav id=\"tree\">{}</nav>\n<section id=\"hex\">{}</section></main>\n\
         <footer id=\"coverage\">{}</footer><script>{SCRIPT}</script></body></html>\n",
        escape(title_text),
        escape(header),
        tree(&x.rows),
        hex(input, x),
        escape(coverage),
    )
}
