//! Export: every corpus file with geometry (the repository's and the shared Unity meshes)
//! exports to a .glb that Khronos' glTF-Validator accepts with no errors and no warnings; the
//! exporter's own check refuses what the validator refuses; nothing non-finite is ever written;
//! names from input cannot add lines to an OBJ or to the notes; OBJ says what it drops and
//! names materials only with a library. One named regression test per finding of
//! `../shared/findings/robustness/` about export.

#[path = "export_common.rs"]
mod common;

use common::*;
use meshspec_formats::export::{self, glb, obj, obj_with_mtl, NonFinite};
use meshspec_formats::find;
use meshspec_formats::scene::{Mesh, Mode, MorphTarget, Primitive, Scene, Skin};
use meshspec_formats::Context;
use meshspec_tests::root;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The JSON chunk of a .glb.
fn json_of(glb: &[u8]) -> Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

/// Every number of an OBJ's `v`, `vt` and `vn` statements.
fn obj_numbers(text: &str) -> Vec<f32> {
    text.lines()
        .filter(|l| l.starts_with("v ") || l.starts_with("vt ") || l.starts_with("vn "))
        .flat_map(|l| l.split_whitespace().skip(1))
        .map(|x| x.parse::<f32>().unwrap())
        .collect()
}

/// The statements an OBJ from the exporter may hold.
fn only_obj_statements(text: &str) {
    for (i, l) in text.lines().enumerate() {
        let word = l.split(' ').next().unwrap();
        assert!(
            ["#", "o", "v", "vt", "vn", "g", "f", "l", "p", "usemtl", "mtllib"].contains(&word),
            "line {i}: {l:?}"
        );
    }
}

