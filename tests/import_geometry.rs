//! Import: what the readers take from a .glb or .obj, and that nothing a target layout cannot
//! hold is dropped without a note. Primitives sharing accessors share vertices; a file with
//! several meshes says which one was taken, and a name picks another.

#[path = "export_common.rs"]
mod common;

use common::*;
use meshspec_formats::context::Winding;
use meshspec_formats::export::{glb, obj, NonFinite};
use meshspec_formats::import::{left_out, read_mesh};
use meshspec_formats::meshbin::HOLDS as MESHBIN;
use meshspec_formats::{meshbin, Context};

#[test]
fn shared_accessors_share_vertices_and_every_dropped_part_is_said() {
    let dir = temp("import-body");
    let inputs = unity_inputs(meshspec_tests::test_name!());
    let Some(body) = inputs
        .iter()
        .find(|i| i.name == "unity/2021.3.0f1/Robot_A_Body_LOD03.c1bd822390ee02eb.mesh")
    else {
        return;
    };
    let stored = &body.scene.meshes[0];
    let out = glb(body.scene.clone(), NonFinite::Refuse).unwrap();
    let path = dir.join("body.glb");
    std::fs::write(&path, &out.bytes).unwrap();
    let (mesh, notes) = read_mesh(&path, None).unwrap();
    // 4,942 vertices once, not once per primitive (24,710), and the five submeshes.
    assert_eq!(mesh.positions.len(), 4942);
    assert_eq!(mesh.positions, stored.positions);
    assert_eq!(mesh.primitives.len(), 5);
    for (a, b) in mesh.primitives.iter().zip(&stored.primitives) {
        assert_eq!(a.indices, b.indices);
    }
    assert_eq!(mesh.normals.as_ref().map(Vec::len), Some(4942));
    assert_eq!(mesh.uvs.len(), 1);
    let skin = mesh.skin.as_ref().unwrap();
    assert_eq!(skin.inverse_bind_matrices.len(), 18);
    assert_eq!(skin.joint_names, stored.skin.as_ref().unwrap().joint_names);
    assert!(notes.is_empty(), "{notes:?}");
    // What a .meshbin cannot hold, each said.
    let dropped = left_out(&mesh, "meshbin", &MESHBIN);
    for what in [
        "meshbin has no normals",
        "meshbin has no tangents",
        "texture coordinates beyond 0 sets (1 sets)",
        "meshbin has no skin (18 joints",
        "meshbin has no materials (`submesh 0`, `submesh 1`",
        "the 5 primitives' triangles are joined",
        "the mesh has no vertex colours: meshbin gets white",
    ] {
        assert!(
            dropped.iter().any(|n| n.contains(what)),
            "{what}: {dropped:?}"
        );
    }
    // The file it builds holds the same triangles over the same vertices.
    let built = meshbin::from_mesh(&mesh, Winding::Gl).unwrap();
    assert_eq!(usize::from(built.num_vertices), 4942);
    assert_eq!(
        usize::from(built.num_indices),
        stored
            .primitives
            .iter()
            .map(|p| p.indices.len())
            .sum::<usize>()
    );
}

