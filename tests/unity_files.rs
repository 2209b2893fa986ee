//! Unity game files (bundles, serialized files, resource files) straight from disk.
//!
//! The files meshspec writes itself (`corpus/unity/`, see its README) cover every construct and
//! every must-refuse case, and need nothing outside the repository. The real files Unity built
//! (`../shared/corpus/unity/`: five bundles, a player's level and its `.resS`) are read whenever
//! they are there: every object is listed as Unity's own dumps and UnityPy list it, read through
//! its type tree, and every Mesh extracts to UnityPy's bytes, streams UnityPy's slice and exports
//! to a .glb that glTF-Validator accepts, with the bone names Unity's dumps give.

use meshspec_formats::context::Context;
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::generated::unity_bundle::{BlocksInfo, UnityBundle};
use meshspec_formats::generated::unity_serialized::UnitySerialized;
use meshspec_formats::reading::TypedReading;
use meshspec_formats::rt::{ErrorKind, Root, Severity};
use meshspec_formats::unity::files::bundle::Bundle;
use meshspec_formats::unity::files::game::{self, GameFile, GameFiles, Select};
use meshspec_formats::unity::files::serialized::Serialized;
use meshspec_formats::unity::files::{mesh, Limits, Shared};
use meshspec_formats::verdict::Verdict;
use meshspec_tests::tools::scratch;
use meshspec_tests::{
    root, sha256_hex, unity_corpus as corpus, unity_corpus_bytes as read, validate_gltf, verdict,
};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The generated reader's owned value of `bytes`.
fn owned<T: Root>(bytes: &[u8]) -> T {
    T::from_bytes(bytes, &Context::new()).unwrap()
}

/// The generated writer's bytes of `v`.
fn written<T: Root>(v: &T) -> Vec<u8> {
    v.to_bytes(&Context::new()).unwrap()
}

/// The one verdict of layout `id` on `bytes`.
/// Whether a verdict says nothing at all: read, and every rule and check holds.
fn clean(v: &Verdict) -> bool {
    v.refused.is_none() && v.findings.is_empty()
}

fn open(names: &[&str]) -> GameFiles {
    let paths: Vec<PathBuf> = names.iter().map(|n| corpus(n)).collect();
    GameFiles::open(&paths).unwrap_or_else(|e| panic!("{names:?}: {e}"))
}

/// The scene of the synthesized files: (path id, class id, name).
const SCENE: &[(i64, i32, &str)] = &[
    (1, 1, "ArmRoot"),
    (2, 1, "Shoulder"),
    (3, 1, "Elbow"),
    (4, 1, "FaceObject"),
    (11, 4, ""),
    (12, 4, ""),
    (13, 4, ""),
    (14, 4, ""),
    (20, 21, "ArmSkin"),
    (21, 21, "FacePaint"),
    (30, 137, ""),
    (31, 33, ""),
    (32, 23, ""),
    (100, 43, "Blade"),
    (101, 43, "Arm"),
    (102, 43, "Face"),
    (103, 43, "Rock"),
    (104, 43, "Wire"),
];

#[test]
fn synthesized_files_list_their_objects() {
    for file in [
        "game.unity-serialized",
        "stored.unity-bundle",
        "lz4.unity-bundle",
        "lzma.unity-bundle",
    ] {
        let g = open(&[file]);
        let listed: Vec<(i64, i32, String)> = g
            .list(None)
            .into_iter()
            .map(|l| (l.path_id, l.class_id, l.name.unwrap_or_default()))
            .collect();
        let want: Vec<(i64, i32, String)> = SCENE
            .iter()
            .map(|&(p, c, n)| (p, c, n.to_string()))
            .collect();
        assert_eq!(listed, want, "{file}");
        let meshes = g.list(Some("Mesh"));
        assert_eq!(meshes.len(), 5, "{file}");
        assert!(meshes.iter().all(|m| m.class == "Mesh"));
    }
    // Without type trees only the meshes have names (their layout starts with m_Name), and
    // classes come from the class ids.
    let g = open(&["notree.unity-serialized"]);
    let names: Vec<(i64, String, Option<String>)> = g
        .list(None)
        .into_iter()
        .map(|l| (l.path_id, l.class, l.name))
        .filter(|l| l.0 <= 2 || l.0 >= 103)
        .collect();
    assert_eq!(
        names,
        vec![
            (1, "GameObject".into(), None),
            (2, "GameObject".into(), None),
            (103, "Mesh".into(), Some("Rock".into())),
            (104, "Mesh".into(), Some("Wire".into())),
        ]
    );
}

