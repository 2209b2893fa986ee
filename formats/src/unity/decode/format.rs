//! The twelve vertex formats and the bulk decoding of a channel out of its stream.

use super::layout::{ChannelPlace, StreamLayout, VertexLayout};
use super::{Channel, ChannelData};
use half::f16;
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};

/// A vertex component format (`VertexAttributeFormat`), by its id in `m_Channels`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VertexFormat {
    /// 0: 32-bit float.
    Float,
    /// 1: 16-bit float.
    Float16,
    /// 2: unsigned byte meaning 0 to 1 (x / 255).
    UNorm8,
    /// 3: signed byte meaning -1 to 1 (max(x / 127, -1)).
    SNorm8,
    /// 4: unsigned 16-bit value meaning 0 to 1 (x / 65535).
    UNorm16,
    /// 5: signed 16-bit value meaning -1 to 1 (max(x / 32767, -1)).
    SNorm16,
    /// 6: unsigned byte.
    UInt8,
    /// 7: signed byte.
    SInt8,
    /// 8: unsigned 16-bit integer.
    UInt16,
    /// 9: signed 16-bit integer.
    SInt16,
    /// 10: unsigned 32-bit integer.
    UInt32,
    /// 11: signed 32-bit integer.
    SInt32,
}

impl VertexFormat {
    /// Every format, in id order.
    pub const ALL: [VertexFormat; 12] = [
        VertexFormat::Float,
        VertexFormat::Float16,
        VertexFormat::UNorm8,
        VertexFormat::SNorm8,
        VertexFormat::UNorm16,
        VertexFormat::SNorm16,
        VertexFormat::UInt8,
        VertexFormat::SInt8,
        VertexFormat::UInt16,
        VertexFormat::SInt16,
        VertexFormat::UInt32,
        VertexFormat::SInt32,
    ];

    /// The format of an id, if it names one.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.get(usize::from(id)).copied()
    }

    /// The id `m_Channels` stores.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// Bytes per component.
    pub fn size(self) -> usize {
        use VertexFormat::*;
        match self {
            Float | UInt32 | SInt32 => 4,
            Float16 | UNorm16 | SNorm16 | UInt16 | SInt16 => 2,
            UNorm8 | SNorm8 | UInt8 | SInt8 => 1,
        }
    }

    /// Whether the format decodes to floats (float or normalised).
    pub fn is_float(self) -> bool {
        use VertexFormat::*;
        matches!(self, Float | Float16 | UNorm8 | SNorm8 | UNorm16 | SNorm16)
    }
}

/// The bytes of one channel: `width` bytes at `offset` of each of `n` vertices of `stride`
/// bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChannelBytes<'a> {
    bytes: &'a [u8],
    stride: usize,
    offset: usize,
    width: usize,
    n: usize,
}

impl<'a> ChannelBytes<'a> {
    /// The channel of `width` bytes at `offset` in the vertices of a stream, as many of them
    /// as `bytes` holds and at most `n`.
    pub(crate) fn new(
        bytes: &'a [u8],
        stride: usize,
        offset: usize,
        width: usize,
        n: usize,
    ) -> Self {
        let held = bytes.len().checked_div(stride).unwrap_or(0);
        ChannelBytes {
            bytes,
            stride,
            offset,
            width,
            n: n.min(held),
        }
    }

    /// Components one after another, with nothing between them.
    #[cfg(test)]
    pub(crate) fn contiguous(bytes: &'a [u8]) -> Self {
        ChannelBytes::new(bytes, bytes.len(), 0, bytes.len(), 1)
    }
}

/// Copies each vertex's `W` bytes at `offset` into `dst`, one after another (a fixed-size move
/// per vertex).
fn gather_w<const W: usize>(src: &[u8], stride: usize, offset: usize, dst: &mut [u8]) {
    let src = src.get(offset..).unwrap_or(&[]);
    for (d, v) in dst.chunks_exact_mut(W).zip(src.chunks(stride)) {
        if let (Some(d), Some(v)) = (d.first_chunk_mut::<W>(), v.first_chunk::<W>()) {
            *d = *v;
        }
    }
}

