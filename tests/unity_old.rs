//! Unity 3.0 to 3.4: serialized files of format 8 (a 16-byte header, the objects, the metadata
//! at the end with its byte-order byte), UnityWeb of format 2, and Meshes of separate vertex
//! arrays (`m_Use16BitIndices`, `m_Vertices`, `m_Normals`, `m_Tangents`, `m_UV`, `m_UV1`,
//! `m_Colors`).
//!
//! The project's own samples (`corpus/unity/old.unity-serialized`, `old.unity-web`,
//! `big-endian-old.unity-serialized` and `bad/`, written by `make_unity_corpus`): listed,
//! checked, decoded, exported, dumped and built again, and written back with an object
//! replaced.

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_serialized::UnitySerialized;
use meshspec_formats::layouts::find;
use meshspec_formats::rt::{ErrorKind, Root};
use meshspec_formats::scene::Mesh;
use meshspec_formats::unity::files::game::{GameFile, GameFiles, ObjectRef, Select};
use meshspec_formats::unity::files::serialized::{self, Serialized};
use meshspec_formats::unity::files::{Limits, Shared};
use meshspec_tests::{unity_corpus as corpus, unity_corpus_bytes as read, verdict};
use std::path::Path;

fn open(name: &str) -> GameFiles {
    GameFiles::open(&[corpus(name)]).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn one(g: &GameFiles, name: &str) -> ObjectRef {
    let found = g.select(&Select::MeshName(name.into()));
    assert_eq!(found.len(), 1, "{name}");
    found[0]
}

/// The mesh `name` of `g`, decoded into the common model (its verdict passed).
fn decoded(g: &GameFiles, name: &str) -> Mesh {
    let r = one(g, name);
    let input = g.input(r, &Context::new()).unwrap();
    assert!(
        input.judge().passes(),
        "{name}: {:?}",
        input.judge().findings
    );
    let mut scene = input.decode().unwrap().scene;
    assert_eq!(scene.meshes.len(), 1);
    scene.meshes.remove(0)
}

#[test]
fn a_format_8_file_lists_its_meshes_read_with_its_own_version() {
    for name in ["old.unity-serialized", "old.unity-web"] {
        let g = open(name);
        let listed: Vec<(i64, i32, Option<String>)> = g
            .list(None)
            .into_iter()
            .map(|l| (l.path_id, l.class_id, l.name))
            .collect();
        let names = ["Quad34", "Strip34", "Packed34"];
        let want: Vec<(i64, i32, Option<String>)> = (1..=3)
            .map(|k| (k, 43, Some(names[k as usize - 1].to_string())))
            .collect();
        assert_eq!(listed, want, "{name}");
        for r in g.meshes() {
            let s = g.serialized(r);
            assert_eq!((s.version, s.big_endian), (8, false), "{name}");
            assert_eq!(s.unity_version, "3.4.2f3");
            // The objects follow the 16-byte header; the metadata is at the end.
            assert!(s.data_at == 16 && s.metadata_at > s.data_at, "{name}");
            let m = g.mesh(r).unwrap();
            assert_eq!(m.version, Some(30402), "{name}");
            assert!(m.fixed.is_ok(), "{name}: {:?}", m.fixed);
        }
    }
}

#[test]
fn the_separate_arrays_decode_into_the_common_model() {
    let g = open("old.unity-serialized");
    // Quad34: every array, 16-bit indices, a triangle list. Unity's x is mirrored into glTF's
    // frame, and the winding turned with it.
    let quad = decoded(&g, "Quad34");
    assert_eq!(
        quad.positions,
        [
            [0.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [-1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0]
        ]
    );
    assert_eq!(quad.normals, Some(vec![[0.0, 0.0, -1.0]; 4]));
    assert_eq!(quad.tangents.as_ref().map(Vec::len), Some(4));
    assert_eq!(quad.uvs.len(), 2, "m_UV and m_UV1");
    assert_eq!(quad.uvs[1][2], [0.5, 0.5]);
    let Some(meshspec_formats::scene::Colors::Float(colors)) = &quad.colors else {
        panic!("m_Colors as floats: {:?}", quad.colors);
    };
    assert_eq!(colors[0], [1.0, 0.0, 0.0, 1.0]);
    assert!((colors[3][3] - 128.0 / 255.0).abs() < 1e-6);
    assert_eq!(quad.primitives.len(), 1);
    assert_eq!(quad.primitives[0].indices.len(), 6);

    // Strip34: a strip of 32-bit indices, two triangles, skinned by m_Skin.
    let strip = decoded(&g, "Strip34");
    assert_eq!(strip.positions.len(), 4);
    let tris: Vec<[u32; 3]> = strip.primitives[0]
        .indices
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    assert_eq!(tris.len(), 2, "{tris:?}");
    let skin = strip.skin.as_ref().expect("skinned");
    assert_eq!(skin.joints.len(), 4);
    let firsts: Vec<u16> = skin.joints.iter().map(|j| j[0]).collect();
    assert_eq!(firsts, [0, 0, 1, 1]);
    assert!(skin.weights.iter().all(|w| w[0] == 1.0));

    // Packed34: the compressed mesh of 3.4's layout (no m_Colors).
    let packed = decoded(&g, "Packed34");
    assert_eq!(packed.positions.len(), 3);
    assert_eq!(packed.primitives[0].indices.len(), 3);
    assert!(packed.colors.is_none());
}

#[test]
fn the_files_write_back_byte_for_byte_through_dump_and_build() {
    for (name, layout) in [
        ("old.unity-serialized", "unity-serialized"),
        ("big-endian-old.unity-serialized", "unity-serialized"),
        ("old.unity-web", "unity-web"),
    ] {
        let bytes = read(name);
        let entry = find(layout).unwrap();
        let ctx = Context::new();
        assert!(
            verdict(layout, &bytes).findings.is_empty(),
            "{name}: {:?}",
            verdict(layout, &bytes).findings
        );
        let dump = entry.dump(&bytes, &ctx).unwrap();
        let built = entry.build(&dump, &ctx).unwrap();
        assert_eq!(built.bytes, bytes, "{name}");
    }
    // Each Mesh object, through the unity-mesh layout of 3.4.
    let g = open("old.unity-serialized");
    let ctx = Context::new().with_unity_version("3.4.2f3").unwrap();
    let entry = find("unity-mesh").unwrap();
    for r in g.meshes() {
        let bytes = g.bytes(r);
        let dump = entry.dump(bytes, &ctx).unwrap();
        assert_eq!(entry.build(&dump, &ctx).unwrap().bytes, bytes);
    }
}

#[test]
fn big_endian_old_files_take_their_byte_order_from_the_metadata_at_the_end() {
    let g = open("big-endian-old.unity-serialized");
    let objects = g.objects();
    assert_eq!(objects.len(), 8);
    let s = g.serialized(objects[0]);
    assert!(s.big_endian);
    assert_eq!(s.version, 8);
    // Read through the nested type trees, big endian.
    let names: Vec<Option<String>> = objects.iter().take(4).map(|&r| g.name(r)).collect();
    assert_eq!(
        names,
        ["ArmRoot", "Shoulder", "Elbow", "FaceObject"].map(|n| Some(n.to_string()))
    );
    // The byte-order byte is the first of the metadata, at the end of the file.
    let bytes = read("big-endian-old.unity-serialized");
    let len_metadata = u32::from_be_bytes(bytes[0..4].try_into().unwrap()) as usize;
    assert_eq!(bytes[bytes.len() - len_metadata], 1);
}

#[test]
fn replacing_an_object_moves_the_ones_after_and_keeps_the_metadata_at_the_end() {
    let bytes = read("old.unity-serialized");
    let file = Serialized::open(Shared::new(bytes.clone())).unwrap();
    let quad = *file.object(1).unwrap();
    let object = file.bytes(&quad).to_vec();
    // The same object: the same file.
    assert_eq!(serialized::with_object(&bytes, 1, &object).unwrap(), bytes);
    // Four bytes more (padding to the next multiple of 8 follows it): the later objects move
    // by 8, the header's file size follows, and every object reads as before.
    let mut grown = object.clone();
    grown.extend([0; 4]);
    let out = serialized::with_object(&bytes, 1, &grown).unwrap();
    assert_eq!(out.len(), bytes.len() + 8);
    let after = Serialized::open(Shared::new(out.clone())).unwrap();
    assert_eq!(after.bytes(after.object(1).unwrap()), &grown[..]);
    for id in [2, 3] {
        let (a, b) = (file.object(id).unwrap(), after.object(id).unwrap());
        assert_eq!(b.offset, a.offset + 8, "path id {id}");
        assert_eq!(after.bytes(b), file.bytes(a), "path id {id}");
    }
    let s = UnitySerialized::from_bytes(&out, &Context::new()).unwrap();
    assert_eq!(s.header.len_file as usize, out.len());
    assert_eq!(
        s.old_metadata.as_ref().unwrap(),
        UnitySerialized::from_bytes(&bytes, &Context::new())
            .unwrap()
            .old_metadata
            .as_ref()
            .map(|m| {
                let mut m = m.clone();
                m.objects[0].byte_size += 4;
                m.objects[1].byte_start_u4 = m.objects[1].byte_start_u4.map(|v| v + 8);
                m.objects[2].byte_start_u4 = m.objects[2].byte_start_u4.map(|v| v + 8);
                m
            })
            .as_ref()
            .unwrap()
    );
}

#[test]
fn the_bad_samples_are_refused_with_the_reason() {
    // Three normals for four positions: the relation, and decoding refused at its count.
    let g = open("bad/arrays-per-vertex.assets");
    let input = g.input(one(&g, "Quad34"), &Context::new()).unwrap();
    let v = input.judge();
    assert!(!v.passes());
    let e = v.first_failure().unwrap();
    assert_eq!(e.relation_id(), Some("arrays_per_vertex"));
    assert_eq!(e.path_string(), "unity_mesh.num_normals");
    assert!(input.decode().is_err());
    // The other meshes of the file still read.
    for name in ["Strip34", "Packed34"] {
        assert!(decoded(&g, name).positions.len() >= 3, "{name}");
    }

    // A Web Player file whose only serialized file is of format 4: refused by the
    // container's verdict where the directory is (check, and every command that opens it),
    // not listed empty.
    let name = "bad/no-serialized-file.unity-web";
    let bytes = read(name);
    let v = verdict("unity-web", &bytes);
    let e = v.first_failure().expect("refused");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(
        e.to_string(),
        "0x38 unity_web.payload: expected a bundle holding a serialized file of format 5 to 22 (where its objects are) (at 0x4 payload.files of the decompressed payload), found 2 files, none of them one: `Assembly-CSharp.dll`, `mainData`"
    );
    let e = GameFile::from_bytes(
        Path::new(name),
        &bytes,
        &Limits::for_input(bytes.len() as u64),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{name}/(payload, decompressed): 0x4 payload.files: expected a bundle holding a serialized file of format 5 to 22 (where its objects are), found 2 files, none of them one: `Assembly-CSharp.dll`, `mainData`")
    );
}

#[test]
fn a_header_of_format_8_is_a_serialized_file_and_its_sizes_must_hold() {
    let bytes = read("old.unity-serialized");
    assert!(serialized::looks_serialized(&bytes));
    assert_eq!(
        meshspec_formats::unity::files::game::container_layout(&bytes),
        Some(UnitySerialized::ID)
    );
    // A metadata size past the file: the objects' part cannot be cut.
    let mut past = bytes.clone();
    past[0..4].copy_from_slice(&(bytes.len() as u32 + 4).to_be_bytes());
    let e = Serialized::open(Shared::new(past)).unwrap_err();
    assert!(e.to_string().contains("unity_serialized.old_data"), "{e}");
    // A file size that lies: the metadata is not where the header says.
    let mut short = bytes.clone();
    short[4..8].copy_from_slice(&(bytes.len() as u32 - 8).to_be_bytes());
    assert!(Serialized::open(Shared::new(short)).is_err());
    // Format 4 is not read.
    let mut four = bytes.clone();
    four[8..12].copy_from_slice(&4u32.to_be_bytes());
    assert!(!serialized::looks_serialized(&four));
}

#[test]
fn the_mesh_dump_names_the_arrays_in_the_spec_ids() {
    let g = open("old.unity-serialized");
    let input = g.input(one(&g, "Quad34"), &Context::new()).unwrap();
    let dump = input.dump().unwrap();
    let data = &dump["data"];
    assert_eq!(data["use_16bit_indices"], 1);
    assert_eq!(data["num_vertices"], 4);
    assert_eq!(data["num_colors"], 4);
    assert_eq!(data["vertex_data"], serde_json::Value::Null);
    assert_eq!(data["sub_meshes"][0]["is_tri_strip"], 0);
    // Quad34's bytes as the generated writer writes a value read from them.
    let bytes = g.bytes(one(&g, "Quad34"));
    let ctx = Context::new().with_unity_version("3.4.2f3").unwrap();
    let m = meshspec_formats::generated::unity_mesh::UnityMesh::from_bytes(bytes, &ctx).unwrap();
    assert_eq!(m.to_bytes(&ctx).unwrap(), bytes);
}
