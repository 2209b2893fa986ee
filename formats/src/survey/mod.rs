//! The researcher's census (`meshspec survey`): every file under some paths read with the
//! specs, on every core, at the cost of a `check` plus the tallies.
//!
//! Per layout it counts the files tried, read and consumed exactly, groups what failed by field
//! path and rule (with a few example files), says how often each relation held, and tallies the
//! values of every field the spec does not call proven, straight from the typed views (a
//! generated visitor: nothing is dumped). Nothing per file is kept beyond its tallies, so
//! memory does not grow with the install.
//!
//! # Which layout a file is read as
//!
//! 1. With a layout given (`--layout`), every file is read as that layout.
//! 2. Otherwise a file whose extension is a layout id (`floor.meshbin`, `x.sws-mesh`) is read
//!    as that layout.
//! 3. Otherwise the layouts whose constants are at their offsets in the file (their signature,
//!    [`Entry::claims`]) are its candidates: one is taken; of several, the first (in the table's
//!    order) whose structure reads, or the first when none does. A file no layout claims is
//!    skipped.
//!
//! Signatures can be weak (one u32 = 16), and a layout without one (unity-mesh) takes every
//! file in rule 1. So in rules 1 and 3 a file is counted for a layout only when some file of
//! its extension, in the same run, reads as that layout: the files of an extension none of
//! which reads (a Unity folder's `index.json`, `.resS` and `.vertexdata` beside its `.mesh`
//! files) are listed as skipped, with the first error of each, not as failures. Files chosen
//! by their extension being the layout id (rule 2), or selected with `--ext`, always count.
//!
//! # Game files
//!
//! A Unity game file (a bundle, a serialized file, found by its content as every command finds
//! it, [`game::is_game_file`]) is read as its container layout (`unity-bundle`,
//! `unity-serialized`; a plain serialized file, which no signature claims, by its content) and
//! then opened: every object whose class has a layout (a Mesh: `unity-mesh`) is an input of
//! that layout ([`GameFiles::input`]), with its file's editor version, and is counted in the
//! layout's census like a file of its own (named `FILE/CAB-...#PATHID`), and in that census's
//! breakdown by editor version ([`LayoutReport::versions`]).

pub mod census;
pub mod fields;
mod markdown;
pub mod report;
pub mod synth;
pub mod tally;
#[cfg(test)]
mod tests;
pub mod value;
pub mod walk;

pub use census::{Example, Group, LayoutReport, Promotion, RelationStats};
pub use fields::{FieldStats, Fields};
pub use report::{Report, Skipped, SURVEY_JSON_VERSION};
pub use tally::Tally;
pub use value::Value;

use crate::context::{Context, Relations};
use crate::layouts::Entry;
use crate::rt::{Error, ErrorKind};
use crate::unity::files::game::{self, GameFile, GameFiles};
use crate::unity::files::{object, version, Shared};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// How many distinct values per field are counted exactly by default.
pub const DEFAULT_CAP: usize = 64;

/// The Unity version to read `unity-mesh` files with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnityVersion {
    /// None given.
    #[default]
    None,
    /// One version for every file (`major * 10,000 + minor * 100 + patch`).
    Given(i128),
    /// The nearest folder above each file named after a version.
    Auto,
}

/// What a survey reads, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// Read every file as this layout.
    pub layout: Option<&'static Entry>,
    /// Only files whose name ends with `.EXT` (and those always count).
    pub ext: Option<String>,
    /// The Unity version.
    pub unity_version: UnityVersion,
    /// Whether violated relations are errors or warnings.
    pub relations: Relations,
    /// Whether warnings fail a file too.
    pub strict: bool,
    /// Files larger than this are not read.
    pub max_input_size: u64,
    /// How many distinct values per field are counted exactly.
    pub cap: usize,
    /// How many threads (all cores when `None`).
    pub threads: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            layout: None,
            ext: None,
            unity_version: UnityVersion::None,
            relations: Relations::Error,
            strict: false,
            max_input_size: 1 << 30,
            cap: DEFAULT_CAP,
            threads: None,
        }
    }
}

/// Told about every file as it is done (for a progress bar); called from every thread.
pub trait Progress: Sync {
    /// A file of `bytes` bytes is done.
    fn done(&self, bytes: u64);

    /// Whether to stop before the next file (a Python caller's Ctrl-C): the report then holds
    /// the files done so far.
    fn stop(&self) -> bool {
        false
    }
}

