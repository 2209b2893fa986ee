//! The Mesh of every Unity era the spec reads (3.5 to 6000), made by the project's writer: the
//! same geometry in each era's layout (its channel table and format numbering, stored or
//! computed streams, the skin in m_Skin or in blend channels, its submesh fields) decodes to
//! the same common model as 2021.3's, through the one layout entry every command uses. What only
//! older eras have (implied channels, strips, 4.1 blend shapes, colours and bind poses packed
//! in a compressed mesh) is checked on its own.

mod unity_synth;

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_mesh::{
    BlendShapeVertex, LegacyBlendShape, Matrix4x4f, StreamInfo, UnalignedString, UnityMesh,
    Vector3f,
};
use meshspec_formats::rt::{ErrorKind, Root as _};
use meshspec_formats::scene::Mesh;
use meshspec_formats::unity::make;

/// The editor versions of each era's layout (a release of every range the spec cuts).
const ERAS: [&str; 14] = [
    "3.5.7f6",
    "4.0.1f2",
    "4.2.2f1",
    "4.7.2f1",
    "5.6.7f1",
    "2017.2.5f1",
    "2017.4.40f1",
    "2018.1.9f2",
    "2018.2.21f1",
    "2018.4.36f1",
    "2019.4.40f1",
    "2021.3.0f1",
    "2022.3.10f1",
    "6000.2.0f1",
];

fn ctx(v: &str) -> Context {
    Context::new().with_unity_version(v).unwrap()
}

