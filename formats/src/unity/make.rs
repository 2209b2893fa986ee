//! Mesh objects made from parts: an empty [`UnityMesh`] with every field an editor version
//! writes, for tests, benchmarks and anyone writing Unity meshes with the generated writer.

use crate::generated::unity_mesh::{
    Aabb, AlignedBytes, AlignedString, BlendShapeData, ChannelInfo, CompressedMesh, IndexFormat,
    MeshCompression, MeshLodInfo, MinMaxAabbVector, PackedFloatVector, PackedIntVector,
    StreamingInfo, UnityMesh, VariableBoneCountWeights, Vector3f, VertexData, VertexFormat,
};

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
/// indices, 14 absent channels from 2018.1 on, inline vertex data.
pub fn empty(name: &str, unity_version: u32) -> UnityMesh {
    let v = unity_version;
    let from = |cut: u32| v >= cut;
    UnityMesh {
        name: string(name),
        num_sub_meshes: 0,
        sub_meshes: vec![],
        shapes: BlendShapeData {
            num_vertices: 0,
            vertices: vec![],
            num_shapes: 0,
            shapes: vec![],
            num_channels: 0,
            channels: vec![],
            num_full_weights: 0,
            full_weights: vec![],
        },
        num_bind_poses: 0,
        bind_poses: vec![],
        num_bone_name_hashes: 0,
        bone_name_hashes: vec![],
        root_bone_name_hash: 0,
        bones_aabb: from(20190100).then(|| MinMaxAabbVector {
            num_items: 0,
            items: vec![],
        }),
        variable_bone_count_weights: from(20190100).then(|| VariableBoneCountWeights {
            num_data: 0,
            data: vec![],
        }),
        mesh_compression: MeshCompression::OFF,
        is_readable: 1,
        keep_vertices: 0,
        keep_indices: 0,
        index_format: from(20170300).then_some(IndexFormat::UINT16),
        index_buffer: bytes(vec![]),
        skin: (!from(20180200)).then(|| crate::generated::unity_mesh::BoneWeights4Vector {
            num_items: 0,
            items: vec![],
        }),
        vertex_data: VertexData {
            current_channels: (!from(20180100)).then_some(0),
            vertex_count: 0,
            num_channels: if from(20180100) { 14 } else { 0 },
            channels: if from(20180100) {
                vec![channel(0, 0, 0, 0); 14]
            } else {
                vec![]
            },
            data: bytes(vec![]),
        },
        compressed_mesh: CompressedMesh {
            vertices: no_floats(),
            uv: no_floats(),
            normals: no_floats(),
            tangents: no_floats(),
            weights: no_ints(),
            normal_signs: no_ints(),
            tangent_signs: no_ints(),
            float_colors: no_floats(),
            bone_indices: no_ints(),
            triangles: no_ints(),
            uv_info: 0,
        },
        local_aabb: no_box(),
        mesh_usage_flags: (!from(60000600)).then_some(0),
        cooking_options: from(20220100).then_some(30),
        pre_bake_convex_collision_mesh: from(60000600).then_some(0),
        pre_bake_triangle_collision_mesh: from(60000600).then_some(0),
        pad_pre_bake: from(60000600).then(|| vec![0, 0]),
        baked_convex_collision_mesh: bytes(vec![]),
        baked_triangle_collision_mesh: bytes(vec![]),
        mesh_metrics_0: from(20180200).then_some(1.0),
        mesh_metrics_1: from(20180200).then_some(1.0),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rt::Root;

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
