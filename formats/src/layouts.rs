//! The table of layouts the command line offers, and what each one means beyond its bytes.
//!
//! The table is every layout the specs declare ([`LAYOUTS`], from the generated list of root
//! types), with the operations its structure alone allows. A family that gives a layout a
//! meaning (relations, decoding, a builder) implements [`crate::meaning::Semantics`] for it and
//! lists it in its family's `MEANINGS`; its operations then replace the structural ones. A
//! layout without a meaning needs no code at all. Data and imports flow one way: generated code
//! knows the runtime, the families know generated code, the table knows the families, and the
//! commands know the table.
//!
//! An entry can also be a layout of any spec loaded at run time ([`Entry::interpreted`]): the
//! interpreter (`crate::interp`) reads it with the same runtime, so its structural operations
//! give what generated code would.

use crate::context::Context;
use crate::dump::Built;
use crate::meaning::{Decoded, Imported};
use crate::ops::Ops;
use crate::reading::{Reading, ValueFn, WalkFn};
use crate::rt::{Error, ErrorKind, Result, Root, Rule, TypeInfo, Visitor};
use crate::scene::{Mesh, Scene};
use crate::verdict::Verdict;
use std::sync::Mutex;

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
    /// The constants every value holds at fixed offsets (offset, bytes): what recognises an
    /// input as this layout before it is read ([`Entry::claims`]).
    pub signature: &'static [(u64, &'static [u8])],
    /// What the spec says about the layout's root type (its confidence, its fields).
    pub info: &'static TypeInfo,
    source: Source,
}

