//! The exporter's own check of every .glb before it is returned: the file is read back with the
//! `gltf` crate (which checks the JSON's structure and references) and its data is held to the
//! rules Khronos' glTF-Validator applies to it: finite values, accessor bounds that match the
//! data, unit normals and tangents with w = ±1, colours within 0..1, indices that name
//! vertices and are not the restart value, joints the skin has, weights that sum to 1 as the
//! validator adds them, affine inverse bind matrices, unit rotations. A failure is a bug in
//! the exporter, reported as an error so that no such file is ever written.

use super::prepare::{sum_accepted, validator_sum};
use crate::rt::{Error, ErrorKind, Result};
use gltf::mesh::util::ReadColors;
use gltf::mesh::Mode;
use std::borrow::Cow;

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

/// Checks that `v` has `n` elements (one per vertex), each finite and passing `check` (given
/// its index): one pass over the accessor, nothing collected.
fn each<const N: usize>(
    path: &str,
    n: usize,
    v: impl ExactSizeIterator<Item = [f32; N]>,
    mut check: impl FnMut(usize, &[f32; N]) -> Result<()>,
) -> Result<()> {
    count(path, n, v.len())?;
    for (i, a) in v.enumerate() {
        if !finite(&a) {
            return Err(fail(
                path,
                "finite values (ACCESSOR_INVALID_FLOAT)",
                format!("{a:?} at element {i}"),
            ));
        }
        check(i, &a)?;
    }
    Ok(())
}

/// The bounds of each component, as the validator computes them.
#[derive(Clone, Copy)]
struct Bounds {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        lo: [f64::INFINITY; 3],
        hi: [f64::NEG_INFINITY; 3],
    };

    fn add(&mut self, a: &[f32; 3]) {
        for ((lo, hi), &x) in self.lo.iter_mut().zip(&mut self.hi).zip(a) {
            *lo = lo.min(f64::from(x));
            *hi = hi.max(f64::from(x));
        }
    }
}

/// Checks that the accessor declares `min` and `max` and that they are the data's bounds.
fn bounds(path: &str, accessor: &gltf::Accessor, data: Bounds) -> Result<()> {
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
        let (lo, hi) = (data.lo[k], data.hi[k]);
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

/// A vector of unit length, as the validator sees it.
fn unit_length(path: &str, what: &str, i: usize, v: &[f32]) -> Result<()> {
    if (length(v) - 1.0).abs() > UNIT_LENGTH {
        return Err(fail(
            path,
            &format!("unit {what} (ACCESSOR_VECTOR3_NON_UNIT)"),
            format!("length {} at vertex {i}", length(v)),
        ));
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

/// Accessor `a`'s elements where they lie in the buffer, when they lie there as `[T; N]`
/// values of component type `ty` lie in memory: a tightly packed, aligned run of
/// little-endian numbers in the binary chunk, which is how the exporter writes every
/// accessor. `None` otherwise (the gltf crate's reader takes them then).
fn in_place<'s, T: bytemuck::Pod, const N: usize>(
    a: &gltf::Accessor,
    ty: gltf::accessor::DataType,
    blob: &'s [u8],
) -> Option<&'s [[T; N]]> {
    let v = a.view()?;
    let size = std::mem::size_of::<[T; N]>();
    let packed = cfg!(target_endian = "little")
        && a.sparse().is_none()
        && a.data_type() == ty
        && a.dimensions().multiplicity() == N
        && v.stride().is_none_or(|s| s == size)
        && matches!(v.buffer().source(), gltf::buffer::Source::Bin);
    if !packed {
        return None;
    }
    let len = a.count().checked_mul(size)?;
    if a.offset().checked_add(len)? > v.length() {
        return None;
    }
    let start = v.offset().checked_add(a.offset())?;
    bytemuck::try_cast_slice(blob.get(start..start.checked_add(len)?)?).ok()
}

/// The elements of accessor `a` (of component type `ty`): in place when they can be, else as
/// `read` reads them.
fn elements<'s, T: bytemuck::Pod, const N: usize>(
    a: &gltf::Accessor,
    ty: gltf::accessor::DataType,
    blob: &'s [u8],
    read: impl FnOnce() -> Option<Vec<[T; N]>>,
) -> Cow<'s, [[T; N]]> {
    match in_place::<T, N>(a, ty, blob) {
        Some(v) => Cow::Borrowed(v),
        None => Cow::Owned(read().unwrap_or_default()),
    }
}

