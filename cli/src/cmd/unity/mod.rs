//! Unity game files on the command line: `meshspec unity list|extract|check|dump|export|replace`, and
//! the game-file form of the top-level `check`, `info`, `dump`, `explain` and `export`
//! (`--mesh NAME`, `--path-id N`, `--all`). The editor version comes from the file;
//! `--unity-version` reads a file whose version string is not a version (a stripped `0.0.0`),
//! and must agree with a file's own. Each object is an input of its layout
//! ([`GameFiles::input`]): every verdict and decoding is the library's, as for a bare object.

pub mod check;
pub mod dump;
pub mod export;
pub mod like;
pub mod replace;
pub mod typetree;

pub mod info;

use crate::args::{GameSelect, InputOpt, Json, RelationsOpt, RessOpt};
use crate::fail::{exit, Fail};
use crate::report::{Finding, Line, Severity};
use crate::usage::{Given, Usage};
use crate::{input, output, term};
use clap::{Args, Subcommand};
use meshspec_formats::context::Context;
use meshspec_formats::rt::Root;
use meshspec_formats::unity::files::game::{self, GameFiles, Select};
use meshspec_formats::unity::files::{self, Located, ObjectRef};
use meshspec_formats::Entry;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The layout of Unity's Mesh object, the one the game-file forms of the commands read.
pub const MESH: &str = <meshspec_formats::generated::unity_mesh::UnityMesh as Root>::ID;

/// The table entry of [`MESH`].
pub fn mesh_entry() -> &'static Entry {
    meshspec_formats::find(MESH).expect("the Mesh layout is in the table")
}

/// `meshspec unity ...`.
#[derive(Args)]
pub struct UnityArgs {
    #[command(subcommand)]
    command: UnityCommand,
}

#[derive(Subcommand)]
enum UnityCommand {
    /// List every object of the files: path id, class, byte size and name.
    List {
        /// Bundles, serialized files, or folders of them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only objects of this class (`Mesh`).
        #[arg(long)]
        class: Option<String>,
        #[command(flatten)]
        input: InputOpt,
        #[command(flatten)]
        json: Json,
    },
    /// Write one object's bytes (and a Mesh's streamed range beside them, as OUT with the
    /// extension `.vertexdata`).
    Extract {
        /// The bundle or serialized file.
        file: PathBuf,
        /// The object's path id.
        #[arg(long, allow_hyphen_values = true)]
        path_id: i64,
        /// Where to write the object's bytes.
        #[arg(short, long)]
        output: PathBuf,
        #[command(flatten)]
        input: InputOpt,
    },
    /// Check the meshes of the files (all of them, or those --mesh / --path-id name).
    Check(check::Args),
    /// Dump one mesh as the `unity-mesh` layout reads it (the version from its file).
    Dump(dump::Args),
    /// Export one mesh (--mesh / --path-id) to OUT.glb or OUT.obj, or every mesh (--all) into
    /// the folder OUT.
    Export(export::Args),
    /// Print the type trees the files carry (of one class, or of every class): one block per
    /// distinct tree, one line per node (type, name, byte size, align flag); or with --ksy each
    /// tree as a draft .ksy in the spec language.
    Typetree(typetree::Args),
    /// Write the file with Meshes replaced (from objects `unity extract` wrote, edited, or
    /// from edited `unity dump`s), written only when the result reads back and every replaced
    /// mesh in it passes `check`; everything else is kept byte for byte. Several meshes: one
    /// `--path-id` for each `--object` (or each `--dump`), in the same order.
    Replace(replace::Args),
}

/// Runs `meshspec unity ...`.
pub fn run(args: UnityArgs) -> Result<ExitCode, Fail> {
    match args.command {
        UnityCommand::List {
            files,
            class,
            input,
            json,
        } => list(&files, class.as_deref(), input.max_input_size, json.json),
        UnityCommand::Extract {
            file,
            path_id,
            output,
            input,
        } => extract(&file, path_id, &output, input.max_input_size),
        UnityCommand::Check(a) => check::run(a),
        UnityCommand::Dump(a) => dump::run(a),
        UnityCommand::Export(a) => export::run(a),
        UnityCommand::Typetree(a) => typetree::run(a),
        UnityCommand::Replace(a) => replace::run(a),
    }
}

