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

use super::format::VertexFormat;
use super::{fail, slot, Channel, ChannelData, RawMesh, UnityMeshData, CHANNELS, P};
use crate::rt::{Error, ErrorKind, Result};

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

/// `QualitySettings.skinWeights`: the most influences per vertex the engine draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkinWeights {
    /// One bone per vertex.
    One,
    /// Two bones.
    Two,
    /// Four bones (the blend channels).
    Four,
    /// Unlimited (255): the variable bone count data when the mesh has it.
    Unlimited,
}

impl SkinWeights {
    /// The setting of a stored value (1, 2, 4 or 255).
    pub fn from_value(v: u32) -> Option<Self> {
        match v {
            1 => Some(SkinWeights::One),
            2 => Some(SkinWeights::Two),
            4 => Some(SkinWeights::Four),
            255 => Some(SkinWeights::Unlimited),
            _ => None,
        }
    }

    /// The most influences per vertex, `None` for unlimited.
    pub fn limit(self) -> Option<usize> {
        match self {
            SkinWeights::One => Some(1),
            SkinWeights::Two => Some(2),
            SkinWeights::Four => Some(4),
            SkinWeights::Unlimited => None,
        }
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
    /// The influences the engine draws at a `skinWeights` setting: the variable data at
    /// unlimited weights when the mesh has it, otherwise the blend channels (or the
    /// variable data when there are no channels).
    pub fn drawn(&self, limit: SkinWeights) -> Option<&Blend> {
        match limit {
            SkinWeights::Unlimited => self.variable.as_ref().or(self.blend.as_ref()),
            _ => self.blend.as_ref().or(self.variable.as_ref()),
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

fn channel_error(slot: usize, kind: ErrorKind, expected: String, found: String) -> Error {
    fail(
        kind,
        None,
        &[P::F("m_VertexData"), P::F("m_Channels"), P::I(slot)],
        expected,
        found,
    )
}

/// The byte offset (in the caller's input) of component `k` of vertex `v` of a channel.
fn component_offset(
    raw: &RawMesh,
    mesh: &UnityMeshData,
    slot: usize,
    v: usize,
    k: usize,
) -> Option<u64> {
    let layout = mesh.layout.as_ref()?;
    let place = layout.channels.get(slot).copied().flatten()?;
    let stream = layout.streams.get(usize::from(place.stream))?;
    let at = stream.start + v * stream.stride + place.offset + k * place.format.size();
    Some(raw.vertex_data_offset.saturating_add(at as u64))
}

/// The blend channels' influences.
fn from_channels(raw: &RawMesh, mesh: &UnityMeshData) -> Result<Option<Blend>> {
    let weights = mesh.channel(slot::BLEND_WEIGHT);
    let indices = mesh.channel(slot::BLEND_INDICES);
    let vc = mesh.vertex_count;
    let bones_of = |c: &Channel| -> Result<Vec<u32>> {
        match (&c.data, c.format) {
            (
                ChannelData::UInt(v),
                VertexFormat::UInt8 | VertexFormat::UInt16 | VertexFormat::UInt32,
            ) => Ok(v.clone()),
            _ => Err(channel_error(
                slot::BLEND_INDICES,
                ErrorKind::Unsupported,
                "BlendIndices as UInt8, UInt16 or UInt32".into(),
                format!("{:?}", c.format),
            )),
        }
    };
    match (weights, indices) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(channel_error(
            slot::BLEND_WEIGHT,
            ErrorKind::Inconsistent,
            "a BlendIndices channel with the BlendWeight channel (weights without bone slots are not a skin)".into(),
            "no BlendIndices channel".into(),
        )),
        (None, Some(ix)) => {
            let all = bones_of(ix)?;
            let bones: Vec<u32> = all.chunks_exact(ix.dim).map(|c| c[0]).collect();
            Ok(Some(Blend {
                starts: (0..=bones.len() as u32).collect(),
                weights: vec![1.0; bones.len()],
                bones,
            }))
        }
        (Some(w), Some(ix)) => {
            let wts = match (&w.data, w.format) {
                (
                    ChannelData::Float(v),
                    VertexFormat::Float | VertexFormat::Float16 | VertexFormat::UNorm8 | VertexFormat::UNorm16,
                ) => v.clone(),
                _ => {
                    return Err(channel_error(
                        slot::BLEND_WEIGHT,
                        ErrorKind::Unsupported,
                        "BlendWeight as Float, Float16, UNorm8 or UNorm16".into(),
                        format!("{:?}", w.format),
                    ))
                }
            };
            let bones = bones_of(ix)?;
            if w.dim != ix.dim {
                return Err(channel_error(
                    slot::BLEND_WEIGHT,
                    ErrorKind::Unsupported,
                    format!("as many components as BlendIndices ({})", ix.dim),
                    w.dim.to_string(),
                ));
            }
            let dim = w.dim as u32;
            Ok(Some(Blend {
                starts: (0..=vc as u32).map(|v| v.saturating_mul(dim)).collect(),
                weights: wts,
                bones,
            }))
        }
    }
    .and_then(|b| {
        if let Some(b) = &b {
            // A bone slot of non-zero weight must name a bind pose.
            let n = raw.bind_poses.len();
            for v in 0..b.vertex_count() {
                let (w, bo) = b.influences(v);
                for (k, (&wt, &bone)) in w.iter().zip(bo).enumerate() {
                    if wt != 0.0 && bone as usize >= n {
                        return Err(fail(
                            ErrorKind::Inconsistent,
                            component_offset(raw, mesh, slot::BLEND_INDICES, v, k),
                            &[P::F("m_VertexData"), P::F("m_Channels"), P::I(slot::BLEND_INDICES)],
                            format!(
                                "a bone slot below the {n} bind poses ({} of vertex {v}, influence {k}, weight {wt})",
                                CHANNELS[slot::BLEND_INDICES]
                            ),
                            bone.to_string(),
                        ));
                    }
                }
            }
        }
        Ok(b)
    })
}

/// `m_VariableBoneCountWeights.m_Data` as influences.
fn from_variable(raw: &RawMesh, vc: usize) -> Result<Option<Blend>> {
    let words = raw.variable_bone_count_weights;
    if words.is_empty() {
        return Ok(None);
    }
    let path = |k: usize| [P::F("m_VariableBoneCountWeights"), P::F("m_Data"), P::I(k)];
    let Some(head) = vc.checked_add(1).filter(|&h| h <= words.len()) else {
        return Err(fail(
            ErrorKind::Count,
            None,
            &[P::F("m_VariableBoneCountWeights"), P::F("m_Data")],
            format!(
                "at least {} words (a start offset per vertex and the end)",
                vc.saturating_add(1)
            ),
            format!("{} words", words.len()),
        ));
    };
    let offsets = &words[..head];
    let len = words.len() as u64;
    let mut prev = head as u64;
    for (k, &o) in offsets.iter().enumerate() {
        let o64 = u64::from(o);
        let (ok, expected) = if k == 0 {
            (
                o64 == head as u64,
                format!("{head} (the word of the first influence: vertex count + 1)"),
            )
        } else if k + 1 == head {
            (
                o64 == len && o64 >= prev,
                format!("{len} (the data's length in words)"),
            )
        } else {
            (
                o64 >= prev && o64 <= len,
                format!("a word offset from {prev} to {len}"),
            )
        };
        if !ok {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &path(k),
                expected,
                o.to_string(),
            ));
        }
        prev = o64;
    }
    if prev != len {
        return Err(fail(
            ErrorKind::Inconsistent,
            None,
            &path(head - 1),
            format!("{len} (the data's length in words)"),
            prev.to_string(),
        ));
    }
    let entries = &words[head..];
    let n = raw.bind_poses.len();
    let mut weights = Vec::with_capacity(entries.len());
    let mut bones = Vec::with_capacity(entries.len());
    for (k, &word) in entries.iter().enumerate() {
        let weight = f32::from((word >> 16) as u16) / 65535.0;
        let bone = word & 0xFFFF;
        if weight != 0.0 && bone as usize >= n {
            return Err(fail(
                ErrorKind::Inconsistent,
                None,
                &path(head + k),
                format!("a bone slot below the {n} bind poses (weight {weight})"),
                bone.to_string(),
            ));
        }
        weights.push(weight);
        bones.push(bone);
    }
    let base = head as u32;
    Ok(Some(Blend {
        starts: offsets.iter().map(|&o| o - base).collect(),
        weights,
        bones,
    }))
}

/// The skin of a decoded mesh, `None` when it has no influences and no bind poses.
pub(crate) fn decode(raw: &RawMesh, mesh: &UnityMeshData) -> Result<Option<MeshSkin>> {
    let blend = from_channels(raw, mesh)?;
    let variable = from_variable(raw, mesh.vertex_count)?;
    if blend.is_none() && variable.is_none() && raw.bind_poses.is_empty() {
        return Ok(None);
    }
    Ok(Some(MeshSkin {
        blend,
        variable,
        bind_poses: raw.bind_poses.to_vec(),
    }))
}
