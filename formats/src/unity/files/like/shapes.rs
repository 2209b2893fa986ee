//! Blend shapes (`m_Shapes`, from Unity 4.3) made anew from edited morph targets.
//!
//! The export gives glTF one morph target per channel: the channel's last frame, its deltas
//! mirrored into glTF's frame (`decode/frame.rs`). Going back, a target is matched to its
//! channel by name. A channel whose target is unchanged keeps its stored entries; one whose
//! target changed gets its last frame's entries made from the target (one entry per vertex
//! with a delta that is not zero, mirrored back; the in-between frames are kept as stored); a
//! channel with no target of its name is removed; a target with a new name becomes a channel
//! of one frame at weight 100, a full shape (seed 002: full weights run 0 to 100 for a full
//! shape). Each change is a note.

use crate::generated::unity_mesh::{
    BlendShapeData, BlendShapeVertex, MeshBlendShape, MeshBlendShapeChannel, Vector3f,
};
use crate::rt::Result;
use crate::scene::MorphTarget;
use crate::unity::decode::{name_hash, MeshShapes};
use crate::unity::make;

/// The weight of a new channel's one frame: a full shape.
const FULL_WEIGHT: f32 = 100.0;

/// Whether two targets differ in what a Mesh stores (names and deltas; a target's default
/// weight is the renderer's, not the mesh's).
pub(super) fn differ(a: &[MorphTarget], b: &[MorphTarget]) -> bool {
    a.len() != b.len()
        || a.iter().zip(b).any(|(x, y)| {
            x.name != y.name
                || x.positions != y.positions
                || moved(&x.normals) != moved(&y.normals)
                || moved(&x.tangents) != moved(&y.tangents)
        })
}

/// Normal or tangent deltas that move something: all zeros are none (an editor writes zero
/// normal deltas for a shape that has none: Blender does).
fn moved(d: &Option<Vec<[f32; 3]>>) -> Option<&Vec<[f32; 3]>> {
    d.as_ref().filter(|v| v.iter().any(|x| *x != [0.0; 3]))
}

