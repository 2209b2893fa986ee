//! Vertex layouts: where each channel of the channel table lives in the vertex data.
//!
//! From 5.0 (`vertex_layout_fills_data`, `older_vertex_layout_fills_data`) a stream's stride
//! is the sum of its channels' sizes (the component sizes of the era's format table), the
//! streams follow one another from the start of the vertex data, each starting on a 16-byte
//! boundary, and the data ends exactly where the last stream ends. Before 5.0
//! (`stored_streams_hold_channels`) the vertex data stores each stream's offset and stride. A
//! channel is read at its stored offset, which must leave it inside its stream's stride; the
//! documents do not order the offsets by the table nor limit the number of streams, and
//! neither does this.

use super::format::VertexFormat;
use super::table::{entry_at, Table};
use super::{needs, slot, CHANNELS};
use crate::generated::unity_mesh::{
    StreamInfoFixedPlace, StreamInfoPlace, VertexDataPlace, VertexDataPos, VertexDataRef,
};
use crate::rt::{ErrorKind, Place, Span};
use crate::verdict::Judge;

/// Where one channel lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelPlace {
    /// The stream.
    pub stream: u8,
    /// The byte offset inside a vertex of the stream.
    pub offset: u64,
    /// The format.
    pub format: VertexFormat,
    /// Components per vertex (the dimension byte's low four bits).
    pub dim: usize,
}

impl ChannelPlace {
    /// The bytes one vertex's components take.
    pub fn width(&self) -> u64 {
        (self.format.size() * self.dim) as u64
    }
}

/// Where one stream lives in the vertex data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLayout {
    /// The byte offset of its first vertex (a multiple of 16).
    pub start: u64,
    /// Bytes per vertex: the sum of its channels' sizes.
    pub stride: u64,
    /// The byte offset just past its last vertex.
    pub end: u64,
}

/// The layout a channel table describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexLayout {
    /// The number of vertices.
    pub vertex_count: u64,
    /// Per channel of [`CHANNELS`], where it lives (`None` if absent or of no known format).
    pub channels: [Option<ChannelPlace>; 14],
    /// The streams, from stream 0 to the last one a channel names.
    pub streams: Vec<StreamLayout>,
}

impl VertexLayout {
    /// Whether any channel is present.
    pub fn has_channels(&self) -> bool {
        self.channels.iter().any(Option::is_some)
    }

    /// Where the layout ends: the vertex data's size it asks for.
    pub fn end(&self) -> u64 {
        self.streams.last().map_or(0, |s| s.end)
    }

    /// The stream channel `slot` lives in, with the channel.
    pub fn channel(&self, slot: usize) -> Option<(ChannelPlace, StreamLayout)> {
        let c = (*self.channels.get(slot)?)?;
        Some((c, *self.streams.get(usize::from(c.stream))?))
    }

    /// Where component `k` of vertex `v` of channel `slot` starts in the vertex data: the one
    /// address rule every reader and writer of vertex bytes goes through.
    pub fn address(&self, slot: usize, v: u64, k: usize) -> Option<u64> {
        let (c, st) = self.channel(slot)?;
        Some(st.start + st.stride * v + c.offset + (k * c.format.size()) as u64)
    }

    /// The same channels and strides for `vertex_count` vertices, laid out as from 5.0 (each
    /// stream after the last, on a 16-byte boundary).
    pub fn for_count(&self, vertex_count: u64) -> VertexLayout {
        VertexLayout {
            vertex_count,
            channels: self.channels,
            streams: consecutive(self.streams.iter().map(|s| s.stride), vertex_count),
        }
    }
}

/// Streams of these strides one after the other from 0, each on a 16-byte boundary.
fn consecutive(strides: impl Iterator<Item = u64>, n: u64) -> Vec<StreamLayout> {
    let mut pos = 0u64;
    strides
        .map(|stride| {
            // At most 256 streams of at most 14 x 60 bytes times 2^32 vertices: no overflow.
            let start = pos.div_ceil(16) * 16;
            let end = start + stride * n;
            pos = end;
            StreamLayout { start, stride, end }
        })
        .collect()
}

/// The layout a channel table describes. Nothing is checked here; an entry past the era's
/// channels, of a format the era's table lacks, or (before 5.0) outside a stored stream that
/// holds it is left out (the verdict reports it).
pub fn plan(table: &Table, vertex_count: u32) -> VertexLayout {
    let mut channels: [Option<ChannelPlace>; 14] = [None; 14];
    let mut strides = [0u64; 256];
    let mut last: Option<usize> = None;
    for (i, e) in table.entries.iter().enumerate() {
        let Some(slot) = table.slot(i) else {
            continue;
        };
        if e.dimension & 0xF == 0 {
            continue;
        }
        let Some((format, dim)) = table.place(i, e) else {
            continue;
        };
        if let Some(stored) = &table.stored {
            let held = stored
                .get(usize::from(e.stream))
                .is_some_and(|st| table.implied || holds(st.channel_mask, i));
            if !held {
                continue;
            }
        }
        let place = ChannelPlace {
            stream: e.stream,
            offset: u64::from(e.offset),
            format,
            dim,
        };
        let s = usize::from(e.stream);
        strides[s] += place.width();
        last = Some(last.map_or(s, |l| l.max(s)));
        channels[slot] = Some(place);
    }
    let n = u64::from(vertex_count);
    let mut streams = Vec::new();
    if let Some(stored) = &table.stored {
        // Stored streams: at most 2^32 streams of a 32-bit offset and stride, times 2^32
        // vertices; no overflow in u64 (u32 x u32 + u32).
        streams.extend(stored.iter().map(|st| StreamLayout {
            start: st.offset,
            stride: st.stride,
            end: st.offset + st.stride * n,
        }));
    } else if let Some(last) = last {
        streams = consecutive(strides[..=last].iter().copied(), n);
    }
    VertexLayout {
        vertex_count: n,
        channels,
        streams,
    }
}

