//! Unity game files: the five bundles of the shared corpus (or, without `../shared`, the three
//! bundles of `corpus/unity/`), opened, every mesh found and decoded; beside it the floor of
//! that work, decompressing the bundles' blocks alone, and the decoding alone on opened files.
//!
//! `cargo bench -p meshspec-formats --bench unity_files`. `tools/unitypy-bench.sh` runs UnityPy
//! on the same bundles for the ratio.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use meshspec_formats::context::Context;
use meshspec_formats::unity::files::bundle::Bundle;
use meshspec_formats::unity::files::{GameFiles, Limits};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn bundles() -> (String, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = root.join("../shared/corpus/unity/bundles");
    let mut files = vec![];
    if let Ok(dirs) = std::fs::read_dir(&shared) {
        for d in dirs.flatten() {
            files.push(d.path().join("assetbundle"));
        }
    }
    files.sort();
    if files.is_empty() {
        eprintln!(
            "SKIPPED: {} is missing: benchmarking corpus/unity's bundles instead",
            shared.display()
        );
        let local = root.join("corpus/unity");
        files = ["stored", "lz4", "lzma"]
            .iter()
            .map(|n| local.join(format!("{n}.unity-bundle")))
            .collect();
        return ("corpus-bundles".into(), files);
    }
    ("shared-bundles".into(), files)
}

fn decode_all(g: &GameFiles) -> usize {
    let mut n = 0;
    for r in g.meshes() {
        let input = g.input(r, &Context::new()).unwrap();
        n += input.decode().unwrap().scene.meshes.len();
    }
    n
}

fn bench(c: &mut Criterion) {
    let (name, files) = bundles();
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let total: usize = bytes.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function(
        BenchmarkId::new("meshspec", "open, find every mesh, decode it"),
        |b| {
            b.iter(|| {
                let mut n = 0;
                for f in &files {
                    let gf = GameFiles::open(std::slice::from_ref(f)).unwrap();
                    n += decode_all(&gf);
                }
                black_box(n)
            })
        },
    );
    g.bench_function(
        BenchmarkId::new("baseline", "decompress the bundles only"),
        |b| {
            b.iter(|| {
                for x in &bytes {
                    black_box(Bundle::open(black_box(x), &Limits::default()).unwrap());
                }
            })
        },
    );
    let opened: Vec<GameFiles> = files
        .iter()
        .map(|f| GameFiles::open(std::slice::from_ref(f)).unwrap())
        .collect();
    g.bench_function(
        BenchmarkId::new("meshspec", "find every mesh and decode it (files open)"),
        |b| b.iter(|| black_box(opened.iter().map(decode_all).sum::<usize>())),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
