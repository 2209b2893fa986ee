//! `meshspec dump unity-mesh GAMEFILE --mesh NAME|--path-id N`: one mesh as the `unity-mesh`
//! layout of its file's version reads it.

use super::{label, one, open_one, refuse_version, refused, select};
use crate::args::{Format, GameSelect};
use crate::fail::Fail;
use crate::output::{self, Target};
use crate::usage::Usage;
use meshspec_formats::context::Context;
use meshspec_formats::unity::files::{game::version_text, Located};
use std::path::PathBuf;
use std::process::ExitCode;

pub struct Args {
    pub file: PathBuf,
    pub game: GameSelect,
    pub unity_version: Option<String>,
    pub format: Format,
    pub output: Option<PathBuf>,
    pub limit: u64,
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    refuse_version(&mut u, a.unity_version.as_deref());
    let sel = select(&a.game);
    if sel.is_none() {
        u.problem("dump of a game file needs --mesh NAME or --path-id N".into());
    }
    let target = Target::of(a.output.as_deref());
    u.output(&target, false);
    u.finish()?;
    let sel = sel.expect("usage checked");

    let g = open_one(&a.file, a.limit)?;
    let r = one(&g, &sel)?;
    let m = g.mesh(r).map_err(|e| refused(&e))?;
    let place = g.place(r);
    let bytes = g.bytes(r);
    // The dump is the fixed layout's reading: refused where that disagrees with the type tree.
    if let Err(e) = &m.fixed {
        return Err(refused(
            &Located::new(place, e.clone()).with_layouts_hint(bytes),
        ));
    }
    let entry = crate::cmd::unity::mesh_entry();
    let ctx = g.context(&m, &Context::new());
    let mut dump = entry
        .dump(bytes, &ctx)
        .map_err(|e| refused(&Located::new(place, e).with_layouts_hint(bytes)))?;
    if let Some(notes) = dump.get_mut("notes").and_then(|n| n.as_array_mut()) {
        notes.insert(
            0,
            serde_json::Value::String(format!(
                "Read from {} with the layout of Unity {}, the file's version.",
                label(&g, r),
                m.version.map(version_text).unwrap_or_default()
            )),
        );
    }
    let text = crate::cmd::dump::text(&dump, a.format, &a.file)?;
    output::write(&target, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
