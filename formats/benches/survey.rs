//! The survey beside `check` over the same synthetic install (`survey::synth`: about 2,500
//! files across the families, some broken, two 1.2 MB meshes, Unity's meshes when the shared
//! corpus is beside the checkout), on 1 and 2 threads.
//!
//! `check` here is what the command does per file over an install: walk the folder, read every
//! file whose layout its extension names and judge it (`Entry::judge`). `survey` walks the folder, reads every file (the
//! skipped ones too), recognises its layout, judges it and tallies its fields.
//!
//! `cargo bench -p meshspec-formats --bench survey`; the target is a survey costing at most
//! 1.5 times what check costs per file: the line `survey ÷ check` it prints is the median of
//! that ratio over pairs of runs made one right after the other.

// The command line's allocator, so that the two cost here what they cost there.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/pairs.rs"]
mod pairs;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use meshspec_formats::context::Context;
use meshspec_formats::survey::{self, synth, Options, UnityVersion};
use meshspec_formats::Entry;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn install() -> (PathBuf, synth::Expected) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir().join(format!("meshspec-survey-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let unity = repo.join("../shared/corpus/unity/meshes");
    let plan = synth::Plan {
        corpus: repo.join("corpus"),
        unity: unity.is_dir().then_some(unity),
        scale: 400,
        large: 2,
    };
    let e = synth::write(&dir, &plan).unwrap();
    (dir, e)
}

/// The files check reads, with their layout.
fn checked_files(dir: &Path) -> Vec<(PathBuf, &'static Entry)> {
    survey::walk::files(&[dir.to_path_buf()], None)
        .filter_map(|f| match f {
            survey::walk::Found::File(p) => {
                let ext = survey::walk::extension(&p);
                let id = if ext == "bin" {
                    "sws-mesh"
                } else {
                    ext.as_str()
                };
                meshspec_formats::find(id).map(|e| (p, e))
            }
            survey::walk::Found::Unreadable(..) => None,
        })
        .collect()
}

fn check_one(f: &Path, e: &Entry) -> bool {
    let bytes = std::fs::read(f).unwrap();
    let mut ctx = Context::new();
    ctx.input = Some(f.to_path_buf());
    if e.params.contains(&"unity_version") {
        if let Some(v) = survey::walk::version_folder(f) {
            ctx = ctx.with_param("unity_version", v);
        }
    }
    e.judge(&bytes, &ctx).passes()
}

fn bench(c: &mut Criterion) {
    let (dir, e) = install();
    let files = checked_files(&dir);
    eprintln!(
        "synthetic install: {} files, {} bytes; check reads {} of them",
        e.files,
        e.bytes,
        files.len()
    );
    let mut g = c.benchmark_group("survey-install");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(8));
    g.throughput(Throughput::Bytes(e.bytes));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(
            BenchmarkId::new("check", format!("{threads} threads")),
            |b| {
                b.iter(|| {
                    // The folder walked as a user's `find | xargs meshspec check` would: the
                    // survey walks it too.
                    let files = checked_files(&dir);
                    pool.install(|| files.par_iter().filter(|(f, e)| check_one(f, e)).count())
                })
            },
        );
        let o = Options {
            unity_version: UnityVersion::Auto,
            threads: Some(threads),
            ..Options::default()
        };
        g.bench_function(
            BenchmarkId::new("survey", format!("{threads} threads")),
            |b| b.iter(|| pool.install(|| survey::survey(std::slice::from_ref(&dir), &o, &()))),
        );
        // The two side by side: each iteration runs check, then the survey, so that both
        // see the same machine (a shared machine's speed drifts by tens of percent between
        // minutes); the time reported is the survey's, the ratios are printed below.
        let mut pairs: Vec<f64> = vec![];
        g.bench_function(
            BenchmarkId::new("survey after check", format!("{threads} threads")),
            |b| {
                b.iter_custom(|iters| {
                    let mut surveyed = std::time::Duration::ZERO;
                    for _ in 0..iters {
                        let t = std::time::Instant::now();
                        let files = checked_files(&dir);
                        pool.install(|| files.par_iter().filter(|(f, e)| check_one(f, e)).count());
                        let checked = t.elapsed();
                        let t = std::time::Instant::now();
                        std::hint::black_box(
                            pool.install(|| survey::survey(std::slice::from_ref(&dir), &o, &())),
                        );
                        let s = t.elapsed();
                        surveyed += s;
                        pairs.push(s.as_secs_f64() / checked.as_secs_f64());
                    }
                    surveyed
                })
            },
        );
        pairs::report(&format!("survey ÷ check, {threads} threads"), &mut pairs);
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
