//! The index buffer and the submeshes that cut it into runs.
//!
//! Indices are 16-bit (`m_IndexFormat` 0) or 32-bit (1), or the packed integers of a
//! compressed mesh's `m_Triangles`. A submesh is `firstByte` (a byte offset into the index
//! buffer, counted in the stored index size also for packed indices), `indexCount`,
//! `topology` and `baseVertex`, which is added to every index of the submesh.

use super::{fail, RawMesh, P};
use crate::rt::{ErrorKind, Result};

/// How a submesh's indices are joined (`MeshTopology`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    /// 0: each three indices a triangle.
    Triangles,
    /// 1: the triangle strip of older versions: each index after the second makes a
    /// triangle with the two before it.
    Strip,
    /// 2: each four indices a quad, drawn as two triangles (a, b, c) and (a, c, d).
    Quads,
    /// 3: each two indices a line.
    Lines,
    /// 4: each consecutive pair of indices a line.
    LineStrip,
    /// 5: each index a point.
    Points,
}

impl Topology {
    /// The topology of an id, if it names one.
    pub fn from_id(id: u32) -> Option<Self> {
        Some(match id {
            0 => Topology::Triangles,
            1 => Topology::Strip,
            2 => Topology::Quads,
            3 => Topology::Lines,
            4 => Topology::LineStrip,
            5 => Topology::Points,
            _ => return None,
        })
    }

    /// The id `m_SubMeshes` stores.
    pub fn id(self) -> u32 {
        match self {
            Topology::Triangles => 0,
            Topology::Strip => 1,
            Topology::Quads => 2,
            Topology::Lines => 3,
            Topology::LineStrip => 4,
            Topology::Points => 5,
        }
    }

    /// How many indices one primitive of the topology takes, if the count must be a
    /// multiple of it.
    fn unit(self) -> Option<usize> {
        match self {
            Topology::Triangles => Some(3),
            Topology::Quads => Some(4),
            Topology::Lines => Some(2),
            Topology::Strip | Topology::LineStrip | Topology::Points => None,
        }
    }
}

/// A submesh: a run of the index buffer, its indices decoded with the base vertex added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubMesh {
    /// Byte offset of its first index in the index buffer.
    pub first_byte: u32,
    /// The number of indices.
    pub index_count: u32,
    /// How the indices are joined.
    pub topology: Topology,
    /// The value added to every stored index.
    pub base_vertex: u32,
    /// The first vertex it uses.
    pub first_vertex: u32,
    /// The number of vertices it uses.
    pub vertex_count: u32,
    /// Its indices into the mesh's vertices (stored index plus base vertex), in stored
    /// order, each checked to name a vertex.
    pub indices: Vec<u32>,
}

impl SubMesh {
    /// The triangles it draws, in Unity's winding (clockwise in front): triangles as stored,
    /// quads as (a, b, c) and (a, c, d), strips with every second triangle's first two
    /// corners swapped to keep their facing and degenerate triangles (two equal corners)
    /// left out. Empty for lines and points.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        let ix = &self.indices;
        match self.topology {
            Topology::Triangles => ix.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
            Topology::Quads => ix
                .chunks_exact(4)
                .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
                .collect(),
            Topology::Strip => ix
                .windows(3)
                .enumerate()
                .filter(|(_, w)| w[0] != w[1] && w[1] != w[2] && w[0] != w[2])
                .map(|(i, w)| {
                    if i % 2 == 0 {
                        [w[0], w[1], w[2]]
                    } else {
                        [w[1], w[0], w[2]]
                    }
                })
                .collect(),
            Topology::Lines | Topology::LineStrip | Topology::Points => vec![],
        }
    }
}

