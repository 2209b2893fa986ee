//! Where each part of an SWS Mesh body lies, computed from the values as the spec lays them out,
//! so that a violated relation can name its byte offset. Every size here is the size the
//! generated writer produces (a unit test compares them on the whole corpus).

use crate::generated::sws_mesh::{
    CompiledMesh, DrawRange, Float2, Float2Run, Float3, Float3Run, MeshBone, MorphChannel, Palette,
    PaletteBlock, Submesh, SwsMesh, U16Run, U32Run, U8Run, UvChannel,
};

fn run(count: usize, elem: u64) -> u64 {
    4 + count as u64 * elem
}

pub fn u8_run(r: &U8Run) -> u64 {
    run(r.items.len(), 1)
}
pub fn u16_run(r: &U16Run) -> u64 {
    run(r.items.len(), 2)
}
pub fn u32_run(r: &U32Run) -> u64 {
    run(r.items.len(), 4)
}
pub fn float2_run(r: &Float2Run) -> u64 {
    run(r.items.len(), Float2::FIXED_SIZE)
}
pub fn float3_run(r: &Float3Run) -> u64 {
    run(r.items.len(), Float3::FIXED_SIZE)
}

/// Offsets inside a UVChannel, from its first byte.
#[derive(Debug, Clone, Copy)]
pub struct UvChannelAt {
    pub uvs: u64,
    pub source: u64,
    pub end: u64,
}

pub fn uv_channel(c: &UvChannel) -> UvChannelAt {
    let uvs = UvChannel::OFFSET_UVS;
    let source = uvs + float2_run(&c.uvs);
    UvChannelAt {
        uvs,
        source,
        end: source + u32_run(&c.source),
    }
}

/// Offsets inside a MorphChannel, from its first byte.
#[derive(Debug, Clone, Copy)]
pub struct MorphChannelAt {
    pub positions: u64,
    pub normals: u64,
    pub uvs: u64,
    pub end: u64,
}

pub fn morph_channel(c: &MorphChannel) -> MorphChannelAt {
    let positions = MorphChannel::OFFSET_POSITIONS;
    let normals = positions + float3_run(&c.positions);
    let uvs = normals + float3_run(&c.normals);
    MorphChannelAt {
        positions,
        normals,
        uvs,
        end: uvs + float2_run(&c.uvs),
    }
}

/// Offsets inside a SubMesh, from its managed byte.
#[derive(Debug, Clone, Default)]
pub struct SubmeshAt {
    pub indices: u64,
    pub source_vertices: u64,
    pub face_words: u64,
    pub face_bytes: u64,
    pub positions: u64,
    pub normals: u64,
    pub tangents: u64,
    pub binormals: u64,
    pub colours: u64,
    pub vertex_words_a: u64,
    pub vertex_words_b: u64,
    pub vertex_words_c: u64,
    pub uv_channels: u64,
    /// Each UV channel's first byte.
    pub uv_channel: Vec<u64>,
    pub morph_channels: u64,
    /// Each MorphChannel's first byte.
    pub morph_channel: Vec<u64>,
    pub has_morphs: u64,
    pub material_id: u64,
    pub copy: u64,
    /// The copy's managed byte, when it has one.
    pub copy_submesh: u64,
    pub end: u64,
}

