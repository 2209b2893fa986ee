//! `meshspec dump LAYOUT FILE`: every field, as JSON or YAML.

use crate::args::{Format, GameSelect, UnityOpt};
use crate::fail::Fail;
use crate::input;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(
    layout: String,
    file: PathBuf,
    format: Format,
    out: Option<PathBuf>,
    unity: UnityOpt,
    limit: u64,
    game: GameSelect,
) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&layout);
    u.files(std::slice::from_ref(&file), None);
    crate::cmd::unity::not_a_game_file(&mut u, &layout, &game, false);
    let given = Given {
        unity_version: unity.unity_version,
        ..Given::default()
    };
    let ctx = u.context(entry, &given, Some(&file));
    let target = Target::of(out.as_deref());
    u.output(&target, false);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let bytes = input::read(&file, limit)?;
    let dump = entry.dump(&bytes, &ctx)?;
    let text = text(&dump, format, &file)?;
    output::write(&target, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// A dump of `file` as text in `format`.
pub fn text(
    dump: &serde_json::Value,
    format: Format,
    file: &std::path::Path,
) -> Result<String, Fail> {
    Ok(match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(dump).expect("JSON values always serialize");
            s.push('\n');
            s
        }
        Format::Yaml => serde_norway::to_string(dump)
            .map_err(|e| Fail::about(input::shown(file), "a dump YAML can carry", e.to_string()))?,
    })
}
