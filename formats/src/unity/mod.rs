//! Unity's Mesh object (class 43): what the serialized fields mean beyond their bytes.
//!
//! The bytes are read and written by the generated [`UnityMesh`] (`spec/unity_mesh.ksy`), which
//! keeps everything raw. This module states the relations between its fields that the documents
//! give ([`Semantics::relations`]), finds streamed vertex data ([`stream`]), and hands the raw
//! fields to the decoder as plain borrowed input ([`RawParts`]) to produce geometry.

pub mod decode;
pub mod files;
pub mod origin;
pub mod stream;

use crate::context::Context;
use crate::generated::unity_mesh::{IndexFormat, UnityMesh};
use crate::generated::unity_mesh::{PackedFloatVector, PackedIntVector};
use crate::legacy::OwnedSemantics;
use crate::rt::{Codec, Error, Result};
use crate::scene::Scene;
use decode::{
    RawChannel, RawCompressedMesh, RawMesh, RawPackedFloats, RawPackedInts, RawShapeChannel,
    RawShapeFrame, RawShapeVertex, RawShapes, RawSubMesh, SceneOptions,
};

/// The error path's root for this layout.
const ROOT: &str = "unity_mesh";

/// The first editor version whose channel formats use the numbering of the 12 vertex formats
/// (2019.1); geometry is decoded from this version on.
pub const FORMATS_FROM: u32 = 20190100;

/// The oldest editor version whose Mesh layout the spec describes (5.3.5).
pub const OLDEST_VERSION: u32 = 50305;

/// The size in bytes of one component of vertex format `format` (Unity 2019.1 numbering), or
/// `None` for an id outside the 12 formats.
pub fn format_size(format: u8) -> Option<usize> {
    match format {
        0 | 10 | 11 => Some(4),
        1 | 4 | 5 | 8 | 9 => Some(2),
        2 | 3 | 6 | 7 => Some(1),
        _ => None,
    }
}

/// The number of shader channels of `m_Channels` from 2018.1 on.
pub const CHANNEL_COUNT: usize = 14;

/// Byte offsets, in the serialized object, of the fields that relations point at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offsets {
    /// The first submesh.
    pub sub_meshes: u64,
    /// The count of `m_BoneNameHashes`.
    pub bone_name_hashes: u64,
    /// The count of `m_BonesAABB` (where present).
    pub bones_aabb: u64,
    /// The first byte of the index buffer's data (after its count).
    pub index_buffer_data: u64,
    /// `m_VertexData` (its first field).
    pub vertex_data: u64,
    /// The first entry of `m_VertexData.m_Channels`.
    pub channels: u64,
    /// The first byte of `m_VertexData`'s bytes (after their count).
    pub vertex_bytes: u64,
    /// `m_StreamData`, where present (else the end of the object).
    pub stream_data: u64,
}

fn size_of<T: Codec>(v: &T, args: T::Args) -> u64 {
    let mut out = crate::rt::Output::default();
    v.write_out::<false>(&mut out, args)
        .map(|_| out.pos())
        .unwrap_or(0)
}

/// The version the mesh was read with, from the context (the generated reader needs it too).
fn version(ctx: &Context) -> u32 {
    ctx.params
        .get("unity_version")
        .and_then(|&v| u32::try_from(v).ok())
        .unwrap_or(0)
}

impl UnityMesh {
    /// The byte size of one index: 2 for 16-bit indices (m_IndexFormat 0, or no m_IndexFormat
    /// before 2017.3), 4 for 32-bit ones; `None` for another m_IndexFormat value.
    pub fn index_size(&self) -> Option<usize> {
        match self.index_format {
            None | Some(IndexFormat::UINT16) => Some(2),
            Some(IndexFormat::UINT32) => Some(4),
            Some(_) => None,
        }
    }

    /// The index values of the index buffer, decoded as m_IndexFormat says (a trailing partial
    /// index is left out); `None` for an unknown m_IndexFormat.
    pub fn index_values(&self) -> Option<Vec<u32>> {
        let data = &self.index_buffer.data;
        Some(match self.index_size()? {
            2 => data
                .chunks_exact(2)
                .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
            _ => data
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        })
    }

