//! Checked vertex layouts: where each channel of `m_Channels` lives in the vertex data.
//!
//! A stream's stride is the sum of its channels' sizes, its channels follow one another in
//! the order of `m_Channels` (each at the sum of the sizes of the stream's channels before
//! it), the streams follow one another from the start of the vertex data, each starting on a
//! 16-byte boundary, and the data ends exactly where the last stream ends. Anything else is
//! an error naming the channel or the stream: an overrun (the data is shorter than the
//! layout), an underrun (bytes are left over after it), or a channel offset that disagrees.

use super::format::VertexFormat;
use super::{fail, RawMesh, CHANNELS, P};
use crate::rt::{ErrorKind, Result};

/// Where one channel lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelPlace {
    /// The stream.
    pub stream: u8,
    /// The byte offset inside a vertex of the stream.
    pub offset: usize,
    /// The format.
    pub format: VertexFormat,
    /// Components per vertex (the dimension byte's low four bits).
    pub dim: usize,
}

/// Where one stream lives in the vertex data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLayout {
    /// The byte offset of its first vertex (a multiple of 16).
    pub start: usize,
    /// Bytes per vertex: the sum of its channels' sizes.
    pub stride: usize,
    /// The byte offset just past its last vertex.
    pub end: usize,
}

/// A checked vertex layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexLayout {
    /// The number of vertices.
    pub vertex_count: usize,
    /// Per channel of [`CHANNELS`], where it lives (`None` if absent).
    pub channels: [Option<ChannelPlace>; 14],
    /// The streams, from stream 0 to the last one a channel names.
    pub streams: Vec<StreamLayout>,
}

/// The most streams a mesh can have.
pub const MAX_STREAMS: u8 = 4;

fn channel_path(i: usize, field: &'static str) -> [P; 4] {
    [
        P::F("m_VertexData"),
        P::F("m_Channels"),
        P::I(i),
        P::F(field),
    ]
}

