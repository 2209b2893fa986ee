//! Mesh objects (class 43) of game files.
//!
//! A Mesh whose file carries type trees is read through its type tree, so any editor version
//! reads, and its fields feed the decoder directly ([`TreeParts`]). The fixed `unity-mesh`
//! layout of the file's editor version is then checked against it ([`check_fixed_layout`]):
//! both must read the object to its end, and every top-level field must end where the type
//! tree says. A Mesh of a file without type trees is read by the fixed layout alone.

use super::typetree::{Trees, Value};
use crate::context::Context;
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPos};
use crate::rt::{Codec, Error, ErrorKind, Result, Root, Span, Spanned};
use crate::unity::decode::{
    RawChannel, RawCompressedMesh, RawMesh, RawPackedFloats, RawPackedInts, RawShapeChannel,
    RawShapeFrame, RawShapeVertex, RawShapes, RawSubMesh,
};
use crate::unity::stream::StreamRange;

/// The class id of Mesh.
pub const MESH: i32 = 43;

/// The top-level fields of a Mesh as the fixed layout read them (`pos`, the positions its
/// reader recorded): each field's name in Unity's type trees (the spec's `-orig-id`) and where
/// it ends in the object. Padding the spec keeps as a field of its own belongs to the field
/// before it, as in a type tree; a count belongs to its list.
pub fn layout_fields(pos: &UnityMeshPos) -> Vec<(&'static str, u64)> {
    let list = |count: Span, items: Span| count.end.max(items.end);
    let mut out = vec![
        ("m_Name", pos.name._span.end),
        ("m_SubMeshes", list(pos.num_sub_meshes, pos.sub_meshes.span())),
        ("m_Shapes", pos.shapes._span.end),
        ("m_BindPose", list(pos.num_bind_poses, pos.bind_poses.span())),
        (
            "m_BoneNameHashes",
            list(pos.num_bone_name_hashes, pos.bone_name_hashes.span()),
        ),
        ("m_RootBoneNameHash", pos.root_bone_name_hash.end),
    ];
    let mut opt = |name: &'static str, end: Option<u64>| {
        if let Some(e) = end {
            out.push((name, e));
        }
    };
    opt("m_BonesAABB", pos.bones_aabb.as_ref().map(|p| p._span.end));
    opt(
        "m_VariableBoneCountWeights",
        pos.variable_bone_count_weights
            .as_ref()
            .map(|p| p._span.end),
    );
    opt("m_MeshCompression", Some(pos.mesh_compression.end));
    opt("m_IsReadable", Some(pos.is_readable.end));
    opt("m_KeepVertices", Some(pos.keep_vertices.end));
    opt("m_KeepIndices", Some(pos.keep_indices.end));
    opt("m_IndexFormat", pos.index_format.map(|s| s.end));
    opt("m_IndexBuffer", Some(pos.index_buffer._span.end));
    opt("m_Skin", pos.skin.as_ref().map(|p| p._span.end));
    opt("m_VertexData", Some(pos.vertex_data._span.end));
    opt("m_CompressedMesh", Some(pos.compressed_mesh._span.end));
    opt("m_LocalAABB", Some(pos.local_aabb._span.end));
    opt("m_MeshUsageFlags", pos.mesh_usage_flags.map(|s| s.end));
    opt("m_CookingOptions", pos.cooking_options.map(|s| s.end));
    opt(
        "m_PreBakeConvexCollisionMesh",
        pos.pre_bake_convex_collision_mesh.map(|s| s.end),
    );
    opt(
        "m_PreBakeTriangleCollisionMesh",
        pos.pre_bake_triangle_collision_mesh
            .map(|s| pos.pad_pre_bake.map_or(s.end, |p| p.end)),
    );
    opt(
        "m_BakedConvexCollisionMesh",
        Some(pos.baked_convex_collision_mesh._span.end),
    );
    opt(
        "m_BakedTriangleCollisionMesh",
        Some(pos.baked_triangle_collision_mesh._span.end),
    );
    opt("m_MeshMetrics[0]", pos.mesh_metrics_0.map(|s| s.end));
    opt("m_MeshMetrics[1]", pos.mesh_metrics_1.map(|s| s.end));
    opt("m_StreamData", pos.stream_data.as_ref().map(|p| p._span.end));
    opt("m_MeshLodInfo", pos.mesh_lod_info.as_ref().map(|p| p._span.end));
    out
}

