//! What Unity mesh data means (`meshspec_formats::unity`): meshes made here field by field and
//! written by the project's writer (`unity_synth.rs`), whose expected values are worked out by
//! hand or from the documents' formulas; bad input, judged by the one verdict with the offset
//! in the input and the spec's path of the field each problem is at; and the 35 real Mesh
//! objects of the shared corpus against UnityPy's decoded output and Unity's own dumps.

mod unity_synth;

use meshspec_formats::context::{Relations, SkinWeights};
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::generated::unity_mesh::{
    BlendShapeVertex, MeshBlendShape, MeshBlendShapeChannel, UnityMesh, Vector3f,
};
use meshspec_formats::rt::{ErrorKind, Root, Severity};
use meshspec_formats::scene::{Mode, Scene};
use meshspec_formats::unity::decode::*;
use meshspec_formats::unity::make;
use meshspec_formats::Error;
use meshspec_tests::shared_dir;
use serde_json::Value;
use std::path::{Path, PathBuf};
use unity_synth::*;

fn floats_of(m: &UnityMeshData, slot: usize) -> Vec<f32> {
    m.channel(slot)
        .and_then(|c| c.floats())
        .unwrap_or_else(|| panic!("channel {slot} holds floats"))
        .to_vec()
}

fn assert_close(got: f32, want: f64, tol: f64, what: &str) {
    assert!(
        (f64::from(got) - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

/// The first finding that fails `m`, asserting that there is one.
fn refusal(m: &UnityMesh) -> Error {
    let v = verdict(m);
    v.first_failure()
        .cloned()
        .unwrap_or_else(|| panic!("refused: {:?}", lines(&v)))
}

/// The findings of `m` at `path`.
fn at_path(m: &UnityMesh, path: &str) -> Vec<Error> {
    verdict(m)
        .findings
        .into_iter()
        .filter(|e| e.path_string() == path)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Vertex formats and layouts.

#[test]
fn every_vertex_format_decodes_by_the_documents_rules() {
    // Stream 0 (stride 28): Vertex Float x3, Normal Float16 x4 (dimension byte 0x34),
    // Tangent SInt32 x1, Color UNorm8 x4.
    // Stream 1 (stride 32): TexCoord0 SNorm8 x4, TexCoord1 UNorm16 x2, TexCoord2 SNorm16 x2,
    // TexCoord3 UInt8 x4, TexCoord4 SInt8 x4, TexCoord5 UInt16 x2, TexCoord6 SInt16 x2,
    // TexCoord7 UInt32 x1.
    let channels = table(&[
        (0, ch(0, 0, 0, 3)),
        (1, ch(0, 12, 1, 0x34)),
        (2, ch(0, 20, 11, 1)),
        (3, ch(0, 24, 2, 4)),
        (4, ch(1, 0, 3, 4)),
        (5, ch(1, 4, 4, 2)),
        (6, ch(1, 8, 5, 2)),
        (7, ch(1, 12, 6, 4)),
        (8, ch(1, 16, 7, 4)),
        (9, ch(1, 20, 8, 2)),
        (10, ch(1, 24, 9, 2)),
        (11, ch(1, 28, 10, 1)),
    ]);
    let mut data = vec![];
    // Vertex 0 then vertex 1 of stream 0.
    data.extend(f32_bytes(&[1.5, -2.0, 0.25]));
    data.extend(u16_bytes(&[0x3C00, 0xC000, 0x3800, 0x0000]));
    data.extend((-7i32).to_le_bytes());
    data.extend([0u8, 255, 51, 128]);
    data.extend(f32_bytes(&[0.0, 1e-3, -1e10]));
    data.extend(u16_bytes(&[0x7BFF, 0x0001, 0xBC00, 0x3555]));
    data.extend(i32::MIN.to_le_bytes());
    data.extend([1u8, 2, 3, 4]);
    assert_eq!(data.len(), 56);
    data.resize(64, 0); // stream 1 starts on the next 16-byte boundary
    for v in 0..2u8 {
        let snorm8: [u8; 4] = if v == 0 {
            [0x80, 0x81, 0x7F, 0x40]
        } else {
            [0, 1, 0xFF, 0xC0]
        };
        data.extend(snorm8);
        data.extend(u16_bytes(if v == 0 { &[65535, 32768] } else { &[0, 1] }));
        data.extend((if v == 0 { -32768i16 } else { 16384 }).to_le_bytes());
        data.extend((if v == 0 { 16384i16 } else { -16384 }).to_le_bytes());
        data.extend(if v == 0 {
            [0u8, 1, 200, 255]
        } else {
            [9, 8, 7, 6]
        });
        data.extend(if v == 0 {
            [(-128i8) as u8, (-1i8) as u8, 0, 127]
        } else {
            [5, (-5i8) as u8, 100, (-100i8) as u8]
        });
        data.extend(u16_bytes(if v == 0 { &[65535, 513] } else { &[1, 2] }));
        data.extend((if v == 0 { -32768i16 } else { 300 }).to_le_bytes());
        data.extend((if v == 0 { 300i16 } else { -2 }).to_le_bytes());
        data.extend((if v == 0 { 0xDEAD_BEEFu32 } else { 7 }).to_le_bytes());
    }
    assert_eq!(data.len(), 128);
    let mesh = mesh("formats", 2, channels, data);
    assert!(
        verdict(&mesh).findings.is_empty(),
        "{:?}",
        lines(&verdict(&mesh))
    );
    let m = decoded(&mesh).unwrap();
    let layout = m.layout.as_ref().unwrap();
    assert_eq!(
        layout
            .streams
            .iter()
            .map(|s| (s.start, s.stride, s.end))
            .collect::<Vec<_>>(),
        [(0, 28, 56), (64, 32, 128)]
    );
    assert_eq!(floats_of(&m, 0), [1.5, -2.0, 0.25, 0.0, 1e-3, -1e10]);
    // Half floats: 0x3C00 = 1, 0xC000 = -2, 0x3800 = 0.5, 0x7BFF = 65504 (the largest),
    // 0x0001 = 2^-24 (the smallest subnormal), 0xBC00 = -1, 0x3555 = 1365/4096.
    let normal = m.channel(1).unwrap();
    assert_eq!(normal.dim, 4, "0x34 & 0xF");
    assert_eq!(
        normal.floats().unwrap(),
        [
            1.0,
            -2.0,
            0.5,
            0.0,
            65504.0,
            2f32.powi(-24),
            -1.0,
            1365.0 / 4096.0
        ]
    );
    assert_eq!(
        m.channel(2).unwrap().data,
        ChannelData::SInt(vec![-7, i32::MIN])
    );
    let want_color = [
        0.0,
        1.0,
        51.0 / 255.0,
        128.0 / 255.0,
        1.0 / 255.0,
        2.0 / 255.0,
        3.0 / 255.0,
        4.0 / 255.0,
    ];
    for (g, w) in floats_of(&m, 3).iter().zip(want_color) {
        assert_close(*g, w, 1e-7, "UNorm8");
    }
    let want_snorm8 = [
        -1.0,
        -1.0,
        1.0,
        64.0 / 127.0,
        0.0,
        1.0 / 127.0,
        -1.0 / 127.0,
        -64.0 / 127.0,
    ];
    for (g, w) in floats_of(&m, 4).iter().zip(want_snorm8) {
        assert_close(*g, w, 1e-7, "SNorm8");
    }
    let want_unorm16 = [1.0, 32768.0 / 65535.0, 0.0, 1.0 / 65535.0];
    for (g, w) in floats_of(&m, 5).iter().zip(want_unorm16) {
        assert_close(*g, w, 1e-7, "UNorm16");
    }
    let want_snorm16 = [
        -1.0,
        16384.0 / 32767.0,
        16384.0 / 32767.0,
        -16384.0 / 32767.0,
    ];
    for (g, w) in floats_of(&m, 6).iter().zip(want_snorm16) {
        assert_close(*g, w, 1e-7, "SNorm16");
    }
    assert_eq!(
        m.channel(7).unwrap().data,
        ChannelData::UInt(vec![0, 1, 200, 255, 9, 8, 7, 6])
    );
    assert_eq!(
        m.channel(8).unwrap().data,
        ChannelData::SInt(vec![-128, -1, 0, 127, 5, -5, 100, -100])
    );
    assert_eq!(
        m.channel(9).unwrap().data,
        ChannelData::UInt(vec![65535, 513, 1, 2])
    );
    assert_eq!(
        m.channel(10).unwrap().data,
        ChannelData::SInt(vec![-32768, 300, 300, -2])
    );
    assert_eq!(
        m.channel(11).unwrap().data,
        ChannelData::UInt(vec![0xDEAD_BEEF, 7])
    );
    // Every format of the table, and each once.
    let mut formats: Vec<u8> = m.channels.iter().flatten().map(|c| c.format.id()).collect();
    formats.sort();
    assert_eq!(formats, (0..12).collect::<Vec<u8>>());
    // Channels wider than the data uses keep all their components; the accessors cut.
    assert_eq!(m.normals().unwrap()[0], [1.0, -2.0, 0.5]);
    assert_eq!(m.uv(0).unwrap()[0], [-1.0, -1.0]);
}

/// Three vertices: positions in stream 0 (stride 12, 36 bytes), Float16 UVs in stream 1
/// (stride 4) from byte 48.
fn two_streams() -> UnityMesh {
    let channels = table(&[(0, ch(0, 0, 0, 3)), (4, ch(1, 0, 1, 2))]);
    let mut data = line_positions(3);
    data.resize(48, 0);
    data.extend(u16_bytes(&[0x3800, 0x3C00, 0, 0, 0x3400, 0x3A00]));
    mesh("two streams", 3, channels, data)
}

#[test]
fn streams_start_on_16_byte_boundaries_and_end_with_the_data() {
    let two = two_streams();
    assert_eq!(two.vertex_data.as_ref().unwrap().data.data.len(), 60);
    let m = decoded(&two).unwrap();
    assert_eq!(m.positions().unwrap()[2], [2.0, 0.0, 0.0]);
    // 0x3400 = 0.25, 0x3A00 = 0.75.
    assert_eq!(m.uv(0).unwrap(), [[0.5, 1.0], [0.0, 0.0], [0.25, 0.75]]);
}

#[test]
fn channels_are_read_at_their_stored_offsets_in_any_order_and_any_stream() {
    // Normal before Vertex in the vertex (the table's order is not the bytes' order).
    let channels = table(&[(0, ch(0, 12, 0, 3)), (1, ch(0, 0, 0, 3))]);
    let mut data = vec![];
    for v in 0..2 {
        data.extend(f32_bytes(&[0.0, 0.0, 1.0]));
        data.extend(f32_bytes(&[v as f32, 5.0, 6.0]));
    }
    let m = decoded(&mesh("swapped", 2, channels, data)).unwrap();
    assert_eq!(m.positions().unwrap(), [[0.0, 5.0, 6.0], [1.0, 5.0, 6.0]]);
    assert_eq!(m.normals().unwrap()[1], [0.0, 0.0, 1.0]);
    // A fifth stream (the documents give no limit): streams 1 to 3 are empty, stream 4 starts
    // on the 16-byte boundary after stream 0.
    let channels = table(&[(0, ch(0, 0, 0, 3)), (4, ch(4, 0, 0, 2))]);
    let mut data = line_positions(3);
    data.resize(48, 0);
    data.extend(f32_bytes(&[0.5, 0.25, 1.0, 2.0, 3.0, 4.0]));
    let m = decoded(&mesh("fifth stream", 3, channels, data)).unwrap();
    assert_eq!(m.layout.as_ref().unwrap().streams.len(), 5);
    assert_eq!(m.uv(0).unwrap(), [[0.5, 0.25], [1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(m.channel(4).unwrap().stream, Some(4));
}

#[test]
fn layouts_that_overrun_underrun_or_disagree_are_each_refused_at_their_field() {
    let good = two_streams();
    let rule = "vertex_layout_fills_data";
    // Overrun: two bytes short. The relation (proven: an error) and what decoding needs, both
    // at m_DataSize's count.
    let mut short = good.clone();
    short.vertex_data.as_mut().unwrap().data =
        make::bytes(good.vertex_data.as_ref().unwrap().data.data[..58].to_vec());
    let size_at = positions(&short)
        .vertex_data
        .as_ref()
        .unwrap()
        .data
        .len_data
        .start;
    let v = verdict(&short);
    assert_eq!(
        lines(&v),
        [
            format!("error: 0x{size_at:X} unity_mesh.vertex_data.data.len_data: expected the vertex data to end where the last stream ends: 60 bytes for 3 vertices (2 streams; the last, stream 1: TexCoord0) (relation `{rule}`), found 58 bytes"),
            format!("error: 0x{size_at:X} unity_mesh.vertex_data.data.len_data: expected stream 1 (TexCoord0; stride 4, 3 vertices) at bytes 48..60 of the vertex data, to decode it (relation `{rule}`), found 58 bytes (overrun by 2)"),
        ]
    );
    assert_eq!(v.findings[1].kind, ErrorKind::Unsupported);
    // With relations as warnings, the need still refuses: nothing is read past the data.
    let mut warn = ctx();
    warn.relations = Relations::Warn;
    let e = decoded_with(&short, &warn).unwrap_err();
    assert_eq!(
        (e.kind, e.relation_id()),
        (ErrorKind::Unsupported, Some(rule))
    );
    // Underrun: four bytes left over after the last stream. The relation refuses; decoding
    // does not need it (with relations as warnings the mesh decodes).
    let mut long = good.clone();
    long.vertex_data.as_mut().unwrap().data =
        make::bytes([&good.vertex_data.as_ref().unwrap().data.data[..], &[0; 4]].concat());
    let e = refusal(&long);
    assert_eq!((e.kind, e.relation_id()), (ErrorKind::Relation, Some(rule)));
    assert_eq!(e.found, "64 bytes");
    assert_eq!(verdict(&long).findings.len(), 1);
    assert_eq!(
        decoded_with(&long, &warn).unwrap().uv(0).unwrap()[2],
        [0.25, 0.75]
    );

    // A channel whose stored offset leaves it outside its stream's stride: Normal at 16 in a
    // 24-byte vertex.
    let mut bad = table(&[(0, ch(0, 0, 0, 3)), (1, ch(0, 16, 0, 3))]);
    let six = line_positions(2).repeat(2);
    let m = mesh("offset", 2, bad.clone(), six.clone());
    let at = positions(&m)
        .vertex_data
        .as_ref()
        .unwrap()
        .channels
        .as_ref()
        .unwrap()
        .get(1)
        .offset
        .start;
    let found = at_path(&m, "unity_mesh.vertex_data.channels[1].offset");
    assert_eq!(found.len(), 2, "the relation and the need");
    for e in &found {
        assert_eq!(e.offset, Some(at));
        assert_eq!(e.relation_id(), Some(rule));
        assert_eq!(e.found, "offset 16");
        assert!(
            e.expected.starts_with(
                "Normal (12 bytes) inside the 24-byte vertex of stream 0 (Vertex, Normal)"
            ),
            "{e}"
        );
    }
    // An unknown format, too many components, an older 8-channel table.
    bad[1] = ch(0, 12, 12, 3);
    let m = mesh("format", 2, bad.clone(), six.clone());
    let e = refusal(&m);
    assert_eq!(e.path_string(), "unity_mesh.vertex_data.channels[1].format");
    assert_eq!(
        e.offset,
        Some(
            positions(&m)
                .vertex_data
                .as_ref()
                .unwrap()
                .channels
                .as_ref()
                .unwrap()
                .get(1)
                .format
                .start
        )
    );
    assert_eq!(e.relation_id(), Some(rule));
    assert!(at_path(&m, "unity_mesh.vertex_data.channels[1].format")
        .iter()
        .any(|e| e.kind == ErrorKind::Unsupported));
    bad[1] = ch(0, 12, 0, 5);
    let e = refusal(&mesh("dimension", 2, bad.clone(), six.clone()));
    assert_eq!(
        e.path_string(),
        "unity_mesh.vertex_data.channels[1].dimension"
    );
    assert_eq!(e.kind, ErrorKind::Unsupported);
    // A table longer than the era's 14 channels: the entries past them stand for nothing.
    let mut long = bad.clone();
    long.push(ch(0, 0, 0, 3));
    let e = refusal(&mesh("fifteen", 2, long, six.clone()));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(e.path_string(), "unity_mesh.vertex_data.num_channels");
    // A vertex count no data could hold is refused, not allocated.
    let mut huge = good.clone();
    huge.vertex_data.as_mut().unwrap().vertex_count = u32::MAX;
    let e = refusal(&huge);
    assert_eq!(e.relation_id(), Some(rule));
    assert!(e.expected.contains("4294967295 vertices"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// PackedBitVector and compressed meshes.

fn floats(n: u32, bits: u8, start: f32, range: f32, data: &[u8]) -> Packed<'_> {
    Packed {
        num_items: n,
        range,
        start,
        data,
        bit_size: bits,
    }
}

fn ints(n: u32, bits: u8, data: &[u8]) -> Packed<'_> {
    Packed {
        num_items: n,
        data,
        bit_size: bits,
        ..Packed::default()
    }
}

/// The document's formula in f64: start + item * (range / (2^bits - 1)).
fn dequantised(item: u32, bits: u32, start: f32, range: f32) -> f64 {
    f64::from(start) + f64::from(item) * (f64::from(range) / (2f64.powi(bits as i32) - 1.0))
}

#[test]
fn packed_floats_are_accurate_relative_to_the_vectors_ends() {
    // 1,024 items of 10 bits over -100..100: every value, including those near zero, is
    // within four f32 epsilons of max(1, |start|, |start + range|) of the f64 value.
    let items: Vec<u32> = (0..1024).collect();
    let data = pack(&items, 10);
    let got = unpack_floats(&floats(1024, 10, -100.0, 200.0, &data));
    let tol = f64::from(packed_tolerance(-100.0, 200.0));
    assert!((tol - 4.0 * f64::from(f32::EPSILON) * 100.0).abs() < 1e-12);
    let mut near_zero = 0;
    for (&i, &g) in items.iter().zip(&got) {
        let want = dequantised(i, 10, -100.0, 200.0);
        assert_close(g, want, tol, "packed float");
        if want.abs() < 1.0 {
            near_zero += 1;
        }
    }
    assert!(near_zero > 0);
    // Item values crossing byte boundaries, 1 to 32 bits.
    for bits in [1u32, 3, 7, 8, 9, 13, 15, 16, 17, 31, 32] {
        let max = if bits == 32 {
            u32::MAX
        } else {
            (1 << bits) - 1
        };
        // Two whole groups of eight (read as one word each up to 16 bits) and five more.
        let items: Vec<u32> = [0, max, max / 3, 1, max - 1, max / 5, 2, max / 2]
            .iter()
            .cycle()
            .skip(3)
            .take(21)
            .map(|v| v & max)
            .collect();
        let data = pack(&items, bits);
        assert_eq!(
            unpack_ints(&ints(21, bits as u8, &data)),
            items,
            "{bits} bits"
        );
        // Into a buffer kept from an earlier, longer vector: emptied first, then the same.
        let mut kept = vec![7u32; 30];
        unpack_ints_into(&ints(21, bits as u8, &data), &mut kept);
        assert_eq!(kept, items, "{bits} bits, into a kept buffer");
        let mut kept = vec![7.5f32; 30];
        let f = floats(21, bits as u8, -1.0, 2.0, &data);
        unpack_floats_into(&f, &mut kept);
        assert_eq!(
            kept,
            unpack_floats(&f),
            "{bits} bits, floats into a kept buffer"
        );
    }
}

/// A compressed mesh of `positions` (8-bit items) and nothing else.
fn compressed(n: u32, bits: u8, data: Vec<u8>) -> UnityMesh {
    let mut m = make::empty("packed", 20210300);
    m.compressed_mesh.vertices = make::packed_floats(n, bits, 0.0, 1.0, data);
    m
}

#[test]
fn packed_vectors_too_short_for_n_times_bits_are_refused() {
    let data = pack(&[1, 2, 3, 4, 5], 7); // 35 bits: 5 bytes
    assert_eq!(data.len(), 5);
    let mut m = compressed(6, 8, pack(&[0; 6], 8));
    m.compressed_mesh.triangles = make::packed_ints(6, 7, data);
    let e = refusal(&m);
    let at = positions(&m).compressed_mesh.triangles.data._span.start;
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(
        e.to_string(),
        format!("0x{at:X} unity_mesh.compressed_mesh.triangles.data: expected 6 bytes for 6 items of 7 bits, found 5 bytes")
    );
    // Positions whose data is short.
    let e = refusal(&compressed(6, 8, pack(&[1, 2, 3, 4, 5], 8)));
    assert_eq!(e.path_string(), "unity_mesh.compressed_mesh.vertices.data");
    // More than 32 bits per item; a zero-bit vector of more items than any mesh has.
    let e = refusal(&compressed(3, 33, vec![0; 16]));
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Unsupported,
            "unity_mesh.compressed_mesh.vertices.bit_size".into()
        )
    );
    let e = refusal(&compressed(u32::MAX - 2, 0, vec![]));
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Count,
            "unity_mesh.compressed_mesh.vertices.num_items".into()
        )
    );
}

/// The compressed mesh of [`compressed_meshes_decode_every_channel`], as items.
struct Items {
    positions: Vec<u32>,
    uv: Vec<u32>,
    normals: Vec<u32>,
    normal_signs: Vec<u32>,
    tangents: Vec<u32>,
    tangent_signs: Vec<u32>,
    colors: Vec<u32>,
    weights: Vec<u32>,
    bones: Vec<u32>,
    triangles: Vec<u32>,
}

fn every_packed_channel() -> (Items, UnityMesh) {
    let p = Items {
        positions: vec![0, 65535, 32768, 1000, 2000, 3000, 65535, 0, 12345],
        // Set 0 (2 per vertex) then set 2 (3 per vertex): m_UVInfo 0x605.
        uv: vec![0, 1023, 512, 256, 100, 900, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        // (x, y) per normal: near the pole, past the unit circle, and an ordinary one.
        normals: vec![128, 128, 255, 128, 64, 200],
        normal_signs: vec![1, 1, 0],
        tangents: vec![200, 60, 128, 127, 30, 30],
        tangent_signs: vec![1, 0, 0, 1, 1, 1],
        colors: (0..12).map(|i| i * 20).collect(),
        // Vertex 0: 31 (whole). Vertex 1: 10, 11, 5 and an implied 5. Vertex 2: 16, 15.
        weights: vec![31, 10, 11, 5, 16, 15],
        bones: vec![3, 1, 2, 0, 4, 2, 1],
        triangles: vec![0, 1, 2, 2, 1, 0],
    };
    let mut m = make::empty("compressed", 20210300);
    let c = &mut m.compressed_mesh;
    c.vertices = make::packed_floats(9, 16, -2.0, 4.0, pack(&p.positions, 16));
    c.uv = make::packed_floats(15, 10, 0.0, 1.0, pack(&p.uv, 10));
    c.normals = make::packed_floats(6, 8, -1.0, 2.0, pack(&p.normals, 8));
    c.tangents = make::packed_floats(6, 8, -1.0, 2.0, pack(&p.tangents, 8));
    c.weights = make::packed_ints(6, 5, pack(&p.weights, 5));
    c.normal_signs = make::packed_ints(3, 1, pack(&p.normal_signs, 1));
    c.tangent_signs = make::packed_ints(6, 1, pack(&p.tangent_signs, 1));
    c.float_colors = Some(make::packed_floats(12, 8, 0.0, 1.0, pack(&p.colors, 8)));
    c.bone_indices = make::packed_ints(7, 3, pack(&p.bones, 3));
    c.triangles = make::packed_ints(6, 2, pack(&p.triangles, 2));
    c.uv_info = Some(0x605);
    unity_synth::bind_poses(&mut m, &[identity(); 5]);
    submeshes(
        &mut m,
        vec![submesh(0, 3, 0, 0, 0, 3), submesh(6, 3, 0, 0, 0, 3)],
    );
    m.vertex_data.as_mut().unwrap().vertex_count = 0;
    (p, m)
}

#[test]
fn compressed_meshes_decode_every_channel() {
    let (p, mesh) = every_packed_channel();
    let v = verdict(&mesh);
    assert!(v.findings.is_empty(), "{:?}", lines(&v));
    assert!(
        v.notes.iter().any(|n| n.contains("inferred reading")),
        "the packed weights' reading is said to be inferred: {:?}",
        v.notes
    );
    let m = decoded(&mesh).unwrap();
    assert!(m.compressed);
    assert_eq!(m.vertex_count, 3);
    let tol_pos = f64::from(packed_tolerance(-2.0, 4.0));
    for (g, &i) in floats_of(&m, 0).iter().zip(&p.positions) {
        assert_close(*g, dequantised(i, 16, -2.0, 4.0), tol_pos, "position");
    }
    let tol_uv = f64::from(packed_tolerance(0.0, 1.0));
    let uv0 = m.channel(4).unwrap();
    assert_eq!(uv0.dim, 2);
    for (g, &i) in uv0.floats().unwrap().iter().zip(&p.uv[..6]) {
        assert_close(*g, dequantised(i, 10, 0.0, 1.0), tol_uv, "uv0");
    }
    assert!(m.channel(5).is_none(), "set 1 is absent (nibble 0)");
    let uv2 = m.channel(6).unwrap();
    assert_eq!(uv2.dim, 3);
    for (g, &i) in uv2.floats().unwrap().iter().zip(&p.uv[6..]) {
        assert_close(*g, dequantised(i, 10, 0.0, 1.0), tol_uv, "uv2");
    }
    // Normals: z = ±sqrt(1 - x² - y²), or (x, y, 0) normalised when that is negative.
    let e = f64::from(packed_tolerance(-1.0, 2.0));
    let ez = f64::from(rebuilt_z_tolerance(packed_tolerance(-1.0, 2.0)));
    let normals = floats_of(&m, 1);
    assert_eq!(m.channel(1).unwrap().dim, 3);
    for v in 0..3 {
        let x = dequantised(p.normals[2 * v], 8, -1.0, 2.0);
        let y = dequantised(p.normals[2 * v + 1], 8, -1.0, 2.0);
        let zz = 1.0 - x * x - y * y;
        let want = if zz >= 0.0 {
            let z = zz.sqrt();
            [x, y, if p.normal_signs[v] == 1 { z } else { -z }]
        } else {
            let l = (x * x + y * y).sqrt();
            [x / l, y / l, 0.0]
        };
        assert_close(normals[3 * v], want[0], 4.0 * e, "normal x");
        assert_close(normals[3 * v + 1], want[1], 4.0 * e, "normal y");
        assert_close(normals[3 * v + 2], want[2], ez, "normal z");
    }
    assert!(normals[2] > 0.99, "vertex 0's normal points along +z");
    assert_eq!(normals[5], 0.0, "vertex 1 is past the unit circle");
    assert!(normals[8] < 0.0, "vertex 2's sign is 0: z negative");
    let tangents = floats_of(&m, 2);
    assert_eq!(m.channel(2).unwrap().dim, 4);
    for v in 0..3 {
        let x = dequantised(p.tangents[2 * v], 8, -1.0, 2.0);
        let y = dequantised(p.tangents[2 * v + 1], 8, -1.0, 2.0);
        let z = (1.0 - x * x - y * y).max(0.0).sqrt();
        let z = if p.tangent_signs[2 * v] == 1 { z } else { -z };
        assert_close(tangents[4 * v + 2], z, ez, "tangent z");
        let w = if p.tangent_signs[2 * v + 1] == 1 {
            1.0
        } else {
            -1.0
        };
        assert_eq!(tangents[4 * v + 3], w);
    }
    for (g, &i) in floats_of(&m, 3).iter().zip(&p.colors) {
        assert_close(*g, f64::from(i) / 255.0, tol_uv, "colour");
    }
    // Weights in 31sts; the skin reads them as four influences per vertex.
    let blend = m.skin.as_ref().unwrap().blend.as_ref().unwrap();
    let w31 = |k: u32| f64::from(k) / 31.0;
    let want_w = [
        w31(31),
        0.0,
        0.0,
        0.0,
        w31(10),
        w31(11),
        w31(5),
        w31(5),
        w31(16),
        w31(15),
        0.0,
        0.0,
    ];
    for (g, w) in blend.weights.iter().zip(want_w) {
        assert_close(*g, w, 1e-7, "weight");
    }
    assert_eq!(blend.bones, [3, 0, 0, 0, 1, 2, 0, 4, 2, 1, 0, 0]);
    assert_eq!(m.submeshes[0].indices, [0, 1, 2]);
    assert_eq!(m.submeshes[1].indices, [2, 1, 0]);

    // The m_UVInfo == 0 form: one or two two-component sets.
    let two_sets = pack(&(0..12).collect::<Vec<_>>(), 4);
    let mut old = mesh.clone();
    old.compressed_mesh.uv = make::packed_floats(12, 4, 0.0, 15.0, two_sets.clone());
    old.compressed_mesh.uv_info = Some(0);
    let m = decoded(&old).unwrap();
    assert_eq!(m.uv(0).unwrap(), [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]);
    assert_eq!(m.uv(1).unwrap(), [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]);
    old.compressed_mesh.uv = make::packed_floats(9, 4, 0.0, 15.0, two_sets);
    let e = refusal(&old);
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Inconsistent,
            "unity_mesh.compressed_mesh.uv.num_items".into()
        )
    );

    // Weights that leave the last vertex incomplete, and bone slots left over; a bone slot
    // past the bind poses.
    let mut bad = mesh.clone();
    bad.compressed_mesh.weights = make::packed_ints(5, 5, pack(&[31, 10, 11, 5, 16], 5));
    assert_eq!(
        refusal(&bad).path_string(),
        "unity_mesh.compressed_mesh.weights.num_items"
    );
    let mut bad = mesh.clone();
    bad.compressed_mesh.bone_indices = make::packed_ints(8, 3, pack(&[3, 1, 2, 0, 4, 2, 1, 1], 3));
    assert_eq!(
        refusal(&bad).path_string(),
        "unity_mesh.compressed_mesh.bone_indices.num_items"
    );
    let mut bad = mesh.clone();
    unity_synth::bind_poses(&mut bad, &[identity(); 4]);
    let e = refusal(&bad);
    assert_eq!(
        e.path_string(),
        "unity_mesh.compressed_mesh.bone_indices.data.data"
    );
    assert_eq!(e.found, "4");
    // Vertex vectors in a mesh whose vertices are in the vertex data.
    let mut bad = make::empty("stray", 20210300);
    bad.compressed_mesh.uv = make::packed_floats(2, 8, 0.0, 1.0, vec![1, 2]);
    assert_eq!(
        refusal(&bad).path_string(),
        "unity_mesh.compressed_mesh.uv.num_items"
    );
}

// ---------------------------------------------------------------------------------------------
// Indices and submeshes.

#[test]
fn thirty_two_bit_indices_base_vertex_and_every_topology() {
    let vertices = line_positions(10);
    let channels = table(&[(0, ch(0, 0, 0, 3))]);
    let stored: Vec<u32> = [
        vec![0, 1, 2, 2, 1, 3], // triangles, base vertex 4
        vec![0, 1, 2, 3],       // a quad
        vec![4, 5, 6, 7],       // two lines
        vec![1, 2, 3],          // a line strip
        vec![9],                // a point
        vec![0, 1, 2, 3, 3, 4], // what UnityPy reads as a strip (topology 1)
    ]
    .concat();
    let mut m = mesh("topologies", 10, channels, vertices);
    indices32(&mut m, &stored);
    let sub = |first_byte, index_count, topology, base_vertex| {
        submesh(first_byte, index_count, topology, base_vertex, 0, 10)
    };
    submeshes(
        &mut m,
        vec![
            sub(0, 6, 0, 4),
            sub(24, 4, 2, 0),
            sub(40, 4, 3, 0),
            sub(56, 3, 4, 0),
            sub(68, 1, 5, 0),
            sub(0, 0, 0, 0),
        ],
    );
    let data = decoded(&m).unwrap();
    let s = &data.submeshes;
    assert_eq!(s[0].indices, [4, 5, 6, 6, 5, 7], "baseVertex 4 added");
    assert_eq!(s[0].triangles(), [[4, 5, 6], [6, 5, 7]]);
    assert_eq!(s[1].topology, Topology::Quads);
    assert_eq!(s[1].triangles(), [[0, 1, 2], [0, 2, 3]]);
    assert_eq!(s[2].indices, [4, 5, 6, 7]);
    assert!(s[2].triangles().is_empty());
    assert_eq!(s[3].topology, Topology::LineStrip);
    assert_eq!(s[4].indices, [9]);
    assert!(
        s[5].indices.is_empty(),
        "a submesh without indices draws nothing"
    );

    let out = to_scene(data.clone(), &SceneOptions::default()).unwrap();
    let prims = &out.mesh.primitives;
    assert_eq!(prims.len(), 6);
    assert_eq!(prims[0].mode, Mode::Triangles);
    assert_eq!(prims[0].indices, [4, 6, 5, 6, 7, 5], "winding reversed");
    assert_eq!(prims[1].indices, [0, 2, 1, 0, 3, 2]);
    assert_eq!(
        (prims[2].mode, &prims[2].indices),
        (Mode::Lines, &vec![4, 5, 6, 7])
    );
    assert_eq!(prims[3].mode, Mode::LineStrip);
    assert_eq!(prims[4].mode, Mode::Points);
    assert_eq!(prims[5].material, Some(5));
    assert_eq!(out.mesh.materials.len(), 6);
    assert_eq!(out.mesh.positions[3], [-3.0, 0.0, 0.0], "x mirrored");
    let scene = Scene {
        meshes: vec![out.mesh],
        notes: vec![],
    };
    let exported = glb(scene.clone(), NonFinite::Refuse).unwrap();
    assert!(exported.notes.iter().any(|n| n.contains("without indices")));
    validate_glb("topologies", &exported.bytes);

    // Topology 1 is not in the documents' table: a triangle strip by the public readers'
    // reading, decoded with a note (alternate triangles turned, repeated indices left out).
    m.sub_meshes.push(sub(72, 6, 1, 0));
    m.num_sub_meshes += 1;
    let strip = decoded(&m).unwrap();
    assert_eq!(strip.submeshes[6].topology, Topology::TriangleStrip);
    assert_eq!(strip.submeshes[6].triangles(), [[0, 1, 2], [2, 1, 3]]);
    let v = verdict(&m);
    assert!(v.passes());
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("1 submeshes are triangle strips")),
        "{:?}",
        v.notes
    );
    // Another id is refused at the field.
    m.sub_meshes[6].topology = Some(meshspec_formats::generated::unity_mesh::Topology(6));
    let e = refusal(&m);
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(e.path_string(), "unity_mesh.sub_meshes[6].topology");
    assert_eq!(
        e.offset,
        Some(positions(&m).sub_meshes.items[6].topology.unwrap().start)
    );
    assert_eq!(e.found, "6");
}

#[test]
fn indices_past_the_vertices_or_the_buffer_are_refused_at_their_field() {
    let one = |s: meshspec_formats::generated::unity_mesh::SubMesh| {
        let mut m = mesh(
            "indices",
            10,
            table(&[(0, ch(0, 0, 0, 3))]),
            line_positions(10),
        );
        indices16(&mut m, &[0, 1, 2]);
        submeshes(&mut m, vec![s]);
        m
    };
    // Index 2 + baseVertex 8 = 10: past the ten vertices; it is the third index, at byte 4 of
    // the index buffer's bytes. The relation is sourced (a warning); decoding needs it.
    let m = one(submesh(0, 3, 0, 8, 0, 10));
    let at = positions(&m)
        .index_buffer
        .indices
        .u16_indices
        .unwrap()
        .get(2)
        .start;
    let v = verdict(&m);
    let rel: Vec<String> = v.warnings().map(|e| e.to_string()).collect();
    assert_eq!(
        rel,
        [format!("0x{at:X} unity_mesh.index_buffer.indices.u16_indices[2]: expected index + baseVertex (8) below the vertex count 10 (submesh 0, index 2) (relation `indices_name_vertices`), found 10 (2 + baseVertex 8; 1 such indices in the submesh)")]
    );
    let e = refusal(&m);
    assert_eq!(
        (e.kind, e.offset, e.relation_id()),
        (
            ErrorKind::Unsupported,
            Some(at),
            Some("indices_name_vertices")
        )
    );
    // Four points from byte 2: the six-byte buffer holds two. The count runs past.
    let m = one(submesh(2, 4, 5, 0, 0, 10));
    let e = refusal(&m);
    assert_eq!(
        e.to_string(),
        format!(
            "0x{:X} unity_mesh.sub_meshes[0].index_count: expected 4 indices of 2 bytes from byte 2 inside the 6 bytes of the index buffer, to decode the submesh (relation `submesh_within_index_buffer`), found a range ending at byte 10",
            positions(&m).sub_meshes.items[0].index_count.start
        )
    );
    let e = refusal(&one(submesh(1, 1, 5, 0, 0, 10)));
    assert_eq!(e.path_string(), "unity_mesh.sub_meshes[0].first_byte");
    let e = refusal(&one(submesh(0, 3, 6, 0, 0, 10)));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(e.path_string(), "unity_mesh.sub_meshes[0].topology");
    let e = refusal(&one(submesh(0, 2, 0, 0, 0, 10)));
    assert_eq!(e.path_string(), "unity_mesh.sub_meshes[0].index_count");
    // firstVertex + vertexCount past the vertices: an observed relation, a warning that
    // decoding does not need.
    let m = one(submesh(0, 3, 0, 0, 8, 3));
    let v = verdict(&m);
    assert!(v.passes());
    let w: Vec<&Error> = v.warnings().collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].relation_id(), Some("submesh_vertex_range"));
    assert_eq!(w[0].path_string(), "unity_mesh.sub_meshes[0].vertex_count");
    assert_eq!(decoded(&m).unwrap().submeshes[0].indices, [0, 1, 2]);
    let mut m = one(submesh(0, 0, 0, 0, 0, 10));
    m.index_format = Some(meshspec_formats::generated::unity_mesh::IndexFormat(2));
    // An index format the documents do not give: the buffer is kept as bytes.
    m.index_buffer = make::index_bytes(0, vec![0, 0, 1, 0, 2, 0]);
    let e = refusal(&m);
    assert_eq!(e.path_string(), "unity_mesh.index_format");
    assert_eq!(e.relation_id(), Some("index_buffer_whole_indices"));
}

