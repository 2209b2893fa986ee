//! PackedBitVector: `n` items of `bits` bits each, the first item in the lowest bits of the
//! first byte, items crossing byte boundaries; a float item is
//! `start + item * (range / (2^bits - 1))` computed in f32.
//!
//! Zero-bit vectors hold items that are all 0 (a float vector's values are then all
//! `start`); 32-bit vectors hold whole `u32`s. Since a zero-bit vector's item count is bounded
//! by no bytes, it is capped at [`MAX_ZERO_BIT_ITEMS`].

use super::error_at;
use crate::generated::unity_mesh::{
    AlignedBytesPos, PackedFloatVectorPos, PackedFloatVectorRef, PackedIntVectorPos,
    PackedIntVectorRef,
};
use crate::rt::pod::Pod;
use crate::rt::{ErrorKind, Path, Place, Span};
use crate::verdict::Judge;
use binrw::Endian;

/// The most items a zero-bit vector may claim (nothing in its data bounds them).
pub const MAX_ZERO_BIT_ITEMS: u32 = 1 << 24;

/// A PackedBitVector as stored: `m_NumItems`, `m_BitSize` and `m_Data`, and for a vector of
/// floats `m_Start` and `m_Range` (0 for integers).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Packed<'a> {
    /// The number of items.
    pub num_items: u32,
    /// Bits per item (0 to 32).
    pub bit_size: u8,
    /// The packed bits.
    pub data: &'a [u8],
    /// The smallest value (floats).
    pub start: f32,
    /// The distance from the smallest to the largest value (floats).
    pub range: f32,
}

impl<'a> Packed<'a> {
    /// A vector of floats.
    pub fn floats(v: &PackedFloatVectorRef<'a>) -> Self {
        Packed {
            num_items: v.num_items,
            bit_size: v.bit_size,
            data: v.data.data,
            start: v.start,
            range: v.range,
        }
    }

    /// A vector of integers.
    pub fn ints(v: &PackedIntVectorRef<'a>) -> Self {
        Packed {
            num_items: v.num_items,
            bit_size: v.bit_size,
            data: v.data.data,
            start: 0.0,
            range: 0.0,
        }
    }

    /// How many items can be unpacked: all of them once the verdict passed, never more than
    /// the data holds.
    fn available(&self) -> usize {
        let n = self.num_items as usize;
        match self.bit_size {
            0 => n.min(MAX_ZERO_BIT_ITEMS as usize),
            b if b > 32 => 0,
            b => n.min(self.data.len().saturating_mul(8) / usize::from(b)),
        }
    }
}

/// Where a packed vector's fields lie (float and integer vectors alike).
pub(crate) struct PackedAt {
    path: Path,
    num_items: Span,
    data: Span,
    bytes: Span,
    bit_size: Span,
}

impl PackedAt {
    /// The places of a vector of floats.
    pub(crate) fn floats(at: &Place<'_, PackedFloatVectorPos>) -> Self {
        let p = at.get();
        Self::new(at.field_path(), p.num_items, &p.data, p.bit_size)
    }

    /// The places of a vector of integers.
    pub(crate) fn ints(at: &Place<'_, PackedIntVectorPos>) -> Self {
        let p = at.get();
        Self::new(at.field_path(), p.num_items, &p.data, p.bit_size)
    }

    /// The fields both kinds of vector share (the spec gives them the same names and types).
    fn new(path: &Path, num_items: Span, data: &AlignedBytesPos, bit_size: Span) -> Self {
        PackedAt {
            path: path.clone(),
            num_items,
            data: data._span,
            bytes: data.data,
            bit_size,
        }
    }

