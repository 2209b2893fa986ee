//! `meshspec import LAYOUT GEOMETRY -o OUT`: a file of LAYOUT built from geometry, the way the
//! game's own tool would.

use super::Written;
use crate::args::WindingOpt;
use crate::fail::Fail;
use crate::output::Target;
use crate::usage::{Given, Usage};
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub layout: String,
    pub geometry: PathBuf,
    pub output: PathBuf,
    pub mesh: Option<String>,
    pub like: Option<PathBuf>,
    pub path_id: Option<i64>,
    pub winding: WindingOpt,
    pub limit: u64,
    pub quiet: bool,
    pub json: bool,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    if a.like.is_some() {
        return crate::cmd::unity::like::run(a);
    }
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    if let Some(e) = entry.filter(|e| !e.imports()) {
        let builders: Vec<&str> = meshspec_formats::layouts::LAYOUTS
            .iter()
            .filter(|l| l.imports())
            .map(|l| l.id)
            .collect();
        u.problem(format!(
            "layout `{}` has no builder from geometry; import builds {}{}",
            e.id,
            builders.join(", "),
            if e.id == crate::cmd::unity::MESH {
                ", and unity-mesh in the layout of an original (--like ORIGINAL.mesh)"
            } else {
                ""
            }
        ));
    }
    u.files(std::slice::from_ref(&a.geometry), None);
    let given = Given {
        winding: a.winding.winding,
        ..Given::default()
    };
    let ctx = u.context(entry, &given, Some(&a.geometry));
    u.winding(entry, &given);
    let target = Target::of(Some(&a.output));
    u.output(&target, true);
    u.finish()?;
    let entry = entry.expect("usage checked");

    let w = Written {
        command: "import",
        layout: entry.id,
        input: &a.geometry,
        output: &target,
        json: a.json,
        quiet: a.quiet,
    };
    let built = (|| {
        // The geometry reader opens the file itself (and a .gltf's buffers): refuse a file
        // over the limit before it does.
        crate::input::within_limit(&a.geometry, a.limit)?;
        use meshspec_formats::import;
        let (mesh, mut notes) = import::read_mesh(&a.geometry, a.mesh.as_deref())?;
        let (bytes, more) = entry.import(&mesh, &ctx).expect("usage checked")?;
        notes.extend(more);
        Ok::<_, Fail>((bytes, notes))
    })();
    w.write(built)
}
