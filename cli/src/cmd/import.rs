//! `meshspec import LAYOUT GEOMETRY -o OUT`: a file of LAYOUT built from geometry, the way the
//! game's own tool would.

use super::Written;
use crate::args::{InputOpt, Json, QuietOpt, UnityOpt, WindingOpt};
use crate::fail::Fail;
use crate::output::Target;
use crate::usage::{Given, Usage};
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec import`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id.
    pub layout: String,
    /// The geometry file.
    pub geometry: PathBuf,
    /// Where to write (`-`: standard output, which must not be a terminal).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// The mesh to take from a file that holds several (by name; default the first).
    #[arg(long)]
    pub mesh: Option<String>,
    /// unity-mesh: a Mesh object in the vertex layout of this original (its channels,
    /// formats and streams; what the geometry did not change keeps its bytes): a bare
    /// object (its editor version from --unity-version or the folder it is in, its .resS
    /// beside it), or a game file with --path-id.
    #[arg(long, value_name = "ORIGINAL")]
    pub like: Option<PathBuf>,
    /// With --like GAMEFILE: the original Mesh's path id.
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "like")]
    pub path_id: Option<i64>,
    #[command(flatten)]
    pub winding: WindingOpt,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
    #[command(flatten)]
    pub json: Json,
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
        unity_version: a.unity.unity_version.clone(),
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
        json: a.json.json,
        quiet: a.quiet.quiet,
    };
    let built = (|| {
        // The geometry reader opens the file itself (and a .gltf's buffers): refuse a file
        // over the limit before it does.
        crate::input::within_limit(&a.geometry, a.input.max_input_size)?;
        use meshspec_formats::import;
        let (mesh, mut notes) = import::read_mesh(&a.geometry, a.mesh.as_deref())?;
        let (bytes, more) = entry.import(&mesh, &ctx).expect("usage checked")?;
        notes.extend(more);
        Ok::<_, Fail>((bytes, notes))
    })();
    w.write(built)
}
