//! Unity meshes: reading, judging and decoding beside memcpy of the same bytes, on the 35 Mesh
//! objects of the shared corpus (skipped with a line when `../shared` is not there) and on a
//! large mesh made with the project's writer (1,048,576 vertices in 3 streams of Float32,
//! Float16, UNorm8 and UInt8 channels, 2,097,152 triangles of 32-bit indices), and the
//! PackedBitVector unpacking of compressed meshes.
//!
//! `cargo bench -p meshspec-formats --bench unity`. The targets (issue 15): every channel
//! decoded from the view at half the bandwidth of memcpy or better, counting the bytes read
//! and the bytes written (memcpy reads and writes each byte once); packed vectors at 500
//! million items per second or more.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meshspec_formats::context::{Context, SkinWeights};
use meshspec_formats::generated::unity_mesh::{IndexFormat, Matrix4x4f, UnityMesh};
use meshspec_formats::rt::Root;
use meshspec_formats::unity::decode::{
    self, unpack_floats, unpack_floats_into, unpack_ints, unpack_ints_into, Packed,
};
use meshspec_formats::unity::{make, stream};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use support::{each, time};

#[path = "support/bench.rs"]
mod support;

const VERTICES: usize = 1 << 20;

/// The large mesh: stream 0 Vertex Float x3 and Normal Float16 x4 (20 bytes), stream 1
/// Tangent Float16 x4, Color UNorm8 x4 and TexCoord0 Float x2 (20 bytes), stream 2
/// BlendWeight UNorm8 x4 and BlendIndices UInt8 x4 (8 bytes).
fn large() -> (Vec<u8>, Context) {
    let ctx = Context::new().with_unity_version("2021.3.0f1").unwrap();
    let n = VERTICES;
    let mut m = make::empty("large", 20210300);
    make::set_channel(&mut m, 0, 0, 0, 0, 3);
    make::set_channel(&mut m, 1, 0, 12, 1, 4);
    make::set_channel(&mut m, 2, 1, 0, 1, 4);
    make::set_channel(&mut m, 3, 1, 8, 2, 4);
    make::set_channel(&mut m, 4, 1, 12, 0, 2);
    make::set_channel(&mut m, 12, 2, 0, 2, 4);
    make::set_channel(&mut m, 13, 2, 4, 6, 4);
    let vd = m
        .vertex_data
        .as_mut()
        .expect("a mesh of 3.5 or later has vertex data");
    vd.vertex_count = n as u32;
    let mut data = Vec::with_capacity(48 * n);
    let half = |x: f32| half::f16::from_f32(x).to_le_bytes();
    for v in 0..n {
        let x = v as f32 / n as f32;
        for c in [x, 1.0 - x, 0.5] {
            data.extend(c.to_le_bytes());
        }
        for c in [0.0, 0.0, 1.0, 0.0] {
            data.extend(half(c));
        }
    }
    for v in 0..n {
        let x = v as f32 / n as f32;
        for c in [1.0, 0.0, 0.0, 1.0] {
            data.extend(half(c));
        }
        data.extend([(v % 256) as u8, 128, 64, 255]);
        for c in [x, 1.0 - x] {
            data.extend(c.to_le_bytes());
        }
    }
    for v in 0..n {
        data.extend([192u8, 63, 0, 0]);
        data.extend([(v % 4) as u8, ((v + 1) % 4) as u8, 0, 0]);
    }
    assert_eq!(data.len(), 48 * n);
    if let Some(vd) = m.vertex_data.as_mut() {
        vd.data = make::bytes(data);
    }
    let mut indices = Vec::with_capacity(6 * n);
    for t in 0..2 * n as u32 {
        let a = t / 2;
        for i in [a, (a + 1) % n as u32, (a + 2) % n as u32] {
            indices.push(i);
        }
    }
    m.index_format = Some(IndexFormat::UINT32);
    m.index_buffer = make::indices32(&indices);
    m.num_sub_meshes = 1;
    m.sub_meshes = vec![make::submesh(20210300, 0, 6 * n as u32, n as u32)];
    m.num_bind_poses = Some(4);
    m.bind_poses = Some(
        (0..4)
            .map(|_| Matrix4x4f {
                e: [
                    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
                ]
                .to_vec(),
            })
            .collect(),
    );
    let bytes = m.to_bytes(&ctx).unwrap();
    (bytes, ctx)
}

