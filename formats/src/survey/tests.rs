//! The survey over a synthetic install whose tallies are known, beside `check`'s verdicts on
//! the same files; determinism, merging, and the census hook's verdict against the judge's.

use super::synth::{self, Expected, Plan};
use super::*;
use crate::context::Context;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn unity_meshes() -> Option<PathBuf> {
    let p = repo().join("../shared/corpus/unity/meshes");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("../shared is not beside the checkout: the Unity part of this test is not run");
        None
    }
}

/// A synthetic install in a temporary folder of the test's own, removed when the returned
/// folder is dropped.
fn install() -> (tempfile::TempDir, Expected) {
    let dir = tempfile::Builder::new()
        .prefix("meshspec-survey-")
        .tempdir()
        .unwrap();
    let plan = Plan {
        corpus: repo().join("corpus"),
        unity: unity_meshes(),
        scale: 400,
        large: 2,
    };
    let e = synth::write(dir.path(), &plan).unwrap();
    (dir, e)
}

fn options(threads: usize) -> Options {
    Options {
        unity_version: UnityVersion::Auto,
        threads: Some(threads),
        ..Options::default()
    }
}

#[test]
fn the_synthetic_install_is_counted_as_written() {
    let (tmp, e) = install();
    let dir = &tmp.path().to_path_buf();
    assert!(e.files >= 1_500, "{} files", e.files);
    let r = survey(std::slice::from_ref(dir), &options(2), &());
    assert_eq!((r.files, r.bytes), (e.files, e.bytes));
    assert_eq!(r.skipped_files, e.skipped, "{:#?}", r.skipped);
    for (id, c) in &e.layouts {
        let l = r.layout(id).unwrap_or_else(|| panic!("no census of {id}"));
        assert_eq!(l.tried, c.tried, "{id} tried");
        if *id == "unity-mesh" {
            // (The generator does not choose the Unity meshes' verdicts: check's are below.)
            continue;
        }
        assert_eq!(
            (l.parsed, l.consumed_exactly, l.passed, l.failed),
            (c.parsed, c.consumed_exactly, c.passed, c.tried - c.passed),
            "{id}"
        );
    }
    assert_eq!(
        r.layouts
            .iter()
            .map(|l| l.layout.as_str())
            .collect::<Vec<_>>(),
        e.layouts.keys().copied().collect::<Vec<_>>()
    );
    for ((id, field), want) in &e.values {
        let f = &r.layout(id).unwrap().fields[*field];
        let got: Vec<(Value, u64)> = f.values.kept().map(|(v, n)| (v.clone(), n)).collect();
        let want: Vec<(Value, u64)> = want.iter().map(|(v, n)| (v.clone(), *n)).collect();
        assert_eq!(got, want, "{id} {field}");
        assert!(f.values.rest().is_none(), "{id} {field}");
        assert_eq!(f.occurrences, want.iter().map(|w| w.1).sum::<u64>());
    }
    // Each broken corpus file is a failure of the rule it is named after (or, for the one the
    // reader refuses, of the field that rule protects).
    let sws = r.layout("sws-mesh").unwrap();
    for ((_, rule), n) in &e.broken {
        let group = sws
            .failures
            .iter()
            .chain(&sws.warnings)
            .find(|g| &g.rule == rule || (rule == "data_length" && g.path == "data"))
            .unwrap_or_else(|| panic!("no group for {rule}: {:#?}", sws.failures));
        assert!(group.files >= *n, "{rule}: {} < {n}", group.files);
    }
    // The weak signature's junk and the text files are skipped, each for its reason.
    let reasons: Vec<(&str, &str)> = r
        .skipped
        .iter()
        .map(|s| (s.extension.as_str(), s.reason.as_str()))
        .collect();
    assert!(
        reasons.contains(&(
            "dat",
            "no file of this extension reads as sws-compiled-mesh"
        )),
        "{reasons:?}"
    );
    assert!(reasons
        .iter()
        .any(|(x, why)| *x == "txt" && why.starts_with("no layout claims it")));
}

/// What `check` says of every file the install holds for a layout, grouped as the survey
/// groups: files passed, groups of (path, rule) with their file counts, and per relation the
/// files that broke it.
type Groups = BTreeMap<(String, String), u64>;

