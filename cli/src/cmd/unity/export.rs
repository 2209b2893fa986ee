//! `meshspec export unity-mesh GAMEFILE...` and `meshspec unity export`: one mesh (`--mesh`,
//! `--path-id`) to OUT.glb or OUT.obj, or every mesh (`--all`) into the folder OUT, a folder per
//! game file. A mesh is exported only when its verdict passes (the library decodes nothing
//! else).

use super::{
    failed_lines, given_version, label, one, open, opened_failures, refused, select, user_context,
    GameVersion,
};
use crate::args::{
    EveryMesh, GameSelect, InputOpt, Json, NonFiniteArg, QuietOpt, RessOpt, SkinWeightsArg,
};
use crate::cmd::export::{encode, kind, skin_weights, Kind};
use crate::cmd::Written;
use crate::fail::{exit, Fail};
use crate::output::{self, Target};
use crate::report::{Line, Severity, Verdict};
use crate::term;
use crate::usage::Usage;
use meshspec_formats::context::Context;
use meshspec_formats::unity::files::game::{GameFiles, GameMesh};
use meshspec_formats::unity::files::{ObjectInput, ObjectRef};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How many meshes `--all` decodes and encodes at once (on every core) before writing them.
const BATCH: usize = 64;

/// `meshspec unity export`, and the game-file form of `export`.
#[derive(clap::Args)]
pub struct Args {
    /// Bundles, serialized files, or folders of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The .glb or .obj to write, or with --all the folder.
    #[arg(short, long)]
    pub output: PathBuf,
    #[command(flatten)]
    pub game: GameSelect,
    #[command(flatten)]
    pub every: EveryMesh,
    #[command(flatten)]
    pub unity: GameVersion,
    /// What to do with values that are not finite.
    #[arg(long, value_enum, default_value = "refuse")]
    pub non_finite: NonFiniteArg,
    /// Which skin influences to draw (Unity's QualitySettings.skinWeights).
    #[arg(long, value_enum, default_value = "4")]
    pub skin_weights: SkinWeightsArg,
    #[command(flatten)]
    pub ress: RessOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
    #[command(flatten)]
    pub json: Json,
    /// `--mtl` of `export` (`unity export` has no such option).
    #[arg(skip)]
    pub mtl: bool,
    /// `--winding` was given to `export` (Unity meshes do not need it).
    #[arg(skip)]
    pub winding: bool,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity.unity_version.as_deref());
    if a.winding {
        u.problem("--winding is for layouts whose files do not record it; Unity meshes are read in Unity's own frame".into());
    }
    let sel = select(&a.game);
    let target = Target::of(Some(&a.output));
    match (&sel, a.every.all) {
        (None, false) => {
            u.problem("export of a game file needs --mesh NAME, --path-id N or --all".into())
        }
        (Some(_), _) => {
            match kind(&a.output) {
                None => u.problem(format!(
                    "-o {}: export writes glTF (.glb) or Wavefront OBJ (.obj), chosen by the extension",
                    a.output.display()
                )),
                Some(Kind::Glb) if a.mtl => u.problem(
                    "--mtl goes with a .obj output (it writes the material library beside it)".into(),
                ),
                Some(_) => {}
            }
            u.output(&target, true);
        }
        (None, true) => {
            if a.mtl {
                u.problem("--mtl goes with one .obj output, not --all".into());
            }
            if a.output.is_file() {
                u.problem(format!(
                    "-o {}: with --all, -o names a folder",
                    a.output.display()
                ));
            }
        }
    }
    let mut user = user_context(&mut u, &a.ress, None);
    user.skin_weights = skin_weights(a.skin_weights);
    u.finish()?;

    let g = open(
        &a.files,
        a.input.max_input_size,
        a.json.json || a.quiet.quiet,
        version,
    );
    match sel {
        Some(sel) => one_mesh(&a, &g, &sel, &target, &user),
        None => every_mesh(&a, &g, &user),
    }
}

/// The scene of a mesh (refused unless its verdict passes), its warnings printed.
fn scene(
    g: &GameFiles,
    input: &ObjectInput<'_>,
    show: bool,
) -> Result<meshspec_formats::scene::Scene, Fail> {
    let decoded = input.decode().map_err(|e| refused(&e))?;
    if show {
        for f in &Verdict::of(&decoded.verdict).findings {
            term::err(f.severity, &format!("{}: {}", label(g, input.at), f.line()));
        }
    }
    let mut scene = decoded.scene;
    scene.label(crate::cmd::unity::MESH, &input.mesh.name());
    Ok(scene)
}

