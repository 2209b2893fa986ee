//! Unity game files: the five bundles of the shared corpus (or, without `../shared`, the three
//! bundles of `corpus/unity/`), opened, every mesh found and decoded; beside it the floor of
//! that work, decompressing the bundles' blocks alone, and the decoding alone on opened files.
//!
//! A second group opens a UnityWeb bundle (the shared corpus's Web Player file, or without it
//! `corpus/unity/web.unity-web`) beside the floor of that work, its LZMA payload decompressed
//! alone by liblzma into a buffer of its size; opening may cost that plus at most 10%. The two
//! are also measured in pairs (each iteration decompresses, then opens), whose median ratio is
//! printed.
//!
//! `cargo bench -p meshspec-formats --bench unity_files`. `tools/unitypy-bench.sh` runs UnityPy
//! on the same bundles for the ratio.

#[path = "support/bench.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_web::UnityWeb;
use meshspec_formats::rt::Root;
use meshspec_formats::unity::files::bundle::Bundle;
use meshspec_formats::unity::files::{GameFiles, Limits, Shared};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use support::{paired, time};

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
    // Shared as the command line's memory maps are (opening copies nothing it need not).
    let bytes: Vec<Shared> = files
        .iter()
        .map(|f| Shared::new(std::fs::read(f).unwrap()))
        .collect();
    let total: usize = bytes.iter().map(|b| b.len()).sum();
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    time(
        &mut g,
        "meshspec",
        "open, find every mesh, decode it",
        || {
            let mut n = 0;
            for f in &files {
                let gf = GameFiles::open(std::slice::from_ref(f)).unwrap();
                n += decode_all(&gf);
            }
            n
        },
    );
    time(&mut g, "baseline", "decompress the bundles only", || {
        for x in &bytes {
            black_box(Bundle::open(black_box(x), &Limits::default()).unwrap());
        }
    });
    let opened: Vec<GameFiles> = files
        .iter()
        .map(|f| GameFiles::open(std::slice::from_ref(f)).unwrap())
        .collect();
    let decode = || opened.iter().map(decode_all).sum::<usize>();
    time(
        &mut g,
        "meshspec",
        "find every mesh and decode it (files open)",
        decode,
    );
    g.finish();
}

/// The UnityWeb bundle to open: the real Web Player file, or the corpus's.
fn web_bundle() -> (String, Vec<u8>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let real = root.join("../shared/corpus/unity-real/gimballock/Web Player.unity3d");
    match std::fs::read(&real) {
        Ok(b) => ("unityweb-web-player".into(), b),
        Err(_) => {
            eprintln!(
                "SKIPPED: {} is missing: benchmarking corpus/unity/web.unity-web instead",
                real.display()
            );
            let b = std::fs::read(root.join("corpus/unity/web.unity-web")).unwrap();
            ("unityweb-corpus".into(), b)
        }
    }
}

/// The payload's `.lzma` stream decompressed by liblzma alone, into a buffer of its size.
fn lzma_alone(stream: &[u8], size: usize) -> Vec<u8> {
    use liblzma::stream::{Action, Status, Stream};
    let mut s = Stream::new_lzma_decoder(u64::MAX).unwrap();
    let mut out = Vec::with_capacity(size);
    let status = s.process_vec(stream, &mut out, Action::Finish).unwrap();
    assert!(status == Status::StreamEnd || out.len() == size);
    out
}

fn bench_web(c: &mut Criterion) {
    let (name, bytes) = web_bundle();
    // The payload and its size, as the spec reads them.
    let web = UnityWeb::read::<false>(&bytes, &Context::new())
        .unwrap()
        .value;
    let last = web.header.levels.get(web.header.levels.len() - 1).unwrap();
    let stream = &web.payload[..last.len_compressed as usize];
    let size = last.len_uncompressed as usize;
    assert_eq!(lzma_alone(stream, size).len(), size);
    let limits = Limits::for_input(bytes.len() as u64);
    let shared = Shared::new(bytes.clone());
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(size as u64));
    let alone = || lzma_alone(black_box(stream), size);
    time(
        &mut g,
        "baseline",
        "decompress the LZMA payload alone (liblzma)",
        alone,
    );
    let open = || Bundle::open(black_box(&shared), &limits).unwrap();
    time(&mut g, "meshspec", "open the bundle", open);
    let label = "open after decompressing alone";
    let mut ratios = paired(&mut g, "meshspec", label, alone, open);
    g.finish();
    support::report("open ÷ decompress alone", &mut ratios);
}

criterion_group!(benches, bench, bench_web);
criterion_main!(benches);