#[test]
fn the_three_bundles_hold_the_same_files_whatever_their_compression() {
    let mut seen: Option<Vec<(String, Vec<u8>)>> = None;
    for (file, format, blocks, at_end) in [
        ("stored.unity-bundle", 6, 1, true),
        ("lz4.unity-bundle", 7, 9, false),
        ("lzma.unity-bundle", 8, 1, false),
    ] {
        let bytes = read(file);
        let b = Bundle::open(&bytes, &Limits::for_input(bytes.len() as u64)).unwrap();
        let fs = b.fs().expect("a UnityFS bundle");
        assert_eq!(fs.header.version, format, "{file}");
        assert_eq!(fs.blocks_info.blocks.len(), blocks, "{file}");
        assert_eq!(fs.header.blocks_info_at_end(), at_end, "{file}");
        // Written back byte for byte by the spec's writer.
        assert_eq!(written(&owned::<UnityBundle>(&bytes)), bytes, "{file}");
        assert!(clean(&verdict("unity-bundle", &bytes)), "{file}");
        // Stored blocks are not copied: the files are the opened bytes themselves.
        let shared = Shared::new(bytes.clone());
        let again = Bundle::open(&shared, &Limits::for_input(bytes.len() as u64)).unwrap();
        let inside = shared
            .as_ptr_range()
            .contains(&again.node_bytes(0).unwrap().as_ptr());
        assert_eq!(inside, file.starts_with("stored"), "{file}");
        // LZ4 blocks are all checked when the bundle opens, and only the serialized file is
        // kept: the resource file is decompressed when it is asked for, a range on its own.
        let total: u64 = b.nodes().map(|n| n.len).sum();
        let lz4 = file.starts_with("lz4");
        let opened = if lz4 {
            b.nodes().next().unwrap().len
        } else {
            total
        };
        assert_eq!(opened < total, lz4, "{file}");
        assert_eq!(b.resident(), opened, "{file}");
        let held = b.node_held(1);
        let some = held.range(10..20).unwrap().to_vec();
        assert_eq!(b.resident(), opened, "{file}");
        let nodes: Vec<(String, Vec<u8>)> = b
            .nodes()
            .map(|n| (n.path.to_string(), b.node_bytes(n.index).unwrap().to_vec()))
            .collect();
        assert_eq!(some, nodes[1].1[10..20], "{file}");
        assert_eq!(b.resident(), total, "{file}");
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].0, "CAB-0123456789abcdef0123456789abcdef");
        assert_eq!(nodes[1].0, "CAB-0123456789abcdef0123456789abcdef.resS");
        if let Some(prev) = &seen {
            assert_eq!(prev, &nodes, "{file} differs from stored.unity-bundle");
        }
        seen = Some(nodes);
    }
    // The padding flags: format 7 and 8 headers end on 16 bytes, 0x200 pads the blocks too.
    let b: UnityBundle = owned(&read("lzma.unity-bundle"));
    assert_eq!(b.header.flags & 0x3F, 2, "LZ4 blocks info");
    assert!(b.pad_header.is_some() && b.pad_blocks_info.is_some());
    assert_eq!(b.header.flags & 0x200, 0x200);
}

