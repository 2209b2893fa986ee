//! `meshspec check unity-mesh GAMEFILE...` and `meshspec unity check`: the library's verdict on
//! every mesh of the game files (or those `--mesh` / `--path-id` name), one block of lines per
//! mesh as `check` prints them for a bare file.

use super::{failed_lines, given_version, label, open, opened_failures, targets, version_notes};
use crate::args::{GameSelect, RelationsOpt, RessOpt};
use crate::fail::Fail;
use crate::report::{
    check_lines, thousands, verdict_json, Finding, Severity, Verdict, JSON_VERSION,
};
use crate::term;
use crate::usage::{Given, Usage};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub files: Vec<PathBuf>,
    pub game: GameSelect,
    pub unity_version: Option<String>,
    pub ress: RessOpt,
    pub relations: RelationsOpt,
    pub all: bool,
    pub limit: u64,
    pub json: bool,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity_version.as_deref());
    let given = Given {
        ress: a.ress.ress,
        ..Given::default()
    }
    .relations(a.relations);
    let user = u.context(None, &given, None);
    u.finish()?;

    let g = open(&a.files, a.limit, a.json, version);
    let list = targets(&g, &a.game)?;
    if !a.json {
        for n in version_notes(&g, &list) {
            term::err(Severity::Note, &n);
        }
    }
    let mut failed = 0usize;
    let mut reports = vec![];
    for &r in &list {
        let name = label(&g, r);
        let v = match g.input(r, &user).map(|i| i.judge()) {
            Ok(v) => Verdict::of(&v),
            Err(e) => Verdict::refused(Finding::from_error(&e.error, Severity::Error)),
        };
        if !v.passes() {
            failed += 1;
        }
        if a.json {
            reports.push(verdict_json(json!({ "file": name }), &v, a.all));
        } else {
            term::out_lines(&check_lines(&name, &v, a.all))?;
        }
    }
    let n = list.len();
    if a.json {
        for e in &g.failed {
            let f = Finding::from_error(&e.error, Severity::Error);
            reports.push(verdict_json(
                json!({ "file": e.place }),
                &Verdict::refused(f),
                a.all,
            ));
        }
        term::out_json(&json!({
            "version": JSON_VERSION,
            "command": "check",
            "layout": crate::cmd::unity::MESH,
            "files": reports,
            "ok": n - failed,
            "failed": failed + g.failed.len(),
        }))?;
    } else {
        term::out_lines(&failed_lines(&g))?;
        if n > 1 {
            term::err_text(&format!(
                "{} meshes: {} ok, {} failed",
                thousands(n as u64),
                thousands((n - failed) as u64),
                thousands(failed as u64)
            ));
        }
        opened_failures(&g);
    }
    Ok(if failed == 0 && g.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
