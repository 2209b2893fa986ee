//! Writes the small Unity game files of `corpus/unity/` (see its README): serialized files
//! with and without type trees, a big-endian one of format 11 (nested type trees), one the
//! editor saved for itself (target platform NoTarget, the editor-only fields in every object),
//! bundles stored, LZ4 and LZMA, the older UnityWeb (LZMA) and UnityRaw (stored) bundles, their
//! resource files, Unity 3.4's files (a serialized file of format 8 with meshes of separate
//! vertex arrays, a UnityWeb of format 2 holding it), and must-refuse variants under `bad/`.
//!
//! Everything is written by the writers generated from `spec/unity_serialized.ksy`,
//! `spec/unity_bundle.ksy`, `spec/unity_web.ksy` and `spec/unity_mesh.ksy` (the objects other than meshes by a small
//! type-tree encoder below), so the files also show that the specs write what they read.
//!
//! `cargo run -p meshspec-formats --example make_unity_corpus` (writes into `corpus/unity/`).

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_bundle as ub;
use meshspec_formats::generated::unity_mesh as um;
use meshspec_formats::generated::unity_serialized as us;
use meshspec_formats::generated::unity_web as uw;
use meshspec_formats::rt::{Codec, Output, Root, Spanned};
use meshspec_formats::unity::decode::pack_items;
use meshspec_formats::unity::make;
use std::path::Path;

/// The editor version the files claim (the Mesh layout of 2022.1 and later).
const VERSION: &str = "2022.3.10f1";
const VERSION_NUM: u32 = 20220310;

// ---------------------------------------------------------------------------------------
// Type trees: a node builder and the blob form.

#[derive(Clone, Debug)]
struct T {
    ty: &'static str,
    name: &'static str,
    size: i32,
    array: bool,
    meta: i32,
    kids: Vec<T>,
}

const ALIGN: i32 = 0x4000;

/// A node of no flags.
fn node(ty: &'static str, name: &'static str, size: i32, kids: Vec<T>) -> T {
    T {
        ty,
        name,
        size,
        array: false,
        meta: 0,
        kids,
    }
}

fn prim(ty: &'static str, name: &'static str) -> T {
    let size = match ty {
        "bool" | "UInt8" | "SInt8" | "char" => 1,
        "UInt16" | "SInt16" => 2,
        "int" | "unsigned int" | "float" => 4,
        "SInt64" | "UInt64" => 8,
        other => panic!("no size for {other}"),
    };
    node(ty, name, size, vec![])
}

/// A struct: the sum of its fields' sizes, -1 when one of them varies.
fn strukt(ty: &'static str, name: &'static str, kids: Vec<T>) -> T {
    let size = kids
        .iter()
        .try_fold(0, |s, k| (k.size >= 0).then_some(s + k.size));
    node(ty, name, size.unwrap_or(-1), kids)
}

/// An array node (`meta` its flags): its size and its elements.
fn array(ty: &'static str, name: &'static str, meta: i32, elem: T) -> T {
    let kids = vec![prim("int", "size"), elem];
    T {
        array: true,
        meta,
        ..node(ty, name, -1, kids)
    }
}

fn aligned(mut t: T) -> T {
    t.meta |= ALIGN;
    t
}

fn vector_of(ty: &'static str, name: &'static str, mut elem: T) -> T {
    elem.name = "data";
    node(ty, name, -1, vec![array("Array", "Array", ALIGN, elem)])
}

fn vector(name: &'static str, elem: T) -> T {
    vector_of("vector", name, elem)
}

fn string(name: &'static str) -> T {
    vector_of("string", name, prim("char", "data"))
}

fn pptr(ty: &'static str, name: &'static str) -> T {
    strukt(
        ty,
        name,
        vec![prim("int", "m_FileID"), prim("SInt64", "m_PathID")],
    )
}

