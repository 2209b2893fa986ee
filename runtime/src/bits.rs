//! Bit fields (`b1` to `b64`, `bit-endian: le`): consecutive ones fill whole bytes, read and
//! written as one group in which the first field holds the lowest bits of the group's first
//! byte and each next field the bits above (the group as a little-endian number).

/// A value that needs more bits than its field has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooWide;

/// The bytes of `group` that bits `lo..lo + width` lie in: their range, and the offset of bit
/// `lo` in the first. A field of at most 64 bits spans at most 9 bytes.
#[inline]
fn bytes_of(lo: u32, width: u32) -> (std::ops::Range<usize>, u32) {
    let first = (lo / 8) as usize;
    let end = (lo + width).div_ceil(8) as usize;
    (first..end.max(first), lo % 8)
}

/// The bytes of `b` as a little-endian number.
#[inline]
fn word(b: &[u8]) -> u128 {
    b.iter().rev().fold(0u128, |w, &x| (w << 8) | u128::from(x))
}

/// The mask of the low `width` bits (at most 64).
#[inline]
fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The `width` bits (at most 64) of `group` from bit `lo` on.
#[inline]
pub fn get(group: &[u8], lo: u32, width: u32) -> u64 {
    let (bytes, shift) = bytes_of(lo, width);
    (word(&group[bytes]) >> shift) as u64 & mask(width)
}

/// Sets the `width` bits (at most 64) of `group` from bit `lo` on to `v`, or refuses a `v`
/// that needs more bits, leaving `group` as it was.
#[inline]
pub fn set(group: &mut [u8], lo: u32, width: u32, v: u64) -> Result<(), TooWide> {
    if v & !mask(width) != 0 {
        return Err(TooWide);
    }
    let (bytes, shift) = bytes_of(lo, width);
    let at = &mut group[bytes];
    let m = u128::from(mask(width)) << shift;
    let w = (word(at) & !m) | (u128::from(v) << shift);
    for (i, b) in at.iter_mut().enumerate() {
        *b = (w >> (8 * i)) as u8;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_from_the_lowest_bit_of_the_first_byte() {
        // b3 = 0b101, then b13 = 0x1abc, then b1 = 1, b7 = 0x55: 24 bits.
        let mut g = [0u8; 3];
        set(&mut g, 0, 3, 0b101).unwrap();
        set(&mut g, 3, 13, 0x1abc).unwrap();
        set(&mut g, 16, 1, 1).unwrap();
        set(&mut g, 17, 7, 0x55).unwrap();
        let n = u32::from_le_bytes([g[0], g[1], g[2], 0]);
        assert_eq!(n, 0b101 | (0x1abc << 3) | (1 << 16) | (0x55 << 17));
        assert_eq!(get(&g, 0, 3), 0b101);
        assert_eq!(get(&g, 3, 13), 0x1abc);
        assert_eq!(get(&g, 16, 1), 1);
        assert_eq!(get(&g, 17, 7), 0x55);
        // Setting a field again clears its old bits and leaves its neighbours.
        set(&mut g, 3, 13, 0).unwrap();
        assert_eq!(
            (get(&g, 0, 3), get(&g, 3, 13), get(&g, 17, 7)),
            (0b101, 0, 0x55)
        );
    }

    #[test]
    fn a_value_too_wide_is_refused_and_changes_nothing() {
        let mut g = [0xffu8; 2];
        assert_eq!(set(&mut g, 4, 4, 16), Err(TooWide));
        assert_eq!(g, [0xff; 2]);
        let mut w = [0u8; 8];
        set(&mut w, 0, 64, u64::MAX).unwrap();
        assert_eq!((w, get(&w, 0, 64)), ([0xff; 8], u64::MAX));
    }

    /// Bit by bit, as the definition says.
    fn get_slow(group: &[u8], lo: u32, width: u32) -> u64 {
        (0..width).fold(0, |v, i| {
            let at = (lo + i) as usize;
            v | (u64::from((group[at / 8] >> (at % 8)) & 1) << i)
        })
    }

    #[test]
    fn every_field_of_every_offset_agrees_with_the_bit_by_bit_reading() {
        // A fixed pseudo-random group of 12 bytes, every field that fits in it.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut g = [0u8; 12];
        for b in &mut g {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        for width in 1..=64u32 {
            for lo in 0..=(96 - width) {
                let v = get(&g, lo, width);
                assert_eq!(v, get_slow(&g, lo, width), "b{width} at bit {lo}");
                // Writing the complement changes those bits only.
                let mut h = g;
                set(&mut h, lo, width, !v & mask(width)).unwrap();
                for bit in 0..96u32 {
                    let inside = (lo..lo + width).contains(&bit);
                    let (a, b) = (get_slow(&g, bit, 1), get_slow(&h, bit, 1));
                    assert_eq!(a != b, inside, "b{width} at bit {lo}, bit {bit}");
                }
            }
        }
    }
}
