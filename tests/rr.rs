//! Riders Republic bodies beyond the shared corpus tests: the writer against the hand-assembled
//! bodies, the index origins of the two forms, stale counts as warnings, every bad file refused
//! at its path, edits through dumps, and why geometry is not exported.

use meshspec_formats::context::{Context, Relations};
use meshspec_formats::find;
use meshspec_formats::generated::rr_mesh::*;
use meshspec_formats::legacy::OwnedSemantics;
use meshspec_formats::rr::build::{body, BodySpec, Header, PartSpec};
use meshspec_formats::rr::{self, Form};
use meshspec_formats::rt::{ErrorKind, Root, Rule, Severity};
use meshspec_tests::root;
use std::collections::BTreeSet;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(root().join("corpus/rr").join(name))
        .unwrap_or_else(|e| panic!("corpus/rr/{name}: {e}"))
}

fn read(name: &str) -> RrMesh {
    RrMesh::from_bytes(&corpus(name), &Context::new()).unwrap()
}

/// The made-up vertex bytes of `corpus/rr/make.py`.
fn py_vertex_bytes(n: u32, stride: u32, seed: u32) -> Vec<u8> {
    (0..n * stride)
        .map(|i| ((seed * 131 + i * 7 + (i / stride.max(1)) * 13) & 0xFF) as u8)
        .collect()
}

const MAT_A: u64 = 0x1122_3344_5566_7788;
const MAT_B: u64 = 0x0102_0304_0506_0708;
const QUAD: [[u32; 3]; 2] = [[0, 1, 2], [2, 1, 3]];

fn part(n: u32, triangles: &[[u32; 3]], material: u64) -> PartSpec {
    PartSpec {
        num_vertices: n,
        triangles: triangles.to_vec(),
        material,
        centre: [0.0; 3],
        half_extent: [1.0; 3],
    }
}

fn spec(form: Form, format: VertexFormat, strides: [u32; 3], parts: Vec<PartSpec>) -> BodySpec {
    let total: u32 = parts.iter().map(|p| p.num_vertices).sum();
    let seeds = match form {
        Form::Ranged => [1, 2, 3],
        Form::Inline => [4, 5, 6],
    };
    BodySpec {
        form,
        header: Header::default(),
        bones: vec![],
        vertex_format: format,
        strides,
        bones_per_vertex: 4,
        streams: [0, 1, 2].map(|k| py_vertex_bytes(total, strides[k], seeds[k])),
        parts,
        centre: [0.0, 1.0, 0.0],
        half_extent: [1.0, 1.0, 1.0],
        quantization_factor: 0.5,
        user_category: 7,
        cpu_copies: false,
        wide_indices: false,
    }
}

#[test]
fn the_writer_builds_the_hand_assembled_bodies_byte_for_byte() {
    let ctx = Context::new();
    let quad = spec(
        Form::Ranged,
        VertexFormat::SPLIT12,
        [12, 12, 8],
        vec![part(4, &QUAD, MAT_A)],
    );
    assert_eq!(
        body(&quad).unwrap().to_bytes(&ctx).unwrap(),
        corpus("quad-split12.rr-mesh")
    );
    let mut two = spec(
        Form::Inline,
        VertexFormat::STATIC24,
        [24, 0, 0],
        vec![part(4, &QUAD, MAT_A), part(3, &[[0, 1, 2]], MAT_B)],
    );
    two.header.descriptor_mask = 16;
    two.header.max_culling_distance = 660.0;
    assert_eq!(
        body(&two).unwrap().to_bytes(&ctx).unwrap(),
        corpus("inline-two-objects.rr-mesh")
    );
}

