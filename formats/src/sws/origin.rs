//! Where an exported SubMesh's parts lie in the input, and what the body says about the bones
//! that are not exported as a skin: filled into [`Origin`] so that glTF's `extras` lead from
//! what a viewer shows back to the bytes. Every range is one the reader recorded.

use super::relations::with_copy;
use crate::generated::sws_mesh::{
    MorphChannelRunPlace, SubmeshPlace, SubmeshPos, SubmeshRef, SwsMeshPlace, SwsMeshPos,
    SwsMeshRef, UvChannelRunPlace,
};
use crate::rt::{Place, Spanned};
use crate::scene::{Extras, Origin, SourceRange};
use serde_json::json;

fn range<P: Clone + Spanned>(at: &Place<'_, P>, primitive: Option<usize>) -> SourceRange {
    let span = at.span();
    SourceRange {
        field: at.field_path().to_string(),
        primitive,
        offset: span.start,
        len: span.len(),
        file: None,
    }
}

/// The ranges of SubMesh `s` at `at`. Its one primitive is its index run.
pub fn submesh(s: &SubmeshRef<'_>, at: &Place<'_, SubmeshPos>) -> Origin {
    let mut ranges = vec![
        range(&at.indices(), Some(0)),
        range(&at.material_id(), Some(0)),
        range(&at.positions(), None),
        range(&at.normals(), None),
        range(&at.colours(), None),
    ];
    let uv = at.uv_channels();
    let uv = uv.items();
    ranges.extend((0..s.uv_channels.items.len()).map(|k| range(&uv.at(k), None)));
    let morph = at.morph_channels();
    let morph = morph.items();
    ranges.extend((0..s.morph_channels.items.len()).map(|k| range(&morph.at(k), None)));
    with_copy(s, at, |_, copy| {
        ranges.push(range(&copy.tangents(), None));
        ranges.push(range(&copy.binormals(), None));
    });
    Origin {
        layout: String::new(),
        ranges,
        extras: Extras::new(),
    }
}

/// The body's bones (id, name hash, where each is), for `extras.bones` of every mesh exported
/// from it: they are not exported as a skin, but a user can find them. `None` without bones.
pub fn bones(m: &SwsMeshRef<'_>, at: &Place<'_, SwsMeshPos>) -> Option<serde_json::Value> {
    if m.bones.is_empty() {
        return None;
    }
    let places = at.bones();
    let bones: Vec<serde_json::Value> = m
        .bones
        .iter()
        .enumerate()
        .map(|(k, b)| {
            json!({
                "index": k,
                "id": b.id,
                "name_hash": b.name_hash,
                "offset": places.at(k).span().start,
            })
        })
        .collect();
    Some(bones.into())
}
