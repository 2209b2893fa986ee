//! Kaitai Struct's own language test suite and format gallery (`../shared/kaitai`) read by
//! meshspec: each `spec/ks/*.kst` test's spec loaded, its input read by the interpreter and
//! every assert's expression answered and compared with the expected one; every
//! `formats_err/` spec refused; every gallery spec loaded. The summary is `docs/kaitai.md`:
//! regenerated with `MESHSPEC_BLESS=1`, otherwise compared, so it cannot go stale; the number
//! of tests that pass may only rise, and no test that passed may fail.

use meshspec_formats::{Answer, Context, Entry};
use meshspec_model::syntax::{self, Kind, Node};
use meshspec_tests::{root, shared_or_return, sorted_paths};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What became of one test of the suite.
enum Outcome {
    Pass,
    /// An assert's answer differs from the expected value, or is missing.
    Fail(String),
    /// The spec does not load (the first complaint).
    Load(String),
    /// The input does not read (or reads where Kaitai raises).
    Read(String),
}

impl Outcome {
    fn word(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "wrong value",
            Outcome::Load(_) => "refused at load",
            Outcome::Read(_) => "refused at read",
        }
    }
}

/// A complaint without its place and the path of the item it is about, so that one reason
/// groups the specs it stops (`FILE:L:C: t.f: key `x` is not ...` → `key `x` is not ...`).
fn reason(message: &str) -> String {
    let mut m = message.trim();
    // `... FILE:LINE:COLUMN: ` or `... FILE: `.
    if let Some(at) = m.find(".ksy") {
        m = m[at + 4..].trim_start_matches(|c: char| c.is_ascii_digit() || c == ':');
        m = m.trim_start();
    }
    // `type.field: `, `meta: `, `enum x: ` prefixes name the place, not the reason.
    while let Some((head, rest)) = m.split_once(": ") {
        let place = !head.is_empty()
            && head.split(' ').count() <= 2
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-[] ".contains(c));
        if place && !rest.is_empty() {
            m = rest;
        } else {
            break;
        }
    }
    let m = m.split(" (allowed:").next().unwrap_or(m);
    let m: String = m.chars().take(110).collect();
    m.replace('|', "\\|")
}

/// An expected value or an actual expression, as the `.kst` writes it, as expression text.
fn expr_text(n: &Node) -> String {
    match &n.kind {
        Kind::Int(i) => i.to_string(),
        Kind::Bool(b) => b.to_string(),
        Kind::Float(x) => format!("{x:?}"),
        Kind::Str(s) => s.clone(),
        Kind::Null => "null".into(),
        Kind::Seq(items) => format!(
            "[{}]",
            items.iter().map(expr_text).collect::<Vec<_>>().join(", ")
        ),
        Kind::Map(_) => "?".into(),
    }
}

/// The spec file of a test and its text, as meshspec names it (relative to `../shared/kaitai`).
fn spec_of(kaitai: &Path, dir: &str, id: &str) -> Option<(String, String)> {
    let rel = format!("tests/{dir}/{id}.ksy");
    let text = std::fs::read_to_string(kaitai.join(&rel)).ok()?;
    Some((rel, text))
}

/// Loads spec `rel` (text `text`) the way a command does: through the interpreter.
/// Imports are found beside the file, so the spec is named by its full path; messages name
/// files from `../shared/kaitai`.
fn load(kaitai: &Path, rel: &str, text: &str) -> Result<&'static Entry, String> {
    let full = kaitai.join(rel).to_string_lossy().to_string();
    let prefix = format!("{}/", kaitai.display());
    Entry::interpret(&full, text, None).map_err(|e| e.to_string().replace(&prefix, ""))
}

