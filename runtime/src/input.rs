//! The reader's side of a byte slice: every read knows its absolute offset, nothing is
//! allocated from a count before the count is checked against the bytes left, and what is read
//! is borrowed from the input (views), never copied.

use super::error::{Error, ErrorKind, Result};
use super::pod::{Block, Pod};
use super::view::{Blocks, Chunks, Nums};
use binrw::Endian;

/// How deep values of recursive types (a SubMesh that holds its copy) may nest: each boxed
/// field read counts one level. Far above what any documented layout needs, far below what
/// would exhaust a thread's stack or a dump's JSON nesting limit.
pub const MAX_NESTING: u32 = 32;

/// A position in an input and the end of the part being read (the whole input, or a sized part
/// of it). Offsets are always absolute: an error inside a sized part names its place in the
/// input, not in the part. Cloned, it is a place to go back to (the type-tree reader tries a
/// form and returns when it is another).
#[derive(Debug, Clone)]
pub struct Input<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
    /// Where the part being read starts: `_io.pos` in the spec counts from here, as Kaitai's
    /// substreams do.
    base: usize,
    depth: u32,
    /// How deep [`Input::enter`] may go: [`MAX_NESTING`] unless the reader says otherwise.
    nesting: u32,
    warnings: Vec<Error>,
}

pub(crate) fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The error for a field of `need` bytes that starts `left` bytes before the end of the input.
#[cold]
pub fn eof(offset: u64, ty: &str, need: u64, left: u64) -> Error {
    Error::new(
        ErrorKind::Eof,
        offset,
        format!("{ty} ({})", plural(need, "byte")),
        format!("end of input after {}", plural(left, "byte")),
    )
}

/// Turns an expression value into a count or a size, refusing negative values.
#[inline]
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

#[cold]
fn too_many(at: u64, count: u64, left: u64, per: u64) -> Error {
    Error::new(
        ErrorKind::Count,
        at,
        format!(
            "at most {} elements ({} left, {} each at least)",
            left / per.max(1),
            plural(left, "byte"),
            plural(per, "byte")
        ),
        format!("{count} elements"),
    )
}

impl<'a> Input<'a> {
    /// Reading starts at the first byte of `data`, which is the whole input.
    pub fn new(data: &'a [u8]) -> Self {
        Input {
            data,
            pos: 0,
            end: data.len(),
            base: 0,
            depth: 0,
            nesting: MAX_NESTING,
            warnings: Vec::new(),
        }
    }

    /// The same input with another nesting limit, for a reader whose layout is data (a
    /// Unity type tree nests as deep as its levels say, not as a spec's recursive types).
    pub fn with_nesting(mut self, limit: u32) -> Self {
        self.nesting = limit;
        self
    }

    /// The absolute offset of the next byte.
    #[inline]
    pub fn pos(&self) -> u64 {
        self.pos as u64
    }

    /// The position counted from the start of the part being read (the spec's `_io.pos`).
    #[inline]
    pub fn io_pos(&self) -> u64 {
        (self.pos - self.base) as u64
    }

    /// The bytes this input reads (the whole input, or a decoded part), every offset an index
    /// into them.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The absolute offset where the part being read starts (`_io.pos` counts from here).
    pub fn base(&self) -> u64 {
        self.base as u64
    }

    /// `_io.size` in the spec: the size of the part being read (of the whole input outside
    /// any sized part).
    pub fn io_size(&self) -> u64 {
        (self.end - self.base) as u64
    }

