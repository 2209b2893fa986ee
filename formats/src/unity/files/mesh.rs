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
use crate::rt::{Codec, Error, ErrorKind, Result, Root};

/// The class id of Mesh.
pub const MESH: i32 = 43;

/// The top-level fields of a Mesh as the fixed layout read them (`pos`, the positions its
/// reader recorded), in Unity's names with where each lies: derived from the spec's
/// `-orig-id`s ([`fields::layout_fields`]).
pub fn layout_fields(pos: &UnityMeshPos) -> Vec<LayoutField> {
    fields::layout_fields(pos)
}

/// The fixed layout of `version`, from the spec alone, in Unity's names: every field the
/// version has, with what it holds ([`fields::unity_fields`]).
pub fn layout_shape(version: u32) -> Vec<UnityField> {
    let info = <UnityMesh as Codec>::INFO;
    let ctx = context(version);
    let params: Vec<i128> = info
        .params
        .iter()
        .map(|p| crate::rt::Params::param(&ctx, p).unwrap_or_default())
        .collect();
    fields::unity_fields(&crate::rt::meta::shape(info, &params))
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

/// Reads a Mesh's bytes by the fixed layout of `version` and checks it against the object's
/// type tree reading (`value`): the layout must have the tree's fields (names, nesting and the
/// sizes of numbers), read the object to its end and end every top-level field where the type
/// tree does. Where the layout and the tree part, the error names the first field where they
/// do, with its name and type in both, at its offset. `offset` is the object's offset in its
/// file.
pub fn check_fixed_layout(
    bytes: &[u8],
    version: u32,
    value: &Value,
    trees: &Trees,
    offset: u64,
) -> Result<UnityMesh> {
    let layout = format!("the layout of {}", version_text(version));
    if let Some(p) = fields::parting(trees, value, &layout_shape(version), UnityMesh::ROOT) {
        return Err(p.error(offset, &layout));
    }
    let (mesh, pos) = read_fixed(bytes, version).map_err(|e| e.shifted(offset))?;
    let ours = layout_fields(&pos);
    let theirs: Vec<(&str, u64)> = value
        .fields(trees)
        .into_iter()
        .map(|(n, v)| (n, u64::from(v.end)))
        .collect();
    for k in 0..ours.len().max(theirs.len()) {
        let (o, t) = (ours.get(k), theirs.get(k));
        let o = o.map(|f| (f.name, f.span.end));
        if o != t.copied() {
            let at = if k == 0 {
                0
            } else {
                theirs.get(k - 1).map_or(0, |x| x.1)
            };
            let name = t.copied().or(o).map_or("(end)", |x| x.0);
            return Err(Error::new(
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
            .rooted(UnityMesh::ROOT));
        }
    }
    Ok(mesh)
}