fn run_test(kaitai: &Path, kst: &Path) -> (String, Outcome) {
    let text = std::fs::read_to_string(kst).unwrap();
    let doc = syntax::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", kst.display()));
    let id = doc.get("id").and_then(Node::text).unwrap_or_default();
    let Some((rel, spec)) = spec_of(kaitai, "formats", &id) else {
        return (id, Outcome::Load("no spec file".into()));
    };
    let entry = match load(kaitai, &rel, &spec) {
        Ok(e) => e,
        Err(e) => return (id, Outcome::Load(e)),
    };
    let data = doc.get("data").and_then(Node::text).unwrap_or_default();
    let input = std::fs::read(kaitai.join("tests/src").join(&data))
        .unwrap_or_else(|e| panic!("{id}: {data}: {e}"));
    let exception = doc.get("exception").map(|n| match &n.kind {
        Kind::Map(_) => n.get("type").and_then(Node::text).unwrap_or_default(),
        _ => n.text().unwrap_or_default(),
    });
    let asserts: Vec<(String, String)> = doc
        .get("asserts")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|a| {
            (
                a.get("actual").map(expr_text).unwrap_or_default(),
                a.get("expected").map(expr_text).unwrap_or_default(),
            )
        })
        .collect();
    let mut exprs: Vec<&str> = vec![];
    for (a, e) in &asserts {
        exprs.push(a);
        exprs.push(e);
    }
    let answers = match entry.query(&input, &Context::new(), &exprs) {
        Err(e) if exception.is_some() => {
            let _ = e;
            return (id, Outcome::Pass);
        }
        Err(e) => return (id, Outcome::Read(e.to_string())),
        Ok(_) if exception.is_some() => {
            return (
                id,
                Outcome::Fail(format!(
                    "reads, where Kaitai raises {}",
                    exception.unwrap_or_default()
                )),
            )
        }
        Ok(a) => a,
    };
    for (k, (actual, expected)) in asserts.iter().enumerate() {
        let (found, wanted) = (&answers[2 * k], &answers[2 * k + 1]);
        let ok = match (found, wanted) {
            (Ok(f), Ok(w)) => f.same(w) || (expected == "null" && *f == Answer::Null),
            (Ok(f), Err(_)) if expected == "null" => *f == Answer::Null,
            _ => false,
        };
        if !ok {
            let show = |r: &Result<Answer, String>| match r {
                Ok(a) => a.to_string(),
                Err(e) => format!("no answer ({e})"),
            };
            return (
                id,
                Outcome::Fail(format!(
                    "`{actual}`: expected {expected} = {}, found {}",
                    show(wanted),
                    show(found)
                )),
            );
        }
    }
    (id, Outcome::Pass)
}

/// Every `.ksy` under `dir`, at any depth, sorted.
fn ksy_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for p in sorted_paths(dir, |_| true) {
        if p.is_dir() {
            out.extend(ksy_under(&p));
        } else if p.extension().is_some_and(|x| x == "ksy") {
            out.push(p);
        }
    }
    out
}

/// A table of reasons: each reason, how many, and up to three of the items it stops.
fn reasons_table(out: &mut String, rows: &[(String, String)]) {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (item, why) in rows {
        by.entry(reason(why)).or_default().push(item.clone());
    }
    let mut by: Vec<(String, Vec<String>)> = by.into_iter().collect();
    by.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    out.push_str("| Count | Reason | For example |\n|---:|---|---|\n");
    for (why, items) in by {
        let some: Vec<&str> = items.iter().take(3).map(String::as_str).collect();
        let _ = writeln!(out, "| {} | {why} | {} |", items.len(), some.join(", "));
    }
    out.push('\n');
}

