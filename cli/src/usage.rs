//! Usage mistakes, all found before any input is read and reported together (exit 2): an
//! unknown layout, a folder given as a file, an option a layout needs and did not get, an
//! output that cannot be. What a layout needs comes from the library ([`Entry::args_ok`],
//! [`Entry::needs_winding`]); only the flags' names are the command line's.

use crate::args::{RelationsArg, WindingArg};
use crate::fail::Fail;
use crate::output::Target;
use meshspec_formats::context::{unity_version, Context, Relations, Winding};
use meshspec_formats::{find, Entry};
use std::path::{Path, PathBuf};

/// What the user said that the bytes do not.
#[derive(Clone, Default)]
pub struct Given {
    /// `--unity-version` (a version, or `auto`).
    pub unity_version: Option<String>,
    /// `--unity-editor`.
    pub unity_editor: bool,
    /// `--ress`.
    pub ress: Option<PathBuf>,
    /// `--winding`.
    pub winding: Option<WindingArg>,
    /// `--relations warn`.
    pub warn: bool,
    /// `--strict`.
    pub strict: bool,
}

impl Given {
    /// With `--relations` and `--strict`.
    pub fn relations(mut self, r: crate::args::RelationsOpt) -> Self {
        self.warn = r.relations == RelationsArg::Warn;
        self.strict = r.strict;
        self
    }
}

/// The problems found so far.
#[derive(Default)]
pub struct Usage {
    problems: Vec<String>,
}

/// [`meshspec_formats::layouts::spec_problem`], escaped for a terminal.
pub fn spec_problem(arg: &str, e: &meshspec_formats::Error) -> String {
    crate::escape::text(&meshspec_formats::layouts::spec_problem(arg, e)).into_owned()
}

/// The version the examples name.
const EXAMPLE_VERSION: &str = "2021.3.0f1";

impl Usage {
    /// Records a problem (once, however many inputs share it).
    pub fn problem(&mut self, msg: String) {
        if !self.problems.contains(&msg) {
            self.problems.push(msg);
        }
    }

    /// The layout with id `id`, or the one a spec file gives (`FILE.ksy`, or `FILE.ksy#TYPE`
    /// for one of its types), read by the interpreter: no rebuild.
    pub fn layout(&mut self, id: &str) -> Option<&'static Entry> {
        if meshspec_formats::layouts::is_spec_path(id) {
            return match Entry::interpreted(id) {
                Ok(e) => Some(e),
                Err(e) => {
                    self.problem(spec_problem(id, &e));
                    None
                }
            };
        }
        let found = find(id);
        if found.is_none() {
            let ids: Vec<&str> = meshspec_formats::layouts::LAYOUTS
                .iter()
                .map(|e| e.id)
                .collect();
            let near = ids
                .iter()
                .map(|c| (strsim::jaro_winkler(id, c), *c))
                .filter(|(score, _)| *score > 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, c)| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            self.problem(format!(
                "unknown layout `{}`{near}; `meshspec layouts` lists them: {}",
                crate::escape::text(id),
                ids.join(", ")
            ));
        }
        found
    }

    /// Inputs that are folders (`instead`: the command that reads folders, if any).
    pub fn files(&mut self, files: &[PathBuf], instead: Option<&str>) {
        for f in files {
            if f.is_dir() {
                let shown = f.display();
                self.problem(match instead {
                    Some(cmd) => format!(
                        "{shown} is a folder; `meshspec {cmd} {shown}` reads every file under it"
                    ),
                    None => format!("{shown} is a folder; name a file"),
                });
            }
        }
    }

    /// The context to read `input` with, from what was given; problems when the layout needs
    /// more than that.
    pub fn context(&mut self, entry: Option<&Entry>, g: &Given, input: Option<&Path>) -> Context {
        let mut ctx = Context::new();
        ctx.winding = g.winding.map(|w| match w {
            WindingArg::D3d => Winding::D3d,
            WindingArg::Gl => Winding::Gl,
        });
        ctx.resource = g.ress.clone();
        ctx.input = input
            .filter(|p| *p != Path::new("-"))
            .map(Path::to_path_buf);
        ctx.relations = if g.warn {
            Relations::Warn
        } else {
            Relations::Error
        };
        ctx.strict = g.strict;
        let before = self.problems.len();
        match g.unity_version.as_deref() {
            Some("auto") => match version_folder(ctx.input.as_deref()) {
                Some(v) => ctx = ctx.with_param("unity_version", v),
                None => self.problem(format!(
                    "--unity-version auto: no folder above {} is named after a Unity version; \
                     give the version (--unity-version {EXAMPLE_VERSION})",
                    input.map_or("standard input".into(), |p| p.display().to_string())
                )),
            },
            Some(v) => match unity_version(v) {
                Ok(n) => ctx = ctx.with_param("unity_version", n),
                Err(_) => self.problem(format!(
                    "--unity-version {}: expected a Unity version such as {EXAMPLE_VERSION}, or auto",
                    crate::escape::text(v)
                )),
            },
            None => {}
        }
        if g.unity_editor {
            ctx = ctx.with_param("unity_editor", 1);
        }
        // (A version already refused above is not also missing.)
        if let Some(e) = entry.filter(|_| self.problems.len() == before) {
            if let Err(err) = e.args_ok(&ctx) {
                if g.unity_version.is_none() && e.args_ok(&with_example_params(ctx.clone())).is_ok()
                {
                    self.problem(format!(
                        "layout `{}` needs the Unity version that wrote the file: \
                         --unity-version {EXAMPLE_VERSION}, or --unity-version auto (the nearest \
                         folder above the file named after a version)",
                        e.id
                    ));
                } else if g.unity_version.is_some() {
                    // Given and understood, but not a value the layout takes.
                    self.problem(format!("--unity-version: {err}"));
                } else {
                    self.problem(err.to_string());
                }
            }
        }
        ctx
    }

    /// A problem when decoding or building `entry`'s geometry needs a winding and none was
    /// given.
    pub fn winding(&mut self, entry: Option<&Entry>, g: &Given) {
        if let Some(e) = entry.filter(|e| e.needs_winding() && g.winding.is_none()) {
            self.problem(format!(
                "layout `{}` needs --winding d3d or --winding gl: its files do not record \
                 whether a Direct3D or an OpenGL build wrote them",
                e.id
            ));
        }
    }

    /// Problems with an output target.
    pub fn output(&mut self, t: &Target, binary: bool) {
        for p in t.usage_problems(binary) {
            self.problem(p);
        }
    }

    /// Ends the checks: `Err` with every problem when there were any.
    pub fn finish(self) -> Result<(), Fail> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(Fail::Usage(self.problems))
        }
    }
}

/// A context with every parameter the command line can give set to an example value.
fn with_example_params(ctx: Context) -> Context {
    ctx.with_param(
        "unity_version",
        unity_version(EXAMPLE_VERSION).expect("a valid example"),
    )
}

/// Whether reading `e` needs `--unity-version` (its reader takes a parameter the command line
/// gives with that flag, and has no value for it otherwise).
pub fn needs_unity_version(e: &Entry) -> bool {
    e.args_ok(&Context::new()).is_err() && e.args_ok(&with_example_params(Context::new())).is_ok()
}

/// The Unity version named by the nearest folder above `input` (`--unity-version auto`).
fn version_folder(input: Option<&Path>) -> Option<i128> {
    let abs = std::path::absolute(input?).ok()?;
    abs.ancestors().skip(1).find_map(|a| {
        let name = a.file_name()?.to_str()?;
        unity_version(name).ok()
    })
}
