//! `meshspec survey`: the researcher's census. The census itself is the library's
//! ([`meshspec_formats::survey`]); this module reads the options, finds usage mistakes before
//! any input is read, shows a progress bar on a terminal, and prints the report (Markdown, or
//! `--json`). Failures are the report, not an error: the exit code is 0 unless
//! `--fail-on-error` is given.

use crate::args::{InputOpt, Json, RelationsArg, RelationsOpt, UnityOpt};
use crate::fail::{exit, Fail};
use crate::report::Line;
use crate::term;
use crate::usage::{needs_unity_version, Usage};
use clap::Args;
use meshspec_formats::context::{unity_version, Relations};
use meshspec_formats::survey::{self, Options, Report, UnityVersion, SURVEY_JSON_VERSION};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SurveyArgs {
    /// Files and folders (searched recursively); with --merge, survey reports (--json).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Read every file with this layout; by default a file's extension names its layout
    /// (`floor.meshbin`), or else the layout whose constants it holds.
    #[arg(long)]
    layout: Option<String>,
    /// Only files whose name ends with `.EXT` (and they always count as the layout's files).
    #[arg(long)]
    ext: Option<String>,
    /// Add up survey reports (`meshspec survey --json` of several installs) instead of reading
    /// files.
    #[arg(long)]
    merge: bool,
    /// Exit 1 when any file fails.
    #[arg(long)]
    fail_on_error: bool,
    /// How many values per field to name (the others are shown as a range).
    #[arg(long, default_value_t = 4, value_name = "N")]
    top: usize,
    /// How many distinct values per field to count exactly (beyond them: a range and a count).
    #[arg(long, default_value_t = survey::DEFAULT_CAP, value_name = "N")]
    cap: usize,
    /// How many threads to read with (default: every core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    json: Json,
    #[command(flatten)]
    unity: UnityOpt,
    #[command(flatten)]
    relations: RelationsOpt,
    #[command(flatten)]
    input: InputOpt,
}

/// A progress bar on standard error (files, bytes, rate, time left), when it is a terminal.
struct Bar {
    bar: indicatif::ProgressBar,
    files: std::sync::atomic::AtomicU64,
}

impl survey::Progress for Bar {
    fn done(&self, bytes: u64) {
        let n = self
            .files
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.bar.inc(bytes);
        self.bar.set_message((n + 1).to_string());
    }
}

fn bar(a: &SurveyArgs) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let (files, bytes) = survey::walk::totals(&a.paths, a.ext.as_deref());
    let pb = indicatif::ProgressBar::new(bytes);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:30} {msg}/{prefix} files, {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
    )
    .ok()?;
    pb.set_style(style);
    pb.set_prefix(files.to_string());
    Some(pb)
}

fn options(a: &SurveyArgs, u: &mut Usage) -> Options {
    let layout = a.layout.as_deref().and_then(|id| u.layout(id));
    let unity_version = match a.unity.unity_version.as_deref() {
        None => UnityVersion::None,
        Some("auto") => UnityVersion::Auto,
        Some(v) => match unity_version(v) {
            Ok(n) => UnityVersion::Given(n),
            Err(_) => {
                u.problem(format!(
                    "--unity-version {}: expected a Unity version such as 2021.3.0f1, or auto",
                    crate::escape::text(v)
                ));
                UnityVersion::None
            }
        },
    };
    if let Some(e) = layout.filter(|e| needs_unity_version(e) && a.unity.unity_version.is_none()) {
        u.problem(format!(
            "layout `{}` needs the Unity version that wrote the files: --unity-version \
             2021.3.0f1, or --unity-version auto (the nearest folder above each file named \
             after a version)",
            e.id
        ));
    }
    if a.jobs == Some(0) {
        u.problem("--jobs: expected at least 1 thread, found 0".into());
    }
    Options {
        layout,
        ext: a.ext.clone(),
        unity_version,
        relations: if a.relations.relations == RelationsArg::Warn {
            Relations::Warn
        } else {
            Relations::Error
        },
        strict: a.relations.strict,
        max_input_size: a.input.max_input_size,
        cap: a.cap.max(1),
        threads: a.jobs,
    }
}

/// The reports named on the command line, added up.
fn merged(a: &SurveyArgs) -> Result<Report, Fail> {
    let mut total = Report::default();
    for p in &a.paths {
        let bytes = crate::input::read(p, a.input.max_input_size)?;
        let shown = crate::input::shown(p);
        let not_a_report = |e: serde_json::Error| {
            Fail::about(
                &shown,
                "a survey report (meshspec survey --json)",
                e.to_string(),
            )
        };
        let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(not_a_report)?;
        if v["command"] != "survey" || v["version"] != SURVEY_JSON_VERSION {
            return Err(Fail::about(
                &shown,
                format!(
                    "a survey report of version {SURVEY_JSON_VERSION} (meshspec survey --json)"
                ),
                format!(
                    "command {}, version {}",
                    crate::escape::text(&v["command"].to_string()),
                    crate::escape::text(&v["version"].to_string())
                ),
            ));
        }
        let r: Report = serde_json::from_value(v).map_err(not_a_report)?;
        total.merge(r, a.cap.max(1));
    }
    Ok(total)
}

pub fn run(a: SurveyArgs) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let o = options(&a, &mut u);
    for p in survey::walk::missing(&a.paths) {
        u.problem(format!("{}: no such file or folder", p.display()));
    }
    if a.merge {
        u.files(&a.paths, None);
    }
    u.finish()?;

    let report = if a.merge {
        merged(&a)?
    } else {
        let pb = bar(&a);
        let r = match &pb {
            Some(pb) => survey::survey(
                &a.paths,
                &o,
                &Bar {
                    bar: pb.clone(),
                    files: 0.into(),
                },
            ),
            None => survey::survey(&a.paths, &o, &()),
        };
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        r
    };
    if a.json.json {
        term::out_json(&report.document())?;
    } else {
        let lines: Vec<Line> = report.markdown(a.top).lines().map(Line::text).collect();
        term::out_lines(&lines)?;
    }
    Ok(exit(report.failed() == 0 || !a.fail_on_error))
}
