//! Reads geometry (glTF 2.0 `.gltf`/`.glb`, Wavefront `.obj`) into the common model, for
//! building layouts from meshes made in other tools.

use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Mesh, Mode, Primitive, Scene};
use std::path::Path;

fn bad(path: &Path, expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Input, expected, found).rooted(path.display().to_string())
}

/// Reads a geometry file, choosing the reader by extension.
pub fn read(path: &Path) -> Result<Scene> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("gltf" | "glb") => gltf_file(path),
        Some("obj") => obj_file(path),
        _ => Err(bad(path, "a .gltf, .glb or .obj file", "another extension")),
    }
}

fn gltf_file(path: &Path) -> Result<Scene> {
    let (doc, buffers, _) =
        gltf::import(path).map_err(|e| bad(path, "a readable glTF 2.0 file", e.to_string()))?;
    let mut meshes = vec![];
    for mesh in doc.meshes() {
        let mut out = Mesh {
            name: mesh
                .name()
                .map(str::to_string)
                .unwrap_or_else(|| format!("mesh{}", mesh.index())),
            ..Mesh::default()
        };
        let mut colors: Vec<[f32; 4]> = vec![];
        let mut any_colour = false;
        for prim in mesh.primitives() {
            let reader = prim.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
            let positions: Vec<[f32; 3]> = reader
                .read_positions()
                .ok_or_else(|| bad(path, "a primitive with POSITION", "none"))?
                .collect();
            let base = out.positions.len() as u32;
            let n = positions.len();
            out.positions.extend(positions);
            match reader.read_colors(0) {
                Some(c) => {
                    any_colour = true;
                    colors.extend(c.into_rgba_f32());
                }
                None => colors.extend(std::iter::repeat_n([1.0; 4], n)),
            }
            let indices: Vec<u32> = match reader.read_indices() {
                Some(i) => i.into_u32().map(|i| i + base).collect(),
                None => (base..base + n as u32).collect(),
            };
            let mode = match prim.mode() {
                gltf::mesh::Mode::Triangles => Mode::Triangles,
                gltf::mesh::Mode::Lines => Mode::Lines,
                gltf::mesh::Mode::LineStrip => Mode::LineStrip,
                gltf::mesh::Mode::Points => Mode::Points,
                other => {
                    return Err(bad(
                        path,
                        "triangles, lines, line strips or points",
                        format!("{other:?}"),
                    ))
                }
            };
            out.primitives.push(Primitive {
                mode,
                indices,
                material: None,
            });
        }
        if any_colour {
            out.colors = Some(Colors::Float(colors));
        }
        meshes.push(out);
    }
    Ok(Scene {
        meshes,
        notes: vec![],
    })
}

fn obj_file(path: &Path) -> Result<Scene> {
    // Only positions and colours are read; the reader renumbers vertices in order of first use.
    let opts = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: false,
        ignore_lines: false,
    };
    let (models, _) =
        tobj::load_obj(path, &opts).map_err(|e| bad(path, "a readable OBJ file", e.to_string()))?;
    let meshes = models
        .into_iter()
        .map(|m| {
            let positions: Vec<[f32; 3]> = m
                .mesh
                .positions
                .chunks_exact(3)
                .map(|p| [p[0], p[1], p[2]])
                .collect();
            let colors = (m.mesh.vertex_color.len() == m.mesh.positions.len()
                && !m.mesh.vertex_color.is_empty())
            .then(|| {
                Colors::Float(
                    m.mesh
                        .vertex_color
                        .chunks_exact(3)
                        .map(|c| [c[0], c[1], c[2], 1.0])
                        .collect(),
                )
            });
            Mesh {
                name: m.name,
                positions,
                colors,
                primitives: vec![Primitive {
                    mode: Mode::Triangles,
                    indices: m.mesh.indices,
                    material: None,
                }],
                ..Mesh::default()
            }
        })
        .collect();
    Ok(Scene {
        meshes,
        notes: vec![],
    })
}

/// All meshes of a scene as one (vertices appended, indices moved along), for layouts that
/// hold a single mesh. Only what every mesh has is kept.
pub fn merge(scene: &Scene) -> Mesh {
    let mut out = Mesh {
        name: scene
            .meshes
            .first()
            .map(|m| m.name.clone())
            .unwrap_or_default(),
        ..Mesh::default()
    };
    let all_coloured = scene.meshes.iter().all(|m| m.colors.is_some());
    let mut colors = vec![];
    for m in &scene.meshes {
        let base = out.positions.len() as u32;
        out.positions.extend(&m.positions);
        if all_coloured {
            match &m.colors {
                Some(Colors::Float(c)) => colors.extend(c),
                Some(Colors::Rgba8(c)) => {
                    colors.extend(c.iter().map(|c| c.map(|x| f32::from(x) / 255.0)))
                }
                None => {}
            }
        }
        for p in &m.primitives {
            out.primitives.push(Primitive {
                mode: p.mode,
                indices: p.indices.iter().map(|i| i + base).collect(),
                material: None,
            });
        }
    }
    if all_coloured && !scene.meshes.is_empty() {
        out.colors = Some(Colors::Float(colors));
    }
    out
}
