//! Any spec at run time: a `.ksy` loaded through the spec model ([`meshspec_model::load`]) and
//! read, judged, dumped, rebuilt, walked and surveyed by interpreting the model, with no Rust
//! generated and nothing rebuilt.
//!
//! The interpreter makes the runtime calls the generated reader and writer make, in the same
//! order (`rt::Input`, `rt::Output`, `rt::field`), so that generated and interpreted give an
//! input the same verdict, error for error: `tests/interp.rs` holds them to it over the specs
//! and the corpus, and the fuzz target `interp_equal` over any bytes. What it does not do: a
//! family's meaning (relations, decoding) is hand-written over generated code; the table of
//! layouts lends a family's relations to a spec of its layout (`crate::layouts`).
//!
//! A loaded spec is compiled once ([`plan`]), its field tables built ([`tables`]); both live
//! as long as the program (the runtime's tables are `&'static`), and a spec loaded twice (same
//! file name, same text) is the one loaded first.

mod check;
mod encoding;
mod eval;
mod json;
#[cfg(test)]
mod kaitai_tests;
mod plan;
mod query;
mod read;
mod tables;
#[cfg(test)]
mod tests;
mod value;
mod walk;
mod write;

use crate::context::Context;
use crate::dump::{self, Built, Values};
use crate::reading::{Reading, ValueFn, Viewed, WalkFn};
use crate::rt::{Error, ErrorKind, Path, Result, Rule, TypeInfo, Visitor};
use crate::scene::Scene;
use crate::verdict::{self, Judge};
use meshspec_model::reachable;
use plan::Plan;
pub use query::Answer;
use read::Reader;
use std::collections::BTreeMap;
use std::sync::Mutex;
use value::{Pos, Val};
use write::Writer;

/// A loaded spec: compiled, with its field tables.
struct Program {
    plan: Plan,
    infos: Vec<&'static TypeInfo>,
    /// Every relation of every type, and whether the spec states it as an expression.
    relations: Vec<(&'static Rule, bool)>,
}

/// A type of a loaded spec, read as a whole input: what an interpreted `Entry` runs.
pub(crate) struct Layout {
    program: &'static Program,
    ty: usize,
    /// The layout id (the type's `-layout`, else its name).
    pub id: &'static str,
    /// The first step of field paths: the type's name.
    pub root: &'static str,
    pub description: &'static str,
    /// The spec file, as given.
    pub spec: &'static str,
    pub unknown: &'static [&'static str],
    /// The names of the values the user gives for the type's parameters.
    pub params: &'static [&'static str],
    pub rules: &'static [&'static Rule],
    pub signature: &'static [(u64, &'static [u8])],
    pub info: &'static TypeInfo,
    /// The relations a value holds that the spec states without a `-check` (`type.id`): the
    /// interpreter cannot check them, so a reading says so unless a family's code checks them.
    unstated: Vec<String>,
}

/// The loaded specs, by file name and text.
static PROGRAMS: Mutex<BTreeMap<(String, String), &'static Program>> = Mutex::new(BTreeMap::new());

/// The layouts made of them, by spec and type.
static LAYOUTS: Mutex<BTreeMap<(usize, usize), &'static Layout>> = Mutex::new(BTreeMap::new());

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// A spec that does not load, as an error: `why` says where in it (`FILE:LINE:COLUMN`, or
/// `FILE`) and what is wrong, as one line.
fn bad_spec(why: String) -> Error {
    Error::unplaced(
        ErrorKind::Input,
        "a spec meshspec reads (spec/README.md)",
        why,
    )
}

/// The folders `/x` imports are looked for in after the folders above the importing file
/// (Kaitai's compiler's `-I`).
static IMPORT_DIRS: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// Adds a folder that `imports: [/x]` finds `x.ksy` in (Kaitai's compiler's `-I`).
pub fn add_import_dir(dir: std::path::PathBuf) {
    let mut dirs = IMPORT_DIRS.lock().unwrap_or_else(|p| p.into_inner());
    if !dirs.contains(&dir) {
        dirs.push(dir);
    }
}

