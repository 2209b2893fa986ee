//! Riders Republic bodies beyond the shared corpus tests: the writer against the hand-assembled
//! bodies, the index origins of the two forms, stale counts as warnings, every relation broken
//! by its own bad file and reported alike by check, build and export, the recorded positions
//! against the bytes, edits through dumps, and why geometry is not exported.

use meshspec_formats::context::{Context, Relations};
use meshspec_formats::find;
use meshspec_formats::generated::rr_mesh::*;
use meshspec_formats::rr::build::{body, BodySpec, Header, PartSpec};
use meshspec_formats::rr::{self, Form};
use meshspec_formats::rt::{Error, ErrorKind, Root, Rule, Severity};
use meshspec_formats::verdict::Verdict;
use meshspec_tests::root;
use std::collections::BTreeSet;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(root().join("corpus/rr").join(name))
        .unwrap_or_else(|e| panic!("corpus/rr/{name}: {e}"))
}

fn bad(name: &str) -> Vec<u8> {
    corpus(&format!("bad/{name}"))
}

/// The verdict on `bytes` as the layout their file name ends with.
fn judge(name: &str, bytes: &[u8], ctx: &Context) -> Verdict {
    find(name.rsplit('.').next().unwrap())
        .unwrap()
        .judge(bytes, ctx)
}

fn strict() -> Context {
    let mut c = Context::new();
    c.strict = true;
    c
}

fn warn_mode() -> Context {
    let mut c = Context::new();
    c.relations = Relations::Warn;
    c
}

/// The relation findings of a verdict (not the decoder's).
fn relations(v: &Verdict) -> Vec<&Error> {
    v.findings
        .iter()
        .filter(|e| e.kind == ErrorKind::Relation)
        .collect()
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
    for p in meshspec_tests::sorted_paths(&root().join("corpus/rr"), |p| {
        p.extension().and_then(|x| x.to_str()) == Some("rr-mesh")
    }) {
        let bytes = std::fs::read(&p).unwrap();
        let bones = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
        let m = 61 + 81 * bones;
        assert_eq!(
            bytes[m..m + 4],
            0xFC9E_1595u32.to_le_bytes(),
            "{}",
            p.display()
        );
        // Where the reader recorded the compiled mesh and its marker.
        let read = RrMesh::read::<true>(&bytes, &Context::new()).unwrap();
        let pos = read.pos.unwrap();
        assert_eq!(pos.compiled._span.start, m as u64, "{}", p.display());
        assert_eq!(pos.compiled.marker.start, m as u64, "{}", p.display());
        n += 1;
    }
    assert!(n >= 15, "only {n} bodies");
}

#[test]
fn another_value_at_m_contradicts_a_proven_statement_and_is_refused() {
    // The table row says Observed, the document's sentence Proven on all mesh headers: the
    // stronger governs, so check refuses (an error, not a warning) and export does too.
    let mut bytes = corpus("quad-split12.rr-mesh");
    let pos = RrMesh::read::<true>(&bytes, &Context::new())
        .unwrap()
        .pos
        .unwrap();
    let m = pos.compiled.marker.start as usize;
    bytes[m] ^= 1;
    let entry = find("rr-mesh").unwrap();
    let v = entry.judge(&bytes, &Context::new());
    let e = v.first_failure().expect("refused");
    assert_eq!(e.severity, Severity::Error);
    assert_eq!(e.path_string(), "rr_mesh.compiled.marker");
    assert_eq!(e.offset, Some(m as u64));
    assert!(entry.decode(&bytes, &Context::new()).is_err());
}

#[test]
fn ranged_indices_are_relative_to_each_ranges_vertex_base() {
    let ctx = Context::new();
    let bytes = corpus("two-ranges-split24.rr-mesh");
    let read = RrMesh::read::<false>(&bytes, &ctx).unwrap();
    let CompiledMeshBodyRef::RangedLayout(r) = &read.value.compiled.body else {
        panic!("ranged")
    };
    // Stored: the triangle of range 1 is 0, 1, 2, relative to its vertex base 4.
    assert_eq!(
        r.indices.u16_indices.map(|v| v.to_vec()),
        Some(vec![0, 1, 2, 2, 1, 3, 0, 1, 2])
    );
    assert_eq!((r.ranges[1].first_index, r.ranges[1].vertex_base), (6, 4));
    assert_eq!(r.primitive_descs.records[1].num_indices, 3);
    let t = rr::topology(&bytes, &ctx).unwrap();
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
    let rec = t.parts[1].records(r.positions, 12).unwrap();
    assert_eq!(rec, &r.positions[48..84]);
    // The compiled mesh on its own decodes the same.
    let compiled = corpus("quad-split12.rr-compiled-mesh");
    let whole = rr::topology(&corpus("quad-split12.rr-mesh"), &ctx).unwrap();
    assert_eq!(rr::compiled_topology(&compiled, &ctx).unwrap(), whole);
}