/// The float vectors of accessor `a`, as [`elements`] finds them.
fn vectors<'s, const N: usize>(
    a: &gltf::Accessor,
    blob: &'s [u8],
    read: impl FnOnce() -> Option<Vec<[f32; N]>>,
) -> Cow<'s, [[f32; N]]> {
    elements(a, gltf::accessor::DataType::F32, blob, read)
}

/// Checks a written .glb against the validator's rules.
pub fn glb(bytes: &[u8]) -> Result<()> {
    let unread = |e: String| {
        fail(
            "document",
            "a glTF 2.0 document the gltf crate reads and validates",
            e,
        )
    };
    // The binary chunk borrowed, not copied.
    let file = gltf::Glb::from_slice(bytes).map_err(|e| unread(e.to_string()))?;
    let g = gltf::json::deserialize::from_slice(&file.json)
        .map_err(|e| unread(e.to_string()))
        .and_then(|root| gltf::Document::from_json(root).map_err(|e| unread(e.to_string())))?;
    let blob: &[u8] = file.bin.as_deref().unwrap_or(&[]);
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
                attributes(&path, &prim, data, blob, joints_of[mesh.index()])?
            } else {
                prim.get(&gltf::Semantic::Positions)
                    .map_or(0, |a| a.count())
            };
            indices(&path, &prim, data, blob, n)?;
        }
    }
    Ok(())
}

/// Checks a primitive's vertex attributes and morph targets: the vertex count.
fn attributes<'a, 's, F>(
    path: &str,
    prim: &'a gltf::Primitive<'a>,
    data: F,
    blob: &[u8],
    joints: Option<usize>,
) -> Result<usize>
where
    F: Clone + Fn(gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    use gltf::Semantic as S;
    let reader = prim.reader(data);
    let at = |what: &str| format!("{path}.attributes.{what}");
    let collect = |r: Option<gltf::accessor::Iter<'s, [f32; 3]>>| r.map(|r| r.collect());
    let Some(pa) = prim.get(&S::Positions) else {
        return Err(fail(
            path,
            "a POSITION attribute (MESH_PRIMITIVE_NO_POSITION)",
            "none".into(),
        ));
    };
    let positions = vectors(&pa, blob, || collect(reader.read_positions()));
    let n = pa.count();
    let mut b = Bounds::EMPTY;
    each(&at("POSITION"), n, positions.iter().copied(), |_, a| {
        b.add(a);
        Ok(())
    })?;
    bounds(&at("POSITION"), &pa, b)?;
    if let Some(a) = prim.get(&S::Normals) {
        let path = at("NORMAL");
        let v = vectors(&a, blob, || collect(reader.read_normals()));
        each(&path, n, v.iter().copied(), |i, a| {
            unit_length(&path, "normals", i, a)
        })?;
    }
    if let Some(a) = prim.get(&S::Tangents) {
        let path = at("TANGENT");
        let v = vectors(&a, blob, || reader.read_tangents().map(|r| r.collect()));
        each(&path, n, v.iter().copied(), |i, a| {
            unit_length(&path, "tangents", i, &a[..3])?;
            if a[3] != 1.0 && a[3] != -1.0 {
                return Err(fail(
                    &path,
                    "w of 1 or -1 (ACCESSOR_INVALID_SIGN)",
                    format!("{} at vertex {i}", a[3]),
                ));
            }
            Ok(())
        })?;
    }
    if let Some(r) = reader.read_colors(0) {
        let float = matches!(r, ReadColors::RgbF32(_) | ReadColors::RgbaF32(_));
        let path = at("COLOR_0");
        each(&path, n, r.into_rgba_f32(), |i, a| {
            if float && a.iter().any(|x| !(0.0..=1.0).contains(x)) {
                return Err(fail(
                    &path,
                    "colours within 0 to 1 (ACCESSOR_NON_CLAMPED)",
                    format!("{a:?} at vertex {i}"),
                ));
            }
            Ok(())
        })?;
    }
    for set in 0.. {
        let Some(a) = prim.get(&S::TexCoords(set)) else {
            break;
        };
        let v = vectors(&a, blob, || {
            reader.read_tex_coords(set).map(|r| r.into_f32().collect())
        });
        each(
            &at(&format!("TEXCOORD_{set}")),
            n,
            v.iter().copied(),
            |_, _| Ok(()),
        )?;
    }
    match (prim.get(&S::Joints(0)), prim.get(&S::Weights(0))) {
        (None, None) => {}
        (Some(ja), Some(wa)) => {
            let j = elements(&ja, gltf::accessor::DataType::U16, blob, || {
                reader.read_joints(0).map(|r| r.into_u16().collect())
            });
            count(&at("JOINTS_0"), n, j.len())?;
            let Some(max) = joints else {
                return Err(fail(
                    path,
                    "a node with a skin for a mesh with joints (NODE_SKINNED_MESH_WITHOUT_SKIN)",
                    "none".into(),
                ));
            };
            let w = vectors(&wa, blob, || {
                reader.read_weights(0).map(|r| r.into_f32().collect())
            });
            each(&at("WEIGHTS_0"), n, w.iter().copied(), |v, wv| {
                influences(&at, max, v, &j[v], wv)
            })?;
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
        let read = |a: Option<gltf::Accessor>, r: Option<gltf::accessor::Iter<'s, [f32; 3]>>| {
            a.map(|a| vectors(&a, blob, || collect(r)))
        };
        if let Some(p) = read(target.positions(), pos) {
            let mut b = Bounds::EMPTY;
            each(&here("POSITION"), n, p.iter().copied(), |_, a| {
                b.add(a);
                Ok(())
            })?;
            if let Some(a) = target.positions() {
                bounds(&here("POSITION"), &a, b)?;
            }
        }
        if let Some(p) = read(target.normals(), nor) {
            each(&here("NORMAL"), n, p.iter().copied(), |_, _| Ok(()))?;
        }
        if let Some(p) = read(target.tangents(), tan) {
            each(&here("TANGENT"), n, p.iter().copied(), |_, _| Ok(()))?;
        }
    }
    Ok(n)
}

