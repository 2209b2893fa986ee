//! Reads geometry (glTF 2.0 `.gltf`/`.glb`, Wavefront `.obj`) into the common model, for
//! building layouts from meshes made in other tools.
//!
//! The readers keep what the model holds (positions, normals, tangents, colours, texture
//! coordinates, skin, morph targets, material names) and say what they do not read. Primitives
//! of a glTF mesh that share their vertex accessors share their vertices, as in the file. A
//! layout then keeps only part of a mesh: [`left_out`] lists what it cannot hold, so that an
//! import never drops anything silently. A file with several meshes gives one ([`read_mesh`]
//! says which, `--mesh NAME` picks another).

use crate::export::escape;
use crate::rt::{Error, ErrorKind, Result};
use crate::scene::{Colors, Material, Mesh, Mode, MorphTarget, Primitive, Scene, Skin};
use gltf::accessor::{DataType, Dimensions};
use std::collections::BTreeMap;
use std::path::Path;

pub mod order;

/// The custom attribute (`_MESHSPEC_VERTEX`) an editor may carry through a round trip: each
/// vertex's place in the file meshspec exported, plus one ([`order`]).
pub const VERTEX_IDS: &str = "MESHSPEC_VERTEX";

/// An error about the geometry file; names from it (and the path) are escaped.
fn bad(path: &Path, expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(
        ErrorKind::Input,
        escape(&expected.into()),
        escape(&found.into()),
    )
    .rooted(escape(&path.display().to_string()))
}

/// One mesh as read, and what the reader could not take from the file for it.
struct Read {
    mesh: Mesh,
    notes: Vec<String>,
}

/// Reads a geometry file, choosing the reader by extension: every mesh it holds, and in the
/// notes (escaped) what was not read (each mesh's notes start with its name).
pub fn read(path: &Path) -> Result<Scene> {
    let (read, mut notes) = read_all(path)?;
    let mut meshes = vec![];
    for r in read {
        notes.extend(r.notes);
        meshes.push(r.mesh);
    }
    let notes = notes.iter().map(|n| escape(n)).collect();
    Ok(Scene { meshes, notes })
}

/// Reads a geometry file and takes one mesh: the one named `name`, or else the only one (the
/// first, with a note naming the others, when there are several). The notes (escaped) say
/// what was not read of the file and of that mesh.
pub fn read_mesh(path: &Path, name: Option<&str>) -> Result<(Mesh, Vec<String>)> {
    let (read, mut notes) = read_all(path)?;
    let names: Vec<String> = read.iter().map(|r| format!("`{}`", r.mesh.name)).collect();
    let pick = match name {
        Some(n) => read.iter().position(|r| r.mesh.name == n).ok_or_else(|| {
            bad(
                path,
                format!("a mesh named `{n}` (--mesh)"),
                format!("the meshes {}", names.join(", ")),
            )
        })?,
        None if read.is_empty() => {
            return Err(bad(path, "a file with a mesh", "no meshes"));
        }
        None => 0,
    };
    if read.len() > 1 {
        let same = read
            .iter()
            .filter(|r| r.mesh.name == read[pick].mesh.name)
            .count();
        let how = if name.is_some() {
            "the one --mesh names".to_string()
        } else {
            "the first (--mesh NAME takes another)".to_string()
        };
        notes.push(format!(
            "the file holds {} meshes ({}); this took {}, {how}{}",
            read.len(),
            names.join(", "),
            names[pick],
            if same > 1 {
                format!(", the first of {same} of that name")
            } else {
                String::new()
            }
        ));
    }
    let mut read = read;
    let r = read.swap_remove(pick);
    notes.extend(r.notes);
    Ok((r.mesh, notes.iter().map(|n| escape(n)).collect()))
}