fn mesh_of(g: &GameFiles, name: &str) -> game::GameMesh {
    let found = g.select(&Select::MeshName(name.into()));
    assert_eq!(found.len(), 1, "{name}");
    g.mesh(found[0]).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn synthesized_meshes_decode_with_their_renderers_names_and_export_valid_gltf() {
    let mut glbs = vec![];
    for file in [
        "game.unity-serialized",
        "notree.unity-serialized",
        "stored.unity-bundle",
        "lz4.unity-bundle",
        "lzma.unity-bundle",
    ] {
        let g = open(&[file]);
        let trees = file != "notree.unity-serialized";
        for r in g.meshes() {
            let m = g.mesh(r).unwrap();
            assert_eq!(m.typed, trees, "{file}");
            // The fixed layout of the file's version reads each mesh exactly, and agrees
            // with the type tree field for field.
            m.fixed.as_ref().unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(m.version, Some(20220310));
            let v = g.input(m.at, &Context::new()).unwrap().judge();
            assert!(clean(&v), "{file}: {v:?}");
            let scene = g
                .input(r, &Context::new())
                .and_then(|i| i.decode())
                .unwrap_or_else(|e| panic!("{file}: {e}"))
                .scene;
            let mesh = &scene.meshes[0];
            mesh.validate().unwrap();
            assert_eq!(mesh.name, m.name);
            let out = glb(scene.clone(), NonFinite::Refuse).unwrap();
            let p = scratch(&format!("{file}.{}.glb", mesh.name));
            std::fs::write(&p, &out.bytes).unwrap();
            glbs.push(p);
        }
        let scene = |n: &str| meshspec_tests::unity_scene(&g, mesh_of(&g, n).at);
        let arm = scene("Arm");
        let skin = arm.meshes[0].skin.as_ref().expect("Arm is skinned");
        let materials = |s: &meshspec_formats::scene::Scene| {
            s.meshes[0]
                .materials
                .iter()
                .map(|m| m.name.clone())
                .collect::<Vec<_>>()
        };
        if trees {
            // m_Bones -> Transform -> GameObject names; the renderer's material.
            assert_eq!(skin.joint_names, ["Shoulder", "Elbow"], "{file}");
            assert_eq!(materials(&arm), ["ArmSkin"], "{file}");
            assert_eq!(materials(&scene("Face")), ["FacePaint"], "{file}");
        } else {
            // No renderer can be read: `bone i` with the bone's name hash.
            assert_eq!(
                skin.joint_names,
                [
                    format!("bone 0 (name hash 0x{:08X})", crc32(b"Shoulder")),
                    format!("bone 1 (name hash 0x{:08X})", crc32(b"Shoulder/Elbow"))
                ],
                "{file}"
            );
            assert_eq!(materials(&arm), ["submesh 0"]);
        }
        // The vertex at the top of the arm follows bone 1 entirely.
        assert_eq!(skin.joints[5][..2], [0, 1]);
        assert_eq!(skin.weights[5][..2], [0.0, 1.0]);
        // Blend shapes: two morph targets, Blink's last frame.
        let face = scene("Face");
        let targets: Vec<&str> = face.meshes[0]
            .morph_targets
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(targets, ["Smile", "Blink"]);
        assert_eq!(
            face.meshes[0].morph_targets[1].positions[1],
            [0.0, 0.4, 0.0]
        );
        // The compressed mesh: three vertices from 16-bit packed positions.
        let rock = scene("Rock");
        let p = &rock.meshes[0].positions;
        assert_eq!(p.len(), 3);
        assert!((p[1][0] + 1.0).abs() < 1e-4, "x mirrored: {p:?}");
        // 32-bit indices, lines from base vertex 2.
        let wire = scene("Wire");
        assert_eq!(wire.meshes[0].primitives.len(), 2);
        assert_eq!(wire.meshes[0].primitives[1].indices, [2, 3, 3, 4]);
        // Streamed: Blade's vertices come from the resource file (in the bundle, or beside).
        let blade = mesh_of(&g, "Blade");
        assert_eq!(blade.stream().unwrap().size, 128);
        assert_eq!(g.streamed(&blade, None).unwrap().unwrap().len(), 128);
        assert_eq!(scene("Blade").meshes[0].positions[2], [-1.0, 2.0, 0.0]);
    }
    assert_eq!(glbs.len(), 25);
    validate_gltf(&glbs);
}

fn crc32(b: &[u8]) -> u32 {
    // The bone name hashes are CRC-32s (seed 002); the corpus maker uses crc32fast too, so
    // this only pins the value the test expects to see printed.
    let mut c = 0xFFFF_FFFFu32;
    for &x in b {
        c ^= u32::from(x);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn a_fixed_layout_that_disagrees_with_the_type_tree_names_the_first_field() {
    let g = open(&["game.unity-serialized"]);
    let r = g.select(&Select::MeshName("Arm".into()))[0];
    let s = g.serialized(r);
    let o = &s.objects[r.object];
    let value = s.read(o).unwrap();
    let trees = s.trees_of(o).unwrap();
    // 2021.3's layout has no m_CookingOptions: it reads the bytes differently from 2022.1 on.
    let read = |v| TypedReading::new(s.bytes(o), &mesh::context(v));
    let e =
        mesh::check_fixed_layout(&read(20210300), 20210300, &value, &trees, o.offset).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x3A38 unity_mesh.baked_convex_collision_mesh: expected `m_CookingOptions` (int, 4 bytes) \
         after `m_MeshUsageFlags` as the object's type tree has it, found \
         `m_BakedConvexCollisionMesh` (aligned_bytes) in the layout of 2021.3.0"
    );
    assert_eq!(e.kind, ErrorKind::Inconsistent);
    // The right layout agrees.
    mesh::check_fixed_layout(&read(20220100), 20220100, &value, &trees, o.offset).unwrap();
    // For a bare object, the layouts that read it exactly are named.
    let fits = game::layouts_that_read(s.bytes(o), false);
    assert_eq!(fits, ["2022.1 to 6000.1 (--unity-version 2022.1.0)"]);
}

#[test]
fn big_endian_files_with_nested_type_trees_read() {
    let g = open(&["big-endian.unity-serialized"]);
    let s = g.serialized(g.objects()[0]);
    assert!(s.big_endian);
    assert_eq!(s.version, 11);
    assert!(s.nested_trees);
    let names: Vec<Option<String>> = g.objects().into_iter().map(|r| g.name(r)).collect();
    assert_eq!(
        names[..4],
        [
            Some("ArmRoot".to_string()),
            Some("Shoulder".into()),
            Some("Elbow".into()),
            Some("FaceObject".into())
        ]
    );
    // Every object reads through its tree, in big-endian order: the Transform of Elbow has
    // Shoulder's Transform as its father.
    for r in g.objects() {
        let o = g.entry(r);
        let v = s.read(o).unwrap();
        if o.path_id == 13 {
            let t = s.trees_of(o).unwrap();
            let father = v.field(&t, "m_Father").unwrap();
            assert_eq!(father.field(&t, "m_PathID").unwrap().int(), Some(12));
        }
    }
    let bytes = read("big-endian.unity-serialized");
    assert_eq!(written(&owned::<UnitySerialized>(&bytes)), bytes);
    assert!(clean(&verdict("unity-serialized", &bytes)));
}

/// `Bundle::open` of these bytes: the error's text.
fn bundle_error(bytes: &[u8], limits: Limits) -> String {
    Bundle::open(bytes, &limits).unwrap_err().to_string()
}

#[test]
fn bad_bundles_are_refused_with_offset_and_field() {
    let l = |b: &[u8]| Limits::for_input(b.len() as u64);
    let sig = read("bad/signature.unity-bundle");
    assert_eq!(
        bundle_error(&sig, l(&sig)),
        "0x0 unity_bundle.header.signature: expected 55 6E 69 74 79 46 53 00, found 75 6E 69 74 79 46 53 00"
    );
    let short = read("bad/truncated-blocks-info.unity-bundle");
    let e = bundle_error(&short, l(&short));
    assert!(
        e.starts_with("0x40 unity_bundle.blocks_info: expected bytes ("),
        "{e}"
    );
    assert!(e.ends_with("found end of input after 4 bytes"), "{e}");
    let lz4 = read("bad/corrupt-lz4.unity-bundle");
    let e = bundle_error(&lz4, l(&lz4));
    assert!(
        e.starts_with("0x")
            && e.contains(" unity_bundle.blocks[0]: expected an LZ4 block that decompresses to 2048 bytes, found "),
        "{e}"
    );
    let xz = read("bad/corrupt-lzma.unity-bundle");
    let e = bundle_error(&xz, l(&xz));
    assert!(
        e.contains("unity_bundle.blocks[0]: expected LZMA data that decompresses to"),
        "{e}"
    );
    // The same refusals through the verdict: the relation the spec states (observed, so a
    // warning) and what reading the bundle's files needs (an error), at the same place.
    let v = verdict("unity-bundle", &lz4);
    assert!(v.refused.is_none() && !v.passes());
    let warnings: Vec<_> = v.warnings().collect();
    let errors: Vec<_> = v.errors().collect();
    assert_eq!((warnings.len(), errors.len()), (1, 1), "{v:?}");
    assert_eq!(warnings[0].relation_id(), Some("blocks_decompress"));
    assert_eq!(errors[0].kind, ErrorKind::Unsupported);
    assert_eq!(errors[0].offset, warnings[0].offset);
    assert_eq!(errors[0].path_string(), "unity_bundle.blocks[0]");
    assert!(verdict("unity-bundle", &sig).refused.is_some());
    let v = verdict("unity-bundle", &xz);
    assert_eq!(v.errors().count(), 1, "{v:?}");
    assert!(v
        .errors()
        .next()
        .unwrap()
        .to_string()
        .contains("unity_bundle.blocks[0]: expected LZMA data"));
}

/// The LZ4 bundle, with its decompressed blocks info replaced by `edit`'s result (compressed
/// again, stored) and the header's sizes set to match.
fn with_blocks_info(
    edit: impl Fn(&mut meshspec_formats::generated::unity_bundle::BlocksInfo),
) -> Vec<u8> {
    let bytes = read("lz4.unity-bundle");
    let b = Bundle::open(&bytes, &Limits::default()).unwrap();
    let mut info: BlocksInfo = b.fs().unwrap().blocks_info.clone();
    edit(&mut info);
    let raw = written(&info);
    let mut file: UnityBundle = owned(&bytes);
    file.header.flags &= !0x3F; // stored
    file.header.len_blocks_info = raw.len() as u32;
    file.header.len_blocks_info_compressed = raw.len() as u32;
    file.blocks_info = Some(raw);
    written(&file)
}

#[test]
fn the_first_bad_lz4_block_is_the_one_said_though_all_decompress_at_once() {
    let bytes = read("lz4.unity-bundle");
    let b = Bundle::open(&bytes, &Limits::default()).unwrap();
    let offsets = b.fs().unwrap().block_offsets.clone();
    assert_eq!(offsets.len(), 9);
    // Blocks 5 and 7 overwritten with bytes no LZ4 reader takes: block 5 is refused, at its
    // offset, whichever core reached it first.
    let mut bad = bytes.clone();
    for k in [5, 7] {
        let (at, next) = (offsets[k].0 as usize, offsets[k + 1].0 as usize);
        bad[at..next].fill(0xFF);
    }
    let e = bundle_error(&bad, Limits::default());
    assert!(
        e.starts_with(&format!(
            "0x{:X} unity_bundle.blocks[5]: expected an LZ4 block that decompresses to",
            offsets[5].0
        )),
        "{e}"
    );
    // A later block's size past what its bytes can expand to: refused before the data is
    // allocated, at that block.
    let lz = with_blocks_info(|i| i.blocks[6].len_uncompressed = 1 << 22);
    let e = bundle_error(&lz, Limits::default());
    assert!(
        e.contains("unity_bundle.blocks[6]: expected at most") && e.contains("LZ4 bytes can hold"),
        "{e}"
    );
}

#[test]
fn sizes_that_lie_are_refused_before_anything_is_allocated() {
    // A block that claims 3 GB: past the limit the input's size allows, refused at once.
    let huge = with_blocks_info(|i| i.blocks[0].len_uncompressed = 3 << 30);
    let e = bundle_error(&huge, Limits::for_input(huge.len() as u64));
    assert!(
        e.starts_with("(blocks info, decompressed): 0x14 blocks_info.blocks: expected at most 67108864 decompressed bytes (the reader's limit), found "),
        "{e}"
    );
    // More compressed bytes than the file holds.
    let long = with_blocks_info(|i| i.blocks[8].len_compressed += 100_000);
    let e = bundle_error(&long, Limits::default());
    assert!(e.contains("expected storage blocks that fit the"), "{e}");
    // An LZ4 block that claims more than LZ4 can expand its bytes to.
    let lz = with_blocks_info(|i| i.blocks[0].len_uncompressed = 1 << 22);
    let e = bundle_error(&lz, Limits::default());
    assert!(
        e.contains("the most") && e.contains("LZ4 bytes can hold"),
        "{e}"
    );
    // A file range past the data.
    let node = with_blocks_info(|i| i.nodes[1].len_data = 1 << 40);
    let e = bundle_error(&node, Limits::default());
    assert!(
        e.contains("(blocks info, decompressed): 0xAB blocks_info.nodes[1].ofs_data: expected a range inside the 16828 bytes the blocks decompress to"),
        "{e}"
    );
    // A blocks info size that lies: decompressed (stored) bytes of another size.
    let mut f: UnityBundle = owned(&read("lz4.unity-bundle"));
    f.header.len_blocks_info += 7;
    let bytes = written(&f);
    let e = bundle_error(&bytes, Limits::default());
    assert!(
        e.starts_with("0x40 unity_bundle.blocks_info: expected an LZ4 block that decompresses to"),
        "{e}"
    );
    // The header's size of the file: a warning only (AssetRipper has seen it differ).
    let mut f: UnityBundle = owned(&read("lzma.unity-bundle"));
    f.header.len_file += 1;
    let bytes = written(&f);
    let v = verdict("unity-bundle", &bytes);
    assert!(v.passes());
    let warnings: Vec<_> = v.warnings().collect();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .to_string()
            .ends_with("(relation `len_file_is_file_size`), found 2706"),
        "{}",
        warnings[0]
    );
    // The bundle opens, and keeps the warning.
    let b = Bundle::open(&bytes, &Limits::default()).unwrap();
    assert_eq!(b.warnings.len(), 1);
}

/// The findings of `unity-serialized`'s verdict on `bytes`, as lines: warnings (each relation
/// the spec states is observed or sourced) and errors (what reading the objects needs).
fn serialized_findings(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
    let v = verdict("unity-serialized", bytes);
    assert!(v.refused.is_none(), "{v:?}");
    let lines = |s: Severity| {
        v.findings
            .iter()
            .filter(|f| f.severity == s)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    };
    (lines(Severity::Warning), lines(Severity::Error))
}

#[test]
fn serialized_files_that_break_their_relations_say_where() {
    let (warnings, errors) = serialized_findings(&read("bad/object-outside-data.unity-serialized"));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains(
            "unity_serialized.metadata.objects[17].byte_size: expected a range inside the"
        ) && warnings[0].contains("(relation `objects_inside_data`)"),
        "{warnings:?}"
    );
    // Reading the object needs its range: an error at the same place.
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(
            "unity_serialized.metadata.objects[17].byte_size: expected a range inside the"
        ) && errors[0].contains(", to read the object, found byte_start"),
        "{errors:?}"
    );
    let (warnings, errors) = serialized_findings(&read("bad/string-offset.unity-serialized"));
    assert!(
        warnings[0].contains("unity_serialized.metadata.types[0].type_tree.nodes[")
            && warnings[0]
                .contains("(relation `type_tree_names_resolve`), found offset 2147418112"),
        "{warnings:?}"
    );
    assert!(
        errors[0].contains("unity_serialized.metadata.types[0].type_tree.nodes: expected type and field names that resolve, to read objects of this type, found 1 name that does not (the relation above)"),
        "{errors:?}"
    );
    // Opening the file refuses it the same way, naming the file.
    let e = GameFiles::open(&[corpus("bad/string-offset.unity-serialized")]).unwrap_err();
    assert!(
        e.to_string().contains("string-offset.unity-serialized: 0x"),
        "{e}"
    );

    // A common-string offset no common string has, and a type tree whose levels jump.
    let bytes = read("game.unity-serialized");
    let open = |s: &UnitySerialized| Serialized::open(Shared::new(written(s)));
    let mut s: UnitySerialized = owned(&bytes);
    s.metadata.as_mut().unwrap().types[2]
        .type_tree
        .as_mut()
        .unwrap()
        .nodes[1]
        .ofs_type
        .0 = 0x8000_0FFF;
    let (warnings, _) = serialized_findings(&written(&s));
    assert!(
        warnings[0].contains("types[2].type_tree.nodes[1].ofs_type: expected an offset of one of Unity's common strings (top bit set) (relation `type_tree_names_resolve`), found 0x80000FFF"),
        "{warnings:?}"
    );
    assert!(open(&s).is_err());
    let mut s: UnitySerialized = owned(&bytes);
    s.metadata.as_mut().unwrap().types[0]
        .type_tree
        .as_mut()
        .unwrap()
        .nodes[2]
        .level = 5;
    let e = open(&s).unwrap_err();
    assert!(
        e.to_string().contains("types[0].type_tree.nodes[2].level: expected 1 to 2 (one root, each node at most one deeper than the one before), found 5"),
        "{e}"
    );
    // A type id past the types: the relation (sourced, a warning), and the object cannot be
    // read without its type (an error).
    let mut s: UnitySerialized = owned(&bytes);
    s.metadata.as_mut().unwrap().objects[0].type_id = 99;
    let (warnings, errors) = serialized_findings(&written(&s));
    assert!(
        warnings[0].contains("(relation `type_ids_name_types`), found 99"),
        "{warnings:?}"
    );
    assert!(
        errors[0].contains(
            "objects[0].type_id: expected an index into the 7 types, to read the object, found 99"
        ),
        "{errors:?}"
    );
    assert!(open(&s).is_err());
    // A file size that lies: a warning only (reading needs the data, not the stated size);
    // the file opens and keeps it.
    let mut s: UnitySerialized = owned(&bytes);
    s.header.wide.as_mut().unwrap().len_file += 1;
    let (warnings, errors) = serialized_findings(&written(&s));
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        warnings[0].contains("unity_serialized.header.wide.len_file: expected the file's size")
            && warnings[0].contains("(relation `len_file_is_file_size`)"),
        "{warnings:?}"
    );
    assert_eq!(open(&s).unwrap().warnings.len(), 1);
}

