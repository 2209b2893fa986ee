//! Names of a mesh's joints and submeshes: a lookup the opened files offer beside the mesh's
//! own reading, from the renderer that draws it. A SkinnedMeshRenderer's `m_Bones` name the
//! joints (bone i: `m_Bones[i]` -> Transform -> GameObject name), a renderer's `m_Materials`
//! the submeshes; references are resolved through each serialized file's externals table, so
//! a renderer in a player's `level0` names the joints and materials of a mesh in
//! `sharedassets0.assets`. Objects are read through their type trees: a file without them names
//! nothing, and joints keep `bone i` with their name hash.

use super::game::{class, GameFiles, GameMesh, ObjectRef};
use super::typetree::{Trees, Value};
use crate::scene::Scene;
use std::collections::HashMap;

/// Names for a mesh's joints and submeshes, from the renderer that draws it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Per bind pose, the bone's GameObject name (empty when no renderer was found).
    pub joints: Vec<String>,
    /// Per bind pose, the bone it hangs from among the mesh's bones (the nearest ancestor of
    /// its Transform that is one; `None` for a root); empty when the bones' Transforms are not
    /// all in the opened files.
    pub parents: Vec<Option<usize>>,
    /// Per submesh, the material's name.
    pub materials: Vec<String>,
    /// What could not be named, and why.
    pub notes: Vec<String>,
}

impl Names {
    /// Gives the decoded mesh of `scene` these names: the joints when there is one per joint,
    /// the materials when there is one per material; the notes go first.
    pub fn apply(self, scene: &mut Scene) {
        if let Some(m) = scene.meshes.first_mut() {
            if let Some(skin) = &mut m.skin {
                if !self.joints.is_empty() && self.joints.len() == skin.joint_names.len() {
                    skin.joint_names = self.joints;
                }
                if self.parents.len() == skin.inverse_bind_matrices.len() {
                    skin.joint_parents = self.parents;
                }
            }
            if !self.materials.is_empty() && self.materials.len() == m.materials.len() {
                for (mat, name) in m.materials.iter_mut().zip(self.materials) {
                    mat.name = name;
                }
            }
        }
        let mut notes = self.notes;
        notes.append(&mut scene.notes);
        scene.notes = notes;
    }
}

