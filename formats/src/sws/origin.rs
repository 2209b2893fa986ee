//! Where an exported SubMesh's parts lie in the input, and what the body says about the bones
//! that are not exported as a skin: filled into [`Origin`] so that glTF's `extras` lead from
//! what a viewer shows back to the bytes.

use super::offsets;
use crate::generated::sws_mesh::{MeshBone, Submesh, SwsMesh};
use crate::scene::{Extras, Origin, SourceRange};
use serde_json::json;

/// The ranges of SubMesh `s`, whose managed byte is at `base` of the input and whose spec path
/// is `path`. Its one primitive is its index run.
pub fn submesh(s: &Submesh, path: &str, base: u64) -> Origin {
    let at = offsets::submesh(s);
    let mut ranges = vec![];
    let mut add = |field: String, primitive, offset: u64, len: u64| {
        ranges.push(SourceRange {
            field,
            primitive,
            offset: base + offset,
            len,
            file: None,
        })
    };
    add(
        format!("{path}.indices"),
        Some(0),
        at.indices,
        offsets::u16_run(&s.indices),
    );
    add(format!("{path}.material_id"), Some(0), at.material_id, 4);
    add(
        format!("{path}.positions"),
        None,
        at.positions,
        offsets::float3_run(&s.positions),
    );
    add(
        format!("{path}.normals"),
        None,
        at.normals,
        offsets::float3_run(&s.normals),
    );
    add(
        format!("{path}.colours"),
        None,
        at.colours,
        offsets::u32_run(&s.colours),
    );
    for (k, (c, &p)) in s.uv_channels.items.iter().zip(&at.uv_channel).enumerate() {
        add(
            format!("{path}.uv_channels[{k}]"),
            None,
            p,
            offsets::uv_channel(c).end,
        );
    }
    for (k, (c, &p)) in s
        .morph_channels
        .items
        .iter()
        .zip(&at.morph_channel)
        .enumerate()
    {
        add(
            format!("{path}.morph_channels[{k}]"),
            None,
            p,
            offsets::morph_channel(c).end,
        );
    }
    if let Some(copy) = s.copy.submesh.as_deref() {
        let c = offsets::submesh(copy);
        let copy_at = at.copy_submesh;
        add(
            format!("{path}.copy.submesh.tangents"),
            None,
            copy_at + c.tangents,
            offsets::float3_run(&copy.tangents),
        );
        add(
            format!("{path}.copy.submesh.binormals"),
            None,
            copy_at + c.binormals,
            offsets::float3_run(&copy.binormals),
        );
    }
    Origin {
        layout: String::new(),
        ranges,
        extras: Extras::new(),
    }
}

/// The ranges of SubMesh `i` of a Mesh body, and the body's bones (id, name hash, where each
/// is) in `extras.bones`: they are not exported as a skin, but a user can find them.
pub fn mesh_submesh(m: &SwsMesh, i: usize) -> Origin {
    let at = offsets::mesh(m);
    let base = at.submesh.get(i).copied().unwrap_or(0);
    let mut o = match m.submeshes.get(i) {
        Some(e) => submesh(
            &e.submesh,
            &format!("sws_mesh.submeshes[{i}].submesh"),
            base,
        ),
        None => Origin::default(),
    };
    if !m.bones.is_empty() {
        let bones: Vec<serde_json::Value> = m
            .bones
            .iter()
            .enumerate()
            .map(|(k, b)| {
                json!({
                    "index": k,
                    "id": b.id,
                    "name_hash": b.name_hash,
                    "offset": at.bones + MeshBone::FIXED_SIZE * k as u64,
                })
            })
            .collect();
        o.extras.insert("bones".into(), bones.into());
    }
    o
}