/// The bytes each decoded channel reads and writes: its components in the vertex data and
/// the floats or integers it becomes.
fn channel_traffic(channels: &[Option<decode::Channel>; 14]) -> u64 {
    channels
        .iter()
        .flatten()
        .map(|c| {
            let n = c.vertex_count() * c.dim;
            (n * c.format.size() + n * 4) as u64
        })
        .sum()
}

fn large_mesh(c: &mut Criterion) {
    let (bytes, ctx) = large();
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    assert!(entry.judge(&bytes, &ctx).passes());
    let view = UnityMesh::read::<false>(&bytes, &ctx).unwrap().value;
    let vertex_bytes = decode::inline_vertex_bytes(&view);
    let traffic = channel_traffic(&decode::channels(&view, vertex_bytes));
    eprintln!(
        "large mesh: {} bytes, vertex data {} bytes; decoding every channel reads and writes {} bytes",
        bytes.len(),
        vertex_bytes.len(),
        traffic
    );
    let mut g = c.benchmark_group("unity-large");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(6))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(vertex_bytes.len() as u64));
    let id = "memcpy of the vertex data into a new Vec";
    time(&mut g, "baseline", id, || black_box(vertex_bytes).to_vec());
    let mut dst = vec![1u8; vertex_bytes.len()];
    let id = "memcpy of the vertex data into a touched buffer";
    time(&mut g, "baseline", id, || {
        dst.copy_from_slice(black_box(vertex_bytes));
        black_box(&dst);
    });
    let id = "every channel decoded from the view";
    time(&mut g, "meshspec", id, || {
        decode::channels(black_box(&view), vertex_bytes)
    });
    // What the decoded channels' memory costs by itself: new Vecs of their sizes, written.
    let sizes: Vec<usize> = decode::channels(&view, vertex_bytes)
        .iter()
        .flatten()
        .map(|c| c.data.len())
        .collect();
    let id = "new Vecs of the decoded channels' sizes, written";
    time(&mut g, "baseline", id, || {
        for &n in &sizes {
            black_box(vec![1.0f32; black_box(n)]);
        }
    });
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    time(&mut g, "meshspec", "borrowed read", || {
        UnityMesh::read::<false>(black_box(&bytes), &ctx)
            .unwrap()
            .value
    });
    time(&mut g, "meshspec", "verdict", || {
        entry.judge(black_box(&bytes), &ctx)
    });
    time(&mut g, "meshspec", "decode (view to UnityMeshData)", || {
        decode::decode(black_box(&view), vertex_bytes, SkinWeights::Four)
    });
    let id = "export's decode (verdict + scene)";
    time(&mut g, "meshspec", id, || {
        entry.decode(black_box(&bytes), &ctx).unwrap()
    });
    g.finish();

    // Channels one by one: the Float16 normals (through half's slice conversion) and the
    // Float32 positions.
    let mut g = c.benchmark_group("unity-large-channel");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    for (name, slot) in [
        ("Float32 x3 positions (stride 20)", 0usize),
        ("Float16 x4 normals (stride 20)", 1),
        ("UNorm8 x4 colours (stride 20)", 3),
        ("UInt8 x4 bone slots (stride 8)", 13),
    ] {
        let one = decode::channel(&view, vertex_bytes, slot).unwrap();
        let n = (one.vertex_count() * one.dim) as u64;
        g.throughput(Throughput::Bytes(n * one.format.size() as u64 + n * 4));
        time(&mut g, "decode", name, || {
            decode::channel(black_box(&view), vertex_bytes, slot)
        });
    }
    g.finish();
}

