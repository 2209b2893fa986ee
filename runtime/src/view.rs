//! Views over the input: lists of numbers and of block types, read in place and decoded on
//! access. A view is validated when it is made, so reading an element cannot fail.

use super::pod::{Block, Pod};
use binrw::Endian;
use std::marker::PhantomData;

/// `len()` bytes of numbers of type `T` in a byte order, borrowed from the input.
#[derive(Clone, Copy)]
pub struct Nums<'a, T> {
    bytes: &'a [u8],
    endian: Endian,
    _t: PhantomData<T>,
}

impl<T> std::fmt::Debug for Nums<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Nums({} bytes)", self.bytes.len())
    }
}

const NATIVE: Endian = if cfg!(target_endian = "little") {
    Endian::Little
} else {
    Endian::Big
};

impl<'a, T: Pod> Nums<'a, T> {
    /// A view of `bytes`, whose length is a multiple of the number's size.
    pub fn new(bytes: &'a [u8], endian: Endian) -> Self {
        debug_assert_eq!(bytes.len() % T::SIZE, 0);
        Nums {
            bytes,
            endian,
            _t: PhantomData,
        }
    }

    /// How many numbers.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Number `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let at = i.checked_mul(T::SIZE)?;
        let b = self.bytes.get(at..at + T::SIZE)?;
        Some(T::from_slice(b, self.endian))
    }

    /// The numbers in order.
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + Clone + 'a {
        let e = self.endian;
        self.bytes
            .chunks_exact(T::SIZE)
            .map(move |c| T::from_slice(c, e))
    }

    /// The numbers `from..from + count`, when all of them are there.
    pub fn range(&self, from: usize, count: usize) -> Option<Self> {
        let a = from.checked_mul(T::SIZE)?;
        let b = a.checked_add(count.checked_mul(T::SIZE)?)?;
        Some(Nums {
            bytes: self.bytes.get(a..b)?,
            ..*self
        })
    }

    /// The numbers copied out.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// The bytes the numbers occupy in the input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The byte order they are stored in.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// The numbers as a slice of the input itself, when it is stored in this machine's byte
    /// order and aligned for `T` (no copy at all); `None` otherwise.
    pub fn as_slice(&self) -> Option<&'a [T]>
    where
        T: bytemuck::Pod,
    {
        if self.endian != NATIVE {
            return None;
        }
        bytemuck::try_cast_slice(self.bytes).ok()
    }
}

/// `len()` values of a block type, borrowed from the input.
#[derive(Clone, Copy)]
pub struct Blocks<'a, T> {
    bytes: &'a [u8],
    _t: PhantomData<T>,
}

impl<T> std::fmt::Debug for Blocks<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Blocks({} bytes)", self.bytes.len())
    }
}

impl<'a, T: Block + 'a> Blocks<'a, T> {
    /// A view of `bytes` whose blocks [`Block::check`] accepted.
    pub fn new(bytes: &'a [u8]) -> Self {
        debug_assert_eq!(bytes.len() % T::SIZE, 0);
        Blocks {
            bytes,
            _t: PhantomData,
        }
    }

    /// How many values.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Value `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let at = i.checked_mul(T::SIZE)?;
        self.bytes.get(at..at + T::SIZE).map(T::decode)
    }

    /// The values in order.
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        self.bytes.chunks_exact(T::SIZE).map(T::decode)
    }

    /// The values copied out.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// The bytes the values occupy in the input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// `len()` byte runs of one size, borrowed from the input.
#[derive(Clone, Copy)]
pub struct Chunks<'a> {
    bytes: &'a [u8],
    size: usize,
}

impl std::fmt::Debug for Chunks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Chunks({} x {} bytes)", self.len(), self.size)
    }
}

impl<'a> Chunks<'a> {
    /// Runs of `size` bytes; `bytes` holds a whole number of them.
    pub fn new(bytes: &'a [u8], size: usize) -> Self {
        debug_assert!(
            size == 0 && bytes.is_empty() || size != 0 && bytes.len().is_multiple_of(size)
        );
        Chunks { bytes, size }
    }

    /// The size of each run.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many runs.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len().checked_div(self.size).unwrap_or(0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let at = i.checked_mul(self.size)?;
        self.bytes.get(at..at.checked_add(self.size)?)
    }

    /// The runs in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + 'a {
        let n = self.len();
        let size = self.size.max(1);
        self.bytes[..n * self.size].chunks_exact(size).take(n)
    }

    /// The runs copied out.
    pub fn to_vec(&self) -> Vec<Vec<u8>> {
        self.iter().map(<[u8]>::to_vec).collect()
    }

    /// The bytes the runs occupy in the input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}
