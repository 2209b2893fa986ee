//! Objects the Unity editor saves for itself (an import cache in `Library/metadata`, an .asset
//! saved in binary): their serialized file's target platform is NoTarget, and every object
//! keeps the editor-only fields a player build leaves out. The `unity-mesh` layout reads them
//! when its `unity_editor` parameter says so, which a game file sets from its platform: the
//! type-tree check, verdict, decoding, export, dump and build, and the write-back work on them
//! as on a player's. Over `corpus/unity/editor.unity-serialized` (the scene of
//! `game.unity-serialized` as the editor saves it) and the library's maker in every era.

use meshspec_formats::context::Context;
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::generated::unity_mesh::UnityMesh;
use meshspec_formats::generated::unity_serialized::{BuildTarget, UnitySerialized};
use meshspec_formats::rt::{Codec, Output, Root, Spanned};
use meshspec_formats::scene::Mesh;
use meshspec_formats::unity::files::game::{GameFile, GameFiles, Select};
use meshspec_formats::unity::files::like::{like, Original};
use meshspec_formats::unity::files::mesh::{self, Layout};
use meshspec_formats::unity::files::replace::{replace, Edit};
use meshspec_formats::unity::files::version::{mesh_layouts, reads_exactly};
use meshspec_formats::unity::files::{Limits, ObjectRef};
use meshspec_formats::unity::make;
use meshspec_tests::{unity_corpus as corpus, unity_corpus_bytes as read, validate_gltf};
use std::path::Path;

/// The scene's meshes: Blade, Arm (skinned), Face (blend shapes), Rock (compressed), Wire
/// (32-bit indices, two submeshes).
const MESHES: &[i64] = &[100, 101, 102, 103, 104];

fn open_bytes(path: &Path, bytes: &[u8]) -> GameFiles {
    let f = GameFile::from_bytes(path, bytes, &Limits::for_input(bytes.len() as u64))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    GameFiles::from_files(vec![f])
}

fn open(name: &str) -> GameFiles {
    open_bytes(&corpus(name), &read(name))
}

fn object(g: &GameFiles, id: i64) -> ObjectRef {
    let found = g.select(&Select::PathId(id));
    assert_eq!(found.len(), 1, "path id {id}");
    found[0]
}

/// What a decoded mesh holds, without where its parts came from (offsets differ between files).
fn geometry(m: &Mesh) -> impl PartialEq + std::fmt::Debug + '_ {
    (
        (&m.name, &m.positions, &m.normals, &m.tangents, &m.uvs),
        m.primitives
            .iter()
            .map(|p| (&p.indices, p.material))
            .collect::<Vec<_>>(),
        m.materials.iter().map(|x| &x.name).collect::<Vec<_>>(),
        m.skin
            .as_ref()
            .map(|s| (&s.joints, &s.weights, &s.joint_names, &s.joint_parents)),
        m.morph_targets
            .iter()
            .map(|t| (&t.name, &t.positions))
            .collect::<Vec<_>>(),
    )
}

fn decoded(g: &GameFiles, id: i64) -> Mesh {
    let input = g.input(object(g, id), &Context::new()).unwrap();
    let v = input.judge();
    assert!(v.passes(), "#{id}: {:?}", v.first_failure());
    let mut d = input.decode().unwrap_or_else(|e| panic!("#{id}: {e}"));
    assert_eq!(d.scene.meshes.len(), 1);
    d.scene.meshes.remove(0)
}

/// `file` (of format 22) with its target platform set to `platform` (and, when `trees` is
/// false, its type trees left out, the header's sizes and offsets made anew), through the
/// generated reader and writer.
fn with_platform(file: &[u8], platform: BuildTarget, trees: bool) -> Vec<u8> {
    let mut f = UnitySerialized::from_bytes(file, &Context::new()).unwrap();
    let metadata = f.metadata.as_mut().expect("a file of format 9 or later");
    metadata.target_platform = Some(platform);
    if !trees {
        metadata.enable_type_tree = Some(0);
        for t in &mut metadata.types {
            t.type_tree = None;
            t.num_type_dependencies = None;
            t.type_dependencies = None;
        }
        // The metadata's size as its writer writes it; the data on the next multiple of 16.
        let mut out = Output::default();
        let len = metadata
            .write_out::<true>(&mut out, (22, 0))
            .unwrap()
            .map_or(0, |p| p.span().len());
        let wide = f.header.wide.as_mut().unwrap();
        let data_at = (48 + len).div_ceil(16) * 16;
        wide.len_metadata = len as u32;
        wide.ofs_data = data_at;
        wide.len_file = data_at + f.data.as_ref().map_or(0, Vec::len) as u64;
        f.pad_data = Some(vec![0; (data_at - 48 - len) as usize]);
    }
    f.to_bytes(&Context::new()).unwrap()
}

