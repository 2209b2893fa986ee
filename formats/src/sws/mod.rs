//! Shaun White Skateboarding meshes: what the bytes of a Mesh body mean beyond their layout
//! (`spec/sws_mesh.ksy`).
//!
//! - [`relations`]: the relations the document states, checked on read values with the byte
//!   offset and path of every violation;
//! - [`geometry`]: the SubMeshes' geometry in the common model (the compiled vertex streams are
//!   in a format the documents do not give, so they stay raw bytes);
//! - [`offsets`]: where each part lies, for placing violations.

pub mod geometry;
pub mod offsets;
pub mod origin;
pub mod relations;

use crate::context::Context;
use crate::generated::sws_mesh::{CompiledMesh, MeshBone, MorphChannel, Submesh, SwsMesh};
use crate::legacy::OwnedSemantics;
use crate::rt::Root;
use crate::rt::{Error, ErrorKind, Result};
use crate::scene::Scene;

const BONE_NOTE: &str = "bone matrices are kept as stored: which space they map (bind pose, inverse bind pose, parent-relative) and whether they are stored by rows or by columns is not established";
const PALETTE_NOTE: &str = "the palettes are read packed one after another from the start of their block, as the document describes them (a reading); the block's bytes after the last palette are kept as stored";
const UNKNOWN_NOTE: &str = "fields marked unknown in the spec (face words and bytes, vertex words, source runs, the unknown words) are kept as stored; their meaning is not established";

fn compiled_notes(c: &CompiledMesh) -> Vec<String> {
    vec![
        format!(
            "{}; each of the {} streams is a list of {}-byte vertices",
            geometry::compiled_note(c.flags, c.stride),
            c.vertex_streams.len(),
            c.stride
        ),
        PALETTE_NOTE.to_string(),
    ]
}

impl OwnedSemantics for SwsMesh {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        relations::mesh(self)
            .into_iter()
            .map(|e| e.rooted("sws_mesh"))
            .collect()
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        let mut notes = compiled_notes(&self.data);
        if self.submeshes.is_empty() {
            notes.push("this mesh has no SubMeshes, so no vertex positions are established and it cannot be exported as geometry".into());
        } else {
            let count = match self.submeshes.len() {
                1 => "its SubMesh".to_string(),
                n => format!("its {n} SubMeshes"),
            };
            notes.push(format!("geometry comes from {count} (positions, normals, colours, UV channels, morph targets, and tangents from each SubMesh's copy); {}", geometry::FRAME_NOTE));
        }
        if !self.bones.is_empty() {
            notes.push(BONE_NOTE.to_string());
        }
        notes.push(UNKNOWN_NOTE.to_string());
        notes
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        refuse_on_relations(self.relations(ctx), ctx)?;
        geometry::mesh_scene(self)
    }
}

/// Geometry is decoded only from values whose relations hold, unless the user asked for
/// relations to be warnings.
fn refuse_on_relations(violated: Vec<Error>, ctx: &Context) -> Result<()> {
    match violated.into_iter().next() {
        Some(e) if ctx.relations == crate::context::Relations::Error => Err(e),
        _ => Ok(()),
    }
}

impl OwnedSemantics for CompiledMesh {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        relations::compiled(self)
            .into_iter()
            .map(|e| e.rooted("compiled_mesh"))
            .collect()
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        compiled_notes(self)
    }

    fn scene(&self, _ctx: &Context) -> Result<Scene> {
        Err(Error::unplaced(
            ErrorKind::Unsupported,
            "a layout whose vertex positions are established (a Mesh with SubMeshes, or a SubMesh)",
            format!(
                "a CompiledMesh: the vertex format that flags 0x{:08X} selects (stride {}) is not in the documents",
                self.flags, self.stride
            ),
        )
        .rooted("export"))
    }
}

impl OwnedSemantics for Submesh {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        relations::submesh(self, true)
            .into_iter()
            .map(|e| e.rooted("submesh"))
            .collect()
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec![
            format!(
                "read as an original SubMesh (its copy follows inline); {}",
                geometry::FRAME_NOTE
            ),
            UNKNOWN_NOTE.to_string(),
        ]
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        refuse_on_relations(self.relations(ctx), ctx)?;
        geometry::submesh_scene(self)
    }
}

impl OwnedSemantics for MeshBone {
    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec![BONE_NOTE.to_string()]
    }
}

impl OwnedSemantics for MorphChannel {
    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec!["the positions are the morph target's absolute positions (not deltas); channel k of a SubMesh is morph stream k + 1 of its compiled mesh".into()]
    }
}

crate::legacy::owned_semantics!(SwsMesh, CompiledMesh, Submesh, MeshBone, MorphChannel);

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::layouts::Ops)] = &[
    (<SwsMesh as Root>::ID, crate::layouts::Ops::of::<SwsMesh>()),
    (
        <CompiledMesh as Root>::ID,
        crate::layouts::Ops::of::<CompiledMesh>(),
    ),
    (<Submesh as Root>::ID, crate::layouts::Ops::of::<Submesh>()),
    (
        <MeshBone as Root>::ID,
        crate::layouts::Ops::of::<MeshBone>(),
    ),
    (
        <MorphChannel as Root>::ID,
        crate::layouts::Ops::of::<MorphChannel>(),
    ),
];
