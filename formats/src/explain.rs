//! What `explain` shows of one input (the command line's text and HTML, the Python package's
//! rows): the fields the selection keeps, outermost first, each with where it lies, what the
//! spec says and its value; the lists' elements past the first few folded into one row; and the
//! bytes no field accounts for.

use crate::rt::{Confidence, FieldInfo, Path, Scalar, Seg, Visitor};
use crate::Entry;
use std::collections::{HashMap, HashSet};

/// Which fields to show.
#[derive(Debug, Clone)]
pub struct Select {
    /// Only the fields around this offset (and those that hold it), every element included.
    pub at: Option<u64>,
    /// Only this field and what it holds (a path in the spec's ids, with or without the root).
    pub field: Option<String>,
    /// No field deeper than this (the root's fields are depth 1).
    pub depth: Option<usize>,
    /// How many elements of each list to show before folding the rest.
    pub elements: usize,
}

/// How far around `--at` fields are shown.
pub const AROUND: u64 = 48;

/// One row: a field, an element of a list, or the elements folded.
#[derive(Debug, Clone)]
pub struct Row {
    /// Its path (`meshbin.vertices[1].x`).
    pub path: String,
    /// How deep (the root's fields are 1, a list's elements one deeper than the list).
    pub depth: usize,
    /// Its last step (`x`, `[1]`), or for folded elements what they are.
    pub name: String,
    /// The bytes it took.
    pub start: u64,
    /// One past its last byte.
    pub end: u64,
    /// What the spec says (none for folded elements).
    pub info: Option<&'static FieldInfo>,
    /// Its confidence (its own, or the nearest enclosing one's).
    pub confidence: Option<Confidence>,
    /// Whether it holds no further fields.
    pub leaf: bool,
    /// Whether it is an element of a list.
    pub element: bool,
    /// Whether its fields are not shown (below `--depth`).
    pub folded_fields: bool,
    /// For folded elements: how many.
    pub folded: Option<u64>,
    /// Its value (leaves).
    pub value: Option<String>,
    /// Whether the spec's words are worth showing here (not again for every element).
    pub show_doc: bool,
    /// Whether it holds the `--at` offset.
    pub holds_at: bool,
}

impl Row {
    /// The type as the spec writes it (an element's without the list's `[]`).
    pub fn ty(&self) -> String {
        match (self.info, self.element) {
            (Some(i), true) => i.ty.replacen("[]", "", 1),
            (Some(i), false) => i.ty.to_string(),
            (None, _) => String::new(),
        }
    }

    /// The first line of the spec's doc.
    pub fn doc(&self) -> &str {
        self.info
            .map_or("", |i| i.doc.lines().next().unwrap_or("").trim())
    }
}

/// One input explained.
#[derive(Debug)]
pub struct Explained {
    /// The rows shown.
    pub rows: Vec<Row>,
    /// Where the input starts in the file it lies in (an object's start in its serialized
    /// file; 0 for a file of its own): every offset here counts from that file's start.
    pub base: u64,
    /// The input's size.
    pub size: u64,
    /// Byte ranges no field accounts for.
    pub gaps: Vec<(u64, u64)>,
    /// The verdict, in one line.
    pub verdict: String,
}

fn last_step(p: &Path) -> String {
    match p.segs().last() {
        Some(Seg::Field(f)) => f.to_string(),
        Some(Seg::Index(i)) => format!("[{i}]"),
        None => String::new(),
    }
}

/// Whether `path` is `want` or lies inside it.
fn under(path: &str, want: &str) -> bool {
    path == want
        || path
            .strip_prefix(want)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The values of the leaves in `wanted`, by path, from one visit of the input.
struct Values<'w> {
    wanted: &'w HashSet<String>,
    /// The path so far, and the length it had when each field was entered.
    path: Vec<String>,
    marks: Vec<usize>,
    ty: Vec<&'static str>,
    found: HashMap<String, String>,
}

impl Values<'_> {
    fn key(&self) -> String {
        let mut s = String::new();
        for p in &self.path {
            if !s.is_empty() && !p.starts_with('[') {
                s.push('.');
            }
            s.push_str(p);
        }
        s
    }
}

