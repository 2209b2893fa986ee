//! `meshspec unity replace FILE --path-id N (--object NEW.mesh | --dump EDITED.json)
//! [--ress NEW.vertexdata] [--path-id M ...] -o OUT`: the game file with Meshes replaced, written
//! only when the written file reads back and every replaced mesh in it passes the library's one
//! verdict ([`files::replace::replace_all`]). The input is never modified; OUT appears complete
//! or not at all.

use super::refused;
use crate::args::{InputOpt, Json, QuietOpt, RelationsOpt};
use crate::cmd::Written;
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::report::Finding;
use crate::usage::{Given, Usage};
use crate::{dump_text, input};
use meshspec_formats::unity::files::game::{version_text, GameFile, GameFiles, Select};
use meshspec_formats::unity::files::replace::{replace_all, Edit};
use meshspec_formats::unity::files::{self, bundle, mesh, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `meshspec unity replace`.
#[derive(clap::Args)]
pub struct Args {
    /// The bundle or serialized file.
    pub file: PathBuf,
    /// The Mesh's path id (once per mesh replaced).
    #[arg(long, allow_hyphen_values = true, required = true)]
    pub path_id: Vec<i64>,
    /// The new Mesh object's bytes (as `meshspec unity extract` writes them).
    #[arg(long, value_name = "NEW.mesh")]
    pub object: Vec<PathBuf>,
    /// New streamed vertex data for the mesh (as `unity extract` writes it beside the
    /// object):
    /// written over the old range of the resource file when it has the same size, else
    /// appended, and the mesh's m_StreamData pointed at it. With several meshes, one for
    /// each `--path-id`, in the same order.
    #[arg(long, value_name = "NEW.vertexdata")]
    pub ress: Vec<PathBuf>,
    /// An edited dump of the mesh (as `meshspec unity dump` writes it), built by the
    /// unity-mesh layout of the file's version.
    #[arg(long, value_name = "EDITED.json")]
    pub dump: Vec<PathBuf>,
    /// Where to write the new file (a serialized file's new resource file goes beside it).
    #[arg(short, long)]
    pub output: PathBuf,
    #[command(flatten)]
    pub relations: RelationsOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
    #[command(flatten)]
    pub json: Json,
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let given: Vec<PathBuf> = std::iter::once(&a.file)
        .chain(&a.object)
        .chain(&a.ress)
        .chain(&a.dump)
        .cloned()
        .collect();
    u.files(&given, None);
    let n = a.path_id.len();
    match (a.object.len(), a.dump.len()) {
        (0, 0) => u.problem(
            "name the new mesh: --object NEW.mesh (as `meshspec unity extract` writes it) or --dump EDITED.json (as `meshspec unity dump` writes it)"
                .into(),
        ),
        (o, d) if o > 0 && d > 0 => u.problem(
            "--object and --dump both name new meshes; give one kind (one per --path-id)".into(),
        ),
        (o, d) if o + d != n => u.problem(format!(
            "one --object or --dump per --path-id, in the same order: {n} path ids, {} new meshes",
            o + d
        )),
        _ => {}
    }
    if !a.ress.is_empty() && a.ress.len() != n {
        u.problem(format!(
            "one --ress per --path-id, in the same order: {n} path ids, {} vertex data files",
            a.ress.len()
        ));
    }
    let target = Target::of(Some(&a.output));
    u.output(&target, true);
    if given.iter().any(|p| same_file(p, &a.output)) {
        u.problem(format!(
            "-o {} is one of the inputs; name a new file (the input is never modified)",
            a.output.display()
        ));
    }
    let user = u.context(None, &Given::default().relations(a.relations), None);
    u.finish()?;

    let bytes = input::read(&a.file, a.input.max_input_size)?;
    let w = Written {
        command: "unity replace",
        layout: bundle::layout_of(&bytes).unwrap_or("unity-serialized"),
        input: &a.file,
        output: &target,
        json: a.json.json,
        quiet: a.quiet.quiet,
    };
    let done = (|| {
        let limits = Limits::for_input(bytes.len() as u64);
        // The new objects, each with its vertex data and the notes its build made.
        let mut objects = vec![];
        let mut notes = vec![];
        for (k, &path_id) in a.path_id.iter().enumerate() {
            let object = match (a.object.get(k), a.dump.get(k)) {
                (Some(p), _) => input::read(p, a.input.max_input_size)?.to_vec(),
                (None, Some(d)) => {
                    let (o, built) =
                        from_dump(&a.file, &bytes, path_id, d, a.input.max_input_size, &limits)?;
                    notes.extend(built);
                    o
                }
                (None, None) => unreachable!("usage checked"),
            };
            let vertex = a
                .ress
                .get(k)
                .map(|p| input::read(p, a.input.max_input_size))
                .transpose()?;
            objects.push((path_id, object, vertex));
        }
        let edits: Vec<Edit<'_>> = objects
            .iter()
            .map(|(path_id, object, vertex)| Edit {
                path_id: *path_id,
                object,
                vertex_data: vertex.as_deref(),
            })
            .collect();
        let all = replace_all(&a.file, &bytes, &edits, &user, &limits).map_err(|e| refused(&e))?;
        for r in &all {
            notes.push(format!(
                "replaced path id {} in {} ({} bytes)",
                r.path_id,
                r.place,
                r.object.len()
            ));
            if let Some(s) = &r.stream {
                notes.push(format!(
                    "its vertex data is streamed from `{}` at offset {}, {} bytes",
                    crate::escape::text(s.file_name()),
                    s.offset,
                    s.size
                ));
            }
            if let Some(rep) = &r.repacked {
                // With several meshes, each write keeps what the one before it wrote.
                notes.push(format!(
                    "bundle blocks{}: {} kept as they were, {} compressed anew (by lz4_flex or liblzma: the same content, not Unity's compressed bytes); blocks info {}",
                    if n > 1 { format!(" after path id {}", r.path_id) } else { String::new() },
                    rep.blocks_kept,
                    rep.blocks_compressed,
                    if rep.info_kept { "kept" } else { "written anew" }
                ));
            }
            for f in r.verdict.warnings() {
                notes.push(format!(
                    "warning in the written mesh: {}",
                    Finding::from_error(f, crate::report::Severity::Warning).line()
                ));
            }
        }
        let r = all.into_iter().last().expect("one replacement at least");
        // A serialized file on disk: its resource file goes beside the output, never over
        // the input's.
        if let Some((name, res)) = &r.resource {
            let Target::Path(out) = &target else {
                return Err(Fail::about(
                    "-o",
                    "a file (the resource file is written beside it)",
                    "standard output",
                ));
            };
            let beside = out.parent().unwrap_or(Path::new("")).join(name);
            let theirs = a.file.parent().unwrap_or(Path::new("")).join(name);
            if same_file(&beside, &theirs) || beside == theirs {
                return Err(Fail::about(
                    beside.display().to_string(),
                    "a folder for -o other than the input's (the new resource file is written beside OUT)",
                    "the input's own resource file",
                ));
            }
            output::write(&Target::Path(beside.clone()), res)?;
            notes.push(format!(
                "wrote {} ({} bytes, the resource file)",
                beside.display(),
                res.len()
            ));
        }
        Ok::<_, Fail>((r.bytes, notes))
    })();
    w.write(done)
}

/// The new object from an edited dump, built by the `unity-mesh` layout of the version of the
/// file the object is in, refused when its verdict fails; notes for values the writer
/// recomputed.
fn from_dump(
    file: &Path,
    bytes: &[u8],
    path_id: i64,
    dump: &Path,
    limit: u64,
    limits: &Limits,
) -> Result<(Vec<u8>, Vec<String>), Fail> {
    let g = GameFiles::from_files(vec![
        GameFile::from_bytes(file, bytes, limits).map_err(|e| refused(&e))?
    ]);
    let layout = match g.select(&Select::PathId(path_id)).first() {
        Some(&r) => mesh::Layout {
            version: g
                .serialized(r)
                .unity_version()
                .map_err(|e| refused(&files::Located::new(g.place(r), e)))?,
            editor: g.serialized(r).editor,
        },
        None => {
            return Err(Fail::about(
                input::shown(file),
                format!("an object of path id {path_id} (`meshspec unity list` shows them)"),
                "none",
            ))
        }
    };
    let text = input::read(dump, limit)?;
    let value = dump_text::parse(&text, dump)?;
    let entry = crate::cmd::unity::mesh_entry();
    let built = entry.build(&value, &mesh::context(layout))?;
    let notes = built
        .overrides
        .iter()
        .map(|o| crate::escape::text(&o.to_string()).into_owned())
        .collect();
    if let Some(e) = built.verdict.first_failure() {
        let mut f = Finding::from_error(e, crate::report::Severity::Error);
        f.resource = Some(format!(
            "{} (built by unity-mesh of {}{})",
            input::shown(dump),
            version_text(layout.version),
            if layout.editor {
                ", an editor's object"
            } else {
                ""
            }
        ));
        return Err(Fail::Refused(Box::new(f)));
    }
    Ok((built.bytes, notes))
}
