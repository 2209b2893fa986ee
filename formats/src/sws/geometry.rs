//! SWS geometry in the common model. Only the SubMeshes carry geometry whose encoding the
//! document establishes (float positions, normals, tangents, binormals, D3DCOLOR colours, UV
//! channels, morph targets); the compiled vertex streams are in a format the documents do not
//! give, so a mesh without SubMeshes has no geometry to decode.
//!
//! Each SubMesh becomes one mesh of the scene with one triangle-list primitive: its triangles
//! are those of its compiled range, drawn with the material the mesh's material list gives that
//! range. Coordinates and triangle order are kept as stored (see [`FRAME_NOTE`]).

use crate::generated::sws_mesh::{Float3, Submesh, SwsMesh};
use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Material, Mesh, Mode, MorphTarget, Primitive, Scene};

/// What the export assumes about the game's frame, and why.
pub const FRAME_NOTE: &str = "coordinates and triangle order are kept as stored: the document does not say which handedness or winding the game uses. Read as glTF's right-handed frame with counter-clockwise front faces, a mesh authored for Direct3D 9's defaults (left-handed, clockwise front faces) appears mirrored but with its faces and normals consistent";

/// Why the compiled streams are not decoded.
pub fn compiled_note(flags: u32, stride: u32) -> String {
    format!("the compiled vertex streams are not decoded: the vertex format that flags 0x{flags:08X} selects (stride {stride} bytes) is not in the documents, so their bytes are kept as stored")
}

fn v3(f: &Float3) -> [f32; 3] {
    [f.x, f.y, f.z]
}

/// D3DCOLOR 0xAARRGGBB (stored as the bytes B, G, R, A) as RGBA.
pub fn d3dcolor_rgba(c: u32) -> [u8; 4] {
    let [b, g, r, a] = c.to_le_bytes();
    [r, g, b, a]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn bits_equal(a: &[Float3], b: &[Float3]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(p, q)| {
            p.x.to_bits() == q.x.to_bits()
                && p.y.to_bits() == q.y.to_bits()
                && p.z.to_bits() == q.z.to_bits()
        })
}

/// Tangents for glTF from a copy's tangents and binormals: xyz the tangent, w the side of the
/// binormal (+1 when it is normal x tangent, -1 when it points the other way).
fn tangents(normals: &[[f32; 3]], copy: &Submesh) -> Vec<[f32; 4]> {
    normals
        .iter()
        .zip(&copy.tangents.items)
        .zip(&copy.binormals.items)
        .map(|((n, t), b)| {
            let t = v3(t);
            let w = if dot(cross(*n, t), v3(b)) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [t[0], t[1], t[2], w]
        })
        .collect()
}

/// One SubMesh as a mesh of the common model. `material` is the material its primitive uses;
/// `notes` gains what was left out and why. Runs whose length is not the vertex count are left
/// out (with a note); indices that name no vertex are refused.
pub fn submesh_mesh(
    s: &Submesh,
    name: &str,
    material: Option<Material>,
    notes: &mut Vec<String>,
) -> Result<Mesh> {
    let n = s.positions.items.len();
    let positions: Vec<[f32; 3]> = s.positions.items.iter().map(v3).collect();
    let mut skipped = vec![];
    let normals: Option<Vec<[f32; 3]>> =
        (s.normals.items.len() == n).then(|| s.normals.items.iter().map(v3).collect());
    if normals.is_none() {
        skipped.push("normals".to_string());
    }
    let copy = s.copy.submesh.as_deref();
    let tangents = match (copy, &normals) {
        (Some(c), Some(nr))
            if n > 0 && c.tangents.items.len() == n && c.binormals.items.len() == n =>
        {
            if bits_equal(&c.positions.items, &s.positions.items) {
                Some(tangents(nr, c))
            } else {
                notes.push(format!("{name}: the copy's tangents are left out: its positions differ from the SubMesh's, so its vertices may not be the same"));
                None
            }
        }
        _ => None,
    };
    let colors = match s.colours.items.len() {
        0 => None,
        len if len == n => Some(Colors::Rgba8(
            s.colours.items.iter().map(|&c| d3dcolor_rgba(c)).collect(),
        )),
        _ => {
            skipped.push("colours".to_string());
            None
        }
    };
    let mut uvs = vec![];
    for (k, c) in s.uv_channels.items.iter().enumerate() {
        if c.uvs.items.len() == n {
            uvs.push(c.uvs.items.iter().map(|p| [p.u, p.v]).collect());
        } else {
            skipped.push(format!("UV channel {k}"));
        }
    }
    let mut morph_targets = vec![];
    for (k, c) in s.morph_channels.items.iter().enumerate() {
        if c.positions.items.len() != n {
            skipped.push(format!("morph channel {k}"));
            continue;
        }
        let deltas = c
            .positions
            .items
            .iter()
            .zip(&positions)
            .map(|(p, base)| sub(v3(p), *base))
            .collect();
        let normal_deltas = match &normals {
            Some(base) if c.normals.items.len() == n => Some(
                c.normals
                    .items
                    .iter()
                    .zip(base)
                    .map(|(p, b)| sub(v3(p), *b))
                    .collect(),
            ),
            _ => None,
        };
        morph_targets.push(MorphTarget {
            name: format!("morph stream {}", k + 1),
            positions: deltas,
            normals: normal_deltas,
            tangents: None,
            default_weight: 0.0,
        });
    }
    if !skipped.is_empty() {
        notes.push(format!(
            "{name}: left out because their length is not the vertex count {n}: {}",
            skipped.join(", ")
        ));
    }
    let whole = s.indices.items.len() / 3 * 3;
    if whole != s.indices.items.len() {
        notes.push(format!(
            "{name}: the last {} indices are not a whole triangle and are left out",
            s.indices.items.len() - whole
        ));
    }
    let indices: Vec<u32> = s
        .indices
        .items
        .iter()
        .take(whole)
        .map(|&i| u32::from(i))
        .collect();
    let has_material = material.is_some();
    let mesh = Mesh {
        name: name.to_string(),
        positions,
        normals,
        tangents,
        colors,
        uvs,
        primitives: vec![Primitive {
            mode: Mode::Triangles,
            indices,
            material: has_material.then_some(0),
        }],
        materials: material.into_iter().collect(),
        skin: None,
        morph_targets,
        ..Mesh::default()
    };
    mesh.validate()?;
    Ok(mesh)
}

