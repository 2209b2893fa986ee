//! What `meshspec check` does over an install, for the survey's bench and `survey_vs_check`.

use meshspec_formats::context::Context;
use meshspec_formats::survey::walk;
use meshspec_formats::Entry;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The files of `dir` that check reads (those whose layout their extension names), with it.
pub fn checked_files(dir: &Path) -> Vec<(PathBuf, &'static Entry)> {
    walk::files(&[dir.to_path_buf()], None)
        .filter_map(|f| match f {
            walk::Found::File(p) => {
                let ext = walk::extension(&p);
                let id = if ext == "bin" {
                    "sws-mesh"
                } else {
                    ext.as_str()
                };
                meshspec_formats::find(id).map(|e| (p, e))
            }
            walk::Found::Unreadable(..) => None,
        })
        .collect()
}

/// What `meshspec check` does for one file of an install: read it, judge it.
pub fn check_one(f: &Path, e: &Entry) -> bool {
    let Ok(bytes) = std::fs::read(f) else {
        return false;
    };
    let mut ctx = Context::new();
    ctx.input = Some(f.to_path_buf());
    if e.params.contains(&"unity_version") {
        if let Some(v) = walk::version_folder(f) {
            ctx = ctx.with_param("unity_version", v);
        }
    }
    e.judge(&bytes, &ctx).passes()
}

/// Check over every file of `dir` whose layout its extension names, on `pool`: the files
/// that pass.
pub fn check(dir: &Path, pool: &rayon::ThreadPool) -> usize {
    let files = checked_files(dir);
    pool.install(|| files.par_iter().filter(|(f, e)| check_one(f, e)).count())
}