/// The context the fixed `unity-mesh` layout of `version` (major x 10,000 + minor x 100 +
/// patch) is read with.
pub fn context(version: u32) -> Context {
    Context::new().with_param("unity_version", i128::from(version))
}

/// A Mesh object read by the fixed layout of `version`, with where each field lies.
pub fn read_fixed(bytes: &[u8], version: u32) -> Result<(UnityMesh, UnityMeshPos)> {
    let p = UnityMesh::read::<true>(bytes, &context(version))?;
    Ok((UnityMesh::own(&p.value), p.pos.unwrap_or_default()))
}

/// Reads a Mesh's bytes by the fixed layout of `version` and checks it against the object's
/// type tree reading (`value`): the layout must read the object to its end and end every
/// top-level field where the type tree does. `offset` is the object's offset in its file.
pub fn check_fixed_layout(
    bytes: &[u8],
    version: u32,
    value: &Value,
    trees: &Trees,
    offset: u64,
) -> Result<UnityMesh> {
    let (mesh, pos) = read_fixed(bytes, version).map_err(|e| e.shifted(offset))?;
    let ours = layout_fields(&pos);
    let theirs: Vec<(&str, u64)> = value
        .fields(trees)
        .into_iter()
        .map(|(n, v)| (n, u64::from(v.end)))
        .collect();
    let shown = |v: u32| crate::unity::files::game::version_text(v);
    for k in 0..ours.len().max(theirs.len()) {
        let (o, t) = (ours.get(k), theirs.get(k));
        if o.map(|x| x.0) != t.map(|x| x.0) || o.map(|x| x.1) != t.map(|x| x.1) {
            let at = if k == 0 {
                0
            } else {
                theirs.get(k - 1).map_or(0, |x| x.1)
            };
            let name = t.or(o).map_or("(end)", |x| x.0);
            return Err(Error::new(
                ErrorKind::Inconsistent,
                offset + at,
                match t {
                    Some((n, end)) => {
                        format!("`{n}` ending at 0x{end:X}, as the object's type tree reads it")
                    }
                    None => "the end of the object, as its type tree reads it".into(),
                },
                match o {
                    Some((n, end)) => format!(
                        "`{n}` ending at 0x{end:X} in the fixed layout of {}",
                        shown(version)
                    ),
                    None => format!("the end of the fixed layout of {}", shown(version)),
                },
            )
            .in_field(name.to_string())
            .rooted("unity_mesh"));
        }
    }
    Ok(mesh)
}

/// The decoder's input pieces of a Mesh read through its type tree.
#[derive(Debug, Clone, Default)]
pub struct TreeParts<'a> {
    /// `m_Name`.
    pub name: String,
    vertex_count: u32,
    channels: Vec<RawChannel>,
    vertex_data: &'a [u8],
    vertex_data_offset: u64,
    index_format: u32,
    index_buffer: &'a [u8],
    index_buffer_offset: u64,
    submeshes: Vec<RawSubMesh>,
    packed_floats: [RawPackedFloats<'a>; 5],
    packed_ints: [RawPackedInts<'a>; 5],
    uv_info: u32,
    bind_poses: Vec<[f32; 16]>,
    /// `m_BoneNameHashes`.
    pub bone_name_hashes: Vec<u32>,
    variable_bone_count_weights: Vec<u32>,
    shape_vertices: Vec<RawShapeVertex>,
    shape_frames: Vec<RawShapeFrame>,
    shape_channels: Vec<(String, u32, i32, i32)>,
    full_weights: Vec<f32>,
    /// `m_StreamData`, when it names a range.
    pub stream: Option<StreamRange>,
}

/// Errors about a Mesh read through its type tree: at `offset`, on the path of Unity's names.
fn missing(offset: u64, path: &str, what: &str) -> Error {
    let mut e = Error::new(
        ErrorKind::Invalid,
        offset,
        format!("{what} (the decoder needs it)"),
        "none, or a value of another kind",
    );
    for step in path.rsplit('.') {
        e = e.in_field(step.to_string());
    }
    e.rooted("Mesh")
}

struct Walk<'v, 'a, 't> {
    trees: &'v Trees<'t>,
    offset: u64,
    _v: std::marker::PhantomData<&'a ()>,
}