/// Whether a path is a game file (a bundle or a serialized file, by its first bytes) or a
/// folder.
fn is_game_input(p: &Path) -> bool {
    if p.is_dir() {
        return true;
    }
    game::head_of(p).is_ok_and(|h| game::is_game_file(&h))
}

/// Whether the top-level `check`, `dump` or `export` of `layout` on `files` is the game-file
/// form: `unity-mesh` on a bundle, a serialized file or a folder.
pub fn is_game<'a>(layout: &str, files: impl IntoIterator<Item = &'a PathBuf>) -> bool {
    layout == MESH && files.into_iter().any(|f| is_game_input(f))
}

/// The usage problems of `--mesh`, `--path-id` and `--all` on the layout path (the input is not
/// a game file, or the layout is not `unity-mesh`).
pub fn not_a_game_file(u: &mut Usage, layout: &str, game: &GameSelect, all: bool) {
    if !game.any() && !all {
        return;
    }
    u.problem(if layout == crate::cmd::unity::MESH {
        "--mesh, --path-id and --all are for game files (bundles, serialized files); this is a bare object".into()
    } else {
        format!(
            "--mesh, --path-id and --all read Unity game files: use the layout unity-mesh, not `{}`",
            crate::escape::text(layout)
        )
    });
}

/// A bare Mesh object the fixed layout of the version given does not read: the refusal says
/// which of the spec's layouts read it exactly.
pub use meshspec_formats::report::bare_hint;

/// `--unity-version` of the `unity` commands.
#[derive(Args, Clone)]
pub struct GameVersion {
    /// The Unity editor version to read files with whose version string is not a version (a
    /// stripped build's 0.0.0), e.g. 2021.3.0f1; a file's own version wins, and must agree.
    #[arg(long, value_name = "VERSION")]
    pub unity_version: Option<String>,
}

/// The usage problem of `--unity-editor` on a game file, which says itself whether the editor
/// saved it (its target platform).
pub fn bare_only(u: &mut Usage, unity_editor: bool) {
    if unity_editor {
        u.problem(
            "--unity-editor is for a bare Mesh object; a game file says itself whether the editor saved it (its target platform)"
                .into(),
        );
    }
}

/// The version `--unity-version` gives a game file (for a file whose version string is not a
/// version); a problem when it is not a version.
pub fn given_version(u: &mut Usage, unity_version: Option<&str>) -> Option<u32> {
    let v = unity_version?;
    match meshspec_formats::context::unity_version(v)
        .ok()
        .and_then(|n| u32::try_from(n).ok())
    {
        Some(n) => Some(n),
        None => {
            u.problem(format!(
                "--unity-version {}: expected a Unity version such as 2021.3.0f1 (a game file's own version wins; `auto` is for bare objects)",
                crate::escape::text(v)
            ));
            None
        }
    }
}

/// The context the game-file forms read objects with: `--ress` and (when the command takes it)
/// `--relations`; the version comes from each file.
pub fn user_context(u: &mut Usage, ress: &RessOpt, relations: Option<RelationsOpt>) -> Context {
    let mut given = Given {
        ress: ress.ress.clone(),
        ..Given::default()
    };
    if let Some(r) = relations {
        given = given.relations(r);
    }
    u.context(None, &given, None)
}

/// The notes on the versions files are read with when their version strings are not
/// versions, one per serialized file of `list`'s meshes, in order.
pub fn version_notes(g: &GameFiles, list: &[ObjectRef]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    list.iter()
        .filter(|r| seen.insert((r.file, r.inner)))
        .filter_map(|&r| {
            let note = g.version(r).ok()?.note()?;
            Some(format!(
                "{}: {note}",
                g.files[r.file].serialized[r.inner].name.escape_debug()
            ))
        })
        .collect()
}

/// A refusal from an error in a game file.
pub fn refused(e: &Located) -> Fail {
    Fail::Refused(Box::new(Finding::located(e, Severity::Error)))
}

