//! Reading primitives for generated code: every read knows its offset, and nothing is allocated
//! from a count before the count is checked against the bytes that are left.

use super::error::{Error, ErrorKind, Result};
use binrw::io::{Read, Seek, SeekFrom};
use binrw::{BinRead, Endian};

/// The current position of `r`.
pub fn pos<R: Seek>(r: &mut R) -> Result<u64> {
    r.stream_position().map_err(|e| Error::io(0, &e))
}

/// How many bytes are left in `r` (it must be seekable to its end, as every input here is).
pub fn remaining<R: Seek>(r: &mut R) -> Result<u64> {
    let here = pos(r)?;
    let end = r.seek(SeekFrom::End(0)).map_err(|e| Error::io(here, &e))?;
    r.seek(SeekFrom::Start(here))
        .map_err(|e| Error::io(here, &e))?;
    Ok(end.saturating_sub(here))
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The error for a field of `need` bytes that starts `left` bytes before the end of the input.
pub fn eof(offset: u64, ty: &str, need: u64, left: u64) -> Error {
    Error::new(
        ErrorKind::Eof,
        offset,
        format!("{ty} ({})", plural(need, "byte")),
        format!("end of input after {}", plural(left, "byte")),
    )
}

/// Reads a fixed-size primitive (`ty` is its spec name, for errors).
#[inline]
pub fn prim<T, R>(r: &mut R, endian: Endian, ty: &str) -> Result<T>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let at = pos(r)?;
    match T::read_options(r, endian, ()) {
        Ok(v) => Ok(v),
        Err(e) => {
            let need = std::mem::size_of::<T>() as u64;
            let left = remaining_from(r, at);
            // binrw leaves the stream where it stopped; put it back where the field starts.
            let _ = r.seek(SeekFrom::Start(at));
            if left < need {
                Err(eof(at, ty, need, left))
            } else {
                Err(Error::from_binrw(e, at))
            }
        }
    }
}

fn remaining_from<R: Seek>(r: &mut R, at: u64) -> u64 {
    match r.seek(SeekFrom::End(0)) {
        Ok(end) => end.saturating_sub(at),
        Err(_) => 0,
    }
}

/// Reads `n` raw bytes, refusing before allocating when fewer are left.
pub fn bytes<R: Read + Seek>(r: &mut R, n: u64) -> Result<Vec<u8>> {
    let at = pos(r)?;
    let left = remaining(r)?;
    if n > left {
        return Err(eof(at, "bytes", n, left));
    }
    let mut buf = vec![0u8; n as usize];
    r.read_exact(&mut buf).map_err(|e| Error::io(at, &e))?;
    Ok(buf)
}

/// Reads the bytes up to the end of the input.
pub fn bytes_eos<R: Read + Seek>(r: &mut R) -> Result<Vec<u8>> {
    let n = remaining(r)?;
    bytes(r, n)
}

/// Reads `n` bytes of text in `encoding` (only UTF-8 and ASCII are in the spec subset).
pub fn text<R: Read + Seek>(r: &mut R, n: u64, encoding: &str) -> Result<String> {
    let at = pos(r)?;
    let raw = bytes(r, n)?;
    let ascii_ok = !encoding.eq_ignore_ascii_case("ascii") || raw.is_ascii();
    match String::from_utf8(raw) {
        Ok(s) if ascii_ok => Ok(s),
        Ok(_) => Err(Error::new(
            ErrorKind::Encoding,
            at,
            "ASCII text",
            "bytes above 0x7F",
        )),
        Err(e) => Err(Error::new(
            ErrorKind::Encoding,
            at + e.utf8_error().valid_up_to() as u64,
            format!("{encoding} text"),
            "a byte sequence that is not valid UTF-8",
        )),
    }
}

/// Turns an expression value into a count or a size, refusing negative values.
pub fn count(offset: u64, value: i128, what: &str) -> Result<u64> {
    u64::try_from(value).map_err(|_| {
        Error::new(
            ErrorKind::Count,
            offset,
            format!("a non-negative {what}"),
            value.to_string(),
        )
    })
}

/// Reads `count` elements with `elem`, after checking that `count` elements of at least
/// `min_size` bytes each fit in what is left. Element errors gain their index.
pub fn seq<T, R, F>(r: &mut R, count: u64, min_size: u64, mut elem: F) -> Result<Vec<T>>
where
    R: Read + Seek,
    F: FnMut(&mut R, usize) -> Result<T>,
{
    let at = pos(r)?;
    let left = remaining(r)?;
    // Elements that can be empty still count one byte each, so a count is never unbounded.
    let per = min_size.max(1);
    if count.saturating_mul(per) > left {
        return Err(Error::new(
            ErrorKind::Count,
            at,
            format!(
                "at most {} elements ({} left, {} each at least)",
                left / per,
                plural(left, "byte"),
                plural(min_size, "byte")
            ),
            format!("{count} elements"),
        ));
    }
    // `count` is bounded by the input's length, so this allocation is too.
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        out.push(elem(r, i).map_err(|e| e.at_index(i))?);
    }
    Ok(out)
}

