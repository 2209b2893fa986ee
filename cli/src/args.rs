//! The command line as clap sees it. Each command flattens only the option groups it uses, so
//! its `--help` lists nothing it ignores; completions and the man page are generated from these
//! same definitions.

use crate::input::{parse_size, DEFAULT_MAX_INPUT};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "meshspec",
    version,
    about = "Read, check, dump, rebuild and export game mesh layouts declared in spec/*.ksy",
    after_help = "Exit status: 0 when everything asked for succeeded, 1 when an input was refused, \
                  2 for a usage mistake."
)]
pub struct Cli {
    /// When to colour meshspec's `error:`, `warning:` and `note:` prefixes: `auto` colours
    /// a terminal unless NO_COLOR is set.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        global = true,
        value_name = "WHEN"
    )]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List every layout id, one per line with its description; with SPEC.ksy, every type that
    /// spec defines, each a LAYOUT any command takes (SPEC.ksy for its root, SPEC.ksy#TYPE).
    Layouts {
        /// A spec file (.ksy) to list the types of, read with no rebuild.
        #[arg(value_name = "SPEC.ksy")]
        spec: Option<String>,
        #[command(flatten)]
        json: Json,
    },
    /// Read each file with LAYOUT: exit 0 when every file parses, is consumed exactly and its
    /// relations hold; otherwise print one line per problem and exit 1.
    Check(crate::cmd::check::Args),
    /// One screen about FILE: size, verdict, meshes, counts, bounding box, attributes, skin and
    /// morph targets, warnings.
    Info(crate::cmd::info::Args),
    /// Print every field of FILE (unknown bytes as hex) as JSON or YAML.
    Dump(crate::cmd::dump::Args),
    /// Write the file a (possibly edited) dump describes, with counts and sizes recomputed.
    /// Nothing is written if the dump is inconsistent or the file would not pass `check`.
    Build(crate::cmd::build::Args),
    /// Export the geometry of FILE as glTF 2.0 (.glb) or Wavefront OBJ (.obj), by OUTPUT's
    /// extension.
    Export(crate::cmd::export::Args),
    /// Build a file of LAYOUT from geometry (.gltf, .glb or .obj), the way the game's own tool
    /// would (only layouts with a builder: meshbin).
    Import(crate::cmd::import::Args),
    /// Run the specs over every file under the given paths: which fail and why (grouped by
    /// rule and field), which relations do not hold, and the values of every field the spec
    /// marks unknown.
    Survey(crate::survey::SurveyArgs),
    /// Unity game files (asset bundles, serialized files): list their objects, extract one,
    /// check, dump or export their meshes, replace an object.
    Unity(crate::cmd::unity::UnityArgs),
    /// Every byte of FILE attributed to a field: offset, size, type, value, confidence and the
    /// spec's words per field, coloured by confidence; or one HTML page (--html OUT.html).
    Explain(crate::cmd::explain::ExplainArgs),
    /// Print a completion script for SHELL (for example
    /// `meshspec completions bash > /etc/bash_completion.d/meshspec`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of meshspec, or of one of its commands
    /// (`meshspec man | man -l -`).
    Man {
        /// A command, for its own page (`meshspec-check`).
        command: Option<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ColorArg {
    /// Colour a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces colour).
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Json,
    Yaml,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum NonFiniteArg {
    /// Refuse to export and say where they are.
    Refuse,
    /// Write 0 instead and say where.
    Zero,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SkinWeightsArg {
    /// One influence per vertex.
    #[value(name = "1")]
    One,
    /// Two.
    #[value(name = "2")]
    Two,
    /// Four (the blend channels; Unity's default).
    #[value(name = "4")]
    Four,
    /// Every influence.
    All,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum WindingArg {
    /// Direct3D build: clockwise front faces.
    D3d,
    /// OpenGL build: counter-clockwise front faces.
    Gl,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum RelationsArg {
    /// A violated relation fails the check.
    Error,
    /// A violated relation is printed as a warning.
    Warn,
}

/// `--json`.
#[derive(Args, Clone, Copy)]
pub struct Json {
    /// Print the result as one JSON document (a stable interface, docs/cli.md; schema in
    /// cli/report.schema.json).
    #[arg(long)]
    pub json: bool,
}

/// `--unity-version`.
#[derive(Args, Clone)]
pub struct UnityOpt {
    /// The Unity editor version that wrote the file (unity-mesh), e.g. 2021.3.0f1, or `auto`
    /// for the nearest folder above the file whose name is a version; for a game file, the
    /// version of a file whose version string is not one (a file's own version wins).
    #[arg(long, value_name = "VERSION")]
    pub unity_version: Option<String>,
}

/// `--unity-editor`.
#[derive(Args, Clone, Copy)]
pub struct UnityEditorOpt {
    /// A bare Mesh object (unity-mesh) the Unity editor saved for itself, cut from a file
    /// whose target platform is NoTarget (an import cache in Library/metadata, an .asset saved
    /// in binary): it holds the editor-only fields (m_ObjectHideFlags and the prefab links
    /// first). A game file says this itself.
    #[arg(long)]
    pub unity_editor: bool,
}

/// `--ress`.
#[derive(Args, Clone)]
pub struct RessOpt {
    /// The resource file streamed vertex data is read from (default: the file of the name the
    /// mesh gives, beside the input).
    #[arg(long, value_name = "FILE")]
    pub ress: Option<PathBuf>,
}

/// `--winding`.
#[derive(Args, Clone, Copy)]
pub struct WindingOpt {
    /// The winding of a file that does not record it (meshbin).
    #[arg(long, value_enum)]
    pub winding: Option<WindingArg>,
}

/// `--relations`.
#[derive(Args, Clone, Copy)]
pub struct RelationsOpt {
    /// Whether a violated relation is an error or a warning.
    #[arg(long, value_enum, default_value = "error")]
    pub relations: RelationsArg,
    /// Warnings fail too: a rule the documents observe, source or leave to inference, and a
    /// check that could not run, refuse the file as a proven rule does.
    #[arg(long)]
    pub strict: bool,
}

/// `--all`.
#[derive(Args, Clone, Copy)]
pub struct AllOpt {
    /// Print every violation of a relation (by default the first few per relation and how many
    /// more).
    #[arg(long)]
    pub all: bool,
}

/// `--quiet`.
#[derive(Args, Clone, Copy)]
pub struct QuietOpt {
    /// Print no `note:` lines.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--mesh`, `--path-id`: which object of a Unity game file.
#[derive(Args, Clone, Default)]
pub struct GameSelect {
    /// In a Unity game file (bundle or serialized file): the Mesh of this name.
    #[arg(long, value_name = "NAME", conflicts_with = "path_id")]
    pub mesh: Option<String>,
    /// In a Unity game file: the object of this path id.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub path_id: Option<i64>,
}

impl GameSelect {
    /// Whether an object was named.
    pub fn any(&self) -> bool {
        self.mesh.is_some() || self.path_id.is_some()
    }
}

/// `--all` of export: every mesh.
#[derive(Args, Clone, Copy, Default)]
pub struct EveryMesh {
    /// Every Mesh of the Unity game files and folders given, each into the folder -o names
    /// (NAME.PATHID.glb).
    #[arg(long, conflicts_with_all = ["mesh", "path_id"])]
    pub all: bool,
}

/// `--max-input-size`.
#[derive(Args, Clone, Copy)]
pub struct InputOpt {
    /// Refuse inputs larger than this, before reading them (bytes, or with K, M, G: 2G).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = DEFAULT_MAX_INPUT)]
    pub max_input_size: u64,
}
