//! Reading, judging, decoding and writing a .meshbin beside memcpy baselines over the same
//! bytes: the document's 65,508-vertex helix (1,179,148 bytes).
//!
//! `cargo bench -p meshspec-formats --bench meshbin`. Baselines: copying the file into a fresh
//! Vec (what any reader that owns its data must at least do) and into a buffer that is already
//! allocated and touched. The borrowed read validates without copying; the located read also
//! records where every field lies (what the verdict uses); the owned read copies every value.
//! The structural verdict (read located, field checks) of the interpreter of `spec/meshbin.ksy`
//! is measured beside the generated one's, in pairs.

#[path = "support/bench.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meshspec_formats::context::{Context, Winding};
use meshspec_formats::generated::meshbin::Meshbin;
use meshspec_formats::rt::Root;
use std::hint::black_box;
use support::{paired, time};

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
    let copy = || black_box(black_box(&bytes[..]).to_vec());
    time(&mut g, "baseline", "memcpy into a new Vec", copy);
    let mut dst = vec![1u8; bytes.len()];
    time(&mut g, "baseline", "memcpy into a touched buffer", || {
        dst.copy_from_slice(black_box(&bytes[..]));
        black_box(&dst);
    });
    time(&mut g, "meshspec", "borrowed read", || {
        Meshbin::read::<false>(black_box(&bytes), &ctx)
            .unwrap()
            .value
    });
    time(&mut g, "meshspec", "located read", || {
        Meshbin::read::<true>(black_box(&bytes), &ctx).unwrap().pos
    });
    time(&mut g, "meshspec", "owned read", || {
        Meshbin::from_bytes(black_box(&bytes), &ctx).unwrap()
    });
    time(&mut g, "meshspec", "verdict", || {
        entry.judge(black_box(&bytes), &ctx)
    });
    time(&mut g, "meshspec", "write", || mesh.to_bytes(&ctx).unwrap());
    let decode = || {
        let m = Meshbin::read::<false>(black_box(&bytes), &ctx).unwrap();
        black_box(meshspec_formats::meshbin::to_mesh(&m.value, Winding::D3d))
    };
    time(&mut g, "meshspec", "borrowed read + decode", decode);
    // The decode and memcpy side by side: each iteration copies, then decodes, so that both see
    // the same machine (a shared machine's speed drifts by tens of percent between minutes);
    // the time reported is the decode's, the median ratio of the pairs is printed below.
    let mut pairs = paired(&mut g, "meshspec", "decode after memcpy", copy, decode);
    // The same layout read by the interpreter of its spec, loaded at run time.
    let interpreted = meshspec_formats::Entry::interpreted(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../spec/meshbin.ksy"
    ))
    .expect("spec/meshbin.ksy loads");
    let generated_plain = || entry.read_plain(black_box(&bytes), &ctx).verdict;
    let interpreted_plain = || interpreted.read_plain(black_box(&bytes), &ctx).verdict;
    time(&mut g, "meshspec", "structural verdict", generated_plain);
    time(
        &mut g,
        "interpreted",
        "structural verdict",
        interpreted_plain,
    );
    let mut interp = paired(
        &mut g,
        "interpreted",
        "structural verdict after the generated one",
        generated_plain,
        interpreted_plain,
    );
    let mut interp_family = paired(
        &mut g,
        "interpreted",
        "structural verdict after the generated family verdict",
        || entry.judge(black_box(&bytes), &ctx),
        interpreted_plain,
    );
    g.finish();
    support::report("decode ÷ memcpy into a new Vec", &mut pairs);
    support::report("interpreted ÷ generated structural verdict", &mut interp);
    support::report(
        "interpreted structural ÷ generated family verdict",
        &mut interp_family,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