// ---------------------------------------------------------------------------------------------
// Skin.

/// Two vertices; stream 1 holds BlendWeight and BlendIndices of the given formats.
fn skinned(
    weights: Option<(u8, u8, Vec<u8>)>,
    indices: Option<(u8, u8, Vec<u8>)>,
    poses: usize,
) -> UnityMesh {
    let mut entries = vec![(0, ch(0, 0, 0, 3))];
    let mut stride = 0u8;
    let mut parts = vec![];
    if let Some((format, dim, bytes)) = &weights {
        entries.push((12, ch(1, 0, *format, *dim)));
        let size = [4u8, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4][*format as usize] * (dim & 0xF);
        stride += size;
        parts.push((size as usize, bytes.clone()));
    }
    if let Some((format, dim, bytes)) = &indices {
        entries.push((13, ch(1, stride, *format, *dim)));
        let size = [4u8, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4][*format as usize] * (dim & 0xF);
        parts.push((size as usize, bytes.clone()));
    }
    let mut data = line_positions(2);
    data.resize(32, 0);
    for v in 0..2 {
        for (size, bytes) in &parts {
            data.extend_from_slice(&bytes[v * size..(v + 1) * size]);
        }
    }
    let mut m = mesh("skinned", 2, table(&entries), data);
    unity_synth::bind_poses(&mut m, &vec![identity(); poses]);
    m
}