/// Copies each vertex's `width` bytes at `offset` into `dst` (whose length is a whole number
/// of vertices), one after another: one copy when the channel fills its stream.
fn gather(src: &[u8], stride: usize, offset: usize, width: usize, dst: &mut [u8]) {
    if width == stride && offset == 0 {
        let n = dst.len().min(src.len());
        dst[..n].copy_from_slice(&src[..n]);
        return;
    }
    match width {
        1 => gather_w::<1>(src, stride, offset, dst),
        2 => gather_w::<2>(src, stride, offset, dst),
        3 => gather_w::<3>(src, stride, offset, dst),
        4 => gather_w::<4>(src, stride, offset, dst),
        6 => gather_w::<6>(src, stride, offset, dst),
        8 => gather_w::<8>(src, stride, offset, dst),
        12 => gather_w::<12>(src, stride, offset, dst),
        16 => gather_w::<16>(src, stride, offset, dst),
        _ => {
            for (d, v) in dst
                .chunks_exact_mut(width.max(1))
                .zip(src.chunks(stride.max(1)))
            {
                if let Some(s) = v.get(offset..offset + width) {
                    d.copy_from_slice(s);
                }
            }
        }
    }
}

/// Vertices per block: a block's gathered components stay in the first-level cache between
/// the copy and the conversion, and a stream's block stays there while each of its channels is
/// decoded from it.
const BLOCK: usize = 512;

/// The most bytes one vertex's components of one channel take (15 components of 4 bytes).
const MAX_WIDTH: usize = 60;

impl ChannelBytes<'_> {
    /// Vertices `from..to` (clamped to those held).
    fn block(&self, from: usize, to: usize) -> Self {
        let to = to.min(self.n);
        let from = from.min(to);
        ChannelBytes {
            bytes: self
                .bytes
                .get(from * self.stride..to * self.stride)
                .unwrap_or(&[]),
            n: to - from,
            ..*self
        }
    }
}

/// Room for one block's components of one channel, allocated once per decoding: what is
/// gathered (by size) and what it becomes (4-byte values as bits).
struct Scratch {
    bytes: Vec<u8>,
    halves: Vec<u16>,
    words: Vec<u32>,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            bytes: vec![0; MAX_BLOCK_COMPONENTS],
            halves: vec![0; MAX_BLOCK_COMPONENTS],
            words: vec![0; MAX_BLOCK_COMPONENTS],
        }
    }
}

/// The block's components of one byte each, gathered.
fn gather8<'t>(s: &ChannelBytes, tmp: &'t mut [u8]) -> &'t [u8] {
    let t = &mut tmp[..(s.n * s.width).min(MAX_BLOCK_COMPONENTS)];
    gather(s.bytes, s.stride, s.offset, s.width, t);
    t
}

/// The block's components of two bytes each, little-endian, gathered.
fn gather16<'t>(s: &ChannelBytes, tmp: &'t mut [u16]) -> &'t [u16] {
    let t = &mut tmp[..(s.n * s.width / 2).min(MAX_BLOCK_COMPONENTS)];
    gather_le(s, t);
    t
}

/// The block's components of `T`'s size each, little-endian, gathered straight into `out`.
fn gather_le<T: bytemuck::Pod>(s: &ChannelBytes, out: &mut [T]) {
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(out);
    gather(s.bytes, s.stride, s.offset, s.width, bytes);
    if cfg!(target_endian = "big") {
        for x in bytes.chunks_exact_mut(std::mem::size_of::<T>()) {
            x.reverse();
        }
    }
}

/// The most components one block's channel can decode into.
const MAX_BLOCK_COMPONENTS: usize = BLOCK * MAX_WIDTH / 4;

