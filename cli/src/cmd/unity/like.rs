//! `meshspec import unity-mesh EDITED.glb --like ORIGINAL.mesh -o OUT`: a Mesh object in the
//! vertex layout of an original, from edited geometry ([`files::like::like`]); for an
//! original whose vertex data is streamed, the new vertex data goes to OUT.vertexdata (the pair
//! `meshspec unity replace --object OUT --ress OUT.vertexdata` takes).

use crate::cmd::import::Args;
use crate::cmd::Written;
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use meshspec_formats::unity::files;
use std::process::ExitCode;

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let like = a.like.clone().expect("called with --like");
    let mut u = Usage::default();
    if a.layout != "unity-mesh" {
        u.problem(format!(
            "--like makes a Unity Mesh object: the layout is unity-mesh, not `{}`",
            crate::escape::text(&a.layout)
        ));
    }
    let entry = u.layout("unity-mesh");
    u.files(&[a.geometry.clone(), like.clone()], None);
    let given = Given {
        unity_version: a.unity.unity_version.clone(),
        ress: a.ress.ress.clone(),
        ..Given::default()
    };
    let ctx = u.context(entry, &given, Some(&like));
    let target = Target::of(Some(&a.output));
    u.output(&target, true);
    u.finish()?;

    let w = Written {
        command: "import",
        layout: "unity-mesh",
        input: &a.geometry,
        output: &target,
        json: a.json,
        quiet: a.quiet,
    };
    let made = (|| {
        crate::input::within_limit(&a.geometry, a.limit)?;
        let original = crate::input::read(&like, a.limit)?;
        let (mesh, mut notes) =
            meshspec_formats::import::read_mesh(&a.geometry, a.mesh.as_deref())?;
        let made = files::like::like(&mesh, &original, &ctx)?;
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
    match made {
        Ok((bytes, notes)) => {
            w.notes(&notes);
            w.end(&notes, output::write(&target, &bytes))
        }
        Err(e) => w.end(&[], Err(e)),
    }
}