impl Visitor for Values<'_> {
    fn enter(&mut self, field: &'static FieldInfo) -> bool {
        self.marks.push(self.path.len());
        self.path.push(field.id.to_string());
        self.ty.push(field.ty);
        true
    }

    fn index(&mut self, i: usize) -> bool {
        let Some(&mark) = self.marks.last() else {
            return true;
        };
        self.path.truncate(mark + 1);
        self.path.push(format!("[{i}]"));
        true
    }

    fn value(&mut self, v: Scalar<'_>) {
        let key = self.key();
        if self.wanted.contains(&key) {
            let ty = self.ty.last().copied().unwrap_or("");
            self.found.insert(key, show(v, ty));
        }
    }

    fn leave(&mut self) {
        if let Some(mark) = self.marks.pop() {
            self.path.truncate(mark);
        }
        self.ty.pop();
    }
}

/// A value as explain shows it: decimal, with hex for large unsigned words; floats at their
/// own width; bytes as hex; text quoted and escaped.
pub fn show(v: Scalar<'_>, ty: &str) -> String {
    match v {
        Scalar::U(x) if x > 0xFFFF => format!("{} (0x{x:X})", thousands(x)),
        Scalar::U(x) => thousands(x),
        Scalar::I(x) if x < 0 => format!("-{}", thousands(x.unsigned_abs())),
        Scalar::I(x) => thousands(x as u64),
        Scalar::F(x) if ty.starts_with("f4") => format!("{}", x as f32),
        Scalar::F(x) => format!("{x}"),
        Scalar::Bool(b) => u8::from(b).to_string(),
        Scalar::Bytes([]) => "(no bytes)".into(),
        Scalar::Bytes(b) => {
            let shown: Vec<String> = b.iter().take(16).map(|x| format!("{x:02x}")).collect();
            if b.len() > 16 {
                format!(
                    "{} … ({} bytes)",
                    shown.join(" "),
                    thousands(b.len() as u64)
                )
            } else {
                shown.join(" ")
            }
        }
        Scalar::Str(s) => format!("\"{}\"", s.escape_debug()),
    }
}

pub use crate::survey::value::thousands;

/// The input `explain` reads: its bytes, how its layout reads them, and where they lie.
pub struct Input<'i> {
    /// The layout.
    pub entry: &'static Entry,
    /// The bytes.
    pub bytes: &'i [u8],
    /// Every field of the one reading of them, shown to the visit (for a bare file,
    /// [`crate::reading::Reading::walk`]); spans in the bytes.
    pub walk: &'i dyn Fn(&mut crate::reading::WalkFn<'_>) -> crate::Result<()>,
    /// Where they start in the file they lie in.
    pub base: u64,
    /// The verdict on them, with every field's value shown to the visitor, from the same
    /// reading (for a bare file, [`crate::reading::Reading::census`]).
    pub census: &'i dyn Fn(&mut dyn Visitor) -> crate::verdict::Verdict,
}

