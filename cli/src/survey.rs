//! `meshspec survey`: the researcher's census. Runs the specs over every file under some paths
//! (one layout, or each file's layout by its extension), groups the failures by where and why
//! they fail, and tallies the values of every field the spec marks unknown. Failures are the
//! report, not an error: the exit code is 0 unless `--fail-on-error` is given.

use crate::{layout, read_input, Fail, Opts};
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SurveyArgs {
    /// Files and directories (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The layout to read every file with; by default each file's extension names its layout
    /// (`floor.meshbin`, `cube.sws-mesh`) and other files are skipped.
    #[arg(long)]
    layout: Option<String>,
    /// Only files with this extension (without the dot).
    #[arg(long)]
    ext: Option<String>,
    /// Exit 1 when any file fails.
    #[arg(long)]
    fail_on_error: bool,
    /// How many distinct values to show per unknown field.
    #[arg(long, default_value_t = 8)]
    top: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    opts: Opts,
}

fn files(paths: &[PathBuf], ext: Option<&str>) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            if let Ok(rd) = std::fs::read_dir(&p) {
                let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
                entries.sort();
                stack.extend(entries.into_iter().rev());
            }
        } else if ext.is_none_or(|x| p.extension().and_then(|e| e.to_str()) == Some(x)) {
            out.push(p);
        }
    }
    out
}

/// Collects the values at `path` (`a[].b`) under `v`.
fn values_at<'a>(v: &'a serde_json::Value, path: &str, out: &mut Vec<&'a serde_json::Value>) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let (name, all) = match head.strip_suffix("[]") {
        Some(n) => (n, true),
        None => (head, false),
    };
    let Some(child) = v.get(name) else { return };
    let items: Vec<&serde_json::Value> = if all {
        child
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default()
    } else {
        vec![child]
    };
    for it in items {
        match rest {
            Some(r) => values_at(it, r, out),
            None => out.push(it),
        }
    }
}

