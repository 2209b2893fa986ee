//! `meshspec check LAYOUT FILE...`: the library's verdict on each file, as the README's lines or
//! as JSON.

use crate::args::{GameSelect, RelationsOpt, RessOpt, UnityOpt};
use crate::fail::Fail;
use crate::report::{check_lines, thousands, verdict_json, Verdict, JSON_VERSION};
use crate::usage::{Given, Usage};
use crate::{input, term};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub layout: String,
    pub files: Vec<PathBuf>,
    pub unity: UnityOpt,
    pub ress: RessOpt,
    pub relations: RelationsOpt,
    pub all: bool,
    pub limit: u64,
    pub json: bool,
    pub game: GameSelect,
}

/// The verdict on one file: read (within the limit) and checked; a file that cannot be read is
/// refused like one that does not parse.
pub fn verdict(
    entry: &meshspec_formats::Entry,
    file: &std::path::Path,
    ctx: &meshspec_formats::Context,
    limit: u64,
) -> Result<Verdict, Fail> {
    match input::read(file, limit) {
        Ok(bytes) => {
            let mut v = entry.judge(&bytes, ctx);
            crate::cmd::unity::bare_hint(entry, &bytes, &mut v.refused);
            Ok(Verdict::of(&v))
        }
        Err(Fail::Refused(f)) => Ok(Verdict::refused(*f)),
        Err(other) => Err(other),
    }
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(&a.files, Some("survey"));
    crate::cmd::unity::not_a_game_file(&mut u, &a.layout, &a.game, false);
    let given = Given {
        unity_version: a.unity.unity_version,
        ress: a.ress.ress,
        ..Given::default()
    }
    .relations(a.relations);
    let contexts: Vec<_> = a
        .files
        .iter()
        .map(|f| u.context(entry, &given, Some(f)))
        .collect();
    u.finish()?;
    let entry = entry.expect("usage checked");

    let mut failed = 0usize;
    let mut reports = vec![];
    for (f, ctx) in a.files.iter().zip(&contexts) {
        let v = verdict(entry, f, ctx, a.limit)?;
        if !v.passes() {
            failed += 1;
        }
        let name = input::shown(f);
        if a.json {
            reports.push(verdict_json(json!({ "file": name }), &v, a.all));
        } else {
            term::out_lines(&check_lines(&name, &v, a.all))?;
        }
    }
    let n = a.files.len();
    if a.json {
        term::out_json(&json!({
            "version": JSON_VERSION,
            "command": "check",
            "layout": entry.id,
            "files": reports,
            "ok": n - failed,
            "failed": failed,
        }))?;
    } else if n > 1 {
        term::err_text(&format!(
            "{} files: {} ok, {} failed",
            thousands(n as u64),
            thousands((n - failed) as u64),
            thousands(failed as u64)
        ));
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