/// Finds an import as Kaitai's compiler does: `x` and `../x` beside the importing file,
/// `/x` in the nearest folder above the importing file that holds `x.ksy` (the gallery's
/// layout), else in a folder given to [`add_import_dir`].
fn import_file(importing: &str, name: &str) -> std::result::Result<(String, String), String> {
    use std::path::Path;
    let dir = Path::new(importing).parent().unwrap_or(Path::new(""));
    let found = match name.strip_prefix('/') {
        Some(abs) => {
            let extra = IMPORT_DIRS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            dir.ancestors()
                .map(Path::to_path_buf)
                .chain(extra)
                .map(|d| d.join(format!("{abs}.ksy")))
                .find(|p| p.is_file())
        }
        None => Some(dir.join(format!("{name}.ksy"))),
    };
    let path =
        found.ok_or_else(|| format!("imports `{name}`: no {name}.ksy above {}", dir.display()))?;
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("imports `{name}`: {}: {e}", path.display()))?;
    // One name per file, however it is reached (`a/../b.ksy` is `b.ksy`).
    let mut parts: Vec<&std::ffi::OsStr> = vec![];
    for c in path.components() {
        match c {
            std::path::Component::ParentDir if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str()),
        }
    }
    let normal: std::path::PathBuf = parts.iter().collect();
    Ok((normal.to_string_lossy().to_string(), text))
}

fn program(file: &str, text: &str) -> Result<&'static Program> {
    let key = (file.to_string(), text.to_string());
    let mut programs = PROGRAMS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = programs.get(&key) {
        return Ok(p);
    }
    let spec =
        meshspec_model::load_with(file, text, &import_file).map_err(|e| bad_spec(e.to_string()))?;
    let spec: &'static meshspec_model::Spec = leak(spec);
    let plan = plan::compile(spec).map_err(bad_spec)?;
    let infos = tables::infos(spec);
    let relations = tables::relations(spec);
    let p: &'static Program = leak(Program {
        plan,
        infos,
        relations,
    });
    programs.insert(key, p);
    Ok(p)
}

/// The names of the types spec `text` (read from `file`) defines, its root first.
pub(crate) fn type_names(file: &str, text: &str) -> Result<Vec<&'static str>> {
    Ok(program(file, text)?
        .plan
        .spec
        .types
        .iter()
        .map(|t| t.name.as_str())
        .collect())
}

/// The layout of type `ty` (the spec's root type when `None`) of the spec `text`, read from
/// `file` (the name errors and dumps give it).
pub(crate) fn load(file: &str, text: &str, ty: Option<&str>) -> Result<&'static Layout> {
    let program = program(file, text)?;
    let spec = program.plan.spec;
    let name = ty.unwrap_or(&spec.id);
    let Some(ti) = spec.types.iter().position(|t| t.name == name) else {
        let names: Vec<&str> = spec.types.iter().map(|t| t.name.as_str()).collect();
        return Err(bad_spec(format!(
            "{file}: no type `{name}` (its types: {})",
            names.join(", ")
        )));
    };
    let key = (program as *const Program as usize, ti);
    let mut layouts = LAYOUTS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(l) = layouts.get(&key) {
        return Ok(l);
    }
    let t = &spec.types[ti];
    let params: Vec<&'static str> = t
        .params
        .iter()
        .map(|p| p.context.as_deref().unwrap_or(&p.id))
        .collect();
    let signature: Vec<(u64, &'static [u8])> = meshspec_model::signature(spec, t)
        .into_iter()
        .map(|(at, b)| (at, &*Box::leak(b.into_boxed_slice())))
        .collect();
    let unknown: Vec<&'static str> = meshspec_model::unknown_paths(spec, t)
        .into_iter()
        .map(|p| &*Box::leak(p.into_boxed_str()))
        .collect();
    let layout = leak(Layout {
        program,
        ty: ti,
        id: t.layout.as_deref().unwrap_or(&t.name),
        root: t.name.as_str(),
        description: Box::leak(meshspec_model::description(spec, t).into_boxed_str()),
        spec: spec.file.as_str(),
        unknown: Box::leak(unknown.into_boxed_slice()),
        params: Box::leak(params.into_boxed_slice()),
        rules: tables::rules(spec, t, &program.relations),
        signature: Box::leak(signature.into_boxed_slice()),
        info: program.infos[ti],
        unstated: reachable(spec, &t.name)
            .into_iter()
            .flat_map(|u| {
                u.relations
                    .iter()
                    .filter(|r| !r.stated())
                    .map(move |r| format!("{}.{}", u.name, r.id))
            })
            .collect(),
    });
    layouts.insert(key, layout);
    Ok(layout)
}

