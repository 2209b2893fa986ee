//! The editor version a serialized file's objects are read with, and the Mesh layouts the
//! `unity-mesh` spec describes.
//!
//! A file says its version in its metadata (`2021.3.0f1`), and that version wins. Some games
//! ship files whose version string is not a version (a stripped build's `0.0.0`): their objects
//! are read with the version the user gives (`--unity-version`), or else with the one range of
//! Mesh layouts (between two of the spec's cut-offs, [`mesh_layouts`]) whose layout reads every
//! Mesh object of the file exactly, and agrees with its type tree where the file has one
//! ([`fit`]). When no range fits, or several with different readings, the file is refused with
//! what was tried.

use super::mesh::{self, MESH};
use super::serialized::Serialized;
use crate::generated::unity_mesh::UnityMesh;
use crate::reading::{self, TypedReading};
use crate::rt::{Error, ErrorKind, Root};

/// The id of the Mesh layout.
pub const MESH_LAYOUT: &str = <UnityMesh as Root>::ID;

pub use crate::unity::version_text;

/// Where a serialized file's version came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum How {
    /// Its own version string.
    Own,
    /// `--unity-version`, for a file whose string is not a version.
    Given,
    /// The one range of Mesh layouts that reads every Mesh of the file exactly.
    Fitted {
        /// The range in words (`2020.1 to 2021.3`).
        range: String,
        /// How many meshes it read.
        meshes: usize,
    },
}

/// The version a serialized file's objects are read with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileVersion {
    /// The version (major x 10,000 + minor x 100 + patch).
    pub number: u32,
    /// Where it came from.
    pub how: How,
    /// The file's own version string.
    pub text: String,
}

impl FileVersion {
    /// What a reader should know when the version is not the file's own.
    pub fn note(&self) -> Option<String> {
        let text = self.text.escape_debug();
        match &self.how {
            How::Own => None,
            How::Given => Some(format!(
                "the file's version string is {text}; read with --unity-version {}",
                version_text(self.number)
            )),
            How::Fitted { range, meshes } => Some(format!(
                "the file's version string is {text}; its {meshes} mesh{} read{} exactly with the layout of {range} (read as {})",
                if *meshes == 1 { "" } else { "es" },
                if *meshes == 1 { "s" } else { "" },
                version_text(self.number)
            )),
        }
    }

    /// The version as the survey's per-version census names it: `2021.3.0`, or for a version
    /// that is not the file's own, how it was found (`0.0.0 read as 2020.1 to 2021.3`).
    pub fn key(&self) -> String {
        let text = self.text.escape_debug();
        match &self.how {
            How::Own => version_text(self.number),
            How::Given => format!("{text} read as {}", version_text(self.number)),
            How::Fitted { range, .. } => format!("{text} read as {range}"),
        }
    }
}

/// The version of `s`: its own, and `given` must then agree; for a string that is not a
/// version, `given`, or else what `fitted` found ([`fit`], called only then). Errors are at
/// the file's version field.
pub fn of(
    s: &Serialized,
    given: Option<u32>,
    fitted: impl FnOnce() -> Fit,
) -> Result<FileVersion, Error> {
    let text = s.unity_version.clone();
    match (s.unity_version(), given) {
        (Ok(own), Some(g)) if g != own => Err(s.version_error(
            format!(
                "the file's own version {} (a file's version string wins: give no --unity-version, or that one)",
                version_text(own)
            ),
            format!("--unity-version {}", version_text(g)),
        )),
        (Ok(own), _) => Ok(FileVersion {
            number: own,
            how: How::Own,
            text,
        }),
        (Err(_), Some(g)) => Ok(FileVersion {
            number: g,
            how: How::Given,
            text,
        }),
        (Err(e), None) => match fitted() {
            Fit::One {
                number,
                range,
                meshes,
            } => Ok(FileVersion {
                number,
                how: How::Fitted { range, meshes },
                text,
            }),
            Fit::None(tried) => {
                let mut e = e;
                e.expected = "a Unity version such as 2021.3.0f1, or one Mesh layout that reads every Mesh of the file exactly (--unity-version gives the version)".into();
                e.found = format!("{}: {tried}", e.found);
                Err(e)
            }
        },
    }
}

