//! PackedBitVector: `n` items of `bits` bits each, the first item in the lowest bits of the
//! first byte, items crossing byte boundaries; a float item is
//! `start + item * (range / (2^bits - 1))` computed in f32.
//!
//! Zero-bit vectors hold items that are all 0 (a float vector's values are then all
//! `start`); 32-bit vectors hold whole `u32`s. Since a zero-bit vector's item count is bounded
//! by no bytes, it is capped at [`MAX_ZERO_BIT_ITEMS`].

use super::{fail, RawPackedFloats, RawPackedInts, P};
use crate::rt::{ErrorKind, Result};

/// The most items a zero-bit vector may claim (nothing in its data bounds them).
pub const MAX_ZERO_BIT_ITEMS: u32 = 1 << 24;

/// Checks `n` items of `bits` bits against the data and returns `n` as a usize.
fn check(n: u32, bits: u8, data: &[u8], data_offset: u64, field: &'static str) -> Result<usize> {
    let path = |f: &'static str| [P::F("m_CompressedMesh"), P::F(field), P::F(f)];
    if bits > 32 {
        return Err(fail(
            ErrorKind::Unsupported,
            None,
            &path("m_BitSize"),
            "0 to 32 bits per item",
            bits.to_string(),
        ));
    }
    if bits == 0 && n > MAX_ZERO_BIT_ITEMS {
        return Err(fail(
            ErrorKind::Count,
            None,
            &path("m_NumItems"),
            format!("at most {MAX_ZERO_BIT_ITEMS} items in a zero-bit vector"),
            n.to_string(),
        ));
    }
    let need_bits = u64::from(n) * u64::from(bits);
    let need = need_bits.div_ceil(8);
    if need > data.len() as u64 {
        return Err(fail(
            ErrorKind::Count,
            Some(data_offset.saturating_add(data.len() as u64)),
            &path("m_Data"),
            format!("{need} bytes for {n} items of {bits} bits"),
            format!("{} bytes", data.len()),
        ));
    }
    usize::try_from(n).map_err(|_| {
        fail(
            ErrorKind::Count,
            None,
            &path("m_NumItems"),
            "an item count this machine can address",
            n.to_string(),
        )
    })
}

/// The raw items of a checked vector.
fn items(n: usize, bits: u8, data: &[u8]) -> Vec<u32> {
    if bits == 0 {
        return vec![0; n];
    }
    let bits = u64::from(bits);
    let mask = (1u64 << bits) - 1;
    let mut out = Vec::with_capacity(n);
    let mut bit = 0u64;
    for _ in 0..n {
        let byte = (bit >> 3) as usize;
        let shift = bit & 7;
        // Eight bytes hold any item (32 bits plus up to 7 of shift); near the end of the
        // data the missing bytes read as 0, which the length check makes unused.
        let word = match data.get(byte..byte + 8) {
            Some(w) => u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => {
                let mut w = [0u8; 8];
                let tail = data.get(byte..).unwrap_or(&[]);
                let k = tail.len().min(8);
                w[..k].copy_from_slice(&tail[..k]);
                u64::from_le_bytes(w)
            }
        };
        out.push(((word >> shift) & mask) as u32);
        bit += bits;
    }
    out
}

/// Unpacks a vector of integers (`field` names it under `m_CompressedMesh` in errors).
pub fn unpack_ints(v: &RawPackedInts, field: &'static str) -> Result<Vec<u32>> {
    let n = check(v.num_items, v.bit_size, v.data, v.data_offset, field)?;
    Ok(items(n, v.bit_size, v.data))
}

/// Unpacks a vector of floats: `start + item * (range / (2^bits - 1))` in f32, or `start`
/// for every item of a zero-bit vector (`field` names it under `m_CompressedMesh` in errors).
pub fn unpack_floats(v: &RawPackedFloats, field: &'static str) -> Result<Vec<f32>> {
    let n = check(v.num_items, v.bit_size, v.data, v.data_offset, field)?;
    if v.bit_size == 0 {
        return Ok(vec![v.start; n]);
    }
    let max = ((1u64 << v.bit_size) - 1) as f32;
    let scale = v.range / max;
    let start = v.start;
    Ok(items(n, v.bit_size, v.data)
        .into_iter()
        .map(|i| start + i as f32 * scale)
        .collect())
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

    fn ints(n: u32, bits: u8, data: &[u8]) -> Result<Vec<u32>> {
        unpack_ints(
            &RawPackedInts {
                num_items: n,
                data,
                bit_size: bits,
                data_offset: 0,
            },
            "m_Triangles",
        )
    }

    #[test]
    fn items_cross_byte_boundaries_low_bits_first() {
        // Three 5-bit items 1, 2, 31: bits 00001 | 00010 << 5 | 11111 << 10 = 0x7C41.
        assert_eq!(ints(3, 5, &[0x41, 0x7C]).unwrap(), [1, 2, 31]);
        // Two 12-bit items 0xABC and 0x123: 0x123ABC little-endian.
        assert_eq!(ints(2, 12, &[0xBC, 0x3A, 0x12]).unwrap(), [0xABC, 0x123]);
    }

    #[test]
    fn zero_and_thirty_two_bits() {
        assert_eq!(ints(4, 0, &[]).unwrap(), [0, 0, 0, 0]);
        let data = [0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF];
        assert_eq!(ints(2, 32, &data).unwrap(), [0x1234_5678, u32::MAX]);
        let f = unpack_floats(
            &RawPackedFloats {
                num_items: 2,
                range: 3.0,
                start: -1.5,
                data: &[],
                bit_size: 0,
                data_offset: 0,
            },
            "m_Vertices",
        )
        .unwrap();
        assert_eq!(f, [-1.5, -1.5]);
    }

    #[test]
    fn too_short_and_too_wide_are_errors() {
        let e = ints(3, 5, &[0x41]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count);
        assert_eq!(
            e.to_string(),
            "0x1 unity_mesh.m_CompressedMesh.m_Triangles.m_Data: expected 2 bytes for 3 items of 5 bits, found 1 bytes"
        );
        assert_eq!(
            ints(1, 33, &[0; 8]).unwrap_err().kind,
            ErrorKind::Unsupported
        );
        assert_eq!(ints(u32::MAX, 0, &[]).unwrap_err().kind, ErrorKind::Count);
    }
}