fn read_all(path: &Path) -> Result<(Vec<Read>, Vec<String>)> {
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

/// What a target layout keeps of a mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holds {
    /// Normals.
    pub normals: bool,
    /// Tangents.
    pub tangents: bool,
    /// How many texture coordinate sets.
    pub uv_sets: usize,
    /// Vertex colours.
    pub colors: bool,
    /// Colours as 8 bits per channel only.
    pub colors_8bit: bool,
    /// A skin.
    pub skin: bool,
    /// Morph targets.
    pub morph_targets: bool,
    /// Material names.
    pub materials: bool,
    /// Primitives as separate parts (else their indices are joined into one list).
    pub primitives: bool,
}

/// What `holds` cannot keep of `mesh`, one note each (escaped), so that nothing is dropped
/// silently.
pub fn left_out(mesh: &Mesh, layout: &str, holds: &Holds) -> Vec<String> {
    let mut out = vec![];
    let mut drop = |what: String| out.push(format!("{layout} has no {what}: left out"));
    if mesh.normals.is_some() && !holds.normals {
        drop("normals".into());
    }
    if mesh.tangents.is_some() && !holds.tangents {
        drop("tangents".into());
    }
    if mesh.uvs.len() > holds.uv_sets {
        drop(format!(
            "texture coordinates beyond {} sets ({} sets)",
            holds.uv_sets,
            mesh.uvs.len()
        ));
    }
    if mesh.colors.is_some() && !holds.colors {
        drop("vertex colours".into());
    }
    if let Some(s) = &mesh.skin {
        if !holds.skin {
            drop(format!(
                "skin ({} joints, with their weights)",
                s.inverse_bind_matrices.len()
            ));
        }
    }
    if !mesh.morph_targets.is_empty() && !holds.morph_targets {
        drop(format!("morph targets ({})", mesh.morph_targets.len()));
    }
    if !mesh.materials.is_empty() && !holds.materials {
        let names: Vec<String> = mesh
            .materials
            .iter()
            .map(|m| format!("`{}`", m.name))
            .collect();
        drop(format!("materials ({})", names.join(", ")));
    }
    if mesh.primitives.len() > 1 && !holds.primitives {
        out.push(format!(
            "{layout} has one index list: the {} primitives' triangles are joined, and where each began is lost",
            mesh.primitives.len()
        ));
    }
    if holds.colors && holds.colors_8bit {
        if let Some(Colors::Float(c)) = &mesh.colors {
            let exact = |x: f32| {
                let q = (x.clamp(0.0, 1.0) * 255.0).round();
                q / 255.0 == x
            };
            let rounded = c.iter().filter(|v| !v.iter().all(|&x| exact(x))).count();
            if rounded > 0 {
                out.push(format!(
                    "{layout} has 8 bits per colour channel: {rounded} colours rounded"
                ));
            }
        }
    }
    if holds.colors && mesh.colors.is_none() {
        out.push(format!(
            "the mesh has no vertex colours: {layout} gets white"
        ));
    }
    out.iter().map(|n| escape(n)).collect()
}

// ---------------------------------------------------------------------------------------------
// glTF

/// Checks that an accessor can be read as one of `formats` without reading past its data:
/// the `gltf` crate's readers assume a valid format and panic otherwise.
fn accessor_ok(
    path: &Path,
    what: &str,
    a: &gltf::Accessor,
    buffers: &[gltf::buffer::Data],
    formats: &[(DataType, Dimensions)],
) -> Result<()> {
    let here = |expected: String, found: String| bad(path, format!("{what}: {expected}"), found);
    if !formats.contains(&(a.data_type(), a.dimensions())) {
        return Err(here(
            format!("one of the formats {formats:?}"),
            format!("{:?} {:?}", a.data_type(), a.dimensions()),
        ));
    }
    if a.sparse().is_some() {
        return Err(here(
            "an accessor that is not sparse".into(),
            "a sparse one".into(),
        ));
    }
    let Some(view) = a.view() else {
        return Err(here("an accessor with a buffer view".into(), "none".into()));
    };
    let data = buffers.get(view.buffer().index()).map_or(0, |d| d.len());
    let size = a.size();
    let stride = view.stride().unwrap_or(size);
    let end = a
        .count()
        .checked_sub(1)
        .and_then(|n| n.checked_mul(stride))
        .and_then(|x| x.checked_add(a.offset()))
        .and_then(|x| x.checked_add(size));
    let fits = end.is_some_and(|e| e <= view.length())
        && view
            .offset()
            .checked_add(view.length())
            .is_some_and(|e| e <= data)
        && stride >= size;
    if !fits {
        return Err(here(
            "elements inside their buffer view and buffer".into(),
            format!(
                "{} elements of {size} bytes (stride {stride}) from byte {} of a view of {} bytes at {} of a buffer of {data}",
                a.count(),
                a.offset(),
                view.length(),
                view.offset()
            ),
        ));
    }
    Ok(())
}

