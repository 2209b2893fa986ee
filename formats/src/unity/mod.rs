//! Unity's Mesh object (class 43): what the serialized fields mean beyond their bytes.
//!
//! The bytes are read and written by the generated [`UnityMesh`] (`spec/unity_mesh.ksy`), which
//! keeps everything raw and records where every field lies. On that view and its positions this
//! module gives the layout its meaning ([`Semantics`]): the verdict (every relation the spec
//! states, at its rule's severity, and every check decoding needs, with the streamed range
//! checked against its resource file, [`stream`]), and the geometry ([`decode`]).

pub mod decode;
pub mod files;
mod judge;
pub mod make;
pub mod origin;
pub mod stream;

use crate::context::{Context, SkinWeights};
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPos, UnityMeshRef};
use crate::meaning::Semantics;
use crate::rt::{Place, Result, Root};
use crate::scene::Scene;
use crate::verdict::Judge;
use decode::{SceneOptions, UnityMeshData};

/// The first editor version whose channel formats use the numbering of the 12 vertex formats
/// (2019.1), the only format table the documents give; earlier numberings are the spec's
/// sourced enums (`vertex_format_2017`, `channel_format_legacy`).
pub const FORMATS_FROM: u32 = 20190100;

/// The oldest editor version whose Mesh layout the spec describes (3.0.0).
pub const OLDEST_VERSION: u32 = 30000;

/// An editor version as the specs compare it (20210300), shown as `2021.3.0`.
pub fn version_text(v: u32) -> String {
    format!("{}.{}.{}", v / 10_000, v / 100 % 100, v % 100)
}

/// The version the mesh was read with, from the context (the generated reader needs it too).
pub(crate) fn version(ctx: &Context) -> u32 {
    ctx.params
        .get("unity_version")
        .and_then(|&v| u32::try_from(v).ok())
        .unwrap_or(0)
}

/// Whether the mesh was read as an editor's object (the spec's `unity_editor`), from the
/// context.
pub(crate) fn editor(ctx: &Context) -> bool {
    ctx.params.get("unity_editor").is_some_and(|&v| v != 0)
}

impl Semantics for UnityMesh {
    fn judge(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
        // An older editor's Mesh (2.x and before) has a layout the spec does not describe: a
        // newer one may read its bytes, but what it reads is no known meaning.
        let v = version(j.ctx);
        if v < OLDEST_VERSION {
            j.push(
                crate::rt::Error::new(
                    crate::rt::ErrorKind::Unsupported,
                    0,
                    "a Unity version whose Mesh layout the spec describes (3.0.0 or later)",
                    version_text(v),
                )
                .rooted("unity_mesh"),
            );
            return;
        }
        judge::all(view, at, j);
    }

    fn notes(view: &UnityMeshRef<'_>, ctx: &Context) -> Vec<String> {
        let mut out = vec![];
        let v = version(ctx);
        if v < FORMATS_FROM && !decode::is_compressed(view) && view.vertex_data.is_some() {
            out.push(
                "Before Unity 2019.1 the channel formats are numbered otherwise than in the documents: they are read by the public readers' tables (UnityPy, AssetStudio), labelled sourced in the spec.".into(),
            );
        }
        let strips = view
            .sub_meshes
            .iter()
            .filter(|s| decode::topology_id(s) == decode::Topology::TriangleStrip.id())
            .count();
        if strips > 0 {
            out.push(format!(
                "{strips} submeshes are triangle strips, which the documents do not describe: decoded by the public readers' reading (alternate triangles turned, those with a repeated index left out)."
            ));
        }
        if view.legacy_shapes.as_ref().is_some_and(|s| !s.is_empty()) {
            out.push(format!(
                "The blend shapes of Unity 4.1/4.2 have one frame each, read as full at weight {} (an inferred reading).",
                decode::LEGACY_FULL_WEIGHT
            ));
        }
        if let Some(r) = stream::range(view) {
            out.push(format!(
                "The vertex data is streamed: {} bytes at offset {} of `{}` (found beside the input by its file name, or given with --ress).",
                r.size,
                r.offset,
                r.file_name()
            ));
        }
        if decode::is_compressed(view) {
            out.push("The vertices are in m_CompressedMesh (bit-packed, quantised).".into());
            if view.compressed_mesh.weights.num_items > 0 {
                out.push("The skin weights of m_CompressedMesh (m_Weights) are decoded by an inferred reading: 5-bit weights in 31sts, a vertex's weights ending at 31 or after three with a fourth implied; the documents leave their decoding open.".into());
            }
        }
        if view
            .variable_bone_count_weights
            .as_ref()
            .is_some_and(|w| !w.data.is_empty())
            && ctx.skin_weights != SkinWeights::All
        {
            out.push("m_VariableBoneCountWeights holds every influence of every vertex; Unity draws it only at unlimited skin weights (export --skin-weights all).".into());
        }
        out
    }

    fn scene(
        view: &UnityMeshRef<'_>,
        at: &Place<'_, UnityMeshPos>,
        ctx: &Context,
    ) -> Result<Scene> {
        let streamed = stream::read(view, ctx)?;
        let bytes = streamed
            .as_deref()
            .unwrap_or(decode::inline_vertex_bytes(view));
        let opts = SceneOptions {
            skin_weights: ctx.skin_weights,
            ..SceneOptions::default()
        };
        scene_of(view, at, bytes, &opts)
    }
}

/// The common model of a mesh whose verdict passed, read at `at`, with `vertex_bytes` its
/// vertex data (inline, or the streamed range wherever it was found) and `opts` its names and
/// skin weights.
pub(crate) fn scene_of(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    vertex_bytes: &[u8],
    opts: &SceneOptions,
) -> Result<Scene> {
    let data = decode::decode(view, vertex_bytes, opts.skin_weights);
    let mut done = decode::to_scene(data, opts)?;
    origin::fill(view, at, &mut done.mesh);
    Ok(Scene {
        meshes: vec![done.mesh],
        notes: done.notes,
    })
}

/// The decoded mesh of a view whose verdict passed: the streamed range read once.
fn mesh_data_of(view: &UnityMeshRef<'_>, ctx: &Context) -> Result<UnityMeshData> {
    let streamed = stream::read(view, ctx)?;
    let bytes = streamed
        .as_deref()
        .unwrap_or(decode::inline_vertex_bytes(view));
    Ok(decode::decode(view, bytes, ctx.skin_weights))
}

/// The mesh `input` holds, decoded in Unity's frame, when its verdict passes (the verdict's
/// first failure otherwise): what [`Semantics::scene`] brings into the common model.
pub fn mesh_data(input: &[u8], ctx: &Context) -> Result<UnityMeshData> {
    let r = crate::reading::TypedReading::<UnityMesh>::new(input, ctx);
    let (view, _) = r.passed(&crate::reading::judged(&r, ctx))?;
    mesh_data_of(view, ctx)
}

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::ops::Ops)] =
    &[(<UnityMesh as Root>::ID, crate::ops::Ops::of::<UnityMesh>())];
