//! The one reading of an input (issue 25): its bytes are read once, with positions, and the
//! verdict, the decoded geometry, the dump, the field walk and the census all come from that
//! reading. [`TypedReading`] is it for a layout known at compile time (what a family or the
//! game-file layer holds); [`Reading`] is the same behind the table of layouts, whatever the
//! layout and whichever source made it (generated code, or the interpreter of a spec).
//!
//! Below it: the verdict's types ([`crate::verdict`]), what a family gives a layout
//! ([`crate::meaning`]) and dumps ([`crate::dump`]); above it, the operations the table holds
//! ([`crate::ops`]).

use crate::context::Context;
use crate::meaning::{Decoded, Semantics};
use crate::rt::{Error, ErrorKind, Parsed, Place, Result, Root, Visitor, Walk};
use crate::scene::Scene;
use crate::verdict::{self, Judge, Kept, Verdict};

/// What [`Reading::walk`] calls for every field: its path, the bytes it took, what the spec says
/// about it, and whether it holds no further fields.
pub type WalkFn<'a> =
    dyn FnMut(&crate::rt::Path, crate::rt::Span, &'static crate::rt::FieldInfo, bool) + 'a;

/// What [`Reading::value`] shows the owned value to.
pub type ValueFn<'a> = dyn FnMut(&dyn erased_serde::Serialize) + 'a;

/// An input read as `T`: its view and where every field lies, or why its structure does not
/// read.
pub struct TypedReading<'a, T: Root> {
    read: std::result::Result<Read<'a, T>, Error>,
}

/// What a reading holds when the structure read.
pub struct Read<'a, T: Root> {
    /// The view of the input.
    pub view: T::Ref<'a>,
    /// Where every field lies.
    pub pos: T::Pos,
    /// The reader's own findings that did not refuse the input.
    pub warnings: Vec<Error>,
}

impl<'a, T: Root> TypedReading<'a, T> {
    /// Reads `input` as `T` with `ctx`'s parameters: the one reading.
    pub fn new(input: &'a [u8], ctx: &Context) -> Self {
        let read = T::read::<true>(input, ctx).map(|p: Parsed<'a, T>| Read {
            view: p.value,
            pos: p.pos.unwrap_or_default(),
            warnings: p.warnings,
        });
        TypedReading { read }
    }

    /// What was read, or why the structure does not read.
    pub fn read(&self) -> std::result::Result<&Read<'a, T>, &Error> {
        self.read.as_ref()
    }

    /// The view and its place, when the structure read.
    pub fn at(&self) -> Option<(&T::Ref<'a>, Place<'_, T::Pos>)> {
        let r = self.read.as_ref().ok()?;
        Some((&r.view, Place::root(&r.pos, T::ROOT)))
    }

    /// The view of an input whose verdict `v` (on this reading) passed; its first failure
    /// otherwise.
    pub fn passed(&self, v: &Verdict) -> Result<(&T::Ref<'a>, Place<'_, T::Pos>)> {
        if let Some(e) = v.first_failure() {
            return Err(e.clone());
        }
        self.at().ok_or_else(|| unread(T::ROOT))
    }
}

/// A verdict that passed on bytes that did not read (never made by [`TypedReading`]).
fn unread(root: &'static str) -> Error {
    Error::unplaced(ErrorKind::Inconsistent, "a reading of the input", "none").rooted(root)
}

/// The one reading of an input behind the table of layouts: the verdict, and the view the
/// other operations work on.
pub struct Reading<'a> {
    /// The verdict on the input.
    pub verdict: Verdict,
    view: Option<Box<dyn Viewed + 'a>>,
    kept: Option<Kept>,
}

impl std::fmt::Debug for Reading<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading")
            .field("verdict", &self.verdict)
            .finish_non_exhaustive()
    }
}

/// What a reading offers whatever its layout: a generated view ([`View`]) or an interpreted
/// one (`crate::interp`).
pub(crate) trait Viewed {
    fn scene(&self, ctx: &Context) -> Result<Scene>;
    fn dump(&self, ctx: &Context) -> Result<serde_json::Value>;
    fn walk(&self, visit: &mut WalkFn<'_>);
    fn visit(&self, visitor: &mut dyn Visitor);
    fn value(&self, show: &mut ValueFn<'_>);
    fn write_back(&self, ctx: &Context) -> std::result::Result<Vec<u8>, String>;
}

type SceneFn<T> = for<'v, 'p, 'c> fn(
    &<T as crate::rt::Codec>::Ref<'v>,
    &Place<'p, <T as crate::rt::Codec>::Pos>,
    &'c Context,
) -> Result<Scene>;
type NotesFn<T> = for<'v, 'c> fn(&<T as crate::rt::Codec>::Ref<'v>, &'c Context) -> Vec<String>;

/// A typed reading with the meaning its entry gives it (none for a layout without one).
struct View<'a, T: Root> {
    read: Read<'a, T>,
    scene: SceneFn<T>,
    notes: NotesFn<T>,
}

