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

#[path = "support/check.rs"]
mod check;
#[path = "support/bench.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meshspec_formats::survey::{self, synth, Options, UnityVersion};
use std::path::{Path, PathBuf};
use support::{paired, time};

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

fn bench(c: &mut Criterion) {
    let (dir, e) = install();
    let files = check::checked_files(&dir);
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
        // The folder walked as a user's `find | xargs meshspec check` would: the survey walks
        // it too.
        let check = || check::check(&dir, &pool);
        time(&mut g, "check", format!("{threads} threads"), check);
        let o = Options {
            unity_version: UnityVersion::Auto,
            threads: Some(threads),
            ..Options::default()
        };
        let survey = || pool.install(|| survey::survey(std::slice::from_ref(&dir), &o, &()));
        time(&mut g, "survey", format!("{threads} threads"), survey);
        // The two side by side: each iteration runs check, then the survey, so that both
        // see the same machine (a shared machine's speed drifts by tens of percent between
        // minutes); the time reported is the survey's, the ratios are printed below.
        let label = format!("{threads} threads");
        let mut pairs = paired(&mut g, "survey after check", label, check, survey);
        support::report(&format!("survey ÷ check, {threads} threads"), &mut pairs);
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
