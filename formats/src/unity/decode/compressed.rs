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
//! - Colours: four floats per vertex.
//! - Skin weights (confidence: inferred; no compressed mesh found has any): 5-bit weights in
//!   31sts, read vertex by vertex with one bone slot each; a vertex's weights end when they
//!   reach 31, or after three whose sum is short of 31, when a fourth weight of the rest is
//!   implied and takes the next bone slot.

use super::format::VertexFormat;
use super::packed::{unpack_floats, unpack_ints};
use super::{fail, slot, Channel, ChannelData, RawCompressedMesh, P};
use crate::rt::{ErrorKind, Result};

fn float_channel(dim: usize, data: Vec<f32>) -> Option<Channel> {
    Some(Channel {
        format: VertexFormat::Float,
        dim,
        stream: None,
        data: ChannelData::Float(data),
    })
}

fn count_error(field: &'static str, expected: String, found: usize) -> crate::rt::Error {
    fail(
        ErrorKind::Inconsistent,
        None,
        &[P::F("m_CompressedMesh"), P::F(field), P::F("m_NumItems")],
        expected,
        found.to_string(),
    )
}

/// Checks that a vector holds `per` items per vertex.
fn per_vertex(field: &'static str, len: usize, per: usize, vc: usize) -> Result<()> {
    if vc.checked_mul(per) == Some(len) {
        Ok(())
    } else {
        Err(count_error(
            field,
            format!("{per} items per vertex for {vc} vertices"),
            len,
        ))
    }
}

/// Refuses packed vertex vectors in a mesh whose `m_CompressedMesh.m_Vertices` is empty:
/// they would describe vertices that do not exist.
pub(crate) fn check_unused(c: &RawCompressedMesh) -> Result<()> {
    let floats = [
        ("m_UV", c.uv.num_items),
        ("m_Normals", c.normals.num_items),
        ("m_Tangents", c.tangents.num_items),
        ("m_FloatColors", c.float_colors.num_items),
    ];
    let ints = [
        ("m_Weights", c.weights.num_items),
        ("m_NormalSigns", c.normal_signs.num_items),
        ("m_TangentSigns", c.tangent_signs.num_items),
        ("m_BoneIndices", c.bone_indices.num_items),
    ];
    for (field, n) in floats.into_iter().chain(ints) {
        if n > 0 {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &[P::F("m_CompressedMesh"), P::F(field), P::F("m_NumItems")],
                "0 in a mesh whose m_CompressedMesh.m_Vertices is empty",
                n.to_string(),
            ));
        }
    }
    Ok(())
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

