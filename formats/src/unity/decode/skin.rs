//! Skin: bone influences per vertex and bind poses per bone.
//!
//! A mesh holds its influences in two forms. The blend channels (BlendWeight and
//! BlendIndices) hold up to four per vertex; an indices channel without a weights channel is
//! one influence of weight 1 per vertex (a rigid bind), a weights channel without indices is
//! not a skin and is refused. `m_VariableBoneCountWeights` holds all of them: `nv + 1` start
//! offsets (word indices into the data, the first `nv + 1`, the last the data's length), then
//! per influence a word with the bone slot in its low 16 bits and the weight in its high 16
//! bits as value / 65535, heaviest first; its blend channels then hold the first four,
//! renormalised. `QualitySettings.skinWeights` decides which form is drawn (see
//! [`MeshSkin::drawn`]).
//!
//! A bone slot indexes the renderer's bones, and `m_BindPose` holds one row-major matrix per
//! bone. A slot of non-zero weight must name a bind pose; one of weight zero may point past
//! them (it does not matter).

use super::format::{channel_bytes, decode_components, VertexFormat};
use super::layout::VertexLayout;
use super::table::{entry_at, Entry, Table};
use super::{needs, slot, ChannelData, Source, UnityMeshData};
use crate::context::SkinWeights;
use crate::generated::unity_mesh::{
    BoneWeights4Place, BoneWeights4VectorPlace, BoneWeights4VectorRef, UnityMesh, UnityMeshPlace,
    UnityMeshPos, UnityMeshRef, VariableBoneCountWeightsPlace, VariableBoneCountWeightsPos,
    VertexDataPos,
};
use crate::rt::{ErrorKind, Place};
use crate::verdict::Judge;

/// Bone influences per vertex, as a mesh stores them: vertex `v`'s weights and bone slots
/// are `weights[starts[v]..starts[v + 1]]` and `bones[starts[v]..starts[v + 1]]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Blend {
    /// `vertex count + 1` offsets into `weights` and `bones`.
    pub starts: Vec<u32>,
    /// The weights.
    pub weights: Vec<f32>,
    /// The bone slots (indices into the renderer's bones and the bind poses).
    pub bones: Vec<u32>,
}

impl Blend {
    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Vertex `v`'s weights and bone slots (empty past the last vertex).
    pub fn influences(&self, v: usize) -> (&[f32], &[u32]) {
        let range = match (self.starts.get(v), self.starts.get(v + 1)) {
            (Some(&a), Some(&b)) if a <= b => a as usize..b as usize,
            _ => 0..0,
        };
        (
            self.weights.get(range.clone()).unwrap_or(&[]),
            self.bones.get(range).unwrap_or(&[]),
        )
    }