impl Progress for () {
    fn done(&self, _: u64) {}
}

/// One layout's files of one extension and editor version, as a worker sees them.
struct Slot {
    layout: &'static str,
    ext: String,
    /// Empty for a layout read without one.
    version: String,
    report: LayoutReport,
    fields: Fields,
    /// Whether its files count whatever happens (rule 2, or `--ext`).
    forced: bool,
}

/// One worker's census so far.
#[derive(Default)]
struct Work {
    files: u64,
    bytes: u64,
    /// In the order first met.
    slots: Vec<Slot>,
    /// The slot used last (files of a folder share one).
    last: usize,
    skipped: Vec<Skipped>,
}

/// One layout's files of one extension and version in several workers' censuses: what was
/// found, and the fields tallied, kept apart while the workers' can be added up node by node
/// ([`Fields::merge`]).
struct Census {
    report: LayoutReport,
    fields: Option<Fields>,
}

impl Census {
    /// Adds the fields kept apart into the report.
    fn settle(&mut self, cap: usize) {
        if let Some(f) = self.fields.take() {
            self.report.add_fields(f, cap);
        }
    }

    /// Adds another worker's census: the fields node by node while both are apart and can
    /// be, else by path (this one's first).
    fn merge(&mut self, mut o: Census, cap: usize) {
        let merged = match (&mut self.fields, o.fields.take()) {
            (Some(mine), Some(theirs)) => mine.merge(theirs).map_err(|t| o.fields = Some(*t)),
            (_, theirs) => {
                o.fields = theirs;
                Err(())
            }
        };
        if merged.is_err() {
            self.settle(cap);
            o.settle(cap);
        }
        self.report.merge(o.report, cap);
    }
}

/// One layout's files of one extension in several workers' censuses: each version's census,
/// and whether the extension always counts.
type Counted = (BTreeMap<String, Census>, bool);

/// Several workers' censuses, by layout and extension.
#[derive(Default)]
struct Partial {
    files: u64,
    bytes: u64,
    slots: BTreeMap<(&'static str, String), Counted>,
    skipped: Vec<Skipped>,
}

/// The extension game files found by their content, and the objects inside them, are counted
/// under: they always count.
const IN_GAME_FILES: &str = "(in game files)";

/// The editor version a layout reads an input with, as the census names it: the version
/// text (`2021.3.0`), empty for a layout without a `unity_version` parameter.
fn version_key(entry: &Entry, ctx: &Context) -> String {
    if !entry.params.contains(&"unity_version") {
        return String::new();
    }
    ctx.params
        .get("unity_version")
        .and_then(|&v| u32::try_from(v).ok())
        .map(version::version_text)
        .unwrap_or_default()
}

fn skip(w: &mut Vec<Skipped>, path: &Path, reason: &str, text: String) {
    report::add_skipped(
        w,
        Skipped {
            extension: walk::extension(path),
            reason: reason.into(),
            files: 1,
            examples: vec![Example {
                file: path.display().to_string(),
                text,
            }],
        },
    );
}

/// Why a file no layout claims is skipped.
const NO_CLAIM: &str = "no layout claims it (its extension is no layout id, and no layout's \
                        constants are at their offsets)";

/// How many bytes are read to see whether a layout claims a file (every signature's constants
/// lie well within them).
const HEAD: u64 = 4096;

/// An open file: its size and the bytes read from it so far.
struct Opened {
    file: std::fs::File,
    size: u64,
    bytes: Vec<u8>,
}

fn cannot(e: std::io::Error) -> Error {
    Error::unplaced(ErrorKind::Io, "a readable file", walk::io_words(&e))
}

/// `path` opened, with nothing read.
fn open(path: &Path) -> Result<Opened, Error> {
    let file = std::fs::File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    Ok(Opened {
        file,
        size,
        bytes: vec![],
    })
}

impl Opened {
    /// The first [`HEAD`] bytes read (or all of a shorter file).
    fn head(mut self) -> Result<Opened, Error> {
        self.bytes.reserve(HEAD.min(self.size) as usize);
        (&self.file)
            .take(HEAD)
            .read_to_end(&mut self.bytes)
            .map_err(cannot)?;
        Ok(self)
    }

