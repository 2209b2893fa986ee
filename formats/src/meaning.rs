//! What a layout means beyond its bytes: the trait a family implements for a layout it gives
//! a meaning (relations, decoding, a builder). Below the reading ([`crate::reading`]) and the
//! table: a family knows this module, never the table.

use crate::context::Context;
use crate::rt::{Error, ErrorKind, Place, Result, Root};
use crate::scene::{Mesh, Scene};
use crate::verdict::{Judge, Verdict};

/// What a layout means beyond its bytes, written by hand per family on top of the generated
/// view and positions.
pub trait Semantics: Root {
    /// Whether decoding this layout's geometry, or building one from geometry, needs
    /// [`Context::winding`] (the file does not record it).
    const NEEDS_WINDING: bool = false;

    /// The relations the spec states and the checks a decoder makes that need no choice from
    /// the user, each failure reported at the place the reader recorded.
    fn judge(view: &Self::Ref<'_>, at: &Place<'_, Self::Pos>, j: &mut Judge<'_>) {
        let _ = (view, at, j);
    }

    /// What a reader of a dump or an export should know (for example that a field's encoding is
    /// not established).
    fn notes(view: &Self::Ref<'_>, ctx: &Context) -> Vec<String> {
        let _ = (view, ctx);
        Vec::new()
    }

    /// The geometry, in the common model, of an input whose verdict passed.
    fn scene(view: &Self::Ref<'_>, at: &Place<'_, Self::Pos>, ctx: &Context) -> Result<Scene> {
        let _ = (view, at, ctx);
        Err(no_geometry(Self::ID))
    }

    /// Whether [`Semantics::from_geometry`] builds a value.
    const FROM_GEOMETRY: bool = false;

    /// A value built from geometry the way the game's own tool would, and notes on what it
    /// changed; `None` for a layout without a builder.
    fn from_geometry(mesh: &Mesh, ctx: &Context) -> Option<Result<(Self, Vec<String>)>> {
        let _ = (mesh, ctx);
        None
    }
}

pub(crate) fn no_geometry(id: &str) -> Error {
    Error::unplaced(
        ErrorKind::Unsupported,
        "a layout with geometry",
        format!("`{id}`, which holds none by itself"),
    )
}

/// An input decoded: its geometry and the verdict it passed.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The geometry.
    pub scene: Scene,
    /// The verdict (it passed; its warnings and notes are worth printing).
    pub verdict: Verdict,
}

/// A file built from geometry, with notes; `None` for a layout without a builder.
pub type Imported = Option<Result<(Vec<u8>, Vec<String>)>>;