impl<T: Root> Viewed for View<'_, T> {
    fn scene(&self, ctx: &Context) -> Result<Scene> {
        (self.scene)(&self.read.view, &Place::root(&self.read.pos, T::ROOT), ctx)
    }

    fn dump(&self, ctx: &Context) -> Result<serde_json::Value> {
        crate::dump::dump_of(&T::own(&self.read.view), (self.notes)(&self.read.view, ctx))
    }

    fn walk(&self, visit: &mut WalkFn<'_>) {
        self.read
            .pos
            .walk(&mut crate::rt::Path::root(T::ROOT), visit);
    }

    fn visit(&self, visitor: &mut dyn Visitor) {
        T::visit(&self.read.view, visitor);
    }

    fn value(&self, show: &mut ValueFn<'_>) {
        show(&T::own(&self.read.view));
    }

    fn write_back(&self, ctx: &Context) -> std::result::Result<Vec<u8>, String> {
        let (out, at) = T::own(&self.read.view)
            .write::<true>(ctx)
            .map_err(|e| format!("does not write back: {e}"))?;
        if at.as_ref() != Some(&self.read.pos) {
            return Err("the writer's positions differ from the reader's".into());
        }
        Ok(out)
    }
}

fn no_scene<T: Root>(_: &T::Ref<'_>, _: &Place<'_, T::Pos>, _: &Context) -> Result<Scene> {
    Err(crate::meaning::no_geometry(T::ID))
}

fn no_notes<T: Root>(_: &T::Ref<'_>, _: &Context) -> Vec<String> {
    Vec::new()
}

impl<'a> Reading<'a> {
    /// `r` judged as a layout with no meaning beyond its structure.
    pub fn plain<T: Root + 'a>(r: TypedReading<'a, T>, ctx: &Context) -> Self {
        let verdict = judged_plain(&r, ctx);
        Self::of(r, (verdict, None), no_scene::<T>, no_notes::<T>)
    }

    /// `r` judged with its family's meaning.
    pub fn meant<T: Semantics + 'a>(r: TypedReading<'a, T>, ctx: &Context) -> Self {
        let judged = judged_with(&r, ctx, meaning::<T>);
        Self::of(r, judged, T::scene, T::notes)
    }

    /// The reading another source made: its verdict, and its view when the structure read.
    pub(crate) fn new(verdict: Verdict, view: Option<Box<dyn Viewed + 'a>>) -> Self {
        Reading {
            verdict,
            view,
            kept: None,
        }
    }

    fn of<T: Root + 'a>(
        r: TypedReading<'a, T>,
        (verdict, kept): (Verdict, Option<Kept>),
        scene: SceneFn<T>,
        notes: NotesFn<T>,
    ) -> Self {
        let view = r
            .read
            .ok()
            .map(|read| Box::new(View::<'a, T> { read, scene, notes }) as Box<dyn Viewed + 'a>);
        Reading {
            verdict,
            view,
            kept,
        }
    }

    /// What the family's checks kept of type `K` (a container's unpacked contents), taken.
    pub fn take_kept<K: 'static>(&mut self) -> Option<K> {
        match self.kept.take()?.downcast::<K>() {
            Ok(k) => Some(*k),
            Err(other) => {
                self.kept = Some(other);
                None
            }
        }
    }

    /// The view, or why the structure does not read.
    fn view(&self) -> Result<&(dyn Viewed + 'a)> {
        match (&self.view, &self.verdict.refused) {
            (Some(v), _) => Ok(v.as_ref()),
            (None, Some(e)) => Err(e.clone()),
            (None, None) => Err(unread("input")),
        }
    }

    /// The geometry, when the verdict passed (its first failure otherwise), with the verdict.
    pub fn decode(&self, ctx: &Context) -> Result<Decoded> {
        if let Some(e) = self.verdict.first_failure() {
            return Err(e.clone());
        }
        Ok(Decoded {
            scene: self.view()?.scene(ctx)?,
            verdict: self.verdict.clone(),
        })
    }

    /// Every field as a dump: needs only the structure to read (a researcher dumps broken
    /// files too).
    pub fn dump(&self, ctx: &Context) -> Result<serde_json::Value> {
        self.view()?.dump(ctx)
    }

    /// Every field (and every element of its lists), outermost first, shown to `visit`.
    pub fn walk(&self, visit: &mut WalkFn<'_>) -> Result<()> {
        self.view()?.walk(visit);
        Ok(())
    }

    /// Every field's value shown to `visitor` in spec order (nothing when the structure does
    /// not read): what `survey` tallies.
    pub fn visit(&self, visitor: &mut dyn Visitor) {
        if let Some(v) = &self.view {
            v.visit(visitor);
        }
    }

    /// [`Reading::visit`], and the verdict.
    pub fn census(&self, visitor: &mut dyn Visitor) -> Verdict {
        self.visit(visitor);
        self.verdict.clone()
    }

    /// The bytes the owned value writes, when the writer records the positions this reading
    /// recorded (what the fuzz targets compare with the input); why not otherwise.
    pub fn write_back(&self, ctx: &Context) -> std::result::Result<Vec<u8>, String> {
        self.view().map_err(|e| e.to_string())?.write_back(ctx)
    }

    /// The owned value (the dump's `data`), shown to `show`.
    pub fn value(&self, show: &mut ValueFn<'_>) -> Result<()> {
        self.view()?.value(show);
        Ok(())
    }
}