fn number(v: &str) -> u32 {
    meshspec_formats::context::unity_version(v).unwrap() as u32
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Four vertices of a unit square: position, normal, colour (four bytes) and one UV set each,
/// 36 bytes per vertex in one stream in the same order in every era (Vertex, Normal, Color,
/// TexCoord0 are in the same order in every channel table).
fn square_bytes() -> Vec<u8> {
    let mut out = vec![];
    for (k, (x, y)) in [(0.0f32, 0.0f32), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        out.extend(f32s(&[x, y, 0.0, 0.0, 0.0, -1.0]));
        out.extend([255, 64 * k as u8, 0, 128]);
        out.extend(f32s(&[x, y]));
    }
    out
}

/// The skin: bone 0 for vertices 0 and 3 (3 weighs 0.75/0.25), bone 1 for 1, half each for 2.
fn influences() -> [([f32; 4], [i32; 4]); 4] {
    [
        ([1.0, 0.0, 0.0, 0.0], [0, 0, 0, 0]),
        ([1.0, 0.0, 0.0, 0.0], [1, 0, 0, 0]),
        ([0.5, 0.5, 0.0, 0.0], [0, 1, 0, 0]),
        ([0.75, 0.25, 0.0, 0.0], [0, 1, 0, 0]),
    ]
}

fn pose(tx: f32) -> Matrix4x4f {
    let mut e = vec![0.0; 16];
    for k in 0..4 {
        e[k * 5] = 1.0;
    }
    e[3] = tx;
    Matrix4x4f { e }
}

/// The skinned square of two submeshes in the layout of `version`.
fn square(version: &str) -> UnityMesh {
    let v = number(version);
    let mut m = make::empty("square", v);
    // Table indices: Vertex 0, Normal 1, then Color and TexCoord0 at 2 and 3 before 2018.1
    // (shader_channel_5 / _4), 3 and 4 from 2018.1 (shader_channel). The Color format: the
    // era's Color (four bytes; dimension 1 in 4.x as its editors write it), UNorm8 x 4 from
    // 2019.1.
    let (color, uv) = if v >= 20180100 { (3, 4) } else { (2, 3) };
    let (color_format, color_dim) = match v {
        v if v >= 20190100 => (2, 4),
        v if v >= 50000 => (2, 4),
        _ => (2, 1),
    };
    make::one_stream(
        &mut m,
        4,
        &[
            (0, 0, 3, 12),
            (1, 0, 3, 12),
            (color, color_format, color_dim, 4),
            (uv, 0, 2, 8),
        ],
        square_bytes(),
    );
    // (In 3.5 the table indices are the mask's bits: shader_channel_4's Color 2, UV0 3.)
    m.index_buffer = make::indices16(&[0, 1, 2, 0, 2, 3]);
    m.num_sub_meshes = 2;
    m.sub_meshes = vec![make::submesh(v, 0, 3, 4), make::submesh(v, 6, 3, 4)];
    let poses = vec![pose(0.0), pose(-1.0)];
    if v >= 40300 {
        m.bind_poses = Some(poses);
    } else {
        m.bind_poses_after_skin = Some(poses);
    }
    if v < 20180200 {
        let skin = m.skin.as_mut().unwrap();
        skin.items = influences()
            .iter()
            .map(|(w, b)| make::influences(*w, *b))
            .collect();
    } else {
        // Stream 1 (from byte 144, a multiple of 16): BlendWeight Float x 4, BlendIndices
        // UInt32 x 4 (10 in the documents' numbering, 11 in 2017's).
        let uint32 = if v >= 20190100 { 10 } else { 11 };
        make::set_channel(&mut m, 12, 1, 0, 0, 4);
        make::set_channel(&mut m, 13, 1, 16, uint32, 4);
        let mut data = square_bytes();
        for (w, b) in influences() {
            data.extend(f32s(&w));
            data.extend(b.iter().flat_map(|x| (*x as u32).to_le_bytes()));
        }
        m.vertex_data.as_mut().unwrap().data = make::bytes(data);
    }
    m
}

/// The mesh decoded through the layout entry, with the verdict's findings.
fn decode(m: &UnityMesh, version: &str) -> (Mesh, Vec<String>, Vec<String>) {
    let c = ctx(version);
    let bytes = unity_synth::bytes_with(m, &c);
    let d = unity_synth::entry()
        .decode(&bytes, &c)
        .unwrap_or_else(|e| panic!("{version}: {e}"));
    let findings = d.verdict.findings.iter().map(|e| e.to_string()).collect();
    (d.scene.meshes[0].clone(), findings, d.verdict.notes)
}

/// The parts of a decoded mesh that are its geometry (not where it came from).
fn geometry(m: &Mesh) -> impl PartialEq + std::fmt::Debug + '_ {
    (
        &m.positions,
        &m.normals,
        &m.colors,
        &m.uvs,
        &m.primitives,
        m.skin
            .as_ref()
            .map(|s| (&s.joints, &s.weights, &s.inverse_bind_matrices)),
    )
}

#[test]
fn the_same_square_decodes_alike_in_every_era() {
    let (reference, findings, _) = decode(&square("2021.3.0f1"), "2021.3.0f1");
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(reference.positions.len(), 4);
    assert_eq!(reference.primitives.len(), 2);
    let skin = reference.skin.as_ref().unwrap();
    assert_eq!(skin.weights[3], [0.75, 0.25, 0.0, 0.0]);
    assert_eq!(skin.joints[2], [0, 1, 0, 0]);
    match &reference.colors {
        Some(meshspec_formats::scene::Colors::Rgba8(c)) => assert_eq!(c[1], [255, 64, 0, 128]),
        Some(meshspec_formats::scene::Colors::Float(c)) => {
            assert_eq!(c[1], [1.0, 64.0 / 255.0, 0.0, 128.0 / 255.0])
        }
        None => panic!("no colours"),
    }
    for era in ERAS {
        let m = square(era);
        let (mesh, findings, notes) = decode(&m, era);
        assert!(findings.is_empty(), "{era}: {findings:?}");
        assert_eq!(geometry(&mesh), geometry(&reference), "{era}");
        let older = number(era) < 20190100;
        assert_eq!(
            notes.iter().any(|n| n.contains("numbered otherwise")),
            older,
            "{era}: {notes:?}"
        );
        // The bytes read back as they were written (the counts the writer recomputed kept).
        let c = ctx(era);
        let b = m.to_bytes(&c).unwrap();
        let again = UnityMesh::from_bytes(&b, &c).unwrap();
        assert_eq!(again.to_bytes(&c).unwrap(), b, "{era}");
        assert_eq!(
            again.skin.as_ref().map(|s| s.num_items),
            m.skin.as_ref().map(|s| s.items.len() as i32),
            "{era}: m_Skin's count recomputed"
        );
    }
}

