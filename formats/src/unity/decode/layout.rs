//! Vertex layouts: where each channel of `m_Channels` lives in the vertex data
//! (`vertex_layout_fills_data`).
//!
//! A stream's stride is the sum of its channels' sizes (the component sizes of the 2019.1
//! format table), the streams follow one another from the start of the vertex data, each
//! starting on a 16-byte boundary, and the data ends exactly where the last stream ends. A
//! channel is read at its stored offset, which must leave it inside its stream's stride; the
//! documents do not order the offsets by `m_Channels` nor limit the number of streams, and
//! neither does this.

use super::format::VertexFormat;
use super::{needs, CHANNELS};
use crate::generated::unity_mesh::{UnityMesh, VertexDataPos, VertexDataRef};
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
}

/// The layout the first 14 entries of the channel table describe. Nothing is checked here; a
/// channel whose format is not one of the 12 is left out (the verdict refuses it).
pub fn plan(vd: &VertexDataRef<'_>) -> VertexLayout {
    let mut channels: [Option<ChannelPlace>; 14] = [None; 14];
    let mut strides = [0u64; 256];
    let mut last: Option<usize> = None;
    for (i, c) in vd.channels.iter().take(CHANNELS.len()).enumerate() {
        let dim = usize::from(c.dimension & 0xF);
        let Some(format) = VertexFormat::from_id(c.format.0) else {
            continue;
        };
        if dim == 0 {
            continue;
        }
        let place = ChannelPlace {
            stream: c.stream,
            offset: u64::from(c.offset),
            format,
            dim,
        };
        let s = usize::from(c.stream);
        strides[s] += place.width();
        last = Some(last.map_or(s, |l| l.max(s)));
        channels[i] = Some(place);
    }
    let n = u64::from(vd.vertex_count);
    let mut streams = Vec::new();
    if let Some(last) = last {
        let mut pos = 0u64;
        for &stride in &strides[..=last] {
            // At most 256 streams of at most 14 x 60 bytes times 2^32 vertices: no overflow.
            let start = pos.div_ceil(16) * 16;
            let end = start + stride * n;
            streams.push(StreamLayout { start, stride, end });
            pos = end;
        }
    }
    VertexLayout {
        vertex_count: n,
        channels,
        streams,
    }
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

/// The verdict on the channel table against the vertex data: `vertex_layout_fills_data` and
/// what decoding the channels needs (a table of 14 entries, formats of the 12, at most four
/// components, every channel inside its stream and every stream inside the data, a Vertex
/// channel of floats when there are vertices). Returns the layout.
pub(crate) fn judge(
    vd: &VertexDataRef<'_>,
    at: &Place<'_, VertexDataPos>,
    size: &DataSize<'_>,
    j: &mut Judge<'_>,
) -> VertexLayout {
    let rule = UnityMesh::REL_VERTEX_LAYOUT_FILLS_DATA;
    let table = at.channels();
    let count = vd.channels.len();
    if count != 0 && count != CHANNELS.len() {
        j.push(at.num_channels().error(
            ErrorKind::Unsupported,
            "14 channels (the table of Unity 2018 and later), to decode the vertex data",
            format!("{count} channels"),
        ));
    }
    for (i, c) in vd.channels.iter().take(CHANNELS.len()).enumerate() {
        let dim = c.dimension & 0xF;
        if dim == 0 {
            continue;
        }
        let entry = table.at(i);
        if VertexFormat::from_id(c.format.0).is_none() {
            let expected = format!("one of the 12 vertex formats (0 to 11) for {}", CHANNELS[i]);
            j.push(
                entry
                    .format()
                    .violates(rule, expected.clone(), c.format.0.to_string()),
            );
            j.push(needs(
                rule,
                &entry.format(),
                format!("{expected}, to decode it"),
                c.format.0.to_string(),
            ));
        }
        if dim > 4 {
            j.push(entry.dimension().error(
                ErrorKind::Unsupported,
                format!(
                    "1 to 4 components for {} (the dimension's low four bits), to decode it",
                    CHANNELS[i]
                ),
                format!("{dim} (byte 0x{:02X})", c.dimension),
            ));
        }
    }
    let layout = plan(vd);
    for (i, place) in layout.channels.iter().enumerate() {
        let Some((c, stream)) = place.and_then(|_| layout.channel(i)) else {
            continue;
        };
        if c.offset + c.width() > stream.stride {
            let entry = table.at(i);
            let expected = format!(
                "{} ({} bytes) inside the {}-byte vertex of stream {} ({})",
                CHANNELS[i],
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
    let need = layout.end();
    if need != size.len {
        let last = layout.streams.len().saturating_sub(1);
        let streams = match layout.streams.len() {
            0 => "no channel".to_string(),
            1 => format!("1 stream: {}", names_in(&layout, 0)),
            n => format!(
                "{n} streams; the last, stream {last}: {}",
                names_in(&layout, last)
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
        j.push(needs(
            rule,
            &size.at,
            format!(
                "stream {s} ({}; stride {}, {} vertices) at bytes {}..{} of {}, to decode it",
                names_in(&layout, s),
                st.stride,
                vd.vertex_count,
                st.start,
                st.end,
                size.what
            ),
            format!("{} bytes (overrun by {})", size.len, st.end - size.len),
        ));
    }
    if vd.vertex_count > 0 {
        let vertex = table.at(0);
        match layout.channels[0] {
            Some(c) if c.format.is_float() => {}
            Some(c) => j.push(vertex.format().error(
                ErrorKind::Unsupported,
                "a Vertex channel of floats (Float, Float16 or a normalised format), to place the vertices",
                format!("{:?}", c.format),
            )),
            // A Vertex channel of a format outside the 12 is refused above.
            None if vd.channels.get(0).is_some_and(|c| c.dimension & 0xF != 0) => {}
            None if vd.channels.is_empty() => j.push(at.num_channels().error(
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
