//! Mesh objects made from parts: an empty [`UnityMesh`] with every field an editor version
//! writes, for tests, benchmarks and anyone writing Unity meshes with the generated writer.

use crate::generated::unity_mesh::{
    Aabb, AlignedBytes, AlignedString, BlendShapeData, BoneWeights4, ChannelFormatLegacy,
    ChannelInfo, ChannelInfo2017, ChannelInfoLegacy, ColorRgba32, CompressedMesh, IndexBuffer,
    IndexFormat, IndexRun, Matrix4x4f, MeshCompression, MeshLodInfo, MinMaxAabbVector,
    PackedFloatVector, PackedIntVector, Pptr, StreamInfo, StreamInfoFixed, StreamingInfo, SubMesh,
    Topology, UnityMesh, VariableBoneCountWeights, Vector2f, Vector3f, Vector4f, VertexData,
    VertexFormat, VertexFormat2017,
};

/// Blend shape data that holds no shapes.
pub fn no_shapes() -> BlendShapeData {
    BlendShapeData {
        num_vertices: 0,
        vertices: vec![],
        num_shapes: 0,
        shapes: vec![],
        num_channels: 0,
        channels: vec![],
        num_full_weights: 0,
        full_weights: vec![],
    }
}

/// Unity's byte vector: the bytes and the padding to 4 bytes.
pub fn bytes(data: Vec<u8>) -> AlignedBytes {
    let pad = vec![0; (4 - data.len() % 4) % 4];
    AlignedBytes {
        len_data: data.len() as i32,
        data,
        pad,
    }
}

/// Unity's string: the text and the padding to 4 bytes.
pub fn string(value: &str) -> AlignedString {
    AlignedString {
        len_value: value.len() as i32,
        value: value.into(),
        pad: vec![0; (4 - value.len() % 4) % 4],
    }
}

/// An empty PackedBitVector of floats.
pub fn no_floats() -> PackedFloatVector {
    PackedFloatVector {
        num_items: 0,
        range: 0.0,
        start: 0.0,
        data: bytes(vec![]),
        bit_size: 0,
        pad: vec![0; 3],
    }
}

/// An empty PackedBitVector of integers.
pub fn no_ints() -> PackedIntVector {
    PackedIntVector {
        num_items: 0,
        data: bytes(vec![]),
        bit_size: 0,
        pad: vec![0; 3],
    }
}

/// A PackedBitVector of `n` items of `bits` bits packed in `data`.
pub fn packed_ints(n: u32, bits: u8, data: Vec<u8>) -> PackedIntVector {
    PackedIntVector {
        num_items: n,
        data: bytes(data),
        bit_size: bits,
        pad: vec![0; 3],
    }
}

/// A PackedBitVector of `n` floats of `bits` bits from `start` over `range`, packed in `data`.
pub fn packed_floats(n: u32, bits: u8, start: f32, range: f32, data: Vec<u8>) -> PackedFloatVector {
    PackedFloatVector {
        num_items: n,
        range,
        start,
        data: bytes(data),
        bit_size: bits,
        pad: vec![0; 3],
    }
}

/// One entry of the channel table.
pub fn channel(stream: u8, offset: u8, format: u8, dimension: u8) -> ChannelInfo {
    ChannelInfo {
        stream,
        offset,
        format: VertexFormat(format),
        dimension,
    }
}

/// How many entries the channel table of `unity_version` has, as the editors write it: 14
/// from 2018.2, 12 in 2018.1, 8 from 5.0, 6 in 4.x, none before (3.5's streams imply them).
pub fn channel_count(unity_version: u32) -> usize {
    match unity_version {
        v if v >= 20180200 => 14,
        v if v >= 20180100 => 12,
        v if v >= 50000 => 8,
        v if v >= 40000 => 6,
        _ => 0,
    }
}

