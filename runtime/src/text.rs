//! NUL-terminated text (`type: strz`): read up to the terminator, which is consumed and not
//! kept; written back with it. Reading borrows the text from the input.

use super::error::{Error, ErrorKind, Result};
use super::input::Input;
use super::output::Output;

impl<'a> Input<'a> {
    /// Text in `encoding` (UTF-8 or ASCII) up to a NUL byte, which is consumed.
    pub fn strz(&mut self, encoding: &str) -> Result<&'a str> {
        let at = self.pos();
        let left = self.left();
        let rest = self.peek(left);
        let Some(n) = rest.iter().position(|&b| b == 0) else {
            return Err(missing_terminator(at, left));
        };
        let raw = self.take(n as u64 + 1, "text")?;
        decode(&raw[..n], at, encoding)
    }
}

impl Output {
    /// Writes `text` and its NUL terminator; text that holds a NUL itself would read back
    /// shorter, so it is refused.
    pub fn strz(&mut self, text: &str) -> Result<()> {
        if let Some(i) = text.bytes().position(|b| b == 0) {
            return Err(Error::new(
                ErrorKind::Inconsistent,
                self.pos(),
                "text without a NUL byte (NUL ends it)",
                format!("a NUL at byte {i}"),
            ));
        }
        self.bytes(text.as_bytes());
        self.bytes(&[0]);
        Ok(())
    }
}

fn decode<'a>(raw: &'a [u8], at: u64, encoding: &str) -> Result<&'a str> {
    if encoding.eq_ignore_ascii_case("ascii") {
        if let Some(i) = raw.iter().position(|b| !b.is_ascii()) {
            return Err(Error::new(
                ErrorKind::Encoding,
                at + i as u64,
                "ASCII text",
                format!("byte 0x{:02X}", raw[i]),
            ));
        }
    }
    std::str::from_utf8(raw).map_err(|e| {
        Error::new(
            ErrorKind::Encoding,
            at + e.valid_up_to() as u64,
            format!("{encoding} text"),
            "a byte sequence that is not valid UTF-8",
        )
    })
}

/// The error for text at `offset` with no NUL in the `scanned` bytes after it: for callers that
/// read NUL-terminated text from a slice by hand.
pub fn missing_terminator(offset: u64, scanned: u64) -> Error {
    Error::new(
        ErrorKind::Eof,
        offset,
        "text ended by a NUL byte",
        format!("end of input after {scanned} bytes without one"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_ends_at_the_terminator_which_is_consumed() {
        let data = b"UnityFS\0\x00\x00\x00\x07";
        let mut r = Input::new(&data[..]);
        assert_eq!(r.strz("UTF-8").unwrap(), "UnityFS");
        assert_eq!(r.pos(), 8);
    }

    #[test]
    fn missing_terminators_and_bad_text_are_refused_with_their_offset() {
        let mut r = Input::new(&b"\x01\x02abc"[..]);
        r.take(2, "x").unwrap();
        let e = r.strz("UTF-8").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Eof, Some(2)));
        assert_eq!(e.found, "end of input after 3 bytes without one");
        let e = Input::new(&b"ab\xFFc\0"[..]).strz("UTF-8").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Encoding, Some(2)));
        let e = Input::new(&b"ab\xC3\xA9\0"[..]).strz("ASCII").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Encoding, Some(2)));
    }

    #[test]
    fn writing_adds_the_terminator_and_refuses_an_inner_nul() {
        let mut w = Output::default();
        w.strz("5.x.x").unwrap();
        assert_eq!(w.into_vec(), b"5.x.x\0");
        let e = Output::default().strz("a\0b").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent);
    }
}
