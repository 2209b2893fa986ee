//! Bit fields (`b1` to `b64`, `bit-endian: le`): consecutive ones fill whole bytes, read and
//! written as one group in which the first field holds the lowest bits of the group's first
//! byte and each next field the bits above (the group as a little-endian number).

/// A value that needs more bits than its field has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooWide;

/// The `width` bits (at most 64) of `group` from bit `lo` on.
pub fn get(group: &[u8], lo: u32, width: u32) -> u64 {
    (0..width).fold(0, |v, i| {
        let at = (lo + i) as usize;
        v | (u64::from((group[at / 8] >> (at % 8)) & 1) << i)
    })
}

/// Sets the `width` bits (at most 64) of `group` from bit `lo` on to `v`, or refuses a `v`
/// that needs more bits, leaving `group` as it was.
pub fn set(group: &mut [u8], lo: u32, width: u32, v: u64) -> Result<(), TooWide> {
    if width < 64 && v >> width != 0 {
        return Err(TooWide);
    }
    for i in 0..width {
        let at = (lo + i) as usize;
        let bit = 1u8 << (at % 8);
        if (v >> i) & 1 == 1 {
            group[at / 8] |= bit;
        } else {
            group[at / 8] &= !bit;
        }
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
        assert_eq!((get(&g, 0, 3), get(&g, 3, 13), get(&g, 17, 7)), (0b101, 0, 0x55));
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
}
