//! `meshspec build LAYOUT DUMP`: the file a (possibly edited) dump describes, written only when
//! it passes the same verdict `check` gives.

use crate::args::{AllOpt, InputOpt, QuietOpt, RelationsOpt, UnityEditorOpt, UnityOpt};
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::report::{self, Severity, Verdict};
use crate::usage::{Given, Usage};
use crate::{dump_text, input, term};
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec build`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id.
    pub layout: String,
    /// The dump (JSON or YAML); `-` reads standard input.
    pub dump: PathBuf,
    /// Where to write (`-`: standard output, which must not be a terminal); standard
    /// output if absent.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub editor: UnityEditorOpt,
    #[command(flatten)]
    pub relations: RelationsOpt,
    #[command(flatten)]
    pub lines: AllOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.dump), None);
    let given = Given {
        unity_version: a.unity.unity_version,
        unity_editor: a.editor.unity_editor,
        ..Given::default()
    }
    .relations(a.relations);
    // `auto` finds the version from the dump's folder.
    let mut ctx = u.context(entry, &given, Some(&a.dump));
    ctx.input = None;
    let target = Target::of(a.output.as_deref());
    u.output(&target, true);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let text = input::read(&a.dump, a.input.max_input_size)?;
    let value = dump_text::parse(&text, &a.dump)?;
    let built = entry.build(&value, &ctx)?;
    if !a.quiet.quiet {
        for o in &built.overrides {
            term::err(Severity::Note, &crate::escape::text(&o.to_string()));
        }
    }
    // Every finding on standard error; offsets are in the file that is (or would have been)
    // written.
    let v = Verdict::of(&built.verdict);
    let (listed, omitted) = report::shown(&v.findings, a.lines.all);
    for f in &listed {
        term::err(f.severity, &f.line());
    }
    for o in &omitted {
        term::err(o.severity, &o.line());
    }
    if !built.verdict.passes() {
        let n = v.count(Severity::Error);
        return Err(Fail::about(
            "build",
            "a file that passes `check` (nothing was written)",
            format!("{} {} (above)", n, if n == 1 { "error" } else { "errors" }),
        ));
    }
    output::write(&target, &built.bytes)?;
    Ok(ExitCode::SUCCESS)
}