    /// Whether the vertices are in `m_CompressedMesh` rather than in the vertex data.
    pub fn is_compressed(&self) -> bool {
        self.compressed_mesh.vertices.num_items > 0
    }

    /// Where the fields that relations point at start in the serialized object, measured by
    /// writing the fields before them.
    pub fn offsets(&self, unity_version: u32) -> Offsets {
        let v = unity_version;
        let mut at = size_of(&self.name, ());
        let mut o = Offsets {
            sub_meshes: at + 4,
            ..Offsets::default()
        };
        at += 4;
        for s in &self.sub_meshes {
            at += size_of(s, (v,));
        }
        at += size_of(&self.shapes, ());
        at += 4 + 64 * self.bind_poses.len() as u64;
        o.bone_name_hashes = at;
        at += 4 + 4 * self.bone_name_hashes.len() as u64 + 4;
        o.bones_aabb = at;
        if let Some(b) = &self.bones_aabb {
            at += size_of(b, ());
        }
        if let Some(w) = &self.variable_bone_count_weights {
            at += size_of(w, ());
        }
        at += 4;
        if self.index_format.is_some() {
            at += 4;
        }
        o.index_buffer_data = at + 4;
        at += size_of(&self.index_buffer, ());
        if let Some(s) = &self.skin {
            at += size_of(s, ());
        }
        o.vertex_data = at;
        let vd = &self.vertex_data;
        let mut vat = at + if vd.current_channels.is_some() { 4 } else { 0 } + 4;
        o.channels = vat + 4;
        vat += 4 + 4 * vd.channels.len() as u64;
        o.vertex_bytes = vat + 4;
        at += size_of(vd, (v,));
        at += size_of(&self.compressed_mesh, ());
        at += 24;
        at += 4 * [self.mesh_usage_flags, self.cooking_options]
            .iter()
            .filter(|x| x.is_some())
            .count() as u64;
        if self.pre_bake_convex_collision_mesh.is_some() {
            at += 2 + self.pad_pre_bake.as_ref().map_or(0, |p| p.len() as u64);
        }
        at += size_of(&self.baked_convex_collision_mesh, ());
        at += size_of(&self.baked_triangle_collision_mesh, ());
        at += 4 * [self.mesh_metrics_0, self.mesh_metrics_1]
            .iter()
            .filter(|x| x.is_some())
            .count() as u64;
        o.stream_data = at;
        o
    }

    /// The byte size the channel table lays out for the vertex data: each stream's stride is
    /// the sum of its channels' sizes, the streams follow each other, each starting on a 16-byte
    /// boundary. `Err` names the first channel whose format is not one of the 12.
    pub fn vertex_layout_size(&self) -> std::result::Result<u64, usize> {
        let mut strides = [0u64; 256];
        let mut last: Option<usize> = None;
        for (i, c) in self.vertex_data.channels.iter().enumerate() {
            let dim = u64::from(c.dimension & 0xF);
            if dim == 0 {
                continue;
            }
            let size = format_size(c.format.0).ok_or(i)? as u64;
            strides[usize::from(c.stream)] += size * dim;
            last = Some(last.map_or(usize::from(c.stream), |l| l.max(usize::from(c.stream))));
        }
        let n = u64::from(self.vertex_data.vertex_count);
        let mut end = 0u64;
        if let Some(last) = last {
            for stride in &strides[..=last] {
                end = end.div_ceil(16) * 16 + stride * n;
            }
        }
        Ok(end)
    }
}

fn rel(
    id: &'static crate::rt::Rule,
    offset: u64,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    Error::relation(id, offset, expected, found)
}

