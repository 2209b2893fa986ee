//! `meshspec survey`: the researcher's census. Runs a layout over every file under some paths,
//! groups the failures by where and why they fail, and tallies the values of every field the
//! spec marks unknown.

use crate::{layout, read_input, Fail, Opts};
use clap::Args;
use meshspec_formats::rt::Seg;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SurveyArgs {
    /// The layout id.
    layout: String,
    /// Files and directories (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only files with this extension (without the dot).
    #[arg(long)]
    ext: Option<String>,
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

/// The error's path with element indices left out, so failures group by field.
fn field_pattern(e: &meshspec_formats::Error) -> String {
    let mut s = String::new();
    for seg in e.path() {
        match seg {
            Seg::Field(n) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(n);
            }
            Seg::Index(_) => s.push_str("[]"),
        }
    }
    s
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
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.len() > 40 {
        format!("{}… ({} chars)", &s[..40], s.len())
    } else {
        s
    }
}

pub fn run(a: SurveyArgs) -> Result<ExitCode, Fail> {
    let entry = layout(&a.layout)?;
    let list = files(&a.paths, a.ext.as_deref());
    if list.is_empty() {
        return Err(Fail("no files found under the given paths".into()));
    }
    let mut ok = 0usize;
    let mut failures: BTreeMap<(String, String), (usize, Vec<String>)> = BTreeMap::new();
    let mut relations: BTreeMap<(String, String), (usize, Vec<String>)> = BTreeMap::new();
    let mut tallies: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    for f in &list {
        let ctx = a.opts.context(Some(f))?;
        let bytes = match read_input(f) {
            Ok(b) => b,
            Err(Fail(m)) => {
                let slot = failures.entry(("io".into(), m)).or_default();
                slot.0 += 1;
                continue;
            }
        };
        let name = f.display().to_string();
        match entry.check(&bytes, &ctx) {
            Err(e) => {
                let slot = failures
                    .entry((
                        format!("{:?}", e.kind),
                        format!("{}: expected {}", field_pattern(&e), e.expected),
                    ))
                    .or_default();
                slot.0 += 1;
                if slot.1.len() < 3 {
                    slot.1.push(format!("{name}: {e}"));
                }
            }
            Ok(c) => {
                for r in &c.relations {
                    let slot = relations
                        .entry((field_pattern(r), r.expected.clone()))
                        .or_default();
                    slot.0 += 1;
                    if slot.1.len() < 3 {
                        slot.1.push(format!("{name}: {r}"));
                    }
                }
                if c.passes(&ctx) {
                    ok += 1;
                } else {
                    let slot = failures
                        .entry(("Relation".into(), "relations (see below)".into()))
                        .or_default();
                    slot.0 += 1;
                }
                if let Ok(dump) = entry.dump(&bytes, &ctx) {
                    let data = &dump["data"];
                    for path in entry.unknown {
                        let mut vals = vec![];
                        values_at(data, path, &mut vals);
                        let t = tallies.entry(path).or_default();
                        for v in vals {
                            *t.entry(show(v)).or_default() += 1;
                        }
                    }
                }
            }
        }
    }
    let failed = list.len() - ok;
    if a.json {
        let report = serde_json::json!({
            "layout": entry.id,
            "files": list.len(),
            "ok": ok,
            "failed": failed,
            "failures": failures.iter().map(|((kind, what), (n, ex))| serde_json::json!({
                "kind": kind, "where": what, "files": n, "examples": ex })).collect::<Vec<_>>(),
            "relations": relations.iter().map(|((path, exp), (n, ex))| serde_json::json!({
                "path": path, "expected": exp, "files": n, "examples": ex })).collect::<Vec<_>>(),
            "unknown_fields": tallies.iter().map(|(p, t)| (p.to_string(), serde_json::to_value(t).unwrap_or_default())).collect::<serde_json::Map<_, _>>(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        println!(
            "{}: {} files, {ok} ok, {failed} failed",
            entry.id,
            list.len()
        );
        if !failures.is_empty() {
            println!("\nfailures, by rule and field:");
            for ((kind, what), (n, ex)) in &failures {
                println!("  {n:>6}  {kind:<12} {what}");
                for e in ex {
                    println!("            e.g. {e}");
                }
            }
        }
        if !relations.is_empty() {
            println!("\nrelations that do not hold:");
            for ((path, exp), (n, ex)) in &relations {
                println!("  {n:>6}  {path}: expected {exp}");
                for e in ex {
                    println!("            e.g. {e}");
                }
            }
        }
        if !tallies.is_empty() {
            println!("\nvalues of the fields the spec marks unknown (in files that parse):");
            for (path, t) in &tallies {
                let total: usize = t.values().sum();
                let mut by: Vec<(&String, &usize)> = t.iter().collect();
                by.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
                println!("  {path}: {} values, {} distinct", total, t.len());
                for (v, n) in by.iter().take(a.top) {
                    println!("    {n:>8} × {v}");
                }
                if t.len() > a.top {
                    println!("    … {} more distinct values", t.len() - a.top);
                }
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
