//! Names and notes from input files, made safe for one line of text.
//!
//! A name is whatever bytes the file holds: a newline in it would add lines to an OBJ or fake an
//! `error:` line among the notes, and escape sequences would reach the terminal. Every name
//! the exporter writes into text passes through [`escape`] (or [`obj_name`] for OBJ
//! statements), and every note it returns through [`escape`] as a whole.

use std::fmt::Write as _;

/// Whether `c` must not reach a line of text raw: control characters (C0, DEL, C1) and the
/// invisible ones that reorder or break lines (bidirectional overrides, line and paragraph
/// separators, zero-width marks). The one test every text from a file passes before it is
/// shown (the command line's terminal escape uses it too).
pub fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}')
}

/// `s` on one line with nothing a terminal acts on: `\n`, `\r`, `\t`, `\0` and `\\` as
/// such, every other unsafe character as `\u{XXXX}`. Text without them (and without
/// backslashes) comes back unchanged.
pub fn escape(s: &str) -> String {
    if !s.chars().any(|c| c == '\\' || unsafe_char(c)) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:04X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A name for an OBJ or MTL statement (`o`, `g`, `usemtl`, `newmtl`): escaped, with every run
/// of white space as one `_` (`g a b` would put the faces in two groups), and `unnamed` for
/// nothing.
pub fn obj_name(s: &str) -> String {
    let e = escape(s);
    let mut out = String::with_capacity(e.len());
    let mut gap = false;
    for c in e.trim().chars() {
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        if gap {
            out.push('_');
            gap = false;
        }
        out.push(c);
    }
    if out.is_empty() {
        out.push_str("unnamed");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_on_one_line() {
        assert_eq!(escape("Robot_A Body"), "Robot_A Body");
        assert_eq!(
            escape("a\nerror: b\r\0\u{1B}[31m\\"),
            "a\\nerror: b\\r\\0\\u{001B}[31m\\\\"
        );
        assert_eq!(escape("x\u{202E}y\u{85}"), "x\\u{202E}y\\u{0085}");
        assert_eq!(obj_name("  a b\n\tc "), "a_b\\n\\tc");
        assert_eq!(obj_name(" \u{A0} "), "unnamed");
    }
}
