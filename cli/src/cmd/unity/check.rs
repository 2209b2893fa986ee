//! `meshspec check unity-mesh GAMEFILE...` and `meshspec unity check`: the library's verdict on
//! every mesh of the game files (or those `--mesh` / `--path-id` name), one block of lines per
//! mesh as `check` prints them for a bare file.

use super::{
    failed_lines, given_version, label, open, opened_failures, targets, user_context,
    version_notes, GameVersion,
};
use crate::args::{AllOpt, GameSelect, InputOpt, Json, RelationsOpt, RessOpt};
use crate::cmd::check::Checked;
use crate::fail::{exit, Fail};
use crate::report::{Finding, Severity, Verdict};
use crate::term;
use crate::usage::Usage;
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec unity check`.
#[derive(clap::Args)]
pub struct Args {
    /// Bundles, serialized files, or folders of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub game: GameSelect,
    #[command(flatten)]
    pub unity: GameVersion,
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
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity.unity_version.as_deref());
    let user = user_context(&mut u, &a.ress, Some(a.relations));
    u.finish()?;

    let json = a.json.json;
    let g = open(&a.files, a.input.max_input_size, json, version);
    let list = targets(&g, &a.game)?;
    if !json {
        for n in version_notes(&g, &list) {
            term::err(Severity::Note, &n);
        }
    }
    let refused =
        |e: &meshspec_formats::Error| Verdict::refused(Finding::from_error(e, Severity::Error));
    let mut c = Checked::new(json, a.lines.all);
    for &r in &list {
        let v = match g.input(r, &user).map(|i| i.judge()) {
            Ok(v) => Verdict::of(&v),
            Err(e) => refused(&e.error),
        };
        c.add(&label(&g, r), &v)?;
    }
    // The files that could not be opened: reports among the meshes' (and failures in the
    // count), or lines after them.
    if json {
        for e in &g.failed {
            c.add(&e.place, &refused(&e.error))?;
        }
    } else {
        term::out_lines(&failed_lines(&g))?;
    }
    let passed = c.end(crate::cmd::unity::MESH, "meshes")?;
    if !json {
        opened_failures(&g);
    }
    Ok(exit(passed && g.failed.is_empty()))
}
