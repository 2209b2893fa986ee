//! Text from input files (mesh names, file names, values) on its way to a terminal: control
//! characters and the invisible characters that reorder text are shown as escapes, so an input
//! can neither add lines (a fake `error:` line) nor send the terminal escape sequences.

use meshspec_formats::export::unsafe_char;
use std::borrow::Cow;

/// `s` with every unsafe character replaced by its Rust escape (`\n`, `\u{1b}`).
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn control_characters_become_escapes() {
        assert_eq!(text("plain name"), "plain name");
        assert_eq!(text("a\nerror: b"), "a\\nerror: b");
        assert_eq!(text("\u{1b}[31mred\0"), "\\u{1b}[31mred\\u{0}");
        assert_eq!(text("tab\there\r"), "tab\\there\\r");
        assert_eq!(text("\u{9b}x\u{202E}y"), "\\u{9b}x\\u{202e}y");
        assert_eq!(text("é ü 日本"), "é ü 日本");
        // Zero-width marks and the byte order mark, as the exporter's names escape them.
        assert_eq!(text("a\u{200B}b\u{FEFF}"), "a\\u{200b}b\\u{feff}");
    }
}
