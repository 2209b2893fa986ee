//! What the document establishes about an RR body's geometry, decoded: the index buffer of each
//! range (ranged form) or object (inline form) with the right origin, the vertex interval it
//! draws from, and its material. The vertex streams stay raw: the document gives their strides
//! but not their record layouts.

use super::check::{self, index_values, Analysis};
use crate::context::{Context, Relations};
use crate::generated::rr_mesh::*;
use crate::rt::{Error, ErrorKind, Result};

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

/// The relations decoding cannot do without: where the parts are, and indices inside them.
const NEEDED: &[&crate::rt::Rule] = &[
    RangedLayout::REL_FIRST_RANGE_AT_ZERO,
    RangedLayout::REL_RANGES_PARTITION_BUFFERS,
    RangedLayout::REL_INDICES_RELATIVE_TO_VERTEX_BASE,
    RangedLayout::REL_STREAM_LENGTHS,
    InlineLayout::REL_OBJECTS_TILE_BUFFERS,
    InlineLayout::REL_INDICES_ABSOLUTE,
];

fn too_big(what: &str, v: u64) -> Error {
    Error::unplaced(
        ErrorKind::Unsupported,
        format!("a {what} that fits 32 bits"),
        v.to_string(),
    )
}

/// Decodes a compiled mesh's topology. Errors are relative to the compiled mesh (offsets from M,
/// paths from `compiled_mesh`), not yet rooted.
///
/// With the default (strict) context every relation must hold; with `--relations warn` only
/// those decoding rests on. Warning-only relations never stop it.
pub(crate) fn decode(c: &CompiledMesh, ctx: &Context) -> Result<Topology> {
    let Analysis {
        findings,
        extents,
        vertex_count,
    } = check::compiled(c);
    let blocking = findings
        .errors
        .into_iter()
        .find(|(id, _)| ctx.relations == Relations::Error || NEEDED.contains(id));
    if let Some((_, e)) = blocking {
        return Err(e);
    }
    let (form, vertex_format, strides, index_data, materials): (_, _, Vec<u32>, _, _) =
        match &c.body {
            CompiledMeshBody::RangedLayout(r) => (
                Form::Ranged,
                r.vertex_format,
                r.strides.clone(),
                &r.indices,
                &r.materials,
            ),
            CompiledMeshBody::InlineLayout(l) => (
                Form::Inline,
                l.mesh_data.vertex_format,
                l.mesh_data.strides.iter().map(|&s| u32::from(s)).collect(),
                &l.indices,
                &l.materials,
            ),
        };
    let Some(indices) = index_values(index_data) else {
        let width = match &c.body {
            CompiledMeshBody::InlineLayout(l) => l.mesh_data.index_width,
            CompiledMeshBody::RangedLayout(_) => 0,
        };
        return Err(Error::new(
            ErrorKind::Unsupported,
            17,
            "an index width selector of 0 (u16) or 1 (u32)",
            width.to_string(),
        )
        .in_field("index_width")
        .in_field("mesh_data")
        .in_field("body"));
    };
    let (Some(extents), Some(v)) = (extents, vertex_count) else {
        // Only reachable in warn mode, where the relations that place the parts may fail.
        return Err(Error::new(
            ErrorKind::Relation,
            17,
            "ranges or objects whose place in the buffers is known",
            "relations that do not hold",
        )
        .in_field("body"));
    };
    let strides = match strides.as_slice() {
        [a, b, c] => [*a, *b, *c],
        _ => [0; 3],
    };
    let mut parts = Vec::with_capacity(extents.len());
    for (i, e) in extents.iter().enumerate() {
        let lo = usize::try_from(e.indices.0).map_err(|_| too_big("first index", e.indices.0))?;
        let hi = usize::try_from(e.indices.1).map_err(|_| too_big("last index", e.indices.1))?;
        let slice = indices.get(lo..hi).unwrap_or(&[]);
        let base = match form {
            Form::Ranged => e.vertices.0,
            Form::Inline => 0,
        };
        let mut abs = Vec::with_capacity(slice.len());
        for &ix in slice {
            let a = base + u64::from(ix);
            abs.push(u32::try_from(a).map_err(|_| too_big("vertex index", a))?);
        }
        parts.push(Part {
            first_vertex: u32::try_from(e.vertices.0)
                .map_err(|_| too_big("vertex", e.vertices.0))?,
            num_vertices: u32::try_from(e.vertices.1 - e.vertices.0)
                .map_err(|_| too_big("vertex count", e.vertices.1 - e.vertices.0))?,
            first_index: u32::try_from(e.indices.0).map_err(|_| too_big("index", e.indices.0))?,
            indices: abs,
            material: materials.descriptors.get(i).map(|d| d.material),
        });
    }
    Ok(Topology {
        form,
        vertex_format,
        strides,
        num_vertices: u32::try_from(v).map_err(|_| too_big("vertex count", v))?,
        parts,
    })
}
