//! The twelve vertex formats and the bulk decoding of a channel out of its stream.

use super::layout::VertexLayout;
use super::{Channel, ChannelData, RawMesh};
use crate::rt::Result;
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

/// The bytes of one channel in its stream: `width` bytes at `offset` of every `stride`-byte
/// vertex.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Strided<'a> {
    bytes: &'a [u8],
    stride: usize,
    offset: usize,
    width: usize,
}

impl<'a> Strided<'a> {
    /// Components one after another, with nothing between them.
    #[cfg(test)]
    pub(crate) fn contiguous(bytes: &'a [u8]) -> Self {
        Strided {
            bytes,
            stride: bytes.len(),
            offset: 0,
            width: bytes.len(),
        }
    }

    /// Every component of `size` bytes, decoded by `f`, vertex after vertex: one pass over a
    /// stream the channel fills, one copy of each vertex's components otherwise, into a vector
    /// allocated once (its size is the stream's, which the layout checked against the data).
    fn map<T>(&self, size: usize, f: impl Fn(&[u8]) -> T) -> Vec<T> {
        if self.width == self.stride {
            return self.bytes.chunks_exact(size).map(f).collect();
        }
        let per_vertex = self.width / size;
        let mut out = Vec::with_capacity((self.bytes.len() / self.stride.max(1)) * per_vertex);
        for vertex in self.bytes.chunks_exact(self.stride.max(1)) {
            if let Some(c) = vertex.get(self.offset..self.offset + self.width) {
                out.extend(c.chunks_exact(size).map(&f));
            }
        }
        out
    }
}

/// Decodes the components of a channel of `format`, little-endian.
pub(crate) fn decode_components(format: VertexFormat, s: Strided) -> ChannelData {
    use VertexFormat::*;
    let f32_of = |c: &[u8]| f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    let u16_of = |c: &[u8]| u16::from_le_bytes([c[0], c[1]]);
    let i16_of = |c: &[u8]| i16::from_le_bytes([c[0], c[1]]);
    match format {
        Float => ChannelData::Float(s.map(4, f32_of)),
        Float16 => {
            let bits: Vec<u16> = s.map(2, u16_of);
            let halves: &[f16] = bits.reinterpret_cast();
            let mut out = vec![0.0f32; halves.len()];
            halves.convert_to_f32_slice(&mut out);
            ChannelData::Float(out)
        }
        UNorm8 => ChannelData::Float(s.map(1, |c| f32::from(c[0]) / 255.0)),
        SNorm8 => ChannelData::Float(s.map(1, |c| (f32::from(c[0] as i8) / 127.0).max(-1.0))),
        UNorm16 => ChannelData::Float(s.map(2, |c| f32::from(u16_of(c)) / 65535.0)),
        SNorm16 => ChannelData::Float(s.map(2, |c| (f32::from(i16_of(c)) / 32767.0).max(-1.0))),
        UInt8 => ChannelData::UInt(s.map(1, |c| u32::from(c[0]))),
        SInt8 => ChannelData::SInt(s.map(1, |c| i32::from(c[0] as i8))),
        UInt16 => ChannelData::UInt(s.map(2, |c| u32::from(u16_of(c)))),
        SInt16 => ChannelData::SInt(s.map(2, |c| i32::from(i16_of(c)))),
        UInt32 => ChannelData::UInt(s.map(4, |c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
        SInt32 => ChannelData::SInt(s.map(4, |c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
    }
}

/// Decodes every present channel of a checked layout.
pub(crate) fn decode_channels(
    raw: &RawMesh,
    layout: &VertexLayout,
) -> Result<[Option<Channel>; 14]> {
    let mut out: [Option<Channel>; 14] = Default::default();
    for (slot, place) in layout.channels.iter().enumerate() {
        let Some(place) = place else { continue };
        let Some(stream) = layout.streams.get(usize::from(place.stream)) else {
            continue;
        };
        // The layout was checked against the data's length, so this slice is in range; `get`
        // keeps that a promise the compiler checks rather than a panic.
        let bytes = raw.vertex_data.get(stream.start..stream.end).unwrap_or(&[]);
        let strided = Strided {
            bytes,
            stride: stream.stride,
            offset: place.offset,
            width: place.format.size() * place.dim,
        };
        out[slot] = Some(Channel {
            format: place.format,
            dim: place.dim,
            stream: Some(place.stream),
            data: decode_components(place.format, strided),
        });
    }
    Ok(out)
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
            Strided::contiguous(&[0x80, 0x81, 0x7F]),
        ) else {
            panic!("SNorm8 decodes to floats")
        };
        assert_eq!(v, [-1.0, -1.0, 1.0]);
        let ChannelData::Float(v) = decode_components(
            VertexFormat::SNorm16,
            Strided::contiguous(&[0x00, 0x80, 0xFF, 0x7F]),
        ) else {
            panic!("SNorm16 decodes to floats")
        };
        assert_eq!(v, [-1.0, 1.0]);
    }
}
