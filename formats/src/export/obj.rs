//! The common model as Wavefront OBJ text: positions (with colours as the common
//! `v x y z r g b` extension), texture coordinates of the first set, normals, and faces, lines
//! and points, one group per primitive.
//!
//! Materials: an OBJ names them with `usemtl` from a library named by `mtllib`. Writing that
//! library would touch a second file beside the output, so it is written only when asked
//! ([`obj_with_mtl`], `--mtl` on the command line); otherwise the OBJ has no `usemtl` and each
//! group's name carries its material. Names pass through [`obj_name`], so a name cannot add a
//! statement to the file.

use super::prepare::prepare;
use super::text::{escape, obj_name};
use super::{refuse, Exported, NonFinite};
use crate::rt::Result;
use crate::scene::{Colors, Mode, Scene};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The scene as OBJ text, without materials: each group is named after its mesh, primitive and
/// material, and a note says so.
pub fn obj(scene: Scene, policy: NonFinite) -> Result<Exported> {
    write(scene, policy, None)
}

/// The scene as OBJ text whose `usemtl` statements name materials of the library `mtl_file`
/// (a file name beside the OBJ), and that library's text in [`Exported::mtl`]: one `newmtl`
/// per material name, with no shading (the sources give names only).
pub fn obj_with_mtl(scene: Scene, policy: NonFinite, mtl_file: &str) -> Result<Exported> {
    // `mtllib` takes names separated by spaces: a name that is not one word cannot be named.
    if obj_name(mtl_file) != mtl_file {
        return Err(refuse(
            "an .mtl file name without spaces or control characters (mtllib names files separated by spaces)",
            format!("`{}`", escape(mtl_file)),
        ));
    }
    write(scene, policy, Some(mtl_file))
}

fn write(scene: Scene, policy: NonFinite, mtl_file: Option<&str>) -> Result<Exported> {
    let mut notes = scene.notes;
    let mut out = String::from("# written by meshspec\n");
    if let Some(f) = mtl_file {
        let _ = writeln!(out, "mtllib {}", obj_name(f));
    }
    let mut materials = BTreeSet::new();
    let mut grouped = false;
    let mut base = 1usize;
    // Readers take `v x y z r g b` colours for the whole file: when some meshes have colours,
    // the others' vertices are written white rather than without.
    let coloured = scene.meshes.iter().any(|m| m.colors.is_some());
    for mesh in scene.meshes {
        let m = prepare(mesh, policy, &mut notes)?;
        let _ = writeln!(out, "o {}", obj_name(&m.name));
        if coloured && m.colors.is_none() {
            notes.push(format!(
                "mesh `{}`: no vertex colours; written white, since OBJ readers expect colours on every vertex of a file once some have them",
                m.name
            ));
        }
        let colour = |i: usize| -> Option<[f32; 3]> {
            match &m.colors {
                Some(Colors::Rgba8(c)) => Some([0, 1, 2].map(|k| f32::from(c[i][k]) / 255.0)),
                Some(Colors::Float(c)) => Some([c[i][0], c[i][1], c[i][2]]),
                None if coloured => Some([1.0; 3]),
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
        if m.tangents.is_some() {
            notes.push(format!("mesh `{}`: OBJ has no tangents; use glTF", m.name));
        }
        if matches!(&m.colors, Some(c) if colour_alpha(c)) {
            notes.push(format!(
                "mesh `{}`: OBJ's vertex colours have no alpha; use glTF",
                m.name
            ));
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
            let material = p.material.map(|mi| m.materials[mi].name.as_str());
            match (material, mtl_file) {
                (Some(mat), Some(_)) => {
                    let _ = writeln!(out, "g {}", obj_name(&format!("{} {pi}", m.name)));
                    let _ = writeln!(out, "usemtl {}", obj_name(mat));
                    materials.insert(obj_name(mat));
                }
                (Some(mat), None) => {
                    let _ = writeln!(out, "g {}", obj_name(&format!("{} {pi} {mat}", m.name)));
                    grouped = true;
                }
                (None, _) => {
                    let _ = writeln!(out, "g {}", obj_name(&format!("{} {pi}", m.name)));
                }
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
    if grouped {
        notes.push("OBJ: materials are named in the group names only, with no usemtl, since no .mtl library is written (--mtl writes one beside the .obj)".into());
    }
    let mtl = mtl_file.map(|f| {
        let mut text = format!(
            "# materials of the OBJ that names {}: written by meshspec; the source names them and gives no shading\n",
            escape(f)
        );
        for name in &materials {
            let _ = writeln!(text, "newmtl {name}");
        }
        text.into_bytes()
    });
    Ok(Exported {
        bytes: out.into_bytes(),
        notes: notes.iter().map(|n| escape(n)).collect(),
        mtl,
    })
}

/// Whether any colour is not opaque.
fn colour_alpha(c: &Colors) -> bool {
    match c {
        Colors::Rgba8(v) => v.iter().any(|c| c[3] != 255),
        Colors::Float(v) => v.iter().any(|c| c[3] != 1.0),
    }
}