/// The verdict on reading `r`, with `meaning` run on what was read (the family's checks;
/// nothing for a layout without any), and what the checks kept.
pub(crate) fn judged_with<T: Root>(
    r: &TypedReading<'_, T>,
    ctx: &Context,
    meaning: impl FnOnce(&T::Ref<'_>, &Place<'_, T::Pos>, &mut Judge<'_>),
) -> (Verdict, Option<Kept>) {
    let read = match r.read() {
        Ok(read) => read,
        Err(e) => return (verdict::refused(e.clone(), ctx), None),
    };
    let at = Place::root(&read.pos, T::ROOT);
    let mut j = Judge::new(ctx, read.warnings.clone());
    T::checks(&read.view, &at, j.findings_mut());
    meaning(&read.view, &at, &mut j);
    j.finish()
}

/// The family's meaning run on a reading: its checks, then its notes.
fn meaning<T: Semantics>(v: &T::Ref<'_>, at: &Place<'_, T::Pos>, j: &mut Judge<'_>) {
    T::judge(v, at, j);
    let notes = T::notes(v, j.ctx);
    j.extend_notes(notes);
}

/// What a family's meaning alone finds in `input` read as `T` (its relations, its decoder's
/// checks and its notes; not the structure's field checks), with the reading it was found on;
/// `None` when the structure does not read. What a spec read at run time borrows from the
/// family whose layout it reads alike (`crate::layouts`).
pub(crate) fn meaning_only<'a, T: Semantics + 'static>(
    input: &'a [u8],
    ctx: &Context,
) -> Option<(Reading<'a>, Verdict)> {
    let r = TypedReading::<T>::new(input, ctx);
    let (verdict, _) = {
        let (view, at) = r.at()?;
        let mut j = Judge::new(ctx, vec![]);
        meaning::<T>(view, &at, &mut j);
        j.finish()
    };
    Some((
        Reading::of(r, (Verdict::default(), None), T::scene, T::notes),
        verdict,
    ))
}

/// The verdict on reading `r`, with the family's meaning.
pub fn judged<T: Semantics>(r: &TypedReading<'_, T>, ctx: &Context) -> Verdict {
    judged_with(r, ctx, meaning::<T>).0
}

/// The verdict on reading `r`, a layout with no meaning beyond its structure.
pub fn judged_plain<T: Root>(r: &TypedReading<'_, T>, ctx: &Context) -> Verdict {
    judged_with(r, ctx, |_, _, _| {}).0
}

/// The verdict on `input` read as `T` (a reading of its own), with the family's meaning.
pub fn judge<T: Semantics>(input: &[u8], ctx: &Context) -> Verdict {
    judged(&TypedReading::<T>::new(input, ctx), ctx)
}

/// The verdict on `input` read as `T` (a reading of its own), a layout with no meaning beyond
/// its structure.
pub fn judge_plain<T: Root>(input: &[u8], ctx: &Context) -> Verdict {
    judged_plain(&TypedReading::<T>::new(input, ctx), ctx)
}
