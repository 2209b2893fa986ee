//! A compressed mesh (`m_CompressedMesh`) re-packed from edited geometry: each packed vector
//! keeps its bit width and range, and only the items of edited vertices are quantised anew
//! (the others keep their stored items); a value outside the vector's range widens it to hold
//! every value (all items quantised anew, said in a note). Moved positions, edited normals,
//! tangents and texture coordinates go back; a changed vertex count or triangles, edited
//! colours, skin or blend shapes of a compressed mesh, and an edit of a zero-bit vector are
//! refused with the reason.

use super::{bounds, refuse, to_unity, unedited};
use crate::generated::unity_mesh::{PackedFloatVector, PackedIntVector, UnityMesh};
use crate::rt::Result;
use crate::scene::Mesh;
use crate::unity::decode::{
    pack_items, quantise, slot, unpack_floats, unpack_ints, Packed, CHANNELS,
};
use crate::unity::make;

fn floats(v: &PackedFloatVector) -> Packed<'_> {
    Packed {
        num_items: v.num_items,
        bit_size: v.bit_size,
        data: &v.data.data,
        start: v.start,
        range: v.range,
    }
}

fn ints(v: &PackedIntVector) -> Packed<'_> {
    Packed {
        num_items: v.num_items,
        bit_size: v.bit_size,
        data: &v.data.data,
        start: 0.0,
        range: 0.0,
    }
}

/// Gives the vertices `new` names (vertex -> its `dim` values, in Unity's frame) their values
/// in `v`, from item `base` on. `None` when no vertex changed, else whether the range widened.
fn refill(
    v: &mut PackedFloatVector,
    what: &str,
    base: usize,
    dim: usize,
    new: &[(usize, Vec<f32>)],
) -> Result<Option<bool>> {
    if new.is_empty() {
        return Ok(None);
    }
    if v.bit_size == 0 || v.bit_size > 32 {
        return Err(refuse(
            format!("a packed vector of 1 to 32 bits to re-pack edited {what}"),
            format!("{} bits", v.bit_size),
        ));
    }
    let mut items = unpack_ints(&floats(v));
    let mut values = unpack_floats(&floats(v));
    let (lo, hi) = (v.start, v.start + v.range);
    let mut fits = true;
    for (k, x) in new {
        for (c, &x) in x.iter().take(dim).enumerate() {
            let i = base + dim * k + c;
            let (Some(value), true) = (values.get_mut(i), x.is_finite()) else {
                return Err(refuse(
                    format!("finite {what} for each of the vector's items"),
                    format!("item {i}"),
                ));
            };
            *value = x;
            fits &= (lo..=hi).contains(&x);
        }
    }
    if fits {
        for (k, _) in new {
            for c in 0..dim {
                let i = base + dim * k + c;
                items[i] = quantise(values[i], v.start, v.range, v.bit_size);
            }
        }
    } else {
        let lo = values.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        v.start = lo;
        v.range = hi - lo;
        for (item, &x) in items.iter_mut().zip(&values) {
            *item = quantise(x, v.start, v.range, v.bit_size);
        }
    }
    v.data = make::bytes(pack_items(&items, v.bit_size));
    Ok(Some(!fits))
}

/// Sets the sign items (`per` for each vertex, the `k`-th from `sign`) of the vertices in `new`.
fn resign(v: &mut PackedIntVector, per: usize, new: &[(usize, Vec<bool>)]) {
    if new.is_empty() || v.bit_size == 0 {
        return;
    }
    let mut items = unpack_ints(&ints(v));
    for (vx, signs) in new {
        for (k, &s) in signs.iter().enumerate() {
            if let Some(item) = items.get_mut(per * vx + k) {
                *item = u32::from(s);
            }
        }
    }
    v.data = make::bytes(pack_items(&items, v.bit_size));
}

