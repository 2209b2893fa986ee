//! The exporter's own check of every .glb before it is returned: the file is read back with the
//! `gltf` crate (which checks the JSON's structure and references) and its data is held to the
//! rules Khronos' glTF-Validator applies to it: finite values, accessor bounds that match the
//! data, unit normals and tangents with w = ±1, colours within 0..1, indices that name
//! vertices and are not the restart value, joints the skin has, weights that sum to 1 as the
//! validator adds them, affine inverse bind matrices, unit rotations. A failure is a bug in
//! the exporter, reported as an error so that no such file is ever written.

use super::prepare::{sum_accepted, validator_sum};
use crate::rt::{Error, ErrorKind, Result};
use gltf::mesh::util::{ReadColors, ReadIndices, ReadJoints, ReadWeights};
use gltf::mesh::Mode;

/// glTF-Validator's tolerance on the length of unit vectors (`unitLengthThresholdVec3`).
const UNIT_LENGTH: f64 = 0.00674;
/// glTF-Validator's tolerance on the length of a node's rotation quaternion.
const UNIT_ROTATION: f64 = 0.000005;

fn fail(path: &str, rule: &str, found: String) -> Error {
    Error::unplaced(
        ErrorKind::Inconsistent,
        format!(
            "{rule} (glTF-Validator's rule, checked before writing: this is a bug in the exporter)"
        ),
        found,
    )
    .rooted(format!("export.glb.{path}"))
}

