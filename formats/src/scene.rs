//! The common mesh model every family decodes into and the exporter writes.
//!
//! It is in glTF's frame: right-handed, and a triangle's front face is the one whose corners
//! run counter-clockwise. Each family converts into it (a Direct3D .meshbin reverses its
//! triangles, a Unity mesh mirrors x), so the exporter never needs to know where data came from.

use crate::export::escape;
use crate::rt::{Error, ErrorKind, Result};
use std::fmt;

/// What a file says about a part that the model has no field for (ids, name hashes, byte
/// offsets), written into glTF's `extras` as it is.
pub type Extras = serde_json::Map<String, serde_json::Value>;

/// Decoded geometry: one or more meshes, and what a user should know about them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// The meshes.
    pub meshes: Vec<Mesh>,
    /// Caveats (what could not be decoded, and why).
    pub notes: Vec<String>,
}

/// How a primitive's indices are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each index a point.
    Points,
    /// Each pair of indices a segment.
    Lines,
    /// Each consecutive pair of indices a segment.
    LineStrip,
    /// Each three indices a triangle, counter-clockwise in front.
    Triangles,
}

/// A run of indices drawn one way with one material.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// How the indices are joined.
    pub mode: Mode,
    /// Indices into the mesh's vertices.
    pub indices: Vec<u32>,
    /// Index into [`Mesh::materials`].
    pub material: Option<usize>,
}

/// Vertex colours.
#[derive(Debug, Clone, PartialEq)]
pub enum Colors {
    /// 8 bits per channel, 0 to 255 meaning 0 to 1.
    Rgba8(Vec<[u8; 4]>),
    /// Floats, 0 to 1.
    Float(Vec<[f32; 4]>),
}

impl Colors {
    /// The number of colours.
    pub fn len(&self) -> usize {
        match self {
            Colors::Rgba8(v) => v.len(),
            Colors::Float(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A material slot: only a name, since no format here describes shading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    /// The name (or the id the file gives it).
    pub name: String,
}

/// Bone influences and bind poses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skin {
    /// Per vertex, four joint slots.
    pub joints: Vec<[u16; 4]>,
    /// Per vertex, four weights summing to 1.
    pub weights: Vec<[f32; 4]>,
    /// Per joint, the matrix from mesh space to the joint's space at bind time, column-major
    /// as glTF stores it.
    pub inverse_bind_matrices: Vec<[f32; 16]>,
    /// Per joint, a name.
    pub joint_names: Vec<String>,
    /// Per joint, what the file says about the bone besides its name (its slot, id, name
    /// hash, where its bind pose is); empty when nothing, else one per joint.
    pub joint_extras: Vec<Extras>,
    /// Per joint, the joint it hangs from (`None` for a root), when the files give the
    /// skeleton (a Unity renderer's bones and their Transforms); empty when they do not, and
    /// the joints are then exported side by side under one root.
    pub joint_parents: Vec<Option<usize>>,
}

/// A byte range of the input (or of a file beside it) that a part of a mesh was read from, so
/// that a user can go from what a viewer shows to the bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceRange {
    /// What the range holds, as the spec's field path names it
    /// (`sws_mesh.submeshes[0].submesh.positions`).
    pub field: String,
    /// The primitive the range belongs to, when it belongs to one.
    pub primitive: Option<usize>,
    /// Where the range starts.
    pub offset: u64,
    /// How many bytes it holds.
    pub len: u64,
    /// The file it is in, by name, when that is not the input (a Unity `.resS`).
    pub file: Option<String>,
}

/// Where a mesh came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Origin {
    /// The layout id the input was read as (`unity-mesh`); empty when not known.
    pub layout: String,
    /// The byte ranges its parts were read from (as many as the family knows).
    pub ranges: Vec<SourceRange>,
    /// What else the file says about the mesh that the model has no field for (bones that are
    /// not exported as a skin, with their ids and name hashes).
    pub extras: Extras,
}