/// The blend skin of [`skinned`] with four bind poses, decoded.
fn blend(weights: Option<(u8, u8, Vec<u8>)>, indices: Option<(u8, u8, Vec<u8>)>) -> Blend {
    let m = decoded(&skinned(weights, indices, 4)).unwrap();
    m.skin.unwrap().blend.unwrap()
}

#[test]
fn blend_channels_in_every_weight_and_index_format() {
    // UNorm8 weights with UInt8 indices; vertex 0's third slot names bone 9, past the four
    // bind poses, at weight zero: allowed.
    let mesh = skinned(
        Some((2, 4, vec![128, 127, 0, 0, 255, 0, 0, 0])),
        Some((6, 4, vec![1, 0, 9, 0, 3, 0, 0, 0])),
        4,
    );
    let m = decoded(&mesh).unwrap();
    let skin = m.skin.as_ref().unwrap();
    let b = skin.blend.as_ref().unwrap();
    assert_eq!(b.starts, [0, 4, 8]);
    assert_eq!(b.bones, [1, 0, 9, 0, 3, 0, 0, 0]);
    assert_close(b.weights[0], 128.0 / 255.0, 1e-7, "UNorm8 weight");
    assert_close(b.weights[1], 127.0 / 255.0, 1e-7, "UNorm8 weight");
    assert_eq!(skin.bind_poses.len(), 4);
    // Cut to one bone: vertex 0 loses 127/255 and keeps bone 1 at weight 1.
    let one = skin.padded(SkinWeights::One);
    assert_eq!(one.cut, 1);
    assert_eq!(one.weights.len(), 1);
    assert_eq!(one.weights[0][0], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(one.bones[0][0], [1, 0, 0, 0]);
    let four = skin.padded(SkinWeights::Four);
    assert_eq!(four.cut, 0);
    assert_eq!(four.bones[0][1], [3, 0, 0, 0]);
    // In glTF the zero-weight slot past the bind poses names joint 0 (glTF needs every
    // joint to exist); the weights are brought to a sum of 1.
    let out = to_scene(m.clone(), &SceneOptions::default()).unwrap();
    let gskin = out.mesh.skin.as_ref().unwrap();
    assert_eq!(gskin.joints[0], [1, 0, 0, 0]);
    assert_close(gskin.weights[0][0], 128.0 / 255.0, 1e-6, "glTF weight");
    assert_eq!(gskin.inverse_bind_matrices.len(), 4);
    assert!(
        out.notes.iter().any(|n| n.contains(
            "skin from the blend channels, up to 4 influences per vertex (--skin-weights 4)"
        )),
        "{:?}",
        out.notes
    );

    // Float16 weights (0.5, 0.25, 0.25, 0) with UInt16 indices; Float weights with UInt32.
    let b = blend(
        Some((
            1,
            4,
            u16_bytes(&[0x3800, 0x3400, 0x3400, 0, 0x3C00, 0, 0, 0]),
        )),
        Some((8, 4, u16_bytes(&[0, 1, 2, 3, 3, 2, 1, 0]))),
    );
    assert_eq!(b.weights, [0.5, 0.25, 0.25, 0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(b.bones, [0, 1, 2, 3, 3, 2, 1, 0]);
    let b = blend(
        Some((0, 2, f32_bytes(&[0.75, 0.25, 1.0, 0.0]))),
        Some((10, 2, u32_bytes(&[2, 3, 1, 0]))),
    );
    assert_eq!(b.influences(0), (&[0.75f32, 0.25][..], &[2u32, 3][..]));
    // UNorm16 weights.
    let b = blend(
        Some((4, 1, u16_bytes(&[65535, 32768]))),
        Some((8, 1, u16_bytes(&[1, 2]))),
    );
    assert_close(b.weights[1], 32768.0 / 65535.0, 1e-7, "UNorm16 weight");

    // Indices without weights: a rigid bind, one influence of weight 1.
    let b = blend(None, Some((10, 1, u32_bytes(&[1, 3]))));
    assert_eq!(
        (
            b.starts.as_slice(),
            b.weights.as_slice(),
            b.bones.as_slice()
        ),
        (&[0u32, 1, 2][..], &[1.0f32, 1.0][..], &[1u32, 3][..])
    );

    // Weights without indices are not a skin: the relation (observed: a warning) and what
    // decoding needs (an error), both at BlendWeight's entry.
    let m = skinned(Some((0, 1, f32_bytes(&[1.0, 1.0]))), None, 4);
    let found = at_path(&m, "unity_mesh.vertex_data.channels[12]");
    assert_eq!(
        found
            .iter()
            .map(|e| (e.severity, e.relation_id()))
            .collect::<Vec<_>>(),
        [
            (Severity::Warning, Some("blend_channels_form_a_skin")),
            (Severity::Error, Some("blend_channels_form_a_skin"))
        ]
    );
    assert_eq!(
        found[0].offset,
        Some(
            positions(&m)
                .vertex_data
                .as_ref()
                .unwrap()
                .channels
                .as_ref()
                .unwrap()
                .get(12)
                ._span
                .start
        )
    );
    assert_eq!(refusal(&m).kind, ErrorKind::Unsupported);
    // Weights as SNorm8, indices as SInt16: not skin formats.
    let e = refusal(&skinned(
        Some((3, 1, vec![127, 127])),
        Some((8, 1, u16_bytes(&[0, 0]))),
        4,
    ));
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Unsupported,
            "unity_mesh.vertex_data.channels[12].format".into()
        )
    );
    let e = refusal(&skinned(
        Some((0, 1, f32_bytes(&[1.0, 1.0]))),
        Some((9, 1, u16_bytes(&[0, 0]))),
        4,
    ));
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Unsupported,
            "unity_mesh.vertex_data.channels[13].format".into()
        )
    );
    // A bone slot past the bind poses with a weight: vertex 1's first slot, at byte
    // 32 (stream 1) + 1 * 8 (stride) + 4 (BlendIndices' offset) = 44 of the vertex bytes.
    let m = skinned(
        Some((2, 4, vec![255, 0, 0, 0, 255, 0, 0, 0])),
        Some((6, 4, vec![0, 0, 0, 0, 4, 0, 0, 0])),
        4,
    );
    let e = refusal(&m);
    assert_eq!(
        e.offset,
        Some(positions(&m).vertex_data.as_ref().unwrap().data.data.start + 44)
    );
    assert_eq!(e.path_string(), "unity_mesh.vertex_data.data.data");
    assert_eq!(e.found, "4");
}