#[test]
fn the_editors_file_reads_as_the_players_scene() {
    let editor = open("editor.unity-serialized");
    let player = open("game.unity-serialized");
    let s = editor.serialized(object(&editor, 100));
    assert!(s.editor, "target platform NoTarget");
    assert!(!player.serialized(object(&player, 100)).editor);
    // Every object listed with its name: the meshes' through their type trees.
    let names = |g: &GameFiles| -> Vec<(i64, i32, Option<String>)> {
        g.list(None)
            .into_iter()
            .map(|l| (l.path_id, l.class_id, l.name))
            .collect()
    };
    assert_eq!(names(&editor), names(&player));
    for &id in MESHES {
        let m = editor.mesh(object(&editor, id)).unwrap();
        assert!(m.editor && m.typed, "#{id}");
        m.fixed
            .as_ref()
            .unwrap_or_else(|e| panic!("#{id}: the type tree check: {e}"));
        // The same geometry, joints named from the renderer, materials, blend shapes: the
        // editor-only fields moved nothing else.
        let (e, p) = (decoded(&editor, id), decoded(&player, id));
        assert_eq!(geometry(&e), geometry(&p), "#{id}");
        // The object is the player's with the editor-only fields: 40 bytes before m_Name,
        // 4 after m_MeshMetrics (Blade's vertex data is inline here, streamed there).
        let (em, _) = mesh::read_fixed(editor.bytes(m.at), m.layout().unwrap()).unwrap();
        assert_eq!(em.object_hide_flags, Some(8));
        assert!(em.corresponding_source_object.is_some() && em.prefab_asset.is_some());
        assert_eq!(em.mesh_optimization_flags, Some(-1));
        assert_eq!(em.prefab_parent_object, None);
        assert_eq!(em.mesh_optimized, None);
    }
    // Their exports are valid glTF.
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<_> = MESHES
        .iter()
        .map(|&id| {
            let input = editor.input(object(&editor, id), &Context::new()).unwrap();
            let out = glb(input.decode().unwrap().scene, NonFinite::Refuse).unwrap();
            let p = dir.path().join(format!("{id}.glb"));
            std::fs::write(&p, &out.bytes).unwrap();
            p
        })
        .collect();
    validate_gltf(&files);
}

#[test]
fn editor_objects_dump_and_build_byte_for_byte() {
    let g = open("editor.unity-serialized");
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    for &id in MESHES {
        let input = g.input(object(&g, id), &Context::new()).unwrap();
        let dump = input.dump().unwrap();
        let data = &dump["data"];
        assert_eq!(data["object_hide_flags"], 8, "#{id}");
        assert_eq!(data["prefab_instance"]["path_id"], 0, "#{id}");
        assert_eq!(data["mesh_optimization_flags"], -1, "#{id}");
        // Through JSON text, as `dump` and `build` pass it.
        let text = serde_json::to_string(&dump).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        let layout = input.mesh.layout().unwrap();
        let built = entry.build(&back, &mesh::context(layout)).unwrap();
        assert_eq!(built.bytes, input.bytes, "#{id}");
        assert!(
            built.verdict.passes() && built.overrides.is_empty(),
            "#{id}"
        );
        // Built as a player's object, the editor-only fields are refused at the first one.
        let e = entry
            .build(&back, &mesh::context(layout.version))
            .expect_err("an editor's fields in a player's layout");
        assert_eq!(
            e.path_string(),
            "unity_mesh.object_hide_flags",
            "#{id}: {e}"
        );
    }
}

#[test]
fn every_byte_of_an_editor_object_is_explained() {
    let g = open("editor.unity-serialized");
    let input = g.input(object(&g, 101), &Context::new()).unwrap();
    let mut leaves = vec![];
    input
        .walk(&mut |path, span, _, leaf| {
            if leaf {
                leaves.push((path.to_string(), span));
            }
        })
        .unwrap();
    let mut covered = vec![false; input.bytes.len()];
    for (_, s) in &leaves {
        for b in &mut covered[s.range()] {
            *b = true;
        }
    }
    assert!(covered.iter().all(|&c| c), "every byte belongs to a field");
    let first: Vec<&str> = leaves.iter().take(4).map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        first,
        [
            "unity_mesh.object_hide_flags",
            "unity_mesh.corresponding_source_object.file_id",
            "unity_mesh.corresponding_source_object.path_id",
            "unity_mesh.prefab_instance.file_id",
        ]
    );
}

