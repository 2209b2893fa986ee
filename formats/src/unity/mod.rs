//! Unity's Mesh object (class 43): what the serialized fields mean beyond their bytes.
//!
//! The bytes are read and written by the generated [`UnityMesh`] (`spec/unity_mesh.ksy`), which
//! keeps everything raw and records where every field lies. On that view and its positions this
//! module gives the layout its meaning ([`Semantics`]): the verdict (every relation the spec
//! states, at its rule's severity, and every check decoding needs, with the streamed range
//! checked against its resource file, [`stream`]), and the geometry ([`decode`]).

pub mod decode;
pub mod make;
pub mod origin;
pub mod stream;

use crate::context::{Context, SkinWeights};
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPos, UnityMeshRef};
use crate::layouts::Semantics;
use crate::rt::{Error, ErrorKind, Place, Result, Root};
use crate::scene::Scene;
use crate::verdict::Judge;
use decode::{DataSize, SceneOptions, Source, UnityMeshData};

/// The first editor version whose channel formats use the numbering of the 12 vertex formats
/// (2019.1), the only format table the documents give: geometry is decoded, and the vertex
/// layout checked, from this version on.
pub const FORMATS_FROM: u32 = 20190100;

/// The oldest editor version whose Mesh layout the spec describes (5.3.5).
pub const OLDEST_VERSION: u32 = 50305;

/// The version the mesh was read with, from the context (the generated reader needs it too).
fn version(ctx: &Context) -> u32 {
    ctx.params
        .get("unity_version")
        .and_then(|&v| u32::try_from(v).ok())
        .unwrap_or(0)
}

/// `bone_data_per_bind_pose`.
fn judge_bones(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
    let rule = UnityMesh::REL_BONE_DATA_PER_BIND_POSE;
    let bones = view.bind_poses.len();
    let hashes = view.bone_name_hashes.len();
    if hashes != 0 && hashes != bones {
        j.push(at.num_bone_name_hashes().violates(
            rule,
            format!("none or one bone name hash per bind pose ({bones})"),
            hashes.to_string(),
        ));
    }
    let boxes = at.bones_aabb();
    if let (Some(b), Some(p)) = (&view.bones_aabb, boxes.some()) {
        if !b.items.is_empty() && b.items.len() != bones {
            j.push(p.num_items().violates(
                rule,
                format!("none or one bone box per bind pose ({bones})"),
                b.items.len().to_string(),
            ));
        }
    }
}

/// The verdict's vertex data part for a mesh whose vertices are in the vertex data: the layout
/// against the bytes (inline, or the streamed range), the blend channels, and, where the bytes
/// can be read, the bone slots in them.
fn judge_vertex_data(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    streamed: Option<(&stream::StreamRange, Option<&std::path::Path>)>,
    j: &mut Judge<'_>,
) {
    let vd = at.vertex_data();
    let inline = vd.data();
    let sd = at.stream_data();
    let sd = sd.some();
    let size = match (streamed, &sd) {
        (Some((r, _)), Some(sd)) => DataSize {
            len: r.size,
            at: sd.len_data(),
            what: "the streamed range",
        },
        _ => DataSize {
            len: view.vertex_data.data.data.len() as u64,
            at: inline.len_data(),
            what: "the vertex data",
        },
    };
    let layout = decode::judge_layout(&view.vertex_data, &vd, &size, j);
    decode::judge_blend_channels(&view.vertex_data.channels, &vd, j);
    if layout.channel(decode::slot::BLEND_INDICES).is_none() {
        return;
    }
    // The bone slots are in the vertex bytes: read the streamed range when the file holds it
    // (when it does not, an `unchecked` finding or an error already says so).
    let bind_poses = view.bind_poses.len();
    match (streamed, &sd) {
        (Some((r, file)), Some(sd)) => {
            let Some(file) = file else {
                return;
            };
            match stream::read_range(file, r.offset, r.size) {
                Ok(bytes) => {
                    let source = Source::Streamed {
                        offset: r.offset,
                        file: r.file_name().to_string(),
                        path: sd.field_path().clone(),
                    };
                    decode::judge_bone_slots(&layout, &bytes, &source, bind_poses, j);
                }
                Err(e) => j.unchecked(
                    "the bone slots of the streamed vertex data",
                    format!("{e}; give --ress FILE"),
                ),
            }
        }
        _ => {
            let bytes = inline.data();
            let source = Source::Inline {
                start: bytes.span().start,
                path: bytes.field_path().clone(),
            };
            decode::judge_bone_slots(&layout, view.vertex_data.data.data, &source, bind_poses, j);
        }
    }
}

