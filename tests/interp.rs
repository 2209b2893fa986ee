//! Generated equals interpreted: every layout of `spec/` read by its generated code and by the
//! interpreter of its `.ksy` gives the same structural verdict (refusal and findings, word for
//! word), the same walk (paths, spans, field facts), the same census (every visitor call), the
//! same dump `data`, the same rebuilt bytes and the same write-back, on every corpus file (good
//! and bad), on every prefix and single-byte change of the small ones, and on the shared
//! corpus's Unity meshes with their versions.

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::fuzzing::edits::edited;
use meshspec_formats::fuzzing::interp::{build, compare, row};
use meshspec_formats::layouts::LAYOUTS;
use meshspec_formats::Entry;
use meshspec_tests::{root, samples, shared_or_skip, unity_mesh_files};

/// The interpreted twin of a generated layout: its spec's type, loaded at run time.
fn twin(e: &Entry) -> &'static Entry {
    let t = meshspec_formats::fuzzing::interp::twin(e)
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
    // Every type of every spec loads by name, its table the spec's type.
    let mut types = 0;
    for f in meshspec_tests::sorted_paths(&root().join("spec"), |p| {
        p.extension().is_some_and(|x| x == "ksy")
    }) {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = format!("spec/{}", f.file_name().unwrap().to_string_lossy());
        let spec = meshspec_model::load(&rel, &text).unwrap();
        let whole = Entry::interpret(&rel, &text, None).unwrap();
        assert_eq!(whole.info.name, spec.id);
        for t in &spec.types {
            let e = Entry::interpret(&rel, &text, Some(&t.name))
                .unwrap_or_else(|err| panic!("{rel}#{}: {err}", t.name));
            assert_eq!(e.info.name, t.name);
            assert_eq!(e.info.fields.len(), t.fields.len());
            types += 1;
        }
    }
    assert!(types >= 90, "only {types} types");
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
        let e = Entry::interpret(file, text, None).unwrap_err();
        assert!(e.path_string().contains("(input)"), "{e}");
        assert!(
            e.to_string().contains("expected a spec meshspec reads"),
            "{e}"
        );
    }
    // A value held in its own type through a switch is Kaitai's (mach_o's load commands): the
    // interpreter reads it, a level of nesting each (the generator refuses it, gaps.rs).
    let nested = "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: k\n    type: u1\n  - id: more\n    type:\n      switch-on: k\n      cases:\n        1: x\n";
    Entry::interpret("spec/x.ksy", nested, None).unwrap();
    let good = "meta:\n  id: x\n  title: t\n  endian: le\nseq:\n  - id: a\n    type: u1\n";
    let e = Entry::interpret("spec/x.ksy", good, Some("nope")).unwrap_err();
    assert!(
        e.to_string().contains("no type `nope` (its types: x)"),
        "{e}"
    );
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
            let (bg, bi) = (build(g, &d, &ctx), build(i, &d, &ctx));
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

#[test]
fn the_fuzz_property_holds_on_the_corpus_files() {
    let mut n = 0;
    for s in samples().iter().filter(|s| !s.bad) {
        let bytes = std::fs::read(&s.path).unwrap();
        if bytes.len() > 4096 {
            continue;
        }
        let pick = LAYOUTS.iter().position(|e| e.id == s.layout).unwrap();
        let data = [&[pick as u8][..], &bytes].concat();
        meshspec_formats::fuzzing::interp::interp_equal(&data);
        n += 1;
    }
    assert!(n >= 30, "only {n} files");
}

/// An edited copy of a family's spec (here `spec/sws_mesh.ksy`), read by the interpreter, has
/// the relations the family checks in Rust checked too, as the edited spec says: at the
/// severity its confidence gives, not at all when it drops the relation, and said to be
/// unchecked when the family's code does not know a relation or the spec reads the input
/// differently from the family's own.
#[test]
fn an_edited_family_spec_keeps_the_familys_relations() {
    let own = std::fs::read_to_string(root().join("spec/sws_mesh.ksy")).unwrap();
    let bad = std::fs::read(root().join("corpus/sws/bad/copy-like-original.sws-mesh")).unwrap();
    let good = std::fs::read(root().join("corpus/sws/hand-authored.sws-mesh")).unwrap();
    let ctx = Context::new();
    let lines = |text: &str, bytes: &[u8]| -> Vec<String> {
        let e = Entry::interpret("edited/sws_mesh.ksy", text, None).unwrap();
        assert!(e.is_interpreted());
        let v = e.judge(bytes, &ctx);
        assert!(v.refused.is_none(), "{v:?}");
        v.findings
            .iter()
            .map(|f| format!("{} {:?} {f}", f.severity, f.relation_id()))
            .collect()
    };
    // The relation `copy_like_original` with another confidence.
    let confidence = |c: &str| {
        let at = own.find("id: copy_like_original").unwrap();
        let from = at + own[at..].find("-confidence: ").unwrap();
        let to = from + own[from..].find('\n').unwrap();
        format!("{}-confidence: {c}{}", &own[..from], &own[to..])
    };

    // A doc edited: the family's finding, as generated code reports it.
    let edited = own.replace("The managed-object byte", "The managed byte");
    assert_ne!(edited, own);
    let found = lines(&edited, &bad);
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("warning Some(\"copy_like_original\")")),
        "{found:#?}"
    );
    let generated = meshspec_formats::find("sws-mesh")
        .unwrap()
        .judge(&bad, &ctx);
    assert_eq!(found.len(), generated.findings.len());

    // Proven: the same finding fails the input.
    let found = lines(&confidence("proven"), &bad);
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("error Some(\"copy_like_original\")")),
        "{found:#?}"
    );
    let e = Entry::interpret("edited/sws_mesh.ksy", &confidence("proven"), None).unwrap();
    assert!(!e.judge(&bad, &ctx).passes());
    assert!(e.judge(&good, &ctx).passes());

    // Dropped from the spec: not checked, not reported.
    let dropped = {
        let at = own.find("  - id: copy_like_original").unwrap();
        let end = at + 2 + own[at + 2..].find("  - id: ").unwrap();
        format!("{}{}", &own[..at], &own[end..])
    };
    let found = lines(&dropped, &bad);
    assert!(
        !found.iter().any(|l| l.contains("copy_like_original")),
        "{found:#?}"
    );

    // A relation the family's code does not know: unchecked, said once.
    let hunch = own.replacen(
        "-relations:\n",
        "-relations:\n  - id: a_hunch\n    doc: Believed, not yet written as an expression.\n    -confidence: inferred\n    -evidence: three files looked at\n",
        1,
    );
    let found = lines(&hunch, &good);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("sws_mesh.a_hunch") && found[0].contains("does not know"),
        "{}",
        found[0]
    );

    // Another shape that reads alike (a `valid` written another way): the two readings are
    // compared field by field, and agree.
    let valid = own.replacen(
        "  - id: managed\n    type: u1\n    valid: 1\n",
        "  - id: managed\n    type: u1\n    valid:\n      any-of: [1]\n",
        1,
    );
    assert_ne!(valid, own);
    let found = lines(&valid, &bad);
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("warning Some(\"copy_like_original\")")),
        "{found:#?}"
    );
    assert!(lines(&valid, &good).is_empty());

    // A field renamed: the family's code was written for other fields, so nothing of it runs
    // and every relation it would check is said to be unchecked.
    let renamed = own.replacen("  - id: managed\n", "  - id: managed_byte\n", 1);
    assert_ne!(renamed, own);
    let found = lines(&renamed, &bad);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("reads the input differently")
            && found[0].contains("submesh.copy_like_original"),
        "{}",
        found[0]
    );
}