    /// The most influences any vertex has.
    pub fn max_influences(&self) -> usize {
        self.starts
            .windows(2)
            .map(|w| w[1].saturating_sub(w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The heaviest `limit` influences of each vertex (heaviest first), renormalised to sum
    /// to 1 where something of non-zero weight was left out (as Unity fills the four blend
    /// channels of a mesh with variable bone counts); and the number of vertices that lost
    /// such an influence. When no vertex has more than `limit`, the influences as stored.
    pub fn cut(&self, limit: usize) -> (Blend, usize) {
        if self.max_influences() <= limit {
            return (self.clone(), 0);
        }
        let mut out = Blend {
            starts: Vec::with_capacity(self.starts.len()),
            weights: Vec::with_capacity(
                self.weights
                    .len()
                    .min(limit.saturating_mul(self.vertex_count())),
            ),
            bones: Vec::with_capacity(
                self.bones
                    .len()
                    .min(limit.saturating_mul(self.vertex_count())),
            ),
        };
        out.starts.push(0);
        let mut cut = 0;
        let mut pairs: Vec<(f32, u32)> = Vec::new();
        for v in 0..self.vertex_count() {
            let (w, b) = self.influences(v);
            pairs.clear();
            pairs.extend(w.iter().copied().zip(b.iter().copied()));
            pairs.sort_by(|x, y| y.0.total_cmp(&x.0));
            let kept = &pairs[..pairs.len().min(limit)];
            let dropped = pairs.get(limit..).unwrap_or(&[]);
            let mut sum = 1.0;
            if dropped.iter().any(|p| p.0 != 0.0) {
                cut += 1;
                let kept_sum: f32 = kept.iter().map(|p| p.0).sum();
                if kept_sum > 0.0 {
                    sum = kept_sum;
                }
            }
            for &(wt, bone) in kept {
                out.weights.push(wt / sum);
                out.bones.push(bone);
            }
            out.starts.push(out.weights.len() as u32);
        }
        (out, cut)
    }
}

/// A skin's influences as sets of four per vertex (`[set][vertex]`), cut to a
/// `skinWeights` limit: what a renderer with four influences per attribute set binds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PaddedSets {
    /// Per set, per vertex, four weights (zero where a vertex has fewer influences).
    pub weights: Vec<Vec<[f32; 4]>>,
    /// Per set, per vertex, four bone slots (zero where the weight is a padding zero).
    pub bones: Vec<Vec<[u32; 4]>>,
    /// The number of vertices that lost an influence of non-zero weight to the limit.
    pub cut: usize,
}

/// A mesh's skin as stored, in Unity's frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshSkin {
    /// The blend channels' influences (up to four per vertex, heaviest first as stored; one
    /// of weight 1 per vertex for a rigid bind).
    pub blend: Option<Blend>,
    /// The full influences of `m_VariableBoneCountWeights`, if the mesh stores them.
    pub variable: Option<Blend>,
    /// Per bone, the row-major matrix taking the renderer's local space to the bone's at
    /// bind time (`m_BindPose`).
    pub bind_poses: Vec<[f32; 16]>,
}

impl MeshSkin {
    /// The influences the engine draws at a `skinWeights` setting (seed 002): the variable
    /// data at all weights when the mesh has it, otherwise the blend channels.
    pub fn drawn(&self, limit: SkinWeights) -> Option<&Blend> {
        match limit {
            SkinWeights::All => self.variable.as_ref().or(self.blend.as_ref()),
            _ => self.blend.as_ref(),
        }
    }

