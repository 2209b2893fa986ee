//! What a layout means beyond its bytes: the trait a family implements for a layout it gives
//! a meaning (relations, decoding, a builder), and the type-erased operations the table of
//! layouts ([`crate::layouts`]) holds for it. Below the table: a family knows this module,
//! never the table.

use crate::context::Context;
use crate::dump::{self, Built};
use crate::reading::{Reading, TypedReading};
use crate::rt::{Error, ErrorKind, Place, Result, Root};
use crate::scene::{Mesh, Scene};
use crate::verdict::{self, Judge, Verdict};

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

/// The one reading of an input, made by a layout's entry.
type ReadFn = for<'a> fn(&'a [u8], &Context) -> Reading<'a>;

/// The type-erased operations of a layout.
#[derive(Clone, Copy)]
pub struct Ops {
    pub(crate) read: ReadFn,
    pub(crate) build: fn(&serde_json::Value, &Context) -> Result<Built>,
    pub(crate) import: fn(&Mesh, &Context) -> Imported,
    pub(crate) imports: bool,
    pub(crate) needs_winding: bool,
}

fn read_plain<'a, T: Root + 'static>(input: &'a [u8], ctx: &Context) -> Reading<'a> {
    Reading::plain(TypedReading::<T>::new(input, ctx), ctx)
}

fn read_with<'a, T: Semantics + 'static>(input: &'a [u8], ctx: &Context) -> Reading<'a> {
    Reading::meant(TypedReading::<T>::new(input, ctx), ctx)
}

fn build_plain<T: Root>(d: &serde_json::Value, ctx: &Context) -> Result<Built> {
    dump::build::<T>(d, ctx, verdict::judge_plain::<T>)
}

fn build_with<T: Semantics>(d: &serde_json::Value, ctx: &Context) -> Result<Built> {
    dump::build::<T>(d, ctx, verdict::judge::<T>)
}

fn import_none(_: &Mesh, _: &Context) -> Imported {
    None
}

fn import_with<T: Semantics>(mesh: &Mesh, ctx: &Context) -> Imported {
    Some(T::from_geometry(mesh, ctx)?.and_then(|(v, notes)| {
        let bytes = v.to_bytes(ctx)?;
        // What import writes passes the same verdict as everything else.
        let verdict = verdict::judge::<T>(&bytes, ctx);
        match verdict.first_failure() {
            Some(e) => Err(e.clone()),
            None => Ok((bytes, notes)),
        }
    }))
}

impl Ops {
    /// What a layout's structure alone allows.
    pub const fn plain<T: Root + 'static>() -> Ops {
        Ops {
            read: read_plain::<T>,
            build: build_plain::<T>,
            import: import_none,
            imports: false,
            needs_winding: false,
        }
    }

    /// What a layout with a family's meaning allows.
    pub const fn of<T: Semantics + 'static>() -> Ops {
        Ops {
            read: read_with::<T>,
            build: build_with::<T>,
            import: import_with::<T>,
            imports: T::FROM_GEOMETRY,
            needs_winding: T::NEEDS_WINDING,
        }
    }
}
