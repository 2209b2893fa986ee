//! The index buffer and the submeshes that cut it into runs.
//!
//! Indices are 16-bit (`m_IndexFormat` 0) or 32-bit (1), or the packed integers of a
//! compressed mesh's `m_Triangles`. A submesh is `firstByte` (a byte offset into the index
//! buffer, counted in the stored index size also for packed indices), `indexCount`,
//! `topology` and `baseVertex`, which is added to every index of the submesh.

use super::compressed::judge_triangles;
use super::packed::{unpack_ints, Packed, PackedAt};
use super::{needs, needs_at};
use crate::generated::unity_mesh::{
    CompressedMeshPlace, IndexBufferPlace, IndexRunPlace, IndexRunPos, IndexRunRef,
    SubMesh as StoredSubMesh, SubMeshPlace, UnityMesh, UnityMeshPlace, UnityMeshPos, UnityMeshRef,
};
use crate::rt::{Error, ErrorKind, Nums, Path, Place, Span, Strided};
use crate::verdict::Judge;

/// How a submesh's indices are joined (`MeshTopology`), as the documents' table lists them,
/// and the triangle strip (id 1, and `isTriStrip` before 4.0), which the documents do not list
/// and the public readers decode (see [`SubMesh::triangles`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    /// 0: each three indices a triangle.
    Triangles,
    /// 1 (and `isTriStrip` before 4.0): each index after the second a triangle with the two
    /// before it, by the readers' reading.
    TriangleStrip,
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
    /// The topology of an id, if the documents' table has it.
    pub fn from_id(id: i32) -> Option<Self> {
        Some(match id {
            0 => Topology::Triangles,
            1 => Topology::TriangleStrip,
            2 => Topology::Quads,
            3 => Topology::Lines,
            4 => Topology::LineStrip,
            5 => Topology::Points,
            _ => return None,
        })
    }

    /// The id `m_SubMeshes` stores.
    pub fn id(self) -> i32 {
        match self {
            Topology::Triangles => 0,
            Topology::TriangleStrip => 1,
            Topology::Quads => 2,
            Topology::Lines => 3,
            Topology::LineStrip => 4,
            Topology::Points => 5,
        }
    }

    /// How many indices one primitive of the topology takes, if the count must be a
    /// multiple of it.
    fn unit(self) -> Option<u64> {
        match self {
            Topology::Triangles => Some(3),
            Topology::Quads => Some(4),
            Topology::Lines => Some(2),
            Topology::TriangleStrip | Topology::LineStrip | Topology::Points => None,
        }
    }
}

/// The topology id of a submesh: `topology` from 4.0; before, 1 (a strip) where `isTriStrip`
/// is set and 0 (triangles) where it is not.
pub fn topology_id(s: &StoredSubMesh) -> i32 {
    match (s.topology, s.is_tri_strip) {
        (Some(t), _) => t.0,
        (None, Some(strip)) if strip != 0 => Topology::TriangleStrip.id(),
        _ => Topology::Triangles.id(),
    }
}

/// The byte size of one index: 2 for 16-bit indices (`m_IndexFormat` 0, or no `m_IndexFormat`
/// before 2017.3), 4 for 32-bit ones; `None` for another value.
pub fn index_size(view: &UnityMeshRef<'_>) -> Option<u64> {
    match view.index_buffer.indices {
        IndexRunRef {
            u16_indices: Some(_),
            ..
        } => Some(2),
        IndexRunRef {
            u32_indices: Some(_),
            ..
        } => Some(4),
        _ => None,
    }
}