/// `m` (a compressed mesh) with the edits of `edited` (against `before`, the original as
/// exported) re-packed into its vectors.
pub(super) fn repack(
    m: &mut UnityMesh,
    edited: &Mesh,
    before: &Mesh,
    notes: &mut Vec<String>,
) -> Result<()> {
    let n = before.positions.len();
    if edited.positions.len() != n {
        return Err(refuse(
            format!("the compressed original's vertex count, {n}"),
            format!("{} vertices", edited.positions.len()),
        ));
    }
    if !super::same_primitives(edited, before) {
        return Err(refuse(
            "the compressed original's triangles (its packed indices are not re-packed)",
            "edited primitives",
        ));
    }
    for s in [slot::COLOR, slot::BLEND_WEIGHT, slot::BLEND_INDICES] {
        if (0..n).any(|v| !unedited(edited, before, s, v)) {
            return Err(refuse(
                format!(
                    "the compressed original's {} (edits to it are not re-packed)",
                    CHANNELS[s]
                ),
                format!("edited {}", CHANNELS[s]),
            ));
        }
    }
    if super::shapes::differ(&edited.morph_targets, &before.morph_targets) {
        return Err(refuse(
            "the compressed original's blend shapes (edits to them are not written)",
            "edited morph targets",
        ));
    }
    // Per channel, the edited vertices' values in Unity's frame.
    let changed = |s: usize| -> Vec<(usize, Vec<f32>)> {
        (0..n)
            .filter(|&v| !unedited(edited, before, s, v))
            .filter_map(|v| Some((v, to_unity(s, super::scene_values(edited, s, v)?))))
            .collect()
    };
    let cm = &mut m.compressed_mesh;
    let mut said = vec![];
    let mut note = |what: &str, r: Option<bool>| match r {
        Some(true) => said.push(format!(
            "{what} (its range widened to hold them: every item quantised anew)"
        )),
        Some(false) => said.push(what.to_string()),
        None => {}
    };
    let moved = changed(slot::VERTEX);
    note(
        "positions",
        refill(&mut cm.vertices, "positions", 0, 3, &moved)?,
    );
    let normals = changed(slot::NORMAL);
    let xy: Vec<(usize, Vec<f32>)> = normals.iter().map(|(v, x)| (*v, x[..2].to_vec())).collect();
    note("normals", refill(&mut cm.normals, "normals", 0, 2, &xy)?);
    let signs: Vec<(usize, Vec<bool>)> = normals
        .iter()
        .map(|(v, x)| (*v, vec![x[2] >= 0.0]))
        .collect();
    resign(&mut cm.normal_signs, 1, &signs);
    let tangents = changed(slot::TANGENT);
    let xy: Vec<(usize, Vec<f32>)> = tangents
        .iter()
        .map(|(v, x)| (*v, x[..2].to_vec()))
        .collect();
    note("tangents", refill(&mut cm.tangents, "tangents", 0, 2, &xy)?);
    let signs: Vec<(usize, Vec<bool>)> = tangents
        .iter()
        .map(|(v, x)| (*v, vec![x[2] >= 0.0, x.get(3).is_some_and(|&w| w >= 0.0)]))
        .collect();
    resign(&mut cm.tangent_signs, 2, &signs);
    // Texture coordinate sets one after another, as `m_UVInfo` lays them out (two sets of two
    // components without it).
    let info = cm.uv_info.unwrap_or(0);
    let mut base = 0;
    for k in 0..8 {
        let dim = if info != 0 {
            let nibble = (info >> (4 * k)) & 0xF;
            if nibble & 4 == 0 {
                continue;
            }
            (nibble & 3) as usize + 1
        } else if k < 2 && (cm.uv.num_items as usize) >= 2 * n * (k + 1) {
            2
        } else {
            break;
        };
        let uv = changed(slot::TEX_COORD0 + k);
        note(
            &format!("texture coordinates {k}"),
            refill(&mut cm.uv, "texture coordinates", base, dim, &uv)?,
        );
        base += dim * n;
    }
    if !moved.is_empty() {
        let unity: Vec<[f32; 3]> = edited
            .positions
            .iter()
            .map(|p| [-p[0], p[1], p[2]])
            .collect();
        m.local_aabb = bounds(unity.iter());
        for (sub, p) in m.sub_meshes.iter_mut().zip(&edited.primitives) {
            sub.local_aabb = bounds(p.indices.iter().filter_map(|&i| unity.get(i as usize)));
        }
    }
    if !said.is_empty() {
        notes.push(format!(
            "compressed mesh re-packed in its bit widths: {} of edited vertices quantised anew, the rest kept as stored",
            said.join(", ")
        ));
    }
    Ok(())
}
