//! Text in the encodings Kaitai names (`UTF-8`, `ASCII`, `UTF-16LE`, `Shift_JIS`, ...), decoded
//! by `encoding_rs` where it knows the label; ISO-8859-1 (which the web's labels take as
//! windows-1252) and UTF-32 by their definitions.

use std::borrow::Cow;

/// `raw` decoded as `encoding`, or why not (an unknown encoding, bytes it does not map).
pub(crate) fn decode<'a>(raw: &'a [u8], encoding: &str) -> Result<Cow<'a, str>, String> {
    let label = encoding.trim();
    let upper = label.to_ascii_uppercase().replace('_', "-");
    match upper.as_str() {
        "ASCII" | "US-ASCII" => {
            return match raw.iter().position(|b| !b.is_ascii()) {
                None => Ok(Cow::Borrowed(std::str::from_utf8(raw).unwrap_or_default())),
                Some(i) => Err(format!("byte 0x{:02X} at {i} is not ASCII", raw[i])),
            }
        }
        "ISO-8859-1" | "ISO8859-1" | "LATIN1" => {
            return Ok(Cow::Owned(raw.iter().map(|&b| char::from(b)).collect()))
        }
        // IBM PC's code page 437 (DOS text, Kaitai's `IBM437`/`cp437`).
        "IBM437" | "CP437" | "IBM-437" | "437" => {
            return Ok(Cow::Owned(
                raw.iter()
                    .map(|&b| match b {
                        0..=0x7F => char::from(b),
                        _ => CP437_HIGH.chars().nth(usize::from(b - 0x80)).unwrap_or('?'),
                    })
                    .collect(),
            ))
        }
        "UTF-32LE" | "UTF-32BE" => {
            let mut out = String::new();
            for c in raw.chunks(4) {
                let w: [u8; 4] = c.try_into().map_err(|_| "UTF-32 text of a partial unit")?;
                let u = if upper.ends_with("LE") {
                    u32::from_le_bytes(w)
                } else {
                    u32::from_be_bytes(w)
                };
                out.push(char::from_u32(u).ok_or_else(|| format!("U+{u:X} is no character"))?);
            }
            return Ok(Cow::Owned(out));
        }
        _ => {}
    }
    let enc = encoding_rs::Encoding::for_label(label.as_bytes())
        .or_else(|| encoding_rs::Encoding::for_label(upper.as_bytes()))
        .or(match upper.as_str() {
            "SJIS" | "CP932" => Some(encoding_rs::SHIFT_JIS),
            _ => None,
        })
        .ok_or_else(|| format!("the encoding `{encoding}` is not one meshspec knows"))?;
    let (text, had_errors) = enc.decode_without_bom_handling(raw);
    if had_errors {
        return Err(format!("bytes that are not {encoding} text"));
    }
    Ok(text)
}

/// Code page 437's characters for the bytes 0x80 to 0xFF, in order (below them it is ASCII).
const CP437_HIGH: &str = concat!(
    "ÇüéâäàåçêëèïîìÄÅ",
    "ÉæÆôöòûùÿÖÜ¢£¥₧ƒ",
    "áíóúñÑªº¿⌐¬½¼¡«»",
    "░▒▓│┤╡╢╖╕╣║╗╝╜╛┐",
    "└┴┬├─┼╞╟╚╔╩╦╠═╬╧",
    "╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀",
    "αßΓπΣσµτΦΘΩδ∞φε∩",
    "≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}",
);

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn the_encodings_kaitai_names() {
        assert_eq!(decode(b"abc", "ASCII").unwrap(), "abc");
        assert!(decode(b"\xff", "ASCII").is_err());
        assert_eq!(decode(b"a\x00b\x00", "UTF-16LE").unwrap(), "ab");
        assert_eq!(decode(b"\x00a\x00b", "UTF-16BE").unwrap(), "ab");
        assert_eq!(decode(b"\xe9", "ISO-8859-1").unwrap(), "é");
        assert_eq!(decode(b"\x82\xa0", "SJIS").unwrap(), "あ");
        assert_eq!(decode(b"a\0\0\0", "UTF-32LE").unwrap(), "a");
        assert!(decode(b"a", "EBCDIC-9").is_err());
        assert_eq!(
            decode(b"a\x80\x9b\xb0\xe1\xfe\xff", "IBM437").unwrap(),
            "aÇ¢░ß■\u{a0}"
        );
        assert_eq!(decode(b"\x82", "cp437").unwrap(), "é");
    }
}
