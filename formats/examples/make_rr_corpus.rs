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

/// The bodies: name, form, vertex format, strides, bones per vertex, bones, each part's
/// vertices, CPU copies, 32-bit indices.
type Plan = (
    &'static str,
    Form,
    VertexFormat,
    [u32; 3],
    u8,
    usize,
    &'static [u32],
    bool,
    bool,
);

#[rustfmt::skip]
const PLANS: [Plan; 9] = [
    ("gen-split12-3ranges-3bones",     Form::Ranged, VertexFormat::SPLIT12,  [12, 12, 8],  4, 3, &[40, 25, 60],    false, false),
    ("gen-split24-1range",             Form::Ranged, VertexFormat::SPLIT24,  [24, 12, 8],  4, 0, &[90],            false, false),
    ("gen-split12x8-4ranges-5bones",   Form::Ranged, VertexFormat::SPLIT12,  [12, 12, 16], 8, 5, &[12, 30, 7, 21], false, false),
    ("gen-static16-2ranges",           Form::Ranged, VertexFormat::STATIC16, [16, 0, 0],   0, 0, &[33, 18],        false, false),
    ("gen-static24-1range-cpu-copies", Form::Ranged, VertexFormat::STATIC24, [24, 0, 0],   4, 0, &[48],            true,  false),
    ("gen-static28-3ranges-1bone",     Form::Ranged, VertexFormat::STATIC28, [28, 0, 0],   0, 1, &[10, 10, 26],    false, false),
    ("gen-inline-2objects",            Form::Inline, VertexFormat::STATIC24, [24, 0, 0],   4, 0, &[36, 52],        false, false),
    ("gen-inline-3objects-2bones",     Form::Inline, VertexFormat::STATIC24, [24, 0, 0],   4, 2, &[20, 8, 44],     false, false),
    ("gen-inline-4objects-u32",        Form::Inline, VertexFormat::STATIC24, [24, 0, 0],   4, 0, &[15, 27, 9, 40], false, true),
];

fn main() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rr");
    let ctx = Context::new();
    for (k, &(name, form, format, strides, bones_per_vertex, bones, sizes, cpu_copies, wide)) in
        PLANS.iter().enumerate()
    {
        let mut rng = Lcg(0x5EED_0000 + k as u64);
        let parts: Vec<PartSpec> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let material = 0x4D41_5400_0000_0000 | ((k as u64) << 8) | i as u64;
                part(&mut rng, n, material, i as f32 * 2.0)
            })
            .collect();
        let total: u32 = sizes.iter().sum();
        let streams = [0, 1, 2].map(|s| rng.bytes(total as usize * strides[s] as usize));
        let spec = BodySpec {
            form,
            header: Header {
                managed_object: 1,
                descriptor_mask: [0, 1, 2, 8, 16, 17, 18, 32, 64][k % 9],
                generated: (k % 2) as u8,
                vertex_stride: strides[0] as u8,
                max_culling_distance: [0.0, 100.0, 660.0, 820.0, 2580.0][k % 5],
            },
            bones: (0..bones).map(|_| rng.bytes(81)).collect(),
            vertex_format: format,
            strides,
            bones_per_vertex,
            streams,
            parts,
            centre: [1.0, 0.5, -1.0],
            half_extent: [4.0, 0.5, 2.0],
            quantization_factor: 1.0 / 1024.0,
            user_category: k as u32,
            cpu_copies,
            wide_indices: wide,
        };
        let bytes = body(&spec).and_then(|m| m.to_bytes(&ctx));
        let bytes = bytes.unwrap_or_else(|e| panic!("{name}: {e}"));
        let path = out.join(format!("{name}.rr-mesh"));
        std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
}
