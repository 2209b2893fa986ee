//! Compressed meshes (`m_CompressedMesh`): positions, texture coordinates, normals,
//! tangents, colours and skin weights unpacked from PackedBitVectors into the same channels
//! a mesh with vertex data has.
//!
//! - Positions: three items per vertex.
//! - Texture coordinates: the sets one after another in `m_UV`; `m_UVInfo` has a nibble per
//!   set (set k in bits 4k to 4k + 3): bit 2 set means present, the low two bits are the
//!   dimension minus 1 (bit 3 is not documented and is ignored). When `m_UVInfo` is 0, the
//!   older form holds one or two two-component sets.
//! - Normals: x and y packed, z = sqrt(1 - x² - y²) made negative when its sign item is 0;
//!   when 1 - x² - y² is negative, the normal is (x, y, 0) brought to unit length.
//! - Tangents: as normals, with two sign items per tangent (z's, then w's: 0 gives -1).
//! - Colours: four floats per vertex (`m_FloatColors`, from 5.0); before 5.0 one 32-bit item
//!   per vertex (`m_Colors`), red in the high byte (UnityPy's reading).
//! - Bind poses (before 5.0): 16 items per matrix, row by row, in `m_BindPoses`.
//! - Skin weights (confidence: inferred; no compressed mesh found has any): 5-bit weights in
//!   31sts, read vertex by vertex with one bone slot each; a vertex's weights end when they
//!   reach 31, or after three whose sum is short of 31, when a fourth weight of the rest is
//!   implied and takes the next bone slot.

use super::format::VertexFormat;
use super::packed::{self, unpack_floats, unpack_ints, Packed, PackedAt};
use super::skin::{bone_expected, first_bad_bone};
use super::{slot, Channel, ChannelData};
use crate::generated::unity_mesh::{CompressedMeshPlace, CompressedMeshPos, CompressedMeshRef};
use crate::rt::{ErrorKind, Place};
use crate::verdict::Judge;

fn float_channel(dim: usize, data: Vec<f32>) -> Option<Channel> {
    Some(Channel {
        format: VertexFormat::Float,
        dim,
        stream: None,
        data: ChannelData::Float(data),
    })
}

