//! MeshBuilder's .meshbin: what the bytes mean (positions, RGBA8 colours, a triangle list whose
//! winding the file does not record) and how MeshBuilder builds one from geometry, with its
//! validation and messages.

use crate::context::{Context, Winding};
use crate::generated::meshbin::{Meshbin, MeshbinPlace, MeshbinPos, MeshbinRef, Vertex};
use crate::meaning::Semantics;
use crate::rt::pod::Block;
use crate::rt::{Error, ErrorKind, Result};
use crate::rt::{Nums, Place, Root};
use crate::scene::{Colors, Mesh, Mode, Primitive, Scene};
use crate::verdict::Judge;

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
    const NEEDS_WINDING: bool = true;
    const FROM_GEOMETRY: bool = true;

    /// The relations are the spec's (`-check`); decoding rests on them, so a file that breaks
    /// one cannot be decoded either.
    fn judge(view: &MeshbinRef<'_>, at: &Place<'_, MeshbinPos>, j: &mut Judge<'_>) {
        let n = view.vertices.len();
        let count = view.indices.len();
        if !count.is_multiple_of(3) {
            j.push(at.indices().error(
                ErrorKind::Unsupported,
                "whole triangles (three indices each) to decode a triangle list",
                format!("{count} indices"),
            ));
        }
        // The common case (every index in range) is one pass that the compiler vectorises;
        // only a file with bad indices is walked again to count them.
        if max_index(&view.indices).is_some_and(|m| usize::from(m) >= n) {
            let bad = view.indices.iter().filter(|&i| usize::from(i) >= n).count();
            j.push(at.indices().error(
                ErrorKind::Unsupported,
                format!("every index below the vertex count {n}, to decode the triangles"),
                format!("{bad} indices that name no vertex"),
            ));
        }
    }

    fn notes(_view: &MeshbinRef<'_>, _ctx: &Context) -> Vec<String> {
        vec!["The file does not record its winding: a Direct3D build's triangles are clockwise, an OpenGL build's counter-clockwise. Give --winding when decoding geometry.".into()]
    }

    fn scene(view: &MeshbinRef<'_>, at: &Place<'_, MeshbinPos>, ctx: &Context) -> Result<Scene> {
        let mut mesh = to_mesh(view, need_winding(ctx)?);
        mesh.origin.layout = <Meshbin as Root>::ID.into();
        mesh.origin.ranges = vec![
            source("vertices", at.vertices().span()),
            source("indices", at.indices().span()),
        ];
        Ok(Scene {
            meshes: vec![mesh],
            notes: vec![],
        })
    }

    fn from_geometry(mesh: &Mesh, ctx: &Context) -> Option<Result<(Self, Vec<String>)>> {
        let notes = crate::import::left_out(mesh, <Meshbin as Root>::ID, &HOLDS);
        Some(need_winding(ctx).and_then(|w| Ok((from_mesh(mesh, w)?, notes))))
    }
}

/// What a MeshBuilder `.meshbin` holds: positions, RGBA8 colours and one triangle list.
pub const HOLDS: crate::import::Holds = crate::import::Holds {
    normals: false,
    tangents: false,
    uv_sets: 0,
    colors: true,
    colors_8bit: true,
    skin: false,
    morph_targets: false,
    materials: false,
    primitives: false,
};

/// The layouts this family gives a meaning.
pub const MEANINGS: &[(&str, crate::ops::Ops)] =
    &[(<Meshbin as Root>::ID, crate::ops::Ops::of::<Meshbin>())];

/// The largest index, if any (one pass, vectorised).
fn max_index(indices: &Nums<'_, u16>) -> Option<u16> {
    match indices.as_slice() {
        Some(s) => s.iter().copied().max(),
        None => indices.iter().max(),
    }
}

fn source(field: &str, span: crate::rt::Span) -> crate::scene::SourceRange {
    crate::scene::SourceRange {
        field: format!("meshbin.{field}"),
        primitive: None,
        offset: span.start,
        len: span.len(),
        file: None,
    }
}