/// The formats glTF allows for each vertex attribute.
fn formats(s: &gltf::Semantic) -> &'static [(DataType, Dimensions)] {
    use DataType::{F32, U16, U8};
    use Dimensions::{Vec2, Vec3, Vec4};
    match s {
        gltf::Semantic::Positions | gltf::Semantic::Normals => &[(F32, Vec3)],
        gltf::Semantic::Tangents => &[(F32, Vec4)],
        gltf::Semantic::TexCoords(_) => &[(F32, Vec2), (U8, Vec2), (U16, Vec2)],
        gltf::Semantic::Colors(_) => &[
            (F32, Vec3),
            (U8, Vec3),
            (U16, Vec3),
            (F32, Vec4),
            (U8, Vec4),
            (U16, Vec4),
        ],
        gltf::Semantic::Joints(_) => &[(U8, Vec4), (U16, Vec4)],
        gltf::Semantic::Extras(name) if name == VERTEX_IDS => &[(F32, Dimensions::Scalar)],
        gltf::Semantic::Weights(_) => &[(F32, Vec4), (U8, Vec4), (U16, Vec4)],
        _ => &[],
    }
}

/// The vertices of one set of accessors, as read.
#[derive(Default)]
struct Block {
    positions: Vec<[f32; 3]>,
    normals: Option<Vec<[f32; 3]>>,
    tangents: Option<Vec<[f32; 4]>>,
    colors: Option<Vec<[f32; 4]>>,
    uvs: Vec<Vec<[f32; 2]>>,
    joints: Option<Vec<[u16; 4]>>,
    weights: Option<Vec<[f32; 4]>>,
    targets: Vec<Deltas>,
    /// Per vertex, `_MESHSPEC_VERTEX`: the vertex of the file exported it came from, plus one
    /// (0: a vertex an editor added).
    ids: Option<Vec<f32>>,
}

/// One morph target's deltas over some vertices.
#[derive(Default)]
struct Deltas {
    positions: Vec<[f32; 3]>,
    normals: Option<Vec<[f32; 3]>>,
    tangents: Option<Vec<[f32; 3]>>,
}

/// A block and what identifies it: the accessors it was read from, and where its vertices
/// start in the mesh.
struct Keyed {
    key: Vec<(String, usize)>,
    block: Block,
    base: u32,
}

fn gltf_file(path: &Path) -> Result<(Vec<Read>, Vec<String>)> {
    let g =
        gltf::Gltf::open(path).map_err(|e| bad(path, "a readable glTF 2.0 file", e.to_string()))?;
    let base = path.parent();
    let buffers = gltf::import_buffers(&g.document, base, g.blob.clone())
        .map_err(|e| bad(path, "the glTF file's buffers", e.to_string()))?;
    let doc = &g.document;
    let mut notes = vec![];
    let count = |what: &str, n: usize, notes: &mut Vec<String>| {
        if n > 0 {
            notes.push(format!("the file's {n} {what} are not read"));
        }
    };
    count("animations", doc.animations().count(), &mut notes);
    count("cameras", doc.cameras().count(), &mut notes);
    count("textures", doc.textures().count(), &mut notes);
    if doc.extensions_used().next().is_some() {
        let used: Vec<&str> = doc.extensions_used().collect();
        notes.push(format!(
            "the file uses extensions the reader does not apply: {}",
            used.join(", ")
        ));
    }
    let mut out = vec![];
    for mesh in doc.meshes() {
        out.push(gltf_mesh(path, doc, &mesh, &buffers)?);
    }
    Ok((out, notes))
}

