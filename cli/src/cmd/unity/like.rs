//! `meshspec import unity-mesh EDITED.glb --like ORIGINAL [--path-id N] -o OUT`: a Mesh object
//! in the vertex layout of an original, from edited geometry ([`files::like::like`]). The
//! original is a Mesh of a game file (`--path-id`: its version and streamed data from the
//! file), or a bare object whose editor version `--unity-version` gives or the folder it is in
//! is named after (its `.resS` beside it). For an original whose vertex data is streamed, the new vertex data goes to
//! OUT.vertexdata: the pair `meshspec unity replace --object OUT --ress OUT.vertexdata` takes.

use super::{given_version, one, refused};
use crate::cmd::import::Args;
use crate::cmd::Written;
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use meshspec_formats::unity::files::game::{GameFile, GameFiles, Select};
use meshspec_formats::unity::files::like::{like, Made, Original};
use meshspec_formats::unity::files::{game, Limits};
use std::process::ExitCode;

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let like_path = a.like.clone().expect("called with --like");
    let mut u = Usage::default();
    if a.layout != crate::cmd::unity::MESH {
        u.problem(format!(
            "--like makes a Unity Mesh object: the layout is unity-mesh, not `{}`",
            crate::escape::text(&a.layout)
        ));
    }
    let entry = u.layout(crate::cmd::unity::MESH);
    u.files(&[a.geometry.clone(), like_path.clone()], None);
    let game = game::head_of(&like_path).is_ok_and(|h| game::is_game_file(&h));
    let (mut ctx, mut version) = (None, None);
    match (game, a.path_id) {
        (true, None) => u.problem(format!(
            "--like {} is a game file: name the original Mesh with --path-id N (`meshspec unity list` shows them)",
            like_path.display()
        )),
        (false, Some(_)) => u.problem(format!(
            "--path-id names an object of a game file; --like {} is a bare object",
            like_path.display()
        )),
        (false, None) => {
            // The version given, or else the one of the folder a bare object is in.
            let given = Given {
                unity_version: Some(a.unity.unity_version.clone().unwrap_or("auto".into())),
                ..Given::default()
            };
            if a.unity.unity_version.is_some() {
                ctx = Some(u.context(entry, &given, Some(&like_path)));
            } else {
                let mut probe = Usage::default();
                let c = probe.context(entry, &given, Some(&like_path));
                if probe.finish().is_err() {
                    u.problem(format!(
                        "--like {}: a bare Mesh object's editor version is needed: give it (--unity-version 2021.3.0f1), put the object in a folder named after it, or give the game file and --path-id",
                        like_path.display()
                    ));
                }
                ctx = Some(c);
            }
        }
        (true, Some(_)) => version = given_version(&mut u, a.unity.unity_version.as_deref()),
    }
    let target = Target::of(Some(&a.output));
    u.output(&target, true);
    u.finish()?;

    let w = Written {
        command: "import",
        layout: crate::cmd::unity::MESH,
        input: &a.geometry,
        output: &target,
        json: a.json.json,
        quiet: a.quiet.quiet,
    };
    let made = (|| {
        crate::input::within_limit(&a.geometry, a.input.max_input_size)?;
        let original = crate::input::read(&like_path, a.input.max_input_size)?;
        let (mesh, mut notes) =
            meshspec_formats::import::read_mesh(&a.geometry, a.mesh.as_deref())?;
        let made: Made = match (ctx.as_ref(), a.path_id) {
            (Some(c), _) => like(&mesh, &Original::bare(&original, c)?)?,
            (None, Some(id)) => {
                let limits = Limits::for_input(original.len() as u64);
                let mut g = GameFiles::from_files(vec![GameFile::from_bytes(
                    &like_path, &original, &limits,
                )
                .map_err(|e| refused(&e))?]);
                g.unity_version = version;
                let r = one(&g, &Select::PathId(id))?;
                let o = Original::in_game(&g, r).map_err(|e| refused(&e))?;
                like(&mesh, &o)?
            }
            (None, None) => unreachable!("usage checked"),
        };
        notes.extend(made.notes.iter().cloned());
        if let Some(vd) = &made.vertex_data {
            let Target::Path(out) = &target else {
                return Err(Fail::about(
                    "-o",
                    "a file (the original streams its vertex data: OUT.vertexdata goes beside it)",
                    "standard output",
                ));
            };
            let beside = out.with_extension("vertexdata");
            output::write(&Target::Path(beside.clone()), vd)?;
            notes.push(format!(
                "wrote {} ({} bytes, the streamed vertex data: give it to `unity replace --ress`)",
                beside.display(),
                vd.len()
            ));
        }
        Ok::<_, Fail>((made.object, notes))
    })();
    w.write(made)
}