/// Checks vertex `v`'s joints `jv` (below `max`) and weights `wv` as the validator does.
fn influences(
    at: &dyn Fn(&str) -> String,
    max: usize,
    v: usize,
    jv: &[u16; 4],
    wv: &[f32; 4],
) -> Result<()> {
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
    Ok(())
}

/// Checks a primitive's indices against its `n` vertices and its mode.
fn indices<'a, 's, F>(
    path: &str,
    prim: &'a gltf::Primitive<'a>,
    data: F,
    blob: &[u8],
    n: usize,
) -> Result<()>
where
    F: Clone + Fn(gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    use gltf::accessor::DataType;
    let Some(a) = prim.indices() else {
        return Ok(());
    };
    let restart = match a.data_type() {
        DataType::U8 => 0xFF,
        DataType::U16 => 0xFFFF,
        _ => u32::MAX,
    };
    // The first index that names no vertex or restarts the primitive, and how many there are.
    fn scan(
        idx: impl ExactSizeIterator<Item = u32>,
        n: usize,
        restart: u32,
    ) -> (usize, Option<(usize, u32)>) {
        let len = idx.len();
        let bad = idx
            .enumerate()
            .find(|&(_, i)| i as usize >= n || i == restart);
        (len, bad)
    }
    let (len, bad) = match (
        in_place::<u16, 1>(&a, DataType::U16, blob),
        in_place::<u32, 1>(&a, DataType::U32, blob),
    ) {
        (Some(v), _) => scan(v.iter().map(|&[i]| u32::from(i)), n, restart),
        (_, Some(v)) => scan(v.iter().map(|&[i]| i), n, restart),
        _ => match prim.reader(data).read_indices() {
            Some(r) => scan(r.into_u32(), n, restart),
            None => (0, None),
        },
    };
    if let Some((k, i)) = bad {
        return Err(fail(
            &format!("{path}.indices"),
            &format!(
                "indices below {n} and not the restart value {restart} (ACCESSOR_INDEX_OOB, ACCESSOR_INDEX_PRIMITIVE_RESTART)"
            ),
            format!("{i} at position {k}"),
        ));
    }
    let whole = match prim.mode() {
        Mode::Triangles => len.is_multiple_of(3),
        Mode::Lines => len.is_multiple_of(2),
        Mode::LineStrip => len >= 2,
        _ => len != 0,
    };
    if !whole {
        return Err(fail(
            &format!("{path}.indices"),
            &format!(
                "a count that {:?} can draw (MESH_PRIMITIVE_INCOMPATIBLE_MODE)",
                prim.mode()
            ),
            len.to_string(),
        ));
    }
    Ok(())
}
