//! Where an exported Unity mesh's parts lie in the serialized object (or its resource file), and
//! what the object says about each bone: filled into the common model's [`Origin`] and
//! [`crate::scene::Skin::joint_extras`] from the positions the reader recorded, so that glTF's
//! names and `extras` lead from what a viewer shows back to the bytes.
//!
//! [`Origin`]: crate::scene::Origin

use super::decode::{is_compressed, stored_run};
use super::stream;
use crate::generated::unity_mesh::{
    AlignedBytesPlace, UnityMeshPlace, UnityMeshPos, UnityMeshRef, VertexDataPlace,
};
use crate::rt::{Place, Root};
use crate::scene::{Extras, Mesh, SourceRange};
use serde_json::json;

/// Fills `mesh` (decoded from `view`, read at `at`): the vertex data's, the index buffer's, each
/// submesh's and the bind poses' byte ranges; each joint's name from its bone slot and
/// `m_BoneNameHashes` value, and its slot, hash and bind pose offset in extras.
pub fn fill(view: &UnityMeshRef<'_>, at: &Place<'_, UnityMeshPos>, mesh: &mut Mesh) {
    let mut ranges = vec![];
    let range = |field: String, primitive, offset, len, file: Option<String>| SourceRange {
        field,
        primitive,
        offset,
        len,
        file,
    };
    let vd = at.vertex_data();
    let vd = vd.some();
    let data = vd.as_ref().map(|vd| vd.data());
    let bytes = data.as_ref().map(|d| d.data());
    match stream::range(view) {
        Some(r) => ranges.push(range(
            "unity_mesh.stream_data".into(),
            None,
            r.offset,
            r.size,
            Some(r.file_name().to_string()),
        )),
        None => {
            if let Some(bytes) =
                bytes.filter(|_| !super::decode::inline_vertex_bytes(view).is_empty())
            {
                ranges.push(range(
                    bytes.field_path().to_string(),
                    None,
                    bytes.span().start,
                    bytes.span().len(),
                    None,
                ))
            }
        }
    }
    let compressed = is_compressed(view);
    let subs = at.sub_meshes();
    for (i, s) in view.sub_meshes.iter().enumerate() {
        let sm = subs.at(i);
        ranges.push(range(
            sm.field_path().to_string(),
            Some(i),
            sm.span().start,
            sm.span().len(),
            None,
        ));
        if let Some((path, span)) = (!compressed).then(|| stored_run(view, at, s)).flatten() {
            ranges.push(range(
                path.to_string(),
                Some(i),
                span.start,
                span.len(),
                None,
            ));
        }
    }
    // The bind poses where the era stores them (after m_Skin before 4.3).
    let poses = at
        .bind_poses()
        .some()
        .map(|p| p.owned())
        .or_else(|| at.bind_poses_after_skin().some().map(|p| p.owned()));
    if let Some(poses) = poses
        .as_ref()
        .filter(|_| !crate::unity::decode::bind_poses(view).is_empty())
    {
        ranges.push(range(
            poses.field_path().to_string(),
            None,
            poses.span().start,
            poses.span().len(),
            None,
        ));
    }
    mesh.origin.ranges.extend(ranges);
    mesh.origin.layout = <crate::generated::unity_mesh::UnityMesh as Root>::ID.into();
    let Some(skin) = &mut mesh.skin else {
        return;
    };
    let hashes: Vec<u32> = view
        .bone_name_hashes
        .as_ref()
        .map(|h| h.iter().collect())
        .unwrap_or_default();
    let named = hashes.len() == skin.joint_names.len();
    let mut extras = Vec::with_capacity(skin.joint_names.len());
    for (i, name) in skin.joint_names.iter_mut().enumerate() {
        let mut e = Extras::new();
        e.insert("bone_slot".into(), json!(i));
        if let Some(p) = &poses {
            e.insert("bind_pose_offset".into(), json!(p.at(i).span().start));
        }
        if let Some(h) = hashes.get(i).filter(|_| named) {
            e.insert("name_hash".into(), json!(h));
            // Only the default names are replaced: names a caller gave (a renderer's bones)
            // stay.
            if *name == format!("bone {i}") {
                *name = format!("bone {i} (name hash 0x{h:08X})");
            }
        }
        extras.push(e);
    }
    skin.joint_extras = extras;
}
