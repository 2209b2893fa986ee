//! One module per command; [`run`] dispatches.

use crate::args::{Cli, Command};
use crate::fail::Fail;
use std::process::ExitCode;

mod build;
mod check;
mod dump;
pub mod explain;
mod export;
mod import;
pub mod info;
mod layouts;
mod meta;
pub mod unity;

/// Runs the command line's command.
pub fn run(cli: Cli) -> Result<ExitCode, Fail> {
    match cli.command {
        Command::Layouts { json } => layouts::run(json.json),
        Command::Check {
            layout,
            files,
            unity,
            ress,
            relations,
            lines,
            input,
            json,
            game,
        } => {
            if unity::is_game(&layout, &files) {
                unity::check::run(unity::check::Args {
                    files,
                    game,
                    unity_version: unity.unity_version,
                    ress,
                    relations,
                    all: lines.all,
                    limit: input.max_input_size,
                    json: json.json,
                })
            } else {
                check::run(check::Args {
                    layout,
                    files,
                    unity,
                    ress,
                    relations,
                    all: lines.all,
                    limit: input.max_input_size,
                    json: json.json,
                    game,
                })
            }
        }
        Command::Info {
            layout,
            file,
            unity,
            ress,
            relations,
            lines,
            input,
            quiet,
            json,
            game,
        } => {
            let is_game = unity::is_game(&layout, std::slice::from_ref(&file));
            let a = info::Args {
                layout,
                file,
                game,
                unity,
                ress,
                relations,
                all: lines.all,
                limit: input.max_input_size,
                quiet: quiet.quiet,
                json: json.json,
            };
            if is_game {
                unity::info::run(a)
            } else {
                info::run(a)
            }
        }
        Command::Dump {
            layout,
            file,
            format,
            output,
            unity,
            input,
            game,
        } => {
            if unity::is_game(&layout, std::slice::from_ref(&file)) {
                unity::dump::run(unity::dump::Args {
                    file,
                    game,
                    unity_version: unity.unity_version,
                    format,
                    output,
                    limit: input.max_input_size,
                })
            } else {
                dump::run(
                    layout,
                    file,
                    format,
                    output,
                    unity,
                    input.max_input_size,
                    game,
                )
            }
        }
        Command::Build {
            layout,
            dump,
            output,
            unity,
            relations,
            lines,
            input,
            quiet,
        } => build::run(build::Args {
            layout,
            dump,
            out: output,
            unity,
            relations,
            all: lines.all,
            limit: input.max_input_size,
            quiet: quiet.quiet,
        }),
        Command::Export {
            layout,
            file,
            output,
            non_finite,
            mtl,
            skin_weights,
            winding,
            unity,
            ress,
            input,
            quiet,
            json,
            game,
            every,
        } => {
            if unity::is_game(&layout, std::slice::from_ref(&file)) {
                unity::export::run(unity::export::Args {
                    files: vec![file],
                    output,
                    game,
                    all: every.all,
                    non_finite,
                    mtl,
                    skin_weights,
                    winding: winding.winding.is_some(),
                    unity_version: unity.unity_version,
                    ress,
                    limit: input.max_input_size,
                    quiet: quiet.quiet,
                    json: json.json,
                })
            } else {
                export::run(export::Args {
                    layout,
                    file,
                    output,
                    non_finite,
                    mtl,
                    skin_weights,
                    winding,
                    unity,
                    ress,
                    limit: input.max_input_size,
                    quiet: quiet.quiet,
                    json: json.json,
                    game,
                    all: every.all,
                })
            }
        }
        Command::Import {
            layout,
            geometry,
            output,
            mesh,
            like,
            path_id,
            winding,
            input,
            quiet,
            json,
        } => import::run(import::Args {
            layout,
            geometry,
            output,
            mesh,
            like,
            path_id,
            winding,
            limit: input.max_input_size,
            quiet: quiet.quiet,
            json: json.json,
        }),
        Command::Survey(args) => crate::survey::run(args),
        Command::Unity(args) => unity::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Completions { shell } => meta::completions(shell),
        Command::Man { command } => meta::man(command.as_deref()),
    }
}

/// How a command that writes one output (export, import) ends: its notes as `note:` lines on
/// standard error (unless `quiet`), or with `--json` one document on standard output with
/// every message, whether the output was written, and a refusal among the messages (exit 1)
/// instead of an `error:` line.
struct Written<'a> {
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