    /// The next `n` bytes without consuming them (fewer at the end of the part).
    pub fn peek(&self, n: u64) -> &'a [u8] {
        let end = self.pos.saturating_add(n as usize).min(self.end);
        &self.data[self.pos..end]
    }

    /// The bytes left in the part being read.
    #[inline]
    pub fn left(&self) -> u64 {
        (self.end - self.pos) as u64
    }

    /// Whether the part being read is used up.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos == self.end
    }

    /// The next `n` bytes (`ty` names them for the error when fewer are left).
    #[inline]
    pub fn take(&mut self, n: u64, ty: &str) -> Result<&'a [u8]> {
        if n > self.left() {
            return Err(eof(self.pos(), ty, n, self.left()));
        }
        let s = &self.data[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }

    /// The bytes up to the end of the part being read.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = &self.data[self.pos..self.end];
        self.pos = self.end;
        s
    }

    /// A fixed-size number (`ty` is its spec name, for errors).
    #[inline]
    pub fn prim<T: Pod>(&mut self, endian: Endian, ty: &str) -> Result<T> {
        let b = self.take(T::SIZE as u64, ty)?;
        Ok(T::from_slice(b, endian))
    }

    /// Text of `n` bytes in `encoding` (only UTF-8 and ASCII are in the spec subset).
    pub fn text(&mut self, n: u64, encoding: &str) -> Result<&'a str> {
        let at = self.pos();
        let raw = self.take(n, "text")?;
        text(raw, at, encoding)
    }

    /// Text up to the end of the part being read.
    pub fn text_eos(&mut self, encoding: &str) -> Result<&'a str> {
        let at = self.pos();
        let raw = self.rest();
        text(raw, at, encoding)
    }

    /// A `contents` magic: the bytes must be exactly `expected`.
    pub fn magic(&mut self, expected: &[u8]) -> Result<()> {
        let at = self.pos();
        let show = |b: &[u8]| {
            b.iter()
                .map(|x| format!("{x:02X}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if self.left() < expected.len() as u64 {
            let got = self.rest();
            return Err(Error::new(
                ErrorKind::Magic,
                at,
                show(expected),
                format!("{} and the end of input", show(got)),
            ));
        }
        let got = self.take(expected.len() as u64, "magic")?;
        if got != expected {
            return Err(Error::new(ErrorKind::Magic, at, show(expected), show(got)));
        }
        Ok(())
    }

    /// Checks that `count` elements of at least `min_size` bytes each fit in what is left, so
    /// the list they are read into can be sized by the count. Elements that can be empty count
    /// one byte each, so a count is never unbounded.
    #[inline]
    pub fn room(&self, count: u64, min_size: u64) -> Result<()> {
        let per = min_size.max(1);
        if count.saturating_mul(per) > self.left() {
            return Err(too_many(self.pos(), count, self.left(), min_size));
        }
        Ok(())
    }

    /// The bytes of `count` elements of `size` bytes each, refused (before anything is taken)
    /// when they do not fit in what is left; `ty` names them for the error. What the views
    /// below are made of, and the interpreter's views too.
    #[inline]
    pub fn run(&mut self, count: u64, size: u64, ty: &str) -> Result<&'a [u8]> {
        if count.saturating_mul(size) > self.left() {
            return Err(too_many(self.pos(), count, self.left(), size));
        }
        self.take(count * size, ty)
    }

    /// `count` numbers as a view over the input.
    #[inline]
    pub fn nums<T: Pod>(&mut self, count: u64, endian: Endian) -> Result<Nums<'a, T>> {
        let b = self.run(count, T::SIZE as u64, "numbers")?;
        Ok(Nums::new(b, endian))
    }

    /// `count` values of a block type as a view over the input; their `valid` checks run now,
    /// so reading an element later cannot fail.
    #[inline]
    pub fn blocks<T: Block + 'a>(&mut self, count: u64) -> Result<Blocks<'a, T>> {
        let at = self.pos();
        let b = self.run(count, T::SIZE as u64, "blocks")?;
        if T::CHECKED {
            for (i, c) in b.chunks_exact(T::SIZE).enumerate() {
                T::check(c, at + (i * T::SIZE) as u64).map_err(|e| e.at_index(i))?;
            }
        }
        Ok(Blocks::new(b))
    }

    /// `count` runs of `size` bytes each as a view over the input.
    #[inline]
    pub fn chunks(&mut self, count: u64, size: u64) -> Result<Chunks<'a>> {
        let b = self.run(count, size, "bytes")?;
        Ok(Chunks::new(b, size as usize))
    }

    /// Reads a part of exactly `size` bytes with `inner`, which sees only those bytes. The part
    /// must consume them all: left-over bytes would be lost on writing.
    pub fn sized<T>(&mut self, size: u64, inner: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if size > self.left() {
            return Err(eof(self.pos(), "part", size, self.left()));
        }
        let (outer, outer_base) = (self.end, self.base);
        self.end = self.pos + size as usize;
        self.base = self.pos;
        let v = inner(self);
        let rest = self.left();
        let stop = self.pos();
        self.end = outer;
        self.base = outer_base;
        let v = v?;
        if rest != 0 {
            return Err(Error::new(
                ErrorKind::Trailing,
                stop,
                format!("the part to fill its {}", plural(size, "byte")),
                format!("{} left unread", plural(rest, "byte")),
            ));
        }
        Ok(v)
    }

    /// Reads one nested value of a recursive type with `inner`, refusing (at `offset`) to go
    /// deeper than the nesting limit.
    pub fn nested<T>(
        &mut self,
        offset: u64,
        inner: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.enter(offset)?;
        let v = inner(self);
        self.leave();
        v
    }

    /// Goes one level deeper, refusing (at `offset`) past the nesting limit; each `enter`
    /// that succeeds is matched by one [`Input::leave`]. For readers whose recursion holds
    /// more than the input (the type-tree reader); the generated ones use [`Input::nested`].
    pub fn enter(&mut self, offset: u64) -> Result<()> {
        if self.depth >= self.nesting {
            return Err(Error::new(
                ErrorKind::Count,
                offset,
                format!("at most {} levels of nested values", self.nesting),
                "a value nested deeper",
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Comes back up the level the last [`Input::enter`] went down.
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Checks that a field starts where the spec documents it (`expected` is relative to
    /// `start`, the start of the enclosing type).
    #[inline]
    pub fn offset(&self, start: u64, expected: i128, expr: &str) -> Result<()> {
        check_offset(self.pos(), start, expected, expr)
    }

    /// Records a check that failed without refusing the input (a rule the documents do not
    /// call proven).
    pub fn warn(&mut self, e: Error) {
        self.warnings.push(e);
    }

    /// Ends reading: the whole input must have been consumed. Returns the warnings recorded.
    pub fn finish(self) -> Result<Vec<Error>> {
        if self.pos != self.data.len() {
            return Err(Error::new(
                ErrorKind::Trailing,
                self.pos(),
                "end of input",
                format!(
                    "{} more",
                    plural((self.data.len() - self.pos) as u64, "byte")
                ),
            ));
        }
        Ok(self.warnings)
    }
}

/// Checks that the field at `at` starts `expected` bytes after `start`, where the spec
/// documents it.
#[inline]
pub(crate) fn check_offset(at: u64, start: u64, expected: i128, expr: &str) -> Result<()> {
    let found = i128::from(at - start);
    if found != expected {
        return Err(misplaced(at, expected, found, expr));
    }
    Ok(())
}

#[cold]
fn misplaced(at: u64, expected: i128, found: i128, expr: &str) -> Error {
    Error::new(
        ErrorKind::Offset,
        at,
        format!("the field at offset {} ({expr})", hex_i(expected)),
        format!("it at offset {}", hex_i(found)),
    )
}

pub(crate) fn hex_i(v: i128) -> String {
    if v < 0 {
        format!("-0x{:X}", v.unsigned_abs())
    } else {
        format!("0x{v:X}")
    }
}

fn text<'a>(raw: &'a [u8], at: u64, encoding: &str) -> Result<&'a str> {
    let s = std::str::from_utf8(raw).map_err(|e| {
        Error::new(
            ErrorKind::Encoding,
            at + e.valid_up_to() as u64,
            format!("{encoding} text"),
            "a byte sequence that is not valid UTF-8",
        )
    })?;
    if encoding.eq_ignore_ascii_case("ascii") && !s.is_ascii() {
        return Err(Error::new(
            ErrorKind::Encoding,
            at,
            "ASCII text",
            "bytes above 0x7F",
        ));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eof_names_the_field_start_and_what_was_left() {
        let mut r = Input::new(&[1u8, 2, 3]);
        let _: u16 = r.prim(Endian::Little, "u2").unwrap();
        let e = r.prim::<u16>(Endian::Little, "u2").unwrap_err();
        assert_eq!(e.offset, Some(2));
        assert_eq!(e.kind, ErrorKind::Eof);
        assert_eq!(e.expected, "u2 (2 bytes)");
        assert_eq!(e.found, "end of input after 1 byte");
    }

    #[test]
    fn a_count_past_the_input_is_refused_before_allocating() {
        // 56 bytes that ask for 3.6 billion elements: the binrw trap this check exists for.
        let data = [0u8; 56];
        let r = Input::new(&data);
        let e = r.room(0xD7D7_4102, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count);
        assert_eq!(e.found, "3621208322 elements");
        let mut r = Input::new(&data);
        assert!(r.nums::<u32>(15, Endian::Little).is_err());
    }

    #[test]
    fn sized_parts_must_be_consumed_and_keep_absolute_offsets() {
        let data = [9u8, 1, 0, 0, 0, 9];
        let mut r = Input::new(&data);
        r.take(1, "x").unwrap();
        let e = r
            .sized(5, |r| r.prim::<u32>(Endian::Little, "u4"))
            .unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Trailing, Some(5)));
        let mut r = Input::new(&data);
        r.take(1, "x").unwrap();
        let e = r
            .sized(2, |r| r.prim::<u32>(Endian::Little, "u4"))
            .unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Eof, Some(1)));
        assert_eq!(
            r.pos(),
            1,
            "a failed part leaves the position where the error is"
        );
    }

    #[test]
    fn finish_refuses_trailing_bytes() {
        let mut r = Input::new(&[1u8, 2]);
        r.take(1, "x").unwrap();
        let e = r.finish().unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Trailing, Some(1)));
    }
}
