//! SWS geometry in the common model. Only the SubMeshes carry geometry whose encoding the
//! document establishes (float positions, normals, tangents, binormals, D3DCOLOR colours, UV
//! channels, morph targets); the compiled vertex streams are in a format the documents do not
//! give, so a mesh without SubMeshes has no geometry to decode.
//!
//! Each SubMesh becomes one mesh of the scene with one triangle-list primitive: its triangles
//! are those of its compiled range, drawn with the material the mesh's material list gives that
//! range. Coordinates and triangle order are kept as stored (see [`FRAME_NOTE`]).

use super::relations::{submesh_ranges, with_copy};
use crate::generated::sws_mesh::{
    CompiledMeshRef, Float3, Float3RunRef, InlineSubmeshPlace, SubmeshPos, SubmeshRef,
    SwsMeshPlace, SwsMeshPos, SwsMeshRef,
};
use crate::rt::{Error, ErrorKind, Place, Result};
use crate::scene::{Colors, Material, Mesh, Mode, MorphTarget, Primitive, Scene};

/// What the export assumes about the game's frame, and why.
pub const FRAME_NOTE: &str = "coordinates and triangle order are kept as stored: the document does not say which handedness or winding the game uses. Read as glTF's right-handed frame with counter-clockwise front faces, a mesh authored for Direct3D 9's defaults (left-handed, clockwise front faces) appears mirrored but with its faces and normals consistent";

/// Why the compiled streams are not decoded (one sentence for dumps, checks and exports, so
/// that a report joining their notes says it once).
pub fn compiled_note(c: &CompiledMeshRef<'_>) -> String {
    format!(
        "the compiled vertex streams are not decoded: the vertex format that flags 0x{:08X} selects (stride {} bytes) is not in the documents, so their bytes are kept as stored; each of the {} streams is a list of {}-byte vertices",
        c.flags,
        c.stride,
        c.vertex_streams.len(),
        c.stride
    )
}

/// Where a Mesh body's geometry comes from, and how it is kept.
pub fn geometry_note(submeshes: usize) -> String {
    let count = match submeshes {
        1 => "its SubMesh".to_string(),
        n => format!("its {n} SubMeshes"),
    };
    format!("geometry comes from {count} (positions, normals, colours, UV channels, morph targets, and tangents from each SubMesh's copy); {FRAME_NOTE}")
}

fn v3(f: Float3) -> [f32; 3] {
    [f.x, f.y, f.z]
}