/// Sets entry `index` of the channel table of `m`, in whichever list its era has (`format` as
/// that era numbers it); appends absent entries up to it. `false` when the mesh has no table
/// (before 4.0, or before 3.5, which has no vertex data).
pub fn set_channel(
    m: &mut UnityMesh,
    index: usize,
    stream: u8,
    offset: u8,
    format: u8,
    dimension: u8,
) -> bool {
    let Some(vd) = m.vertex_data.as_mut() else {
        return false;
    };
    // The three eras' entries are of different types with the same fields: sets entry `index`
    // of `list`, appending absent entries up to it, and gives the list's length.
    macro_rules! put {
        ($list:expr, $entry:ident, $format:ident) => {{
            let e = |stream, offset, format, dimension| $entry {
                stream,
                offset,
                format: $format(format),
                dimension,
            };
            if $list.len() <= index {
                $list.resize(index + 1, e(0, 0, 0, 0));
            }
            $list[index] = e(stream, offset, format, dimension);
            $list.len()
        }};
    }
    let len = if let Some(l) = vd.channels.as_mut() {
        put!(l, ChannelInfo, VertexFormat)
    } else if let Some(l) = vd.channels_2017.as_mut() {
        put!(l, ChannelInfo2017, VertexFormat2017)
    } else if let Some(l) = vd.channels_legacy.as_mut() {
        put!(l, ChannelInfoLegacy, ChannelFormatLegacy)
    } else {
        return false;
    };
    vd.num_channels = Some(len as i32);
    true
}

fn zero3() -> Vector3f {
    Vector3f {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    }
}

/// A box at the origin of no size.
pub fn no_box() -> Aabb {
    Aabb {
        center: zero3(),
        extent: zero3(),
    }
}

/// A mesh named `name` with nothing in it, holding every field the editor version
/// `unity_version` (major x 10,000 + minor x 100 + patch) writes: no submeshes, no vertices, 16-bit
/// indices, the era's channel table of absent channels ([`channel_count`]), inline vertex data
/// (before 3.5, empty vertex arrays).
pub fn empty(name: &str, unity_version: u32) -> UnityMesh {
    let v = unity_version;
    let from = |cut: u32| v >= cut;
    let between = |a: u32, b: u32| v >= a && v < b;
    let count = channel_count(v);
    let arrays = !from(30500);
    UnityMesh {
        object_hide_flags: None,
        extension_ptr: None,
        prefab_parent_object: None,
        corresponding_source_object: None,
        prefab_internal: None,
        prefab_instance: None,
        prefab_asset: None,
        name: string(name),
        use_16bit_indices: arrays.then_some(1),
        num_sub_meshes: 0,
        sub_meshes: vec![],
        num_legacy_shapes: between(40100, 40300).then_some(0),
        legacy_shapes: between(40100, 40300).then(Vec::new),
        pad_legacy_shapes: between(40100, 40300).then(Vec::new),
        num_shape_vertices: between(40100, 40300).then_some(0),
        shape_vertices: between(40100, 40300).then(Vec::new),
        shapes: from(40300).then(no_shapes),
        num_bind_poses: from(40300).then_some(0),
        bind_poses: from(40300).then(Vec::new),
        num_bone_name_hashes: from(40300).then_some(0),
        bone_name_hashes: from(40300).then(Vec::new),
        root_bone_name_hash: from(40300).then_some(0),
        bones_aabb: from(20190100).then(|| MinMaxAabbVector {
            num_items: 0,
            items: vec![],
        }),
        variable_bone_count_weights: from(20190100).then(|| VariableBoneCountWeights {
            num_data: 0,
            data: vec![],
        }),
        mesh_compression: MeshCompression::OFF,
        stream_compression: between(40000, 50000).then_some(0),
        is_readable: from(40000).then_some(1),
        keep_vertices: from(40000).then_some(0),
        keep_indices: from(40000).then_some(0),
        pad_flags: (!from(50000)).then(|| vec![0; 3]),
        index_format: from(20170300).then_some(IndexFormat::UINT16),
        index_buffer: indices16(&[]),
        skin: (!from(20180200)).then(|| crate::generated::unity_mesh::BoneWeights4Vector {
            num_items: 0,
            items: vec![],
        }),
        num_vertices: arrays.then_some(0),
        vertices: arrays.then(Vec::new),
        num_bind_poses_after_skin: (!from(40300)).then_some(0),
        bind_poses_after_skin: (!from(40300)).then(Vec::new),
        num_uv: arrays.then_some(0),
        uv: arrays.then(Vec::new),
        num_uv1: arrays.then_some(0),
        uv1: arrays.then(Vec::new),
        num_tangents: arrays.then_some(0),
        tangents: arrays.then(Vec::new),
        num_normals: arrays.then_some(0),
        normals: arrays.then(Vec::new),
        vertex_data: from(30500).then(|| VertexData {
            current_channels: (!from(20180100)).then_some(0),
            vertex_count: 0,
            streams_fixed: (!from(40000)).then(|| {
                vec![
                    StreamInfoFixed {
                        channel_mask: 0,
                        offset: 0,
                        stride: 0,
                        align: 0,
                    };
                    4
                ]
            }),
            num_channels: from(40000).then_some(count as i32),
            channels: from(20190100).then(|| vec![channel(0, 0, 0, 0); count]),
            channels_2017: between(20170100, 20190100).then(|| {
                vec![
                    ChannelInfo2017 {
                        stream: 0,
                        offset: 0,
                        format: VertexFormat2017(0),
                        dimension: 0,
                    };
                    count
                ]
            }),
            channels_legacy: between(40000, 20170100).then(|| {
                vec![
                    ChannelInfoLegacy {
                        stream: 0,
                        offset: 0,
                        format: ChannelFormatLegacy(0),
                        dimension: 0,
                    };
                    count
                ]
            }),
            num_streams: between(40000, 50000).then_some(0),
            streams: between(40000, 50000).then(Vec::new),
            data: bytes(vec![]),
        }),
        compressed_mesh: CompressedMesh {
            vertices: no_floats(),
            uv: no_floats(),
            bind_poses: (!from(50000)).then(no_floats),
            normals: no_floats(),
            tangents: no_floats(),
            weights: no_ints(),
            normal_signs: no_ints(),
            tangent_signs: no_ints(),
            float_colors: from(50000).then(no_floats),
            bone_indices: no_ints(),
            triangles: no_ints(),
            colors: between(30500, 50000).then(no_ints),
            uv_info: from(50000).then_some(0),
        },
        local_aabb: no_box(),
        num_colors: arrays.then_some(0),
        colors: arrays.then(Vec::new),
        num_collision_triangles: arrays.then_some(0),
        collision_triangles: arrays.then(Vec::new),
        collision_vertex_count: arrays.then_some(0),
        mesh_usage_flags: (!from(60000600)).then_some(0),
        cooking_options: from(20220100).then_some(30),
        pre_bake_convex_collision_mesh: from(60000600).then_some(0),
        pre_bake_triangle_collision_mesh: from(60000600).then_some(0),
        pad_pre_bake: from(60000600).then(|| vec![0, 0]),
        baked_convex_collision_mesh: from(50000).then(|| bytes(vec![])),
        baked_triangle_collision_mesh: from(50000).then(|| bytes(vec![])),
        mesh_metrics_0: from(20180200).then_some(1.0),
        mesh_metrics_1: from(20180200).then_some(1.0),
        mesh_optimized: None,
        pad_mesh_optimized: None,
        mesh_optimization_flags: None,
        stream_data: from(20180300).then(|| StreamingInfo {
            ofs_data_u4: (!from(20200100)).then_some(0),
            ofs_data_u8: from(20200100).then_some(0),
            len_data: 0,
            path: string(""),
        }),
        mesh_lod_info: from(60000200).then(|| MeshLodInfo {
            lod_slope: 0.0,
            lod_bias: 0.0,
            num_levels: 1,
            num_sub_meshes: 0,
            sub_meshes: vec![],
        }),
    }
}

