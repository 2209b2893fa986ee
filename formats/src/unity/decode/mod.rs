//! What a Unity Mesh (class 43) means: its vertex channels decoded through checked vertex
//! layouts (or its compressed mesh unpacked), its index buffer cut into submeshes, its skin and
//! its blend shapes, all in Unity's frame; and [`to_scene`], which mirrors the result into the
//! common model's right-handed frame.
//!
//! The input is [`RawMesh`]: borrowed slices and small plain structs, the fields of a
//! serialized Mesh as Unity names them, so that any reader of the serialized object (the
//! generated `unity_mesh` type, a test, another tool) can feed it. [`decode`] turns it into a
//! [`UnityMeshData`], checking every count against the bytes present; every problem is a
//! [`crate::rt::Error`] whose path uses Unity's field names (`unity_mesh.m_VertexData.m_Channels[3].offset`).
//!
//! Error offsets are byte offsets into the part of the input the error is about (the vertex
//! data, the index buffer, a packed vector's data), moved by the bases a caller gives in
//! [`RawMesh::vertex_data_offset`], [`RawMesh::index_buffer_offset`] and
//! [`RawPackedFloats::data_offset`]/[`RawPackedInts::data_offset`]; errors that are not about
//! a byte (a count that disagrees with another) carry no offset.

mod compressed;
mod finite;
mod format;
mod frame;
mod indices;
mod layout;
mod packed;
mod shapes;
mod skin;

pub use finite::NonFiniteReport;
pub use format::VertexFormat;
pub use frame::{inverse_bind_matrix, to_scene, SceneOptions, ToScene};
pub use indices::{SubMesh, Topology};
pub use layout::{StreamLayout, VertexLayout};
pub use packed::{packed_tolerance, rebuilt_z_tolerance, unpack_floats, unpack_ints};
pub use shapes::{name_hash, MeshShapes, ShapeChannel, ShapeFrame, ShapeVertex, ShapedVertices};
pub use skin::{Blend, MeshSkin, PaddedSets, SkinWeights};

use crate::rt::{Error, ErrorKind, Result};

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

/// The root of every error path this module reports.
pub(crate) const ROOT: &str = "unity_mesh";

/// One step of an error path, for [`fail`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum P {
    /// A field, by Unity's name.
    F(&'static str),
    /// An element of an array.
    I(usize),
}

/// An error rooted at `unity_mesh` with the given path (outermost first).
pub(crate) fn fail(
    kind: ErrorKind,
    offset: Option<u64>,
    path: &[P],
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    let mut e = match offset {
        Some(o) => Error::new(kind, o, expected, found),
        None => Error::unplaced(kind, expected, found),
    };
    for p in path.iter().rev() {
        e = match *p {
            P::F(name) => e.in_field(name),
            P::I(i) => e.at_index(i),
        };
    }
    e.rooted(ROOT)
}

/// One entry of `m_VertexData.m_Channels` as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawChannel {
    /// The stream the channel lives in.
    pub stream: u8,
    /// The channel's byte offset inside one vertex of its stream.
    pub offset: u8,
    /// The vertex format id (0 Float to 11 SInt32, see [`VertexFormat`]).
    pub format: u8,
    /// The dimension byte: the low four bits are the number of components (Unity can set
    /// the high bits, 0x34 is seen); 0 means the channel is absent.
    pub dimension: u8,
}

/// One entry of `m_SubMeshes` as stored (its bounding box is not needed to decode).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawSubMesh {
    /// Byte offset of the submesh's first index in the index buffer.
    pub first_byte: u32,
    /// The number of indices.
    pub index_count: u32,
    /// The topology id (0 triangles, 1 the old triangle strip, 2 quads, 3 lines, 4 line
    /// strip, 5 points).
    pub topology: u32,
    /// Added to every index of the submesh.
    pub base_vertex: u32,
    /// The first vertex the submesh uses.
    pub first_vertex: u32,
    /// The number of vertices the submesh uses.
    pub vertex_count: u32,
}

