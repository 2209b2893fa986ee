//! Unity game files on the command line: `meshspec unity list|extract|check|dump|export`, and
//! the game-file form of the top-level `check`, `dump` and `export` (`--mesh NAME`,
//! `--path-id N`, `--all`). The editor version comes from the file; `--unity-version` is for
//! bare objects only.

use crate::{write_output, Command, Fail, Format, NonFiniteArg, Opts};
use clap::{Args, Subcommand};
use meshspec_formats::export::{self, NonFinite};
use meshspec_formats::unity::files::game::{GameFiles, GameMesh, Select};
use meshspec_formats::unity::files::{self, bundle, serialized, Located, ObjectRef};
use meshspec_formats::Error;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

impl From<Located> for Fail {
    fn from(e: Located) -> Self {
        Fail(e.to_string())
    }
}

impl Opts {
    fn relations_warn(&self) -> bool {
        matches!(self.relations, crate::RelationsArg::Warn)
    }
}

/// Which objects of a game file (`check`, `dump`, `export`).
#[derive(Args, Clone, Default)]
pub struct GameSelect {
    /// In a game file (bundle or serialized file), the Mesh of this name.
    #[arg(long, conflicts_with = "path_id")]
    mesh: Option<String>,
    /// In a game file, the object of this path id.
    #[arg(long, allow_hyphen_values = true)]
    path_id: Option<i64>,
    /// With `export`: every Mesh of the files and folders given, into the folder `-o` names.
    #[arg(long, conflicts_with_all = ["mesh", "path_id"])]
    all: bool,
}