/// The document's toad vertex 0: eight influences, as u16 weights in the high half of each
/// word (the nearest 16-bit values of .4731, .2608, ...).
const TOAD: [(u32, f64); 8] = [
    (7, 0.4731),
    (2, 0.2608),
    (11, 0.1681),
    (0, 0.0373),
    (5, 0.0331),
    (3, 0.0234),
    (9, 0.0038),
    (1, 0.0005),
];

/// Two vertices: the toad's vertex 0 (eight influences) and one of bone 4 at weight 1; the
/// blend channels as Unity fills them (the first four, renormalised).
fn toad() -> (Vec<u32>, Vec<u32>, UnityMesh) {
    let mut values: Vec<u32> = TOAD
        .iter()
        .map(|&(_, w)| (w * 65535.0).round() as u32)
        .collect();
    // The document's four-decimal weights sum to 1.0001, so the nearest 16-bit values sum to
    // 65,542; stored weights sum to 1 within half of 1/65535 per influence (the relation):
    // seven of them give up one 65535th each.
    let sum: u32 = values.iter().sum();
    assert_eq!(sum, 65_542);
    for v in &mut values[..7] {
        *v -= 1;
    }
    // Offsets 3, 11, 12 (nv + 1 = 3 words of offsets, then 8 + 1 influences).
    let mut words = vec![3, 11, 12];
    for (&(bone, _), &v) in TOAD.iter().zip(&values) {
        words.push(bone | (v << 16));
    }
    words.push(4 | (65535 << 16));
    let first4: f64 = values[..4].iter().map(|&v| f64::from(v)).sum();
    let channel_w: Vec<f32> = values[..4]
        .iter()
        .map(|&v| (f64::from(v) / first4) as f32)
        .chain([1.0, 0.0, 0.0, 0.0])
        .collect();
    let mut m = skinned(
        Some((0, 4, f32_bytes(&channel_w))),
        Some((8, 4, u16_bytes(&[7, 2, 11, 0, 4, 0, 0, 0]))),
        12,
    );
    set_words(&mut m, &words);
    (values, words, m)
}

fn set_words(m: &mut UnityMesh, words: &[u32]) {
    let w = m.variable_bone_count_weights.as_mut().unwrap();
    w.num_data = words.len() as i32;
    w.data = words.to_vec();
}

fn all_weights() -> meshspec_formats::Context {
    let mut c = ctx();
    c.skin_weights = SkinWeights::All;
    c
}