/// The game files (and folders of them) `files` name, read with `version` when their version
/// string is not a version; a file that cannot be opened is kept in [`GameFiles::failed`].
fn opened(files: &[PathBuf], limit: u64, version: Option<u32>) -> GameFiles {
    let mut g = GameFiles::open_each_with(files, limit, crate::input::map_shared);
    g.unity_version = version;
    g
}

/// Opens the game files (`version`: for files whose version string is not a version); a file
/// that cannot be opened is kept in [`GameFiles::failed`], and files under a folder that are
/// not game files are noted.
fn open(files: &[PathBuf], limit: u64, quiet: bool, version: Option<u32>) -> GameFiles {
    let g = opened(files, limit, version);
    if !quiet {
        for (p, why) in &g.skipped {
            term::err(
                Severity::Note,
                &format!("skipped {}: {why}", input::shown(p)),
            );
        }
    }
    g
}

/// Opens one game file, refused when it cannot be; or a folder (a player build), its files
/// that cannot be opened said in notes.
pub fn open_one(file: &Path, limit: u64, version: Option<u32>) -> Result<GameFiles, Fail> {
    let g = opened(std::slice::from_ref(&file.to_path_buf()), limit, version);
    match g.failed.first() {
        Some(e) if !file.is_dir() => Err(refused(e)),
        _ => {
            for e in &g.failed {
                term::err(
                    Severity::Note,
                    &format!(
                        "could not open {}",
                        Finding::located(e, Severity::Error).line()
                    ),
                );
            }
            Ok(g)
        }
    }
}

/// The lines for game files that could not be opened (one per file, on standard output as a
/// check's lines are): the file (and the file inside it), then the error in it.
fn failed_lines(g: &GameFiles) -> Vec<Line> {
    g.failed
        .iter()
        .map(|e| Line {
            subject: (!e.place.is_empty()).then(|| e.place.clone()),
            tag: None,
            text: Finding::from_error(&e.error, Severity::Error).line(),
        })
        .collect()
}

/// The summary line for game files that could not be opened.
fn opened_failures(g: &GameFiles) {
    if !g.failed.is_empty() {
        term::err_text(&format!("{} files could not be opened", g.failed.len()));
    }
}

pub fn select(game: &GameSelect) -> Option<Select> {
    match (&game.mesh, game.path_id) {
        (Some(n), _) => Some(Select::MeshName(n.clone())),
        (None, Some(id)) => Some(Select::PathId(id)),
        (None, None) => None,
    }
}

/// The object a one-object command (`dump`, `info`, `explain`) names in a game file; a
/// problem when it names none.
pub fn needs_one(u: &mut Usage, game: &GameSelect, command: &str) -> Option<Select> {
    let sel = select(game);
    if sel.is_none() {
        u.problem(format!(
            "{command} of a game file needs --mesh NAME or --path-id N"
        ));
    }
    sel
}

/// How a selection is named in messages (printed through `term`, which escapes it).
fn describe(sel: &Select) -> String {
    match sel {
        Select::MeshName(n) => format!("--mesh {n}"),
        Select::PathId(id) => format!("--path-id {id}"),
    }
}

/// How many candidates a refused selection lists.
const CANDIDATES: usize = 10;

/// The candidates of a selection, as a refusal lists them: `Blade (path id 100, in FILE)`,
/// `a GameObject (path id 27, in FILE)`.
fn candidates(g: &GameFiles, list: &[ObjectRef]) -> String {
    let mut shown: Vec<String> = list
        .iter()
        .take(CANDIDATES)
        .map(|&r| {
            // An object without a name is told by its class.
            let name = match g.name(r).filter(|n| !n.is_empty()) {
                Some(n) => n.escape_debug().to_string(),
                None => format!(
                    "a {}",
                    g.serialized(r).class_name(g.entry(r)).escape_debug()
                ),
            };
            format!("{name} (path id {}, in {})", g.entry(r).path_id, g.place(r))
        })
        .collect();
    if list.len() > CANDIDATES {
        shown.push(format!(
            "and {} more (`meshspec unity list --class Mesh` shows them)",
            list.len() - CANDIDATES
        ));
    }
    shown.join(", ")
}