/// Explains `input`: the rows `sel` keeps (`--at` counted from the start of the file the
/// input lies in), their values, and the bytes no field accounts for.
pub fn explain(i: &Input<'_>, sel: &Select) -> crate::Result<Explained> {
    let (entry, input, base) = (i.entry, i.bytes, i.base);
    let size = input.len() as u64;
    let root = entry.info.name;
    let want = sel.field.as_deref().map(|f| {
        if under(f, root) {
            f.to_string()
        } else {
            format!("{root}.{f}")
        }
    });
    let mut rows: Vec<Row> = vec![];
    let mut covered = vec![false; input.len()];
    // The confidence in force at each depth, and the last row kept at each depth.
    let mut conf: Vec<Option<Confidence>> = vec![entry.info.confidence];
    let mut last_at_depth: Vec<Option<usize>> = vec![None];
    let mut folds: HashMap<String, usize> = HashMap::new();
    // The steps of the path asked for: its own indices are never folded.
    let asked = want
        .as_deref()
        .map_or(1, |w| 1 + w.matches('.').count() + w.matches('[').count());
    (i.walk)(&mut |path, span, info, leaf| {
        if leaf {
            let (s, e) = (span.start.min(size) as usize, span.end.min(size) as usize);
            covered[s..e.max(s)].iter_mut().for_each(|c| *c = true);
        }
        let span = crate::rt::Span::new(span.start + base, span.end + base);
        let segs = path.segs();
        let depth = segs.len().saturating_sub(1);
        conf.truncate(depth);
        let inherited = conf.last().copied().flatten();
        conf.push(info.confidence.or(inherited));
        let p = path.to_string();
        if want.as_deref().is_some_and(|w| !under(&p, w)) {
            return;
        }
        if sel.depth.is_some_and(|d| depth > d) {
            if let Some(Some(r)) = sel.depth.and_then(|d| last_at_depth.get(d)) {
                rows[*r].folded_fields = true;
            }
            return;
        }
        let holds_at = sel.at.is_some_and(|a| span.start <= a && a < span.end);
        if let Some(a) = sel.at {
            let near = span.start < a.saturating_add(AROUND) && a < span.end.saturating_add(AROUND);
            if !near {
                return;
            }
        } else {
            // Elements past the first few of a list are folded into one row per list.
            let fold = segs
                .iter()
                .enumerate()
                .skip(asked)
                .find_map(|(k, s)| match s {
                    Seg::Index(i) if *i >= sel.elements => Some(k),
                    _ => None,
                });
            if let Some(k) = fold {
                let list: Path = segs[..k].iter().cloned().collect();
                let key = list.to_string();
                match folds.get(&key) {
                    Some(&r) => {
                        if segs.len() == k + 1 {
                            let row = &mut rows[r];
                            row.folded = row.folded.map(|n| n + 1);
                            row.end = row.end.max(span.end);
                        }
                    }
                    None => {
                        folds.insert(key.clone(), rows.len());
                        rows.push(Row {
                            path: key,
                            depth,
                            name: String::new(),
                            start: span.start,
                            end: span.end,
                            info: None,
                            confidence: None,
                            leaf: true,
                            element: true,
                            folded_fields: false,
                            folded: Some(1),
                            value: None,
                            show_doc: false,
                            holds_at: false,
                        });
                    }
                }
                return;
            }
        }
        last_at_depth.truncate(depth);
        last_at_depth.resize(depth, None);
        last_at_depth.push(Some(rows.len()));
        let element = matches!(segs.last(), Some(Seg::Index(_)));
        let repeated = segs.iter().any(|s| matches!(s, Seg::Index(i) if *i > 0));
        rows.push(Row {
            path: p,
            depth,
            name: last_step(path),
            start: span.start,
            end: span.end,
            info: Some(info),
            confidence: conf.last().copied().flatten(),
            leaf,
            element,
            folded_fields: false,
            folded: None,
            value: None,
            show_doc: !element && !repeated,
            holds_at,
        });
    })?;
    for r in rows.iter_mut().filter(|r| r.folded.is_some()) {
        let n = r.folded.unwrap_or(0);
        r.name = format!(
            "… {} more element{}",
            thousands(n),
            if n == 1 { "" } else { "s" }
        );
    }
    let wanted: HashSet<String> = rows
        .iter()
        .filter(|r| r.leaf && r.folded.is_none())
        .map(|r| r.path.clone())
        .collect();
    let mut values = Values {
        wanted: &wanted,
        path: vec![root.to_string()],
        marks: vec![],
        ty: vec![],
        found: HashMap::new(),
    };
    let verdict = (i.census)(&mut values);
    for r in &mut rows {
        r.value = values.found.remove(&r.path);
    }
    let verdict = match verdict.first_failure() {
        None if verdict.warnings().next().is_none() => "passes".to_string(),
        None => format!(
            "passes, with {} warning{}",
            verdict.warnings().count(),
            if verdict.warnings().count() == 1 {
                ""
            } else {
                "s"
            }
        ),
        Some(e) => format!("fails: {e}"),
    };
    let mut gaps = vec![];
    let mut i = 0;
    while i < covered.len() {
        if covered[i] {
            i += 1;
            continue;
        }
        let s = i;
        while i < covered.len() && !covered[i] {
            i += 1;
        }
        gaps.push((base + s as u64, base + i as u64));
    }
    Ok(Explained {
        rows,
        base,
        size,
        gaps,
        verdict,
    })
}
