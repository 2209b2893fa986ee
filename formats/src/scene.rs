//! The common mesh model every family decodes into and the exporter writes.
//!
//! It is in glTF's frame: right-handed, and a triangle's front face is the one whose corners
//! run counter-clockwise. Each family converts into it (a Direct3D .meshbin reverses its
//! triangles, a Unity mesh mirrors x), so the exporter never needs to know where data came from.

use crate::rt::{Error, ErrorKind, Result};

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
#[derive(Debug, Clone, PartialEq)]
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
}

fn bad(mesh: &str, expected: String, found: String) -> Error {
    Error::unplaced(ErrorKind::Inconsistent, expected, found).rooted(format!("scene.{mesh}"))
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
            if s.joint_names.len() != s.inverse_bind_matrices.len() {
                return Err(bad(
                    &self.name,
                    format!("{} joint names", s.inverse_bind_matrices.len()),
                    s.joint_names.len().to_string(),
                ));
            }
        }
        for t in &self.morph_targets {
            per_vertex("morph positions", t.positions.len())?;
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

    /// Where the mesh holds values that are not finite: (what, how many, first vertex).
    pub fn non_finite(&self) -> Vec<(String, usize, usize)> {
        let mut out = vec![];
        let mut scan = |what: String, vals: &mut dyn Iterator<Item = (usize, bool)>| {
            let mut count = 0;
            let mut first = None;
            for (v, finite) in vals {
                if !finite {
                    count += 1;
                    first.get_or_insert(v);
                }
            }
            if let Some(f) = first {
                out.push((what, count, f));
            }
        };
        fn fin<const N: usize>(a: &[f32; N]) -> bool {
            a.iter().all(|x| x.is_finite())
        }
        scan(
            "positions".into(),
            &mut self.positions.iter().enumerate().map(|(i, p)| (i, fin(p))),
        );
        if let Some(v) = &self.normals {
            scan(
                "normals".into(),
                &mut v.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        if let Some(v) = &self.tangents {
            scan(
                "tangents".into(),
                &mut v.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        if let Some(Colors::Float(v)) = &self.colors {
            scan(
                "colours".into(),
                &mut v.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        for (k, uv) in self.uvs.iter().enumerate() {
            scan(
                format!("texture coordinates {k}"),
                &mut uv.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        if let Some(s) = &self.skin {
            scan(
                "skin weights".into(),
                &mut s.weights.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        for t in &self.morph_targets {
            scan(
                format!("morph target {} positions", t.name),
                &mut t.positions.iter().enumerate().map(|(i, p)| (i, fin(p))),
            );
        }
        out
    }
}
