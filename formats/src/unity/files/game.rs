//! Opened game files and the objects in them: opening files and folders (a whole player
//! build), listing, selecting, the editor version each serialized file is read with, and
//! reading a Mesh. Each object is then an input of its layout ([`super::object`]), and a
//! mesh's joints and materials are named from the renderers that draw it ([`super::names`]).

use super::bundle::{self, Bundle};
use super::compress::Limits;
use super::mesh::{self, MESH};
use super::serialized::{self, ObjectEntry, Serialized};
use super::version::{self, FileVersion, Fit};
use super::{Located, Shared};
use crate::generated::unity_mesh::{AlignedString, UnityMesh};
use crate::reading::TypedReading;
use crate::rt::{Codec, Error, ErrorKind, Root};
use crate::unity::stream::StreamRange;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Class ids this module looks into.
pub mod class {
    /// GameObject.
    pub const GAME_OBJECT: i32 = 1;
    /// Transform.
    pub const TRANSFORM: i32 = 4;
    /// Material.
    pub const MATERIAL: i32 = 21;
    /// MeshRenderer.
    pub const MESH_RENDERER: i32 = 23;
    /// MeshFilter.
    pub const MESH_FILTER: i32 = 33;
    /// Mesh.
    pub const MESH: i32 = super::MESH;
    /// SkinnedMeshRenderer.
    pub const SKINNED_MESH_RENDERER: i32 = 137;
}

pub use super::version::{layouts_that_read, mesh_layouts, version_text};

/// A serialized file of an opened file: the file itself, or one of its bundle's files.
#[derive(Debug, Clone)]
pub struct Inner {
    /// Its name: the bundle's file name (`CAB-...`), or the file's own name.
    pub name: String,
    /// Its index in the bundle's directory (`None` for a serialized file on disk).
    pub node: Option<usize>,
    /// The file.
    pub file: Serialized,
    /// What fitting the Mesh layouts to its meshes found, for a version string that is not a
    /// version (found when first needed).
    pub fit: OnceLock<Fit>,
}

/// One file opened from disk.
#[derive(Debug, Clone)]
pub struct GameFile {
    /// Where it was read.
    pub path: PathBuf,
    /// The bundle, when it is one.
    pub bundle: Option<Bundle>,
    /// Its serialized files (one for a serialized file; those of a bundle).
    pub serialized: Vec<Inner>,
    /// Whether resource files beside it on disk may be read (not for bytes that came from
    /// elsewhere, such as a fuzzer's).
    pub resources_beside: bool,
    /// Resource files held in memory, by name, found before those beside it on disk (a
    /// `.resS` written back with a replaced object, not yet on disk).
    pub resources: Vec<(String, Shared)>,
}

/// Files opened together: references between them resolve, and streamed data is found in
/// any of them.
#[derive(Debug, Clone, Default)]
pub struct GameFiles {
    /// The files.
    pub files: Vec<GameFile>,
    /// Files under a folder that were not game files, and why (files named explicitly must be
    /// game files).
    pub skipped: Vec<(PathBuf, String)>,
    /// Game files under a folder that could not be opened (a file named explicitly that
    /// cannot be opened is an error).
    pub failed: Vec<Located>,
    /// The editor version to read files with whose version string is not a version
    /// (`--unity-version`); a file's own version wins, and must then agree.
    pub unity_version: Option<u32>,
    /// Resource files (`.resS`, `.resource`) found under the folders opened: not game files,
    /// and not skipped either (the serialized files beside them name them).
    pub resource_files: Vec<PathBuf>,
    /// Per mesh, the SkinnedMeshRenderers and MeshFilters that name it (built when first
    /// needed).
    pub(super) drawers: OnceLock<HashMap<ObjectRef, Vec<ObjectRef>>>,
}

/// An object of opened files: file, serialized file, object index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectRef {
    /// The file.
    pub file: usize,
    /// Its serialized file.
    pub inner: usize,
    /// The object's index in that file's object table.
    pub object: usize,
}

