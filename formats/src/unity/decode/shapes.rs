//! Blend shapes (`m_Shapes`): named channels, each a run of frames at increasing weights
//! (a full shape is at 100), each frame a run of sparse per-vertex deltas of position and,
//! when the frame says so, of normal and tangent. The deltas apply to the mesh as stored,
//! before any skin.

use super::{fail, RawShapes, UnityMeshData, P};
use crate::rt::{Error, ErrorKind, Result};

/// The CRC-32 of a blend shape channel's name: the hash an animation curve names the
/// channel by (`nameHash`).
pub fn name_hash(name: &str) -> u32 {
    crc32fast::hash(name.as_bytes())
}

/// One blend shape channel (`m_Shapes.channels`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeChannel {
    /// The name.
    pub name: String,
    /// The CRC-32 of the name (checked).
    pub name_hash: u32,
    /// Its first frame in [`MeshShapes::frames`].
    pub first_frame: usize,
    /// The number of frames.
    pub frame_count: usize,
}

/// One frame of a blend shape (`m_Shapes.shapes` with its `fullWeights` entry).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeFrame {
    /// The channel weight at which the frame's deltas apply in full (0 to 100 for a full
    /// shape).
    pub weight: f32,
    /// Its first entry in [`MeshShapes::vertices`].
    pub first_vertex: usize,
    /// The number of entries.
    pub vertex_count: usize,
    /// Whether its entries carry normal deltas.
    pub has_normals: bool,
    /// Whether its entries carry tangent deltas.
    pub has_tangents: bool,
}

/// A blend shape entry (`m_Shapes.vertices`): the deltas of one vertex, in Unity's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeVertex {
    /// The vertex it moves (checked to name one).
    pub index: u32,
    /// Position delta.
    pub position: [f32; 3],
    /// Normal delta (meaningful when the frame has normals).
    pub normal: [f32; 3],
    /// Tangent delta (meaningful when the frame has tangents).
    pub tangent: [f32; 3],
}

/// A mesh's blend shapes as stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshShapes {
    /// The channels.
    pub channels: Vec<ShapeChannel>,
    /// Every channel's frames, each channel's in increasing weight.
    pub frames: Vec<ShapeFrame>,
    /// Every frame's entries.
    pub vertices: Vec<ShapeVertex>,
}

/// Vertices with blend shapes applied, in Unity's frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShapedVertices {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Normals, if the mesh has them.
    pub normals: Option<Vec<[f32; 3]>>,
    /// Tangents (w unchanged), if the mesh has them.
    pub tangents: Option<Vec<[f32; 4]>>,
}

impl MeshShapes {
    /// The frames of channel `c` (empty past the last channel).
    pub fn frames_of(&self, c: usize) -> &[ShapeFrame] {
        self.channels
            .get(c)
            .and_then(|ch| {
                let end = ch.first_frame.checked_add(ch.frame_count)?;
                self.frames.get(ch.first_frame..end)
            })
            .unwrap_or(&[])
    }

    /// The entries of a frame.
    pub fn deltas(&self, frame: &ShapeFrame) -> &[ShapeVertex] {
        frame
            .first_vertex
            .checked_add(frame.vertex_count)
            .and_then(|end| self.vertices.get(frame.first_vertex..end))
            .unwrap_or(&[])
    }