#[test]
fn version_strings_that_are_not_versions_are_read_with_the_layout_that_fits_or_refused_at_the_field(
) {
    let bytes = read("notree.unity-serialized");
    let mut s: UnitySerialized = owned(&bytes);
    s.metadata.as_mut().unwrap().unity_version = Some("not a version!\u{7}".into());
    // The metadata follows the longer text (4 bytes longer, so that the object table keeps
    // its alignment); the data moves 16 bytes on.
    let w = s.header.wide.as_mut().unwrap();
    w.len_metadata += 4;
    w.ofs_data += 16;
    w.len_file += 16;
    s.pad_data.as_mut().unwrap().extend([0; 12]);
    let bytes = written(&s);
    let path = scratch("not-a-version.unity-serialized");
    std::fs::write(&path, &bytes).unwrap();
    // The meshes are read with the one layout that reads all of them, and the note says so
    // with the text escaped.
    let g = GameFiles::open(std::slice::from_ref(&path)).unwrap();
    let r = g.meshes()[0];
    let v = g.version(r).unwrap();
    assert_eq!(v.number, 20220100);
    assert_eq!(
        v.note().unwrap(),
        "the file's version string is not a version!\\u{7}; its 5 meshes read exactly with the layout of 2022.1 to 6000.1 (read as 2022.1.0)"
    );
    // When a mesh reads with no layout, the version is refused at its field, with what was
    // tried.
    let rock = g.select(&Select::MeshName("Rock".into()))[0];
    let mut longer = g.bytes(rock).to_vec();
    longer.extend([0; 8]);
    let broken =
        meshspec_formats::unity::files::serialized::with_object(&bytes, 103, &longer).unwrap();
    std::fs::write(&path, &broken).unwrap();
    let g = GameFiles::open(std::slice::from_ref(&path)).unwrap();
    let e = g.mesh(g.meshes()[0]).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!(
            "{}: 0x30 unity_serialized.metadata.unity_version: expected a Unity version such as 2021.3.0f1, or one Mesh layout that reads every Mesh of the file exactly (--unity-version gives the version), found `not a version!\\u{{7}}`: no Mesh layout reads all its 5 meshes exactly: 3.0 to 3.4 (path id 100: 0x",
            path.display()
        )),
        "{e}"
    );
    assert!(e.contains(", 2022.1 to 6000.1 (path id 103: 0x"), "{e}");
    // With the version given, it is read with that one.
    let mut g = GameFiles::open(std::slice::from_ref(&path)).unwrap();
    g.unity_version = Some(20220310);
    assert_eq!(g.mesh(g.meshes()[0]).unwrap().version, Some(20220310));
}

