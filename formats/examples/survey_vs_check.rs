use meshspec_formats::context::Context;
use meshspec_formats::survey::{self, Options, UnityVersion};
use std::path::PathBuf;
fn main() {
    let what = std::env::args().nth(1).unwrap();
    let dir = PathBuf::from(std::env::args().nth(2).unwrap());
    let n: usize = std::env::args().nth(3).map_or(1, |s| s.parse().unwrap());
    for _ in 0..n {
        if what == "check" {
            let files: Vec<_> = survey::walk::files(&[dir.clone()], None)
                .filter_map(|f| match f {
                    survey::walk::Found::File(p) => {
                        let ext = survey::walk::extension(&p);
                        let id = if ext == "bin" {
                            "sws-mesh"
                        } else {
                            ext.as_str()
                        };
                        meshspec_formats::find(id).map(|e| (p, e))
                    }
                    _ => None,
                })
                .collect();
            let t: usize = std::env::var("T").map_or(1, |t| t.parse().unwrap());
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            use rayon::prelude::*;
            let ok: usize = pool.install(|| files.par_iter().map(|(f, e)| {
                let bytes = std::fs::read(f).unwrap();
                let mut ctx = Context::new();
                ctx.input = Some(f.clone());
                if e.params.contains(&"unity_version") {
                    if let Some(v) = survey::walk::version_folder(f) {
                        ctx = ctx.with_param("unity_version", v);
                    }
                }
                e.judge(&bytes, &ctx).passes() as usize
            }).sum());
            std::hint::black_box(ok);
        } else {
            let o = Options {
                unity_version: UnityVersion::Auto,
                threads: Some(std::env::var("T").map_or(1, |t| t.parse().unwrap())),
                ..Options::default()
            };
            std::hint::black_box(survey::survey(std::slice::from_ref(&dir), &o, &()));
        }
    }
}
