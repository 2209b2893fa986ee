//! The `meshspec` command line. Its output lines and exit codes are an interface (see README):
//! 0 when everything asked for succeeded, 1 when an input was refused, 2 for a usage error.

use clap::{Args, Parser, Subcommand, ValueEnum};
use meshspec_formats::context::{Context, Relations, Winding};
use meshspec_formats::export::{self, NonFinite};
use meshspec_formats::{find, Entry, Error};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod survey;
mod unity;

#[derive(Parser)]
#[command(
    name = "meshspec",
    version,
    about = "Read, check, dump, rebuild and export game mesh layouts declared in spec/*.ksy"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every layout id, one per line with its description.
    Layouts,
    /// Read each file with LAYOUT: exit 0 when every file parses, is consumed exactly and its
    /// relations hold; otherwise print one line per problem and exit 1.
    Check {
        /// The layout id (see `meshspec layouts`).
        layout: String,
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Print every field of FILE (unknown bytes as hex) as JSON or YAML.
    Dump {
        /// The layout id.
        layout: String,
        /// The file to dump.
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
    /// Write the file a (possibly edited) dump describes, with counts and sizes recomputed.
    /// Nothing is written if the dump is inconsistent.
    Build {
        /// The layout id.
        layout: String,
        /// The dump (JSON or YAML); `-` reads standard input.
        dump: PathBuf,
        /// Where to write; standard output if absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Export the geometry of FILE as glTF 2.0 (.glb) or Wavefront OBJ (.obj), by OUTPUT's
    /// extension.
    Export {
        /// The layout id.
        layout: String,
        /// The file to export.
        file: PathBuf,
        /// The .glb or .obj to write.
        #[arg(short, long)]
        output: PathBuf,
        /// What to do with values that are not finite.
        #[arg(long, value_enum, default_value = "refuse")]
        non_finite: NonFiniteArg,
        #[command(flatten)]
        opts: Opts,
    },
    /// Build a file of LAYOUT from geometry (.gltf, .glb or .obj), the way the game's own tool
    /// would (only layouts with a builder: meshbin).
    Import {
        /// The layout id.
        layout: String,
        /// The geometry file.
        geometry: PathBuf,
        /// Where to write.
        #[arg(short, long)]
        output: PathBuf,
        #[command(flatten)]
        opts: Opts,
    },
    /// Run the specs over every file under the given paths: which fail and why (grouped by
    /// rule and field), which relations do not hold, and the values of every field the spec
    /// marks unknown.
    Survey(survey::SurveyArgs),
    /// Unity game files (bundles, serialized files): list objects, extract, check, dump and
    /// export meshes with the editor version read from the file.
    Unity(unity::UnityArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Yaml,
}

#[derive(Clone, Copy, ValueEnum)]
enum NonFiniteArg {
    /// Refuse to export and say where they are.
    Refuse,
    /// Write 0 instead and say where.
    Zero,
}

#[derive(Clone, Copy, ValueEnum)]
enum WindingArg {
    /// Direct3D build: clockwise front faces.
    D3d,
    /// OpenGL build: counter-clockwise front faces.
    Gl,
}

#[derive(Clone, Copy, ValueEnum)]
enum RelationsArg {
    /// A violated relation fails the check.
    Error,
    /// A violated relation is printed as a warning.
    Warn,
}

/// Options that tell a layout what its bytes do not say.
#[derive(Args, Clone)]
struct Opts {
    /// The winding of a file that does not record it (meshbin).
    #[arg(long, value_enum)]
    winding: Option<WindingArg>,
    /// The Unity editor version the file was written by (unity-mesh), e.g. 2021.3.0f1, or
    /// `auto` for the nearest folder above the file whose name is a version.
    #[arg(long)]
    unity_version: Option<String>,
    /// The resource file streamed vertex data is read from (default: the file of the name the
    /// mesh gives, beside the input).
    #[arg(long)]
    ress: Option<PathBuf>,
    /// Whether a violated relation is an error or a warning.
    #[arg(long, value_enum, default_value = "error")]
    relations: RelationsArg,
    #[command(flatten)]
    game: unity::GameSelect,
}

impl Opts {
    fn context(&self, input: Option<&Path>) -> Result<Context, Error> {
        let mut ctx = Context::new();
        ctx.winding = self.winding.map(|w| match w {
            WindingArg::D3d => Winding::D3d,
            WindingArg::Gl => Winding::Gl,
        });
        match self.unity_version.as_deref() {
            Some("auto") => {
                let found = input
                    .and_then(|p| p.ancestors().skip(1).find_map(|a| {
                        let name = a.file_name()?.to_str()?;
                        meshspec_formats::context::unity_version(name).ok().map(|_| name.to_string())
                    }))
                    .ok_or_else(|| {
                        Error::unplaced(
                            meshspec_formats::ErrorKind::Input,
                            "a folder named after the Unity version above the file (--unity-version auto)",
                            "none",
                        )
                    })?;
                ctx = ctx.with_unity_version(&found)?;
            }
            Some(v) => ctx = ctx.with_unity_version(v)?,
            None => {}
        }
        ctx.resource = self.ress.clone();
        ctx.input = input.map(Path::to_path_buf);
        ctx.relations = match self.relations {
            RelationsArg::Error => Relations::Error,
            RelationsArg::Warn => Relations::Warn,
        };
        Ok(ctx)
    }
}

/// A failure to report: one line on standard error, exit 1.
struct Fail(String);

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        Fail(e.to_string())
    }
}

fn layout(id: &str) -> Result<&'static Entry, Fail> {
    find(id).ok_or_else(|| {
        Fail(format!(
            "unknown layout `{id}`; `meshspec layouts` lists them: {}",
            meshspec_formats::generated::LAYOUTS
                .iter()
                .map(|e| e.id)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

fn read_input(path: &Path) -> Result<Vec<u8>, Fail> {
    if path == Path::new("-") {
        let mut buf = vec![];
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Fail(format!("-: cannot read standard input: {e}")))?;
        return Ok(buf);
    }
    std::fs::read(path).map_err(|e| Fail(format!("{}: cannot read: {e}", path.display())))
}

/// Writes `bytes` to `path` (standard output if `None`) only once they are complete.
fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), Fail> {
    match path {
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|e| Fail(format!("cannot write standard output: {e}"))),
        Some(p) => {
            // Write beside the target and rename, so a failure never leaves half a file.
            let tmp = p.with_extension(format!(
                "{}.partial",
                p.extension().and_then(|e| e.to_str()).unwrap_or("out")
            ));
            std::fs::write(&tmp, bytes)
                .and_then(|_| std::fs::rename(&tmp, p))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    Fail(format!("{}: cannot write: {e}", p.display()))
                })
        }
    }
}

