//! A Mesh object made from edited geometry in the vertex layout of an original
//! (`meshspec import unity-mesh EDITED.glb --like ORIGINAL.mesh`): the original's channels,
//! formats and streams, filled from the geometry's attributes, with counts, bounds, submeshes
//! and the index buffer recomputed where the geometry changed them.
//!
//! What the geometry did not change keeps the original's bytes: each vertex of each channel is
//! compared with the original as meshspec exports it (decoded into glTF's frame, then made
//! what glTF accepts: normals of unit length, weights summing to 1), and only values that
//! differ are encoded anew (mirrored back into Unity's frame,
//! rounded to the channel's format). So an export then import with nothing changed gives the
//! original object byte for byte, although the conversions to glTF's frame (mirroring, `1 - v`
//! for texture coordinates, weights renormalised) are not exactly invertible in floats.
//!
//! A compressed mesh (`m_CompressedMesh`) is re-packed in its own bit widths (`compressed.rs`).
//!
//! Refused, with the reason: a channel the
//! layout has that the geometry lacks, an attribute the geometry has that the layout cannot
//! hold, a value a channel's format cannot hold (an integer channel for floats), more than
//! 65,535 vertices with 16-bit indices before 2017.3, edited blend shapes of a version before
//! 4.3 (`shapes.rs` writes those of 4.3 on), edited influences in m_VariableBoneCountWeights
//! (m_Skin's, before 2018.2, are written), and a changed vertex count where the original has
//! channels the decoder does not represent.

mod compressed;
mod shapes;

use super::game::{GameFiles, ObjectRef};
use super::{mesh, Located};
use crate::context::Context;
use crate::generated::unity_mesh::{Aabb, SubMesh, Topology, UnityMesh, Vector3f};
use crate::reading::TypedReading;
use crate::rt::{Error, ErrorKind, Result, Root};
use crate::scene::{Colors, Mesh, Mode};
use crate::unity::decode::{slot, VertexFormat, VertexLayout, CHANNELS};
use crate::unity::make;
use std::borrow::Cow;

/// A Mesh object made like an original.
#[derive(Debug, Clone)]
pub struct Made {
    /// The object's bytes.
    pub object: Vec<u8>,
    /// For an original whose vertex data is streamed: the new vertex data (its size is in the
    /// object's `m_StreamData`; `meshspec unity replace --ress` puts it in the resource).
    pub vertex_data: Option<Vec<u8>>,
    /// What was kept and what was made anew.
    pub notes: Vec<String>,
}

fn refuse(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Unsupported, expected, found).rooted("unity_mesh")
}

/// One vertex's values of a channel, in glTF's frame (the scene's), as floats.
fn scene_values(m: &Mesh, slot_: usize, v: usize) -> Option<Vec<f32>> {
    match slot_ {
        slot::VERTEX => m.positions.get(v).map(|p| p.to_vec()),
        slot::NORMAL => m.normals.as_ref()?.get(v).map(|p| p.to_vec()),
        slot::TANGENT => m.tangents.as_ref()?.get(v).map(|p| p.to_vec()),
        slot::COLOR => match m.colors.as_ref()? {
            Colors::Float(c) => c.get(v).map(|p| p.to_vec()),
            Colors::Rgba8(c) => c
                .get(v)
                .map(|p| p.iter().map(|&x| f32::from(x) / 255.0).collect()),
        },
        s if (slot::TEX_COORD0..slot::TEX_COORD0 + 8).contains(&s) => {
            m.uvs.get(s - slot::TEX_COORD0)?.get(v).map(|p| p.to_vec())
        }
        slot::BLEND_WEIGHT => m.skin.as_ref()?.weights.get(v).map(|p| p.to_vec()),
        slot::BLEND_INDICES => m
            .skin
            .as_ref()?
            .joints
            .get(v)
            .map(|p| p.iter().map(|&j| f32::from(j)).collect()),
        _ => None,
    }
}

/// Whether the scene holds a channel at all.
fn scene_has(m: &Mesh, slot_: usize) -> bool {
    !m.positions.is_empty() && scene_values(m, slot_, 0).is_some()
}