#[test]
fn counts_inside_objects_are_bounded_by_the_bytes_left() {
    // The Face mesh's m_SubMeshes count set to 2^31 - 1: refused before any element.
    let g = open(&["game.unity-serialized"]);
    let r = g.select(&Select::MeshName("Face".into()))[0];
    let s = g.serialized(r);
    let o = *g.entry(r);
    let mut bytes = s.bytes(&o).to_vec();
    let at = 4 + 4 + 4; // m_Name "Face": length, 4 bytes; then the count
    bytes[at - 4..at].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let trees = s.trees_of(&o).unwrap();
    let e = meshspec_formats::unity::files::typetree::read(&bytes, false, trees, 0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(e.offset, Some(8));
    assert_eq!(e.path_string(), "Mesh.m_SubMeshes");
    assert!(e.found.contains("2147483647 elements"), "{e}");
}

#[test]
fn every_prefix_of_the_small_files_is_refused_without_panicking() {
    for name in ["lzma.unity-bundle", "big-endian.unity-serialized"] {
        let bytes = read(name);
        for n in 0..bytes.len() {
            let cut = &bytes[..n];
            let r = GameFile::from_bytes(Path::new(name), cut, &Limits::for_input(n as u64));
            let e = r.expect_err("a prefix is not a whole file");
            assert!(
                e.error.offset.is_none_or(|o| o <= n as u64) || !e.place.is_empty(),
                "{name} cut at {n}: {e}"
            );
        }
    }
}

#[test]
fn a_bundles_serialized_file_and_resource_are_found_by_name() {
    let g = open(&["lz4.unity-bundle"]);
    let blade = mesh_of(&g, "Blade");
    let range = blade.stream().unwrap();
    assert_eq!(
        range.path,
        "archive:/CAB-0123456789abcdef0123456789abcdef/CAB-0123456789abcdef0123456789abcdef.resS"
    );
    let bytes = g.streamed(&blade, None).unwrap().unwrap();
    // The first vertex: (0, 0, 0), normal (0, 0, -1), UV (0, 0).
    assert_eq!(bytes[20..24], (-1.0f32).to_le_bytes());
    // A range past the resource file is refused with both numbers.
    let mut broken = range.clone();
    broken.offset = 100;
    let e = meshspec_formats::unity::files::resource::bytes(&g, 0, &broken, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("offset 100 + size 128 = 228, past its end"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// The real files of ../shared/corpus/unity, when they are there.

/// The shared Unity corpus, or one loud line on the terminal (not captured by the test
/// harness) saying what was not checked.
fn shared_unity(what: &str) -> Option<PathBuf> {
    let p = root().join("../shared/corpus/unity");
    if p.join("bundles").is_dir() {
        return Some(p);
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {what}: {} is missing, so the real Unity files were NOT checked",
        p.display()
    );
    None
}

const VERSIONS: [&str; 5] = [
    "2019.4.0f1",
    "2020.3.0f1",
    "2021.3.0f1",
    "2022.1.20f1",
    "2023.1.0a16",
];

/// Objects of a Unity text dump: per path id, its class id and its lines.
fn dump_objects(text: &str) -> BTreeMap<i64, (i32, Vec<&str>)> {
    let mut out = BTreeMap::new();
    let mut current: Option<(i64, i32, Vec<&str>)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("ID: ") {
            if let Some((id, c, l)) = current.take() {
                out.insert(id, (c, l));
            }
            let id: i64 = rest.split_whitespace().next().unwrap().parse().unwrap();
            let class: i32 = rest
                .split("(ClassID: ")
                .nth(1)
                .unwrap()
                .split(')')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            current = Some((id, class, vec![]));
        } else if let Some((_, _, l)) = current.as_mut() {
            l.push(line);
        }
    }
    if let Some((id, c, l)) = current {
        out.insert(id, (c, l));
    }
    out
}

/// The path ids of the `m_PathID` lines under the top-level field `field` of a dumped object.
fn dump_pptrs(lines: &[&str], field: &str) -> Vec<i64> {
    let mut out = vec![];
    let mut inside = false;
    for l in lines {
        let top = l.starts_with("  ") && !l.starts_with("   ");
        if top {
            inside = l.trim_start().starts_with(&format!("{field} ("));
            continue;
        }
        if inside {
            if let Some(v) = l.trim().strip_prefix("m_PathID (SInt64) ") {
                out.push(v.parse().unwrap());
            }
        }
    }
    out
}

fn dump_name<'a>(lines: &[&'a str]) -> Option<&'a str> {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("  m_Name (string) "))
}

