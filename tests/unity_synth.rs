//! Unity Mesh objects made in the tests: the owned generated type filled field by field (the
//! values written here with explicit `to_le_bytes`, worked out by hand or from the documents'
//! formulas), written by the project's own writer, and judged and decoded through the layout
//! table as every command does.

#![allow(dead_code)]

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_mesh::{
    ChannelInfo, IndexFormat, Matrix4x4f, SubMesh, Topology, UnityMesh, UnityMeshPos,
};
use meshspec_formats::rt::Root;
use meshspec_formats::unity::decode::UnityMeshData;
use meshspec_formats::unity::make;
use meshspec_formats::verdict::Verdict;
use meshspec_formats::{find, Entry};

/// The editor version the made objects are written for.
pub const VERSION: &str = "2021.3.0f1";

/// The context of [`VERSION`].
pub fn ctx() -> Context {
    Context::new().with_unity_version(VERSION).unwrap()
}

/// The layout's entry.
pub fn entry() -> &'static Entry {
    find("unity-mesh").expect("the layout is registered")
}

/// One entry of the channel table.
pub fn ch(stream: u8, offset: u8, format: u8, dimension: u8) -> ChannelInfo {
    make::channel(stream, offset, format, dimension)
}

/// A 14-entry channel table with the given slots filled.
pub fn table(entries: &[(usize, ChannelInfo)]) -> Vec<ChannelInfo> {
    let mut t = vec![ch(0, 0, 0, 0); 14];
    for (slot, c) in entries {
        t[*slot] = c.clone();
    }
    t
}

/// A mesh of `vc` vertices with the channel table and vertex bytes given, nothing else.
pub fn mesh(name: &str, vc: u32, channels: Vec<ChannelInfo>, data: Vec<u8>) -> UnityMesh {
    let mut m = make::empty(name, 20210300);
    m.vertex_data.as_mut().unwrap().vertex_count = vc;
    m.vertex_data.as_mut().unwrap().num_channels = Some(channels.len() as i32);
    m.vertex_data.as_mut().unwrap().channels = Some(channels);
    m.vertex_data.as_mut().unwrap().data = make::bytes(data);
    m
}

/// The index buffer of 16-bit indices (`m_IndexFormat` 0).
pub fn indices16(m: &mut UnityMesh, ix: &[u16]) {
    m.index_format = Some(IndexFormat::UINT16);
    m.index_buffer = make::indices16(ix);
}

/// The index buffer of 32-bit indices (`m_IndexFormat` 1).
pub fn indices32(m: &mut UnityMesh, ix: &[u32]) {
    m.index_format = Some(IndexFormat::UINT32);
    m.index_buffer = make::indices32(ix);
}

/// A submesh.
pub fn submesh(
    first_byte: u32,
    index_count: u32,
    topology: i32,
    base_vertex: u32,
    first_vertex: u32,
    vertex_count: u32,
) -> SubMesh {
    SubMesh {
        first_byte,
        index_count,
        topology: Some(Topology(topology)),
        is_tri_strip: None,
        triangle_count: None,
        base_vertex: Some(base_vertex),
        first_vertex,
        vertex_count,
        local_aabb: make::no_box(),
    }
}

/// Sets the submeshes (and their count).
pub fn submeshes(m: &mut UnityMesh, subs: Vec<SubMesh>) {
    m.num_sub_meshes = subs.len() as i32;
    m.sub_meshes = subs;
}

/// The identity matrix, row-major.
pub fn identity() -> [f32; 16] {
    [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

/// Sets the bind poses (and their count).
pub fn bind_poses(m: &mut UnityMesh, poses: &[[f32; 16]]) {
    m.num_bind_poses = Some(poses.len() as i32);
    m.bind_poses = Some(poses.iter().map(|p| Matrix4x4f { e: p.to_vec() }).collect());
}

/// The bytes the project's writer makes of `m` (read back identically, or a panic).
pub fn bytes(m: &UnityMesh) -> Vec<u8> {
    bytes_with(m, &ctx())
}

/// [`bytes`] with another context.
pub fn bytes_with(m: &UnityMesh, ctx: &Context) -> Vec<u8> {
    let b = m.to_bytes(ctx).expect("the writer writes it");
    assert_eq!(
        UnityMesh::from_bytes(&b, ctx)
            .expect("it reads back")
            .to_bytes(ctx)
            .unwrap(),
        b
    );
    b
}

/// The verdict on `m`'s bytes.
pub fn verdict(m: &UnityMesh) -> Verdict {
    entry().judge(&bytes(m), &ctx())
}

/// The mesh decoded in Unity's frame (the verdict's first failure when it does not pass).
pub fn decoded(m: &UnityMesh) -> meshspec_formats::Result<UnityMeshData> {
    decoded_with(m, &ctx())
}

/// [`decode`] with another context.
pub fn decoded_with(m: &UnityMesh, ctx: &Context) -> meshspec_formats::Result<UnityMeshData> {
    meshspec_formats::unity::mesh_data(&bytes_with(m, ctx), ctx)
}

/// Where every field of `m`'s bytes lies.
pub fn positions(m: &UnityMesh) -> UnityMeshPos {
    let b = bytes(m);
    UnityMesh::read::<true>(&b, &ctx())
        .unwrap()
        .pos
        .expect("read located")
}

/// Every finding of a verdict as a line: its severity, then the error.
pub fn lines(v: &Verdict) -> Vec<String> {
    v.refused
        .iter()
        .map(|e| format!("refused: {e}"))
        .chain(v.findings.iter().map(|e| format!("{}: {e}", e.severity)))
        .collect()
}

/// The little-endian bytes of floats.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The little-endian bytes of 16-bit values.
pub fn u16_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The little-endian bytes of 32-bit values.
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Packs items of `bits` bits, the first item in the lowest bits of the first byte (a bit
/// writer of its own, written from the document's description).
pub fn pack(items: &[u32], bits: u32) -> Vec<u8> {
    let total = items.len() * bits as usize;
    let mut out = vec![0u8; total.div_ceil(8)];
    let mut pos = 0usize;
    for &item in items {
        for b in 0..bits {
            if (item >> b) & 1 == 1 {
                out[pos / 8] |= 1 << (pos % 8);
            }
            pos += 1;
        }
    }
    out
}

/// Positions `x = i` along a line: a Float3 Vertex channel for `n` vertices.
pub fn line_positions(n: usize) -> Vec<u8> {
    let mut v = vec![];
    for i in 0..n {
        v.extend_from_slice(&f32_bytes(&[i as f32, 0.0, 0.0]));
    }
    v
}
