//! What the document establishes about an RR body's geometry, decoded from the view: the index
//! buffer of each range (ranged form) or object (inline form) with the right origin, the vertex
//! interval it draws from, and its material. The vertex streams stay raw: the document gives
//! their strides but not their record layouts.
//!
//! The relation pass ([`super::check`]) and the decoder share what is computed here (the vertex
//! count the streams give, the parts' extents), so the verdict checks exactly what decoding
//! rests on.

use crate::generated::rr_mesh::*;
use crate::rt::Nums;

/// Which compiled form a body has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Draw ranges; indices relative to each range's vertex base.
    Ranged,
    /// MeshPrimitive objects; indices absolute.
    Inline,
}

/// One range (ranged form) or object (inline form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The first vertex of the part in the shared vertex streams.
    pub first_vertex: u32,
    /// How many vertices the part draws from, as the buffers give it (a stale declared count
    /// does not change it).
    pub num_vertices: u32,
    /// The position of the part's first index in the shared index buffer.
    pub first_index: u32,
    /// The part's indices, absolute: each names a vertex of the shared streams (the ranged
    /// form's relative indices with the range's vertex base added; the inline form's as stored).
    pub indices: Vec<u32>,
    /// The Material identity of the part's descriptor.
    pub material: Option<u64>,
}

impl Part {
    /// The part's records of a vertex stream of `stride` bytes per vertex, as stored.
    pub fn records<'a>(&self, stream: &'a [u8], stride: u32) -> Option<&'a [u8]> {
        let s = u64::from(stride);
        let start = usize::try_from(u64::from(self.first_vertex) * s).ok()?;
        let len = usize::try_from(u64::from(self.num_vertices) * s).ok()?;
        stream.get(start..start.checked_add(len)?)
    }

    /// The part's triangles, as absolute vertex index triples.
    pub fn triangles(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        self.indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]])
    }
}

/// The decoded index topology of a compiled mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// The form.
    pub form: Form,
    /// The vertex format.
    pub vertex_format: VertexFormat,
    /// Bytes per vertex of the primary, position and skin streams.
    pub strides: [u32; 3],
    /// The vertices the streams hold.
    pub num_vertices: u32,
    /// The ranges or objects, in order.
    pub parts: Vec<Part>,
}

/// Where one part (a range or an object) lies in the shared buffers: vertices and indices,
/// each from its first to one past its last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    pub vertices: (u64, u64),
    pub indices: (u64, u64),
}

/// An index stream whose width the document gives.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Indices<'a> {
    U16(Nums<'a, u16>),
    U32(Nums<'a, u32>),
}

impl<'a> Indices<'a> {
    /// The indices of a stream, when its width selector is one the document gives.
    pub(crate) fn of(d: &IndexDataRef<'a>) -> Option<Self> {
        match (d.u16_indices, d.u32_indices) {
            (Some(v), None) => Some(Indices::U16(v)),
            (None, Some(v)) => Some(Indices::U32(v)),
            _ => None,
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Indices::U16(v) => v.len(),
            Indices::U32(v) => v.len(),
        }
    }

    /// Index `k`, widened.
    pub(crate) fn get(&self, k: usize) -> Option<u32> {
        match self {
            Indices::U16(v) => v.get(k).map(u32::from),
            Indices::U32(v) => v.get(k),
        }
    }

    /// Indices `lo..hi` (as many of them as there are), widened.
    pub(crate) fn range(&self, lo: u64, hi: u64) -> impl Iterator<Item = (usize, u32)> + '_ {
        let lo = usize::try_from(lo).unwrap_or(usize::MAX);
        let hi = usize::try_from(hi).unwrap_or(usize::MAX).min(self.len());
        (lo..hi).filter_map(move |k| self.get(k).map(|ix| (k, ix)))
    }
}

/// The strides of a list of three (the spec reads exactly three).
pub(crate) fn strides3<T: Into<u32>>(v: impl Iterator<Item = T>) -> [u32; 3] {
    let mut out = [0; 3];
    for (slot, s) in out.iter_mut().zip(v) {
        *slot = s.into();
    }
    out
}

