//! Writes the common model as glTF 2.0 (binary `.glb`) or Wavefront OBJ: one exporter for
//! every family.
//!
//! The exporter does not guess: values glTF cannot carry (non-finite numbers) are refused or,
//! when asked, replaced by zero with a note saying where; normals and tangents are brought to
//! unit length as glTF requires, and anything that cannot be (a zero normal) is left out with a
//! note rather than invented.

use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Mesh, Mode, Scene};
use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What to do with values that are not finite.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NonFinite {
    /// Refuse to export, naming where they are (the default).
    #[default]
    Refuse,
    /// Write 0 instead, and say where in the notes.
    Zero,
}

/// An exported file and what the export changed or left out.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// What was changed or left out, and why.
    pub notes: Vec<String>,
}

fn refuse(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Unsupported, expected, found).rooted("export")
}

/// Prepares a mesh for a format that needs finite values and unit vectors.
fn sanitize(mesh: &Mesh, policy: NonFinite, notes: &mut Vec<String>) -> Result<Mesh> {
    mesh.validate()?;
    let mut m = mesh.clone();
    let bad = m.non_finite();
    if !bad.is_empty() {
        let places: Vec<String> = bad
            .iter()
            .map(|(what, n, first)| format!("{n} {what} (first at vertex {first})"))
            .collect();
        match policy {
            NonFinite::Refuse => {
                return Err(refuse(
                    "finite values (or --non-finite zero to write 0 instead)",
                    format!(
                        "non-finite values in mesh `{}`: {}",
                        m.name,
                        places.join(", ")
                    ),
                ))
            }
            NonFinite::Zero => {
                notes.push(format!(
                    "mesh `{}`: non-finite values written as 0: {}",
                    m.name,
                    places.join(", ")
                ));
                zero_non_finite(&mut m);
            }
        }
    }
    if let Some(normals) = &mut m.normals {
        let mut fixed = 0;
        let mut zero = false;
        for n in normals.iter_mut() {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if len < 1e-6 {
                zero = true;
            } else if (len - 1.0).abs() > 1e-5 {
                *n = n.map(|c| c / len);
                fixed += 1;
            }
        }
        if zero {
            notes.push(format!(
                "mesh `{}`: normals left out: some have zero length, which glTF cannot carry",
                m.name
            ));
            m.normals = None;
            m.tangents = None;
        } else if fixed > 0 {
            notes.push(format!(
                "mesh `{}`: {fixed} normals rescaled to unit length",
                m.name
            ));
        }
    }
    if let Some(tangents) = &mut m.tangents {
        let mut zero = false;
        let mut fixed = 0;
        for t in tangents.iter_mut() {
            let len = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).sqrt();
            if len < 1e-6 {
                zero = true;
                continue;
            }
            let w = if t[3] < 0.0 { -1.0 } else { 1.0 };
            if (len - 1.0).abs() > 1e-5 || t[3] != w {
                fixed += 1;
            }
            *t = [t[0] / len, t[1] / len, t[2] / len, w];
        }
        if zero {
            notes.push(format!(
                "mesh `{}`: tangents left out: some have zero length",
                m.name
            ));
            m.tangents = None;
        } else if fixed > 0 {
            notes.push(format!(
                "mesh `{}`: {fixed} tangents rescaled to unit length with w = ±1",
                m.name
            ));
        }
    }
    if m.tangents.is_some() && m.normals.is_none() {
        notes.push(format!(
            "mesh `{}`: tangents left out: glTF needs normals with them",
            m.name
        ));
        m.tangents = None;
    }
    let before = m.primitives.len();
    m.primitives.retain(|p| !p.indices.is_empty());
    if m.primitives.len() < before {
        notes.push(format!(
            "mesh `{}`: {} primitives without indices left out (they draw nothing)",
            m.name,
            before - m.primitives.len()
        ));
    }
    for (pi, p) in m.primitives.iter().enumerate() {
        let unit = match p.mode {
            Mode::Triangles => 3,
            Mode::Lines => 2,
            Mode::LineStrip => 2,
            Mode::Points => 1,
        };
        if p.indices.len() % unit != 0 && p.mode != Mode::LineStrip {
            return Err(refuse(
                format!("primitive {pi} of `{}` to hold whole {:?}", m.name, p.mode),
                format!("{} indices", p.indices.len()),
            ));
        }
        if p.mode == Mode::LineStrip && p.indices.len() < 2 {
            return Err(refuse(
                format!("line strip {pi} of `{}` to have two indices", m.name),
                p.indices.len().to_string(),
            ));
        }
    }
    Ok(m)
}