impl Layout {
    fn plan(&self) -> &'static Plan {
        &self.program.plan
    }

    /// The one reading of `input`: read located, judged (structure, field checks and the
    /// relations the spec states as expressions); `meant`: also said, as one warning, which
    /// relations nothing checked (what `Entry::read` gives; `Entry::read_plain` leaves it out,
    /// as a generated layout's structural reading does).
    pub(crate) fn read<'a>(
        &'static self,
        input: &'a [u8],
        ctx: &Context,
        meant: bool,
    ) -> Reading<'a> {
        crate::rt::readings::note(self.id);
        let reader = Reader {
            plan: self.plan(),
            loc: true,
        };
        match reader.parse(self.ty, input, ctx) {
            Err(e) => Reading::new(verdict::refused(e, ctx), None),
            Ok((v, pos, warnings)) => {
                let mut j = Judge::new(ctx, warnings);
                if self.plan().types[self.ty].has_checks {
                    let mut path = Path::root(self.root);
                    check::checks(self.plan(), self.ty, &v, &pos, &mut path, j.findings_mut());
                }
                if meant && !self.unstated.is_empty() {
                    j.unchecked(
                        format!("the relations {} checked", self.unstated.join(", ")),
                        "no check of them: the spec states them without -check, and a spec read at run time has no hand-written checks",
                    );
                }
                let (verdict, _) = j.finish();
                let view = View {
                    layout: self,
                    v,
                    pos,
                };
                Reading::new(verdict, Some(Box::new(view)))
            }
        }
    }

    /// The bytes of a (possibly edited) dump, given the verdict `judge` gives them.
    pub(crate) fn build(
        &'static self,
        d: &serde_json::Value,
        ctx: &Context,
        judge: impl FnOnce(&[u8], &Context) -> verdict::Verdict,
    ) -> Result<Built> {
        dump::build_with(&Source(self), d, ctx, judge)
    }

    /// Relation `id` of type `owner`, anywhere in the spec, and whether the spec states it as
    /// an expression.
    pub(crate) fn relation(&self, owner: &str, id: &str) -> Option<(&'static Rule, bool)> {
        self.program
            .relations
            .iter()
            .find(|(r, _)| r.owner == owner && r.id == id)
            .copied()
    }

    /// The relations the spec states without a `-check` (`type.id`), which nothing in the
    /// spec checks.
    pub(crate) fn unstated(&self) -> &[String] {
        &self.unstated
    }

    /// Reads `input` as far as the type goes (bytes after it are Kaitai's to leave, not an
    /// error here) and answers each expression over the value read: `Err` of the reading, or
    /// each answer or why it has none.
    pub(crate) fn query(
        &'static self,
        input: &[u8],
        ctx: &Context,
        exprs: &[&str],
    ) -> Result<Vec<std::result::Result<query::Answer, String>>> {
        let reader = Reader {
            plan: self.plan(),
            loc: true,
        };
        let tp = &self.plan().types[self.ty];
        let args = read::root_args(tp, ctx)?;
        let mut io = crate::rt::Input::new(input);
        let (v, pos) = reader
            .read_type(&mut io, self.ty, &args)
            .map_err(|e| e.rooted(self.root.to_string()))?;
        let q = query::Query::new(self.plan(), input, self.ty, v, pos);
        Ok(exprs
            .iter()
            .map(|text| {
                let e = meshspec_model::expr::parse(text)?;
                q.answer(&e)
            })
            .collect())
    }

    /// Whether `ctx` gives every parameter the layout needs.
    pub(crate) fn args_ok(&self, ctx: &Context) -> Result<()> {
        read::root_args(&self.plan().types[self.ty], ctx).map(drop)
    }
}

