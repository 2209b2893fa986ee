//! `explain` on a terminal: one line per field (offset, size, its first bytes, the field
//! indented by depth, type, value, confidence, the spec's words), coloured by confidence when
//! colour is on, then the bytes no field accounts for.

use super::model::{thousands, Explained, Row};
use anstyle::{AnsiColor, Style};
use meshspec_formats::rt::Confidence;

/// How many bytes a line shows of its field.
const SHOWN_BYTES: usize = 8;
/// The longest value shown (longer ones are cut).
const VALUE_WIDTH: usize = 36;
/// The longest doc shown.
const DOC_WIDTH: usize = 90;

/// The colour of a confidence: what is least understood stands out most.
pub fn style(c: Option<Confidence>) -> Style {
    let colour = match c {
        Some(Confidence::Proven) => AnsiColor::Green,
        Some(Confidence::Observed) => AnsiColor::Cyan,
        Some(Confidence::Sourced) => AnsiColor::Blue,
        Some(Confidence::Inferred) => AnsiColor::Yellow,
        Some(Confidence::Unknown) => {
            return Style::new().bold().fg_color(Some(AnsiColor::Red.into()))
        }
        None => return Style::new(),
    };
    Style::new().fg_color(Some(colour.into()))
}

fn cut(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(width.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn hex(input: &[u8], base: u64, r: &Row) -> String {
    if r.folded.is_some() || !(r.leaf || r.folded_fields) {
        return String::new();
    }
    let s = (r.start - base).min(input.len() as u64) as usize;
    let e = (r.end - base).min(input.len() as u64) as usize;
    let bytes = &input[s..e.max(s)];
    let mut out: Vec<String> = bytes
        .iter()
        .take(SHOWN_BYTES)
        .map(|b| format!("{b:02x}"))
        .collect();
    if bytes.len() > SHOWN_BYTES {
        out.push("…".into());
    }
    out.join(" ")
}

/// The width of a column: its widest cell, and at least `min` (its heading's).
fn widest(widths: impl Iterator<Item = usize>, min: usize) -> usize {
    widths.max().unwrap_or(0).max(min)
}

/// The lines of an explained input (`header` first), styled.
pub fn lines(header: &str, input: &[u8], x: &Explained) -> Vec<String> {
    let mut out = vec![header.to_string()];
    let legend: Vec<String> = Confidence::ALL
        .iter()
        .map(|c| {
            let st = style(Some(*c));
            format!("{st}{}{st:#}", c.word())
        })
        .collect();
    out.push(format!("confidence: {}", legend.join(" ")));
    out.push(String::new());
    let name = |r: &Row| format!("{}{}", "  ".repeat(r.depth.saturating_sub(1)), r.name);
    let hexes: Vec<String> = x.rows.iter().map(|r| hex(input, x.base, r)).collect();
    let values: Vec<String> = x
        .rows
        .iter()
        .map(|r| cut(r.value.as_deref().unwrap_or(""), VALUE_WIDTH))
        .collect();
    let chars = |s: &str| s.chars().count();
    let w_name = widest(x.rows.iter().map(|r| chars(&name(r))), 5);
    let w_ty = widest(x.rows.iter().map(|r| chars(&r.ty())), 4);
    let w_hex = widest(hexes.iter().map(|h| chars(h)), 5);
    let w_val = widest(values.iter().map(|v| chars(v)), 5);
    out.push(format!(
        "  {:<10}  {:>9}  {:<w_hex$}  {:<w_name$}  {:<w_ty$}  {:<w_val$}  {:<10}  doc",
        "offset", "size", "bytes", "field", "type", "value", "confidence"
    ));
    for ((r, h), v) in x.rows.iter().zip(&hexes).zip(&values) {
        let st = if r.folded.is_some() {
            Style::new().dimmed()
        } else {
            style(r.confidence)
        };
        let mark = if r.holds_at { ">" } else { " " };
        let conf = r.confidence.map_or("", |c| c.word());
        let doc = if r.show_doc {
            cut(r.doc(), DOC_WIDTH)
        } else {
            String::new()
        };
        let line = format!(
            "{mark} {:<10}  {:>9}  {st}{h:<w_hex$}{st:#}  {st}{:<w_name$}{st:#}  {:<w_ty$}  {v:<w_val$}  {st}{conf:<10}{st:#}  {doc}",
            format!("0x{:X}", r.start),
            thousands(r.end.saturating_sub(r.start)),
            name(r),
            r.ty(),
        );
        out.push(line.trim_end().to_string());
    }
    out.push(String::new());
    out.push(coverage(x));
    out
}

/// The line about the bytes no field accounts for.
pub fn coverage(x: &Explained) -> String {
    if x.gaps.is_empty() {
        return format!(
            "Every byte belongs to a field ({} bytes).",
            thousands(x.size)
        );
    }
    let total: u64 = x.gaps.iter().map(|(s, e)| e - s).sum();
    let mut shown: Vec<String> = x
        .gaps
        .iter()
        .take(20)
        .map(|(s, e)| format!("0x{s:X}..0x{e:X} ({} bytes)", thousands(e - s)))
        .collect();
    if x.gaps.len() > 20 {
        shown.push(format!(
            "and {} more ranges",
            thousands(x.gaps.len() as u64 - 20)
        ));
    }
    format!(
        "Bytes no field accounts for ({} of {}): {}",
        thousands(total),
        thousands(x.size),
        shown.join(", ")
    )
}