/// How far a value may be from the original's (as exported) and still count as unedited, per
/// channel: what a round trip through an editor changes without an edit. Positions, texture
/// coordinates and weights may be off by a few units in the last place (axes converted, `1 - v`
/// taken twice, weights renormalised, relative above 1); normals by 5e-3 (Blender keeps custom
/// normals in a lossy encoding: a third of a degree); tangents by 1e-4, or any amount where
/// the vertex's position, normal and texture coordinates are unedited (Blender makes tangents
/// anew from them: they are derived, not edited).
fn tolerance(slot_: usize) -> f32 {
    match slot_ {
        slot::VERTEX => 1e-6,
        slot::NORMAL => 5e-3,
        slot::TANGENT => 1e-4,
        slot::BLEND_WEIGHT => 1e-6,
        s if (slot::TEX_COORD0..slot::TEX_COORD0 + 8).contains(&s) => 1e-6,
        slot::COLOR => 1e-6,
        _ => 0.0,
    }
}

/// Whether `a` is `b` within `tol` (both absent, or the same length and each component close).
fn close(a: Option<&[f32]>, b: Option<&[f32]>, tol: f32) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x == y || (x - y).abs() <= tol * x.abs().max(y.abs()).max(1.0))
        }
        (None, None) => true,
        _ => false,
    }
}

/// A vertex's influences as a set: each joint of non-zero weight with its weight, by joint
/// (an editor may reorder the slots).
fn influences(m: &Mesh, v: usize) -> Option<Vec<(u16, f32)>> {
    let s = m.skin.as_ref()?;
    let (j, w) = (s.joints.get(v)?, s.weights.get(v)?);
    let mut out: Vec<(u16, f32)> = j
        .iter()
        .zip(w)
        .filter(|(_, &w)| w != 0.0)
        .map(|(&j, &w)| (j, w))
        .collect();
    out.sort_by_key(|&(j, _)| j);
    Some(out)
}

/// Whether vertex `v`'s value of a channel is unedited: equal to the original's within the
/// channel's tolerance (for the skin's two channels, the same influences in any slot order).
fn unedited(edited: &Mesh, before: &Mesh, s: usize, v: usize) -> bool {
    if s == slot::BLEND_WEIGHT || s == slot::BLEND_INDICES {
        return match (influences(edited, v), influences(before, v)) {
            (Some(a), Some(b)) => {
                a.len() == b.len()
                    && a.iter().zip(&b).all(|(x, y)| {
                        x.0 == y.0
                            && close(Some(&[x.1]), Some(&[y.1]), tolerance(slot::BLEND_WEIGHT))
                    })
            }
            (a, b) => a.is_none() && b.is_none(),
        };
    }
    let close_in = |s: usize| {
        close(
            scene_values(edited, s, v).as_deref(),
            scene_values(before, s, v).as_deref(),
            tolerance(s),
        )
    };
    close_in(s)
        || (s == slot::TANGENT
            && [slot::VERTEX, slot::NORMAL]
                .into_iter()
                .chain(slot::TEX_COORD0..slot::TEX_COORD0 + 8)
                .all(close_in))
}

/// `edited` with its joints in the original's order, when it names the same joints in another
/// order (an editor may write an armature's bones in an order of its own): joint indices, bind
/// matrices and names follow the names. Otherwise `edited` as it is.
fn joints_in_original_order(edited: &Mesh, before: &Mesh, notes: &mut Vec<String>) -> Mesh {
    let mut out = edited.clone();
    let (Some(a), Some(b)) = (&edited.skin, &before.skin) else {
        return out;
    };
    if a.joint_names == b.joint_names || a.joint_names.len() != b.joint_names.len() {
        return out;
    }
    let to: Option<Vec<usize>> = a
        .joint_names
        .iter()
        .map(|n| b.joint_names.iter().position(|m| m == n))
        .collect();
    let Some(to) = to else { return out };
    let mut seen = vec![false; to.len()];
    if to.iter().any(|&k| std::mem::replace(&mut seen[k], true)) {
        return out;
    }
    let s = out.skin.as_mut().expect("edited has a skin");
    for j in s.joints.iter_mut().flatten() {
        if let Some(&k) = to.get(usize::from(*j)) {
            *j = k as u16;
        }
    }
    let mut ibms = b.inverse_bind_matrices.clone();
    for (k, m) in a.inverse_bind_matrices.iter().enumerate() {
        ibms[to[k]] = *m;
    }
    s.inverse_bind_matrices = ibms;
    s.joint_names = b.joint_names.clone();
    s.joint_parents = b.joint_parents.clone();
    s.joint_extras = b.joint_extras.clone();
    notes.push(format!(
        "the geometry's {} joints taken in the original's order, by name",
        to.len()
    ));
    out
}