/// Reads `count` numbers as one block (the fast path for lists of numbers), after the same
/// check as [`seq`].
pub fn prims<T: super::pod::Pod, R: Read + Seek>(
    r: &mut R,
    count: u64,
    endian: Endian,
) -> Result<Vec<T>> {
    let at = pos(r)?;
    let raw = block_bytes(r, at, count, T::SIZE as u64)?;
    Ok(raw
        .chunks_exact(T::SIZE)
        .map(|c| T::from_slice(c, endian))
        .collect())
}

/// Reads `count` values of a block type in one go, after the same check as [`seq`].
pub fn blocks<T: super::pod::Block, R: Read + Seek>(r: &mut R, count: u64) -> Result<Vec<T>> {
    let at = pos(r)?;
    let raw = block_bytes(r, at, count, T::SIZE as u64)?;
    let mut out = Vec::with_capacity(count as usize);
    for (i, c) in raw.chunks_exact(T::SIZE).enumerate() {
        out.push(T::decode(c, at + (i * T::SIZE) as u64).map_err(|e| e.at_index(i))?);
    }
    Ok(out)
}

/// The bytes of `count` elements of `size` bytes each, refused (before allocating) when fewer
/// are left, with the same message as [`seq`].
fn block_bytes<R: Read + Seek>(r: &mut R, at: u64, count: u64, size: u64) -> Result<Vec<u8>> {
    let left = remaining(r)?;
    let need = count.saturating_mul(size);
    if need > left {
        return Err(Error::new(
            ErrorKind::Count,
            at,
            format!(
                "at most {} elements ({} left, {} each at least)",
                left / size.max(1),
                plural(left, "byte"),
                plural(size, "byte")
            ),
            format!("{count} elements"),
        ));
    }
    let mut raw = vec![0u8; need as usize];
    r.read_exact(&mut raw).map_err(|e| Error::io(at, &e))?;
    Ok(raw)
}

/// Moves back to `to` (after a fast path found too few bytes).
pub fn seek<R: Seek>(r: &mut R, to: u64) -> Result<()> {
    r.seek(SeekFrom::Start(to))
        .map(|_| ())
        .map_err(|e| Error::io(to, &e))
}

/// Reads elements until the input ends. An element that consumes nothing ends the loop with an
/// error rather than spinning.
pub fn seq_eos<T, R, F>(r: &mut R, mut elem: F) -> Result<Vec<T>>
where
    R: Read + Seek,
    F: FnMut(&mut R, usize) -> Result<T>,
{
    let mut out = Vec::new();
    while remaining(r)? > 0 {
        let at = pos(r)?;
        let i = out.len();
        out.push(elem(r, i).map_err(|e| e.at_index(i))?);
        if pos(r)? == at {
            return Err(Error::new(
                ErrorKind::Count,
                at,
                "an element that consumes input",
                "one that consumes nothing",
            )
            .at_index(i));
        }
    }
    Ok(out)
}

/// Reads a part of exactly `size` bytes with `inner`, which sees a stream of just those bytes.
/// The part must consume them all: left-over bytes would be lost on writing.
pub fn sized<T, R, F>(r: &mut R, size: u64, inner: F) -> Result<T>
where
    R: Read + Seek,
    F: FnOnce(&mut binrw::io::Cursor<&[u8]>) -> Result<T>,
{
    let base = pos(r)?;
    let buf = bytes(r, size)?;
    let mut sub = binrw::io::Cursor::new(buf.as_slice());
    let v = inner(&mut sub).map_err(|e| e.shifted(base))?;
    let used = sub.position();
    if used != size {
        return Err(Error::new(
            ErrorKind::Trailing,
            base + used,
            format!("the part to fill its {}", plural(size, "byte")),
            format!("{} left unread", plural(size - used, "byte")),
        ));
    }
    Ok(v)
}

/// How deep values of recursive types (a SubMesh that holds its copy) may nest: each boxed
/// field read counts one level. Far above what any documented layout needs, far below what
/// would exhaust a thread's stack or a dump's JSON nesting limit.
pub const MAX_NESTING: u32 = 32;