#[test]
fn shared_every_object_is_listed_as_unity_and_unitypy_list_it() {
    let Some(dir) = shared_unity("listing the real files against Unity's dumps and UnityPy") else {
        return;
    };
    let unitypy: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/data/unitypy-objects.json")).unwrap(),
    )
    .unwrap();
    let mut files: Vec<String> = VERSIONS
        .iter()
        .map(|v| format!("bundles/{v}/assetbundle"))
        .collect();
    files.push("player/2022.1.20f1/level0".into());
    for rel in &files {
        let g = GameFiles::open(&[dir.join(rel)]).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let ours: BTreeSet<(i64, i64, u64, Option<String>)> = g
            .list(None)
            .into_iter()
            .map(|l| {
                (
                    l.path_id,
                    i64::from(l.class_id),
                    u64::from(l.byte_size),
                    l.name,
                )
            })
            .collect();
        let theirs: BTreeSet<(i64, i64, u64, Option<String>)> = unitypy[rel.as_str()]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let name = r[3].as_str().filter(|s| !s.is_empty()).map(str::to_string);
                (
                    r[0].as_i64().unwrap(),
                    r[1].as_i64().unwrap(),
                    r[2].as_u64().unwrap(),
                    name,
                )
            })
            .collect();
        // UnityPy gives no name where it has none to peek; meshspec reads names through the
        // same type trees, so every name must agree where both have one.
        let strip = |s: &BTreeSet<(i64, i64, u64, Option<String>)>| -> BTreeSet<(i64, i64, u64)> {
            s.iter().map(|(a, b, c, _)| (*a, *b, *c)).collect()
        };
        assert_eq!(
            strip(&ours),
            strip(&theirs),
            "{rel}: path ids, classes, sizes"
        );
        let names_theirs: BTreeMap<i64, String> = theirs
            .iter()
            .filter_map(|(p, _, _, n)| n.clone().map(|n| (*p, n)))
            .collect();
        for (p, _, _, n) in &ours {
            if let Some(t) = names_theirs.get(p) {
                assert_eq!(n.as_ref(), Some(t), "{rel}: name of {p}");
            }
        }
        assert!(ours.len() >= 94);
        // Unity's own dumps: the same path ids and classes.
        let version = rel.split('/').nth(1).unwrap();
        let dump = dir.join(format!("unity-dumps/{version}.txt"));
        if rel.starts_with("bundles") && dump.is_file() {
            let text = std::fs::read_to_string(&dump).unwrap();
            let unity: BTreeSet<(i64, i64)> = dump_objects(&text)
                .into_iter()
                .map(|(id, (c, _))| (id, i64::from(c)))
                .collect();
            let ours2: BTreeSet<(i64, i64)> = ours.iter().map(|(a, b, _, _)| (*a, *b)).collect();
            assert_eq!(ours2, unity, "{rel}: against Unity's dump");
        }
    }
}