/// One line of a listing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Listed {
    /// The file on disk.
    pub file: String,
    /// The serialized file (a bundle's `CAB-...`, or the file's name).
    pub serialized: String,
    /// The object's id.
    pub path_id: i64,
    /// Its class id.
    pub class_id: i32,
    /// Its class name.
    pub class: String,
    /// Its `m_Name`, when it has one (read through its type tree, or for a Mesh by the
    /// fixed layout).
    pub name: Option<String>,
    /// Its size in bytes.
    pub byte_size: u32,
    /// Where it starts in its serialized file.
    pub offset: u64,
}

/// What a Mesh object reads as.
#[derive(Debug, Clone)]
pub struct GameMesh {
    /// The object.
    pub at: ObjectRef,
    /// The editor version its file is read with ([`GameFiles::version`]), when it has one.
    pub version: Option<u32>,
    /// Whether its file is one the editor saved for itself ([`Serialized::editor`]).
    pub editor: bool,
    /// How that version was found.
    pub read_as: Option<FileVersion>,
    /// Whether its file has a type tree for it (the fixed layout was checked against it).
    pub typed: bool,
    /// Its `m_Name` (through its type tree when the fixed layout does not read it).
    pub name: String,
    /// Whether the fixed `unity-mesh` layout of the file's version reads the object (checked
    /// against the type tree when there is one); why not otherwise (offsets in the serialized
    /// file).
    pub fixed: Result<(), Error>,
    /// `m_StreamData`'s range, when the fixed layout reads the mesh and its vertex data is
    /// streamed.
    pub stream: Option<StreamRange>,
    /// How many bind poses it has (0 when the fixed layout does not read it): the renderer's
    /// bones name its joints only when they are as many.
    pub bones: usize,
    /// `m_BoneNameHashes`, the names of joints no renderer names.
    pub bone_hashes: Vec<u32>,
    /// How many submeshes it has: a renderer's materials name them in order.
    pub sub_meshes: usize,
}

impl GameMesh {
    /// The mesh's name.
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// The streamed range, when the vertex data is streamed.
    pub fn stream(&self) -> Option<StreamRange> {
        self.stream.clone()
    }

    /// The fixed layout that reads it, when its version is known.
    pub fn layout(&self) -> Option<mesh::Layout> {
        self.version.map(|version| mesh::Layout {
            version,
            editor: self.editor,
        })
    }
}

/// How an object is chosen on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Select {
    /// Meshes of this `m_Name`.
    MeshName(String),
    /// The object of this path id.
    PathId(i64),
}

fn not_game_file(bytes: &[u8]) -> Error {
    let head: String = bytes
        .iter()
        .take(8)
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ");
    Error::new(
        ErrorKind::Magic,
        0,
        "a Unity game file: a bundle (UnityFS, UnityWeb or UnityRaw: 55 6E 69 74 79 46 53 00, 55 6E 69 74 79 57 65 62 00 or 55 6E 69 74 79 52 61 77 00) or a serialized file of format 5 to 22",
        head,
    )
}

/// How many of a file's first bytes [`is_game_file`] looks at.
pub const HEAD: usize = 20;

/// Whether `head` (a file's first [`HEAD`] bytes, or all of a shorter one) starts a game
/// file [`GameFile::from_bytes`] opens: the one content test every command that looks for game
/// files uses (opening folders, the command line's choice of the game-file form, survey).
pub fn is_game_file(head: &[u8]) -> bool {
    bundle::is_bundle(head) || serialized::looks_serialized(head)
}

/// The layout id of the game file `head` starts (`unity-web`, `unity-bundle`, `unity-serialized`): what a
/// census reads it as when nothing else says.
pub fn container_layout(head: &[u8]) -> Option<&'static str> {
    let id = if super::web::is_web(head) {
        <crate::generated::unity_web::UnityWeb as Root>::ID
    } else if bundle::is_bundle(head) {
        <crate::generated::unity_bundle::UnityBundle as Root>::ID
    } else if serialized::looks_serialized(head) {
        <crate::generated::unity_serialized::UnitySerialized as Root>::ID
    } else {
        return None;
    };
    Some(id)
}

