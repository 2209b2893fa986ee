//! Writes the common model as glTF 2.0 (binary `.glb`) or Wavefront OBJ: one exporter for
//! every family.
//!
//! The exporter does not guess and never writes what a consumer would reject: values glTF
//! cannot carry are refused or, when asked, replaced with a note saying where ([`prepare`]);
//! skins are written at rest ([`rest`]); every .glb is checked against glTF-Validator's rules
//! before it is returned ([`validate`]); names from input files are escaped wherever they
//! reach text ([`text`]).

mod gltf;
mod obj;
mod prepare;
pub mod rest;
mod text;
pub mod validate;

pub use self::gltf::glb;
pub use obj::{obj, obj_with_mtl};
pub use text::{escape, obj_name, unsafe_char};

/// `mesh` as the exporters write it (normals and tangents of unit length, colours clamped,
/// skin weights summing to 1...), with a note per change: what an export then import gives
/// back, for comparing edited geometry with its original.
pub fn prepared(
    mesh: crate::scene::Mesh,
    policy: NonFinite,
) -> crate::rt::Result<(crate::scene::Mesh, Vec<String>)> {
    let mut notes = vec![];
    let m = prepare::prepare(mesh, policy, &mut notes)?;
    Ok((m, notes))
}

use crate::rt::{Error, ErrorKind};

/// What to do with values that are not finite.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NonFinite {
    /// Refuse to export, naming where they are (the default).
    #[default]
    Refuse,
    /// Write 0 instead, and say where in the notes.
    Zero,
}

/// An exported file and what the export changed or left out.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// What was changed or left out, and why; escaped, one line each.
    pub notes: Vec<String>,
    /// The material library an OBJ names, when one was asked for ([`obj_with_mtl`]).
    pub mtl: Option<Vec<u8>>,
}

fn refuse(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Unsupported, expected, found).rooted("export")
}