impl OwnedSemantics for UnityMesh {
    fn relations(&self, ctx: &Context) -> Vec<Error> {
        let v = version(ctx);
        let o = self.offsets(v);
        let mut out = vec![];
        let streamed = stream::range(self);

        // The vertex layout: computed from the channel table, compared with the bytes that hold
        // the vertices (inline, or the streamed range's size).
        if !self.is_compressed() {
            match self.vertex_layout_size() {
                Err(i) => out.push(
                    rel(
                        UnityMesh::REL_VERTEX_LAYOUT_FILLS_DATA,
                        o.channels + 4 * i as u64 + 2,
                        "one of the 12 vertex formats (0 to 11)",
                        self.vertex_data.channels[i].format.0.to_string(),
                    )
                    .in_field("format")
                    .at_index(i)
                    .in_field("channels")
                    .in_field("vertex_data")
                    .rooted(ROOT),
                ),
                Ok(need) => {
                    let (have, what, at, field) = match &streamed {
                        Some(r) => (r.size, "the streamed range", o.stream_data, "stream_data"),
                        None => (
                            self.vertex_data.data.data.len() as u64,
                            "the vertex data",
                            o.vertex_bytes,
                            "vertex_data",
                        ),
                    };
                    if need != have {
                        out.push(
                            rel(
                                UnityMesh::REL_VERTEX_LAYOUT_FILLS_DATA,
                                at,
                                format!(
                                    "{what} to end where the last stream ends: {need} bytes for {} vertices",
                                    self.vertex_data.vertex_count
                                ),
                                format!("{have} bytes"),
                            )
                            .in_field(field)
                            .rooted(ROOT),
                        );
                    }
                }
            }
        }

        if let Some(r) = &streamed {
            if !self.vertex_data.data.data.is_empty() {
                out.push(
                    rel(
                        UnityMesh::REL_STREAM_DATA_REPLACES_INLINE_DATA,
                        o.vertex_bytes - 4,
                        format!(
                            "no inline vertex bytes, since {} bytes are streamed",
                            r.size
                        ),
                        format!("{} bytes", self.vertex_data.data.data.len()),
                    )
                    .in_field("data")
                    .in_field("vertex_data")
                    .rooted(ROOT),
                );
            }
            if r.file_name().is_empty() {
                out.push(
                    rel(
                        UnityMesh::REL_STREAM_DATA_REPLACES_INLINE_DATA,
                        o.stream_data,
                        "a resource path ending in a file name",
                        format!("`{}`", r.path),
                    )
                    .in_field("path")
                    .in_field("stream_data")
                    .rooted(ROOT),
                );
            }
        }

        let Some(isz) = self.index_size() else {
            out.push(
                rel(
                    UnityMesh::REL_INDEX_BUFFER_WHOLE_INDICES,
                    o.index_buffer_data.saturating_sub(8),
                    "an index format of 0 (16-bit) or 1 (32-bit)",
                    self.index_format.map_or(0, |f| f.0).to_string(),
                )
                .in_field("index_format")
                .rooted(ROOT),
            );
            return out;
        };
        let ib = &self.index_buffer.data;
        if ib.len() % isz != 0 {
            out.push(
                rel(
                    UnityMesh::REL_INDEX_BUFFER_WHOLE_INDICES,
                    o.index_buffer_data - 4,
                    format!("a multiple of {isz} bytes"),
                    format!("{} bytes", ib.len()),
                )
                .in_field("index_buffer")
                .rooted(ROOT),
            );
        }
        let indices = self.index_values().unwrap_or_default();
        let compressed = self.is_compressed();
        let vertex_count = if compressed {
            u64::from(self.compressed_mesh.vertices.num_items / 3)
        } else {
            u64::from(self.vertex_data.vertex_count)
        };
        // In a compressed mesh the indices are m_Triangles (packed); only the ranges are
        // stated here, against its item count.
        let index_total = if compressed {
            u64::from(self.compressed_mesh.triangles.num_items)
        } else {
            indices.len() as u64
        };
        for (si, s) in self.sub_meshes.iter().enumerate() {
            let stride = if s.base_vertex.is_some() { 48 } else { 44 };
            let sub_at = o.sub_meshes + stride * si as u64;
            let here = |e: Error, field: &'static str| {
                e.in_field(field)
                    .at_index(si)
                    .in_field("sub_meshes")
                    .rooted(ROOT)
            };
            let first = u64::from(s.first_byte);
            let count = u64::from(s.index_count);
            let in_range = if compressed {
                first % isz as u64 == 0 && first / isz as u64 + count <= index_total
            } else {
                first % isz as u64 == 0 && first + count * isz as u64 <= ib.len() as u64
            };
            if !in_range {
                out.push(here(
                    rel(
                        UnityMesh::REL_SUBMESH_WITHIN_INDEX_BUFFER,
                        sub_at,
                        format!(
                            "{count} indices of {isz} bytes from byte {first} inside the {} index bytes",
                            index_total * isz as u64
                        ),
                        format!("a range ending at byte {}", first + count * isz as u64),
                    ),
                    "first_byte",
                ));
            } else if !compressed {
                let base = u64::from(s.base_vertex.unwrap_or(0));
                let from = (first / isz as u64) as usize;
                let run = &indices[from..from + count as usize];
                let bad: Vec<(usize, u32)> = run
                    .iter()
                    .enumerate()
                    .filter(|(_, &ix)| u64::from(ix) + base >= vertex_count)
                    .map(|(k, &ix)| (k, ix))
                    .collect();
                if let Some(&(k, ix)) = bad.first() {
                    out.push(here(
                        rel(
                            UnityMesh::REL_INDICES_NAME_VERTICES,
                            o.index_buffer_data + first + (k * isz) as u64,
                            format!(
                                "index + baseVertex ({base}) below the vertex count {vertex_count}"
                            ),
                            format!(
                                "index {ix} at position {k} of the submesh ({} such indices)",
                                bad.len()
                            ),
                        ),
                        "index_count",
                    ));
                }
            }
            if u64::from(s.first_vertex) + u64::from(s.vertex_count) > vertex_count {
                out.push(here(
                    rel(
                        UnityMesh::REL_SUBMESH_VERTEX_RANGE,
                        sub_at + if s.base_vertex.is_some() { 16 } else { 12 },
                        format!("firstVertex + vertexCount at most {vertex_count}"),
                        format!("{} + {}", s.first_vertex, s.vertex_count),
                    ),
                    "vertex_count",
                ));
            }
        }