/// Whether a stored stream's channel mask has entry `i`'s bit.
fn holds(mask: u32, i: usize) -> bool {
    i < 32 && mask & (1 << i) != 0
}

fn names_in(layout: &VertexLayout, stream: usize) -> String {
    let names: Vec<&str> = layout
        .channels
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_some_and(|c| usize::from(c.stream) == stream))
        .map(|(i, _)| CHANNELS[i])
        .collect();
    if names.is_empty() {
        "no channel".into()
    } else {
        names.join(", ")
    }
}

/// The size the vertex data has, and the field that says it (`m_DataSize`'s count inline, or
/// the streamed range's size).
pub(crate) struct DataSize<'p> {
    /// The size in bytes.
    pub len: u64,
    /// The field.
    pub at: Place<'p, Span>,
    /// What the bytes are, for messages (`the vertex data`, `the streamed range`).
    pub what: &'static str,
}

/// Where the size of the channel table lies: its count, or (3.5, no table) the streams.
fn count_at(at: &Place<'_, VertexDataPos>) -> Place<'static, Span> {
    match at.num_channels().some() {
        Some(p) => p.owned(),
        None => at.vertex_count().owned(),
    }
}

/// The verdict on the channel table against the vertex data: the era's layout rule
/// (`vertex_layout_fills_data` from 2019.1, `older_vertex_layout_fills_data` from 5.0,
/// `stored_streams_hold_channels` before) and what decoding the channels needs (entries of the
/// era's channels, formats of its table, at most four components, every channel inside its
/// stream and every stream inside the data, a Vertex channel of floats when there are
/// vertices). Returns the layout.
pub(crate) fn judge(
    vd: &VertexDataRef<'_>,
    at: &Place<'_, VertexDataPos>,
    table: &Table,
    size: &DataSize<'_>,
    j: &mut Judge<'_>,
) -> VertexLayout {
    let rule = table.rule();
    let count = table.entries.len();
    let era = table.slots.len();
    if !table.implied && count > era {
        j.push(count_at(at).error(
            ErrorKind::Unsupported,
            format!("at most {era} channels (the table of the file's editor version), to decode the vertex data"),
            format!("{count} channels"),
        ));
    }
    for (i, e) in table.entries.iter().enumerate().take(era) {
        let dim = e.dimension & 0xF;
        if dim == 0 {
            continue;
        }
        let entry = entry_at(at, i, e.stream);
        let name = table.name(i);
        if table.numbering.format(e.format_id).0.is_none() {
            let expected = format!("{} for {name}", table.numbering.expected());
            j.push(
                entry
                    .format()
                    .violates(rule, expected.clone(), e.format_id.to_string()),
            );
            j.push(needs(
                rule,
                &entry.format(),
                format!("{expected}, to decode it"),
                e.format_id.to_string(),
            ));
        }
        if dim > 4 {
            j.push(entry.dimension().error(
                ErrorKind::Unsupported,
                format!(
                    "1 to 4 components for {name} (the dimension's low four bits), to decode it"
                ),
                format!("{dim} (byte 0x{:02X})", e.dimension),
            ));
        }
        if let Some(stored) = &table.stored {
            match stored.get(usize::from(e.stream)) {
                None => {
                    let expected = format!(
                        "{name} in one of the {} streams the vertex data stores",
                        stored.len()
                    );
                    j.push(
                        entry
                            .stream()
                            .violates(rule, expected.clone(), e.stream.to_string()),
                    );
                    j.push(needs(
                        rule,
                        &entry.stream(),
                        format!("{expected}, to decode it"),
                        e.stream.to_string(),
                    ));
                }
                Some(st) if !table.implied && !holds(st.channel_mask, i) => {
                    j.push(at.streams().some().map_or_else(
                        || entry.stream(),
                        |s| s.at(usize::from(e.stream)).channel_mask().owned(),
                    ).violates(
                        rule,
                        format!("stream {}'s channel mask to hold {name} (bit {i}); the readers skip a channel its stream's mask lacks", e.stream),
                        format!("0x{:X}", st.channel_mask),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    let layout = plan(table, vd.vertex_count);
    for (i, e) in table.entries.iter().enumerate().take(era) {
        let Some((c, stream)) = table.slot(i).and_then(|s| layout.channel(s)) else {
            continue;
        };
        if c.offset + c.width() > stream.stride {
            let entry = entry_at(at, i, e.stream);
            let expected = format!(
                "{} ({} bytes) inside the {}-byte vertex of stream {} ({})",
                table.name(i),
                c.width(),
                stream.stride,
                c.stream,
                names_in(&layout, usize::from(c.stream))
            );
            let found = format!("offset {}", c.offset);
            j.push(
                entry
                    .offset()
                    .violates(rule, expected.clone(), found.clone()),
            );
            j.push(needs(
                rule,
                &entry.offset(),
                format!("{expected}, to decode it"),
                found,
            ));
        }
    }
    if table.stored.is_some() {
        stored_streams(vd, at, &layout, size, rule, j);
    } else {
        computed_streams(vd, &layout, size, rule, j);
    }
    if vd.vertex_count > 0 {
        let vertex = entry_at(at, 0, table.entries.first().map_or(0, |e| e.stream));
        let present = table
            .entries
            .first()
            .is_some_and(|e| e.dimension & 0xF != 0);
        match layout.channels[slot::VERTEX] {
            Some(c) if c.format.is_float() => {}
            Some(c) => j.push(vertex.format().error(
                ErrorKind::Unsupported,
                "a Vertex channel of floats (Float, Float16 or a normalised format), to place the vertices",
                format!("{:?}", c.format),
            )),
            // A Vertex entry of a format outside the table, or outside its stream, is refused
            // or reported above.
            None if present => {}
            None if table.entries.is_empty() => j.push(count_at(at).error(
                ErrorKind::Unsupported,
                format!(
                    "a channel table with a Vertex channel, to place the {} vertices",
                    vd.vertex_count
                ),
                "no channels",
            )),
            None => j.push(vertex.dimension().error(
                ErrorKind::Unsupported,
                format!(
                    "a Vertex channel, to place the {} vertices",
                    vd.vertex_count
                ),
                "none (dimension 0)",
            )),
        }
    }
    layout
}

/// From 5.0: the streams computed from the channels end where the data ends, and lie in it.
fn computed_streams(
    vd: &VertexDataRef<'_>,
    layout: &VertexLayout,
    size: &DataSize<'_>,
    rule: &'static crate::rt::Rule,
    j: &mut Judge<'_>,
) {
    let need = layout.end();
    if need != size.len {
        let last = layout.streams.len().saturating_sub(1);
        let streams = match layout.streams.len() {
            0 => "no channel".to_string(),
            1 => format!("1 stream: {}", names_in(layout, 0)),
            n => format!(
                "{n} streams; the last, stream {last}: {}",
                names_in(layout, last)
            ),
        };
        let expected = format!(
            "{} to end where the last stream ends: {need} bytes for {} vertices ({streams})",
            size.what, vd.vertex_count,
        );
        j.push(
            size.at
                .violates(rule, expected, format!("{} bytes", size.len)),
        );
    }
    if let Some((s, st)) = layout
        .streams
        .iter()
        .enumerate()
        .find(|(_, st)| st.end > size.len)
    {
        j.push(overrun(
            rule,
            &size.at,
            size,
            layout,
            s,
            st,
            vd.vertex_count,
        ));
    }
}

/// Before 5.0: every stored stream that holds a channel lies in the data.
fn stored_streams(
    vd: &VertexDataRef<'_>,
    at: &Place<'_, VertexDataPos>,
    layout: &VertexLayout,
    size: &DataSize<'_>,
    rule: &'static crate::rt::Rule,
    j: &mut Judge<'_>,
) {
    let holding = |s: usize| {
        layout
            .channels
            .iter()
            .flatten()
            .any(|c| usize::from(c.stream) == s)
    };
    for (s, st) in layout.streams.iter().enumerate() {
        if !holding(s) || st.end <= size.len {
            continue;
        }
        let place = match (at.streams().some(), at.streams_fixed().some()) {
            (Some(p), _) => p.at(s).offset().owned(),
            (_, Some(p)) => p.at(s).offset().owned(),
            _ => size.at.owned(),
        };
        let expected = format!(
            "stream {s} ({}; offset {}, stride {}, {} vertices) inside {} of {} bytes",
            names_in(layout, s),
            st.start,
            st.stride,
            vd.vertex_count,
            size.what,
            size.len
        );
        let found = format!("its end at byte {}", st.end);
        j.push(place.violates(rule, expected, found));
        j.push(overrun(rule, &place, size, layout, s, st, vd.vertex_count));
    }
}

/// A stream past the end of the vertex data: decoding cannot read it.
fn overrun(
    rule: &'static crate::rt::Rule,
    at: &Place<'_, Span>,
    size: &DataSize<'_>,
    layout: &VertexLayout,
    s: usize,
    st: &StreamLayout,
    vertex_count: u32,
) -> crate::rt::Error {
    needs(
        rule,
        at,
        format!(
            "stream {s} ({}; stride {}, {vertex_count} vertices) at bytes {}..{} of {}, to decode it",
            names_in(layout, s),
            st.stride,
            st.start,
            st.end,
            size.what
        ),
        format!("{} bytes (overrun by {})", size.len, st.end - size.len),
    )
}