/// What runs an entry's operations.
enum Run<'e> {
    Ops(&'e Ops),
    Interpreted(&'static crate::interp::Layout, Option<Lent>),
}

/// What reads an entry's inputs.
#[derive(Clone, Copy)]
enum Source {
    /// Generated code, with the operations its structure allows (a family's replace them).
    Generated {
        args_ok: fn(&Context) -> Result<()>,
        plain: Ops,
    },
    /// The interpreter, over a spec loaded at run time; with the meaning of the family whose
    /// layout has the same id, when one has.
    Interpreted(&'static crate::interp::Layout, Option<Lent>),
}

/// A family's meaning lent to a spec read at run time ([`Family`]), and whether the spec has
/// the family's own spec's shape (the same text but for docs, confidences, evidence and
/// relations), so that it reads every input as the family's does.
#[derive(Clone, Copy)]
struct Lent {
    family: &'static Family,
    same_shape: bool,
}

/// A family's meaning lent to a spec read at run time that declares one of the family's
/// layouts (an edited copy of `spec/unity_mesh.ksy`): the relations the family checks in
/// Rust are checked on the spec's readings too, each at the severity the spec read gives it,
/// for every input the spec reads as the family's own spec does (the same fields at the same
/// places). Otherwise they are said to be unchecked, never silently dropped.
struct Family {
    meaning: crate::ops::MeaningFn,
    /// The spec the family's code was written for.
    spec: &'static str,
    /// The relations the family's code checks (`type.id`): its spec's unstated ones.
    checks: Vec<String>,
    /// Its spec's shape ([`shape`]).
    shape: Option<serde_norway::Value>,
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
            signature: T::SIGNATURE,
            info: T::INFO,
            source: Source::Generated {
                args_ok: args_ok::<T>,
                plain: Ops::plain::<T>(),
            },
        }
    }

    /// The layout of a spec loaded at run time, read by the interpreter: `arg` is the path of
    /// a `.ksy` file, with `#TYPE` after it to take one of its types instead of its root
    /// (`spec/sws_mesh.ksy#submesh`). A spec that does not load is an error, never a panic.
    pub fn interpreted(arg: &str) -> Result<&'static Entry> {
        let (file, ty) = match arg.rsplit_once('#') {
            Some((file, ty)) => (file, Some(ty)),
            None => (arg, None),
        };
        Entry::from_spec(file, &spec_text(file)?, ty)
    }

    /// Every type the spec file `file` defines as a layout (its root first), each also named
    /// by `FILE.ksy#TYPE`.
    pub fn of_spec(file: &str) -> Result<Vec<&'static Entry>> {
        let text = spec_text(file)?;
        crate::interp::type_names(file, &text)?
            .into_iter()
            .map(|t| Entry::from_spec(file, &text, Some(t)))
            .collect()
    }

    /// [`Entry::interpreted`] for spec text `text`, named `file` (its stem is the spec's id).
    /// The same spec loaded again is the entry loaded first. A spec that is, byte for byte,
    /// one the layouts were generated from gives that layout's entry: its generated code and
    /// its family's meaning (the interpreter reads it alike, `tests/interp.rs`), so every
    /// relation a family checks by hand is checked however the spec was named.
    pub fn from_spec(file: &str, text: &str, ty: Option<&str>) -> Result<&'static Entry> {
        if let Some(e) = Self::generated_from(text, ty) {
            return Ok(e);
        }
        Self::interpret(file, text, ty)
    }

    /// The generated layout of type `ty` (the root when `None`) of the spec whose text is
    /// `text`, when the layouts were generated from that text.
    fn generated_from(text: &str, ty: Option<&str>) -> Option<&'static Entry> {
        let (path, _) = crate::generated::SOURCES
            .iter()
            .find(|(_, source)| *source == text)?;
        let id = std::path::Path::new(path).file_stem()?.to_str()?;
        let name = ty.unwrap_or(id);
        LAYOUTS
            .iter()
            .find(|e| e.spec == *path && e.info.name == name)
    }

    /// [`Entry::from_spec`] read by the interpreter.
    pub fn interpret(file: &str, text: &str, ty: Option<&str>) -> Result<&'static Entry> {
        static LOADED: Mutex<Vec<&'static Entry>> = Mutex::new(Vec::new());
        let layout = crate::interp::load(file, text, ty)?;
        let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
        let same = |e: &&&'static Entry| matches!(e.source, Source::Interpreted(l, _) if std::ptr::eq(l, layout));
        if let Some(e) = loaded.iter().find(same) {
            return Ok(e);
        }
        let e: &'static Entry = Box::leak(Box::new(Entry {
            id: layout.id,
            description: layout.description,
            spec: layout.spec,
            unknown: layout.unknown,
            params: layout.params,
            rules: layout.rules,
            signature: layout.signature,
            info: layout.info,
            source: Source::Interpreted(
                layout,
                Family::of(layout.id).map(|family| Lent {
                    family,
                    same_shape: family.shape.is_some() && shape(text) == family.shape,
                }),
            ),
        }));
        loaded.push(e);
        Ok(e)
    }

    /// Whether the layout is read by the interpreter of a spec loaded at run time.
    pub fn is_interpreted(&self) -> bool {
        matches!(self.source, Source::Interpreted(..))
    }

    /// Whether `input` holds the layout's constants where the spec puts them (never true for
    /// a layout without any).
    pub fn claims(&self, input: &[u8]) -> bool {
        crate::rt::codec::claims(self.signature, input)
    }

    /// What runs the layout: a generated layout's operations (its family's, else its
    /// structure's), or the interpreter.
    fn run(&self) -> Run<'_> {
        match &self.source {
            Source::Generated { plain, .. } => Run::Ops(
                meanings()
                    .find(|(id, _)| *id == self.id)
                    .map_or(plain, |(_, ops)| ops),
            ),
            Source::Interpreted(l, family) => Run::Interpreted(l, *family),
        }
    }

    /// The one reading of `input`: its verdict (structure, field checks, relations and the
    /// decoder's own checks, each at its severity) and the view every other operation works
    /// on. Each method below makes one reading; a caller that needs two operations on the same
    /// input makes the reading once and asks it.
    /// Kaitai expressions (`header.magic`, `entries[2].name.length`) answered over the value
    /// of `input` as an interpreted layout reads it, each with its answer or why it has none;
    /// `Err` when the input does not read. A generated layout is asked through its spec.
    pub fn query(
        &self,
        input: &[u8],
        ctx: &Context,
        exprs: &[&str],
    ) -> Result<Vec<std::result::Result<crate::interp::Answer, String>>> {
        match &self.source {
            Source::Interpreted(l, _) => l.query(input, ctx, exprs),
            Source::Generated { .. } => Entry::interpreted(self.spec)?.query(input, ctx, exprs),
        }
    }

    pub fn read<'a>(&self, input: &'a [u8], ctx: &Context) -> Reading<'a> {
        match self.run() {
            Run::Ops(ops) => (ops.read)(input, ctx),
            Run::Interpreted(l, None) => l.read(input, ctx, true),
            Run::Interpreted(l, Some(lent)) => lent.family.read(l, lent.same_shape, input, ctx),
        }
    }

    /// The reading of `input` by its structure alone: read located and judged by the field
    /// checks the spec makes, without a family's relations or decoder checks (for a layout
    /// without a meaning, and an interpreted one, what [`Entry::read`] gives).
    pub fn read_plain<'a>(&self, input: &'a [u8], ctx: &Context) -> Reading<'a> {
        match &self.source {
            Source::Generated { plain, .. } => (plain.read)(input, ctx),
            Source::Interpreted(l, _) => l.read(input, ctx, false),
        }
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
        match self.run() {
            Run::Ops(ops) => (ops.build)(dump, ctx),
            Run::Interpreted(l, _) => l.build(dump, ctx, |b, ctx| self.judge(b, ctx)),
        }
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
        match self.run() {
            Run::Ops(ops) => (ops.import)(mesh, ctx),
            Run::Interpreted(..) => None,
        }
    }

    /// Whether the layout can be built from geometry.
    pub fn imports(&self) -> bool {
        matches!(self.run(), Run::Ops(ops) if ops.imports)
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
        match &self.source {
            Source::Generated { args_ok, .. } => args_ok(ctx),
            Source::Interpreted(l, _) => l.args_ok(ctx),
        }
    }

    /// Whether decoding this layout's geometry, or building one from geometry, needs
    /// [`Context::winding`].
    pub fn needs_winding(&self) -> bool {
        matches!(self.run(), Run::Ops(ops) if ops.needs_winding)
    }
}