fn v3s(run: &Float3RunRef<'_>) -> Vec<[f32; 3]> {
    run.items.iter().map(v3).collect()
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

/// Tangents for glTF from a copy's tangents and binormals: xyz the tangent, w the side of the
/// binormal (+1 when it is normal x tangent, -1 when it points the other way).
fn tangents(normals: &[[f32; 3]], copy: &SubmeshRef<'_>) -> Vec<[f32; 4]> {
    normals
        .iter()
        .zip(copy.tangents.items.iter())
        .zip(copy.binormals.items.iter())
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

/// One SubMesh (at `at`) as a mesh of the common model. `material` is the material its
/// primitive uses; `notes` gains what was left out and why. Runs whose length is not the vertex
/// count (relations that only warn) are left out with a note; the verdict has refused indices
/// that name no vertex.
pub fn submesh_mesh(
    s: &SubmeshRef<'_>,
    at: &Place<'_, SubmeshPos>,
    name: &str,
    material: Option<Material>,
    notes: &mut Vec<String>,
) -> Result<Mesh> {
    let n = s.positions.items.len();
    let positions = v3s(&s.positions);
    let mut skipped = vec![];
    let normals = (s.normals.items.len() == n).then(|| v3s(&s.normals));
    if normals.is_none() {
        skipped.push("normals".to_string());
    }
    let tangents = with_copy(s, at, |c, _| match &normals {
        Some(nr) if n > 0 && c.tangents.items.len() == n && c.binormals.items.len() == n => {
            // The copy's vertices are the original's only where its positions are, bit for bit.
            if c.positions.items.bytes() == s.positions.items.bytes() {
                Some(tangents(nr, c))
            } else {
                notes.push(format!("{name}: the copy's tangents are left out: its positions differ from the SubMesh's, so its vertices may not be the same"));
                None
            }
        }
        _ => None,
    })
    .flatten();
    let colors = match s.colours.items.len() {
        0 => None,
        len if len == n => Some(Colors::Rgba8(
            s.colours.items.iter().map(d3dcolor_rgba).collect(),
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
    let all = s.indices.items.len();
    let whole = all / 3 * 3;
    if whole != all {
        notes.push(format!(
            "{name}: the last {} indices are not a whole triangle and are left out",
            all - whole
        ));
    }
    let indices: Vec<u32> = s.indices.items.iter().take(whole).map(u32::from).collect();
    let has_material = material.is_some();
    let mut mesh = Mesh {
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
    mesh.origin = super::origin::submesh(s, at);
    mesh.validate()?;
    Ok(mesh)
}

/// The notes every SubMesh export carries, besides [`FRAME_NOTE`].
fn submesh_notes(s: &SubmeshRef<'_>) -> Vec<String> {
    let mut notes = vec![];
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
pub fn mesh_scene(m: &SwsMeshRef<'_>, at: &Place<'_, SwsMeshPos>) -> Result<Scene> {
    let c = &m.data;
    let Some(first) = m.submeshes.first() else {
        return Err(Error::unplaced(
            ErrorKind::Unsupported,
            "a mesh whose vertex positions are established (one with SubMeshes)",
            format!(
                "a mesh with no SubMeshes, whose only vertices are compiled ones: the vertex format that flags 0x{:08X} selects (stride {}) is not in the documents, so its positions cannot be established",
                c.flags, c.stride
            ),
        )
        .rooted("export"));
    };
    let mut notes = vec![geometry_note(m.submeshes.len())];
    notes.extend(submesh_notes(&first.submesh));
    for e in &m.submeshes[1..] {
        for n in submesh_notes(&e.submesh) {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    notes.push(compiled_note(c));
    notes.push(format!("each SubMesh is exported with the triangles of its first-partition range (the range its material draws); the second partition's {} ranges and the {} palettes address the compiled vertices only, so they are kept in the file and not exported", c.ranges_b.len(), c.palettes.palettes.len()));
    if !m.bones.is_empty() {
        notes.push(format!("{} bones are not exported as a skin: which space their matrices map is not established, and the vertices' bone indices and weights are in the undocumented compiled vertex format", m.bones.len()));
    }
    let bones = super::origin::bones(m, at);
    let entries = at.submeshes();
    let mut meshes = vec![];
    for (i, (e, range)) in m.submeshes.iter().zip(submesh_ranges(m)).enumerate() {
        let s = &e.submesh;
        let name = format!("submesh {i}");
        let material = match range {
            Some(range) => Material {
                name: format!("material {} (range {range})", s.material_id),
            },
            None => {
                notes.push(format!(
                    "{name}: no first-partition range of its own is drawn with material {}, so its range is not known",
                    s.material_id
                ));
                Material {
                    name: format!("material {}", s.material_id),
                }
            }
        };
        let entry = entries.at(i);
        let mut mesh = submesh_mesh(s, &entry.submesh(), &name, Some(material), &mut notes)?;
        if let Some(b) = &bones {
            mesh.origin.extras.insert("bones".into(), b.clone());
        }
        meshes.push(mesh);
    }
    Ok(Scene { meshes, notes })
}

/// A SubMesh on its own.
pub fn submesh_scene(s: &SubmeshRef<'_>, at: &Place<'_, SubmeshPos>) -> Result<Scene> {
    let mut notes = vec![FRAME_NOTE.to_string()];
    notes.extend(submesh_notes(s));
    let material = Some(Material {
        name: format!("material {}", s.material_id),
    });
    let mesh = submesh_mesh(s, at, "submesh", material, &mut notes)?;
    Ok(Scene {
        meshes: vec![mesh],
        notes,
    })
}