/// Notes that are one line each, with nothing a terminal acts on and no fake `error:` line.
fn clean_notes(notes: &[String]) {
    for n in notes {
        assert!(!n.chars().any(|c| c.is_control()), "{n:?}");
        assert!(!n.starts_with("error"), "{n:?}");
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name.replace('/', "__"));
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn every_export_passes_gltf_validator_with_no_warning() {
    let dir = temp("glb");
    let mut files = vec![];
    let mut inputs = repo_inputs();
    let repo = inputs.len();
    inputs.extend(unity_inputs(meshspec_tests::test_name!()));
    for i in &inputs {
        let out =
            glb(i.scene.clone(), NonFinite::Refuse).unwrap_or_else(|e| panic!("{}: {e}", i.name));
        clean_notes(&out.notes);
        files.push(write(&dir, &format!("{}.glb", i.name), &out.bytes));
    }
    assert!(repo >= 6, "only {repo} repository exports");
    validate_strict(&files);
}

/// A small skinned, morphed, coloured mesh made by hand.
fn hand_mesh() -> Mesh {
    Mesh {
        name: "hand".into(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: Some(vec![[0.0, 0.0, 1.0]; 3]),
        tangents: Some(vec![[1.0, 0.0, 0.0, 1.0]; 3]),
        uvs: vec![vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]],
        primitives: vec![Primitive {
            mode: Mode::Triangles,
            indices: vec![0, 1, 2],
            material: None,
        }],
        skin: Some(Skin {
            joints: vec![[0, 1, 0, 0]; 3],
            weights: vec![[0.5, 0.5, 0.0, 0.0]; 3],
            inverse_bind_matrices: vec![identity(); 2],
            joint_names: vec!["root".into(), "tip".into()],
            ..Skin::default()
        }),
        morph_targets: vec![MorphTarget {
            name: "lift".into(),
            positions: vec![[0.0, 0.0, 1.0]; 3],
            normals: Some(vec![[0.0; 3]; 3]),
            tangents: None,
            default_weight: 0.0,
        }],
        ..Mesh::default()
    }
}

fn identity() -> [f32; 16] {
    [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

fn scene(m: Mesh) -> Scene {
    Scene {
        meshes: vec![m],
        notes: vec![],
    }
}

/// The byte range of the accessor `index` in a .glb's binary chunk.
fn accessor_bytes(glb: &[u8], index: usize) -> std::ops::Range<usize> {
    let j = json_of(glb);
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let bin = 20 + json_len + 8;
    let a = &j["accessors"][index];
    let v = &j["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = bin + v["byteOffset"].as_u64().unwrap_or(0) as usize;
    start..start + v["byteLength"].as_u64().unwrap() as usize
}

#[test]
fn the_exporters_own_check_refuses_what_the_validator_refuses() {
    let out = glb(scene(hand_mesh()), NonFinite::Refuse).unwrap();
    export::validate::glb(&out.bytes).unwrap();
    let shifted = [&[0u8][..], &out.bytes].concat();
    export::validate::glb(&shifted[1..]).unwrap();
    let j = json_of(&out.bytes);
    let attr = |k: &str| {
        j["meshes"][0]["primitives"][0]["attributes"][k]
            .as_u64()
            .unwrap() as usize
    };
    let dir = temp("own-check");
    // Each change breaks one rule; both checkers must see it: (what, accessor, byte offset in
    // its data, new bytes, the validator's code).
    let indices = j["meshes"][0]["primitives"][0]["indices"].as_u64().unwrap() as usize;
    let cases: Vec<(&str, usize, usize, Vec<u8>, &str)> = vec![
        (
            "normal",
            attr("NORMAL"),
            8,
            0.5f32.to_le_bytes().to_vec(),
            "ACCESSOR_VECTOR3_NON_UNIT",
        ),
        (
            // Vertex 1's x, the largest, falls below the declared maximum.
            "position",
            attr("POSITION"),
            12,
            0.5f32.to_le_bytes().to_vec(),
            "ACCESSOR_MAX_MISMATCH",
        ),
        (
            "weights",
            attr("WEIGHTS_0"),
            0,
            0.25f32.to_le_bytes().to_vec(),
            "ACCESSOR_WEIGHTS_NON_NORMALIZED",
        ),
        (
            "nan",
            attr("TEXCOORD_0"),
            0,
            f32::NAN.to_le_bytes().to_vec(),
            "ACCESSOR_INVALID_FLOAT",
        ),
        (
            "index",
            indices,
            0,
            7u16.to_le_bytes().to_vec(),
            "ACCESSOR_INDEX_OOB",
        ),
        (
            "tangent sign",
            attr("TANGENT"),
            12,
            0.5f32.to_le_bytes().to_vec(),
            "ACCESSOR_INVALID_SIGN",
        ),
    ];
    for (name, accessor, at, new, rule) in cases {
        let mut bytes = out.bytes.clone();
        let r = accessor_bytes(&bytes, accessor);
        bytes[r.start + at..r.start + at + new.len()].copy_from_slice(&new);
        let e = export::validate::glb(&bytes).expect_err(name);
        assert!(e.to_string().contains(rule), "{name}: {e}");
        // One byte off its alignment, no accessor can be seen in place: the gltf crate's
        // reader takes every one, and finds the same.
        let shifted = [&[0u8][..], &bytes].concat();
        let e = export::validate::glb(&shifted[1..]).expect_err(name);
        assert!(
            e.to_string().contains(rule),
            "{name}, read by the gltf crate: {e}"
        );
        let file = write(&dir, &format!("{name}.glb"), &bytes);
        let (ok, text) = validator_output(&[file]);
        assert!(!ok && text.contains(rule), "{name}: {text}");
    }
}

#[test]
fn obj_says_what_it_drops_and_names_materials_only_with_a_library() {
    let mut m = hand_mesh();
    m.materials = vec![meshspec_formats::scene::Material {
        name: "submesh 0".into(),
    }];
    m.primitives[0].material = Some(0);
    m.uvs.push(m.uvs[0].clone());
    let s = scene(m);
    let out = obj(s.clone(), NonFinite::Refuse).unwrap();
    let text = String::from_utf8(out.bytes).unwrap();
    only_obj_statements(&text);
    assert!(
        !text.contains("usemtl") && !text.contains("mtllib"),
        "{text}"
    );
    assert!(text.contains("\ng hand_0_submesh_0\n"), "{text}");
    assert!(out.mtl.is_none());
    for what in [
        "tangents",
        "skin",
        "morph targets",
        "first of 2 UV sets",
        "no usemtl",
    ] {
        assert!(
            out.notes.iter().any(|n| n.contains(what)),
            "{what}: {:?}",
            out.notes
        );
    }
    let out = obj_with_mtl(s.clone(), NonFinite::Refuse, "hand.mtl").unwrap();
    let text = String::from_utf8(out.bytes).unwrap();
    assert!(
        text.contains("\nmtllib hand.mtl\n") && text.contains("\nusemtl submesh_0\n"),
        "{text}"
    );
    let mtl = String::from_utf8(out.mtl.unwrap()).unwrap();
    assert_eq!(
        mtl.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        ["newmtl submesh_0"]
    );
    assert!(!out.notes.iter().any(|n| n.contains("no usemtl")));
    // mtllib names files separated by spaces: such a name cannot be written.
    assert!(obj_with_mtl(s.clone(), NonFinite::Refuse, "my hand.mtl").is_err());
}

#[test]
fn names_cannot_add_lines_to_an_obj_or_the_notes() {
    let mut m = hand_mesh();
    m.name = "a\nv 9 9 9\nf 1 2 3\r\n\u{1b}[31m\0".into();
    m.materials = vec![meshspec_formats::scene::Material {
        name: "m\nusemtl x".into(),
    }];
    m.primitives[0].material = Some(0);
    m.normals.as_mut().unwrap()[0] = [0.0, 0.0, 2.0];
    let s = scene(m);
    for out in [
        obj(s.clone(), NonFinite::Refuse).unwrap(),
        obj_with_mtl(s.clone(), NonFinite::Refuse, "x.mtl").unwrap(),
    ] {
        let text = String::from_utf8(out.bytes).unwrap();
        only_obj_statements(&text);
        assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 3);
        assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 1);
        assert_eq!(text.lines().filter(|l| l.starts_with("o ")).count(), 1);
        assert!(
            text.contains("o a\\nv_9_9_9\\nf_1_2_3\\r\\n\\u{001B}[31m\\0\n"),
            "{text}"
        );
        if let Some(mtl) = out.mtl {
            let mtl = String::from_utf8(mtl).unwrap();
            assert!(mtl
                .lines()
                .all(|l| l.starts_with('#') || l.starts_with("newmtl ")));
        }
        clean_notes(&out.notes);
        assert!(
            out.notes.iter().any(|n| n.contains("mesh `a\\nv 9 9 9")),
            "{:?}",
            out.notes
        );
    }
    let out = glb(s.clone(), NonFinite::Refuse).unwrap();
    clean_notes(&out.notes);
    // An error naming the mesh is escaped too.
    let mut bad = s.clone();
    bad.meshes[0].positions[1][0] = f32::NAN;
    let e = glb(bad.clone(), NonFinite::Refuse).unwrap_err().to_string();
    assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
}

// ---------------------------------------------------------------------------------------------
// The findings (../shared/findings/robustness/): each a named regression test.

/// Exports `scene` under both non-finite policies as .glb and .obj: whatever is written passes
/// the exporter's own check and holds only finite numbers; what is refused is an error.
fn never_non_finite(scene: &Scene, dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = vec![];
    for policy in [NonFinite::Refuse, NonFinite::Zero] {
        if let Ok(out) = glb(scene.clone(), policy) {
            export::validate::glb(&out.bytes).unwrap();
            clean_notes(&out.notes);
            files.push(write(dir, &format!("{name}-{policy:?}.glb"), &out.bytes));
        }
        if let Ok(out) = obj(scene.clone(), policy) {
            let text = String::from_utf8(out.bytes).unwrap();
            assert!(obj_numbers(&text).iter().all(|x| x.is_finite()), "{name}");
        }
    }
    if !files.is_empty() {
        validate_strict(&files);
    }
    files
}

fn regression(name: &str) -> PathBuf {
    root().join("tests/regressions").join(name)
}

#[test]
fn unity_bindpose_nan_is_refused_or_written_as_zero_never_as_nan() {
    let f = meshspec_tests::finding_or_return!("unity-bindpose-nan.mesh");
    let i = unity(&f, "2022.1.20f1", None);
    let e = glb(i.scene.clone(), NonFinite::Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("1 inverse bind matrices (first at joint 0)"),
        "{e}"
    );
    assert!(obj(i.scene.clone(), NonFinite::Refuse).is_err());
    let out = glb(i.scene.clone(), NonFinite::Zero).unwrap();
    assert!(
        out.notes
            .iter()
            .any(|n| n.contains("written as 0: 1 inverse bind matrices")),
        "{:?}",
        out.notes
    );
    assert_eq!(
        never_non_finite(&i.scene, &temp("bindpose-nan"), "nan").len(),
        1
    );
}

#[test]
fn sws_morph_normal_inf_never_reaches_a_glb() {
    let bytes = std::fs::read(regression("sws-morph-normal-inf.sws-mesh")).unwrap();
    let mut s = find("sws-mesh")
        .unwrap()
        .scene(&bytes, &Context::new())
        .unwrap();
    s.label("sws-mesh", "inf");
    let e = glb(s.clone(), NonFinite::Refuse).unwrap_err().to_string();
    assert!(
        e.contains("1 morph target morph stream 1 normals (first at vertex 1)"),
        "{e}"
    );
    let out = glb(s.clone(), NonFinite::Zero).unwrap();
    assert!(out
        .notes
        .iter()
        .any(|n| n.contains("written as 0: 1 morph target")));
    assert_eq!(never_non_finite(&s, &temp("morph-inf"), "inf").len(), 1);
}

/// The normals (or tangents) a .glb holds for its first mesh.
fn read_vectors(glb: &[u8], semantic: gltf::Semantic) -> Vec<Vec<f32>> {
    let g = gltf::Gltf::from_slice(glb).unwrap();
    let blob = g.blob.clone().unwrap();
    let prim = g.meshes().next().unwrap().primitives().next().unwrap();
    let r = prim.reader(|_| Some(&blob[..]));
    match semantic {
        gltf::Semantic::Normals => r.read_normals().unwrap().map(|v| v.to_vec()).collect(),
        _ => r.read_tangents().unwrap().map(|v| v.to_vec()).collect(),
    }
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
}

#[test]
fn normal_huge_normalises_without_overflow() {
    let bytes = std::fs::read(regression("normal-huge.sws-submesh")).unwrap();
    let s = find("sws-submesh")
        .unwrap()
        .scene(&bytes, &Context::new())
        .unwrap();
    assert_eq!(s.meshes[0].normals.as_ref().unwrap()[0], [1e30, 1e30, 0.0]);
    let out = glb(s.clone(), NonFinite::Refuse).unwrap();
    let n = read_vectors(&out.bytes, gltf::Semantic::Normals);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(close(&n[0], &[h, h, 0.0]), "{:?}", n[0]);
    assert!(out.notes.iter().any(|n| n.contains("1 normals rescaled")));
    never_non_finite(&s, &temp("normal-huge"), "n");
}

#[test]
fn tangent_huge_normalises_without_overflow() {
    let bytes = std::fs::read(regression("tangent-huge.sws-submesh")).unwrap();
    let s = find("sws-submesh")
        .unwrap()
        .scene(&bytes, &Context::new())
        .unwrap();
    assert_eq!(s.meshes[0].tangents.as_ref().unwrap()[0][2], 1.7014118e38);
    let out = glb(s.clone(), NonFinite::Refuse).unwrap();
    let t = read_vectors(&out.bytes, gltf::Semantic::Tangents);
    assert!(close(&t[0][..3], &[0.0, 0.0, 1.0]), "{:?}", t[0]);
    assert!(out.notes.iter().any(|n| n.contains("1 tangents rescaled")));
    never_non_finite(&s, &temp("tangent-huge"), "t");
}

#[test]
fn unity_normal_huge_normalises_without_overflow() {
    let f = meshspec_tests::finding_or_return!("unity-normal-huge.mesh");
    let i = unity(&f, "2022.1.20f1", None);
    let stored = i.scene.meshes[0].normals.clone().unwrap();
    let huge = stored
        .iter()
        .position(|n| n.iter().any(|x| x.abs() > 1.8e19))
        .expect("a normal above 1.8e19");
    let out = glb(i.scene.clone(), NonFinite::Refuse).unwrap();
    let n = read_vectors(&out.bytes, gltf::Semantic::Normals);
    let s = stored[huge].map(f64::from);
    let len = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
    let want: Vec<f32> = s.iter().map(|x| (x / len) as f32).collect();
    assert!(
        close(&n[huge], &want),
        "{:?} for {:?}",
        n[huge],
        stored[huge]
    );
    never_non_finite(&i.scene, &temp("unity-normal-huge"), "u");
}

#[test]
fn unity_zero_weights_are_bound_rigidly_and_said() {
    let f = meshspec_tests::finding_or_return!("unity-zero-weights.mesh");
    let i = unity(&f, "2023.1.0a16", None);
    let skin = i.scene.meshes[0].skin.as_ref().unwrap();
    let v = skin
        .weights
        .iter()
        .position(|w| w.iter().all(|&x| x == 0.0))
        .unwrap();
    let out = glb(i.scene.clone(), NonFinite::Refuse).unwrap();
    assert!(
        out.notes
            .iter()
            .any(|n| n.contains(&format!(
                "1 vertices have no influence of non-zero weight (the first is vertex {v})"
            )) && n.contains("bound with weight 1 to joint 0 `bone 0 (name hash 0x")),
        "{:?}",
        out.notes
    );
    let g = gltf::Gltf::from_slice(&out.bytes).unwrap();
    let blob = g.blob.clone().unwrap();
    let prim = g.meshes().next().unwrap().primitives().next().unwrap();
    let r = prim.reader(|_| Some(&blob[..]));
    let w: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
    let j: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
    assert_eq!((w[v], j[v]), ([1.0, 0.0, 0.0, 0.0], [0, 0, 0, 0]));
    never_non_finite(&i.scene, &temp("zero-weights"), "z");
}

#[test]
fn unity_name_newline_cannot_add_lines_or_fake_errors() {
    let f = meshspec_tests::finding_or_return!("unity-name-newline.mesh");
    let ress = f
        .parent()
        .unwrap()
        .join("../../corpus/unity/meshes/2021.3.0f1/CAB-5d40f7cad7c871cf2ad2af19ac542994.resS");
    let i = unity(&f, "2021.3.0f1", Some(&ress));
    assert!(i.scene.meshes[0].name.contains('\n'));
    let out = obj(i.scene.clone(), NonFinite::Refuse).unwrap();
    let text = String::from_utf8(out.bytes).unwrap();
    only_obj_statements(&text);
    assert!(
        !text.lines().any(|l| l == "v 9 9 9" || l == "f 1 2 3"),
        "an injected line"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("o ")).count(), 1);
    clean_notes(&out.notes);
    let out = glb(i.scene.clone(), NonFinite::Refuse).unwrap();
    clean_notes(&out.notes);
    validate_strict(&[write(&temp("name-newline"), "n.glb", &out.bytes)]);
}
