//! The writer's side: a growing buffer whose length is the position. Writers recompute what
//! they can (counts and sizes that are plain fields) and refuse what they cannot, so a written
//! file always reads back.

use super::error::{Error, ErrorKind, Result};
use super::input::{check_offset, plural};
use super::pod::{Block, Pod};
use binrw::Endian;

/// The bytes written so far.
#[derive(Debug, Default)]
pub struct Output {
    buf: Vec<u8>,
    /// How many nested values of recursive types are being written.
    depth: u32,
    /// Where the part being written starts (`_io.pos` counts from here).
    base: usize,
}

impl Output {
    /// An empty output with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Output {
            buf: Vec::with_capacity(n),
            depth: 0,
            base: 0,
        }
    }

    /// The offset of the next byte.
    #[inline]
    pub fn pos(&self) -> u64 {
        self.buf.len() as u64
    }

    /// The position counted from the start of the part being written (the spec's `_io.pos`).
    #[inline]
    pub fn io_pos(&self) -> u64 {
        (self.buf.len() - self.base) as u64
    }

    /// Writes a number.
    #[inline]
    pub fn prim<T: Pod>(&mut self, endian: Endian, v: T) {
        let at = self.buf.len();
        self.buf.resize(at + T::SIZE, 0);
        v.put(endian, &mut self.buf[at..]);
    }

    /// Writes raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Writes `n` zero bytes.
    #[inline]
    pub fn zeros(&mut self, n: u64) {
        let n = usize::try_from(n).expect("a pad shorter than its literal modulus");
        self.buf.resize(self.buf.len() + n, 0);
    }

    /// Writes numbers as one block.
    pub fn prims<T: Pod>(&mut self, endian: Endian, v: &[T]) {
        // Stored in the machine's byte order, the values are their bytes in memory.
        if endian == super::pod::NATIVE {
            self.buf.extend_from_slice(T::as_bytes(v));
            return;
        }
        let at = self.buf.len();
        self.buf.resize(at + v.len() * T::SIZE, 0);
        for (x, out) in v.iter().zip(self.buf[at..].chunks_exact_mut(T::SIZE)) {
            x.put(endian, out);
        }
    }

    /// Writes values of a block type as one block.
    pub fn blocks<T: Block>(&mut self, v: &[T]) -> Result<()> {
        let at = self.buf.len();
        self.buf.resize(at + v.len() * T::SIZE, 0);
        for (i, (x, out)) in v
            .iter()
            .zip(self.buf[at..].chunks_exact_mut(T::SIZE))
            .enumerate()
        {
            x.encode(out, (at + i * T::SIZE) as u64)
                .map_err(|e| e.at_index(i))?;
        }
        Ok(())
    }

    /// Leaves room for a number written later with [`Output::patch`] (a size that is known
    /// only once the part it measures is written).
    pub fn hole<T: Pod>(&mut self) -> u64 {
        let at = self.pos();
        self.buf.resize(self.buf.len() + T::SIZE, 0);
        at
    }

    /// Fills a hole left by [`Output::hole`].
    pub fn patch<T: Pod>(&mut self, at: u64, endian: Endian, v: T) {
        let at = at as usize;
        v.put(endian, &mut self.buf[at..at + T::SIZE]);
    }

    /// Writes a part that the layout gives `size` bytes, checking it fills them exactly.
    pub fn sized(&mut self, size: u64, write: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let start = self.pos();
        let outer = std::mem::replace(&mut self.base, self.buf.len());
        let done = write(self);
        self.base = outer;
        done?;
        let used = self.pos() - start;
        if used != size {
            return Err(Error::new(
                ErrorKind::Inconsistent,
                start,
                format!("a part of {}", plural(size, "byte")),
                plural(used, "byte"),
            ));
        }
        Ok(())
    }

    /// Writes a part whose size is recomputed from what it holds: positions inside it (`_io.pos`)
    /// count from its start, as they do when it is read.
    pub fn part<T>(&mut self, write: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let outer = std::mem::replace(&mut self.base, self.buf.len());
        let done = write(self);
        self.base = outer;
        done
    }

    /// Writes one nested value of a recursive type with `inner`, refusing (at `offset`) to go
    /// deeper than the reader would read ([`super::input::MAX_NESTING`]).
    pub fn nested<T>(
        &mut self,
        offset: u64,
        inner: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        use super::input::MAX_NESTING;
        if self.depth >= MAX_NESTING {
            return Err(Error::new(
                ErrorKind::Count,
                offset,
                format!("at most {MAX_NESTING} levels of nested values (a recursive type)"),
                "a value nested deeper",
            ));
        }
        self.depth += 1;
        let v = inner(self);
        self.depth -= 1;
        v
    }

    /// Checks that a field starts where the spec documents it.
    #[inline]
    pub fn offset(&self, start: u64, expected: i128, expr: &str) -> Result<()> {
        check_offset(self.pos(), start, expected, expr)
    }

    /// The bytes.
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }
}

/// Converts a recomputed count or size into its field's type.
#[inline]
pub fn fit<T: TryFrom<u64>>(offset: u64, value: u64, ty: &str, max: u128) -> Result<T> {
    T::try_from(value).map_err(|_| {
        Error::new(
            ErrorKind::Count,
            offset,
            format!("at most {max} (the largest {ty})"),
            value.to_string(),
        )
    })
}

/// Converts a derived value (a spec expression) into its field's type.
pub fn fit_i<T: TryFrom<i128>>(offset: u64, value: i128, ty: &str, max: u128) -> Result<T> {
    T::try_from(value).map_err(|_| {
        Error::new(
            ErrorKind::Count,
            offset,
            format!("0 to {max} (the range of {ty})"),
            value.to_string(),
        )
    })
}

/// Checks that a part of a type holds as many elements (or bytes) as an expression of other
/// fields says, since such an expression cannot be recomputed from the part alone.
pub fn agree(offset: u64, actual: u64, expected: i128, expr: &str, unit: &str) -> Result<()> {
    if i128::from(actual) != expected {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("{expected} {unit} ({expr})"),
            format!("{actual} {unit}"),
        ));
    }
    Ok(())
}

/// The error for a value too wide for its bit field.
pub fn too_wide(offset: u64, value: i128, bits: u32) -> Error {
    Error::new(
        ErrorKind::Count,
        offset,
        format!("at most {} (b{bits})", (1u128 << bits) - 1),
        value.to_string(),
    )
}

/// The error for an optional field whose presence disagrees with its condition.
pub fn presence(offset: u64, cond: &str, want: bool) -> Error {
    if want {
        Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("a value, because `{cond}`"),
            "none",
        )
    } else {
        Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("no value, because not `{cond}`"),
            "a value",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_patched_in_place() {
        let mut o = Output::default();
        let at = o.hole::<u16>();
        o.bytes(&[1, 2, 3]);
        o.patch::<u16>(at, Endian::Little, 3);
        assert_eq!(o.into_vec(), vec![3, 0, 1, 2, 3]);
    }

    #[test]
    fn fit_refuses_counts_past_the_field() {
        let e = fit::<u16>(0, 70_000, "u2", u16::MAX.into()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "0x0 (input): expected at most 65535 (the largest u2), found 70000"
        );
    }
}