/// `m`, a mesh of the editor version `unity_version`, as the editor saves it for itself (the
/// spec's `unity_editor`): with the editor-only fields of that version, holding what an
/// imported model's mesh holds in the real import caches (hide flags 8, NotEditable; no prefab
/// links; optimized on import: 1, or
/// from 2019.1 every optimization flag, -1).
pub fn in_editor(mut m: UnityMesh, unity_version: u32) -> UnityMesh {
    let v = unity_version;
    let none = || Pptr {
        file_id: 0,
        path_id_32: (v < 50000).then_some(0),
        path_id: (v >= 50000).then_some(0),
    };
    m.object_hide_flags = Some(8);
    m.extension_ptr = (v < 30500).then(none);
    m.prefab_parent_object = (30500..20180200).contains(&v).then(none);
    m.corresponding_source_object = (v >= 20180200).then(none);
    m.prefab_internal = (30500..20180300).contains(&v).then(none);
    m.prefab_instance = (v >= 20180300).then(none);
    m.prefab_asset = (v >= 20180300).then(none);
    m.mesh_optimized = (30500..20190100).contains(&v).then_some(1);
    m.pad_mesh_optimized = (20180300..20190100).contains(&v).then(|| vec![0; 3]);
    m.mesh_optimization_flags = (v >= 20190100).then_some(-1);
    m
}