/// The accessors of `prim`'s morph targets: per target `t`, its positions, normals and
/// tangents (`k` 0, 1, 2) that it has.
fn target_accessors<'a>(
    prim: &gltf::Primitive<'a>,
) -> impl Iterator<Item = (usize, usize, gltf::Accessor<'a>)> {
    prim.morph_targets().enumerate().flat_map(|(t, target)| {
        [target.positions(), target.normals(), target.tangents()]
            .into_iter()
            .enumerate()
            .filter_map(move |(k, a)| Some((t, k, a?)))
    })
}

fn gltf_mesh(
    path: &Path,
    doc: &gltf::Document,
    mesh: &gltf::Mesh,
    buffers: &[gltf::buffer::Data],
) -> Result<Read> {
    let data = |b: gltf::Buffer| buffers.get(b.index()).map(|d| &d.0[..]);
    let name = mesh
        .name()
        .map(str::to_string)
        .unwrap_or_else(|| format!("mesh {}", mesh.index()));
    let mut notes = vec![];
    let mut blocks: Vec<Keyed> = vec![];
    let mut out = Mesh {
        name: name.clone(),
        ..Mesh::default()
    };
    let mut material_of: BTreeMap<Option<usize>, usize> = BTreeMap::new();
    let mut unread = std::collections::BTreeSet::new();
    for prim in mesh.primitives() {
        let what = |s: &str| format!("mesh `{name}` primitive {} {s}", prim.index());
        for (semantic, a) in prim.attributes() {
            let f = formats(&semantic);
            if f.is_empty()
                || matches!(semantic, gltf::Semantic::Colors(k) | gltf::Semantic::Joints(k) | gltf::Semantic::Weights(k) if k > 0)
            {
                unread.insert(semantic.to_string());
                continue;
            }
            accessor_ok(path, &what(&semantic.to_string()), &a, buffers, f)?;
        }
        if let Some(a) = prim.indices() {
            use DataType::{U16, U32, U8};
            let f = [U8, U16, U32].map(|t| (t, Dimensions::Scalar));
            accessor_ok(path, &what("indices"), &a, buffers, &f)?;
        }
        for (t, k, a) in target_accessors(&prim) {
            let w = what(&format!(
                "morph target {t} {}",
                ["POSITION", "NORMAL", "TANGENT"][k]
            ));
            accessor_ok(path, &w, &a, buffers, &[(DataType::F32, Dimensions::Vec3)])?;
        }
        // Primitives that name the same accessors share their vertices.
        let mut key: Vec<(String, usize)> = prim
            .attributes()
            .map(|(s, a)| (s.to_string(), a.index()))
            .collect();
        key.extend(target_accessors(&prim).map(|(t, k, a)| (format!("target {t} {k}"), a.index())));
        key.sort();
        let reader = prim.reader(data);
        let base = match blocks.iter().find(|k| k.key == key) {
            Some(k) => k.base,
            None => {
                let mut b = Block {
                    positions: reader
                        .read_positions()
                        .ok_or_else(|| bad(path, what("POSITION"), "none"))?
                        .collect(),
                    ..Block::default()
                };
                b.normals = reader.read_normals().map(|r| r.collect());
                b.tangents = reader.read_tangents().map(|r| r.collect());
                b.colors = reader.read_colors(0).map(|r| r.into_rgba_f32().collect());
                for set in 0.. {
                    match reader.read_tex_coords(set) {
                        Some(r) => b.uvs.push(r.into_f32().collect()),
                        None => break,
                    }
                }
                b.ids = prim
                    .get(&gltf::Semantic::Extras(VERTEX_IDS.into()))
                    .and_then(|a| gltf::accessor::Iter::<f32>::new(a, data))
                    .map(|r| r.collect());
                b.joints = reader.read_joints(0).map(|r| r.into_u16().collect());
                b.weights = reader.read_weights(0).map(|r| r.into_f32().collect());
                for (p, n, t) in reader.read_morph_targets() {
                    let n_v = b.positions.len();
                    b.targets.push(Deltas {
                        positions: p
                            .map(|r| r.collect())
                            .unwrap_or_else(|| vec![[0.0; 3]; n_v]),
                        normals: n.map(|r| r.collect()),
                        tangents: t.map(|r| r.collect()),
                    });
                }
                let base = blocks
                    .last()
                    .map_or(0, |k| k.base + k.block.positions.len() as u32);
                blocks.push(Keyed {
                    key,
                    block: b,
                    base,
                });
                base
            }
        };
        let n = blocks
            .iter()
            .find(|k| k.base == base)
            .map_or(0, |k| k.block.positions.len()) as u32;
        let indices: Vec<u32> = match reader.read_indices() {
            Some(i) => {
                let v: Vec<u32> = i.into_u32().collect();
                if let Some(k) = v.iter().position(|&i| i >= n) {
                    return Err(bad(
                        path,
                        what(&format!("indices below its {n} vertices")),
                        format!("{} at position {k}", v[k]),
                    ));
                }
                v.into_iter().map(|i| i + base).collect()
            }
            None => (base..base + n).collect(),
        };
        let mode = match prim.mode() {
            gltf::mesh::Mode::Triangles => Mode::Triangles,
            gltf::mesh::Mode::Lines => Mode::Lines,
            gltf::mesh::Mode::LineStrip => Mode::LineStrip,
            gltf::mesh::Mode::Points => Mode::Points,
            other => {
                return Err(bad(
                    path,
                    what("in triangles, lines, line strips or points"),
                    format!("{other:?}"),
                ))
            }
        };
        let material = prim.material();
        let next = material_of.len();
        let mi = *material_of.entry(material.index()).or_insert(next);
        if mi == out.materials.len() {
            out.materials.push(Material {
                name: material.name().map(str::to_string).unwrap_or_else(|| {
                    match material.index() {
                        Some(i) => format!("material {i}"),
                        None => "default material".into(),
                    }
                }),
            });
        }
        out.primitives.push(Primitive {
            mode,
            indices,
            material: Some(mi),
        });
    }
    if !unread.is_empty() {
        let list: Vec<String> = unread.into_iter().collect();
        notes.push(format!(
            "mesh `{name}`: attributes not read: {}",
            list.join(", ")
        ));
    }
    let ids = join_blocks(
        &mut out,
        blocks.into_iter().map(|k| k.block).collect(),
        &mut notes,
    );
    if mesh.primitives().all(|p| p.material().index().is_none()) {
        out.materials.clear();
        for p in &mut out.primitives {
            p.material = None;
        }
    }
    skin_and_names(path, doc, mesh, &mut out, buffers, &mut notes)?;
    out.validate()
        .map_err(|e| bad(path, "a consistent mesh", e.to_string()))?;
    if let Some(ids) = ids {
        order::restore(&mut out, &ids, &mut notes);
    }
    Ok(Read { mesh: out, notes })
}

