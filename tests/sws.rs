//! Shaun White Skateboarding beyond the shared corpus tests: the hand-made files hold the
//! document's values at the document's offsets, every relation is refused at its path, edited
//! dumps rebuild with their counts, L and totals recomputed (or are refused with the reason),
//! and SubMesh geometry decodes (colours, tangents, morph targets) and exports.

use meshspec_formats::context::{Context, Relations};
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::find;
use meshspec_formats::generated::sws_mesh::{CompiledMesh, Submesh, SubmeshPointer, SwsMesh};
use meshspec_formats::legacy::OwnedSemantics;
use meshspec_formats::rt::input::MAX_NESTING;
use meshspec_formats::rt::{ErrorKind, Root};
use meshspec_formats::scene::Colors;
use meshspec_tests::root;
use serde_json::Value;

fn corpus(name: &str) -> Vec<u8> {
    let path = root().join("corpus/sws").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn hand_made_bodies_hold_the_documents_values_at_its_offsets() {
    let ctx = Context::new();
    let b = corpus("hand-boned.sws-mesh");
    let m = SwsMesh::from_bytes(&b, &ctx).unwrap();
    let n = m.bones.len();
    assert_eq!(n, 2);
    let l = m.len_data as usize;
    // The offsets of the Mesh table, for a mesh without SubMeshes.
    assert_eq!(u32_at(&b, 0x5), 0x415D_9568);
    assert_eq!(u32_at(&b, 0x12), 2);
    assert_eq!(u32_at(&b, 0x16 + 4), 0x9EF0_E7A1, "the first bone's class");
    assert_eq!(
        b[22 + 76 * n + 1],
        1,
        "the 11 unknown bytes: a byte, then 1"
    );
    assert_eq!(u32_at(&b, 33 + 76 * n), 0xFC9E_1595);
    assert_eq!(u32_at(&b, 37 + 76 * n) as usize, l);
    assert_eq!(u32_at(&b, 41 + 76 * n + l), 16, "PlatformVersion");
    assert_eq!(u32_at(&b, 45 + 76 * n + l), 32, "SDKVersion");
    assert_eq!(u32_at(&b, 49 + 76 * n + l), 2, "material count = A");
    assert_eq!(m.material_ids, vec![7, 9]);
    assert_eq!(b.len(), 53 + 76 * n + l + 4 * 2);
    // The bone's matrix, in stored order.
    assert_eq!(m.bones[1].matrix[12..15], [0.5, -2.0, 3.0]);
    // The CompiledMesh: its header words and what they count.
    let c = &m.data;
    assert_eq!((c.version, c.num_extra_streams, c.stride), (16, 0, 12));
    assert_eq!(c.len_vertex_stream, 7 * 12);
    assert_eq!(c.vertex_streams[0].vertices.len(), 7);
    assert_eq!(c.indices.items, vec![0, 1, 2, 2, 1, 3, 4, 5, 6]);
    assert_eq!((c.ranges_a.len(), c.ranges_b.len()), (2, 1));
    assert_eq!(c.total, 84 + 18 + 24 * 3);
    let r = &c.ranges_a[1];
    assert_eq!(
        (
            r.first_vertex,
            r.vertex_count,
            r.first_index,
            r.triangle_count
        ),
        (4, 3, 6, 1)
    );
    // Palettes packed from the start of the 40 x A block, the rest kept.
    let p = &c.palettes.palettes;
    assert_eq!((p[0].bones.clone(), p[0].vertex_count), (vec![0, 1], 4));
    assert_eq!((p[1].bones.clone(), p[1].unknown_0x3), (vec![1], 1));
    assert_eq!(c.palettes.rest.len(), 80 - 9 - 8);
    assert!(c.palettes.rest.iter().all(|&x| x == 0xCD));
    // Data on its own is the same compiled mesh.
    let alone = CompiledMesh::from_bytes(&corpus("hand-boned.sws-compiled-mesh"), &ctx).unwrap();
    assert_eq!(&alone, c);
}

#[test]
fn submeshes_move_every_later_offset_by_their_length() {
    let ctx = Context::new();
    let b = corpus("hand-authored.sws-mesh");
    let m = SwsMesh::from_bytes(&b, &ctx).unwrap();
    let alone = corpus("hand-triangle.sws-submesh");
    assert_eq!(m.submeshes.len(), 1);
    assert_eq!(b[0x12], 0, "the pointer tag");
    assert_eq!(&b[0x13..0x13 + alone.len()], &alone[..]);
    let shift = 1 + alone.len();
    assert_eq!(u32_at(&b, 0x12 + shift), 0, "bone count");
    assert_eq!(u32_at(&b, 33 + shift), 0xFC9E_1595);
    let l = m.len_data as usize;
    assert_eq!(u32_at(&b, 41 + l + shift), 16);
    // The SubMesh: its copy adds tangents and binormals and drops the morph channels.
    let s = &m.submeshes[0].submesh;
    assert_eq!(s.indices.items, vec![0, 1, 2]);
    assert_eq!(
        (s.tangents.items.len(), s.morph_channels.items.len()),
        (0, 1)
    );
    let copy = s.copy.submesh.as_ref().unwrap();
    assert_eq!(
        (copy.tangents.items.len(), copy.morph_channels.items.len()),
        (3, 0)
    );
    assert_eq!(copy.copy.tag, 3);
    assert_eq!(m.data.num_extra_streams, 1);
}

/// Each bad file: the relation it breaks and the path it is refused at.
const BAD: &[(&str, &str, &str)] = &[
    (
        "one-material-per-range",
        "one_material_per_range",
        "sws_mesh.num_materials",
    ),
    (
        "palette-bones-exist",
        "palette_bones_exist",
        "sws_mesh.data.palettes.palettes[0].bones[1]",
    ),
    (
        "submesh-vertices-sum",
        "submesh_vertices_sum",
        "sws_mesh.submeshes",
    ),
    (
        "extra-streams-are-morph-channels",
        "extra_streams_are_morph_channels",
        "sws_mesh.data.num_extra_streams",
    ),
    (
        "submesh-material-listed",
        "submesh_material_listed",
        "sws_mesh.submeshes[0].submesh.material_id",
    ),
    (
        "stride-all-streams",
        "stride_all_streams",
        "sws_mesh.data.stride_all_streams",
    ),
    (
        "len-all-streams",
        "len_all_streams",
        "sws_mesh.data.len_all_streams",
    ),
    ("total-adds-up", "total_adds_up", "sws_mesh.data.total"),
    (
        "ranges-partition-indices",
        "ranges_partition_indices",
        "sws_mesh.data.ranges_b[1].first_index",
    ),
    (
        "range-vertices-in-stream",
        "range_vertices_in_stream",
        "sws_mesh.data.ranges_a[0].vertex_count",
    ),
    (
        "palette-vertex-count",
        "palette_vertex_count",
        "sws_mesh.data.palettes.palettes[0].vertex_count",
    ),
    (
        "whole-triangles",
        "whole_triangles",
        "sws_mesh.submeshes[0].submesh.indices.num_items",
    ),
    (
        "indices-name-vertices",
        "indices_name_vertices",
        "sws_mesh.submeshes[0].submesh.indices.items[2]",
    ),
    (
        "runs-match-vertex-count",
        "runs_match_vertex_count",
        "sws_mesh.submeshes[0].submesh.normals.num_items",
    ),
    (
        "runs-match-triangle-count",
        "runs_match_triangle_count",
        "sws_mesh.submeshes[0].submesh.face_bytes.num_items",
    ),
    (
        "has-morphs-flag",
        "has_morphs_flag",
        "sws_mesh.submeshes[0].submesh.has_morphs",
    ),
    (
        "one-copy-each",
        "one_copy_each",
        "sws_mesh.submeshes[0].submesh.copy.tag",
    ),
];

#[test]
fn every_relation_is_refused_at_its_path_and_only_it() {
    let entry = find("sws-mesh").unwrap();
    let ctx = Context::new();
    for &(file, relation, path) in BAD {
        let bytes = corpus(&format!("bad/{file}.sws-mesh"));
        let checked = meshspec_tests::check(entry, &bytes, &ctx)
            .unwrap_or_else(|e| panic!("{file}: the reader refused it: {e}"));
        assert!(!checked.passes(&ctx), "{file}");
        for e in &checked.relations {
            assert_eq!(e.kind, ErrorKind::Relation);
            assert_eq!(
                e.relation_id(),
                Some(relation),
                "{file}: another relation: {e}"
            );
            assert!(e.offset.is_some_and(|o| o < bytes.len() as u64), "{e}");
        }
        assert_eq!(checked.relations[0].path_string(), path, "{file}");
        // With relations as warnings the same file passes, and still reports them.
        let mut warn = Context::new();
        warn.relations = Relations::Warn;
        let again = meshspec_tests::check(entry, &bytes, &warn).unwrap();
        assert!(again.passes(&warn) && !again.relations.is_empty());
    }
    // Both the SubMesh and its copy name the unlisted material.
    let both = meshspec_tests::check(entry, &corpus("bad/submesh-material-listed.sws-mesh"), &ctx)
        .unwrap();
    assert_eq!(
        both.relations[1].path_string(),
        "sws_mesh.submeshes[0].submesh.copy.submesh.material_id"
    );
    // L is what every later offset depends on: the reader itself refuses a wrong one.
    let Err(e) = meshspec_tests::check(entry, &corpus("bad/data-length.sws-mesh"), &ctx) else {
        panic!("data-length.sws-mesh was read");
    };
    assert_eq!(
        (e.kind, e.path_string()),
        (ErrorKind::Trailing, "sws_mesh.data".into())
    );
    // Every relation the spec states has its bad file.
    let covered: Vec<&str> = BAD.iter().map(|b| b.1).chain(["data_length"]).collect();
    for rel in SwsMesh::RELATIONS
        .iter()
        .chain(CompiledMesh::RELATIONS)
        .chain(Submesh::RELATIONS)
    {
        assert!(covered.contains(&rel.id), "no bad file for `{}`", rel.id);
    }
}

#[test]
fn relation_offsets_name_the_bytes_they_are_about() {
    let entry = find("sws-mesh").unwrap();
    let ctx = Context::new();
    let cases: &[(&str, usize, u32)] = &[
        // (file, offset of the first violation, the u32 or byte found there)
        ("total-adds-up", 0x55, 999),
        ("one-material-per-range", 0xE5, 2),
        ("extra-streams-are-morph-channels", 0x300, 2),
        ("submesh-material-listed", 0x195, 77),
    ];
    for &(file, at, value) in cases {
        let bytes = corpus(&format!("bad/{file}.sws-mesh"));
        let c = meshspec_tests::check(entry, &bytes, &ctx).unwrap();
        assert_eq!(c.relations[0].offset, Some(at as u64), "{file}");
        assert_eq!(u32_at(&bytes, at), value, "{file}");
    }
    let bytes = corpus("bad/has-morphs-flag.sws-mesh");
    let c = meshspec_tests::check(entry, &bytes, &ctx).unwrap();
    assert_eq!(c.relations[0].offset, Some(0x194));
    assert_eq!(bytes[0x194], 0);
    assert_eq!(
        u32_at(&bytes, 0x195),
        77,
        "the material id follows the flag"
    );
}

fn dump_of(layout: &str, file: &str) -> Value {
    find(layout)
        .unwrap()
        .dump(&corpus(file), &Context::new())
        .unwrap()
}

fn build(layout: &str, dump: &Value) -> Vec<u8> {
    let entry = find(layout).unwrap();
    let ctx = Context::new();
    let bytes = entry
        .build(dump, &ctx)
        .unwrap_or_else(|e| panic!("build: {e}"))
        .bytes;
    let checked = meshspec_tests::check(entry, &bytes, &ctx).unwrap();
    assert!(
        checked.relations.is_empty(),
        "{:?}",
        checked
            .relations
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    bytes
}

#[test]
fn a_stale_dump_rebuilds_the_same_file() {
    // Every count, length and total zeroed: the writer recomputes them all.
    let original = corpus("built-three-parts.sws-mesh");
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    fn zero(v: &mut Value) {
        match v {
            Value::Object(o) => {
                for (k, x) in o.iter_mut() {
                    let counted = k.starts_with("num_") || k.starts_with("len_");
                    let derived = [
                        "total",
                        "stride_all_streams",
                        "len_all_streams",
                        "has_morphs",
                    ]
                    .contains(&k.as_str());
                    if (counted && k != "len_vertex_stream" && k != "num_extra_streams") || derived
                    {
                        *x = 0.into();
                    } else {
                        zero(x);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(zero),
            _ => {}
        }
    }
    zero(&mut dump["data"]);
    assert_eq!(dump["data"]["len_data"], 0);
    assert_eq!(dump["data"]["data"]["total"], 0);
    assert_eq!(build("sws-mesh", &dump), original);
}

#[test]
fn edited_dumps_rebuild_with_counts_l_and_total_recomputed() {
    let ctx = Context::new();
    // Change a material id: in the list and on the SubMesh (and its copy) drawn with it.
    let before = SwsMesh::from_bytes(&corpus("built-three-parts.sws-mesh"), &ctx).unwrap();
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    let d = &mut dump["data"];
    d["material_ids"][1] = 4242.into();
    d["submeshes"][1]["submesh"]["material_id"] = 4242.into();
    d["submeshes"][1]["submesh"]["copy"]["submesh"]["material_id"] = 4242.into();
    let bytes = build("sws-mesh", &dump);
    let after = SwsMesh::from_bytes(&bytes, &ctx).unwrap();
    assert_eq!(after.material_ids[1], 4242);
    assert_eq!(after.len_data, before.len_data);

    // Add a range: split the second partition's first range in two. B, total and L grow.
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    let ranges = dump["data"]["data"]["ranges_b"].as_array_mut().unwrap();
    let first = ranges[0].clone();
    let tris = first["triangle_count"].as_u64().unwrap();
    let mut a = first.clone();
    let mut b = first.clone();
    a["triangle_count"] = (tris / 2).into();
    b["triangle_count"] = (tris - tris / 2).into();
    b["first_index"] = (first["first_index"].as_u64().unwrap() + 3 * (tris / 2)).into();
    ranges.splice(0..1, [a, b]);
    assert_eq!(dump["data"]["data"]["num_ranges_b"], 3, "left stale");
    let bytes = build("sws-mesh", &dump);
    let after = SwsMesh::from_bytes(&bytes, &ctx).unwrap();
    assert_eq!(after.data.num_ranges_b, 4);
    assert_eq!(after.data.total, before.data.total + 24);
    assert_eq!(after.len_data, before.len_data + 24);
    assert_eq!(bytes.len(), corpus("built-three-parts.sws-mesh").len() + 24);

    // Drop a bone: the last one, and the palette entry that named it (the palette block
    // keeps its 40 bytes per range, so the rest gains the byte).
    let before = SwsMesh::from_bytes(&corpus("built-skinned.sws-mesh"), &ctx).unwrap();
    let mut dump = dump_of("sws-mesh", "built-skinned.sws-mesh");
    let d = &mut dump["data"];
    d["bones"].as_array_mut().unwrap().pop();
    let last = (before.bones.len() - 1) as u64;
    let block = &mut d["data"]["palettes"];
    let mut removed = 0;
    for p in block["palettes"].as_array_mut().unwrap() {
        let bones = p["bones"].as_array_mut().unwrap();
        let n = bones.len();
        bones.retain(|b| b.as_u64() != Some(last));
        removed += n - bones.len();
    }
    assert_eq!(removed, 1);
    let rest = block["rest"].as_str().unwrap().to_string();
    block["rest"] = format!("{rest}00").into();
    let bytes = build("sws-mesh", &dump);
    let after = SwsMesh::from_bytes(&bytes, &ctx).unwrap();
    assert_eq!(after.num_bones as usize, before.bones.len() - 1);
    assert_eq!(after.len_data, before.len_data);
    assert_eq!(bytes.len(), corpus("built-skinned.sws-mesh").len() - 76);
}

#[test]
fn dumps_that_cannot_be_recomputed_are_refused_with_the_reason() {
    let entry = find("sws-mesh").unwrap();
    let ctx = Context::new();
    let refuse = |dump: &Value| entry.build(dump, &ctx).unwrap_err();
    // A stream dropped while s still says two extra streams.
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    dump["data"]["data"]["vertex_streams"]
        .as_array_mut()
        .unwrap()
        .pop();
    let e = refuse(&dump);
    assert_eq!(e.kind, ErrorKind::Inconsistent);
    assert_eq!(e.path_string(), "sws_mesh.data.vertex_streams");
    assert_eq!(e.expected, "3 elements (num_extra_streams + 1)");
    // A vertex whose bytes are not the stride.
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    dump["data"]["data"]["vertex_streams"][0]["vertices"][5] = "00ff".into();
    let e = refuse(&dump);
    assert_eq!(
        e.path_string(),
        "sws_mesh.data.vertex_streams[0].vertices[5]"
    );
    assert_eq!(e.expected, "36 bytes (stride)");
    // A palette entry added without taking a byte from the rest: the block outgrows 40 x A.
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    dump["data"]["data"]["palettes"]["palettes"][0]["bones"]
        .as_array_mut()
        .unwrap()
        .push(0.into());
    let e = refuse(&dump);
    assert_eq!(e.path_string(), "sws_mesh.data.palettes");
    assert!(e.expected.contains("120 bytes"), "{e}");
    // A first-partition range added without its palette.
    let mut dump = dump_of("sws-mesh", "built-three-parts.sws-mesh");
    let r = dump["data"]["data"]["ranges_a"][0].clone();
    dump["data"]["data"]["ranges_a"]
        .as_array_mut()
        .unwrap()
        .push(r);
    let e = refuse(&dump);
    assert_eq!(e.path_string(), "sws_mesh.data.palettes.palettes");
    assert_eq!(e.expected, "4 elements (num_palettes)");
    // More than 32 palette bones.
    let mut dump = dump_of("sws-mesh", "hand-boned.sws-mesh");
    dump["data"]["data"]["palettes"]["palettes"][0]["bones"] = vec![0; 33].into();
    let e = refuse(&dump);
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert_eq!(
        e.path_string(),
        "sws_mesh.data.palettes.palettes[0].num_bones"
    );
    // A copy pointer whose tag says "none" but which holds a SubMesh.
    let mut dump = dump_of("sws-mesh", "hand-authored.sws-mesh");
    dump["data"]["submeshes"][0]["submesh"]["copy"]["tag"] = 3.into();
    let e = refuse(&dump);
    assert_eq!(
        e.path_string(),
        "sws_mesh.submeshes[0].submesh.copy.submesh"
    );
    assert_eq!(e.expected, "no value, because not `tag == 0`");
}

#[test]
fn dumps_say_what_is_not_decoded() {
    let dump = dump_of("sws-mesh", "built-skinned.sws-mesh");
    let notes: Vec<&str> = dump["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    let has = |s: &str| notes.iter().any(|n| n.contains(s));
    assert!(has(
        "flags 0x00002157 selects (stride 32 bytes) is not in the documents"
    ));
    assert!(has("no SubMeshes"));
    assert!(has("which space they map"));
    assert!(has("packed one after another"));
    let dump = dump_of("sws-mesh", "hand-authored.sws-mesh");
    assert!(dump["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("handedness or winding")));
    // The compiled vertices are dumped as hex bytes of the stride.
    let v = &dump["data"]["data"]["vertex_streams"][0]["vertices"][0];
    assert_eq!(v.as_str().unwrap().len(), 2 * 16);
}

#[test]
fn submesh_geometry_decodes_to_the_common_model() {
    let entry = find("sws-mesh").unwrap();
    let ctx = Context::new();
    let scene = entry
        .scene(&corpus("hand-authored.sws-mesh"), &ctx)
        .unwrap();
    assert_eq!(scene.meshes.len(), 1);
    let m = &scene.meshes[0];
    assert_eq!(
        m.positions,
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    );
    assert_eq!(m.normals.as_ref().unwrap()[0], [0.0, 0.0, 1.0]);
    // D3DCOLOR 0xFFFF0000 is red: stored B, G, R, A.
    assert_eq!(
        m.colors,
        Some(Colors::Rgba8(vec![
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255]
        ]))
    );
    assert_eq!(m.uvs, vec![vec![[0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]);
    // Tangents from the copy: +x, the binormal +y = normal x tangent, so w = +1.
    assert_eq!(m.tangents.as_ref().unwrap()[0], [1.0, 0.0, 0.0, 1.0]);
    // Triangles as stored, drawn with material 77 (range 0).
    assert_eq!(m.primitives[0].indices, vec![0, 1, 2]);
    assert_eq!(m.materials[0].name, "material 77 (range 0)");
    assert_eq!(m.primitives[0].material, Some(0));
    // The MorphChannel's absolute positions become deltas: +0.5 in z.
    assert_eq!(m.morph_targets.len(), 1);
    assert_eq!(m.morph_targets[0].positions, vec![[0.0, 0.0, 0.5]; 3]);
    assert_eq!(m.morph_targets[0].normals, Some(vec![[0.0; 3]; 3]));
    assert!(scene.notes.iter().any(|n| n.contains("kept as stored")));

    // A binormal on the other side of the tangent gives w = -1.
    let mut s = Submesh::from_bytes(&corpus("hand-triangle.sws-submesh"), &ctx).unwrap();
    if let Some(copy) = s.copy.submesh.as_mut() {
        for b in &mut copy.binormals.items {
            b.y = -1.0;
        }
    }
    let scene = s.scene(&ctx).unwrap();
    assert_eq!(scene.meshes[0].tangents.as_ref().unwrap()[2][3], -1.0);
}

#[test]
fn five_parts_export_to_gltf_with_their_morph_targets() {
    let entry = find("sws-mesh").unwrap();
    let ctx = Context::new();
    let bytes = corpus("built-five-parts.sws-mesh");
    let m = SwsMesh::from_bytes(&bytes, &ctx).unwrap();
    let scene = entry.scene(&bytes, &ctx).unwrap();
    assert_eq!(scene.meshes.len(), 5);
    for (i, (mesh, e)) in scene.meshes.iter().zip(&m.submeshes).enumerate() {
        let s = &e.submesh;
        assert_eq!(mesh.positions.len(), s.positions.items.len());
        assert_eq!(mesh.morph_targets.len(), s.morph_channels.items.len());
        assert_eq!(mesh.uvs.len(), s.uv_channels.items.len());
        assert_eq!(mesh.colors.is_some(), !s.colours.items.is_empty());
        assert!(mesh.tangents.is_some());
        assert_eq!(
            mesh.materials[0].name,
            format!("material {} (range {i})", m.material_ids[i])
        );
    }
    let out = glb(&scene, NonFinite::Refuse).unwrap();
    // The JSON chunk: five meshes, the first with three morph targets named for their streams.
    let len = u32_at(&out.bytes, 12) as usize;
    let json: Value = serde_json::from_slice(&out.bytes[20..20 + len]).unwrap();
    let meshes = json["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 5);
    assert_eq!(
        meshes[0]["extras"]["targetNames"],
        serde_json::json!(["morph stream 1", "morph stream 2", "morph stream 3"])
    );
    let prim = &meshes[0]["primitives"][0];
    assert_eq!(prim["targets"].as_array().unwrap().len(), 3);
    for key in [
        "POSITION",
        "NORMAL",
        "TANGENT",
        "COLOR_0",
        "TEXCOORD_0",
        "TEXCOORD_1",
    ] {
        assert!(prim["attributes"].get(key).is_some(), "{key}");
    }
    assert!(out
        .notes
        .iter()
        .any(|n| n.contains("not exported as a skin")));
}

#[test]
fn meshes_without_positions_are_not_exported_and_say_why() {
    let ctx = Context::new();
    let e = find("sws-mesh")
        .unwrap()
        .scene(&corpus("built-skinned.sws-mesh"), &ctx)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.found.contains("no SubMeshes"), "{e}");
    assert!(e.found.contains("flags 0x00002157"), "{e}");
    let e = find("sws-compiled-mesh")
        .unwrap()
        .scene(&corpus("hand-boned.sws-compiled-mesh"), &ctx)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    // Geometry whose relations are broken is refused unless relations are warnings.
    let bad = corpus("bad/runs-match-vertex-count.sws-mesh");
    let e = find("sws-mesh").unwrap().scene(&bad, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Relation);
    let mut warn = Context::new();
    warn.relations = Relations::Warn;
    let scene = find("sws-mesh").unwrap().scene(&bad, &warn).unwrap();
    assert!(scene.meshes[0].normals.is_none());
    assert!(scene.notes.iter().any(|n| n.contains("normals")));
}

#[test]
fn copies_nested_past_the_limit_are_refused_not_overflowed() {
    // A SubMesh whose copy has a copy, and so on: the writer writes it, the reader stops at
    // the nesting limit with an error.
    let ctx = Context::new();
    let mut s = Submesh::from_bytes(&corpus("hand-triangle.sws-submesh"), &ctx).unwrap();
    for _ in 0..MAX_NESTING {
        let inner = s.clone();
        *s.copy = SubmeshPointer {
            tag: 0,
            submesh: Some(Box::new(inner)),
        };
    }
    let bytes = s.to_bytes(&ctx).unwrap();
    let e = Submesh::from_bytes(&bytes, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert!(e.expected.contains("levels of nested values"), "{e}");
    assert!(e.path_string().starts_with("submesh.copy.submesh.copy"));
}