impl<'v, 'a, 't> Walk<'v, 'a, 't> {
    fn get(&self, v: &'v Value<'a>, path: &str) -> Result<&'v Value<'a>> {
        let mut cur = v;
        for step in path.split('.') {
            cur = cur
                .field(self.trees, step)
                .ok_or_else(|| missing(self.offset + u64::from(cur.start), path, "the field"))?;
        }
        Ok(cur)
    }
    fn int(&self, v: &'v Value<'a>, path: &str) -> Result<i128> {
        let f = self.get(v, path)?;
        f.int()
            .ok_or_else(|| missing(self.offset + u64::from(f.start), path, "an integer"))
    }
    fn u32(&self, v: &'v Value<'a>, path: &str) -> Result<u32> {
        let f = self.get(v, path)?;
        self.int(v, path).and_then(|x| {
            u32::try_from(x).map_err(|_| {
                missing(
                    self.offset + u64::from(f.start),
                    path,
                    "a 32-bit unsigned integer",
                )
            })
        })
    }
    fn i32(&self, v: &'v Value<'a>, path: &str) -> Result<i32> {
        let f = self.get(v, path)?;
        self.int(v, path).and_then(|x| {
            i32::try_from(x)
                .map_err(|_| missing(self.offset + u64::from(f.start), path, "a 32-bit integer"))
        })
    }
    fn f32(&self, v: &'v Value<'a>, path: &str) -> Result<f32> {
        let f = self.get(v, path)?;
        f.float()
            .map(|x| x as f32)
            .ok_or_else(|| missing(self.offset + u64::from(f.start), path, "a float"))
    }
    /// Bytes and the offset (in the file) of their first byte (after the count).
    fn bytes(&self, v: &'v Value<'a>, path: &str) -> Result<(&'a [u8], u64)> {
        let f = self.get(v, path)?;
        let b = f
            .bytes()
            .ok_or_else(|| missing(self.offset + u64::from(f.start), path, "bytes"))?;
        Ok((b, self.offset + u64::from(f.start) + 4))
    }
    fn items(&self, v: &'v Value<'a>, path: &str) -> Result<&'v [Value<'a>]> {
        let f = self.get(v, path)?;
        f.items()
            .ok_or_else(|| missing(self.offset + u64::from(f.start), path, "a vector"))
    }
    fn vec3(&self, v: &'v Value<'a>, path: &str) -> Result<[f32; 3]> {
        let f = self.get(v, path)?;
        Ok([self.f32(f, "x")?, self.f32(f, "y")?, self.f32(f, "z")?])
    }
}

