//! Generated equals interpreted: every layout of `spec/` read by its generated code and by the
//! interpreter of its `.ksy` gives the same structural verdict (refusal and findings, word for
//! word), the same walk (paths, spans, field facts), the same census (every visitor call), the
//! same dump `data`, the same rebuilt bytes and the same write-back, on every corpus file (good
//! and bad), on every prefix and single-byte change of the small ones, and on the shared
//! corpus's Unity meshes with their versions.

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::fuzzing::edits::edited;
use meshspec_formats::layouts::LAYOUTS;
use meshspec_formats::rt::{FieldInfo, Path, Scalar, Span, Visitor};
use meshspec_formats::Entry;
use meshspec_tests::{root, samples, shared_or_skip, unity_mesh_files};
use std::cell::RefCell;

/// The interpreted twin of a generated layout: its spec's type, loaded at run time.
fn twin(e: &Entry) -> &'static Entry {
    let text = std::fs::read_to_string(root().join(e.spec)).unwrap();
    let t = Entry::from_spec(e.spec, &text, Some(e.info.name))
        .unwrap_or_else(|err| panic!("{}: {err}", e.spec));
    assert!(t.is_interpreted());
    t
}

fn context_for(layout: &str) -> Context {
    match layout {
        "meshbin" => Context::new().with_winding(Winding::D3d),
        _ => Context::new(),
    }
}

/// What a field table row says, for comparing rows of two tables.
fn row(f: &FieldInfo) -> String {
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
    let r = e.read_plain(bytes, ctx);
    r.census(&mut c);
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
    let v = e.read_plain(bytes, ctx).verdict;
    v.refused
        .iter()
        .map(|e| format!("refused {e} [{:?}]", e.kind))
        .chain(
            v.findings
                .iter()
                .map(|f| format!("{} {f} [{:?}]", f.severity, f.kind)),
        )
        .collect()
}