/// One submesh of `index_count` indices from `first_byte`, drawing vertices
/// `0..vertex_count`, with the fields of `unity_version`: `topology` (triangles) from 4.0, a
/// triangle list (`isTriStrip` 0 and its triangle count) before; `baseVertex` 0 from 2017.3.
pub fn submesh(
    unity_version: u32,
    first_byte: u32,
    index_count: u32,
    vertex_count: u32,
) -> SubMesh {
    let v = unity_version;
    SubMesh {
        first_byte,
        index_count,
        topology: (v >= 40000).then_some(Topology::TRIANGLES),
        is_tri_strip: (v < 40000).then_some(0),
        triangle_count: (v < 40000).then_some(index_count / 3),
        base_vertex: (v >= 20170300).then_some(0),
        first_vertex: 0,
        vertex_count,
        local_aabb: no_box(),
    }
}

/// Sets `m`'s vertex data to one interleaved stream of `vertex_count` vertices holding the
/// channels `entries` (table index, format id as the mesh's era numbers it, dimension, bytes
/// per vertex), one after another, and the vertex bytes `data`: the channel table entries, and
/// before 5.0 the stored stream (in 3.5 to 3.x the table index is the shader channel's bit in
/// the mask, and the formats are the implied ones). Nothing before 3.5, which has no vertex
/// data ([`arrays`]).
pub fn one_stream(
    m: &mut UnityMesh,
    vertex_count: u32,
    entries: &[(usize, u8, u8, u8)],
    data: Vec<u8>,
) {
    let mut offset = 0u8;
    let mut mask = 0u32;
    for &(index, format, dimension, width) in entries {
        set_channel(m, index, 0, offset, format, dimension);
        mask |= 1 << index;
        offset += width;
    }
    let Some(vd) = m.vertex_data.as_mut() else {
        return;
    };
    vd.vertex_count = vertex_count;
    if let Some(s) = vd.streams.as_mut() {
        *s = vec![StreamInfo {
            channel_mask: mask,
            offset: 0,
            stride: offset,
            divider_op: 0,
            frequency: 0,
        }];
        vd.num_streams = Some(1);
    }
    if let Some(s) = vd.streams_fixed.as_mut().and_then(|s| s.first_mut()) {
        s.channel_mask = mask;
        s.stride = u32::from(offset);
    }
    if let Some(c) = vd.current_channels.as_mut() {
        *c = mask as i32;
    }
    vd.data = bytes(data);
}

/// The vertex arrays of a mesh before 3.5 (`m_Vertices`, `m_Normals`, `m_UV`, `m_Colors`, as
/// many entries each as positions, or none): what [`one_stream`] is to later meshes. The
/// colours are RGBA bytes.
pub fn arrays(
    m: &mut UnityMesh,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    uvs: &[[f32; 2]],
    colors: &[[u8; 4]],
) {
    let v3 = |p: &[f32; 3]| Vector3f {
        x: p[0],
        y: p[1],
        z: p[2],
    };
    m.num_vertices = Some(positions.len() as i32);
    m.vertices = Some(positions.iter().map(v3).collect());
    m.num_normals = Some(normals.len() as i32);
    m.normals = Some(normals.iter().map(v3).collect());
    m.num_uv = Some(uvs.len() as i32);
    m.uv = Some(uvs.iter().map(|p| Vector2f { x: p[0], y: p[1] }).collect());
    m.num_colors = Some(colors.len() as i32);
    m.colors = Some(
        colors
            .iter()
            .map(|c| ColorRgba32 {
                rgba: u32::from_le_bytes(*c),
            })
            .collect(),
    );
}

/// Tangents for a mesh before 3.5 (`m_Tangents`, w the bitangent's sign).
pub fn tangents(m: &mut UnityMesh, tangents: &[[f32; 4]]) {
    m.num_tangents = Some(tangents.len() as i32);
    m.tangents = Some(
        tangents
            .iter()
            .map(|t| Vector4f {
                x: t[0],
                y: t[1],
                z: t[2],
                w: t[3],
            })
            .collect(),
    );
}

/// An index buffer of 16-bit indices.
pub fn indices16(ix: &[u16]) -> IndexBuffer {
    index_buffer(2 * ix.len(), Some(ix.to_vec()), None)
}

/// An index buffer of 32-bit indices.
pub fn indices32(ix: &[u32]) -> IndexBuffer {
    index_buffer(4 * ix.len(), None, Some(ix.to_vec()))
}