impl<'a> TreeParts<'a> {
    /// The pieces of the Mesh `v` read through its type tree (`big` for a big-endian file),
    /// whose object starts at `offset` in its file.
    pub fn new(v: &Value<'a>, trees: &Trees, big: bool, offset: u64) -> Result<TreeParts<'a>> {
        let w = Walk {
            trees,
            offset,
            _v: std::marker::PhantomData,
        };
        let text = |b: &[u8], path: &str, at: u64| {
            std::str::from_utf8(b)
                .map(str::to_string)
                .map_err(|_| missing(at, path, "UTF-8 text"))
        };
        let (name, name_at) = w.bytes(v, "m_Name")?;
        let mut p = TreeParts {
            name: text(name, "m_Name", name_at)?,
            vertex_count: w.u32(v, "m_VertexData.m_VertexCount")?,
            ..TreeParts::default()
        };
        for c in w.items(v, "m_VertexData.m_Channels")? {
            let b = |n: &str| -> Result<u8> {
                let x = w.int(c, n)?;
                u8::try_from(x).map_err(|_| missing(offset + u64::from(c.start), n, "a byte"))
            };
            p.channels.push(RawChannel {
                stream: b("stream")?,
                offset: b("offset")?,
                format: b("format")?,
                dimension: b("dimension")?,
            });
        }
        (p.vertex_data, p.vertex_data_offset) = w.bytes(v, "m_VertexData.m_DataSize")?;
        p.index_format = match v.field(trees, "m_IndexFormat") {
            Some(_) => w.u32(v, "m_IndexFormat")?,
            None => 0,
        };
        (p.index_buffer, p.index_buffer_offset) = w.bytes(v, "m_IndexBuffer")?;
        for s in w.items(v, "m_SubMeshes")? {
            p.submeshes.push(RawSubMesh {
                first_byte: w.u32(s, "firstByte")?,
                index_count: w.u32(s, "indexCount")?,
                // A negative id becomes one no topology has, which the decoder refuses.
                topology: w.i32(s, "topology")? as u32,
                base_vertex: match s.field(trees, "baseVertex") {
                    Some(_) => w.u32(s, "baseVertex")?,
                    None => 0,
                },
                first_vertex: w.u32(s, "firstVertex")?,
                vertex_count: w.u32(s, "vertexCount")?,
            });
        }
        for (k, name) in [
            "m_Vertices",
            "m_UV",
            "m_Normals",
            "m_Tangents",
            "m_FloatColors",
        ]
        .iter()
        .enumerate()
        {
            let pv = w.get(v, &format!("m_CompressedMesh.{name}"))?;
            let (data, at) = w.bytes(pv, "m_Data")?;
            p.packed_floats[k] = RawPackedFloats {
                num_items: w.u32(pv, "m_NumItems")?,
                range: w.f32(pv, "m_Range")?,
                start: w.f32(pv, "m_Start")?,
                data,
                bit_size: u8::try_from(w.int(pv, "m_BitSize")?).unwrap_or(u8::MAX),
                data_offset: at,
            };
        }
        for (k, name) in [
            "m_Weights",
            "m_NormalSigns",
            "m_TangentSigns",
            "m_BoneIndices",
            "m_Triangles",
        ]
        .iter()
        .enumerate()
        {
            let pv = w.get(v, &format!("m_CompressedMesh.{name}"))?;
            let (data, at) = w.bytes(pv, "m_Data")?;
            p.packed_ints[k] = RawPackedInts {
                num_items: w.u32(pv, "m_NumItems")?,
                data,
                bit_size: u8::try_from(w.int(pv, "m_BitSize")?).unwrap_or(u8::MAX),
                data_offset: at,
            };
        }
        p.uv_info = w.u32(v, "m_CompressedMesh.m_UVInfo")?;
        for m in w.items(v, "m_BindPose")? {
            let mut e = [0f32; 16];
            for (k, x) in e.iter_mut().enumerate() {
                *x = w.f32(m, &format!("e{}{}", k / 4, k % 4))?;
            }
            p.bind_poses.push(e);
        }
        let ints = |path: &str| -> Result<Vec<u32>> {
            let f = w.get(v, path)?;
            f.ints(big)
                .map(|v| v.into_iter().map(|x| x as u32).collect())
                .ok_or_else(|| missing(offset + u64::from(f.start), path, "a vector of integers"))
        };
        p.bone_name_hashes = ints("m_BoneNameHashes")?;
        if v.field(trees, "m_VariableBoneCountWeights").is_some() {
            p.variable_bone_count_weights = ints("m_VariableBoneCountWeights.m_Data")?;
        }
        for s in w.items(v, "m_Shapes.vertices")? {
            p.shape_vertices.push(RawShapeVertex {
                vertex: w.vec3(s, "vertex")?,
                normal: w.vec3(s, "normal")?,
                tangent: w.vec3(s, "tangent")?,
                index: w.u32(s, "index")?,
            });
        }
        for s in w.items(v, "m_Shapes.shapes")? {
            p.shape_frames.push(RawShapeFrame {
                first_vertex: w.u32(s, "firstVertex")?,
                vertex_count: w.u32(s, "vertexCount")?,
                has_normals: w.int(s, "hasNormals")? != 0,
                has_tangents: w.int(s, "hasTangents")? != 0,
            });
        }
        for s in w.items(v, "m_Shapes.channels")? {
            let (n, at) = w.bytes(s, "name")?;
            p.shape_channels.push((
                text(n, "m_Shapes.channels.name", at)?,
                w.u32(s, "nameHash")?,
                w.i32(s, "frameIndex")?,
                w.i32(s, "frameCount")?,
            ));
        }
        let fw = w.get(v, "m_Shapes.fullWeights")?;
        p.full_weights = fw.floats(big).ok_or_else(|| {
            missing(
                offset + u64::from(fw.start),
                "m_Shapes.fullWeights",
                "a vector of floats",
            )
        })?;
        if let Some(sd) = v.field(trees, "m_StreamData") {
            let (path, at) = w.bytes(sd, "path")?;
            let range = StreamRange {
                path: text(path, "m_StreamData.path", at)?,
                offset: u64::try_from(w.int(sd, "offset")?).unwrap_or(u64::MAX),
                size: u64::from(w.u32(sd, "size")?),
            };
            if range.size > 0 {
                p.stream = Some(range);
            }
        }
        if big {
            return Err(super::unsupported(
                offset,
                "a little-endian file (the vertex decoder reads little-endian data)",
                "a big-endian one",
            ));
        }
        Ok(p)
    }

    /// The blend shape channels, borrowed by [`TreeParts::raw`].
    pub fn shape_channels(&self) -> Vec<RawShapeChannel<'_>> {
        self.shape_channels
            .iter()
            .map(
                |(name, name_hash, frame_index, frame_count)| RawShapeChannel {
                    name,
                    name_hash: *name_hash,
                    frame_index: *frame_index,
                    frame_count: *frame_count,
                },
            )
            .collect()
    }

