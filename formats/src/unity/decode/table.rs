//! The channel table of every era in common terms: which shader channel each entry stands for,
//! what its format byte means, and where the streams are when the vertex data stores them.
//!
//! The spec reads three channel tables (`channels` from 2019.1, `channels_2017` from 2017.1,
//! `channels_legacy` from 4.0) whose format bytes are numbered three ways, and two kinds of
//! stored streams (`streams` in 4.x, the four `streams_fixed` of 3.5 to 3.x, which have no
//! channel table: their channel masks imply the channels). The orders of the shader channels
//! are the spec's enums `shader_channel`, `shader_channel_5` and `shader_channel_4`. This turns
//! each into one [`Table`]: entries in the common format numbering (the documents' twelve),
//! each with the slot of [`super::CHANNELS`] it stands for, and the rule the era's layout is
//! judged by.

use super::format::VertexFormat;
use super::{slot, CHANNELS};
use crate::generated::unity_mesh::{
    ChannelFormatLegacy as Legacy, ChannelInfo2017Place, ChannelInfo2017Pos,
    ChannelInfoLegacyPlace, ChannelInfoLegacyPos, ChannelInfoPlace, ChannelInfoPos,
    ShaderChannel as Order14, ShaderChannel4 as Order6, ShaderChannel5 as Order8,
    StreamInfoFixedPlace, UnityMesh, VertexDataPlace, VertexDataPos, VertexDataRef,
    VertexFormat2017 as F2017,
};
use crate::rt::{Place, Rule, Span};

/// How the format byte of an entry is numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// The documents' twelve formats (`vertex_format`, from 2019.1).
    Documents,
    /// The thirteen of 2017.1 to 2018.4 (`vertex_format_2017`).
    From2017,
    /// The five before 2017.1 (`channel_format_legacy`); also the implied formats of 3.5.
    Legacy,
}

impl Numbering {
    /// The common format of a stored format byte, `None` for an id the era's table lacks;
    /// whether the byte is the era's Color (a colour channel's four bytes).
    pub fn format(self, id: u8) -> (Option<VertexFormat>, bool) {
        use VertexFormat as V;
        match self {
            Numbering::Documents => (VertexFormat::from_id(id), false),
            Numbering::From2017 => {
                let f = match F2017(id) {
                    F2017::FLOAT => V::Float,
                    F2017::FLOAT16 => V::Float16,
                    F2017::COLOR | F2017::UNORM8 => V::UNorm8,
                    F2017::SNORM8 => V::SNorm8,
                    F2017::UNORM16 => V::UNorm16,
                    F2017::SNORM16 => V::SNorm16,
                    F2017::UINT8 => V::UInt8,
                    F2017::SINT8 => V::SInt8,
                    F2017::UINT16 => V::UInt16,
                    F2017::SINT16 => V::SInt16,
                    F2017::UINT32 => V::UInt32,
                    F2017::SINT32 => V::SInt32,
                    _ => return (None, false),
                };
                (Some(f), F2017(id) == F2017::COLOR)
            }
            Numbering::Legacy => {
                let f = match Legacy(id) {
                    Legacy::FLOAT => V::Float,
                    Legacy::FLOAT16 => V::Float16,
                    Legacy::COLOR => V::UNorm8,
                    Legacy::BYTE => V::UInt8,
                    Legacy::UINT32 => V::UInt32,
                    _ => return (None, false),
                };
                (Some(f), Legacy(id) == Legacy::COLOR)
            }
        }
    }

