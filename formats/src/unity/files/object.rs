//! One object of opened game files as an input of its layout (our issue 25): its bytes, the
//! context its layout reads it with (the editor version of its file, the resource files around
//! it, what the user said) and where it lies in its serialized file. It is judged, decoded,
//! walked and surveyed through the same reading as a bare object ([`crate::reading::Reading`]) (`meshspec check
//! unity-mesh FILE --unity-version ...`), with offsets in its serialized file; what a game file
//! adds is said once here: the check of the fixed layout against the object's type tree, the
//! version note of a file whose version string is not a version, and the names of a mesh's
//! joints and materials ([`super::names`]), a lookup applied to the decoded scene.

use super::game::{GameFiles, GameMesh, ObjectRef};
use super::mesh::MESH;
use super::version::MESH_LAYOUT;
use super::{resource, Located};
use crate::context::Context;
use crate::meaning::Decoded;
use crate::reading::Reading;
use crate::reading::WalkFn;
use crate::rt::{Error, Visitor};
use crate::verdict::Verdict;
use std::borrow::Cow;

/// The layout id of objects of class `class_id`, when the specs describe one (a Mesh's).
pub fn layout_of(class_id: i32) -> Option<&'static str> {
    match class_id {
        MESH => Some(MESH_LAYOUT),
        _ => None,
    }
}

/// One object as an input of its layout.
#[derive(Debug)]
pub struct ObjectInput<'g> {
    /// The object.
    pub at: ObjectRef,
    /// Its layout's id (in the table of layouts, [`crate::layouts::find`]).
    pub layout: &'static str,
    /// Its bytes.
    pub bytes: &'g [u8],
    /// What its layout reads it with: the user's options, its file's editor version, the
    /// resource files around it.
    pub ctx: Context,
    /// Where its bytes start in its serialized file: every offset the layout reports is
    /// moved by this much.
    pub base: u64,
    /// Where it is: the file on disk and, inside a bundle, its serialized file.
    pub place: String,
    /// The Mesh as its file reads it (its type tree checked against the fixed layout).
    pub mesh: GameMesh,
    /// The one reading of its bytes by its layout (`None` in a file whose version is not
    /// known or that is big endian); [`GameMesh::fixed`] says whether it agrees with the type
    /// tree.
    reading: Option<Reading<'g>>,
    files: &'g GameFiles,
}

impl GameFiles {
    /// Object `r` as an input of its layout, read with `user`'s options (`--ress`,
    /// `--relations`, `--strict`, `--skin-weights`; a `unity_version` or `unity_editor` there
    /// is ignored: the layout is its file's, [`GameFiles::version`], [`super::serialized::Serialized::editor`]). Refused for an object of a class no
    /// layout describes, and for a Mesh whose file's version cannot be known without a type
    /// tree.
    pub fn input(&self, r: ObjectRef, user: &Context) -> Result<ObjectInput<'_>, Located> {
        self.version(r)?;
        let (mesh, read) = self.read_mesh(r)?;
        let layout = MESH_LAYOUT;
        let mut ctx = user.clone();
        if let Some(l) = mesh.layout() {
            ctx = l.set(ctx);
        }
        let name = mesh.stream.as_ref().map(|s| s.file_name().to_string());
        resource::around(self, r.file, name.as_deref(), &mut ctx);
        // The verdict on the reading the Mesh was read with, now that the resource files
        // around it are known (the structure's reading needs only the version).
        let reading = read.map(|read| Reading::meant(read, &ctx));
        Ok(ObjectInput {
            at: r,
            layout,
            bytes: self.bytes(r),
            ctx,
            base: self.entry(r).offset,
            place: self.place(r),
            mesh,
            reading,
            files: self,
        })
    }
}

impl GameFiles {
    /// The bytes of a mesh's streamed range, found as its layout finds them
    /// ([`resource::bytes`]; `explicit`: a resource file the user gave).
    pub fn streamed(
        &self,
        m: &GameMesh,
        explicit: Option<&std::path::Path>,
    ) -> Result<Option<Cow<'_, [u8]>>, Located> {
        let Some(range) = &m.stream else {
            return Ok(None);
        };
        resource::bytes(self, m.at.file, range, explicit)
            .map(Some)
            .map_err(|e| e.within(&self.place(m.at)))
    }
}

