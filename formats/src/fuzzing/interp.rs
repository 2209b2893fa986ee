//! Generated equals interpreted: a layout read by its generated code and by the interpreter of
//! its spec gives an input the same structural verdict (refusal and findings, word for word),
//! the same walk, the same census (every visitor call), the same dump, the same write-back and
//! the same build of its dump. What the fuzz target `interp_equal` asserts on any bytes, and
//! `tests/interp.rs` over the corpus.

use crate::context::Context;
use crate::layouts::{Entry, LAYOUTS};
use crate::rt::{FieldInfo, Path, Scalar, Span, Visitor};
use std::cell::RefCell;
use std::sync::OnceLock;

/// What a field table row says, for comparing rows of two tables.
pub fn row(f: &FieldInfo) -> String {
    format!(
        "{} {} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?} {:?} {:?}",
        f.id,
        f.ty,
        f.orig_id,
        f.confidence,
        f.offset,
        f.evidence,
        f.reading,
        f.doc,
        f.when.is_some(),
        f.of.map(|n| (n.info)().name),
        f.size,
        f.count
    )
}

/// The interpreted twin of generated layout `e`: its spec's type loaded at run time from the
/// checkout this crate was built in (what `meshspec check FILE.ksy#TYPE` would load).
pub fn twin(e: &Entry) -> crate::Result<&'static Entry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(e.spec);
    let text = std::fs::read_to_string(&path).map_err(|err| {
        crate::Error::unplaced(
            crate::ErrorKind::Io,
            format!("the spec {}", path.display()),
            err.to_string(),
        )
    })?;
    Entry::interpret(e.spec, &text, Some(e.info.name))
}

