//! Builds SWS Mesh bodies from constructed parts with the project's own writer: wavy grid
//! patches as SubMeshes (with their copies, UV channels, colours and 0 to 3 morph channels), the
//! compiled mesh over them (extra streams matching the morph channels, both partitions of the
//! indices, one palette per first-partition range), bones and material ids. Counts, lengths and
//! totals are left at 0: the writer recomputes them. Used for the larger corpus files
//! (`examples/make_sws_corpus.rs`) and the benchmarks' large meshes.
//!
//! The compiled vertex format is not in the documents, so compiled vertices are deterministic
//! filler bytes of the chosen stride.

use crate::context::Context;
use crate::generated::sws_mesh::*;
use crate::reading;
use crate::rt::{Error, ErrorKind, Result, Root};

/// A small deterministic generator (xorshift64*), so the files never change between runs.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits.
    pub fn u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// The next 32 bits.
    pub fn u32(&mut self) -> u32 {
        (self.u64() >> 32) as u32
    }
    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.u64() >> 56) as u8).collect()
    }
}

fn f3(v: [f32; 3]) -> Float3 {
    Float3 {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

fn f3_run(v: &[[f32; 3]]) -> Float3Run {
    Float3Run {
        num_items: 0,
        items: v.iter().copied().map(f3).collect(),
    }
}

fn f2_run(v: &[[f32; 2]]) -> Float2Run {
    Float2Run {
        num_items: 0,
        items: v.iter().map(|p| Float2 { u: p[0], v: p[1] }).collect(),
    }
}

fn u32_run(v: Vec<u32>) -> U32Run {
    U32Run {
        num_items: 0,
        items: v,
    }
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / l, v[1] / l, v[2] / l]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// A morph target's absolute positions and normals.
pub type Morph = (Vec<[f32; 3]>, Vec<[f32; 3]>);

/// One authored part (see [`part`]): its vertices' attributes, its triangles, and what else its
/// SubMesh holds.
pub struct Part {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Unit tangents.
    pub tangents: Vec<[f32; 3]>,
    /// Binormals (normal x tangent).
    pub binormals: Vec<[f32; 3]>,
    /// UV sets.
    pub uvs: Vec<Vec<[f32; 2]>>,
    /// Colours, as SubMesh colour words.
    pub colours: Option<Vec<u32>>,
    /// Triangles, three indices each, counter-clockwise.
    pub indices: Vec<u16>,
    /// Each morph target's absolute positions and normals.
    pub morphs: Vec<Morph>,
    /// Whether the SubMesh's first per-vertex word run is filled.
    pub words_a: bool,
    /// Whether the SubMesh's second per-vertex word run is filled (not in its copy).
    pub words_b: bool,
    /// The material id.
    pub material: u32,
}

fn surface(x: f32, y: f32, a: f32) -> ([f32; 3], [f32; 3], [f32; 3]) {
    let z = a * x.sin() * y.cos();
    let dzdx = a * x.cos() * y.cos();
    let dzdy = -a * x.sin() * y.sin();
    let n = normalize([-dzdx, -dzdy, 1.0]);
    let t = normalize([1.0, 0.0, dzdx]);
    ([x, y, z], n, t)
}

/// A grid patch of `w` x `h` vertices from `origin`, 0.5 apart, on the wave
/// z = a sin(x) cos(y), its triangles counter-clockwise seen from +z: `uv_sets` UV sets, `morphs`
/// morph targets (the same wave, higher), colours if asked.
pub fn part(
    w: usize,
    h: usize,
    origin: [f32; 2],
    uv_sets: usize,
    morphs: usize,
    colours: bool,
    material: u32,
) -> Result<Part> {
    if w < 2 || h < 2 || w * h > 1 << 16 {
        return Err(Error::unplaced(
            ErrorKind::Input,
            "a grid of 2 to 65,536 vertices, at least 2 each way",
            format!("{w} x {h}"),
        ));
    }
    let mut p = Part {
        positions: vec![],
        normals: vec![],
        tangents: vec![],
        binormals: vec![],
        uvs: vec![vec![]; uv_sets],
        colours: colours.then(Vec::new),
        indices: vec![],
        morphs: vec![(vec![], vec![]); morphs],
        words_a: false,
        words_b: false,
        material,
    };
    for j in 0..h {
        for i in 0..w {
            let (x, y) = (origin[0] + i as f32 * 0.5, origin[1] + j as f32 * 0.5);
            let (pos, n, t) = surface(x, y, 0.25);
            p.positions.push(pos);
            p.normals.push(n);
            p.tangents.push(t);
            p.binormals.push(cross(n, t));
            let (u, v) = (i as f32 / (w - 1) as f32, 1.0 - j as f32 / (h - 1) as f32);
            for (k, set) in p.uvs.iter_mut().enumerate() {
                let s = (k + 1) as f32;
                set.push([u * s, v * s]);
            }
            if let Some(c) = &mut p.colours {
                let r = (u * 255.0) as u32;
                let g = (v * 255.0) as u32;
                c.push(0xFF00_0000 | r << 16 | g << 8 | 0x40);
            }
            for (k, (mp, mn)) in p.morphs.iter_mut().enumerate() {
                let (pos, n, _) = surface(x, y, 0.25 + 0.2 * (k + 1) as f32);
                mp.push(pos);
                mn.push(n);
            }
        }
    }
    for j in 0..h - 1 {
        for i in 0..w - 1 {
            let a = (j * w + i) as u16;
            let (b, c, d) = (a + 1, a + w as u16, a + w as u16 + 1);
            p.indices.extend([a, b, c, b, d, c]);
        }
    }
    Ok(p)
}

fn uv_channel(uvs: &[[f32; 2]], source: Vec<u32>, flag: u8) -> UvChannel {
    UvChannel {
        id: 0,
        class: 0xBDAD_8273,
        unknown_0x8: 0,
        unknown_0xc: flag,
        uvs: f2_run(uvs),
        source: u32_run(source),
    }
}

/// A SubMesh and its copy, as the document describes them.
pub fn submesh(p: &Part, id: u32, rng: &mut Rng) -> Submesh {
    let n = p.positions.len();
    let t = p.indices.len() / 3;
    let source: Vec<u32> = (0..n as u32).map(|i| 1000 + i / 2).collect();
    let colours = p.colours.clone().unwrap_or_default();
    let words = |on: bool, base: u32| {
        u32_run(if on {
            (0..n as u32).map(|i| base + i).collect()
        } else {
            vec![]
        })
    };
    let base = |copy: bool| Submesh {
        managed: 1,
        id: if copy { id + 1 } else { id },
        class: 0x5755_DE7F,
        unknown_0x9: 0,
        indices: U16Run {
            num_items: 0,
            items: p.indices.clone(),
        },
        source_vertices: u32_run(if copy { vec![] } else { source.clone() }),
        unknown_after_source: 0,
        face_words: u32_run((0..t).map(|k| 1 << (k % 4)).collect()),
        face_bytes: U8Run {
            num_items: 0,
            items: (0..t).map(|k| if k % 5 == 0 { 1 } else { 3 }).collect(),
        },
        positions: f3_run(&p.positions),
        normals: f3_run(&p.normals),
        tangents: f3_run(if copy { &p.tangents } else { &[] }),
        binormals: f3_run(if copy { &p.binormals } else { &[] }),
        colours: u32_run(colours.clone()),
        vertex_words_a: words(p.words_a, 0x10),
        vertex_words_b: words(p.words_b && !copy, 0x20),
        empty_run_a: 0,
        vertex_words_c: u32_run(vec![0xFF00_0000; n]),
        empty_run_b: 0,
        empty_run_c: 0,
        uv_channels: UvChannelRun {
            num_items: 0,
            items: p
                .uvs
                .iter()
                .enumerate()
                .map(|(k, set)| {
                    let src = if copy { vec![] } else { source.clone() };
                    uv_channel(set, src, k as u8)
                })
                .collect(),
        },
        unknown_after_uv_channels: 0,
        morph_channels: MorphChannelRun {
            num_items: 0,
            items: if copy {
                vec![]
            } else {
                p.morphs
                    .iter()
                    .enumerate()
                    .map(|(k, (mp, mn))| MorphChannel {
                        id: id + 100 + k as u32,
                        class: 0xE70C_5754,
                        unknown_0x8: 0x9E37_79B9u32.wrapping_mul(id + k as u32),
                        positions: f3_run(mp),
                        normals: f3_run(mn),
                        uvs: f2_run(&p.uvs[0]),
                    })
                    .collect()
            },
        },
        has_morphs: 0,
        material_id: p.material,
        unknown_ones: vec![1, 1],
        copy: Box::new(SubmeshPointer {
            tag: 3,
            submesh: None,
        }),
        unknown_last: 0,
    };
    let mut copy = base(true);
    copy.unknown_last = rng.u32();
    let mut original = base(false);
    original.copy = Box::new(SubmeshPointer {
        tag: 0,
        submesh: Some(Box::new(copy)),
    });
    original
}

/// Bone `k`: an identity matrix moved along x and y by k.
fn bone(k: u32, rng: &mut Rng) -> MeshBone {
    let mut matrix = vec![0.0f32; 16];
    for i in 0..4 {
        matrix[i * 5] = 1.0;
    }
    matrix[12] = k as f32 * 0.5;
    matrix[13] = -(k as f32);
    matrix[14] = 0.25;
    MeshBone {
        id: 0x4000 + k,
        class: 0x9EF0_E7A1,
        name_hash: rng.u32(),
        matrix,
    }
}

fn range(
    first_vertex: u32,
    vertex_count: u32,
    first_index: u32,
    triangles: u32,
    rng: &mut Rng,
) -> DrawRange {
    DrawRange {
        primitive_type: 4,
        first_vertex,
        vertex_count,
        first_index,
        triangle_count: triangles,
        unknown_0x14: rng.u32(),
    }
}

/// How the second partition splits the index buffer.
pub enum SecondPartition {
    /// As many ranges as the first, the same spans.
    Same,
    /// One range over every index.
    One,
    /// Split at these triangle numbers.
    At(Vec<u32>),
}

/// A whole Mesh body.
pub struct Spec {
    /// The body's object id.
    pub id: u32,
    /// Its parts, one first-partition range each, in vertex and index order.
    pub parts: Vec<Part>,
    /// Whether the parts are also stored as SubMeshes (otherwise the positions are compiled only).
    pub keep_submeshes: bool,
    /// How many bones.
    pub bones: u32,
    /// The compiled vertex stride.
    pub stride: u32,
    /// The compiled mesh's flags word.
    pub flags: u32,
    /// How the second partition splits the indices.
    pub second: SecondPartition,
}

/// The Mesh body `spec` describes, its filler bytes and unknown words from `rng`, with its
/// counts and lengths as written; refused unless every relation holds on it.
pub fn mesh(spec: Spec, rng: &mut Rng) -> Result<SwsMesh> {
    let n_vertices: usize = spec.parts.iter().map(|p| p.positions.len()).sum();
    let refuse =
        |expected: &str, found: String| Err(Error::unplaced(ErrorKind::Input, expected, found));
    if n_vertices >= 1 << 16 {
        return refuse(
            "fewer than 65,536 vertices (u16 indices)",
            n_vertices.to_string(),
        );
    }
    let n_triangles: usize = spec.parts.iter().map(|p| p.indices.len() / 3).sum();
    if let SecondPartition::At(cuts) = &spec.second {
        if !cuts.is_sorted() || cuts.iter().any(|&c| c as usize > n_triangles) {
            return refuse(
                "cuts in order, none beyond the last triangle",
                format!("{cuts:?} over {n_triangles} triangles"),
            );
        }
    }
    let extra = if spec.keep_submeshes {
        spec.parts.iter().map(|p| p.morphs.len()).max().unwrap_or(0)
    } else {
        0
    };
    let stride = spec.stride as usize;
    let streams = (0..=extra)
        .map(|_| VertexStream {
            vertices: (0..n_vertices).map(|_| rng.bytes(stride)).collect(),
        })
        .collect();
    let mut indices: Vec<u16> = vec![];
    let mut ranges_a = vec![];
    let mut first_vertex = 0u32;
    for p in &spec.parts {
        let first_index = indices.len() as u32;
        indices.extend(p.indices.iter().map(|&i| i + first_vertex as u16));
        let n = p.positions.len() as u32;
        ranges_a.push(range(
            first_vertex,
            n,
            first_index,
            p.indices.len() as u32 / 3,
            rng,
        ));
        first_vertex += n;
    }
    let triangles = indices.len() as u32 / 3;
    let span = |a: u32, b: u32, rng: &mut Rng| {
        let ix = &indices[3 * a as usize..3 * b as usize];
        let lo = ix.iter().copied().min().unwrap_or(0) as u32;
        let hi = ix.iter().copied().max().unwrap_or(0) as u32;
        range(lo, hi - lo + 1, 3 * a, b - a, rng)
    };
    let ranges_b = match &spec.second {
        SecondPartition::Same => ranges_a
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.unknown_0x14 = rng.u32();
                r
            })
            .collect(),
        SecondPartition::One => vec![span(0, triangles, rng)],
        SecondPartition::At(cuts) => {
            let mut bounds = vec![0];
            bounds.extend(cuts.iter().copied());
            bounds.push(triangles);
            bounds.windows(2).map(|w| span(w[0], w[1], rng)).collect()
        }
    };
    let palettes: Vec<Palette> = ranges_a
        .iter()
        .enumerate()
        .map(|(i, r)| Palette {
            marker: 3,
            version: 1,
            num_bones: 0,
            unknown_0x3: i as u16,
            vertex_count: r.vertex_count as u16,
            bones: (0..spec.bones.min(32))
                .filter(|b| (b + i as u32).is_multiple_of(2) || spec.bones < 3)
                .map(|b| b as u8)
                .collect(),
        })
        .collect();
    let used: usize = palettes.iter().map(|p| 7 + p.bones.len()).sum();
    let rest = rng.bytes(40 * palettes.len() - used);
    let submeshes = if spec.keep_submeshes {
        spec.parts
            .iter()
            .enumerate()
            .map(|(k, p)| InlineSubmesh {
                tag: 0,
                submesh: submesh(p, spec.id + 0x10 * (k as u32 + 1), rng),
            })
            .collect()
    } else {
        vec![]
    };
    let mut unknown_after_bones = vec![0u8; 11];
    unknown_after_bones[0] = (spec.id % 2) as u8;
    unknown_after_bones[1] = 1;
    let mesh = SwsMesh {
        managed: 1,
        id: spec.id,
        class: 0x415D_9568,
        category: 3,
        generated: 0,
        num_submeshes: 0,
        submeshes,
        num_bones: 0,
        bones: (0..spec.bones).map(|k| bone(k, rng)).collect(),
        unknown_after_bones,
        compiled_mesh_class: 0xFC9E_1595,
        len_data: 0,
        data: CompiledMesh {
            version: 16,
            num_extra_streams: extra as u32,
            stride: spec.stride,
            len_vertex_stream: (n_vertices * stride) as u32,
            stride_all_streams: 0,
            len_all_streams: 0,
            len_indices: 0,
            unknown_0x1c: 0,
            flags: spec.flags,
            num_ranges_a: 0,
            num_ranges_b: 0,
            total: 0,
            vertex_streams: streams,
            indices: IndexBuffer { items: indices },
            ranges_a,
            ranges_b,
            palettes: PaletteBlock { palettes, rest },
        },
        platform_version: 16,
        sdk_version: 32,
        num_materials: 0,
        material_ids: spec.parts.iter().map(|p| p.material).collect(),
    };
    let ctx = Context::new();
    let bytes = mesh.to_bytes(&ctx)?;
    // The verdict on what was written: every relation, warnings included, must hold.
    let v = reading::judge::<SwsMesh>(&bytes, &ctx);
    if let Some(e) = v.refused.iter().chain(&v.findings).next() {
        return refuse("a body whose relations hold", e.to_string());
    }
    // Read back what is written, so counts and lengths hold their written values.
    SwsMesh::from_bytes(&bytes, &ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(parts: Vec<Part>, second: SecondPartition) -> Spec {
        Spec {
            id: 0x9001,
            parts,
            keep_submeshes: true,
            bones: 3,
            stride: 40,
            flags: 0x0011_0157,
            second,
        }
    }

    #[test]
    fn a_large_body_is_built_that_every_rule_holds_on() {
        let grid = part(200, 150, [0.0, 0.0], 2, 1, true, 7).unwrap();
        let m = mesh(spec(vec![grid], SecondPartition::One), &mut Rng(1)).unwrap();
        let bytes = m.to_bytes(&Context::new()).unwrap();
        let v = crate::find("sws-mesh")
            .unwrap()
            .judge(&bytes, &Context::new());
        assert!(v.passes(), "{:?}", v.findings);
        assert_eq!(v.findings.len(), 0, "{:?}", v.findings);
        assert_eq!(m.data.indices.items.len(), 199 * 149 * 6);
    }

    #[test]
    fn what_cannot_be_built_is_refused() {
        assert!(part(1, 5, [0.0; 2], 1, 0, false, 0).is_err());
        assert!(part(300, 300, [0.0; 2], 1, 0, false, 0).is_err());
        let two = || {
            vec![
                part(256, 200, [0.0; 2], 1, 0, false, 0).unwrap(),
                part(256, 56, [0.0; 2], 1, 0, false, 0).unwrap(),
            ]
        };
        // 65,536 vertices: one more than u16 indices name.
        assert!(mesh(spec(two(), SecondPartition::Same), &mut Rng(1)).is_err());
        let one = || vec![part(3, 3, [0.0; 2], 1, 0, false, 0).unwrap()];
        assert!(mesh(spec(one(), SecondPartition::At(vec![9])), &mut Rng(1)).is_err());
        assert!(mesh(spec(one(), SecondPartition::At(vec![5, 2])), &mut Rng(1)).is_err());
        // The second partition may not have more ranges than the first (a relation).
        assert!(mesh(spec(one(), SecondPartition::At(vec![5])), &mut Rng(1)).is_err());
        let mut parts = one();
        parts.push(part(3, 3, [0.0; 2], 1, 0, false, 0).unwrap());
        assert!(mesh(spec(parts, SecondPartition::At(vec![5])), &mut Rng(1)).is_ok());
    }
}