/// An empty channel of `format` with room for `len` components.
fn with_room(format: VertexFormat, len: usize) -> ChannelData {
    use VertexFormat::*;
    match format {
        Float | Float16 | UNorm8 | SNorm8 | UNorm16 | SNorm16 => {
            ChannelData::Float(Vec::with_capacity(len))
        }
        UInt8 | UInt16 | UInt32 => ChannelData::UInt(Vec::with_capacity(len)),
        SInt8 | SInt16 | SInt32 => ChannelData::SInt(Vec::with_capacity(len)),
    }
}

/// Decodes the components of a block of at most [`BLOCK`] vertices of a channel of `format`
/// (little-endian) into scratch words, as the bits of the f32, u32 or i32 they are, and appends
/// them to `out`. Nothing is written twice to the output (no zeroing first): the block is
/// converted in the first-level cache and appended in one copy.
fn decode_block(
    format: VertexFormat,
    s: &ChannelBytes,
    scratch: &mut Scratch,
    out: &mut ChannelData,
) {
    use VertexFormat::*;
    let len = (s.n * (s.width / format.size())).min(MAX_BLOCK_COMPONENTS);
    let Scratch {
        bytes,
        halves,
        words,
    } = scratch;
    // Converted straight onto the output's end where the format changes the size (slice
    // iterators extend in one pass); gathered into scratch and appended in one copy where it
    // does not.
    match (format, out) {
        (Float | UInt32 | SInt32 | Float16, out) => {
            let w = &mut words[..len];
            if format == Float16 {
                gather16(s, halves)
                    .reinterpret_cast::<f16>()
                    .convert_to_f32_slice(bytemuck::cast_slice_mut(w));
            } else {
                gather_le(s, w);
            }
            match out {
                ChannelData::Float(v) => v.extend_from_slice(bytemuck::cast_slice(w)),
                ChannelData::UInt(v) => v.extend_from_slice(w),
                ChannelData::SInt(v) => v.extend_from_slice(bytemuck::cast_slice(w)),
            }
        }
        (UNorm8, ChannelData::Float(v)) => {
            v.extend(gather8(s, bytes).iter().map(|&x| f32::from(x) / 255.0))
        }
        (SNorm8, ChannelData::Float(v)) => v.extend(
            gather8(s, bytes)
                .iter()
                .map(|&x| (f32::from(x as i8) / 127.0).max(-1.0)),
        ),
        (UNorm16, ChannelData::Float(v)) => {
            v.extend(gather16(s, halves).iter().map(|&x| f32::from(x) / 65535.0))
        }
        (SNorm16, ChannelData::Float(v)) => v.extend(
            gather16(s, halves)
                .iter()
                .map(|&x| (f32::from(x as i16) / 32767.0).max(-1.0)),
        ),
        (UInt8, ChannelData::UInt(v)) => v.extend(gather8(s, bytes).iter().map(|&x| u32::from(x))),
        (UInt16, ChannelData::UInt(v)) => {
            v.extend(gather16(s, halves).iter().map(|&x| u32::from(x)))
        }
        (SInt8, ChannelData::SInt(v)) => {
            v.extend(gather8(s, bytes).iter().map(|&x| i32::from(x as i8)))
        }
        (SInt16, ChannelData::SInt(v)) => {
            v.extend(gather16(s, halves).iter().map(|&x| i32::from(x as i16)))
        }
        // `with_room` made the output of the format's kind.
        _ => {}
    }
}

/// Decodes the components of a channel of `format`, little-endian.
pub(crate) fn decode_components(format: VertexFormat, s: &ChannelBytes) -> ChannelData {
    let comps = s.width / format.size();
    let mut out = with_room(format, s.n * comps);
    let mut scratch = Scratch::new();
    for from in (0..s.n).step_by(BLOCK) {
        decode_block(format, &s.block(from, from + BLOCK), &mut scratch, &mut out);
    }
    out
}

