//! Mesh objects (class 43) of game files.
//!
//! A Mesh is read by the generated `unity-mesh` reader with its file's editor version, and
//! whether the editor saved the file for itself ([`Layout`]): the spec is the one reading of
//! its bytes, and decoding works on that reading. Where the file carries
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

/// Which fixed `unity-mesh` layout reads a Mesh: the parameters the spec's layout takes, from
/// the object's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The editor version that wrote it (major x 10,000 + minor x 100 + patch).
    pub version: u32,
    /// Whether the editor saved it for itself ([`super::serialized::Serialized::editor`]):
    /// the spec's `unity_editor`, which adds the editor-only fields.
    pub editor: bool,
}

impl From<u32> for Layout {
    /// The layout of a player's (or a bundle's) object of `version`.
    fn from(version: u32) -> Layout {
        Layout {
            version,
            editor: false,
        }
    }
}

impl Layout {
    /// `ctx` with the layout's parameters set.
    pub fn set(self, ctx: Context) -> Context {
        ctx.with_param("unity_version", i128::from(self.version))
            .with_param("unity_editor", i128::from(self.editor))
    }

    /// The layout in words: `the layout of 2017.1.0` (`an editor's object of ...`).
    pub fn text(self) -> String {
        if self.editor {
            format!(
                "the layout of an editor's object of {}",
                version_text(self.version)
            )
        } else {
            format!("the layout of {}", version_text(self.version))
        }
    }
}

/// The fixed layout `layout`, from the spec alone, in Unity's names: every field it has, with
/// what it holds ([`fields::unity_fields`]). Made once per layout (a file holds one; the few
/// kept are dropped when many are asked for).
pub fn layout_shape(layout: impl Into<Layout>) -> Arc<[UnityField]> {
    /// How many layouts are kept.
    const KEPT: usize = 16;
    static MADE: OnceLock<Mutex<HashMap<Layout, Arc<[UnityField]>>>> = OnceLock::new();
    let layout = layout.into();
    let made = MADE.get_or_init(Default::default);
    if let Some(l) = made.lock().ok().and_then(|m| m.get(&layout).cloned()) {
        return l;
    }
    let info = <UnityMesh as Codec>::INFO;
    let ctx = context(layout);
    // (Every parameter the layout takes is set in `ctx`.)
    let params: Vec<i128> = info
        .params
        .iter()
        .map(|p| crate::rt::Params::param(&ctx, p).unwrap_or_default())
        .collect();
    let shape: Arc<[UnityField]> =
        fields::unity_fields(&crate::rt::meta::shape(info, &params)).into();
    if let Ok(mut m) = made.lock() {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(layout, shape.clone());
    }
    shape
}

/// The context the fixed `unity-mesh` layout `layout` is read with (a version alone is a
/// player's object).
pub fn context(layout: impl Into<Layout>) -> Context {
    layout.into().set(Context::new())
}

/// A Mesh object read by the fixed layout `layout`, with where each field lies.
pub fn read_fixed(bytes: &[u8], layout: impl Into<Layout>) -> Result<(UnityMesh, UnityMeshPos)> {
    let p = UnityMesh::read::<true>(bytes, &context(layout))?;
    Ok((UnityMesh::own(&p.value), p.pos.unwrap_or_default()))
}

/// Checks the reading of a Mesh's bytes by the fixed layout `layout` against the object's
/// type tree reading (`value`): the layout must read the object to its end and end every
/// top-level field where the type tree does. Where it does not, the error names the first
/// field where the tree and the layout part (names, nesting and the sizes of numbers, into
/// nested types), with its name and type in both, at its offset; where they have the same
/// fields, the first top-level field that ends elsewhere, or the layout's own error. `offset`
/// is the object's offset in its file.
pub fn check_fixed_layout(
    read: &TypedReading<'_, UnityMesh>,
    layout: impl Into<Layout>,
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
    let layout = layout.into();
    let shape = layout_shape(layout);
    let layout = layout.text();
    if let Some(p) = fields::parting(trees, value, &shape, UnityMesh::ROOT) {
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
