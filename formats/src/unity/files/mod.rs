//! Unity game files: asset bundles (`UnityFS`, and the older `UnityWeb` and `UnityRaw`), serialized files (a player's `level0` and
//! `.assets`, a bundle's `CAB-...`) and resource files (`.resS`), and reading any object of
//! them through its type tree.
//!
//! The byte layouts are specs (`spec/unity_bundle.ksy`, `spec/unity_serialized.ksy`), read by
//! the generated readers into views with the positions of every field; this module gives them
//! their meaning: [`bundle`] decompresses and cuts a bundle ([`web`] the older containers'
//! payload, into the same [`bundle::Bundle`]), [`serialized`] finds each object's
//! bytes and type, [`typetree`] reads an object through its type tree, [`mesh`] reads a Mesh
//! (through its type tree, checked against the fixed `unity-mesh` layout, or by that layout
//! alone), [`resource`] says where streamed data is, [`game`] ties opened files together (a
//! whole player build: every serialized file, bundle and resource file of a folder),
//! [`version`] says which editor version each serialized file is read with (its own, or for a
//! stripped `0.0.0` the one Mesh layout range that reads it), [`object`] makes each object an
//! input of its layout (judged, decoded, walked and surveyed by the same [`Entry`] as a bare
//! object), [`names`] names a mesh's joints and materials from the renderers that draw it,
//! [`replace`] writes a game file back with one object replaced, and [`like`] makes a Mesh
//! object from edited geometry in the vertex layout of an original.
//!
//! [`Entry`]: crate::layouts::Entry
//!
//! The relations the specs state are judged by [`crate::meaning::Semantics`] on the views and
//! positions (the one verdict); what reading the objects needs beyond a relation (an object's
//! range inside the data, a type tree's names, blocks that decompress) is a decoder finding of
//! the same verdict, at the same place. Opening a file refuses it on the first error-severity
//! finding and keeps its warnings.
//!
//! Errors name the file they are in ([`Located`]): the file on disk, and inside a bundle the
//! bundle's file (`assetbundle/CAB-5d40...`), with the offset inside that file and the spec
//! path of the field.

pub mod bundle;
pub mod compress;
pub mod draft;
pub mod fields;
pub mod game;
pub mod like;
pub mod mesh;
pub mod names;
pub mod object;
pub mod replace;
pub mod resource;
pub mod serialized;
pub mod typetree;
pub mod version;
pub mod web;

pub use compress::Limits;
pub use game::{GameFiles, ObjectRef};
pub use object::ObjectInput;

use crate::context::Context;
use crate::generated::unity_bundle::{
    BlocksInfo, BlocksInfoPos, BlocksInfoRef, UnityBundle, UnityBundlePos, UnityBundleRef,
};
use crate::generated::unity_serialized::{UnitySerialized, UnitySerializedPos, UnitySerializedRef};
use crate::generated::unity_web::{
    Payload, PayloadPos, PayloadRef, UnityWeb, UnityWebPos, UnityWebRef,
};
use crate::meaning::Semantics;
use crate::rt::{Error, ErrorKind, Place, Root};
use crate::verdict::Judge;
use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

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

/// Bytes shared between an opened file and the files inside it (a bundle's decompressed data
/// and its serialized and resource files), never copied.
#[derive(Clone)]
pub struct Shared {
    all: Arc<dyn AsRef<[u8]> + Send + Sync>,
    range: Range<usize>,
}

impl Shared {
    /// All of `bytes`.
    pub fn new(bytes: Vec<u8>) -> Shared {
        Self::from_arc(Arc::new(bytes))
    }

    /// All of the bytes `all` holds (a memory map of a file, for one).
    pub fn from_arc(all: Arc<dyn AsRef<[u8]> + Send + Sync>) -> Shared {
        let range = 0..(*all).as_ref().len();
        Shared { all, range }
    }

    /// The part `range` of these bytes (which must lie inside them).
    pub fn slice(&self, range: Range<usize>) -> Shared {
        assert!(range.start <= range.end && range.end <= self.range.len());
        Shared {
            all: Arc::clone(&self.all),
            range: self.range.start + range.start..self.range.start + range.end,
        }
    }
}

/// A copy of the bytes (for callers that hold a slice; a file's memory map is shared with
/// [`Shared::from_arc`] instead).
impl From<&[u8]> for Shared {
    fn from(bytes: &[u8]) -> Shared {
        Shared::new(bytes.to_vec())
    }
}

