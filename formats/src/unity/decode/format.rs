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

/// Decodes `bytes` (whole components, little-endian) of `format` into values.
///
/// The byte count must be a multiple of the component size (the callers slice it so).
pub(crate) fn decode_components(format: VertexFormat, bytes: &[u8]) -> ChannelData {
    use VertexFormat::*;
    match format {
        Float => ChannelData::Float(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        Float16 => {
            let bits: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            let halves: &[f16] = bits.reinterpret_cast();
            let mut out = vec![0.0f32; halves.len()];
            halves.convert_to_f32_slice(&mut out);
            ChannelData::Float(out)
        }
        UNorm8 => ChannelData::Float(bytes.iter().map(|&b| f32::from(b) / 255.0).collect()),
        SNorm8 => ChannelData::Float(
            bytes
                .iter()
                .map(|&b| (f32::from(b as i8) / 127.0).max(-1.0))
                .collect(),
        ),
        UNorm16 => ChannelData::Float(
            bytes
                .chunks_exact(2)
                .map(|c| f32::from(u16::from_le_bytes([c[0], c[1]])) / 65535.0)
                .collect(),
        ),
        SNorm16 => ChannelData::Float(
            bytes
                .chunks_exact(2)
                .map(|c| (f32::from(i16::from_le_bytes([c[0], c[1]])) / 32767.0).max(-1.0))
                .collect(),
        ),
        UInt8 => ChannelData::UInt(bytes.iter().map(|&b| u32::from(b)).collect()),
        SInt8 => ChannelData::SInt(bytes.iter().map(|&b| i32::from(b as i8)).collect()),
        UInt16 => ChannelData::UInt(
            bytes
                .chunks_exact(2)
                .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
        ),
        SInt16 => ChannelData::SInt(
            bytes
                .chunks_exact(2)
                .map(|c| i32::from(i16::from_le_bytes([c[0], c[1]])))
                .collect(),
        ),
        UInt32 => ChannelData::UInt(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        SInt32 => ChannelData::SInt(
            bytes
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
    }
}

/// Decodes every present channel of a checked layout.
///
/// A channel that fills its stream is decoded in one pass over the stream's bytes; one that
/// shares its stream is first gathered into a packed copy (one slice copy per vertex) and
/// then decoded in one pass.
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
        // The layout was checked against the data's length, so these slices are in range;
        // `get` keeps that a promise the compiler checks rather than a panic.
        let bytes = raw.vertex_data.get(stream.start..stream.end).unwrap_or(&[]);
        let width = place.format.size() * place.dim;
        let data = if width == stream.stride {
            decode_components(place.format, bytes)
        } else {
            let mut packed = Vec::with_capacity(width * layout.vertex_count);
            for vertex in bytes.chunks_exact(stream.stride) {
                if let Some(c) = vertex.get(place.offset..place.offset + width) {
                    packed.extend_from_slice(c);
                }
            }
            decode_components(place.format, &packed)
        };
        out[slot] = Some(Channel {
            format: place.format,
            dim: place.dim,
            stream: Some(place.stream),
            data,
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
        let ChannelData::Float(v) = decode_components(VertexFormat::SNorm8, &[0x80, 0x81, 0x7F])
        else {
            panic!("SNorm8 decodes to floats")
        };
        assert_eq!(v, [-1.0, -1.0, 1.0]);
        let ChannelData::Float(v) =
            decode_components(VertexFormat::SNorm16, &[0x00, 0x80, 0xFF, 0x7F])
        else {
            panic!("SNorm16 decodes to floats")
        };
        assert_eq!(v, [-1.0, 1.0]);
    }
}