/// A struct of float fields.
fn floats(ty: &'static str, name: &'static str, fields: &[&'static str]) -> T {
    strukt(ty, name, fields.iter().map(|&f| prim("float", f)).collect())
}

fn vec3(name: &'static str) -> T {
    floats("Vector3f", name, &["x", "y", "z"])
}

fn aabb(name: &'static str) -> T {
    strukt("AABB", name, vec![vec3("m_Center"), vec3("m_Extent")])
}

/// The Mesh of 2022.1 and later, as Unity's type trees have it.
fn mesh_tree() -> T {
    // PackedBitVector: of floats (with their range and start) or of integers.
    let packed = |name, floats: bool| {
        let mut kids = vec![prim("unsigned int", "m_NumItems")];
        if floats {
            kids.extend([prim("float", "m_Range"), prim("float", "m_Start")]);
        }
        kids.push(vector("m_Data", prim("UInt8", "data")));
        kids.push(aligned(prim("UInt8", "m_BitSize")));
        strukt("PackedBitVector", name, kids)
    };
    let e = [
        "e00", "e01", "e02", "e03", "e10", "e11", "e12", "e13", "e20", "e21", "e22", "e23", "e30",
        "e31", "e32", "e33",
    ];
    let matrix = floats("Matrix4x4f", "data", &e);
    strukt(
        "Mesh",
        "Base",
        vec![
            string("m_Name"),
            vector(
                "m_SubMeshes",
                strukt(
                    "SubMesh",
                    "data",
                    vec![
                        prim("unsigned int", "firstByte"),
                        prim("unsigned int", "indexCount"),
                        prim("int", "topology"),
                        prim("unsigned int", "baseVertex"),
                        prim("unsigned int", "firstVertex"),
                        prim("unsigned int", "vertexCount"),
                        aabb("localAABB"),
                    ],
                ),
            ),
            strukt(
                "BlendShapeData",
                "m_Shapes",
                vec![
                    vector(
                        "vertices",
                        strukt(
                            "BlendShapeVertex",
                            "data",
                            vec![
                                vec3("vertex"),
                                vec3("normal"),
                                vec3("tangent"),
                                prim("unsigned int", "index"),
                            ],
                        ),
                    ),
                    vector(
                        "shapes",
                        strukt(
                            "MeshBlendShape",
                            "data",
                            vec![
                                prim("unsigned int", "firstVertex"),
                                prim("unsigned int", "vertexCount"),
                                prim("bool", "hasNormals"),
                                aligned(prim("bool", "hasTangents")),
                            ],
                        ),
                    ),
                    vector(
                        "channels",
                        strukt(
                            "MeshBlendShapeChannel",
                            "data",
                            vec![
                                string("name"),
                                prim("unsigned int", "nameHash"),
                                prim("int", "frameIndex"),
                                prim("int", "frameCount"),
                            ],
                        ),
                    ),
                    vector("fullWeights", prim("float", "data")),
                ],
            ),
            vector("m_BindPose", matrix),
            vector("m_BoneNameHashes", prim("unsigned int", "data")),
            prim("unsigned int", "m_RootBoneNameHash"),
            vector(
                "m_BonesAABB",
                strukt("MinMaxAABB", "data", vec![vec3("m_Min"), vec3("m_Max")]),
            ),
            strukt(
                "VariableBoneCountWeights",
                "m_VariableBoneCountWeights",
                vec![vector("m_Data", prim("unsigned int", "data"))],
            ),
            prim("UInt8", "m_MeshCompression"),
            prim("bool", "m_IsReadable"),
            prim("bool", "m_KeepVertices"),
            aligned(prim("bool", "m_KeepIndices")),
            prim("int", "m_IndexFormat"),
            vector("m_IndexBuffer", prim("UInt8", "data")),
            aligned(strukt(
                "VertexData",
                "m_VertexData",
                vec![
                    prim("unsigned int", "m_VertexCount"),
                    vector(
                        "m_Channels",
                        strukt(
                            "ChannelInfo",
                            "data",
                            vec![
                                prim("UInt8", "stream"),
                                prim("UInt8", "offset"),
                                prim("UInt8", "format"),
                                prim("UInt8", "dimension"),
                            ],
                        ),
                    ),
                    aligned(array(
                        "TypelessData",
                        "m_DataSize",
                        0,
                        prim("UInt8", "data"),
                    )),
                ],
            )),
            strukt(
                "CompressedMesh",
                "m_CompressedMesh",
                vec![
                    packed("m_Vertices", true),
                    packed("m_UV", true),
                    packed("m_Normals", true),
                    packed("m_Tangents", true),
                    packed("m_Weights", false),
                    packed("m_NormalSigns", false),
                    packed("m_TangentSigns", false),
                    packed("m_FloatColors", true),
                    packed("m_BoneIndices", false),
                    packed("m_Triangles", false),
                    prim("unsigned int", "m_UVInfo"),
                ],
            ),
            aabb("m_LocalAABB"),
            prim("int", "m_MeshUsageFlags"),
            prim("int", "m_CookingOptions"),
            vector("m_BakedConvexCollisionMesh", prim("UInt8", "data")),
            vector("m_BakedTriangleCollisionMesh", prim("UInt8", "data")),
            prim("float", "m_MeshMetrics[0]"),
            aligned(prim("float", "m_MeshMetrics[1]")),
            strukt(
                "StreamingInfo",
                "m_StreamData",
                vec![
                    prim("UInt64", "offset"),
                    prim("unsigned int", "size"),
                    string("path"),
                ],
            ),
        ],
    )
}

fn game_object_tree() -> T {
    strukt(
        "GameObject",
        "Base",
        vec![
            vector(
                "m_Component",
                strukt(
                    "ComponentPair",
                    "data",
                    vec![pptr("PPtr<Component>", "component")],
                ),
            ),
            prim("unsigned int", "m_Layer"),
            string("m_Name"),
            prim("UInt16", "m_Tag"),
            aligned(prim("bool", "m_IsActive")),
        ],
    )
}

fn transform_tree() -> T {
    strukt(
        "Transform",
        "Base",
        vec![
            pptr("PPtr<GameObject>", "m_GameObject"),
            floats("Quaternionf", "m_LocalRotation", &["x", "y", "z", "w"]),
            vec3("m_LocalPosition"),
            vec3("m_LocalScale"),
            vector("m_Children", pptr("PPtr<Transform>", "data")),
            pptr("PPtr<Transform>", "m_Father"),
        ],
    )
}

fn material_tree() -> T {
    strukt(
        "Material",
        "Base",
        vec![string("m_Name"), pptr("PPtr<Shader>", "m_Shader")],
    )
}

fn skinned_renderer_tree() -> T {
    strukt(
        "SkinnedMeshRenderer",
        "Base",
        vec![
            pptr("PPtr<GameObject>", "m_GameObject"),
            aligned(prim("bool", "m_Enabled")),
            vector("m_Materials", pptr("PPtr<Material>", "data")),
            pptr("PPtr<Mesh>", "m_Mesh"),
            vector("m_Bones", pptr("PPtr<Transform>", "data")),
            pptr("PPtr<Transform>", "m_RootBone"),
        ],
    )
}

fn mesh_filter_tree() -> T {
    strukt(
        "MeshFilter",
        "Base",
        vec![
            pptr("PPtr<GameObject>", "m_GameObject"),
            pptr("PPtr<Mesh>", "m_Mesh"),
        ],
    )
}

fn mesh_renderer_tree() -> T {
    strukt(
        "MeshRenderer",
        "Base",
        vec![
            pptr("PPtr<GameObject>", "m_GameObject"),
            aligned(prim("bool", "m_Enabled")),
            vector("m_Materials", pptr("PPtr<Material>", "data")),
        ],
    )
}

/// Names of Unity's common strings (the spec's enum `common_string`), by name.
fn common_offset(name: &str) -> Option<u32> {
    (0x8000_0000u32..0x8000_0000 + 2048).find(|&k| us::CommonString(k).orig_id() == Some(name))
}

/// The tree's nodes depth first, with the string buffer the blob form keeps.
fn blob(t: &T, format: u32, big: bool) -> us::TypeTree {
    let mut nodes = vec![];
    let mut buffer: Vec<u8> = vec![];
    let mut local = std::collections::HashMap::<&str, u32>::new();
    fn walk(
        t: &T,
        level: u8,
        format: u32,
        nodes: &mut Vec<us::TypeTreeNode>,
        buffer: &mut Vec<u8>,
        local: &mut std::collections::HashMap<&'static str, u32>,
    ) {
        let mut name_of = |s: &'static str| -> u32 {
            if let Some(c) = common_offset(s) {
                return c;
            }
            *local.entry(s).or_insert_with(|| {
                let at = buffer.len() as u32;
                buffer.extend_from_slice(s.as_bytes());
                buffer.push(0);
                at
            })
        };
        let index = nodes.len() as i32;
        nodes.push(us::TypeTreeNode {
            node_version: 1,
            level,
            type_flags: u8::from(t.array),
            ofs_type: us::CommonString(name_of(t.ty)),
            ofs_name: us::CommonString(name_of(t.name)),
            byte_size: t.size,
            index,
            meta_flag: t.meta,
            ref_type_hash: (format >= 19).then_some(0),
        });
        for k in &t.kids {
            walk(k, level + 1, format, nodes, buffer, local);
        }
    }
    walk(t, 0, format, &mut nodes, &mut buffer, &mut local);
    let _ = big;
    us::TypeTree {
        num_nodes: nodes.len() as i32,
        len_string_buffer: buffer.len() as i32,
        nodes,
        string_buffer: buffer,
    }
}

/// The nested form of formats 9 and 11.
fn nested(t: &T) -> us::OldTypeTreeNode {
    us::OldTypeTreeNode {
        type_name: t.ty.into(),
        name: t.name.into(),
        byte_size: t.size,
        index: 0,
        type_flags: i32::from(t.array),
        node_version: 1,
        meta_flag: t.meta,
        num_children: t.kids.len() as i32,
        children: t.kids.iter().map(nested).collect(),
    }
}

// ---------------------------------------------------------------------------------------
// Values, encoded by the tree that reads them.

#[derive(Clone, Debug)]
enum V {
    I(i64),
    F(f32),
    S(String),
    L(Vec<V>),
    R(Vec<V>),
}

fn ptr(file: i32, path_id: i64) -> V {
    V::R(vec![V::I(file.into()), V::I(path_id)])
}