impl From<&Vec<u8>> for Shared {
    fn from(bytes: &Vec<u8>) -> Shared {
        Shared::new(bytes.clone())
    }
}

impl From<&Shared> for Shared {
    fn from(bytes: &Shared) -> Shared {
        bytes.clone()
    }
}

impl Deref for Shared {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &(*self.all).as_ref()[self.range.clone()]
    }
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shared({} bytes)", self.range.len())
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

/// A container's findings, and what it unpacked kept for the reading's owner when nothing
/// refuses it (what [`game::GameFile::from_reading`] opens).
fn keep_opened(j: &mut Judge<'_>, opened: Option<bundle::Unbound>, findings: Vec<Error>) {
    let fails = findings
        .iter()
        .any(|e| e.severity == crate::rt::Severity::Error);
    j.extend(findings);
    if let (Some(b), false) = (opened, fails) {
        j.keep(b);
    }
}

impl Semantics for UnityBundle {
    fn judge(view: &UnityBundleRef<'_>, at: &Place<'_, UnityBundlePos>, j: &mut Judge<'_>) {
        let total = at.span().end;
        let (opened, findings) = bundle::unpack(view, at, &Limits::for_input(total));
        keep_opened(j, opened, findings);
    }

    fn notes(view: &UnityBundleRef<'_>, _ctx: &Context) -> Vec<String> {
        vec![format!(
            "The blocks info is {} and the storage blocks follow; `meshspec unity list` shows the objects inside.",
            compress::Method::of_flags(view.header.flags).name()
        )]
    }
}

impl Semantics for BlocksInfo {
    fn judge(view: &BlocksInfoRef<'_>, at: &Place<'_, BlocksInfoPos>, j: &mut Judge<'_>) {
        j.extend(bundle::info_findings(view, at));
    }
}

impl Semantics for UnityWeb {
    fn judge(view: &UnityWebRef<'_>, at: &Place<'_, UnityWebPos>, j: &mut Judge<'_>) {
        let total = at.span().end;
        let (opened, findings) = web::unpack(view, at, &Limits::for_input(total));
        keep_opened(j, opened, findings);
    }

    fn notes(view: &UnityWebRef<'_>, _ctx: &Context) -> Vec<String> {
        vec![format!(
            "The payload is {}; `meshspec unity list` shows the objects inside.",
            if view.header.compressed() {
                "LZMA-compressed (UnityWeb)"
            } else {
                "stored (UnityRaw)"
            }
        )]
    }
}

impl Semantics for Payload {
    fn judge(view: &PayloadRef<'_>, at: &Place<'_, PayloadPos>, j: &mut Judge<'_>) {
        j.extend(web::payload_findings(view, at));
    }
}

impl Semantics for UnitySerialized {
    fn judge(view: &UnitySerializedRef<'_>, at: &Place<'_, UnitySerializedPos>, j: &mut Judge<'_>) {
        let parts = serialized::Parts::of(view, at);
        j.extend(parts.findings.iter().cloned());
        if let Some(file) = serialized::Unbound::of(view, at, parts) {
            j.keep(file);
        }
    }

    fn notes(view: &UnitySerializedRef<'_>, _ctx: &Context) -> Vec<String> {
        let Some(m) = serialized::metadata(view) else {
            return vec![];
        };
        vec![format!(
            "{} objects of {} types, written by Unity {}; `meshspec unity list` shows them.",
            m.objects.len(),
            m.types.len(),
            // Text from the file, shown escaped.
            m.unity_version
                .unwrap_or("(no version before format 7)")
                .escape_debug()
        )]
    }
}

/// The layouts this module gives a meaning.
pub const MEANINGS: &[(&str, crate::ops::Ops)] = &[
    (
        <UnityBundle as Root>::ID,
        crate::ops::Ops::of::<UnityBundle>(),
    ),
    (
        <BlocksInfo as Root>::ID,
        crate::ops::Ops::of::<BlocksInfo>(),
    ),
    (
        <UnitySerialized as Root>::ID,
        crate::ops::Ops::of::<UnitySerialized>(),
    ),
    (<UnityWeb as Root>::ID, crate::ops::Ops::of::<UnityWeb>()),
    (<Payload as Root>::ID, crate::ops::Ops::of::<Payload>()),
];

/// The error for something this module does not read (yet), with the reason.
pub(crate) fn unsupported(
    offset: u64,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    Error::new(ErrorKind::Unsupported, offset, expected, found)
}
