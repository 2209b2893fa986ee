//! The common model as binary glTF (`.glb`).
//!
//! Each mesh is one glTF mesh under one node, its vertex attributes written once and shared by
//! its primitives. Names say where things came from (the mesh's name and layout, the
//! material's submesh or id, the joint's bone slot and name hash), and `extras` carry the byte
//! ranges the family recorded (`sources`), so that a user can go from a viewer to the bytes.
//!
//! A skin's joints hang from one skeleton root (the files give no hierarchy) and each carries
//! its rest transform, the inverse of its inverse bind matrix ([`super::rest`]), so the skinned
//! mesh at rest is the stored mesh. The file is checked by [`super::validate`] before it is
//! returned.

use super::prepare::prepare;
use super::rest::{affine_inverse, decompose, mul, widen, Trs};
use super::text::escape;
use super::{refuse, validate, Exported, NonFinite};
use crate::rt::{Output, Result};
use crate::scene::{Colors, Mesh, Mode, Scene, SourceRange};
use binrw::Endian;
use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use serde_json::{json as value, Value};
use std::collections::BTreeMap;

/// A joint's rest transform is taken as a node's translation, rotation and scale when they
/// reproduce the matrix to this (relative) precision; beyond it the matrix shears.
const SHEAR_TOLERANCE: f64 = 1e-6;

/// The binary buffer and the JSON objects that point into it.
struct Builder {
    root: json::Root,
    bin: Output,
}

