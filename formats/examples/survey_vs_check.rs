//! The survey's bench without criterion, for a profiler or callgrind (whose instruction counts
//! do not drift with the machine): `survey_vs_check check|survey DIR [PASSES]` runs the one or
//! the other over `DIR` (see `synth_install`) as `benches/survey.rs` does, on `T` threads
//! (default 1). For example
//! `valgrind --tool=callgrind target/release/examples/survey_vs_check survey DIR 2`.
//! `survey_vs_check pairs DIR PASSES` times rounds of check, survey, survey, check and prints
//! the median of each and the ratio.

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/support/check.rs"]
mod support;

use meshspec_formats::survey::{self, Options, UnityVersion};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The survey of `dir`, on `pool`.
fn survey(dir: &Path, pool: &rayon::ThreadPool) -> u64 {
    let o = Options {
        unity_version: UnityVersion::Auto,
        threads: Some(pool.current_num_threads()),
        ..Options::default()
    };
    pool.install(|| survey::survey(&[dir.to_path_buf()], &o, &()).files)
}

/// `passes` rounds of check, survey, survey, check: the median time of each position, so that
/// what one leaves behind for the next shows.
fn pairs(dir: &Path, pool: &rayon::ThreadPool, passes: usize) {
    let mut times: [Vec<f64>; 4] = Default::default();
    for _ in 0..passes {
        for (k, t) in times.iter_mut().enumerate() {
            let start = Instant::now();
            if k == 1 || k == 2 {
                black_box(survey(dir, pool));
            } else {
                black_box(support::check(dir, pool));
            }
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    let mut medians = [0.0; 4];
    for (m, mut t) in medians.iter_mut().zip(times) {
        t.sort_by(f64::total_cmp);
        *m = t.get(t.len() / 2).copied().unwrap_or(0.0);
    }
    let [c1, s1, s2, c2] = medians;
    println!("check after survey {c2:.2} ms, check after check {c1:.2} ms");
    println!("survey after check {s1:.2} ms, survey after survey {s2:.2} ms");
    println!("survey ÷ check: {:.2}×", (s1 + s2) / (c1 + c2));
}

const USAGE: &str = "usage: survey_vs_check check|survey|pairs DIR [PASSES]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(dir)) = (args.first(), args.get(1).map(PathBuf::from)) else {
        eprintln!("{USAGE}");
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
    match what.as_str() {
        "check" => (0..passes).for_each(|_| {
            black_box(support::check(&dir, &pool));
        }),
        "survey" => (0..passes).for_each(|_| {
            black_box(survey(&dir, &pool));
        }),
        "pairs" => pairs(&dir, &pool, passes),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
