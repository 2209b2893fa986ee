//! MeshBuilder's .meshbin: what the bytes mean (positions, RGBA8 colours, a triangle list whose
//! winding the file does not record) and how MeshBuilder builds one from geometry, with its
//! validation and messages.

use crate::context::{Context, Winding};
use crate::generated::meshbin::{Meshbin, Vertex};
use crate::layouts::Semantics;
use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Mesh, Mode, Primitive, Scene};

/// The most vertices or indices a .meshbin can hold: both counts are u16.
pub const MAX_COUNT: usize = 65_535;

fn need_winding(ctx: &Context) -> Result<Winding> {
    ctx.winding.ok_or_else(|| {
        Error::unplaced(
            ErrorKind::Input,
            "a winding (--winding d3d or --winding gl): a .meshbin does not record which build made it",
            "none given",
        )
    })
}

impl Semantics for Meshbin {
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        let mut out = vec![];
        if self.indices.len() % 3 != 0 {
            out.push(
                Error::relation(
                    Meshbin::REL_WHOLE_TRIANGLES,
                    Meshbin::OFFSET_NUM_INDICES,
                    "a multiple of 3",
                    self.indices.len().to_string(),
                )
                .in_field("num_indices")
                .rooted("meshbin"),
            );
        }
        let base = Meshbin::OFFSET_VERTICES + Vertex::FIXED_SIZE * self.vertices.len() as u64;
        let n = self.vertices.len();
        for (i, &ix) in self.indices.iter().enumerate() {
            if usize::from(ix) >= n {
                out.push(
                    Error::relation(
                        Meshbin::REL_INDICES_NAME_VERTICES,
                        base + 2 * i as u64,
                        format!("a vertex index below {n} (in triangle {})", i / 3),
                        ix.to_string(),
                    )
                    .at_index(i)
                    .in_field("indices")
                    .rooted("meshbin"),
                );
            }
        }
        out
    }

    fn notes(&self, _ctx: &Context) -> Vec<String> {
        vec!["The file does not record its winding: a Direct3D build's triangles are clockwise, an OpenGL build's counter-clockwise. Give --winding when decoding geometry.".into()]
    }

    fn scene(&self, ctx: &Context) -> Result<Scene> {
        Ok(Scene {
            meshes: vec![to_mesh(self, need_winding(ctx)?)?],
            notes: vec![],
        })
    }
}

/// The geometry of a .meshbin, in the common model (counter-clockwise front faces).
pub fn to_mesh(m: &Meshbin, winding: Winding) -> Result<Mesh> {
    if let Some(e) = m.relations(&Context::new()).into_iter().next() {
        return Err(e);
    }
    let mut indices: Vec<u32> = m.indices.iter().map(|&i| u32::from(i)).collect();
    if winding == Winding::D3d {
        for t in indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
    Ok(Mesh {
        name: "meshbin".into(),
        positions: m.vertices.iter().map(|v| [v.x, v.y, v.z]).collect(),
        colors: Some(Colors::Rgba8(
            m.vertices.iter().map(|v| [v.r, v.g, v.b, v.a]).collect(),
        )),
        primitives: vec![Primitive {
            mode: Mode::Triangles,
            indices,
            material: None,
        }],
        ..Mesh::default()
    })
}

fn geometry_error(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Input, expected, found).rooted("geometry")
}