/// A morph target, as deltas from the base mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphTarget {
    /// The name.
    pub name: String,
    /// Position deltas, one per vertex.
    pub positions: Vec<[f32; 3]>,
    /// Normal deltas, one per vertex.
    pub normals: Option<Vec<[f32; 3]>>,
    /// Tangent deltas (xyz), one per vertex.
    pub tangents: Option<Vec<[f32; 3]>>,
    /// The weight the target has in the file's default pose.
    pub default_weight: f32,
}

/// One mesh: shared vertices and primitives over them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    /// The name.
    pub name: String,
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Option<Vec<[f32; 3]>>,
    /// Unit tangents, w = ±1 giving the bitangent's side.
    pub tangents: Option<Vec<[f32; 4]>>,
    /// Vertex colours.
    pub colors: Option<Colors>,
    /// Texture coordinate sets, in glTF's convention (v down from the top).
    pub uvs: Vec<Vec<[f32; 2]>>,
    /// The primitives.
    pub primitives: Vec<Primitive>,
    /// The material slots the primitives name.
    pub materials: Vec<Material>,
    /// Skinning.
    pub skin: Option<Skin>,
    /// Morph targets.
    pub morph_targets: Vec<MorphTarget>,
    /// Where it came from.
    pub origin: Origin,
}

/// Values that are not finite in one place of a mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonFiniteValues {
    /// The place (`positions`, `morph target smile normals`, `inverse bind matrices`).
    pub what: String,
    /// How many elements (vertices, joints, targets) hold at least one.
    pub count: usize,
    /// What an element is (`vertex`, `joint`, `target`).
    pub unit: &'static str,
    /// The first such element.
    pub first: usize,
}

impl fmt::Display for NonFiniteValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} (first at {} {})",
            self.count, self.what, self.unit, self.first
        )
    }
}

impl Scene {
    /// Names what came from `layout`: every mesh's origin gets the layout id, and a mesh the
    /// file gives no name (an empty name) is named after the input file's stem.
    pub fn label(&mut self, layout: &str, stem: &str) {
        for m in &mut self.meshes {
            if m.name.is_empty() {
                m.name = stem.to_string();
            }
        }
        for m in &mut self.meshes {
            if m.origin.layout.is_empty() {
                m.origin.layout = layout.to_string();
            }
        }
    }
}

fn bad(mesh: &str, expected: String, found: String) -> Error {
    Error::unplaced(ErrorKind::Inconsistent, expected, escape(&found))
        .rooted(format!("scene.{}", escape(mesh)))
}

