//! Mesh objects (class 43) of game files.
//!
//! A Mesh is read by the generated `unity-mesh` reader with its file's editor version: the spec
//! is the one reading of its bytes, and decoding works on that reading. Where the file carries
//! type trees, the object is also read through its type tree and the fixed layout checked
//! against it ([`check_fixed_layout`]): the layout must have the tree's fields, both must read
//! the object to its end, and every top-level field must end where the type tree says, so a
//! version whose layout the spec gets wrong is refused rather than misread, with the first
//! field where the two part.

use super::fields::{self, LayoutField, UnityField};
use super::game::version_text;
use super::typetree::{Trees, Value};
use crate::context::Context;
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPos};
use crate::reading::TypedReading;
use crate::rt::{Codec, Error, ErrorKind, Result, Root};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The class id of Mesh.
pub const MESH: i32 = 43;

/// The top-level fields of a Mesh as the fixed layout read them (`pos`, the positions its
/// reader recorded), in Unity's names with where each lies: derived from the spec's
/// `-orig-id`s ([`fields::layout_fields`]).
pub fn layout_fields(pos: &UnityMeshPos) -> Vec<LayoutField> {
    fields::layout_fields(pos)
}

/// The fixed layout of `version`, from the spec alone, in Unity's names: every field the
/// version has, with what it holds ([`fields::unity_fields`]). Made once per version (a file
/// holds one version; the few kept are dropped when many are asked for).
pub fn layout_shape(version: u32) -> Arc<[UnityField]> {
    /// How many versions' layouts are kept.
    const KEPT: usize = 16;
    static MADE: OnceLock<Mutex<HashMap<u32, Arc<[UnityField]>>>> = OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    if let Some(l) = made.lock().ok().and_then(|m| m.get(&version).cloned()) {
        return l;
    }
    let info = <UnityMesh as Codec>::INFO;
    let ctx = context(version);
    let params: Vec<i128> = info
        .params
        .iter()
        .map(|p| crate::rt::Params::param(&ctx, p).unwrap_or_default())
        .collect();
    let layout: Arc<[UnityField]> =
        fields::unity_fields(&crate::rt::meta::shape(info, &params)).into();
    if let Ok(mut m) = made.lock() {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(version, layout.clone());
    }
    layout
}

/// The context the fixed `unity-mesh` layout of `version` (major x 10,000 + minor x 100 +
/// patch) is read with.
pub fn context(version: u32) -> Context {
    Context::new().with_param("unity_version", i128::from(version))
}

/// A Mesh object read by the fixed layout of `version`, with where each field lies.
pub fn read_fixed(bytes: &[u8], version: u32) -> Result<(UnityMesh, UnityMeshPos)> {
    let p = UnityMesh::read::<true>(bytes, &context(version))?;
    Ok((UnityMesh::own(&p.value), p.pos.unwrap_or_default()))
}

/// Checks the reading of a Mesh's bytes by the fixed layout of `version` against the object's
/// type tree reading (`value`): the layout must read the object to its end and end every
/// top-level field where the type tree does. Where it does not, the error names the first
/// field where the tree and the layout part (names, nesting and the sizes of numbers, into
/// nested types), with its name and type in both, at its offset; where they have the same
/// fields, the first top-level field that ends elsewhere, or the layout's own error. `offset`
/// is the object's offset in its file.
pub fn check_fixed_layout(
    read: &TypedReading<'_, UnityMesh>,
    version: u32,
    value: &Value,
    trees: &Trees,
    offset: u64,
) -> Result<()> {
    let theirs: Vec<(&str, u64)> = value
        .fields(trees)
        .into_iter()
        .map(|(n, v)| (n, u64::from(v.end)))
        .collect();
    let ends = |pos: &UnityMeshPos| -> Vec<(&'static str, u64)> {
        layout_fields(pos)
            .iter()
            .map(|f| (f.name, f.span.end))
            .collect()
    };
    let pos = match read.read() {
        Ok(r) if ends(&r.pos) == theirs => return Ok(()),
        Ok(r) => Ok(&r.pos),
        Err(e) => Err(e.clone().shifted(offset)),
    };
    let layout = format!("the layout of {}", version_text(version));
    if let Some(p) = fields::parting(trees, value, &layout_shape(version), UnityMesh::ROOT) {
        return Err(p.error(offset, &layout));
    }
    // The same fields, yet the layout reads the bytes otherwise: its own error, or the first
    // top-level field that ends elsewhere.
    let ours = ends(pos?);
    let k = (0..).find(|&k| ours.get(k) != theirs.get(k)).unwrap_or(0);
    let (o, t) = (ours.get(k), theirs.get(k));
    let at = k
        .checked_sub(1)
        .and_then(|p| theirs.get(p))
        .map_or(0, |x| x.1);
    let name = t.or(o).map_or("(end)", |x| x.0);
    Err(Error::new(
        ErrorKind::Inconsistent,
        offset + at,
        match t {
            Some((n, end)) => format!(
                "`{}` ending at 0x{end:X}, as the object's type tree reads it",
                n.escape_debug()
            ),
            None => "the end of the object, as its type tree reads it".into(),
        },
        match o {
            Some((n, end)) => format!("`{n}` ending at 0x{end:X} in {layout}"),
            None => format!("the end of {layout}"),
        },
    )
    .in_field(name.escape_debug().to_string())
    .rooted(UnityMesh::ROOT))
}