/// The geometry of a .meshbin whose verdict passed, in the common model (counter-clockwise
/// front faces): one pass over the vertex bytes, one over the indices.
pub fn to_mesh(view: &MeshbinRef<'_>, winding: Winding) -> Mesh {
    // The vertices as blocks of the spec's size, each decoded by the generated decoder: with
    // the size known to the compiler, every field is a plain load (no check per vertex). The
    // work is bound by memory traffic, not instructions: each array is filled a few hundred
    // vertices at a time, so that the second array reads blocks the first just brought into the
    // cache instead of the whole input twice (1.5× memcpy's time in two whole passes).
    let (blocks, _) = view
        .vertices
        .bytes()
        .as_chunks::<{ <Vertex as Block>::SIZE }>();
    let mut positions: Vec<[f32; 3]> = Vec::with_capacity(blocks.len());
    let mut colors: Vec<[u8; 4]> = Vec::with_capacity(blocks.len());
    for part in blocks.chunks(256) {
        positions.extend(part.iter().map(|b| {
            let v = Vertex::decode(b);
            [v.x, v.y, v.z]
        }));
        colors.extend(part.iter().map(|b| {
            let v = Vertex::decode(b);
            [v.r, v.g, v.b, v.a]
        }));
    }
    let copied;
    let src: &[u16] = match view.indices.as_slice() {
        Some(s) => s,
        None => {
            copied = view.indices.iter().collect::<Vec<u16>>();
            &copied
        }
    };
    let indices = match winding {
        Winding::Gl => src.iter().map(|&i| u32::from(i)).collect(),
        Winding::D3d => turned(src),
    };
    Mesh {
        // A .meshbin holds no name: the exporter names it after the file.
        name: String::new(),
        positions,
        colors: Some(Colors::Rgba8(colors)),
        primitives: vec![Primitive {
            mode: Mode::Triangles,
            indices,
            material: None,
        }],
        ..Mesh::default()
    }
}

/// Direct3D's clockwise triangles widened to u32 and turned counter-clockwise (the second and
/// third index swapped); four triangles per step, a fixed shuffle the compiler vectorises. What
/// is not whole triangles (in a file whose verdict failed) is kept as it is.
fn turned(src: &[u16]) -> Vec<u32> {
    let (fours, rest) = src.as_chunks::<12>();
    let (triangles, loose) = rest.as_chunks::<3>();
    // Room for the rest too, so that it never moves what the fast loop wrote.
    let mut out: Vec<[u32; 12]> = Vec::with_capacity(fours.len() + 1);
    out.extend(fours.iter().map(|t| {
        [
            t[0], t[2], t[1], t[3], t[5], t[4], t[6], t[8], t[7], t[9], t[11], t[10],
        ]
        .map(u32::from)
    }));
    let mut out = out.into_flattened();
    out.extend(
        triangles
            .iter()
            .flat_map(|&[a, b, c]| [a, c, b].map(u32::from)),
    );
    out.extend(loose.iter().map(|&i| u32::from(i)));
    out
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
        let bytes = from_mesh(&floor_mesh(), Winding::D3d)
            .unwrap()
            .to_bytes(&Context::new())
            .unwrap();
        let read = Meshbin::read::<false>(&bytes, &Context::new()).unwrap();
        let mesh = to_mesh(&read.value, Winding::D3d);
        assert_eq!(mesh.primitives[0].indices, vec![0, 1, 2, 2, 1, 3]);
    }

    #[test]
    fn turning_in_fours_matches_turning_each_triangle() {
        // Every length up to a few steps of four triangles, with triangles left over and
        // indices that are not whole triangles.
        for len in 0..40u16 {
            let src: Vec<u16> = (0..len).map(|i| i.wrapping_mul(7919)).collect();
            let mut expected: Vec<u32> = src.iter().map(|&i| u32::from(i)).collect();
            for t in expected.chunks_exact_mut(3) {
                t.swap(1, 2);
            }
            assert_eq!(turned(&src), expected, "{len} indices");
        }
    }

    #[test]
    fn decoding_the_helix_gives_every_vertex_as_the_owned_reader_reads_it() {
        // 65,508 vertices: many of the decoder's steps of a few hundred, and a partial last one.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/meshbin/helix.meshbin"
        );
        let bytes = std::fs::read(path).unwrap();
        let ctx = Context::new();
        let owned = Meshbin::from_bytes(&bytes, &ctx).unwrap();
        let view = Meshbin::read::<false>(&bytes, &ctx).unwrap().value;
        for winding in [Winding::D3d, Winding::Gl] {
            let mesh = to_mesh(&view, winding);
            let want: Vec<[f32; 3]> = owned.vertices.iter().map(|v| [v.x, v.y, v.z]).collect();
            assert_eq!(mesh.positions, want);
            let want: Vec<[u8; 4]> = owned
                .vertices
                .iter()
                .map(|v| [v.r, v.g, v.b, v.a])
                .collect();
            assert_eq!(mesh.colors, Some(Colors::Rgba8(want)));
            let mut want: Vec<u32> = owned.indices.iter().map(|&i| u32::from(i)).collect();
            if winding == Winding::D3d {
                for t in want.chunks_exact_mut(3) {
                    t.swap(1, 2);
                }
            }
            assert_eq!(mesh.primitives[0].indices, want);
        }
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