#[test]
fn stored_streams_are_read_where_they_say_not_where_later_editors_would_put_them() {
    // 4.7: positions in stream 0, the rest in stream 1 at an offset no computed layout gives
    // (150, not a multiple of 16).
    let v = "4.7.2f1";
    let mut m = square(v);
    let bytes = square_bytes();
    let mut data = vec![];
    for k in 0..4 {
        data.extend(&bytes[36 * k..36 * k + 12]);
    }
    data.resize(150, 0xEE);
    for k in 0..4 {
        data.extend(&bytes[36 * k + 12..36 * k + 36]);
    }
    make::set_channel(&mut m, 1, 1, 0, 0, 3);
    make::set_channel(&mut m, 2, 1, 12, 2, 1);
    make::set_channel(&mut m, 3, 1, 16, 0, 2);
    m.vertex_data.as_mut().unwrap().streams = Some(vec![
        StreamInfo {
            channel_mask: 0b0001,
            offset: 0,
            stride: 12,
            divider_op: 0,
            frequency: 0,
        },
        StreamInfo {
            channel_mask: 0b1110,
            offset: 150,
            stride: 24,
            divider_op: 0,
            frequency: 0,
        },
    ]);
    m.vertex_data.as_mut().unwrap().num_streams = Some(2);
    m.vertex_data.as_mut().unwrap().data = make::bytes(data);
    let (mesh, findings, _) = decode(&m, v);
    assert!(findings.is_empty(), "{findings:?}");
    let (reference, _, _) = decode(&square(v), v);
    assert_eq!(geometry(&mesh), geometry(&reference));

    // A channel whose stream's mask lacks it is not decoded (as the readers skip it), with
    // the sourced rule's warning at the mask.
    m.vertex_data.as_mut().unwrap().streams.as_mut().unwrap()[1].channel_mask = 0b0110;
    let c = ctx(v);
    let b = unity_synth::bytes_with(&m, &c);
    let verdict = unity_synth::entry().judge(&b, &c);
    let lines: Vec<String> = verdict.findings.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        lines,
        [format!(
            "0x{:X} unity_mesh.vertex_data.streams[1].channel_mask: expected stream 1's channel mask to hold TexCoord0 (bit 3); the readers skip a channel its stream's mask lacks (relation `stored_streams_hold_channels`), found 0x6",
            UnityMesh::read::<true>(&b, &c)
                .unwrap()
                .pos
                .unwrap()
                .vertex_data
                .unwrap()
                .streams
                .unwrap()
                .get(1)
                .channel_mask
                .start
        )]
    );
    assert!(verdict.passes());
    let (mesh, _, _) = decode(&m, v);
    assert!(mesh.uvs.is_empty(), "TexCoord0 is skipped");
}

