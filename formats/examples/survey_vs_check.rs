//! The survey's bench without criterion, for a profiler or callgrind (whose instruction counts
//! do not drift with the machine): `survey_vs_check check|survey DIR [PASSES]` runs the one or
//! the other over `DIR` (see `synth_install`) as `benches/survey.rs` does, on `T` threads
//! (default 1). For example
//! `valgrind --tool=callgrind target/release/examples/survey_vs_check survey DIR 2`.

use meshspec_formats::context::Context;
use meshspec_formats::survey::{self, walk, Options, UnityVersion};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `meshspec check` does for one file of an install: read it, judge it.
fn check_one(f: &std::path::Path, e: &meshspec_formats::Entry) -> bool {
    let Ok(bytes) = std::fs::read(f) else {
        return false;
    };
    let mut ctx = Context::new();
    ctx.input = Some(f.to_path_buf());
    if e.params.contains(&"unity_version") {
        if let Some(v) = walk::version_folder(f) {
            ctx = ctx.with_param("unity_version", v);
        }
    }
    e.judge(&bytes, &ctx).passes()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(dir)) = (args.first(), args.get(1).map(PathBuf::from)) else {
        eprintln!("usage: survey_vs_check check|survey DIR [PASSES]");
        return ExitCode::FAILURE;
    };
    let passes: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let threads: usize = std::env::var("T")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else {
        return ExitCode::FAILURE;
    };
    for _ in 0..passes {
        match what.as_str() {
            "check" => {
                let files: Vec<_> = walk::files(std::slice::from_ref(&dir), None)
                    .filter_map(|f| match f {
                        walk::Found::File(p) => {
                            let ext = walk::extension(&p);
                            let id = if ext == "bin" {
                                "sws-mesh"
                            } else {
                                ext.as_str()
                            };
                            meshspec_formats::find(id).map(|e| (p, e))
                        }
                        walk::Found::Unreadable(..) => None,
                    })
                    .collect();
                let passed =
                    pool.install(|| files.par_iter().filter(|(f, e)| check_one(f, e)).count());
                std::hint::black_box(passed);
            }
            "survey" => {
                let o = Options {
                    unity_version: UnityVersion::Auto,
                    threads: Some(threads),
                    ..Options::default()
                };
                std::hint::black_box(survey::survey(std::slice::from_ref(&dir), &o, &()));
            }
            _ => {
                eprintln!("usage: survey_vs_check check|survey DIR [PASSES]");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