fn to_u8(c: f32) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Builds a .meshbin from geometry the way MeshBuilder does: every primitive must be a triangle
/// list, at most 65,535 vertices and indices, every index naming a vertex; the Direct3D build
/// swaps the second and third index of every triangle. Vertices without colour are white.
pub fn from_mesh(mesh: &Mesh, winding: Winding) -> Result<Meshbin> {
    let n = mesh.positions.len();
    if n > MAX_COUNT {
        return Err(geometry_error(
            format!("at most {MAX_COUNT} vertices"),
            format!("The mesh has {n} vertices, but a mesh can't have more than {MAX_COUNT}"),
        ));
    }
    let mut indices: Vec<u32> = vec![];
    for (pi, p) in mesh.primitives.iter().enumerate() {
        if p.mode != Mode::Triangles {
            return Err(geometry_error(
                "triangle lists only (a .meshbin has no other topology)",
                format!("primitive {pi} of mode {:?}", p.mode),
            ));
        }
        if p.indices.len() % 3 != 0 {
            return Err(geometry_error(
                "three indices per triangle",
                format!("primitive {pi} with {} indices", p.indices.len()),
            ));
        }
        indices.extend(&p.indices);
    }
    if indices.len() > MAX_COUNT {
        return Err(geometry_error(
            format!("at most {MAX_COUNT} indices"),
            format!(
                "The mesh has {} indices, but a mesh can't have more than {MAX_COUNT}",
                indices.len()
            ),
        ));
    }
    if let Some(i) = indices.iter().position(|&ix| ix as usize >= n) {
        let last = n.saturating_sub(1);
        return Err(geometry_error(
            format!("every index must be an integer from 0 to {last}"),
            format!(
                "Triangle {} refers to a vertex that doesn't exist (index {})",
                i / 3,
                indices[i]
            ),
        ));
    }
    if winding == Winding::D3d {
        for t in indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
    let colour = |i: usize| -> [u8; 4] {
        match &mesh.colors {
            Some(Colors::Rgba8(c)) => c[i],
            Some(Colors::Float(c)) => c[i].map(to_u8),
            None => [255; 4],
        }
    };
    mesh.validate()?;
    Ok(Meshbin {
        num_vertices: n as u16,
        num_indices: indices.len() as u16,
        vertices: mesh
            .positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let [r, g, b, a] = colour(i);
                Vertex {
                    x: p[0],
                    y: p[1],
                    z: p[2],
                    r,
                    g,
                    b,
                    a,
                }
            })
            .collect(),
        indices: indices.into_iter().map(|i| i as u16).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rt::Root;

    fn floor_mesh() -> Mesh {
        // The floor as its source lists it: counter-clockwise triangles 0, 1, 2 and 2, 1, 3.
        Mesh {
            name: "floor".into(),
            positions: vec![
                [-4.0, 0.0, 4.0],
                [4.0, 0.0, 4.0],
                [-4.0, 0.0, -4.0],
                [4.0, 0.0, -4.0],
            ],
            colors: Some(Colors::Rgba8(vec![[51, 115, 64, 255]; 4])),
            primitives: vec![Primitive {
                mode: Mode::Triangles,
                indices: vec![0, 1, 2, 2, 1, 3],
                material: None,
            }],
            ..Mesh::default()
        }
    }

    #[test]
    fn direct3d_build_swaps_the_second_and_third_index() {
        let d3d = from_mesh(&floor_mesh(), Winding::D3d).unwrap();
        // The document's Direct3D floor: 0, 2, 1 and 2, 3, 1.
        assert_eq!(d3d.indices, vec![0, 2, 1, 2, 3, 1]);
        let gl = from_mesh(&floor_mesh(), Winding::Gl).unwrap();
        assert_eq!(gl.indices, vec![0, 1, 2, 2, 1, 3]);
        let bytes = d3d.to_bytes(&Context::new()).unwrap();
        assert_eq!(bytes.len(), 80);
        assert_eq!(&bytes[..4], &[4, 0, 6, 0]);
    }

    #[test]
    fn decoding_undoes_the_build_swap() {
        let d3d = from_mesh(&floor_mesh(), Winding::D3d).unwrap();
        let mesh = to_mesh(&d3d, Winding::D3d).unwrap();
        assert_eq!(mesh.primitives[0].indices, vec![0, 1, 2, 2, 1, 3]);
    }

    #[test]
    fn builder_messages_are_the_documents() {
        let mut m = floor_mesh();
        m.primitives[0].indices[4] = 7;
        let e = from_mesh(&m, Winding::D3d).unwrap_err();
        assert_eq!(
            e.to_string(),
            "geometry: expected every index must be an integer from 0 to 3, found Triangle 1 refers to a vertex that doesn't exist (index 7)"
        );
        let mut big = floor_mesh();
        big.positions = vec![[0.0; 3]; 70_000];
        big.colors = None;
        let e = from_mesh(&big, Winding::Gl).unwrap_err();
        assert!(e
            .found
            .contains("The mesh has 70000 vertices, but a mesh can't have more than 65535"));
    }
}
