//! What a Unity Mesh (class 43) means: its vertex channels decoded through the vertex layout
//! its channel table describes (or its compressed mesh unpacked), its index buffer cut into
//! submeshes, its skin and its blend shapes, all in Unity's frame; and [`to_scene`], which
//! mirrors the result into the common model's right-handed frame.
//!
//! Each part is two halves side by side: `judge`, the checks the verdict makes (every relation
//! of the spec and every check decoding needs, each at the place the reader recorded, in the
//! spec's ids), and the decoder, which works on the generated view
//! ([`UnityMeshRef`](crate::generated::unity_mesh::UnityMeshRef)) of an input whose verdict
//! passed and checks nothing again: it reads through `get` so that misuse gives empty parts,
//! never a panic.

pub mod arrays;
mod compressed;
mod finite;
mod format;
mod frame;
mod indices;
mod layout;
mod packed;
mod shapes;
mod skin;
pub mod table;

pub use crate::context::SkinWeights;
pub use finite::NonFiniteReport;
pub use format::VertexFormat;
pub use frame::{inverse_bind_matrix, to_scene, SceneOptions, ToScene};
pub(crate) use indices::stored_run;
pub use indices::{index_size, topology_id, SubMesh, Topology};
pub use layout::{ChannelPlace, StreamLayout, VertexLayout};
pub use packed::{
    pack_items, packed_tolerance, quantise, rebuilt_z_tolerance, unpack_floats, unpack_floats_into,
    unpack_ints, unpack_ints_into, Packed,
};
pub use shapes::{
    name_hash, MeshShapes, ShapeChannel, ShapeFrame, ShapeVertex, ShapedVertices,
    LEGACY_FULL_WEIGHT,
};
pub use skin::{Blend, MeshSkin, PaddedSets};

pub(crate) use compressed::judge as judge_compressed;
pub(crate) use indices::judge as judge_indices;
pub(crate) use layout::{judge as judge_layout, DataSize};
pub(crate) use shapes::judge_any as judge_shapes;
pub(crate) use skin::{
    judge_bone_slots, judge_channels as judge_blend_channels, judge_m_skin, judge_variable,
    variable_drawn,
};

use crate::generated::unity_mesh::UnityMeshRef;
use crate::rt::{Error, ErrorKind, Place, Rule, Severity, Span};

/// Unity's shader channels, in the order of `m_Channels` (Unity 2018 and later).
pub const CHANNELS: [&str; 14] = [
    "Vertex",
    "Normal",
    "Tangent",
    "Color",
    "TexCoord0",
    "TexCoord1",
    "TexCoord2",
    "TexCoord3",
    "TexCoord4",
    "TexCoord5",
    "TexCoord6",
    "TexCoord7",
    "BlendWeight",
    "BlendIndices",
];

/// The index of each channel in `m_Channels` (and in [`UnityMeshData::channels`]).
pub mod slot {
    /// Positions.
    pub const VERTEX: usize = 0;
    /// Normals.
    pub const NORMAL: usize = 1;
    /// Tangents (w is the bitangent's sign).
    pub const TANGENT: usize = 2;
    /// Vertex colours.
    pub const COLOR: usize = 3;
    /// The first texture coordinate set; set `k` is `TEX_COORD0 + k`.
    pub const TEX_COORD0: usize = 4;
    /// Skin weights.
    pub const BLEND_WEIGHT: usize = 12;
    /// Skin bone slots.
    pub const BLEND_INDICES: usize = 13;
}

/// A decoder's need that rests on a relation of the spec: an error (decoding cannot go on
/// without it, whatever the relation's own severity or `--relations`), naming the relation.
#[cold]
pub(crate) fn needs<P: Clone + crate::rt::Spanned>(
    rule: &'static Rule,
    at: &Place<'_, P>,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    needs_at(rule, at.span().start, at.field_path(), expected, found)
}

/// [`needs`] at an offset and path.
#[cold]
pub(crate) fn needs_at(
    rule: &'static Rule,
    offset: u64,
    path: &crate::rt::Path,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    let mut e = Error::relation(rule, 0, expected, found)
        .placed(offset, path)
        .with_severity(Severity::Error);
    e.kind = ErrorKind::Unsupported;
    e
}