/// The bytes of stream `st` in the vertex data (empty where the data does not hold them).
fn stream_bytes<'a>(data: &'a [u8], st: &StreamLayout) -> &'a [u8] {
    let start = usize::try_from(st.start).unwrap_or(usize::MAX);
    let end = usize::try_from(st.end)
        .unwrap_or(usize::MAX)
        .min(data.len());
    data.get(start..end).unwrap_or(&[])
}

/// The bytes of channel `slot` of a layout: where to find each vertex's components.
pub(crate) fn channel_bytes<'a>(
    layout: &VertexLayout,
    data: &'a [u8],
    slot: usize,
) -> Option<(ChannelPlace, ChannelBytes<'a>)> {
    let (c, st) = layout.channel(slot)?;
    let n = usize::try_from(layout.vertex_count).unwrap_or(usize::MAX);
    let s = ChannelBytes::new(
        stream_bytes(data, &st),
        st.stride as usize,
        c.offset as usize,
        c.width() as usize,
        n,
    );
    Some((c, s))
}

/// Decodes channel `slot` of a layout whose verdict passed, if present.
pub(crate) fn decode_channel(layout: &VertexLayout, data: &[u8], slot: usize) -> Option<Channel> {
    let (c, s) = channel_bytes(layout, data, slot)?;
    Some(Channel {
        format: c.format,
        dim: c.dim,
        stream: Some(c.stream),
        data: decode_components(c.format, &s),
    })
}

/// Decodes every present channel of a layout whose verdict passed, stream by stream and block
/// by block: each stream is read once, every channel of a block decoded while it is in cache.
pub(crate) fn decode_channels(layout: &VertexLayout, data: &[u8]) -> [Option<Channel>; 14] {
    let mut out: [Option<(ChannelBytes, Channel)>; 14] = std::array::from_fn(|slot| {
        let (c, s) = channel_bytes(layout, data, slot)?;
        let data = with_room(c.format, s.n * c.dim);
        Some((
            s,
            Channel {
                format: c.format,
                dim: c.dim,
                stream: Some(c.stream),
                data,
            },
        ))
    });
    let mut scratch = Scratch::new();
    for stream in 0..layout.streams.len() {
        let n = out
            .iter()
            .flatten()
            .filter(|(_, c)| c.stream.is_some_and(|s| usize::from(s) == stream))
            .map(|(s, _)| s.n)
            .max()
            .unwrap_or(0);
        for from in (0..n).step_by(BLOCK) {
            for (s, c) in out.iter_mut().flatten() {
                if c.stream.is_some_and(|s| usize::from(s) == stream) {
                    let b = s.block(from, from + BLOCK);
                    decode_block(c.format, &b, &mut scratch, &mut c.data);
                }
            }
        }
    }
    out.map(|o| o.map(|(_, c)| c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_documents_table() {
        let sizes: Vec<usize> = VertexFormat::ALL.iter().map(|f| f.size()).collect();
        assert_eq!(sizes, [4, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4]);
        for (id, f) in VertexFormat::ALL.iter().enumerate() {
            assert_eq!(usize::from(f.id()), id);
            assert_eq!(VertexFormat::from_id(id as u8), Some(*f));
        }
        assert_eq!(VertexFormat::from_id(12), None);
    }

    #[test]
    fn snorm_minimum_clamps_to_minus_one() {
        let ChannelData::Float(v) = decode_components(
            VertexFormat::SNorm8,
            &ChannelBytes::contiguous(&[0x80, 0x81, 0x7F]),
        ) else {
            panic!("SNorm8 decodes to floats")
        };
        assert_eq!(v, [-1.0, -1.0, 1.0]);
        let ChannelData::Float(v) = decode_components(
            VertexFormat::SNorm16,
            &ChannelBytes::contiguous(&[0x00, 0x80, 0xFF, 0x7F]),
        ) else {
            panic!("SNorm16 decodes to floats")
        };
        assert_eq!(v, [-1.0, 1.0]);
    }
}