impl Builder {
    /// A buffer view of what `write` writes (glTF's data is little-endian).
    fn view(
        &mut self,
        write: impl FnOnce(&mut Output),
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        self.bin.zeros(self.bin.pos().wrapping_neg() % 4);
        let offset = self.bin.pos();
        write(&mut self.bin);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64(self.bin.pos() - offset),
            byte_offset: Some(USize64(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn accessor(
        &mut self,
        write: impl FnOnce(&mut Output),
        count: usize,
        component: json::accessor::ComponentType,
        ty: json::accessor::Type,
        normalized: bool,
        minmax: Option<(Vec<f32>, Vec<f32>)>,
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(write, target);
        let (min, max) = match minmax {
            Some((lo, hi)) => (Some(Value::from(lo)), Some(Value::from(hi))),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(ty),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    fn floats<const N: usize>(
        &mut self,
        v: &[[f32; N]],
        with_bounds: bool,
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::Accessor> {
        let ty = match N {
            2 => json::accessor::Type::Vec2,
            3 => json::accessor::Type::Vec3,
            4 => json::accessor::Type::Vec4,
            _ => json::accessor::Type::Mat4,
        };
        let minmax = with_bounds.then(|| bounds(v));
        self.accessor(
            |o| o.prims(Endian::Little, v.as_flattened()),
            v.len(),
            json::accessor::ComponentType::F32,
            ty,
            false,
            minmax,
            target,
        )
    }

    fn vertex_floats<const N: usize>(
        &mut self,
        v: &[[f32; N]],
        with_bounds: bool,
    ) -> json::Index<json::Accessor> {
        self.floats(v, with_bounds, Some(json::buffer::Target::ArrayBuffer))
    }
}

/// About how many bytes the meshes' data takes in the buffer (room reserved at once, so that
/// a large mesh's data is not moved as the buffer grows).
fn bin_size(scene: &Scene) -> usize {
    scene
        .meshes
        .iter()
        .map(|m| {
            let per_vertex = 12
                + m.normals.as_ref().map_or(0, |_| 12)
                + m.tangents.as_ref().map_or(0, |_| 16)
                + m.colors.as_ref().map_or(0, |_| 16)
                + 8 * m.uvs.len()
                + m.skin.as_ref().map_or(0, |_| 24)
                + 36 * m.morph_targets.len();
            let indices: usize = m.primitives.iter().map(|p| 4 * p.indices.len() + 3).sum();
            let matrices = m
                .skin
                .as_ref()
                .map_or(0, |s| 64 * s.inverse_bind_matrices.len());
            m.positions.len() * per_vertex + indices + matrices
        })
        .sum()
}

fn bounds<const N: usize>(v: &[[f32; N]]) -> (Vec<f32>, Vec<f32>) {
    let mut lo = vec![f32::INFINITY; N];
    let mut hi = vec![f32::NEG_INFINITY; N];
    for a in v {
        for i in 0..N {
            lo[i] = lo[i].min(a[i]);
            hi[i] = hi[i].max(a[i]);
        }
    }
    if v.is_empty() {
        lo = vec![0.0; N];
        hi = vec![0.0; N];
    }
    (lo, hi)
}

fn mode(m: Mode) -> json::mesh::Mode {
    match m {
        Mode::Points => json::mesh::Mode::Points,
        Mode::Lines => json::mesh::Mode::Lines,
        Mode::LineStrip => json::mesh::Mode::LineStrip,
        Mode::Triangles => json::mesh::Mode::Triangles,
    }
}

/// `v` as glTF `extras`, or none for an empty object.
fn extras(v: Value) -> json::extras::Extras {
    match &v {
        Value::Object(o) if o.is_empty() => None,
        Value::Null => None,
        _ => serde_json::value::to_raw_value(&v).ok(),
    }
}

fn source(r: &SourceRange) -> Value {
    let mut v = value!({ "field": r.field, "offset": r.offset, "length": r.len });
    if let Some(f) = &r.file {
        v["file"] = Value::from(f.clone());
    }
    v
}

/// The name a mesh and its node get: the mesh's, and the layout it was read as.
fn display_name(m: &Mesh) -> String {
    if m.origin.layout.is_empty() {
        m.name.clone()
    } else {
        format!("{} ({})", m.name, m.origin.layout)
    }
}

/// Each joint's bind pose relative to its parent's (`joint_parents`), as stored in a node:
/// the parent's inverse bind matrix times the joint's bind pose. `None` without a skeleton,
/// with a parent that is no joint or a loop of parents, or when one of them shears.
fn local_rest(s: &crate::scene::Skin) -> Option<Vec<Trs>> {
    let n = s.inverse_bind_matrices.len();
    if s.joint_parents.len() != n || s.joint_parents.iter().flatten().any(|&p| p >= n) {
        return None;
    }
    // A loop of parents (a file's Transforms may name one) is no skeleton.
    let rooted = |mut i: usize| {
        (0..=n).any(|_| match s.joint_parents[i] {
            Some(p) => {
                i = p;
                false
            }
            None => true,
        })
    };
    if !(0..n).all(rooted) {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for (i, p) in s.joint_parents.iter().enumerate() {
        let world = affine_inverse(&widen(&s.inverse_bind_matrices[i]))?;
        let local = match p {
            Some(p) => mul(&widen(&s.inverse_bind_matrices[*p]), &world),
            None => world,
        };
        let (trs, err) = decompose(&local);
        if err > SHEAR_TOLERANCE {
            return None;
        }
        out.push(trs.as_stored());
    }
    Some(out)
}

/// The skin's joints, their skeleton root and the skin; the nodes to add to the scene.
fn skin(
    b: &mut Builder,
    m: &mut Mesh,
    label: &str,
    notes: &mut Vec<String>,
) -> Option<(json::Index<json::Skin>, json::Index<json::Node>)> {
    let s = m.skin.as_mut()?;
    // With the skeleton the files give, each joint's node holds its bind pose relative to its
    // parent's; when one of those shears (a node cannot carry it), the joints stand side by
    // side instead, as without a skeleton.
    let tree = local_rest(s);
    if tree.is_none() && !s.joint_parents.is_empty() {
        notes.push(format!(
            "mesh `{}`: a joint's bind pose relative to its parent's shears, which a glTF node cannot carry: the joints are exported side by side under one root, not as the game's skeleton",
            m.name
        ));
    }
    let mut rest = Vec::with_capacity(s.inverse_bind_matrices.len());
    let mut sheared = vec![];
    for (i, ibm) in s.inverse_bind_matrices.iter_mut().enumerate() {
        if tree.is_some() {
            break;
        }
        // `prepare` left only invertible affine matrices.
        let inverse = affine_inverse(&ibm.map(f64::from)).unwrap_or(Trs::IDENTITY.matrix());
        let (mut trs, err) = decompose(&inverse);
        if err > SHEAR_TOLERANCE {
            // A node cannot carry the shear: the joint takes the nearest rotation and
            // translation (a rigid transform, which every viewer's bones hold exactly) and its
            // inverse bind matrix becomes that transform's inverse, so the rest pose holds.
            trs.scale = trs.scale.map(|s| if s < 0.0 { -1.0 } else { 1.0 });
            let trs = trs.as_stored();
            if let Some(back) = affine_inverse(&trs.matrix()) {
                *ibm = back.map(|x| x as f32);
            }
            sheared.push(i);
        }
        let trs = trs.as_stored();
        rest.push(trs);
    }
    if let Some(&first) = sheared.first() {
        notes.push(format!(
            "mesh `{}`: {} bind poses shear (the first is joint {first} `{}`), which a glTF node cannot carry: each joint gets the nearest rotation and translation, and its inverse bind matrix is their inverse, so the mesh at rest is unchanged (an animation made for the original bind pose would move it differently)",
            m.name,
            sheared.len(),
            s.joint_names[first]
        ));
    }
    let ibm = b.floats(&s.inverse_bind_matrices, false, None);
    let parents: Vec<Option<usize>> = match tree {
        Some(locals) => {
            rest = locals;
            s.joint_parents.clone()
        }
        // Without the files' skeleton every joint hangs from one root node: glTF needs joints
        // to share a root, and a flat skeleton claims no parenthood it lacks.
        None => vec![None; rest.len()],
    };
    let mut joints = vec![];
    for (i, (name, trs)) in s.joint_names.iter().zip(&rest).enumerate() {
        let f = |v: f64| v as f32;
        let t = trs.translation.map(f);
        let r = trs.rotation.map(f);
        let sc = trs.scale.map(f);
        joints.push(b.root.push(json::Node {
            name: Some(name.clone()),
            translation: (t != [0.0; 3]).then_some(t),
            rotation: (r != [0.0, 0.0, 0.0, 1.0]).then_some(json::scene::UnitQuaternion(r)),
            scale: (sc != [1.0; 3]).then_some(sc),
            extras: extras(Value::Object(
                s.joint_extras.get(i).cloned().unwrap_or_default(),
            )),
            ..Default::default()
        }));
    }
    let mut roots = vec![];
    for (i, p) in parents.iter().enumerate() {
        match p {
            Some(p) => b.root.nodes[joints[*p].value()]
                .children
                .get_or_insert_with(Vec::new)
                .push(joints[i]),
            None => roots.push(joints[i]),
        }
    }
    let skeleton = b.root.push(json::Node {
        name: Some(format!("{label} skeleton")),
        children: Some(roots),
        ..Default::default()
    });
    let index = b.root.push(json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(ibm),
        joints,
        name: Some(format!("{label} skin")),
        skeleton: Some(skeleton),
    });
    Some((index, skeleton))
}

/// The scene as a binary glTF (`.glb`), checked by the exporter's own validation before it is
/// returned.
pub fn glb(scene: Scene, policy: NonFinite) -> Result<Exported> {
    let bin = Output::with_capacity(bin_size(&scene));
    let mut notes = scene.notes;
    let mut b = Builder {
        root: json::Root {
            asset: json::Asset {
                generator: Some(format!("meshspec {}", env!("CARGO_PKG_VERSION"))),
                ..Default::default()
            },
            ..Default::default()
        },
        bin,
    };
    let mut scene_nodes = vec![];
    for mesh in scene.meshes {
        let mut m = prepare(mesh, policy, &mut notes)?;
        if m.primitives.is_empty() || m.positions.is_empty() {
            notes.push(format!("mesh `{}` has no geometry and is left out", m.name));
            continue;
        }
        let label = display_name(&m);
        let mut attributes = BTreeMap::new();
        let pos = b.vertex_floats(&m.positions, true);
        attributes.insert(Valid(json::mesh::Semantic::Positions), pos);
        if let Some(n) = &m.normals {
            let a = b.vertex_floats(n, false);
            attributes.insert(Valid(json::mesh::Semantic::Normals), a);
        }
        if let Some(t) = &m.tangents {
            let a = b.vertex_floats(t, false);
            attributes.insert(Valid(json::mesh::Semantic::Tangents), a);
        }
        match &m.colors {
            Some(Colors::Rgba8(c)) => {
                let a = b.accessor(
                    |o| o.bytes(c.as_flattened()),
                    c.len(),
                    json::accessor::ComponentType::U8,
                    json::accessor::Type::Vec4,
                    true,
                    None,
                    Some(json::buffer::Target::ArrayBuffer),
                );
                attributes.insert(Valid(json::mesh::Semantic::Colors(0)), a);
            }
            Some(Colors::Float(c)) => {
                let a = b.vertex_floats(c, false);
                attributes.insert(Valid(json::mesh::Semantic::Colors(0)), a);
            }
            None => {}
        }
        for (k, uv) in m.uvs.iter().enumerate() {
            let a = b.vertex_floats(uv, false);
            attributes.insert(Valid(json::mesh::Semantic::TexCoords(k as u32)), a);
        }
        if let Some(s) = &m.skin {
            let ja = b.accessor(
                |o| o.prims(Endian::Little, s.joints.as_flattened()),
                s.joints.len(),
                json::accessor::ComponentType::U16,
                json::accessor::Type::Vec4,
                false,
                None,
                Some(json::buffer::Target::ArrayBuffer),
            );
            attributes.insert(Valid(json::mesh::Semantic::Joints(0)), ja);
            let wa = b.vertex_floats(&s.weights, false);
            attributes.insert(Valid(json::mesh::Semantic::Weights(0)), wa);
        }
        let skin = skin(&mut b, &mut m, &label, &mut notes);
        if let Some((_, skeleton)) = skin {
            scene_nodes.push(skeleton);
        }
        let mut targets = vec![];
        for t in &m.morph_targets {
            let positions = Some(b.vertex_floats(&t.positions, true));
            let normals = match (&t.normals, &m.normals) {
                (Some(n), Some(_)) => Some(b.vertex_floats(n, false)),
                _ => None,
            };
            let tangents = match (&t.tangents, &m.tangents) {
                (Some(n), Some(_)) => Some(b.vertex_floats(n, false)),
                _ => None,
            };
            targets.push(json::mesh::MorphTarget {
                positions,
                normals,
                tangents,
            });
        }
        let materials: Vec<json::Index<json::Material>> = m
            .materials
            .iter()
            .map(|mat| {
                b.root.push(json::Material {
                    name: Some(mat.name.clone()),
                    ..Default::default()
                })
            })
            .collect();
        let mut primitives = vec![];
        for (pi, p) in m.primitives.iter().enumerate() {
            let max = p.indices.iter().copied().max().unwrap_or(0);
            // 65535 is the primitive restart value of 16-bit indices: such meshes take 32 bits.
            let narrow = max < 65_535;
            let ct = if narrow {
                json::accessor::ComponentType::U16
            } else {
                json::accessor::ComponentType::U32
            };
            let ia = b.accessor(
                |o| {
                    if narrow {
                        let v: Vec<u16> = p.indices.iter().map(|&i| i as u16).collect();
                        o.prims(Endian::Little, &v);
                    } else {
                        o.prims(Endian::Little, &p.indices);
                    }
                },
                p.indices.len(),
                ct,
                json::accessor::Type::Scalar,
                false,
                None,
                Some(json::buffer::Target::ElementArrayBuffer),
            );
            let sources: Vec<Value> = m
                .origin
                .ranges
                .iter()
                .filter(|r| r.primitive == Some(pi))
                .map(source)
                .collect();
            primitives.push(json::mesh::Primitive {
                attributes: attributes.clone(),
                extensions: None,
                extras: if sources.is_empty() {
                    None
                } else {
                    extras(value!({ "sources": sources }))
                },
                indices: Some(ia),
                material: p.material.map(|i| materials[i]),
                mode: Valid(mode(p.mode)),
                targets: (!targets.is_empty()).then(|| targets.clone()),
            });
        }
        let weights: Vec<f32> = m.morph_targets.iter().map(|t| t.default_weight).collect();
        let mesh_index = b.root.push(json::Mesh {
            extensions: None,
            extras: mesh_extras(&m),
            name: Some(label.clone()),
            primitives,
            weights: (!weights.is_empty()).then_some(weights),
        });
        let node = b.root.push(json::Node {
            mesh: Some(mesh_index),
            skin: skin.map(|(s, _)| s),
            name: Some(label),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
    if scene_nodes.is_empty() {
        return Err(refuse(
            "a scene with geometry",
            "no mesh with vertices and indices",
        ));
    }
    let s = b.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: None,
        nodes: scene_nodes,
    });
    b.root.scene = Some(s);
    b.bin.zeros(b.bin.pos().wrapping_neg() % 4);
    let bin = b.bin.into_vec();
    b.root.push(json::Buffer {
        byte_length: USize64::from(bin.len()),
        name: None,
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    let mut text = json::serialize::to_vec(&b.root)
        .map_err(|e| refuse("a serializable glTF document", e.to_string()))?;
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let total32 =
        u32::try_from(total).map_err(|_| refuse("a .glb below 4 GiB", format!("{total} bytes")))?;
    let mut out = Output::with_capacity(total);
    out.bytes(b"glTF");
    out.prim(Endian::Little, 2u32);
    out.prim(Endian::Little, total32);
    out.prim(Endian::Little, text.len() as u32);
    out.bytes(b"JSON");
    out.bytes(&text);
    out.prim(Endian::Little, bin.len() as u32);
    out.bytes(b"BIN\0");
    out.bytes(&bin);
    let out = out.into_vec();
    validate::glb(&out)?;
    Ok(Exported {
        bytes: out,
        notes: notes.iter().map(|n| escape(n)).collect(),
        mtl: None,
    })
}

/// A mesh's `extras`: its layout, the source ranges of its vertex data, what else the file
/// says about it, and its morph targets' names where glTF viewers look for them
/// (`targetNames`).
fn mesh_extras(m: &Mesh) -> json::extras::Extras {
    let mut o = m.origin.extras.clone();
    if !m.origin.layout.is_empty() {
        o.insert("layout".into(), Value::from(m.origin.layout.clone()));
    }
    let sources: Vec<Value> = m
        .origin
        .ranges
        .iter()
        .filter(|r| r.primitive.is_none())
        .map(source)
        .collect();
    if !sources.is_empty() {
        o.insert("sources".into(), Value::from(sources));
    }
    if !m.morph_targets.is_empty() {
        let names: Vec<Value> = m
            .morph_targets
            .iter()
            .map(|t| Value::from(t.name.clone()))
            .collect();
        o.insert("targetNames".into(), Value::from(names));
    }
    extras(Value::Object(o))
}
