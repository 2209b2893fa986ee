//! The table of layouts the command line offers, and what each one means beyond its bytes.
//!
//! The table is generated ([`crate::generated::LAYOUTS`]): every layout the specs declare, with
//! the operations its structure alone allows. A family that gives a layout a meaning
//! (relations, decoding, a builder) implements [`Semantics`] for it and lists it in
//! its family's `MEANINGS`; its operations then replace the structural ones. A layout without a meaning
//! needs no code at all.

use crate::context::Context;
use crate::dump::{self, Built};
use crate::reading::{Reading, TypedReading};
use crate::rt::{Error, ErrorKind, Place, Result, Root, Rule, TypeInfo, Visitor};
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
    read: ReadFn,
    build: fn(&serde_json::Value, &Context) -> Result<Built>,
    import: fn(&Mesh, &Context) -> Imported,
    imports: bool,
    needs_winding: bool,
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

/// One field of an input, where it lies and what the spec says about it.
#[derive(Debug, Clone)]
pub struct Located {
    /// Its path, in the spec's ids.
    pub path: crate::rt::Path,
    /// The bytes it took.
    pub span: crate::rt::Span,
    /// What the spec says about it.
    pub info: &'static crate::rt::FieldInfo,
    /// Whether it holds no further fields.
    pub leaf: bool,
}

/// What [`Entry::walk`] calls for every field: its path, the bytes it took, what the spec says
/// about it, and whether it holds no further fields.
pub type WalkFn<'a> =
    dyn FnMut(&crate::rt::Path, crate::rt::Span, &'static crate::rt::FieldInfo, bool) + 'a;

/// What [`Entry::value`] shows the owned value to.
pub type ValueFn<'a> = dyn FnMut(&dyn erased_serde::Serialize) + 'a;

/// One layout of the table.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The layout id the command line takes.
    pub id: &'static str,
    /// One line of description.
    pub description: &'static str,
    /// The spec file.
    pub spec: &'static str,
    /// The dump paths of the fields the spec marks unknown.
    pub unknown: &'static [&'static str],
    /// The names of the values the user must give (`unity_version`).
    pub params: &'static [&'static str],
    /// Every relation the spec states for what a value of the layout holds.
    pub rules: &'static [&'static Rule],
    /// Whether an input holds the layout's constants where the spec puts them.
    pub claims: fn(&[u8]) -> bool,
    /// What the spec says about the layout's root type (its confidence, its fields).
    pub info: &'static TypeInfo,
    args_ok: fn(&Context) -> Result<()>,
    plain: Ops,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry").field("id", &self.id).finish()
    }
}

fn args_ok<T: Root>(ctx: &Context) -> Result<()> {
    T::args(ctx).map(drop)
}

