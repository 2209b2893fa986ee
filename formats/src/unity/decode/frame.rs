//! From Unity's frame to the common model's.
//!
//! Unity is left-handed with clockwise front faces; glTF (and [`crate::scene`]) is
//! right-handed with counter-clockwise front faces. Mirroring x maps one onto the other:
//! positions, normals, tangents and blend shape deltas get their x negated, a tangent's w
//! (which side the bitangent is on) flips, every triangle's winding is reversed (the mirror
//! turns the normal a triangle's corners imply inward), and a bind pose `B` becomes
//! `M·B·M` with `M = diag(-1, 1, 1, 1)`, stored column-major as glTF's inverse bind matrix.
//! Texture coordinates turn from Unity's v-up to glTF's v-down (`v' = 1 - v`).

use super::indices::Topology;
use super::{slot, SkinWeights, UnityMeshData, CHANNELS};
use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Material, Mesh, Mode, MorphTarget, Primitive, Skin};

/// How to bring a mesh into the common model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneOptions {
    /// Which influences to draw (`--skin-weights`, Unity's `QualitySettings.skinWeights`);
    /// glTF carries four per vertex, so more are cut to the heaviest four, renormalised, with
    /// a note.
    pub skin_weights: SkinWeights,
    /// Per bone, a name (the renderer's bones); empty for `bone 0`, `bone 1`, ...
    pub joint_names: Vec<String>,
    /// Per submesh, the material of the renderer that draws it; empty for `submesh 0`, ...
    pub material_names: Vec<String>,
}

impl Default for SceneOptions {
    fn default() -> Self {
        SceneOptions {
            skin_weights: SkinWeights::Four,
            joint_names: vec![],
            material_names: vec![],
        }
    }
}

/// A mesh in the common model and what the conversion changed or left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ToScene {
    /// The mesh, in glTF's frame.
    pub mesh: Mesh,
    /// What was changed or left out, and why (including non-finite values found).
    pub notes: Vec<String>,
}

const MIRROR: [f32; 4] = [-1.0, 1.0, 1.0, 1.0];

/// glTF's inverse bind matrix (column-major, right-handed) of a Unity bind pose (row-major,
/// left-handed): the bind pose conjugated by the x mirror.
pub fn inverse_bind_matrix(bind_pose: &[f32; 16]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for r in 0..4 {
        for c in 0..4 {
            out[c * 4 + r] = MIRROR[r] * MIRROR[c] * bind_pose[r * 4 + c];
        }
    }
    out
}

fn input(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Input, expected, found).rooted("unity_mesh")
}

