//! `meshspec dump unity-mesh GAMEFILE --mesh NAME|--path-id N`: one mesh as the `unity-mesh`
//! layout of its file's version reads it.

use super::{given_version, label, needs_one, one, open_one, refused};
use crate::args::{Format, GameSelect};
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::usage::Usage;
use meshspec_formats::context::Context;
use meshspec_formats::unity::files::game::version_text;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub file: PathBuf,
    pub game: GameSelect,
    pub unity_version: Option<String>,
    pub format: Format,
    pub output: Option<PathBuf>,
    pub limit: u64,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity_version.as_deref());
    let sel = needs_one(&mut u, &a.game, "dump");
    let target = Target::of(a.output.as_deref());
    u.output(&target, false);
    u.finish()?;
    let sel = sel.expect("usage checked");

    let g = open_one(&a.file, a.limit, version)?;
    let r = one(&g, &sel)?;
    let input = g.input(r, &Context::new()).map_err(|e| refused(&e))?;
    // The dump is the fixed layout's reading: refused where that disagrees with the type tree.
    let mut dump = input.dump().map_err(|e| refused(&e))?;
    if let Some(notes) = dump.get_mut("notes").and_then(|n| n.as_array_mut()) {
        let from = match input.note() {
            Some(n) => format!("(as {n})"),
            None => "the file's version".into(),
        };
        notes.insert(
            0,
            serde_json::Value::String(format!(
                "Read from {} with the layout of Unity {}, {from}.",
                label(&g, r),
                input.mesh.version.map(version_text).unwrap_or_default()
            )),
        );
    }
    let text = crate::cmd::dump::text(&dump, a.format, &a.file)?;
    output::write(&target, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