    /// The channel of a name, if there is one.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.channels.iter().position(|c| c.name == name)
    }

    /// How much of each frame of channel `c` applies at channel weight `w`.
    ///
    /// At or below the first frame's weight, the first frame scaled by `w / weight` (from
    /// nothing at 0); between two frames, both, interpolated linearly; past the last frame,
    /// the last segment extrapolated (with one frame, the frame scaled by `w / weight`).
    /// The in-between rule is Unity's documented behaviour; extrapolation past the last
    /// frame is inferred.
    pub fn frame_factors(&self, c: usize, w: f32) -> Vec<(usize, f32)> {
        let frames = self.frames_of(c);
        let first = self.channels.get(c).map_or(0, |ch| ch.first_frame);
        if frames.is_empty() || w == 0.0 {
            return vec![];
        }
        // Segments run from (weight 0, nothing) through every frame.
        let k = frames
            .iter()
            .position(|f| w <= f.weight)
            .unwrap_or(frames.len() - 1);
        let hi = frames[k].weight;
        let (lo, lo_frame) = if k == 0 {
            (0.0, None)
        } else {
            (frames[k - 1].weight, Some(first + k - 1))
        };
        let span = hi - lo;
        if span == 0.0 {
            return vec![(first + k, 1.0)];
        }
        let t = (w - lo) / span;
        let mut out = vec![(first + k, t)];
        if let Some(f) = lo_frame {
            out.push((f, 1.0 - t));
        }
        out
    }

    /// The mesh's positions, normals and tangents with the channels at `weights` (one per
    /// channel, 0 to 100 for a full shape), before any skin.
    pub fn apply(&self, mesh: &UnityMeshData, weights: &[f32]) -> Result<ShapedVertices> {
        if weights.len() != self.channels.len() {
            return Err(Error::unplaced(
                ErrorKind::Input,
                format!(
                    "{} blend shape weights (one per channel)",
                    self.channels.len()
                ),
                weights.len().to_string(),
            )
            .rooted("unity_mesh.m_Shapes"));
        }
        let mut out = ShapedVertices {
            positions: mesh.positions().unwrap_or_default(),
            normals: mesh.normals(),
            tangents: mesh.tangents(),
        };
        for (c, &w) in weights.iter().enumerate() {
            for (f, factor) in self.frame_factors(c, w) {
                let Some(frame) = self.frames.get(f) else {
                    continue;
                };
                for d in self.deltas(frame) {
                    let v = d.index as usize;
                    if let Some(p) = out.positions.get_mut(v) {
                        for (x, dx) in p.iter_mut().zip(d.position) {
                            *x += factor * dx;
                        }
                    }
                    if frame.has_normals {
                        if let Some(n) = out.normals.as_mut().and_then(|n| n.get_mut(v)) {
                            for (x, dx) in n.iter_mut().zip(d.normal) {
                                *x += factor * dx;
                            }
                        }
                    }
                    if frame.has_tangents {
                        if let Some(t) = out.tangents.as_mut().and_then(|t| t.get_mut(v)) {
                            for (x, dx) in t.iter_mut().zip(d.tangent) {
                                *x += factor * dx;
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Checks and copies `m_Shapes`; `None` when the mesh has no blend shapes.
pub(crate) fn decode(raw: &RawShapes, vertex_count: usize) -> Result<Option<MeshShapes>> {
    if raw.vertices.is_empty()
        && raw.shapes.is_empty()
        && raw.channels.is_empty()
        && raw.full_weights.is_empty()
    {
        return Ok(None);
    }
    if raw.full_weights.len() != raw.shapes.len() {
        return Err(fail(
            ErrorKind::Inconsistent,
            None,
            &[P::F("m_Shapes"), P::F("fullWeights")],
            format!("{} weights (one per entry of shapes)", raw.shapes.len()),
            raw.full_weights.len().to_string(),
        ));
    }
    let mut vertices = Vec::with_capacity(raw.vertices.len());
    for (i, v) in raw.vertices.iter().enumerate() {
        if v.index as usize >= vertex_count {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &[P::F("m_Shapes"), P::F("vertices"), P::I(i), P::F("index")],
                format!("a vertex below {vertex_count}"),
                v.index.to_string(),
            ));
        }
        vertices.push(ShapeVertex {
            index: v.index,
            position: v.vertex,
            normal: v.normal,
            tangent: v.tangent,
        });
    }
    let mut frames = Vec::with_capacity(raw.shapes.len());
    for (i, (s, &weight)) in raw.shapes.iter().zip(raw.full_weights).enumerate() {
        let end = u64::from(s.first_vertex) + u64::from(s.vertex_count);
        if end > raw.vertices.len() as u64 {
            return Err(fail(
                ErrorKind::Count,
                None,
                &[
                    P::F("m_Shapes"),
                    P::F("shapes"),
                    P::I(i),
                    P::F("vertexCount"),
                ],
                format!(
                    "firstVertex {} + vertexCount within the {} entries of vertices",
                    s.first_vertex,
                    raw.vertices.len()
                ),
                s.vertex_count.to_string(),
            ));
        }
        frames.push(ShapeFrame {
            weight,
            first_vertex: s.first_vertex as usize,
            vertex_count: s.vertex_count as usize,
            has_normals: s.has_normals,
            has_tangents: s.has_tangents,
        });
    }
    let mut channels = Vec::with_capacity(raw.channels.len());
    for (i, c) in raw.channels.iter().enumerate() {
        let path = |f: &'static str| [P::F("m_Shapes"), P::F("channels"), P::I(i), P::F(f)];
        let hash = name_hash(c.name);
        if hash != c.name_hash {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &path("nameHash"),
                format!("0x{hash:08X} (the CRC-32 of `{}`)", c.name),
                format!("0x{:08X}", c.name_hash),
            ));
        }
        let (Ok(first), Ok(count)) = (
            usize::try_from(c.frame_index),
            usize::try_from(c.frame_count),
        ) else {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &path("frameIndex"),
                "a frame index and count of 0 or more",
                format!("{} and {}", c.frame_index, c.frame_count),
            ));
        };
        let Some(run) = first.checked_add(count).and_then(|e| frames.get(first..e)) else {
            return Err(fail(
                ErrorKind::Count,
                None,
                &path("frameCount"),
                format!(
                    "frameIndex {first} + frameCount within the {} frames",
                    frames.len()
                ),
                count.to_string(),
            ));
        };
        if let Some(k) = run.windows(2).position(|w| w[1].weight <= w[0].weight) {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &[P::F("m_Shapes"), P::F("fullWeights"), P::I(first + k + 1)],
                format!(
                    "a weight above {} (the frames of `{}` in increasing weight)",
                    run[k].weight, c.name
                ),
                run[k + 1].weight.to_string(),
            ));
        }
        channels.push(ShapeChannel {
            name: c.name.to_string(),
            name_hash: c.name_hash,
            first_frame: first,
            frame_count: count,
        });
    }
    Ok(Some(MeshShapes {
        channels,
        frames,
        vertices,
    }))
}