/// Brings a decoded mesh into the common model, in glTF's frame.
pub fn to_scene(mut m: UnityMeshData, opts: &SceneOptions) -> Result<ToScene> {
    let mut notes = vec![];
    let name = m.name.clone();
    let name = &name;
    // The channels are moved into the model (see `take_floats`), not copied.
    let mut positions = match m.take_floats::<3>(slot::VERTEX, 0.0) {
        Some(p) => p,
        None if m.vertex_count == 0 => vec![],
        None => {
            return Err(Error::unplaced(
                ErrorKind::Unsupported,
                "a Vertex channel of floats",
                match m.channel(slot::VERTEX) {
                    Some(c) => format!("{:?}", c.format),
                    None => "none".into(),
                },
            )
            .rooted("unity_mesh.vertex_data.channels[0]"))
        }
    };
    for p in &mut positions {
        p[0] = -p[0];
    }
    let mut normals = m.take_floats::<3>(slot::NORMAL, 0.0);
    if normals.is_none() && m.channel(slot::NORMAL).is_some() {
        notes.push(format!(
            "mesh `{name}`: normals stored as integers left out"
        ));
    }
    if let Some(n) = &mut normals {
        for v in n.iter_mut() {
            v[0] = -v[0];
        }
    }
    let mut tangents = m.take_floats::<4>(slot::TANGENT, 1.0);
    if let Some(t) = &mut tangents {
        for v in t.iter_mut() {
            v[0] = -v[0];
            v[3] = -v[3];
        }
    }
    let colors = m.take_floats::<4>(slot::COLOR, 1.0).map(Colors::Float);
    let last_uv = (0..8)
        .rev()
        .find(|&k| m.floats(slot::TEX_COORD0 + k).is_some());
    let mut uvs = vec![];
    if let Some(last) = last_uv {
        for k in 0..=last {
            let set = match m.take_floats::<2>(slot::TEX_COORD0 + k, 0.0) {
                Some(mut set) => {
                    for uv in &mut set {
                        uv[1] = 1.0 - uv[1];
                    }
                    set
                }
                None => {
                    notes.push(format!(
                        "mesh `{name}`: {} is absent (or not floats) and written as zeros to keep the later sets' numbers",
                        CHANNELS[slot::TEX_COORD0 + k]
                    ));
                    vec![[0.0, 1.0]; m.vertex_count]
                }
            };
            uvs.push(set);
        }
    }

    if !opts.material_names.is_empty() && opts.material_names.len() != m.submeshes.len() {
        return Err(input(
            format!("{} material names (one per submesh)", m.submeshes.len()),
            opts.material_names.len().to_string(),
        ));
    }
    let mut primitives = vec![];
    let mut materials = vec![];
    for (i, s) in m.submeshes.iter().enumerate() {
        materials.push(Material {
            name: opts
                .material_names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("submesh {i}")),
        });
        let (mode, indices) = match s.topology {
            Topology::Triangles | Topology::TriangleStrip | Topology::Quads => (
                Mode::Triangles,
                s.triangles()
                    .into_iter()
                    .flat_map(|[a, b, c]| [a, c, b])
                    .collect(),
            ),
            Topology::Lines => (Mode::Lines, s.indices.clone()),
            Topology::LineStrip => (Mode::LineStrip, s.indices.clone()),
            Topology::Points => (Mode::Points, s.indices.clone()),
        };
        primitives.push(Primitive {
            mode,
            indices,
            material: Some(i),
        });
    }

    let skin = match &m.skin {
        Some(skin) => to_skin(&m, skin, opts, &mut notes)?,
        None => None,
    };
    let morph_targets = morphs(&m, &mut notes)?;
    for r in &m.non_finite {
        notes.push(format!("mesh `{name}`: non-finite values: {r}"));
    }
    Ok(ToScene {
        mesh: Mesh {
            name: name.clone(),
            positions,
            normals,
            tangents,
            colors,
            uvs,
            primitives,
            materials,
            skin,
            morph_targets,
            ..Mesh::default()
        },
        notes,
    })
}