impl GameFiles {
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
        let want = base_name(ext);
        // The referring file's own serialized files first (a bundle's), then every other.
        let order =
            std::iter::once(from.file).chain((0..self.files.len()).filter(|&f| f != from.file));
        for file in order {
            for (inner, s) in self.files[file].serialized.iter().enumerate() {
                if base_name(&s.name).eq_ignore_ascii_case(want) {
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
        let (bones, hashes) = (m.bones, m.bone_hashes.clone());
        let mut renderer_materials: Option<(ObjectRef, Vec<Option<String>>)> = None;
        let mut joints: Option<Vec<String>> = None;
        for r in self.drawn_by(m.at) {
            let c = self.entry(r).class_id;
            let Some((v, trees)) = self.value(r) else {
                continue;
            };
            if c == class::SKINNED_MESH_RENDERER {
                if joints.is_none() {
                    if let Some(list) = v.field(&trees, "m_Bones").and_then(|b| b.items()) {
                        if list.len() == bones && bones > 0 {
                            let transforms: Vec<Option<ObjectRef>> =
                                list.iter().map(|b| self.pptr(r, b, &trees)).collect();
                            let named: Vec<String> = transforms
                                .iter()
                                .enumerate()
                                .map(|(i, t)| {
                                    t.and_then(|t| self.game_object_name(t))
                                        .unwrap_or_else(|| bone_fallback(i, &hashes))
                                })
                                .collect();
                            joints = Some(named);
                            names.parents = self.bone_parents(&transforms);
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
            } else if c == class::MESH_RENDERER && renderer_materials.is_none() {
                renderer_materials = Some((r, self.materials(r, &v, &trees)));
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

    /// The renderers that draw mesh `r`: every SkinnedMeshRenderer whose `m_Mesh` names it,
    /// and the MeshRenderer beside every MeshFilter that names it (on the same GameObject), in
    /// the order of the opened files.
    pub fn drawn_by(&self, r: ObjectRef) -> Vec<ObjectRef> {
        self.drawers().get(&r).cloned().unwrap_or_default()
    }

    /// [`GameFiles::drawn_by`] of every mesh, built once from one pass over the renderers.
    fn drawers(&self) -> &HashMap<ObjectRef, Vec<ObjectRef>> {
        self.drawers.get_or_init(|| {
            let mut map: HashMap<ObjectRef, Vec<ObjectRef>> = HashMap::new();
            // A MeshFilter names the mesh, the MeshRenderer on its GameObject draws it.
            let mut filters: Vec<(ObjectRef, ObjectRef)> = vec![];
            let mut renderers: HashMap<ObjectRef, ObjectRef> = HashMap::new();
            for r in self.objects() {
                let c = self.entry(r).class_id;
                if ![
                    class::SKINNED_MESH_RENDERER,
                    class::MESH_FILTER,
                    class::MESH_RENDERER,
                ]
                .contains(&c)
                {
                    continue;
                }
                let Some((v, trees)) = self.value(r) else {
                    continue;
                };
                let field =
                    |name: &str| v.field(&trees, name).and_then(|p| self.pptr(r, p, &trees));
                match c {
                    class::MESH_RENDERER => {
                        if let Some(go) = field("m_GameObject") {
                            renderers.entry(go).or_insert(r);
                        }
                    }
                    class::MESH_FILTER => {
                        if let (Some(mesh), Some(go)) = (field("m_Mesh"), field("m_GameObject")) {
                            filters.push((mesh, go));
                        }
                    }
                    _ => {
                        if let Some(mesh) = field("m_Mesh") {
                            map.entry(mesh).or_default().push(r);
                        }
                    }
                }
            }
            for (mesh, go) in filters {
                if let Some(&mr) = renderers.get(&go) {
                    map.entry(mesh).or_default().push(mr);
                }
            }
            map
        })
    }

    /// Per bone Transform, the bone it hangs from: the nearest Transform up its `m_Father`
    /// chain that is one of `bones` (`None` when the chain ends first). Empty when a bone's
    /// Transform is not in the opened files, or a chain is longer than the file has objects
    /// (a loop: no Transform hierarchy is one).
    fn bone_parents(&self, bones: &[Option<ObjectRef>]) -> Vec<Option<usize>> {
        let limit = self.objects().len();
        let mut out = Vec::with_capacity(bones.len());
        for t in bones {
            let Some(mut at) = *t else {
                return vec![];
            };
            let mut parent = None;
            let mut steps = 0;
            while let Some(up) = self.father(at) {
                steps += 1;
                if steps > limit {
                    return vec![];
                }
                if let Some(k) = bones.iter().position(|b| *b == Some(up)) {
                    parent = Some(k);
                    break;
                }
                at = up;
            }
            out.push(parent);
        }
        out
    }

    /// A Transform's parent Transform (`m_Father`), when it has one in the opened files.
    fn father(&self, transform: ObjectRef) -> Option<ObjectRef> {
        let (v, trees) = self.value(transform)?;
        let f = v.field(&trees, "m_Father")?;
        if f.field(&trees, "m_PathID")?.int()? == 0 {
            return None;
        }
        self.pptr(transform, f, &trees)
    }

    fn submesh_count(&self, m: &GameMesh) -> usize {
        m.sub_meshes
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

/// The file name a path ends with (`sharedassets0.assets` of `Library/sharedassets0.assets`).
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\', ':']).next().unwrap_or(path)
}

/// `bone i` with its `m_BoneNameHashes` value, when the mesh has one.
fn bone_fallback(i: usize, hashes: &[u32]) -> String {
    match hashes.get(i) {
        Some(h) => format!("bone {i} (name hash 0x{h:08X})"),
        None => format!("bone {i}"),
    }
}