/// The whole indices of the index buffer, as the spec reads them.
#[derive(Clone, Copy)]
enum Stored<'a> {
    U16(Nums<'a, u16>),
    U32(Nums<'a, u32>),
}

impl<'a> Stored<'a> {
    fn of(view: &UnityMeshRef<'a>) -> Option<Self> {
        let run = &view.index_buffer.indices;
        run.u16_indices
            .map(Stored::U16)
            .or(run.u32_indices.map(Stored::U32))
    }

    fn len(self) -> u64 {
        match self {
            Stored::U16(n) => n.len() as u64,
            Stored::U32(n) => n.len() as u64,
        }
    }

    /// Indices `from..from + count`, each plus `base` (none when the run is not all there).
    fn run(self, from: u64, count: u64, base: u32) -> Vec<u32> {
        let (Ok(from), Ok(count)) = (usize::try_from(from), usize::try_from(count)) else {
            return vec![];
        };
        match self {
            Stored::U16(n) => n.range(from, count).map_or_else(Vec::new, |r| {
                r.iter()
                    .map(|ix| u32::from(ix).wrapping_add(base))
                    .collect()
            }),
            Stored::U32(n) => n.range(from, count).map_or_else(Vec::new, |r| {
                r.iter().map(|ix| ix.wrapping_add(base)).collect()
            }),
        }
    }

    /// Where the list of these indices lies.
    fn place<'p>(self, run: &Place<'p, IndexRunPos>) -> Option<Place<'p, Strided<Span>>> {
        Some(match self {
            Stored::U16(_) => run.u16_indices().some()?.owned(),
            Stored::U32(_) => run.u32_indices().some()?.owned(),
        })
    }

    /// [`first_bad`] over indices `from..from + count`.
    fn first_bad(self, from: u64, count: u64, base: u32, vc: u64) -> Option<(usize, u32, usize)> {
        let from = usize::try_from(from).ok()?;
        let count = usize::try_from(count).ok()?;
        match self {
            Stored::U16(n) => first_bad(n.range(from, count)?.iter().map(u32::from), base, vc),
            Stored::U32(n) => first_bad(n.range(from, count)?.iter(), base, vc),
        }
    }
}

/// Where submesh `s`'s stored indices lie: the list's path and their bytes in the input
/// (`None` for an index format the documents do not give).
pub(crate) fn stored_run(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    s: &StoredSubMesh,
) -> Option<(Path, Span)> {
    let isz = index_size(view)?;
    let ib = at.index_buffer();
    let run = ib.indices();
    let list = Stored::of(view)?.place(&run)?;
    let first = usize::try_from(u64::from(s.first_byte) / isz).ok()?;
    let span = list.get().run(first, s.index_count as usize);
    Some((list.field_path().clone(), span))
}

/// The first index of `run` that names no vertex (plus `base`), with how many do not.
fn first_bad(
    run: impl Iterator<Item = u32> + Clone,
    base: u32,
    vc: u64,
) -> Option<(usize, u32, usize)> {
    // One pass for the largest (vectorised); only a run with bad indices is walked again.
    let max = run.clone().max()?;
    if u64::from(max) + u64::from(base) < vc {
        return None;
    }
    let mut bad = run
        .enumerate()
        .filter(|&(_, ix)| u64::from(ix) + u64::from(base) >= vc);
    let (k, ix) = bad.next()?;
    Some((k, ix, 1 + bad.count()))
}