#[test]
fn variable_bone_counts_hold_every_influence_and_the_channels_the_first_four() {
    let (values, words, mesh) = toad();
    let v = verdict(&mesh);
    assert!(v.findings.is_empty(), "{:?}", lines(&v));
    assert!(
        v.notes.iter().any(|n| n.contains("--skin-weights all")),
        "{:?}",
        v.notes
    );
    // At four weights (the default) the variable data is not drawn, so not decoded.
    assert!(decoded(&mesh).unwrap().skin.unwrap().variable.is_none());
    let m = decoded_with(&mesh, &all_weights()).unwrap();
    let skin = m.skin.as_ref().unwrap();
    let var = skin.variable.as_ref().unwrap();
    assert_eq!(var.starts, [0, 8, 9]);
    let (w, b) = var.influences(0);
    assert_eq!(b, [7, 2, 11, 0, 5, 3, 9, 1]);
    for (g, &(_, doc)) in w.iter().zip(&TOAD) {
        assert_close(*g, doc, 1.5 / 65535.0 + 1e-7, "toad influence");
    }
    // The first four renormalised are the document's channel values .5036, .2776, .1789,
    // .0397 (to their four decimals) ...
    let (four, cut) = var.cut(4);
    assert_eq!(cut, 1);
    let (fw, fb) = four.influences(0);
    assert_eq!(fb, [7, 2, 11, 0]);
    for (g, doc) in fw.iter().zip([0.5036, 0.2776, 0.1789, 0.0397]) {
        assert_close(*g, doc, 1e-4, "toad channel value");
    }
    // ... and what the channels hold.
    let blend = skin.blend.as_ref().unwrap();
    for (g, c) in fw.iter().zip(blend.influences(0).0) {
        assert_close(*g, f64::from(*c), 1e-6, "channel");
    }
    // Which form is drawn: the variable data only at all weights.
    assert_eq!(skin.drawn(SkinWeights::All), Some(var));
    assert_eq!(skin.drawn(SkinWeights::Four), Some(blend));
    let all = skin.padded(SkinWeights::All);
    assert_eq!(all.weights.len(), 2, "eight influences: two sets of four");
    assert_eq!(all.bones[1][0], [5, 3, 9, 1]);
    assert_eq!(all.bones[1][1], [0, 0, 0, 0]);
    assert_eq!(all.weights[0][1], [1.0, 0.0, 0.0, 0.0]);
    let two = skin.padded(SkinWeights::Two);
    assert_eq!(two.cut, 1);
    let s = f64::from(values[0]) + f64::from(values[1]);
    assert_close(
        two.weights[0][0][0],
        f64::from(values[0]) / s,
        1e-6,
        "two bones",
    );
    assert_eq!(skin.padded(SkinWeights::Four).weights[0][0].len(), 4);
    // glTF carries four per vertex: at all weights the eight are cut, with a note naming the
    // form used.
    let opts = SceneOptions {
        skin_weights: SkinWeights::All,
        ..Default::default()
    };
    let out = to_scene(m.clone(), &opts).unwrap();
    let gskin = out.mesh.skin.as_ref().unwrap();
    assert_eq!(gskin.joints[0], [7, 2, 11, 0]);
    for (g, doc) in gskin.weights[0]
        .iter()
        .zip([0.5036, 0.2776, 0.1789, 0.0397])
    {
        assert_close(*g, doc, 1e-4, "glTF toad weight");
    }
    for note in [
        "1 vertices have more than four influences",
        "skin from m_VariableBoneCountWeights, every influence (--skin-weights all)",
    ] {
        assert!(
            out.notes.iter().any(|n| n.contains(note)),
            "{note}: {:?}",
            out.notes
        );
    }
    assert_eq!(SkinWeights::from_value(255), Some(SkinWeights::All));
    assert_eq!(SkinWeights::from_value(3), None);

    // Bad offsets: the relation (observed, a warning) at the word; refused only where the
    // data is drawn.
    let mut bad = mesh.clone();
    let mut w = words.clone();
    w[0] = 2;
    set_words(&mut bad, &w);
    let found = at_path(&bad, "unity_mesh.variable_bone_count_weights.data[0]");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].relation_id(), Some("variable_weights_offsets"));
    assert_eq!(
        found[0].offset,
        Some(
            positions(&bad)
                .variable_bone_count_weights
                .unwrap()
                .data
                .get(0)
                .start
        )
    );
    assert!(verdict(&bad).passes());
    let e = decoded_with(&bad, &all_weights()).unwrap_err();
    assert_eq!(
        (e.kind, e.path_string(), e.relation_id()),
        (
            ErrorKind::Unsupported,
            "unity_mesh.variable_bone_count_weights.data[0]".into(),
            Some("variable_weights_offsets")
        )
    );
    let mut bad = mesh.clone();
    let mut w = words.clone();
    w[2] = 11;
    set_words(&mut bad, &w);
    let e = decoded_with(&bad, &all_weights()).unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.variable_bone_count_weights.data[2]"
    );
    let mut bad = mesh.clone();
    set_words(&mut bad, &words[..2]);
    let e = decoded_with(&bad, &all_weights()).unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.variable_bone_count_weights.data"
    );
    assert!(e.expected.starts_with("at least 3 words"), "{e}");
    let mut bad = mesh.clone();
    unity_synth::bind_poses(&mut bad, &[identity(); 10]);
    // Bone 11 is vertex 0's third influence in the channels (at byte 32 (stream 1) + 16 (the
    // four Float weights) + 2 * 2 of the vertex bytes) and in the variable data (word 3 + 2).
    let v = entry().judge(&bytes(&bad), &all_weights());
    let errors: Vec<(String, Option<u64>)> = v
        .errors()
        .map(|e| {
            assert!(e.to_string().contains("below the 10 bind poses"), "{e}");
            (e.path_string(), e.offset)
        })
        .collect();
    let at = positions(&bad);
    assert_eq!(
        errors,
        [
            (
                "unity_mesh.vertex_data.data.data".to_string(),
                Some(at.vertex_data.as_ref().unwrap().data.data.start + 52)
            ),
            (
                "unity_mesh.variable_bone_count_weights.data[5]".to_string(),
                Some(at.variable_bone_count_weights.unwrap().data.get(5).start)
            )
        ]
    );

    // Influences out of order, and weights that do not sum to 1: warnings (observed).
    let mut bad = mesh.clone();
    let mut w = words.clone();
    w.swap(3, 4);
    set_words(&mut bad, &w);
    let v = verdict(&bad);
    assert!(v.passes());
    let e: Vec<&Error> = v.warnings().collect();
    assert_eq!(e.len(), 1, "{:?}", lines(&v));
    assert_eq!(e[0].relation_id(), Some("variable_weights_sorted"));
    assert_eq!(
        e[0].path_string(),
        "unity_mesh.variable_bone_count_weights.data[4]"
    );
    let mut bad = mesh.clone();
    let mut w = words.clone();
    // Vertex 1's one weight 65535 - 1: within half of 1/65535 per influence it is not.
    w[11] = 4 | (65534 << 16);
    set_words(&mut bad, &w);
    let v = verdict(&bad);
    let e: Vec<&Error> = v.warnings().collect();
    assert_eq!(e.len(), 1, "{:?}", lines(&v));
    assert_eq!(e[0].relation_id(), Some("variable_weights_sum_to_one"));
    assert_eq!(
        e[0].path_string(),
        "unity_mesh.variable_bone_count_weights.data[11]"
    );
    assert_eq!(e[0].found, "65534/65535");
    // Eight influences may be off by four in 65535 (half each), not by five.
    let mut close = mesh.clone();
    let mut w = words.clone();
    w[3] -= 4 << 16;
    set_words(&mut close, &w);
    assert!(verdict(&close).findings.is_empty());
    w[3] -= 1 << 16;
    set_words(&mut close, &w);
    assert_eq!(
        verdict(&close).warnings().next().unwrap().relation_id(),
        Some("variable_weights_sum_to_one")
    );
}

// ---------------------------------------------------------------------------------------------
// Blend shapes.

// The CRC-32 check values: "123456789" is 0xCBF43926, the quick brown fox 0x414FA339.
const FOX: &str = "The quick brown fox jumps over the lazy dog";

