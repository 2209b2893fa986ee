//! meshspec beside another tool in the same run, with memcpy of the same bytes as the baseline:
//! Kaitai Struct's Rust parser, generated from the same spec/meshbin.ksy, on the document's
//! 65,508-vertex helix; and a spec meshspec has never had, the gallery's media/stl.ksy, on a
//! 25,000-triangle STL file: meshspec's generated reader, its interpreter reading the spec as
//! loaded at run time, and Kaitai's Rust parser. `cd bench && cargo bench`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kaitai::{BytesReader, KStruct};
use meshspec_bench::meshbin::Meshbin as KaitaiMeshbin;
use meshspec_formats::context::{Context, Winding};
use meshspec_formats::generated::meshbin::Meshbin;
use meshspec_formats::rt::Root;
use std::hint::black_box;

fn helix() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/meshbin/helix.meshbin"
    ))
    .expect("corpus/meshbin/helix.meshbin")
}

fn kaitai_parse(bytes: &[u8]) -> usize {
    let io = BytesReader::from(bytes);
    let m: kaitai::OptRc<KaitaiMeshbin> =
        KaitaiMeshbin::read_into::<_, KaitaiMeshbin>(&io, None, None).expect("the helix parses");
    let n = m.vertices().len();
    n
}

fn bench(c: &mut Criterion) {
    let bytes = helix();
    assert_eq!(kaitai_parse(&bytes), 65_508);
    let ctx = Context::new().with_winding(Winding::D3d);
    let entry = meshspec_formats::find("meshbin").unwrap();
    let mut g = c.benchmark_group("peers-meshbin-helix");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(BenchmarkId::new("baseline", "memcpy into a new Vec"), |b| {
        b.iter(|| black_box(black_box(&bytes[..]).to_vec()))
    });
    g.bench_function(BenchmarkId::new("meshspec", "borrowed read"), |b| {
        b.iter(|| {
            black_box(
                Meshbin::read::<false>(black_box(&bytes), &ctx)
                    .unwrap()
                    .value,
            )
        })
    });
    g.bench_function(BenchmarkId::new("meshspec", "owned read"), |b| {
        b.iter(|| black_box(Meshbin::from_bytes(black_box(&bytes), &ctx).unwrap()))
    });
    g.bench_function(BenchmarkId::new("meshspec", "verdict"), |b| {
        b.iter(|| black_box(entry.judge(black_box(&bytes), &ctx)))
    });
    g.bench_function(BenchmarkId::new("kaitai-rust", "read"), |b| {
        b.iter(|| black_box(kaitai_parse(black_box(&bytes))))
    });
    g.finish();
}

fn kaitai_stl(bytes: &[u8]) -> usize {
    use meshspec_bench::stl::Stl;
    let io = BytesReader::from(bytes);
    let m: kaitai::OptRc<Stl> = Stl::read_into::<_, Stl>(&io, None, None).expect("the STL parses");
    let n = m.triangles().len();
    n
}

fn gallery_stl(c: &mut Criterion) {
    use meshspec_bench::meshspec_stl::Stl;
    let bytes = meshspec_bench::stl_file(25_000);
    assert_eq!(kaitai_stl(&bytes), 25_000);
    let spec = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/kaitai/gallery/media/stl.ksy"
    );
    let text = std::fs::read_to_string(spec).expect("the gallery's stl.ksy");
    let interpreted = meshspec_formats::Entry::interpret(spec, &text, None).unwrap();
    let ctx = Context::new();
    assert!(interpreted.judge(&bytes, &ctx).passes());
    assert_eq!(Stl::findings(&bytes, &()).unwrap().len(), 0);
    let mut g = c.benchmark_group("peers-gallery-stl");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(BenchmarkId::new("baseline", "memcpy into a new Vec"), |b| {
        b.iter(|| black_box(black_box(&bytes[..]).to_vec()))
    });
    g.bench_function(
        BenchmarkId::new("meshspec", "generated borrowed read"),
        |b| b.iter(|| black_box(Stl::read::<false>(black_box(&bytes), &()).unwrap().value)),
    );
    g.bench_function(BenchmarkId::new("meshspec", "generated verdict"), |b| {
        b.iter(|| black_box(Stl::findings(black_box(&bytes), &()).unwrap()))
    });
    g.bench_function(BenchmarkId::new("meshspec", "interpreted verdict"), |b| {
        b.iter(|| black_box(interpreted.judge(black_box(&bytes), &ctx)))
    });
    g.bench_function(BenchmarkId::new("kaitai-rust", "read"), |b| {
        b.iter(|| black_box(kaitai_stl(black_box(&bytes))))
    });
    g.finish();
}

criterion_group!(benches, bench, gallery_stl);
criterion_main!(benches);
