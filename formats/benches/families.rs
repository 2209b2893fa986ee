//! Shaun White Skateboarding and Riders Republic meshes: borrowed, located and owned reading,
//! the verdict, writing, decoding and glTF export, beside memcpy of the same bytes, over every
//! corpus file of each layout at once (the corpus meshes are small, 4 to 50 KB: the
//! structure-dominated case, where per-field work shows) and over one large mesh of each,
//! built for the bench (`sws::build`, `rr::build`: about 60,000 vertices, megabytes of runs).
//!
//! `cargo bench -p meshspec-formats --bench families`. Throughput is the bytes of the files,
//! so every line reads as a bandwidth comparable with memcpy's.

#[path = "support/bench.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meshspec_formats::context::{Context, Winding};
use meshspec_formats::export::{self, NonFinite};
use meshspec_formats::generated::rr_mesh::VertexFormat;
use meshspec_formats::generated::{rr_mesh::RrMesh, sws_mesh::SwsMesh};
use meshspec_formats::rr::build::{body, BodySpec, Header, PartSpec};
use meshspec_formats::rr::Form;
use meshspec_formats::rt::Root;
use meshspec_formats::sws::build::{mesh, part, Rng, SecondPartition, Spec};
use std::hint::black_box;
use support::each;

/// Every corpus file of `T`'s layout (`corpus/*/*.ID`), repeated until there are at least
/// `at_least` of them: one iteration reads a few thousand small meshes.
fn files<T: Root>(at_least: usize) -> Vec<Vec<u8>> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut found = vec![];
    for dir in std::fs::read_dir(root).expect("corpus/").flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = f.path();
            if p.extension().is_some_and(|e| e == T::ID) {
                found.push(std::fs::read(&p).expect("a corpus file"));
            }
        }
    }
    assert!(!found.is_empty(), "no corpus file of {}", T::ID);
    let mut out = vec![];
    while out.len() < at_least {
        out.extend(found.iter().cloned());
    }
    out
}

/// An SWS mesh of one 250 x 250 grid patch (62,500 vertices) kept as a SubMesh with a morph
/// channel and two UV sets, over two compiled streams of stride 44.
fn large_sws() -> Vec<u8> {
    let mut rng = Rng(0x5EED_0BE4_C400);
    let grid = part(250, 250, [0.0, 0.0], 2, 1, true, 0x0500_0001).expect("a grid");
    let m = mesh(
        Spec {
            id: 0x9001,
            parts: vec![grid],
            keep_submeshes: true,
            bones: 4,
            stride: 44,
            flags: 0x0011_0157,
            second: SecondPartition::One,
        },
        &mut rng,
    )
    .expect("a mesh");
    m.to_bytes(&Context::new()).expect("it writes")
}

/// An RR body of one 60,000-vertex range of STATIC24 vertices, a triangle strip over them.
fn large_rr() -> Vec<u8> {
    let n = 60_000u32;
    let mut rng = Rng(0x5EED_0BE4_4400);
    let spec = BodySpec {
        form: Form::Ranged,
        header: Header {
            managed_object: 1,
            descriptor_mask: 1,
            generated: 0,
            vertex_stride: 24,
            max_culling_distance: 660.0,
        },
        bones: vec![],
        vertex_format: VertexFormat::STATIC24,
        strides: [24, 0, 0],
        bones_per_vertex: 4,
        streams: [rng.bytes(24 * n as usize), vec![], vec![]],
        parts: vec![PartSpec {
            num_vertices: n,
            triangles: (0..n - 2)
                .map(|i| [i, i + 1 + i % 2, i + 2 - i % 2])
                .collect(),
            material: 0x4D41_5400_0000_0001,
            centre: [0.0; 3],
            half_extent: [1.0; 3],
        }],
        centre: [0.0; 3],
        half_extent: [1.0; 3],
        quantization_factor: 1.0 / 1024.0,
        user_category: 0,
        cpu_copies: false,
        wide_indices: false,
    };
    body(&spec)
        .expect("a body")
        .to_bytes(&Context::new())
        .expect("it writes")
}

fn family<T: Root>(c: &mut Criterion, name: &str, inputs: Vec<Vec<u8>>, ctx: &Context) {
    let total: usize = inputs.iter().map(Vec::len).sum();
    let owned: Vec<T> = inputs
        .iter()
        .map(|b| T::from_bytes(b, ctx).expect("the corpus reads"))
        .collect();
    let entry = meshspec_formats::find(T::ID).expect("a layout");
    let mut g = c.benchmark_group(format!("{}-{name}-x{}", T::ID, inputs.len()));
    g.throughput(Throughput::Bytes(total as u64));
    let memcpy = "memcpy into new Vecs";
    let copy = |i: &Vec<u8>| black_box(&i[..]).to_vec();
    each(&mut g, "baseline", memcpy, &inputs, copy);
    each(&mut g, "meshspec", "borrowed read", &inputs, |i| {
        T::read::<false>(black_box(i), ctx).unwrap().value
    });
    each(&mut g, "meshspec", "located read", &inputs, |i| {
        T::read::<true>(black_box(i), ctx).unwrap().pos
    });
    each(&mut g, "meshspec", "owned read", &inputs, |i| {
        T::from_bytes(black_box(i), ctx).unwrap()
    });
    each(&mut g, "meshspec", "verdict", &inputs, |i| {
        entry.judge(black_box(i), ctx)
    });
    each(&mut g, "meshspec", "write", &owned, |m| {
        m.to_bytes(ctx).unwrap()
    });
    g.finish();
    // Decoding, on the files whose geometry the documents establish (an SWS mesh without
    // SubMeshes has only compiled vertices of an undocumented format, and is not decoded).
    let decodable: Vec<&Vec<u8>> = inputs
        .iter()
        .filter(|i| entry.decode(i, ctx).is_ok())
        .collect();
    if decodable.is_empty() {
        // (The RR corpus bodies: the documents give their streams' strides, not their
        // record layouts, so none decodes; their verdict is measured above.)
        return;
    }
    let total: usize = decodable.iter().map(|i| i.len()).sum();
    let mut g = c.benchmark_group(format!("{}-{name}-decodable-x{}", T::ID, decodable.len()));
    g.throughput(Throughput::Bytes(total as u64));
    each(&mut g, "baseline", memcpy, &decodable, |i| copy(i));
    each(&mut g, "meshspec", "verdict + decode", &decodable, |i| {
        entry.decode(black_box(i), ctx).unwrap()
    });
    each(
        &mut g,
        "meshspec",
        "verdict + decode + glb",
        &decodable,
        |i| {
            let d = entry.decode(black_box(i), ctx).unwrap();
            export::glb(d.scene.clone(), NonFinite::Refuse).unwrap()
        },
    );
    g.finish();
}

fn bench(c: &mut Criterion) {
    let ctx = Context::new().with_winding(Winding::D3d);
    family::<SwsMesh>(c, "corpus", files::<SwsMesh>(2_000), &ctx);
    family::<RrMesh>(c, "corpus", files::<RrMesh>(2_000), &ctx);
    family::<SwsMesh>(c, "large", vec![large_sws()], &ctx);
    family::<RrMesh>(c, "large", vec![large_rr()], &ctx);
}

criterion_group!(benches, bench);
criterion_main!(benches);