/// Where decoded bytes came from: the input (inline vertex data) or the resource file of a
/// streamed range, so that errors about them name the byte in the right file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// The vertex data's bytes in the input, from `start`, at the spec path `path`.
    Inline {
        /// Where the bytes start in the input.
        start: u64,
        /// The field that holds them.
        path: crate::rt::Path,
    },
    /// A range of a resource file.
    Streamed {
        /// Where the range starts in the file.
        offset: u64,
        /// The file's name, as `m_StreamData.path` ends.
        file: String,
        /// The field that names the range.
        path: crate::rt::Path,
    },
}

impl Source {
    /// An error about byte `k` of the vertex data.
    #[cold]
    pub(crate) fn error(
        &self,
        k: u64,
        kind: ErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Error {
        let e = Error::new(kind, 0, expected, found);
        match self {
            Source::Inline { start, path } => e.placed(start.saturating_add(k), path),
            Source::Streamed { offset, file, path } => e
                .placed(offset.saturating_add(k), path)
                .in_resource(file.clone()),
        }
    }
}

/// A span's place under `path` (for positions kept apart from their place).
pub(crate) fn error_at(
    span: Span,
    path: &crate::rt::Path,
    kind: ErrorKind,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    Error::new(kind, 0, expected, found).placed(span.start, path)
}

/// The decoded values of one channel: `dim` components per vertex, vertex after vertex.
#[derive(Debug, Clone, PartialEq)]
pub enum ChannelData {
    /// Float, Float16 and the normalised formats (UNorm and SNorm as 0 to 1 and -1 to 1).
    Float(Vec<f32>),
    /// UInt8, UInt16 and UInt32, as integers.
    UInt(Vec<u32>),
    /// SInt8, SInt16 and SInt32, as integers.
    SInt(Vec<i32>),
}

impl ChannelData {
    /// The number of components held.
    pub fn len(&self) -> usize {
        match self {
            ChannelData::Float(v) => v.len(),
            ChannelData::UInt(v) => v.len(),
            ChannelData::SInt(v) => v.len(),
        }
    }

    /// Whether no component is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One decoded channel: `dim` components per vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The format the channel was stored in (Float for the floats of a compressed mesh,
    /// UInt32 for its bone slots).
    pub format: VertexFormat,
    /// Components per vertex (the dimension byte's low four bits).
    pub dim: usize,
    /// The stream it was read from; `None` for a channel of a compressed mesh.
    pub stream: Option<u8>,
    /// The values.
    pub data: ChannelData,
}

impl Channel {
    /// The values as floats, if the format is a float or normalised one.
    pub fn floats(&self) -> Option<&[f32]> {
        match &self.data {
            ChannelData::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The values as unsigned integers, if the format is an unsigned integer one.
    pub fn uints(&self) -> Option<&[u32]> {
        match &self.data {
            ChannelData::UInt(v) => Some(v),
            _ => None,
        }
    }

    /// The number of vertices held.
    pub fn vertex_count(&self) -> usize {
        self.data.len().checked_div(self.dim).unwrap_or(0)
    }
}

/// A mesh as stored, decoded, in Unity's frame (left-handed, clockwise front faces).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnityMeshData {
    /// `m_Name`.
    pub name: String,
    /// The number of vertices.
    pub vertex_count: usize,
    /// The channels in the order of [`CHANNELS`]; `None` where the mesh has none.
    pub channels: [Option<Channel>; 14],
    /// Whether the vertices came from `m_CompressedMesh`.
    pub compressed: bool,
    /// The vertex layout the data was checked against (`None` for a compressed mesh or one
    /// without vertex data).
    pub layout: Option<VertexLayout>,
    /// The submeshes, their indices decoded.
    pub submeshes: Vec<SubMesh>,
    /// Bone influences and bind poses, for a skinned mesh.
    pub skin: Option<MeshSkin>,
    /// Blend shapes, for a mesh that has some.
    pub shapes: Option<MeshShapes>,
    /// Where the mesh holds values that are not finite.
    pub non_finite: Vec<NonFiniteReport>,
}

impl UnityMeshData {
    /// The channel in `slot` (see [`slot`]), if present.
    pub fn channel(&self, slot: usize) -> Option<&Channel> {
        self.channels.get(slot).and_then(Option::as_ref)
    }

