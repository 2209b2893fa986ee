//! Riders Republic mesh resource bodies (`spec/rr_mesh.ksy`): the relations the document states
//! between their fields, the index topology it establishes, and a writer that builds bodies
//! from parts.
//!
//! What is decoded: each range's (ranged form) or object's (inline form) indices with the right
//! origin (the ranged form's are relative to the range's vertex base, the inline form's absolute),
//! its vertex interval in the shared streams and its Material identity ([`topology`]).
//! What is not: the vertex records. The document gives each stream's stride (and that split
//! position records are 12 bytes, skin records 8 or 16) but not the record layouts, so
//! positions, normals, texture coordinates and skin weights stay raw, and a body is not exported
//! as geometry ([`Semantics::scene`] says why).
//!
//! Layouts: `rr-mesh` (the body), `rr-compiled-mesh` (from the marker at M), `rr-mesh-data`
//! (MeshData after its marker, with its MeshPrimitive records) and `rr-material-list`.

pub mod build;
mod check;
mod topology;

pub use check::table_strides;
pub use topology::{Form, Part, Topology};

use crate::context::Context;
use crate::generated::rr_mesh::*;
use crate::legacy::OwnedSemantics;
use crate::rt::{Error, ErrorKind, Result, Root};
use crate::scene::Scene;
use check::Findings;

/// Where the compiled mesh starts in a body: M = 61 + 81 x the bone count, as the bytes before
/// it are laid out (20 bytes of header and count, the bone records, the 41 undescribed bytes).
pub fn compiled_offset(m: &RrMesh) -> u64 {
    20 + m.bones.iter().map(|b| b.len() as u64).sum::<u64>() + m.unknown_after_bones.len() as u64
}

fn body_findings(m: &RrMesh) -> Findings {
    let mut f = Findings::default();
    f.nest(
        check::compiled(&m.compiled).findings,
        compiled_offset(m),
        &[check::P::F("compiled")],
    );
    f
}

fn errors(f: Findings, root: &'static str) -> Vec<Error> {
    f.errors.into_iter().map(|(_, e)| e.rooted(root)).collect()
}

fn warnings(f: Findings, root: &'static str) -> Vec<Error> {
    f.warnings.into_iter().map(|e| e.rooted(root)).collect()
}

/// The index topology of a body: one part per range or object, indices absolute.
///
/// Refuses (with the violated relation's error) a body whose relations do not hold: all of them
/// by default, only those decoding rests on under `--relations warn`. Warning-only relations
/// (a stale declared vertex count) never stop it: the buffers win.
pub fn topology(m: &RrMesh, ctx: &Context) -> Result<Topology> {
    topology::decode(&m.compiled, ctx).map_err(|e| {
        e.shifted(compiled_offset(m))
            .in_field("compiled")
            .rooted(<RrMesh as Root>::ROOT)
    })
}

/// [`topology`] of a compiled mesh read on its own (`rr-compiled-mesh`).
pub fn compiled_topology(c: &CompiledMesh, ctx: &Context) -> Result<Topology> {
    topology::decode(c, ctx).map_err(|e| e.rooted(<CompiledMesh as Root>::ROOT))
}

fn form_notes(c: &CompiledMesh) -> Vec<String> {
    let mut out = vec![];
    match &c.body {
        CompiledMeshBody::RangedLayout(r) => out.push(format!(
            "Ranged form, vertex format {}, {}: indices are u16 relative to each range's vertex base; a range runs to where the next begins.",
            format_label(r.vertex_format),
            count(r.ranges.len(), "range")
        )),
        CompiledMeshBody::InlineLayout(l) => out.push(format!(
            "Inline form, vertex format {}, {}: indices are absolute (adding an object's vertex base would be wrong).",
            format_label(l.mesh_data.vertex_format),
            count(l.mesh_data.objects.len(), "object")
        )),
    }
    out.push("The vertex streams (primary, positions, skin) are kept as bytes: the document gives their strides but not their record layouts, so no positions, normals, texture coordinates or skin weights are decoded and these bodies are not exported as geometry.".into());
    out
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn format_label(f: VertexFormat) -> String {
    match f.name() {
        Some(n) => format!("{n} ({})", f.0),
        None => format!("{} (not in the document's table)", f.0),
    }
}

fn no_positions(c: &CompiledMesh) -> Error {
    let (form, format, strides) = match &c.body {
        CompiledMeshBody::RangedLayout(r) => ("ranged", r.vertex_format, r.strides.clone()),
        CompiledMeshBody::InlineLayout(l) => (
            "inline",
            l.mesh_data.vertex_format,
            l.mesh_data.strides.iter().map(|&s| u32::from(s)).collect(),
        ),
    };
    Error::unplaced(
        ErrorKind::Unsupported,
        "vertex positions in an encoding the document establishes",
        format!(
            "a {form} body of vertex format {}, strides {:?}: the document gives the streams' strides but not their record layouts, so its positions cannot be decoded (its index topology is decoded: meshspec_formats::rr::topology)",
            format_label(format),
            strides
        ),
    )
}

impl OwnedSemantics for RrMesh {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        errors(body_findings(self), Self::ROOT)
    }

    fn warnings(&self, _ctx: &Context) -> Vec<Error> {
        warnings(body_findings(self), Self::ROOT)
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        let mut out = form_notes(&self.compiled);
        out.push(format!(
            "{} of 81 bytes kept as bytes (their fields are not in the document); that the bone records follow the bone count directly, with the 41 undescribed bytes after them, is a reading.",
            count(self.bones.len(), "bone record")
        ));
        out
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        topology(self, ctx)?;
        Err(no_positions(&self.compiled).rooted(Self::ROOT))
    }
}

impl OwnedSemantics for CompiledMesh {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        errors(check::compiled(self).findings, Self::ROOT)
    }

    fn warnings(&self, _ctx: &Context) -> Vec<Error> {
        warnings(check::compiled(self).findings, Self::ROOT)
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        form_notes(self)
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        compiled_topology(self, ctx)?;
        Err(no_positions(self).rooted(Self::ROOT))
    }
}

impl OwnedSemantics for MeshData {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        errors(check::mesh_data(self), Self::ROOT)
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec!["MeshData alone: the object records' relations to the buffers are checked on a whole body (rr-mesh or rr-compiled-mesh).".into()]
    }
}

impl OwnedSemantics for MaterialList {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        errors(check::material_list(self), Self::ROOT)
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec!["A material list alone: that it has one descriptor per range or object is checked on a whole body (rr-mesh or rr-compiled-mesh).".into()]
    }
}

crate::legacy::owned_semantics!(RrMesh, CompiledMesh, MeshData, MaterialList);

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::layouts::Ops)] = &[
    (<RrMesh as Root>::ID, crate::layouts::Ops::of::<RrMesh>()),
    (
        <CompiledMesh as Root>::ID,
        crate::layouts::Ops::of::<CompiledMesh>(),
    ),
    (
        <MeshData as Root>::ID,
        crate::layouts::Ops::of::<MeshData>(),
    ),
    (
        <MaterialList as Root>::ID,
        crate::layouts::Ops::of::<MaterialList>(),
    ),
];