    /// An error about the vector's `m_NumItems`.
    pub(crate) fn num_items_error(
        &self,
        kind: ErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> crate::rt::Error {
        error_at(
            self.num_items,
            &self.path.field("num_items"),
            kind,
            expected,
            found,
        )
    }

    /// Where byte `k` of the vector's data lies, and its path.
    pub(crate) fn data_byte(&self, k: u64) -> (u64, Path) {
        (
            self.bytes.start.saturating_add(k),
            self.path.field("data").field("data"),
        )
    }
}

/// The verdict on one vector that decoding unpacks: at most 32 bits per item, a zero-bit vector
/// of at most [`MAX_ZERO_BIT_ITEMS`] items, and data that holds every item. Whether it can be
/// unpacked.
pub(crate) fn judge(p: &Packed, at: &PackedAt, j: &mut Judge<'_>) -> bool {
    let n = p.num_items;
    let bits = p.bit_size;
    if n == 0 {
        return true;
    }
    if bits > 32 {
        j.push(error_at(
            at.bit_size,
            &at.path.field("bit_size"),
            ErrorKind::Unsupported,
            "0 to 32 bits per item, to unpack the items",
            bits.to_string(),
        ));
        return false;
    }
    if bits == 0 && n > MAX_ZERO_BIT_ITEMS {
        j.push(at.num_items_error(
            ErrorKind::Count,
            format!("at most {MAX_ZERO_BIT_ITEMS} items in a zero-bit vector"),
            n.to_string(),
        ));
        return false;
    }
    let need = (u64::from(n) * u64::from(bits)).div_ceil(8);
    if need > p.data.len() as u64 {
        j.push(error_at(
            at.data,
            &at.path.field("data"),
            ErrorKind::Count,
            format!("{need} bytes for {n} items of {bits} bits"),
            format!("{} bytes", p.data.len()),
        ));
        return false;
    }
    true
}

/// The raw items, each turned by `f`, appended to `out`: eight bytes hold any item (32 bits
/// plus up to 7 of shift), so items whose eight-byte window lies inside the data are read
/// directly and only the last few through a padded copy; whole bytes, halves and words are
/// plain little-endian reads. Every pass is an exact-size iterator: one reservation, no check
/// per item.
fn items_into<T>(n: usize, bits: u8, data: &[u8], out: &mut Vec<T>, f: impl Fn(u32) -> T) {
    // An empty vector's bit size is never judged (no item uses it): it may be anything.
    if n == 0 {
        return;
    }
    out.reserve(n);
    match bits {
        0 => out.extend((0..n).map(|_| f(0))),
        8 => out.extend(data.iter().take(n).map(|&b| f(u32::from(b)))),
        16 => out.extend(
            data.chunks_exact(2)
                .take(n)
                .map(|c| f(u32::from(u16::from_slice(c, Endian::Little)))),
        ),
        32 => out.extend(
            data.chunks_exact(4)
                .take(n)
                .map(|c| f(u32::from_slice(c, Endian::Little))),
        ),
        _ => {
            let bits = u64::from(bits);
            let mask = (1u64 << bits) - 1;
            let direct = match data.len().checked_sub(8) {
                Some(last) => ((last as u64 * 8 / bits + 1) as usize).min(n),
                None => 0,
            };
            out.extend((0..direct).map(|i| {
                let bit = i as u64 * bits;
                let byte = (bit >> 3) as usize;
                let w = data
                    .get(byte..byte + 8)
                    .and_then(|w| <[u8; 8]>::try_from(w).ok())
                    .unwrap_or_default();
                f(((u64::from_slice(&w, Endian::Little) >> (bit & 7)) & mask) as u32)
            }));
            out.extend((direct..n).map(|i| {
                let bit = i as u64 * bits;
                let byte = (bit >> 3) as usize;
                let mut w = [0u8; 8];
                let tail = data.get(byte..).unwrap_or(&[]);
                let k = tail.len().min(8);
                w[..k].copy_from_slice(&tail[..k]);
                f(((u64::from_slice(&w, Endian::Little) >> (bit & 7)) & mask) as u32)
            }));
        }
    }
}

/// The items of a vector of integers (of one whose verdict passed: all of them).
pub fn unpack_ints(p: &Packed) -> Vec<u32> {
    let mut out = vec![];
    unpack_ints_into(p, &mut out);
    out
}

/// [`unpack_ints`] into `out` (emptied first): a caller that unpacks many vectors keeps one
/// buffer, and pays for fresh memory once.
pub fn unpack_ints_into(p: &Packed, out: &mut Vec<u32>) {
    out.clear();
    items_into(p.available(), p.bit_size, p.data, out, |i| i);
}

/// The items of a vector of floats: `start + item * (range / (2^bits - 1))` in f32, or `start`
/// for every item of a zero-bit vector.
pub fn unpack_floats(p: &Packed) -> Vec<f32> {
    let mut out = vec![];
    unpack_floats_into(p, &mut out);
    out
}

/// [`unpack_floats`] into `out` (emptied first).
pub fn unpack_floats_into(p: &Packed, out: &mut Vec<f32>) {
    out.clear();
    let n = p.available();
    if p.bit_size == 0 {
        out.resize(n, p.start);
        return;
    }
    let max = ((1u64 << p.bit_size.min(32)) - 1) as f32;
    let scale = p.range / max;
    let start = p.start;
    items_into(n, p.bit_size, p.data, out, |i| start + i as f32 * scale);
}

/// How far a value dequantised from a packed float vector can be from the same value
/// computed in f64: four f32 epsilons relative to the size of the vector's ends,
/// `max(1, |start|, |start + range|)`, not to the size of the value (a value near zero carries
/// the absolute error of the vector's largest end).
pub fn packed_tolerance(start: f32, range: f32) -> f32 {
    let ends = 1f32.max(start.abs()).max((start + range).abs());
    4.0 * f32::EPSILON * ends
}

/// How far a normal's or tangent's z rebuilt as `sqrt(1 - x² - y²)` can be off when x and y
/// are each off by up to `e`: the error of `1 - x² - y²` (at most `2√2·e + e²` for a unit
/// vector) passes through the square root, which near z = 0 turns an error `d` into up to
/// `√d`.
pub fn rebuilt_z_tolerance(e: f32) -> f32 {
    (2.0 * std::f32::consts::SQRT_2 * e + e * e).sqrt() + e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: u32, bits: u8, data: &[u8]) -> Vec<u32> {
        unpack_ints(&Packed {
            num_items: n,
            bit_size: bits,
            data,
            ..Packed::default()
        })
    }