impl Family {
    /// The meaning of the family that gives layout `id` one, with what its code checks.
    fn of(id: &str) -> Option<&'static Family> {
        static FAMILIES: Mutex<Vec<(&'static str, &'static Family)>> = Mutex::new(Vec::new());
        let mut families = FAMILIES.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, f)) = families.iter().find(|(i, _)| *i == id) {
            return Some(f);
        }
        let meaning = meanings().find(|(i, _)| *i == id)?.1.meaning?;
        let generated = find(id)?;
        let (_, text) = crate::generated::SOURCES
            .iter()
            .find(|(path, _)| *path == generated.spec)?;
        // The family's own spec loads (the build checked it); its unstated relations are
        // what the family's code checks (tests/relations.rs holds each family to its own).
        let own = crate::interp::load(generated.spec, text, Some(generated.info.name)).ok()?;
        let f: &'static Family = Box::leak(Box::new(Family {
            meaning,
            spec: generated.spec,
            checks: own.unstated().to_vec(),
            shape: shape(text),
        }));
        families.push((generated.id, f));
        Some(f)
    }

    /// The reading of `input` by the interpreted layout `l`, judged also by the family's
    /// meaning when the family's own reader finds the same fields at the same places: always,
    /// for a spec of the same shape as the family's; otherwise when the two readings' fields
    /// agree (both walked, which costs a pass over every element of every list).
    fn read<'a>(
        &self,
        l: &'static crate::interp::Layout,
        same_shape: bool,
        input: &'a [u8],
        ctx: &Context,
    ) -> Reading<'a> {
        let mut r = l.read(input, ctx, false);
        if r.verdict.refused.is_some() {
            return r;
        }
        let unstated = l.unstated();
        let lent = (self.meaning)(input, ctx)
            .filter(|(own, _)| {
                same_shape || fields_hash(own).is_some_and(|h| fields_hash(&r) == Some(h))
            })
            .map(|(_, v)| v);
        let Some(lent) = lent else {
            // The family's decoder checks did not run either: said even when no relation is
            // left unchecked.
            let what = if unstated.is_empty() {
                format!("the checks of the family that reads {} run", self.spec)
            } else {
                format!("the relations {} checked", unstated.join(", "))
            };
            r.verdict.findings.push(crate::verdict::unchecked(
                what,
                format!(
                    "no check of them: the family's code checks what {} reads, and this spec reads the input differently (other fields or other places)",
                    self.spec
                ),
            ));
            return r;
        };
        for mut f in lent.findings {
            if let Some(rule) = f.rule {
                // The spec read decides which of the family's relations hold and what each
                // costs; one it states as an expression the interpreter has checked.
                let Some((own, false)) = l.relation(rule.owner, rule.id) else {
                    continue;
                };
                f.rule = Some(own);
                // A violation costs what the relation costs; a decoder's check that names the
                // relation it needs costs what the decoder says.
                if f.kind == ErrorKind::Relation {
                    f.severity = match ctx.relations {
                        crate::context::Relations::Warn => crate::rt::Severity::Warning,
                        _ => own.severity,
                    };
                }
            }
            r.verdict.findings.push(f);
        }
        r.verdict.notes.extend(lent.notes);
        let unknown: Vec<&str> = unstated
            .iter()
            .filter(|n| !self.checks.contains(n))
            .map(String::as_str)
            .collect();
        if !unknown.is_empty() {
            r.verdict.findings.push(crate::verdict::unchecked(
                format!("the relations {} checked", unknown.join(", ")),
                format!(
                    "no check of them: the spec states them without -check, and the family's code (written for {}) does not know them",
                    self.spec
                ),
            ));
        }
        r
    }
}

