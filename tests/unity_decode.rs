//! What Unity mesh data means (`meshspec_formats::unity::decode`): synthesized meshes whose
//! bytes are written here with explicit `to_le_bytes` and whose expected values are worked out
//! by hand or from the documents' formulas, bad input, and the 35 real Mesh objects of the
//! shared corpus against UnityPy's decoded output and Unity's own dumps.

use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::rt::ErrorKind;
use meshspec_formats::scene::{Mode, Scene};
use meshspec_formats::unity::decode::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Helpers that write bytes the way the documents describe them.

fn ch(stream: u8, offset: u8, format: u8, dimension: u8) -> RawChannel {
    RawChannel {
        stream,
        offset,
        format,
        dimension,
    }
}

/// A 14-entry channel table with the given slots filled.
fn table(entries: &[(usize, RawChannel)]) -> Vec<RawChannel> {
    let mut t = vec![RawChannel::default(); 14];
    for &(slot, c) in entries {
        t[slot] = c;
    }
    t
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u16_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Packs items of `bits` bits, the first item in the lowest bits of the first byte (a bit
/// writer of its own, written from the document's description).
fn pack(items: &[u32], bits: u32) -> Vec<u8> {
    let total = items.len() * bits as usize;
    let mut out = vec![0u8; total.div_ceil(8)];
    let mut pos = 0usize;
    for &item in items {
        for b in 0..bits {
            if (item >> b) & 1 == 1 {
                out[pos / 8] |= 1 << (pos % 8);
            }
            pos += 1;
        }
    }
    out
}

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

/// Positions `x = i` along a line: a Float3 Vertex channel for `n` vertices.
fn line_positions(n: usize) -> Vec<u8> {
    let mut v = vec![];
    for i in 0..n {
        v.extend_from_slice(&f32_bytes(&[i as f32, 0.0, 0.0]));
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Vertex formats and checked layouts.

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
    let raw = RawMesh {
        vertex_count: 2,
        channels: &channels,
        vertex_data: &data,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
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
fn two_streams() -> (Vec<RawChannel>, Vec<u8>) {
    let channels = table(&[(0, ch(0, 0, 0, 3)), (4, ch(1, 0, 1, 2))]);
    let mut data = line_positions(3);
    data.resize(48, 0);
    data.extend(u16_bytes(&[0x3800, 0x3C00, 0, 0, 0x3400, 0x3A00]));
    (channels, data)
}

#[test]
fn streams_start_on_16_byte_boundaries_and_end_with_the_data() {
    let (channels, data) = two_streams();
    assert_eq!(data.len(), 60);
    let raw = RawMesh {
        vertex_count: 3,
        channels: &channels,
        vertex_data: &data,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
    assert_eq!(m.positions().unwrap()[2], [2.0, 0.0, 0.0]);
    // 0x3400 = 0.25, 0x3A00 = 0.75.
    assert_eq!(m.uv(0).unwrap(), [[0.5, 1.0], [0.0, 0.0], [0.25, 0.75]]);
}

#[test]
fn layouts_that_overrun_underrun_or_disagree_are_each_a_clear_error() {
    let (channels, data) = two_streams();
    let base = RawMesh {
        vertex_count: 3,
        channels: &channels,
        vertex_data_offset: 0x100,
        ..Default::default()
    };
    // Overrun: two bytes short.
    let e = decode(&RawMesh {
        vertex_data: &data[..58],
        ..base
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(
        e.to_string(),
        "0x13A unity_mesh.m_VertexData.m_DataSize: expected stream 1 (TexCoord0; stride 4, 3 vertices) at bytes 48..60 of the vertex data, found 58 bytes of vertex data (overrun by 2)"
    );
    // Underrun: four bytes left over after the last stream.
    let mut long = data.clone();
    long.extend([0; 4]);
    let e = decode(&RawMesh {
        vertex_data: &long,
        ..base
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Trailing);
    assert_eq!(
        e.to_string(),
        "0x13C unity_mesh.m_VertexData.m_DataSize: expected the vertex data to end with stream 1 (TexCoord0) at byte 60, found 64 bytes (4 left over)"
    );
    // A channel offset that disagrees with the layout: Normal after Vertex is at 12, not 16.
    let mut bad = table(&[(0, ch(0, 0, 0, 3)), (1, ch(0, 16, 0, 3))]);
    let six = line_positions(2).repeat(2);
    let e = decode(&RawMesh {
        vertex_count: 2,
        channels: &bad,
        vertex_data: &six,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Offset);
    assert_eq!(
        e.to_string(),
        "0x10 unity_mesh.m_VertexData.m_Channels[1].offset: expected Normal at offset 12 of stream 0 (after the channels before it: Vertex), found 16"
    );
    // An unknown format, a fifth stream, too many components, an older 8-channel table.
    bad[1] = ch(0, 12, 12, 3);
    let e = decode(&RawMesh {
        vertex_count: 2,
        channels: &bad,
        vertex_data: &six,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_VertexData.m_Channels[1].format"
    );
    bad[1] = ch(4, 0, 0, 3);
    let e = decode(&RawMesh {
        vertex_count: 2,
        channels: &bad,
        vertex_data: &six,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_VertexData.m_Channels[1].stream"
    );
    bad[1] = ch(0, 12, 0, 5);
    let e = decode(&RawMesh {
        vertex_count: 2,
        channels: &bad,
        vertex_data: &six,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_VertexData.m_Channels[1].dimension"
    );
    let e = decode(&RawMesh {
        vertex_count: 2,
        channels: &bad[..8],
        vertex_data: &six,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    // A vertex count no data could hold is an error, not an allocation.
    let e = decode(&RawMesh {
        vertex_count: u32::MAX,
        channels: &channels,
        vertex_data: &data,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
}

// ---------------------------------------------------------------------------------------------
// PackedBitVector and compressed meshes.

fn floats(n: u32, bits: u8, start: f32, range: f32, data: &[u8]) -> RawPackedFloats<'_> {
    RawPackedFloats {
        num_items: n,
        range,
        start,
        data,
        bit_size: bits,
        data_offset: 0,
    }
}

fn ints(n: u32, bits: u8, data: &[u8]) -> RawPackedInts<'_> {
    RawPackedInts {
        num_items: n,
        data,
        bit_size: bits,
        data_offset: 0,
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
    let got = unpack_floats(&floats(1024, 10, -100.0, 200.0, &data), "m_Vertices").unwrap();
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
    for bits in [1u32, 3, 7, 8, 13, 17, 31, 32] {
        let max = if bits == 32 {
            u32::MAX
        } else {
            (1 << bits) - 1
        };
        let items = [0, max, max / 3, 1, max - 1];
        let data = pack(&items, bits);
        assert_eq!(
            unpack_ints(&ints(5, bits as u8, &data), "m_Triangles").unwrap(),
            items,
            "{bits} bits"
        );
    }
}

#[test]
fn packed_vectors_too_short_for_n_times_bits_are_refused() {
    let data = pack(&[1, 2, 3, 4, 5], 7); // 35 bits: 5 bytes
    assert_eq!(data.len(), 5);
    let e = unpack_ints(
        &RawPackedInts {
            data_offset: 0x40,
            ..ints(6, 7, &data)
        },
        "m_Triangles",
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(
        e.to_string(),
        "0x45 unity_mesh.m_CompressedMesh.m_Triangles.m_Data: expected 6 bytes for 6 items of 7 bits, found 5 bytes"
    );
    // Through decode: positions whose data is short.
    let short = pack(&[1, 2, 3, 4, 5], 8);
    let e = decode(&RawMesh {
        compressed: RawCompressedMesh {
            vertices: floats(6, 8, 0.0, 1.0, &short),
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_CompressedMesh.m_Vertices.m_Data"
    );
}

/// The compressed mesh of [`compressed_meshes_decode_every_channel`], as items.
struct Packed {
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

#[test]
fn compressed_meshes_decode_every_channel() {
    let p = Packed {
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
    let d_pos = pack(&p.positions, 16);
    let d_uv = pack(&p.uv, 10);
    let d_n = pack(&p.normals, 8);
    let d_ns = pack(&p.normal_signs, 1);
    let d_t = pack(&p.tangents, 8);
    let d_ts = pack(&p.tangent_signs, 1);
    let d_c = pack(&p.colors, 8);
    let d_w = pack(&p.weights, 5);
    let d_b = pack(&p.bones, 3);
    let d_tri = pack(&p.triangles, 2);
    let poses = [identity(); 5];
    let subs = [
        RawSubMesh {
            first_byte: 0,
            index_count: 3,
            vertex_count: 3,
            ..Default::default()
        },
        RawSubMesh {
            first_byte: 6,
            index_count: 3,
            vertex_count: 3,
            ..Default::default()
        },
    ];
    let raw = RawMesh {
        vertex_count: 0,
        submeshes: &subs,
        bind_poses: &poses,
        compressed: RawCompressedMesh {
            vertices: floats(9, 16, -2.0, 4.0, &d_pos),
            uv: floats(15, 10, 0.0, 1.0, &d_uv),
            normals: floats(6, 8, -1.0, 2.0, &d_n),
            tangents: floats(6, 8, -1.0, 2.0, &d_t),
            weights: ints(6, 5, &d_w),
            normal_signs: ints(3, 1, &d_ns),
            tangent_signs: ints(6, 1, &d_ts),
            float_colors: floats(12, 8, 0.0, 1.0, &d_c),
            bone_indices: ints(7, 3, &d_b),
            triangles: ints(6, 2, &d_tri),
            uv_info: 0x605,
        },
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
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
    let mut old = raw;
    old.compressed.uv = floats(12, 4, 0.0, 15.0, &two_sets);
    old.compressed.uv_info = 0;
    let m = decode(&old).unwrap();
    assert_eq!(m.uv(0).unwrap(), [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]);
    assert_eq!(m.uv(1).unwrap(), [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]);
    old.compressed.uv = floats(9, 4, 0.0, 15.0, &two_sets);
    assert_eq!(decode(&old).unwrap_err().kind, ErrorKind::Inconsistent);

    // Weights that leave the last vertex incomplete, and bone slots left over.
    let mut bad = raw;
    let short_w = pack(&[31, 10, 11, 5, 16], 5);
    bad.compressed.weights = ints(5, 5, &short_w);
    assert_eq!(
        decode(&bad).unwrap_err().path_string(),
        "unity_mesh.m_CompressedMesh.m_Weights.m_NumItems"
    );
    let mut bad = raw;
    let more_b = pack(&[3, 1, 2, 0, 4, 2, 1, 1], 3);
    bad.compressed.bone_indices = ints(8, 3, &more_b);
    assert_eq!(
        decode(&bad).unwrap_err().path_string(),
        "unity_mesh.m_CompressedMesh.m_BoneIndices.m_NumItems"
    );
}

fn identity() -> [f32; 16] {
    [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

// ---------------------------------------------------------------------------------------------
// Indices and submeshes.

#[test]
fn thirty_two_bit_indices_base_vertex_and_every_topology() {
    let positions = line_positions(10);
    let channels = table(&[(0, ch(0, 0, 0, 3))]);
    let stored: Vec<u32> = [
        vec![0, 1, 2, 2, 1, 3], // triangles, base vertex 4
        vec![0, 1, 2, 3],       // a quad
        vec![4, 5, 6, 7],       // two lines
        vec![1, 2, 3],          // a line strip
        vec![9],                // a point
        vec![0, 1, 2, 3, 3, 4], // the old strip, with a degenerate restart
    ]
    .concat();
    let ib = u32_bytes(&stored);
    let sub = |first_byte: u32, index_count: u32, topology: u32, base_vertex: u32| RawSubMesh {
        first_byte,
        index_count,
        topology,
        base_vertex,
        first_vertex: 0,
        vertex_count: 10,
    };
    let subs = [
        sub(0, 6, 0, 4),
        sub(24, 4, 2, 0),
        sub(40, 4, 3, 0),
        sub(56, 3, 4, 0),
        sub(68, 1, 5, 0),
        sub(72, 6, 1, 0),
        sub(0, 0, 0, 0),
    ];
    let raw = RawMesh {
        name: "topologies",
        vertex_count: 10,
        channels: &channels,
        vertex_data: &positions,
        index_format: 1,
        index_buffer: &ib,
        submeshes: &subs,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
    let s = &m.submeshes;
    assert_eq!(s[0].indices, [4, 5, 6, 6, 5, 7], "baseVertex 4 added");
    assert_eq!(s[0].triangles(), [[4, 5, 6], [6, 5, 7]]);
    assert_eq!(s[1].topology, Topology::Quads);
    assert_eq!(s[1].triangles(), [[0, 1, 2], [0, 2, 3]]);
    assert_eq!(s[2].indices, [4, 5, 6, 7]);
    assert!(s[2].triangles().is_empty());
    assert_eq!(s[3].topology, Topology::LineStrip);
    assert_eq!(s[4].indices, [9]);
    assert_eq!(s[5].topology, Topology::Strip);
    // (0,1,2); (1,2,3) turned to (2,1,3); (2,3,3) and (3,3,4) degenerate.
    assert_eq!(s[5].triangles(), [[0, 1, 2], [2, 1, 3]]);
    assert!(
        s[6].indices.is_empty(),
        "a submesh without indices draws nothing"
    );

    let out = to_scene(&m, &SceneOptions::default()).unwrap();
    let prims = &out.mesh.primitives;
    assert_eq!(prims.len(), 7);
    assert_eq!(prims[0].mode, Mode::Triangles);
    assert_eq!(prims[0].indices, [4, 6, 5, 6, 7, 5], "winding reversed");
    assert_eq!(prims[1].indices, [0, 2, 1, 0, 3, 2]);
    assert_eq!(
        (prims[2].mode, &prims[2].indices),
        (Mode::Lines, &vec![4, 5, 6, 7])
    );
    assert_eq!(prims[3].mode, Mode::LineStrip);
    assert_eq!(prims[4].mode, Mode::Points);
    assert_eq!(prims[5].indices, [0, 2, 1, 2, 3, 1]);
    assert_eq!(prims[6].material, Some(6));
    assert_eq!(out.mesh.materials.len(), 7);
    assert_eq!(out.mesh.positions[3], [-3.0, 0.0, 0.0], "x mirrored");
    let scene = Scene {
        meshes: vec![out.mesh],
        notes: vec![],
    };
    let exported = glb(&scene, NonFinite::Refuse).unwrap();
    assert!(exported.notes.iter().any(|n| n.contains("without indices")));
    validate_glb("topologies", &exported.bytes);
}

#[test]
fn indices_past_the_vertices_or_the_buffer_are_clear_errors() {
    let positions = line_positions(10);
    let channels = table(&[(0, ch(0, 0, 0, 3))]);
    let ib = u16_bytes(&[0, 1, 2]);
    let one = |s: RawSubMesh| {
        let subs = [s];
        decode(&RawMesh {
            vertex_count: 10,
            channels: &channels,
            vertex_data: &positions,
            index_format: 0,
            index_buffer: &ib,
            index_buffer_offset: 100,
            submeshes: &subs,
            ..Default::default()
        })
    };
    // Index 2 + baseVertex 8 = 10: past the ten vertices; it is the third index, at byte 4.
    let e = one(RawSubMesh {
        index_count: 3,
        base_vertex: 8,
        vertex_count: 10,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Inconsistent);
    assert_eq!(e.offset, Some(104));
    assert_eq!(
        e.to_string(),
        "0x68 unity_mesh.m_IndexBuffer: expected an index naming one of the 10 vertices (submesh 0, index 2), found 10 (2 + baseVertex 8)"
    );
    // Four points from byte 2: the six-byte buffer holds two.
    let e = one(RawSubMesh {
        first_byte: 2,
        index_count: 4,
        topology: 5,
        vertex_count: 10,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(
        e.to_string(),
        "0x66 unity_mesh.m_SubMeshes[0].indexCount: expected 4 indices of 2 bytes from byte 2 within the index buffer, found 6 bytes"
    );
    let e = one(RawSubMesh {
        first_byte: 1,
        index_count: 1,
        topology: 5,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_SubMeshes[0].firstByte");
    let e = one(RawSubMesh {
        index_count: 3,
        topology: 6,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let e = one(RawSubMesh {
        index_count: 2,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_SubMeshes[0].indexCount");
    let e = one(RawSubMesh {
        first_vertex: 8,
        vertex_count: 3,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_SubMeshes[0].vertexCount");
    let subs = [RawSubMesh::default()];
    let e = decode(&RawMesh {
        index_format: 2,
        submeshes: &subs,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_IndexFormat");
}

// ---------------------------------------------------------------------------------------------
// Skin.

/// Two vertices; stream 1 holds BlendWeight and BlendIndices of the given formats.
fn skinned(
    weights: Option<(u8, u8, Vec<u8>)>,
    indices: Option<(u8, u8, Vec<u8>)>,
) -> (Vec<RawChannel>, Vec<u8>) {
    let mut entries = vec![(0, ch(0, 0, 0, 3))];
    let mut stride = 0u8;
    let mut parts = vec![];
    if let Some((format, dim, bytes)) = &weights {
        entries.push((12, ch(1, 0, *format, *dim)));
        let size = [4u8, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4][*format as usize] * dim;
        stride += size;
        parts.push((size as usize, bytes.clone()));
    }
    if let Some((format, dim, bytes)) = &indices {
        entries.push((13, ch(1, stride, *format, *dim)));
        let size = [4u8, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4][*format as usize] * dim;
        parts.push((size as usize, bytes.clone()));
    }
    let mut data = line_positions(2);
    data.resize(32, 0);
    for v in 0..2 {
        for (size, bytes) in &parts {
            data.extend_from_slice(&bytes[v * size..(v + 1) * size]);
        }
    }
    (table(&entries), data)
}

fn mesh_with(
    channels: &[RawChannel],
    data: &[u8],
    poses: &[[f32; 16]],
) -> meshspec_formats::Result<UnityMeshData> {
    decode(&RawMesh {
        name: "skinned",
        vertex_count: 2,
        channels,
        vertex_data: data,
        bind_poses: poses,
        ..Default::default()
    })
}

#[test]
fn blend_channels_in_every_weight_and_index_format() {
    let poses = [identity(); 4];
    // UNorm8 weights with UInt8 indices; vertex 0's third slot names bone 9, past the four
    // bind poses, at weight zero: allowed.
    let (c, d) = skinned(
        Some((2, 4, vec![128, 127, 0, 0, 255, 0, 0, 0])),
        Some((6, 4, vec![1, 0, 9, 0, 3, 0, 0, 0])),
    );
    let m = mesh_with(&c, &d, &poses).unwrap();
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
    let out = to_scene(&m, &SceneOptions::default()).unwrap();
    let gskin = out.mesh.skin.as_ref().unwrap();
    assert_eq!(gskin.joints[0], [1, 0, 0, 0]);
    assert_close(gskin.weights[0][0], 128.0 / 255.0, 1e-6, "glTF weight");
    assert_eq!(gskin.inverse_bind_matrices.len(), 4);

    // Float16 weights (0.5, 0.25, 0.25, 0) with UInt16 indices; Float weights with UInt32.
    let (c, d) = skinned(
        Some((
            1,
            4,
            u16_bytes(&[0x3800, 0x3400, 0x3400, 0, 0x3C00, 0, 0, 0]),
        )),
        Some((8, 4, u16_bytes(&[0, 1, 2, 3, 3, 2, 1, 0]))),
    );
    let b = mesh_with(&c, &d, &poses)
        .unwrap()
        .skin
        .unwrap()
        .blend
        .unwrap();
    assert_eq!(b.weights, [0.5, 0.25, 0.25, 0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(b.bones, [0, 1, 2, 3, 3, 2, 1, 0]);
    let (c, d) = skinned(
        Some((0, 2, f32_bytes(&[0.75, 0.25, 1.0, 0.0]))),
        Some((10, 2, u32_bytes(&[2, 3, 1, 0]))),
    );
    let b = mesh_with(&c, &d, &poses)
        .unwrap()
        .skin
        .unwrap()
        .blend
        .unwrap();
    assert_eq!(b.influences(0), (&[0.75f32, 0.25][..], &[2u32, 3][..]));
    // UNorm16 weights.
    let (c, d) = skinned(
        Some((4, 1, u16_bytes(&[65535, 32768]))),
        Some((8, 1, u16_bytes(&[1, 2]))),
    );
    let b = mesh_with(&c, &d, &poses)
        .unwrap()
        .skin
        .unwrap()
        .blend
        .unwrap();
    assert_close(b.weights[1], 32768.0 / 65535.0, 1e-7, "UNorm16 weight");

    // Indices without weights: a rigid bind, one influence of weight 1.
    let (c, d) = skinned(None, Some((10, 1, u32_bytes(&[1, 3]))));
    let b = mesh_with(&c, &d, &poses)
        .unwrap()
        .skin
        .unwrap()
        .blend
        .unwrap();
    assert_eq!(
        (
            b.starts.as_slice(),
            b.weights.as_slice(),
            b.bones.as_slice()
        ),
        (&[0u32, 1, 2][..], &[1.0f32, 1.0][..], &[1u32, 3][..])
    );

    // Weights without indices are not a skin.
    let (c, d) = skinned(Some((0, 1, f32_bytes(&[1.0, 1.0]))), None);
    let e = mesh_with(&c, &d, &poses).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Inconsistent);
    assert_eq!(e.path_string(), "unity_mesh.m_VertexData.m_Channels[12]");
    // Weights as SNorm8, indices as SInt16: not skin formats.
    let (c, d) = skinned(
        Some((3, 1, vec![127, 127])),
        Some((8, 1, u16_bytes(&[0, 0]))),
    );
    assert_eq!(
        mesh_with(&c, &d, &poses).unwrap_err().kind,
        ErrorKind::Unsupported
    );
    let (c, d) = skinned(
        Some((0, 1, f32_bytes(&[1.0, 1.0]))),
        Some((9, 1, u16_bytes(&[0, 0]))),
    );
    assert_eq!(
        mesh_with(&c, &d, &poses).unwrap_err().kind,
        ErrorKind::Unsupported
    );
    // A bone slot past the bind poses with a weight: vertex 1's first slot, at byte
    // 32 (stream 1) + 1 * 8 (stride) + 4 (BlendIndices' offset) = 44.
    let (c, d) = skinned(
        Some((2, 4, vec![255, 0, 0, 0, 255, 0, 0, 0])),
        Some((6, 4, vec![0, 0, 0, 0, 4, 0, 0, 0])),
    );
    let e = mesh_with(&c, &d, &poses).unwrap_err();
    assert_eq!(e.offset, Some(44));
    assert_eq!(e.path_string(), "unity_mesh.m_VertexData.m_Channels[13]");
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

#[test]
fn variable_bone_counts_hold_every_influence_and_the_channels_the_first_four() {
    let values: Vec<u32> = TOAD
        .iter()
        .map(|&(_, w)| (w * 65535.0).round() as u32)
        .collect();
    // Two vertices: offsets 3, 11, 12 (nv + 1 = 3 words of offsets, then 8 + 1 influences).
    let mut words = vec![3, 11, 12];
    for (&(bone, _), &v) in TOAD.iter().zip(&values) {
        words.push(bone | (v << 16));
    }
    words.push(4 | (65535 << 16));
    // The blend channels as Unity fills them: the first four, renormalised (Float), and
    // their bones (UInt16).
    let first4: f64 = values[..4].iter().map(|&v| f64::from(v)).sum();
    let channel_w: Vec<f32> = values[..4]
        .iter()
        .map(|&v| (f64::from(v) / first4) as f32)
        .chain([1.0, 0.0, 0.0, 0.0])
        .collect();
    let (c, d) = skinned(
        Some((0, 4, f32_bytes(&channel_w))),
        Some((8, 4, u16_bytes(&[7, 2, 11, 0, 4, 0, 0, 0]))),
    );
    let poses = [identity(); 12];
    let raw = RawMesh {
        vertex_count: 2,
        channels: &c,
        vertex_data: &d,
        bind_poses: &poses,
        variable_bone_count_weights: &words,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
    let skin = m.skin.as_ref().unwrap();
    let var = skin.variable.as_ref().unwrap();
    assert_eq!(var.starts, [0, 8, 9]);
    let (w, b) = var.influences(0);
    assert_eq!(b, [7, 2, 11, 0, 5, 3, 9, 1]);
    for (g, &(_, doc)) in w.iter().zip(&TOAD) {
        assert_close(*g, doc, 0.5 / 65535.0 + 1e-7, "toad influence");
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
    // Which form is drawn: the variable data only at unlimited weights.
    assert_eq!(skin.drawn(SkinWeights::Unlimited), Some(var));
    assert_eq!(skin.drawn(SkinWeights::Four), Some(blend));
    let all = skin.padded(SkinWeights::Unlimited);
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
    // glTF carries four per vertex: at unlimited weights the eight are cut, with a note.
    let opts = SceneOptions {
        skin_weights: SkinWeights::Unlimited,
        ..Default::default()
    };
    let out = to_scene(&m, &opts).unwrap();
    let gskin = out.mesh.skin.as_ref().unwrap();
    assert_eq!(gskin.joints[0], [7, 2, 11, 0]);
    for (g, doc) in gskin.weights[0]
        .iter()
        .zip([0.5036, 0.2776, 0.1789, 0.0397])
    {
        assert_close(*g, doc, 1e-4, "glTF toad weight");
    }
    assert!(
        out.notes
            .iter()
            .any(|n| n.contains("1 vertices have more than four influences")),
        "{:?}",
        out.notes
    );
    assert_eq!(SkinWeights::from_value(255), Some(SkinWeights::Unlimited));
    assert_eq!(SkinWeights::from_value(3), None);

    // Bad offsets and bones.
    let mut bad = words.clone();
    bad[0] = 2;
    let e = decode(&RawMesh {
        variable_bone_count_weights: &bad,
        ..raw
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_VariableBoneCountWeights.m_Data[0]"
    );
    let mut bad = words.clone();
    bad[2] = 11;
    let e = decode(&RawMesh {
        variable_bone_count_weights: &bad,
        ..raw
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_VariableBoneCountWeights.m_Data[2]"
    );
    let e = decode(&RawMesh {
        variable_bone_count_weights: &words[..2],
        ..raw
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    let e = decode(&RawMesh {
        bind_poses: &poses[..10],
        ..raw
    })
    .unwrap_err();
    assert!(e.to_string().contains("below the 10 bind poses"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Blend shapes.

/// Three vertices with positions, normals and tangents; shapes `123456789` (one frame, with
/// normal and tangent deltas) and `The quick brown fox jumps over the lazy dog` (two frames).
fn shaped_mesh() -> (Vec<RawChannel>, Vec<u8>) {
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
    (channels, data)
}

// The CRC-32 check values: "123456789" is 0xCBF43926, the quick brown fox 0x414FA339.
const FOX: &str = "The quick brown fox jumps over the lazy dog";

fn shape_vertex(
    index: u32,
    vertex: [f32; 3],
    normal: [f32; 3],
    tangent: [f32; 3],
) -> RawShapeVertex {
    RawShapeVertex {
        vertex,
        normal,
        tangent,
        index,
    }
}

#[test]
fn blend_shapes_have_checked_names_frames_and_sparse_deltas() {
    let (channels, data) = shaped_mesh();
    let verts = [
        shape_vertex(1, [1.0, 2.0, 3.0], [0.1, 0.0, 0.0], [0.0, 0.5, 0.0]),
        shape_vertex(2, [0.0, 0.0, 2.0], [0.0; 3], [0.0; 3]),
        shape_vertex(2, [0.0, 0.0, 6.0], [0.0; 3], [0.0; 3]),
    ];
    let frames = [
        RawShapeFrame {
            first_vertex: 0,
            vertex_count: 1,
            has_normals: true,
            has_tangents: true,
        },
        RawShapeFrame {
            first_vertex: 1,
            vertex_count: 1,
            ..Default::default()
        },
        RawShapeFrame {
            first_vertex: 2,
            vertex_count: 1,
            ..Default::default()
        },
    ];
    let chans = [
        RawShapeChannel {
            name: "123456789",
            name_hash: 0xCBF4_3926,
            frame_index: 0,
            frame_count: 1,
        },
        RawShapeChannel {
            name: FOX,
            name_hash: 0x414F_A339,
            frame_index: 1,
            frame_count: 2,
        },
    ];
    let weights = [100.0, 50.0, 100.0];
    let raw = RawMesh {
        name: "shaped",
        vertex_count: 3,
        channels: &channels,
        vertex_data: &data,
        shapes: RawShapes {
            vertices: &verts,
            shapes: &frames,
            channels: &chans,
            full_weights: &weights,
        },
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
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
    let out = to_scene(&m, &SceneOptions::default()).unwrap();
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

    // A wrong name hash, frames past the end, a vertex past the mesh, a missing weight,
    // frames out of order.
    let mut bad = chans;
    bad[0].name_hash = 0xCBF4_3927;
    let e = decode(&RawMesh {
        shapes: RawShapes {
            channels: &bad,
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unity_mesh.m_Shapes.channels[0].nameHash: expected 0xCBF43926 (the CRC-32 of `123456789`), found 0xCBF43927"
    );
    let mut bad = chans;
    bad[1].frame_count = 3;
    let e = decode(&RawMesh {
        shapes: RawShapes {
            channels: &bad,
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(
        e.path_string(),
        "unity_mesh.m_Shapes.channels[1].frameCount"
    );
    let mut bad = verts;
    bad[1].index = 3;
    let e = decode(&RawMesh {
        shapes: RawShapes {
            vertices: &bad,
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_Shapes.vertices[1].index");
    let e = decode(&RawMesh {
        shapes: RawShapes {
            full_weights: &weights[..2],
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_Shapes.fullWeights");
    let e = decode(&RawMesh {
        shapes: RawShapes {
            full_weights: &[100.0, 100.0, 50.0],
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_Shapes.fullWeights[2]");
    let mut bad = frames;
    bad[2].vertex_count = 2;
    let e = decode(&RawMesh {
        shapes: RawShapes {
            shapes: &bad,
            ..raw.shapes
        },
        ..raw
    })
    .unwrap_err();
    assert_eq!(e.path_string(), "unity_mesh.m_Shapes.shapes[2].vertexCount");
}

// ---------------------------------------------------------------------------------------------
// Non-finite values, the frame, and export.

#[test]
fn non_finite_values_are_reported_where_and_how_many() {
    let channels = table(&[(0, ch(0, 0, 0, 3))]);
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
    let ib = u16_bytes(&[0, 1, 2, 0, 2, 3]);
    let subs = [RawSubMesh {
        index_count: 6,
        vertex_count: 4,
        ..Default::default()
    }];
    let raw = RawMesh {
        name: "holes",
        vertex_count: 4,
        channels: &channels,
        vertex_data: &data,
        index_buffer: &ib,
        submeshes: &subs,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
    assert_eq!(
        m.non_finite,
        [NonFiniteReport {
            field: "unity_mesh.m_VertexData.m_Channels[0]".into(),
            what: "Vertex".into(),
            count: 2,
            first: 1,
        }]
    );
    let out = to_scene(&m, &SceneOptions::default()).unwrap();
    assert!(out
        .notes
        .iter()
        .any(|n| n.contains("2 elements with non-finite values, the first at 1")));
    let scene = Scene {
        meshes: vec![out.mesh],
        notes: out.notes,
    };
    let e = glb(&scene, NonFinite::Refuse).unwrap_err();
    assert!(
        e.to_string().contains("2 positions (first at vertex 1)"),
        "{e}"
    );
    assert!(glb(&scene, NonFinite::Zero).is_ok());
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
    let ib = u16_bytes(&[0, 1, 2]);
    let subs = [RawSubMesh {
        index_count: 3,
        vertex_count: 3,
        ..Default::default()
    }];
    let poses = [identity(), identity()];
    let raw = RawMesh {
        name: "tri",
        vertex_count: 3,
        channels: &channels,
        vertex_data: &data,
        index_buffer: &ib,
        submeshes: &subs,
        bind_poses: &poses,
        ..Default::default()
    };
    let m = decode(&raw).unwrap();
    let out = to_scene(
        &m,
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
    validate_glb("tri", &glb(&scene, NonFinite::Refuse).unwrap().bytes);
}

// ---------------------------------------------------------------------------------------------
// glTF-Validator (the export tests require it too).

/// Writes `bytes` as `name.glb` and runs Khronos' glTF-Validator over it: no error is accepted
/// (skinned exports included: the exporter hangs every joint from one skeleton root).
fn validate_glb(name: &str, bytes: &[u8]) {
    let dir = std::env::temp_dir().join(format!("meshspec-unity-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.glb"));
    std::fs::write(&path, bytes).unwrap();
    meshspec_tests::validate_gltf(std::slice::from_ref(&path));
    let _ = std::fs::remove_file(&path);
}

// ---------------------------------------------------------------------------------------------
// The real files.

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Where the test finds the pieces of a serialized Mesh (2019.4 to 2023.1, no type tree):
/// the channel table by its bytes (vertex count, 14, the channels UnityPy lists), the
/// vertex data after it, the index buffer just before it (m_IndexFormat, count, bytes, padding
/// to 4), and the bind poses by walking m_Name, m_SubMeshes (48 bytes each) and the four
/// empty arrays of m_Shapes.
struct Located {
    channels: Vec<RawChannel>,
    vertex_data: std::ops::Range<usize>,
    index_buffer: std::ops::Range<usize>,
    bind_poses: Vec<[f32; 16]>,
}

fn locate(raw: &[u8], j: &Value) -> Located {
    let vc = j["vertex_count"].as_u64().unwrap() as u32;
    let channels: Vec<RawChannel> = j["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            ch(
                c["stream"].as_u64().unwrap() as u8,
                c["offset"].as_u64().unwrap() as u8,
                c["format"].as_u64().unwrap() as u8,
                c["dimension"].as_u64().unwrap() as u8,
            )
        })
        .collect();
    let mut pattern = vc.to_le_bytes().to_vec();
    pattern.extend(14u32.to_le_bytes());
    for c in &channels {
        pattern.extend([c.stream, c.offset, c.format, c.dimension]);
    }
    let hits: Vec<usize> = raw
        .windows(pattern.len())
        .enumerate()
        .filter(|(_, w)| *w == pattern.as_slice())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "the channel table is found once");
    let at = hits[0];
    let size_at = at + pattern.len();
    let size = u32_at(raw, size_at) as usize;
    let vertex_data = size_at + 4..size_at + 4 + size;
    let ib_len = j["index_buffer_bytes"].as_u64().unwrap() as usize;
    let ib_start = at - ib_len.div_ceil(4) * 4;
    assert_eq!(
        u32_at(raw, ib_start - 4) as usize,
        ib_len,
        "index buffer count"
    );
    assert_eq!(
        u64::from(u32_at(raw, ib_start - 8)),
        j["index_format"].as_u64().unwrap(),
        "m_IndexFormat"
    );
    // m_Name, m_SubMeshes, m_Shapes, m_BindPose.
    let name_len = u32_at(raw, 0) as usize;
    let mut p = 4 + name_len.div_ceil(4) * 4;
    let subs = u32_at(raw, p) as usize;
    assert_eq!(subs, j["submeshes"].as_array().unwrap().len());
    p += 4 + 48 * subs;
    for _ in 0..4 {
        assert_eq!(u32_at(raw, p), 0, "no blend shapes in the corpus");
        p += 4;
    }
    let n = u32_at(raw, p) as usize;
    assert_eq!(n as u64, j["bind_pose_count"].as_u64().unwrap());
    p += 4;
    let bind_poses = (0..n)
        .map(|b| {
            let mut m = [0f32; 16];
            for (k, e) in m.iter_mut().enumerate() {
                *e = f32::from_le_bytes(raw[p + 64 * b + 4 * k..][..4].try_into().unwrap());
            }
            m
        })
        .collect();
    let hashes = u32_at(raw, p + 64 * n) as usize;
    assert!(
        hashes == n || hashes == 0,
        "m_BoneNameHashes follows the bind poses"
    );
    Located {
        channels,
        vertex_data,
        index_buffer: ib_start..ib_start + ib_len,
        bind_poses,
    }
}

fn unitypy_json_files() -> Vec<PathBuf> {
    let meshes = meshspec_tests::shared().join("corpus/unity/meshes");
    let mut out = vec![];
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&meshes)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    versions.sort();
    for v in versions {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&v)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".unitypy.json"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
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
    let path = meshspec_tests::shared().join(format!("corpus/unity/unity-dumps/{version}.txt"));
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
    let files = unitypy_json_files();
    let mut dumps = std::collections::HashMap::new();
    let mut checked = 0;
    let mut against_dumps = 0;
    let mut exported = vec![];
    for file in &files {
        let j: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let dir = file.parent().unwrap();
        let version = dir.file_name().unwrap().to_string_lossy().to_string();
        let raw_bytes = std::fs::read(dir.join(j["raw_file"].as_str().unwrap())).unwrap();
        let loc = locate(&raw_bytes, &j);
        let streamed;
        let vertex_data: &[u8] = match j["stream_data"].as_object() {
            Some(sd) => {
                assert!(
                    loc.vertex_data.is_empty(),
                    "streamed meshes have no inline bytes"
                );
                streamed = std::fs::read(dir.join(sd["slice_file"].as_str().unwrap())).unwrap();
                &streamed
            }
            None => &raw_bytes[loc.vertex_data.clone()],
        };
        let subs: Vec<RawSubMesh> = j["submeshes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| RawSubMesh {
                first_byte: s["firstByte"].as_u64().unwrap() as u32,
                index_count: s["indexCount"].as_u64().unwrap() as u32,
                topology: s["topology"].as_u64().unwrap() as u32,
                base_vertex: s["baseVertex"].as_u64().unwrap() as u32,
                first_vertex: s["firstVertex"].as_u64().unwrap() as u32,
                vertex_count: s["vertexCount"].as_u64().unwrap() as u32,
            })
            .collect();
        let name = j["name"].as_str().unwrap();
        let raw = RawMesh {
            name,
            vertex_count: j["vertex_count"].as_u64().unwrap() as u32,
            channels: &loc.channels,
            vertex_data,
            vertex_data_offset: loc.vertex_data.start as u64,
            index_format: j["index_format"].as_u64().unwrap() as u32,
            index_buffer: &raw_bytes[loc.index_buffer.clone()],
            index_buffer_offset: loc.index_buffer.start as u64,
            submeshes: &subs,
            bind_poses: &loc.bind_poses,
            ..Default::default()
        };
        let m = decode(&raw).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
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
        let out = to_scene(&m, &SceneOptions::default()).unwrap();
        assert_eq!(out.mesh.positions.len(), m.vertex_count);
        let p0 = m.positions().unwrap()[0];
        assert_eq!(out.mesh.positions[0], [-p0[0], p0[1], p0[2]]);
        assert_eq!(out.mesh.skin.is_some(), m.skin.is_some());
        let skinned = m.skin.is_some();
        let scene = Scene {
            meshes: vec![out.mesh],
            notes: out.notes,
        };
        let bytes = glb(&scene, NonFinite::Refuse)
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
// Arbitrary input: never a panic, and whatever decodes converts into a valid common mesh.

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
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
fn arbitrary_layout(r: &mut Rng, vc: usize) -> (Vec<RawChannel>, Vec<u8>) {
    const SIZES: [usize; 12] = [4, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4];
    let mut t = vec![RawChannel::default(); 14];
    let mut strides = [0usize; 4];
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
        let stream = r.below(3) as usize;
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
    let mut len = 0usize;
    let last = (0..4).rev().find(|&s| {
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
        t[k].offset = t[k].offset.wrapping_add(1 + r.below(3) as u8);
    }
    if r.chance(2) {
        t[r.below(14) as usize].format = 12 + r.below(3) as u8;
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
                let Some(&size) = SIZES.get(c.format as usize) else {
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
fn arbitrary_packed_floats(r: &mut Rng, n: u32) -> (RawPackedFloats<'static>, Vec<u8>) {
    let bits = if r.chance(97) { r.below(33) as u8 } else { 33 };
    let mut len = (n as usize * bits as usize).div_ceil(8);
    if r.chance(3) {
        len = len.saturating_sub(1);
    }
    let v = RawPackedFloats {
        num_items: n,
        range: (r.below(400) as f32) / 100.0,
        start: -(r.below(200) as f32) / 100.0,
        data: &[],
        bit_size: bits,
        data_offset: 0,
    };
    (v, r.bytes(len))
}

fn packed_ints(v: &(u32, u8, Vec<u8>)) -> RawPackedInts<'_> {
    RawPackedInts {
        num_items: v.0,
        data: &v.2,
        bit_size: v.1,
        data_offset: 0,
    }
}

/// A packed integer vector of `n` items of `bits` bits with values below `below`.
fn arbitrary_packed_ints(r: &mut Rng, n: u32, bits: u32, below: u64) -> (u32, u8, Vec<u8>) {
    let items: Vec<u32> = (0..n).map(|_| r.below(below) as u32).collect();
    let mut data = pack(&items, bits);
    if r.chance(3) {
        data.pop();
    }
    (n, bits as u8, data)
}

#[test]
fn arbitrary_input_never_panics_and_what_decodes_converts_to_a_valid_mesh() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut decoded, mut converted, mut compressed_ok) = (0, 0, 0);
    for round in 0..4000 {
        let vc = 1 + r.below(6) as usize;
        let compressed = r.chance(20);
        let (channels, data) = if compressed {
            (vec![], vec![])
        } else {
            arbitrary_layout(&mut r, vc)
        };
        let index_format = if r.chance(98) { r.below(2) as u32 } else { 7 };
        let isz = if index_format == 1 { 4u32 } else { 2 };
        // Submeshes over a shared buffer, each a whole number of its topology's primitives.
        let mut stored: Vec<u32> = vec![];
        let mut subs = vec![];
        for _ in 0..r.below(4) {
            let topology = if r.chance(98) { r.below(6) as u32 } else { 6 };
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
            subs.push(RawSubMesh {
                first_byte,
                index_count: count + u32::from(r.chance(2)),
                topology,
                base_vertex,
                first_vertex: 0,
                vertex_count: if r.chance(98) {
                    vc as u32
                } else {
                    vc as u32 + 1
                },
            });
        }
        let mut ib: Vec<u8> = if isz == 2 {
            stored
                .iter()
                .flat_map(|&v| (v as u16).to_le_bytes())
                .collect()
        } else {
            stored.iter().flat_map(|&v| v.to_le_bytes()).collect()
        };
        let poses = vec![identity(); 4 + r.below(2) as usize];
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
        let (mut vertices, d_vertices) = arbitrary_packed_floats(&mut r, counts[0].max(3));
        let uv_n = if r.chance(50) { 0 } else { counts[1] };
        let (mut uv, d_uv) = arbitrary_packed_floats(&mut r, uv_n);
        let with_normals = r.chance(50);
        let (mut normals, d_normals) =
            arbitrary_packed_floats(&mut r, if with_normals { counts[2] } else { 0 });
        let with_tangents = r.chance(50);
        let (mut tangents, d_tangents) =
            arbitrary_packed_floats(&mut r, if with_tangents { counts[3] } else { 0 });
        let with_colors = r.chance(50);
        let (mut colors, d_colors) =
            arbitrary_packed_floats(&mut r, if with_colors { counts[7] } else { 0 });
        let ns = arbitrary_packed_ints(&mut r, if with_normals { counts[4] } else { 0 }, 1, 2);
        let ts = arbitrary_packed_ints(&mut r, if with_tangents { counts[6] } else { 0 }, 1, 2);
        // Whole weights of 31 per vertex (one bone each), sometimes split or short.
        let with_weights = r.chance(40);
        let wn = if with_weights {
            cvc + u32::from(r.chance(3))
        } else {
            0
        };
        let weights = {
            let items: Vec<u32> = (0..wn).map(|_| 31).collect();
            (wn, 5u8, pack(&items, 5))
        };
        let bones = arbitrary_packed_ints(&mut r, if with_weights { cvc } else { 0 }, 3, 4);
        let tri_items: Vec<u32> = stored.clone();
        let tri = (tri_items.len() as u32, 32u8, pack(&tri_items, 32));
        vertices.data = &d_vertices;
        uv.data = &d_uv;
        normals.data = &d_normals;
        tangents.data = &d_tangents;
        colors.data = &d_colors;

        let uv_info = if r.chance(50) {
            0
        } else {
            // Set 0 present with 2 components, as the UV count above expects.
            0x5 | if r.chance(5) { 0x60 } else { 0 }
        };
        let cm = if compressed {
            RawCompressedMesh {
                vertices,
                uv,
                normals,
                tangents,
                weights: packed_ints(&weights),
                normal_signs: packed_ints(&ns),
                tangent_signs: packed_ints(&ts),
                float_colors: colors,
                bone_indices: packed_ints(&bones),
                triangles: if r.chance(50) {
                    packed_ints(&tri)
                } else {
                    RawPackedInts::default()
                },
                uv_info,
            }
        } else {
            RawCompressedMesh::default()
        };
        if compressed && cm.triangles.num_items > 0 {
            ib.clear();
        }
        if r.chance(2) {
            ib.push(r.next() as u8);
        }
        // Blend shapes: frames over the entries, channels over the frames.
        let shape_vertices: Vec<RawShapeVertex> = (0..r.below(5))
            .map(|_| {
                let index = if r.chance(98) {
                    r.below(vc as u64)
                } else {
                    vc as u64
                } as u32;
                shape_vertex(index, [0.5; 3], [0.1; 3], [0.2; 3])
            })
            .collect();
        let frames: Vec<RawShapeFrame> = (0..r.below(4))
            .map(|_| {
                let first = r.below(shape_vertices.len() as u64 + 1) as u32;
                let left = shape_vertices.len() as u32 - first;
                RawShapeFrame {
                    first_vertex: first,
                    vertex_count: r.below(u64::from(left) + 1) as u32 + u32::from(r.chance(2)),
                    has_normals: r.chance(50),
                    has_tangents: r.chance(50),
                }
            })
            .collect();
        let names = ["123456789", FOX, "x"];
        let shape_channels: Vec<RawShapeChannel> = (0..r.below(3))
            .map(|_| {
                let name = names[r.below(3) as usize];
                let first = r.below(frames.len() as u64 + 1) as i32;
                let left = frames.len() as i32 - first;
                RawShapeChannel {
                    name,
                    name_hash: if r.chance(97) {
                        name_hash(name)
                    } else {
                        r.next() as u32
                    },
                    frame_index: first - i32::from(r.chance(2)),
                    frame_count: r.below(left as u64 + 1) as i32 + i32::from(r.chance(2)),
                }
            })
            .collect();
        let full_weights: Vec<f32> = (0..frames.len() + usize::from(r.chance(2)))
            .map(|k| 10.0 * (k as f32 + 1.0))
            .collect();
        let raw = RawMesh {
            name: "arbitrary",
            vertex_count: if r.chance(98) {
                vc as u32
            } else {
                r.next() as u32
            },
            channels: &channels,
            vertex_data: &data,
            index_format,
            index_buffer: &ib,
            submeshes: &subs,
            compressed: cm,
            bind_poses: &poses,
            variable_bone_count_weights: &words,
            shapes: RawShapes {
                vertices: &shape_vertices,
                shapes: &frames,
                channels: &shape_channels,
                full_weights: &full_weights,
            },
            ..Default::default()
        };
        let Ok(m) = decode(&raw) else { continue };
        decoded += 1;
        if m.compressed {
            compressed_ok += 1;
        }
        if let Some(skin) = &m.skin {
            for limit in [
                SkinWeights::One,
                SkinWeights::Two,
                SkinWeights::Four,
                SkinWeights::Unlimited,
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
        let opts = SceneOptions {
            skin_weights: [SkinWeights::One, SkinWeights::Four, SkinWeights::Unlimited][round % 3],
            ..Default::default()
        };
        if let Ok(out) = to_scene(&m, &opts) {
            out.mesh
                .validate()
                .unwrap_or_else(|e| panic!("round {round}: to_scene gave an invalid mesh: {e}"));
            converted += 1;
        }
    }
    // The generator reaches the end often enough to mean something.
    assert!(decoded > 1000, "{decoded} decoded");
    assert!(compressed_ok > 100, "{compressed_ok} compressed decoded");
    assert!(converted > 800, "{converted} converted");
}

// ---------------------------------------------------------------------------------------------
// The errors, as a user reads them (one line each), for review.

#[test]
fn bad_input_errors_read_as_one_line_each() {
    let mut lines = vec![];
    let mut say = |what: &str, r: meshspec_formats::Result<UnityMeshData>| {
        let e = r.expect_err(what);
        lines.push(format!("{what}:\n  {e}"));
    };
    let (channels, data) = two_streams();
    let base = RawMesh {
        vertex_count: 3,
        channels: &channels,
        vertex_data: &data,
        ..Default::default()
    };
    say(
        "vertex data one byte short",
        decode(&RawMesh {
            vertex_data: &data[..59],
            ..base
        }),
    );
    let mut long = data.clone();
    long.push(0);
    say(
        "vertex data one byte long",
        decode(&RawMesh {
            vertex_data: &long,
            ..base
        }),
    );
    let shifted = table(&[(0, ch(0, 0, 0, 3)), (4, ch(1, 4, 1, 2))]);
    say(
        "TexCoord0 at offset 4 of its own stream",
        decode(&RawMesh {
            channels: &shifted,
            ..base
        }),
    );
    let ib = u16_bytes(&[0, 1, 2, 2, 1, 3]);
    let subs = [RawSubMesh {
        index_count: 6,
        vertex_count: 3,
        ..Default::default()
    }];
    say(
        "index 3 of three vertices",
        decode(&RawMesh {
            index_buffer: &ib,
            submeshes: &subs,
            ..base
        }),
    );
    let subs = [RawSubMesh {
        index_count: 9,
        vertex_count: 3,
        ..Default::default()
    }];
    say(
        "nine indices in a buffer of six",
        decode(&RawMesh {
            index_buffer: &ib,
            submeshes: &subs,
            ..base
        }),
    );
    let short = pack(&[1, 2, 3, 4, 5, 6, 7, 8], 7);
    say(
        "packed positions short of 9 x 7 bits",
        decode(&RawMesh {
            compressed: RawCompressedMesh {
                vertices: floats(9, 7, 0.0, 1.0, &short),
                ..Default::default()
            },
            ..Default::default()
        }),
    );
    let w = pack(&[31, 31], 5);
    let b = pack(&[0], 2);
    let pos = pack(&[0; 6], 8);
    say(
        "packed weights without enough bone slots",
        decode(&RawMesh {
            compressed: RawCompressedMesh {
                vertices: floats(6, 8, 0.0, 1.0, &pos),
                weights: ints(2, 5, &w),
                bone_indices: ints(1, 2, &b),
                ..Default::default()
            },
            ..Default::default()
        }),
    );
    let (c, d) = skinned(Some((0, 1, f32_bytes(&[1.0, 1.0]))), None);
    say(
        "weights without bone slots",
        mesh_with(&c, &d, &[identity()]),
    );
    let (c, d) = skinned(None, Some((6, 1, vec![0, 1])));
    say(
        "a rigid bind to a second bone of one",
        mesh_with(&c, &d, &[identity()]),
    );
    let words = [3, 4, 4, 5 | (65535 << 16)];
    say(
        "variable bone counts whose first offset is not nv + 1",
        decode(&RawMesh {
            variable_bone_count_weights: &words,
            ..base
        }),
    );
    let chans = [RawShapeChannel {
        name: "smile",
        name_hash: 0,
        frame_index: 0,
        frame_count: 0,
    }];
    say(
        "a blend shape whose hash is not its name's",
        decode(&RawMesh {
            shapes: RawShapes {
                channels: &chans,
                ..Default::default()
            },
            ..base
        }),
    );
    insta::assert_snapshot!(lines.join("\n"));
}