    /// The drawn influences cut to the limit and padded into sets of four.
    pub fn padded(&self, limit: SkinWeights) -> PaddedSets {
        let Some(src) = self.drawn(limit) else {
            return PaddedSets::default();
        };
        let (blend, cut) = match limit.limit() {
            Some(l) => src.cut(l),
            None => (src.clone(), 0),
        };
        let vc = blend.vertex_count();
        let sets = blend.max_influences().div_ceil(4).max(1);
        let mut out = PaddedSets {
            weights: vec![vec![[0.0; 4]; vc]; sets],
            bones: vec![vec![[0; 4]; vc]; sets],
            cut,
        };
        for v in 0..vc {
            let (w, b) = blend.influences(v);
            for (k, (&wt, &bone)) in w.iter().zip(b).enumerate() {
                let (set, lane) = (k / 4, k % 4);
                if let (Some(ws), Some(bs)) = (out.weights.get_mut(set), out.bones.get_mut(set)) {
                    if let (Some(wv), Some(bv)) = (ws.get_mut(v), bs.get_mut(v)) {
                        wv[lane] = wt;
                        bv[lane] = bone;
                    }
                }
            }
        }
        out
    }
}

/// The formats the blend channels may have (seed 002), in the common numbering.
fn weight_format(f: VertexFormat) -> bool {
    matches!(
        f,
        VertexFormat::Float | VertexFormat::Float16 | VertexFormat::UNorm8 | VertexFormat::UNorm16
    )
}

fn index_format(f: VertexFormat) -> bool {
    matches!(
        f,
        VertexFormat::UInt8 | VertexFormat::UInt16 | VertexFormat::UInt32
    )
}

/// The verdict on the blend channels: `blend_channels_form_a_skin` and what decoding them
/// needs (the relation's formats and pairing, and as many weights as bone slots).
pub(crate) fn judge_channels(table: &Table, at: &Place<'_, VertexDataPos>, j: &mut Judge<'_>) {
    let rule = UnityMesh::REL_BLEND_CHANNELS_FORM_A_SKIN;
    let (w, ix) = (
        table.entry(slot::BLEND_WEIGHT),
        table.entry(slot::BLEND_INDICES),
    );
    let mut both = |(k, c): (usize, Entry), name: &str, ok: fn(VertexFormat) -> bool| {
        let entry = entry_at(at, k, c.stream);
        if !table.numbering.format(c.format_id).0.is_some_and(ok) {
            let expected = format!("{name} as {}", table.numbering.names(ok));
            let found = c.format_id.to_string();
            j.push(
                entry
                    .format()
                    .violates(rule, expected.clone(), found.clone()),
            );
            j.push(needs(
                rule,
                &entry.format(),
                format!("{expected}, to decode the skin"),
                found,
            ));
        }
        let dim = c.dimension & 0xF;
        if dim > 4 {
            j.push(entry.dimension().violates(
                rule,
                format!("{name} with at most four components (influences)"),
                dim.to_string(),
            ));
        }
    };
    if let Some(c) = w {
        both(c, "BlendWeight", weight_format);
    }
    if let Some(c) = ix {
        both(c, "BlendIndices", index_format);
    }
    match (w, ix) {
        (Some((k, c)), None) => {
            let entry = entry_at(at, k, c.stream).whole();
            let expected = "a BlendIndices channel with the BlendWeight channel (weights without bone slots are not a skin)";
            j.push(entry.violates(rule, expected, "no BlendIndices channel"));
            j.push(needs(
                rule,
                &entry,
                format!("{expected}, to decode the skin"),
                "no BlendIndices channel",
            ));
        }
        (Some((k, w)), Some((_, ix))) if w.dimension & 0xF != ix.dimension & 0xF => {
            j.push(entry_at(at, k, w.stream).dimension().error(
                ErrorKind::Unsupported,
                format!(
                    "as many BlendWeight components as BlendIndices ({}), to pair them",
                    ix.dimension & 0xF
                ),
                (w.dimension & 0xF).to_string(),
            ));
        }
        _ => {}
    }
}

/// The verdict on `m_Skin` (before 2018.2): `skin_per_vertex`, and what binding it needs
/// (every influence of non-zero weight naming a bind pose).
pub(crate) fn judge_m_skin(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, UnityMeshPos>,
    vc: u64,
    bind_poses: usize,
    j: &mut Judge<'_>,
) {
    let skin_at = at.skin();
    let (Some(skin), Some(p)) = (&view.skin, skin_at.some()) else {
        return;
    };
    let n = skin.items.len() as u64;
    if n == 0 {
        return;
    }
    if n != vc {
        let expected = format!("one entry per vertex ({vc}), or none");
        j.push(p.num_items().violates(
            UnityMesh::REL_SKIN_PER_VERTEX,
            expected.clone(),
            n.to_string(),
        ));
        j.push(needs(
            UnityMesh::REL_SKIN_PER_VERTEX,
            &p.num_items(),
            format!("{expected}, to bind the skin"),
            n.to_string(),
        ));
        return;
    }
    let (weights, bones) = m_skin_influences(skin);
    let bones: Vec<u32> = bones.iter().map(|&b| b as u32).collect();
    if let Some((v, k, bone, weight, count)) = first_bad_bone(Some(&weights), &bones, 4, bind_poses)
    {
        let slot = p.items().at(v);
        let field = match k {
            0 => slot.bone_index_0(),
            1 => slot.bone_index_1(),
            2 => slot.bone_index_2(),
            _ => slot.bone_index_3(),
        };
        j.push(field.owned().error(
            ErrorKind::Inconsistent,
            bone_expected(bind_poses, v, k, weight, count),
            (bone as i32).to_string(),
        ));
    }
}

/// The weights and bone slots of `m_Skin`, four per vertex.
fn m_skin_influences(skin: &BoneWeights4VectorRef<'_>) -> (Vec<f32>, Vec<i32>) {
    let mut w = Vec::with_capacity(4 * skin.items.len());
    let mut b = Vec::with_capacity(4 * skin.items.len());
    for e in skin.items.iter() {
        w.extend([e.weight_0, e.weight_1, e.weight_2, e.weight_3]);
        b.extend([
            e.bone_index_0,
            e.bone_index_1,
            e.bone_index_2,
            e.bone_index_3,
        ]);
    }
    (w, b)
}

/// The bone slots glTF's 16-bit joints can name.
const MAX_JOINTS: usize = 1 << 16;

/// The first influence of non-zero weight whose bone slot names no bind pose (vertex,
/// influence, bone, weight), with how many there are: `weights` per component (none: each
/// vertex's first slot at weight 1, a rigid bind), `dim` influences per vertex.
pub(crate) fn first_bad_bone(
    weights: Option<&[f32]>,
    bones: &[u32],
    dim: usize,
    bind_poses: usize,
) -> Option<(usize, usize, u32, f32, usize)> {
    let limit = bind_poses.min(MAX_JOINTS);
    let mut first = None;
    let mut count = 0usize;
    for (i, &bone) in bones.iter().enumerate() {
        let (v, k) = (i / dim.max(1), i % dim.max(1));
        let weight = match weights {
            Some(w) => w.get(i).copied().unwrap_or(0.0),
            None if k == 0 => 1.0,
            None => 0.0,
        };
        if weight != 0.0 && bone as usize >= limit {
            count += 1;
            first.get_or_insert((v, k, bone, weight));
        }
    }
    first.map(|(v, k, b, w)| (v, k, b, w, count))
}

/// What a bone slot past the bind poses is refused for.
pub(crate) fn bone_expected(
    bind_poses: usize,
    v: usize,
    k: usize,
    weight: f32,
    count: usize,
) -> String {
    let joints = if bind_poses > MAX_JOINTS {
        " and glTF's 16-bit joints"
    } else {
        ""
    };
    format!(
        "a bone slot below the {bind_poses} bind poses{joints} for an influence of non-zero weight (vertex {v}, influence {k}, weight {weight}; {count} such influences), to bind the skin"
    )
}

/// The verdict on the blend channels' bone slots in the vertex data: every influence of
/// non-zero weight names a bind pose (one of weight zero may point anywhere, seed 002).
pub(crate) fn judge_bone_slots(
    layout: &VertexLayout,
    data: &[u8],
    source: &Source,
    bind_poses: usize,
    j: &mut Judge<'_>,
) {
    let Some((ic, ix)) = channel_bytes(layout, data, slot::BLEND_INDICES) else {
        return;
    };
    if !index_format(ic.format) {
        return;
    }
    let ChannelData::UInt(bones) = decode_components(ic.format, &ix) else {
        return;
    };
    let weights = channel_bytes(layout, data, slot::BLEND_WEIGHT)
        .filter(|(c, _)| weight_format(c.format) && c.dim == ic.dim)
        .and_then(|(c, w)| match decode_components(c.format, &w) {
            ChannelData::Float(v) => Some(v),
            _ => None,
        });
    if let Some((v, k, bone, weight, count)) =
        first_bad_bone(weights.as_deref(), &bones, ic.dim, bind_poses)
    {
        let Some(at) = layout.address(slot::BLEND_INDICES, v as u64, k) else {
            return;
        };
        j.push(source.error(
            at,
            ErrorKind::Inconsistent,
            format!(
                "BlendIndices: {}",
                bone_expected(bind_poses, v, k, weight, count)
            ),
            bone.to_string(),
        ));
    }
}

/// Whether decoding draws `m_VariableBoneCountWeights` (it has data and every influence is
/// drawn).
pub(crate) fn variable_drawn(view: &UnityMeshRef<'_>, skin_weights: SkinWeights) -> bool {
    skin_weights == SkinWeights::All
        && view
            .variable_bone_count_weights
            .as_ref()
            .is_some_and(|w| !w.data.is_empty())
}

/// The verdict on `m_VariableBoneCountWeights`: `variable_weights_offsets`,
/// `variable_weights_sorted` and `variable_weights_sum_to_one`; when decoding draws it
/// (`drawn`), what that needs: valid offsets, and every influence of non-zero weight naming a
/// bind pose.
pub(crate) fn judge_variable(
    view: &UnityMeshRef<'_>,
    at: &Place<'_, Option<VariableBoneCountWeightsPos>>,
    vc: u64,
    drawn: bool,
    j: &mut Judge<'_>,
) {
    let (Some(w), Some(at)) = (view.variable_bone_count_weights.as_ref(), at.some()) else {
        return;
    };
    let words = &w.data;
    if words.is_empty() {
        return;
    }
    let list = at.data();
    let len = words.len() as u64;
    let head = vc + 1;
    let rule = UnityMesh::REL_VARIABLE_WEIGHTS_OFFSETS;
    if len < head {
        let expected =
            format!("at least {head} words (a start offset per vertex of {vc}, and the end)");
        j.push(list.violates(rule, expected.clone(), format!("{len} words")));
        if drawn {
            j.push(needs(
                rule,
                &list,
                format!("{expected}, to draw every influence"),
                format!("{len} words"),
            ));
        }
        return;
    }
    // The words once (their number is bounded by the input's size).
    let all = words.to_vec();
    let word = |k: u64| all.get(k as usize).copied().unwrap_or(0);
    let mut prev = head;
    for k in 0..head {
        let o = u64::from(word(k));
        let (ok, expected) = if k == 0 {
            (
                o == head,
                format!("{head} (vertex 0's first influence: the vertex count + 1)"),
            )
        } else if k + 1 == head {
            (
                o == len && o >= prev,
                format!("{len} (the data's length in words)"),
            )
        } else {
            (
                o >= prev && o <= len,
                format!("a word offset from {prev} to {len} (vertex {k}'s first influence)"),
            )
        };
        if !ok {
            let place = list.at(k as usize);
            j.push(place.violates(rule, expected.clone(), o.to_string()));
            if drawn {
                j.push(needs(
                    rule,
                    &place,
                    format!("{expected}, to draw every influence"),
                    o.to_string(),
                ));
            }
            return;
        }
        prev = o;
    }
    // Offsets hold: each vertex's influences are `word(v)..word(v + 1)`.
    let weight = |x: u32| x >> 16;
    let (mut unsorted, mut unsummed, mut bad_bone) = (None, None, None);
    let (mut n_unsorted, mut n_unsummed, mut n_bad) = (0usize, 0usize, 0usize);
    let bind_poses = super::bind_pose_count(view);
    for v in 0..vc {
        let (a, b) = (u64::from(word(v)), u64::from(word(v + 1)));
        let run = all.get(a as usize..b as usize).unwrap_or(&[]);
        if let Some(m) = run.windows(2).position(|p| weight(p[1]) > weight(p[0])) {
            n_unsorted += 1;
            unsorted.get_or_insert((v, a + m as u64 + 1, weight(run[m]), weight(run[m + 1])));
        }
        let sum: u64 = run.iter().map(|&x| u64::from(weight(x))).sum();
        // Within half of 1/65535 per influence: |sum - 65535| <= n / 2.
        if 2 * sum.abs_diff(65535) > run.len() as u64 {
            n_unsummed += 1;
            unsummed.get_or_insert((v, if run.is_empty() { v } else { a }, sum, run.len()));
        }
        if drawn {
            for (m, &x) in run.iter().enumerate() {
                if weight(x) != 0 && (x & 0xFFFF) as usize >= bind_poses.min(MAX_JOINTS) {
                    n_bad += 1;
                    bad_bone.get_or_insert((v, a + m as u64, m, x));
                }
            }
        }
    }
    if let Some((v, k, before, after)) = unsorted {
        j.push(list.at(k as usize).violates(
            UnityMesh::REL_VARIABLE_WEIGHTS_SORTED,
            format!("vertex {v}'s influences by descending weight ({n_unsorted} vertices are not)"),
            format!("weight {after}/65535 after {before}/65535"),
        ));
    }
    if let Some((v, k, sum, n)) = unsummed {
        j.push(list.at(k as usize).violates(
            UnityMesh::REL_VARIABLE_WEIGHTS_SUM_TO_ONE,
            format!(
                "vertex {v}'s {n} weights to sum to 65535/65535 within {n}/2 ({n_unsummed} vertices do not)"
            ),
            format!("{sum}/65535"),
        ));
    }
    if let Some((v, k, m, x)) = bad_bone {
        let weight = f32::from((x >> 16) as u16) / 65535.0;
        j.push(list.at(k as usize).error(
            ErrorKind::Inconsistent,
            bone_expected(bind_poses, v as usize, m, weight, n_bad),
            (x & 0xFFFF).to_string(),
        ));
    }
}

/// The blend channels' influences of a decoded mesh.
fn from_channels(mesh: &UnityMeshData) -> Option<Blend> {
    let weights = mesh.channel(slot::BLEND_WEIGHT);
    let indices = mesh.channel(slot::BLEND_INDICES)?;
    let bones = indices.uints()?;
    let dim = indices.dim.max(1);
    let vc = bones.len() / dim;
    match weights {
        None => {
            let first: Vec<u32> = bones.chunks_exact(dim).map(|c| c[0]).collect();
            Some(Blend {
                starts: (0..=first.len() as u32).collect(),
                weights: vec![1.0; first.len()],
                bones: first,
            })
        }
        Some(w) => Some(Blend {
            starts: (0..=vc as u32)
                .map(|v| v.saturating_mul(dim as u32))
                .collect(),
            weights: w.floats()?.to_vec(),
            bones: bones.to_vec(),
        }),
    }
}

/// `m_VariableBoneCountWeights.m_Data` as influences (of a mesh whose verdict passed with it
/// drawn).
fn from_variable(view: &UnityMeshRef<'_>, vc: usize) -> Option<Blend> {
    let words = view.variable_bone_count_weights.as_ref()?.data.to_vec();
    if words.is_empty() {
        return None;
    }
    let head = vc.checked_add(1)?.min(words.len());
    let base = head as u32;
    let entries = &words[head..];
    Some(Blend {
        starts: words[..head]
            .iter()
            .map(|&o| o.saturating_sub(base))
            .collect(),
        weights: entries
            .iter()
            .map(|&w| f32::from((w >> 16) as u16) / 65535.0)
            .collect(),
        bones: entries.iter().map(|&w| w & 0xFFFF).collect(),
    })
}

/// `m_Skin` (before 2018.2) as influences, four per vertex (none when it is empty).
fn from_m_skin(view: &UnityMeshRef<'_>) -> Option<Blend> {
    let skin = view.skin.as_ref().filter(|s| !s.items.is_empty())?;
    let (weights, bones) = m_skin_influences(skin);
    let n = skin.items.len() as u32;
    Some(Blend {
        starts: (0..=n).map(|v| v.saturating_mul(4)).collect(),
        weights,
        // A slot of weight zero may be anything (-1 in some files); it binds nothing.
        bones: bones
            .iter()
            .map(|&b| u32::try_from(b).unwrap_or(0))
            .collect(),
    })
}

/// The skin of a decoded mesh (the variable bone count data only when `skin_weights` draws
/// it), `None` when it has no influences and no bind poses.
pub(crate) fn decode(
    view: &UnityMeshRef<'_>,
    mesh: &UnityMeshData,
    skin_weights: SkinWeights,
) -> Option<MeshSkin> {
    let blend = from_channels(mesh).or_else(|| from_m_skin(view));
    let variable = if variable_drawn(view, skin_weights) {
        from_variable(view, mesh.vertex_count)
    } else {
        None
    };
    let bind_poses = super::bind_pose_matrices(view);
    if blend.is_none() && variable.is_none() && bind_poses.is_empty() {
        return None;
    }
    Some(MeshSkin {
        blend,
        variable,
        bind_poses,
    })
}
