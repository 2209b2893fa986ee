//! `meshspec dump LAYOUT FILE`: every field, as JSON or YAML.

use crate::args::{Format, GameSelect, InputOpt, UnityEditorOpt, UnityOpt};
use crate::fail::Fail;
use crate::input;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec dump`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id.
    pub layout: String,
    /// The file to dump.
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Write to this file instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub editor: UnityEditorOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub game: GameSelect,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.file), None);
    crate::cmd::unity::not_a_game_file(&mut u, &a.layout, &a.game, false);
    let given = Given {
        unity_version: a.unity.unity_version,
        unity_editor: a.editor.unity_editor,
        ..Given::default()
    };
    let ctx = u.context(entry, &given, Some(&a.file));
    let target = Target::of(a.output.as_deref());
    u.output(&target, false);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let bytes = input::read(&a.file, a.input.max_input_size)?;
    let dump = entry.dump(&bytes, &ctx)?;
    write(&dump, a.format, &a.file, &target)
}

/// Writes a dump of `file` as text in `format` to `target`.
pub fn write(
    dump: &serde_json::Value,
    format: Format,
    file: &std::path::Path,
    target: &Target,
) -> Result<ExitCode, Fail> {
    let text = match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(dump).expect("JSON values always serialize");
            s.push('\n');
            s
        }
        Format::Yaml => serde_norway::to_string(dump)
            .map_err(|e| Fail::about(input::shown(file), "a dump YAML can carry", e.to_string()))?,
    };
    output::write(target, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