#[test]
fn the_compiled_marker_is_at_61_plus_81_per_bone() {
    let mut n = 0;
    for e in std::fs::read_dir(root().join("corpus/rr"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("rr-mesh") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let bones = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
        let m = 61 + 81 * bones;
        assert_eq!(
            bytes[m..m + 4],
            0xFC9E_1595u32.to_le_bytes(),
            "{}",
            p.display()
        );
        let mesh = RrMesh::from_bytes(&bytes, &Context::new()).unwrap();
        assert_eq!(rr::compiled_offset(&mesh), m as u64);
        n += 1;
    }
    assert!(n >= 15, "only {n} bodies");
}

#[test]
fn ranged_indices_are_relative_to_each_ranges_vertex_base() {
    let m = read("two-ranges-split24.rr-mesh");
    let CompiledMeshBody::RangedLayout(r) = &m.compiled.body else {
        panic!("ranged")
    };
    // Stored: the triangle of range 1 is 0, 1, 2, relative to its vertex base 4.
    assert_eq!(
        r.indices.u16_indices.as_deref(),
        Some(&[0, 1, 2, 2, 1, 3, 0, 1, 2][..])
    );
    assert_eq!((r.ranges[1].first_index, r.ranges[1].vertex_base), (6, 4));
    assert_eq!(r.primitive_descs.records[1].num_indices, 3);
    let t = rr::topology(&m, &Context::new()).unwrap();
    assert_eq!(t.form, Form::Ranged);
    assert_eq!(t.vertex_format, VertexFormat::SPLIT24);
    assert_eq!((t.strides, t.num_vertices), ([24, 12, 8], 7));
    assert_eq!(t.parts.len(), 2);
    assert_eq!(t.parts[0].indices, vec![0, 1, 2, 2, 1, 3]);
    assert_eq!(t.parts[1].indices, vec![4, 5, 6]);
    assert_eq!(
        (
            t.parts[1].first_vertex,
            t.parts[1].num_vertices,
            t.parts[1].first_index
        ),
        (4, 3, 6)
    );
    assert_eq!(t.parts[0].material, Some(MAT_A));
    assert_eq!(t.parts[1].material, Some(MAT_B));
    assert_eq!(t.parts[1].triangles().collect::<Vec<_>>(), vec![[4, 5, 6]]);
    // Each part's records of a stream: range 1 owns the last 3 of 7 position records.
    let rec = t.parts[1].records(&r.positions, 12).unwrap();
    assert_eq!(rec, &r.positions[48..84]);
}

#[test]
fn inline_indices_are_absolute() {
    let m = read("inline-two-objects.rr-mesh");
    let CompiledMeshBody::InlineLayout(l) = &m.compiled.body else {
        panic!("inline")
    };
    // Stored: object 1's triangle already names vertices 4, 5, 6.
    assert_eq!(
        l.indices.u16_indices.as_deref(),
        Some(&[0, 1, 2, 2, 1, 3, 4, 5, 6][..])
    );
    let o = &l.mesh_data.objects;
    assert_eq!(
        (
            o[1].vertex_base,
            o[1].num_vertices,
            o[1].first_index,
            o[1].num_triangles
        ),
        (4, 3, 6, 1)
    );
    let t = rr::topology(&m, &Context::new()).unwrap();
    assert_eq!(t.form, Form::Inline);
    assert_eq!(t.parts[1].indices, vec![4, 5, 6], "no vertex base added");
    assert_eq!(t.parts[0].indices, vec![0, 1, 2, 2, 1, 3]);

    let m = read("inline-three-objects-u32.rr-mesh");
    let CompiledMeshBody::InlineLayout(l) = &m.compiled.body else {
        panic!("inline")
    };
    assert_eq!(l.mesh_data.index_width, 1);
    assert!(l.indices.u16_indices.is_none());
    let t = rr::topology(&m, &Context::new()).unwrap();
    let spans: Vec<(u32, u32, usize)> = t
        .parts
        .iter()
        .map(|p| (p.first_vertex, p.num_vertices, p.indices.len()))
        .collect();
    assert_eq!(spans, vec![(0, 3, 3), (3, 4, 6), (7, 5, 6)]);
    assert_eq!(t.parts[2].indices, vec![7, 8, 9, 9, 10, 11]);
}

#[test]
fn stale_declared_counts_are_warnings_and_the_buffers_win() {
    let entry = find("rr-mesh").unwrap();
    let bytes = corpus("inline-stale-counts.rr-mesh");
    let c = meshspec_tests::check(entry, &bytes, &Context::new()).unwrap();
    assert!(c.relations.is_empty(), "{:?}", c.relations);
    let w: Vec<(String, Option<u64>, String)> = c
        .warnings
        .iter()
        .map(|e| (e.path_string(), e.offset, e.found.clone()))
        .collect();
    assert_eq!(
        w,
        vec![
            (
                "rr_mesh.compiled.body.mesh_data.objects[0].num_vertices".to_string(),
                Some(0x6C),
                "9".to_string()
            ),
            (
                "rr_mesh.compiled.body.mesh_data.objects[0].num_triangles".to_string(),
                Some(0x74),
                "5".to_string()
            ),
            (
                "rr_mesh.compiled.body.materials.descriptors[0].vertex_count".to_string(),
                Some(0x10D),
                "9".to_string()
            ),
        ]
    );
    assert_eq!(
        c.warnings[0].relation_id(),
        Some("declared_counts_match_buffers")
    );
    assert!(c.warnings[2].relation_id() == Some("descriptor_vertex_count"));
    for e in &c.warnings {
        assert_eq!(bytes[e.offset.unwrap() as usize].to_string(), e.found);
    }
    // Decoded from the buffers: 4 vertices and 2 triangles, not the declared 9 and 5.
    let t = rr::topology(&read("inline-stale-counts.rr-mesh"), &Context::new()).unwrap();
    assert_eq!(t.num_vertices, 4);
    assert_eq!(t.parts[0].num_vertices, 4);
    assert_eq!(t.parts[0].indices.len(), 6);
    // The warnings are the relations the spec marks warning-only.
    let warning_only = |all: &[&'static Rule]| -> Vec<&'static str> {
        all.iter()
            .filter(|r| r.severity == Severity::Warning)
            .map(|r| r.id)
            .collect()
    };
    assert_eq!(
        warning_only(InlineLayout::RELATIONS),
        [
            InlineLayout::REL_DESCRIPTOR_VERTEX_COUNT.id,
            InlineLayout::REL_DECLARED_COUNTS_MATCH_BUFFERS.id
        ]
    );
    assert_eq!(
        warning_only(RangedLayout::RELATIONS),
        [RangedLayout::REL_DESCRIPTOR_VERTEX_COUNT.id]
    );
}

/// Every bad file, the path its first refusal names and the relation (or reader rule) broken.
const BAD: &[(&str, &str, &str)] = &[
    (
        "absolute-ranged-indices.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        "indices_relative_to_vertex_base",
    ),
    ("bone-count.rr-mesh", "rr_mesh.bones", "count"),
    (
        "bones-per-vertex.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.bones_per_vertex",
        "bones_per_vertex",
    ),
    (
        "cpu-copy-differs.rr-mesh",
        "rr_mesh.compiled.body.cpu_vertices",
        "cpu_runs_copy_buffers",
    ),
    (
        "cpu-flag.rr-mesh",
        "rr_mesh.compiled.body.materials.trailer.mesh_bools[0]",
        "cpu_runs_flag",
    ),
    (
        "desc-centre.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[0].centre",
        "single_range_bounds",
    ),
    (
        "desc-first-index.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[1].first_index",
        "primitive_desc_first_index",
    ),
    (
        "desc-index-count.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[0].num_indices",
        "primitive_desc_index_count",
    ),
    (
        "first-range-vertex.rr-mesh",
        "rr_mesh.compiled.body.ranges[0].vertex_base",
        "first_range_at_zero",
    ),
    (
        "format-strides.rr-mesh",
        "rr_mesh.compiled.body.strides",
        "format_strides",
    ),
    (
        "group-identity.rr-material-list",
        "material_list.groups[1].object_reference",
        "group_identities",
    ),
    (
        "group-identity.rr-mesh",
        "rr_mesh.compiled.body.materials.groups[1].object_handle",
        "group_identities",
    ),
    (
        "inline-format-strides.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.strides",
        "format_strides",
    ),
    (
        "inline-one-descriptor.rr-mesh",
        "rr_mesh.compiled.body.materials.num_descriptors",
        "descriptor_per_object",
    ),
    (
        "inline-positions.rr-mesh",
        "rr_mesh.compiled.body.len_positions",
        "stream_lengths",
    ),
    (
        "middle-run.rr-mesh",
        "rr_mesh.compiled.body.len_cpu_positions",
        "middle_runs_empty",
    ),
    (
        "object-gap.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.objects[1].vertex_base",
        "objects_tile_buffers",
    ),
    (
        "odd-index-bytes.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        "eof",
    ),
    (
        "one-desc-two-ranges.rr-mesh",
        "rr_mesh.compiled.body.len_primitive_descs",
        "primitive_desc_per_range",
    ),
    (
        "one-descriptor-two-ranges.rr-mesh",
        "rr_mesh.compiled.body.materials.num_descriptors",
        "descriptor_per_range",
    ),
    (
        "one-group.rr-mesh",
        "rr_mesh.compiled.body.materials.num_groups",
        "groups_per_descriptor",
    ),
    (
        "range-class.rr-mesh",
        "rr_mesh.compiled.body.ranges[0].marker",
        "invalid",
    ),
    (
        "range-past-vertices.rr-mesh",
        "rr_mesh.compiled.body.ranges[1].vertex_base",
        "ranges_partition_buffers",
    ),
    (
        "relative-inline-indices.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        "indices_absolute",
    ),
    (
        "selector-class.rr-mesh",
        "rr_mesh.compiled.layout_class",
        "selector_matches_class",
    ),
    ("selector.rr-mesh", "rr_mesh.compiled.body", "switch"),
    (
        "skin-short.rr-mesh",
        "rr_mesh.compiled.body.len_skin",
        "stream_lengths",
    ),
];

#[test]
fn every_bad_file_is_refused_at_its_path_for_its_one_reason() {
    let ctx = Context::new();
    let on_disk: BTreeSet<String> = std::fs::read_dir(root().join("corpus/rr/bad"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    let listed: BTreeSet<String> = BAD.iter().map(|b| b.0.to_string()).collect();
    assert_eq!(on_disk, listed, "every bad file is in the table");
    let mut relations_seen = BTreeSet::new();
    for &(name, path, why) in BAD {
        let bytes = std::fs::read(root().join("corpus/rr/bad").join(name)).unwrap();
        let layout = name.rsplit('.').next().unwrap();
        let entry = find(layout).unwrap();
        match meshspec_tests::check(entry, &bytes, &ctx) {
            Err(e) => {
                let kind = match why {
                    "count" => ErrorKind::Count,
                    "eof" => ErrorKind::Eof,
                    "invalid" => ErrorKind::Invalid,
                    "switch" => ErrorKind::Switch,
                    other => {
                        panic!("{name}: refused by the reader ({e}), expected relation {other}")
                    }
                };
                assert_eq!(
                    (e.kind, e.path_string().as_str()),
                    (kind, path),
                    "{name}: {e}"
                );
                assert!(
                    e.offset.is_some_and(|o| o < bytes.len() as u64),
                    "{name}: {e}"
                );
            }
            Ok(c) => {
                assert!(!c.relations.is_empty(), "{name}: accepted");
                assert_eq!(c.relations[0].path_string(), path, "{name}");
                // Violated alone: every violation is of the one relation.
                for e in &c.relations {
                    assert_eq!(e.kind, ErrorKind::Relation);
                    assert!(e.relation_id() == Some(why), "{name}: {e}");
                    assert!(
                        e.offset.is_some_and(|o| o < bytes.len() as u64),
                        "{name}: {e}"
                    );
                }
                relations_seen.insert(why.to_string());
            }
        }
    }
    // Every relation that can fail a check has a bad file.
    let mut stated: BTreeSet<String> = BTreeSet::new();
    for all in [
        CompiledMesh::RELATIONS,
        RangedLayout::RELATIONS,
        InlineLayout::RELATIONS,
        MeshData::RELATIONS,
        MaterialList::RELATIONS,
    ] {
        stated.extend(
            all.iter()
                .filter(|r| r.severity == Severity::Error)
                .map(|r| r.id.to_string()),
        );
    }
    assert_eq!(relations_seen, stated);
}

#[test]
fn relation_offsets_point_at_the_values_they_name() {
    // For integer fields the found value is the stored one at the reported offset.
    let ctx = Context::new();
    for (name, width) in [
        ("first-range-vertex.rr-mesh", 4),
        ("range-past-vertices.rr-mesh", 4),
        ("object-gap.rr-mesh", 4),
        ("desc-first-index.rr-mesh", 4),
        ("desc-index-count.rr-mesh", 3),
        ("bones-per-vertex.rr-mesh", 1),
        ("cpu-flag.rr-mesh", 1),
        ("one-group.rr-mesh", 4),
        ("inline-one-descriptor.rr-mesh", 4),
        ("inline-positions.rr-mesh", 4),
        ("skin-short.rr-mesh", 4),
        ("absolute-ranged-indices.rr-mesh", 2),
        ("relative-inline-indices.rr-mesh", 2),
    ] {
        let bytes = std::fs::read(root().join("corpus/rr/bad").join(name)).unwrap();
        let c = meshspec_tests::check(find("rr-mesh").unwrap(), &bytes, &ctx).unwrap();
        for e in &c.relations {
            let o = e.offset.unwrap() as usize;
            let mut v = [0u8; 8];
            v[..width].copy_from_slice(&bytes[o..o + width]);
            assert_eq!(u64::from_le_bytes(v).to_string(), e.found, "{name}: {e}");
        }
    }
}

fn rebuild(dump: &serde_json::Value) -> meshspec_formats::Result<Vec<u8>> {
    find("rr-mesh")
        .unwrap()
        .build(dump, &Context::new())
        .map(|b| b.bytes)
}

#[test]
fn dumps_can_be_edited_and_built_again() {
    let ctx = Context::new();
    let entry = find("rr-mesh").unwrap();
    let bytes = corpus("two-ranges-split24.rr-mesh");
    let dump = entry.dump(&bytes, &ctx).unwrap();
    assert_eq!(rebuild(&dump).unwrap(), bytes);

    // A new material for range 1, in its descriptor and both group identities: still valid.
    let mut d = dump.clone();
    let mats = &mut d["data"]["compiled"]["body"]["RangedLayout"]["materials"];
    mats["descriptors"][1]["material"] = 0xDEAD_BEEF_u64.into();
    mats["groups"][1]["object_reference"] = 0xDEAD_BEEF_u64.into();
    mats["groups"][1]["object_handle"] = 0xDEAD_BEEF_u64.into();
    let out = rebuild(&d).unwrap();
    assert_eq!(out.len(), bytes.len());
    let c = meshspec_tests::check(entry, &out, &ctx).unwrap();
    assert!(c.relations.is_empty() && c.warnings.is_empty());
    let t = rr::topology(&RrMesh::from_bytes(&out, &ctx).unwrap(), &ctx).unwrap();
    assert_eq!(t.parts[1].material, Some(0xDEAD_BEEF));

    // One bone fewer: the count is recomputed and the compiled mesh moves 81 bytes earlier.
    let mut d = dump.clone();
    d["data"]["bones"].as_array_mut().unwrap().pop();
    d["data"]["num_bones"] = 99.into(); // stale in the dump: recomputed on writing
    let out = rebuild(&d).unwrap();
    assert_eq!(out.len(), bytes.len() - 81);
    assert_eq!(&out[16..20], &1u32.to_le_bytes());
    assert_eq!(&out[61 + 81..61 + 81 + 4], &0xFC9E_1595u32.to_le_bytes());
    assert!(meshspec_tests::check(entry, &out, &ctx)
        .unwrap()
        .relations
        .is_empty());

    // A stale descriptor vertex count in a ranged body: built, and reported as a warning only.
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["materials"]["descriptors"][0]["vertex_count"] =
        70.into();
    let out = rebuild(&d).unwrap();
    let c = meshspec_tests::check(entry, &out, &ctx).unwrap();
    assert!(c.relations.is_empty());
    assert_eq!(c.warnings.len(), 1);
    assert_eq!(
        c.warnings[0].path_string(),
        "rr_mesh.compiled.body.materials.descriptors[0].vertex_count"
    );
    assert_eq!(c.warnings[0].found, "70");

    // An edit that breaks a relation builds (the bytes read back) but fails check at its path.
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["materials"]["groups"][0]["object_handle"] =
        1.into();
    let out = rebuild(&d).unwrap();
    let c = meshspec_tests::check(entry, &out, &ctx).unwrap();
    assert_eq!(
        c.relations[0].path_string(),
        "rr_mesh.compiled.body.materials.groups[0].object_handle"
    );

    // Edits the writer cannot write are refused with the field's path.
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["materials"]["trailer"]["mesh_bools"]
        .as_array_mut()
        .unwrap()
        .pop();
    let e = rebuild(&d).unwrap_err();
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.materials.trailer.mesh_bools"
    );
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["ranges"][0]["unknown_0x10"] =
        serde_json::Value::Null; // only the last range lacks the eight further bytes
    let e = rebuild(&d).unwrap_err();
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.ranges[0].unknown_0x10"
    );
    let mut d = dump.clone();
    d["data"]["compiled"]["layout_selector"] = 3.into(); // the inline form, with a ranged body
    let e = rebuild(&d).unwrap_err();
    assert_eq!(e.path_string(), "rr_mesh.compiled.body");
}

#[test]
fn a_dump_edit_of_the_inline_indices_changes_the_decoded_topology() {
    let ctx = Context::new();
    let entry = find("rr-mesh").unwrap();
    let bytes = corpus("inline-two-objects.rr-mesh");
    let mut d = entry.dump(&bytes, &ctx).unwrap();
    let idx = &mut d["data"]["compiled"]["body"]["InlineLayout"]["indices"]["u16_indices"];
    idx[6] = 6.into();
    idx[8] = 4.into();
    let out = rebuild(&d).unwrap();
    let t = rr::topology(&RrMesh::from_bytes(&out, &ctx).unwrap(), &ctx).unwrap();
    assert_eq!(t.parts[1].indices, vec![6, 5, 4]);
}

#[test]
fn geometry_is_refused_with_the_reason() {
    let ctx = Context::new();
    for (layout, name) in [
        ("rr-mesh", "two-ranges-split24.rr-mesh"),
        ("rr-mesh", "inline-two-objects.rr-mesh"),
        ("rr-compiled-mesh", "quad-split12.rr-compiled-mesh"),
    ] {
        let e = find(layout)
            .unwrap()
            .scene(&corpus(name), &ctx)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{name}: {e}");
        assert!(
            e.found.contains("not their record layouts") && e.found.contains("cannot be decoded"),
            "{name}: {e}"
        );
    }
    // A body whose relations fail is refused for that first.
    let bad = std::fs::read(root().join("corpus/rr/bad/object-gap.rr-mesh")).unwrap();
    let e = find("rr-mesh").unwrap().scene(&bad, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Relation);
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.mesh_data.objects[1].vertex_base"
    );
    // And the notes say what is kept raw.
    let notes = read("quad-split12.rr-mesh").notes(&ctx);
    assert!(
        notes.iter().any(|n| n.contains("kept as bytes")),
        "{notes:?}"
    );
}

#[test]
fn topology_in_warn_mode_needs_only_the_relations_it_rests_on() {
    let bytes = std::fs::read(root().join("corpus/rr/bad/cpu-flag.rr-mesh")).unwrap();
    let m = RrMesh::from_bytes(&bytes, &Context::new()).unwrap();
    let e = rr::topology(&m, &Context::new()).unwrap_err();
    assert_eq!(e.relation_id(), Some("cpu_runs_flag"), "{e}");
    let mut warn = Context::new();
    warn.relations = Relations::Warn;
    let t = rr::topology(&m, &warn).unwrap();
    assert_eq!(t.parts[0].indices, vec![0, 1, 2, 2, 1, 3]);
    // Without the ranges in place there is nothing to decode, whatever the mode.
    let bytes = std::fs::read(root().join("corpus/rr/bad/range-past-vertices.rr-mesh")).unwrap();
    let m = RrMesh::from_bytes(&bytes, &Context::new()).unwrap();
    let e = rr::topology(&m, &warn).unwrap_err();
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.ranges[1].vertex_base"
    );
}