/// The same geometry (make::sample: 65,536 vertices, 65,534 triangles, skinned) decoded in the
/// layouts of four eras, each timed beside the 2021.3 one in pairs: the bar (issue 24) is every
/// older era within 1.5 times 2021.3's decode (verdict and scene, as export does).
fn eras(c: &mut Criterion) {
    const N: u32 = 65_536;
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    let made: Vec<(&str, Vec<u8>, Context)> = [
        "2021.3.0f1",
        "2018.4.36f1",
        "2017.4.40f1",
        "5.6.7f1",
        "4.7.2f1",
    ]
    .iter()
    .map(|v| {
        let ctx = Context::new().with_unity_version(v).unwrap();
        let n = ctx.params["unity_version"] as u32;
        let bytes = make::sample(n, N).to_bytes(&ctx).unwrap();
        assert!(entry.judge(&bytes, &ctx).passes(), "{v}");
        (*v, bytes, ctx)
    })
    .collect();
    let mut g = c.benchmark_group("unity-eras");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    for (v, bytes, ctx) in &made {
        time(&mut g, "export's decode", v, || {
            entry.decode(black_box(bytes), ctx).unwrap()
        });
    }
    g.finish();
    let (_, base, base_ctx) = &made[0];
    for (v, bytes, ctx) in &made[1..] {
        let mut ratios = vec![];
        for _ in 0..60 {
            let t = std::time::Instant::now();
            black_box(entry.decode(black_box(base), base_ctx).unwrap());
            let a = t.elapsed().as_secs_f64();
            let t = std::time::Instant::now();
            black_box(entry.decode(black_box(bytes), ctx).unwrap());
            ratios.push(t.elapsed().as_secs_f64() / a);
        }
        support::report(
            &format!("decode of {v} ÷ 2021.3 (same geometry)"),
            &mut ratios,
        );
    }
}

fn packed(c: &mut Criterion) {
    // 100,000 items (their output stays in cache and in the allocator's reused memory) and
    // 10,000,000 (40 MB of new memory each time: the page faults of a fresh allocation, which
    // the baseline, the same number of u32s written into a new Vec, pays too).
    for n in [100_000u32, 10_000_000] {
        let mut g = c.benchmark_group(format!("unity-packed-{n}"));
        g.sample_size(20)
            .measurement_time(Duration::from_secs(4))
            .warm_up_time(Duration::from_secs(1));
        g.throughput(Throughput::Elements(u64::from(n)));
        time(&mut g, "baseline", "n u32s written into a new Vec", || {
            (0..black_box(n)).collect::<Vec<u32>>()
        });
        for bits in [13u8, 16, 5] {
            let data: Vec<u8> = (0..(n as usize * bits as usize).div_ceil(8))
                .map(|i| (i * 37) as u8)
                .collect();
            let ints = Packed {
                num_items: n,
                bit_size: bits,
                data: &data,
                ..Packed::default()
            };
            let floats = Packed {
                start: -1.0,
                range: 2.0,
                ..ints
            };
            let bits = format!("{bits} bits");
            time(&mut g, "unpack ints", &bits, || {
                unpack_ints(black_box(&ints))
            });
            // The decoder alone: into a buffer that a caller unpacking many vectors keeps.
            let mut kept: Vec<u32> = Vec::new();
            time(&mut g, "unpack ints into a kept buffer", &bits, || {
                unpack_ints_into(black_box(&ints), &mut kept);
                black_box(&kept);
            });
            time(&mut g, "unpack floats", &bits, || {
                unpack_floats(black_box(&floats))
            });
            let mut kept: Vec<f32> = Vec::new();
            time(&mut g, "unpack floats into a kept buffer", &bits, || {
                unpack_floats_into(black_box(&floats), &mut kept);
                black_box(&kept);
            });
        }
        g.finish();
    }
}