/// Whether `a` draws what `b` does: the same primitives, modes and indices.
fn same_primitives(a: &Mesh, b: &Mesh) -> bool {
    a.primitives.len() == b.primitives.len()
        && a.primitives
            .iter()
            .zip(&b.primitives)
            .all(|(x, y)| x.mode == y.mode && x.indices == y.indices)
}

/// Values of glTF's frame brought back into Unity's (the inverse of the decoder's frame.rs).
fn to_unity(slot_: usize, mut v: Vec<f32>) -> Vec<f32> {
    match slot_ {
        slot::VERTEX | slot::NORMAL => v[0] = -v[0],
        slot::TANGENT => {
            v[0] = -v[0];
            if let Some(w) = v.get_mut(3) {
                *w = -*w;
            }
        }
        s if (slot::TEX_COORD0..slot::TEX_COORD0 + 8).contains(&s) => v[1] = 1.0 - v[1],
        _ => {}
    }
    v
}

/// One component encoded in `format` (little endian).
fn encode(format: VertexFormat, x: f32, out: &mut Vec<u8>) {
    use VertexFormat::*;
    let norm = |x: f32, lo: f32, scale: f32| (x.clamp(lo, 1.0) * scale).round();
    match format {
        Float => out.extend_from_slice(&x.to_le_bytes()),
        Float16 => out.extend_from_slice(&half::f16::from_f32(x).to_le_bytes()),
        UNorm8 => out.push(norm(x, 0.0, 255.0) as u8),
        SNorm8 => out.push(norm(x, -1.0, 127.0) as i8 as u8),
        UNorm16 => out.extend_from_slice(&(norm(x, 0.0, 65535.0) as u16).to_le_bytes()),
        SNorm16 => out.extend_from_slice(&(norm(x, -1.0, 32767.0) as i16).to_le_bytes()),
        UInt8 => out.push(x as u8),
        SInt8 => out.push(x as i8 as u8),
        UInt16 => out.extend_from_slice(&(x as u16).to_le_bytes()),
        SInt16 => out.extend_from_slice(&(x as i16).to_le_bytes()),
        UInt32 => out.extend_from_slice(&(x as u32).to_le_bytes()),
        SInt32 => out.extend_from_slice(&(x as i32).to_le_bytes()),
    }
}

/// Whether a channel holds floats (and so takes a float attribute).
fn float_channel(slot_: usize) -> bool {
    slot_ != slot::BLEND_INDICES
}