/// A PackedBitVector of floats as stored (`m_NumItems`, `m_Range`, `m_Start`, `m_Data`,
/// `m_BitSize`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawPackedFloats<'a> {
    /// The number of items.
    pub num_items: u32,
    /// The distance from the smallest to the largest value.
    pub range: f32,
    /// The smallest value.
    pub start: f32,
    /// The packed bits.
    pub data: &'a [u8],
    /// Bits per item (0 to 32).
    pub bit_size: u8,
    /// Where `data` starts in the caller's input, added to the offsets of errors about it.
    pub data_offset: u64,
}

/// A PackedBitVector of integers as stored (`m_NumItems`, `m_Data`, `m_BitSize`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawPackedInts<'a> {
    /// The number of items.
    pub num_items: u32,
    /// The packed bits.
    pub data: &'a [u8],
    /// Bits per item (0 to 32).
    pub bit_size: u8,
    /// Where `data` starts in the caller's input, added to the offsets of errors about it.
    pub data_offset: u64,
}

/// `m_CompressedMesh` as stored: empty vectors (the default) for a mesh that is not
/// compressed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawCompressedMesh<'a> {
    /// `m_Vertices`: positions, three items per vertex.
    pub vertices: RawPackedFloats<'a>,
    /// `m_UV`: texture coordinate sets, one after another (see `uv_info`).
    pub uv: RawPackedFloats<'a>,
    /// `m_Normals`: x and y of each normal.
    pub normals: RawPackedFloats<'a>,
    /// `m_Tangents`: x and y of each tangent.
    pub tangents: RawPackedFloats<'a>,
    /// `m_Weights`: 5-bit weights in 31sts (decoding them is inferred: no compressed mesh
    /// found has any).
    pub weights: RawPackedInts<'a>,
    /// `m_NormalSigns`: one sign of z per normal (0 negative).
    pub normal_signs: RawPackedInts<'a>,
    /// `m_TangentSigns`: per tangent the sign of z, then the sign of w (0 negative).
    pub tangent_signs: RawPackedInts<'a>,
    /// `m_FloatColors`: four items per vertex.
    pub float_colors: RawPackedFloats<'a>,
    /// `m_BoneIndices`: the bone slot of every stored weight (and of every implied fourth).
    pub bone_indices: RawPackedInts<'a>,
    /// `m_Triangles`: the index buffer, as packed integers.
    pub triangles: RawPackedInts<'a>,
    /// `m_UVInfo`: a nibble per texture coordinate set (bit 2 present, low two bits the
    /// dimension minus 1); 0 for the old two-set form.
    pub uv_info: u32,
}

/// One entry of `m_Shapes.channels` as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawShapeChannel<'a> {
    /// The channel's name.
    pub name: &'a str,
    /// The CRC-32 of the name.
    pub name_hash: u32,
    /// The channel's first frame in `m_Shapes.shapes`.
    pub frame_index: i32,
    /// The number of frames.
    pub frame_count: i32,
}

/// One entry of `m_Shapes.shapes` (a frame) as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawShapeFrame {
    /// The frame's first entry in `m_Shapes.vertices`.
    pub first_vertex: u32,
    /// The number of entries.
    pub vertex_count: u32,
    /// Whether the entries carry normal deltas.
    pub has_normals: bool,
    /// Whether the entries carry tangent deltas.
    pub has_tangents: bool,
}

/// One entry of `m_Shapes.vertices` as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawShapeVertex {
    /// Position delta.
    pub vertex: [f32; 3],
    /// Normal delta.
    pub normal: [f32; 3],
    /// Tangent delta.
    pub tangent: [f32; 3],
    /// The mesh vertex it moves.
    pub index: u32,
}