fn checked(dir: &Path, id: &str) -> (u64, Groups, BTreeMap<String, u64>) {
    let entry = crate::find(id).unwrap();
    let mut passed = 0;
    let mut groups = BTreeMap::new();
    let mut broken = BTreeMap::new();
    for f in walk::files(&[dir.to_path_buf()], None) {
        let walk::Found::File(f) = f else { continue };
        let ext = walk::extension(&f);
        let is = ext == id || (id == "sws-mesh" && ext == "bin");
        if !is {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        let mut ctx = Context::new();
        ctx.input = Some(f.clone());
        if let Some(v) = walk::version_folder(&f) {
            ctx = ctx.with_param("unity_version", v);
        }
        let v = entry.judge(&bytes, &ctx);
        passed += u64::from(v.passes());
        let mut seen = std::collections::BTreeSet::new();
        for e in v.refused.iter().chain(&v.findings) {
            let path = e.path_pattern();
            let path = if path.is_empty() {
                "(input)".into()
            } else {
                path
            };
            let rule = e
                .relation_id()
                .map_or_else(|| census::kind_word(e.kind), str::to_string);
            seen.insert((path, rule));
        }
        for k in seen {
            *groups.entry(k).or_insert(0) += 1;
        }
        let rels: std::collections::BTreeSet<&str> = v
            .refused
            .iter()
            .chain(&v.findings)
            .filter_map(|e| e.relation_id())
            .collect();
        for r in rels {
            *broken.entry(r.to_string()).or_insert(0) += 1;
        }
    }
    (passed, groups, broken)
}

#[test]
fn the_survey_agrees_with_check_file_by_file() {
    let (tmp, _) = install();
    let dir = &tmp.path().to_path_buf();
    let r = survey(std::slice::from_ref(dir), &options(2), &());
    for l in &r.layouts {
        let (passed, groups, broken) = checked(dir, &l.layout);
        assert_eq!(l.passed, passed, "{}", l.layout);
        let got: BTreeMap<(String, String), u64> = l
            .failures
            .iter()
            .chain(&l.warnings)
            .map(|g| ((g.path.clone(), g.rule.clone()), g.files))
            .fold(BTreeMap::new(), |mut m, (k, n)| {
                *m.entry(k).or_insert(0) += n;
                m
            });
        assert_eq!(got, groups, "{}", l.layout);
        // Every relation's count of broken files is check's.
        for rel in &l.relations {
            assert_eq!(
                rel.broken_files,
                broken.get(&rel.id).copied().unwrap_or(0),
                "{} {}",
                l.layout,
                rel.id
            );
        }
    }
}

#[test]
fn any_thread_count_and_any_split_give_the_same_report() {
    let (tmp, _) = install();
    let dir = &tmp.path().to_path_buf();
    let one = survey(std::slice::from_ref(dir), &options(1), &());
    let two = survey(std::slice::from_ref(dir), &options(2), &());
    assert_eq!(one, two);
    // Two halves, surveyed apart and merged, are the survey of both.
    let (a, b) = (dir.join("meshbin"), dir.join("sws"));
    let both = survey(&[a.clone(), b.clone()], &options(2), &());
    let mut merged = survey(&[a], &options(2), &());
    merged.merge(survey(&[b], &options(2), &()), DEFAULT_CAP);
    assert_eq!(merged, both);
    // And the report reads back from its JSON as it was.
    let json = serde_json::to_string(&two).unwrap();
    assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), two);
}

#[test]
fn a_low_cap_summarises_without_losing_counts() {
    let (tmp, e) = install();
    let dir = &tmp.path().to_path_buf();
    let o = Options {
        cap: 2,
        ..options(2)
    };
    let r = survey(&[dir.join("meshbin")], &o, &());
    let f = &r.layout("meshbin").unwrap().fields["num_vertices"];
    let want = &e.values[&("meshbin", "num_vertices")];
    assert_eq!(f.values.count(), want.values().sum::<u64>());
    let kept: Vec<&Value> = f.values.kept().map(|(v, _)| v).collect();
    assert_eq!(kept, want.keys().take(2).collect::<Vec<_>>());
    let rest = f.values.rest().unwrap();
    assert_eq!(&rest.max, want.keys().last().unwrap());
}

#[test]
fn the_census_judges_as_check_does() {
    // Entry::census runs the same meaning as Entry::judge, plus the visit: the verdicts agree
    // on every shipped corpus file.
    let mut n = 0;
    for f in walk::files(&[repo().join("corpus")], None) {
        let walk::Found::File(f) = f else { continue };
        let Some(entry) = crate::find(&walk::extension(&f)) else {
            continue;
        };
        let bytes = std::fs::read(&f).unwrap();
        let mut ctx = Context::new();
        ctx.input = Some(f.clone());
        let judged = entry.judge(&bytes, &ctx);
        let mut fields = Fields::new(entry.info, DEFAULT_CAP);
        fields.next_file();
        let censused = entry.census(&bytes, &ctx, &mut fields);
        let show = |v: &crate::verdict::Verdict| {
            (
                v.refused.as_ref().map(|e| e.to_string()),
                v.findings.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
                v.notes.clone(),
            )
        };
        assert_eq!(show(&censused), show(&judged), "{}", f.display());
        n += 1;
    }
    assert!(n >= 70, "{n} corpus files");
}

#[test]
fn unity_companions_are_skipped_not_failed() {
    let Some(meshes) = unity_meshes() else { return };
    let o = Options {
        layout: crate::find("unity-mesh"),
        ..options(2)
    };
    let r = survey(&[meshes], &o, &());
    let l = r.layout("unity-mesh").unwrap();
    assert_eq!((l.tried, l.failed), (35, 0), "{:#?}", l.failures);
    let mut exts: Vec<&str> = r.skipped.iter().map(|s| s.extension.as_str()).collect();
    exts.dedup();
    assert_eq!(exts, ["json", "resS", "vertexdata"]);
}