fn vector(v: [f32; 3]) -> Vector3f {
    Vector3f {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

/// The box around `points` (Unity's centre and extent), zeros for none.
fn bounds<'a>(points: impl Iterator<Item = &'a [f32; 3]>) -> Aabb {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    let mut any = false;
    for p in points {
        any = true;
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if !any {
        return make::no_box();
    }
    Aabb {
        center: vector([0, 1, 2].map(|k| (lo[k] + hi[k]) * 0.5)),
        extent: vector([0, 1, 2].map(|k| (hi[k] - lo[k]) * 0.5)),
    }
}

/// An original Mesh object, with what making one like it needs.
#[derive(Debug, Clone)]
pub struct Original<'a> {
    /// The object's bytes.
    pub bytes: &'a [u8],
    /// The fixed layout that reads it: its file's editor version, and whether the editor saved
    /// it for itself.
    pub layout: mesh::Layout,
    /// Its streamed vertex data, when its vertex data is streamed.
    pub streamed: Option<Cow<'a, [u8]>>,
    /// It as meshspec decodes it (in glTF's frame), its verdict passed.
    pub scene: Mesh,
}

impl<'a> Original<'a> {
    /// A bare object read with `ctx` (its layout's parameters, and its resource file when
    /// streamed).
    pub fn bare(bytes: &'a [u8], ctx: &Context) -> Result<Original<'a>> {
        let read = TypedReading::<UnityMesh>::new(bytes, ctx);
        let (view, at) = read.passed(&crate::reading::judged(&read, ctx))?;
        let scene = <UnityMesh as crate::meaning::Semantics>::scene(view, &at, ctx)?;
        let streamed = crate::unity::stream::read(view, ctx)?.map(Cow::Owned);
        Ok(Original {
            bytes,
            layout: mesh::Layout {
                version: crate::unity::version(ctx),
                editor: crate::unity::editor(ctx),
            },
            streamed,
            scene: one_mesh(scene)?,
        })
    }

    /// Mesh `r` of opened game files (its streamed data found as `check` finds it).
    pub fn in_game(g: &'a GameFiles, r: ObjectRef) -> std::result::Result<Original<'a>, Located> {
        let input = g.input(r, &Context::new())?;
        let decoded = input.decode()?;
        let m = input.mesh;
        let place = g.place(r);
        let layout = m.layout().ok_or_else(|| {
            Located::new(
                &place,
                refuse("a file whose editor version reads as a version", "none"),
            )
        })?;
        Ok(Original {
            bytes: g.bytes(r),
            layout,
            streamed: g.streamed(&m, None)?,
            scene: one_mesh(decoded.scene).map_err(|e| Located::new(&place, e))?,
        })
    }
}

fn one_mesh(mut scene: crate::scene::Scene) -> Result<Mesh> {
    if scene.meshes.len() != 1 {
        return Err(refuse(
            "an original that decodes to one mesh",
            format!("{} meshes", scene.meshes.len()),
        ));
    }
    Ok(scene.meshes.remove(0))
}

/// The mesh's bind poses (`m_BindPose`, after `m_Skin` before 4.3) made from glTF's inverse
/// bind matrices: the export's conjugation by the x mirror, which is its own inverse. One per
/// joint the original has: the joints are the renderer's bones, which a Mesh does not hold.
fn set_bind_poses(m: &mut UnityMesh, inverse: &[[f32; 16]]) -> Result<()> {
    let poses = match (m.bind_poses.as_mut(), m.bind_poses_after_skin.as_mut()) {
        (Some(p), _) | (None, Some(p)) if !p.is_empty() => p,
        _ => {
            return Err(refuse(
                "bind poses stored as matrices, to write edited ones",
                "packed bind poses (m_CompressedMesh) or none",
            ))
        }
    };
    if poses.len() != inverse.len() {
        return Err(refuse(
            format!(
                "{} inverse bind matrices, one per joint of the original",
                poses.len()
            ),
            inverse.len().to_string(),
        ));
    }
    for (p, ibm) in poses.iter_mut().zip(inverse) {
        p.e = crate::unity::decode::inverse_bind_matrix(ibm).to_vec();
    }
    Ok(())
}

/// The Mesh object `original` remade from `edited`.
pub fn like(edited: &Mesh, original: &Original<'_>) -> Result<Made> {
    // The original as an export writes it: what unchanged geometry reads back as.
    let (before, _) =
        crate::export::prepared(original.scene.clone(), crate::export::NonFinite::Refuse)?;
    let before = &before;
    let mut notes = vec![];
    let edited = &joints_in_original_order(edited, before, &mut notes);
    let mctx = mesh::context(original.layout);
    let view = UnityMesh::read::<false>(original.bytes, &mctx)?.value;
    let old_bytes: Vec<u8> = match &original.streamed {
        Some(b) => b.to_vec(),
        None => crate::unity::decode::inline_vertex_bytes(&view).to_vec(),
    };
    let streamed = original.streamed.is_some();
    let data = crate::unity::decode::decode(&view, &old_bytes, crate::context::SkinWeights::Four);
    let mut m = <UnityMesh as crate::rt::Codec>::own(&view);
    if data.compressed {
        compressed::repack(&mut m, edited, before, &mut notes)?;
        return finish(m, edited, &mctx, None, notes);
    }
    if view.vertex_data.is_none() {
        return Err(refuse(
            "an original of Unity 3.5 or later, or a compressed one (before 3.5 the vertices are separate arrays, which this does not write)",
            format!("a mesh of {}", crate::unity::version_text(original.layout.version)),
        ));
    }
    let Some(layout) = data.layout.clone() else {
        return Err(refuse("an original with vertex channels", "none"));
    };
    let n_old = data.vertex_count;
    let n = edited.positions.len();
    let same_count = n == n_old;

    // What the layout cannot hold, and what it needs.
    let has = |s: usize| layout.channels[s].is_some();
    let shown = |s: usize| CHANNELS[s];
    for s in 0..CHANNELS.len() {
        let theirs = scene_has(edited, s);
        let ours = scene_has(before, s);
        let same = theirs && ours && (0..n.min(n_old)).all(|v| unedited(edited, before, s, v));
        if theirs && !has(s) && !ours && (s == slot::NORMAL || s == slot::TANGENT) {
            // An editor writes normals (and often tangents) whether the mesh had them or not
            // (Blender always does): the original has none to keep, so they are left out.
            notes.push(format!(
                "{} in the geometry left out: the original has no {} channel",
                shown(s),
                shown(s)
            ));
            continue;
        }
        // (Before 2018.2 the influences are in m_Skin, not in channels.)
        let holds = has(s)
            || ((s == slot::BLEND_WEIGHT || s == slot::BLEND_INDICES)
                && m.skin.as_ref().is_some_and(|k| k.num_items > 0));
        if theirs && !holds && !(ours && same) {
            return Err(refuse(
                format!(
                    "attributes the original's layout holds (it has no {} channel)",
                    shown(s)
                ),
                format!("{} in the geometry", shown(s)),
            ));
        }
        if has(s) && ours && !theirs {
            return Err(refuse(
                format!(
                    "a {} attribute (the original's layout has the channel)",
                    shown(s)
                ),
                "none in the geometry",
            ));
        }
        if has(s) && !ours && !same_count {
            return Err(refuse(
                format!(
                    "the original's vertex count, {n_old} ({} is kept as stored, not decoded)",
                    shown(s)
                ),
                format!("{n} vertices"),
            ));
        }
        if let Some(c) = layout.channels[s] {
            if float_channel(s) != c.format.is_float() && theirs {
                return Err(refuse(
                    format!("a {} channel of the kind its attribute is", shown(s)),
                    format!("{:?}", c.format),
                ));
            }
        }
    }
    if shapes::differ(&edited.morph_targets, &before.morph_targets) {
        match (&mut m.shapes, &data.shapes) {
            (Some(stored), Some(decoded)) => shapes::remake(
                stored,
                decoded,
                &before.morph_targets,
                &edited.morph_targets,
                n,
                &mut notes,
            )?,
            (Some(stored), None) => shapes::remake(
                stored,
                &Default::default(),
                &[],
                &edited.morph_targets,
                n,
                &mut notes,
            )?,
            (None, _) => {
                return Err(refuse(
                    "an original that stores blend shapes as m_Shapes (Unity 4.3 and later), to write edited ones",
                    if m.legacy_shapes.is_some() {
                        "the shapes of Unity 4.1 and 4.2"
                    } else {
                        "a version without blend shapes"
                    },
                ))
            }
        }
    } else if !same_count
        && m.shapes.as_ref().map_or(0, |s| s.num_vertices) + m.num_shape_vertices.unwrap_or(0) > 0
    {
        return Err(refuse(
            format!("the original's vertex count, {n_old} (its blend shapes name vertices)"),
            format!("{n} vertices"),
        ));
    }
    let skin_changed = match (&edited.skin, &before.skin) {
        (Some(a), Some(b)) => {
            // Bind matrices as an editor writes them back may be off in the last places.
            let same_poses = a.inverse_bind_matrices.len() == b.inverse_bind_matrices.len()
                && a.inverse_bind_matrices
                    .iter()
                    .zip(&b.inverse_bind_matrices)
                    .all(|(x, y)| close(Some(x), Some(y), 1e-5));
            if !same_poses {
                set_bind_poses(&mut m, &a.inverse_bind_matrices)?;
                notes.push(format!(
                    "{} bind poses written from the edited inverse bind matrices",
                    a.inverse_bind_matrices.len()
                ));
            }
            (0..n.min(n_old)).any(|v| !unedited(edited, before, slot::BLEND_WEIGHT, v))
                || n != n_old
        }
        (None, None) => false,
        (a, _) => {
            return Err(refuse(
                "a skin as the original has it",
                if a.is_some() { "a skin" } else { "none" },
            ))
        }
    };
    if (skin_changed || !same_count)
        && m.variable_bone_count_weights
            .as_ref()
            .is_some_and(|w| w.num_data > 0)
    {
        return Err(refuse(
            "a skin of four influences per vertex (the vertex channels, or m_Skin before 2018.2), to write changed influences",
            "one in m_VariableBoneCountWeights",
        ));
    }
    if let (Some(stored), Some(skin)) = (
        m.skin
            .as_mut()
            .filter(|s| s.num_items > 0 && (skin_changed || !same_count)),
        &edited.skin,
    ) {
        // Before 2018.2 the influences are m_Skin's, four per vertex: an unedited vertex keeps
        // its entry, an edited or added one gets the geometry's.
        let mut rewritten = 0;
        let mut items = Vec::with_capacity(n);
        for v in 0..n {
            match stored.items.get(v) {
                Some(kept) if v < n_old && unedited(edited, before, slot::BLEND_WEIGHT, v) => {
                    items.push(kept.clone())
                }
                _ => {
                    let (j, w) = (skin.joints[v], skin.weights[v]);
                    items.push(crate::generated::unity_mesh::BoneWeights4 {
                        weight_0: w[0],
                        weight_1: w[1],
                        weight_2: w[2],
                        weight_3: w[3],
                        bone_index_0: i32::from(j[0]),
                        bone_index_1: i32::from(j[1]),
                        bone_index_2: i32::from(j[2]),
                        bone_index_3: i32::from(j[3]),
                    });
                    rewritten += 1;
                }
            }
        }
        stored.items = items;
        stored.num_items = n as i32;
        notes.push(format!(
            "{rewritten} of {n} vertices' influences written into m_Skin; the rest kept as stored"
        ));
    }

    // The vertex data: the original's bytes where nothing changed.
    let stored_streams = m
        .vertex_data
        .as_ref()
        .is_some_and(|vd| vd.streams.is_some() || vd.streams_fixed.is_some());
    if stored_streams && !same_count {
        return Err(refuse(
            format!("the original's vertex count, {n_old} (before Unity 5.0 the vertex data stores its streams' offsets, which this does not rewrite)"),
            format!("{n} vertices"),
        ));
    }
    let new_layout = if same_count {
        layout.clone()
    } else {
        layout.for_count(n as u64)
    };
    let mut bytes = if same_count {
        old_bytes.clone()
    } else {
        vec![0u8; new_layout.end() as usize]
    };
    let mut rewritten = 0usize;
    let mut buf = Vec::with_capacity(64);
    for s in 0..CHANNELS.len() {
        let (Some((c, _)), Some(_)) = (new_layout.channel(s), layout.channel(s)) else {
            continue;
        };
        if !scene_has(before, s) && !scene_has(edited, s) {
            // Kept as stored (the count is unchanged: checked above).
            continue;
        }
        let width = c.width() as usize;
        for v in 0..n {
            // Both layouts hold this channel (checked above), so `address` is never `None`.
            let address = |l: &VertexLayout, k| l.address(s, v as u64, k).unwrap_or(0) as usize;
            let at = address(&new_layout, 0);
            let theirs = scene_values(edited, s, v);
            if v < n_old && unedited(edited, before, s, v) {
                if !same_count {
                    let from = address(&layout, 0);
                    bytes[at..at + width].copy_from_slice(&old_bytes[from..from + width]);
                }
                continue;
            }
            let values = to_unity(s, theirs.unwrap_or_default());
            buf.clear();
            for k in 0..c.dim {
                let x = match values.get(k) {
                    Some(&x) => x,
                    // Components the model has no value for: the original's, else 0 (1 for a
                    // colour's alpha).
                    None if v < n_old => {
                        let from = address(&layout, k);
                        buf.extend_from_slice(&old_bytes[from..from + c.format.size()]);
                        continue;
                    }
                    None => f32::from(u8::from(s == slot::COLOR && k == 3)),
                };
                if !x.is_finite() {
                    return Err(refuse(
                        format!("finite values for {}", shown(s)),
                        format!("{x} at vertex {v}"),
                    ));
                }
                encode(c.format, x, &mut buf);
            }
            bytes[at..at + width].copy_from_slice(&buf);
            rewritten += 1;
        }
    }
    if rewritten > 0 || !same_count {
        notes.push(format!(
            "{rewritten} channel values of {n} vertices encoded anew in the original's formats; the rest kept as stored"
        ));
    }
    if let Some(vd) = m.vertex_data.as_mut() {
        vd.vertex_count = n as u32;
    }
    let vertex_data = if streamed {
        let info = m
            .stream_data
            .as_mut()
            .expect("a streamed mesh has m_StreamData");
        info.len_data = u32::try_from(bytes.len()).map_err(|_| {
            refuse(
                "vertex data of at most 4 GiB",
                format!("{} bytes", bytes.len()),
            )
        })?;
        Some(bytes)
    } else {
        if let Some(vd) = m.vertex_data.as_mut() {
            vd.data = make::bytes(bytes);
        }
        None
    };

    // Bounds, then submeshes and indices when the primitives changed.
    let unity_positions: Vec<[f32; 3]> = edited
        .positions
        .iter()
        .map(|p| [-p[0], p[1], p[2]])
        .collect();
    // Moved, as the channels judge it (within a round trip's noise nothing moved).
    let moved = !same_count || (0..n).any(|v| !unedited(edited, before, slot::VERTEX, v));
    if moved {
        m.local_aabb = bounds(unity_positions.iter());
    }
    let same_primitives = same_primitives(edited, before);
    if !same_primitives || moved {
        use crate::generated::unity_mesh::IndexFormat;
        let mut wide = m.index_format == Some(IndexFormat::UINT32);
        let reach = edited.primitives.iter().flat_map(|p| &p.indices).max();
        if let Some(&hi) = reach.filter(|&&x| x > 0xFFFF && !wide) {
            // From 2017.3 the index format says the width: 32 bits where a 16-bit index no
            // longer reaches the vertices drawn.
            if m.index_format.is_none() {
                return Err(refuse(
                    "at most 65,536 vertices drawn (before Unity 2017.3 index buffers are 16-bit)",
                    format!("index {hi}"),
                ));
            }
            m.index_format = Some(IndexFormat::UINT32);
            wide = true;
            notes.push(format!(
                "the index format widened to 32 bits: index {hi} is beyond a 16-bit index"
            ));
        }
        let mut ib = vec![];
        let mut subs = vec![];
        for (i, p) in edited.primitives.iter().enumerate() {
            let (topology, indices): (Topology, Vec<u32>) = match p.mode {
                Mode::Triangles => (
                    Topology::TRIANGLES,
                    p.indices
                        .chunks_exact(3)
                        .flat_map(|t| [t[0], t[2], t[1]])
                        .collect(),
                ),
                Mode::Lines => (Topology::LINES, p.indices.clone()),
                Mode::LineStrip => (Topology::LINE_STRIP, p.indices.clone()),
                Mode::Points => (Topology::POINTS, p.indices.clone()),
            };
            if let Some(&bad) = indices.iter().find(|&&x| x as usize >= n) {
                return Err(refuse(
                    format!("indices below the {n} vertices (primitive {i})"),
                    bad.to_string(),
                ));
            }
            let lo = indices.iter().copied().min().unwrap_or(0);
            let hi = indices.iter().copied().max().unwrap_or(0);
            let first_byte = (ib.len() * if wide { 4 } else { 2 }) as u32;
            ib.extend_from_slice(&indices);
            // The fields of the original's era: `topology` from 4.0, a strip flag and a
            // triangle count before.
            let era = m.sub_meshes.first();
            let legacy = era.is_some_and(|s| s.topology.is_none());
            if legacy && topology != Topology::TRIANGLES {
                return Err(refuse(
                    format!("triangles in primitive {i} (before Unity 4.0 a submesh is a triangle list or strip)"),
                    format!("{:?}", p.mode),
                ));
            }
            subs.push(SubMesh {
                first_byte,
                index_count: indices.len() as u32,
                topology: (!legacy).then_some(topology),
                is_tri_strip: legacy.then_some(0),
                triangle_count: legacy.then_some(indices.len() as u32 / 3),
                // The field is there in the versions that have it (as the original's first
                // submesh says); indices are written whole, from base vertex 0.
                base_vertex: m.sub_meshes.first().and_then(|s| s.base_vertex).map(|_| 0),
                first_vertex: lo,
                vertex_count: if indices.is_empty() { 0 } else { hi - lo + 1 },
                local_aabb: bounds(indices.iter().map(|&x| &unity_positions[x as usize])),
            });
        }
        let unchanged = same_primitives
            && subs
                .iter()
                .zip(&m.sub_meshes)
                .all(|(a, b)| a.first_byte == b.first_byte && a.index_count == b.index_count);
        if unchanged {
            // Only the positions changed: the submeshes' boxes.
            for (a, b) in m.sub_meshes.iter_mut().zip(&subs) {
                a.local_aabb = b.local_aabb.clone();
            }
        } else {
            m.sub_meshes = subs;
            m.num_sub_meshes = m.sub_meshes.len() as i32;
            m.index_buffer = if wide {
                make::indices32(&ib)
            } else {
                // Every index is below the vertex count, which fits 16 bits here.
                make::indices16(&ib.iter().map(|&x| x as u16).collect::<Vec<_>>())
            };
            notes.push(format!(
                "{} submeshes and the index buffer made anew from the primitives",
                m.sub_meshes.len()
            ));
        }
    }
    finish(m, edited, &mctx, vertex_data, notes)
}

/// The object `m` with the edited mesh's name, written and judged.
fn finish(
    mut m: UnityMesh,
    edited: &Mesh,
    mctx: &Context,
    vertex_data: Option<Vec<u8>>,
    notes: Vec<String>,
) -> Result<Made> {
    // meshspec's export names a glTF mesh `NAME (unity-mesh)`; an editor that already holds a
    // mesh of that name makes it `NAME (unity-mesh).001` (Blender does).
    let name = edited.name.as_str();
    let name = match name.rsplit_once('.') {
        Some((head, n))
            if n.len() == 3
                && n.bytes().all(|b| b.is_ascii_digit())
                && head.ends_with(" (unity-mesh)") =>
        {
            head
        }
        _ => name,
    };
    let name = name.strip_suffix(" (unity-mesh)").unwrap_or(name);
    if !name.is_empty() && name != m.name.value {
        m.name = make::string(name);
    }
    let object = m.to_bytes(mctx)?;
    // Judged as `check` judges a bare object (new streamed data is not in a file yet: that
    // check is left to `unity replace`, which judges the mesh in its game file).
    if let Some(e) = crate::reading::judge::<UnityMesh>(&object, mctx).first_failure() {
        return Err(e.clone());
    }
    Ok(Made {
        object,
        vertex_data,
        notes,
    })
}