impl GameFile {
    /// Opens one game file from its bytes; `path` is where it came from (for messages and to
    /// find resource files beside it).
    pub fn from_bytes(path: &Path, bytes: &[u8], limits: &Limits) -> Result<GameFile, Located> {
        Self::from_shared(path, Shared::new(bytes.to_vec()), limits)
    }

    /// [`GameFile::from_bytes`] of bytes already owned (a serialized file keeps them, not a
    /// copy). The one choice by content of what kind of game file the bytes are (a new kind
    /// goes here and into [`is_game_file`]).
    pub fn from_shared(path: &Path, bytes: Shared, limits: &Limits) -> Result<GameFile, Located> {
        if bundle::is_bundle(&bytes) {
            return Self::open_bundle(path, &bytes, limits);
        }
        let shown = path.display().to_string();
        if serialized::looks_serialized(&bytes) {
            let file = Serialized::open(bytes).map_err(|e| e.within(&shown))?;
            return Ok(Self::of_serialized(path, file));
        }
        Err(Located::new(shown, not_game_file(&bytes)))
    }

    /// The game file whose container `reading` read (its checks kept what they unpacked:
    /// nothing is read or decompressed again), over the `bytes` it read; `None` when it does
    /// not open (its verdict says why).
    pub fn from_reading(
        path: &Path,
        reading: &mut crate::reading::Reading<'_>,
        bytes: Shared,
    ) -> Option<Result<GameFile, Located>> {
        if let Some(b) = reading.take_kept::<bundle::Unbound>() {
            return Some(Self::of_bundle(path, b.bind(&bytes)));
        }
        let file = reading.take_kept::<serialized::Unbound>()?;
        Some(Ok(Self::of_serialized(path, file.bind(bytes))))
    }

    fn of_serialized(path: &Path, file: Serialized) -> GameFile {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        GameFile {
            path: path.to_path_buf(),
            bundle: None,
            serialized: vec![Inner {
                name,
                node: None,
                file,
                fit: OnceLock::new(),
            }],
            resources_beside: true,
            resources: vec![],
        }
    }

    fn open_bundle(path: &Path, bytes: &Shared, limits: &Limits) -> Result<GameFile, Located> {
        let shown = path.display().to_string();
        let b = Bundle::open(bytes, limits).map_err(|e| e.within(&shown))?;
        Self::of_bundle(path, b)
    }

    fn of_bundle(path: &Path, b: Bundle) -> Result<GameFile, Located> {
        let shown = path.display().to_string();
        let mut serialized = vec![];
        for n in b.nodes() {
            let within = |e: Located| e.within(n.path).within(&shown);
            if n.flags & 4 == 0
                && !serialized::looks_serialized(
                    &b.node_head(n.index, serialized::LOOKS_AT).map_err(within)?,
                )
            {
                continue;
            }
            let file = Serialized::open(b.node_bytes(n.index).map_err(within)?).map_err(within)?;
            serialized.push(Inner {
                name: n.path.to_string(),
                node: Some(n.index),
                file,
                fit: OnceLock::new(),
            });
        }
        if serialized.is_empty() {
            // Objects are in serialized files: a bundle with none read would list nothing,
            // which is no answer about what it holds (UnityWeb and UnityRaw are refused so
            // when they unpack; a UnityFS bundle says it by its flags, so here).
            let e = bundle::no_serialized_file(&b.nodes().map(|n| n.path).collect::<Vec<_>>());
            return Err(Located::new(shown, e));
        }
        Ok(GameFile {
            path: path.to_path_buf(),
            bundle: Some(b),
            serialized,
            resources_beside: true,
            resources: vec![],
        })
    }
}

/// How a file's bytes are brought into memory: [`read_whole`], or a memory map the command
/// line makes (this crate has no unsafe code).
pub type ReadFile = fn(&Path) -> std::io::Result<Shared>;

/// The whole file at `p`, read into fresh memory.
pub fn read_whole(p: &Path) -> std::io::Result<Shared> {
    std::fs::read(p).map(Shared::new)
}