/// The vertex vectors of a compressed mesh with where each lies (those of its era).
struct Vectors<'a> {
    vertices: (Packed<'a>, PackedAt),
    uv: (Packed<'a>, PackedAt),
    normals: (Packed<'a>, PackedAt),
    tangents: (Packed<'a>, PackedAt),
    weights: (Packed<'a>, PackedAt),
    normal_signs: (Packed<'a>, PackedAt),
    tangent_signs: (Packed<'a>, PackedAt),
    float_colors: Option<(Packed<'a>, PackedAt)>,
    bone_indices: (Packed<'a>, PackedAt),
    /// Before 5.0.
    bind_poses: Option<(Packed<'a>, PackedAt)>,
    /// Before 5.0.
    colors: Option<(Packed<'a>, PackedAt)>,
}

impl<'a> Vectors<'a> {
    fn of(c: &CompressedMeshRef<'a>, at: &Place<'_, CompressedMeshPos>) -> Self {
        // Field `$f` of floats or ints (`$kind`) and its places; or of a field not every
        // version has, when the mesh has it.
        macro_rules! pair {
            ($kind:ident, $f:ident) => {
                (Packed::$kind(&c.$f), PackedAt::$kind(&at.$f()))
            };
        }
        macro_rules! some_pair {
            ($kind:ident, $f:ident) => {
                (c.$f.as_ref().zip(at.$f().some()))
                    .map(|(v, p)| (Packed::$kind(v), PackedAt::$kind(&p)))
            };
        }
        Vectors {
            vertices: pair!(floats, vertices),
            uv: pair!(floats, uv),
            normals: pair!(floats, normals),
            tangents: pair!(floats, tangents),
            weights: pair!(ints, weights),
            normal_signs: pair!(ints, normal_signs),
            tangent_signs: pair!(ints, tangent_signs),
            float_colors: some_pair!(floats, float_colors),
            bone_indices: pair!(ints, bone_indices),
            bind_poses: some_pair!(floats, bind_poses),
            colors: some_pair!(ints, colors),
        }
    }

    /// Every vector but the positions, by its field name.
    fn others(&self) -> Vec<(&'static str, &(Packed<'a>, PackedAt))> {
        let mut out = vec![
            ("uv", &self.uv),
            ("normals", &self.normals),
            ("tangents", &self.tangents),
        ];
        out.extend(self.float_colors.as_ref().map(|v| ("float_colors", v)));
        out.extend([
            ("weights", &self.weights),
            ("normal_signs", &self.normal_signs),
            ("tangent_signs", &self.tangent_signs),
            ("bone_indices", &self.bone_indices),
        ]);
        out.extend(self.bind_poses.as_ref().map(|v| ("bind_poses", v)));
        out.extend(self.colors.as_ref().map(|v| ("colors", v)));
        out
    }
}

/// The `m_UVInfo` of a compressed mesh: 0 (the older form) before 5.0, where there is none.
fn uv_info(c: &CompressedMeshRef<'_>) -> u32 {
    c.uv_info.unwrap_or(0)
}

/// The verdict on `m_Triangles` alone (the indices of a mesh with or without compressed
/// vertices): whether it can be unpacked.
pub(crate) fn judge_triangles(
    c: &CompressedMeshRef<'_>,
    at: &Place<'_, CompressedMeshPos>,
    j: &mut Judge<'_>,
) -> bool {
    packed::judge(
        &Packed::ints(&c.triangles),
        &PackedAt::ints(&at.triangles()),
        j,
    )
}

/// Checks that a vector holds `per` items per vertex.
fn per_vertex(v: &(Packed, PackedAt), per: u64, vc: u64, what: &str, j: &mut Judge<'_>) {
    let n = u64::from(v.0.num_items);
    if n != per * vc {
        j.push(v.1.num_items_error(
            ErrorKind::Inconsistent,
            format!("{per} items per vertex for {vc} vertices ({what})"),
            n.to_string(),
        ));
    }
}

/// The verdict on the compressed mesh: what decoding its vertices needs. A mesh whose
/// `m_Vertices` is empty keeps its vertices in the vertex data: its other packed vertex vectors
/// must be empty too. `vertex_data` says whether the mesh also has vertex bytes (inline or
/// streamed).
pub(crate) fn judge(
    c: &CompressedMeshRef<'_>,
    at: &Place<'_, CompressedMeshPos>,
    vertex_data: Option<crate::rt::Error>,
    bind_poses: usize,
    j: &mut Judge<'_>,
) {
    let v = Vectors::of(c, at);
    if v.vertices.0.num_items == 0 {
        for (name, x) in v.others() {
            if name == "bind_poses" {
                // Bind poses are the bones', not the vertices'.
                continue;
            }
            if x.0.num_items > 0 {
                j.push(x.1.num_items_error(
                    ErrorKind::Inconsistent,
                    format!("0 items in {name}, since compressed_mesh.vertices is empty (the vertices, if any, are in the vertex data)"),
                    x.0.num_items.to_string(),
                ));
            }
        }
        return;
    }
    if let Some(e) = vertex_data {
        j.push(e);
    }
    let mut ok = packed::judge(&v.vertices.0, &v.vertices.1, j);
    for (_, x) in v.others() {
        ok &= packed::judge(&x.0, &x.1, j);
    }
    let n = u64::from(v.vertices.0.num_items);
    if n % 3 != 0 {
        j.push(v.vertices.1.num_items_error(
            ErrorKind::Inconsistent,
            "three items per vertex (x, y and z)",
            n.to_string(),
        ));
    }
    let vc = n / 3;
    let uv = u64::from(v.uv.0.num_items);
    if uv > 0 {
        let info = uv_info(c);
        if info != 0 {
            let sets: u64 = (0..8)
                .map(|k| (info >> (4 * k)) & 0xF)
                .filter(|nibble| nibble & 4 != 0)
                .map(|nibble| u64::from(nibble & 3) + 1)
                .sum();
            if uv != sets * vc {
                j.push(v.uv.1.num_items_error(
                    ErrorKind::Inconsistent,
                    format!(
                        "{} items: the sets uv_info 0x{:08X} names, {sets} per vertex for {vc} vertices",
                        sets * vc,
                        info
                    ),
                    uv.to_string(),
                ));
            }
        } else if uv != 2 * vc && uv != 4 * vc {
            j.push(v.uv.1.num_items_error(
                ErrorKind::Inconsistent,
                format!("one or two sets of 2 items per vertex for {vc} vertices (uv_info 0)"),
                uv.to_string(),
            ));
        }
    }
    for (xy, signs, per_sign, what) in [
        (&v.normals, &v.normal_signs, 1, "normals"),
        (&v.tangents, &v.tangent_signs, 2, "tangents"),
    ] {
        if xy.0.num_items > 0 {
            per_vertex(xy, 2, vc, &format!("x and y of the {what}"), j);
            per_vertex(signs, per_sign, vc, &format!("the signs of the {what}"), j);
        } else if signs.0.num_items > 0 {
            j.push(signs.1.num_items_error(
                ErrorKind::Inconsistent,
                format!("0 (there are no packed {what})"),
                signs.0.num_items.to_string(),
            ));
        }
    }
    if let Some(fc) = v.float_colors.as_ref().filter(|x| x.0.num_items > 0) {
        per_vertex(fc, 4, vc, "RGBA", j);
    }
    if let Some(cs) = v.colors.as_ref().filter(|x| x.0.num_items > 0) {
        per_vertex(cs, 1, vc, "one 32-bit RGBA colour", j);
    }
    if let Some(bp) = v.bind_poses.as_ref() {
        let n = bp.0.num_items;
        if n % 16 != 0 {
            j.push(bp.1.num_items_error(
                ErrorKind::Inconsistent,
                "16 items per bind pose (a 4x4 matrix)",
                n.to_string(),
            ));
        } else if bind_poses > 0 && n > 0 && (n / 16) as usize != bind_poses {
            j.push(bp.1.num_items_error(
                ErrorKind::Inconsistent,
                format!("16 items for each of the {bind_poses} bind poses of m_BindPose, or none"),
                n.to_string(),
            ));
        }
    }
    if ok && (v.weights.0.num_items > 0 || v.bone_indices.0.num_items > 0) {
        match weights(&v.weights.0, &v.bone_indices.0, vc as usize) {
            Ok((w, b)) => {
                if let Some((vx, k, bone, weight, count)) =
                    first_bad_bone(Some(&w), &b, 4, bind_poses)
                {
                    let (offset, path) = v.bone_indices.1.data_byte(0);
                    j.push(
                        crate::rt::Error::new(
                            ErrorKind::Inconsistent,
                            0,
                            bone_expected(bind_poses, vx, k, weight, count),
                            bone.to_string(),
                        )
                        .placed(offset, &path),
                    );
                }
            }
            Err(e) => j.push(match e {
                WeightsProblem::Weights(expected) => v.weights.1.num_items_error(
                    ErrorKind::Inconsistent,
                    expected,
                    v.weights.0.num_items.to_string(),
                ),
                WeightsProblem::Bones(expected) => v.bone_indices.1.num_items_error(
                    ErrorKind::Inconsistent,
                    expected,
                    v.bone_indices.0.num_items.to_string(),
                ),
            }),
        }
    }
}

/// A unit vector rebuilt from x and y and the sign of z (`positive` false makes z negative).
fn rebuild(x: f32, y: f32, positive: bool) -> [f32; 3] {
    let zz = 1.0 - x * x - y * y;
    if zz >= 0.0 {
        let z = zz.sqrt();
        [x, y, if positive { z } else { -z }]
    } else {
        let len = (x * x + y * y).sqrt();
        [x / len, y / len, 0.0]
    }
}

/// Unpacks the vertices of a compressed mesh whose verdict passed: the vertex count and the
/// channels.
pub(crate) fn decode_vertices(c: &CompressedMeshRef<'_>) -> (usize, [Option<Channel>; 14]) {
    let mut out: [Option<Channel>; 14] = Default::default();
    let positions = unpack_floats(&Packed::floats(&c.vertices));
    let vc = positions.len() / 3;
    out[slot::VERTEX] = float_channel(3, positions);

    if c.uv.num_items > 0 {
        let uv = unpack_floats(&Packed::floats(&c.uv));
        let info = uv_info(c);
        if info != 0 {
            let mut pos = 0usize;
            for k in 0..8 {
                let nibble = (info >> (4 * k)) & 0xF;
                if nibble & 4 == 0 {
                    continue;
                }
                let dim = (nibble & 3) as usize + 1;
                let values = uv.get(pos..pos + dim * vc).unwrap_or(&[]);
                pos += values.len();
                out[slot::TEX_COORD0 + k] = float_channel(dim, values.to_vec());
            }
        } else {
            let two = 2 * vc;
            let (first, second) = uv.split_at(two.min(uv.len()));
            out[slot::TEX_COORD0] = float_channel(2, first.to_vec());
            if !second.is_empty() {
                out[slot::TEX_COORD0 + 1] = float_channel(2, second.to_vec());
            }
        }
    }

    if c.normals.num_items > 0 {
        let xy = unpack_floats(&Packed::floats(&c.normals));
        let signs = unpack_ints(&Packed::ints(&c.normal_signs));
        let mut n = Vec::with_capacity(3 * vc);
        for (p, &s) in xy.chunks_exact(2).zip(&signs) {
            n.extend_from_slice(&rebuild(p[0], p[1], s != 0));
        }
        out[slot::NORMAL] = float_channel(3, n);
    }

    if c.tangents.num_items > 0 {
        let xy = unpack_floats(&Packed::floats(&c.tangents));
        let signs = unpack_ints(&Packed::ints(&c.tangent_signs));
        let mut t = Vec::with_capacity(4 * vc);
        for (p, s) in xy.chunks_exact(2).zip(signs.chunks_exact(2)) {
            t.extend_from_slice(&rebuild(p[0], p[1], s[0] != 0));
            t.push(if s[1] != 0 { 1.0 } else { -1.0 });
        }
        out[slot::TANGENT] = float_channel(4, t);
    }

    if let Some(fc) = c.float_colors.as_ref().filter(|v| v.num_items > 0) {
        out[slot::COLOR] = float_channel(4, unpack_floats(&Packed::floats(fc)));
    }
    if let Some(cs) = c.colors.as_ref().filter(|v| v.num_items > 0) {
        // One 32-bit colour per vertex, red in the high byte (UnityPy's reading).
        let rgba = unpack_ints(&Packed::ints(cs))
            .into_iter()
            .flat_map(|x| x.to_be_bytes().map(|b| f32::from(b) / 255.0))
            .collect();
        out[slot::COLOR] = float_channel(4, rgba);
    }

    if c.weights.num_items > 0 || c.bone_indices.num_items > 0 {
        let (w, b) = weights(
            &Packed::ints(&c.weights),
            &Packed::ints(&c.bone_indices),
            vc,
        )
        .unwrap_or_default();
        out[slot::BLEND_WEIGHT] = float_channel(4, w);
        out[slot::BLEND_INDICES] = Some(Channel {
            format: VertexFormat::UInt32,
            dim: 4,
            stream: None,
            data: ChannelData::UInt(b),
        });
    }
    (vc, out)
}

/// The number of bind poses a compressed mesh of before 5.0 packs (16 items each).
pub(crate) fn packed_bind_pose_count(c: &CompressedMeshRef<'_>) -> usize {
    c.bind_poses
        .as_ref()
        .map_or(0, |b| b.num_items as usize / 16)
}

/// The bind poses a compressed mesh of before 5.0 packs, row by row (none from 5.0).
pub(crate) fn packed_bind_poses(c: &CompressedMeshRef<'_>) -> Vec<[f32; 16]> {
    let Some(b) = c.bind_poses.as_ref().filter(|b| b.num_items >= 16) else {
        return vec![];
    };
    unpack_floats(&Packed::floats(b))
        .chunks_exact(16)
        .map(|m| {
            let mut e = [0.0f32; 16];
            e.copy_from_slice(m);
            e
        })
        .collect()
}

/// Why the packed weights do not make four influences per vertex.
enum WeightsProblem {
    /// `m_Weights` (what was expected).
    Weights(String),
    /// `m_BoneIndices` (what was expected).
    Bones(String),
}

/// The packed weights and bone slots as four influences per vertex (the inferred reading in
/// this module's documentation).
fn weights(
    w: &Packed,
    b: &Packed,
    vc: usize,
) -> std::result::Result<(Vec<f32>, Vec<u32>), WeightsProblem> {
    let weights = unpack_ints(w);
    let bones = unpack_ints(b);
    let mut w_out = vec![0.0f32; 4 * vc];
    let mut b_out = vec![0u32; 4 * vc];
    let mut bone_iter = bones.iter().copied();
    let no_bone = |at: usize| {
        WeightsProblem::Bones(format!(
            "a bone slot for weight {at} of compressed_mesh.weights ({} bone slots)",
            bones.len()
        ))
    };
    let (mut vertex, mut k, mut sum) = (0usize, 0usize, 0u32);
    for (i, &wt) in weights.iter().enumerate() {
        if vertex >= vc {
            return Err(WeightsProblem::Weights(format!(
                "weights for {vc} vertices (weight {i} is past the last vertex)"
            )));
        }
        let at = 4 * vertex + k;
        w_out[at] = wt as f32 / 31.0;
        b_out[at] = bone_iter.next().ok_or_else(|| no_bone(i))?;
        k += 1;
        sum = sum.saturating_add(wt);
        if sum >= 31 {
            vertex += 1;
            (k, sum) = (0, 0);
        } else if k == 3 {
            w_out[at + 1] = (31 - sum) as f32 / 31.0;
            b_out[at + 1] = bone_iter.next().ok_or_else(|| no_bone(i))?;
            vertex += 1;
            (k, sum) = (0, 0);
        }
    }
    if vertex != vc || k != 0 {
        return Err(WeightsProblem::Weights(format!(
            "weights that complete all {vc} vertices"
        )));
    }
    if bone_iter.next().is_some() {
        return Err(WeightsProblem::Bones(
            "one bone slot per stored or implied weight".into(),
        ));
    }
    Ok((w_out, b_out))
}
