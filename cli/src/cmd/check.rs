//! `meshspec check LAYOUT FILE...`: the library's verdict on each file, as the lines
//! docs/cli.md describes or as JSON.

use crate::args::{
    AllOpt, GameSelect, InputOpt, Json, RelationsOpt, RessOpt, UnityEditorOpt, UnityOpt,
};
use crate::fail::{exit, Fail};
use crate::report::{check_lines, thousands, verdict_json, Verdict, JSON_VERSION};
use crate::usage::{Given, Usage};
use crate::{input, term};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec check`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id (see `meshspec layouts`).
    pub layout: String,
    /// The files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub editor: UnityEditorOpt,
    #[command(flatten)]
    pub ress: RessOpt,
    #[command(flatten)]
    pub relations: RelationsOpt,
    #[command(flatten)]
    pub lines: AllOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
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
            crate::cmd::unity::bare_hint(entry, &bytes, ctx, &mut v.refused);
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
        unity_editor: a.editor.unity_editor,
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

    let mut c = Checked::new(a.json.json, a.lines.all);
    for (f, ctx) in a.files.iter().zip(&contexts) {
        c.add(
            &input::shown(f),
            &verdict(entry, f, ctx, a.input.max_input_size)?,
        )?;
    }
    Ok(exit(c.end(entry.id, "files")?))
}

/// The verdicts of a check, printed as they come, or gathered into its JSON document.
pub struct Checked {
    json: bool,
    all: bool,
    checked: usize,
    failed: usize,
    reports: Vec<serde_json::Value>,
}

impl Checked {
    pub fn new(json: bool, all: bool) -> Self {
        Checked {
            json,
            all,
            checked: 0,
            failed: 0,
            reports: vec![],
        }
    }

    /// The verdict on the input `name`: its lines, or its report in the JSON document.
    pub fn add(&mut self, name: &str, v: &Verdict) -> Result<(), Fail> {
        self.checked += 1;
        self.failed += usize::from(!v.passes());
        if self.json {
            let report = verdict_json(json!({ "file": name }), v, self.all);
            self.reports.push(report);
            Ok(())
        } else {
            term::out_lines(&check_lines(name, v, self.all))
        }
    }

    /// The JSON document, or the count of `what` (`files`, `meshes`) when there were several;
    /// whether every input passed.
    pub fn end(self, layout: &str, what: &str) -> Result<bool, Fail> {
        let (n, failed) = (self.checked, self.failed);
        if self.json {
            term::out_json(&json!({
                "version": JSON_VERSION,
                "command": "check",
                "layout": layout,
                "files": self.reports,
                "ok": n - failed,
                "failed": failed,
            }))?;
        } else if n > 1 {
            term::err_text(&format!(
                "{} {what}: {} ok, {} failed",
                thousands(n as u64),
                thousands((n - failed) as u64),
                thousands(failed as u64)
            ));
        }
        Ok(failed == 0)
    }
}
