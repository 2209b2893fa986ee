//! One "open, find every mesh, decode it" pass over Unity game files, timed: the meshspec side
//! of `tools/unitypy-bench.sh` (UnityPy runs the same pass there).
//!
//! `cargo run --release -p meshspec-formats --example unity_pass -- [--runs N] [--threads] FILE...`
//! prints the median milliseconds of N passes (default 7). With `--threads`, the files of a
//! pass are opened on threads of their own (the machine's cores share the LZMA work); with
//! `--decompress-only`, a pass only decompresses the bundles (the floor of the work).

use meshspec_formats::context::Context;
use meshspec_formats::unity::files::GameFiles;
use std::path::PathBuf;
use std::time::Instant;

/// One pass that only decompresses each bundle: its decompressed bytes.
fn decompress(files: &[PathBuf]) -> usize {
    use meshspec_formats::unity::files::{bundle::Bundle, Limits};
    files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).expect("the file reads");
            Bundle::open(&bytes, &Limits::default())
                .expect("a bundle")
                .data()
                .expect("the data decompresses")
                .len()
        })
        .sum()
}

/// One pass over `files`: the number of meshes decoded.
fn pass(files: &[PathBuf], threads: bool) -> usize {
    let one = |f: &PathBuf| -> usize {
        let g = GameFiles::open(std::slice::from_ref(f)).expect("the file opens");
        let mut n = 0;
        for r in g.meshes() {
            let input = g.input(r, &Context::new()).expect("the mesh reads");
            let scene = input.decode().expect("the mesh decodes").scene;
            n += scene.meshes.len();
        }
        n
    };
    if threads {
        std::thread::scope(|s| {
            let handles: Vec<_> = files.iter().map(|f| s.spawn(move || one(f))).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .sum()
        })
    } else {
        files.iter().map(one).sum()
    }
}

fn main() {
    let mut runs = 7;
    let mut threads = false;
    let mut only = false;
    let mut files = vec![];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            "--threads" => threads = true,
            "--decompress-only" => only = true,
            _ => files.push(PathBuf::from(a)),
        }
    }
    let mut times = vec![];
    let mut meshes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        meshes = if only {
            decompress(&files)
        } else {
            pass(&files, threads)
        };
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let what = if only {
        format!("{meshes} bytes decompressed")
    } else {
        format!("{meshes} meshes decoded")
    };
    println!(
        "meshspec{}: {} files, {what}: median {:.1} ms of {runs} passes",
        if threads {
            " (a thread per file)"
        } else if only {
            ", decompression only"
        } else {
            ""
        },
        files.len(),
        times[times.len() / 2]
    );
}
