//! The verdict on a Unity Mesh: every relation the spec states, at its rule's severity, and
//! every check decoding makes that needs no choice from the user, each at the place the reader
//! recorded. The checks of each part live beside its decoder (`decode/`); this puts them
//! together and adds what concerns the whole object (the streamed range, the bones).

use super::decode::{self, DataSize, Source};
use super::stream;
use crate::generated::unity_mesh::{
    AlignedBytesPlace, MinMaxAabbVectorPlace, StreamingInfoPlace, StreamingInfoPos, UnityMesh,
    UnityMeshPlace, UnityMeshPos, UnityMeshRef, VertexDataPlace, VertexDataPos, VertexDataRef,
};
use crate::rt::{ErrorKind, Place};
use crate::verdict::Judge;

/// `bone_data_per_bind_pose`.
fn bones(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
    let rule = UnityMesh::REL_BONE_DATA_PER_BIND_POSE;
    let bones = decode::bind_pose_count(view);
    let hashes = view.bone_name_hashes.as_ref().map_or(0, |h| h.len());
    if let Some(p) = at
        .num_bone_name_hashes()
        .some()
        .filter(|_| hashes != 0 && hashes != bones)
    {
        j.push(p.violates(
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
fn vertex_data(
    view: &UnityMeshRef<'_>,
    data: &VertexDataRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    vd: &Place<'_, VertexDataPos>,
    streamed: Option<(&stream::StreamRange, Option<&std::path::Path>)>,
    j: &mut Judge<'_>,
) {
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
            len: data.data.data.len() as u64,
            at: inline.len_data(),
            what: "the vertex data",
        },
    };
    let table = decode::table::Table::of(data);
    let layout = decode::judge_layout(data, vd, &table, &size, j);
    decode::judge_blend_channels(&table, vd, j);
    if layout.channel(decode::slot::BLEND_INDICES).is_none() {
        return;
    }
    // The bone slots are in the vertex bytes: read the streamed range when the file holds it
    // (when it does not, an `unchecked` finding or an error already says so).
    let bind_poses = decode::bind_pose_count(view);
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
            decode::judge_bone_slots(&layout, data.data.data, &source, bind_poses, j);
        }
    }
}

/// `stream_data_replaces_inline_data`.
fn streamed_instead(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    r: &stream::StreamRange,
    sd: &Place<'_, StreamingInfoPos>,
    j: &mut Judge<'_>,
) {
    let rule = UnityMesh::REL_STREAM_DATA_REPLACES_INLINE_DATA;
    let inline = decode::inline_vertex_bytes(view);
    if let Some(vd) = at.vertex_data().some().filter(|_| !inline.is_empty()) {
        j.push(vd.data().len_data().violates(
            rule,
            format!(
                "no inline vertex bytes, since {} bytes are streamed",
                r.size
            ),
            format!("{} bytes", inline.len()),
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

/// Every finding on `view`.
pub(crate) fn all(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, j: &mut Judge<'_>) {
    let compressed = decode::is_compressed(view);
    let vc = decode::vertex_count(view);
    let streamed = stream::range(view);
    let sd = at.stream_data();
    let sd = sd.some();
    if let (Some(r), Some(sd)) = (&streamed, &sd) {
        streamed_instead(view, at, r, sd, j);
    }
    bones(view, at, j);
    decode::judge_m_skin(view, at, vc, decode::bind_pose_count(view), j);
    decode::judge_shapes(view, at, vc, j);
    let inline = decode::inline_vertex_bytes(view);
    let vd = at.vertex_data();
    let vertex_bytes = match vd.some() {
        Some(vd) if compressed && (!inline.is_empty() || streamed.is_some()) => {
            Some(vd.data().len_data().error(
                ErrorKind::Inconsistent,
                "no vertex data in a mesh whose compressed_mesh holds the vertices",
                format!(
                    "{} bytes of vertex data and {} packed position components",
                    inline.len() as u64 + streamed.as_ref().map_or(0, |r| r.size),
                    view.compressed_mesh.vertices.num_items
                ),
            ))
        }
        // Before 3.5: the positions in m_Vertices or in the compressed mesh, not both.
        None if compressed && decode::arrays::vertex_count(view) > 0 => {
            Some(at.num_vertices().error(
                ErrorKind::Inconsistent,
                "no positions in m_Vertices in a mesh whose compressed_mesh holds the vertices",
                format!(
                    "{} positions and {} packed position components",
                    decode::arrays::vertex_count(view),
                    view.compressed_mesh.vertices.num_items
                ),
            ))
        }
        _ => None,
    };
    decode::judge_compressed(
        &view.compressed_mesh,
        &at.compressed_mesh(),
        vertex_bytes,
        decode::bind_pose_count(view),
        j,
    );
    decode::judge_indices(view, at, vc, j);
    let file = match (&streamed, &sd) {
        (Some(r), Some(sd)) => stream::judge(r, sd, j),
        _ => None,
    };
    match (&view.vertex_data, vd.some()) {
        // The packed vectors were judged above.
        _ if compressed => {}
        (Some(data), Some(vd)) => {
            let streamed = streamed.as_ref().map(|r| (r, file.as_deref()));
            vertex_data(view, data, at, &vd, streamed, j);
        }
        _ => decode::arrays::judge(view, at, j),
    }
    decode::judge_variable(
        view,
        &at.variable_bone_count_weights(),
        vc,
        decode::variable_drawn(view, j.ctx.skin_weights),
        j,
    );
}