pub fn submesh(s: &Submesh) -> SubmeshAt {
    let mut at = SubmeshAt {
        indices: Submesh::OFFSET_INDICES,
        ..SubmeshAt::default()
    };
    at.source_vertices = at.indices + u16_run(&s.indices);
    at.face_words = at.source_vertices + u32_run(&s.source_vertices) + 4;
    at.face_bytes = at.face_words + u32_run(&s.face_words);
    at.positions = at.face_bytes + u8_run(&s.face_bytes);
    at.normals = at.positions + float3_run(&s.positions);
    at.tangents = at.normals + float3_run(&s.normals);
    at.binormals = at.tangents + float3_run(&s.tangents);
    at.colours = at.binormals + float3_run(&s.binormals);
    at.vertex_words_a = at.colours + u32_run(&s.colours);
    at.vertex_words_b = at.vertex_words_a + u32_run(&s.vertex_words_a);
    // The first empty run's count, then the third run of vertex words.
    at.vertex_words_c = at.vertex_words_b + u32_run(&s.vertex_words_b) + 4;
    // Two more empty runs' counts.
    at.uv_channels = at.vertex_words_c + u32_run(&s.vertex_words_c) + 8;
    let mut p = at.uv_channels + 4;
    for c in &s.uv_channels.items {
        at.uv_channel.push(p);
        p += uv_channel(c).end;
    }
    // The word after the UV channels.
    at.morph_channels = p + 4;
    let mut p = at.morph_channels + 4;
    for c in &s.morph_channels.items {
        at.morph_channel.push(p);
        p += morph_channel(c).end;
    }
    at.has_morphs = p;
    at.material_id = at.has_morphs + 1;
    // Two unknown bytes, then the copy pointer's tag.
    at.copy = at.material_id + 4 + 2;
    at.copy_submesh = at.copy + 1;
    let copy_len = match &s.copy.submesh {
        Some(c) => submesh(c).end,
        None => 0,
    };
    at.end = at.copy_submesh + copy_len + 4;
    at
}

/// Offsets inside a palette block, from its first byte: each palette's first byte.
pub fn palettes(b: &PaletteBlock) -> Vec<u64> {
    let mut out = Vec::with_capacity(b.palettes.len());
    let mut p = 0;
    for pal in &b.palettes {
        out.push(p);
        p += Palette::OFFSET_BONES + pal.bones.len() as u64;
    }
    out
}

/// Offsets inside the CompiledMesh data, from its first byte.
#[derive(Debug, Clone, Default)]
pub struct CompiledAt {
    pub indices: u64,
    pub ranges_a: u64,
    pub ranges_b: u64,
    pub palettes: u64,
    pub end: u64,
}

pub fn compiled(c: &CompiledMesh) -> CompiledAt {
    let streams: u64 = c
        .vertex_streams
        .iter()
        .map(|s| s.vertices.iter().map(|v| v.len() as u64).sum::<u64>())
        .sum();
    let indices = CompiledMesh::OFFSET_VERTEX_STREAMS + streams;
    let ranges_a = indices + 2 * c.indices.items.len() as u64;
    let ranges_b = ranges_a + DrawRange::FIXED_SIZE * c.ranges_a.len() as u64;
    let palettes_at = ranges_b + DrawRange::FIXED_SIZE * c.ranges_b.len() as u64;
    let block: u64 = palettes(&c.palettes)
        .last()
        .zip(c.palettes.palettes.last())
        .map(|(at, p)| at + Palette::OFFSET_BONES + p.bones.len() as u64)
        .unwrap_or(0)
        + c.palettes.rest.len() as u64;
    CompiledAt {
        indices,
        ranges_a,
        ranges_b,
        palettes: palettes_at,
        end: palettes_at + block,
    }
}

/// Offsets inside a Mesh body, from its managed byte.
#[derive(Debug, Clone, Default)]
pub struct MeshAt {
    /// Each SubMesh's managed byte (after its pointer tag).
    pub submesh: Vec<u64>,
    pub num_bones: u64,
    pub bones: u64,
    pub data: u64,
    pub num_materials: u64,
    pub material_ids: u64,
    pub end: u64,
}