#[test]
fn shared_every_object_reads_through_its_type_tree_to_its_end() {
    let Some(dir) = shared_unity("reading every real object through its type tree") else {
        return;
    };
    let mut n = 0;
    for v in VERSIONS {
        let g = GameFiles::open(&[dir.join(format!("bundles/{v}/assetbundle"))]).unwrap();
        for r in g.objects() {
            let s = g.serialized(r);
            s.read(g.entry(r))
                .unwrap_or_else(|e| panic!("{v} #{}: {e}", g.entry(r).path_id));
            n += 1;
        }
        // The serialized file and the bundle write back byte for byte.
        let bytes = std::fs::read(dir.join(format!("bundles/{v}/assetbundle"))).unwrap();
        let b = Bundle::open(&bytes, &Limits::default()).unwrap();
        assert_eq!(written(&owned::<UnityBundle>(&bytes)), bytes);
        assert!(clean(&verdict("unity-bundle", &bytes)), "{v}");
        let cab = b.node_bytes(0).unwrap();
        let s: UnitySerialized = owned(&cab);
        assert_eq!(written(&s), &cab[..]);
        let sv = verdict("unity-serialized", &cab);
        assert!(clean(&sv), "{v}: {sv:?}");
    }
    assert_eq!(n, 5 * 138);
}

#[test]
fn shared_meshes_extract_to_unitypys_bytes_and_stream_its_slices() {
    let Some(dir) = shared_unity("comparing the real meshes with UnityPy's extraction") else {
        return;
    };
    let mut n = 0;
    for v in VERSIONS {
        let g = GameFiles::open(&[dir.join(format!("bundles/{v}/assetbundle"))]).unwrap();
        for r in g.meshes() {
            let m = g.mesh(r).unwrap();
            let id = g.entry(r).path_id;
            let stem = format!("{}.{:016x}", m.name(), id as u64);
            let meta: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join(format!("meshes/{v}/{stem}.unitypy.json")))
                    .unwrap(),
            )
            .unwrap();
            let bytes = g.bytes(r);
            let want = std::fs::read(dir.join(format!("meshes/{v}/{stem}.mesh"))).unwrap();
            assert_eq!(bytes, &want[..], "{v} {stem}");
            assert_eq!(sha256_hex(bytes), meta["raw_sha256"].as_str().unwrap());
            match g.streamed(&m, None).unwrap() {
                Some(s) => {
                    let slice =
                        std::fs::read(dir.join(format!("meshes/{v}/{stem}.vertexdata"))).unwrap();
                    assert_eq!(&s[..], &slice[..], "{v} {stem}");
                }
                None => assert!(meta["stream_data"].is_null(), "{v} {stem}"),
            }
            // The fixed layout of the file's version agrees with the type tree, and every
            // relation holds.
            assert!(m.fixed.is_ok(), "{v} {stem}");
            let verdict = g.input(m.at, &Context::new()).unwrap().judge();
            assert!(clean(&verdict), "{v} {stem}: {verdict:?}");
            n += 1;
        }
    }
    assert_eq!(n, 35);
}