    /// The decoder's input, with `streamed` the bytes of the streamed range when the mesh has
    /// one (errors about them are at offsets of the resource file) and `channels` from
    /// [`TreeParts::shape_channels`].
    pub fn raw<'s>(
        &'s self,
        streamed: Option<&'s [u8]>,
        channels: &'s [RawShapeChannel<'s>],
    ) -> RawMesh<'s> {
        let f = |k: usize| self.packed_floats[k];
        let i = |k: usize| self.packed_ints[k];
        let (vertex_data, vertex_data_offset) = match (streamed, &self.stream) {
            (Some(d), Some(r)) => (d, r.offset),
            _ => (self.vertex_data, self.vertex_data_offset),
        };
        RawMesh {
            name: &self.name,
            vertex_count: self.vertex_count,
            channels: &self.channels,
            vertex_data,
            vertex_data_offset,
            index_format: self.index_format,
            index_buffer: self.index_buffer,
            index_buffer_offset: self.index_buffer_offset,
            submeshes: &self.submeshes,
            compressed: RawCompressedMesh {
                vertices: f(0),
                uv: f(1),
                normals: f(2),
                tangents: f(3),
                weights: i(0),
                normal_signs: i(1),
                tangent_signs: i(2),
                float_colors: f(4),
                bone_indices: i(3),
                triangles: i(4),
                uv_info: self.uv_info,
            },
            bind_poses: &self.bind_poses,
            variable_bone_count_weights: &self.variable_bone_count_weights,
            shapes: RawShapes {
                vertices: &self.shape_vertices,
                shapes: &self.shape_frames,
                channels,
                full_weights: &self.full_weights,
            },
        }
    }

    /// The number of bind poses.
    pub fn bone_count(&self) -> usize {
        self.bind_poses.len()
    }

    /// The number of submeshes.
    pub fn submesh_count(&self) -> usize {
        self.submeshes.len()
    }
}