    /// The era's formats whose common format passes `keep`, named as the era's enum names them,
    /// with their ids (`Float (0), Float16 (1), UNorm8 (2) or UNorm16 (4)`).
    pub fn names(self, keep: impl Fn(VertexFormat) -> bool) -> String {
        use crate::generated::unity_mesh::VertexFormat as F2019;
        let items: Vec<String> = (0u8..=12)
            .filter(|&id| self.format(id).0.is_some_and(&keep))
            .map(|id| {
                let name = match self {
                    Numbering::Documents => F2019(id).orig_id(),
                    Numbering::From2017 => F2017(id).orig_id(),
                    Numbering::Legacy => Legacy(id).orig_id(),
                };
                format!("{} ({id})", name.unwrap_or("?"))
            })
            .collect();
        match items.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The formats a channel may have, for messages.
    pub fn expected(self) -> &'static str {
        match self {
            Numbering::Documents => "one of the 12 vertex formats (0 to 11)",
            Numbering::From2017 => "one of the 13 vertex formats of 2017.1 to 2018.4 (0 to 12)",
            Numbering::Legacy => "one of the 5 channel formats before 2017.1 (0 to 4)",
        }
    }
}

/// One entry of a channel table (or one channel a 3.5 stream's mask implies), in common terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The stream it lives in.
    pub stream: u8,
    /// Its byte offset in a vertex of the stream.
    pub offset: u8,
    /// The stored format byte.
    pub format_id: u8,
    /// The stored dimension byte (components in the low four bits).
    pub dimension: u8,
}

/// A stream the vertex data stores (before 5.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredStream {
    /// One bit per entry of the table (per shader channel in 3.5) the stream holds.
    pub channel_mask: u32,
    /// Where its first vertex starts in the vertex data.
    pub offset: u64,
    /// Bytes per vertex.
    pub stride: u64,
}

/// The channel table of a mesh's vertex data, in common terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The entries, in table order.
    pub entries: Vec<Entry>,
    /// Per entry index, the slot of [`CHANNELS`] it stands for (the era's order).
    pub slots: &'static [usize],
    /// How the format bytes are numbered.
    pub numbering: Numbering,
    /// The streams the vertex data stores (before 5.0); `None` when they follow from the
    /// channels (from 5.0).
    pub stored: Option<Vec<StoredStream>>,
    /// Whether the entries are implied by the streams' channel masks (3.5 to 3.x).
    pub implied: bool,
}

/// Entry index to slot, in the order of `shader_channel` (2018.1 on): the identity.
const SLOTS_14: [usize; 14] = [
    order14(Order14::VERTEX),
    order14(Order14::NORMAL),
    order14(Order14::TANGENT),
    order14(Order14::COLOR),
    order14(Order14::TEX_COORD0),
    order14(Order14::TEX_COORD1),
    order14(Order14::TEX_COORD2),
    order14(Order14::TEX_COORD3),
    order14(Order14::TEX_COORD4),
    order14(Order14::TEX_COORD5),
    order14(Order14::TEX_COORD6),
    order14(Order14::TEX_COORD7),
    order14(Order14::BLEND_WEIGHT),
    order14(Order14::BLEND_INDICES),
];

const fn order14(c: Order14) -> usize {
    c.0 as usize
}

/// Entry index to slot, in the order of `shader_channel_5` (5.0 to 2017.4).
const SLOTS_8: [usize; 8] = {
    let mut s = [0; 8];
    s[Order8::VERTEX.0 as usize] = slot::VERTEX;
    s[Order8::NORMAL.0 as usize] = slot::NORMAL;
    s[Order8::COLOR.0 as usize] = slot::COLOR;
    s[Order8::TEX_COORD0.0 as usize] = slot::TEX_COORD0;
    s[Order8::TEX_COORD1.0 as usize] = slot::TEX_COORD0 + 1;
    s[Order8::TEX_COORD2.0 as usize] = slot::TEX_COORD0 + 2;
    s[Order8::TEX_COORD3.0 as usize] = slot::TEX_COORD0 + 3;
    s[Order8::TANGENT.0 as usize] = slot::TANGENT;
    s
};

/// Entry index to slot, in the order of `shader_channel_4` (3.5 to 4.x).
const SLOTS_6: [usize; 6] = {
    let mut s = [0; 6];
    s[Order6::VERTEX.0 as usize] = slot::VERTEX;
    s[Order6::NORMAL.0 as usize] = slot::NORMAL;
    s[Order6::COLOR.0 as usize] = slot::COLOR;
    s[Order6::TEX_COORD0.0 as usize] = slot::TEX_COORD0;
    s[Order6::TEX_COORD1.0 as usize] = slot::TEX_COORD0 + 1;
    s[Order6::TANGENT.0 as usize] = slot::TANGENT;
    s
};