/// What fitting a file's Mesh layouts found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// One range reads every Mesh exactly.
    One {
        /// The range's first version.
        number: u32,
        /// The range in words.
        range: String,
        /// How many meshes it read.
        meshes: usize,
    },
    /// No range, or several with different readings: what was tried, in words.
    None(String),
}

/// The one range of Mesh layouts ([`mesh_layouts`]) that reads every Mesh object of `s`
/// exactly ([`reads_exactly`]) and, where the file has type trees, agrees with each object's
/// type tree. Several ranges that fit are one when they read every mesh alike (the same
/// geometry decoded, or the dumps' data alike, absent fields aside); the first is taken.
pub fn fit(s: &Serialized) -> Fit {
    let meshes: Vec<_> = s.objects.iter().filter(|o| o.class_id == MESH).collect();
    if meshes.is_empty() {
        return Fit::None("it holds no Mesh to fit a layout to".into());
    }
    if s.big_endian {
        return Fit::None(
            "its meshes are big endian, and the unity-mesh layout is little endian".into(),
        );
    }
    // Each type tree reading once, for every range.
    let typed: Vec<_> = meshes
        .iter()
        .map(|o| Some((s.read(o).ok()?, s.trees_of(o)?)))
        .collect();
    let mut fits = vec![];
    let mut tried = vec![];
    let layout = |version| mesh::Layout {
        version,
        editor: s.editor,
    };
    for (v, words) in mesh_layouts() {
        let failed = meshes.iter().zip(&typed).find_map(|(o, t)| {
            let read = TypedReading::<UnityMesh>::new(s.bytes(o), &mesh::context(layout(v)));
            let agrees = match t {
                Some((value, trees)) => {
                    mesh::check_fixed_layout(&read, layout(v), value, trees, o.offset)
                }
                None => Ok(()),
            };
            agrees
                .and_then(|()| exactly(read, layout(v)).map_err(|e| e.shifted(o.offset)))
                .err()
                .map(|e| (o.path_id, e))
        });
        match failed {
            None => fits.push((v, words)),
            Some((id, e)) => tried.push(format!(
                "{words} (path id {id}: {}{})",
                e.offset.map(|o| format!("0x{o:X} ")).unwrap_or_default(),
                e.path_string()
            )),
        }
    }
    let n = meshes.len();
    let Some((first, words)) = fits.first().cloned() else {
        return Fit::None(format!(
            "no Mesh layout reads all its {n} meshes exactly: {}",
            tried.join(", ")
        ));
    };
    // A mesh's reading: its geometry when it decodes (layouts that name the same bytes
    // differently, 5.x's channel formats and 2017's, read alike when they mean the same),
    // its dump's data otherwise.
    let reading = |v: u32| -> Vec<ReadAs> {
        meshes
            .iter()
            .map(|o| {
                let ctx = mesh::context(layout(v));
                let read =
                    reading::Reading::meant(TypedReading::<UnityMesh>::new(s.bytes(o), &ctx), &ctx);
                if let Ok(d) = read.decode(&ctx) {
                    return ReadAs::Geometry(d.scene.meshes);
                }
                let dump = read.dump(&ctx).ok();
                ReadAs::Data(dump.and_then(|d| Some(without_nulls(d.get("data")?.clone()))))
            })
            .collect()
    };
    let base = reading(first);
    if let Some((_, other)) = fits.iter().skip(1).find(|(v, _)| reading(*v) != base) {
        return Fit::None(format!(
            "the layouts of {words} and {other} both read its {n} meshes exactly, to different values"
        ));
    }
    Fit::One {
        number: first,
        range: words,
        meshes: n,
    }
}

/// What a layout reads a mesh as, to tell whether two layouts read it alike.
#[derive(PartialEq)]
enum ReadAs {
    Geometry(Vec<crate::scene::Mesh>),
    Data(Option<serde_json::Value>),
}

