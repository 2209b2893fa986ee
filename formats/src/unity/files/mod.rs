//! Unity game files: asset bundles (`UnityFS`), serialized files (a player's `level0` and
//! `.assets`, a bundle's `CAB-...`) and resource files (`.resS`), and reading any object of
//! them through its type tree.
//!
//! The byte layouts are specs (`spec/unity_bundle.ksy`, `spec/unity_serialized.ksy`), read by
//! the generated code through [`adapter`]; this module gives them their meaning:
//! [`bundle`] decompresses and cuts a bundle, [`serialized`] finds each object's bytes and
//! type, [`typetree`] reads an object through its type tree, [`mesh`] reads a Mesh (through
//! its type tree, checked against the fixed `unity-mesh` layout, or by that layout alone),
//! [`resource`] finds streamed data, and [`game`] ties opened files together (references
//! between objects, renderer names for bones and materials).
//!
//! Errors name the file they are in ([`Located`]): the file on disk, and inside a bundle the
//! bundle's file (`assetbundle/CAB-5d40...`), with the offset inside that file and the spec
//! path of the field.

pub mod adapter;
pub mod bundle;
pub mod compress;
pub mod game;
pub mod mesh;
pub mod resource;
pub mod serialized;
pub mod typetree;

pub use compress::Limits;
pub use game::{GameFiles, ObjectRef};

use crate::context::Context;
use crate::generated::unity_bundle::{BlocksInfo, UnityBundle};
use crate::generated::unity_serialized::UnitySerialized;
use crate::legacy::OwnedSemantics;
use crate::rt::{Error, ErrorKind};
use std::fmt;

impl Limits {
    /// The limit for an input of `len` bytes: 64 times its size, at least 64 MiB, at most
    /// the default. Real bundles compress by far less than 64; a few kilobytes can never
    /// make a reader allocate gigabytes.
    pub fn for_input(len: u64) -> Limits {
        Limits {
            max_data: len
                .saturating_mul(64)
                .clamp(64 << 20, Limits::default().max_data),
        }
    }
}

/// An error and the file it is about: empty for the file that was opened, else the path of a
/// file inside it (`CAB-5d40...`, `(blocks info, decompressed)`), outermost first. Offsets are
/// in that file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The file inside the opened one, or empty.
    pub place: String,
    /// The error, with its offset in that file (boxed: results stay small).
    pub error: Box<Error>,
}

impl Located {
    /// An error in `place`.
    pub fn new(place: impl Into<String>, error: Error) -> Self {
        Located {
            place: place.into(),
            error: Box::new(error),
        }
    }

    /// The same error said to be inside `outer` (a file on disk, a bundle's node).
    #[must_use]
    pub fn within(mut self, outer: &str) -> Self {
        self.place = match (outer.is_empty(), self.place.is_empty()) {
            (true, _) => self.place,
            (false, true) => outer.to_string(),
            (false, false) => format!("{outer}/{}", self.place),
        };
        self
    }

    /// One error for interfaces that take [`Error`] alone: where the error is inside another
    /// file, that file and the inner offset go into the expectation.
    pub fn flatten(self) -> Error {
        if self.place.is_empty() {
            return *self.error;
        }
        let inner = self.error.to_string();
        Error::unplaced(
            self.error.kind,
            format!("a readable {} (inside it: {inner})", self.place),
            "the problem above",
        )
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.place.is_empty() {
            write!(f, "{}", self.error)
        } else {
            write!(f, "{}: {}", self.place, self.error)
        }
    }
}

impl std::error::Error for Located {}

impl From<Error> for Located {
    fn from(e: Error) -> Self {
        Located::new("", e)
    }
}

/// The length of the input a layout value was read from, learnt by writing it back (the
/// layouts here are read only from whole inputs).
fn input_len<T: crate::rt::Codec<Args = ()>>(v: &T) -> u64 {
    adapter::size_of(v, ())
}

impl OwnedSemantics for UnityBundle {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        bundle::relations(self, input_len(self))
    }

    fn warnings(&self, _ctx: &Context) -> Vec<Error> {
        bundle::warnings(self, input_len(self))
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec![format!(
            "The blocks info is {} and the storage blocks follow; `meshspec unity list` shows the objects inside.",
            compress::Method::of_flags(self.header.flags).name()
        )]
    }
}

impl OwnedSemantics for BlocksInfo {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        bundle::info_relations(self)
    }
}

impl OwnedSemantics for UnitySerialized {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        serialized::relations(self, input_len(self))
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec![format!(
            "{} objects of {} types, written by Unity {}; `meshspec unity list` shows them.",
            self.metadata.objects.len(),
            self.metadata.types.len(),
            // Text from the file, shown escaped.
            self.metadata.unity_version.escape_debug()
        )]
    }
}

crate::legacy::owned_semantics!(UnityBundle, BlocksInfo, UnitySerialized);

/// The layouts this module gives a meaning.
pub const MEANINGS: &[(&str, crate::layouts::Ops)] = &[
    (
        <UnityBundle as crate::rt::Root>::ID,
        crate::layouts::Ops::of::<UnityBundle>(),
    ),
    (
        <BlocksInfo as crate::rt::Root>::ID,
        crate::layouts::Ops::of::<BlocksInfo>(),
    ),
    (
        <UnitySerialized as crate::rt::Root>::ID,
        crate::layouts::Ops::of::<UnitySerialized>(),
    ),
];

/// The property every input must have as a whole game file (the fuzz target
/// `unity_game_file`): opened, listed, every object read through its type tree, every Mesh
/// checked and decoded; no panic, errors at offsets inside the input, a decoded mesh
/// consistent, and nothing read from disk.
pub fn fuzz_game_file(data: &[u8]) {
    let limits = Limits { max_data: 64 << 20 };
    let mut file = match game::GameFile::from_bytes(std::path::Path::new("fuzz"), data, &limits) {
        Ok(f) => f,
        Err(e) => {
            if e.place.is_empty() {
                assert!(
                    e.error.offset.is_none_or(|o| o <= data.len() as u64),
                    "error offset past the input: {e}"
                );
            }
            return;
        }
    };
    file.resources_beside = false;
    let g = GameFiles::from_files(vec![file]);
    let _ = g.list(None);
    for r in g.objects() {
        let s = g.serialized(r);
        let _ = s.read(g.entry(r));
    }
    for r in g.meshes() {
        let Ok(m) = g.mesh(r) else { continue };
        let _ = g.check(&m, None);
        if let Ok(scene) = g.scene(&m, None) {
            for mesh in &scene.meshes {
                mesh.validate()
                    .unwrap_or_else(|e| panic!("decoded mesh is inconsistent: {e}"));
            }
        }
    }
}

/// The error for something this module does not read (yet), with the reason.
pub(crate) fn unsupported(
    offset: u64,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    Error::new(ErrorKind::Unsupported, offset, expected, found)
}