    /// The float values of the channel in `slot`, if present and stored as floats.
    pub fn floats(&self, slot: usize) -> Option<(&[f32], usize)> {
        let c = self.channel(slot)?;
        Some((c.floats()?, c.dim))
    }

    /// Positions, three components per vertex (a wider Vertex channel is cut to three).
    pub fn positions(&self) -> Option<Vec<[f32; 3]>> {
        let (v, dim) = self.floats(slot::VERTEX)?;
        Some(take::<3>(v, dim, 0.0))
    }

    /// Normals, three components per vertex (a normal padded to four is cut to three).
    pub fn normals(&self) -> Option<Vec<[f32; 3]>> {
        let (v, dim) = self.floats(slot::NORMAL)?;
        Some(take::<3>(v, dim, 0.0))
    }

    /// Tangents with w (a three-component tangent gets w = 1).
    pub fn tangents(&self) -> Option<Vec<[f32; 4]>> {
        let (v, dim) = self.floats(slot::TANGENT)?;
        Some(take::<4>(v, dim, 1.0))
    }

    /// Texture coordinate set `k` (0 to 7), its first two components per vertex.
    pub fn uv(&self, k: usize) -> Option<Vec<[f32; 2]>> {
        if k >= 8 {
            return None;
        }
        let (v, dim) = self.floats(slot::TEX_COORD0 + k)?;
        Some(take::<2>(v, dim, 0.0))
    }

    /// Vertex colours as RGBA floats (a three-component colour gets alpha 1).
    pub fn colors(&self) -> Option<Vec<[f32; 4]>> {
        let (v, dim) = self.floats(slot::COLOR)?;
        Some(take::<4>(v, dim, 1.0))
    }
}

impl UnityMeshData {
    /// The float channel in `slot` moved out, `N` components per vertex as [`take`] makes
    /// them: the values are not copied when the channel has `N` components.
    pub(crate) fn take_floats<const N: usize>(
        &mut self,
        slot: usize,
        pad: f32,
    ) -> Option<Vec<[f32; N]>> {
        let c = self.channels.get_mut(slot)?.as_mut()?;
        let ChannelData::Float(v) = &mut c.data else {
            return None;
        };
        let v = std::mem::take(v);
        if c.dim == N {
            // A channel's values are allocated as many as they are: the same allocation.
            return Some(
                match bytemuck::allocation::try_cast_vec::<f32, [f32; N]>(v) {
                    Ok(vertices) => vertices,
                    Err((_, v)) => take::<N>(&v, N, pad),
                },
            );
        }
        Some(take::<N>(&v, c.dim, pad))
    }
}

/// The first `N` components of each `dim`-component vertex, missing ones as `pad` (the last
/// one) or 0.
pub(crate) fn take<const N: usize>(v: &[f32], dim: usize, pad: f32) -> Vec<[f32; N]> {
    if dim == 0 {
        return vec![];
    }
    if dim == N {
        return v
            .chunks_exact(N)
            .map(|c| {
                let mut out = [0.0; N];
                out.copy_from_slice(c);
                out
            })
            .collect();
    }
    v.chunks_exact(dim)
        .map(|c| {
            let mut out = [0.0; N];
            for (k, o) in out.iter_mut().enumerate() {
                *o = match c.get(k) {
                    Some(&x) => x,
                    None if k + 1 == N => pad,
                    None => 0.0,
                };
            }
            out
        })
        .collect()
}

/// Whether the vertices are in `m_CompressedMesh` rather than in the vertex data.
pub fn is_compressed(view: &UnityMeshRef<'_>) -> bool {
    view.compressed_mesh.vertices.num_items > 0
}

/// The number of vertices the indices and blend shapes refer to: a third of the packed
/// positions of a compressed mesh, `m_VertexCount` otherwise.
pub fn vertex_count(view: &UnityMeshRef<'_>) -> u64 {
    if is_compressed(view) {
        u64::from(view.compressed_mesh.vertices.num_items / 3)
    } else if let Some(vd) = &view.vertex_data {
        u64::from(vd.vertex_count)
    } else {
        arrays::vertex_count(view)
    }
}

/// The vertex data's bytes inside the object (none before 3.5, whose vertices are in arrays).
pub fn inline_vertex_bytes<'a>(view: &UnityMeshRef<'a>) -> &'a [u8] {
    view.vertex_data.as_ref().map_or(&[], |vd| vd.data.data)
}

