//! `meshspec build LAYOUT DUMP`: the file a (possibly edited) dump describes, written only when
//! it passes the same verdict `check` gives.

use crate::args::{RelationsOpt, UnityOpt};
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::report::{self, Severity, Verdict};
use crate::usage::{Given, Usage};
use crate::{dump_text, input, term};
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub layout: String,
    pub dump: PathBuf,
    pub out: Option<PathBuf>,
    pub unity: UnityOpt,
    pub relations: RelationsOpt,
    pub all: bool,
    pub limit: u64,
    pub quiet: bool,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.dump), None);
    let given = Given {
        unity_version: a.unity.unity_version,
        ..Given::default()
    }
    .relations(a.relations);
    // `auto` finds the version from the dump's folder.
    let mut ctx = u.context(entry, &given, Some(&a.dump));
    ctx.input = None;
    let target = Target::of(a.out.as_deref());
    u.output(&target, true);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let text = input::read(&a.dump, a.limit)?;
    let value = dump_text::parse(&text, &a.dump)?;
    let built = entry.build(&value, &ctx)?;
    if !a.quiet {
        for o in &built.overrides {
            term::err(Severity::Note, &crate::escape::text(&o.to_string()));
        }
    }
    // Every finding on standard error; offsets are in the file that is (or would have been)
    // written.
    let v = Verdict::of(&built.verdict);
    let (listed, omitted) = report::shown(&v.findings, a.all);
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