/// The notes every SubMesh export carries.
fn submesh_notes(s: &Submesh) -> Vec<String> {
    let mut notes = vec![FRAME_NOTE.to_string()];
    notes.push("texture coordinates are kept as stored: Direct3D's texture space, like glTF's, has v running down from the top".into());
    if s.morph_channels
        .items
        .iter()
        .any(|c| !c.uvs.items.is_empty())
    {
        notes.push("the morph channels' UVs are not exported: the common model's morph targets carry positions and normals only".into());
    }
    notes
}

/// A Mesh body's geometry: one mesh per SubMesh.
pub fn mesh_scene(m: &SwsMesh) -> Result<Scene> {
    let c = &m.data;
    if m.submeshes.is_empty() {
        return Err(Error::unplaced(
            ErrorKind::Unsupported,
            "a mesh whose vertex positions are established (one with SubMeshes)",
            format!(
                "a mesh with no SubMeshes, whose only vertices are compiled ones: the vertex format that flags 0x{:08X} selects (stride {}) is not in the documents, so its positions cannot be established",
                c.flags, c.stride
            ),
        )
        .rooted("export"));
    }
    let mut notes = submesh_notes(&m.submeshes[0].submesh);
    for e in &m.submeshes[1..] {
        for n in submesh_notes(&e.submesh) {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    notes.push(compiled_note(c.flags, c.stride));
    notes.push(format!("each SubMesh is exported with the triangles of its first-partition range (the range its material draws); the second partition's {} ranges and the {} palettes address the compiled vertices only, so they are kept in the file and not exported", c.ranges_b.len(), c.palettes.palettes.len()));
    if !m.bones.is_empty() {
        notes.push(format!("{} bones are not exported as a skin: which space their matrices map is not established, and the vertices' bone indices and weights are in the undocumented compiled vertex format", m.bones.len()));
    }
    let mut meshes = vec![];
    for (i, e) in m.submeshes.iter().enumerate() {
        let s = &e.submesh;
        let name = format!("submesh {i}");
        let material = match m.material_ids.iter().position(|&id| id == s.material_id) {
            Some(range) => Some(Material {
                name: format!("material {} (range {range})", s.material_id),
            }),
            None => {
                notes.push(format!(
                    "{name}: material {} is not in the mesh's material list, so its range is not known",
                    s.material_id
                ));
                Some(Material {
                    name: format!("material {}", s.material_id),
                })
            }
        };
        let mut mesh = submesh_mesh(s, &name, material, &mut notes)?;
        mesh.origin = super::origin::mesh_submesh(m, i);
        meshes.push(mesh);
    }
    Ok(Scene { meshes, notes })
}

/// A SubMesh on its own.
pub fn submesh_scene(s: &Submesh) -> Result<Scene> {
    let mut notes = submesh_notes(s);
    let material = Some(Material {
        name: format!("material {}", s.material_id),
    });
    let mut mesh = submesh_mesh(s, "submesh", material, &mut notes)?;
    mesh.origin = super::origin::submesh(s, "submesh", 0);
    Ok(Scene {
        meshes: vec![mesh],
        notes,
    })
}
