//! Opened game files and the objects in them: listing, selecting, reading a Mesh (with its
//! streamed data), and naming a mesh's joints and materials from the renderers that draw it.

use super::bundle::{self, Bundle};
use super::compress::Limits;
use super::mesh::{self, MESH};
use super::serialized::{self, ObjectEntry, Serialized};
use super::typetree::{Trees, Value};
use super::{resource, Located, Shared};
use crate::context::Context;
use crate::generated::unity_mesh::UnityMesh;
use crate::layouts::Decoded;
use crate::rt::{Error, ErrorKind, Place, Root, Severity};
use crate::scene::Scene;
use crate::unity::decode::SceneOptions;
use crate::unity::stream::StreamRange;
use crate::verdict::Verdict;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

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

/// An editor version as the specs compare it (20210300), shown as `2021.3.0`.
pub fn version_text(v: u32) -> String {
    format!("{}.{}.{}", v / 10_000, v / 100 % 100, v % 100)
}

/// A serialized file of an opened file: the file itself, or one of its bundle's files.
#[derive(Debug, Clone)]
pub struct Inner {
    /// Its name: the bundle's file name (`CAB-...`), or the file's own name.
    pub name: String,
    /// Its index in the bundle's directory (`None` for a serialized file on disk).
    pub node: Option<usize>,
    /// The file.
    pub file: Serialized,
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
    /// Per mesh, the SkinnedMeshRenderers and MeshFilters that name it (built when first
    /// needed).
    drawers: std::sync::OnceLock<HashMap<ObjectRef, Vec<ObjectRef>>>,
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
    /// The editor version of its file, when the file's version text is a version.
    pub version: Option<u32>,
    /// Whether its file has a type tree for it (the fixed layout was checked against it).
    pub typed: bool,
    /// Its `m_Name` (through its type tree when the fixed layout does not read it).
    pub name: String,
    /// The fixed `unity-mesh` layout of the file's version, checked against the type tree
    /// when there is one.
    pub fixed: Result<UnityMesh, Error>,
    /// `m_StreamData`'s range, when the fixed layout reads the mesh and its vertex data is
    /// streamed.
    pub stream: Option<StreamRange>,
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
}

/// Names for a mesh's joints and submeshes, from the renderer that draws it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Per bind pose, the bone's GameObject name (empty when no renderer was found).
    pub joints: Vec<String>,
    /// Per submesh, the material's name.
    pub materials: Vec<String>,
    /// What could not be named, and why.
    pub notes: Vec<String>,
}

/// How an object is chosen on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Select {
    /// Meshes of this `m_Name`.
    MeshName(String),
    /// The object of this path id.
    PathId(i64),
}

/// Whether `head`, a file's first bytes (20 are enough), starts like a game file: a bundle of
/// any container, or a serialized file.
pub fn looks_game_file(head: &[u8]) -> bool {
    bundle::is_bundle(head) || serialized::looks_serialized(head)
}

/// The bytes [`looks_game_file`] needs.
const HEAD: usize = 20;

/// The first [`HEAD`] bytes of the file at `p` (fewer for a shorter file).
fn head(p: &Path) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::fs::File::open(p)?, HEAD as u64),
        &mut head,
    )?;
    Ok(head)
}

/// Whether the file at `p` starts like a game file (not when it cannot be read).
pub fn file_looks_game(p: &Path) -> bool {
    head(p).is_ok_and(|h| looks_game_file(&h))
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
        "a Unity game file: a bundle (UnityFS, UnityWeb or UnityRaw: 55 6E 69 74 79 46 53 00, 55 6E 69 74 79 57 65 62 00 or 55 6E 69 74 79 52 61 77 00) or a serialized file of format 9 to 22",
        head,
    )
}