/// The verdict on the index buffer and the submeshes: `index_buffer_whole_indices`,
/// `submesh_within_index_buffer`, `indices_name_vertices` and `submesh_vertex_range`, and what
/// decoding the indices needs (an index format of the two, topologies of the documents'
/// table in whole primitives, every run inside the indices, every index naming a vertex).
/// `vc` is the number of vertices.
pub(crate) fn judge(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    vc: u64,
    j: &mut Judge<'_>,
) {
    let ib_len = u64::try_from(view.index_buffer.len_data).unwrap_or(0);
    let ib_at = at.index_buffer();
    let cm_at = at.compressed_mesh();
    let packed = view.compressed_mesh.triangles.num_items > 0;
    if packed && ib_len > 0 {
        j.push(ib_at.len_data().error(
            ErrorKind::Inconsistent,
            "an empty index buffer in a mesh whose compressed_mesh.triangles holds the indices",
            format!(
                "{ib_len} bytes and {} packed indices",
                view.compressed_mesh.triangles.num_items
            ),
        ));
    }
    let subs = at.sub_meshes();
    for (i, s) in view.sub_meshes.iter().enumerate() {
        let sm = subs.at(i);
        let id = topology_id(s);
        match Topology::from_id(id) {
            None => j.push(sm.topology().some().map_or_else(|| sm.first_byte().owned(), |t| t.owned()).error(
                ErrorKind::Unsupported,
                "a topology of the documents' table (0 triangles, 2 quads, 3 lines, 4 line strip, 5 points) or 1 (a triangle strip), to decode the submesh",
                id.to_string(),
            )),
            Some(t) => {
                if let Some(unit) = t.unit().filter(|u| u64::from(s.index_count) % u != 0) {
                    j.push(sm.index_count().error(
                        ErrorKind::Inconsistent,
                        format!("a multiple of {unit} indices for {t:?}, to decode whole primitives"),
                        s.index_count.to_string(),
                    ));
                }
            }
        }
        if u64::from(s.first_vertex) + u64::from(s.vertex_count) > vc {
            j.push(sm.vertex_count().violates(
                UnityMesh::REL_SUBMESH_VERTEX_RANGE,
                format!("firstVertex + vertexCount at most the {vc} vertices"),
                format!("{} + {}", s.first_vertex, s.vertex_count),
            ));
        }
    }
    let Some(isz) = index_size(view) else {
        let f = at.index_format();
        if let (Some(f), Some(v)) = (f.some(), view.index_format) {
            let rule = UnityMesh::REL_INDEX_BUFFER_WHOLE_INDICES;
            let expected = "an index format of 0 (16-bit indices) or 1 (32-bit)";
            j.push(f.violates(rule, expected, v.0.to_string()));
            j.push(needs(
                rule,
                &f,
                format!("{expected}, to read the indices"),
                v.0.to_string(),
            ));
        }
        return;
    };
    let rest = view.index_buffer.indices.rest;
    if !rest.is_empty() {
        j.push(ib_at.indices().rest().violates(
            UnityMesh::REL_INDEX_BUFFER_WHOLE_INDICES,
            format!("a multiple of {isz} bytes ({isz}-byte indices)"),
            format!("{ib_len} bytes, {} after the last whole index", rest.len()),
        ));
    }
    let Some(stored) = Stored::of(view) else {
        return;
    };
    // The packed indices, when they can be unpacked.
    let triangles = Packed::ints(&view.compressed_mesh.triangles);
    let tri_at = PackedAt::ints(&cm_at.triangles());
    let unpacked = if packed {
        judge_triangles(&view.compressed_mesh, &cm_at, j).then(|| unpack_ints(&triangles))
    } else {
        None
    };
    let total = if packed {
        u64::from(triangles.num_items)
    } else {
        stored.len()
    };
    let within = UnityMesh::REL_SUBMESH_WITHIN_INDEX_BUFFER;
    let names = UnityMesh::REL_INDICES_NAME_VERTICES;
    let stored_at = ib_at.indices();
    for (i, s) in view.sub_meshes.iter().enumerate() {
        let sm = subs.at(i);
        let (fb, count) = (u64::from(s.first_byte), u64::from(s.index_count));
        let first = fb / isz;
        let inside = if packed {
            format!("inside the {total} packed indices of compressed_mesh.triangles")
        } else {
            format!("inside the {ib_len} bytes of the index buffer")
        };
        let expected = format!("{count} indices of {isz} bytes from byte {fb} {inside}");
        let found = format!("a range ending at byte {}", fb + count * isz);
        let problem = if fb % isz != 0 {
            Some((
                sm.first_byte(),
                format!("a first byte that is a multiple of the index size ({isz} bytes)"),
                fb.to_string(),
            ))
        } else if first > total {
            Some((sm.first_byte(), expected, found))
        } else if first + count > total {
            Some((sm.index_count(), expected, found))
        } else {
            None
        };
        if let Some((field, expected, found)) = problem {
            j.push(field.violates(within, expected.clone(), found.clone()));
            if count > 0 {
                j.push(needs(
                    within,
                    &field,
                    format!("{expected}, to decode the submesh"),
                    found,
                ));
            }
            continue;
        }
        let base = s.base_vertex.unwrap_or(0);
        let bad = if packed {
            let Some(all) = &unpacked else { continue };
            let run = all
                .get(first as usize..(first + count) as usize)
                .unwrap_or(&[]);
            first_bad(run.iter().copied(), base, vc).map(|(k, ix, n)| {
                let bit = (first + k as u64) * u64::from(triangles.bit_size);
                (tri_at.data_byte(bit / 8), k, ix, n)
            })
        } else {
            stored.first_bad(first, count, base, vc).map(|(k, ix, n)| {
                let i = (first as usize).saturating_add(k);
                let place = stored.place(&stored_at).map_or_else(
                    || (stored_at.span().start, stored_at.field_path().clone()),
                    |l| (l.get().run(i, 1).start, l.field_path().index(i)),
                );
                (place, k, ix, n)
            })
        };
        if let Some(((offset, path), k, ix, n)) = bad {
            let expected = format!(
                "index + baseVertex ({base}) below the vertex count {vc} (submesh {i}, index {k})"
            );
            let found = format!(
                "{} ({ix} + baseVertex {base}; {n} such indices in the submesh)",
                u64::from(ix) + u64::from(base)
            );
            j.push(Error::relation(names, 0, expected, found.clone()).placed(offset, &path));
            j.push(needs_at(
                names,
                offset,
                &path,
                format!("every index of submesh {i} naming a vertex, to decode it"),
                found,
            ));
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
    /// quads as (a, b, c) and (a, c, d), a strip's triangle k (of indices k, k + 1, k + 2) as
    /// (a, b, c) for even k and (b, a, c) for odd k, leaving out those with a repeated index
    /// (the reading of UnityPy's `MeshHelper.get_triangles` and AssetStudio's
    /// `Mesh.GetTriangles`). Empty for lines and points.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        let ix = &self.indices;
        match self.topology {
            Topology::Triangles => ix.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
            Topology::TriangleStrip => ix
                .windows(3)
                .enumerate()
                .filter(|(_, t)| t[0] != t[1] && t[0] != t[2] && t[1] != t[2])
                .map(|(k, t)| {
                    if k % 2 == 1 {
                        [t[1], t[0], t[2]]
                    } else {
                        [t[0], t[1], t[2]]
                    }
                })
                .collect(),
            Topology::Quads => ix
                .chunks_exact(4)
                .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
                .collect(),
            Topology::Lines | Topology::LineStrip | Topology::Points => vec![],
        }
    }
}

/// Every submesh's indices, with the base vertex added, of a mesh whose verdict passed.
pub(crate) fn decode(view: &UnityMeshRef<'_>) -> Vec<SubMesh> {
    let isz = index_size(view).unwrap_or(2);
    let stored = Stored::of(view);
    let packed = view.compressed_mesh.triangles.num_items > 0;
    let all = if packed {
        unpack_ints(&Packed::ints(&view.compressed_mesh.triangles))
    } else {
        vec![]
    };
    view.sub_meshes
        .iter()
        .map(|s| {
            let base = s.base_vertex.unwrap_or(0);
            let (first, count) = (u64::from(s.first_byte) / isz, u64::from(s.index_count));
            let indices = if packed {
                usize::try_from(first)
                    .ok()
                    .zip(usize::try_from(count).ok())
                    .and_then(|(a, n)| all.get(a..a.checked_add(n)?))
                    .unwrap_or(&[])
                    .iter()
                    .map(|&ix| ix.wrapping_add(base))
                    .collect()
            } else {
                stored.map_or_else(Vec::new, |st| st.run(first, count, base))
            };
            SubMesh {
                first_byte: s.first_byte,
                index_count: s.index_count,
                topology: Topology::from_id(topology_id(s)).unwrap_or(Topology::Points),
                base_vertex: base,
                first_vertex: s.first_vertex,
                vertex_count: s.vertex_count,
                indices,
            }
        })
        .collect()
}