impl Semantics for UnityMesh {
    fn judge(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
        let compressed = decode::is_compressed(view);
        let vc = decode::vertex_count(view);
        let streamed = stream::range(view);
        let sd = at.stream_data();
        let sd = sd.some();
        if let (Some(r), Some(sd)) = (&streamed, &sd) {
            let rule = UnityMesh::REL_STREAM_DATA_REPLACES_INLINE_DATA;
            if !view.vertex_data.data.data.is_empty() {
                j.push(at.vertex_data().data().len_data().violates(
                    rule,
                    format!(
                        "no inline vertex bytes, since {} bytes are streamed",
                        r.size
                    ),
                    format!("{} bytes", view.vertex_data.data.data.len()),
                ));
            }
            if r.file_name().is_empty() {
                j.push(sd.path().violates(
                    rule,
                    "a resource path ending in a file name",
                    format!("`{}`", r.path),
                ));
            }
        }
        judge_bones(view, at, j);
        decode::judge_shapes(&view.shapes, &at.shapes(), vc, j);
        let vertex_bytes = (compressed
            && (!view.vertex_data.data.data.is_empty() || streamed.is_some()))
        .then(|| {
            at.vertex_data().data().len_data().error(
                ErrorKind::Inconsistent,
                "no vertex data in a mesh whose compressed_mesh holds the vertices",
                format!(
                    "{} bytes of vertex data and {} packed position components",
                    view.vertex_data.data.data.len() as u64
                        + streamed.as_ref().map_or(0, |r| r.size),
                    view.compressed_mesh.vertices.num_items
                ),
            )
        });
        decode::judge_compressed(
            &view.compressed_mesh,
            &at.compressed_mesh(),
            vertex_bytes,
            view.bind_poses.len(),
            j,
        );
        decode::judge_indices(view, at, vc, j);
        let file = match (&streamed, &sd) {
            (Some(r), Some(sd)) => stream::judge(r, sd, j),
            _ => None,
        };
        if compressed {
            // The packed vectors were judged above.
        } else if version(j.ctx) < FORMATS_FROM {
            j.unchecked(
                "vertex_layout_fills_data and the channel formats",
                format!(
                    "the vertex format table of unity_version {} is not in the documents (they give the numbering from 2019.1)",
                    version(j.ctx)
                ),
            );
        } else {
            let streamed = streamed.as_ref().map(|r| (r, file.as_deref()));
            judge_vertex_data(view, at, streamed, j);
        }
        decode::judge_variable(
            view,
            &at.variable_bone_count_weights(),
            vc,
            decode::variable_drawn(view, j.ctx.skin_weights),
            j,
        );
    }

    fn notes(view: &UnityMeshRef<'_>, ctx: &Context) -> Vec<String> {
        let mut out = vec![];
        let v = version(ctx);
        if v < OLDEST_VERSION {
            out.push(format!(
                "unity_version {v} is older than 5.3.5, whose Mesh layout the spec does not describe: the fields are read with the 5.3.5 layout"
            ));
        }
        if v < FORMATS_FROM {
            out.push(
                "Before Unity 2019.1 the channel formats are numbered differently: the fields are read, but no geometry is decoded.".into(),
            );
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

    fn scene(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, ctx: &Context) -> Result<Scene> {
        let v = version(ctx);
        if v < FORMATS_FROM {
            // Before 2019.1 the channel formats are numbered differently (and before 2018.2
            // the skin is in m_Skin): the decoder knows only the 2019.1 numbering.
            return Err(Error::unplaced(
                ErrorKind::Unsupported,
                "a mesh of Unity 2019.1 or later (the vertex format numbering the decoder knows)",
                format!("unity_version {v}"),
            )
            .rooted(<UnityMesh as Root>::ROOT));
        }
        let data = mesh_data_of(view, ctx)?;
        let opts = SceneOptions {
            skin_weights: ctx.skin_weights,
            ..SceneOptions::default()
        };
        let mut done = decode::to_scene(&data, &opts)?;
        origin::fill(view, at, &mut done.mesh);
        Ok(Scene {
            meshes: vec![done.mesh],
            notes: done.notes,
        })
    }
}

/// The decoded mesh of a view whose verdict passed: the streamed range read once.
fn mesh_data_of(view: &UnityMeshRef<'_>, ctx: &Context) -> Result<UnityMeshData> {
    let streamed = stream::read(view, ctx)?;
    let bytes = streamed
        .as_deref()
        .unwrap_or(view.vertex_data.data.data);
    Ok(decode::decode(view, bytes, ctx.skin_weights))
}

/// The mesh `input` holds, decoded in Unity's frame, when its verdict passes (the verdict's
/// first failure otherwise): what [`Semantics::scene`] brings into the common model.
pub fn mesh_data(input: &[u8], ctx: &Context) -> Result<UnityMeshData> {
    let verdict = crate::verdict::judge::<UnityMesh>(input, ctx);
    if let Some(e) = verdict.first_failure() {
        return Err(e.clone());
    }
    let read = UnityMesh::read::<false>(input, ctx)?;
    mesh_data_of(&read.value, ctx)
}

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::layouts::Ops)] = &[(
    <UnityMesh as Root>::ID,
    crate::layouts::Ops::of::<UnityMesh>(),
)];