fn names_in(channels: &[Option<ChannelPlace>; 14], stream: usize) -> String {
    let names: Vec<&str> = channels
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

/// Checks the channel table against the vertex data; `None` when the mesh has no channels
/// (and then no vertex data).
pub(crate) fn check(raw: &RawMesh) -> Result<Option<VertexLayout>> {
    let base = raw.vertex_data_offset;
    if raw.channels.is_empty() {
        if !raw.vertex_data.is_empty() {
            return Err(fail(
                ErrorKind::Inconsistent,
                Some(base),
                &[P::F("m_VertexData"), P::F("m_Channels")],
                "channels describing the vertex data",
                format!("none for {} bytes of data", raw.vertex_data.len()),
            ));
        }
        return Ok(None);
    }
    if raw.channels.len() != CHANNELS.len() {
        return Err(fail(
            ErrorKind::Unsupported,
            None,
            &[P::F("m_VertexData"), P::F("m_Channels")],
            "14 channels (the layout of Unity 2018 and later)",
            format!("{} channels", raw.channels.len()),
        ));
    }
    let vertex_count = usize::try_from(raw.vertex_count).map_err(|_| {
        fail(
            ErrorKind::Count,
            None,
            &[P::F("m_VertexData"), P::F("m_VertexCount")],
            "a vertex count this machine can address",
            raw.vertex_count.to_string(),
        )
    })?;
    let mut channels: [Option<ChannelPlace>; 14] = [None; 14];
    let mut strides = [0usize; MAX_STREAMS as usize];
    let mut last_stream = None;
    for (i, c) in raw.channels.iter().enumerate() {
        let dim = usize::from(c.dimension & 0xF);
        if dim == 0 {
            continue;
        }
        let format = VertexFormat::from_id(c.format).ok_or_else(|| {
            fail(
                ErrorKind::Unsupported,
                None,
                &channel_path(i, "format"),
                format!("a vertex format id 0 to 11 for {}", CHANNELS[i]),
                c.format.to_string(),
            )
        })?;
        if dim > 4 {
            return Err(fail(
                ErrorKind::Unsupported,
                None,
                &channel_path(i, "dimension"),
                format!("1 to 4 components for {} (low four bits)", CHANNELS[i]),
                format!("{dim} (byte 0x{:02X})", c.dimension),
            ));
        }
        if c.stream >= MAX_STREAMS {
            return Err(fail(
                ErrorKind::Unsupported,
                None,
                &channel_path(i, "stream"),
                format!("stream 0 to {} for {}", MAX_STREAMS - 1, CHANNELS[i]),
                c.stream.to_string(),
            ));
        }
        let s = usize::from(c.stream);
        channels[i] = Some(ChannelPlace {
            stream: c.stream,
            offset: usize::from(c.offset),
            format,
            dim,
        });
        strides[s] += format.size() * dim;
        last_stream = Some(last_stream.map_or(s, |l: usize| l.max(s)));
    }
    let Some(last_stream) = last_stream else {
        if !raw.vertex_data.is_empty() {
            return Err(fail(
                ErrorKind::Inconsistent,
                Some(base),
                &[P::F("m_VertexData"), P::F("m_Channels")],
                "a present channel describing the vertex data",
                format!("no channel for {} bytes of data", raw.vertex_data.len()),
            ));
        }
        return Ok(None);
    };
    // Where each stream starts and ends.
    let mut streams = Vec::with_capacity(last_stream + 1);
    let mut pos = 0usize;
    for (s, &stride) in strides.iter().enumerate().take(last_stream + 1) {
        let too_big = || {
            fail(
                ErrorKind::Count,
                Some(base),
                &[P::F("m_VertexData"), P::F("m_VertexCount")],
                format!("a size that fits for stream {s} of stride {stride}"),
                format!("{vertex_count} vertices"),
            )
        };
        let start = pos.checked_next_multiple_of(16).ok_or_else(too_big)?;
        let end = stride
            .checked_mul(vertex_count)
            .and_then(|n| n.checked_add(start))
            .ok_or_else(too_big)?;
        streams.push(StreamLayout { start, stride, end });
        pos = end;
    }
    // Each channel where the sum of the sizes before it in its stream puts it.
    let mut next = [0usize; MAX_STREAMS as usize];
    for (i, place) in channels.iter().enumerate() {
        let Some(p) = place else { continue };
        let s = usize::from(p.stream);
        if p.offset != next[s] {
            let start = streams.get(s).map_or(0, |st| st.start);
            return Err(fail(
                ErrorKind::Offset,
                Some(base.saturating_add((start + p.offset) as u64)),
                &channel_path(i, "offset"),
                format!(
                    "{} at offset {} of stream {s} (after the channels before it: {})",
                    CHANNELS[i],
                    next[s],
                    names_before(&channels, i, s)
                ),
                p.offset.to_string(),
            ));
        }
        next[s] += p.format.size() * p.dim;
    }
    // The data ends exactly where the last stream ends.
    let len = raw.vertex_data.len();
    if let Some((s, st)) = streams.iter().enumerate().find(|(_, st)| st.end > len) {
        return Err(fail(
            ErrorKind::Count,
            Some(base.saturating_add(len as u64)),
            &[P::F("m_VertexData"), P::F("m_DataSize")],
            format!(
                "stream {s} ({}; stride {}, {vertex_count} vertices) at bytes {}..{} of the vertex data",
                names_in(&channels, s),
                st.stride,
                st.start,
                st.end
            ),
            format!("{len} bytes of vertex data (overrun by {})", st.end - len),
        ));
    }
    let end = streams.last().map_or(0, |st| st.end);
    if len != end {
        return Err(fail(
            ErrorKind::Trailing,
            Some(base.saturating_add(end as u64)),
            &[P::F("m_VertexData"), P::F("m_DataSize")],
            format!(
                "the vertex data to end with stream {last_stream} ({}) at byte {end}",
                names_in(&channels, last_stream)
            ),
            format!("{len} bytes ({} left over)", len - end),
        ));
    }
    Ok(Some(VertexLayout {
        vertex_count,
        channels,
        streams,
    }))
}

fn names_before(channels: &[Option<ChannelPlace>; 14], slot: usize, stream: usize) -> String {
    let names: Vec<&str> = channels
        .iter()
        .enumerate()
        .take(slot)
        .filter(|(_, c)| c.is_some_and(|c| usize::from(c.stream) == stream))
        .map(|(i, _)| CHANNELS[i])
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