/// The bind poses, wherever the mesh's era stores them: after m_Shapes from 4.3, after m_Skin
/// before.
pub fn bind_poses<'v, 'a>(
    view: &'v UnityMeshRef<'a>,
) -> &'v [crate::generated::unity_mesh::Matrix4x4fRef<'a>] {
    view.bind_poses
        .as_deref()
        .or(view.bind_poses_after_skin.as_deref())
        .unwrap_or(&[])
}

/// The number of bones a mesh binds: its bind poses, or before 5.0 those its compressed mesh
/// packs (16 items each) when m_BindPose is empty.
pub fn bind_pose_count(view: &UnityMeshRef<'_>) -> usize {
    match bind_poses(view).len() {
        0 => compressed::packed_bind_pose_count(&view.compressed_mesh),
        n => n,
    }
}

/// The bind poses as row-major matrices: m_BindPose, or before 5.0 those the compressed mesh
/// packs when m_BindPose is empty.
pub fn bind_pose_matrices(view: &UnityMeshRef<'_>) -> Vec<[f32; 16]> {
    let stored = bind_poses(view);
    if stored.is_empty() {
        return compressed::packed_bind_poses(&view.compressed_mesh);
    }
    stored
        .iter()
        .map(|m| {
            let mut e = [0.0f32; 16];
            for (o, x) in e.iter_mut().zip(m.e.iter()) {
                *o = x;
            }
            e
        })
        .collect()
}

/// The layout of a mesh's vertex data, in common terms whatever its era.
pub fn plan(vd: &crate::generated::unity_mesh::VertexDataRef<'_>) -> VertexLayout {
    layout::plan(&table::Table::of(vd), vd.vertex_count)
}

/// Every channel of a mesh whose vertices are in the vertex data or (before 3.5) in arrays
/// (whose verdict passed), decoded from the view through the layout its channel table
/// describes.
pub fn channels(view: &UnityMeshRef<'_>, vertex_bytes: &[u8]) -> [Option<Channel>; 14] {
    match &view.vertex_data {
        Some(vd) => format::decode_channels(&plan(vd), vertex_bytes),
        None => arrays::decode(view).1,
    }
}

/// Channel `slot` (see [`slot`]) of a mesh whose vertices are in the vertex data or (before
/// 3.5) in arrays, decoded from the view; `None` when the mesh has no such channel.
pub fn channel(view: &UnityMeshRef<'_>, vertex_bytes: &[u8], slot: usize) -> Option<Channel> {
    match &view.vertex_data {
        Some(vd) => format::decode_channel(&plan(vd), vertex_bytes, slot),
        None => arrays::decode(view).1.get_mut(slot)?.take(),
    }
}

/// Decodes a mesh whose verdict passed: its channels through the vertex layout (or its
/// compressed mesh), its submeshes' indices, its skin (the variable bone count data only when
/// `skin_weights` draws it) and its blend shapes, in Unity's frame. `vertex_bytes` are the
/// vertex data: inline, or the streamed range ([`super::stream::read`]).
pub fn decode(
    view: &UnityMeshRef<'_>,
    vertex_bytes: &[u8],
    skin_weights: SkinWeights,
) -> UnityMeshData {
    let compressed = is_compressed(view);
    let (vertex_count, channels, layout) = if compressed {
        let (n, channels) = compressed::decode_vertices(&view.compressed_mesh);
        (n, channels, None)
    } else if let Some(vd) = &view.vertex_data {
        let layout = plan(vd);
        let channels = format::decode_channels(&layout, vertex_bytes);
        let n = usize::try_from(vd.vertex_count).unwrap_or(usize::MAX);
        (n, channels, layout.has_channels().then_some(layout))
    } else {
        let (n, channels) = arrays::decode(view);
        (n, channels, None)
    };
    let mut mesh = UnityMeshData {
        name: view.name.value.to_string(),
        vertex_count,
        channels,
        compressed,
        layout,
        ..Default::default()
    };
    mesh.submeshes = indices::decode(view);
    mesh.skin = skin::decode(view, &mesh, skin_weights);
    mesh.shapes = shapes::decode(view);
    mesh.non_finite = finite::scan(&mesh);
    mesh
}
