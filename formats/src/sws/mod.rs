//! Shaun White Skateboarding meshes: what the bytes of a Mesh body mean beyond their layout
//! (`spec/sws_mesh.ksy`), on the view the reader made and the positions it recorded.
//!
//! - [`relations`]: the relations the document states that the spec's `-check` expressions
//!   cannot say, judged with the offset and spec path of every violation;
//! - [`geometry`]: the SubMeshes' geometry in the common model (the compiled vertex streams are
//!   in a format the documents do not give, so they stay raw bytes);
//! - [`origin`]: where each exported part lies in the input;
//! - [`build`]: bodies constructed from grid patches (the larger corpus files, the benchmarks).

pub mod build;
pub mod geometry;
pub mod origin;
pub mod relations;

use crate::context::Context;
use crate::generated::sws_mesh::{
    CompiledMesh, CompiledMeshPos, CompiledMeshRef, MeshBone, MeshBoneRef, MorphChannel,
    MorphChannelRef, Submesh, SubmeshPos, SubmeshRef, SwsMesh, SwsMeshPos, SwsMeshRef,
};
use crate::meaning::Semantics;
use crate::ops::Ops;
use crate::rt::{Error, ErrorKind, Place, Result, Root};
use crate::scene::Scene;
use crate::verdict::Judge;

const BONE_NOTE: &str = "bone matrices are kept as stored: which space they map (bind pose, inverse bind pose, parent-relative) and whether they are stored by rows or by columns is not established";
const PALETTE_NOTE: &str = "the palettes are read packed one after another from the start of their block, as the document describes them (a reading); the block's bytes after the last palette are kept as stored";
const UNKNOWN_NOTE: &str = "fields marked unknown in the spec (face words and bytes, vertex words, source runs, the unknown words) are kept as stored; their meaning is not established";

fn compiled_notes(c: &CompiledMeshRef<'_>) -> Vec<String> {
    vec![geometry::compiled_note(c), PALETTE_NOTE.to_string()]
}

impl Semantics for SwsMesh {
    fn judge(view: &SwsMeshRef<'_>, at: &Place<'_, SwsMeshPos>, j: &mut Judge<'_>) {
        relations::mesh(view, at, j);
    }

    fn notes(view: &SwsMeshRef<'_>, _ctx: &Context) -> Vec<String> {
        let mut notes = compiled_notes(&view.data);
        if view.submeshes.is_empty() {
            notes.push("this mesh has no SubMeshes, so no vertex positions are established and it cannot be exported as geometry".into());
        } else {
            notes.push(geometry::geometry_note(view.submeshes.len()));
        }
        if !view.bones.is_empty() {
            notes.push(BONE_NOTE.to_string());
        }
        notes.push(UNKNOWN_NOTE.to_string());
        notes
    }

    fn scene(view: &SwsMeshRef<'_>, at: &Place<'_, SwsMeshPos>, _ctx: &Context) -> Result<Scene> {
        geometry::mesh_scene(view, at)
    }
}

impl Semantics for CompiledMesh {
    fn judge(view: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>, j: &mut Judge<'_>) {
        relations::compiled(view, at, j);
    }

    fn notes(view: &CompiledMeshRef<'_>, _ctx: &Context) -> Vec<String> {
        compiled_notes(view)
    }

    fn scene(
        view: &CompiledMeshRef<'_>,
        _at: &Place<'_, CompiledMeshPos>,
        _ctx: &Context,
    ) -> Result<Scene> {
        Err(Error::unplaced(
            ErrorKind::Unsupported,
            "a layout whose vertex positions are established (a Mesh with SubMeshes, or a SubMesh)",
            format!(
                "a CompiledMesh: the vertex format that flags 0x{:08X} selects (stride {}) is not in the documents",
                view.flags, view.stride
            ),
        )
        .rooted("export"))
    }
}

impl Semantics for Submesh {
    fn judge(view: &SubmeshRef<'_>, at: &Place<'_, SubmeshPos>, j: &mut Judge<'_>) {
        // Read on its own, a SubMesh is an original: its pointer holds its copy.
        relations::submesh(view, at, true, j);
    }

    fn notes(_view: &SubmeshRef<'_>, _ctx: &Context) -> Vec<String> {
        vec![
            format!(
                "read as an original SubMesh (its copy follows inline); {}",
                geometry::FRAME_NOTE
            ),
            UNKNOWN_NOTE.to_string(),
        ]
    }

    fn scene(view: &SubmeshRef<'_>, at: &Place<'_, SubmeshPos>, _ctx: &Context) -> Result<Scene> {
        geometry::submesh_scene(view, at)
    }
}

impl Semantics for MeshBone {
    fn notes(_view: &MeshBoneRef<'_>, _ctx: &Context) -> Vec<String> {
        vec![BONE_NOTE.to_string()]
    }
}

impl Semantics for MorphChannel {
    fn notes(_view: &MorphChannelRef<'_>, _ctx: &Context) -> Vec<String> {
        vec!["the positions are the morph target's absolute positions (not deltas); channel k of a SubMesh is morph stream k + 1 of its compiled mesh".into()]
    }
}

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, Ops)] = &[
    (<SwsMesh as Root>::ID, Ops::of::<SwsMesh>()),
    (<CompiledMesh as Root>::ID, Ops::of::<CompiledMesh>()),
    (<Submesh as Root>::ID, Ops::of::<Submesh>()),
    (<MeshBone as Root>::ID, Ops::of::<MeshBone>()),
    (<MorphChannel as Root>::ID, Ops::of::<MorphChannel>()),
];