/// The blocks' vertices one after another; an attribute only some blocks have is left out
/// (colours become white where missing, as the builders make vertices without colour).
fn join_blocks(out: &mut Mesh, blocks: Vec<Block>, notes: &mut Vec<String>) -> Option<Vec<f32>> {
    let name = out.name.clone();
    let ids = blocks.iter().all(|b| b.ids.is_some()).then(|| {
        blocks
            .iter()
            .flat_map(|b| b.ids.iter().flatten().copied())
            .collect()
    });
    let all = |f: &dyn Fn(&Block) -> bool| blocks.iter().all(f);
    let any = |f: &dyn Fn(&Block) -> bool| blocks.iter().any(f);
    let mut partial = vec![];
    let normals = all(&|b| b.normals.is_some());
    if !normals && any(&|b| b.normals.is_some()) {
        partial.push("NORMAL".to_string());
    }
    let tangents = normals && all(&|b| b.tangents.is_some());
    if !tangents && any(&|b| b.tangents.is_some()) {
        partial.push("TANGENT".to_string());
    }
    let coloured = any(&|b| b.colors.is_some());
    let sets = blocks.iter().map(|b| b.uvs.len()).min().unwrap_or(0);
    let most = blocks.iter().map(|b| b.uvs.len()).max().unwrap_or(0);
    for k in sets..most {
        partial.push(format!("TEXCOORD_{k}"));
    }
    let skinned = all(&|b| b.joints.is_some() && b.weights.is_some());
    if !skinned && any(&|b| b.joints.is_some()) {
        partial.push("JOINTS_0/WEIGHTS_0".to_string());
    }
    let targets = blocks.iter().map(|b| b.targets.len()).min().unwrap_or(0);
    if !partial.is_empty() {
        notes.push(format!(
            "mesh `{name}`: left out because only some primitives have them: {}",
            partial.join(", ")
        ));
    }
    if coloured && !all(&|b| b.colors.is_some()) {
        notes.push(format!(
            "mesh `{name}`: primitives without COLOR_0 get white"
        ));
    }
    let mut normals_v = vec![];
    let mut tangents_v = vec![];
    let mut colors_v = vec![];
    let mut uvs_v = vec![vec![]; sets];
    let mut joints_v = vec![];
    let mut weights_v = vec![];
    // A target keeps normals (tangents) only when every block has them.
    let mut targets_v: Vec<Deltas> = (0..targets)
        .map(|_| Deltas {
            positions: vec![],
            normals: Some(vec![]),
            tangents: Some(vec![]),
        })
        .collect();
    for b in blocks {
        let n = b.positions.len();
        out.positions.extend(&b.positions);
        if normals {
            normals_v.extend(b.normals.unwrap_or_default());
        }
        if tangents {
            tangents_v.extend(b.tangents.unwrap_or_default());
        }
        if coloured {
            colors_v.extend(b.colors.unwrap_or_else(|| vec![[1.0; 4]; n]));
        }
        for (k, set) in b.uvs.into_iter().take(sets).enumerate() {
            uvs_v[k].extend(set);
        }
        if skinned {
            joints_v.extend(b.joints.unwrap_or_default());
            weights_v.extend(b.weights.unwrap_or_default());
        }
        for (e, d) in targets_v.iter_mut().zip(b.targets) {
            e.positions.extend(d.positions);
            e.normals = e.normals.take().zip(d.normals).map(|(mut a, b)| {
                a.extend(b);
                a
            });
            e.tangents = e.tangents.take().zip(d.tangents).map(|(mut a, b)| {
                a.extend(b);
                a
            });
        }
    }
    out.normals = normals.then_some(normals_v);
    out.tangents = tangents.then_some(tangents_v);
    out.colors = coloured.then_some(Colors::Float(colors_v));
    out.uvs = uvs_v;
    if skinned {
        out.skin = Some(Skin {
            joints: joints_v,
            weights: weights_v,
            ..Skin::default()
        });
    }
    out.morph_targets = targets_v
        .into_iter()
        .enumerate()
        .map(|(t, d)| MorphTarget {
            name: format!("target {t}"),
            positions: d.positions,
            normals: d.normals,
            tangents: d.tangents,
            default_weight: 0.0,
        })
        .collect();
    ids
}