/// The formats (in the legacy numbering) and dimensions the readers give the channels a 3.5
/// stream's mask implies, in the order of `shader_channel_4` (UnityPy's
/// `MeshHelper.get_channels`, AssetStudio's `VertexData.GetChannels`).
const IMPLIED: [(Legacy, u8); 6] = [
    (Legacy::FLOAT, 3),
    (Legacy::FLOAT, 3),
    (Legacy::COLOR, 4),
    (Legacy::FLOAT, 2),
    (Legacy::FLOAT, 2),
    (Legacy::FLOAT, 4),
];

impl Table {
    /// The table of `vd`. The era's channel order is told by the fields the spec reads for
    /// that era, whose cut-offs are the order's: stored streams (before 5.0) go with
    /// `shader_channel_4`, `m_CurrentChannels` (before 2018.1) with `shader_channel_5`, and
    /// neither with `shader_channel`.
    pub fn of(vd: &VertexDataRef<'_>) -> Table {
        let slots: &'static [usize] = if vd.streams.is_some() || vd.streams_fixed.is_some() {
            &SLOTS_6
        } else if vd.current_channels.is_some() {
            &SLOTS_8
        } else {
            &SLOTS_14
        };
        // The three channel tables and the two kinds of stored streams are of different types
        // with the same fields.
        macro_rules! entries {
            ($t:expr) => {
                $t.iter()
                    .map(|c| Entry {
                        stream: c.stream,
                        offset: c.offset,
                        format_id: c.format.0,
                        dimension: c.dimension,
                    })
                    .collect()
            };
        }
        macro_rules! stored {
            ($t:expr) => {
                $t.iter()
                    .map(|s| StoredStream {
                        channel_mask: s.channel_mask,
                        offset: u64::from(s.offset),
                        stride: u64::from(s.stride),
                    })
                    .collect()
            };
        }
        let (entries, numbering): (Vec<Entry>, _) = if let Some(t) = &vd.channels {
            (entries!(t), Numbering::Documents)
        } else if let Some(t) = &vd.channels_2017 {
            (entries!(t), Numbering::From2017)
        } else if let Some(t) = &vd.channels_legacy {
            (entries!(t), Numbering::Legacy)
        } else {
            (vec![], Numbering::Legacy)
        };
        if let Some(fixed) = &vd.streams_fixed {
            let stored: Vec<StoredStream> = stored!(fixed);
            return Table {
                entries: implied(&stored),
                slots,
                numbering: Numbering::Legacy,
                stored: Some(stored),
                implied: true,
            };
        }
        let stored = vd.streams.as_ref().map(|t| stored!(t));
        Table {
            entries,
            slots,
            numbering,
            stored,
            implied: false,
        }
    }

    /// The entry standing for `slot`, with its index, when present (non-zero dimension).
    pub fn entry(&self, slot: usize) -> Option<(usize, Entry)> {
        let i = self.slots.iter().position(|&s| s == slot)?;
        self.entries
            .get(i)
            .filter(|e| e.dimension & 0xF != 0)
            .map(|e| (i, *e))
    }

    /// The slot entry `i` stands for, `None` past the era's order.
    pub fn slot(&self, i: usize) -> Option<usize> {
        self.slots.get(i).copied()
    }

    /// The name of the shader channel of entry `i`.
    pub fn name(&self, i: usize) -> &'static str {
        self.slot(i)
            .map_or("(an entry past the era's channels)", |s| CHANNELS[s])
    }

    /// The common format of entry `e` in the colour channel or another one, and its bytes per
    /// vertex: the era's Color in the colour channel is four bytes whatever its dimension
    /// (the spec's reading of the enums); `None` for a format the era's table lacks.
    pub fn place(&self, i: usize, e: &Entry) -> Option<(VertexFormat, usize)> {
        let (format, color) = self.numbering.format(e.format_id);
        let format = format?;
        let dim = usize::from(e.dimension & 0xF);
        if color && self.slot(i) == Some(slot::COLOR) && dim != 0 {
            return Some((VertexFormat::UNorm8, 4));
        }
        Some((format, dim))
    }

    /// The rule the era's layout is judged by.
    pub fn rule(&self) -> &'static Rule {
        match (self.stored.is_some(), self.numbering) {
            (true, _) => UnityMesh::REL_STORED_STREAMS_HOLD_CHANNELS,
            (false, Numbering::Documents) => UnityMesh::REL_VERTEX_LAYOUT_FILLS_DATA,
            (false, _) => UnityMesh::REL_OLDER_VERTEX_LAYOUT_FILLS_DATA,
        }
    }
}