/// The vertex count of the streams, from the primary stream and its stride, when they agree.
pub(crate) fn vertex_count(len: usize, stride: u32) -> Option<u64> {
    let len = len as u64;
    match stride {
        0 if len == 0 => Some(0),
        0 => None,
        s => len.is_multiple_of(u64::from(s)).then(|| len / u64::from(s)),
    }
}

/// Each range's extent: from its own first index and vertex base to the next range's, or to
/// the buffers' ends for the last (meaningful once the ranges partition the buffers).
pub(crate) fn ranged_extents(r: &RangedLayoutRef<'_>, vertices: u64, indices: u64) -> Vec<Extent> {
    let n = r.ranges.len();
    (0..n)
        .map(|i| {
            let (this, next) = (&r.ranges[i], r.ranges.get(i + 1));
            Extent {
                vertices: (
                    u64::from(this.vertex_base),
                    next.map_or(vertices, |x| u64::from(x.vertex_base)),
                ),
                indices: (
                    u64::from(this.first_index),
                    next.map_or(indices, |x| u64::from(x.first_index)),
                ),
            }
        })
        .collect()
}

/// Each object's extent: its record's interval, the last one's to the buffers' ends (its
/// declared counts can be stale; meaningful once the objects tile the buffers).
pub(crate) fn inline_extents(l: &InlineLayoutRef<'_>, vertices: u64, indices: u64) -> Vec<Extent> {
    let k = l.mesh_data.objects.len();
    l.mesh_data
        .objects
        .iter()
        .enumerate()
        .map(|(j, o)| {
            let last = j + 1 == k;
            let vb = u64::from(o.vertex_base);
            let fi = u64::from(o.first_index);
            Extent {
                vertices: (
                    vb,
                    if last {
                        vertices
                    } else {
                        vb + u64::from(o.num_vertices)
                    },
                ),
                indices: (
                    fi,
                    if last {
                        indices
                    } else {
                        fi + 3 * u64::from(o.num_triangles)
                    },
                ),
            }
        })
        .collect()
}

/// Decodes the topology of a compiled mesh whose verdict passed (its judge checked everything
/// used here). `None` for a view that does not meet what decoding needs, which a passed
/// verdict rules out; nothing here panics on any view.
pub(crate) fn decode(c: &CompiledMeshRef<'_>) -> Option<Topology> {
    let (form, vertex_format, strides, primary, index_data, materials, extents) = match &c.body {
        CompiledMeshBodyRef::RangedLayout(r) => {
            let strides = strides3(r.strides.iter());
            let indices = Indices::of(&r.indices)?;
            let v = vertex_count(r.primary.len(), strides[0])?;
            let ext = ranged_extents(r, v, indices.len() as u64);
            (
                Form::Ranged,
                r.vertex_format,
                strides,
                r.primary,
                &r.indices,
                &r.materials,
                ext,
            )
        }
        CompiledMeshBodyRef::InlineLayout(l) => {
            let strides = strides3(l.mesh_data.strides.iter());
            let indices = Indices::of(&l.indices)?;
            let v = vertex_count(l.primary.len(), strides[0])?;
            let ext = inline_extents(l, v, indices.len() as u64);
            (
                Form::Inline,
                l.mesh_data.vertex_format,
                strides,
                l.primary,
                &l.indices,
                &l.materials,
                ext,
            )
        }
    };
    let indices = Indices::of(index_data)?;
    let mut parts = Vec::with_capacity(extents.len());
    for (i, e) in extents.iter().enumerate() {
        let base = match form {
            Form::Ranged => e.vertices.0,
            Form::Inline => 0,
        };
        let abs = indices
            .range(e.indices.0, e.indices.1)
            .map(|(_, ix)| u32::try_from(base + u64::from(ix)).ok())
            .collect::<Option<Vec<u32>>>()?;
        parts.push(Part {
            first_vertex: u32::try_from(e.vertices.0).ok()?,
            num_vertices: u32::try_from(e.vertices.1.checked_sub(e.vertices.0)?).ok()?,
            first_index: u32::try_from(e.indices.0).ok()?,
            indices: abs,
            material: materials.descriptors.get(i).map(|d| d.material),
        });
    }
    Some(Topology {
        form,
        vertex_format,
        strides,
        num_vertices: u32::try_from(vertex_count(primary.len(), strides[0])?).ok()?,
        parts,
    })
}