impl Entry {
    /// The entry of layout `T`.
    pub const fn of<T: Root + 'static>() -> Entry {
        Entry {
            id: T::ID,
            description: T::DESCRIPTION,
            spec: T::SPEC,
            unknown: T::UNKNOWN,
            params: T::PARAMS,
            rules: T::RULES,
            claims: T::claims,
            info: T::INFO,
            args_ok: args_ok::<T>,
            plain: Ops::plain::<T>(),
        }
    }

    fn ops(&self) -> &Ops {
        meanings()
            .find(|(id, _)| *id == self.id)
            .map_or(&self.plain, |(_, ops)| ops)
    }

    /// The one reading of `input`: its verdict (structure, field checks, relations and the
    /// decoder's own checks, each at its severity) and the view every other operation works
    /// on. Each method below makes one reading; a caller that needs two operations on the same
    /// input makes the reading once and asks it.
    pub fn read<'a>(&self, input: &'a [u8], ctx: &Context) -> Reading<'a> {
        (self.ops().read)(input, ctx)
    }

    /// The one verdict on `input`.
    pub fn judge(&self, input: &[u8], ctx: &Context) -> Verdict {
        self.read(input, ctx).verdict
    }

    /// Every field of `input`, wrapped with the layout id and notes ([`Reading::dump`]).
    pub fn dump(&self, input: &[u8], ctx: &Context) -> Result<serde_json::Value> {
        self.read(input, ctx).dump(ctx)
    }

    /// The bytes of a (possibly edited) dump, with counts and sizes recomputed, and the verdict
    /// on them; the caller writes them only when the verdict passes.
    pub fn build(&self, dump: &serde_json::Value, ctx: &Context) -> Result<Built> {
        (self.ops().build)(dump, ctx)
    }

    /// The geometry of `input`, which must pass its verdict ([`Reading::decode`]).
    pub fn decode(&self, input: &[u8], ctx: &Context) -> Result<Decoded> {
        self.read(input, ctx).decode(ctx)
    }

    /// [`Entry::decode`]'s geometry alone.
    pub fn scene(&self, input: &[u8], ctx: &Context) -> Result<Scene> {
        self.decode(input, ctx).map(|d| d.scene)
    }

    /// A file of this layout built from geometry, with notes; `None` when the layout has no
    /// builder.
    pub fn import(&self, mesh: &Mesh, ctx: &Context) -> Imported {
        (self.ops().import)(mesh, ctx)
    }

    /// Whether the layout can be built from geometry.
    pub fn imports(&self) -> bool {
        self.ops().imports
    }

    /// Every field of `input` (and every element of its lists), outermost first, with where
    /// it lies and what the spec says about it: what `explain` shows.
    pub fn fields(&self, input: &[u8], ctx: &Context) -> Result<Vec<Located>> {
        let mut out = vec![];
        self.walk(input, ctx, &mut |path, span, info, leaf| {
            out.push(Located {
                path: path.clone(),
                span,
                info,
                leaf,
            })
        })?;
        Ok(out)
    }

    /// [`Entry::judge`]'s verdict, and every field's value shown to `visitor` ([`Reading::census`]).
    pub fn census(&self, input: &[u8], ctx: &Context, visitor: &mut dyn Visitor) -> Verdict {
        self.read(input, ctx).census(visitor)
    }

    /// [`Entry::fields`], one at a time: `visit` is called for every field of `input` (and
    /// every element of its lists), outermost first, and nothing is kept.
    pub fn walk(&self, input: &[u8], ctx: &Context, visit: &mut WalkFn<'_>) -> Result<()> {
        self.read(input, ctx).walk(visit)
    }

    /// The owned value of `input` (what [`Entry::dump`] holds as `data`), shown to `show` as
    /// a serde value: a serializer that is not human-readable gets raw bytes as bytes.
    pub fn value(&self, input: &[u8], ctx: &Context, show: &mut ValueFn<'_>) -> Result<()> {
        self.read(input, ctx).value(show)
    }

    /// Whether `ctx` gives every parameter the layout needs (`unity_version`): the check the
    /// reader makes first, without any input.
    pub fn args_ok(&self, ctx: &Context) -> Result<()> {
        (self.args_ok)(ctx)
    }

    /// Whether decoding this layout's geometry, or building one from geometry, needs
    /// [`Context::winding`].
    pub fn needs_winding(&self) -> bool {
        self.ops().needs_winding
    }
}

/// The layouts the families give a meaning, by their generated ids (each family lists its own).
fn meanings() -> impl Iterator<Item = &'static (&'static str, Ops)> {
    [
        crate::meshbin::MEANINGS,
        crate::sws::MEANINGS,
        crate::rr::MEANINGS,
        crate::unity::MEANINGS,
        crate::unity::files::MEANINGS,
    ]
    .into_iter()
    .flatten()
}

/// The ids of the layouts the families give a meaning (for the test that they exist).
pub fn with_meaning() -> impl Iterator<Item = &'static str> {
    meanings().map(|(id, _)| *id)
}

/// The layout with id `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    crate::generated::LAYOUTS.iter().find(|e| e.id == id)
}