    /// Every byte, refused past `limit` (the file is read on from where it was: a file whose
    /// first bytes were looked at is opened once).
    fn rest(mut self, limit: u64) -> Result<Vec<u8>, Error> {
        if self.size > limit {
            return Err(too_big(self.size, limit));
        }
        self.bytes
            .reserve((self.size as usize).saturating_sub(self.bytes.len()));
        let left = limit
            .saturating_add(1)
            .saturating_sub(self.bytes.len() as u64);
        (&self.file)
            .take(left)
            .read_to_end(&mut self.bytes)
            .map_err(cannot)?;
        if self.bytes.len() as u64 > limit {
            return Err(too_big(self.bytes.len() as u64, limit));
        }
        Ok(self.bytes)
    }
}

fn too_big(len: u64, limit: u64) -> Error {
    Error::unplaced(
        ErrorKind::Input,
        format!(
            "at most {} bytes (--max-input-size raises the limit)",
            value::thousands(limit)
        ),
        format!("{} bytes", value::thousands(len)),
    )
}

/// The context to read `path` as `entry` with, or why there is none.
fn context(entry: &Entry, path: &Path, o: &Options) -> Result<Context, Error> {
    let mut ctx = Context::new();
    ctx.input = Some(path.to_path_buf());
    ctx.relations = o.relations;
    ctx.strict = o.strict;
    match o.unity_version {
        UnityVersion::Given(v) => ctx = ctx.with_param("unity_version", v),
        // (Looked for only by a layout that needs it: the search walks the path.)
        UnityVersion::Auto if entry.params.contains(&"unity_version") => {
            if let Some(v) = walk::version_folder(path) {
                ctx = ctx.with_param("unity_version", v);
            }
        }
        UnityVersion::None | UnityVersion::Auto => {}
    }
    match entry.args_ok(&ctx) {
        Ok(()) => Ok(ctx),
        Err(_) if entry.params.contains(&"unity_version") => Err(Error::unplaced(
            ErrorKind::Input,
            match o.unity_version {
                UnityVersion::Auto => {
                    "a folder above the file named after the Unity version that wrote it \
                     (--unity-version auto)"
                }
                _ => "the Unity version that wrote the file (--unity-version)",
            },
            "none",
        )),
        Err(e) => Err(e),
    }
}

impl Work {
    fn slot(&mut self, entry: &'static Entry, ext: &str, version: &str, o: &Options) -> &mut Slot {
        let is = |s: &Slot| s.layout == entry.id && s.ext == ext && s.version == version;
        if !self.slots.get(self.last).is_some_and(is) {
            self.last = match self.slots.iter().position(is) {
                Some(i) => i,
                None => {
                    self.slots.push(Slot {
                        layout: entry.id,
                        ext: ext.to_string(),
                        version: version.to_string(),
                        report: LayoutReport::new(entry),
                        fields: Fields::new(entry.info, o.cap),
                        forced: o.ext.is_some() || ext == entry.id || ext == IN_GAME_FILES,
                    });
                    self.slots.len() - 1
                }
            };
        }
        &mut self.slots[self.last]
    }

    fn take(&mut self, found: walk::Found, o: &Options, progress: &dyn Progress) {
        let path = match found {
            walk::Found::File(p) => p,
            walk::Found::Unreadable(p, why) => {
                skip(&mut self.skipped, &p, "could not be read", why);
                return;
            }
        };
        self.files += 1;
        let size = self.file(&path, o);
        self.bytes += size;
        progress.done(size);
    }