/// Decodes every submesh's indices, checking each against the buffer and the vertex count.
pub(crate) fn decode(raw: &RawMesh, vertex_count: usize) -> Result<Vec<SubMesh>> {
    let size: usize = match raw.index_format {
        0 => 2,
        1 => 4,
        other => {
            return Err(fail(
                ErrorKind::Unsupported,
                None,
                &[P::F("m_IndexFormat")],
                "0 (16-bit indices) or 1 (32-bit)",
                other.to_string(),
            ))
        }
    };
    let packed = raw.compressed.triangles.num_items > 0;
    if packed && !raw.index_buffer.is_empty() {
        return Err(fail(
            ErrorKind::Inconsistent,
            None,
            &[P::F("m_IndexBuffer")],
            "no index buffer in a mesh whose m_CompressedMesh.m_Triangles holds the indices",
            format!(
                "{} bytes and {} packed indices",
                raw.index_buffer.len(),
                raw.compressed.triangles.num_items
            ),
        ));
    }
    // Every index the buffer holds, then each submesh's run of them.
    let all: Vec<u32> = if packed {
        super::packed::unpack_ints(&raw.compressed.triangles, "m_Triangles")?
    } else if size == 2 {
        raw.index_buffer
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
            .collect()
    } else {
        raw.index_buffer
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    // The byte offset (in the caller's input) of index `k` of `all`.
    let where_is = |k: usize| -> u64 {
        if packed {
            let t = &raw.compressed.triangles;
            t.data_offset
                .saturating_add((k as u64).saturating_mul(u64::from(t.bit_size)) / 8)
        } else {
            raw.index_buffer_offset
                .saturating_add((k as u64).saturating_mul(size as u64))
        }
    };
    let p_packed = [P::F("m_CompressedMesh"), P::F("m_Triangles")];
    let p_buffer = [P::F("m_IndexBuffer")];
    let ipath: &[P] = if packed { &p_packed } else { &p_buffer };
    let mut out = Vec::with_capacity(raw.submeshes.len());
    for (i, s) in raw.submeshes.iter().enumerate() {
        let path = |f: &'static str| [P::F("m_SubMeshes"), P::I(i), P::F(f)];
        let topology = Topology::from_id(s.topology).ok_or_else(|| {
            fail(
                ErrorKind::Unsupported,
                None,
                &path("topology"),
                "a topology id 0 to 5",
                s.topology.to_string(),
            )
        })?;
        let end_vertex = u64::from(s.first_vertex) + u64::from(s.vertex_count);
        if end_vertex > vertex_count as u64 {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &path("vertexCount"),
                format!(
                    "firstVertex {} + vertexCount within the mesh's {vertex_count} vertices",
                    s.first_vertex
                ),
                s.vertex_count.to_string(),
            ));
        }
        let count = s.index_count as usize;
        if let Some(unit) = topology.unit() {
            if count % unit != 0 {
                return Err(fail(
                    ErrorKind::Inconsistent,
                    None,
                    &path("indexCount"),
                    format!("a multiple of {unit} for {topology:?}"),
                    count.to_string(),
                ));
            }
        }
        let mut indices = Vec::new();
        if count > 0 {
            let first_byte = s.first_byte as usize;
            if first_byte % size != 0 {
                return Err(fail(
                    ErrorKind::Offset,
                    Some(
                        raw.index_buffer_offset
                            .saturating_add(u64::from(s.first_byte)),
                    ),
                    &path("firstByte"),
                    format!("a multiple of the index size ({size} bytes)"),
                    s.first_byte.to_string(),
                ));
            }
            let first = first_byte / size;
            let Some(run) = first.checked_add(count).and_then(|end| all.get(first..end)) else {
                return Err(fail(
                    ErrorKind::Count,
                    Some(raw.index_buffer_offset.saturating_add(u64::from(s.first_byte))),
                    &path("indexCount"),
                    format!(
                        "{count} indices of {size} bytes from byte {first_byte} within the index buffer"
                    ),
                    if packed {
                        format!("{} packed indices", all.len())
                    } else {
                        format!("{} bytes", raw.index_buffer.len())
                    },
                ));
            };
            indices.reserve_exact(run.len());
            for (j, &stored) in run.iter().enumerate() {
                let ix = stored.checked_add(s.base_vertex);
                match ix {
                    Some(v) if (v as usize) < vertex_count => indices.push(v),
                    _ => {
                        return Err(fail(
                            ErrorKind::Inconsistent,
                            Some(where_is(first + j)),
                            ipath,
                            format!(
                                "an index naming one of the {vertex_count} vertices (submesh {i}, index {j})"
                            ),
                            format!(
                                "{} ({stored} + baseVertex {})",
                                u64::from(stored) + u64::from(s.base_vertex),
                                s.base_vertex
                            ),
                        ))
                    }
                }
            }
        }
        out.push(SubMesh {
            first_byte: s.first_byte,
            index_count: s.index_count,
            topology,
            base_vertex: s.base_vertex,
            first_vertex: s.first_vertex,
            vertex_count: s.vertex_count,
            indices,
        });
    }
    Ok(out)
}