fn finite<const N: usize>(v: &[f32; N]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn length(v: &[f32]) -> f64 {
    v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt()
}

/// Checks that every element is finite.
fn all_finite<const N: usize>(path: &str, v: &[[f32; N]]) -> Result<()> {
    match v.iter().position(|a| !finite(a)) {
        Some(i) => Err(fail(
            path,
            "finite values (ACCESSOR_INVALID_FLOAT)",
            format!("{:?} at element {i}", v[i]),
        )),
        None => Ok(()),
    }
}

/// Checks that the accessor declares `min` and `max` and that they are the data's bounds.
fn bounds(path: &str, accessor: &gltf::Accessor, v: &[[f32; 3]]) -> Result<()> {
    let declared = |b: Option<serde_json::Value>| -> Option<Vec<f64>> {
        b?.as_array()?.iter().map(|x| x.as_f64()).collect()
    };
    let (Some(min), Some(max)) = (declared(accessor.min()), declared(accessor.max())) else {
        return Err(fail(
            path,
            "min and max on a POSITION accessor (MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS)",
            "none".into(),
        ));
    };
    for k in 0..3 {
        let lo = v
            .iter()
            .map(|a| f64::from(a[k]))
            .fold(f64::INFINITY, f64::min);
        let hi = v
            .iter()
            .map(|a| f64::from(a[k]))
            .fold(f64::NEG_INFINITY, f64::max);
        if min.get(k) != Some(&lo) || max.get(k) != Some(&hi) {
            return Err(fail(
                path,
                "min and max equal to the data's (ACCESSOR_MIN_MISMATCH, ACCESSOR_MAX_MISMATCH)",
                format!(
                    "component {k}: declared {:?}..{:?}, data {lo}..{hi}",
                    min.get(k),
                    max.get(k)
                ),
            ));
        }
    }
    Ok(())
}

fn count(path: &str, n: usize, got: usize) -> Result<()> {
    if n == got {
        Ok(())
    } else {
        Err(fail(
            path,
            &format!("{n} elements, one per vertex (MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT)"),
            got.to_string(),
        ))
    }
}

/// Checks a written .glb against the validator's rules.
pub fn glb(bytes: &[u8]) -> Result<()> {
    let g = gltf::Gltf::from_slice(bytes).map_err(|e| {
        fail(
            "document",
            "a glTF 2.0 document the gltf crate reads and validates",
            e.to_string(),
        )
    })?;
    let blob: &[u8] = g.blob.as_deref().unwrap_or(&[]);
    let data = |b: gltf::Buffer| match b.source() {
        gltf::buffer::Source::Bin => Some(blob),
        gltf::buffer::Source::Uri(_) => None,
    };
    for node in g.nodes() {
        let path = format!("nodes[{}]", node.index());
        let (t, r, s) = node.transform().decomposed();
        if !finite(&t) || !finite(&r) || !finite(&s) {
            return Err(fail(
                &path,
                "a finite transform",
                format!("{t:?} {r:?} {s:?}"),
            ));
        }
        if (length(&r) - 1.0).abs() > UNIT_ROTATION {
            return Err(fail(
                &path,
                "a unit rotation quaternion (ROTATION_NON_UNIT)",
                format!("length {}", length(&r)),
            ));
        }
    }
    // The joints each mesh's skin has (the validator takes the smallest skin using the mesh).
    let mut joints_of = vec![None::<usize>; g.meshes().len()];
    for node in g.nodes() {
        if let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) {
            let n = skin.joints().count();
            let slot = &mut joints_of[mesh.index()];
            *slot = Some(slot.map_or(n, |m| m.min(n)));
        }
    }
    for skin in g.skins() {
        let path = format!("skins[{}]", skin.index());
        let joints: Vec<gltf::Node> = skin.joints().collect();
        let ibms: Vec<[[f32; 4]; 4]> = skin
            .reader(data)
            .read_inverse_bind_matrices()
            .map(|r| r.collect())
            .unwrap_or_default();
        if ibms.len() < joints.len() {
            return Err(fail(
                &path,
                &format!(
                    "{} inverse bind matrices (INVALID_IBM_ACCESSOR_COUNT)",
                    joints.len()
                ),
                ibms.len().to_string(),
            ));
        }
        for (i, m) in ibms.iter().enumerate() {
            let ok = m.iter().all(finite)
                && [m[0][3], m[1][3], m[2][3], m[3][3]] == [0.0, 0.0, 0.0, 1.0];
            if !ok {
                return Err(fail(
                    &path,
                    "finite affine inverse bind matrices (ACCESSOR_INVALID_IBM)",
                    format!("{m:?} at joint {i}"),
                ));
            }
        }
        // The joints share a root: the skeleton node is an ancestor of every joint (each
        // node has one parent at most, so the walk up is the path to the scene's root).
        let parent = |j: usize| {
            g.nodes()
                .find(|p| p.children().any(|c| c.index() == j))
                .map(|p| p.index())
        };
        let root = skin.skeleton().map(|s| s.index());
        let nodes = g.nodes().count();
        let under_root = |j: usize| {
            let mut at = parent(j);
            for _ in 0..nodes {
                match at {
                    Some(p) if Some(p) == root => return true,
                    Some(p) => at = parent(p),
                    None => return false,
                }
            }
            false
        };
        if let Some(j) = joints.iter().find(|j| !under_root(j.index())) {
            return Err(fail(
                &path,
                "joints under one skeleton root (SKIN_NO_COMMON_ROOT)",
                format!("joint node {} not under the skeleton {root:?}", j.index()),
            ));
        }
    }
    for mesh in g.meshes() {
        let targets = mesh
            .primitives()
            .next()
            .map_or(0, |p| p.morph_targets().count());
        let weights = mesh.weights().map_or(0, |w| w.len());
        if weights != 0 && weights != targets {
            return Err(fail(
                &format!("meshes[{}].weights", mesh.index()),
                &format!("{targets} weights, one per morph target (MESH_INVALID_WEIGHTS_COUNT)"),
                weights.to_string(),
            ));
        }
        // Primitives that share their vertex accessors (one per submesh over one vertex
        // array, as the exporter writes them) have those checked once.
        let mut checked = std::collections::HashSet::new();
        for prim in mesh.primitives() {
            let path = format!("meshes[{}].primitives[{}]", mesh.index(), prim.index());
            let shared: (Vec<_>, Vec<_>) = (
                prim.attributes().map(|(s, a)| (s, a.index())).collect(),
                prim.morph_targets()
                    .map(|t| {
                        [t.positions(), t.normals(), t.tangents()].map(|a| a.map(|a| a.index()))
                    })
                    .collect(),
            );
            let n = if checked.insert(shared) {
                attributes(&path, &prim, data, joints_of[mesh.index()])?
            } else {
                prim.get(&gltf::Semantic::Positions)
                    .map_or(0, |a| a.count())
            };
            indices(&path, &prim, data, n)?;
        }
    }
    Ok(())
}