/// An index buffer of `data` as the spec reads it for indices of `size` bytes (2 or 4; for
/// another size, or bytes after the last whole index, the bytes are kept in `rest`): for tests
/// of buffers that are not whole indices.
pub fn index_bytes(size: u8, data: Vec<u8>) -> IndexBuffer {
    use crate::rt::Codec;
    // A byte vector and an index buffer store the same length, bytes and pad.
    let mut out = crate::rt::Output::with_capacity(data.len() + 8);
    bytes(data)
        .write_out::<false>(&mut out, ())
        .expect("a byte vector of its own length writes");
    let stored = out.into_vec();
    let mut input = crate::rt::Input::new(&stored);
    let (view, _) = IndexBuffer::read_in::<false>(&mut input, (size,))
        .expect("a byte vector's own bytes read as an index buffer");
    IndexBuffer::own(&view)
}

fn index_buffer(
    len: usize,
    u16_indices: Option<Vec<u16>>,
    u32_indices: Option<Vec<u32>>,
) -> IndexBuffer {
    IndexBuffer {
        len_data: len as i32,
        indices: IndexRun {
            u16_indices,
            u32_indices,
            rest: vec![],
        },
        pad: vec![0; (4 - len % 4) % 4],
    }
}

/// A triangle of three vertices (positions only, Float x 3 in one stream, 16-bit indices 0 1
/// 2, one submesh) in every field of `unity_version`'s layout.
pub fn triangle(name: &str, unity_version: u32) -> UnityMesh {
    let mut m = empty(name, unity_version);
    let positions: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    // Float is 0 in every era's numbering; the Vertex channel is entry 0 in every order.
    one_stream(&mut m, 3, &[(0, 0, 3, 12)], positions);
    if unity_version < 30500 {
        arrays(
            &mut m,
            &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            &[],
            &[],
            &[],
        );
    }
    m.index_buffer = indices16(&[0, 1, 2]);
    m.num_sub_meshes = 1;
    m.sub_meshes = vec![submesh(unity_version, 0, 3, 3)];
    m
}

/// One vertex's four influences of m_Skin (before 2018.2).
pub fn influences(weights: [f32; 4], bones: [i32; 4]) -> BoneWeights4 {
    BoneWeights4 {
        weight_0: weights[0],
        weight_1: weights[1],
        weight_2: weights[2],
        weight_3: weights[3],
        bone_index_0: bones[0],
        bone_index_1: bones[1],
        bone_index_2: bones[2],
        bone_index_3: bones[3],
    }
}