/// Everything compared for one input; `deep` adds the census, the builds and the write-back.
fn compare(g: &Entry, i: &Entry, bytes: &[u8], ctx: &Context, deep: bool) -> Result<bool, String> {
    let (vg, vi) = (verdict_lines(g, bytes, ctx), verdict_lines(i, bytes, ctx));
    if vg != vi {
        return Err(format!("verdicts differ: {vg:#?} vs {vi:#?}"));
    }
    let read = !vg.first().is_some_and(|l| l.starts_with("refused"));
    if !read {
        return Ok(false);
    }
    let (wg, wi) = (walk(g, bytes, ctx), walk(i, bytes, ctx));
    if wg != wi {
        return Err(format!("walks differ: {}", first_difference(&wg, &wi)));
    }
    let (rg, ri) = (g.read_plain(bytes, ctx), i.read_plain(bytes, ctx));
    let (dg, di) = (rg.dump(ctx).unwrap(), ri.dump(ctx).unwrap());
    if dg["data"] != di["data"] {
        return Err(format!(
            "dumps differ:\n{}\n{}",
            serde_json::to_string(&dg["data"]).unwrap(),
            serde_json::to_string(&di["data"]).unwrap()
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
    // The dump through JSON text, built by each; and the generated dump built by the
    // interpreter (the two are one format).
    let text = serde_json::to_string(&dg).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    let built = |e: &Entry| match e.build(&back, ctx) {
        Ok(b) => Ok((b.bytes, b.overrides.len())),
        Err(err) => Err(err.to_string()),
    };
    let (pg, pi) = (built(g), built(i));
    if pg != pi {
        return Err(format!(
            "builds differ: {:?} vs {:?}",
            pg.map(|b| (b.0.len(), b.1)),
            pi.map(|b| (b.0.len(), b.1))
        ));
    }
    Ok(true)
}

fn check(g: &Entry, i: &Entry, name: &str, bytes: &[u8], ctx: &Context, deep: bool) -> bool {
    compare(g, i, bytes, ctx, deep)
        .unwrap_or_else(|e| panic!("{name} ({} bytes): {e}", bytes.len()))
}

#[test]
fn every_type_of_every_spec_loads_and_its_table_is_the_generated_one() {
    let mut n = 0;
    for e in LAYOUTS {
        let i = twin(e);
        assert_eq!(i.id, e.id);
        assert_eq!(i.description, e.description);
        assert_eq!(i.unknown, e.unknown);
        assert_eq!(i.params, e.params);
        assert_eq!(i.signature, e.signature);
        let rules =
            |x: &Entry| -> Vec<String> { x.rules.iter().map(|r| format!("{r:?}")).collect() };
        assert_eq!(rules(i), rules(e));
        assert_eq!(i.info.name, e.info.name);
        assert_eq!(i.info.params, e.info.params);
        let rows = |x: &Entry| -> Vec<String> { x.info.fields.iter().map(row).collect() };
        assert_eq!(rows(i), rows(e), "{}", e.id);
        // Conditions over parameters agree on every value the spec's cut-offs name.
        for (gf, jf) in e.info.fields.iter().zip(i.info.fields) {
            if let (Some(a), Some(b)) = (gf.when, jf.when) {
                for v in [0, 40100, 20170300, 20190400, 20230100, 60000000] {
                    assert_eq!(a(&[v]), b(&[v]), "{}.{} at {v}", e.id, gf.id);
                }
            }
        }
        // Loading the same spec again is the same entry (nothing leaked twice).
        assert!(std::ptr::eq(i, twin(e)));
        n += 1;
    }
    // Every type of every spec loads by name.
    for f in meshspec_tests::sorted_paths(&root().join("spec"), |p| {
        p.extension().is_some_and(|x| x == "ksy")
    }) {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = format!("spec/{}", f.file_name().unwrap().to_string_lossy());
        let root_entry = Entry::from_spec(&rel, &text, None).unwrap();
        let types: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  ").and_then(|l| l.strip_suffix(':')))
            .filter(|l| {
                !l.starts_with(' ')
                    && l.chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
            })
            .map(str::to_string)
            .collect();
        for t in types {
            // Top-level keys of the spec's `types` map are types; others are not and fail.
            let _ = Entry::from_spec(&rel, &text, Some(&t));
        }
        assert!(!root_entry.id.is_empty());
    }
    assert!(n >= 17, "only {n} layouts");
}

#[test]
fn bad_specs_are_errors_not_panics() {
    let bad = [
        ("spec/x.ksy", "meta: [1"),
        ("spec/x.ksy", "meta:\n  id: y\n  title: t\n  endian: le\n"),
        ("spec/x.ksy", "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: a\n    type: nope\n"),
        (
            "spec/x.ksy",
            "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: a\n    type: u1\n    repeat: expr\n    repeat-expr: b\n  - id: b\n    type: u1\n",
        ),
        (
            "spec/x.ksy",
            "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: a\n    type: f4\n  - id: b\n    size: a\n",
        ),
    ];
    for (file, text) in bad {
        let e = Entry::from_spec(file, text, None).unwrap_err();
        assert!(e.path_string().contains("(input)"), "{e}");
        assert!(e.to_string().contains("a spec in meshspec's subset"), "{e}");
    }
    let good = "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: a\n    type: u1\n";
    let e = Entry::from_spec("spec/x.ksy", good, Some("nope")).unwrap_err();
    assert!(e.to_string().contains("one of x"), "{e}");
    let e = Entry::interpreted("/nonexistent/x.ksy").unwrap_err();
    assert!(e.to_string().contains("/nonexistent/x.ksy"), "{e}");
}

#[test]
fn the_corpus_reads_the_same_generated_and_interpreted() {
    let mut files = 0;
    let mut inputs = 0;
    let mut read = 0;
    for s in samples() {
        let g = meshspec_formats::find(&s.layout).unwrap();
        let i = twin(g);
        let ctx = context_for(&s.layout);
        let bytes = std::fs::read(&s.path).unwrap();
        let name = s.path.display().to_string();
        read += usize::from(check(g, i, &name, &bytes, &ctx, true));
        files += 1;
        inputs += 1;
        if s.bad || bytes.len() > 1024 {
            continue;
        }
        // Every prefix and every byte changed: the errors of every field, compared.
        for n in 0..bytes.len() {
            read += usize::from(check(
                g,
                i,
                &format!("{name} cut at {n}"),
                &bytes[..n],
                &ctx,
                n % 16 == 0,
            ));
            let mut changed = bytes.clone();
            changed[n] ^= 0xFF;
            read += usize::from(check(
                g,
                i,
                &format!("{name} byte {n} flipped"),
                &changed,
                &ctx,
                n % 16 == 0,
            ));
            inputs += 2;
        }
    }
    eprintln!("interp: {files} corpus files, {inputs} inputs compared, {read} of them read");
    assert!(files >= 100, "only {files} corpus files");
    assert!(inputs >= 10_000, "only {inputs} inputs");
    assert!(read >= 1_000, "only {read} inputs read");
}

#[test]
fn the_shared_unity_meshes_read_the_same_generated_and_interpreted() {
    let Some(shared) =
        shared_or_skip("the_shared_unity_meshes_read_the_same_generated_and_interpreted")
    else {
        return;
    };
    let g = meshspec_formats::find("unity-mesh").unwrap();
    let i = twin(g);
    let mut n = 0;
    for (version, path) in unity_mesh_files(&shared, ".mesh") {
        let ctx = Context::new().with_unity_version(&version).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            check(g, i, &path.display().to_string(), &bytes, &ctx, true),
            "{} does not read",
            path.display()
        );
        // Read as another version: the errors compare too.
        let other = Context::new().with_unity_version("2017.1.0f1").unwrap();
        check(
            g,
            i,
            &format!("{} as 2017.1", path.display()),
            &bytes,
            &other,
            false,
        );
        n += 1;
    }
    assert!(n >= 35, "only {n} Unity meshes");
    // Without the version the layout needs, both refuse alike.
    let bytes = std::fs::read(&unity_mesh_files(&shared, ".mesh")[0].1).unwrap();
    check(g, i, "no version", &bytes, &Context::new(), false);
}

/// A build as compared: the bytes and what was recomputed, or the error.
fn build_of(
    e: &Entry,
    dump: &serde_json::Value,
    ctx: &Context,
) -> Result<(Vec<u8>, Vec<String>), String> {
    match e.build(dump, ctx) {
        Ok(b) => Ok((b.bytes, b.overrides.iter().map(|o| o.to_string()).collect())),
        Err(err) => Err(err.to_string()),
    }
}

#[test]
fn edited_dumps_build_the_same_generated_and_interpreted() {
    let mut builds = 0;
    let mut refused = 0;
    for s in samples().iter().filter(|s| !s.bad) {
        let bytes = std::fs::read(&s.path).unwrap();
        if bytes.len() > 4096 {
            continue;
        }
        let g = meshspec_formats::find(&s.layout).unwrap();
        let i = twin(g);
        let ctx = context_for(&s.layout);
        let dump = g.dump(&bytes, &ctx).unwrap();
        // At most 60 places a file, spread over it.
        for (p, edit, data) in edited(&dump["data"], 60) {
            let mut d = dump.clone();
            d["data"] = data;
            let (bg, bi) = (build_of(g, &d, &ctx), build_of(i, &d, &ctx));
            assert_eq!(
                bg,
                bi,
                "{}: data{p} set to {}: generated and interpreted builds differ",
                s.path.display(),
                edit.to_string().chars().take(80).collect::<String>()
            );
            builds += 1;
            refused += usize::from(bg.is_err());
        }
    }
    eprintln!("interp: {builds} edited dumps built, {refused} refused alike");
    assert!(builds >= 5_000, "only {builds} builds");
    assert!(
        refused >= 1_000 && builds - refused >= 1_000,
        "{refused} of {builds} refused"
    );
}