        let bones = self.bind_poses.len();
        if !self.bone_name_hashes.is_empty() && self.bone_name_hashes.len() != bones {
            out.push(
                rel(
                    UnityMesh::REL_BONE_DATA_PER_BIND_POSE,
                    o.bone_name_hashes,
                    format!("none or one bone name hash per bind pose ({bones})"),
                    self.bone_name_hashes.len().to_string(),
                )
                .in_field("bone_name_hashes")
                .rooted(ROOT),
            );
        }
        if let Some(b) = &self.bones_aabb {
            if !b.items.is_empty() && b.items.len() != bones {
                out.push(
                    rel(
                        UnityMesh::REL_BONE_DATA_PER_BIND_POSE,
                        o.bones_aabb,
                        format!("none or one bone box per bind pose ({bones})"),
                        b.items.len().to_string(),
                    )
                    .in_field("bones_aabb")
                    .rooted(ROOT),
                );
            }
        }
        out
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        if version(ctx) < FORMATS_FROM {
            // Before 2019.1 the channel formats are numbered differently (and before 2018.2
            // the skin is in m_Skin): the decoder knows only the 2019.1 numbering.
            return Err(Error::unplaced(
                crate::rt::ErrorKind::Unsupported,
                "a mesh of Unity 2019.1 or later (the vertex format numbering the decoder knows)",
                format!("unity_version {}", version(ctx)),
            )
            .rooted(ROOT));
        }
        let streamed = stream::streamed_data(self, ctx)?;
        let parts = RawParts::new(self, version(ctx), streamed);
        let data = decode::decode(&parts.raw())?;
        let mut done = decode::to_scene(&data, &SceneOptions::default())?;
        origin::fill(self, version(ctx), &mut done.mesh);
        Ok(Scene {
            meshes: vec![done.mesh],
            notes: done.notes,
        })
    }

    fn notes(&self, ctx: &Context) -> Vec<String> {
        let mut out = vec![];
        let v = version(ctx);
        if v < OLDEST_VERSION {
            out.push(format!(
                "unity_version {v} is older than 5.3.5, whose Mesh layout the spec does not describe: the fields are read with the 5.3.5 layout"
            ));
        }
        if v < FORMATS_FROM {
            out.push(
                "Before Unity 2019.1 the channel formats are numbered differently: the fields are read, but no geometry is decoded.".into(),
            );
        }
        if let Some(r) = stream::range(self) {
            out.push(format!(
                "The vertex data is streamed: {} bytes at offset {} of `{}` (found beside the input by its file name, or given with --ress).",
                r.size,
                r.offset,
                r.file_name()
            ));
        }
        if self.is_compressed() {
            out.push("The vertices are in m_CompressedMesh (bit-packed, quantised).".into());
        }
        out
    }
}

