//! The separate vertex arrays of a Mesh before 3.5 (`m_Vertices`, `m_Normals`, `m_Tangents`,
//! `m_UV`, `m_UV1`, `m_Colors`), which later editors keep in the vertex data: judged
//! (`arrays_per_vertex`) and decoded into the same channels as the vertex data's, so that
//! everything after (indices, skin, the common model) is the same for every era.

use super::{needs, Channel, ChannelData, VertexFormat};
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPlace, UnityMeshPos, UnityMeshRef};
use crate::rt::Place;
use crate::verdict::Judge;

/// Whether the mesh keeps its vertices in separate arrays (before 3.5).
pub fn has_arrays(view: &UnityMeshRef<'_>) -> bool {
    view.vertices.is_some()
}

/// The number of positions of `m_Vertices` (0 when the mesh has no such array).
pub fn vertex_count(view: &UnityMeshRef<'_>) -> u64 {
    view.vertices.as_ref().map_or(0, |v| v.len() as u64)
}

/// Per array after `m_Vertices`: its name, its slot in the channels, and its length.
fn per_vertex(view: &UnityMeshRef<'_>) -> [(&'static str, usize, usize); 5] {
    use super::slot::*;
    let len = |n: Option<usize>| n.unwrap_or(0);
    [
        (
            "normals",
            NORMAL,
            len(view.normals.as_ref().map(|a| a.len())),
        ),
        (
            "tangents",
            TANGENT,
            len(view.tangents.as_ref().map(|a| a.len())),
        ),
        ("colors", COLOR, len(view.colors.as_ref().map(|a| a.len()))),
        ("uv", TEX_COORD0, len(view.uv.as_ref().map(|a| a.len()))),
        (
            "uv1",
            TEX_COORD0 + 1,
            len(view.uv1.as_ref().map(|a| a.len())),
        ),
    ]
}

/// `arrays_per_vertex`: each array after `m_Vertices` is empty or holds one entry per vertex;
/// one that does not cannot be decoded as a channel (an error naming the relation).
pub(crate) fn judge(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
    let vc = vertex_count(view);
    for (name, _, n) in per_vertex(view) {
        if n == 0 || n as u64 == vc {
            continue;
        }
        let count = match name {
            "normals" => at.num_normals(),
            "tangents" => at.num_tangents(),
            "colors" => at.num_colors(),
            "uv" => at.num_uv(),
            _ => at.num_uv1(),
        };
        let Some(p) = count.some() else {
            continue;
        };
        let expected = format!("one entry per vertex ({vc}), or none");
        j.push(p.violates(
            UnityMesh::REL_ARRAYS_PER_VERTEX,
            expected.clone(),
            n.to_string(),
        ));
        j.push(needs(
            UnityMesh::REL_ARRAYS_PER_VERTEX,
            &p,
            format!("{expected}, to decode {name} as a vertex channel"),
            n.to_string(),
        ));
    }
}

/// A float channel of `dim` components per vertex.
fn floats(dim: usize, data: Vec<f32>) -> Option<Channel> {
    Some(Channel {
        format: VertexFormat::Float,
        dim,
        stream: None,
        data: ChannelData::Float(data),
    })
}

/// The channels the arrays hold (in the slots of the vertex data's channels), for a mesh whose
/// verdict passed: positions, normals, tangents (w the bitangent's sign), colours (8 bits a
/// component, as 0 to 1) and two texture coordinate sets; empty arrays are no channel.
pub fn decode(view: &UnityMeshRef<'_>) -> (usize, [Option<Channel>; 14]) {
    use super::slot::*;
    let mut out: [Option<Channel>; 14] = Default::default();
    let n = vertex_count(view) as usize;
    let lengths = per_vertex(view);
    // Only arrays of one entry per vertex (the verdict refuses others).
    let fits = |slot: usize| lengths.iter().any(|&(_, s, len)| s == slot && len == n);
    if let Some(v) = view.vertices.as_ref().filter(|v| !v.is_empty()) {
        out[VERTEX] = floats(3, v.iter().flat_map(|p| [p.x, p.y, p.z]).collect());
    }
    if let Some(a) = view.normals.as_ref().filter(|_| n > 0 && fits(NORMAL)) {
        out[NORMAL] = floats(3, a.iter().flat_map(|p| [p.x, p.y, p.z]).collect());
    }
    if let Some(a) = view.tangents.as_ref().filter(|_| n > 0 && fits(TANGENT)) {
        out[TANGENT] = floats(4, a.iter().flat_map(|p| [p.x, p.y, p.z, p.w]).collect());
    }
    if let Some(a) = view.colors.as_ref().filter(|_| n > 0 && fits(COLOR)) {
        out[COLOR] = Some(Channel {
            format: VertexFormat::UNorm8,
            dim: 4,
            stream: None,
            data: ChannelData::Float(
                a.iter()
                    .flat_map(|c| c.rgba.to_le_bytes())
                    .map(|b| f32::from(b) / 255.0)
                    .collect(),
            ),
        });
    }
    for (k, arr) in [&view.uv, &view.uv1].into_iter().enumerate() {
        if let Some(a) = arr.as_ref().filter(|_| n > 0 && fits(TEX_COORD0 + k)) {
            out[TEX_COORD0 + k] = floats(2, a.iter().flat_map(|p| [p.x, p.y]).collect());
        }
    }
    (n, out)
}