/// A layout of the table, its twin, and the values of its parameters worth trying.
type Twins = (
    &'static Entry,
    &'static Entry,
    Vec<(&'static str, Vec<i128>)>,
);

/// Every layout of the table with its twin, in the table's order.
fn twins() -> &'static [Twins] {
    static TWINS: OnceLock<Vec<Twins>> = OnceLock::new();
    TWINS.get_or_init(|| {
        LAYOUTS
            .iter()
            .map(|g| {
                let i = twin(g).unwrap_or_else(|e| panic!("{}: {e}", g.spec));
                let text = std::fs::read_to_string(
                    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("..")
                        .join(g.spec),
                )
                .unwrap_or_default();
                let choices = match meshspec_model::load(g.spec, &text) {
                    Ok(spec) => spec
                        .ty(g.info.name)
                        .map(|t| {
                            t.params
                                .iter()
                                .zip(g.params)
                                .map(|(p, name)| {
                                    (
                                        *name,
                                        meshspec_model::param_values(&spec, &p.id, p.prim.max()),
                                    )
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    Err(_) => vec![],
                };
                (g, i, choices)
            })
            .collect()
    })
}

/// Every field of a reading: path, span, facts, leaf.
fn walk(e: &Entry, bytes: &[u8], ctx: &Context) -> Vec<String> {
    let mut out = vec![];
    let r = e.read_plain(bytes, ctx);
    let _ = r.walk(&mut |p: &Path, s: Span, f: &'static FieldInfo, leaf| {
        out.push(format!("{p} {}..{} {} {leaf}", s.start, s.end, row(f)));
    });
    out
}

/// Records every call a visitor gets.
struct Census {
    calls: RefCell<Vec<String>>,
    proven: bool,
    /// How many elements of a list it asks for.
    limit: usize,
    /// Whether it skips the fields whose id has an odd length.
    skip: bool,
}

impl Census {
    fn push(&self, s: String) {
        self.calls.borrow_mut().push(s);
    }
}

impl Visitor for Census {
    fn proven_leaves(&self) -> bool {
        self.push("proven_leaves".into());
        self.proven
    }
    fn enter(&mut self, f: &'static FieldInfo) -> bool {
        self.push(format!("enter {} {}", f.id, f.ty));
        !(self.skip && f.id.len() % 2 == 1)
    }
    fn present(&mut self) {
        self.push("present".into());
    }
    fn leaf(&mut self, f: &'static FieldInfo, v: Scalar<'_>) {
        self.push(format!("leaf {} {v:?}", f.id));
    }
    fn index(&mut self, i: usize) -> bool {
        self.push(format!("index {i}"));
        i < self.limit
    }
    fn value(&mut self, v: Scalar<'_>) {
        self.push(format!("value {v:?}"));
    }
    fn leave(&mut self) {
        self.push("leave".into());
    }
}

fn census(
    e: &Entry,
    bytes: &[u8],
    ctx: &Context,
    proven: bool,
    limit: usize,
    skip: bool,
) -> Vec<String> {
    let mut c = Census {
        calls: RefCell::new(vec![]),
        proven,
        limit,
        skip,
    };
    e.read_plain(bytes, ctx).census(&mut c);
    c.calls.into_inner()
}

fn first_difference(a: &[String], b: &[String]) -> String {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    format!(
        "{} and {} entries; first difference at {i}: {:?} vs {:?}",
        a.len(),
        b.len(),
        a.get(i),
        b.get(i)
    )
}

/// A verdict as lines: the refusal, then every finding with its severity.
fn verdict_lines(e: &Entry, bytes: &[u8], ctx: &Context) -> Vec<String> {
    let v = e.read(bytes, ctx).verdict;
    v.refused
        .iter()
        .map(|e| format!("refused {e} [{:?}]", e.kind))
        .chain(
            v.findings
                .iter()
                .map(|f| format!("{} {f} [{:?}]", f.severity, f.kind)),
        )
        .chain(v.notes.iter().map(|n| format!("note {n}")))
        .collect()
}

/// A build as compared: the bytes and what was recomputed, or the error.
pub fn build(
    e: &Entry,
    dump: &serde_json::Value,
    ctx: &Context,
) -> Result<(Vec<u8>, Vec<String>), String> {
    match e.build(dump, ctx) {
        Ok(b) => Ok((b.bytes, b.overrides.iter().map(|o| o.to_string()).collect())),
        Err(err) => Err(err.to_string()),
    }
}

/// Compares what generated layout `g` and interpreted layout `i` make of `bytes`: the verdict,
/// and for bytes that read the walk and the dump; `deep` adds the census (three visitors), the
/// write-back and the build of the dump. Whether the bytes read, or the first difference.
pub fn compare(
    g: &Entry,
    i: &Entry,
    bytes: &[u8],
    ctx: &Context,
    deep: bool,
) -> Result<bool, String> {
    let (vg, vi) = (verdict_lines(g, bytes, ctx), verdict_lines(i, bytes, ctx));
    if vg != vi {
        return Err(format!("verdicts differ: {vg:#?} vs {vi:#?}"));
    }
    if vg.first().is_some_and(|l| l.starts_with("refused")) {
        return Ok(false);
    }
    let (wg, wi) = (walk(g, bytes, ctx), walk(i, bytes, ctx));
    if wg != wi {
        return Err(format!("walks differ: {}", first_difference(&wg, &wi)));
    }
    let (rg, ri) = (g.read_plain(bytes, ctx), i.read_plain(bytes, ctx));
    let (dg, di) = match (rg.dump(ctx), ri.dump(ctx)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => return Err(format!("dumps: {:?} vs {:?}", a.err(), b.err())),
    };
    if dg["data"] != di["data"] {
        return Err(format!(
            "dumps differ:\n{}\n{}",
            serde_json::to_string(&dg["data"]).unwrap_or_default(),
            serde_json::to_string(&di["data"]).unwrap_or_default()
        ));
    }
    if !deep {
        return Ok(true);
    }
    for (proven, limit, skip) in [
        (true, usize::MAX, false),
        (false, usize::MAX, false),
        (true, 2, true),
    ] {
        let (cg, ci) = (
            census(g, bytes, ctx, proven, limit, skip),
            census(i, bytes, ctx, proven, limit, skip),
        );
        if cg != ci {
            return Err(format!("census differs: {}", first_difference(&cg, &ci)));
        }
    }
    let (bg, bi) = (rg.write_back(ctx), ri.write_back(ctx));
    if bg != bi {
        return Err(format!(
            "write-backs differ: {:?} vs {:?}",
            bg.map(|b| b.len()),
            bi.map(|b| b.len())
        ));
    }
    // The dump through JSON text, built by each (the two are one format).
    let text = serde_json::to_string(&dg).map_err(|e| e.to_string())?;
    let back: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let (pg, pi) = (build(g, &back, ctx), build(i, &back, ctx));
    if pg != pi {
        return Err(format!(
            "builds differ: {:?} vs {:?}",
            pg.map(|b| (b.0.len(), b.1)),
            pi.map(|b| (b.0.len(), b.1))
        ));
    }
    Ok(true)
}

/// The fuzz target `interp_equal`: the first byte picks a layout of the table, the next ones
/// its parameters (see [`super::split`]), the rest are its bytes; generated and interpreted
/// must agree on them ([`compare`], deep), and on the dump edited where the last byte says.
pub fn interp_equal(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let all = twins();
    let (g, i, choices) = &all[usize::from(pick) % all.len()];
    let choices: Vec<(&str, &[i128])> = choices.iter().map(|(n, v)| (*n, v.as_slice())).collect();
    let Some((ctx, bytes)) = super::split(rest, &choices) else {
        return;
    };
    let read = compare(g, i, bytes, &ctx, true).unwrap_or_else(|e| panic!("{}: {e}", g.id));
    if !read {
        return;
    }
    let Ok(dump) = g.dump(bytes, &ctx) else {
        return;
    };
    let edits = super::edits::edited(&dump["data"], 16);
    let at = usize::from(bytes.last().copied().unwrap_or(0));
    if let Some((p, _, data)) = edits.get(at % edits.len().max(1)) {
        let mut d = dump.clone();
        d["data"] = data.clone();
        assert_eq!(
            build(g, &d, &ctx),
            build(i, &d, &ctx),
            "{}: the dump edited at data{p} builds differently",
            g.id
        );
    }
}
