//! Where an exported Unity mesh's parts lie in the serialized object (or its resource file), and
//! what the object says about each bone: filled into the common model's [`Origin`] and
//! [`crate::scene::Skin::joint_extras`], so that glTF's names and `extras` lead from what a
//! viewer shows back to the bytes.

use super::{stream, Offsets};
use crate::generated::unity_mesh::UnityMesh;
use crate::scene::{Extras, Mesh, SourceRange};
use serde_json::json;

/// Fills `mesh` (converted from `m` read with `unity_version`): the vertex data's, the index
/// buffer's, each submesh's and the bind poses' byte ranges; each joint's name from its bone
/// slot and `m_BoneNameHashes` value, and its slot, hash and bind pose offset in extras.
pub fn fill(m: &UnityMesh, unity_version: u32, mesh: &mut Mesh) {
    let o: Offsets = m.offsets(unity_version);
    let mut ranges = vec![];
    let range = |field: String, primitive, offset, len, file: Option<String>| SourceRange {
        field,
        primitive,
        offset,
        len,
        file,
    };
    match stream::range(m) {
        Some(r) => ranges.push(range(
            "unity_mesh.stream_data".into(),
            None,
            r.offset,
            r.size,
            Some(r.file_name().to_string()),
        )),
        None if !m.vertex_data.data.data.is_empty() => ranges.push(range(
            "unity_mesh.vertex_data.data".into(),
            None,
            o.vertex_bytes,
            m.vertex_data.data.data.len() as u64,
            None,
        )),
        None => {}
    }
    let isz = m.index_size().unwrap_or(2) as u64;
    let compressed = m.is_compressed();
    for (i, s) in m.sub_meshes.iter().enumerate() {
        let stride = if s.base_vertex.is_some() { 48 } else { 44 };
        ranges.push(range(
            format!("unity_mesh.sub_meshes[{i}]"),
            Some(i),
            o.sub_meshes + stride * i as u64,
            stride,
            None,
        ));
        if !compressed {
            ranges.push(range(
                "unity_mesh.index_buffer.data".into(),
                Some(i),
                o.index_buffer_data + u64::from(s.first_byte),
                u64::from(s.index_count) * isz,
                None,
            ));
        }
    }
    // The bind poses' matrices end where the bone name hashes' count starts.
    let bones = m.bind_poses.len() as u64;
    let bind_poses = o.bone_name_hashes.saturating_sub(64 * bones);
    if bones > 0 {
        ranges.push(range(
            "unity_mesh.bind_poses".into(),
            None,
            bind_poses,
            64 * bones,
            None,
        ));
    }
    mesh.origin.ranges.extend(ranges);
    mesh.origin.layout = "unity-mesh".into();
    let Some(skin) = &mut mesh.skin else {
        return;
    };
    let hashes =
        (m.bone_name_hashes.len() == skin.joint_names.len()).then_some(&m.bone_name_hashes);
    let mut extras = Vec::with_capacity(skin.joint_names.len());
    for (i, name) in skin.joint_names.iter_mut().enumerate() {
        let mut e = Extras::new();
        e.insert("bone_slot".into(), json!(i));
        e.insert("bind_pose_offset".into(), json!(bind_poses + 64 * i as u64));
        if let Some(h) = hashes.map(|h| h[i]) {
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