impl GameFile {
    /// Opens one game file from its bytes; `path` is where it came from (for messages and to
    /// find resource files beside it).
    pub fn from_bytes(path: &Path, bytes: &[u8], limits: &Limits) -> Result<GameFile, Located> {
        let shown = path.display().to_string();
        if bundle::is_bundle(bytes) {
            let b = Bundle::open(bytes, limits).map_err(|e| e.within(&shown))?;
            let mut serialized = vec![];
            for n in b.nodes() {
                if n.flags & 4 == 0 && !serialized::looks_serialized(n.bytes) {
                    continue;
                }
                let file = Serialized::open(b.node_bytes(n.index))
                    .map_err(|e| e.within(n.path).within(&shown))?;
                serialized.push(Inner {
                    name: n.path.to_string(),
                    node: Some(n.index),
                    file,
                });
            }
            return Ok(GameFile {
                path: path.to_path_buf(),
                bundle: Some(b),
                serialized,
                resources_beside: true,
                resources: vec![],
            });
        }
        if serialized::looks_serialized(bytes) {
            let file =
                Serialized::open(Shared::new(bytes.to_vec())).map_err(|e| e.within(&shown))?;
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            return Ok(GameFile {
                path: path.to_path_buf(),
                bundle: None,
                serialized: vec![Inner {
                    name,
                    node: None,
                    file,
                }],
                resources_beside: true,
                resources: vec![],
            });
        }
        Err(Located::new(shown, not_game_file(bytes)))
    }
}