#[test]
fn three_five_triangle_strips_and_implied_channels() {
    let v = "3.5.7f6";
    let mut m = square(v);
    // One strip 0 1 3 2 draws the square (the second triangle turned): isTriStrip 1.
    m.index_buffer = make::indices16(&[0, 1, 3, 2]);
    m.num_sub_meshes = 1;
    let mut s = make::submesh(number(v), 0, 4, 4);
    s.is_tri_strip = Some(1);
    s.triangle_count = Some(2);
    m.sub_meshes = vec![s];
    let (mesh, findings, notes) = decode(&m, v);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(notes
        .iter()
        .any(|n| n.contains("1 submeshes are triangle strips")));
    // (0 1 3), then (1 3 2) turned to (3 1 2); in glTF's frame each winding reversed.
    assert_eq!(mesh.primitives[0].indices, [0, 3, 1, 3, 2, 1]);
    assert_eq!(mesh.normals.as_ref().unwrap()[0], [0.0, 0.0, -1.0]);
    assert_eq!(
        mesh.uvs[0][2],
        [1.0, 0.0],
        "v flipped into glTF's convention"
    );

    // A mask that implies more bytes than the stride: the sourced rule and the need.
    m.vertex_data
        .as_mut()
        .unwrap()
        .streams_fixed
        .as_mut()
        .unwrap()[0]
        .stride = 30;
    let c = ctx(v);
    let b = unity_synth::bytes_with(&m, &c);
    let verdict = unity_synth::entry().judge(&b, &c);
    let e = verdict.first_failure().expect("refused");
    assert_eq!(e.relation_id(), Some("stored_streams_hold_channels"));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(
        e.path_string(),
        "unity_mesh.vertex_data.streams_fixed[0].channel_mask"
    );
}

#[test]
fn four_one_blend_shapes_are_one_frame_each_at_full_weight() {
    let v = "4.1.5f1";
    let mut m = square(v);
    let up = |y| Vector3f { x: 0.0, y, z: 0.0 };
    // The name "Rise" starts at byte 112 of the object (name 12, two 44-byte submeshes and
    // their count 92, the shape count 4) and ends at 120, aligned; the shape then ends at
    // 154, so 2 bytes align the vector.
    m.legacy_shapes = Some(vec![LegacyBlendShape {
        name: UnalignedString {
            len_value: 4,
            value: "Rise".into(),
            pad: vec![],
        },
        first_vertex: 0,
        vertex_count: 2,
        aabb_min_delta: up(0.0),
        aabb_max_delta: up(1.0),
        has_normals: 0,
        has_tangents: 0,
    }]);
    m.pad_legacy_shapes = Some(vec![0, 0]);
    m.shape_vertices = Some(
        [2u32, 3]
            .iter()
            .map(|&index| BlendShapeVertex {
                vertex: up(1.0),
                normal: up(0.0),
                tangent: up(0.0),
                index,
            })
            .collect(),
    );
    let c = ctx(v);
    let b = unity_synth::bytes_with(&m, &c);
    // Padding of the wrong length (its position counted from the object's start) is written
    // as the padding the position needs.
    let mut wrong = m.clone();
    wrong.legacy_shapes.as_mut().unwrap()[0].name.pad = vec![0];
    assert_eq!(wrong.to_bytes(&c).unwrap(), b);
    let m = UnityMesh::from_bytes(&b, &c).unwrap();
    let (mesh, findings, notes) = decode(&m, v);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(notes.iter().any(|n| n.contains("4.1/4.2")), "{notes:?}");
    assert_eq!(mesh.morph_targets.len(), 1);
    let t = &mesh.morph_targets[0];
    assert_eq!(t.name, "Rise");
    assert_eq!(t.positions[2], [0.0, 1.0, 0.0]);
    assert_eq!(t.positions[0], [0.0, 0.0, 0.0]);
}

