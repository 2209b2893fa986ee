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
    pub(crate) fn new(bytes: &'a [u8], stride: usize, offset: usize, width: usize, n: usize) -> Self {
        let held = if stride == 0 { 0 } else { bytes.len() / stride };
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
    for (d, v) in dst.chunks_exact_mut(W).zip(src.chunks(stride)) {
        let d: &mut [u8; W] = d.try_into().expect("chunks of W");
        if let Some(s) = v.get(offset..offset + W).and_then(|s| <&[u8; W]>::try_from(s).ok()) {
            *d = *s;
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
            for (d, v) in dst.chunks_exact_mut(width.max(1)).zip(src.chunks(stride.max(1))) {
                if let Some(s) = v.get(offset..offset + width) {
                    d.copy_from_slice(s);
                }
            }
        }
    }
}

/// Vertices per block: the gathered components of a block stay in the first-level cache
/// between the copy and the conversion.
const BLOCK: usize = 512;

/// Every component of the channel as `T` (little-endian in the file), converted by `convert`
/// block by block into the output.
fn blocks<T, O>(s: &ChannelBytes, convert: impl Fn(&[T], &mut [O])) -> Vec<O>
where
    T: bytemuck::Pod + Default,
    O: Copy + Default,
{
    let comps = s.width / std::mem::size_of::<T>();
    let mut out = vec![O::default(); s.n * comps];
    if comps == 0 {
        return out;
    }
    let mut tmp = vec![T::default(); BLOCK * comps];
    for (b, dst) in out.chunks_mut(BLOCK * comps).enumerate() {
        let tmp = &mut tmp[..dst.len()];
        let src = s.bytes.get(b * BLOCK * s.stride..).unwrap_or(&[]);
        gather(
            src,
            s.stride,
            s.offset,
            s.width,
            bytemuck::cast_slice_mut(tmp),
        );
        convert(tmp, dst);
    }
    out
}

/// Every component of a channel of 4-byte numbers, gathered straight into the output.
fn words<T: bytemuck::Pod + Default>(s: &ChannelBytes) -> Vec<T> {
    let mut out = vec![T::default(); s.n * (s.width / 4)];
    gather(
        s.bytes,
        s.stride,
        s.offset,
        s.width,
        bytemuck::cast_slice_mut(&mut out),
    );
    if cfg!(target_endian = "big") {
        for x in bytemuck::cast_slice_mut::<T, u32>(&mut out) {
            *x = u32::from_le(*x);
        }
    }
    out
}

fn le16(t: &[u16]) -> impl Iterator<Item = u16> + '_ {
    t.iter().map(|&x| u16::from_le(x))
}

/// Decodes the components of a channel of `format`, little-endian.
pub(crate) fn decode_components(format: VertexFormat, s: &ChannelBytes) -> ChannelData {
    use VertexFormat::*;
    match format {
        Float => ChannelData::Float(words::<f32>(s)),
        UInt32 => ChannelData::UInt(words::<u32>(s)),
        SInt32 => ChannelData::SInt(words::<i32>(s)),
        Float16 => ChannelData::Float(blocks::<u16, f32>(s, |t, o| {
            if cfg!(target_endian = "big") {
                let le: Vec<u16> = le16(t).collect();
                le.reinterpret_cast::<f16>().convert_to_f32_slice(o);
            } else {
                t.reinterpret_cast::<f16>().convert_to_f32_slice(o);
            }
        })),
        UNorm8 => ChannelData::Float(blocks::<u8, f32>(s, |t, o| {
            for (o, &x) in o.iter_mut().zip(t) {
                *o = f32::from(x) / 255.0;
            }
        })),
        SNorm8 => ChannelData::Float(blocks::<u8, f32>(s, |t, o| {
            for (o, &x) in o.iter_mut().zip(t) {
                *o = (f32::from(x as i8) / 127.0).max(-1.0);
            }
        })),
        UNorm16 => ChannelData::Float(blocks::<u16, f32>(s, |t, o| {
            for (o, x) in o.iter_mut().zip(le16(t)) {
                *o = f32::from(x) / 65535.0;
            }
        })),
        SNorm16 => ChannelData::Float(blocks::<u16, f32>(s, |t, o| {
            for (o, x) in o.iter_mut().zip(le16(t)) {
                *o = (f32::from(x as i16) / 32767.0).max(-1.0);
            }
        })),
        UInt8 => ChannelData::UInt(blocks::<u8, u32>(s, |t, o| {
            for (o, &x) in o.iter_mut().zip(t) {
                *o = u32::from(x);
            }
        })),
        SInt8 => ChannelData::SInt(blocks::<u8, i32>(s, |t, o| {
            for (o, &x) in o.iter_mut().zip(t) {
                *o = i32::from(x as i8);
            }
        })),
        UInt16 => ChannelData::UInt(blocks::<u16, u32>(s, |t, o| {
            for (o, x) in o.iter_mut().zip(le16(t)) {
                *o = u32::from(x);
            }
        })),
        SInt16 => ChannelData::SInt(blocks::<u16, i32>(s, |t, o| {
            for (o, x) in o.iter_mut().zip(le16(t)) {
                *o = i32::from(x as i16);
            }
        })),
    }
}

/// The bytes of stream `st` in the vertex data (empty where the data does not hold them).
fn stream_bytes<'a>(data: &'a [u8], st: &StreamLayout) -> &'a [u8] {
    let start = usize::try_from(st.start).unwrap_or(usize::MAX);
    let end = usize::try_from(st.end).unwrap_or(usize::MAX).min(data.len());
    data.get(start..end).unwrap_or(&[])
}

/// The bytes of channel `slot` of a layout: where to find each vertex's components.
pub(crate) fn channel_bytes<'a>(layout: &VertexLayout, data: &'a [u8], slot: usize) -> Option<(ChannelPlace, ChannelBytes<'a>)> {
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

/// Decodes every present channel of a layout whose verdict passed.
pub(crate) fn decode_channels(layout: &VertexLayout, data: &[u8]) -> [Option<Channel>; 14] {
    let mut out: [Option<Channel>; 14] = Default::default();
    for (slot, o) in out.iter_mut().enumerate() {
        let Some((c, s)) = channel_bytes(layout, data, slot) else {
            continue;
        };
        *o = Some(Channel {
            format: c.format,
            dim: c.dim,
            stream: Some(c.stream),
            data: decode_components(c.format, &s),
        });
    }
    out
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
