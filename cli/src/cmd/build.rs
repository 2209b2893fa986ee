//! `meshspec build LAYOUT DUMP`: the file a (possibly edited) dump describes.

use crate::args::UnityOpt;
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use crate::{dump_text, input};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(
    layout: String,
    dump: PathBuf,
    out: Option<PathBuf>,
    unity: UnityOpt,
    limit: u64,
) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&layout);
    u.files(std::slice::from_ref(&dump), None);
    let given = Given {
        unity_version: unity.unity_version,
        ..Given::default()
    };
    // `auto` finds the version from the dump's folder.
    let mut ctx = u.context(entry, &given, Some(&dump));
    ctx.input = None;
    let target = Target::of(out.as_deref());
    u.output(&target, true);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let text = input::read(&dump, limit)?;
    let value = dump_text::parse(&text, &dump)?;
    let bytes = entry.build(&value, &ctx)?;
    output::write(&target, &bytes)?;
    Ok(ExitCode::SUCCESS)
}