/// A corpus object: its bytes, the context with its path, its streamed range's bytes.
type Object = (Vec<u8>, Context, Option<Vec<u8>>);

/// The corpus objects.
fn corpus() -> Option<Vec<Object>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/unity/meshes");
    let Ok(versions) = std::fs::read_dir(&dir) else {
        eprintln!(
            "SKIPPED: the 35 corpus meshes ({} is not there)",
            dir.display()
        );
        return None;
    };
    let mut out = vec![];
    let mut versions: Vec<PathBuf> = versions.flatten().map(|e| e.path()).collect();
    versions.sort();
    for v in versions.iter().filter(|p| p.is_dir()) {
        let version = v.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(v)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "mesh"))
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let mut ctx = Context::new().with_unity_version(&version).unwrap();
            ctx.input = Some(f);
            let view = UnityMesh::read::<false>(&bytes, &ctx).unwrap().value;
            let streamed = stream::read(&view, &ctx).unwrap();
            out.push((bytes, ctx, streamed));
        }
    }
    Some(out)
}

fn corpus_meshes(c: &mut Criterion) {
    let Some(objs) = corpus() else { return };
    assert_eq!(objs.len(), 35);
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    let total: usize = objs
        .iter()
        .map(|(b, _, s)| b.len() + s.as_ref().map_or(0, Vec::len))
        .sum();
    let views: Vec<_> = objs
        .iter()
        .map(|(b, ctx, s)| (UnityMesh::read::<false>(b, ctx).unwrap().value, s))
        .collect();
    let traffic: u64 = views
        .iter()
        .map(|(v, s)| {
            channel_traffic(&decode::channels(
                v,
                s.as_deref().unwrap_or(decode::inline_vertex_bytes(v)),
            ))
        })
        .sum();
    eprintln!("corpus: 35 objects, {total} bytes with their streamed ranges; decoding every channel reads and writes {traffic} bytes");
    let mut g = c.benchmark_group("unity-corpus");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(total as u64));
    let all: Vec<u8> = objs
        .iter()
        .flat_map(|(b, _, s)| b.iter().chain(s.iter().flatten()).copied())
        .collect();
    let id = "memcpy of the objects and ranges into new Vecs";
    time(&mut g, "baseline", id, || {
        for (o, _, s) in &objs {
            black_box(black_box(&o[..]).to_vec());
            if let Some(s) = s {
                black_box(black_box(&s[..]).to_vec());
            }
        }
    });
    let mut dst = vec![1u8; all.len()];
    let id = "memcpy of the same bytes into a touched buffer";
    time(&mut g, "baseline", id, || {
        dst.copy_from_slice(black_box(&all));
        black_box(&dst);
    });
    each(&mut g, "meshspec", "borrowed read", &objs, |(o, ctx, _)| {
        UnityMesh::read::<false>(black_box(o), ctx).unwrap().value
    });
    let id = "every channel decoded from the view";
    each(&mut g, "meshspec", id, &views, |(v, s)| {
        let data = s.as_deref().unwrap_or(decode::inline_vertex_bytes(v));
        decode::channels(black_box(v), data)
    });
    let id = "decode (view to UnityMeshData)";
    each(&mut g, "meshspec", id, &views, |(v, s)| {
        let data = s.as_deref().unwrap_or(decode::inline_vertex_bytes(v));
        decode::decode(black_box(v), data, SkinWeights::Four)
    });
    let id = "verdict (with the .resS)";
    each(&mut g, "meshspec", id, &objs, |(o, ctx, _)| {
        entry.judge(black_box(o), ctx)
    });
    let id = "export's decode (verdict + .resS read + scene)";
    each(&mut g, "meshspec", id, &objs, |(o, ctx, _)| {
        entry.decode(black_box(o), ctx).unwrap()
    });
    g.finish();
}

criterion_group!(benches, corpus_meshes, large_mesh, eras, packed);
criterion_main!(benches);
