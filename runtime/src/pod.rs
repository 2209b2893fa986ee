//! Fixed-size values decoded straight from bytes: the fast path for lists of numbers and for
//! types made only of numbers, which are read as views and written as one block.

use binrw::Endian;

/// A number that is its bytes in a given byte order.
pub trait Pod: Copy {
    /// Its size in bytes.
    const SIZE: usize;
    /// Decodes the first `SIZE` bytes of `b` (the caller guarantees there are that many).
    fn from_slice(b: &[u8], e: Endian) -> Self;
    /// Encodes into the first `SIZE` bytes of `out`.
    fn put(self, e: Endian, out: &mut [u8]);
    /// The values as stored in memory: their bytes in the machine's byte order.
    fn as_bytes(v: &[Self]) -> &[u8];
}

/// The machine's byte order: values stored in it are written as they lie in memory.
pub const NATIVE: Endian = if cfg!(target_endian = "little") {
    Endian::Little
} else {
    Endian::Big
};

macro_rules! pod_impl {
    ($($t:ty),*) => {$(
        impl Pod for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn from_slice(b: &[u8], e: Endian) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::SIZE]);
                match e {
                    Endian::Little => <$t>::from_le_bytes(a),
                    Endian::Big => <$t>::from_be_bytes(a),
                }
            }
            #[inline(always)]
            fn put(self, e: Endian, out: &mut [u8]) {
                let a = match e {
                    Endian::Little => self.to_le_bytes(),
                    Endian::Big => self.to_be_bytes(),
                };
                out[..Self::SIZE].copy_from_slice(&a);
            }
            #[inline(always)]
            fn as_bytes(v: &[Self]) -> &[u8] {
                bytemuck::cast_slice(v)
            }
        }
    )*};
}
pod_impl!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// The value at `offset` of a block whose layout the generator has checked.
#[inline(always)]
pub fn get<T: Pod>(block: &[u8], offset: usize, e: Endian) -> T {
    T::from_slice(&block[offset..offset + T::SIZE], e)
}

/// Puts `v` at `offset` of a block whose layout the generator has checked.
#[inline(always)]
pub fn set<T: Pod>(block: &mut [u8], offset: usize, v: T, e: Endian) {
    v.put(e, &mut block[offset..offset + T::SIZE]);
}

/// A type made only of numbers at fixed offsets (generated for such spec types): decoded from
/// and encoded into a block of exactly `SIZE` bytes, so lists of it are views over the input.
pub trait Block: Sized {
    /// The block's size.
    const SIZE: usize;
    /// Whether [`Block::check`] has anything to check (a `valid` on a field).
    const CHECKED: bool;
    /// Decodes a block of `SIZE` bytes that [`Block::check`] accepted.
    fn decode(block: &[u8]) -> Self;
    /// The `valid` checks of the fields, for a block that starts at byte `at` of the input.
    fn check(block: &[u8], at: u64) -> super::Result<()>;
    /// Encodes into a block of `SIZE` bytes that starts at byte `at` of the output, checking
    /// the fields' `valid`.
    fn encode(&self, block: &mut [u8], at: u64) -> super::Result<()>;
}
