//! Skins at rest, names and source offsets, checked on the exported files as a viewer reads them.
//!
//! Each export is read back with the `gltf` crate; every vertex is skinned as the glTF
//! specification defines it (`Σ w · world(joint) · inverseBind · p`, with each joint's world
//! matrix composed from the node tree), and must land on the stored position: a skinned mesh at
//! rest is the mesh as stored, in every skinned corpus mesh of every family (the SWS, RR and
//! meshbin corpora export no skin: their bones' meaning is not established; the Unity meshes
//! do). Names say where things came from, and `extras.sources` point at the bytes they came
//! from.

#[path = "export_common.rs"]
mod common;

use common::*;
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::generated::sws_mesh::SwsMesh;
use meshspec_formats::generated::unity_mesh::UnityMesh;
use meshspec_formats::rt::Root;
use meshspec_formats::scene::{Mesh, Mode, Primitive, Scene, Skin};
use meshspec_formats::Context;
use serde_json::Value;

type M4 = [f64; 16];

fn mul(a: &M4, b: &M4) -> M4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

fn flat(m: [[f32; 4]; 4]) -> M4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = f64::from(m[c][r]);
        }
    }
    out
}

/// Per skinned mesh of a .glb (by name): the largest distance between a vertex skinned at
/// rest and its stored position, relative to the mesh's size (its bounding box's diagonal).
fn rest_errors(bytes: &[u8]) -> Vec<(String, Vec<[f32; 3]>, f64)> {
    let g = gltf::Gltf::from_slice(bytes).unwrap();
    let blob = g.blob.clone().unwrap();
    // World matrices, from the scene's roots down.
    let mut world: Vec<Option<M4>> = vec![None; g.nodes().count()];
    let mut stack: Vec<(gltf::Node, M4)> = g
        .default_scene()
        .unwrap()
        .nodes()
        .map(|n| {
            (
                n,
                flat([
                    [1., 0., 0., 0.],
                    [0., 1., 0., 0.],
                    [0., 0., 1., 0.],
                    [0., 0., 0., 1.],
                ]),
            )
        })
        .collect();
    while let Some((n, parent)) = stack.pop() {
        let w = mul(&parent, &flat(n.transform().matrix()));
        world[n.index()] = Some(w);
        for c in n.children() {
            stack.push((c, w));
        }
    }
    let mut out = vec![];
    for node in g.nodes() {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else {
            continue;
        };
        let ibms: Vec<M4> = skin
            .reader(|_| Some(&blob[..]))
            .read_inverse_bind_matrices()
            .unwrap()
            .map(flat)
            .collect();
        let joints: Vec<M4> = skin
            .joints()
            .zip(&ibms)
            .map(|(j, ibm)| mul(&world[j.index()].expect("joint in the scene"), ibm))
            .collect();
        let prim = mesh.primitives().next().unwrap();
        let r = prim.reader(|_| Some(&blob[..]));
        let p: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let j: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
        let w: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
        let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
        for v in &p {
            for k in 0..3 {
                lo[k] = lo[k].min(f64::from(v[k]));
                hi[k] = hi[k].max(f64::from(v[k]));
            }
        }
        let size = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
        let mut worst = 0.0f64;
        for v in 0..p.len() {
            let x = [
                f64::from(p[v][0]),
                f64::from(p[v][1]),
                f64::from(p[v][2]),
                1.0,
            ];
            let mut s = [0.0; 3];
            for k in 0..4 {
                let m = &joints[usize::from(j[v][k])];
                for (r, sr) in s.iter_mut().enumerate() {
                    *sr += f64::from(w[v][k]) * (0..4).map(|c| m[c * 4 + r] * x[c]).sum::<f64>();
                }
            }
            let d = (0..3).map(|k| (s[k] - x[k]).powi(2)).sum::<f64>().sqrt();
            worst = worst.max(d);
        }
        out.push((mesh.name().unwrap_or("").to_string(), p, worst / size));
    }
    out
}

