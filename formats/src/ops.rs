//! The type-erased operations the table of layouts ([`crate::layouts`]) holds for a layout
//! generated code reads: what its structure alone allows, or what a family's meaning
//! ([`Semantics`]) adds. A family lists its layouts' operations in its `MEANINGS`.

use crate::context::Context;
use crate::dump::{self, Built};
use crate::meaning::{Imported, Semantics};
use crate::reading::{self, Reading, TypedReading};
use crate::rt::{Result, Root};
use crate::scene::Mesh;
use crate::verdict::Verdict;

/// The one reading of an input, made by a layout's entry.
type ReadFn = for<'a> fn(&'a [u8], &Context) -> Reading<'a>;

/// A family's meaning alone on an input ([`reading::meaning_only`]).
pub(crate) type MeaningFn = for<'a> fn(&'a [u8], &Context) -> Option<(Reading<'a>, Verdict)>;

/// The type-erased operations of a layout.
#[derive(Clone, Copy)]
pub struct Ops {
    pub(crate) read: ReadFn,
    pub(crate) build: fn(&serde_json::Value, &Context) -> Result<Built>,
    pub(crate) import: fn(&Mesh, &Context) -> Imported,
    pub(crate) imports: bool,
    pub(crate) needs_winding: bool,
    /// The family's meaning alone, for a layout that has one.
    pub(crate) meaning: Option<MeaningFn>,
}

fn read_plain<'a, T: Root + 'static>(input: &'a [u8], ctx: &Context) -> Reading<'a> {
    Reading::plain(TypedReading::<T>::new(input, ctx), ctx)
}

fn read_with<'a, T: Semantics + 'static>(input: &'a [u8], ctx: &Context) -> Reading<'a> {
    Reading::meant(TypedReading::<T>::new(input, ctx), ctx)
}

fn build_plain<T: Root>(d: &serde_json::Value, ctx: &Context) -> Result<Built> {
    dump::build::<T>(d, ctx, reading::judge_plain::<T>)
}

fn build_with<T: Semantics>(d: &serde_json::Value, ctx: &Context) -> Result<Built> {
    dump::build::<T>(d, ctx, reading::judge::<T>)
}

fn import_none(_: &Mesh, _: &Context) -> Imported {
    None
}

fn import_with<T: Semantics>(mesh: &Mesh, ctx: &Context) -> Imported {
    Some(T::from_geometry(mesh, ctx)?.and_then(|(v, notes)| {
        let bytes = v.to_bytes(ctx)?;
        // What import writes passes the same verdict as everything else.
        let verdict = reading::judge::<T>(&bytes, ctx);
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
            meaning: None,
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
            meaning: Some(reading::meaning_only::<T>),
        }
    }
}
