//! Reading, judging, decoding and writing a .meshbin beside memcpy baselines over the same
//! bytes: the document's 65,508-vertex helix (1,179,148 bytes).
//!
//! `cargo bench -p meshspec-formats --bench meshbin`. Baselines: copying the file into a fresh
//! Vec (what any reader that owns its data must at least do) and into a buffer that is already
//! allocated and touched. The borrowed read validates without copying; the located read also
//! records where every field lies (what the verdict uses); the owned read copies every value.

#[path = "support/pairs.rs"]
mod pairs;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use meshspec_formats::context::{Context, Winding};
use meshspec_formats::generated::meshbin::Meshbin;
use meshspec_formats::rt::Root;
use std::hint::black_box;

fn helix() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/meshbin/helix.meshbin"
    );
    std::fs::read(path).expect("corpus/meshbin/helix.meshbin")
}

fn bench(c: &mut Criterion) {
    let bytes = helix();
    let ctx = Context::new().with_winding(Winding::D3d);
    let mesh = Meshbin::from_bytes(&bytes, &ctx).unwrap();
    let entry = meshspec_formats::find("meshbin").unwrap();
    let mut g = c.benchmark_group("meshbin-helix");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(BenchmarkId::new("baseline", "memcpy into a new Vec"), |b| {
        b.iter(|| black_box(black_box(&bytes[..]).to_vec()))
    });
    let mut dst = vec![1u8; bytes.len()];
    g.bench_function(
        BenchmarkId::new("baseline", "memcpy into a touched buffer"),
        |b| {
            b.iter(|| {
                dst.copy_from_slice(black_box(&bytes[..]));
                black_box(&dst);
            })
        },
    );
    g.bench_function(BenchmarkId::new("meshspec", "borrowed read"), |b| {
        b.iter(|| {
            black_box(
                Meshbin::read::<false>(black_box(&bytes), &ctx)
                    .unwrap()
                    .value,
            )
        })
    });
    g.bench_function(BenchmarkId::new("meshspec", "located read"), |b| {
        b.iter(|| black_box(Meshbin::read::<true>(black_box(&bytes), &ctx).unwrap().pos))
    });
    g.bench_function(BenchmarkId::new("meshspec", "owned read"), |b| {
        b.iter(|| black_box(Meshbin::from_bytes(black_box(&bytes), &ctx).unwrap()))
    });
    g.bench_function(BenchmarkId::new("meshspec", "verdict"), |b| {
        b.iter(|| black_box(entry.judge(black_box(&bytes), &ctx)))
    });
    g.bench_function(BenchmarkId::new("meshspec", "write"), |b| {
        b.iter(|| black_box(mesh.to_bytes(&ctx).unwrap()))
    });
    let decode = || {
        let m = Meshbin::read::<false>(black_box(&bytes), &ctx).unwrap();
        black_box(meshspec_formats::meshbin::to_mesh(&m.value, Winding::D3d))
    };
    g.bench_function(
        BenchmarkId::new("meshspec", "borrowed read + decode"),
        |b| b.iter(decode),
    );
    // The decode and memcpy side by side: each iteration copies, then decodes, so that both see
    // the same machine (a shared machine's speed drifts by tens of percent between minutes);
    // the time reported is the decode's, the median ratio of the pairs is printed below.
    let mut pairs: Vec<f64> = vec![];
    g.bench_function(BenchmarkId::new("meshspec", "decode after memcpy"), |b| {
        b.iter_custom(|iters| {
            let mut decoded = std::time::Duration::ZERO;
            for _ in 0..iters {
                let t = std::time::Instant::now();
                black_box(black_box(&bytes[..]).to_vec());
                let copied = t.elapsed();
                let t = std::time::Instant::now();
                decode();
                let d = t.elapsed();
                decoded += d;
                pairs.push(d.as_secs_f64() / copied.as_secs_f64());
            }
            decoded
        })
    });
    g.finish();
    pairs::report("decode ÷ memcpy into a new Vec", &mut pairs);
}

criterion_group!(benches, bench);
criterion_main!(benches);