fn show(v: &serde_json::Value) -> String {
    let s = match v {
        serde_json::Value::String(s) if s.is_empty() => "(empty)".to_string(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "(absent)".to_string(),
        other => other.to_string(),
    };
    if s.len() > 40 {
        format!("{}… ({} chars)", &s[..40], s.len())
    } else {
        s
    }
}

/// What one layout's files showed.
#[derive(Default)]
struct Report {
    files: usize,
    ok: usize,
    failures: BTreeMap<(String, String), (usize, Vec<String>)>,
    relations: BTreeMap<(String, String), (usize, Vec<String>)>,
    tallies: BTreeMap<&'static str, BTreeMap<String, usize>>,
}

fn note(slot: &mut (usize, Vec<String>), example: String) {
    slot.0 += 1;
    if slot.1.len() < 3 {
        slot.1.push(example);
    }
}

fn survey_file(
    entry: &meshspec_formats::Entry,
    f: &std::path::Path,
    opts: &Opts,
    r: &mut Report,
) -> Result<(), Fail> {
    r.files += 1;
    let ctx = opts.context(Some(f))?;
    let name = f.display().to_string();
    let bytes = match read_input(f) {
        Ok(b) => b,
        Err(Fail(m)) => {
            note(
                r.failures
                    .entry(("Io".into(), "reading the file".into()))
                    .or_default(),
                m,
            );
            return Ok(());
        }
    };
    match entry.check(&bytes, &ctx) {
        Err(e) => {
            let key = (
                format!("{:?}", e.kind),
                format!("{}: expected {}", e.path_pattern(), e.expected),
            );
            note(r.failures.entry(key).or_default(), format!("{name}: {e}"));
        }
        Ok(c) => {
            for rel in &c.relations {
                let why = match rel.relation_id() {
                    Some(id) => format!("relation `{id}`"),
                    None => format!("expected {}", rel.expected),
                };
                let key = (rel.path_pattern(), why);
                note(
                    r.relations.entry(key).or_default(),
                    format!("{name}: {rel}"),
                );
            }
            if c.passes(&ctx) {
                r.ok += 1;
            } else {
                let key = ("Relation".into(), "a relation (listed below)".into());
                note(r.failures.entry(key).or_default(), name.clone());
            }
            if let Ok(dump) = entry.dump(&bytes, &ctx) {
                let data = &dump["data"];
                for path in entry.unknown {
                    let mut vals = vec![];
                    values_at(data, path, &mut vals);
                    let t = r.tallies.entry(path).or_default();
                    for v in vals {
                        *t.entry(show(v)).or_default() += 1;
                    }
                }
            }
        }
    }
    Ok(())
}

fn print(id: &str, r: &Report, top: usize) {
    println!(
        "{id}: {} files, {} ok, {} failed",
        r.files,
        r.ok,
        r.files - r.ok
    );
    if !r.failures.is_empty() {
        println!("  failures, by rule and field:");
        for ((kind, what), (n, ex)) in &r.failures {
            println!("    {n:>6}  {kind:<12} {what}");
            for e in ex {
                println!("              e.g. {e}");
            }
        }
    }
    if !r.relations.is_empty() {
        println!("  relations that do not hold:");
        for ((path, why), (n, ex)) in &r.relations {
            println!("    {n:>6}  {path}: {why}");
            for e in ex {
                println!("              e.g. {e}");
            }
        }
    }
    if !r.tallies.is_empty() {
        println!("  values of the fields the spec marks unknown (in files that parse):");
        for (path, t) in r.tallies.iter().filter(|(_, t)| !t.is_empty()) {
            let total: usize = t.values().sum();
            let mut by: Vec<(&String, &usize)> = t.iter().collect();
            by.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
            println!("    {path}: {total} values, {} distinct", t.len());
            for (v, n) in by.iter().take(top) {
                println!("      {n:>8} x {v}");
            }
            if t.len() > top {
                println!("      ... {} more distinct values", t.len() - top);
            }
        }
    }
}

fn json(id: &str, r: &Report) -> serde_json::Value {
    let groups = |m: &BTreeMap<(String, String), (usize, Vec<String>)>, a: &str, b: &str| {
        m.iter()
            .map(|((x, y), (n, ex))| serde_json::json!({ a: x, b: y, "files": n, "examples": ex }))
            .collect::<Vec<_>>()
    };
    serde_json::json!({
        "layout": id,
        "files": r.files,
        "ok": r.ok,
        "failed": r.files - r.ok,
        "failures": groups(&r.failures, "kind", "where"),
        "relations": groups(&r.relations, "path", "rule"),
        "unknown_fields": r.tallies,
    })
}

pub fn run(a: SurveyArgs) -> Result<ExitCode, Fail> {
    let fixed = a.layout.as_deref().map(layout).transpose()?;
    let list = files(&a.paths, a.ext.as_deref());
    let mut reports: BTreeMap<&'static str, (&'static meshspec_formats::Entry, Report)> =
        BTreeMap::new();
    for f in &list {
        let entry = match fixed {
            Some(e) => e,
            None => match f
                .extension()
                .and_then(|e| e.to_str())
                .and_then(meshspec_formats::find)
            {
                Some(e) => e,
                None => continue,
            },
        };
        let slot = reports
            .entry(entry.id)
            .or_insert((entry, Report::default()));
        survey_file(entry, f, &a.opts, &mut slot.1)?;
    }
    if reports.is_empty() {
        return Err(Fail(
            "no files to survey (give --layout, or files whose extension is a layout id)".into(),
        ));
    }
    let failed: usize = reports.values().map(|(_, r)| r.files - r.ok).sum();
    if a.json {
        let all: Vec<serde_json::Value> = reports.iter().map(|(id, (_, r))| json(id, r)).collect();
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
    } else {
        for (id, (_, r)) in &reports {
            print(id, r, a.top);
        }
    }
    Ok(if failed > 0 && a.fail_on_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