    /// Reads, recognises and counts one file (and, for a game file, the objects in it); its
    /// size.
    fn file(&mut self, path: &Path, o: &Options) -> u64 {
        let ext = walk::extension(path);
        // Rules 1 and 2: the layout is known before the bytes are read.
        let known = o.layout.or_else(|| crate::layouts::find(&ext));
        // Rule 3 needs only the first bytes: a file no layout claims is not read further,
        // unless it is a game file, read as its container layout.
        let opened = open(path).and_then(|f| match known {
            Some(_) => Ok(f),
            None => f.head(),
        });
        let mut container = None;
        if let Ok(f) = &opened {
            if known.is_none() {
                container = game::container_layout(&f.bytes).and_then(crate::layouts::find);
                if container.is_none()
                    && !crate::layouts::LAYOUTS.iter().any(|e| e.claims(&f.bytes))
                {
                    skip(&mut self.skipped, path, NO_CLAIM, String::new());
                    return f.size;
                }
            }
        }
        // (A game file found by its content always counts, as a file of its extension.)
        let ext = if container.is_some() {
            IN_GAME_FILES.to_string()
        } else {
            ext
        };
        let bytes = match opened.and_then(|f| f.rest(o.max_input_size)) {
            Ok(b) => b,
            Err(e) => {
                match known.or(container) {
                    Some(entry) => self.slot(entry, &ext, "", o).report.unreadable(path, &e),
                    None => skip(&mut self.skipped, path, "could not be read", e.to_string()),
                }
                return std::fs::metadata(path).map_or(0, |m| m.len());
            }
        };
        let size = bytes.len() as u64;
        // Rule 3: by the layouts' constants.
        let entry = match known.or(container) {
            Some(e) => e,
            None => match self.claimed(path, &bytes, o) {
                Some(e) => e,
                None => {
                    skip(&mut self.skipped, path, NO_CLAIM, String::new());
                    return size;
                }
            },
        };
        let bytes = Shared::new(bytes);
        match context(entry, path, o) {
            Ok(ctx) => {
                let slot = self.slot(entry, &ext, &version_key(entry, &ctx), o);
                slot.fields.next_file();
                let mut reading = entry.read(&bytes, &ctx);
                reading.visit(&mut slot.fields);
                slot.report.record(path, size, &reading.verdict);
                // A game file's objects, from what its container's checks unpacked.
                if game::is_game_file(&bytes) {
                    let opened = GameFile::from_reading(path, &mut reading, bytes.clone());
                    if let Some(Ok(file)) = opened {
                        self.objects(file, o);
                    }
                }
            }
            Err(e) => self.slot(entry, &ext, "", o).report.unreadable(path, &e),
        }
        size
    }

    /// Counts every object of the game file `file` whose class has a layout, as an input of
    /// that layout with its file's version.
    fn objects(&mut self, file: GameFile, o: &Options) {
        let g = GameFiles::from_files(vec![file]);
        let mut user = Context::new();
        user.relations = o.relations;
        user.strict = o.strict;
        for r in g.objects() {
            let e = g.entry(r);
            let Some(entry) = object::layout_of(e.class_id).and_then(crate::layouts::find) else {
                continue;
            };
            let label = PathBuf::from(format!("{}#{}", g.place(r), e.path_id));
            let size = u64::from(e.size);
            match g.input(r, &user) {
                Ok(input) => {
                    let key = input
                        .mesh
                        .read_as
                        .as_ref()
                        .map(|v| v.key())
                        .unwrap_or_default();
                    let slot = self.slot(entry, IN_GAME_FILES, &key, o);
                    slot.fields.next_file();
                    let v = input.census(&mut slot.fields);
                    slot.report.record(&label, size, &v);
                    slot.report.in_game_files += 1;
                }
                Err(err) => {
                    // (An object that cannot be an input, its type tree or its file's version
                    // not reading, is refused where that is.)
                    let key = g.version(r).map(|v| v.key()).unwrap_or_default();
                    let slot = self.slot(entry, IN_GAME_FILES, &key, o);
                    let refused = crate::verdict::Verdict {
                        refused: Some(*err.error),
                        ..Default::default()
                    };
                    slot.report.record(&label, size, &refused);
                    slot.report.in_game_files += 1;
                }
            }
        }
    }

    /// The layout among those whose signature claims `bytes` that reads it (rule 3).
    fn claimed(&self, path: &Path, bytes: &[u8], o: &Options) -> Option<&'static Entry> {
        let claims: Vec<&'static Entry> = crate::layouts::LAYOUTS
            .iter()
            .filter(|e| e.claims(bytes))
            .collect();
        if claims.len() < 2 {
            return claims.first().copied();
        }
        claims
            .iter()
            .find(|e| context(e, path, o).is_ok_and(|ctx| e.judge(bytes, &ctx).refused.is_none()))
            .or(claims.first())
            .copied()
    }