fn zero_non_finite(m: &mut Mesh) {
    fn z<const N: usize>(v: &mut [[f32; N]]) {
        for a in v {
            for c in a.iter_mut() {
                if !c.is_finite() {
                    *c = 0.0;
                }
            }
        }
    }
    z(&mut m.positions);
    if let Some(v) = &mut m.normals {
        z(v);
    }
    if let Some(v) = &mut m.tangents {
        z(v);
    }
    if let Some(Colors::Float(v)) = &mut m.colors {
        z(v);
    }
    for uv in &mut m.uvs {
        z(uv);
    }
    if let Some(s) = &mut m.skin {
        z(&mut s.weights);
    }
    for t in &mut m.morph_targets {
        z(&mut t.positions);
        if let Some(v) = &mut t.normals {
            z(v);
        }
        if let Some(v) = &mut t.tangents {
            z(v);
        }
    }
}

/// The binary buffer and the JSON objects that point into it.
struct Builder {
    root: json::Root,
    bin: Vec<u8>,
}

impl Builder {
    fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
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
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        ty: json::accessor::Type,
        normalized: bool,
        minmax: Option<(Vec<f32>, Vec<f32>)>,
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, target);
        let (min, max) = match minmax {
            Some((lo, hi)) => (Some(json::Value::from(lo)), Some(json::Value::from(hi))),
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
    ) -> json::Index<json::Accessor> {
        let bytes: Vec<u8> = v.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let ty = match N {
            2 => json::accessor::Type::Vec2,
            3 => json::accessor::Type::Vec3,
            4 => json::accessor::Type::Vec4,
            _ => json::accessor::Type::Mat4,
        };
        let minmax = with_bounds.then(|| bounds(v));
        self.accessor(
            &bytes,
            v.len(),
            json::accessor::ComponentType::F32,
            ty,
            false,
            minmax,
            Some(json::buffer::Target::ArrayBuffer),
        )
    }
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

