//! Non-finite values: where a mesh holds infinities or NaNs, and how many.
//!
//! A non-finite position leaves a vertex impossible to place, a non-finite normal or tangent
//! has no direction, a non-finite texture coordinate or colour has no value. Decoding keeps
//! them (they are what the file stores) and reports them; export refuses them unless asked
//! to write 0 instead.

use super::{ChannelData, UnityMeshData, CHANNELS};
use std::fmt;

/// Non-finite values in one place of a mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonFiniteReport {
    /// Where, as a field path in the spec's ids (`unity_mesh.vertex_data.channels[0]`).
    pub field: String,
    /// What the place holds (`Vertex`, `bind pose`, `blend shape deltas`).
    pub what: String,
    /// How many elements (vertices, matrices, entries) hold at least one non-finite value.
    pub count: usize,
    /// The first such element (a vertex, a bone, an entry).
    pub first: usize,
}

impl fmt::Display for NonFiniteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {} elements with non-finite values, the first at {}",
            self.field, self.what, self.count, self.first
        )
    }
}

/// Counts the `dim`-wide elements of `v` that hold a non-finite value.
fn scan_floats(v: &[f32], dim: usize) -> Option<(usize, usize)> {
    // Almost every mesh is finite throughout: one pass the compiler vectorises says so.
    if dim == 0 || v.iter().fold(true, |all, x| all & x.is_finite()) {
        return None;
    }
    let mut count = 0;
    let mut first = None;
    for (i, e) in v.chunks(dim).enumerate() {
        if !e.iter().all(|x| x.is_finite()) {
            count += 1;
            first.get_or_insert(i);
        }
    }
    first.map(|f| (count, f))
}

/// Every place of a decoded mesh that holds non-finite values.
pub(crate) fn scan(mesh: &UnityMeshData) -> Vec<NonFiniteReport> {
    let mut out = vec![];
    for (slot, c) in mesh.channels.iter().enumerate() {
        let Some(c) = c else { continue };
        let ChannelData::Float(v) = &c.data else {
            continue;
        };
        if let Some((count, first)) = scan_floats(v, c.dim) {
            let field = if mesh.compressed {
                let packed = match slot {
                    0 => "vertices",
                    1 => "normals",
                    2 => "tangents",
                    3 => "float_colors",
                    12 => "weights",
                    _ => "uv",
                };
                format!("unity_mesh.compressed_mesh.{packed}")
            } else {
                format!("unity_mesh.vertex_data.channels[{slot}]")
            };
            out.push(NonFiniteReport {
                field,
                what: CHANNELS[slot].to_string(),
                count,
                first,
            });
        }
    }
    if let Some(skin) = &mesh.skin {
        let flat: Vec<f32> = skin.bind_poses.iter().flatten().copied().collect();
        if let Some((count, first)) = scan_floats(&flat, 16) {
            out.push(NonFiniteReport {
                field: "unity_mesh.bind_poses".into(),
                what: "bind poses".into(),
                count,
                first,
            });
        }
    }
    if let Some(shapes) = &mesh.shapes {
        let flat: Vec<f32> = shapes
            .vertices
            .iter()
            .flat_map(|v| v.position.into_iter().chain(v.normal).chain(v.tangent))
            .collect();
        if let Some((count, first)) = scan_floats(&flat, 9) {
            out.push(NonFiniteReport {
                field: "unity_mesh.shapes.vertices".into(),
                what: "blend shape deltas".into(),
                count,
                first,
            });
        }
        let weights: Vec<f32> = shapes.frames.iter().map(|f| f.weight).collect();
        if let Some((count, first)) = scan_floats(&weights, 1) {
            out.push(NonFiniteReport {
                field: "unity_mesh.shapes.full_weights".into(),
                what: "blend shape frame weights".into(),
                count,
                first,
            });
        }
    }
    out
}