#[test]
fn shared_meshes_export_valid_gltf_with_the_bones_unitys_dumps_name() {
    let Some(dir) = shared_unity("exporting the real meshes with their bone names") else {
        return;
    };
    let mut glbs = vec![];
    let mut joints_2021: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for v in VERSIONS {
        let g = GameFiles::open(&[dir.join(format!("bundles/{v}/assetbundle"))]).unwrap();
        // From Unity's dump (where there is one): mesh path id -> bone GameObject names.
        let dump = std::fs::read_to_string(dir.join(format!("unity-dumps/{v}.txt"))).ok();
        let expected: Option<BTreeMap<i64, Vec<String>>> = dump.as_ref().map(|text| {
            let objs = dump_objects(text);
            let name_of_go = |id: i64| dump_name(&objs[&id].1).unwrap().to_string();
            let go_of_transform = |id: i64| dump_pptrs(&objs[&id].1, "m_GameObject")[0];
            objs.iter()
                .filter(|(_, (c, _))| *c == 137)
                .map(|(_, (_, lines))| {
                    let mesh = dump_pptrs(lines, "m_Mesh")[0];
                    let bones = dump_pptrs(lines, "m_Bones")
                        .into_iter()
                        .map(|t| name_of_go(go_of_transform(t)))
                        .collect();
                    (mesh, bones)
                })
                .collect()
        });
        for r in g.meshes() {
            let m = g.mesh(r).unwrap();
            let scene = meshspec_tests::unity_scene(&g, m.at);
            let mesh = &scene.meshes[0];
            let out = glb(scene.clone(), NonFinite::Refuse).unwrap();
            let p = scratch(&format!("{v}.{}.glb", mesh.name));
            std::fs::write(&p, &out.bytes).unwrap();
            glbs.push(p);
            let Some(skin) = &mesh.skin else {
                continue;
            };
            assert!(
                skin.joint_names.iter().all(|n| !n.starts_with("bone ")),
                "{v} {}: {:?}",
                mesh.name,
                skin.joint_names
            );
            if let Some(exp) = &expected {
                assert_eq!(
                    Some(&skin.joint_names),
                    exp.get(&g.entry(r).path_id),
                    "{v} {}",
                    mesh.name
                );
            }
            match joints_2021.get(&mesh.name) {
                Some(j) => assert_eq!(j, &skin.joint_names, "{v} {}", mesh.name),
                None => {
                    joints_2021.insert(mesh.name.clone(), skin.joint_names.clone());
                }
            }
            // The renderers' materials name the submeshes.
            assert!(mesh
                .materials
                .iter()
                .all(|m| !m.name.starts_with("submesh ")));
        }
    }
    assert_eq!(joints_2021.len(), 3, "three skinned meshes");
    assert_eq!(joints_2021["Robot_A_Body_LOD03"].len(), 18);
    assert_eq!(glbs.len(), 35);
    validate_gltf(&glbs);
}

#[test]
fn shared_player_level_reads_and_its_streamed_ranges_lie_in_its_ress() {
    let Some(dir) = shared_unity("the real player level and its .resS") else {
        return;
    };
    let g = GameFiles::open(&[dir.join("player/2022.1.20f1/level0")]).unwrap();
    assert_eq!(g.objects().len(), 94);
    let ress_len = std::fs::metadata(dir.join("player/2022.1.20f1/level0.resS"))
        .unwrap()
        .len();
    let mut ranges = 0;
    for r in g.objects() {
        let s = g.serialized(r);
        let v = s.read(g.entry(r)).unwrap();
        let t = s.trees_of(g.entry(r)).unwrap();
        // Any StreamingInfo-shaped field (m_StreamData) names level0.resS and lies inside it.
        if let Some(sd) = v.field(&t, "m_StreamData") {
            let size = sd.field(&t, "size").unwrap().int().unwrap() as u64;
            if size == 0 {
                continue;
            }
            let off = sd.field(&t, "offset").unwrap().int().unwrap() as u64;
            let path = String::from_utf8_lossy(sd.field(&t, "path").unwrap().bytes().unwrap());
            assert!(path.ends_with("level0.resS"), "{path}");
            assert!(off + size <= ress_len);
            let range = meshspec_formats::unity::stream::StreamRange {
                path: path.into_owned(),
                offset: off,
                size,
            };
            let got = meshspec_formats::unity::files::resource::bytes(&g, 0, &range, None).unwrap();
            assert_eq!(got.len() as u64, size);
            ranges += 1;
        }
    }
    assert!(ranges >= 1, "level0 streams something from its .resS");
}

#[test]
fn the_known_mesh_layouts_start_at_the_unity_mesh_specs_version_cut_offs() {
    // Every version the spec compares unity_version with (`>= N`, `< N`) starts a layout that
    // the hint for bare objects tries, and every layout it tries starts at one of them.
    let text = std::fs::read_to_string(root().join("spec/unity_mesh.ksy")).unwrap();
    let spec = meshspec_model::load("spec/unity_mesh.ksy", &text).unwrap();
    let mut cuts = BTreeSet::new();
    for t in &spec.types {
        for f in &t.fields {
            let Some(c) = &f.cond else { continue };
            let c = c.to_string();
            for part in c.split(" and ").chain(c.split(" or ")) {
                for op in [">= ", "< "] {
                    if let Some(v) = part.split(&format!("unity_version {op}")).nth(1) {
                        let digits: String =
                            v.chars().take_while(|ch| ch.is_ascii_digit()).collect();
                        let n: u32 = digits.parse().unwrap();
                        cuts.insert(n);
                    }
                }
            }
        }
    }
    let layouts = game::mesh_layouts();
    let starts: BTreeSet<u32> = layouts.iter().map(|l| l.0).skip(1).collect();
    assert_eq!(starts, cuts);
    assert_eq!(layouts[0].0, meshspec_formats::unity::OLDEST_VERSION);
    // In Unity's own release names, each range ending where the next begins.
    let words: Vec<&str> = layouts.iter().map(|l| l.1.as_str()).collect();
    assert_eq!(
        words,
        [
            "3.0 to 3.4",
            "3.5",
            "4.0",
            "4.1 to 4.2",
            "4.3 to 4.7",
            "5.0 to 5.6",
            "2017.1 to 2017.2",
            "2017.3 to 2017.4",
            "2018.1",
            "2018.2",
            "2018.3 to 2018.4",
            "2019.1 to 2019.4",
            "2020.1 to 2021.3",
            "2022.1 to 6000.1",
            "6000.2 to 6000.5",
            "6000.6 and later"
        ]
    );
}