    fn finish(self) -> Partial {
        let mut slots: BTreeMap<(&'static str, String), Counted> = BTreeMap::new();
        for s in self.slots {
            let (reports, forced) = slots.entry((s.layout, s.ext)).or_default();
            *forced |= s.forced;
            let census = Census {
                report: s.report,
                fields: Some(s.fields),
            };
            reports.insert(s.version, census);
        }
        Partial {
            files: self.files,
            bytes: self.bytes,
            slots,
            skipped: self.skipped,
        }
    }
}

impl Partial {
    fn merge(mut self, o: Partial, cap: usize) -> Partial {
        self.files += o.files;
        self.bytes += o.bytes;
        for s in o.skipped {
            report::add_skipped(&mut self.skipped, s);
        }
        // The censuses both hold are added up each on its own, on every thread.
        let mut both = vec![];
        for (k, (reports, forced)) in o.slots {
            let (into, f) = self.slots.entry(k.clone()).or_default();
            *f |= forced;
            for (v, r) in reports {
                match into.remove(&v) {
                    Some(mine) => both.push((k.clone(), v, mine, r)),
                    None => {
                        into.insert(v, r);
                    }
                }
            }
        }
        let added: Vec<_> = both
            .into_par_iter()
            .map(|(k, v, mut mine, r)| {
                mine.merge(r, cap);
                (k, v, mine)
            })
            .collect();
        for (k, v, r) in added {
            if let Some((into, _)) = self.slots.get_mut(&k) {
                into.insert(v, r);
            }
        }
        self
    }

    /// The report: each layout's extensions and versions added up (the versions also kept
    /// apart), except the extensions none of whose files read (and that do not always count),
    /// which are skipped.
    fn finish(self, cap: usize) -> Report {
        let mut skipped = self.skipped;
        // Each layout's censuses, in order.
        let mut censuses: BTreeMap<&'static str, Vec<(String, Census)>> = BTreeMap::new();
        for ((id, ext), (reports, forced)) in self.slots {
            if !forced && reports.values().all(|c| c.report.parsed == 0) {
                let examples = reports
                    .values()
                    .flat_map(|c| c.report.failures.iter())
                    .flat_map(|g| g.examples.iter().cloned())
                    .collect();
                report::add_skipped(
                    &mut skipped,
                    Skipped {
                        extension: ext.clone(),
                        reason: format!("no file of this extension reads as {id}"),
                        files: reports.values().map(|c| c.report.tried).sum(),
                        examples,
                    },
                );
                // (add_skipped sorts and trims the examples.)
                continue;
            }
            censuses.entry(id).or_default().extend(reports);
        }
        // The layouts, and the censuses of each, added up on every thread.
        let layouts: Vec<LayoutReport> = censuses
            .into_par_iter()
            .filter_map(|(_, reports)| {
                let mut l = reports
                    .into_par_iter()
                    .map(|(v, mut c)| {
                        c.settle(cap);
                        let r = c.report;
                        // (A version's census is kept as it is, beside the layout's total.)
                        if v.is_empty() {
                            return r;
                        }
                        let mut total = r.clone();
                        total.versions.insert(v, r);
                        total
                    })
                    .reduce_with(|mut a, b| {
                        a.merge(b, cap);
                        a
                    })?;
                l.promote();
                Some(l)
            })
            .collect();
        Report {
            files: self.files,
            bytes: self.bytes,
            skipped_files: skipped.iter().map(|s| s.files).sum(),
            skipped: tidy(skipped),
            layouts,
        }
    }
}

/// Skipped groups with their examples trimmed (a group made in one piece keeps them all until
/// here).
fn tidy(mut s: Vec<Skipped>) -> Vec<Skipped> {
    for g in &mut s {
        g.examples.sort();
        g.examples.dedup_by(|a, b| a.file == b.file);
        g.examples.truncate(census::EXAMPLES);
    }
    s
}

/// Surveys every file under `paths` (which must exist: see [`walk::missing`]).
///
/// One worker per thread of the pool takes the next file from the walk as soon as it is done
/// with its last (so a large file holds up no one), and keeps its own census; the censuses are
/// added up at the end.
pub fn survey(paths: &[PathBuf], o: &Options, progress: &dyn Progress) -> Report {
    let run = || {
        let walk = std::sync::Mutex::new(walk::files(paths, o.ext.as_deref()));
        let next = || {
            if progress.stop() {
                return None;
            }
            walk.lock().unwrap_or_else(|e| e.into_inner()).next()
        };
        (0..rayon::current_num_threads())
            .into_par_iter()
            .map(|_| {
                let mut w = Work::default();
                while let Some(found) = next() {
                    w.take(found, o, progress);
                }
                w.finish()
            })
            .reduce(Partial::default, |a, b| a.merge(b, o.cap))
            .finish(o.cap)
    };
    // A pool is built only when the one we run in has another size: starting threads costs
    // more than surveying a small folder.
    match o
        .threads
        .filter(|&n| n != rayon::current_num_threads())
        .and_then(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok())
    {
        Some(pool) => pool.install(run),
        None => run(),
    }
}