    #[test]
    fn items_cross_byte_boundaries_low_bits_first() {
        // Three 5-bit items 1, 2, 31: bits 00001 | 00010 << 5 | 11111 << 10 = 0x7C41.
        assert_eq!(ints(3, 5, &[0x41, 0x7C]), [1, 2, 31]);
        // Two 12-bit items 0xABC and 0x123: 0x123ABC little-endian.
        assert_eq!(ints(2, 12, &[0xBC, 0x3A, 0x12]), [0xABC, 0x123]);
        // Past eight bytes, the direct reads and the padded tail agree.
        let data: Vec<u8> = (0..23u8).map(|b| b.wrapping_mul(37)).collect();
        let all = ints(26, 7, &data);
        let mut bit = 0usize;
        for (i, &x) in all.iter().enumerate() {
            let mut want = 0u32;
            for k in 0..7 {
                let b = bit + k;
                want |= u32::from((data[b / 8] >> (b % 8)) & 1) << k;
            }
            assert_eq!(x, want, "item {i}");
            bit += 7;
        }
    }

    #[test]
    fn zero_and_thirty_two_bits() {
        assert_eq!(ints(4, 0, &[]), [0, 0, 0, 0]);
        let data = [0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF];
        assert_eq!(ints(2, 32, &data), [0x1234_5678, u32::MAX]);
        let f = unpack_floats(&Packed {
            num_items: 2,
            range: 3.0,
            start: -1.5,
            data: &[],
            bit_size: 0,
        });
        assert_eq!(f, [-1.5, -1.5]);
    }

    #[test]
    fn a_vector_is_never_read_past_its_data() {
        // Unpacking does not check (the verdict does) but never reads what is not there.
        assert_eq!(ints(3, 5, &[0x41]), [1]);
        assert!(ints(1, 33, &[0; 8]).is_empty());
        assert_eq!(ints(u32::MAX, 0, &[]).len(), MAX_ZERO_BIT_ITEMS as usize);
    }
}

/// Packs `items` of `bits` bits each (0 to 32) as [`unpack_ints`] reads them: the first item in
/// the lowest bits of the first byte, items crossing byte boundaries. Items wider than `bits`
/// are cut to it (callers quantise into range first).
pub fn pack_items(items: &[u32], bits: u8) -> Vec<u8> {
    let bits = u64::from(bits.min(32));
    let mut out = vec![0u8; (items.len() as u64 * bits).div_ceil(8) as usize];
    if bits == 0 {
        return out;
    }
    let mask = (1u64 << bits) - 1;
    for (i, &x) in items.iter().enumerate() {
        let bit = i as u64 * bits;
        let mut v = (u64::from(x) & mask) << (bit & 7);
        let mut at = (bit >> 3) as usize;
        while v != 0 {
            out[at] |= v as u8;
            v >>= 8;
            at += 1;
        }
    }
    out
}

/// The item `x` quantises to in a float vector of `bits` bits from `start` over `range` (the
/// nearest of the 2^bits steps, clamped to them).
pub fn quantise(x: f32, start: f32, range: f32, bits: u8) -> u32 {
    let max = ((1u64 << bits.min(32)) - 1) as f64;
    if bits == 0 || range == 0.0 {
        return 0;
    }
    ((f64::from(x) - f64::from(start)) / f64::from(range) * max)
        .round()
        .clamp(0.0, max) as u32
}

#[cfg(test)]
mod pack_tests {
    use super::*;

    #[test]
    fn packed_items_unpack_to_themselves() {
        for bits in [1u8, 5, 8, 11, 13, 16, 20, 31, 32] {
            let max = ((1u64 << bits) - 1) as u32;
            let items: Vec<u32> = (0..97u32)
                .map(|i| i.wrapping_mul(2_654_435_761) & max)
                .collect();
            let data = pack_items(&items, bits);
            let p = Packed {
                num_items: items.len() as u32,
                bit_size: bits,
                data: &data,
                start: 0.0,
                range: 0.0,
            };
            assert_eq!(unpack_ints(&p), items, "{bits} bits");
        }
        assert_eq!(quantise(0.5, 0.0, 1.0, 8), 128);
        assert_eq!(quantise(2.0, 0.0, 1.0, 8), 255);
    }
}