#[test]
fn a_mesh_is_replaced_in_the_editors_file() {
    let path = corpus("editor.unity-serialized");
    let bytes = read("editor.unity-serialized");
    let g = open_bytes(&path, &bytes);
    let limits = Limits::for_input(bytes.len() as u64);
    let arm = object(&g, 101);
    let layout = g.mesh(arm).unwrap().layout().unwrap();
    // Unedited: the same file.
    let same = replace(
        &path,
        &bytes,
        &Edit {
            path_id: 101,
            object: g.bytes(arm),
            vertex_data: None,
        },
        &Context::new(),
        &limits,
    )
    .unwrap();
    assert_eq!(same.bytes, bytes);
    // The first vertex moved, through the generated owned value and writer of the editor's
    // layout; the file reads with the new mesh and every other object unchanged.
    let (mut m, _) = mesh::read_fixed(g.bytes(arm), layout).unwrap();
    let data = &mut m
        .vertex_data
        .as_mut()
        .expect("2022.3: vertex data")
        .data
        .data;
    let x = f32::from_le_bytes(data[..4].try_into().unwrap()) + 0.5;
    data[..4].copy_from_slice(&x.to_le_bytes());
    let new = m.to_bytes(&mesh::context(layout)).unwrap();
    let r = replace(
        &path,
        &bytes,
        &Edit {
            path_id: 101,
            object: &new,
            vertex_data: None,
        },
        &Context::new(),
        &limits,
    )
    .unwrap();
    let after = open_bytes(&path, &r.bytes);
    assert_eq!(after.bytes(object(&after, 101)), new.as_slice());
    assert!(after.serialized(object(&after, 101)).editor);
    let before_x = decoded(&g, 101).positions[0][0];
    let after_x = decoded(&after, 101).positions[0][0];
    assert_eq!(
        after_x,
        before_x - 0.5,
        "moved (x mirrored into glTF's frame)"
    );
    for (&a, &b) in g.objects().iter().zip(after.objects().iter()) {
        if g.entry(a).path_id != 101 {
            assert_eq!(g.bytes(a), after.bytes(b), "#{}", g.entry(a).path_id);
        }
    }
}

#[test]
fn geometry_goes_back_like_an_editors_original() {
    let path = corpus("editor.unity-serialized");
    let bytes = read("editor.unity-serialized");
    let g = open_bytes(&path, &bytes);
    let dir = tempfile::tempdir().unwrap();
    for &id in MESHES {
        let original = Original::in_game(&g, object(&g, id)).unwrap();
        assert!(original.layout.editor, "#{id}");
        // Exported and read back unedited: the original's bytes, editor-only fields included.
        let out = glb(
            g.input(object(&g, id), &Context::new())
                .unwrap()
                .decode()
                .unwrap()
                .scene,
            NonFinite::Refuse,
        )
        .unwrap();
        let p = dir.path().join(format!("{id}.glb"));
        std::fs::write(&p, &out.bytes).unwrap();
        let (edited, _) = meshspec_formats::import::read_mesh(&p, None).unwrap();
        let made = like(&edited, &original).unwrap_or_else(|e| panic!("#{id}: {e}"));
        assert!(
            made.object == g.bytes(object(&g, id)),
            "#{id}: {:?}",
            made.notes
        );
    }
}