/// Opens one game file from disk, refusing one of more than `max_input` bytes before reading
/// it.
fn open_file(p: &Path, max_input: u64) -> Result<GameFile, Located> {
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
    let bytes = std::fs::read(p).map_err(|e| io_error(p, &e))?;
    GameFile::from_bytes(p, &bytes, &Limits::for_input(bytes.len() as u64))
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
    /// folder, files that are not (resource files, anything else) are skipped and listed in
    /// [`GameFiles::skipped`].
    pub fn open(paths: &[PathBuf]) -> Result<GameFiles, Located> {
        let mut out = GameFiles::default();
        for p in paths {
            if p.is_dir() {
                out.open_folder(p, u64::MAX)?;
            } else {
                out.files.push(open_file(p, u64::MAX)?);
            }
        }
        Ok(out)
    }

    /// Opens the files and folders given, each on its own: a file that cannot be opened (one
    /// named explicitly that is not a game file, one larger than `max_input` bytes, one that
    /// cannot be read) is listed in [`GameFiles::failed`] and the others are opened. Files
    /// under a folder that are not game files are skipped, as by [`GameFiles::open`].
    pub fn open_each(paths: &[PathBuf], max_input: u64) -> GameFiles {
        let mut out = GameFiles::default();
        for p in paths {
            if p.is_dir() {
                if let Err(e) = out.open_folder(p, max_input) {
                    out.failed.push(e);
                }
            } else {
                match open_file(p, max_input) {
                    Ok(g) => out.files.push(g),
                    Err(e) => out.failed.push(e),
                }
            }
        }
        out
    }

    /// Opens every game file under `dir` (failures in [`GameFiles::failed`], other files in
    /// [`GameFiles::skipped`]); an error only when the folder cannot be walked.
    fn open_folder(&mut self, dir: &Path, max_input: u64) -> Result<(), Located> {
        let mut found = vec![];
        walk(dir, &mut found).map_err(|e| io_error(dir, &e))?;
        for f in found {
            let n = head(&f).map_err(|e| io_error(&f, &e));
            let game = n.as_ref().is_ok_and(|h| looks_game_file(h));
            if n.is_ok() && !game {
                self.skipped
                    .push((f, "not a bundle or a serialized file".into()));
                continue;
            }
            match n.and_then(|_| open_file(&f, max_input)) {
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
        if o.class_id == MESH {
            // m_Name is the first field of every Mesh layout: a length and the text.
            let b = s.bytes(o);
            let n = u32::from_le_bytes(b.get(..4)?.try_into().ok()?) as usize;
            return b
                .get(4..4usize.checked_add(n)?)
                .map(|t| String::from_utf8_lossy(t).into_owned());
        }
        None
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
    /// of the file's version is then checked against it), else by the fixed layout.
    pub fn mesh(&self, r: ObjectRef) -> Result<GameMesh, Located> {
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
        let version = s.unity_version();
        let bytes = s.bytes(o);
        match s.trees_of(o) {
            Some(trees) => {
                let value = s.read(o).map_err(|e| Located::new(place.clone(), e))?;
                let name = match value.field(&trees, "m_Name").map(|n| &n.data) {
                    Some(super::typetree::Data::Text(t)) => String::from_utf8_lossy(t).into_owned(),
                    _ => String::new(),
                };
                let fixed = match &version {
                    Ok(v) if !s.big_endian => {
                        mesh::check_fixed_layout(bytes, *v, &value, &trees, o.offset)
                    }
                    Ok(_) => Err(super::unsupported(
                        o.offset,
                        "a little-endian file (the unity-mesh layout is little endian)",
                        "a big-endian one",
                    )),
                    Err(e) => Err(e.clone()),
                };
                Ok(GameMesh {
                    at: r,
                    stream: stream_of(bytes, version.as_ref().ok(), &fixed),
                    version: version.ok(),
                    typed: true,
                    name,
                    fixed,
                })
            }
            None => {
                let v = version.map_err(|e| Located::new(place.clone(), e))?;
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
                let fixed = mesh::read_fixed(bytes, v)
                    .map(|(m, _)| m)
                    .map_err(|e| e.shifted(o.offset));
                if let Err(e) = &fixed {
                    return Err(Located::new(place, e.clone()));
                }
                Ok(GameMesh {
                    at: r,
                    version: Some(v),
                    typed: false,
                    name: fixed
                        .as_ref()
                        .map(|m| m.name.value.clone())
                        .unwrap_or_default(),
                    stream: stream_of(bytes, Some(&v), &fixed),
                    fixed,
                })
            }
        }
    }

    /// The bytes of a mesh's streamed range (`explicit`: a resource file given by the user).
    pub fn streamed(
        &self,
        m: &GameMesh,
        explicit: Option<&Path>,
    ) -> Result<Option<std::borrow::Cow<'_, [u8]>>, Located> {
        let Some(range) = m.stream() else {
            return Ok(None);
        };
        resource::bytes(self, m.at.file, &range, explicit)
            .map(Some)
            .map_err(|e| e.within(&self.place(m.at)))
    }

    /// The context the `unity-mesh` layout reads a mesh of this file with: the user's
    /// (`--ress` as [`Context::resource`], how relations count, `--strict`), with the file's
    /// version and the file as input (for streamed data beside it).
    pub fn context(&self, m: &GameMesh, user: &Context) -> Context {
        let mut ctx = user.clone();
        if let Some(v) = m.version {
            ctx = ctx.with_param("unity_version", i128::from(v));
        }
        let f = &self.files[m.at.file];
        // Resource files held in memory replace those beside the file on disk.
        if f.resources.is_empty() {
            ctx.input = Some(f.path.clone());
        }
        ctx
    }

    /// The one verdict on a mesh of a game file: its type tree reads it (done by
    /// [`GameFiles::mesh`]), the fixed layout of its file's version reads it and agrees (else
    /// the mesh is refused, with the layouts that would read it), the verdict of `unity-mesh`
    /// on its bytes, and its streamed range checked against the resource file this module
    /// finds (in a bundle, beside the file, or `explicit`). Offsets are in the mesh's
    /// serialized file (those in a resource file say so). `user` is what the user said
    /// (`--ress`, `--relations`, `--strict`).
    pub fn verdict(&self, m: &GameMesh, user: &Context) -> Result<Verdict, Located> {
        let place = self.place(m.at);
        m.fixed.as_ref().map_err(|e| {
            Located::new(place.clone(), e.clone()).with_layouts_hint(self.bytes(m.at))
        })?;
        let entry = crate::layouts::find("unity-mesh").expect("the unity-mesh layout exists");
        let at = self.entry(m.at).offset;
        let shift = |e: Error| {
            if e.resource.is_some() {
                e
            } else {
                e.shifted(at)
            }
        };
        let mut ctx = self.context(m, user);
        if m.stream().is_some() {
            // Found here, in whichever file holds it (a bundle's resource file is not on
            // disk, and one of the same name beside the bundle is not it): the mesh layout's
            // own search beside the input does not apply.
            ctx.input = None;
        }
        let mut v = entry.judge(self.bytes(m.at), &ctx);
        v.refused = v.refused.map(shift);
        if m.stream().is_some() {
            v.findings.retain(|f| f.kind != ErrorKind::Unchecked);
            if let Err(e) = self.streamed(m, user.resource.as_deref()) {
                let e = *e.error;
                v.findings.push(match e.kind {
                    ErrorKind::Unchecked => e.with_severity(Severity::Warning),
                    _ => e,
                });
            }
        }
        v.findings = v.findings.into_iter().map(shift).collect();
        Ok(v)
    }

    /// A mesh decoded (the joints and materials named from its renderer), when its
    /// [`GameFiles::verdict`] passes; refused with the verdict's first failure otherwise.
    pub fn decode(&self, m: &GameMesh, user: &Context) -> Result<Decoded, Located> {
        let verdict = self.verdict(m, user)?;
        if let Some(e) = verdict.first_failure() {
            return Err(Located::new(self.place(m.at), e.clone()));
        }
        let scene = self.scene_unjudged(m, user)?;
        Ok(Decoded { scene, verdict })
    }

    /// [`GameFiles::decode`]'s scene alone.
    pub fn scene(&self, m: &GameMesh, user: &Context) -> Result<Scene, Located> {
        self.decode(m, user).map(|d| d.scene)
    }

    /// The mesh in the common model, with its joints and materials named from its renderer
    /// (for a mesh whose verdict passed).
    fn scene_unjudged(&self, m: &GameMesh, user: &Context) -> Result<Scene, Located> {
        let place = self.place(m.at);
        let located = |e: Error| Located::new(place.clone(), e);
        let v = m.version.unwrap_or(0);
        let names = self.names(m);
        let streamed = self.streamed(m, user.resource.as_deref())?;
        let read = UnityMesh::read::<true>(self.bytes(m.at), &mesh::context(v)).map_err(located)?;
        let pos = read.pos.unwrap_or_default();
        let view = &read.value;
        let vertex_bytes = streamed.as_deref().unwrap_or(view.vertex_data.data.data);
        let opts = SceneOptions {
            skin_weights: user.skin_weights,
            joint_names: names.joints,
            material_names: if names.materials.len() == view.sub_meshes.len() {
                names.materials
            } else {
                vec![]
            },
        };
        let at = Place::root(&pos, <UnityMesh as Root>::ROOT);
        let mut scene = crate::unity::scene_of(view, &at, vertex_bytes, &opts).map_err(located)?;
        let mut notes = names.notes;
        notes.append(&mut scene.notes);
        scene.notes = notes;
        Ok(scene)
    }

    /// Resolves a reference (`m_FileID`, `m_PathID`) made by an object of `from`.
    pub fn resolve(&self, from: ObjectRef, file_id: i128, path_id: i128) -> Option<ObjectRef> {
        let path_id = i64::try_from(path_id).ok()?;
        if file_id == 0 {
            let s = self.serialized(from);
            let o = s.object(path_id)?;
            return Some(ObjectRef {
                object: o.index,
                ..from
            });
        }
        let k = usize::try_from(file_id - 1).ok()?;
        let ext = self.serialized(from).externals.get(k)?;
        let base = ext.rsplit(['/', '\\', ':']).next()?;
        for (file, f) in self.files.iter().enumerate() {
            for (inner, s) in f.serialized.iter().enumerate() {
                if s.name.eq_ignore_ascii_case(base) {
                    if let Some(o) = s.file.object(path_id) {
                        return Some(ObjectRef {
                            file,
                            inner,
                            object: o.index,
                        });
                    }
                }
            }
        }
        None
    }

    /// Reads an object through its type tree, if it has one and reads.
    fn value(&self, r: ObjectRef) -> Option<(Value<'_>, Trees<'_>)> {
        let s = self.serialized(r);
        let o = &s.objects[r.object];
        let trees = s.trees_of(o)?;
        let v = s.read(o).ok()?;
        Some((v, trees))
    }

    /// A reference field (`PPtr`) of a value, resolved.
    fn pptr(&self, from: ObjectRef, v: &Value, trees: &Trees) -> Option<ObjectRef> {
        let file_id = v.field(trees, "m_FileID")?.int()?;
        let path_id = v.field(trees, "m_PathID")?.int()?;
        self.resolve(from, file_id, path_id)
    }

    /// The name of the GameObject a component (a Transform, a renderer) belongs to.
    fn game_object_name(&self, component: ObjectRef) -> Option<String> {
        let (v, trees) = self.value(component)?;
        let go = self.pptr(component, v.field(&trees, "m_GameObject")?, &trees)?;
        self.name(go)
    }

    /// Names for a mesh's joints and materials from the renderer that draws it: a
    /// SkinnedMeshRenderer whose m_Mesh is the mesh and whose bones match its bind poses
    /// (bone i: m_Bones[i] -> Transform -> GameObject name), else a MeshFilter's MeshRenderer
    /// for materials. Joints without a renderer are `bone i` with the bone's name hash.
    pub fn names(&self, m: &GameMesh) -> Names {
        let mut names = Names::default();
        let (bones, hashes) = match &m.fixed {
            Ok(f) => (
                f.bind_poses
                    .as_ref()
                    .or(f.bind_poses_after_skin.as_ref())
                    .map_or(0, Vec::len),
                f.bone_name_hashes.clone().unwrap_or_default(),
            ),
            Err(_) => (0, vec![]),
        };
        let mut renderer_materials: Option<(ObjectRef, Vec<Option<String>>)> = None;
        let mut joints: Option<Vec<String>> = None;
        let drawers = self.drawers().get(&m.at).cloned().unwrap_or_default();
        for r in drawers {
            let c = self.entry(r).class_id;
            let Some((v, trees)) = self.value(r) else {
                continue;
            };
            if c == class::SKINNED_MESH_RENDERER {
                if joints.is_none() {
                    if let Some(list) = v.field(&trees, "m_Bones").and_then(|b| b.items()) {
                        if list.len() == bones && bones > 0 {
                            let named: Vec<String> = list
                                .iter()
                                .enumerate()
                                .map(|(i, b)| {
                                    self.pptr(r, b, &trees)
                                        .and_then(|t| self.game_object_name(t))
                                        .unwrap_or_else(|| bone_fallback(i, &hashes))
                                })
                                .collect();
                            joints = Some(named);
                        } else if bones > 0 {
                            names.notes.push(format!(
                                "the SkinnedMeshRenderer (path id {}) has {} bones for {bones} bind poses: joints are named by their index",
                                self.entry(r).path_id,
                                list.len()
                            ));
                        }
                    }
                }
                if renderer_materials.is_none() {
                    renderer_materials = Some((r, self.materials(r, &v, &trees)));
                }
            } else if renderer_materials.is_none() {
                // A MeshFilter: the MeshRenderer on the same GameObject draws it.
                let go = v
                    .field(&trees, "m_GameObject")
                    .and_then(|g| self.pptr(r, g, &trees));
                for mr in self.objects() {
                    if self.entry(mr).class_id != class::MESH_RENDERER
                        || mr.file != r.file
                        || mr.inner != r.inner
                    {
                        continue;
                    }
                    let Some((mv, mt)) = self.value(mr) else {
                        continue;
                    };
                    let same = mv
                        .field(&mt, "m_GameObject")
                        .and_then(|g| self.pptr(mr, g, &mt))
                        .is_some_and(|g| Some(g) == go);
                    if same {
                        renderer_materials = Some((mr, self.materials(mr, &mv, &mt)));
                        break;
                    }
                }
            }
        }
        names.joints = match joints {
            Some(j) => j,
            None if bones > 0 => {
                names.notes.push(format!(
                    "mesh `{}`: no SkinnedMeshRenderer of the opened files draws it: joints are named `bone i` with their name hash",
                    m.name().escape_debug()
                ));
                (0..bones).map(|i| bone_fallback(i, &hashes)).collect()
            }
            None => vec![],
        };
        if let Some((_, mats)) = renderer_materials {
            let subs = self.submesh_count(m);
            names.materials = (0..subs)
                .map(|i| {
                    mats.get(i)
                        .cloned()
                        .flatten()
                        .unwrap_or_else(|| format!("submesh {i}"))
                })
                .collect();
        }
        names
    }

    /// Per mesh, the SkinnedMeshRenderers and MeshFilters whose m_Mesh names it.
    fn drawers(&self) -> &HashMap<ObjectRef, Vec<ObjectRef>> {
        self.drawers.get_or_init(|| {
            let mut map: HashMap<ObjectRef, Vec<ObjectRef>> = HashMap::new();
            for r in self.objects() {
                let c = self.entry(r).class_id;
                if c != class::SKINNED_MESH_RENDERER && c != class::MESH_FILTER {
                    continue;
                }
                let Some((v, trees)) = self.value(r) else {
                    continue;
                };
                if let Some(mesh) = v
                    .field(&trees, "m_Mesh")
                    .and_then(|p| self.pptr(r, p, &trees))
                {
                    map.entry(mesh).or_default().push(r);
                }
            }
            map
        })
    }

    fn submesh_count(&self, m: &GameMesh) -> usize {
        m.fixed.as_ref().map_or(0, |f| f.sub_meshes.len())
    }

    /// A renderer's material names (`None` for a material not in the opened files).
    fn materials(&self, r: ObjectRef, v: &Value, trees: &Trees) -> Vec<Option<String>> {
        v.field(trees, "m_Materials")
            .and_then(|m| m.items())
            .map(|list| {
                list.iter()
                    .map(|p| self.pptr(r, p, trees).and_then(|mat| self.name(mat)))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// `bone i` with its `m_BoneNameHashes` value, when the mesh has one.
fn bone_fallback(i: usize, hashes: &[u32]) -> String {
    match hashes.get(i) {
        Some(h) => format!("bone {i} (name hash 0x{h:08X})"),
        None => format!("bone {i}"),
    }
}

fn io_error(p: &Path, e: &std::io::Error) -> Located {
    Located::new(
        p.display().to_string(),
        Error::unplaced(ErrorKind::Io, "a readable file or folder", e.to_string()),
    )
}

impl Located {
    /// For a Mesh the fixed layout could not read: says which known layouts read its bytes
    /// exactly, if any.
    pub fn with_layouts_hint(mut self, bytes: &[u8]) -> Self {
        let fits = layouts_that_read(bytes);
        self.error.expected = format!(
            "{} ({})",
            self.error.expected,
            if fits.is_empty() {
                "no known unity-mesh layout reads these bytes exactly".to_string()
            } else {
                format!(
                    "the layouts that read these bytes exactly: {}",
                    fits.join(", ")
                )
            }
        );
        self
    }
}

/// The Mesh layouts the `unity-mesh` spec describes: the first editor version of each (the
/// oldest the spec describes, then every version the spec compares `unity_version` with), and
/// the versions it covers in words ("2017.3 to 2017.4").
pub fn mesh_layouts() -> Vec<(u32, String)> {
    use crate::generated::unity_mesh::UnityMesh;
    use crate::rt::Root;
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

/// The known Mesh layouts that read `bytes` exactly (to their end), with every relation of
/// `unity-mesh` holding.
pub fn layouts_that_read(bytes: &[u8]) -> Vec<String> {
    let entry = crate::layouts::find("unity-mesh").expect("the unity-mesh layout exists");
    mesh_layouts()
        .into_iter()
        .filter(|(v, _)| {
            let verdict = entry.judge(bytes, &mesh::context(*v));
            verdict.refused.is_none()
                && verdict
                    .findings
                    .iter()
                    .all(|f| f.kind == ErrorKind::Unchecked)
        })
        .map(|(v, text)| format!("{text} (--unity-version {})", version_text(v)))
        .collect()
}

/// The streamed range of a mesh the fixed layout of `version` reads (`fixed`).
fn stream_of(
    bytes: &[u8],
    version: Option<&u32>,
    fixed: &Result<UnityMesh, Error>,
) -> Option<StreamRange> {
    let v = *version?;
    fixed.as_ref().ok()?;
    let read = UnityMesh::read::<false>(bytes, &mesh::context(v)).ok()?;
    crate::unity::stream::range(&read.value)
}