#[test]
fn four_x_compressed_meshes_unpack_their_colours_and_bind_poses() {
    let v = "4.7.2f1";
    let c = ctx(v);
    let mut m = make::empty("packed", number(v));
    // Three positions of 8 bits over 0..1 (items 0, 255, 0 / 0, 0, 255 / 0, 0, 0).
    let cm = &mut m.compressed_mesh;
    cm.vertices = make::packed_floats(9, 8, 0.0, 1.0, vec![0, 255, 0, 0, 0, 255, 0, 0, 0]);
    // One 32-bit colour per vertex, red in the high byte.
    let colors: Vec<u8> = [0xFF00_00FFu32, 0x00FF_00FF, 0x0000_FFFF]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    cm.colors = Some(make::packed_ints(3, 32, colors));
    // One bind pose, 16 items of 8 bits over -1..1 (the identity: 255 at the diagonal, 127.5
    // is not representable, so off-diagonal items are the middle step, about 0).
    let mut pose: Vec<u8> = vec![128; 16];
    for k in 0..4 {
        pose[k * 5] = 255;
    }
    cm.bind_poses = Some(make::packed_floats(16, 8, -1.0, 2.0, pose));
    cm.triangles = make::packed_ints(3, 8, vec![0, 1, 2]);
    m.num_sub_meshes = 1;
    m.sub_meshes = vec![make::submesh(number(v), 0, 3, 3)];
    let b = unity_synth::bytes_with(&m, &c);
    let data = meshspec_formats::unity::mesh_data(&b, &c).unwrap();
    assert!(data.compressed);
    assert_eq!(data.vertex_count, 3);
    let colours = data.colors().unwrap();
    assert_eq!(colours[0], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(colours[1], [0.0, 1.0, 0.0, 1.0]);
    let skin = data.skin.as_ref().expect("bind poses make a skin");
    assert_eq!(skin.bind_poses.len(), 1);
    assert_eq!(skin.bind_poses[0][0], 1.0);
    assert!(skin.bind_poses[0][1].abs() < 0.01);
    // 17 items are no whole number of matrices.
    m.compressed_mesh.bind_poses = Some(make::packed_floats(17, 8, -1.0, 2.0, vec![0; 17]));
    let b = unity_synth::bytes_with(&m, &c);
    let e = unity_synth::entry()
        .judge(&b, &c)
        .first_failure()
        .cloned()
        .expect("refused");
    assert_eq!(
        e.path_string(),
        "unity_mesh.compressed_mesh.bind_poses.num_items"
    );
}

#[test]
fn m_skin_must_hold_one_entry_per_vertex_and_name_bind_poses() {
    let v = "2017.4.40f1";
    let c = ctx(v);
    let mut m = square(v);
    m.skin.as_mut().unwrap().items[3].bone_index_1 = 7;
    let b = unity_synth::bytes_with(&m, &c);
    let verdict = unity_synth::entry().judge(&b, &c);
    let e = verdict.first_failure().expect("refused");
    assert_eq!(e.path_string(), "unity_mesh.skin.items[3].bone_index_1");
    assert!(e.expected.contains("below the 2 bind poses"), "{e}");
    assert_eq!(e.found, "7");
}

#[test]
fn every_eras_layout_is_a_round_trip_of_its_bytes() {
    for era in ERAS {
        let c = ctx(era);
        let m = square(era);
        let b = m.to_bytes(&c).unwrap();
        let dump = unity_synth::entry().dump(&b, &c).unwrap();
        let built = unity_synth::entry().build(&dump, &c).unwrap();
        assert_eq!(built.bytes, b, "{era}");
        assert!(built.verdict.passes(), "{era}");
    }
    // The fields of each era are there or not as its type tree says (a few cut-offs).
    let has = |era: &str| {
        let m = square(era);
        (
            m.vertex_data.as_ref().unwrap().streams_fixed.is_some(),
            m.vertex_data.as_ref().unwrap().streams.is_some(),
            m.vertex_data.as_ref().unwrap().channels_legacy.is_some(),
            m.vertex_data.as_ref().unwrap().channels_2017.is_some(),
            m.vertex_data.as_ref().unwrap().channels.is_some(),
            m.stream_compression.is_some(),
            m.skin.is_some(),
        )
    };
    for (v, want) in [
        ("3.5.7f6", (true, false, false, false, false, false, true)),
        ("4.7.2f1", (false, true, true, false, false, true, true)),
        ("5.6.7f1", (false, false, true, false, false, false, true)),
        (
            "2018.1.9f2",
            (false, false, false, true, false, false, true),
        ),
        (
            "2019.4.40f1",
            (false, false, false, false, true, false, false),
        ),
    ] {
        assert_eq!(has(v), want, "{v}");
    }
}

#[test]
fn compressed_meshes_of_2017_and_32_bit_indices_of_2017_3() {
    // 2017.2: a compressed triangle (m_UVInfo names one 2-component set), 16-bit era.
    let v = "2017.2.5f1";
    let c = ctx(v);
    let mut m = make::empty("packed", number(v));
    let cm = &mut m.compressed_mesh;
    cm.vertices = make::packed_floats(9, 8, 0.0, 1.0, vec![0, 0, 0, 255, 0, 0, 0, 255, 0]);
    cm.uv = make::packed_floats(6, 8, 0.0, 1.0, vec![0, 0, 255, 0, 0, 255]);
    cm.uv_info = Some(0x5);
    cm.triangles = make::packed_ints(3, 8, vec![0, 1, 2]);
    m.num_sub_meshes = 1;
    m.sub_meshes = vec![make::submesh(number(v), 0, 3, 3)];
    let b = unity_synth::bytes_with(&m, &c);
    let d = unity_synth::entry().decode(&b, &c).unwrap();
    let mesh = &d.scene.meshes[0];
    assert_eq!(mesh.positions[1], [-1.0, 0.0, 0.0]);
    assert_eq!(mesh.uvs[0][1], [1.0, 1.0], "u 1, v 0 flipped to 1");
    assert_eq!(mesh.primitives[0].indices, [0, 2, 1]);
    assert!(d
        .verdict
        .notes
        .iter()
        .any(|n| n.contains("m_CompressedMesh")));

    // 2017.3: m_IndexFormat 1 reaches past 65,535 vertices.
    let v = "2017.3.0f3";
    let c = ctx(v);
    let m = make::sample(number(v), 70_000);
    assert_eq!(
        m.index_format,
        Some(meshspec_formats::generated::unity_mesh::IndexFormat::UINT32)
    );
    let b = unity_synth::bytes_with(&m, &c);
    let d = unity_synth::entry().decode(&b, &c).unwrap();
    let p = &d.scene.meshes[0].primitives[0];
    assert_eq!(p.indices.iter().max(), Some(&69_999));
    // Before 2017.3 there is no m_IndexFormat: the same bytes misread, refused, not decoded.
    let old = ctx("2017.2.5f1");
    assert!(unity_synth::entry().decode(&b, &old).is_err());
}

#[test]
fn a_mesh_older_than_the_spec_is_refused_not_read_with_a_newer_layout() {
    // 3.5's bytes are not 3.4's (m_Use16BitIndices, the separate vertex arrays): refused.
    let bytes = make::sample(30500, 4).to_bytes(&ctx("3.5.0")).unwrap();
    let entry = unity_synth::entry();
    assert!(entry.judge(&bytes, &ctx("3.5.0")).passes());
    assert!(!entry.judge(&bytes, &ctx("3.4.0")).passes());
    assert!(entry.decode(&bytes, &ctx("3.4.0")).is_err());
    // Before 3.0 the reader takes the oldest layout it has, but 2.x's own is another: the
    // verdict refuses, and nothing decodes.
    let bytes = make::sample(30000, 4).to_bytes(&ctx("3.0.0")).unwrap();
    assert!(entry.judge(&bytes, &ctx("3.0.0")).passes());
    let v = entry.judge(&bytes, &ctx("2.6.1"));
    let e = v.first_failure().expect("refused");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(
        e.to_string(),
        "0x0 unity_mesh: expected a Unity version whose Mesh layout the spec describes (3.0.0 or later), found 2.6.1"
    );
    assert!(entry.decode(&bytes, &ctx("2.6.1")).is_err());
}