#[test]
fn the_platform_decides_and_the_type_trees_check_it() {
    let editor = read("editor.unity-serialized");
    let game = read("game.unity-serialized");
    let at = Path::new("edited.unity-serialized");
    // The editor's file claiming a player's platform: its trees start with m_ObjectHideFlags,
    // the player's layout with m_Name.
    let g = open_bytes(at, &with_platform(&editor, BuildTarget(19), true));
    for &id in MESHES {
        let e = g.mesh(object(&g, id)).unwrap().fixed.unwrap_err();
        assert_eq!(e.path_string(), "unity_mesh.name", "#{id}: {e}");
        assert!(e.expected.contains("`m_ObjectHideFlags`"), "{e}");
        assert!(e.found.contains("in the layout of 2022.3.10"), "{e}");
        let v = g.input(object(&g, id), &Context::new()).unwrap().judge();
        assert!(!v.passes(), "#{id}");
    }
    // A player's file claiming NoTarget: the editor's layout reads m_Name's length as hide
    // flags, and the trees say m_Name comes first.
    let g = open_bytes(at, &with_platform(&game, BuildTarget::NO_TARGET, true));
    for &id in MESHES {
        let e = g.mesh(object(&g, id)).unwrap().fixed.unwrap_err();
        assert_eq!(
            e.path_string(),
            "unity_mesh.object_hide_flags",
            "#{id}: {e}"
        );
        assert!(e.found.contains("an editor's object of 2022.3.10"), "{e}");
    }
    // Without type trees the platform alone says how to read: the editor's file reads, names
    // and decodes as with them.
    let with = open_bytes(at, &editor);
    let without = open_bytes(at, &with_platform(&editor, BuildTarget::NO_TARGET, false));
    for &id in MESHES {
        let m = without.mesh(object(&without, id)).unwrap();
        assert!(!m.typed && m.editor, "#{id}");
        assert_eq!(
            without.name(object(&without, id)),
            with.name(object(&with, id)),
            "#{id}"
        );
        let (a, b) = (decoded(&without, id), decoded(&with, id));
        // (Without trees no renderer names the joints or materials.)
        assert_eq!(
            (&a.positions, &a.primitives.len()),
            (&b.positions, &b.primitives.len())
        );
    }
}

#[test]
fn every_era_has_its_editor_fields_where_the_editors_type_trees_put_them() {
    // The editor-only fields of each era, from the editors' own type trees
    // (AssetRipper/TypeTreeDumps, StructsDump/editor, and the real import caches'): before
    // m_Name, and after the player's fields (before m_StreamData from 2018.3); before 3.5 an
    // editor's Mesh has only m_ObjectHideFlags and m_ExtensionPtr more.
    let head = |v: u32| -> Vec<&str> {
        match v {
            ..30500 => vec!["m_ObjectHideFlags", "m_ExtensionPtr"],
            30500..20180200 => vec![
                "m_ObjectHideFlags",
                "m_PrefabParentObject",
                "m_PrefabInternal",
            ],
            20180200..20180300 => vec![
                "m_ObjectHideFlags",
                "m_CorrespondingSourceObject",
                "m_PrefabInternal",
            ],
            _ => vec![
                "m_ObjectHideFlags",
                "m_CorrespondingSourceObject",
                "m_PrefabInstance",
                "m_PrefabAsset",
            ],
        }
    };
    let tail = |v: u32| match v {
        ..30500 => None,
        30500..20190100 => Some("m_MeshOptimized"),
        _ => Some("m_MeshOptimizationFlags"),
    };
    let names =
        |l: Layout| -> Vec<&'static str> { mesh::layout_shape(l).iter().map(|f| f.name).collect() };
    let mut eras = 0;
    for (v, words) in mesh_layouts() {
        let player = names(Layout::from(v));
        let editor = names(Layout {
            version: v,
            editor: true,
        });
        let mut want = head(v);
        want.extend(&player);
        let at = want
            .iter()
            .position(|&n| n == "m_StreamData" || n == "m_MeshLodInfo")
            .unwrap_or(want.len());
        if let Some(t) = tail(v) {
            want.insert(at, t);
        }
        assert_eq!(editor, want, "{words}");
        // The maker's editor object of the era writes, reads back exactly, and decodes to the
        // player's geometry.
        let m = make::sample(v, 5);
        let layout = Layout {
            version: v,
            editor: true,
        };
        let ctx = mesh::context(layout);
        let bytes = make::in_editor(m.clone(), v).to_bytes(&ctx).unwrap();
        reads_exactly(&bytes, layout).unwrap_or_else(|e| panic!("{words}: {e}"));
        assert!(
            reads_exactly(&bytes, v).is_err(),
            "{words}: read as a player's"
        );
        let entry = meshspec_formats::find("unity-mesh").unwrap();
        let ours = entry.scene(&bytes, &ctx).unwrap().meshes.remove(0);
        let theirs = entry
            .scene(&m.to_bytes(&mesh::context(v)).unwrap(), &mesh::context(v))
            .unwrap()
            .meshes
            .remove(0);
        assert_eq!(geometry(&ours), geometry(&theirs), "{words}");
        let _: UnityMesh = UnityMesh::from_bytes(&bytes, &ctx).unwrap();
        eras += 1;
    }
    assert!(eras >= 15, "{eras} eras");
}