fn vec3(v: &crate::generated::unity_mesh::Vector3f) -> [f32; 3] {
    [v.x, v.y, v.z]
}

/// The owned pieces a [`RawMesh`] borrows, converted from the generated type: the decoder's
/// input is plain slices and small structs, so that any reader can feed it.
#[derive(Debug, Clone, Default)]
pub struct RawParts<'a> {
    mesh: Option<&'a UnityMesh>,
    channels: Vec<RawChannel>,
    submeshes: Vec<RawSubMesh>,
    bind_poses: Vec<[f32; 16]>,
    shape_vertices: Vec<RawShapeVertex>,
    shape_frames: Vec<RawShapeFrame>,
    shape_channels: Vec<RawShapeChannel<'a>>,
    streamed: Option<Vec<u8>>,
    offsets: Offsets,
    packed_offsets: [u64; 10],
    streamed_offset: u64,
}

impl<'a> RawParts<'a> {
    /// The decoder's input pieces of `mesh` (read with `unity_version`), with `streamed` the
    /// bytes of its streamed range when it has one ([`stream::streamed_data`]).
    pub fn new(mesh: &'a UnityMesh, unity_version: u32, streamed: Option<Vec<u8>>) -> Self {
        let offsets = mesh.offsets(unity_version);
        let vd_size = size_of(&mesh.vertex_data, (unity_version,));
        // Where each packed vector's bytes start: after the vector's fixed fields and count.
        let cm = &mesh.compressed_mesh;
        let mut at = offsets.vertex_data + vd_size;
        let mut packed_offsets = [0u64; 10];
        let floats = |v: &PackedFloatVector, at: &mut u64| {
            let data = *at + 12 + 4;
            *at += size_of(v, ());
            data
        };
        let ints = |v: &PackedIntVector, at: &mut u64| {
            let data = *at + 4 + 4;
            *at += size_of(v, ());
            data
        };
        packed_offsets[0] = floats(&cm.vertices, &mut at);
        packed_offsets[1] = floats(&cm.uv, &mut at);
        packed_offsets[2] = floats(&cm.normals, &mut at);
        packed_offsets[3] = floats(&cm.tangents, &mut at);
        packed_offsets[4] = ints(&cm.weights, &mut at);
        packed_offsets[5] = ints(&cm.normal_signs, &mut at);
        packed_offsets[6] = ints(&cm.tangent_signs, &mut at);
        packed_offsets[7] = floats(&cm.float_colors, &mut at);
        packed_offsets[8] = ints(&cm.bone_indices, &mut at);
        packed_offsets[9] = ints(&cm.triangles, &mut at);
        RawParts {
            mesh: Some(mesh),
            channels: mesh
                .vertex_data
                .channels
                .iter()
                .map(|c| RawChannel {
                    stream: c.stream,
                    offset: c.offset,
                    format: c.format.0,
                    dimension: c.dimension,
                })
                .collect(),
            submeshes: mesh
                .sub_meshes
                .iter()
                .map(|s| RawSubMesh {
                    first_byte: s.first_byte,
                    index_count: s.index_count,
                    // A negative id becomes one no topology has, which the decoder refuses.
                    topology: s.topology.0 as u32,
                    base_vertex: s.base_vertex.unwrap_or(0),
                    first_vertex: s.first_vertex,
                    vertex_count: s.vertex_count,
                })
                .collect(),
            bind_poses: mesh
                .bind_poses
                .iter()
                .map(|m| {
                    let mut e = [0.0; 16];
                    e.copy_from_slice(&m.e[..16.min(m.e.len())]);
                    e
                })
                .collect(),
            shape_vertices: mesh
                .shapes
                .vertices
                .iter()
                .map(|v| RawShapeVertex {
                    vertex: vec3(&v.vertex),
                    normal: vec3(&v.normal),
                    tangent: vec3(&v.tangent),
                    index: v.index,
                })
                .collect(),
            shape_frames: mesh
                .shapes
                .shapes
                .iter()
                .map(|f| RawShapeFrame {
                    first_vertex: f.first_vertex,
                    vertex_count: f.vertex_count,
                    has_normals: f.has_normals != 0,
                    has_tangents: f.has_tangents != 0,
                })
                .collect(),
            shape_channels: mesh
                .shapes
                .channels
                .iter()
                .map(|c| RawShapeChannel {
                    name: &c.name.value,
                    name_hash: c.name_hash,
                    frame_index: c.frame_index,
                    frame_count: c.frame_count,
                })
                .collect(),
            streamed_offset: stream::range(mesh).map_or(0, |r| r.offset),
            streamed,
            offsets,
            packed_offsets,
        }
    }