/// A spec's text as it bears on reading: its YAML with every key that only documents or judges
/// what is read (docs, confidences, evidence, severities, relations) taken out; `None` for
/// text that is not YAML. Two specs of one shape read every input alike.
fn shape(text: &str) -> Option<serde_norway::Value> {
    fn strip(v: &mut serde_norway::Value) {
        match v {
            serde_norway::Value::Mapping(m) => {
                m.retain(|k, _| {
                    !matches!(
                        k.as_str(),
                        Some(
                            "doc"
                                | "doc-ref"
                                | "title"
                                | "-confidence"
                                | "-evidence"
                                | "-reading"
                                | "-orig-id"
                                | "-severity"
                                | "-severity-reason"
                                | "-relations"
                        )
                    )
                });
                m.values_mut().for_each(strip);
            }
            serde_norway::Value::Sequence(s) => s.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_norway::Value = serde_norway::from_str(text).ok()?;
    strip(&mut v);
    Some(v)
}

/// A digest of every field's path and place in a reading (`None` when it did not read): two
/// readings with the same digest found the same fields at the same places.
fn fields_hash(r: &Reading<'_>) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    r.walk(&mut |path, span, _, _| {
        path.hash(&mut h);
        span.hash(&mut h);
    })
    .ok()?;
    Some(h.finish())
}

/// Why the spec a LAYOUT argument names (`FILE.ksy`, `FILE.ksy#TYPE`) could not be had, as
/// one line: `FILE:LINE:COLUMN: what is wrong` for a spec that does not load (the error
/// [`Entry::interpreted`] gives says it whole), `FILE: cannot be read: why` for a file that
/// cannot be read.
pub fn spec_problem(arg: &str, e: &Error) -> String {
    let file = arg.rsplit_once('#').map_or(arg, |(f, _)| f);
    match e.kind {
        ErrorKind::Input => e.found.clone(),
        _ => format!("{file}: cannot be read: {}", e.found),
    }
}

/// Whether a LAYOUT argument names a spec file (`FILE.ksy`, `FILE.ksy#TYPE`) rather than a
/// layout id.
pub fn is_spec_path(arg: &str) -> bool {
    arg.rsplit_once('#')
        .map_or(arg, |(f, _)| f)
        .ends_with(".ksy")
}

/// The text of the spec file `file`.
fn spec_text(file: &str) -> Result<String> {
    std::fs::read_to_string(file).map_err(|e| {
        Error::unplaced(
            ErrorKind::Io,
            format!("a readable spec at {file}"),
            e.to_string(),
        )
    })
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

macro_rules! entries {
    ($($t:ty),*) => {
        &[$(Entry::of::<$t>()),*]
    };
}

/// Every layout the specs declare, in file order.
pub static LAYOUTS: &[Entry] = crate::generated::roots!(entries);

/// The layout with id `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    LAYOUTS.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    /// The layout ids the lower layers name (a game file's containers and objects) are in the
    /// table, which the commands look them up in.
    #[test]
    fn the_ids_the_game_layer_names_are_in_the_table() {
        use crate::unity::files::{game, object, Shared};
        for id in [object::layout_of(43).unwrap()].into_iter().chain(
            [
                "corpus/unity/lz4.unity-bundle",
                "corpus/unity/web.unity-web",
                "corpus/unity/game.unity-serialized",
            ]
            .map(|f| {
                let b = std::fs::read(
                    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("..")
                        .join(f),
                )
                .unwrap();
                game::container_layout(&Shared::new(b)).unwrap()
            }),
        ) {
            assert!(super::find(id).is_some(), "{id}");
        }
    }
}
