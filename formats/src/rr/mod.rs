//! Riders Republic mesh resource bodies (`spec/rr_mesh.ksy`): the relations the document states
//! between their fields, the index topology it establishes, and a writer that builds bodies
//! from parts.
//!
//! What is decoded: each range's (ranged form) or object's (inline form) indices with the right
//! origin (the ranged form's are relative to the range's vertex base, the inline form's absolute),
//! its vertex interval in the shared streams and its Material identity ([`topology()`]).
//! What is not: the vertex records. The document gives each stream's stride (and that split
//! position records are 12 bytes, skin records 8 or 16) but not the record layouts, so
//! positions, normals, texture coordinates and skin weights stay raw, and a body is not exported
//! as geometry ([`Semantics::scene`] says why).
//!
//! Everything here works on the reader's views and recorded positions: the relation pass
//! (`check`) reports each violation at the field it names, with the relation's own severity,
//! into the one verdict, and the decoder reads only bodies that passed it.
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
use crate::meaning::Semantics;
use crate::ops::Ops;
use crate::reading;
use crate::rt::{Error, ErrorKind, Place, Result, Root};
use crate::scene::Scene;
use crate::verdict::Judge;

/// The index topology of an `rr-mesh` input: one part per range or object, indices absolute.
///
/// The input must pass its verdict (every relation at its severity, and what decoding rests
/// on): otherwise its first failure is the error. Warning-only relations (a stale declared
/// vertex count) never stop it: the buffers win.
pub fn topology(input: &[u8], ctx: &Context) -> Result<Topology> {
    decode_passed::<RrMesh>(input, ctx, |v| topology::decode(&v.compiled))
}

/// [`topology()`] of a compiled mesh read on its own (`rr-compiled-mesh`).
pub fn compiled_topology(input: &[u8], ctx: &Context) -> Result<Topology> {
    decode_passed::<CompiledMesh>(input, ctx, topology::decode)
}

fn decode_passed<T: Semantics>(
    input: &[u8],
    ctx: &Context,
    decode: impl FnOnce(&T::Ref<'_>) -> Option<Topology>,
) -> Result<Topology> {
    let r = crate::reading::TypedReading::<T>::new(input, ctx);
    let (view, _) = r.passed(&reading::judged(&r, ctx))?;
    // The verdict passed, so everything decoding rests on holds.
    decode(view).ok_or_else(|| {
        Error::unplaced(
            ErrorKind::Unsupported,
            "a body whose verdict covers what its topology rests on",
            "one it does not",
        )
        .rooted(T::ROOT)
    })
}

fn form_notes(c: &CompiledMeshRef<'_>) -> Vec<String> {
    let mut out = vec![];
    match &c.body {
        CompiledMeshBodyRef::RangedLayout(r) => out.push(format!(
            "Ranged form, vertex format {}, {}: indices are u16 relative to each range's vertex base; a range runs to where the next begins.",
            format_label(r.vertex_format),
            count(r.ranges.len(), "range")
        )),
        CompiledMeshBodyRef::InlineLayout(l) => out.push(format!(
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

/// Why a body's geometry is not exported, said at its vertex format.
fn no_positions(c: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>) -> Error {
    const EXPECTED: &str = "vertex positions in an encoding the document establishes";
    let why = |form: &str, format: VertexFormat, strides: Vec<u32>| {
        format!(
            "a {form} body of vertex format {}, strides {strides:?}: the document gives the streams' strides but not their record layouts, so its positions cannot be decoded (its index topology is checked: `meshspec check` verifies its ranges or objects and their indices, and `meshspec dump` shows them)",
            format_label(format)
        )
    };
    let body = at.body();
    match (&c.body, body.get()) {
        (CompiledMeshBodyRef::RangedLayout(r), CompiledMeshBodyPos::RangedLayout(p)) => {
            body.case(p).vertex_format().error(
                ErrorKind::Unsupported,
                EXPECTED,
                why("ranged", r.vertex_format, r.strides.to_vec()),
            )
        }
        (CompiledMeshBodyRef::InlineLayout(l), CompiledMeshBodyPos::InlineLayout(p)) => {
            body.case(p).mesh_data().vertex_format().error(
                ErrorKind::Unsupported,
                EXPECTED,
                why(
                    "inline",
                    l.mesh_data.vertex_format,
                    l.mesh_data.strides.iter().map(u32::from).collect(),
                ),
            )
        }
        // The reader records the case it read; positions of another case are not its.
        _ => body.error(ErrorKind::Unsupported, EXPECTED, "a body of another form"),
    }
}

/// The relation pass of a compiled mesh, reported into `j`.
fn judge_compiled(c: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>, j: &mut Judge<'_>) {
    check::Report::run(j, |r| check::compiled(c, at, r));
}

impl Semantics for RrMesh {
    fn judge(view: &RrMeshRef<'_>, at: &Place<'_, RrMeshPos>, j: &mut Judge<'_>) {
        judge_compiled(&view.compiled, &at.compiled(), j);
    }

    fn notes(view: &RrMeshRef<'_>, _ctx: &Context) -> Vec<String> {
        let mut out = form_notes(&view.compiled);
        out.push(format!(
            "{} of 81 bytes kept as bytes (their fields are not in the document); that the bone records follow the bone count directly, with the 41 undescribed bytes after them, is a reading.",
            count(view.bones.len(), "bone record")
        ));
        out
    }

    fn scene(view: &RrMeshRef<'_>, at: &Place<'_, RrMeshPos>, _ctx: &Context) -> Result<Scene> {
        Err(no_positions(&view.compiled, &at.compiled()))
    }
}

impl Semantics for CompiledMesh {
    fn judge(view: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>, j: &mut Judge<'_>) {
        judge_compiled(view, at, j);
    }

    fn notes(view: &CompiledMeshRef<'_>, _ctx: &Context) -> Vec<String> {
        form_notes(view)
    }

    fn scene(
        view: &CompiledMeshRef<'_>,
        at: &Place<'_, CompiledMeshPos>,
        _ctx: &Context,
    ) -> Result<Scene> {
        Err(no_positions(view, at))
    }
}

impl Semantics for MeshData {
    fn judge(view: &MeshDataRef<'_>, at: &Place<'_, MeshDataPos>, j: &mut Judge<'_>) {
        check::Report::run(j, |r| check::mesh_data(view, at, r));
    }

    fn notes(_view: &MeshDataRef<'_>, _ctx: &Context) -> Vec<String> {
        vec!["MeshData alone: the object records' relations to the buffers are checked on a whole body (rr-mesh or rr-compiled-mesh).".into()]
    }
}

impl Semantics for MaterialList {
    fn judge(view: &MaterialListRef<'_>, at: &Place<'_, MaterialListPos>, j: &mut Judge<'_>) {
        check::Report::run(j, |r| check::material_list(view, at, r));
    }

    fn notes(_view: &MaterialListRef<'_>, _ctx: &Context) -> Vec<String> {
        vec!["A material list alone: that it has one descriptor per range or object, and the descriptors' vertex counts and final bytes, are checked on a whole body (rr-mesh or rr-compiled-mesh).".into()]
    }
}

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, Ops)] = &[
    (<RrMesh as Root>::ID, Ops::of::<RrMesh>()),
    (<CompiledMesh as Root>::ID, Ops::of::<CompiledMesh>()),
    (<MeshData as Root>::ID, Ops::of::<MeshData>()),
    (<MaterialList as Root>::ID, Ops::of::<MaterialList>()),
];