/// The tests `docs/kaitai.md` records as passing.
fn recorded_passes(doc: &str) -> Vec<String> {
    let Some((_, rest)) = doc.split_once("## Tests that pass\n") else {
        return vec![];
    };
    rest.lines()
        .take_while(|l| !l.starts_with("## "))
        .flat_map(|l| l.split(", "))
        .map(|w| w.trim().trim_matches('`').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn kaitai_suite_and_gallery_as_docs_kaitai_md_records() {
    let shared = shared_or_return!();
    let kaitai = shared.join("kaitai").canonicalize().unwrap();
    // Where the suite's absolute imports are found (its compiler's `-I`).
    meshspec_formats::add_import_dir(kaitai.join("tests/formats/ks_path"));
    meshspec_formats::add_import_dir(kaitai.join("gallery"));
    // The suite: every `.kst` test.
    let tests = sorted_paths(&kaitai.join("tests/spec/ks"), |p| {
        p.extension().is_some_and(|x| x == "kst")
    });
    let outcomes: Vec<(String, Outcome)> = tests.iter().map(|t| run_test(&kaitai, t)).collect();
    let count = |w: &str| outcomes.iter().filter(|(_, o)| o.word() == w).count();
    let passed: Vec<&str> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Pass))
        .map(|(id, _)| id.as_str())
        .collect();
    // Specs a compiler must refuse.
    let errs = sorted_paths(&kaitai.join("tests/formats_err"), |p| {
        p.extension().is_some_and(|x| x == "ksy")
    });
    let mut err_loaded = vec![];
    for p in &errs {
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let (rel, text) = spec_of(&kaitai, "formats_err", &name).unwrap();
        if load(&kaitai, &rel, &text).is_ok() {
            err_loaded.push(name);
        }
    }
    // The gallery.
    let gallery = ksy_under(&kaitai.join("gallery"));
    let mut gallery_refused = vec![];
    for p in &gallery {
        let rel = p
            .strip_prefix(&kaitai)
            .unwrap()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(p).unwrap();
        if let Err(e) = load(&kaitai, &rel, &text) {
            let name = p.strip_prefix(kaitai.join("gallery")).unwrap();
            gallery_refused.push((name.to_string_lossy().to_string(), e));
        }
    }

    let mut doc = String::new();
    doc.push_str(
        "# Kaitai's test suite and format gallery, read by meshspec\n\n\
         Written by `tests/kaitai.rs` (`MESHSPEC_BLESS=1 cargo test -p meshspec-tests --test kaitai`\n\
         rewrites it; otherwise the test fails when it is stale) over `../shared/kaitai` (see its\n\
         README): each test of Kaitai's language suite (`tests/spec/ks/*.kst`) has its spec loaded\n\
         (`tests/formats/ID.ksy`), its input read by the interpreter, and every assert's `actual`\n\
         expression answered over the value read and compared with `expected` (itself an\n\
         expression); a test that names an `exception` passes when the reading is refused. The\n\
         specs of `tests/formats_err/` must all be refused, and the gallery's specs should load.\n\n",
    );
    let _ = writeln!(doc, "## Summary\n");
    let _ = writeln!(
        doc,
        "- Suite: **{} of {} tests pass**; {} give a wrong value, {} specs are refused at load, {} inputs are refused at read.",
        count("pass"),
        outcomes.len(),
        count("wrong value"),
        count("refused at load"),
        count("refused at read")
    );
    let _ = writeln!(
        doc,
        "- Specs Kaitai refuses (`formats_err/`): {} of {} refused{}.",
        errs.len() - err_loaded.len(),
        errs.len(),
        if err_loaded.is_empty() {
            String::new()
        } else {
            format!(
                "; loaded although Kaitai refuses them: {}",
                err_loaded.join(", ")
            )
        }
    );
    let _ = writeln!(
        doc,
        "- Gallery: **{} of {} specs load**.\n",
        gallery.len() - gallery_refused.len(),
        gallery.len()
    );
    for (title, word) in [
        ("Suite: refused at load", "refused at load"),
        ("Suite: refused at read", "refused at read"),
        ("Suite: wrong values", "wrong value"),
    ] {
        let rows: Vec<(String, String)> = outcomes
            .iter()
            .filter(|(_, o)| o.word() == word)
            .map(|(id, o)| {
                let why = match o {
                    Outcome::Load(w) | Outcome::Read(w) | Outcome::Fail(w) => w.clone(),
                    Outcome::Pass => String::new(),
                };
                (id.clone(), why)
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(doc, "## {title}\n");
        if word == "wrong value" {
            for (id, why) in &rows {
                let _ = writeln!(doc, "- `{id}`: {}", why.replace('\n', " "));
            }
            doc.push('\n');
        } else {
            reasons_table(&mut doc, &rows);
        }
    }
    if !gallery_refused.is_empty() {
        let _ = writeln!(doc, "## Gallery: refused at load\n");
        reasons_table(&mut doc, &gallery_refused);
    }
    let _ = writeln!(doc, "## Tests that pass\n");
    for chunk in passed.chunks(8) {
        let names: Vec<String> = chunk.iter().map(|p| format!("`{p}`")).collect();
        let _ = writeln!(doc, "{}", names.join(", "));
    }

    let path = root().join("docs/kaitai.md");
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    if std::env::var_os("MESHSPEC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &doc).unwrap();
        return;
    }
    let before = recorded_passes(&recorded);
    let lost: Vec<&String> = before
        .iter()
        .filter(|id| !passed.contains(&id.as_str()))
        .collect();
    assert!(
        lost.is_empty(),
        "tests of Kaitai's suite that passed now fail: {lost:?} (docs/kaitai.md)"
    );
    assert!(
        passed.len() >= before.len(),
        "{} tests pass, docs/kaitai.md records {}",
        passed.len(),
        before.len()
    );
    assert!(
        recorded == doc,
        "docs/kaitai.md is stale: run `MESHSPEC_BLESS=1 cargo test -p meshspec-tests --test kaitai` and review the difference"
    );
}