fn parse_dump(text: &[u8], path: &Path) -> Result<serde_json::Value, Fail> {
    let s = std::str::from_utf8(text)
        .map_err(|_| Fail(format!("{}: a dump is UTF-8 text", path.display())))?;
    let trimmed = s.trim_start();
    if trimmed.starts_with('{') {
        serde_json::from_str(s)
            .map_err(|e| Fail(format!("{}: not valid JSON: {e}", path.display())))
    } else {
        serde_norway::from_str(s)
            .map_err(|e| Fail(format!("{}: not valid YAML: {e}", path.display())))
    }
}

fn run(cli: Cli) -> Result<ExitCode, Fail> {
    if let Some(done) = unity::route(&cli.command) {
        return done;
    }
    match cli.command {
        Command::Layouts => {
            let width = meshspec_formats::generated::LAYOUTS
                .iter()
                .map(|e| e.id.len())
                .max()
                .unwrap_or(0);
            for e in meshspec_formats::generated::LAYOUTS {
                println!("{:width$}  {}", e.id, e.description);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            layout: id,
            files,
            opts,
        } => {
            let entry = layout(&id)?;
            let mut failed = 0usize;
            for f in &files {
                let ctx = opts.context(Some(f))?;
                let name = f.display();
                let bytes = match read_input(f) {
                    Ok(b) => b,
                    Err(Fail(m)) => {
                        println!("{m}");
                        failed += 1;
                        continue;
                    }
                };
                let checked = entry.check(&bytes, &ctx);
                if let Ok(c) = &checked {
                    for w in &c.warnings {
                        println!("{name}: warning: {w}");
                    }
                }
                match checked {
                    Ok(c) if c.relations.is_empty() => println!("{name}: ok"),
                    Ok(c) => {
                        let warn = c.passes(&ctx);
                        for r in &c.relations {
                            if warn {
                                println!("{name}: warning: {r}");
                            } else {
                                println!("{name}: {r}");
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
            if files.len() > 1 {
                eprintln!(
                    "{} files: {} ok, {failed} failed",
                    files.len(),
                    files.len() - failed
                );
            }
            Ok(if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Dump {
            layout: id,
            file,
            format,
            output,
            opts,
        } => {
            let entry = layout(&id)?;
            let ctx = opts.context(Some(&file))?;
            let bytes = read_input(&file)?;
            let dump = entry.dump(&bytes, &ctx)?;
            let text = match format {
                Format::Json => {
                    let mut s = serde_json::to_string_pretty(&dump)
                        .map_err(|e| Fail(format!("cannot write JSON: {e}")))?;
                    s.push('\n');
                    s
                }
                Format::Yaml => serde_norway::to_string(&dump)
                    .map_err(|e| Fail(format!("cannot write YAML: {e}")))?,
            };
            write_output(output.as_deref(), text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Build {
            layout: id,
            dump,
            output,
            opts,
        } => {
            let entry = layout(&id)?;
            let ctx = opts.context(None)?;
            let text = read_input(&dump)?;
            let value = parse_dump(&text, &dump)?;
            let bytes = entry.build(&value, &ctx)?;
            write_output(output.as_deref(), &bytes)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            layout: id,
            file,
            output,
            non_finite,
            opts,
        } => {
            let entry = layout(&id)?;
            let ctx = opts.context(Some(&file))?;
            let bytes = read_input(&file)?;
            let mut scene = entry.scene(&bytes, &ctx)?;
            let stem = file
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("mesh")
                .to_string();
            if scene.meshes.len() == 1 && scene.meshes[0].name == entry.id.replace('-', "_") {
                scene.meshes[0].name = stem;
            }
            let policy = match non_finite {
                NonFiniteArg::Refuse => NonFinite::Refuse,
                NonFiniteArg::Zero => NonFinite::Zero,
            };
            let ext = output
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase());
            let out = match ext.as_deref() {
                Some("glb") => export::glb(&scene, policy)?,
                Some("obj") => export::obj(&scene, policy)?,
                _ => {
                    return Err(Fail(format!(
                        "{}: export writes .glb or .obj",
                        output.display()
                    )))
                }
            };
            for n in &out.notes {
                eprintln!("note: {n}");
            }
            write_output(Some(&output), &out.bytes)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Import {
            layout: id,
            geometry,
            output,
            opts,
        } => {
            let entry = layout(&id)?;
            let ctx = opts.context(Some(&geometry))?;
            let scene = meshspec_formats::import::read(&geometry)?;
            let bytes = match entry.id {
                "meshbin" => {
                    let winding = ctx.winding.ok_or_else(|| {
                        Fail("import meshbin needs --winding d3d or --winding gl (the build it is for)".into())
                    })?;
                    let mesh = meshspec_formats::import::merge(&scene);
                    let m = meshspec_formats::meshbin::from_mesh(&mesh, winding)
                        .map_err(|e| Fail(format!("{}: {e}", geometry.display())))?;
                    meshspec_formats::rt::Layout::to_bytes(&m, &ctx)?
                }
                other => {
                    return Err(Fail(format!(
                        "layout `{other}` has no builder from geometry"
                    )))
                }
            };
            write_output(Some(&output), &bytes)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Survey(args) => survey::run(args),
        Command::Unity(args) => unity::run(args),
    }
}

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`meshspec dump ... | head`) instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Fail(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(1)
        }
    }
}