/// A skinned mesh of `n` vertices (at least 3) in the layout of `unity_version`, the same
/// geometry in every era: one stream of Vertex Float x 3, Normal Float x 3, the era's Color (4
/// bytes) and TexCoord0 Float x 2, two bones (every vertex half on each, in m_Skin before
/// 2018.2, in a second stream of BlendWeight Float x 4 and BlendIndices UInt32 x 4 from
/// then), `n - 2` triangles of 32-bit indices from 2017.3 (16-bit before, `n` at most 65,536).
/// For benchmarks and tests that compare the eras.
pub fn sample(unity_version: u32, n: u32) -> UnityMesh {
    let v = unity_version;
    let mut m = empty("sample", v);
    let (color, uv) = if v >= 20180100 { (3, 4) } else { (2, 3) };
    // The era's Color (2 in every numbering but the documents', where UNorm8 is 2 too), with
    // the dimension its editors write (1 in 4.x).
    let color_dim = if (40000..50000).contains(&v) { 1 } else { 4 };
    let mut data = Vec::with_capacity(36 * n as usize);
    for k in 0..n {
        let x = k as f32 / n as f32;
        for c in [x, 1.0 - x, 0.5, 0.0, 0.0, -1.0] {
            data.extend(c.to_le_bytes());
        }
        data.extend([(k % 256) as u8, 128, 64, 255]);
        for c in [x, 1.0 - x] {
            data.extend(c.to_le_bytes());
        }
    }
    if v < 30500 {
        // The same values in the arrays before 3.5.
        let x = |k: u32| k as f32 / n as f32;
        let p: Vec<[f32; 3]> = (0..n).map(|k| [x(k), 1.0 - x(k), 0.5]).collect();
        let nr: Vec<[f32; 3]> = (0..n).map(|_| [0.0, 0.0, -1.0]).collect();
        let c: Vec<[u8; 4]> = (0..n).map(|k| [(k % 256) as u8, 128, 64, 255]).collect();
        let t: Vec<[f32; 2]> = (0..n).map(|k| [x(k), 1.0 - x(k)]).collect();
        arrays(&mut m, &p, &nr, &t, &c);
    }
    one_stream(
        &mut m,
        n,
        &[
            (0, 0, 3, 12),
            (1, 0, 3, 12),
            (color, 2, color_dim, 4),
            (uv, 0, 2, 8),
        ],
        data,
    );
    let weights = [0.5f32, 0.5, 0.0, 0.0];
    if let Some(skin) = m.skin.as_mut() {
        skin.items = vec![influences(weights, [0, 1, 0, 0]); n as usize];
        skin.num_items = n as i32;
    } else {
        let uint32 = if v >= 20190100 { 10 } else { 11 };
        set_channel(&mut m, 12, 1, 0, 0, 4);
        set_channel(&mut m, 13, 1, 16, uint32, 4);
        let vd = m
            .vertex_data
            .as_mut()
            .expect("from 2018.2 a mesh has vertex data");
        let mut data = std::mem::take(&mut vd.data.data);
        data.resize(data.len().div_ceil(16) * 16, 0);
        for _ in 0..n {
            for w in weights {
                data.extend(w.to_le_bytes());
            }
            for b in [0u32, 1, 0, 0] {
                data.extend(b.to_le_bytes());
            }
        }
        vd.data = bytes(data);
    }
    let identity: Vec<f32> = (0..16).map(|k| f32::from(u8::from(k % 5 == 0))).collect();
    let poses = vec![Matrix4x4f { e: identity }; 2];
    if v >= 40300 {
        m.num_bind_poses = Some(2);
        m.bind_poses = Some(poses);
    } else {
        m.num_bind_poses_after_skin = Some(2);
        m.bind_poses_after_skin = Some(poses);
    }
    let triangles: Vec<u32> = (0..n.saturating_sub(2))
        .flat_map(|t| [t, t + 1, t + 2])
        .collect();
    if v >= 20170300 {
        m.index_format = Some(IndexFormat::UINT32);
        m.index_buffer = indices32(&triangles);
    } else {
        m.index_buffer = indices16(&triangles.iter().map(|&x| x as u16).collect::<Vec<_>>());
    }
    m.num_sub_meshes = 1;
    m.sub_meshes = vec![submesh(v, 0, triangles.len() as u32, n)];
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rt::Root;

    #[test]
    fn the_sample_decodes_alike_in_every_era() {
        let decode = |v: u32| {
            let ctx = crate::Context::new().with_param("unity_version", v.into());
            let b = sample(v, 300).to_bytes(&ctx).unwrap();
            let d = crate::layouts::find("unity-mesh").unwrap().decode(&b, &ctx);
            let d = d.unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(
                d.verdict.findings.is_empty(),
                "{v}: {:?}",
                d.verdict.findings
            );
            let m = d.scene.meshes.into_iter().next().unwrap();
            (
                m.positions,
                m.normals,
                m.colors,
                m.uvs,
                m.primitives,
                m.skin.map(|s| (s.joints, s.weights)),
            )
        };
        let reference = decode(20210300);
        for v in [30400, 40700, 50600, 20170400, 20180100, 20180400, 60000200] {
            assert_eq!(decode(v), reference, "{v}");
        }
    }

    #[test]
    fn a_triangle_decodes_in_every_era() {
        for v in [
            30000, 30400, 30500, 40100, 40300, 50600, 20170100, 20180100, 20180200, 20210300,
        ] {
            let ctx = crate::Context::new().with_param("unity_version", v.into());
            let b = triangle("t", v).to_bytes(&ctx).unwrap();
            let d = crate::layouts::find("unity-mesh").unwrap().decode(&b, &ctx);
            let d = d.unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(
                d.verdict.findings.is_empty(),
                "{v}: {:?}",
                d.verdict.findings
            );
            let m = &d.scene.meshes[0];
            assert_eq!(m.positions.len(), 3, "{v}");
            assert_eq!(
                m.positions[1],
                [-1.0, 0.0, 0.0],
                "{v}: x mirrored into glTF's frame"
            );
        }
    }

    #[test]
    fn an_empty_mesh_reads_back_in_every_layout_it_is_made_for() {
        for (v, _) in crate::unity::files::game::mesh_layouts() {
            let params = crate::Context::new().with_param("unity_version", v.into());
            let m = empty("x", v);
            let b = m.to_bytes(&params).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(UnityMesh::from_bytes(&b, &params).unwrap(), m, "{v}");
        }
    }
}