/// An interpreted reading whose structure read.
struct View<'a> {
    layout: &'static Layout,
    v: Val<'a>,
    pos: Pos,
}

impl View<'_> {
    fn owned(&self) -> json::Owned<'static, '_, '_> {
        json::Owned {
            plan: self.layout.plan(),
            ty: self.layout.ty,
            v: &self.v,
        }
    }
}

impl Viewed for View<'_> {
    fn scene(&self, _: &Context) -> Result<Scene> {
        Err(crate::meaning::no_geometry(self.layout.id))
    }

    fn dump(&self, _: &Context) -> Result<serde_json::Value> {
        let l = self.layout;
        Ok(dump::wrapped(
            l.id,
            l.spec,
            dump::json(&self.owned())?,
            vec![],
        ))
    }

    fn walk(&self, visit: &mut WalkFn<'_>) {
        if let Pos::Struct(sp) = &self.pos {
            let mut path = Path::root(self.layout.root);
            walk::walk(
                self.layout.plan(),
                &self.layout.program.infos,
                sp,
                &mut path,
                visit,
            );
        }
    }

    fn visit(&self, visitor: &mut dyn Visitor) {
        let l = self.layout;
        walk::visit(l.plan(), &l.program.infos, l.ty, &self.v, visitor);
    }

    fn value(&self, show: &mut ValueFn<'_>) {
        show(&self.owned());
    }

    fn write_back(&self, ctx: &Context) -> std::result::Result<Vec<u8>, String> {
        let w = Writer {
            plan: self.layout.plan(),
            loc: true,
        };
        let (out, at) = w
            .write(self.layout.ty, &self.v, ctx)
            .map_err(|e| format!("does not write back: {e}"))?;
        if at != self.pos {
            return Err("the writer's positions differ from the reader's".into());
        }
        Ok(out)
    }
}

/// What a build does with an interpreted layout's values.
struct Source(&'static Layout);

impl Values for Source {
    type V = Val<'static>;

    fn id(&self) -> &str {
        self.0.id
    }

    fn parse(&self, data: &serde_json::Value) -> Result<Val<'static>> {
        let p = json::Parser {
            plan: self.0.plan(),
        };
        p.value(self.0.ty, data).map_err(|r| {
            Error::unplaced(
                ErrorKind::Input,
                format!("a valid value at data.{}", r.path),
                r.why,
            )
            .rooted("dump")
        })
    }

    fn write(&self, v: &Val<'static>, ctx: &Context) -> Result<Vec<u8>> {
        let w = Writer {
            plan: self.0.plan(),
            loc: false,
        };
        w.write(self.0.ty, v, ctx).map(|(b, _)| b)
    }

    fn read(&self, bytes: &[u8], ctx: &Context) -> Result<Val<'static>> {
        crate::rt::readings::note(self.0.id);
        let r = Reader {
            plan: self.0.plan(),
            loc: false,
        };
        r.parse(self.0.ty, bytes, ctx)
            .map(|(v, _, _)| v.into_static())
    }

    fn json(&self, v: &Val<'static>) -> Result<serde_json::Value> {
        dump::json(&json::Owned {
            plan: self.0.plan(),
            ty: self.0.ty,
            v,
        })
    }
}