/// `m_Shapes` as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawShapes<'a> {
    /// `vertices`: the sparse deltas of every frame.
    pub vertices: &'a [RawShapeVertex],
    /// `shapes`: one per frame.
    pub shapes: &'a [RawShapeFrame],
    /// `channels`: the named blend shapes.
    pub channels: &'a [RawShapeChannel<'a>],
    /// `fullWeights`: the weight each frame is at (one per entry of `shapes`).
    pub full_weights: &'a [f32],
}

/// A serialized Mesh's fields that carry geometry, borrowed from wherever they were read.
///
/// Build it from the serialized object (the vertex data inline in `m_VertexData`, or the
/// range of the resource file that `m_StreamData` names, already read) and hand it to
/// [`decode`]. `Default` gives an empty mesh to fill in.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawMesh<'a> {
    /// `m_Name`, used in notes and by [`to_scene`].
    pub name: &'a str,
    /// `m_VertexData.m_VertexCount`.
    pub vertex_count: u32,
    /// `m_VertexData.m_Channels`: 14 entries in the order of [`CHANNELS`], or none.
    pub channels: &'a [RawChannel],
    /// The vertex data bytes (`m_VertexData`'s data, or the streamed range).
    pub vertex_data: &'a [u8],
    /// Where `vertex_data` starts in the caller's input, added to the offsets of errors
    /// about it.
    pub vertex_data_offset: u64,
    /// `m_IndexFormat`: 0 for 16-bit indices, 1 for 32-bit.
    pub index_format: u32,
    /// `m_IndexBuffer`.
    pub index_buffer: &'a [u8],
    /// Where `index_buffer` starts in the caller's input, added to the offsets of errors
    /// about it.
    pub index_buffer_offset: u64,
    /// `m_SubMeshes`.
    pub submeshes: &'a [RawSubMesh],
    /// `m_CompressedMesh`.
    pub compressed: RawCompressedMesh<'a>,
    /// `m_BindPose`: one row-major 4x4 matrix per bone (`e00, e01, e02, e03, e10, ...`).
    pub bind_poses: &'a [[f32; 16]],
    /// `m_VariableBoneCountWeights.m_Data`.
    pub variable_bone_count_weights: &'a [u32],
    /// `m_Shapes`.
    pub shapes: RawShapes<'a>,
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

/// Decodes a mesh: its channels through the checked vertex layout (or its compressed mesh),
/// its submeshes' indices, its skin and its blend shapes, in Unity's frame.
pub fn decode(raw: &RawMesh) -> Result<UnityMeshData> {
    let packed_vertices = raw.compressed.vertices.num_items > 0;
    let (vertex_count, channels, layout, compressed) = if packed_vertices {
        if !raw.vertex_data.is_empty() {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &[P::F("m_VertexData")],
                "no vertex data in a mesh whose m_CompressedMesh holds the vertices",
                format!(
                    "{} bytes of vertex data and {} packed position components",
                    raw.vertex_data.len(),
                    raw.compressed.vertices.num_items
                ),
            ));
        }
        let (n, channels) = compressed::decode_vertices(&raw.compressed)?;
        (n, channels, None, true)
    } else {
        compressed::check_unused(&raw.compressed)?;
        let vc = usize::try_from(raw.vertex_count).unwrap_or(usize::MAX);
        let layout = layout::check(raw)?;
        let channels = match &layout {
            Some(l) => format::decode_channels(raw, l)?,
            None => Default::default(),
        };
        (vc, channels, layout, false)
    };
    let mut mesh = UnityMeshData {
        name: raw.name.to_string(),
        vertex_count,
        channels,
        compressed,
        layout,
        ..Default::default()
    };
    mesh.submeshes = indices::decode(raw, vertex_count)?;
    mesh.skin = skin::decode(raw, &mesh)?;
    mesh.shapes = shapes::decode(&raw.shapes, vertex_count)?;
    mesh.non_finite = finite::scan(&mesh);
    Ok(mesh)
}