fn positions_of(scene: &Scene) -> Vec<Vec<[f32; 3]>> {
    scene.meshes.iter().map(|m| m.positions.clone()).collect()
}

#[test]
fn every_skinned_corpus_mesh_at_rest_is_the_stored_mesh() {
    let mut inputs = repo_inputs();
    inputs.extend(unity_inputs(meshspec_tests::test_name!()));
    let mut skinned = 0;
    let mut worst = 0.0f64;
    for i in &inputs {
        let out = glb(i.scene.clone(), NonFinite::Refuse).unwrap();
        let errors = rest_errors(&out.bytes);
        let expect = i.scene.meshes.iter().filter(|m| m.skin.is_some()).count();
        assert_eq!(errors.len(), expect, "{}", i.name);
        for (name, p, err) in errors {
            // The positions written are the stored ones, and skinning leaves them there.
            assert!(positions_of(&i.scene).contains(&p), "{}: {name}", i.name);
            assert!(
                err < 1e-5,
                "{}: {name} moves by {err} of its size at rest",
                i.name
            );
            worst = worst.max(err);
            skinned += 1;
        }
    }
    if !inputs.iter().any(|i| i.name.starts_with("unity/")) {
        return; // said loudly by unity_inputs
    }
    // Robot_A_Body_LOD03 and both arms, in each of the five editor versions.
    assert_eq!(skinned, 15, "skinned exports");
    eprintln!("largest rest-pose error: {worst:e} of a mesh's size");
}

/// A triangle skinned to joints whose bind poses rotate, scale, mirror, shear and are singular.
#[test]
fn bind_poses_of_every_kind_keep_the_rest_pose() {
    let t = |m: [[f32; 4]; 4]| {
        let mut out = [0.0; 16];
        for c in 0..4 {
            out[c * 4..c * 4 + 4].copy_from_slice(&m[c]);
        }
        out
    };
    let (s, c) = (0.6f32, 0.8f32);
    let ibms = vec![
        // A rotation about z, a translation and a scale of 100 (centimetres).
        t([
            [100.0 * c, 100.0 * s, 0.0, 0.0],
            [-100.0 * s, 100.0 * c, 0.0, 0.0],
            [0.0, 0.0, 100.0, 0.0],
            [5.0, -7.0, 2.0, 1.0],
        ]),
        // A mirror in x.
        t([
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 3.0, 0.0, 1.0],
        ]),
        // A shear: x gains half of y.
        t([
            [1.0, 0.0, 0.0, 0.0],
            [0.5, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ]),
        // Singular: z flattened.
        t([
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ]),
    ];
    let mesh = Mesh {
        name: "kinds".into(),
        positions: vec![
            [0.0, 0.0, 0.0],
            [1.0, 2.0, 3.0],
            [-2.0, 1.0, 0.5],
            [4.0, 4.0, -4.0],
        ],
        primitives: vec![Primitive {
            mode: Mode::Triangles,
            indices: vec![0, 1, 2, 1, 3, 2],
            material: None,
        }],
        skin: Some(Skin {
            joints: vec![[0, 1, 0, 0], [1, 2, 3, 0], [3, 0, 0, 0], [2, 0, 0, 0]],
            weights: vec![
                [0.5, 0.5, 0.0, 0.0],
                [0.2, 0.3, 0.5, 0.0],
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.0],
            ],
            inverse_bind_matrices: ibms,
            joint_names: (0..4).map(|i| format!("joint {i}")).collect(),
            ..Skin::default()
        }),
        ..Mesh::default()
    };
    let scene = Scene {
        meshes: vec![mesh],
        notes: vec![],
    };
    let out = glb(scene.clone(), NonFinite::Refuse).unwrap();
    let errors = rest_errors(&out.bytes);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].2 < 1e-6, "{}", errors[0].2);
    for what in [
        "1 bind poses shear (the first is joint 2",
        "1 inverse bind matrices are not invertible affine matrices (the first is joint 3",
        "1 vertices have no influence of non-zero weight (the first is vertex 3)",
    ] {
        assert!(
            out.notes.iter().any(|n| n.contains(what)),
            "{what}: {:?}",
            out.notes
        );
    }
    let j = json(&out.bytes);
    // The rotated joint: the inverse of the bind pose, as translation, rotation and scale.
    let n0 = &j["nodes"][0];
    assert_eq!(n0["name"], "joint 0");
    let scale: Vec<f64> = n0["scale"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(scale.iter().all(|x| (x - 0.01).abs() < 1e-9), "{scale:?}");
    let dir = temp("kinds");
    let f = dir.join("kinds.glb");
    std::fs::write(&f, &out.bytes).unwrap();
    validate_strict(&[f]);
}