thread_local! {
    static NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Reads one nested value of a recursive type with `inner`, refusing (at `offset`) to go
/// deeper than [`MAX_NESTING`] levels.
pub fn nested<T, F>(offset: u64, inner: F) -> Result<T>
where
    F: FnOnce() -> Result<T>,
{
    struct Restore(u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            NESTING.with(|n| n.set(self.0));
        }
    }
    let depth = NESTING.with(|n| n.get());
    if depth >= MAX_NESTING {
        return Err(Error::new(
            ErrorKind::Count,
            offset,
            format!("at most {MAX_NESTING} levels of nested values (a recursive type)"),
            "a value nested deeper",
        ));
    }
    NESTING.with(|n| n.set(depth + 1));
    let _restore = Restore(depth);
    inner()
}

/// Checks that a field starts where the spec documents it (`expected` is relative to `start`).
pub fn offset<R: Seek>(r: &mut R, start: u64, expected: i128, expr: &str) -> Result<()> {
    let at = pos(r)?;
    let rel = i128::from(at - start);
    if rel != expected {
        return Err(Error::new(
            ErrorKind::Offset,
            at,
            format!("the field at offset {} ({expr})", hex_i(expected)),
            format!("it at offset {}", hex_i(rel)),
        ));
    }
    Ok(())
}

pub(crate) fn hex_i(v: i128) -> String {
    if v < 0 {
        format!("-0x{:X}", v.unsigned_abs())
    } else {
        format!("0x{v:X}")
    }
}

/// Reads a whole layout from `input` and checks it consumed every byte.
pub fn exact<T, F>(input: &[u8], root: &'static str, read: F) -> Result<T>
where
    F: FnOnce(&mut binrw::io::Cursor<&[u8]>) -> Result<T>,
{
    let mut r = binrw::io::Cursor::new(input);
    let v = read(&mut r).map_err(|e| e.rooted(root))?;
    let end = r.position();
    let len = input.len() as u64;
    if end != len {
        return Err(Error::new(
            ErrorKind::Trailing,
            end,
            "end of input",
            format!("{} more", plural(len - end, "byte")),
        )
        .rooted(root));
    }
    Ok(v)
}

/// Reads a `contents` magic: the bytes must be exactly `expected`.
pub fn magic<R: Read + Seek>(r: &mut R, expected: &[u8]) -> Result<()> {
    let at = pos(r)?;
    let left = remaining(r)?;
    let show = |b: &[u8]| {
        b.iter()
            .map(|x| format!("{x:02X}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if left < expected.len() as u64 {
        let got = bytes(r, left)?;
        return Err(Error::new(
            ErrorKind::Magic,
            at,
            show(expected),
            format!("{} and the end of input", show(&got)),
        ));
    }
    let got = bytes(r, expected.len() as u64)?;
    if got != expected {
        return Err(Error::new(ErrorKind::Magic, at, show(expected), show(&got)));
    }
    Ok(())
}

/// The value of a conditional field that an expression reads: present, or an error at
/// `offset` (the start of the value being read or written) naming the field. Kaitai's own
/// generated code fails on the missing value too; specs guard such reads with the field's own
/// condition (`c ? f : 0`).
pub fn present<'a, T>(value: Option<&'a T>, offset: u64, field: &str) -> Result<&'a T> {
    value.ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid,
            offset,
            format!("`{field}` to be present where an expression reads it"),
            "no value (its `if` does not hold)",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::io::Cursor;

    #[test]
    fn eof_names_the_field_start_and_what_was_left() {
        let mut r = Cursor::new(&[1u8, 2, 3][..]);
        let _: u16 = prim(&mut r, Endian::Little, "u2").unwrap();
        let e = prim::<u16, _>(&mut r, Endian::Little, "u2").unwrap_err();
        assert_eq!(e.offset, Some(2));
        assert_eq!(e.kind, ErrorKind::Eof);
        assert_eq!(e.expected, "u2 (2 bytes)");
        assert_eq!(e.found, "end of input after 1 byte");
    }

    #[test]
    fn a_count_past_the_input_is_refused_before_allocating() {
        // 56 bytes that ask for 3.6 billion elements: the binrw trap this module exists for.
        let data = [0u8; 56];
        let mut r = Cursor::new(&data[..]);
        let e = seq(&mut r, 0xD7D7_4102, 1, |r, _| {
            prim::<u8, _>(r, Endian::Little, "u1")
        })
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count);
        assert_eq!(e.found, "3621208322 elements");
    }

    #[test]
    fn sized_parts_must_be_consumed() {
        let data = [1u8, 0, 0, 0, 9];
        let mut r = Cursor::new(&data[..]);
        let e = sized(&mut r, 5, |r| prim::<u32, _>(r, Endian::Little, "u4")).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Trailing, Some(4)));
    }
}