/// The channels the masks of 3.5's four streams imply: per stream, its mask's bits in the order
/// of `shader_channel_4`, one after another from offset 0, each of its fixed format.
fn implied(streams: &[StoredStream]) -> Vec<Entry> {
    let mut out = vec![
        Entry {
            stream: 0,
            offset: 0,
            format_id: 0,
            dimension: 0,
        };
        IMPLIED.len()
    ];
    for (s, st) in streams.iter().enumerate() {
        let mut offset = 0usize;
        for (i, (format, dim)) in IMPLIED.iter().enumerate() {
            if st.channel_mask & (1 << i) == 0 {
                continue;
            }
            let width = if *format == Legacy::COLOR {
                4
            } else {
                4 * usize::from(*dim)
            };
            out[i] = Entry {
                stream: s as u8,
                offset: u8::try_from(offset).unwrap_or(u8::MAX),
                format_id: format.0,
                dimension: *dim,
            };
            offset += width;
        }
    }
    out
}

/// Where one entry's bytes lie.
pub(crate) enum EntryAt {
    /// An entry of `channels`.
    Documents(Place<'static, ChannelInfoPos>),
    /// An entry of `channels_2017`.
    From2017(Place<'static, ChannelInfo2017Pos>),
    /// An entry of `channels_legacy`.
    Legacy(Place<'static, ChannelInfoLegacyPos>),
    /// A channel implied (3.5) by the channel mask of its stream in `streams_fixed`.
    Implied(Place<'static, Span>),
}

macro_rules! entry_field {
    ($name:ident) => {
        /// The place of the entry's field (the stream's channel mask for an implied channel).
        pub(crate) fn $name(&self) -> Place<'static, Span> {
            match self {
                EntryAt::Documents(p) => p.$name().owned(),
                EntryAt::From2017(p) => p.$name().owned(),
                EntryAt::Legacy(p) => p.$name().owned(),
                EntryAt::Implied(p) => p.clone(),
            }
        }
    };
}

impl EntryAt {
    entry_field!(stream);
    entry_field!(offset);
    entry_field!(format);
    entry_field!(dimension);

    /// The place of the whole entry.
    pub(crate) fn whole(&self) -> Place<'static, Span> {
        match self {
            EntryAt::Documents(p) => Place::detached(p.span(), p.field_path().clone()),
            EntryAt::From2017(p) => Place::detached(p.span(), p.field_path().clone()),
            EntryAt::Legacy(p) => Place::detached(p.span(), p.field_path().clone()),
            EntryAt::Implied(p) => p.clone(),
        }
    }
}

/// Where entry `i` of the vertex data's table lies; for a channel implied by a 3.5 stream's
/// mask, the mask of its stream `stream`.
pub(crate) fn entry_at(vd: &Place<'_, VertexDataPos>, i: usize, stream: u8) -> EntryAt {
    if let Some(p) = vd.channels().some() {
        return EntryAt::Documents(p.at(i));
    }
    if let Some(p) = vd.channels_2017().some() {
        return EntryAt::From2017(p.at(i));
    }
    if let Some(p) = vd.channels_legacy().some() {
        return EntryAt::Legacy(p.at(i));
    }
    let streams = vd.streams_fixed();
    EntryAt::Implied(match streams.some() {
        Some(s) => s.at(usize::from(stream)).channel_mask().owned(),
        None => vd.vertex_count().owned(),
    })
}
