//! Writes the larger Riders Republic bodies of `corpus/rr/` (the `gen-*.rr-mesh` files) with the
//! project's own writer, `meshspec_formats::rr::build`: every vertex format of the document's
//! table, one to four ranges, inline bodies of two to four objects, no bones and several.
//!
//! Run from the repository: `cargo run -p meshspec-formats --example make_rr_corpus`. The output
//! is deterministic (vertex and bone bytes come from a fixed-seed generator: the document gives
//! the streams' strides but not their record layouts, so any bytes are valid records).

use meshspec_formats::generated::rr_mesh::VertexFormat;
use meshspec_formats::rr::build::{body, BodySpec, Header, PartSpec};
use meshspec_formats::rr::Form;
use meshspec_formats::rt::Root;
use meshspec_formats::Context;
use std::path::Path;

/// A small linear congruential generator: the same bytes on every run and machine.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A part of `n` vertices: a strip over all of them, then a few triangles at random.
fn part(rng: &mut Lcg, n: u32, material: u64, at: f32) -> PartSpec {
    let mut triangles = vec![];
    for i in 0..n.saturating_sub(2) {
        if i % 2 == 0 {
            triangles.push([i, i + 1, i + 2]);
        } else {
            triangles.push([i + 1, i, i + 2]);
        }
    }
    for _ in 0..n / 4 {
        triangles.push([rng.below(n), rng.below(n), rng.below(n)]);
    }
    PartSpec {
        num_vertices: n,
        triangles,
        material,
        centre: [at, 0.5, -at],
        half_extent: [1.0 + at / 4.0, 0.5, 1.0],
    }
}

struct Plan {
    name: &'static str,
    form: Form,
    format: VertexFormat,
    strides: [u32; 3],
    bones_per_vertex: u8,
    bones: usize,
    parts: &'static [u32],
    cpu_copies: bool,
    wide: bool,
}

fn main() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rr");
    let plans = [
        Plan {
            name: "gen-split12-3ranges-3bones",
            form: Form::Ranged,
            format: VertexFormat::SPLIT12,
            strides: [12, 12, 8],
            bones_per_vertex: 4,
            bones: 3,
            parts: &[40, 25, 60],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-split24-1range",
            form: Form::Ranged,
            format: VertexFormat::SPLIT24,
            strides: [24, 12, 8],
            bones_per_vertex: 4,
            bones: 0,
            parts: &[90],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-split12x8-4ranges-5bones",
            form: Form::Ranged,
            format: VertexFormat::SPLIT12,
            strides: [12, 12, 16],
            bones_per_vertex: 8,
            bones: 5,
            parts: &[12, 30, 7, 21],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-static16-2ranges",
            form: Form::Ranged,
            format: VertexFormat::STATIC16,
            strides: [16, 0, 0],
            bones_per_vertex: 0,
            bones: 0,
            parts: &[33, 18],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-static24-1range-cpu-copies",
            form: Form::Ranged,
            format: VertexFormat::STATIC24,
            strides: [24, 0, 0],
            bones_per_vertex: 4,
            bones: 0,
            parts: &[48],
            cpu_copies: true,
            wide: false,
        },
        Plan {
            name: "gen-static28-3ranges-1bone",
            form: Form::Ranged,
            format: VertexFormat::STATIC28,
            strides: [28, 0, 0],
            bones_per_vertex: 0,
            bones: 1,
            parts: &[10, 10, 26],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-inline-2objects",
            form: Form::Inline,
            format: VertexFormat::STATIC24,
            strides: [24, 0, 0],
            bones_per_vertex: 4,
            bones: 0,
            parts: &[36, 52],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-inline-3objects-2bones",
            form: Form::Inline,
            format: VertexFormat::STATIC24,
            strides: [24, 0, 0],
            bones_per_vertex: 4,
            bones: 2,
            parts: &[20, 8, 44],
            cpu_copies: false,
            wide: false,
        },
        Plan {
            name: "gen-inline-4objects-u32",
            form: Form::Inline,
            format: VertexFormat::STATIC24,
            strides: [24, 0, 0],
            bones_per_vertex: 4,
            bones: 0,
            parts: &[15, 27, 9, 40],
            cpu_copies: false,
            wide: true,
        },
    ];
    let ctx = Context::new();
    for (k, p) in plans.iter().enumerate() {
        let mut rng = Lcg(0x5EED_0000 + k as u64);
        let parts: Vec<PartSpec> = p
            .parts
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let material = 0x4D41_5400_0000_0000 | ((k as u64) << 8) | i as u64;
                part(&mut rng, n, material, i as f32 * 2.0)
            })
            .collect();
        let total: u32 = p.parts.iter().sum();
        let streams = [0, 1, 2].map(|s| rng.bytes(total as usize * p.strides[s] as usize));
        let spec = BodySpec {
            form: p.form,
            header: Header {
                managed_object: 1,
                descriptor_mask: [0, 1, 2, 8, 16, 17, 18, 32, 64][k % 9],
                generated: (k % 2) as u8,
                vertex_stride: p.strides[0] as u8,
                max_culling_distance: [0.0, 100.0, 660.0, 820.0, 2580.0][k % 5],
            },
            bones: (0..p.bones).map(|_| rng.bytes(81)).collect(),
            vertex_format: p.format,
            strides: p.strides,
            bones_per_vertex: p.bones_per_vertex,
            streams,
            parts,
            centre: [1.0, 0.5, -1.0],
            half_extent: [4.0, 0.5, 2.0],
            quantization_factor: 1.0 / 1024.0,
            user_category: k as u32,
            cpu_copies: p.cpu_copies,
            wide_indices: p.wide,
        };
        let mesh = body(&spec).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let bytes = mesh
            .to_bytes(&ctx)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let path = out.join(format!("{}.rr-mesh", p.name));
        std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
}