/// Opens one game file from disk with `read`, refusing one of more than `max_input` bytes
/// before reading it.
fn open_file(p: &Path, max_input: u64, read: ReadFile) -> Result<GameFile, Located> {
    let len = std::fs::metadata(p).map_err(|e| io_error(p, &e))?.len();
    if len > max_input {
        return Err(Located::new(
            p.display().to_string(),
            Error::unplaced(
                ErrorKind::Input,
                format!("at most {max_input} bytes (--max-input-size raises the limit)"),
                format!("{len} bytes"),
            ),
        ));
    }
    let bytes = read(p).map_err(|e| io_error(p, &e))?;
    if bytes.len() as u64 > max_input {
        return Err(Located::new(
            p.display().to_string(),
            Error::unplaced(
                ErrorKind::Input,
                format!("at most {max_input} bytes (--max-input-size raises the limit)"),
                format!("{} bytes (the file grew)", bytes.len()),
            ),
        ));
    }
    let limits = Limits::for_input(bytes.len() as u64);
    GameFile::from_shared(p, bytes, &limits)
}

/// The first [`HEAD`] bytes of the file at `p` (fewer for a shorter one).
pub fn head_of(p: &Path) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::fs::File::open(p)?, HEAD as u64),
        &mut head,
    )?;
    Ok(head)
}

/// Whether `p` is named as a player's resource files are (`.resS` streamed data, `.resource`
/// audio and video): the serialized files beside it name it, and it is read when they do.
fn is_resource_file(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ress") || e.eq_ignore_ascii_case("resource"))
}

/// Every file under `dir`, in name order (symbolic links are not followed into folders).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let meta = std::fs::symlink_metadata(&p)?;
        if meta.is_dir() {
            walk(&p, out)?;
        } else if meta.is_file() {
            out.push(p);
        }
    }
    Ok(())
}

impl GameFiles {
    /// Opens the files and folders given. A file named explicitly must be a game file; under a
    /// folder (a whole player build: `level0`, `sharedassets0.assets`, `globalgamemanagers`,
    /// `data.unity3d`, bundles), every game file is opened, found by its content, resource files
    /// are kept in [`GameFiles::resource_files`], and anything else is listed in
    /// [`GameFiles::skipped`].
    pub fn open(paths: &[PathBuf]) -> Result<GameFiles, Located> {
        let mut out = GameFiles::default();
        for p in paths {
            if p.is_dir() {
                out.open_folder(p, u64::MAX, read_whole)?;
            } else {
                out.files.push(open_file(p, u64::MAX, read_whole)?);
            }
        }
        Ok(out)
    }

    /// Opens the files and folders given, each on its own: a file that cannot be opened (one
    /// named explicitly that is not a game file, one larger than `max_input` bytes, one that
    /// cannot be read) is listed in [`GameFiles::failed`] and the others are opened. Files
    /// under a folder that are not game files are skipped, as by [`GameFiles::open`].
    pub fn open_each(paths: &[PathBuf], max_input: u64) -> GameFiles {
        Self::open_each_with(paths, max_input, read_whole)
    }

    /// [`GameFiles::open_each`], each file's bytes brought into memory by `read`.
    pub fn open_each_with(paths: &[PathBuf], max_input: u64, read: ReadFile) -> GameFiles {
        let mut out = GameFiles::default();
        for p in paths {
            if p.is_dir() {
                if let Err(e) = out.open_folder(p, max_input, read) {
                    out.failed.push(e);
                }
            } else {
                match open_file(p, max_input, read) {
                    Ok(g) => out.files.push(g),
                    Err(e) => out.failed.push(e),
                }
            }
        }
        out
    }