#[test]
fn inline_indices_are_absolute() {
    let ctx = Context::new();
    let bytes = corpus("inline-two-objects.rr-mesh");
    let read = RrMesh::read::<false>(&bytes, &ctx).unwrap();
    let CompiledMeshBodyRef::InlineLayout(l) = &read.value.compiled.body else {
        panic!("inline")
    };
    // Stored: object 1's triangle already names vertices 4, 5, 6.
    assert_eq!(
        l.indices.u16_indices.map(|v| v.to_vec()),
        Some(vec![0, 1, 2, 2, 1, 3, 4, 5, 6])
    );
    let o = l.mesh_data.objects.get(1).unwrap();
    assert_eq!(
        (
            o.vertex_base,
            o.num_vertices,
            o.first_index,
            o.num_triangles
        ),
        (4, 3, 6, 1)
    );
    let t = rr::topology(&bytes, &ctx).unwrap();
    assert_eq!(t.form, Form::Inline);
    assert_eq!(t.parts[1].indices, vec![4, 5, 6], "no vertex base added");
    assert_eq!(t.parts[0].indices, vec![0, 1, 2, 2, 1, 3]);

    let bytes = corpus("inline-three-objects-u32.rr-mesh");
    let read = RrMesh::read::<false>(&bytes, &ctx).unwrap();
    let CompiledMeshBodyRef::InlineLayout(l) = &read.value.compiled.body else {
        panic!("inline")
    };
    assert_eq!(l.mesh_data.index_width, 1);
    assert!(l.indices.u16_indices.is_none());
    let t = rr::topology(&bytes, &ctx).unwrap();
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
    let name = "inline-stale-counts.rr-mesh";
    let bytes = corpus(name);
    let v = judge(name, &bytes, &Context::new());
    assert!(v.passes(), "{:?}", v.first_failure());
    assert_eq!(v.errors().count(), 0);
    let w: Vec<(String, Option<u64>, String)> = v
        .warnings()
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
    let warnings: Vec<&Error> = v.warnings().collect();
    assert_eq!(
        warnings[0].rule,
        Some(InlineLayout::REL_DECLARED_COUNTS_MATCH_BUFFERS)
    );
    assert_eq!(warnings[1].rule, warnings[0].rule);
    assert_eq!(
        warnings[2].rule,
        Some(InlineLayout::REL_DESCRIPTOR_VERTEX_COUNT)
    );
    for e in &warnings {
        assert_eq!(bytes[e.offset.unwrap() as usize].to_string(), e.found);
        // The severity is the rule's: the spec calls both relations observed.
        assert_eq!(e.severity, Severity::Warning);
        assert_eq!(e.rule.map(|r| r.severity), Some(Severity::Warning));
    }
    // Decoded from the buffers: 4 vertices and 2 triangles, not the declared 9 and 5.
    let t = rr::topology(&bytes, &Context::new()).unwrap();
    assert_eq!(t.num_vertices, 4);
    assert_eq!(t.parts[0].num_vertices, 4);
    assert_eq!(t.parts[0].indices.len(), 6);
    // --strict makes the warnings fail the verdict, and the first one is the refusal.
    let v = judge(name, &bytes, &strict());
    assert!(!v.passes());
    assert_eq!(v.first_failure().map(|e| e.offset), Some(Some(0x6C)));
    assert!(rr::topology(&bytes, &strict()).is_err());
}

