//! Blend shapes (`m_Shapes`): named channels, each a run of frames at increasing weights
//! (a full shape is at 100), each frame a run of sparse per-vertex deltas of position and,
//! when the frame says so, of normal and tangent. The deltas apply to the mesh as stored,
//! before any skin.
//!
//! In 4.1 and 4.2 a mesh stores its shapes otherwise (`legacy_shapes`, `shape_vertices`):
//! each shape has its name and one run of deltas. Each becomes a channel of one frame at
//! weight 100, the full shape (a reading: the 4.x scripting reference sets blend shape weights
//! from 0 to 100, and a shape of one frame is full at the top of that range).

use super::UnityMeshData;
use crate::generated::unity_mesh::{
    BlendShapeDataPlace, BlendShapeDataPos, BlendShapeDataRef, BlendShapeVertex,
    BlendShapeVertexPlace, BlendShapeVertexPos, LegacyBlendShapePlace, MeshBlendShapeChannelPlace,
    MeshBlendShapePlace, UnityMesh, UnityMeshPlace, UnityMeshPos, UnityMeshRef,
};
use crate::rt::{Error, ErrorKind, Place, Result, Span, Strided};
use crate::verdict::Judge;

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
    /// The CRC-32 of the name, as stored (`shape_name_hash` warns when it is not the name's).
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
    /// The vertex it moves.
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
            .rooted("unity_mesh.shapes"));
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
                    add_scaled(out.positions.get_mut(v), factor, d.position);
                    if frame.has_normals {
                        let n = out.normals.as_mut().and_then(|n| n.get_mut(v));
                        add_scaled(n, factor, d.normal);
                    }
                    if frame.has_tangents {
                        let t = out.tangents.as_mut().and_then(|t| t.get_mut(v));
                        add_scaled(t, factor, d.tangent);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Adds `factor` times `delta` to the first three components of `v`, when there is one (a
/// tangent's fourth, its sign, stays).
fn add_scaled<const N: usize>(v: Option<&mut [f32; N]>, factor: f32, delta: [f32; 3]) {
    for (x, dx) in v.into_iter().flatten().zip(delta) {
        *x += factor * dx;
    }
}

/// The weight of the one frame of a 4.1/4.2 blend shape (see the module's reading).
pub const LEGACY_FULL_WEIGHT: f32 = 100.0;

/// The verdict on the blend shapes of either era (see [`judge`] and [`judge_legacy`]).
pub(crate) fn judge_any(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    vc: u64,
    j: &mut Judge<'_>,
) {
    if let (Some(s), Some(p)) = (&view.shapes, at.shapes().some()) {
        judge(s, &p, vc, j);
    } else {
        judge_legacy(view, at, vc, j);
    }
}

/// Reports `e` and the need decoding has of what it says.
fn with_need(j: &mut Judge<'_>, e: Error) {
    let mut need = e.clone().with_severity(crate::rt::Severity::Error);
    need.kind = ErrorKind::Unsupported;
    need.expected.push_str(", to decode the blend shapes");
    j.push(e);
    j.push(need);
}

/// The verdict on the blend shapes of 4.1 and 4.2: `shape_arrays_agree` over `legacy_shapes`
/// and `shape_vertices` (every shape's run inside the deltas, every delta's vertex below `vc`).
fn judge_legacy(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, vc: u64, j: &mut Judge<'_>) {
    let (Some(shapes), Some(deltas)) = (&view.legacy_shapes, &view.shape_vertices) else {
        return;
    };
    let entries = deltas.len() as u64;
    if let Some(list) = at.shape_vertices().some() {
        judge_delta_vertices(deltas, &list, vc, j);
    }
    let shapes_at = at.legacy_shapes();
    let Some(list) = shapes_at.some() else {
        return;
    };
    for (i, f) in shapes.iter().enumerate() {
        let shape = list.at(i);
        let places = (shape.first_vertex(), shape.vertex_count());
        let run = (f.first_vertex, f.vertex_count);
        judge_run(run, places, entries, "shape_vertices", j);
    }
}

/// Reports the first of `deltas` naming no vertex below `vc` (with how many do), at its place
/// in `list`.
fn judge_delta_vertices(
    deltas: &[BlendShapeVertex],
    list: &Place<'_, Strided<BlendShapeVertexPos>>,
    vc: u64,
    j: &mut Judge<'_>,
) {
    let Some(i) = deltas.iter().position(|v| u64::from(v.index) >= vc) else {
        return;
    };
    let n = deltas.iter().filter(|v| u64::from(v.index) >= vc).count();
    with_need(
        j,
        list.at(i).index().violates(
            UnityMesh::REL_SHAPE_ARRAYS_AGREE,
            format!("a vertex below {vc} ({n} entries name none)"),
            deltas[i].index.to_string(),
        ),
    );
}

/// Reports a run of deltas (`firstVertex`, `vertexCount`) past the `entries` entries of `of`:
/// at its first vertex when that is past them, else at its count.
fn judge_run(
    (first, count): (u32, u32),
    (first_at, count_at): (Place<'_, Span>, Place<'_, Span>),
    entries: u64,
    of: &str,
    j: &mut Judge<'_>,
) {
    if u64::from(first) + u64::from(count) <= entries {
        return;
    }
    let (field, what) = if u64::from(first) > entries {
        (first_at, first)
    } else {
        (count_at, count)
    };
    with_need(
        j,
        field.violates(
            UnityMesh::REL_SHAPE_ARRAYS_AGREE,
            format!(
                "firstVertex {first} + vertexCount {count} within the {entries} entries of {of}"
            ),
            what.to_string(),
        ),
    );
}

/// The verdict on `m_Shapes`: `shape_arrays_agree` and `shape_name_hash`, and what decoding
/// the shapes needs (the arrays agreeing, each channel's frames in increasing weight, so that
/// the last is the full one). `vc` is the number of vertices. Each disagreement is reported
/// once, at its first place, with how many there are.
pub(crate) fn judge(
    shapes: &BlendShapeDataRef<'_>,
    at: &Place<'_, BlendShapeDataPos>,
    vc: u64,
    j: &mut Judge<'_>,
) {
    let agree = UnityMesh::REL_SHAPE_ARRAYS_AGREE;
    let both = with_need;
    let frames = shapes.shapes.len() as u64;
    let entries = shapes.vertices.len() as u64;
    let weights = shapes.full_weights.len() as u64;
    if weights != frames {
        both(
            j,
            at.num_full_weights().violates(
                agree,
                format!("{frames} weights (one per entry of shapes)"),
                weights.to_string(),
            ),
        );
    }
    judge_delta_vertices(&shapes.vertices, &at.vertices(), vc, j);
    let list = at.shapes();
    for (i, f) in shapes.shapes.iter().enumerate() {
        let frame = list.at(i);
        let places = (frame.first_vertex(), frame.vertex_count());
        judge_run(
            (f.first_vertex, f.vertex_count),
            places,
            entries,
            "vertices",
            j,
        );
    }
    let channels = at.channels();
    for (i, c) in shapes.channels.iter().enumerate() {
        let ch = channels.at(i);
        let hash = name_hash(c.name.value);
        if hash != c.name_hash {
            j.push(ch.name_hash().violates(
                UnityMesh::REL_SHAPE_NAME_HASH,
                format!("0x{hash:08X} (the CRC-32 of `{}`)", c.name.value),
                format!("0x{:08X}", c.name_hash),
            ));
        }
        let (first, count) = (i64::from(c.frame_index), i64::from(c.frame_count));
        if first < 0 || count < 0 || (first + count) as u64 > frames {
            let (field, what) = if first < 0 || first as u64 > frames {
                (ch.frame_index(), c.frame_index)
            } else {
                (ch.frame_count(), c.frame_count)
            };
            both(
                j,
                field.violates(
                    agree,
                    format!(
                        "frameIndex {first} + frameCount {count} within the {frames} frames of shapes"
                    ),
                    what.to_string(),
                ),
            );
            continue;
        }
        let run = (first as usize)..(first + count) as usize;
        let w: Vec<f32> = run
            .clone()
            .filter_map(|k| shapes.full_weights.get(k))
            .collect();
        if let Some(k) = w.windows(2).position(|p| p[1] <= p[0]) {
            let weights = at.full_weights();
            j.push(weights.at(run.start + k + 1).error(
                ErrorKind::Unsupported,
                format!(
                    "a weight above {} (the frames of `{}` in increasing weight, the last the full shape), to decode the blend shapes",
                    w[k], c.name.value
                ),
                w[k + 1].to_string(),
            ));
        }
    }
}

fn vec3(v: &crate::generated::unity_mesh::Vector3f) -> [f32; 3] {
    [v.x, v.y, v.z]
}

fn delta(v: &BlendShapeVertex) -> ShapeVertex {
    ShapeVertex {
        index: v.index,
        position: vec3(&v.vertex),
        normal: vec3(&v.normal),
        tangent: vec3(&v.tangent),
    }
}

/// The blend shapes of a mesh whose verdict passed, of either era; `None` when it has none.
pub(crate) fn decode(view: &UnityMeshRef<'_>) -> Option<MeshShapes> {
    if let Some(s) = &view.shapes {
        return decode_data(s);
    }
    let shapes = view.legacy_shapes.as_ref().filter(|s| !s.is_empty())?;
    let vertices = view
        .shape_vertices
        .as_ref()
        .map(|d| d.iter().map(delta).collect())
        .unwrap_or_default();
    let frames = shapes
        .iter()
        .map(|s| ShapeFrame {
            weight: LEGACY_FULL_WEIGHT,
            first_vertex: s.first_vertex as usize,
            vertex_count: s.vertex_count as usize,
            has_normals: s.has_normals != 0,
            has_tangents: s.has_tangents != 0,
        })
        .collect();
    let channels = shapes
        .iter()
        .enumerate()
        .map(|(k, s)| ShapeChannel {
            name: s.name.value.to_string(),
            name_hash: name_hash(s.name.value),
            first_frame: k,
            frame_count: 1,
        })
        .collect();
    Some(MeshShapes {
        channels,
        frames,
        vertices,
    })
}

/// `m_Shapes` (BlendShapeData, from 4.3) of a mesh whose verdict passed; `None` when it has no
/// blend shapes.
fn decode_data(shapes: &BlendShapeDataRef<'_>) -> Option<MeshShapes> {
    if shapes.vertices.is_empty()
        && shapes.shapes.is_empty()
        && shapes.channels.is_empty()
        && shapes.full_weights.is_empty()
    {
        return None;
    }
    let vertices = shapes.vertices.iter().map(delta).collect();
    let frames = shapes
        .shapes
        .iter()
        .zip(shapes.full_weights.iter())
        .map(|(s, weight)| ShapeFrame {
            weight,
            first_vertex: s.first_vertex as usize,
            vertex_count: s.vertex_count as usize,
            has_normals: s.has_normals != 0,
            has_tangents: s.has_tangents != 0,
        })
        .collect();
    let channels = shapes
        .channels
        .iter()
        .map(|c| ShapeChannel {
            name: c.name.value.to_string(),
            name_hash: c.name_hash,
            first_frame: usize::try_from(c.frame_index).unwrap_or(0),
            frame_count: usize::try_from(c.frame_count).unwrap_or(0),
        })
        .collect();
    Some(MeshShapes {
        channels,
        frames,
        vertices,
    })
}