fn json(glb: &[u8]) -> Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

fn sources(v: &Value) -> Vec<(String, usize, usize, Option<String>)> {
    v["extras"]["sources"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    (
                        s["field"].as_str().unwrap().to_string(),
                        s["offset"].as_u64().unwrap() as usize,
                        s["length"].as_u64().unwrap() as usize,
                        s["file"].as_str().map(str::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn unity_names_and_sources_lead_to_the_bytes() {
    let inputs = unity_inputs(meshspec_tests::test_name!());
    let mut checked = 0;
    for i in inputs
        .iter()
        .filter(|i| i.name.contains("Robot_A_Body") || i.name.contains("Lame"))
    {
        let m = UnityMesh::from_bytes(&i.bytes, &i.ctx).unwrap();
        let out = glb(i.scene.clone(), NonFinite::Refuse).unwrap();
        let j = json(&out.bytes);
        let mesh = &j["meshes"][0];
        assert_eq!(
            mesh["name"],
            format!("{} (unity-mesh)", m.name.value),
            "{}",
            i.name
        );
        assert_eq!(mesh["extras"]["layout"], "unity-mesh");
        // The vertex data: inline in the object, or a range of the resource file.
        let s = sources(mesh);
        match &m.stream_data.as_ref().filter(|sd| sd.len_data > 0) {
            Some(sd) => {
                let (field, at, len, file) = &s[0];
                assert_eq!(field, "unity_mesh.stream_data");
                let ress = i.path.parent().unwrap().join(file.as_ref().unwrap());
                let all = std::fs::read(ress).unwrap();
                let slice = std::fs::read(i.path.with_extension("vertexdata")).unwrap();
                assert_eq!(&all[*at..*at + *len], &slice[..], "{}", i.name);
                assert_eq!(*len, sd.len_data as usize);
            }
            None => {
                let (field, at, len, _) = &s[0];
                assert_eq!(field, "unity_mesh.vertex_data.data.data");
                assert_eq!(
                    &i.bytes[*at..*at + *len],
                    &m.vertex_data.as_ref().unwrap().data.data[..]
                );
            }
        }
        // Each primitive: its submesh and its indices, where they are in the object.
        for (k, (p, sub)) in mesh["primitives"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&m.sub_meshes)
            .enumerate()
        {
            let s = sources(p);
            let (_, at, len, _) = s
                .iter()
                .find(|r| r.0.starts_with("unity_mesh.index_buffer"))
                .unwrap();
            let first = sub.first_byte as usize / 2;
            let stored: Vec<u8> = m.index_buffer.indices.u16_indices.as_ref().unwrap()
                [first..first + *len / 2]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            assert_eq!(&i.bytes[*at..*at + *len], &stored[..]);
            let (_, at, _, _) = s
                .iter()
                .find(|r| r.0 == format!("unity_mesh.sub_meshes[{k}]"))
                .unwrap();
            let word = |o: usize| u32::from_le_bytes(i.bytes[o..o + 4].try_into().unwrap());
            assert_eq!(
                (word(*at), word(*at + 4)),
                (sub.first_byte, sub.index_count)
            );
            let mat = p["material"].as_u64().unwrap() as usize;
            assert_eq!(j["materials"][mat]["name"], format!("submesh {k}"));
        }
        // Joints: named by slot and name hash; the bind pose they point at is theirs.
        if let Some(skin) = j["skins"].as_array().and_then(|s| s.first()) {
            for (k, node) in skin["joints"].as_array().unwrap().iter().enumerate() {
                let n = &j["nodes"][node.as_u64().unwrap() as usize];
                let h = m.bone_name_hashes.as_ref().expect("from 4.3")[k];
                assert_eq!(n["name"], format!("bone {k} (name hash 0x{h:08X})"));
                assert_eq!(n["extras"]["name_hash"], h);
                assert_eq!(n["extras"]["bone_slot"], k);
                let at = n["extras"]["bind_pose_offset"].as_u64().unwrap() as usize;
                let stored: Vec<f32> = i.bytes[at..at + 64]
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(
                    stored,
                    m.bind_poses.as_ref().expect("from 4.3")[k].e,
                    "{} bone {k}",
                    i.name
                );
            }
            assert_eq!(skin["name"], format!("{} (unity-mesh) skin", m.name.value));
        }
        checked += 1;
    }
    if !inputs.is_empty() {
        assert_eq!(checked, 10, "the body and a sword part in five versions");
    }
}

#[test]
fn sws_names_and_sources_lead_to_the_bytes() {
    let path = meshspec_tests::root().join("corpus/sws/built-five-parts.sws-mesh");
    let bytes = std::fs::read(&path).unwrap();
    let m = SwsMesh::from_bytes(&bytes, &Context::new()).unwrap();
    let entry = meshspec_formats::find("sws-mesh").unwrap();
    let mut scene = entry.scene(&bytes, &Context::new()).unwrap();
    scene.label(entry.id, "built-five-parts");
    let out = glb(scene.clone(), NonFinite::Refuse).unwrap();
    let j = json(&out.bytes);
    let f32s = |at: usize, n: usize| -> Vec<f32> {
        bytes[at..at + 4 * n]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    for (k, (mesh, e)) in j["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&m.submeshes)
        .enumerate()
    {
        assert_eq!(mesh["name"], format!("submesh {k} (sws-mesh)"));
        let s = sources(mesh);
        let path = format!("sws_mesh.submeshes[{k}].submesh");
        let (_, at, len, _) = s
            .iter()
            .find(|r| r.0 == format!("{path}.positions"))
            .unwrap();
        let items = &e.submesh.positions.items;
        assert_eq!(*len, 4 + 12 * items.len());
        let want: Vec<f32> = items.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
        assert_eq!(f32s(at + 4, 3 * items.len()), want);
        let prim = &mesh["primitives"][0];
        let (_, at, _, _) = sources(prim)
            .into_iter()
            .find(|r| r.0 == format!("{path}.material_id"))
            .unwrap();
        assert_eq!(
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
            e.submesh.material_id
        );
        // The bones, not exported as a skin, are listed with their ids, hashes and offsets.
        let bones = mesh["extras"]["bones"].as_array().unwrap();
        assert_eq!(bones.len(), m.bones.len());
        for (b, bone) in bones.iter().zip(&m.bones) {
            assert_eq!(
                (b["id"].as_u64(), b["name_hash"].as_u64()),
                (Some(u64::from(bone.id)), Some(u64::from(bone.name_hash)))
            );
            let at = b["offset"].as_u64().unwrap() as usize;
            assert_eq!(
                u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
                bone.id
            );
        }
    }
}

#[test]
fn findings_exports_are_at_rest_too() {
    for (file, version) in [
        ("unity-bindpose-nan.mesh", "2022.1.20f1"),
        ("unity-zero-weights.mesh", "2023.1.0a16"),
        ("unity-normal-huge.mesh", "2022.1.20f1"),
    ] {
        let f = meshspec_tests::finding_or_return!(file);
        let i = unity(&f, version, None);
        // A NaN bind pose written as 0 shears: the joint gets the nearest rigid transform and
        // the inverse bind matrix its inverse, so the rest pose still holds.
        let out = glb(i.scene.clone(), NonFinite::Zero).unwrap();
        let errors = rest_errors(&out.bytes);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].2 < 1e-5, "{file}: {}", errors[0].2);
    }
}
