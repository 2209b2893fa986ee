//! One module per command; [`run`] dispatches.

use crate::args::{Cli, Command};
use crate::fail::Fail;
use std::process::ExitCode;

pub mod build;
pub mod check;
pub mod dump;
pub mod explain;
pub mod export;
pub mod import;
pub mod info;
mod layouts;
mod meta;
pub mod unity;

/// Runs the command line's command: `check`, `info`, `dump` and `export` of `unity-mesh` on a
/// game file (or a folder) are the game-file forms.
pub fn run(cli: Cli) -> Result<ExitCode, Fail> {
    match cli.command {
        Command::Layouts { spec, json } => layouts::run(spec.as_deref(), json.json),
        Command::Check(a) if unity::is_game(&a.layout, &a.files) => {
            game_only(a.editor)?;
            unity::check::run(game_check(a))
        }
        Command::Check(a) => check::run(a),
        Command::Info(a) if unity::is_game(&a.layout, [&a.file]) => unity::info::run(a),
        Command::Info(a) => info::run(a),
        Command::Dump(a) if unity::is_game(&a.layout, [&a.file]) => {
            game_only(a.editor)?;
            unity::dump::run(game_dump(a))
        }
        Command::Dump(a) => dump::run(a),
        Command::Build(a) => build::run(a),
        Command::Export(a) if unity::is_game(&a.layout, [&a.file]) => {
            game_only(a.editor)?;
            unity::export::run(game_export(a))
        }
        Command::Export(a) => export::run(a),
        Command::Import(a) => import::run(a),
        Command::Survey(args) => crate::survey::run(args),
        Command::Unity(args) => unity::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Completions { shell } => meta::completions(shell),
        Command::Man { command } => meta::man(command.as_deref()),
    }
}

/// Refuses what only a bare object takes on the game-file form of a layout command.
fn game_only(editor: crate::args::UnityEditorOpt) -> Result<(), Fail> {
    let mut u = crate::usage::Usage::default();
    unity::bare_only(&mut u, editor.unity_editor);
    u.finish()
}

/// `check unity-mesh GAMEFILE...` as `unity check` reads it.
fn game_check(a: check::Args) -> unity::check::Args {
    unity::check::Args {
        files: a.files,
        game: a.game,
        unity: unity::GameVersion {
            unity_version: a.unity.unity_version,
        },
        ress: a.ress,
        relations: a.relations,
        lines: a.lines,
        input: a.input,
        json: a.json,
    }
}

/// `dump unity-mesh GAMEFILE` as `unity dump` reads it.
fn game_dump(a: dump::Args) -> unity::dump::Args {
    unity::dump::Args {
        file: a.file,
        game: a.game,
        unity: unity::GameVersion {
            unity_version: a.unity.unity_version,
        },
        format: a.format,
        output: a.output,
        input: a.input,
    }
}

/// `export unity-mesh GAMEFILE` as `unity export` reads it, with `--mtl` and whether
/// `--winding` was given.
fn game_export(a: export::Args) -> unity::export::Args {
    unity::export::Args {
        files: vec![a.file],
        output: a.output,
        game: a.game,
        every: a.every,
        unity: unity::GameVersion {
            unity_version: a.unity.unity_version,
        },
        non_finite: a.non_finite,
        skin_weights: a.skin_weights,
        ress: a.ress,
        input: a.input,
        quiet: a.quiet,
        json: a.json,
        mtl: a.mtl,
        winding: a.winding.winding.is_some(),
    }
}

/// How a command that writes one output (export, import) ends: its notes as `note:` lines on
/// standard error (unless `quiet`), or with `--json` one document on standard output with
/// every message, whether the output was written, and a refusal among the messages (exit 1)
/// instead of an `error:` line.
pub struct Written<'a> {
    command: &'static str,
    layout: &'a str,
    input: &'a std::path::Path,
    output: &'a crate::output::Target,
    json: bool,
    quiet: bool,
}

impl Written<'_> {
    /// Writes what a command made (its bytes, and the notes about them) to the output, or
    /// reports why it made nothing: one ending for every command that writes one file.
    fn write(&self, made: Result<(Vec<u8>, Vec<String>), Fail>) -> Result<ExitCode, Fail> {
        match made {
            Ok((bytes, notes)) => {
                self.notes(&notes);
                self.end(&notes, crate::output::write(self.output, &bytes))
            }
            Err(e) => self.end(&[], Err(e)),
        }
    }

    fn notes(&self, notes: &[String]) {
        if !self.json && !self.quiet {
            for n in notes {
                crate::term::err(crate::report::Severity::Note, n);
            }
        }
    }

    fn end(&self, notes: &[String], result: Result<(), Fail>) -> Result<ExitCode, Fail> {
        if !self.json {
            return result.map(|_| ExitCode::SUCCESS);
        }
        let mut messages: Vec<serde_json::Value> =
            notes.iter().map(|n| crate::report::note_json(n)).collect();
        let code = match &result {
            Ok(()) => ExitCode::SUCCESS,
            Err(Fail::Refused(f)) => {
                messages.push(f.json());
                ExitCode::from(1)
            }
            Err(Fail::Usage(_)) => return result.map(|_| ExitCode::SUCCESS),
        };
        crate::term::out_json(&serde_json::json!({
            "version": crate::report::JSON_VERSION,
            "command": self.command,
            "layout": self.layout,
            "input": crate::input::shown(self.input),
            "output": self.output.shown(),
            "written": result.is_ok(),
            "messages": messages,
        }))?;
        Ok(code)
    }
}