/// The skin of the first node that draws the mesh (its inverse bind matrices and joint
/// names), the morph targets' names and default weights; notes for what is not taken.
fn skin_and_names(
    path: &Path,
    doc: &gltf::Document,
    mesh: &gltf::Mesh,
    out: &mut Mesh,
    buffers: &[gltf::buffer::Data],
    notes: &mut Vec<String>,
) -> Result<()> {
    let name = out.name.clone();
    let nodes: Vec<gltf::Node> = doc
        .nodes()
        .filter(|n| n.mesh().is_some_and(|m| m.index() == mesh.index()))
        .collect();
    if let Some(node) = nodes.first() {
        let identity = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let placed = node.transform().matrix() != identity
            || doc
                .nodes()
                .any(|p| p.children().any(|c| c.index() == node.index()));
        if placed {
            notes.push(format!(
                "mesh `{name}`: its node's transform (and its parents') is not applied: the vertices are read as the mesh stores them"
            ));
        }
    }
    if nodes.len() > 1 {
        notes.push(format!(
            "mesh `{name}`: {} nodes draw it; it is read once",
            nodes.len()
        ));
    }
    if let Some(skin) = &mut out.skin {
        let gskin = nodes.iter().find_map(|n| n.skin());
        match gskin {
            None => {
                notes.push(format!(
                    "mesh `{name}`: JOINTS_0/WEIGHTS_0 left out: no node gives it a skin"
                ));
                out.skin = None;
            }
            Some(g) => {
                let joints = g.joints().count();
                let ibms: Vec<[f32; 16]> = match g.inverse_bind_matrices() {
                    Some(a) => {
                        accessor_ok(
                            path,
                            &format!("skin {} inverse bind matrices", g.index()),
                            &a,
                            buffers,
                            &[(DataType::F32, Dimensions::Mat4)],
                        )?;
                        let r = g.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
                        r.read_inverse_bind_matrices()
                            .map(|i| {
                                i.map(|m| {
                                    let mut f = [0.0; 16];
                                    for c in 0..4 {
                                        f[c * 4..c * 4 + 4].copy_from_slice(&m[c]);
                                    }
                                    f
                                })
                                .take(joints)
                                .collect()
                            })
                            .unwrap_or_default()
                    }
                    None => vec![
                        [
                            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                            0.0, 1.0
                        ];
                        joints
                    ],
                };
                if ibms.len() != joints {
                    return Err(bad(
                        path,
                        format!("skin {}: {joints} inverse bind matrices", g.index()),
                        ibms.len().to_string(),
                    ));
                }
                skin.inverse_bind_matrices = ibms;
                skin.joint_names = g
                    .joints()
                    .map(|j| {
                        j.name()
                            .map(str::to_string)
                            .unwrap_or_else(|| format!("node {}", j.index()))
                    })
                    .collect();
                if nodes
                    .iter()
                    .filter_map(|n| n.skin())
                    .any(|s| s.index() != g.index())
                {
                    notes.push(format!(
                        "mesh `{name}`: nodes give it different skins; the first is read"
                    ));
                }
                if !at_rest(doc, &g, &skin.inverse_bind_matrices) {
                    notes.push(format!(
                        "mesh `{name}`: its skeleton is posed away from the bind pose; the pose (the joints' node transforms) is not read, the inverse bind matrices are"
                    ));
                }
            }
        }
    }
    if !out.morph_targets.is_empty() {
        let names: Vec<String> = mesh
            .extras()
            .as_ref()
            .and_then(|e| serde_json::from_str::<serde_json::Value>(e.get()).ok())
            .and_then(|v| {
                v.get("targetNames")?
                    .as_array()?
                    .iter()
                    .map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let weights = mesh.weights().unwrap_or(&[]);
        for (t, target) in out.morph_targets.iter_mut().enumerate() {
            if let Some(n) = names.get(t) {
                target.name = n.clone();
            }
            if let Some(&w) = weights.get(t) {
                target.default_weight = w;
            }
        }
    }
    Ok(())
}

/// Whether every joint's world transform is the inverse of its inverse bind matrix (the
/// skeleton at rest, as the exporter writes it), so that the model, which keeps only the
/// inverse bind matrices, loses nothing.
fn at_rest(doc: &gltf::Document, skin: &gltf::Skin, ibms: &[[f32; 16]]) -> bool {
    use crate::export::rest::{mul, widen, Mat4};
    let local = |n: &gltf::Node| -> Mat4 {
        let m = n.transform().matrix();
        let mut out = [0.0; 16];
        for c in 0..4 {
            for r in 0..4 {
                out[c * 4 + r] = f64::from(m[c][r]);
            }
        }
        out
    };
    let parent_of = |i: usize| doc.nodes().find(|p| p.children().any(|c| c.index() == i));
    skin.joints().zip(ibms).all(|(j, ibm)| {
        let mut world = local(&j);
        let mut at = j.index();
        // The gltf crate refuses node loops; the bound keeps this finite regardless.
        for _ in 0..doc.nodes().count() {
            match parent_of(at) {
                Some(p) => {
                    world = mul(&local(&p), &world);
                    at = p.index();
                }
                None => break,
            }
        }
        let ibm = widen(ibm);
        let product = mul(&world, &ibm);
        let scale = world
            .iter()
            .chain(ibm.iter())
            .fold(1.0f64, |a, x| a.max(x.abs()));
        product.iter().enumerate().all(|(k, x)| {
            let want = if k % 5 == 0 { 1.0 } else { 0.0 };
            (x - want).abs() <= 1e-5 * scale
        })
    })
}

// ---------------------------------------------------------------------------------------------
// OBJ

fn obj_file(path: &Path) -> Result<(Vec<Read>, Vec<String>)> {
    // The reader renumbers vertices in order of first use (one index per corner).
    let opts = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: false,
        ignore_lines: false,
    };
    let (models, materials) =
        tobj::load_obj(path, &opts).map_err(|e| bad(path, "a readable OBJ file", e.to_string()))?;
    let mut notes = vec![];
    let materials = match materials {
        Ok(m) => m,
        Err(e) => {
            notes.push(format!(
                "the material library is not read ({e}): materials are named by number"
            ));
            vec![]
        }
    };
    let mut out = vec![];
    for m in models {
        let g = &m.mesh;
        let n = g.positions.len() / 3;
        let positions: Vec<[f32; 3]> = g
            .positions
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        let colors = (g.vertex_color.len() == g.positions.len() && !g.vertex_color.is_empty())
            .then(|| {
                Colors::Float(
                    g.vertex_color
                        .chunks_exact(3)
                        .map(|c| [c[0], c[1], c[2], 1.0])
                        .collect(),
                )
            });
        let normals = (g.normals.len() == 3 * n && n > 0).then(|| {
            g.normals
                .chunks_exact(3)
                .map(|v| [v[0], v[1], v[2]])
                .collect()
        });
        // OBJ's v runs up from the bottom, the model's (glTF's) down from the top.
        let uvs = if g.texcoords.len() == 2 * n && n > 0 {
            vec![g
                .texcoords
                .chunks_exact(2)
                .map(|t| [t[0], 1.0 - t[1]])
                .collect()]
        } else {
            vec![]
        };
        let material = g.material_id.map(|id| Material {
            name: materials
                .get(id)
                .map(|mat| mat.name.clone())
                .unwrap_or_else(|| format!("material {id}")),
        });
        let mesh = Mesh {
            name: m.name,
            positions,
            normals,
            colors,
            uvs,
            primitives: vec![Primitive {
                mode: Mode::Triangles,
                indices: g.indices.clone(),
                material: material.as_ref().map(|_| 0),
            }],
            materials: material.into_iter().collect(),
            ..Mesh::default()
        };
        mesh.validate()
            .map_err(|e| bad(path, "a consistent mesh", e.to_string()))?;
        out.push(Read {
            mesh,
            notes: vec![],
        });
    }
    Ok((out, notes))
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