fn one_mesh(
    a: &Args,
    g: &GameFiles,
    sel: &meshspec_formats::unity::files::game::Select,
    target: &Target,
    user: &Context,
) -> Result<ExitCode, Fail> {
    let file = a.files.first().map_or(Path::new("-"), PathBuf::as_path);
    let w = Written {
        command: "export",
        layout: crate::cmd::unity::MESH,
        input: file,
        output: target,
        json: a.json.json,
        quiet: a.quiet.quiet,
    };
    let mtl_path = a.output.with_extension("mtl");
    let exported = (|| {
        if let Some(e) = g.failed.first() {
            return Err(refused(e));
        }
        let r = one(g, sel)?;
        let input = g.input(r, user).map_err(|e| refused(&e))?;
        let scene = scene(g, &input, !a.json.json)?;
        encode(
            scene,
            kind(&a.output).expect("usage checked"),
            a.non_finite,
            a.mtl.then_some(mtl_path.as_path()),
        )
    })();
    crate::cmd::export::written(&w, exported, &mtl_path)
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

/// Where mesh `r` goes under the output folder, without extension: a folder per game file (its
/// path below the folders given), then NAME.PATHID (the serialized file's name first when the
/// game file holds several).
fn relative_name(g: &GameFiles, labels: &[String], m: &GameMesh, r: ObjectRef) -> PathBuf {
    let mut base = sanitized(&m.name(), 80);
    if base.is_empty() {
        base.push_str("mesh");
    }
    base = format!("{base}.{}", g.entry(r).path_id);
    if g.files[r.file].serialized.len() > 1 {
        base = format!(
            "{}.{base}",
            sanitized(&g.files[r.file].serialized[r.inner].name, 80)
        );
    }
    let folder = sanitized(&labels[r.file], 120);
    if folder.is_empty() {
        PathBuf::from(base)
    } else {
        Path::new(&folder).join(base)
    }
}

fn every_mesh(a: &Args, g: &GameFiles, user: &Context) -> Result<ExitCode, Fail> {
    let meshes = g.meshes();
    let labels = g.labels();
    let bar = if std::io::stderr().is_terminal() && !a.json.json {
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
    // The folders made so far (one per game file).
    let mut folders = std::collections::HashSet::new();
    let mut results = vec![];
    let mut report = |r: ObjectRef, result: Result<(PathBuf, Vec<String>), Fail>| {
        bar.inc(1);
        match result {
            Ok((path, notes)) => {
                if a.json.json {
                    results.push(serde_json::json!({
                        "mesh": label(g, r),
                        "output": path.display().to_string(),
                        "written": true,
                        "messages": notes.iter().map(|n| crate::report::note_json(n)).collect::<Vec<_>>(),
                    }));
                } else {
                    bar.suspend(|| -> Result<(), Fail> {
                        term::out_lines(&[Line::about(path.display().to_string(), "ok")])?;
                        if !a.quiet.quiet {
                            for n in notes {
                                term::err(Severity::Note, &n);
                            }
                        }
                        Ok(())
                    })?;
                }
            }
            Err(e) => {
                failed += 1;
                let f = match e {
                    Fail::Refused(f) => *f,
                    Fail::Usage(p) => crate::report::Finding::about("", "", p.join("; ")),
                };
                if a.json.json {
                    results.push(serde_json::json!({
                        "mesh": label(g, r),
                        "written": false,
                        "messages": [f.json()],
                    }));
                } else {
                    bar.suspend(|| term::out_lines(&[Line::about(label(g, r), f.line())]))?;
                }
            }
        }
        Ok::<_, Fail>(())
    };
    // Decoded and encoded on every core, a batch at a time (so a game of thousands of meshes
    // never holds them all), then named, written and reported one by one in order.
    for batch in meshes.chunks(BATCH) {
        // Largest object first, one mesh per task, so that a big mesh never starts last on a
        // core while the other waits (the results go back in the batch's order).
        let mut order: Vec<usize> = (0..batch.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(g.entry(batch[i]).size));
        let mut encoded: Vec<_> = order
            .par_iter()
            .with_max_len(1)
            .map(|&i| {
                let r = batch[i];
                let done = g.input(r, user).map_err(|e| refused(&e)).and_then(|input| {
                    let scene = scene(g, &input, false)?;
                    let out = encode(scene, Kind::Glb, a.non_finite, None)?;
                    Ok::<_, Fail>((input.mesh, out))
                });
                (i, done)
            })
            .collect();
        encoded.sort_unstable_by_key(|&(i, _)| i);
        for (&r, (_, done)) in batch.iter().zip(encoded) {
            let result = done.and_then(|(mesh, out)| {
                let mut rel = relative_name(g, &labels, &mesh, r);
                // Two meshes of one name and id in one file (not seen, but possible).
                while !used.insert(rel.clone()) {
                    rel.as_mut_os_string().push("_");
                }
                let mut path = a.output.join(&rel);
                path.as_mut_os_string().push(".glb");
                bar.set_message(rel.display().to_string());
                if let Some(dir) = path.parent().filter(|d| !folders.contains(*d)) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        Fail::about(
                            dir.display().to_string(),
                            "a folder to write into",
                            crate::fail::io_words(&e),
                        )
                    })?;
                    folders.insert(dir.to_path_buf());
                }
                output::write(&Target::of(Some(&path)), &out.bytes)?;
                Ok::<_, Fail>((path, out.notes))
            });
            report(r, result)?;
        }
    }
    bar.finish_and_clear();
    if a.json.json {
        for e in &g.failed {
            results.push(serde_json::json!({
                "file": e.place,
                "written": false,
                "messages": [crate::report::Finding::located(e, Severity::Error).json()],
            }));
        }
        term::out_json(&serde_json::json!({
            "version": crate::report::JSON_VERSION,
            "command": "export",
            "layout": crate::cmd::unity::MESH,
            "output": a.output.display().to_string(),
            "meshes": results,
            "written": meshes.len() - failed,
            "failed": failed + g.failed.len(),
        }))?;
    } else {
        term::out_lines(&failed_lines(g))?;
        term::err_text(&format!(
            "{} meshes: {} written, {failed} failed",
            meshes.len(),
            meshes.len() - failed
        ));
        opened_failures(g);
    }
    Ok(exit(failed == 0 && g.failed.is_empty()))
}