/// Why a bad file is bad: a relation of the spec, or a rule of the reader.
#[derive(Clone, Copy)]
enum Why {
    Rule(&'static Rule),
    Reader(ErrorKind),
}

type R = RangedLayout;
type L = InlineLayout;

/// Every bad file, the path of the first finding of its rule, and the rule it breaks (alone).
const BAD: &[(&str, &str, Why)] = &[
    (
        "absolute-ranged-indices.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        Why::Rule(R::REL_INDICES_RELATIVE_TO_VERTEX_BASE),
    ),
    (
        "bone-count.rr-mesh",
        "rr_mesh.bones",
        Why::Reader(ErrorKind::Count),
    ),
    (
        "bones-per-vertex.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.bones_per_vertex",
        Why::Rule(MeshData::REL_BONES_PER_VERTEX),
    ),
    (
        "cpu-copy-differs.rr-mesh",
        "rr_mesh.compiled.body.cpu_vertices",
        Why::Rule(R::REL_CPU_RUNS_COPY_BUFFERS),
    ),
    (
        "cpu-flag.rr-mesh",
        "rr_mesh.compiled.body.materials.trailer.mesh_bools[0]",
        Why::Rule(R::REL_CPU_RUNS_FLAG),
    ),
    (
        "desc-centre.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[0].centre",
        Why::Rule(R::REL_SINGLE_RANGE_BOUNDS),
    ),
    (
        "desc-first-index.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[1].first_index",
        Why::Rule(R::REL_PRIMITIVE_DESC_FIRST_INDEX),
    ),
    (
        "desc-index-count.rr-mesh",
        "rr_mesh.compiled.body.primitive_descs.records[0].num_indices",
        Why::Rule(R::REL_PRIMITIVE_DESC_INDEX_COUNT),
    ),
    (
        "descriptor-final-bytes.rr-mesh",
        "rr_mesh.compiled.body.materials.descriptors[1].platform_version",
        Why::Rule(R::REL_DESCRIPTOR_FINAL_BYTES),
    ),
    (
        "descriptor-vertex-count.rr-mesh",
        "rr_mesh.compiled.body.materials.descriptors[0].vertex_count",
        Why::Rule(R::REL_DESCRIPTOR_VERTEX_COUNT),
    ),
    (
        "first-range-vertex.rr-mesh",
        "rr_mesh.compiled.body.ranges[0].vertex_base",
        Why::Rule(R::REL_FIRST_RANGE_AT_ZERO),
    ),
    (
        "format-strides.rr-mesh",
        "rr_mesh.compiled.body.strides",
        Why::Rule(R::REL_FORMAT_STRIDES),
    ),
    (
        "group-identity.rr-material-list",
        "material_list.groups[1].object_reference",
        Why::Rule(MaterialList::REL_GROUP_IDENTITIES),
    ),
    (
        "group-identity.rr-mesh",
        "rr_mesh.compiled.body.materials.groups[1].object_handle",
        Why::Rule(MaterialList::REL_GROUP_IDENTITIES),
    ),
    (
        "inline-declared-counts.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.objects[1].num_vertices",
        Why::Rule(L::REL_DECLARED_COUNTS_MATCH_BUFFERS),
    ),
    (
        "inline-descriptor-vertex-count.rr-mesh",
        "rr_mesh.compiled.body.materials.descriptors[0].vertex_count",
        Why::Rule(L::REL_DESCRIPTOR_VERTEX_COUNT),
    ),
    (
        "inline-format-strides.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.strides",
        Why::Rule(MeshData::REL_FORMAT_STRIDES),
    ),
    (
        "inline-one-descriptor.rr-mesh",
        "rr_mesh.compiled.body.materials.num_descriptors",
        Why::Rule(L::REL_DESCRIPTOR_PER_OBJECT),
    ),
    (
        "inline-positions.rr-mesh",
        "rr_mesh.compiled.body.len_positions",
        Why::Rule(L::REL_STREAM_LENGTHS),
    ),
    (
        "middle-run.rr-mesh",
        "rr_mesh.compiled.body.len_cpu_positions",
        Why::Rule(R::REL_MIDDLE_RUNS_EMPTY),
    ),
    (
        "object-gap.rr-mesh",
        "rr_mesh.compiled.body.mesh_data.objects[1].vertex_base",
        Why::Rule(L::REL_OBJECTS_TILE_BUFFERS),
    ),
    (
        "odd-index-bytes.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        Why::Reader(ErrorKind::Eof),
    ),
    (
        "one-desc-two-ranges.rr-mesh",
        "rr_mesh.compiled.body.len_primitive_descs",
        Why::Rule(R::REL_PRIMITIVE_DESC_PER_RANGE),
    ),
    (
        "one-descriptor-two-ranges.rr-mesh",
        "rr_mesh.compiled.body.materials.num_descriptors",
        Why::Rule(R::REL_DESCRIPTOR_PER_RANGE),
    ),
    (
        "one-group.rr-mesh",
        "rr_mesh.compiled.body.materials.num_groups",
        Why::Rule(MaterialList::REL_GROUPS_PER_DESCRIPTOR),
    ),
    (
        "range-class.rr-mesh",
        "rr_mesh.compiled.body.ranges[0].marker",
        Why::Reader(ErrorKind::Invalid),
    ),
    (
        "range-past-vertices.rr-mesh",
        "rr_mesh.compiled.body.ranges[1].vertex_base",
        Why::Rule(R::REL_RANGES_PARTITION_BUFFERS),
    ),
    (
        "relative-inline-indices.rr-mesh",
        "rr_mesh.compiled.body.indices.u16_indices[6]",
        Why::Rule(L::REL_INDICES_ABSOLUTE),
    ),
    (
        "selector-class.rr-mesh",
        "rr_mesh.compiled.layout_class",
        Why::Rule(CompiledMesh::REL_SELECTOR_MATCHES_CLASS),
    ),
    (
        "selector.rr-mesh",
        "rr_mesh.compiled.body",
        Why::Reader(ErrorKind::Switch),
    ),
    (
        "skin-short.rr-mesh",
        "rr_mesh.compiled.body.len_skin",
        Why::Rule(R::REL_STREAM_LENGTHS),
    ),
    (
        "split-final-runs.rr-mesh",
        "rr_mesh.compiled.body.len_cpu_vertices",
        Why::Rule(R::REL_FINAL_RUNS_EMPTY_WHEN_SPLIT),
    ),
    (
        "static-format-strides.rr-mesh",
        "rr_mesh.compiled.body.strides",
        Why::Rule(R::REL_STATIC_FORMAT_STRIDES),
    ),
];

/// The relations the topology decoder rests on: when one is broken, the verdict also holds a
/// decoder finding (an error, whatever the relation's severity) at its first violation.
const TOPOLOGY_RESTS_ON: &[&Rule] = &[
    R::REL_FIRST_RANGE_AT_ZERO,
    R::REL_RANGES_PARTITION_BUFFERS,
    R::REL_STREAM_LENGTHS,
    R::REL_INDICES_RELATIVE_TO_VERTEX_BASE,
    L::REL_OBJECTS_TILE_BUFFERS,
    L::REL_STREAM_LENGTHS,
    L::REL_INDICES_ABSOLUTE,
];

fn rule_key(r: &Rule) -> (&'static str, &'static str) {
    (r.owner, r.id)
}

#[test]
fn every_bad_file_breaks_its_rule_at_its_path_alone() {
    let ctx = Context::new();
    let on_disk: BTreeSet<String> = std::fs::read_dir(root().join("corpus/rr/bad"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    let listed: BTreeSet<String> = BAD.iter().map(|b| b.0.to_string()).collect();
    assert_eq!(on_disk, listed, "every bad file is in the table");
    let mut broken = BTreeSet::new();
    for &(name, path, why) in BAD {
        let bytes = bad(name);
        let v = judge(name, &bytes, &ctx);
        match why {
            Why::Reader(kind) => {
                let e = v.refused.as_ref().unwrap_or_else(|| panic!("{name}: read"));
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
            Why::Rule(rule) => {
                assert!(v.refused.is_none(), "{name}: {:?}", v.refused);
                let found = relations(&v);
                assert!(!found.is_empty(), "{name}: breaks nothing");
                assert_eq!(found[0].path_string(), path, "{name}");
                // Broken alone: every relation finding is of the one rule, at its severity.
                for e in &found {
                    assert_eq!(e.rule, Some(rule), "{name}: {e}");
                    assert_eq!(e.severity, rule.severity, "{name}: {e}");
                    assert!(
                        e.offset.is_some_and(|o| o < bytes.len() as u64),
                        "{name}: {e}"
                    );
                }
                // The decoder's own finding, exactly where decoding rests on the rule.
                let decoder: Vec<&Error> = v
                    .findings
                    .iter()
                    .filter(|e| e.kind != ErrorKind::Relation)
                    .collect();
                if TOPOLOGY_RESTS_ON.contains(&rule) {
                    assert_eq!(decoder.len(), 1, "{name}: {decoder:?}");
                    let d = decoder[0];
                    assert_eq!(
                        (d.kind, d.severity, d.rule),
                        (ErrorKind::Unsupported, Severity::Error, Some(rule)),
                        "{name}: {d}"
                    );
                    assert_eq!(
                        (d.offset, d.path_string()),
                        (found[0].offset, found[0].path_string()),
                        "{name}"
                    );
                    assert!(d.expected.contains("to decode the index topology"), "{d}");
                    assert!(!v.passes(), "{name}: decoding cannot go on");
                } else {
                    assert!(decoder.is_empty(), "{name}: {decoder:?}");
                    // An error-severity rule refuses the file; a warning passes with it.
                    assert_eq!(v.passes(), rule.severity == Severity::Warning, "{name}");
                }
                if rule.severity == Severity::Warning {
                    assert!(found.iter().all(|e| e.severity == Severity::Warning));
                    assert!(!judge(name, &bytes, &strict()).passes(), "{name}: --strict");
                }
                broken.insert(rule_key(rule));
            }
        }
    }
    // Every relation the spec states for these layouts has its bad file.
    let stated: BTreeSet<_> = RrMesh::RULES.iter().map(|r| rule_key(r)).collect();
    assert_eq!(broken, stated);
    for part in [CompiledMesh::RULES, MeshData::RULES, MaterialList::RULES] {
        assert!(part.iter().all(|r| stated.contains(&rule_key(r))));
    }
}

#[test]
fn every_relation_is_reported_alike_by_check_build_and_export() {
    let ctx = Context::new();
    let mut n = 0;
    for &(name, _, why) in BAD {
        let Why::Rule(rule) = why else { continue };
        let layout = name.rsplit('.').next().unwrap();
        let entry = find(layout).unwrap();
        let bytes = bad(name);
        let first = |v: &Verdict| -> (Option<&'static str>, Option<u64>, String) {
            let e = v
                .findings
                .iter()
                .find(|e| e.kind == ErrorKind::Relation && e.rule == Some(rule))
                .unwrap_or_else(|| panic!("{name}: {} not reported", rule.id));
            (e.relation_id(), e.offset, e.path_string())
        };
        // check
        let checked = first(&entry.judge(&bytes, &ctx));
        assert_eq!(checked.0, Some(rule.id), "{name}");
        // build: the dump builds the same bytes, with the same finding on them.
        let dump = entry.dump(&bytes, &ctx).unwrap();
        let built = entry.build(&dump, &ctx).unwrap();
        assert_eq!(built.bytes, bytes, "{name}");
        assert_eq!(first(&built.verdict), checked, "{name}: build");
        assert_eq!(built.verdict.passes(), entry.judge(&bytes, &ctx).passes());
        // export refuses with it (a warning-severity relation under --strict).
        let ctx_x = if rule.severity == Severity::Warning {
            strict()
        } else {
            Context::new()
        };
        let e = entry.decode(&bytes, &ctx_x).unwrap_err();
        assert_eq!(
            (e.relation_id(), e.offset, e.path_string()),
            checked,
            "{name}: export: {e}"
        );
        n += 1;
    }
    assert_eq!(
        n,
        BAD.iter().filter(|b| matches!(b.2, Why::Rule(_))).count()
    );
    assert!(n >= RrMesh::RULES.len());
}

#[test]
fn relation_offsets_point_at_the_values_they_name() {
    // For integer fields the found value is the stored one at the reported offset.
    let ctx = Context::new();
    let mut n = 0;
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
        ("descriptor-final-bytes.rr-mesh", 4),
        ("descriptor-vertex-count.rr-mesh", 2),
        ("inline-descriptor-vertex-count.rr-mesh", 2),
        ("inline-declared-counts.rr-mesh", 4),
        ("split-final-runs.rr-mesh", 4),
    ] {
        let bytes = bad(name);
        let v = judge(name, &bytes, &ctx);
        let found = relations(&v);
        assert!(!found.is_empty(), "{name}");
        for e in found {
            let o = e.offset.unwrap() as usize;
            let mut w = [0u8; 8];
            w[..width].copy_from_slice(&bytes[o..o + width]);
            assert_eq!(u64::from_le_bytes(w).to_string(), e.found, "{name}: {e}");
            n += 1;
        }
    }
    assert!(n >= 20, "{n}");
}

#[test]
fn every_recorded_position_holds_the_bytes_the_writer_writes_there() {
    use meshspec_tests::positions_hold_the_bytes as check;
    let ctx = Context::new();
    let mut files = 0;
    let mut fields = 0;
    for dir in ["corpus/rr", "corpus/rr/bad"] {
        for p in meshspec_tests::sorted_paths(&root().join(dir), std::path::Path::is_file) {
            let bytes = std::fs::read(&p).unwrap();
            let name = p.display().to_string();
            if !name.contains(".rr-") {
                continue;
            }
            // Files the reader refuses have no positions to check.
            if judge(&name, &bytes, &ctx).refused.is_some() {
                continue;
            }
            fields += match p.extension().and_then(|x| x.to_str()) {
                Some("rr-mesh") => check::<RrMesh>(&name, &bytes, &ctx, &[]),
                Some("rr-compiled-mesh") => check::<CompiledMesh>(&name, &bytes, &ctx, &[]),
                Some("rr-mesh-data") => check::<MeshData>(&name, &bytes, &ctx, &[]),
                Some("rr-material-list") => check::<MaterialList>(&name, &bytes, &ctx, &[]),
                _ => continue,
            };
            files += 1;
        }
    }
    assert!(files >= 40, "only {files} files");
    assert!(fields >= 5_000, "only {fields} fields in {files} files");
}

fn rebuild(dump: &serde_json::Value) -> meshspec_formats::Result<meshspec_formats::dump::Built> {
    find("rr-mesh").unwrap().build(dump, &Context::new())
}

#[test]
fn dumps_can_be_edited_and_built_again() {
    let ctx = Context::new();
    let entry = find("rr-mesh").unwrap();
    let bytes = corpus("two-ranges-split24.rr-mesh");
    let dump = entry.dump(&bytes, &ctx).unwrap();
    assert_eq!(rebuild(&dump).unwrap().bytes, bytes);

    // A new material for range 1, in its descriptor and both group identities: still valid.
    let mut d = dump.clone();
    let mats = &mut d["data"]["compiled"]["body"]["RangedLayout"]["materials"];
    mats["descriptors"][1]["material"] = 0xDEAD_BEEF_u64.into();
    mats["groups"][1]["object_reference"] = 0xDEAD_BEEF_u64.into();
    mats["groups"][1]["object_handle"] = 0xDEAD_BEEF_u64.into();
    let built = rebuild(&d).unwrap();
    assert_eq!(built.bytes.len(), bytes.len());
    assert!(built.verdict.findings.is_empty(), "{:?}", built.verdict);
    assert!(entry.judge(&built.bytes, &ctx).findings.is_empty());
    let t = rr::topology(&built.bytes, &ctx).unwrap();
    assert_eq!(t.parts[1].material, Some(0xDEAD_BEEF));

    // One bone fewer: the count is recomputed and the compiled mesh moves 81 bytes earlier.
    let mut d = dump.clone();
    d["data"]["bones"].as_array_mut().unwrap().pop();
    d["data"]["num_bones"] = 99.into(); // stale in the dump: recomputed on writing
    let built = rebuild(&d).unwrap();
    let out = &built.bytes;
    assert_eq!(out.len(), bytes.len() - 81);
    assert_eq!(&out[16..20], &1u32.to_le_bytes());
    assert_eq!(&out[61 + 81..61 + 81 + 4], &0xFC9E_1595u32.to_le_bytes());
    assert!(built.verdict.passes() && built.verdict.findings.is_empty());
    assert!(!built.overrides.is_empty(), "the recomputed count is said");

    // A stale descriptor vertex count in a ranged body: built, and reported as a warning only.
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["materials"]["descriptors"][0]["vertex_count"] =
        70.into();
    let built = rebuild(&d).unwrap();
    let v = &built.verdict;
    assert!(v.passes());
    assert_eq!(v.errors().count(), 0);
    let w: Vec<&Error> = v.warnings().collect();
    assert_eq!(w.len(), 1);
    assert_eq!(
        w[0].path_string(),
        "rr_mesh.compiled.body.materials.descriptors[0].vertex_count"
    );
    assert_eq!(w[0].found, "70");
    assert_eq!(w[0].rule, Some(R::REL_DESCRIPTOR_VERTEX_COUNT));

    // An edit that breaks a relation builds (the bytes read back) and its verdict fails at the
    // field's path: the caller writes nothing.
    let mut d = dump.clone();
    d["data"]["compiled"]["body"]["RangedLayout"]["materials"]["groups"][0]["object_handle"] =
        1.into();
    let built = rebuild(&d).unwrap();
    assert!(!built.verdict.passes());
    let e = built.verdict.first_failure().unwrap();
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.materials.groups[0].object_handle"
    );
    assert_eq!(e.rule, Some(MaterialList::REL_GROUP_IDENTITIES));

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
    let built = rebuild(&d).unwrap();
    assert!(built.verdict.passes());
    let t = rr::topology(&built.bytes, &ctx).unwrap();
    assert_eq!(t.parts[1].indices, vec![6, 5, 4]);
}

#[test]
fn geometry_is_refused_with_the_reason() {
    let ctx = Context::new();
    for (layout, name, format_path) in [
        (
            "rr-mesh",
            "two-ranges-split24.rr-mesh",
            "rr_mesh.compiled.body.vertex_format",
        ),
        (
            "rr-mesh",
            "inline-two-objects.rr-mesh",
            "rr_mesh.compiled.body.mesh_data.vertex_format",
        ),
        (
            "rr-compiled-mesh",
            "quad-split12.rr-compiled-mesh",
            "compiled_mesh.body.vertex_format",
        ),
    ] {
        let bytes = corpus(name);
        let entry = find(layout).unwrap();
        assert!(entry.judge(&bytes, &ctx).passes(), "{name}");
        let e = entry.scene(&bytes, &ctx).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{name}: {e}");
        assert!(
            e.found.contains("not their record layouts") && e.found.contains("cannot be decoded"),
            "{name}: {e}"
        );
        // Said at the vertex format, in the user's words (no library paths).
        assert_eq!(e.path_string(), format_path, "{name}");
        let format = bytes[e.offset.unwrap() as usize];
        assert!(e.found.contains(&format!("({format})")), "{name}: {e}");
        assert!(e.found.contains("meshspec check"), "{e}");
        assert!(!e.to_string().contains("::"), "{e}");
    }
    // A body whose relations fail is refused for that first.
    let e = find("rr-mesh")
        .unwrap()
        .scene(&bad("object-gap.rr-mesh"), &ctx)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Relation);
    assert_eq!(e.rule, Some(L::REL_OBJECTS_TILE_BUFFERS));
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.mesh_data.objects[1].vertex_base"
    );
    // And the notes say what is kept raw.
    let v = judge("x.rr-mesh", &corpus("quad-split12.rr-mesh"), &ctx);
    assert!(
        v.notes.iter().any(|n| n.contains("kept as bytes")),
        "{:?}",
        v.notes
    );
}

