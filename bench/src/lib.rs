//! Kaitai Struct's Rust parsers of spec/meshbin.ksy and the gallery's media/stl.ksy, and
//! meshspec's generated reader of the same stl.ksy (`meshspec_stl`), made at build time by
//! build.rs.
#![allow(clippy::all, warnings)]

include!(concat!(env!("OUT_DIR"), "/modules.rs"));

/// A binary STL file of `n` triangles (a strip of a helix, each with its normal), the same
/// bytes every run: what the gallery's stl.ksy reads.
pub fn stl_file(n: u32) -> Vec<u8> {
    let mut b = Vec::with_capacity(84 + 50 * n as usize);
    b.extend_from_slice(&[b' '; 80]);
    b.extend_from_slice(&n.to_le_bytes());
    let point = |k: u32, up: f32| {
        let t = k as f32 * 0.01;
        [t.cos(), t.sin(), t * 0.1 + up]
    };
    for i in 0..n {
        let (a, c) = (point(i / 2, 0.0), point(i / 2 + 1, 0.0));
        let tri = if i % 2 == 0 {
            [a, c, point(i / 2, 1.0)]
        } else {
            [c, point(i / 2 + 1, 1.0), point(i / 2, 1.0)]
        };
        let normal = [a[0], a[1], 0.0];
        for v in std::iter::once(normal).chain(tri) {
            for x in v {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        b.extend_from_slice(&0u16.to_le_bytes());
    }
    b
}
