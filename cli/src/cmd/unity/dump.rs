//! `meshspec dump unity-mesh GAMEFILE --mesh NAME|--path-id N`: one mesh as the `unity-mesh`
//! layout of its file's version reads it.

use super::{given_version, label, needs_one, one, open_one, refused, GameVersion};
use crate::args::{Format, GameSelect, InputOpt};
use crate::fail::Fail;
use crate::output::Target;
use crate::usage::Usage;
use meshspec_formats::context::Context;
use meshspec_formats::unity::files::game::version_text;
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec unity dump`.
#[derive(clap::Args)]
pub struct Args {
    /// The bundle or serialized file.
    pub file: PathBuf,
    #[command(flatten)]
    pub game: GameSelect,
    #[command(flatten)]
    pub unity: GameVersion,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputOpt,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity.unity_version.as_deref());
    let sel = needs_one(&mut u, &a.game, "dump");
    let target = Target::of(a.output.as_deref());
    u.output(&target, false);
    u.finish()?;
    let sel = sel.expect("usage checked");

    let g = open_one(&a.file, a.input.max_input_size, version)?;
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
    crate::cmd::dump::write(&dump, a.format, &a.file, &target)
}