/// Unpacks the vertices of a compressed mesh: the vertex count and the channels.
pub(crate) fn decode_vertices(c: &RawCompressedMesh) -> Result<(usize, [Option<Channel>; 14])> {
    let mut out: [Option<Channel>; 14] = Default::default();
    let positions = unpack_floats(&c.vertices, "m_Vertices")?;
    if positions.len() % 3 != 0 {
        return Err(count_error(
            "m_Vertices",
            "three items per vertex".into(),
            positions.len(),
        ));
    }
    let vc = positions.len() / 3;
    out[slot::VERTEX] = float_channel(3, positions);

    if c.uv.num_items > 0 {
        let uv = unpack_floats(&c.uv, "m_UV")?;
        if c.uv_info != 0 {
            let mut pos = 0usize;
            for k in 0..8 {
                let nibble = (c.uv_info >> (4 * k)) & 0xF;
                if nibble & 4 == 0 {
                    continue;
                }
                let dim = (nibble & 3) as usize + 1;
                let end = dim.checked_mul(vc).and_then(|n| n.checked_add(pos));
                let Some(values) = end.and_then(|e| uv.get(pos..e)) else {
                    return Err(count_error(
                        "m_UV",
                        format!(
                            "enough items for TexCoord{k} ({dim} per vertex, m_UVInfo 0x{:08X})",
                            c.uv_info
                        ),
                        uv.len(),
                    ));
                };
                pos += values.len();
                out[slot::TEX_COORD0 + k] = float_channel(dim, values.to_vec());
            }
            if pos != uv.len() {
                return Err(count_error(
                    "m_UV",
                    format!("{pos} items, the sets m_UVInfo 0x{:08X} names", c.uv_info),
                    uv.len(),
                ));
            }
        } else {
            let two = vc.saturating_mul(2);
            if uv.len() == two {
                out[slot::TEX_COORD0] = float_channel(2, uv);
            } else if uv.len() == two.saturating_mul(2) {
                let second = uv.get(two..).unwrap_or(&[]).to_vec();
                let first = uv.get(..two).unwrap_or(&[]).to_vec();
                out[slot::TEX_COORD0] = float_channel(2, first);
                out[slot::TEX_COORD0 + 1] = float_channel(2, second);
            } else {
                return Err(count_error(
                    "m_UV",
                    format!("one or two sets of 2 items per vertex for {vc} vertices (m_UVInfo 0)"),
                    uv.len(),
                ));
            }
        }
    }

    if c.normals.num_items > 0 {
        let xy = unpack_floats(&c.normals, "m_Normals")?;
        per_vertex("m_Normals", xy.len(), 2, vc)?;
        let signs = unpack_ints(&c.normal_signs, "m_NormalSigns")?;
        per_vertex("m_NormalSigns", signs.len(), 1, vc)?;
        let mut n = Vec::with_capacity(3 * vc);
        for (p, &s) in xy.chunks_exact(2).zip(&signs) {
            n.extend_from_slice(&rebuild(p[0], p[1], s != 0));
        }
        out[slot::NORMAL] = float_channel(3, n);
    } else if c.normal_signs.num_items > 0 {
        return Err(count_error(
            "m_NormalSigns",
            "0 (there are no packed normals)".into(),
            c.normal_signs.num_items as usize,
        ));
    }

    if c.tangents.num_items > 0 {
        let xy = unpack_floats(&c.tangents, "m_Tangents")?;
        per_vertex("m_Tangents", xy.len(), 2, vc)?;
        let signs = unpack_ints(&c.tangent_signs, "m_TangentSigns")?;
        per_vertex("m_TangentSigns", signs.len(), 2, vc)?;
        let mut t = Vec::with_capacity(4 * vc);
        for (p, s) in xy.chunks_exact(2).zip(signs.chunks_exact(2)) {
            t.extend_from_slice(&rebuild(p[0], p[1], s[0] != 0));
            t.push(if s[1] != 0 { 1.0 } else { -1.0 });
        }
        out[slot::TANGENT] = float_channel(4, t);
    } else if c.tangent_signs.num_items > 0 {
        return Err(count_error(
            "m_TangentSigns",
            "0 (there are no packed tangents)".into(),
            c.tangent_signs.num_items as usize,
        ));
    }

    if c.float_colors.num_items > 0 {
        let colours = unpack_floats(&c.float_colors, "m_FloatColors")?;
        per_vertex("m_FloatColors", colours.len(), 4, vc)?;
        out[slot::COLOR] = float_channel(4, colours);
    }

    if c.weights.num_items > 0 || c.bone_indices.num_items > 0 {
        let (w, b) = decode_weights(c, vc)?;
        out[slot::BLEND_WEIGHT] = float_channel(4, w);
        out[slot::BLEND_INDICES] = Some(Channel {
            format: VertexFormat::UInt32,
            dim: 4,
            stream: None,
            data: ChannelData::UInt(b),
        });
    }
    Ok((vc, out))
}

/// The packed weights and bone slots as four influences per vertex.
fn decode_weights(c: &RawCompressedMesh, vc: usize) -> Result<(Vec<f32>, Vec<u32>)> {
    let weights = unpack_ints(&c.weights, "m_Weights")?;
    let bones = unpack_ints(&c.bone_indices, "m_BoneIndices")?;
    let mut w_out = vec![0.0f32; 4 * vc];
    let mut b_out = vec![0u32; 4 * vc];
    let mut bone_iter = bones.iter().copied().enumerate();
    let mut next_bone = |at: usize| {
        bone_iter.next().map(|(_, b)| b).ok_or_else(|| {
            fail(
                ErrorKind::Inconsistent,
                None,
                &[
                    P::F("m_CompressedMesh"),
                    P::F("m_BoneIndices"),
                    P::F("m_NumItems"),
                ],
                format!("a bone slot for weight {at} of m_Weights"),
                format!("{} bone slots", bones.len()),
            )
        })
    };
    let (mut vertex, mut k, mut sum) = (0usize, 0usize, 0u32);
    for (i, &w) in weights.iter().enumerate() {
        if vertex >= vc {
            return Err(count_error(
                "m_Weights",
                format!("weights for {vc} vertices"),
                weights.len(),
            ));
        }
        let at = 4 * vertex + k;
        w_out[at] = w as f32 / 31.0;
        b_out[at] = next_bone(i)?;
        k += 1;
        sum = sum.saturating_add(w);
        if sum >= 31 {
            vertex += 1;
            (k, sum) = (0, 0);
        } else if k == 3 {
            w_out[at + 1] = (31 - sum) as f32 / 31.0;
            b_out[at + 1] = next_bone(i)?;
            vertex += 1;
            (k, sum) = (0, 0);
        }
    }
    if vertex != vc || k != 0 {
        return Err(count_error(
            "m_Weights",
            format!("weights that complete all {vc} vertices"),
            weights.len(),
        ));
    }
    if bone_iter.next().is_some() {
        return Err(count_error(
            "m_BoneIndices",
            "one bone slot per stored or implied weight".into(),
            bones.len(),
        ));
    }
    Ok((w_out, b_out))
}