    /// Opens every game file under `dir` (failures in [`GameFiles::failed`], other files in
    /// [`GameFiles::skipped`]); an error only when the folder cannot be walked.
    fn open_folder(&mut self, dir: &Path, max_input: u64, read: ReadFile) -> Result<(), Located> {
        let mut found = vec![];
        walk(dir, &mut found).map_err(|e| io_error(dir, &e))?;
        for f in found {
            let n = head_of(&f).map_err(|e| io_error(&f, &e));
            let game = n.as_ref().is_ok_and(|h| is_game_file(h));
            if n.is_ok() && !game {
                if is_resource_file(&f) {
                    self.resource_files.push(f);
                } else {
                    self.skipped
                        .push((f, "not a bundle or a serialized file".into()));
                }
                continue;
            }
            match n.and_then(|_| open_file(&f, max_input, read)) {
                Ok(g) => self.files.push(g),
                Err(e) => self.failed.push(e),
            }
        }
        Ok(())
    }

    /// Files opened from bytes already read (tests, fuzzing).
    pub fn from_files(files: Vec<GameFile>) -> GameFiles {
        GameFiles {
            files,
            ..GameFiles::default()
        }
    }

    /// The serialized file an object is in.
    pub fn serialized(&self, r: ObjectRef) -> &Serialized {
        &self.files[r.file].serialized[r.inner].file
    }

    /// The object's entry.
    pub fn entry(&self, r: ObjectRef) -> &ObjectEntry {
        &self.serialized(r).objects[r.object]
    }

    /// The object's bytes.
    pub fn bytes(&self, r: ObjectRef) -> &[u8] {
        let s = self.serialized(r);
        s.bytes(&s.objects[r.object])
    }

    /// A short name for each opened file that tells them apart: its path below the folder
    /// all of them share, `/` made `_` (empty when only one file is open).
    pub fn labels(&self) -> Vec<String> {
        if self.files.len() < 2 {
            return vec![String::new(); self.files.len()];
        }
        let parts: Vec<Vec<String>> = self
            .files
            .iter()
            .map(|f| {
                f.path
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect()
            })
            .collect();
        let common = (0..)
            .take_while(|&k| {
                parts[0]
                    .get(k)
                    .is_some_and(|c| parts.iter().all(|p| p.get(k) == Some(c)))
                    && parts.iter().all(|p| p.len() > k + 1)
            })
            .count();
        parts.iter().map(|p| p[common..].join("_")).collect()
    }

    /// Where the object is: the file on disk and, inside a bundle, its serialized file.
    pub fn place(&self, r: ObjectRef) -> String {
        let f = &self.files[r.file];
        let disk = f.path.display().to_string();
        if f.bundle.is_some() {
            format!("{disk}/{}", f.serialized[r.inner].name)
        } else {
            disk
        }
    }

    /// Every object, file by file, in table order.
    pub fn objects(&self) -> Vec<ObjectRef> {
        let mut out = vec![];
        for (file, f) in self.files.iter().enumerate() {
            for (inner, s) in f.serialized.iter().enumerate() {
                for object in 0..s.file.objects.len() {
                    out.push(ObjectRef {
                        file,
                        inner,
                        object,
                    });
                }
            }
        }
        out
    }

    /// Every Mesh object.
    pub fn meshes(&self) -> Vec<ObjectRef> {
        self.objects()
            .into_iter()
            .filter(|&r| self.entry(r).class_id == MESH)
            .collect()
    }

    /// An object's `m_Name`: through its type tree, or for a Mesh by the fixed layout of
    /// its file's version; `None` when it has none or it cannot be read.
    pub fn name(&self, r: ObjectRef) -> Option<String> {
        let s = self.serialized(r);
        let o = &s.objects[r.object];
        if s.tree(o).is_some() {
            let v = s.peek(o, "m_Name").ok()??;
            return v.bytes().map(|b| String::from_utf8_lossy(b).into_owned());
        }
        match o.class_id {
            MESH if s.editor => self
                .read_mesh(r)
                .ok()
                .filter(|(m, _)| m.fixed.is_ok())
                .map(|(m, _)| m.name),
            MESH => player_mesh_name(s, o),
            _ => None,
        }
    }