/// A dump's data with the fields a layout does not have (`null`) left out.
fn without_nulls(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.into_iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k, without_nulls(x)))
                .collect(),
        ),
        serde_json::Value::Array(a) => {
            serde_json::Value::Array(a.into_iter().map(without_nulls).collect())
        }
        x => x,
    }
}

/// The Mesh layouts the `unity-mesh` spec describes: the first editor version of each (the
/// oldest the spec describes, then every version the spec compares `unity_version` with), and
/// the versions it covers in words ("2017.3 to 2017.4").
pub fn mesh_layouts() -> Vec<(u32, String)> {
    let cuts = UnityMesh::CUT_OFFS
        .iter()
        .find(|c| c.0 == "unity_version")
        .map_or(&[][..], |c| c.1);
    let starts: Vec<u32> = std::iter::once(crate::unity::OLDEST_VERSION)
        .chain(cuts.iter().filter_map(|&c| u32::try_from(c).ok()))
        .collect();
    let mut out = vec![];
    for (i, &v) in starts.iter().enumerate() {
        let words = match starts.get(i + 1) {
            None => format!("{} and later", release(v)),
            Some(&next) => match release_before(next) {
                Some(last) if last == v => release(v),
                Some(last) => format!("{} to {}", release(v), release(last)),
                None => format!("{} up to {}", release(v), release(next)),
            },
        };
        out.push((v, words));
    }
    out
}

/// A version as Unity names its releases: `2017.3`, or `5.3.5` when the patch counts.
fn release(v: u32) -> String {
    let (major, minor, patch) = (v / 10_000, v / 100 % 100, v % 100);
    if patch == 0 {
        format!("{major}.{minor}")
    } else {
        format!("{major}.{minor}.{patch}")
    }
}

/// The last release before `v` (a `.0` patch), from Unity's numbering: 3.x to 5.x from `.0`
/// to their last minor, each year's releases from `.1` to its LTS release, Unity 6's from
/// `6000.0`. `None` where that is not known.
fn release_before(v: u32) -> Option<u32> {
    /// Each major version in order, with its first and last minor release.
    const MAJORS: &[(u32, u32, u32)] = &[
        (3, 0, 5),
        (4, 0, 7),
        (5, 0, 6),
        (2017, 1, 4),
        (2018, 1, 4),
        (2019, 1, 4),
        (2020, 1, 3),
        (2021, 1, 3),
        (2022, 1, 3),
        (2023, 1, 2),
        (6000, 0, 99),
    ];
    let (major, minor, patch) = (v / 10_000, v / 100 % 100, v % 100);
    if patch != 0 {
        return None;
    }
    let k = MAJORS.iter().position(|m| m.0 == major)?;
    if minor > MAJORS[k].1 {
        return Some(major * 10_000 + (minor - 1) * 100);
    }
    let &(y, _, last) = MAJORS.get(k.checked_sub(1)?)?;
    Some(y * 10_000 + last * 100)
}

/// Whether the Mesh layout `layout` reads `bytes` exactly: to their end, with every relation
/// of `unity-mesh` holding (a check that could not run aside); the first thing it found
/// otherwise.
pub fn reads_exactly(bytes: &[u8], layout: impl Into<mesh::Layout>) -> Result<(), Error> {
    let layout = layout.into();
    exactly(TypedReading::new(bytes, &mesh::context(layout)), layout)
}

/// [`reads_exactly`] on a reading made already.
fn exactly(read: TypedReading<'_, UnityMesh>, layout: mesh::Layout) -> Result<(), Error> {
    let v = reading::Reading::meant(read, &mesh::context(layout)).verdict;
    match v
        .refused
        .into_iter()
        .chain(v.findings)
        .find(|f| f.kind != ErrorKind::Unchecked)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The known Mesh layouts (of an editor's object when `editor`) that read `bytes` exactly
/// ([`reads_exactly`]).
pub fn layouts_that_read(bytes: &[u8], editor: bool) -> Vec<String> {
    mesh_layouts()
        .into_iter()
        .filter(|&(version, _)| reads_exactly(bytes, mesh::Layout { version, editor }).is_ok())
        .map(|(v, text)| format!("{text} (--unity-version {})", version_text(v)))
        .collect()
}