    /// The decoder's input. Offsets in its errors are byte offsets in the serialized object,
    /// except for streamed vertex data, whose offsets are in the resource file.
    pub fn raw(&self) -> RawMesh<'_> {
        let Some(m) = self.mesh else {
            return RawMesh::default();
        };
        let cm = &m.compressed_mesh;
        let po = &self.packed_offsets;
        let floats = |v: &'a PackedFloatVector, at: u64| RawPackedFloats {
            num_items: v.num_items,
            range: v.range,
            start: v.start,
            data: &v.data.data,
            bit_size: v.bit_size,
            data_offset: at,
        };
        let ints = |v: &'a PackedIntVector, at: u64| RawPackedInts {
            num_items: v.num_items,
            data: &v.data.data,
            bit_size: v.bit_size,
            data_offset: at,
        };
        let (vertex_data, vertex_data_offset) = match &self.streamed {
            Some(d) => (d.as_slice(), self.streamed_offset),
            None => (
                m.vertex_data.data.data.as_slice(),
                self.offsets.vertex_bytes,
            ),
        };
        RawMesh {
            name: &m.name.value,
            vertex_count: m.vertex_data.vertex_count,
            channels: &self.channels,
            vertex_data,
            vertex_data_offset,
            index_format: m.index_format.map_or(0, |f| f.0 as u32),
            index_buffer: &m.index_buffer.data,
            index_buffer_offset: self.offsets.index_buffer_data,
            submeshes: &self.submeshes,
            compressed: RawCompressedMesh {
                vertices: floats(&cm.vertices, po[0]),
                uv: floats(&cm.uv, po[1]),
                normals: floats(&cm.normals, po[2]),
                tangents: floats(&cm.tangents, po[3]),
                weights: ints(&cm.weights, po[4]),
                normal_signs: ints(&cm.normal_signs, po[5]),
                tangent_signs: ints(&cm.tangent_signs, po[6]),
                float_colors: floats(&cm.float_colors, po[7]),
                bone_indices: ints(&cm.bone_indices, po[8]),
                triangles: ints(&cm.triangles, po[9]),
                uv_info: cm.uv_info,
            },
            bind_poses: &self.bind_poses,
            variable_bone_count_weights: m
                .variable_bone_count_weights
                .as_ref()
                .map_or(&[][..], |w| w.data.as_slice()),
            shapes: RawShapes {
                vertices: &self.shape_vertices,
                shapes: &self.shape_frames,
                channels: &self.shape_channels,
                full_weights: &m.shapes.full_weights,
            },
        }
    }
}

crate::legacy::owned_semantics!(UnityMesh);

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::layouts::Ops)] = &[(
    <UnityMesh as crate::rt::Root>::ID,
    crate::layouts::Ops::of::<UnityMesh>(),
)];