    /// The listing of every object (or of one class).
    pub fn list(&self, class_name: Option<&str>) -> Vec<Listed> {
        let mut out = vec![];
        for r in self.objects() {
            let s = self.serialized(r);
            let o = &s.objects[r.object];
            let class = s.class_name(o);
            if class_name.is_some_and(|c| !c.eq_ignore_ascii_case(&class)) {
                continue;
            }
            out.push(Listed {
                file: self.files[r.file].path.display().to_string(),
                serialized: self.files[r.file].serialized[r.inner].name.clone(),
                path_id: o.path_id,
                class_id: o.class_id,
                class,
                name: self.name(r),
                byte_size: o.size,
                offset: o.offset,
            });
        }
        out
    }

    /// The objects a selection names (`--mesh NAME`: every Mesh of that name; `--path-id N`:
    /// the object of that id, in every file that has one).
    pub fn select(&self, sel: &Select) -> Vec<ObjectRef> {
        match sel {
            Select::PathId(id) => self
                .objects()
                .into_iter()
                .filter(|&r| self.entry(r).path_id == *id)
                .collect(),
            Select::MeshName(n) => self
                .meshes()
                .into_iter()
                .filter(|&r| self.name(r).as_deref() == Some(n.as_str()))
                .collect(),
        }
    }

    /// Reads a Mesh object: through its type tree when the file has one (the fixed layout
    /// of the file's version is then checked against it), else by the fixed layout
    /// ([`GameMesh::fixed`] says why when it does not read). Refused for an object that is no
    /// Mesh, one whose type tree does not read it, and one without a type tree in a file whose
    /// version cannot be known.
    pub fn mesh(&self, r: ObjectRef) -> Result<GameMesh, Located> {
        self.read_mesh(r).map(|(m, _)| m)
    }

    /// [`GameFiles::mesh`], with the one reading of the object by the fixed layout of its
    /// file's version (when the version is known and the file little endian), which its
    /// input's verdict and decoding then use.
    pub(crate) fn read_mesh(
        &self,
        r: ObjectRef,
    ) -> Result<(GameMesh, Option<TypedReading<'_, UnityMesh>>), Located> {
        let place = self.place(r);
        let s = self.serialized(r);
        let o = &s.objects[r.object];
        if o.class_id != MESH {
            return Err(Located::new(
                place,
                Error::new(
                    ErrorKind::Input,
                    o.offset,
                    "a Mesh (class 43)",
                    format!(
                        "{} (class {}), path id {}",
                        s.class_name(o),
                        o.class_id,
                        o.path_id
                    ),
                ),
            ));
        }
        let read_as = self.version(r);
        let version = read_as
            .as_ref()
            .map(|v| v.number)
            .map_err(|e| (*e.error).clone());
        let read_as = read_as.ok();
        let bytes = s.bytes(o);
        let trees = s.trees_of(o);
        if trees.is_none() {
            if let Err(e) = &version {
                return Err(Located::new(place, e.clone()));
            }
            if s.big_endian {
                return Err(Located::new(
                    place,
                    super::unsupported(
                        o.offset,
                        "a type tree, or a little-endian file (the unity-mesh layout is little endian)",
                        "a big-endian file without type trees",
                    ),
                ));
            }
        }
        let layout = version.as_ref().ok().map(|&version| mesh::Layout {
            version,
            editor: s.editor,
        });
        let reading = match layout {
            Some(l) if !s.big_endian => {
                Some(TypedReading::<UnityMesh>::new(bytes, &mesh::context(l)))
            }
            _ => None,
        };
        let (fixed, name) = match (&trees, &reading, &version) {
            (Some(trees), _, _) => {
                let value = s.read(o).map_err(|e| Located::new(place.clone(), e))?;
                let name = match value.field(trees, "m_Name").map(|n| &n.data) {
                    Some(super::typetree::Data::Text(t)) => String::from_utf8_lossy(t).into_owned(),
                    _ => String::new(),
                };
                let fixed = match (&reading, layout, &version) {
                    (Some(read), Some(l), _) => {
                        mesh::check_fixed_layout(read, l, &value, trees, o.offset)
                    }
                    (_, _, Err(e)) => Err(e.clone()),
                    _ => Err(super::unsupported(
                        o.offset,
                        "a little-endian file (the unity-mesh layout is little endian)",
                        "a big-endian one",
                    )),
                };
                (fixed, name)
            }
            (None, Some(read), _) => match read.read() {
                Ok(read) => (Ok(()), read.view.name.value.to_string()),
                Err(e) => (
                    Err(e.clone().shifted(o.offset)),
                    player_mesh_name(s, o).unwrap_or_default(),
                ),
            },
            // (An untyped Mesh without a version or in a big-endian file was refused above.)
            (None, None, _) => (
                Err(super::unsupported(o.offset, "a readable Mesh", "none")),
                String::new(),
            ),
        };
        let view = reading
            .as_ref()
            .filter(|_| fixed.is_ok())
            .and_then(|t| t.read().ok())
            .map(|read| &read.view);
        let m = GameMesh {
            at: r,
            version: version.ok(),
            editor: s.editor,
            read_as,
            typed: trees.is_some(),
            name,
            fixed,
            stream: view.and_then(crate::unity::stream::range),
            bones: view.map_or(0, |v| {
                v.bind_poses
                    .as_ref()
                    .or(v.bind_poses_after_skin.as_ref())
                    .map_or(0, Vec::len)
            }),
            bone_hashes: view
                .and_then(|v| v.bone_name_hashes.as_ref())
                .map(|h| h.iter().collect())
                .unwrap_or_default(),
            sub_meshes: view.map_or(0, |v| v.sub_meshes.len()),
        };
        Ok((m, reading))
    }
}

