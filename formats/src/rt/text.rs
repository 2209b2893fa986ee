//! NUL-terminated text (`type: strz`): read up to the terminator, which is consumed and not
//! kept; written back with it. Reading scans what is there and never allocates more than the
//! input holds.

use super::error::{Error, ErrorKind, Result};
use super::read::{pos, remaining};
use binrw::io::{Read, Seek, SeekFrom, Write};

/// How many bytes are looked at per read while searching for the terminator.
const CHUNK: usize = 256;

/// Reads text in `encoding` (UTF-8 or ASCII) up to a NUL byte, which is consumed.
pub fn strz<R: Read + Seek>(r: &mut R, encoding: &str) -> Result<String> {
    let at = pos(r)?;
    let left = remaining(r)?;
    let mut raw: Vec<u8> = Vec::new();
    let mut buf = [0u8; CHUNK];
    loop {
        let want = (left - raw.len() as u64).min(CHUNK as u64) as usize;
        if want == 0 {
            return Err(missing_terminator(at, raw.len() as u64));
        }
        r.read_exact(&mut buf[..want])
            .map_err(|e| Error::io(at + raw.len() as u64, &e))?;
        if let Some(i) = buf[..want].iter().position(|&b| b == 0) {
            raw.extend_from_slice(&buf[..i]);
            // Put the stream just past the terminator.
            let after = at + raw.len() as u64 + 1;
            r.seek(SeekFrom::Start(after))
                .map_err(|e| Error::io(after, &e))?;
            break;
        }
        raw.extend_from_slice(&buf[..want]);
    }
    decode(raw, at, encoding)
}

fn decode(raw: Vec<u8>, at: u64, encoding: &str) -> Result<String> {
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
    String::from_utf8(raw).map_err(|e| {
        Error::new(
            ErrorKind::Encoding,
            at + e.utf8_error().valid_up_to() as u64,
            format!("{encoding} text"),
            "a byte sequence that is not valid UTF-8",
        )
    })
}

/// Writes `text` and its NUL terminator; text that holds a NUL itself would read back
/// shorter, so it is refused.
pub fn write_strz<W: Write + Seek>(w: &mut W, text: &str) -> Result<()> {
    let at = pos(w)?;
    if let Some(i) = text.bytes().position(|b| b == 0) {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            at,
            "text without a NUL byte (NUL ends it)",
            format!("a NUL at byte {i}"),
        ));
    }
    super::write::bytes(w, text.as_bytes())?;
    super::write::bytes(w, &[0])
}

/// The error [`strz`] gives for text at `offset` with no NUL in the `scanned` bytes after it:
/// for callers that read NUL-terminated text from a slice by hand.
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
    use binrw::io::Cursor;

    #[test]
    fn text_ends_at_the_terminator_which_is_consumed() {
        let data = b"UnityFS\0\x00\x00\x00\x07";
        let mut r = Cursor::new(&data[..]);
        assert_eq!(strz(&mut r, "UTF-8").unwrap(), "UnityFS");
        assert_eq!(r.position(), 8);
        // Longer than one chunk.
        let long: Vec<u8> = std::iter::repeat_n(b'a', 600).chain([0, 1]).collect();
        let mut r = Cursor::new(&long[..]);
        assert_eq!(strz(&mut r, "ASCII").unwrap().len(), 600);
        assert_eq!(r.position(), 601);
    }

    #[test]
    fn missing_terminators_and_bad_text_are_refused_with_their_offset() {
        let mut r = Cursor::new(&b"\x01\x02abc"[..]);
        r.set_position(2);
        let e = strz(&mut r, "UTF-8").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Eof, Some(2)));
        assert_eq!(e.found, "end of input after 3 bytes without one");
        let mut r = Cursor::new(&b"ab\xFFc\0"[..]);
        let e = strz(&mut r, "UTF-8").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Encoding, Some(2)));
        let mut r = Cursor::new(&b"ab\xC3\xA9\0"[..]);
        let e = strz(&mut r, "ASCII").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Encoding, Some(2)));
    }

    #[test]
    fn writing_adds_the_terminator_and_refuses_an_inner_nul() {
        let mut w = Cursor::new(Vec::new());
        write_strz(&mut w, "5.x.x").unwrap();
        assert_eq!(w.into_inner(), b"5.x.x\0");
        let mut w = Cursor::new(Vec::new());
        let e = write_strz(&mut w, "a\0b").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent);
    }
}