/// The scene as a binary glTF (`.glb`).
pub fn glb(scene: &Scene, policy: NonFinite) -> Result<Exported> {
    let mut notes = scene.notes.clone();
    let mut b = Builder {
        root: json::Root {
            asset: json::Asset {
                generator: Some(format!("meshspec {}", env!("CARGO_PKG_VERSION"))),
                ..Default::default()
            },
            ..Default::default()
        },
        bin: vec![],
    };
    let mut scene_nodes = vec![];
    for mesh in &scene.meshes {
        let m = sanitize(mesh, policy, &mut notes)?;
        if m.primitives.is_empty() || m.positions.is_empty() {
            notes.push(format!("mesh `{}` has no geometry and is left out", m.name));
            continue;
        }
        let mut attributes = BTreeMap::new();
        let pos = b.floats(&m.positions, true);
        attributes.insert(Valid(json::mesh::Semantic::Positions), pos);
        if let Some(n) = &m.normals {
            let a = b.floats(n, false);
            attributes.insert(Valid(json::mesh::Semantic::Normals), a);
        }
        if let Some(t) = &m.tangents {
            let a = b.floats(t, false);
            attributes.insert(Valid(json::mesh::Semantic::Tangents), a);
        }
        match &m.colors {
            Some(Colors::Rgba8(c)) => {
                let bytes: Vec<u8> = c.iter().flatten().copied().collect();
                let a = b.accessor(
                    &bytes,
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
                let a = b.floats(c, false);
                attributes.insert(Valid(json::mesh::Semantic::Colors(0)), a);
            }
            None => {}
        }
        for (k, uv) in m.uvs.iter().enumerate() {
            let a = b.floats(uv, false);
            attributes.insert(Valid(json::mesh::Semantic::TexCoords(k as u32)), a);
        }
        let mut skin_index = None;
        if let Some(s) = &m.skin {
            let joints: Vec<u8> = s
                .joints
                .iter()
                .flatten()
                .flat_map(|j| j.to_le_bytes())
                .collect();
            let ja = b.accessor(
                &joints,
                s.joints.len(),
                json::accessor::ComponentType::U16,
                json::accessor::Type::Vec4,
                false,
                None,
                Some(json::buffer::Target::ArrayBuffer),
            );
            attributes.insert(Valid(json::mesh::Semantic::Joints(0)), ja);
            let wa = b.floats(&s.weights, false);
            attributes.insert(Valid(json::mesh::Semantic::Weights(0)), wa);
            let ibm_bytes: Vec<u8> = s
                .inverse_bind_matrices
                .iter()
                .flatten()
                .flat_map(|f| f.to_le_bytes())
                .collect();
            let ibm = b.accessor(
                &ibm_bytes,
                s.inverse_bind_matrices.len(),
                json::accessor::ComponentType::F32,
                json::accessor::Type::Mat4,
                false,
                None,
                None,
            );
            // The files give no bone hierarchy, so every joint hangs from one root node: glTF
            // needs joints to share a root, and a flat skeleton claims no parenthood it lacks.
            let mut joint_nodes = vec![];
            for name in &s.joint_names {
                joint_nodes.push(b.root.push(json::Node {
                    name: Some(name.clone()),
                    ..Default::default()
                }));
            }
            let skeleton = b.root.push(json::Node {
                name: Some(format!("{} skeleton", m.name)),
                children: Some(joint_nodes.clone()),
                ..Default::default()
            });
            scene_nodes.push(skeleton);
            skin_index = Some(b.root.push(json::Skin {
                extensions: None,
                extras: Default::default(),
                inverse_bind_matrices: Some(ibm),
                joints: joint_nodes,
                name: Some(format!("{} skin", m.name)),
                skeleton: Some(skeleton),
            }));
        }
        let mut targets = vec![];
        for t in &m.morph_targets {
            let positions = Some(b.floats(&t.positions, true));
            let normals = match (&t.normals, &m.normals) {
                (Some(n), Some(_)) => Some(b.floats(n, false)),
                _ => None,
            };
            let tangents = match (&t.tangents, &m.tangents) {
                (Some(n), Some(_)) => Some(b.floats(n, false)),
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
        for p in &m.primitives {
            let max = p.indices.iter().copied().max().unwrap_or(0);
            // 65535 is the primitive restart value of 16-bit indices: such meshes take 32 bits.
            let (bytes, ct) = if max < 65_535 {
                (
                    p.indices
                        .iter()
                        .flat_map(|&i| (i as u16).to_le_bytes())
                        .collect::<Vec<u8>>(),
                    json::accessor::ComponentType::U16,
                )
            } else {
                (
                    p.indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
                    json::accessor::ComponentType::U32,
                )
            };
            let ia = b.accessor(
                &bytes,
                p.indices.len(),
                ct,
                json::accessor::Type::Scalar,
                false,
                None,
                Some(json::buffer::Target::ElementArrayBuffer),
            );
            primitives.push(json::mesh::Primitive {
                attributes: attributes.clone(),
                extensions: None,
                extras: Default::default(),
                indices: Some(ia),
                material: p.material.map(|i| materials[i]),
                mode: Valid(mode(p.mode)),
                targets: (!targets.is_empty()).then(|| targets.clone()),
            });
        }
        let weights: Vec<f32> = m.morph_targets.iter().map(|t| t.default_weight).collect();
        let names: Vec<json::Value> = m
            .morph_targets
            .iter()
            .map(|t| json::Value::from(t.name.clone()))
            .collect();
        let mesh_index = b.root.push(json::Mesh {
            extensions: None,
            extras: mesh_extras(&names),
            name: Some(m.name.clone()),
            primitives,
            weights: (!weights.is_empty()).then_some(weights),
        });
        let node = b.root.push(json::Node {
            mesh: Some(mesh_index),
            skin: skin_index,
            name: Some(m.name.clone()),
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
    while b.bin.len() % 4 != 0 {
        b.bin.push(0);
    }
    b.root.push(json::Buffer {
        byte_length: USize64::from(b.bin.len()),
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
    let total = 12 + 8 + text.len() + 8 + b.bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(b.bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&b.bin);
    Ok(Exported { bytes: out, notes })
}

/// Morph target names go where glTF viewers look for them: `extras.targetNames`.
fn mesh_extras(names: &[json::Value]) -> json::extras::Extras {
    if names.is_empty() {
        return Default::default();
    }
    let v = serde_json::json!({ "targetNames": names });
    serde_json::value::to_raw_value(&v).ok()
}

/// The scene as Wavefront OBJ text: positions (with colours as the common `v x y z r g b`
/// extension), texture coordinates of the first set, normals, and faces, lines and points.
/// Skin and morph targets have no OBJ form and are noted.
pub fn obj(scene: &Scene, policy: NonFinite) -> Result<Exported> {
    let mut notes = scene.notes.clone();
    let mut out = String::from("# written by meshspec\n");
    let mut base = 1usize;
    for mesh in &scene.meshes {
        let m = sanitize(mesh, policy, &mut notes)?;
        let _ = writeln!(out, "o {}", m.name);
        let colour = |i: usize| -> Option<[f32; 3]> {
            match &m.colors {
                Some(Colors::Rgba8(c)) => Some([0, 1, 2].map(|k| f32::from(c[i][k]) / 255.0)),
                Some(Colors::Float(c)) => Some([c[i][0], c[i][1], c[i][2]]),
                None => None,
            }
        };
        for (i, p) in m.positions.iter().enumerate() {
            match colour(i) {
                Some([r, g, b]) => {
                    let _ = writeln!(out, "v {} {} {} {r} {g} {b}", p[0], p[1], p[2]);
                }
                None => {
                    let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
                }
            }
        }
        let uv = m.uvs.first();
        if let Some(uv) = uv {
            for t in uv {
                // OBJ's v runs up from the bottom, glTF's down from the top.
                let _ = writeln!(out, "vt {} {}", t[0], 1.0 - t[1]);
            }
        }
        if m.uvs.len() > 1 {
            notes.push(format!(
                "mesh `{}`: OBJ keeps only the first of {} UV sets",
                m.name,
                m.uvs.len()
            ));
        }
        if let Some(n) = &m.normals {
            for v in n {
                let _ = writeln!(out, "vn {} {} {}", v[0], v[1], v[2]);
            }
        }
        if m.skin.is_some() {
            notes.push(format!("mesh `{}`: OBJ has no skin; use glTF", m.name));
        }
        if !m.morph_targets.is_empty() {
            notes.push(format!(
                "mesh `{}`: OBJ has no morph targets; use glTF",
                m.name
            ));
        }
        let corner = |i: u32| {
            let k = base + i as usize;
            match (uv.is_some(), m.normals.is_some()) {
                (true, true) => format!("{k}/{k}/{k}"),
                (true, false) => format!("{k}/{k}"),
                (false, true) => format!("{k}//{k}"),
                (false, false) => k.to_string(),
            }
        };
        for (pi, p) in m.primitives.iter().enumerate() {
            let _ = writeln!(out, "g {}_{pi}", m.name);
            if let Some(mi) = p.material {
                let _ = writeln!(out, "usemtl {}", m.materials[mi].name);
            }
            match p.mode {
                Mode::Triangles => {
                    for t in p.indices.chunks_exact(3) {
                        let _ =
                            writeln!(out, "f {} {} {}", corner(t[0]), corner(t[1]), corner(t[2]));
                    }
                }
                Mode::Lines => {
                    for l in p.indices.chunks_exact(2) {
                        let _ =
                            writeln!(out, "l {} {}", base + l[0] as usize, base + l[1] as usize);
                    }
                }
                Mode::LineStrip => {
                    let ks: Vec<String> = p
                        .indices
                        .iter()
                        .map(|&i| (base + i as usize).to_string())
                        .collect();
                    let _ = writeln!(out, "l {}", ks.join(" "));
                }
                Mode::Points => {
                    for &i in &p.indices {
                        let _ = writeln!(out, "p {}", base + i as usize);
                    }
                }
            }
        }
        base += m.positions.len();
    }
    Ok(Exported {
        bytes: out.into_bytes(),
        notes,
    })
}