fn encode(t: &T, v: &V, big: bool, out: &mut Vec<u8>) {
    let put = |out: &mut Vec<u8>, x: u64, n: usize| {
        let b = if big {
            x.to_be_bytes()
        } else {
            x.to_le_bytes()
        };
        if big {
            out.extend_from_slice(&b[8 - n..]);
        } else {
            out.extend_from_slice(&b[..n]);
        }
    };
    let first_array = t.kids.first().is_some_and(|k| k.ty == "Array");
    match v {
        V::I(x) if t.kids.is_empty() => put(out, *x as u64, t.size as usize),
        V::F(x) => put(out, u64::from(x.to_bits()), 4),
        V::S(s) if first_array => {
            put(out, s.len() as u64, 4);
            out.extend_from_slice(s.as_bytes());
        }
        V::L(items) if first_array => {
            put(out, items.len() as u64, 4);
            for i in items {
                encode(&t.kids[0].kids[1], i, big, out);
            }
        }
        V::R(fields) => {
            assert_eq!(fields.len(), t.kids.len(), "{}: fields", t.name);
            for (k, f) in t.kids.iter().zip(fields) {
                encode(k, f, big, out);
            }
        }
        other => panic!("{}: cannot encode {other:?} as {}", t.name, t.ty),
    }
    let array_aligned = t
        .kids
        .first()
        .is_some_and(|k| k.ty == "Array" && k.meta & ALIGN != 0);
    if t.meta & ALIGN != 0 || array_aligned {
        while !out.len().is_multiple_of(4) {
            out.push(0);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Meshes, written by the unity-mesh layout's writer.

fn v3(x: f32, y: f32, z: f32) -> um::Vector3f {
    um::Vector3f { x, y, z }
}

fn zero_aabb() -> um::Aabb {
    um::Aabb {
        center: v3(0.0, 0.0, 0.0),
        extent: v3(1.0, 1.0, 1.0),
    }
}

fn submesh(
    first_byte: u32,
    index_count: u32,
    topology: i32,
    base: u32,
    first_vertex: u32,
    vertex_count: u32,
) -> um::SubMesh {
    um::SubMesh {
        first_byte,
        index_count,
        topology: Some(um::Topology(topology)),
        is_tri_strip: None,
        triangle_count: None,
        base_vertex: Some(base),
        first_vertex,
        vertex_count,
        local_aabb: zero_aabb(),
    }
}

fn identity(tx: f32) -> um::Matrix4x4f {
    let mut e = vec![0.0; 16];
    for k in 0..4 {
        e[k * 5] = 1.0;
    }
    e[3] = tx;
    um::Matrix4x4f { e }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A mesh of `vertex_count` vertices in `vertex_bytes` (inline), the channel table entries
/// `channels` (index, stream, offset, format, dimension) set, and a box of extent 1; every
/// other field the version writes from the library's maker.
fn mesh(
    name: &str,
    submeshes: Vec<um::SubMesh>,
    indices: um::IndexBuffer,
    vertex_count: u32,
    channels: &[(usize, u8, u8, u8, u8)],
    vertex_bytes: Vec<u8>,
) -> um::UnityMesh {
    let mut m = make::empty(name, VERSION_NUM);
    m.local_aabb = zero_aabb();
    m.num_sub_meshes = submeshes.len() as i32;
    m.sub_meshes = submeshes;
    m.index_buffer = indices;
    for &(k, stream, offset, format, dimension) in channels {
        make::set_channel(&mut m, k, stream, offset, format, dimension);
    }
    let vd = m
        .vertex_data
        .as_mut()
        .expect("a mesh of 2022.3 has vertex data");
    vd.vertex_count = vertex_count;
    vd.data = make::bytes(vertex_bytes);
    m
}

/// The Mesh object, its vertex bytes moved to `res` (at a 16-byte boundary) when streamed.
fn mesh_bytes(mut m: um::UnityMesh, streamed: bool, res: &mut Vec<u8>, res_path: &str) -> Vec<u8> {
    if streamed {
        while !res.len().is_multiple_of(16) {
            res.push(0);
        }
        let vd = m
            .vertex_data
            .as_mut()
            .expect("a mesh of 2022.3 has vertex data");
        let data = std::mem::replace(&mut vd.data, make::bytes(vec![])).data;
        m.stream_data = Some(um::StreamingInfo {
            ofs_data_u4: None,
            ofs_data_u8: Some(res.len() as u64),
            len_data: data.len() as u32,
            path: make::string(res_path),
        });
        res.extend(data);
    }
    m.to_bytes(&Context::new().with_param("unity_version", i128::from(VERSION_NUM)))
        .expect("the mesh writes")
}

/// The five meshes, and whether each is streamed.
fn meshes() -> Vec<(um::UnityMesh, bool)> {
    // Blade: a quad, positions, normals and UVs in one stream, streamed from the .resS.
    let mut data = vec![];
    for (x, y) in [(0.0f32, 0.0f32), (1.0, 0.0), (1.0, 2.0), (0.0, 2.0)] {
        data.extend(f32s(&[x, y, 0.0, 0.0, 0.0, -1.0, x, y / 2.0]));
    }
    let channels = [(0, 0, 0, 0, 3), (1, 0, 12, 0, 3), (4, 0, 24, 0, 2)];
    let indices = make::indices16(&[0, 1, 2, 0, 2, 3]);
    let blade = mesh(
        "Blade",
        vec![submesh(0, 6, 0, 0, 0, 4)],
        indices,
        4,
        &channels,
        data,
    );
    // Arm: two quads up a column, skinned to two bones: stream 0 positions and normals,
    // stream 1 four Float weights and four UInt32 bone slots.
    let mut data = vec![];
    let mut skin = vec![];
    for k in 0..6 {
        let y = (k / 2) as f32;
        let x = (k % 2) as f32;
        data.extend(f32s(&[x, y, 0.0, 0.0, 0.0, -1.0]));
        let w = y / 2.0;
        skin.extend(f32s(&[1.0 - w, w, 0.0, 0.0]));
        for b in [0u32, 1, 0, 0] {
            skin.extend(b.to_le_bytes());
        }
    }
    data.extend(skin);
    let channels = [
        (0, 0, 0, 0, 3),
        (1, 0, 12, 0, 3),
        (12, 1, 0, 0, 4),
        (13, 1, 16, 10, 4),
    ];
    let indices = make::indices16(&[0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]);
    let mut arm = mesh(
        "Arm",
        vec![submesh(0, 12, 0, 0, 0, 6)],
        indices,
        6,
        &channels,
        data,
    );
    arm.num_bind_poses = Some(2);
    arm.bind_poses = Some(vec![identity(0.0), identity(-1.0)]);
    let hashes = vec![
        crc32fast::hash(b"Shoulder"),
        crc32fast::hash(b"Shoulder/Elbow"),
    ];
    arm.root_bone_name_hash = Some(hashes[0]);
    arm.num_bone_name_hashes = Some(2);
    arm.bone_name_hashes = Some(hashes);
    let bound = |y: f32| um::MinMaxAabb {
        min: v3(0.0, y, 0.0),
        max: v3(1.0, y + 1.0, 0.0),
    };
    arm.bones_aabb = Some(um::MinMaxAabbVector {
        num_items: 2,
        items: vec![bound(0.0), bound(1.0)],
    });
    // Face: one triangle with two blend shapes, one of two frames.
    let data = f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let triangle = || vec![submesh(0, 3, 0, 0, 0, 3)];
    let positions = [(0, 0, 0, 0, 3)];
    let mut face = mesh(
        "Face",
        triangle(),
        make::indices16(&[0, 1, 2]),
        3,
        &positions,
        data,
    );
    let sv = |vertex: [f32; 3], index: u32| um::BlendShapeVertex {
        vertex: v3(vertex[0], vertex[1], vertex[2]),
        normal: v3(0.0, 0.0, 0.0),
        tangent: v3(0.0, 0.0, 0.0),
        index,
    };
    let frame = |first_vertex, vertex_count| um::MeshBlendShape {
        first_vertex,
        vertex_count,
        has_normals: 0,
        has_tangents: 0,
        pad: vec![0; 2],
    };
    let chan = |name: &str, frame_index, frame_count| um::MeshBlendShapeChannel {
        name: make::string(name),
        name_hash: crc32fast::hash(name.as_bytes()),
        frame_index,
        frame_count,
    };
    face.shapes = Some(um::BlendShapeData {
        num_vertices: 4,
        vertices: vec![
            sv([0.0, 0.5, 0.0], 2),
            sv([0.0, 0.2, 0.0], 1),
            sv([0.0, 0.4, 0.0], 1),
            sv([0.1, 0.0, 0.0], 0),
        ],
        num_shapes: 3,
        shapes: vec![frame(0, 1), frame(1, 1), frame(2, 2)],
        num_channels: 2,
        channels: vec![chan("Smile", 0, 1), chan("Blink", 1, 2)],
        num_full_weights: 3,
        full_weights: vec![100.0, 50.0, 100.0],
    });
    // Rock: a compressed mesh of one triangle (positions, normals with their signs, one UV
    // set), its indices packed in m_Triangles.
    let mut rock = mesh("Rock", triangle(), make::indices16(&[]), 0, &[], vec![]);
    rock.mesh_compression = um::MeshCompression(1);
    let (half, one) = (32768, 65535);
    let corners = [half, half, half, one, half, half, half, one, half];
    rock.compressed_mesh = um::CompressedMesh {
        vertices: make::packed_floats(9, 16, -1.0, 2.0, pack_items(&corners, 16)),
        uv: make::packed_floats(6, 8, 0.0, 1.0, pack_items(&[0, 0, 255, 0, 0, 255], 8)),
        normals: make::packed_floats(6, 8, -1.0, 2.0, pack_items(&[128; 6], 8)),
        normal_signs: make::packed_ints(3, 1, pack_items(&[0, 0, 0], 1)),
        triangles: make::packed_ints(3, 2, pack_items(&[0, 1, 2], 2)),
        uv_info: Some(0x5),
        ..rock.compressed_mesh
    };
    // Wire: 32-bit indices, two submeshes (triangles, and lines drawn from base vertex 2).
    let data = f32s(&[
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 2.0, 0.0, 3.0, 3.0, 0.0,
    ]);
    let submeshes = vec![submesh(0, 3, 0, 0, 0, 3), submesh(12, 4, 3, 2, 2, 3)];
    let indices = make::indices32(&[0, 1, 2, 0, 1, 1, 2]);
    let mut wire = mesh("Wire", submeshes, indices, 5, &positions, data);
    wire.index_format = Some(um::IndexFormat(1));
    vec![
        (blade, true),
        (arm, false),
        (face, false),
        (rock, false),
        (wire, false),
    ]
}

// ---------------------------------------------------------------------------------------
// Unity 3.4: meshes with separate vertex arrays, in a serialized file of format 8.

/// The editor version the Unity 3.4 files claim (a Mesh layout of 3.0 to 3.4).
const OLD_VERSION: &str = "3.4.2f3";
const OLD_VERSION_NUM: u32 = 30402;

/// The meshes of 3.0 to 3.4, path ids 1 to 3: `Quad34` (two triangles listed, 16-bit
/// indices, every array: positions, normals, tangents, two UV sets, colours), `Strip34` (a
/// triangle strip of 32-bit indices, m_Use16BitIndices 0, skinned by m_Skin to two bind poses)
/// and `Packed34` (a compressed mesh in 3.4's layout, which has no m_Colors).
fn old_meshes() -> Vec<(i64, um::UnityMesh)> {
    let v = OLD_VERSION_NUM;
    let mut quad = make::empty("Quad34", v);
    let corners = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    let uv = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let colors = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 128],
    ];
    make::arrays(&mut quad, &corners, &[[0.0, 0.0, -1.0]; 4], &uv, &colors);
    make::tangents(&mut quad, &[[1.0, 0.0, 0.0, 1.0]; 4]);
    quad.num_uv1 = Some(4);
    quad.uv1 = Some(
        uv.iter()
            .map(|p| um::Vector2f {
                x: p[0] / 2.0,
                y: p[1] / 2.0,
            })
            .collect(),
    );
    quad.index_buffer = make::indices16(&[0, 1, 2, 0, 2, 3]);
    quad.num_sub_meshes = 1;
    quad.sub_meshes = vec![make::submesh(v, 0, 6, 4)];
    let half = um::Aabb {
        center: v3(0.5, 0.5, 0.0),
        extent: v3(0.5, 0.5, 0.0),
    };
    quad.local_aabb = half.clone();

    let mut strip = make::empty("Strip34", v);
    let column = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    make::arrays(&mut strip, &column, &[[0.0, 0.0, -1.0]; 4], &[], &[]);
    strip.use_16bit_indices = Some(0);
    strip.index_buffer = make::indices32(&[0, 1, 2, 3]);
    let mut sub = make::submesh(v, 0, 4, 4);
    sub.is_tri_strip = Some(1);
    sub.triangle_count = Some(2);
    strip.num_sub_meshes = 1;
    strip.sub_meshes = vec![sub];
    let skin = strip.skin.as_mut().expect("m_Skin before 2018.2");
    skin.items = (0..4)
        .map(|k| make::influences([1.0, 0.0, 0.0, 0.0], [k / 2, 0, 0, 0]))
        .collect();
    skin.num_items = 4;
    strip.num_bind_poses_after_skin = Some(2);
    strip.bind_poses_after_skin = Some(vec![identity(0.0), identity(-1.0)]);
    strip.local_aabb = half;

    // Rock's triangle, packed: 16-bit positions, 8-bit normals with their signs, one UV set.
    let mut packed = make::empty("Packed34", v);
    packed.mesh_compression = um::MeshCompression(1);
    let (h, one) = (32768, 65535);
    let corners = [h, h, h, one, h, h, h, one, h];
    packed.compressed_mesh = um::CompressedMesh {
        vertices: make::packed_floats(9, 16, -1.0, 2.0, pack_items(&corners, 16)),
        uv: make::packed_floats(6, 8, 0.0, 1.0, pack_items(&[0, 0, 255, 0, 0, 255], 8)),
        normals: make::packed_floats(6, 8, -1.0, 2.0, pack_items(&[128; 6], 8)),
        normal_signs: make::packed_ints(3, 1, pack_items(&[0, 0, 0], 1)),
        triangles: make::packed_ints(3, 2, pack_items(&[0, 1, 2], 2)),
        ..packed.compressed_mesh
    };
    packed.num_sub_meshes = 1;
    packed.sub_meshes = vec![make::submesh(v, 0, 3, 3)];
    packed.local_aabb = zero_aabb();
    vec![(1, quad), (2, strip), (3, packed)]
}

/// The Unity 3.4 meshes as objects of a serialized file.
fn old_objects(meshes: Vec<(i64, um::UnityMesh)>) -> Vec<Obj> {
    let ctx = Context::new().with_param("unity_version", i128::from(OLD_VERSION_NUM));
    meshes
        .into_iter()
        .map(|(path_id, m)| Obj {
            class: 43,
            path_id,
            bytes: m.to_bytes(&ctx).expect("the mesh writes"),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Serialized files.

/// An object to store: its class, path id, type tree and bytes.
struct Obj {
    class: i32,
    path_id: i64,
    bytes: Vec<u8>,
}

/// The objects of the scene: the five meshes, a skinned arm with its bones, renderers and
/// materials. Path ids are fixed so that files and tests can name them. `file_of` gives the
/// file id a reference to each path id is made with (0 when every object is in one file).
fn scene_objects(
    res: &mut Vec<u8>,
    res_path: &str,
    big: bool,
    file_of: &dyn Fn(i64) -> i32,
) -> (Vec<Obj>, Vec<(i32, T)>) {
    let ptr = |_file: i32, path_id: i64| ptr(file_of(path_id), path_id);
    let trees = vec![
        (1, game_object_tree()),
        (4, transform_tree()),
        (21, material_tree()),
        (43, mesh_tree()),
        (137, skinned_renderer_tree()),
        (33, mesh_filter_tree()),
        (23, mesh_renderer_tree()),
    ];
    let tree = |c: i32| &trees.iter().find(|t| t.0 == c).unwrap().1;
    let enc = |c: i32, v: V| {
        let mut out = vec![];
        encode(tree(c), &v, big, &mut out);
        out
    };
    let mut out = vec![];
    // Meshes: path ids 100 + k.
    for (k, (m, streamed)) in meshes().into_iter().enumerate() {
        out.push(Obj {
            class: 43,
            path_id: 100 + k as i64,
            bytes: mesh_bytes(m, streamed, res, res_path),
        });
    }
    let go = |name: &str, components: Vec<i64>| {
        V::R(vec![
            V::L(
                components
                    .into_iter()
                    .map(|c| V::R(vec![ptr(0, c)]))
                    .collect(),
            ),
            V::I(0),
            V::S(name.into()),
            V::I(0),
            V::I(1),
        ])
    };
    let tr = |go: i64, children: Vec<i64>, father: i64| {
        V::R(vec![
            ptr(0, go),
            V::R(vec![V::F(0.0), V::F(0.0), V::F(0.0), V::F(1.0)]),
            V::R(vec![V::F(0.0), V::F(0.0), V::F(0.0)]),
            V::R(vec![V::F(1.0), V::F(1.0), V::F(1.0)]),
            V::L(children.into_iter().map(|c| ptr(0, c)).collect()),
            ptr(0, father),
        ])
    };
    // The shader is in the first external file.
    let mat = |name: &str| V::R(vec![V::S(name.into()), V::R(vec![V::I(1), V::I(46)])]);
    // The arm's renderer: bones Shoulder and Elbow (their Transforms), material ArmSkin.
    let bones = V::L(vec![ptr(0, 12), ptr(0, 13)]);
    let skinned = vec![
        ptr(0, 1),
        V::I(1),
        V::L(vec![ptr(0, 20)]),
        ptr(0, 101),
        bones,
        ptr(0, 12),
    ];
    // Class, path id, value.
    let objects = [
        // GameObjects 1..: the arm (renderer), its two bones, the face.
        (1, 1, go("ArmRoot", vec![11, 30])),
        (1, 2, go("Shoulder", vec![12])),
        (1, 3, go("Elbow", vec![13])),
        (1, 4, go("FaceObject", vec![14, 31, 32])),
        (4, 11, tr(1, vec![12], 0)),
        (4, 12, tr(2, vec![13], 11)),
        (4, 13, tr(3, vec![], 12)),
        (4, 14, tr(4, vec![], 0)),
        (21, 20, mat("ArmSkin")),
        (21, 21, mat("FacePaint")),
        (137, 30, V::R(skinned)),
        // The face: a MeshFilter and a MeshRenderer on one GameObject.
        (33, 31, V::R(vec![ptr(0, 4), ptr(0, 102)])),
        (
            23,
            32,
            V::R(vec![ptr(0, 4), V::I(1), V::L(vec![ptr(0, 21)])]),
        ),
    ];
    for (class, path_id, v) in objects {
        let bytes = enc(class, v);
        out.push(Obj {
            class,
            path_id,
            bytes,
        });
    }
    out.sort_by_key(|o| o.path_id);
    (out, trees)
}

/// The external files of every serialized file but a player's `level0`.
const EXTERNALS: &[&str] = &["Library/unity default resources"];

/// A serialized file of `format` (22, or 11 for the nested trees) holding `objects`, whose
/// references name `externals` (file id 1 the first).
fn serialized(
    format: u32,
    big: bool,
    with_trees: bool,
    objects: &[Obj],
    trees: &[(i32, T)],
    externals: &[&str],
) -> Vec<u8> {
    serialized_as(format, big, with_trees, objects, trees, externals, VERSION)
}

/// [`serialized`] claiming the editor version `version`. Before format 9 the header is 16
/// bytes, the objects follow it (their byte_start counting from the file's start: the data
/// offset is 0) and the metadata is at the end, its first byte the byte order.
fn serialized_as(
    format: u32,
    big: bool,
    with_trees: bool,
    objects: &[Obj],
    trees: &[(i32, T)],
    externals: &[&str],
    version: &str,
) -> Vec<u8> {
    let old = format < 9;
    // Where byte_start counts from: the data before format 9 starts after the 16-byte header.
    let base = if old { 16 } else { 0 };
    let used: Vec<i32> = trees
        .iter()
        .map(|t| t.0)
        .filter(|c| objects.iter().any(|o| o.class == *c))
        .collect();
    let types: Vec<us::SerializedType> = used
        .iter()
        .map(|&c| {
            let t = &trees.iter().find(|t| t.0 == c).unwrap().1;
            us::SerializedType {
                class_id: us::UnityClass(c),
                is_stripped_type: (format >= 16).then_some(0),
                script_type_index: (format >= 17).then_some(-1),
                script_id: None,
                old_type_hash: (format >= 13).then(|| vec![0; 16]),
                type_tree: (with_trees && format >= 12).then(|| blob(t, format, big)),
                old_type_tree: (with_trees && format < 12).then(|| nested(t)),
                num_type_dependencies: (with_trees && format >= 21).then_some(0),
                type_dependencies: (with_trees && format >= 21).then(Vec::new),
                class_name: None,
                namespace: None,
                assembly_name: None,
            }
        })
        .collect();
    // Objects at 8-byte boundaries of the data.
    let mut data = vec![];
    let mut infos = vec![];
    for o in objects {
        while (base + data.len()) % 8 != 0 {
            data.push(0);
        }
        // Before format 16 the type id is the class id: a file may have no types (a
        // player's of Unity 3.4).
        let type_index = used.iter().position(|&c| c == o.class);
        infos.push(us::ObjectInfo {
            pad: (format >= 14).then(Vec::new),
            path_id_s4: (format < 14).then_some(o.path_id as i32),
            path_id: (format >= 14).then_some(o.path_id),
            byte_start_u4: (format < 22).then_some((base + data.len()) as u32),
            byte_start_u8: (format >= 22).then_some(data.len() as u64),
            byte_size: o.bytes.len() as u32,
            type_id: if format >= 16 {
                type_index.expect("a type for every object from format 16") as i32
            } else {
                o.class
            },
            class_id: (format < 16).then_some(o.class as u16),
            is_destroyed: (format < 11).then_some(0),
            script_type_index: (11..17).contains(&format).then_some(-1),
            stripped: (format == 15 || format == 16).then_some(0),
        });
        data.extend_from_slice(&o.bytes);
    }
    let mut metadata = us::Metadata {
        unity_version: (format >= 7).then(|| version.into()),
        // StandaloneWindows64, or StandaloneWindows before 64-bit players (Unity 3.4).
        target_platform: (format >= 8).then_some(us::BuildTarget(if old { 5 } else { 19 })),
        enable_type_tree: (format >= 13).then_some(u8::from(with_trees)),
        num_types: types.len() as i32,
        types,
        big_id_enabled: (7..14).contains(&format).then_some(0),
        num_objects: infos.len() as i32,
        objects: infos,
        num_script_types: (format >= 11).then_some(0),
        script_types: (format >= 11).then(Vec::new),
        num_externals: externals.len() as i32,
        externals: externals
            .iter()
            .map(|p| us::External {
                temp_empty: (format >= 6).then(String::new),
                guid: vec![0; 16],
                file_type: 0,
                path: (*p).into(),
            })
            .collect(),
        num_ref_types: (format >= 20).then_some(0),
        ref_types: (format >= 20).then(Vec::new),
        user_information: String::new(),
    };
    // Padding before each object entry (format 14 on), counted from the metadata's start.
    if format >= 14 {
        let tree = u8::from(with_trees);
        let be = u8::from(big);
        let mut at = version.len() as u64 + 1 + 4 + 1 + 4;
        at += metadata
            .types
            .iter()
            .map(|t| size_of(t, (format, be, 0, tree)))
            .sum::<u64>();
        at += 4;
        for o in &mut metadata.objects {
            let pad = (4 - at % 4) % 4;
            o.pad = Some(vec![0; pad as usize]);
            at += pad + 8 + if format >= 22 { 8 } else { 4 } + 4 + 4;
        }
    }
    let metadata_len = size_of(&metadata, (format, u8::from(big)));
    if old {
        // The byte order, then the metadata, at the end of the file.
        let len_metadata = metadata_len as u32 + 1;
        let total = 16 + data.len() as u32 + len_metadata;
        let file = us::UnitySerialized {
            header: us::Header {
                len_metadata,
                len_file: total,
                version: format,
                ofs_data: 0,
                endianness: None,
                reserved: None,
                wide: None,
            },
            metadata: None,
            pad_data: None,
            data: None,
            old_data: Some(data),
            old_endianness: Some(u8::from(big)),
            old_metadata: Some(metadata),
        };
        return file
            .to_bytes(&Context::new())
            .expect("the serialized file writes");
    }
    let header_len: u64 = if format >= 22 { 48 } else { 20 };
    let data_at = (header_len + metadata_len).div_ceil(16) * 16;
    let total = data_at + data.len() as u64;
    let header = us::Header {
        len_metadata: if format >= 22 { 0 } else { metadata_len as u32 },
        len_file: if format >= 22 { 0 } else { total as u32 },
        version: format,
        ofs_data: if format >= 22 { 0 } else { data_at as u32 },
        endianness: Some(u8::from(big)),
        reserved: Some(vec![0; 3]),
        wide: (format >= 22).then_some(us::HeaderWide {
            len_metadata: metadata_len as u32,
            len_file: total,
            ofs_data: data_at,
            unknown_0x28: 0,
        }),
    };
    let file = us::UnitySerialized {
        header,
        metadata: Some(metadata),
        pad_data: Some(vec![0; (data_at - header_len - metadata_len) as usize]),
        data: Some(data),
        old_data: None,
        old_endianness: None,
        old_metadata: None,
    };
    file.to_bytes(&Context::new())
        .expect("the serialized file writes")
}

// ---------------------------------------------------------------------------------------
// A file the editor saved for itself (an import cache in Library/metadata).

/// The fields the editor keeps before every object's own (EditorExtension, 2018.3 on), as its
/// type trees have them.
fn editor_header() -> Vec<T> {
    vec![
        prim("unsigned int", "m_ObjectHideFlags"),
        pptr("PPtr<EditorExtension>", "m_CorrespondingSourceObject"),
        pptr("PPtr<PrefabInstance>", "m_PrefabInstance"),
        pptr("PPtr<Prefab>", "m_PrefabAsset"),
    ]
}

/// `t` as the editor's type tree has it: the editor-only fields first; for the Mesh also
/// m_MeshOptimizationFlags after m_MeshMetrics, which carries the alignment in its place.
fn editor_tree(class: i32, t: &T) -> T {
    let mut e = t.clone();
    e.kids.splice(0..0, editor_header());
    if class == 43 {
        let at = e
            .kids
            .iter()
            .position(|k| k.name == "m_MeshMetrics[1]")
            .expect("the Mesh tree has m_MeshMetrics");
        e.kids[at].meta &= !ALIGN;
        e.kids
            .insert(at + 1, aligned(prim("int", "m_MeshOptimizationFlags")));
    }
    e
}

/// The scene as the editor saves it for itself: every object with the editor-only fields (hide
/// flags 8, NotEditable, and no prefab links, as in the real import caches), the meshes made
/// editor objects by the library's maker and written by the `unity-mesh` writer with
/// `unity_editor` set, their vertex data inline (the editor streams none).
fn editor_objects() -> (Vec<Obj>, Vec<(i32, T)>) {
    let mut res = vec![];
    let (objects, trees) = scene_objects(&mut res, "-", false, &|_| 0);
    let player = Context::new().with_param("unity_version", i128::from(VERSION_NUM));
    let editor = player.clone().with_param("unity_editor", 1);
    let header = strukt("EditorExtension", "Base", editor_header());
    let none = || ptr(0, 0);
    let header_value = V::R(vec![V::I(8), none(), none(), none()]);
    let objects = objects
        .into_iter()
        .map(|o| {
            let bytes = if o.class == 43 {
                let mut m = um::UnityMesh::from_bytes(&o.bytes, &player).expect("a mesh");
                if let Some(s) = m.stream_data.as_mut().filter(|s| s.len_data > 0) {
                    let start = s.ofs_data_u8.expect("2022.3: 64-bit offsets") as usize;
                    m.vertex_data.as_mut().expect("2022.3: vertex data").data =
                        make::bytes(res[start..start + s.len_data as usize].to_vec());
                    *s = um::StreamingInfo {
                        ofs_data_u4: None,
                        ofs_data_u8: Some(0),
                        len_data: 0,
                        path: make::string(""),
                    };
                }
                make::in_editor(m, VERSION_NUM)
                    .to_bytes(&editor)
                    .expect("the editor's mesh writes")
            } else {
                // The header's 40 bytes keep every alignment after them.
                let mut b = vec![];
                encode(&header, &header_value, false, &mut b);
                b.extend(o.bytes);
                b
            };
            Obj { bytes, ..o }
        })
        .collect();
    let trees = trees
        .iter()
        .map(|(c, t)| (*c, editor_tree(*c, t)))
        .collect();
    (objects, trees)
}

/// `file` (a serialized file the writer made) with its target platform set to `platform`,
/// read and written again by the generated reader and writer (the container's verdict judges
/// no object, so a file whose platform and type trees disagree is made by the tests, which
/// check that every mesh of it is refused).
fn with_platform(file: &[u8], platform: us::BuildTarget) -> Vec<u8> {
    let mut f = us::UnitySerialized::from_bytes(file, &Context::new()).expect("it reads");
    f.metadata.as_mut().expect("format 22").target_platform = Some(platform);
    f.to_bytes(&Context::new()).expect("it writes")
}

// ---------------------------------------------------------------------------------------
// Bundles.

#[derive(Clone, Copy)]
enum Pack {
    Stored,
    Lz4,
    Lzma,
}

fn compress(p: Pack, data: &[u8]) -> (Vec<u8>, u16) {
    match p {
        Pack::Stored => (data.to_vec(), 0),
        Pack::Lz4 => (lz4_flex::block::compress(data), 2),
        Pack::Lzma => {
            use liblzma::stream::{Action, LzmaOptions, Stream};
            let opts = LzmaOptions::new_preset(6).unwrap();
            let mut s = Stream::new_lzma_encoder(&opts).unwrap();
            let mut out = Vec::with_capacity(data.len() + 1024);
            s.process_vec(data, &mut out, Action::Finish).unwrap();
            // Unity keeps the properties byte and the dictionary size, not the size field.
            let mut unity = out[..5].to_vec();
            unity.extend_from_slice(&out[13..]);
            (unity, 1)
        }
    }
}

struct BundleSpec {
    format: u32,
    info: Pack,
    blocks: Pack,
    /// Bytes per storage block.
    chunk: usize,
    at_end: bool,
    pad_at_start: bool,
}

fn bundle(spec: &BundleSpec, files: &[(&str, u32, Vec<u8>)]) -> Vec<u8> {
    let mut data = vec![];
    let mut nodes = vec![];
    for (name, flags, bytes) in files {
        nodes.push(ub::Node {
            ofs_data: data.len() as i64,
            len_data: bytes.len() as i64,
            flags: *flags,
            path: (*name).into(),
        });
        data.extend_from_slice(bytes);
    }
    let mut blocks = vec![];
    let mut storage = vec![];
    for chunk in data.chunks(spec.chunk) {
        let (packed, method) = compress(spec.blocks, chunk);
        blocks.push(ub::StorageBlock {
            len_uncompressed: chunk.len() as u32,
            len_compressed: packed.len() as u32,
            flags: method | 0x40,
        });
        storage.extend(packed);
    }
    let info = ub::BlocksInfo {
        uncompressed_data_hash: vec![0; 16],
        num_blocks: blocks.len() as i32,
        blocks,
        num_nodes: nodes.len() as i32,
        nodes,
        pad: vec![],
    };
    let info_bytes = info.to_bytes(&Context::new()).unwrap();
    let (info_packed, info_method) = compress(spec.info, &info_bytes);
    let flags = u32::from(info_method)
        | 0x40
        | if spec.at_end { 0x80 } else { 0 }
        | if spec.pad_at_start { 0x200 } else { 0 };
    let mut header = ub::Header {
        version: spec.format,
        unity_version: "5.x.x".into(),
        unity_revision: VERSION.into(),
        len_file: 0,
        len_blocks_info_compressed: info_packed.len() as u32,
        len_blocks_info: info_bytes.len() as u32,
        flags,
    };
    let header_len = size_of(&header, ());
    let pad_header = (spec.format >= 7).then(|| vec![0; ((16 - header_len % 16) % 16) as usize]);
    let mut at = header_len + pad_header.as_ref().map_or(0, |p| p.len() as u64);
    if !spec.at_end {
        at += info_packed.len() as u64;
    }
    let pad_blocks_info = spec
        .pad_at_start
        .then(|| vec![0; ((16 - at % 16) % 16) as usize]);
    at += pad_blocks_info.as_ref().map_or(0, |p| p.len() as u64);
    let total = at
        + storage.len() as u64
        + if spec.at_end {
            info_packed.len() as u64
        } else {
            0
        };
    header.len_file = total as i64;
    let file = ub::UnityBundle {
        header,
        pad_header,
        blocks_info: (!spec.at_end).then(|| info_packed.clone()),
        pad_blocks_info,
        blocks: (!spec.at_end).then(|| storage.clone()),
        blocks_and_blocks_info: spec.at_end.then(|| {
            let mut v = storage.clone();
            v.extend_from_slice(&info_packed);
            v
        }),
    };
    file.to_bytes(&Context::new()).expect("the bundle writes")
}

/// A UnityWeb (`compressed`: LZMA in the `.lzma` form, by the library's compressor) or
/// UnityRaw (stored) bundle of format `format`, one level, holding `files` as Unity lays them
/// out: the directory padded to 4, each file starting on a multiple of 4.
fn web_bundle(compressed: bool, format: u32, files: &[(&str, &[u8])]) -> (Vec<u8>, Vec<u8>) {
    web_bundle_as(compressed, format, files, VERSION)
}

/// [`web_bundle`] claiming the editor version `version`.
fn web_bundle_as(
    compressed: bool,
    format: u32,
    files: &[(&str, &[u8])],
    version: &str,
) -> (Vec<u8>, Vec<u8>) {
    use meshspec_formats::unity::files::compress::{compress, Method};
    let mut entries: Vec<uw::FileEntry> = files
        .iter()
        .map(|(name, bytes)| uw::FileEntry {
            path: (*name).into(),
            ofs_data: 0,
            len_data: bytes.len() as u32,
        })
        .collect();
    let directory = 4 + entries.iter().map(|e| size_of(e, ())).sum::<u64>();
    let start = directory.div_ceil(4) * 4;
    let mut data = vec![];
    for (e, (_, bytes)) in entries.iter_mut().zip(files) {
        data.resize(data.len().div_ceil(4) * 4, 0);
        e.ofs_data = (start + data.len() as u64) as u32;
        data.extend_from_slice(bytes);
    }
    let payload = uw::Payload {
        num_files: entries.len() as i32,
        files: entries,
        pad_directory: vec![0; (start - directory) as usize],
        data,
    };
    let plain = payload
        .to_bytes(&Context::new())
        .expect("the payload writes");
    let method = if compressed {
        Method::LzmaAlone
    } else {
        Method::Stored
    };
    let packed = compress(method, &plain, None).expect("the payload compresses");
    let mut header = uw::Header {
        kind: if compressed {
            uw::Container::UNITY_WEB
        } else {
            uw::Container::UNITY_RAW
        },
        version: format,
        unity_version: "3.x.x".into(),
        unity_revision: version.into(),
        hash: (format >= 4).then(|| vec![0; 16]),
        crc: (format >= 4).then_some(0),
        minimum_streamed_bytes: 0,
        len_header: 0,
        num_levels_before_streaming: 1,
        num_levels: 1,
        levels: vec![uw::Level {
            len_compressed: packed.len() as u32,
            len_uncompressed: plain.len() as u32,
        }],
        len_file: (format >= 2).then_some(0),
        len_directory: (format >= 3).then_some(start as u32),
    };
    let fields = size_of(&header, ());
    header.len_header = (fields.div_ceil(4) * 4) as u32;
    let total = u64::from(header.len_header) + packed.len() as u64;
    header.minimum_streamed_bytes = total as u32;
    if let Some(len) = header.len_file.as_mut() {
        *len = total as u32;
    }
    let pad_header = vec![0; (u64::from(header.len_header) - fields) as usize];
    let file = uw::UnityWeb {
        header,
        pad_header,
        payload: packed,
    };
    (
        file.to_bytes(&Context::new()).expect("the bundle writes"),
        plain,
    )
}

// ---------------------------------------------------------------------------------------

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    println!("wrote {name} ({} bytes)", bytes.len());
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/unity");
    let bad = root.join("bad");
    std::fs::create_dir_all(&bad).unwrap();

    // A serialized file with type trees and its resource file beside it.
    let res_name = "game.unity-serialized.resS";
    let mut res = vec![];
    let (objects, trees) = scene_objects(&mut res, res_name, false, &|_| 0);
    let game = serialized(22, false, true, &objects, &trees, EXTERNALS);
    write(&root, "game.unity-serialized", &game);
    write(&root, res_name, &res);

    // The same objects without type trees: read by the fixed layouts of 2022.3.
    let notree = serialized(22, false, false, &objects, &trees, EXTERNALS);
    write(&root, "notree.unity-serialized", &notree);

    // The scene as the editor saves it for itself: target platform NoTarget, every object
    // with the editor-only fields in its type tree and its bytes.
    let (eobjects, etrees) = editor_objects();
    let editor = with_platform(
        &serialized(22, false, true, &eobjects, &etrees, EXTERNALS),
        us::BuildTarget::NO_TARGET,
    );
    write(&root, "editor.unity-serialized", &editor);

    // Big endian, format 11, nested type trees: a GameObject and a Transform.
    let (be_objects, be_trees) = scene_objects(&mut vec![], "", true, &|_| 0);
    let be: Vec<Obj> = be_objects
        .into_iter()
        .filter(|o| o.class == 1 || o.class == 4)
        .collect();
    write(
        &root,
        "big-endian.unity-serialized",
        &serialized(11, true, true, &be, &be_trees, EXTERNALS),
    );

    // Bundles: one CAB and its .resS.
    let cab = "CAB-0123456789abcdef0123456789abcdef";
    let cab_res = format!("archive:/{cab}/{cab}.resS");
    let mut bres = vec![];
    let (bobjects, btrees) = scene_objects(&mut bres, &cab_res, false, &|_| 0);
    let bcab = serialized(22, false, true, &bobjects, &btrees, EXTERNALS);
    let files = [(cab, 4u32, bcab), (&format!("{cab}.resS")[..], 0, bres)];
    let stored = BundleSpec {
        format: 6,
        info: Pack::Stored,
        blocks: Pack::Stored,
        chunk: 1 << 20,
        at_end: true,
        pad_at_start: false,
    };
    let lz4 = BundleSpec {
        format: 7,
        info: Pack::Lz4,
        blocks: Pack::Lz4,
        chunk: 2048,
        at_end: false,
        pad_at_start: false,
    };
    let lzma = BundleSpec {
        format: 8,
        info: Pack::Lz4,
        blocks: Pack::Lzma,
        chunk: 1 << 20,
        at_end: false,
        pad_at_start: true,
    };
    let stored_b = bundle(&stored, &files);
    let lz4_b = bundle(&lz4, &files);
    let lzma_b = bundle(&lzma, &files);
    write(&root, "stored.unity-bundle", &stored_b);
    write(&root, "lz4.unity-bundle", &lz4_b);
    write(&root, "lzma.unity-bundle", &lzma_b);

    // The older containers, each wrapping the serialized file above and its resource file:
    // UnityWeb of format 3 (as Unity 3.5 to 4.x wrote it), UnityRaw of format 4 (with the
    // hash and CRC of the 5.2 alphas), and the UnityWeb bundle's decompressed payload.
    let held: [(&str, &[u8]); 2] = [("game.unity-serialized", &game), (res_name, &res)];
    let (web, web_payload) = web_bundle(true, 3, &held);
    let (raw, _) = web_bundle(false, 4, &held);
    write(&root, "web.unity-web", &web);
    write(&root, "raw.unity-web", &raw);
    write(&root, "web.unity-web-payload", &web_payload);
    // Cut inside the header (in the level table).
    write(&bad, "truncated-header.unity-web", &web[..48]);
    // The last file's size grown past the payload's end (UnityRaw: stored, so the
    // directory is edited in place).
    let mut past = uw::UnityWeb::from_bytes(&raw, &Context::new()).unwrap();
    let mut dir = uw::Payload::from_bytes(&past.payload, &Context::new()).unwrap();
    dir.files.last_mut().unwrap().len_data += 4096;
    past.payload = dir.to_bytes(&Context::new()).unwrap();
    let past = past.to_bytes(&Context::new()).unwrap();
    assert_eq!(past.len(), raw.len(), "the directory keeps its size");
    write(&bad, "file-past-data.unity-web", &past);
    // A level whose decompressed size is past what the reader allows for a file this size.
    let mut huge = uw::UnityWeb::from_bytes(&web, &Context::new()).unwrap();
    huge.header.levels[0].len_uncompressed = 0xFFFF_FF00;
    write(
        &bad,
        "huge-level.unity-web",
        &huge.to_bytes(&Context::new()).unwrap(),
    );
    // A player build packed in one bundle, as a WebGL build's data.unity3d: the scene in
    // level0 (GameObjects, Transforms, renderers), the meshes and materials in
    // sharedassets0.assets, which level0 names as its first external file, and the streamed
    // vertex data in sharedassets0.assets.resS.
    let shared = |id: i64| id >= 100 || id == 20 || id == 21;
    let mut pres = vec![];
    let (pobjects, ptrees) = scene_objects(&mut pres, "sharedassets0.assets.resS", false, &|id| {
        i32::from(shared(id))
    });
    let (assets, scene): (Vec<Obj>, Vec<Obj>) =
        pobjects.into_iter().partition(|o| shared(o.path_id));
    let level0 = serialized(
        22,
        false,
        true,
        &scene,
        &ptrees,
        &["sharedassets0.assets", "Library/unity default resources"],
    );
    let assets = serialized(22, false, true, &assets, &ptrees, EXTERNALS);
    let player = bundle(
        &lz4,
        &[
            ("level0", 4, level0),
            ("sharedassets0.assets", 4, assets),
            ("sharedassets0.assets.resS", 0, pres),
        ],
    );
    write(&root, "player.unity-bundle", &player);

    // Unity 3.4: a player's serialized file of format 8 (no type trees, the metadata at the
    // end) holding the three meshes of separate arrays; a Web Player file (UnityWeb format 2)
    // holding it as sharedassets0.assets beside an assembly; a big-endian one of format 8 with
    // nested type trees (the GameObjects and Transforms).
    let old = serialized_as(
        8,
        false,
        false,
        &old_objects(old_meshes()),
        &[],
        &[],
        OLD_VERSION,
    );
    write(&root, "old.unity-serialized", &old);
    let assembly = b"MZ\x90\0 not an assembly, only where one would be".to_vec();
    let (old_web, _) = web_bundle_as(
        true,
        2,
        &[
            ("Assembly-CSharp.dll", &assembly),
            ("sharedassets0.assets", &old),
        ],
        OLD_VERSION,
    );
    write(&root, "old.unity-web", &old_web);
    write(
        &root,
        "big-endian-old.unity-serialized",
        &serialized_as(8, true, true, &be, &be_trees, EXTERNALS, OLD_VERSION),
    );
    // Must-refuse: Quad34 with three normals for its four positions (arrays_per_vertex)...
    let mut short = old_meshes();
    let quad = &mut short[0].1;
    quad.normals.as_mut().unwrap().pop();
    quad.num_normals = Some(3);
    write(
        &bad,
        "arrays-per-vertex.assets",
        &serialized_as(8, false, false, &old_objects(short), &[], &[], OLD_VERSION),
    );
    // ... and a Web Player file whose only serialized file is of format 4 (Unity 1.x), which
    // meshspec does not read: refused, not listed empty.
    let mut older = old.clone();
    older[8..12].copy_from_slice(&4u32.to_be_bytes());
    let (no_serialized, _) = web_bundle_as(
        true,
        2,
        &[("Assembly-CSharp.dll", &assembly), ("mainData", &older)],
        OLD_VERSION,
    );
    write(&bad, "no-serialized-file.unity-web", &no_serialized);

    // Must-refuse files, each breaking one rule.
    let mut sig = lz4_b.clone();
    sig[0] = b'u';
    write(&bad, "signature.unity-bundle", &sig);
    // The blocks info cut short: its compressed size says 10 more bytes than the file has
    // after the header (the blocks are what is left).
    let mut short = lz4_b.clone();
    short.truncate(48 + 20);
    write(&bad, "truncated-blocks-info.unity-bundle", &short);
    // A corrupt LZ4 block: the first storage block's first byte (its token) flipped.
    let mut lz = lz4_b.clone();
    let first_block = lz4_blocks_at(&lz4_b);
    lz[first_block] ^= 0xFF;
    lz[first_block + 1] ^= 0xFF;
    write(&bad, "corrupt-lz4.unity-bundle", &lz);
    // A corrupt LZMA block: bytes in the middle of the stream flipped.
    let mut xz = lzma_b.clone();
    let n = xz.len();
    for b in &mut xz[n - 200..n - 100] {
        *b ^= 0xA5;
    }
    write(&bad, "corrupt-lzma.unity-bundle", &xz);
    // A serialized object whose range runs past the data: the last object's size grown.
    let mut outside = game.clone();
    let last = last_object_size_at(&game);
    let size = u32::from_le_bytes(outside[last..last + 4].try_into().unwrap());
    outside[last..last + 4].copy_from_slice(&(size + 4096).to_le_bytes());
    write(&bad, "object-outside-data.unity-serialized", &outside);
    // A type tree name offset past its string buffer.
    let mut strings = game.clone();
    let at = first_local_name_offset(&game);
    strings[at..at + 4].copy_from_slice(&0x7FFF_0000u32.to_le_bytes());
    write(&bad, "string-offset.unity-serialized", &strings);
}

/// Where the first storage block starts in the LZ4 bundle, as its reader records it.
fn lz4_blocks_at(b: &[u8]) -> usize {
    let read = ub::UnityBundle::read::<true>(b, &Context::new()).unwrap();
    read.pos.unwrap().blocks.unwrap().start as usize
}

/// Where the last object's byte_size is in the table of a serialized file, as its reader
/// records it.
fn last_object_size_at(f: &[u8]) -> usize {
    let read = us::UnitySerialized::read::<true>(f, &Context::new()).unwrap();
    let objects = &read.value.metadata.as_ref().unwrap().objects;
    let last = (0..objects.len())
        .max_by_key(|&i| objects[i].byte_start_u8.unwrap_or(0))
        .unwrap();
    read.pos.unwrap().metadata.unwrap().objects.items[last]
        .byte_size
        .start as usize
}

/// Where, in the first type's tree, the first name offset that points into the string buffer
/// (not a common string) is, as the reader records it.
fn first_local_name_offset(f: &[u8]) -> usize {
    let read = us::UnitySerialized::read::<true>(f, &Context::new()).unwrap();
    let tt = read.value.metadata.as_ref().unwrap().types[0]
        .type_tree
        .as_ref()
        .unwrap();
    let j = tt
        .nodes
        .iter()
        .position(|n| n.ofs_name.0 & 0x8000_0000 == 0)
        .unwrap();
    let pos = read.pos.unwrap();
    let nodes = &pos.metadata.as_ref().unwrap().types.items[0]
        .type_tree
        .as_ref()
        .unwrap()
        .nodes;
    nodes.items[j].ofs_name.start as usize
}

/// The bytes a value takes, as the generated writer records it (the files are made here, so
/// their parts are measured by writing them).
fn size_of<T: Codec>(v: &T, args: T::Args) -> u64 {
    let mut out = Output::default();
    v.write_out::<true>(&mut out, args)
        .expect("the part writes")
        .map_or(0, |p| p.span().len())
}