/// `data` (the original's `m_Shapes`, whose decoding is `stored`) remade from `edited`, the
/// edited mesh's `n` vertices' targets, where `before` are the original's targets as exported.
pub(super) fn remake(
    data: &mut BlendShapeData,
    stored: &MeshShapes,
    before: &[MorphTarget],
    edited: &[MorphTarget],
    n: usize,
    notes: &mut Vec<String>,
) -> Result<()> {
    for (i, t) in edited.iter().enumerate() {
        if edited[..i].iter().any(|u| u.name == t.name) {
            return Err(super::refuse(
                "morph targets of distinct names (each names its blend shape channel)",
                format!("two named `{}`", crate::export::escape(&t.name)),
            ));
        }
        if t.positions.len() != n {
            return Err(super::refuse(
                format!("morph target deltas for each of the {n} vertices"),
                format!(
                    "{} in `{}`",
                    t.positions.len(),
                    crate::export::escape(&t.name)
                ),
            ));
        }
    }
    let find = |name: &str| edited.iter().find(|t| t.name == name);
    let mut out = make::no_shapes();
    let (mut changed, mut removed) = (0usize, vec![]);
    for (c, ch) in stored.channels.iter().enumerate() {
        let frames = stored.frames_of(c);
        let Some(last) = frames.len().checked_sub(1) else {
            // No frames, so no target: kept as it is.
            if let Some(kept) = data.channels.get(c) {
                let here = out.shapes.len();
                push_channel(&mut out, kept, here);
            }
            continue;
        };
        let Some(target) = find(&ch.name) else {
            removed.push(crate::export::escape(&ch.name));
            continue;
        };
        let was = before.iter().find(|t| t.name == ch.name);
        let renew =
            was.is_none_or(|b| differ(std::slice::from_ref(target), std::slice::from_ref(b)));
        let first = out.shapes.len();
        for (k, f) in frames.iter().enumerate() {
            let at = out.vertices.len() as u32;
            let Some(stored_shape) = data.shapes.get(ch.first_frame + k) else {
                return Err(super::refuse(
                    "a frame for each of a channel's frames",
                    format!(
                        "none for frame {k} of `{}`",
                        crate::export::escape(&ch.name)
                    ),
                ));
            };
            if k == last && renew {
                let shape = frame(target, &mut out.vertices, stored_shape.pad.clone());
                out.shapes.push(shape);
                changed += 1;
            } else {
                // (The original passed its verdict, which holds frames inside the entries.)
                let Some(kept) = f
                    .first_vertex
                    .checked_add(f.vertex_count)
                    .and_then(|end| data.vertices.get(f.first_vertex..end))
                else {
                    return Err(super::refuse(
                        "a frame's entries inside m_Shapes.vertices",
                        format!("frame {k} of `{}`", crate::export::escape(&ch.name)),
                    ));
                };
                if let Some(e) = kept.iter().find(|e| e.index as usize >= n) {
                    return Err(super::refuse(
                        format!("blend shape entries naming one of the {n} vertices (frame {k} of `{}` is kept as stored)", crate::export::escape(&ch.name)),
                        format!("vertex {}", e.index),
                    ));
                }
                out.vertices.extend_from_slice(kept);
                out.shapes.push(MeshBlendShape {
                    first_vertex: at,
                    ..stored_shape.clone()
                });
            }
            out.full_weights.push(f.weight);
        }
        if let Some(kept) = data.channels.get(c) {
            push_channel(&mut out, kept, first);
        }
    }
    let mut added = vec![];
    for t in edited {
        if stored.find(&t.name).is_some() {
            continue;
        }
        let first = out.shapes.len();
        let shape = frame(t, &mut out.vertices, vec![0; 2]);
        out.shapes.push(shape);
        out.full_weights.push(FULL_WEIGHT);
        push_channel(
            &mut out,
            &MeshBlendShapeChannel {
                name: make::string(&t.name),
                name_hash: name_hash(&t.name),
                frame_index: 0,
                frame_count: 0,
            },
            first,
        );
        added.push(crate::export::escape(&t.name));
    }
    out.num_vertices = out.vertices.len() as i32;
    out.num_shapes = out.shapes.len() as i32;
    out.num_channels = out.channels.len() as i32;
    out.num_full_weights = out.full_weights.len() as i32;
    if changed > 0 {
        notes.push(format!(
            "{changed} blend shape frames made anew from the edited morph targets (their in-between frames kept as stored)"
        ));
    }
    if !removed.is_empty() {
        notes.push(format!(
            "blend shapes removed (no morph target of their name): {}",
            removed.join(", ")
        ));
    }
    if !added.is_empty() {
        notes.push(format!(
            "blend shapes added, each one frame at weight {FULL_WEIGHT}: {}",
            added.join(", ")
        ));
    }
    *data = out;
    Ok(())
}

/// `channel` with its frames from `first` to the last shape of `out`.
fn push_channel(out: &mut BlendShapeData, channel: &MeshBlendShapeChannel, first: usize) {
    out.channels.push(MeshBlendShapeChannel {
        frame_index: first as i32,
        frame_count: (out.shapes.len() - first) as i32,
        ..channel.clone()
    });
}

/// A frame made from `t`, its entries appended to `out` (a vertex whose deltas are all zero
/// has none), with the stored `pad`.
fn frame(t: &MorphTarget, out: &mut Vec<BlendShapeVertex>, pad: Vec<u8>) -> MeshBlendShape {
    // glTF's frame back to Unity's: the x mirror, its own inverse.
    let unity = |a: [f32; 3]| Vector3f {
        x: 0.0 - a[0], // (a zero stays +0, as Unity writes it)
        y: a[1],
        z: a[2],
    };
    let zero = [0.0f32; 3];
    let start = out.len();
    for (v, &p) in t.positions.iter().enumerate() {
        let nrm = t.normals.as_ref().map_or(zero, |x| x[v]);
        let tan = t.tangents.as_ref().map_or(zero, |x| x[v]);
        if p == zero && nrm == zero && tan == zero {
            continue;
        }
        out.push(BlendShapeVertex {
            vertex: unity(p),
            normal: unity(nrm),
            tangent: unity(tan),
            index: v as u32,
        });
    }
    MeshBlendShape {
        first_vertex: start as u32,
        vertex_count: (out.len() - start) as u32,
        has_normals: u8::from(moved(&t.normals).is_some()),
        has_tangents: u8::from(moved(&t.tangents).is_some()),
        pad,
    }
}