fn v3(v: [f32; 3]) -> Vector3f {
    Vector3f {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

fn shape_vertex(
    index: u32,
    vertex: [f32; 3],
    normal: [f32; 3],
    tangent: [f32; 3],
) -> BlendShapeVertex {
    BlendShapeVertex {
        vertex: v3(vertex),
        normal: v3(normal),
        tangent: v3(tangent),
        index,
    }
}

fn frame(first_vertex: u32, vertex_count: u32, normals: bool) -> MeshBlendShape {
    MeshBlendShape {
        first_vertex,
        vertex_count,
        has_normals: normals as u8,
        has_tangents: normals as u8,
        pad: vec![0, 0],
    }
}

fn shape_channel(
    name: &str,
    hash: u32,
    frame_index: i32,
    frame_count: i32,
) -> MeshBlendShapeChannel {
    MeshBlendShapeChannel {
        name: make::string(name),
        name_hash: hash,
        frame_index,
        frame_count,
    }
}

/// Three vertices with positions, normals and tangents; shapes `123456789` (one frame, with
/// normal and tangent deltas) and the quick brown fox (two frames).
fn shaped_mesh() -> UnityMesh {
    let channels = table(&[
        (0, ch(0, 0, 0, 3)),
        (1, ch(0, 12, 0, 3)),
        (2, ch(0, 24, 0, 4)),
    ]);
    let mut data = vec![];
    for v in 0..3 {
        data.extend(f32_bytes(&[v as f32, 1.0, 0.0]));
        data.extend(f32_bytes(&[0.0, 0.0, 1.0]));
        data.extend(f32_bytes(&[1.0, 0.0, 0.0, 1.0]));
    }
    let mut m = mesh("shaped", 3, channels, data);
    let s = m.shapes.as_mut().unwrap();
    s.vertices = vec![
        shape_vertex(1, [1.0, 2.0, 3.0], [0.1, 0.0, 0.0], [0.0, 0.5, 0.0]),
        shape_vertex(2, [0.0, 0.0, 2.0], [0.0; 3], [0.0; 3]),
        shape_vertex(2, [0.0, 0.0, 6.0], [0.0; 3], [0.0; 3]),
    ];
    s.shapes = vec![frame(0, 1, true), frame(1, 1, false), frame(2, 1, false)];
    s.channels = vec![
        shape_channel("123456789", 0xCBF4_3926, 0, 1),
        shape_channel(FOX, 0x414F_A339, 1, 2),
    ];
    s.full_weights = vec![100.0, 50.0, 100.0];
    m
}

#[test]
fn blend_shapes_have_checked_names_frames_and_sparse_deltas() {
    let mesh = shaped_mesh();
    assert!(verdict(&mesh).findings.is_empty());
    let m = decoded(&mesh).unwrap();
    let shapes = m.shapes.as_ref().unwrap();
    assert_eq!(shapes.channels.len(), 2);
    assert_eq!(shapes.find(FOX), Some(1));
    assert_eq!(shapes.frames_of(1).len(), 2);
    assert_eq!(name_hash("123456789"), 0xCBF4_3926);
    // Half of the first shape; the fox at 75 is halfway between its frames at 50 and 100.
    let posed = shapes.apply(&m, &[50.0, 75.0]).unwrap();
    assert_eq!(posed.positions[0], [0.0, 1.0, 0.0]);
    assert_eq!(posed.positions[1], [1.5, 2.0, 1.5]);
    assert_eq!(posed.positions[2], [2.0, 1.0, 4.0]);
    assert_eq!(posed.normals.as_ref().unwrap()[1], [0.05, 0.0, 1.0]);
    assert_eq!(posed.tangents.as_ref().unwrap()[1], [1.0, 0.25, 0.0, 1.0]);
    // Below the first frame: that frame scaled (25 / 50 of (0, 0, 2)).
    let posed = shapes.apply(&m, &[0.0, 25.0]).unwrap();
    assert_eq!(posed.positions[2], [2.0, 1.0, 1.0]);
    assert_eq!(posed.positions[1], [1.0, 1.0, 0.0]);
    let posed = shapes.apply(&m, &[100.0, 100.0]).unwrap();
    assert_eq!(posed.positions[2], [2.0, 1.0, 6.0]);
    assert!(shapes.apply(&m, &[1.0]).is_err());

    // As morph targets: each channel's last frame, mirrored.
    let out = to_scene(m.clone(), &SceneOptions::default()).unwrap();
    let t = &out.mesh.morph_targets;
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].name, "123456789");
    assert_eq!(t[0].positions[1], [-1.0, 2.0, 3.0]);
    assert_eq!(t[0].positions[0], [0.0; 3]);
    assert_eq!(t[0].normals.as_ref().unwrap()[1], [-0.1, 0.0, 0.0]);
    assert_eq!(t[0].tangents.as_ref().unwrap()[1], [-0.0, 0.5, 0.0]);
    assert_eq!(t[1].positions[2], [-0.0, 0.0, 6.0]);
    assert!(t[1].normals.is_none());
    assert!(
        out.notes.iter().any(|n| n.contains("in-between")),
        "{:?}",
        out.notes
    );

    // A wrong name hash: a warning (shape_name_hash is observed); the shape still decodes.
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().channels[0].name_hash = 0xCBF4_3927;
    let v = verdict(&bad);
    assert!(v.passes());
    let at = positions(&bad).shapes.as_ref().unwrap().channels.items[0]
        .name_hash
        .start;
    assert_eq!(
        v.warnings().map(|e| e.to_string()).collect::<Vec<_>>(),
        [format!("0x{at:X} unity_mesh.shapes.channels[0].name_hash: expected 0xCBF43926 (the CRC-32 of `123456789`) (relation `shape_name_hash`), found 0xCBF43927")]
    );
    assert_eq!(
        decoded(&bad).unwrap().shapes.unwrap().channels[0].name_hash,
        0xCBF4_3927
    );
    // Frames past the end, a vertex past the mesh, a missing weight, frames out of order:
    // shape_arrays_agree (inferred, a warning) with what decoding needs, at the field.
    let agree = |bad: &UnityMesh, path: &str| {
        let found = at_path(bad, path);
        assert_eq!(
            found
                .iter()
                .map(|e| (e.severity, e.relation_id()))
                .collect::<Vec<_>>(),
            [
                (Severity::Warning, Some("shape_arrays_agree")),
                (Severity::Error, Some("shape_arrays_agree"))
            ],
            "{path}: {:?}",
            lines(&verdict(bad))
        );
        assert!(!verdict(bad).passes());
    };
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().channels[1].frame_count = 3;
    agree(&bad, "unity_mesh.shapes.channels[1].frame_count");
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().vertices[1].index = 3;
    agree(&bad, "unity_mesh.shapes.vertices[1].index");
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().full_weights.pop();
    agree(&bad, "unity_mesh.shapes.num_full_weights");
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().shapes[2].vertex_count = 2;
    agree(&bad, "unity_mesh.shapes.shapes[2].vertex_count");
    let mut bad = mesh.clone();
    bad.shapes.as_mut().unwrap().full_weights = vec![100.0, 100.0, 50.0];
    let e = refusal(&bad);
    assert_eq!(
        (e.kind, e.path_string()),
        (
            ErrorKind::Unsupported,
            "unity_mesh.shapes.full_weights[2]".into()
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Non-finite values, the frame, and export.

#[test]
fn non_finite_values_are_reported_where_and_how_many() {
    let data = f32_bytes(&[
        0.0,
        0.0,
        0.0,
        f32::NAN,
        0.0,
        0.0,
        1.0,
        1.0,
        1.0,
        0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ]);
    let mut mesh = mesh("holes", 4, table(&[(0, ch(0, 0, 0, 3))]), data);
    indices16(&mut mesh, &[0, 1, 2, 0, 2, 3]);
    submeshes(&mut mesh, vec![submesh(0, 6, 0, 0, 0, 4)]);
    let m = decoded(&mesh).unwrap();
    assert_eq!(
        m.non_finite,
        [NonFiniteReport {
            field: "unity_mesh.vertex_data.channels[0]".into(),
            what: "Vertex".into(),
            count: 2,
            first: 1,
        }]
    );
    let out = to_scene(m.clone(), &SceneOptions::default()).unwrap();
    assert!(out
        .notes
        .iter()
        .any(|n| n.contains("2 elements with non-finite values, the first at 1")));
    let scene = Scene {
        meshes: vec![out.mesh],
        notes: out.notes,
    };
    let e = glb(scene.clone(), NonFinite::Refuse).unwrap_err();
    assert!(
        e.to_string().contains("2 positions (first at vertex 1)"),
        "{e}"
    );
    assert!(glb(scene.clone(), NonFinite::Zero).is_ok());
}

#[test]
fn bind_poses_become_mirrored_column_major_inverse_bind_matrices() {
    // A quarter turn about y and a translation (2, 3, 4), row-major as Unity stores it.
    let bind = [
        0.0, 0.0, 1.0, 2.0, //
        0.0, 1.0, 0.0, 3.0, //
        -1.0, 0.0, 0.0, 4.0, //
        0.0, 0.0, 0.0, 1.0,
    ];
    // M·B·M with M = diag(-1, 1, 1, 1) negates the entries with exactly one index 0; then
    // column by column.
    let want = [
        0.0, 0.0, 1.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        -1.0, 0.0, 0.0, 0.0, //
        -2.0, 3.0, 4.0, 1.0,
    ];
    assert_eq!(inverse_bind_matrix(&bind), want);
    // The same map: B takes Unity's (1, 0, 0) to (2, 3, 3); the glTF matrix takes the
    // mirrored point (-1, 0, 0) to the mirrored (-2, 3, 3).
    let p = [-1.0f32, 0.0, 0.0, 1.0];
    let q: Vec<f32> = (0..4)
        .map(|r| (0..4).map(|c| want[c * 4 + r] * p[c]).sum())
        .collect();
    assert_eq!(q, [-2.0, 3.0, 3.0, 1.0]);
}

#[test]
fn to_scene_mirrors_x_flips_tangent_w_and_v_and_reverses_winding() {
    // One triangle with a normal, a tangent and a UV; skinned to bones 0 and 1.
    let channels = table(&[
        (0, ch(0, 0, 0, 3)),
        (1, ch(0, 12, 0, 3)),
        (2, ch(0, 24, 0, 4)),
        (4, ch(0, 40, 0, 2)),
        (12, ch(1, 0, 0, 2)),
        (13, ch(1, 8, 10, 2)),
    ]);
    let mut data = vec![];
    let pos = [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
    for p in pos {
        data.extend(f32_bytes(&p));
        data.extend(f32_bytes(&[0.0, 0.0, -1.0]));
        data.extend(f32_bytes(&[0.6, 0.8, 0.0, -1.0]));
        data.extend(f32_bytes(&[0.25, 0.125]));
    }
    assert_eq!(data.len(), 144);
    for v in 0..3u32 {
        data.extend(f32_bytes(&[0.75, 0.25]));
        data.extend(u32_bytes(&[v % 2, 1 - v % 2]));
    }
    let mut mesh = mesh("tri", 3, channels, data);
    indices16(&mut mesh, &[0, 1, 2]);
    submeshes(&mut mesh, vec![submesh(0, 3, 0, 0, 0, 3)]);
    unity_synth::bind_poses(&mut mesh, &[identity(), identity()]);
    let m = decoded(&mesh).unwrap();
    let out = to_scene(
        m.clone(),
        &SceneOptions {
            joint_names: vec!["hip".into(), "knee".into()],
            material_names: vec!["skin".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let mesh = &out.mesh;
    assert_eq!(
        mesh.positions,
        [[-0.0, 0.0, 0.0], [-0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]
    );
    assert_eq!(mesh.normals.as_ref().unwrap()[0], [-0.0, 0.0, -1.0]);
    assert_eq!(mesh.tangents.as_ref().unwrap()[0], [-0.6, 0.8, 0.0, 1.0]);
    assert_eq!(mesh.uvs[0][0], [0.25, 0.875]);
    // Unity's clockwise (0, 1, 2) seen from -z; mirrored and reversed, the corners' normal
    // (b - a) x (c - a) points along the stored normal, as glTF's counter-clockwise front
    // faces require.
    let ix = &mesh.primitives[0].indices;
    assert_eq!(ix, &[0, 2, 1]);
    let [a, b, c] = [ix[0], ix[1], ix[2]].map(|i| mesh.positions[i as usize]);
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    let stored = mesh.normals.as_ref().unwrap()[0];
    assert!(n[0] * stored[0] + n[1] * stored[1] + n[2] * stored[2] > 0.0);
    let skin = mesh.skin.as_ref().unwrap();
    assert_eq!(skin.joints[1], [1, 0, 0, 0]);
    assert_eq!(skin.weights[1], [0.75, 0.25, 0.0, 0.0]);
    assert_eq!(skin.joint_names, ["hip", "knee"]);
    assert_eq!(skin.inverse_bind_matrices[0], identity());
    assert_eq!(mesh.materials[0].name, "skin");
    let scene = Scene {
        meshes: vec![out.mesh.clone()],
        notes: vec![],
    };
    validate_glb("tri", &glb(scene.clone(), NonFinite::Refuse).unwrap().bytes);
}

// ---------------------------------------------------------------------------------------------
// glTF-Validator (the export tests require it too).

/// Writes `bytes` as `name.glb` and runs Khronos' glTF-Validator over it: no error is accepted
/// (skinned exports included: the exporter hangs every joint from one skeleton root).
fn validate_glb(name: &str, bytes: &[u8]) {
    let path = meshspec_tests::tools::scratch(&format!("{name}.glb"));
    std::fs::write(&path, bytes).unwrap();
    meshspec_tests::validate_gltf(std::slice::from_ref(&path));
    let _ = std::fs::remove_file(&path);
}

// ---------------------------------------------------------------------------------------------
// The real files.

fn unitypy_json_files() -> Vec<PathBuf> {
    meshspec_tests::unity_mesh_files(&shared_dir(), ".unitypy.json")
        .into_iter()
        .map(|(_, f)| f)
        .collect()
}

/// The values of a UnityPy array of per-vertex arrays, flattened.
fn flat(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()))
        .collect()
}

fn same_f32(ours: &[f32], theirs: &[f64], what: &str, file: &Path) {
    assert_eq!(
        ours.len(),
        theirs.len(),
        "{what} count in {}",
        file.display()
    );
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        // UnityPy's values are the same f32s printed as f64: exact.
        assert_eq!(*a, *b as f32, "{what}[{i}] in {}", file.display());
    }
}

/// Per mesh (by path id) of Unity's own dump: the bind poses' e00..e33 and each submesh's
/// (firstByte, indexCount, baseVertex, firstVertex, vertexCount).
type Dump = std::collections::HashMap<i64, (Vec<f32>, Vec<[u64; 5]>)>;

/// Unity's own dump of one editor version, if the corpus has one.
fn unity_dump(version: &str) -> Option<Dump> {
    let path = shared_dir().join(format!("corpus/unity/unity-dumps/{version}.txt"));
    let text = std::fs::read_to_string(path).ok()?;
    let mut out = std::collections::HashMap::new();
    let mut current: Option<(i64, Vec<f32>, Vec<[u64; 5]>)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("ID: ") {
            if let Some((id, e, s)) = current.take() {
                out.insert(id, (e, s));
            }
            if rest.ends_with("(ClassID: 43) Mesh") {
                let id: i64 = rest.split_whitespace().next().unwrap().parse().unwrap();
                current = Some((id, vec![], vec![]));
            }
            continue;
        }
        let Some((_, e, s)) = current.as_mut() else {
            continue;
        };
        let t = line.trim();
        let field = |name: &str| -> Option<u64> { t.strip_prefix(name)?.trim().parse().ok() };
        if t.starts_with('e')
            && t.contains(" (float) ")
            && t.len() > 3
            && t.as_bytes()[1].is_ascii_digit()
        {
            e.push(t.rsplit(' ').next().unwrap().parse().unwrap());
        } else if let Some(v) = field("firstByte (unsigned int)") {
            s.push([v, 0, 0, 0, 0]);
        } else if let Some(v) = field("indexCount (unsigned int)") {
            s.last_mut().unwrap()[1] = v;
        } else if let Some(v) = field("baseVertex (unsigned int)") {
            s.last_mut().unwrap()[2] = v;
        } else if let Some(v) = field("firstVertex (unsigned int)") {
            s.last_mut().unwrap()[3] = v;
        } else if let Some(v) = field("vertexCount (unsigned int)") {
            s.last_mut().unwrap()[4] = v;
        }
    }
    if let Some((id, e, s)) = current.take() {
        out.insert(id, (e, s));
    }
    Some(out)
}

#[test]
fn all_35_corpus_meshes_decode_as_unitypy_and_unitys_dumps_say() {
    meshspec_tests::shared_or_return!();
    let files = unitypy_json_files();
    let mut dumps = std::collections::HashMap::new();
    let mut checked = 0;
    let mut against_dumps = 0;
    let mut exported = vec![];
    for file in &files {
        let j: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let dir = file.parent().unwrap();
        let version = dir.file_name().unwrap().to_string_lossy().to_string();
        let raw_file = dir.join(j["raw_file"].as_str().unwrap());
        let raw_bytes = std::fs::read(&raw_file).unwrap();
        let mut ctx = meshspec_formats::Context::new()
            .with_unity_version(&version)
            .unwrap();
        // The streamed range is found beside the object, as Unity would.
        ctx.input = Some(raw_file.clone());
        let m = meshspec_formats::unity::mesh_data(&raw_bytes, &ctx)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let view = UnityMesh::read::<false>(&raw_bytes, &ctx).unwrap().value;
        assert_eq!(
            view.vertex_data.as_ref().unwrap().data.data.is_empty(),
            j["stream_data"].is_object(),
            "streamed meshes have no inline bytes: {}",
            file.display()
        );
        if let Some(sd) = j["stream_data"].as_object() {
            // The slice the corpus keeps is exactly the range decoded.
            let slice = std::fs::read(dir.join(sd["slice_file"].as_str().unwrap())).unwrap();
            assert_eq!(
                meshspec_formats::unity::stream::read(&view, &ctx)
                    .unwrap()
                    .unwrap(),
                slice
            );
        }
        let name = j["name"].as_str().unwrap();
        let u = &j["unitypy_decoded"];
        same_f32(&floats_of(&m, 0), &flat(&u["positions"]), "positions", file);
        if !u["normals"].is_null() {
            same_f32(&floats_of(&m, 1), &flat(&u["normals"]), "normals", file);
        } else {
            assert!(m.channel(1).is_none());
        }
        if !u["tangents"].is_null() {
            same_f32(&floats_of(&m, 2), &flat(&u["tangents"]), "tangents", file);
        } else {
            assert!(m.channel(2).is_none());
        }
        assert!(u["colors"].is_null() && m.channel(3).is_none());
        same_f32(&floats_of(&m, 4), &flat(&u["uv0"]), "uv0", file);
        assert!(u["uv1"].is_null() && m.channel(5).is_none());
        // Skin: UnityPy gives no weights for a one-bone skin; ours are 1.
        match (&m.skin, u["bone_indices"].is_null()) {
            (None, true) => {}
            (Some(skin), false) => {
                let blend = skin.blend.as_ref().unwrap();
                let theirs: Vec<u32> = flat(&u["bone_indices"]).iter().map(|&x| x as u32).collect();
                if u["bone_weights"].is_null() {
                    assert_eq!(blend.bones, theirs, "{}", file.display());
                    assert!(blend.weights.iter().all(|&w| w == 1.0));
                    assert_eq!(blend.max_influences(), 1);
                } else {
                    same_f32(&blend.weights, &flat(&u["bone_weights"]), "weights", file);
                    assert_eq!(blend.bones, theirs, "{}", file.display());
                }
                assert_eq!(
                    skin.bind_poses.len(),
                    j["bind_pose_count"].as_u64().unwrap() as usize
                );
            }
            other => panic!("{}: skin {:?}", file.display(), other.0.is_some()),
        }
        // Triangles per submesh (UnityPy ignores baseVertex, which is 0 throughout).
        let tris = u["triangles_per_submesh"].as_array().unwrap();
        assert_eq!(tris.len(), m.submeshes.len());
        for (s, t) in m.submeshes.iter().zip(tris) {
            assert_eq!(s.base_vertex, 0);
            let theirs: Vec<u32> = flat(t).iter().map(|&x| x as u32).collect();
            assert_eq!(s.indices, theirs, "{}", file.display());
        }
        assert!(m.non_finite.is_empty());
        // Unity's own dump, where there is one: bind poses and submeshes.
        let dump = dumps
            .entry(version.clone())
            .or_insert_with(|| unity_dump(&version));
        if let Some(dump) = dump {
            let id = j["path_id"].as_i64().unwrap();
            let (e, s) = dump
                .get(&id)
                .unwrap_or_else(|| panic!("{id} in the {version} dump"));
            let ours: Vec<f32> = m
                .skin
                .as_ref()
                .map(|k| k.bind_poses.iter().flatten().copied().collect())
                .unwrap_or_default();
            assert_eq!(&ours, e, "bind poses of {}", file.display());
            let sub: Vec<[u64; 5]> = m
                .submeshes
                .iter()
                .map(|x| {
                    [
                        u64::from(x.first_byte),
                        u64::from(x.index_count),
                        u64::from(x.base_vertex),
                        u64::from(x.first_vertex),
                        u64::from(x.vertex_count),
                    ]
                })
                .collect();
            assert_eq!(&sub, s, "submeshes of {}", file.display());
            against_dumps += 1;
        }
        // Into glTF's frame and out through the exporter.
        let out = to_scene(m.clone(), &SceneOptions::default()).unwrap();
        assert_eq!(out.mesh.positions.len(), m.vertex_count);
        let p0 = m.positions().unwrap()[0];
        assert_eq!(out.mesh.positions[0], [-p0[0], p0[1], p0[2]]);
        assert_eq!(out.mesh.skin.is_some(), m.skin.is_some());
        let skinned = m.skin.is_some();
        let scene = Scene {
            meshes: vec![out.mesh],
            notes: out.notes,
        };
        let bytes = glb(scene.clone(), NonFinite::Refuse)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .bytes;
        exported.push((format!("{version}-{name}"), bytes, skinned));
        checked += 1;
    }
    assert_eq!(checked, 35, "every Mesh object of the corpus");
    assert_eq!(against_dumps, 21, "the three versions with Unity's dumps");
    // One of each kind through glTF-Validator: a sword part, the body, an arm.
    for (name, bytes, _) in exported
        .iter()
        .filter(|(n, _, _)| n.starts_with("2021.3.0f1-"))
    {
        validate_glb(name, bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary input: never a panic, the verdict and decoding agree, and whatever decodes converts
// into a valid common mesh.

/// The library's deterministic generator, so failures reproduce, with the draws these tests use.
struct Rng(meshspec_formats::sws::build::Rng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A channel table whose layout is consistent and vertex data of the size it asks for, each
/// broken now and then, so that decoding gets past the layout check often.
fn arbitrary_layout(
    r: &mut Rng,
    vc: usize,
) -> (
    Vec<meshspec_formats::generated::unity_mesh::ChannelInfo>,
    Vec<u8>,
) {
    const SIZES: [usize; 12] = [4, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4];
    let mut t = table(&[]);
    let mut strides = [0usize; 5];
    let skin_dim = 1 + r.below(4) as u8;
    let skinned = r.chance(40);
    for (slot, c) in t.iter_mut().enumerate() {
        let present = match slot {
            0 => r.chance(95),
            1..=4 => r.chance(50),
            12 => skinned && r.chance(80),
            13 => skinned || r.chance(2),
            _ => r.chance(10),
        };
        if !present {
            continue;
        }
        let streams = if r.chance(5) { 5 } else { 3 };
        let stream = r.below(streams) as usize;
        let (format, dim) = match slot {
            0 => (if r.chance(90) { 0 } else { 1 }, 3),
            12 => ([0u8, 1, 2, 4][r.below(4) as usize], skin_dim),
            13 => ([6u8, 8, 10][r.below(3) as usize], skin_dim),
            _ => (r.below(12) as u8, 1 + r.below(4) as u8),
        };
        *c = ch(
            stream as u8,
            strides[stream] as u8,
            format,
            dim | if r.chance(20) { 0x30 } else { 0 },
        );
        strides[stream] += SIZES[format as usize] * dim as usize;
    }
    // Now and then two channels of a stream trade places (any order is allowed).
    if r.chance(10) {
        let (a, b) = (r.below(14) as usize, r.below(14) as usize);
        if t[a].stream == t[b].stream && t[a].dimension & 0xF != 0 && t[b].dimension & 0xF != 0 {
            let (sa, sb) = (
                SIZES[t[a].format.0 as usize] * usize::from(t[a].dimension & 0xF),
                SIZES[t[b].format.0 as usize] * usize::from(t[b].dimension & 0xF),
            );
            if sa == sb {
                let o = t[a].offset;
                t[a].offset = t[b].offset;
                t[b].offset = o;
            }
        }
    }
    let mut len = 0usize;
    let last = (0..5).rev().find(|&s| {
        t.iter()
            .any(|c| c.dimension & 0xF != 0 && c.stream as usize == s)
    });
    if let Some(last) = last {
        for stride in &strides[..=last] {
            len = len.div_ceil(16) * 16 + stride * vc;
        }
    }
    if r.chance(3) {
        len = len.saturating_sub(r.below(5) as usize) + r.below(5) as usize;
    }
    if r.chance(3) {
        let k = r.below(14) as usize;
        t[k].offset = t[k].offset.wrapping_add(1 + r.below(30) as u8);
    }
    if r.chance(2) {
        t[r.below(14) as usize].format.0 = 12 + r.below(3) as u8;
    }
    let mut data = r.bytes(len);
    // Mostly small finite floats (and small integers as bone slots), so that geometry
    // survives to the end.
    if r.chance(90) {
        for c in data.chunks_exact_mut(4) {
            let x = (r.below(2001) as f32 - 1000.0) / 1000.0;
            c.copy_from_slice(&x.to_le_bytes());
        }
        if r.chance(90) {
            for (slot, c) in t.iter().enumerate() {
                if slot != 13 || c.dimension & 0xF == 0 {
                    continue;
                }
                let mut start = 0usize;
                for (s, stride) in strides.iter().enumerate() {
                    start = start.div_ceil(16) * 16;
                    if s == c.stream as usize {
                        break;
                    }
                    start += stride * vc;
                }
                let Some(&size) = SIZES.get(c.format.0 as usize) else {
                    continue;
                };
                for v in 0..vc {
                    for k in 0..usize::from(c.dimension & 0xF) {
                        let at =
                            start + v * strides[c.stream as usize] + c.offset as usize + k * size;
                        if let Some(b) = data.get_mut(at..at + size) {
                            b.fill(0);
                            b[0] = r.below(4) as u8;
                        }
                    }
                }
            }
        }
    }
    (t, data)
}

/// A packed float vector of `n` items whose data holds them (or, now and then, does not).
fn arbitrary_packed_floats(
    r: &mut Rng,
    n: u32,
) -> meshspec_formats::generated::unity_mesh::PackedFloatVector {
    let bits = if r.chance(97) { r.below(33) as u8 } else { 33 };
    let mut len = (n as usize * bits as usize).div_ceil(8);
    if r.chance(3) {
        len = len.saturating_sub(1);
    }
    let range = (r.below(400) as f32) / 100.0;
    let start = -(r.below(200) as f32) / 100.0;
    make::packed_floats(n, bits, start, range, r.bytes(len))
}

/// A packed integer vector of `n` items of `bits` bits with values below `below`.
fn arbitrary_packed_ints(
    r: &mut Rng,
    n: u32,
    bits: u32,
    below: u64,
) -> meshspec_formats::generated::unity_mesh::PackedIntVector {
    let items: Vec<u32> = (0..n).map(|_| r.below(below) as u32).collect();
    let mut data = pack(&items, bits);
    if r.chance(3) {
        data.pop();
    }
    make::packed_ints(n, bits as u8, data)
}

/// An arbitrary mesh, close enough to a consistent one that most rounds decode.
fn arbitrary_mesh(r: &mut Rng) -> UnityMesh {
    let vc = 1 + r.below(6) as usize;
    let compressed = r.chance(20);
    let (channels, data) = if compressed {
        (table(&[]), vec![])
    } else {
        arbitrary_layout(r, vc)
    };
    let mut m = mesh("arbitrary", vc as u32, channels, data);
    let index_format = if r.chance(98) { r.below(2) as i32 } else { 7 };
    let isz = if index_format == 1 { 4u32 } else { 2 };
    // Submeshes over a shared buffer, each a whole number of its topology's primitives.
    let mut stored: Vec<u32> = vec![];
    let mut subs = vec![];
    for _ in 0..r.below(4) {
        let topology = if r.chance(97) { r.below(6) as i32 } else { 6 };
        let unit = [3u32, 1, 4, 2, 1, 1]
            .get(topology as usize)
            .copied()
            .unwrap_or(1);
        let count = unit * r.below(3) as u32 + u32::from(r.chance(2));
        let base_vertex = if r.chance(80) { 0 } else { r.below(2) as u32 };
        let first_byte = stored.len() as u32 * isz + if r.chance(2) { 1 } else { 0 };
        for _ in 0..count {
            let top = (vc as u64).saturating_sub(u64::from(base_vertex)).max(1);
            stored.push(if r.chance(98) {
                r.below(top) as u32
            } else {
                r.next() as u32
            });
        }
        let vertex_count = if r.chance(95) {
            vc as u32
        } else {
            vc as u32 + 1
        };
        subs.push(submesh(
            first_byte,
            count + u32::from(r.chance(2)),
            topology,
            base_vertex,
            0,
            vertex_count,
        ));
    }
    let mut ib: Vec<u8> = if isz == 2 {
        stored
            .iter()
            .flat_map(|&v| (v as u16).to_le_bytes())
            .collect()
    } else {
        stored.iter().flat_map(|&v| v.to_le_bytes()).collect()
    };
    unity_synth::bind_poses(&mut m, &vec![identity(); 4 + r.below(2) as usize]);
    let mut words = vec![];
    if r.chance(25) {
        let mut at = vc as u32 + 1;
        words.push(at);
        let per: Vec<u32> = (0..vc).map(|_| r.below(6) as u32).collect();
        for &p in &per {
            at += p;
            words.push(at);
        }
        for _ in 0..(at - vc as u32 - 1) {
            words.push(r.below(4) as u32 | ((r.next() as u32) & 0xFFFF_0000));
        }
        if r.chance(5) {
            let k = r.below(words.len() as u64) as usize;
            words[k] = r.next() as u32;
        }
    }
    set_words(&mut m, &words);
    // A compressed mesh: every vector sized for the vertex count, now and then not.
    let cvc = vc as u32;
    let mut n = |per: u32| {
        if r.chance(97) {
            per * cvc
        } else {
            r.below(20) as u32
        }
    };
    let counts = [3, 2, 2, 2, 1, 1, 2, 4].map(&mut n);
    if compressed {
        let c = &mut m.compressed_mesh;
        c.vertices = arbitrary_packed_floats(r, counts[0].max(3));
        if r.chance(50) {
            c.uv = arbitrary_packed_floats(r, counts[1]);
            c.uv_info = Some(if r.chance(50) {
                0
            } else {
                // Set 0 present with 2 components, as the UV count above expects.
                0x5 | if r.chance(5) { 0x60 } else { 0 }
            });
        }
        if r.chance(50) {
            c.normals = arbitrary_packed_floats(r, counts[2]);
            c.normal_signs = arbitrary_packed_ints(r, counts[4], 1, 2);
        }
        if r.chance(50) {
            c.tangents = arbitrary_packed_floats(r, counts[3]);
            c.tangent_signs = arbitrary_packed_ints(r, counts[6], 1, 2);
        }
        if r.chance(50) {
            c.float_colors = Some(arbitrary_packed_floats(r, counts[7]));
        }
        // Whole weights of 31 per vertex (one bone each), sometimes split or short.
        if r.chance(40) {
            let wn = cvc + u32::from(r.chance(3));
            c.weights = make::packed_ints(wn, 5, pack(&vec![31; wn as usize], 5));
            c.bone_indices = arbitrary_packed_ints(r, cvc, 3, 4);
        }
        if r.chance(50) {
            c.triangles = make::packed_ints(stored.len() as u32, 32, pack(&stored, 32));
            ib.clear();
        }
    }
    if r.chance(2) {
        ib.push(r.next() as u8);
    }
    m.index_format = Some(meshspec_formats::generated::unity_mesh::IndexFormat(
        index_format,
    ));
    let index_size = match index_format {
        0 => 2,
        1 => 4,
        _ => 0,
    };
    m.index_buffer = make::index_bytes(index_size, ib);
    submeshes(&mut m, subs);
    // Blend shapes: frames over the entries, channels over the frames.
    let entries: Vec<BlendShapeVertex> = (0..r.below(5))
        .map(|_| {
            let index = if r.chance(98) {
                r.below(vc as u64)
            } else {
                vc as u64
            } as u32;
            shape_vertex(index, [0.5; 3], [0.1; 3], [0.2; 3])
        })
        .collect();
    let frames: Vec<MeshBlendShape> = (0..r.below(4))
        .map(|_| {
            let first = r.below(entries.len() as u64 + 1) as u32;
            let left = entries.len() as u32 - first;
            frame(
                first,
                r.below(u64::from(left) + 1) as u32 + u32::from(r.chance(2)),
                r.chance(50),
            )
        })
        .collect();
    let names = ["123456789", FOX, "x"];
    let channels: Vec<MeshBlendShapeChannel> = (0..r.below(3))
        .map(|_| {
            let name = names[r.below(3) as usize];
            let first = r.below(frames.len() as u64 + 1) as i32;
            let left = frames.len() as i32 - first;
            shape_channel(
                name,
                if r.chance(97) {
                    name_hash(name)
                } else {
                    r.next() as u32
                },
                first - i32::from(r.chance(2)),
                r.below(left as u64 + 1) as i32 + i32::from(r.chance(2)),
            )
        })
        .collect();
    let full_weights: Vec<f32> = (0..frames.len() + usize::from(r.chance(2)))
        .map(|k| 10.0 * (k as f32 + 1.0))
        .collect();
    let s = m.shapes.as_mut().unwrap();
    (s.vertices, s.shapes, s.channels, s.full_weights) = (entries, frames, channels, full_weights);
    if r.chance(2) {
        m.vertex_data.as_mut().unwrap().vertex_count = r.next() as u32;
    }
    m
}

#[test]
fn arbitrary_input_never_panics_and_what_the_verdict_passes_decodes_to_a_valid_mesh() {
    let mut r = Rng(meshspec_formats::sws::build::Rng(0x9E37_79B9_7F4A_7C15));
    let (mut decoded, mut converted, mut compressed_ok) = (0, 0, 0);
    let entry = entry();
    for round in 0..4000 {
        let m = arbitrary_mesh(&mut r);
        let mut c = ctx();
        c.skin_weights = [SkinWeights::One, SkinWeights::Four, SkinWeights::All][round % 3];
        let b = bytes_with(&m, &c);
        let v = entry.judge(&b, &c);
        assert!(v.refused.is_none(), "round {round}: {:?}", v.refused);
        // What the verdict passes, export decodes; what it refuses, export refuses with the
        // verdict's first failure.
        let exported = entry.decode(&b, &c);
        assert_eq!(
            exported.is_ok(),
            v.passes(),
            "round {round}: {:?}",
            lines(&v)
        );
        // With relations as warnings, decoding never panics either.
        let mut warn = c.clone();
        warn.relations = Relations::Warn;
        let _ = entry.decode(&b, &warn);
        let Ok(done) = exported else { continue };
        for mesh in &done.scene.meshes {
            mesh.validate()
                .unwrap_or_else(|e| panic!("round {round}: an invalid mesh: {e}"));
        }
        converted += 1;
        let m = meshspec_formats::unity::mesh_data(&b, &c).unwrap();
        decoded += 1;
        if m.compressed {
            compressed_ok += 1;
        }
        if let Some(skin) = &m.skin {
            for limit in [
                SkinWeights::One,
                SkinWeights::Two,
                SkinWeights::Four,
                SkinWeights::All,
            ] {
                let p = skin.padded(limit);
                assert!(p.weights.iter().all(|set| set.len() == m.vertex_count));
                if let Some(l) = limit.limit() {
                    assert!(p.weights.len() <= 1 && l <= 4);
                }
            }
        }
        if let Some(shapes) = &m.shapes {
            let w: Vec<f32> = shapes.channels.iter().map(|_| 50.0).collect();
            let posed = shapes.apply(&m, &w).unwrap();
            assert_eq!(posed.positions.len(), m.positions().map_or(0, |p| p.len()));
        }
    }
    // The generator reaches the end often enough to mean something.
    assert!(decoded > 1000, "{decoded} decoded");
    assert!(compressed_ok > 100, "{compressed_ok} compressed decoded");
    assert!(converted > 800, "{converted} converted");
}

// ---------------------------------------------------------------------------------------------
// The verdicts, as a user reads them (one line each), for review.

#[test]
fn bad_input_verdicts_read_as_one_line_each() {
    let mut out = vec![];
    let mut say = |what: &str, m: &UnityMesh| {
        let v = verdict(m);
        assert!(!v.passes() || v.warnings().next().is_some(), "{what}");
        out.push(format!("{what}:"));
        for l in lines(&v) {
            out.push(format!("  {l}"));
        }
    };
    let base = two_streams();
    let mut m = base.clone();
    m.vertex_data.as_mut().unwrap().data =
        make::bytes(base.vertex_data.as_ref().unwrap().data.data[..59].to_vec());
    say("vertex data one byte short", &m);
    let mut m = base.clone();
    m.vertex_data.as_mut().unwrap().data =
        make::bytes([&base.vertex_data.as_ref().unwrap().data.data[..], &[0]].concat());
    say("vertex data one byte long", &m);
    let mut m = base.clone();
    m.vertex_data.as_mut().unwrap().channels.as_mut().unwrap()[4] = ch(1, 4, 1, 2);
    say("TexCoord0 at offset 4 of its own 4-byte stream", &m);
    let mut m = base.clone();
    indices16(&mut m, &[0, 1, 2, 2, 1, 3]);
    submeshes(&mut m, vec![submesh(0, 6, 0, 0, 0, 3)]);
    say("index 3 of three vertices", &m);
    submeshes(&mut m, vec![submesh(0, 9, 0, 0, 0, 3)]);
    say("nine indices in a buffer of six", &m);
    say(
        "packed positions short of 9 x 7 bits",
        &compressed(9, 7, pack(&[1, 2, 3, 4, 5, 6, 7, 8], 7)),
    );
    let mut m = compressed(6, 8, pack(&[0; 6], 8));
    m.compressed_mesh.weights = make::packed_ints(2, 5, pack(&[31, 31], 5));
    m.compressed_mesh.bone_indices = make::packed_ints(1, 2, pack(&[0], 2));
    say("packed weights without enough bone slots", &m);
    say(
        "weights without bone slots",
        &skinned(Some((0, 1, f32_bytes(&[1.0, 1.0]))), None, 1),
    );
    say(
        "a rigid bind to a second bone of one",
        &skinned(None, Some((6, 1, vec![0, 1])), 1),
    );
    let mut m = base.clone();
    set_words(&mut m, &[3, 4, 4, 5 | (65535 << 16)]);
    say("variable bone counts whose first offset is not nv + 1", &m);
    let mut m = base.clone();
    m.shapes.as_mut().unwrap().channels = vec![shape_channel("smile", 0, 0, 0)];
    say("a blend shape whose hash is not its name's", &m);
    let mut m = base.clone();
    indices16(&mut m, &[0, 1, 2, 2]);
    submeshes(&mut m, vec![submesh(0, 4, 7, 0, 0, 3)]);
    say("a submesh of topology 7", &m);
    insta::assert_snapshot!(out.join("\n"));
}

/// Found by the `unity_mesh` fuzz target (2026-12-01): a compressed mesh whose `m_Weights` has no
/// items but a bit size of 255, beside bone indices, made the verdict compute a mask by shifting
/// a u64 by 255 bits (a panic where overflow is checked, a wrong mask elsewhere). The input is
/// kept as the target saw it (`tests/regressions/fuzz/unity_mesh/packed-empty-64-bit`): one byte
/// choosing the editor version among the spec's cut-offs (2018.2.1 here), one choosing
/// `unity_editor` (0: a player's object; inserted when the target gained that parameter), then
/// the object.
#[test]
fn an_empty_packed_vector_of_any_bit_size_is_never_unpacked() {
    let data = std::fs::read(
        meshspec_tests::root().join("tests/regressions/fuzz/unity_mesh/packed-empty-64-bit"),
    )
    .unwrap();
    let ctx = meshspec_formats::Context::new().with_param("unity_version", 20180201);
    // The fuzz target's property: the verdict, and a round trip of what it accepts.
    meshspec_formats::fuzzing::fast::<UnityMesh>(&data[2..], &ctx);
    let v = entry().judge(&data[2..], &ctx);
    assert!(v.refused.is_none(), "{:?}", v.refused);
    for bits in [0u8, 33, 64, 200, 255] {
        let p = Packed {
            num_items: 0,
            bit_size: bits,
            data: &[0xFF; 16],
            start: 1.0,
            range: 2.0,
        };
        assert!(unpack_ints(&p).is_empty(), "{bits} bits");
        assert!(unpack_floats(&p).is_empty(), "{bits} bits");
    }
}