impl GameSelect {
    fn select(&self) -> Option<Select> {
        match (&self.mesh, self.path_id) {
            (Some(n), _) => Some(Select::MeshName(n.clone())),
            (None, Some(id)) => Some(Select::PathId(id)),
            (None, None) => None,
        }
    }
    fn any(&self) -> bool {
        self.mesh.is_some() || self.path_id.is_some() || self.all
    }
}

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
        /// Print JSON.
        #[arg(long)]
        json: bool,
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
    },
    /// Check the meshes of the files (all of them, or those --mesh / --path-id name).
    Check {
        /// Bundles, serialized files, or folders of them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Dump one mesh as the `unity-mesh` layout reads it (the version from its file).
    Dump {
        /// The bundle or serialized file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Export one mesh (--mesh / --path-id) to OUT.glb or OUT.obj, or every mesh (--all) into
    /// the folder OUT.
    Export {
        /// Bundles, serialized files, or folders of them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The .glb or .obj to write, or with --all the folder.
        #[arg(short, long)]
        output: PathBuf,
        /// What to do with values that are not finite.
        #[arg(long, value_enum, default_value = "refuse")]
        non_finite: NonFiniteArg,
        #[command(flatten)]
        opts: Opts,
    },
}

/// `meshspec unity ...`.
pub fn run(args: UnityArgs) -> Result<ExitCode, Fail> {
    match args.command {
        UnityCommand::List { files, class, json } => list(&files, class.as_deref(), json),
        UnityCommand::Extract {
            file,
            path_id,
            output,
        } => extract(&file, path_id, &output),
        UnityCommand::Check { files, opts } => check(&files, &opts),
        UnityCommand::Dump {
            file,
            format,
            output,
            opts,
        } => dump(&file, format, output.as_deref(), &opts),
        UnityCommand::Export {
            files,
            output,
            non_finite,
            opts,
        } => export_meshes(&files, &output, non_finite, &opts),
    }
}

/// Whether a path is a game file (a bundle or a serialized file) or a folder.
fn is_game_input(p: &Path) -> bool {
    if p.is_dir() {
        return true;
    }
    let mut head = [0u8; 20];
    let n = std::fs::File::open(p)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    bundle::is_bundle(&head[..n]) || serialized::looks_serialized(&head[..n])
}

/// The top-level `check`, `dump` and `export` with a game file: handled here (`Some`), or
/// left to the layout path (`None`).
pub fn route(cmd: &Command) -> Option<Result<ExitCode, Fail>> {
    let (layout, files, opts): (&str, Vec<PathBuf>, &Opts) = match cmd {
        Command::Check {
            layout,
            files,
            opts,
        } => (layout, files.clone(), opts),
        Command::Dump {
            layout, file, opts, ..
        } => (layout, vec![file.clone()], opts),
        Command::Export {
            layout, file, opts, ..
        } => (layout, vec![file.clone()], opts),
        Command::Build { opts, .. } | Command::Import { opts, .. } if opts.game.any() => {
            usage("--mesh, --path-id and --all are for check, dump and export of game files")
        }
        _ => return None,
    };
    let game = files.iter().any(|f| is_game_input(f));
    if layout != "unity-mesh" {
        if opts.game.any() {
            usage(&format!(
                "--mesh, --path-id and --all read Unity game files: use the layout unity-mesh, not `{layout}`"
            ));
        }
        return None;
    }
    if !game {
        if opts.game.any() {
            usage("--mesh, --path-id and --all are for game files (bundles, serialized files); this is a bare object");
        }
        return bare_hint(cmd, &files, opts);
    }
    Some(match cmd {
        Command::Check { .. } => check(&files, opts),
        Command::Dump {
            file,
            format,
            output,
            ..
        } => dump(file, *format, output.as_deref(), opts),
        Command::Export {
            file,
            output,
            non_finite,
            ..
        } => export_meshes(std::slice::from_ref(file), output, *non_finite, opts),
        _ => unreachable!("only check, dump and export reach here"),
    })
}

/// A usage error: said on standard error, exit 2 (as for options clap refuses), before any
/// input is read or output written.
fn usage(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(2)
}

/// A bare Mesh object that the fixed layout of the version given does not read: the error
/// says which known layouts read it exactly. `None` when it reads (the layout path goes on).
fn bare_hint(cmd: &Command, files: &[PathBuf], opts: &Opts) -> Option<Result<ExitCode, Fail>> {
    let v = opts.unity_version.as_deref()?;
    if v == "auto" {
        return None;
    }
    let v = u32::try_from(meshspec_formats::context::unity_version(v).ok()?).ok()?;
    let mut failed = vec![];
    for f in files {
        let Ok(bytes) = std::fs::read(f) else {
            return None;
        };
        if let Err(e) = files::adapter::read_mesh(&bytes, v) {
            let e = Located::new("", e).with_layouts_hint(&bytes);
            failed.push((f.display().to_string(), e.error.to_string()));
        }
    }
    if failed.is_empty() {
        return None;
    }
    match cmd {
        // `check` reports every file; the others fail on the one.
        Command::Check { .. } if files.len() > failed.len() => None,
        Command::Check { .. } => {
            for (f, e) in &failed {
                println!("{f}: {e}");
            }
            if files.len() > 1 {
                eprintln!("{} files: 0 ok, {} failed", files.len(), failed.len());
            }
            Some(Ok(ExitCode::from(1)))
        }
        _ => Some(Err(Fail(failed.remove(0).1))),
    }
}

fn refuse_version(opts: &Opts) -> Result<(), Fail> {
    if opts.unity_version.is_some() {
        usage("--unity-version is for bare objects: a game file says its editor version itself");
    }
    Ok(())
}

fn open(files: &[PathBuf]) -> Result<GameFiles, Fail> {
    let g = GameFiles::open(files)?;
    for (p, why) in &g.skipped {
        eprintln!("note: skipped {}: {why}", p.display());
    }
    for e in &g.failed {
        println!("{e}");
    }
    Ok(g)
}

/// The summary line for game files under folders that could not be opened (their error lines
/// went to standard output when they were opened).
fn opened_failures(g: &GameFiles) {
    if !g.failed.is_empty() {
        eprintln!("{} files could not be opened", g.failed.len());
    }
}

/// Text from a file, shown escaped.
fn shown(s: &str) -> String {
    s.escape_debug().to_string()
}

fn list(files: &[PathBuf], class: Option<&str>, json: bool) -> Result<ExitCode, Fail> {
    let g = open(files)?;
    let rows = g.list(class);
    if json {
        let text = serde_json::to_string_pretty(&rows)
            .map_err(|e| Fail(format!("cannot write JSON: {e}")))?;
        println!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    let mut last = None;
    for r in &rows {
        let here = (r.file.clone(), r.serialized.clone());
        if last.as_ref() != Some(&here) {
            println!("{} {}:", r.file, shown(&r.serialized));
            last = Some(here);
        }
        println!(
            "  {:>20}  {:<22}  {:>9}  {}",
            r.path_id,
            format!("{} ({})", r.class, r.class_id),
            r.byte_size,
            r.name.as_deref().map(shown).unwrap_or_default()
        );
    }
    eprintln!("{} objects", rows.len());
    Ok(ExitCode::SUCCESS)
}

/// The one object a path id names (refusing ids found in several files).
fn one(g: &GameFiles, sel: &Select) -> Result<ObjectRef, Fail> {
    let found = g.select(sel);
    match found.as_slice() {
        [r] => Ok(*r),
        [] => Err(Fail(format!(
            "no object matches {} (`meshspec unity list` shows them)",
            describe(sel)
        ))),
        many => Err(Fail(format!(
            "{} objects match {}: {}; name one file",
            many.len(),
            describe(sel),
            many.iter()
                .map(|r| format!("{}#{}", g.place(*r), g.entry(*r).path_id))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn describe(sel: &Select) -> String {
    match sel {
        Select::MeshName(n) => format!("--mesh {}", shown(n)),
        Select::PathId(id) => format!("--path-id {id}"),
    }
}

fn extract(file: &Path, path_id: i64, output: &Path) -> Result<ExitCode, Fail> {
    let g = open(&[file.to_path_buf()])?;
    let r = one(&g, &Select::PathId(path_id))?;
    write_output(Some(output), g.bytes(r))?;
    println!("wrote {} ({} bytes)", output.display(), g.bytes(r).len());
    if g.entry(r).class_id == files::mesh::MESH {
        let m = g.mesh(r)?;
        if let Some(bytes) = g.streamed(&m, None)? {
            let beside = output.with_extension("vertexdata");
            write_output(Some(&beside), &bytes)?;
            println!(
                "wrote {} ({} bytes, the streamed vertex data)",
                beside.display(),
                bytes.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The meshes a command works on: those selected, or every mesh.
fn targets(g: &GameFiles, opts: &Opts) -> Result<Vec<ObjectRef>, Fail> {
    Ok(match opts.game.select() {
        Some(sel) => {
            let found = g.select(&sel);
            if found.is_empty() {
                return Err(Fail(format!(
                    "no object matches {} (`meshspec unity list` shows them)",
                    describe(&sel)
                )));
            }
            found
        }
        None => g.meshes(),
    })
}

fn label(g: &GameFiles, r: ObjectRef) -> String {
    format!("{}#{}", g.place(r), g.entry(r).path_id)
}

fn check(files: &[PathBuf], opts: &Opts) -> Result<ExitCode, Fail> {
    refuse_version(opts)?;
    let g = open(files)?;
    let ress = opts.ress.as_deref();
    let list = targets(&g, opts)?;
    let mut failed = 0usize;
    for &r in &list {
        let name = label(&g, r);
        let result = g.mesh(r).and_then(|m| g.check(&m, ress));
        match result {
            Ok(rel) if rel.is_empty() => println!("{name}: ok"),
            Ok(rel) => {
                let warn = opts.relations_warn();
                for e in &rel {
                    if warn {
                        println!("{name}: warning: {e}");
                    } else {
                        println!("{name}: {e}");
                    }
                }
                if warn {
                    println!("{name}: ok");
                } else {
                    failed += 1;
                }
            }
            Err(e) => {
                println!("{name}: {e}");
                failed += 1;
            }
        }
    }
    if list.len() > 1 {
        eprintln!(
            "{} meshes: {} ok, {failed} failed",
            list.len(),
            list.len() - failed
        );
    }
    opened_failures(&g);
    Ok(if failed == 0 && g.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn dump(file: &Path, format: Format, output: Option<&Path>, opts: &Opts) -> Result<ExitCode, Fail> {
    refuse_version(opts)?;
    let sel = opts
        .game
        .select()
        .unwrap_or_else(|| usage("dump of a game file needs --mesh NAME or --path-id N"));
    let g = open(&[file.to_path_buf()])?;
    let r = one(&g, &sel)?;
    let m = g.mesh(r)?;
    let place = g.place(r);
    // The dump is the fixed layout's reading: refused where that disagrees with the type tree.
    if let Err(e) = &m.fixed {
        return Err(Located::new(place, e.clone())
            .with_layouts_hint(g.bytes(r))
            .into());
    }
    let entry = meshspec_formats::find("unity-mesh").expect("the unity-mesh layout exists");
    let ctx = g.context(&m, opts.ress.as_deref());
    let mut dump = entry.dump(g.bytes(r), &ctx).map_err(|e| {
        Fail(
            Located::new(place, e)
                .with_layouts_hint(g.bytes(r))
                .to_string(),
        )
    })?;
    if let Some(notes) = dump.get_mut("notes").and_then(|n| n.as_array_mut()) {
        notes.insert(
            0,
            serde_json::Value::String(format!(
                "Read from {} (path id {}) with the layout of Unity {}, the file's version.",
                label(&g, r),
                g.entry(r).path_id,
                m.version.map(files::game::version_text).unwrap_or_default()
            )),
        );
    }
    let text = match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&dump)
                .map_err(|e| Fail(format!("cannot write JSON: {e}")))?;
            s.push('\n');
            s
        }
        Format::Yaml => {
            serde_norway::to_string(&dump).map_err(|e| Fail(format!("cannot write YAML: {e}")))?
        }
    };
    write_output(output, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// Text made safe as one part of a path: letters, digits, `-`, `_` and `.` kept (a leading
/// `.` is not), anything else `_`; at most `max` characters.
fn sanitized(name: &str, max: usize) -> String {
    name.chars()
        .take(max)
        .enumerate()
        .map(|(i, c)| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || (c == '.' && i > 0) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The file name of a mesh: its name made safe, and its path id.
fn file_name(name: &str, path_id: i64) -> String {
    let mut s = sanitized(name, 80);
    if s.is_empty() {
        s.push_str("mesh");
    }
    format!("{s}.{path_id}")
}

fn export_one(
    g: &GameFiles,
    m: &GameMesh,
    output: &Path,
    policy: NonFinite,
    ress: Option<&Path>,
) -> Result<Vec<String>, Fail> {
    let scene = g.scene(m, ress)?;
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let out = match ext.as_deref() {
        Some("glb") => export::glb(&scene, policy),
        Some("obj") => export::obj(&scene, policy),
        _ => {
            return Err(Fail(format!(
                "{}: export writes .glb or .obj",
                output.display()
            )))
        }
    }
    .map_err(|e: Error| Fail(Located::new(g.place(m.at), e).to_string()))?;
    write_output(Some(output), &out.bytes)?;
    Ok(out.notes)
}

fn export_meshes(
    files: &[PathBuf],
    output: &Path,
    non_finite: NonFiniteArg,
    opts: &Opts,
) -> Result<ExitCode, Fail> {
    refuse_version(opts)?;
    let policy = match non_finite {
        NonFiniteArg::Refuse => NonFinite::Refuse,
        NonFiniteArg::Zero => NonFinite::Zero,
    };
    let ress = opts.ress.as_deref();
    let sel = opts.game.select();
    if sel.is_none() && !opts.game.all {
        usage("export of a game file needs --mesh NAME, --path-id N or --all");
    }
    let g = open(files)?;
    if let Some(sel) = sel {
        let r = one(&g, &sel)?;
        let m = g.mesh(r)?;
        for n in export_one(&g, &m, output, policy, ress)? {
            eprintln!("note: {n}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    // --all: a folder of NAME.PATHID.glb, one per mesh.
    std::fs::create_dir_all(output).map_err(|e| {
        Fail(format!(
            "{}: cannot create the folder: {e}",
            output.display()
        ))
    })?;
    let meshes = g.meshes();
    let labels = g.labels();
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(meshes.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut failed = 0usize;
    let mut used = std::collections::HashSet::new();
    for r in &meshes {
        let result = g.mesh(*r).map_err(Fail::from).and_then(|m| {
            // Several files: a folder per file (its path below the folder they share).
            let folder = sanitized(&labels[r.file], 120);
            let mut base = file_name(&m.name(), g.entry(*r).path_id);
            if g.files[r.file].serialized.len() > 1 {
                base = format!(
                    "{}.{base}",
                    sanitized(&g.files[r.file].serialized[r.inner].name, 80)
                );
            }
            if !folder.is_empty() {
                std::fs::create_dir_all(output.join(&folder)).map_err(|e| {
                    Fail(format!(
                        "{}: cannot create the folder: {e}",
                        output.join(&folder).display()
                    ))
                })?;
                base = format!("{folder}/{base}");
            }
            // Two meshes of one name and id in one file (not seen, but possible).
            while !used.insert(base.clone()) {
                base.push('_');
            }
            bar.set_message(base.clone());
            export_one(&g, &m, &output.join(format!("{base}.glb")), policy, ress)
                .map(|notes| (base, notes))
        });
        bar.inc(1);
        match result {
            Ok((base, notes)) => {
                bar.suspend(|| {
                    println!("{}/{base}.glb: ok", output.display());
                    for n in notes {
                        eprintln!("note: {n}");
                    }
                });
            }
            Err(Fail(e)) => {
                failed += 1;
                bar.suspend(|| println!("{}: {e}", label(&g, *r)));
            }
        }
    }
    bar.finish_and_clear();
    eprintln!(
        "{} meshes: {} written, {failed} failed",
        meshes.len(),
        meshes.len() - failed
    );
    opened_failures(&g);
    Ok(if failed == 0 && g.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