fn to_skin(
    m: &UnityMeshData,
    skin: &super::MeshSkin,
    opts: &SceneOptions,
    notes: &mut Vec<String>,
) -> Result<Option<Skin>> {
    let name = &m.name;
    let Some(drawn) = skin.drawn(opts.skin_weights) else {
        return Ok(None);
    };
    let bones = skin.bind_poses.len();
    if bones == 0 {
        notes.push(format!(
            "mesh `{name}`: skin left out: it has influences but no bind poses"
        ));
        return Ok(None);
    }
    if !opts.joint_names.is_empty() && opts.joint_names.len() != bones {
        return Err(input(
            format!("{bones} joint names (one per bind pose)"),
            opts.joint_names.len().to_string(),
        ));
    }
    let limit = opts.skin_weights.limit().unwrap_or(usize::MAX).min(4);
    let setting = match opts.skin_weights {
        SkinWeights::One => "1",
        SkinWeights::Two => "2",
        SkinWeights::Four => "4",
        SkinWeights::All => "all",
    };
    if skin
        .variable
        .as_ref()
        .is_some_and(|v| std::ptr::eq(v, drawn))
    {
        notes.push(format!(
            "mesh `{name}`: skin from m_VariableBoneCountWeights, every influence (--skin-weights {setting})"
        ));
    } else {
        let most = limit.min(drawn.max_influences().max(1));
        let s = if most == 1 { "" } else { "s" };
        notes.push(format!(
            "mesh `{name}`: skin from the blend channels, up to {most} influence{s} per vertex (--skin-weights {setting})"
        ));
    }
    let (four, cut) = drawn.cut(limit);
    if cut > 0 && opts.skin_weights.limit().is_none_or(|l| l > 4) {
        notes.push(format!(
            "mesh `{name}`: {cut} vertices have more than four influences; glTF gets the heaviest four, renormalised"
        ));
    }
    let mut joints = Vec::with_capacity(four.vertex_count());
    let mut weights = Vec::with_capacity(four.vertex_count());
    let mut unweighted = 0;
    for v in 0..four.vertex_count() {
        let (w, b) = four.influences(v);
        let mut jv = [0u16; 4];
        let mut wv = [0f32; 4];
        for (k, (&wt, &bone)) in w.iter().zip(b).enumerate().take(4) {
            if wt == 0.0 {
                continue;
            }
            if bone as usize >= bones {
                return Err(input(
                    format!("a bone slot below the {bones} bind poses (vertex {v}, weight {wt})"),
                    bone.to_string(),
                ));
            }
            // Below `bones`, which came from a slice of 64-byte matrices; a u16 may still be
            // too small.
            jv[k] = u16::try_from(bone).map_err(|_| {
                input(
                    "a bone slot glTF's 16-bit joints can hold",
                    bone.to_string(),
                )
            })?;
            wv[k] = wt;
        }
        let sum: f32 = wv.iter().sum();
        if sum > 0.0 {
            wv = wv.map(|x| x / sum);
        } else {
            unweighted += 1;
        }
        joints.push(jv);
        weights.push(wv);
    }
    if unweighted > 0 {
        notes.push(format!(
            "mesh `{name}`: {unweighted} vertices have no influence of non-zero weight"
        ));
    }
    Ok(Some(Skin {
        joints,
        weights,
        inverse_bind_matrices: skin.bind_poses.iter().map(inverse_bind_matrix).collect(),
        joint_names: if opts.joint_names.is_empty() {
            (0..bones).map(|i| format!("bone {i}")).collect()
        } else {
            opts.joint_names.clone()
        },
        ..Skin::default()
    }))
}

/// Each blend shape channel as a morph target: its last (full) frame's deltas, mirrored.
fn morphs(m: &UnityMeshData, notes: &mut Vec<String>) -> Result<Vec<MorphTarget>> {
    let Some(shapes) = &m.shapes else {
        return Ok(vec![]);
    };
    let name = &m.name;
    let n = m.vertex_count;
    let mut out = vec![];
    for (c, ch) in shapes.channels.iter().enumerate() {
        let frames = shapes.frames_of(c);
        let Some(frame) = frames.last() else {
            notes.push(format!(
                "mesh `{name}`: blend shape `{}` has no frames and is left out",
                ch.name
            ));
            continue;
        };
        if frames.len() > 1 {
            notes.push(format!(
                "mesh `{name}`: blend shape `{}`: glTF gets its last frame (weight {}); its {} in-between frames are left out",
                ch.name,
                frame.weight,
                frames.len() - 1
            ));
        }
        let mut positions = vec![[0.0f32; 3]; n];
        let mut normals = frame.has_normals.then(|| vec![[0.0f32; 3]; n]);
        let mut tangents = frame.has_tangents.then(|| vec![[0.0f32; 3]; n]);
        for d in shapes.deltas(frame) {
            let v = d.index as usize;
            let mirror = |a: [f32; 3]| [-a[0], a[1], a[2]];
            let add = |to: &mut [f32; 3], a: [f32; 3]| {
                for k in 0..3 {
                    to[k] += a[k];
                }
            };
            let Some(p) = positions.get_mut(v) else {
                return Err(input(
                    format!("blend shape entries naming one of the {n} vertices"),
                    v.to_string(),
                ));
            };
            add(p, mirror(d.position));
            if let Some(t) = normals.as_mut().and_then(|x| x.get_mut(v)) {
                add(t, mirror(d.normal));
            }
            if let Some(t) = tangents.as_mut().and_then(|x| x.get_mut(v)) {
                add(t, mirror(d.tangent));
            }
        }
        out.push(MorphTarget {
            name: ch.name.clone(),
            positions,
            normals,
            tangents,
            default_weight: 0.0,
        });
    }
    Ok(out)
}
