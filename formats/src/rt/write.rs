//! Writing primitives for generated code. Writers recompute what they can (counts and sizes
//! that are plain fields) and refuse what they cannot, so a written file always reads back.

use super::error::{Error, ErrorKind, Result};
use super::read::pos;
use binrw::io::{Seek, SeekFrom, Write};
use binrw::{BinWrite, Endian};

/// Writes a fixed-size primitive.
#[inline]
pub fn prim<T, W>(w: &mut W, endian: Endian, v: &T) -> Result<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    v.write_options(w, endian, ()).map_err(|e| {
        let at = w.stream_position().unwrap_or(0);
        Error::from_binrw(e, at)
    })
}

/// Writes raw bytes.
pub fn bytes<W: Write + Seek>(w: &mut W, b: &[u8]) -> Result<()> {
    w.write_all(b).map_err(|e| {
        let at = w.stream_position().unwrap_or(0);
        Error::io(at, &e)
    })
}

/// Writes numbers as one block.
pub fn prims<T: super::pod::Pod, W: Write + Seek>(
    w: &mut W,
    endian: Endian,
    v: &[T],
) -> Result<()> {
    let mut raw = vec![0u8; v.len() * T::SIZE];
    for (x, out) in v.iter().zip(raw.chunks_exact_mut(T::SIZE)) {
        x.put(endian, out);
    }
    bytes(w, &raw)
}

/// Writes values of a block type in one go.
pub fn blocks<T: super::pod::Block, W: Write + Seek>(w: &mut W, v: &[T]) -> Result<()> {
    let at = pos(w)?;
    let mut raw = vec![0u8; v.len() * T::SIZE];
    for (i, (x, out)) in v.iter().zip(raw.chunks_exact_mut(T::SIZE)).enumerate() {
        x.encode(out, at + (i * T::SIZE) as u64)
            .map_err(|e| e.at_index(i))?;
    }
    bytes(w, &raw)
}

/// Converts a recomputed count or size into its field's type.
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

/// A sink that only counts: used to learn a part's size before writing its length.
#[derive(Debug, Default)]
pub struct Counter {
    pos: u64,
    len: u64,
}

impl Counter {
    /// Bytes written so far (the furthest position reached).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pos += buf.len() as u64;
        self.len = self.len.max(self.pos);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for Counter {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let new = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
        };
        self.pos = new.ok_or_else(|| std::io::Error::other("seek before the start"))?;
        Ok(self.pos)
    }
}

/// The number of bytes `write` produces.
pub fn measure<F>(write: F) -> Result<u64>
where
    F: FnOnce(&mut Counter) -> Result<()>,
{
    let mut c = Counter::default();
    write(&mut c)?;
    Ok(c.len())
}

/// The size of a part whose length field comes before it, learnt by writing the part to a
/// [`Counter`]. A part that cannot be written measures 0: writing the part itself then fails
/// with the error at its real offset and under its own path (not the length field's).
pub fn measure_part<F>(write: F) -> u64
where
    F: FnOnce(&mut Counter) -> Result<()>,
{
    measure(write).unwrap_or(0)
}

/// Writes a part that the layout gives `size` bytes, checking it fills them exactly.
pub fn sized<W, F>(w: &mut W, size: u64, write: F) -> Result<()>
where
    W: Write + Seek,
    F: FnOnce(&mut W) -> Result<()>,
{
    let start = pos(w)?;
    write(w)?;
    let used = pos(w)? - start;
    if used != size {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            start,
            format!("a part of {size} bytes"),
            format!("{used} bytes"),
        ));
    }
    Ok(())
}

/// Writes a whole layout into a new buffer.
pub fn to_vec<F>(root: &'static str, write: F) -> Result<Vec<u8>>
where
    F: FnOnce(&mut binrw::io::Cursor<Vec<u8>>) -> Result<()>,
{
    let mut w = binrw::io::Cursor::new(Vec::new());
    write(&mut w).map_err(|e| e.rooted(root))?;
    Ok(w.into_inner())
}

/// Runs the writer of element `index` of a repeated field, adding the index to errors.
#[inline]
pub fn elem(index: usize, f: impl FnOnce() -> Result<()>) -> Result<()> {
    f().map_err(|e| e.at_index(index))
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

/// Writes a part that the layout gives `size` bytes in a stream of its own, so that positions
/// inside it (`_io.pos`) count from its start, as they do when the part is read
/// ([`super::read::sized`]); the part must fill its size exactly. Errors are moved to offsets
/// in the outer stream.
pub fn substream<W, F>(w: &mut W, size: u64, write: F) -> Result<()>
where
    W: Write + Seek,
    F: FnOnce(&mut binrw::io::Cursor<Vec<u8>>) -> Result<()>,
{
    let start = pos(w)?;
    let mut sub = binrw::io::Cursor::new(Vec::new());
    write(&mut sub).map_err(|e| e.shifted(start))?;
    let part = sub.into_inner();
    if part.len() as u64 != size {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            start,
            format!("a part of {size} bytes"),
            format!("{} bytes", part.len()),
        ));
    }
    bytes(w, &part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_measures_without_storing() {
        let n = measure(|w| {
            bytes(w, &[0; 10])?;
            prim(w, Endian::Little, &7u32)
        })
        .unwrap();
        assert_eq!(n, 14);
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