/// Checks a primitive's vertex attributes and morph targets: the vertex count.
fn attributes<'a, 's, F>(
    path: &str,
    prim: &'a gltf::Primitive<'a>,
    data: F,
    joints: Option<usize>,
) -> Result<usize>
where
    F: Clone + Fn(gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    let reader = prim.reader(data);
    let at = |what: &str| format!("{path}.attributes.{what}");
    let positions: Vec<[f32; 3]> = reader
        .read_positions()
        .ok_or_else(|| {
            fail(
                path,
                "a POSITION attribute (MESH_PRIMITIVE_NO_POSITION)",
                "none".into(),
            )
        })?
        .collect();
    let n = positions.len();
    all_finite(&at("POSITION"), &positions)?;
    if let Some(a) = prim.get(&gltf::Semantic::Positions) {
        bounds(&at("POSITION"), &a, &positions)?;
    }
    if let Some(r) = reader.read_normals() {
        let v: Vec<[f32; 3]> = r.collect();
        count(&at("NORMAL"), n, v.len())?;
        all_finite(&at("NORMAL"), &v)?;
        if let Some(i) = v.iter().position(|a| (length(a) - 1.0).abs() > UNIT_LENGTH) {
            return Err(fail(
                &at("NORMAL"),
                "unit normals (ACCESSOR_VECTOR3_NON_UNIT)",
                format!("length {} at vertex {i}", length(&v[i])),
            ));
        }
    }
    if let Some(r) = reader.read_tangents() {
        let v: Vec<[f32; 4]> = r.collect();
        count(&at("TANGENT"), n, v.len())?;
        all_finite(&at("TANGENT"), &v)?;
        if let Some(i) = v
            .iter()
            .position(|a| (length(&a[..3]) - 1.0).abs() > UNIT_LENGTH)
        {
            return Err(fail(
                &at("TANGENT"),
                "unit tangents (ACCESSOR_VECTOR3_NON_UNIT)",
                format!("length {} at vertex {i}", length(&v[i][..3])),
            ));
        }
        if let Some(i) = v.iter().position(|a| a[3] != 1.0 && a[3] != -1.0) {
            return Err(fail(
                &at("TANGENT"),
                "w of 1 or -1 (ACCESSOR_INVALID_SIGN)",
                format!("{} at vertex {i}", v[i][3]),
            ));
        }
    }
    if let Some(r) = reader.read_colors(0) {
        let float = matches!(r, ReadColors::RgbF32(_) | ReadColors::RgbaF32(_));
        let v: Vec<[f32; 4]> = r.into_rgba_f32().collect();
        count(&at("COLOR_0"), n, v.len())?;
        all_finite(&at("COLOR_0"), &v)?;
        if let Some(i) = v
            .iter()
            .position(|a| float && a.iter().any(|x| !(0.0..=1.0).contains(x)))
        {
            return Err(fail(
                &at("COLOR_0"),
                "colours within 0 to 1 (ACCESSOR_NON_CLAMPED)",
                format!("{:?} at vertex {i}", v[i]),
            ));
        }
    }
    for set in 0.. {
        let Some(r) = reader.read_tex_coords(set) else {
            break;
        };
        let what = at(&format!("TEXCOORD_{set}"));
        let v: Vec<[f32; 2]> = r.into_f32().collect();
        count(&what, n, v.len())?;
        all_finite(&what, &v)?;
    }
    match (reader.read_joints(0), reader.read_weights(0)) {
        (None, None) => {}
        (Some(j), Some(w)) => {
            let j: Vec<[u16; 4]> = match j {
                ReadJoints::U8(i) => i.map(|a| a.map(u16::from)).collect(),
                ReadJoints::U16(i) => i.collect(),
            };
            let w: Vec<[f32; 4]> = match w {
                ReadWeights::F32(i) => i.collect(),
                other => other.into_f32().collect(),
            };
            count(&at("JOINTS_0"), n, j.len())?;
            count(&at("WEIGHTS_0"), n, w.len())?;
            all_finite(&at("WEIGHTS_0"), &w)?;
            let Some(max) = joints else {
                return Err(fail(
                    path,
                    "a node with a skin for a mesh with joints (NODE_SKINNED_MESH_WITHOUT_SKIN)",
                    "none".into(),
                ));
            };
            for (v, (jv, wv)) in j.iter().zip(&w).enumerate() {
                for k in 0..4 {
                    if usize::from(jv[k]) >= max {
                        return Err(fail(
                            &at("JOINTS_0"),
                            &format!("joints below {max} (ACCESSOR_JOINTS_INDEX_OOB)"),
                            format!("{} at vertex {v}", jv[k]),
                        ));
                    }
                    if wv[k] < 0.0 {
                        return Err(fail(
                            &at("WEIGHTS_0"),
                            "weights of at least 0 (ACCESSOR_WEIGHTS_NEGATIVE)",
                            format!("{} at vertex {v}", wv[k]),
                        ));
                    }
                    if wv[k] == 0.0 && jv[k] != 0 {
                        return Err(fail(
                            &at("JOINTS_0"),
                            "joint 0 where the weight is 0 (ACCESSOR_JOINTS_USED_ZERO_WEIGHT)",
                            format!("joint {} at vertex {v}", jv[k]),
                        ));
                    }
                    if wv[k] != 0.0 && (0..k).any(|p| wv[p] != 0.0 && jv[p] == jv[k]) {
                        return Err(fail(
                            &at("JOINTS_0"),
                            "each joint once per vertex (ACCESSOR_JOINTS_INDEX_DUPLICATE)",
                            format!("joint {} twice at vertex {v}", jv[k]),
                        ));
                    }
                }
                let (sum, influences) = validator_sum(jv, wv);
                if !sum_accepted(sum, influences) {
                    return Err(fail(
                        &at("WEIGHTS_0"),
                        "weights summing to 1 (ACCESSOR_WEIGHTS_NON_NORMALIZED)",
                        format!("{sum} at vertex {v} ({wv:?})"),
                    ));
                }
            }
        }
        _ => {
            return Err(fail(
                path,
                "JOINTS_0 and WEIGHTS_0 together (MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH)",
                "one of them".into(),
            ))
        }
    }
    for (t, (target, (pos, nor, tan))) in prim
        .morph_targets()
        .zip(reader.read_morph_targets())
        .enumerate()
    {
        let here = |what: &str| format!("{path}.targets[{t}].{what}");
        if let Some(p) = pos {
            let v: Vec<[f32; 3]> = p.collect();
            count(&here("POSITION"), n, v.len())?;
            all_finite(&here("POSITION"), &v)?;
            if let Some(a) = target.positions() {
                bounds(&here("POSITION"), &a, &v)?;
            }
        }
        if let Some(p) = nor {
            let v: Vec<[f32; 3]> = p.collect();
            count(&here("NORMAL"), n, v.len())?;
            all_finite(&here("NORMAL"), &v)?;
        }
        if let Some(p) = tan {
            let v: Vec<[f32; 3]> = p.collect();
            count(&here("TANGENT"), n, v.len())?;
            all_finite(&here("TANGENT"), &v)?;
        }
    }
    Ok(n)
}