impl ObjectInput<'_> {
    /// An error of the layout's, with its offset in the serialized file (one in a resource
    /// file keeps its own).
    fn shift(&self, e: Error) -> Error {
        if e.resource.is_some() {
            e
        } else {
            e.shifted(self.base)
        }
    }

    /// What the file adds before the layout's verdict: the refusal when the fixed layout does
    /// not read the object, or not as its type tree does (with the layouts that would read it;
    /// its offset is in the serialized file already).
    fn refusal(&self) -> Option<Error> {
        let e = self.mesh.fixed.as_ref().err()?;
        Some(
            *Located::new("", e.clone())
                .with_layouts_hint(self.bytes, self.mesh.editor)
                .error,
        )
    }

    /// The one reading, or the refusal when the fixed layout does not read the object as its
    /// type tree does.
    fn reading(&self) -> Result<&Reading<'_>, Error> {
        match (&self.reading, self.refusal()) {
            (Some(r), None) => Ok(r),
            (_, Some(e)) => Err(e),
            (None, None) => Err(Error::unplaced(
                crate::rt::ErrorKind::Inconsistent,
                "a reading of the Mesh",
                "none",
            )),
        }
    }

    /// The layout's verdict made the object's: offsets in the serialized file, the version
    /// note first.
    fn finish(&self, mut v: Verdict) -> Verdict {
        v.refused = v.refused.map(|e| self.shift(e));
        v.findings = std::mem::take(&mut v.findings)
            .into_iter()
            .map(|e| self.shift(e))
            .collect();
        if let Some(n) = self.note() {
            v.notes.insert(0, n);
        }
        v
    }

    /// The note on the version the object is read with, when it is not its file's own.
    pub fn note(&self) -> Option<String> {
        self.mesh.read_as.as_ref().and_then(|v| v.note())
    }

    /// The one verdict on the object: its type tree agrees with the fixed layout, then the
    /// layout's verdict on its bytes, as `check` of a bare object gives it.
    pub fn judge(&self) -> Verdict {
        match self.reading() {
            Ok(r) => self.finish(r.verdict.clone()),
            Err(e) => Verdict {
                refused: Some(e),
                strict: self.ctx.strict,
                notes: self.note().into_iter().collect(),
                ..Verdict::default()
            },
        }
    }

    /// [`ObjectInput::judge`], with every field's value shown to `visitor` (nothing when the
    /// type tree disagrees): what `survey` tallies.
    pub fn census(&self, visitor: &mut dyn Visitor) -> Verdict {
        match self.reading() {
            Ok(r) => self.finish(r.census(visitor)),
            Err(_) => self.judge(),
        }
    }

    /// The object decoded when its verdict passes (the verdict's first failure otherwise), its
    /// joints and materials named from the renderer that draws it.
    pub fn decode(&self) -> Result<Decoded, Located> {
        let located = |e: Error| Located::new(&self.place, e);
        let d = self
            .reading()
            .map_err(located)?
            .decode(&self.ctx)
            .map_err(|e| located(self.shift(e)))?;
        let mut scene = d.scene;
        self.files.names(&self.mesh).apply(&mut scene);
        self.place_sources(&mut scene);
        if let Some(n) = self.note() {
            scene.notes.insert(0, n);
        }
        Ok(Decoded {
            scene,
            verdict: self.finish(d.verdict),
        })
    }

    /// The byte ranges a decoded scene says its parts came from (and its joints' bind pose
    /// offsets), moved into the serialized file; those in a resource file stay.
    fn place_sources(&self, scene: &mut crate::scene::Scene) {
        for m in &mut scene.meshes {
            for r in m.origin.ranges.iter_mut().filter(|r| r.file.is_none()) {
                r.offset += self.base;
            }
            for e in m.skin.iter_mut().flat_map(|s| s.joint_extras.iter_mut()) {
                if let Some(v) = e.get_mut("bind_pose_offset") {
                    if let Some(o) = v.as_u64() {
                        *v = (o + self.base).into();
                    }
                }
            }
        }
    }

    /// Every field of the object, as [`Reading::walk`] gives them: spans in the object (add
    /// [`ObjectInput::base`] for the serialized file).
    pub fn walk(&self, visit: &mut WalkFn<'_>) -> Result<(), Located> {
        // (The fields as the fixed layout reads them, even where the type tree disagrees.)
        let r = match &self.reading {
            Some(r) => r,
            None => self.reading().map_err(|e| Located::new(&self.place, e))?,
        };
        r.walk(visit)
            .map_err(|e| Located::new(&self.place, self.shift(e)))
    }

    /// The object's dump, as `dump` of a bare object gives it.
    pub fn dump(&self) -> Result<serde_json::Value, Located> {
        let r = self.reading().map_err(|e| Located::new(&self.place, e))?;
        r.dump(&self.ctx).map_err(|e| {
            Located::new(&self.place, self.shift(e)).with_layouts_hint(self.bytes, self.mesh.editor)
        })
    }
}