#[test]
fn descriptor_vertex_counts_wrap_at_65536() {
    // An inline object of 70,000 vertices (the document's samples hold 72,260 and 93,906).
    let n = 70_000u32;
    let tris: Vec<[u32; 3]> = (0..n - 2).step_by(7).map(|i| [i, i + 1, i + 2]).collect();
    let mut s = spec(
        Form::Inline,
        VertexFormat::STATIC16,
        [16, 0, 0],
        vec![part(3, &[[0, 1, 2]], MAT_A), part(n, &tris, MAT_B)],
    );
    s.wide_indices = true;
    let m = body(&s).unwrap();
    let CompiledMeshBody::InlineLayout(l) = &m.compiled.body else {
        panic!("inline")
    };
    assert_eq!(l.materials.descriptors[1].vertex_count, (n - 65_536) as u16);
    assert_eq!(l.mesh_data.objects[1].num_vertices, n);
    let ctx = Context::new();
    assert!(m.relations(&ctx).is_empty() && m.warnings(&ctx).is_empty());
    let t = rr::topology(&m, &ctx).unwrap();
    assert_eq!(t.parts[1].num_vertices, n);
    assert_eq!(
        t.parts[1].indices.last(),
        Some(&(3 + tris.last().unwrap()[2]))
    );
    // u16 indices cannot reach past 65,535 in the inline form: the writer refuses.
    s.wide_indices = false;
    let e = body(&s).unwrap_err();
    assert!(e.expected.contains("at most 65535"), "{e}");
}

#[test]
fn the_writer_refuses_what_would_not_hold() {
    let mut s = spec(
        Form::Ranged,
        VertexFormat::SPLIT12,
        [12, 12, 8],
        vec![part(4, &[[0, 1, 4]], MAT_A)],
    );
    let e = body(&s).unwrap_err();
    assert!(e.expected.contains("below its 4 vertices"), "{e}");
    s.parts[0].triangles = QUAD.to_vec();
    s.streams[2].pop();
    let e = body(&s).unwrap_err();
    assert!(e.expected.starts_with("stream 2 of 32 bytes"), "{e}");
    s.streams[2].push(0);
    s.bones = vec![vec![0; 80]];
    let e = body(&s).unwrap_err();
    assert_eq!(e.found, "bone 0 of 80 bytes");
    s.bones = vec![vec![0; 81]; 2];
    s.cpu_copies = true;
    let m = body(&s).unwrap();
    let CompiledMeshBody::RangedLayout(r) = &m.compiled.body else {
        panic!("ranged")
    };
    assert_eq!(r.cpu_vertices, r.primary);
    assert_eq!(r.materials.trailer.mesh_bools[0], 1);
    assert_eq!(m.num_bones, 2);
}