impl GameFiles {
    /// The editor version the objects of `r`'s serialized file are read with: the file's own
    /// (and [`GameFiles::unity_version`] must then agree), or for a version string that is not
    /// a version, [`GameFiles::unity_version`], or else the one range of Mesh layouts that
    /// reads every Mesh of the file exactly ([`version::fit`], found once per file).
    pub fn version(&self, r: ObjectRef) -> Result<FileVersion, Located> {
        let inner = &self.files[r.file].serialized[r.inner];
        version::of(&inner.file, self.unity_version, || {
            inner.fit.get_or_init(|| version::fit(&inner.file)).clone()
        })
        .map_err(|e| Located::new(self.place(r), e))
    }
}

/// The `m_Name` of a player's Mesh `o` without its whole reading: the first field of every
/// player's Mesh layout, whatever the version (an editor's object starts with its editor-only
/// fields, and is read whole). `None` for an editor's file, a big-endian one, and a name that
/// does not read.
fn player_mesh_name(s: &Serialized, o: &ObjectEntry) -> Option<String> {
    if s.editor || s.big_endian {
        return None;
    }
    let mut input = crate::rt::Input::new(s.bytes(o));
    let (name, _) = AlignedString::read_in::<false>(&mut input, ()).ok()?;
    Some(name.value.to_string())
}

fn io_error(p: &Path, e: &std::io::Error) -> Located {
    Located::new(
        p.display().to_string(),
        Error::unplaced(ErrorKind::Io, "a readable file or folder", e.to_string()),
    )
}

impl Located {
    /// For a Mesh the fixed layout could not read: says which known layouts (of an editor's
    /// object when `editor`) read its bytes exactly, if any, or else which read them as the
    /// other kind of object (a player's, an editor's).
    pub fn with_layouts_hint(mut self, bytes: &[u8], editor: bool) -> Self {
        let fits = layouts_that_read(bytes, editor);
        let hint = if !fits.is_empty() {
            format!(
                "the layouts that read these bytes exactly: {}",
                fits.join(", ")
            )
        } else {
            let other = layouts_that_read(bytes, !editor);
            let (read, other_kind) = if editor {
                ("an editor's", "a player's object (without --unity-editor)")
            } else {
                ("a player's", "an editor's object (--unity-editor)")
            };
            if other.is_empty() {
                "no known unity-mesh layout reads these bytes exactly".to_string()
            } else {
                format!(
                    "no known unity-mesh layout of {read} object reads these bytes exactly; as {other_kind}: {}",
                    other.join(", ")
                )
            }
        };
        self.error.expected = format!("{} ({hint})", self.error.expected);
        self
    }
}