#[test]
fn several_meshes_say_which_was_taken_and_a_name_picks_one() {
    let path = meshspec_tests::root().join("corpus/sws/built-five-parts.sws-mesh");
    let bytes = std::fs::read(&path).unwrap();
    let entry = meshspec_formats::find("sws-mesh").unwrap();
    let mut scene = entry.scene(&bytes, &Context::new()).unwrap();
    scene.label(entry.id, "five");
    let dir = temp("import-five");
    let g = dir.join("five.glb");
    std::fs::write(&g, glb(scene.clone(), NonFinite::Refuse).unwrap().bytes).unwrap();
    let (first, notes) = read_mesh(&g, None).unwrap();
    assert_eq!(first.name, "submesh 0 (sws-mesh)");
    assert!(
        notes.iter().any(|n| n.starts_with(
            "the file holds 5 meshes (`submesh 0 (sws-mesh)`, `submesh 1 (sws-mesh)`"
        ) && n
            .contains("this took `submesh 0 (sws-mesh)`, the first (--mesh NAME takes another)")),
        "{notes:?}"
    );
    let (third, notes) = read_mesh(&g, Some("submesh 2 (sws-mesh)")).unwrap();
    assert_eq!(third.positions, scene.meshes[2].positions);
    assert_eq!(
        third.morph_targets.len(),
        scene.meshes[2].morph_targets.len()
    );
    assert_eq!(
        third.morph_targets[0].name,
        scene.meshes[2].morph_targets[0].name
    );
    assert!(
        notes.iter().any(|n| n.contains("the one --mesh names")),
        "{notes:?}"
    );
    let dropped = left_out(&third, "meshbin", &MESHBIN);
    assert!(
        dropped.iter().any(|n| n.contains("morph targets")),
        "{dropped:?}"
    );
    let e = read_mesh(&g, Some("nope")).unwrap_err().to_string();
    assert!(
        e.contains("a mesh named `nope` (--mesh)") && e.contains("`submesh 4 (sws-mesh)`"),
        "{e}"
    );
    // OBJ: one mesh per group, named as the group (a primitive, with its material).
    let o = dir.join("five.obj");
    std::fs::write(&o, obj(scene.clone(), NonFinite::Refuse).unwrap().bytes).unwrap();
    let (m, notes) = read_mesh(&o, Some("submesh_1_0_material_50331650_(range_1)")).unwrap();
    // OBJ readers renumber vertices in order of first use: the same triangles come back.
    let corners = |m: &meshspec_formats::scene::Mesh| -> Vec<[f32; 3]> {
        m.primitives[0]
            .indices
            .iter()
            .map(|&i| m.positions[i as usize])
            .collect()
    };
    assert_eq!(corners(&m), corners(&scene.meshes[1]));
    assert!(notes.iter().any(|n| n.contains("holds 5 meshes")));
}

#[test]
fn hostile_accessors_are_refused_not_panicked_on() {
    let dir = temp("import-hostile");
    let s = meshspec_tests::root().join("corpus/meshbin/cube.meshbin");
    let entry = meshspec_formats::find("meshbin").unwrap();
    let ctx = Context::new().with_winding(Winding::D3d);
    let scene = entry.scene(&std::fs::read(s).unwrap(), &ctx).unwrap();
    let bytes = glb(scene.clone(), NonFinite::Refuse).unwrap().bytes;
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let text = String::from_utf8(bytes[20..20 + len].to_vec()).unwrap();
    // Positions declared as bytes (the gltf crate's reader would reach `unreachable!`), and
    // an accessor claiming more elements than its view holds.
    for (from, to, expect) in [
        (
            "\"count\":24,\"componentType\":5126",
            "\"count\":24,\"componentType\":5121",
            "formats",
        ),
        (
            "\"count\":24",
            "\"count\":80000000",
            "inside their buffer view",
        ),
    ] {
        assert!(text.contains(from), "{text}");
        let t = text.replacen(from, to, 1);
        let mut b = bytes[..12].to_vec();
        let mut t = t.into_bytes();
        while t.len() % 4 != 0 {
            t.push(b' ');
        }
        b.extend_from_slice(&(t.len() as u32).to_le_bytes());
        b.extend_from_slice(b"JSON");
        b.extend_from_slice(&t);
        b.extend_from_slice(&bytes[20 + len..]);
        let total = b.len() as u32;
        b[8..12].copy_from_slice(&total.to_le_bytes());
        let p = dir.join("hostile.glb");
        std::fs::write(&p, &b).unwrap();
        let e = read_mesh(&p, None).unwrap_err().to_string();
        assert!(e.contains(expect), "{e}");
    }
}