#[test]
fn topology_in_warn_mode_needs_only_the_relations_it_rests_on() {
    // A warning-severity relation never stops decoding.
    let cpu_flag = bad("cpu-flag.rr-mesh");
    let t = rr::topology(&cpu_flag, &Context::new()).unwrap();
    assert_eq!(t.parts[0].indices, vec![0, 1, 2, 2, 1, 3]);
    // A proven relation decoding does not rest on stops it, unless relations only warn.
    let group = bad("group-identity.rr-mesh");
    let e = rr::topology(&group, &Context::new()).unwrap_err();
    assert_eq!(e.rule, Some(MaterialList::REL_GROUP_IDENTITIES), "{e}");
    let t = rr::topology(&group, &warn_mode()).unwrap();
    assert_eq!(t.parts.len(), 2);
    assert_eq!(t.parts[1].indices, vec![4, 5, 6]);
    // Without the ranges in place there is nothing to decode, whatever the mode: the decoder's
    // finding stays an error where the relation became a warning.
    let range = bad("range-past-vertices.rr-mesh");
    let e = rr::topology(&range, &warn_mode()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert_eq!(e.rule, Some(R::REL_RANGES_PARTITION_BUFFERS));
    assert_eq!(
        e.path_string(),
        "rr_mesh.compiled.body.ranges[1].vertex_base"
    );
    let v = judge("x.rr-mesh", &range, &warn_mode());
    assert!(relations(&v)
        .iter()
        .all(|e| e.severity == Severity::Warning));
    assert!(!v.passes());
}

#[test]
fn an_index_width_the_document_does_not_give_cannot_be_decoded() {
    // inline-two-objects with the MeshData index width selector 2: the reader keeps the index
    // bytes; the verdict says they cannot be decoded, at the selector.
    let mut bytes = corpus("inline-two-objects.rr-mesh");
    let at = 61 + 17; // M + 17: MeshData's first byte, the width selector
    assert_eq!(bytes[at], 0);
    bytes[at] = 2;
    let v = judge("x.rr-mesh", &bytes, &Context::new());
    assert!(v.refused.is_none(), "{:?}", v.refused);
    let e = v.first_failure().unwrap();
    assert_eq!(
        (e.kind, e.offset, e.path_string().as_str()),
        (
            ErrorKind::Unsupported,
            Some(at as u64),
            "rr_mesh.compiled.body.mesh_data.index_width"
        ),
        "{e}"
    );
    assert!(rr::topology(&bytes, &warn_mode()).is_err());
}

#[test]
fn violations_past_a_thousand_are_counted_not_listed() {
    // One range of 4 vertices whose 1,200 triangles all name vertex 7.
    let tris = vec![[7, 7, 7]; 1200];
    let s = spec(
        Form::Ranged,
        VertexFormat::SPLIT12,
        [12, 12, 8],
        vec![part(4, &QUAD, MAT_A)],
    );
    let mut mesh = body(&s).unwrap();
    let CompiledMeshBody::RangedLayout(r) = &mut mesh.compiled.body else {
        panic!("ranged")
    };
    r.indices.u16_indices = Some(tris.iter().flatten().map(|&i| i as u16).collect());
    r.primitive_descs.records[0].num_indices = 3600;
    let bytes = mesh.to_bytes(&Context::new()).unwrap();
    let v = judge("x.rr-mesh", &bytes, &Context::new());
    let found = relations(&v);
    assert!(found
        .iter()
        .all(|e| e.rule == Some(R::REL_INDICES_RELATIVE_TO_VERTEX_BASE)));
    assert_eq!(found.len(), 1001);
    assert_eq!(found[1000].found, "2600 more violations (not listed)");
    assert!(found[999].path_string().ends_with("u16_indices[999]"));
    assert!(found[1000].path_string().ends_with("u16_indices[1000]"));
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
    let bytes = m.to_bytes(&ctx).unwrap();
    let v = judge("x.rr-mesh", &bytes, &ctx);
    assert!(v.passes() && v.findings.is_empty(), "{:?}", v.findings);
    let t = rr::topology(&bytes, &ctx).unwrap();
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
    // A split mesh's final runs are empty (proven): no CPU-side copies in one.
    s.cpu_copies = true;
    let e = body(&s).unwrap_err();
    assert!(e.found.contains("final_runs_empty_when_split"), "{e}");
    s.vertex_format = VertexFormat::STATIC24;
    s.strides = [24, 0, 0];
    s.streams = [py_vertex_bytes(4, 24, 1), vec![], vec![]];
    let m = body(&s).unwrap();
    let CompiledMeshBody::RangedLayout(r) = &m.compiled.body else {
        panic!("ranged")
    };
    assert_eq!(r.cpu_vertices, r.primary);
    assert_eq!(r.materials.trailer.mesh_bools[0], 1);
    assert_eq!(m.num_bones, 2);
}

#[test]
fn mutants_never_panic_and_what_decodes_is_consistent() {
    // Every byte of the small corpus bodies changed two ways: the verdict, the dump and build
    // properties and the decoder hold on each; a topology that decodes names only vertices the
    // streams hold, in every relations mode.
    let mut decoded = 0;
    let mut mutants = 0;
    for name in [
        "quad-split12.rr-mesh",
        "two-ranges-split24.rr-mesh",
        "static16-cpu-copies.rr-mesh",
        "inline-two-objects.rr-mesh",
        "inline-three-objects-u32.rr-mesh",
        "inline-stale-counts.rr-mesh",
    ] {
        let bytes = corpus(name);
        for at in 0..bytes.len() {
            for change in [0xFFu8, 0x01] {
                let mut m = bytes.clone();
                m[at] ^= change;
                meshspec_formats::fuzzing::roundtrip::<RrMesh>(&m);
                mutants += 1;
                for ctx in [Context::new(), warn_mode()] {
                    if let Ok(t) = rr::topology(&m, &ctx) {
                        decoded += 1;
                        for p in &t.parts {
                            assert!(
                                p.first_vertex + p.num_vertices <= t.num_vertices,
                                "{name} at {at}"
                            );
                            let (lo, hi) = (p.first_vertex, p.first_vertex + p.num_vertices);
                            assert!(
                                p.indices.iter().all(|&i| (lo..hi).contains(&i)),
                                "{name} at {at}: {p:?}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(mutants > 7_000, "{mutants}");
    assert!(decoded > 10_000, "{decoded}");
}
