//! `meshspec survey`: the researcher's census. Runs the specs over every file under some paths
//! (one layout, or each file's layout by its extension), groups the failures by where and why
//! they fail, and tallies the values of every field the spec marks unknown. Failures are the
//! report, not an error: the exit code is 0 unless `--fail-on-error` is given.

use crate::args::{InputOpt, Json, RelationsOpt, UnityOpt};
use crate::fail::Fail;
use crate::report::{Finding, Line, Verdict, JSON_VERSION};
use crate::term;
use crate::usage::{Given, Usage};
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
    #[command(flatten)]
    json: Json,
    #[command(flatten)]
    unity: UnityOpt,
    #[command(flatten)]
    relations: RelationsOpt,
    #[command(flatten)]
    input: InputOpt,
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
    let n = s.chars().count();
    if n > 40 {
        format!("{}… ({n} chars)", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// A finding's path with element indices left out (`meshbin.indices[]`), so that findings
/// group by field.
fn pattern(f: &Finding) -> String {
    let mut out = String::new();
    let mut in_index = false;
    for c in f.path.as_deref().unwrap_or("(input)").chars() {
        match c {
            '[' => {
                in_index = true;
                out.push(c);
            }
            ']' => {
                in_index = false;
                out.push(c);
            }
            _ if in_index => {}
            _ => out.push(c),
        }
    }
    out
}

/// Groups of findings: how many files, and a few examples.
type Groups = BTreeMap<(String, String), (usize, Vec<String>)>;

/// What one layout's files showed.
#[derive(Default)]
struct Report {
    files: usize,
    ok: usize,
    failures: Groups,
    relations: Groups,
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
    ctx: &meshspec_formats::Context,
    limit: u64,
    r: &mut Report,
) -> Result<(), Fail> {
    r.files += 1;
    let name = f.display().to_string();
    let bytes = match crate::input::read(f, limit) {
        Ok(b) => b,
        Err(Fail::Refused(x)) => {
            let key = ("(file)".into(), format!("expected {}", x.expected));
            note(r.failures.entry(key).or_default(), x.line());
            return Ok(());
        }
        Err(other) => return Err(other),
    };
    let v = Verdict::of(&entry.judge(&bytes, ctx));
    for x in &v.findings {
        match &x.relation {
            None => {
                let key = (pattern(x), format!("expected {}", x.expected));
                note(
                    r.failures.entry(key).or_default(),
                    format!("{name}: {}", x.line()),
                );
            }
            Some(id) => {
                let key = (pattern(x), format!("relation `{id}`"));
                note(
                    r.relations.entry(key).or_default(),
                    format!("{name}: {}", x.line()),
                );
            }
        }
    }
    let parsed = v.findings.iter().all(|x| x.relation.is_some());
    if v.passes() {
        r.ok += 1;
    } else if parsed {
        let key = ("(relations)".into(), "a relation (listed below)".into());
        note(r.failures.entry(key).or_default(), name.clone());
    }
    if parsed {
        if let Ok(dump) = entry.dump(&bytes, ctx) {
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
    Ok(())
}

fn text(id: &str, r: &Report, top: usize) -> Vec<String> {
    let mut out = vec![format!(
        "{id}: {} files, {} ok, {} failed",
        r.files,
        r.ok,
        r.files - r.ok
    )];
    if !r.failures.is_empty() {
        out.push("  failures, by field and rule:".into());
        for ((path, what), (n, ex)) in &r.failures {
            out.push(format!("    {n:>6}  {path}: {what}"));
            for e in ex {
                out.push(format!("              e.g. {e}"));
            }
        }
    }
    if !r.relations.is_empty() {
        out.push("  relations that do not hold:".into());
        for ((path, why), (n, ex)) in &r.relations {
            out.push(format!("    {n:>6}  {path}: {why}"));
            for e in ex {
                out.push(format!("              e.g. {e}"));
            }
        }
    }
    if !r.tallies.is_empty() {
        out.push("  values of the fields the spec marks unknown (in files that parse):".into());
        for (path, t) in r.tallies.iter().filter(|(_, t)| !t.is_empty()) {
            let total: usize = t.values().sum();
            let mut by: Vec<(&String, &usize)> = t.iter().collect();
            by.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
            out.push(format!("    {path}: {total} values, {} distinct", t.len()));
            for (v, n) in by.iter().take(top) {
                out.push(format!("      {n:>8} x {v}"));
            }
            if t.len() > top {
                out.push(format!("      ... {} more distinct values", t.len() - top));
            }
        }
    }
    out
}

fn json(id: &str, r: &Report) -> serde_json::Value {
    let groups = |m: &Groups, a: &str, b: &str| {
        m.iter()
            .map(|((x, y), (n, ex))| serde_json::json!({ a: x, b: y, "files": n, "examples": ex }))
            .collect::<Vec<_>>()
    };
    serde_json::json!({
        "layout": id,
        "files": r.files,
        "ok": r.ok,
        "failed": r.files - r.ok,
        "failures": groups(&r.failures, "path", "rule"),
        "relations": groups(&r.relations, "path", "rule"),
        "unknown_fields": r.tallies,
    })
}

pub fn run(a: SurveyArgs) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let fixed = a.layout.as_deref().map(|id| u.layout(id));
    let given = Given {
        unity_version: a.unity.unity_version.clone(),
        ..Given::default()
    }
    .relations(a.relations);
    let mut work = vec![];
    for f in files(&a.paths, a.ext.as_deref()) {
        let entry = match fixed {
            Some(e) => e,
            None => f
                .extension()
                .and_then(|e| e.to_str())
                .and_then(meshspec_formats::find),
        };
        if let Some(e) = entry {
            let ctx = u.context(Some(e), &given, Some(&f));
            work.push((e, f, ctx));
        } else if fixed.is_some() {
            // The unknown layout is already a problem.
            break;
        }
    }
    if work.is_empty() && !matches!(fixed, Some(None)) {
        u.problem(
            "no files to survey (give --layout, or files whose extension is a layout id)".into(),
        );
    }
    u.finish()?;

    let mut reports: BTreeMap<&'static str, Report> = BTreeMap::new();
    for (entry, f, ctx) in &work {
        let slot = reports.entry(entry.id).or_default();
        survey_file(entry, f, ctx, a.input.max_input_size, slot)?;
    }
    let failed: usize = reports.values().map(|r| r.files - r.ok).sum();
    if a.json.json {
        let all: Vec<serde_json::Value> = reports.iter().map(|(id, r)| json(id, r)).collect();
        term::out_json(&serde_json::json!({
            "version": JSON_VERSION,
            "command": "survey",
            "layouts": all,
        }))?;
    } else {
        let lines: Vec<Line> = reports
            .iter()
            .flat_map(|(id, r)| text(id, r, a.top))
            .map(|t| Line {
                subject: None,
                tag: None,
                text: t,
            })
            .collect();
        term::out_lines(&lines)?;
    }
    Ok(if failed > 0 && a.fail_on_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