impl Mesh {
    /// Checks that every array has one entry per vertex and every index names a vertex.
    pub fn validate(&self) -> Result<()> {
        let n = self.positions.len();
        let per_vertex = |what: &str, len: usize| {
            if len == n {
                Ok(())
            } else {
                Err(bad(
                    &self.name,
                    format!("{n} {what} (one per vertex)"),
                    len.to_string(),
                ))
            }
        };
        if let Some(v) = &self.normals {
            per_vertex("normals", v.len())?;
        }
        if let Some(v) = &self.tangents {
            per_vertex("tangents", v.len())?;
        }
        if let Some(v) = &self.colors {
            per_vertex("colours", v.len())?;
        }
        for uv in &self.uvs {
            per_vertex("texture coordinates", uv.len())?;
        }
        if let Some(s) = &self.skin {
            per_vertex("joint sets", s.joints.len())?;
            per_vertex("weight sets", s.weights.len())?;
            let joints = s.inverse_bind_matrices.len();
            if s.joint_names.len() != joints {
                return Err(bad(
                    &self.name,
                    format!("{joints} joint names"),
                    s.joint_names.len().to_string(),
                ));
            }
            if !s.joint_extras.is_empty() && s.joint_extras.len() != joints {
                return Err(bad(
                    &self.name,
                    format!("none or {joints} joint extras (one per joint)"),
                    s.joint_extras.len().to_string(),
                ));
            }
            for (v, (j, w)) in s.joints.iter().zip(&s.weights).enumerate() {
                if let Some(k) = (0..4).find(|&k| w[k] != 0.0 && usize::from(j[k]) >= joints) {
                    return Err(bad(
                        &self.name,
                        format!("joints below {joints} where the weight is not 0"),
                        format!("joint {} of weight {} at vertex {v}", j[k], w[k]),
                    ));
                }
            }
        }
        for t in &self.morph_targets {
            per_vertex("morph positions", t.positions.len())?;
            if let Some(v) = &t.normals {
                per_vertex("morph normals", v.len())?;
            }
            if let Some(v) = &t.tangents {
                per_vertex("morph tangents", v.len())?;
            }
        }
        if let Some(r) = self
            .origin
            .ranges
            .iter()
            .find(|r| r.primitive.is_some_and(|p| p >= self.primitives.len()))
        {
            return Err(bad(
                &self.name,
                format!("source ranges of the {} primitives", self.primitives.len()),
                format!("`{}` of primitive {:?}", r.field, r.primitive),
            ));
        }
        for (pi, p) in self.primitives.iter().enumerate() {
            if let Some(i) = p.indices.iter().position(|&i| i as usize >= n) {
                return Err(bad(
                    &self.name,
                    format!("primitive {pi} to index the {n} vertices"),
                    format!("index {} at position {i}", p.indices[i]),
                ));
            }
            if let Some(m) = p.material {
                if m >= self.materials.len() {
                    return Err(bad(
                        &self.name,
                        format!("primitive {pi}'s material among {}", self.materials.len()),
                        m.to_string(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Where the mesh holds values that are not finite: every float it carries, bind
    /// matrices and morph target deltas and weights included.
    pub fn non_finite(&self) -> Vec<NonFiniteValues> {
        /// How many elements hold a non-finite value, and the first; `None` when all are
        /// finite (one pass the compiler vectorises answers that for almost every mesh).
        fn count<const N: usize>(v: &[[f32; N]]) -> Option<(usize, usize)> {
            if v.as_flattened()
                .iter()
                .fold(true, |all, x| all & x.is_finite())
            {
                return None;
            }
            let bad = |e: &[f32; N]| !e.iter().all(|x| x.is_finite());
            let first = v.iter().position(bad)?;
            Some((v[first..].iter().filter(|e| bad(e)).count(), first))
        }
        let mut out = vec![];
        let mut push = |found: Option<(usize, usize)>, what: &dyn Fn() -> String, unit| {
            if let Some((count, first)) = found {
                out.push(NonFiniteValues {
                    what: what(),
                    count,
                    unit,
                    first,
                });
            }
        };
        const V: &str = "vertex";
        push(count(&self.positions), &|| "positions".into(), V);
        if let Some(v) = &self.normals {
            push(count(v), &|| "normals".into(), V);
        }
        if let Some(v) = &self.tangents {
            push(count(v), &|| "tangents".into(), V);
        }
        if let Some(Colors::Float(v)) = &self.colors {
            push(count(v), &|| "colours".into(), V);
        }
        for (k, uv) in self.uvs.iter().enumerate() {
            push(count(uv), &|| format!("texture coordinates {k}"), V);
        }
        if let Some(s) = &self.skin {
            push(count(&s.weights), &|| "skin weights".into(), V);
            push(
                count(&s.inverse_bind_matrices),
                &|| "inverse bind matrices".into(),
                "joint",
            );
        }
        for t in &self.morph_targets {
            let named = |what: &str| format!("morph target {} {what}", t.name);
            push(count(&t.positions), &|| named("positions"), V);
            if let Some(v) = &t.normals {
                push(count(v), &|| named("normals"), V);
            }
            if let Some(v) = &t.tangents {
                push(count(v), &|| named("tangents"), V);
            }
        }
        let weights: Vec<[f32; 1]> = self
            .morph_targets
            .iter()
            .map(|t| [t.default_weight])
            .collect();
        push(count(&weights), &|| "morph target weights".into(), "target");
        out
    }
}