#[test]
fn a_files_first_bytes_say_whether_a_layout_claims_it() {
    // Rule 3 reads only the first bytes of a file no layout's extension names: every corpus
    // file a signature claims is claimed by its first bytes alone.
    for f in walk::files(&[repo().join("corpus")], None) {
        let walk::Found::File(f) = f else { continue };
        let bytes = std::fs::read(&f).unwrap();
        let opened = super::open(&f).and_then(|o| o.head()).unwrap();
        let head = opened.bytes.clone();
        // Read on from the head, the whole file comes back.
        assert_eq!(opened.rest(u64::MAX).unwrap(), bytes, "{}", f.display());
        for e in crate::layouts::LAYOUTS {
            assert_eq!(
                e.claims(&bytes),
                e.claims(&head),
                "{} {}",
                e.id,
                f.display()
            );
        }
    }
}

/// The generated visits show a field the spec calls proven, of numbers, bytes or text, only to
/// a visitor that wants such fields; every other field is shown either way.
#[test]
fn proven_leaves_are_skipped_only_when_asked() {
    use crate::rt::{FieldInfo, Scalar, Visitor};
    struct Seen {
        proven_leaves: bool,
        entered: Vec<&'static FieldInfo>,
    }
    impl Visitor for Seen {
        fn proven_leaves(&self) -> bool {
            self.proven_leaves
        }
        fn enter(&mut self, f: &'static FieldInfo) -> bool {
            self.entered.push(f);
            true
        }
        fn value(&mut self, _: Scalar<'_>) {}
        fn leave(&mut self) {}
    }
    let proven_leaf = |f: &FieldInfo| {
        f.confidence == Some(crate::rt::Confidence::Proven) && !fields::holds_fields(f.ty)
    };
    let mut files = 0;
    for family in ["sws", "rr"] {
        for f in std::fs::read_dir(repo().join("corpus").join(family)).unwrap() {
            let path = f.unwrap().path();
            let Some(entry) = crate::find(&walk::extension(&path)) else {
                continue;
            };
            let bytes = std::fs::read(&path).unwrap();
            let [all, some] = [true, false].map(|proven_leaves| {
                let mut s = Seen {
                    proven_leaves,
                    entered: vec![],
                };
                entry.census(&bytes, &Context::new(), &mut s);
                s.entered
            });
            if entry.judge(&bytes, &Context::new()).refused.is_some() {
                continue;
            }
            files += 1;
            let skipped: Vec<_> = all.iter().filter(|f| proven_leaf(f)).collect();
            assert!(!skipped.is_empty(), "{}", path.display());
            assert!(some.iter().all(|f| !proven_leaf(f)), "{}", path.display());
            let others = |v: &[&FieldInfo]| v.iter().filter(|f| !proven_leaf(f)).count();
            assert_eq!(others(&all), others(&some), "{}", path.display());
        }
    }
    assert!(files >= 10, "{files} files");
}

/// Workers' censuses whose fields cannot be added up node by node (two fields of one id) are
/// added up by path, the first worker's first: the path keeps its first field's type, as
/// whichever census comes first found it.
#[test]
fn censuses_of_twin_fields_are_added_by_path_the_first_first() {
    use crate::rt::{Confidence, FieldInfo, Scalar, TypeInfo, Visitor};
    static X1: FieldInfo = fields::bare_field("x", "u1", Some(Confidence::Unknown));
    static X2: FieldInfo = fields::bare_field("x", "u2", Some(Confidence::Unknown));
    static Y: FieldInfo = fields::bare_field("y", "u4", Some(Confidence::Unknown));
    static ROOT: TypeInfo = TypeInfo {
        name: "root",
        doc: "",
        confidence: Some(Confidence::Proven),
        params: &[],
        fields: &[],
    };
    let entry = crate::find("meshbin").unwrap();
    let census = |field: &'static FieldInfo, v: u64| {
        let mut f = Fields::new(&ROOT, DEFAULT_CAP);
        f.next_file();
        f.leaf(field, Scalar::U(v));
        Census {
            report: LayoutReport::new(entry),
            fields: Some(f),
        }
    };
    for (first, second, ty) in [(&X1, &X2, "u1"), (&X2, &X1, "u2")] {
        let mut c = census(first, 1);
        c.merge(census(second, 2), DEFAULT_CAP);
        assert!(c.fields.is_none());
        c.merge(census(&Y, 3), DEFAULT_CAP);
        c.settle(DEFAULT_CAP);
        let x = &c.report.fields["x"];
        assert_eq!((x.ty.as_str(), x.files), (ty, 2));
        assert_eq!(x.values.count(), 2);
        assert_eq!(c.report.fields["y"].files, 1);
    }
    // Without twins, node by node.
    let mut c = census(&X1, 1);
    c.merge(census(&Y, 3), DEFAULT_CAP);
    assert!(c.fields.is_some());
}