/// Checks a primitive's indices against its `n` vertices and its mode.
fn indices<'a, 's, F>(path: &str, prim: &'a gltf::Primitive<'a>, data: F, n: usize) -> Result<()>
where
    F: Clone + Fn(gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    if let Some(r) = prim.reader(data).read_indices() {
        let restart = match &r {
            ReadIndices::U8(_) => 0xFF,
            ReadIndices::U16(_) => 0xFFFF,
            ReadIndices::U32(_) => u32::MAX,
        };
        let idx: Vec<u32> = r.into_u32().collect();
        if let Some(k) = idx.iter().position(|&i| i as usize >= n || i == restart) {
            return Err(fail(
                &format!("{path}.indices"),
                &format!(
                    "indices below {n} and not the restart value {restart} (ACCESSOR_INDEX_OOB, ACCESSOR_INDEX_PRIMITIVE_RESTART)"
                ),
                format!("{} at position {k}", idx[k]),
            ));
        }
        let whole = match prim.mode() {
            Mode::Triangles => idx.len().is_multiple_of(3),
            Mode::Lines => idx.len().is_multiple_of(2),
            Mode::LineStrip => idx.len() >= 2,
            _ => !idx.is_empty(),
        };
        if !whole {
            return Err(fail(
                &format!("{path}.indices"),
                &format!(
                    "a count that {:?} can draw (MESH_PRIMITIVE_INCOMPATIBLE_MODE)",
                    prim.mode()
                ),
                idx.len().to_string(),
            ));
        }
    }
    Ok(())
}
