//! The `meshspec` command line. Its output lines and exit codes are an interface (docs/cli.md):
//! 0 when everything asked for succeeded, 1 when an input was refused, 2 for a usage mistake.

use clap::{CommandFactory, FromArgMatches, ValueEnum};
use std::ffi::OsString;
use std::process::ExitCode;

mod args;
mod cmd;
mod dump_text;
mod escape;
mod fail;
mod input;
mod output;
mod report;
mod survey;
mod term;
mod usage;

use args::{Cli, ColorArg};

use fail::Fail;
use report::Severity;

/// `--color`, found before clap parses (so that clap's own messages follow it too).
fn color_arg(args: &[OsString]) -> ColorArg {
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    let mut found = ColorArg::Auto;
    while let Some(a) = it.next() {
        let value = match a.as_ref() {
            "--" => break,
            "--color" => it.next().map(|v| v.into_owned()),
            other => other.strip_prefix("--color=").map(str::to_string),
        };
        if let Some(c) = value.and_then(|v| ColorArg::from_str(&v, true).ok()) {
            found = c;
        }
    }
    found
}

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`meshspec dump ... | head`) instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<OsString> = std::env::args_os().collect();
    let color = color_arg(&argv);
    term::init(color);
    let clap_color = match color {
        ColorArg::Auto => clap::ColorChoice::Auto,
        ColorArg::Always => clap::ColorChoice::Always,
        ColorArg::Never => clap::ColorChoice::Never,
    };
    let cli = Cli::command()
        .color(clap_color)
        .try_get_matches_from(argv)
        .and_then(|m| Cli::from_arg_matches(&m))
        .unwrap_or_else(|e| e.exit());
    // How many times each layout read an input, for the test that a command reads each input
    // once (`MESHSPEC_READINGS=1`: one JSON line on standard error at the end).
    let count = std::env::var_os("MESHSPEC_READINGS").is_some();
    if count {
        meshspec_formats::rt::readings::start();
    }
    let code = match cmd::run(cli) {
        Ok(code) => code,
        Err(f) => {
            match &f {
                Fail::Usage(problems) => {
                    for p in problems {
                        term::err(Severity::Error, p);
                    }
                }
                Fail::Refused(finding) => term::err(Severity::Error, &finding.line()),
            }
            f.code()
        }
    };
    if count {
        let counted = meshspec_formats::rt::readings::counted();
        eprintln!(
            "meshspec readings: {}",
            serde_json::to_string(&counted).unwrap_or_default()
        );
    }
    code
}