pub fn mesh(m: &SwsMesh) -> MeshAt {
    let mut at = MeshAt::default();
    let mut p = SwsMesh::OFFSET_SUBMESHES;
    for s in &m.submeshes {
        at.submesh.push(p + 1);
        p += 1 + submesh(&s.submesh).end;
    }
    at.num_bones = p;
    at.bones = p + 4;
    // The unknown bytes, then the CompiledMesh class and the data length (u32 each).
    at.data = at.bones
        + MeshBone::FIXED_SIZE * m.bones.len() as u64
        + m.unknown_after_bones.len() as u64
        + 4
        + 4;
    // PlatformVersion and SDKVersion (u32 each) come between the data and the material count.
    at.num_materials = at.data + compiled(&m.data).end + 4 + 4;
    at.material_ids = at.num_materials + 4;
    at.end = at.material_ids + 4 * m.material_ids.len() as u64;
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::rt::{Codec, Root};

    fn written<T: Codec<Args = ()>>(v: &T) -> u64 {
        {
            let mut o = crate::rt::Output::default();
            v.write_out::<false>(&mut o, ()).unwrap();
            o.pos()
        }
    }

    fn u32_at(b: &[u8], at: u64) -> u32 {
        let at = at as usize;
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    /// Checks a SubMesh's offsets against the writer and against the bytes it was read from.
    fn check_submesh(s: &Submesh, bytes: &[u8], base: u64) {
        let at = submesh(s);
        assert_eq!(at.end, written(s));
        assert_eq!(u32_at(bytes, base + at.material_id), s.material_id);
        assert_eq!(bytes[(base + at.has_morphs) as usize], s.has_morphs);
        assert_eq!(bytes[(base + at.copy) as usize], s.copy.tag);
        assert_eq!(
            u32_at(bytes, base + at.positions) as usize,
            s.positions.items.len()
        );
        assert_eq!(
            u32_at(bytes, base + at.vertex_words_c) as usize,
            s.vertex_words_c.items.len()
        );
        assert_eq!(
            u32_at(bytes, base + at.morph_channels) as usize,
            s.morph_channels.items.len()
        );
        for (c, &p) in s.uv_channels.items.iter().zip(&at.uv_channel) {
            assert_eq!(uv_channel(c).end, written(c));
            assert_eq!(u32_at(bytes, base + p + 4), c.class);
        }
        for (c, &p) in s.morph_channels.items.iter().zip(&at.morph_channel) {
            assert_eq!(morph_channel(c).end, written(c));
            assert_eq!(u32_at(bytes, base + p), c.id);
        }
        if let Some(copy) = &s.copy.submesh {
            check_submesh(copy, bytes, base + at.copy_submesh);
        }
    }

    #[test]
    fn offsets_agree_with_the_writer_and_the_bytes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/sws");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if !path.is_file() {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            match path.extension().and_then(|x| x.to_str()) {
                Some("sws-mesh") => {
                    let m = SwsMesh::from_bytes(&bytes, &Context::new()).unwrap();
                    let at = mesh(&m);
                    assert_eq!(at.end, bytes.len() as u64, "{}", path.display());
                    assert_eq!(compiled(&m.data).end, u64::from(m.len_data));
                    assert_eq!(u32_at(&bytes, at.num_bones) as usize, m.bones.len());
                    assert_eq!(u32_at(&bytes, at.data), 16, "the compiled version");
                    assert_eq!(
                        u32_at(&bytes, at.num_materials) as usize,
                        m.material_ids.len()
                    );
                    let c = compiled(&m.data);
                    for (i, r) in m.data.ranges_b.iter().enumerate() {
                        let r_at = at.data + c.ranges_b + DrawRange::FIXED_SIZE * i as u64;
                        assert_eq!(
                            u32_at(&bytes, r_at + DrawRange::OFFSET_FIRST_INDEX),
                            r.first_index
                        );
                    }
                    for (p, pal) in palettes(&m.data.palettes)
                        .iter()
                        .zip(&m.data.palettes.palettes)
                    {
                        assert_eq!(bytes[(at.data + c.palettes + p) as usize], 3);
                        assert_eq!(
                            bytes[(at.data + c.palettes + p + 2) as usize],
                            pal.num_bones
                        );
                    }
                    for (s, &base) in m.submeshes.iter().zip(&at.submesh) {
                        check_submesh(&s.submesh, &bytes, base);
                    }
                    n += 1;
                }
                Some("sws-submesh") => {
                    let s = Submesh::from_bytes(&bytes, &Context::new()).unwrap();
                    assert_eq!(submesh(&s).end, bytes.len() as u64);
                    check_submesh(&s, &bytes, 0);
                    n += 1;
                }
                _ => {}
            }
        }
        assert!(n >= 8, "only {n} files");
    }
}