fn no_match(g: &GameFiles, sel: &Select) -> Fail {
    let meshes = g.meshes();
    Fail::about(
        describe(sel),
        "an object it names (`meshspec unity list` shows them)",
        if meshes.is_empty() {
            "none, and the files hold no Mesh".to_string()
        } else {
            format!("none; the meshes: {}", candidates(g, &meshes))
        },
    )
}

/// The one object `sel` names (refusing one found in several files, or none, with the
/// candidates).
pub fn one(g: &GameFiles, sel: &Select) -> Result<ObjectRef, Fail> {
    match g.select(sel).as_slice() {
        [r] => Ok(*r),
        [] => Err(no_match(g, sel)),
        many => Err(Fail::about(
            describe(sel),
            "one object (--path-id N names one; a folder or several files may hold it more than once)",
            format!("{} objects: {}", many.len(), candidates(g, many)),
        )),
    }
}

/// The meshes a command works on: those `game` selects, or every mesh.
fn targets(g: &GameFiles, game: &GameSelect) -> Result<Vec<ObjectRef>, Fail> {
    match select(game) {
        Some(sel) => {
            let found = g.select(&sel);
            if found.is_empty() {
                return Err(no_match(g, &sel));
            }
            Ok(found)
        }
        None => Ok(g.meshes()),
    }
}

/// How an object is named in lines: its file (and file inside it) and path id.
pub fn label(g: &GameFiles, r: ObjectRef) -> String {
    format!("{}#{}", g.place(r), g.entry(r).path_id)
}

fn list(files: &[PathBuf], class: Option<&str>, limit: u64, json: bool) -> Result<ExitCode, Fail> {
    let g = open(files, limit, json, None);
    let rows = g.list(class);
    if json {
        term::out_json(&serde_json::to_value(&rows).expect("rows serialize"))?;
    } else {
        let mut lines = failed_lines(&g);
        let mut last = None;
        for r in &rows {
            let here = (r.file.clone(), r.serialized.clone());
            if last.as_ref() != Some(&here) {
                lines.push(Line::text(format!("{} {}:", r.file, r.serialized)));
                last = Some(here);
            }
            lines.push(Line::text(format!(
                "  {:>20}  {:<22}  {:>9}  {}",
                r.path_id,
                format!("{} ({})", r.class, r.class_id),
                r.byte_size,
                r.name.as_deref().unwrap_or_default()
            )));
        }
        term::out_lines(&lines)?;
        term::err_text(&format!("{} objects", rows.len()));
        opened_failures(&g);
    }
    Ok(exit(g.failed.is_empty()))
}

fn extract(file: &Path, path_id: i64, out: &Path, limit: u64) -> Result<ExitCode, Fail> {
    let target = output::Target::of(Some(out));
    let beside = output::Target::of(Some(&out.with_extension("vertexdata")));
    let mut u = Usage::default();
    u.output(&target, true);
    u.finish()?;
    let g = open_one(file, limit, None)?;
    let r = one(&g, &Select::PathId(path_id))?;
    let mut lines = vec![];
    // The streamed range first: nothing is written when it cannot be found.
    let streamed = if g.entry(r).class_id == files::mesh::MESH {
        let m = g.mesh(r).map_err(|e| refused(&e))?;
        g.streamed(&m, None).map_err(|e| refused(&e))?
    } else {
        None
    };
    output::write(&target, g.bytes(r))?;
    lines.push(Line::text(format!(
        "wrote {} ({} bytes)",
        out.display(),
        g.bytes(r).len()
    )));
    if let Some(bytes) = streamed {
        output::write(&beside, &bytes)?;
        lines.push(Line::text(format!(
            "wrote {} ({} bytes, the streamed vertex data)",
            beside.shown(),
            bytes.len()
        )));
    }
    term::out_lines(&lines)?;
    Ok(ExitCode::SUCCESS)
}
