//! A dump's text (JSON or YAML) as a JSON value, with syntax errors in the line shape of docs/cli.md
//! (`FILE: expected ..., found ...`) and nesting limited before any deep work is done.

use crate::fail::Fail;
use crate::input::shown;
use std::path::Path;

/// The deepest nesting a dump may have (serde_json's own limit, and serde_norway's).
pub const MAX_DEPTH: usize = 128;

/// Parses a dump: JSON if it starts with `{`, YAML otherwise.
pub fn parse(text: &[u8], path: &Path) -> Result<serde_json::Value, Fail> {
    let name = shown(path);
    let s = std::str::from_utf8(text).map_err(|e| {
        let at = e.valid_up_to();
        Fail::about(
            name.clone(),
            "UTF-8 text (a JSON or YAML dump)",
            format!("byte 0x{:02X} at offset 0x{at:X}", text[at]),
        )
    })?;
    if s.trim_start().starts_with('{') {
        serde_json::from_str(s).map_err(|e| json_error(&name, s, &e))
    } else {
        yaml_depth(s, &name)?;
        serde_norway::from_str(s).map_err(|e| {
            let found = e.to_string();
            Fail::about(name, "a valid YAML dump", found)
        })
    }
}

/// The character at a 1-based line and column, for `found`.
fn char_at(text: &str, line: usize, column: usize) -> Option<char> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    l.get(column.checked_sub(1)?..)?.chars().next()
}

fn json_error(name: &str, text: &str, e: &serde_json::Error) -> Fail {
    use serde_json::error::Category;
    let at = format!("line {} column {}", e.line(), e.column());
    // serde_json's message without its position: "expected `,` or `}`", "trailing comma".
    let msg = e.to_string();
    let msg = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(m, _)| m)
        .to_string();
    let (expected, found) = match e.classify() {
        Category::Eof => (
            format!("more JSON at {at}"),
            "the end of the input".to_string(),
        ),
        _ if msg == "recursion limit exceeded" => (
            format!("JSON nested at most {MAX_DEPTH} deep"),
            format!("deeper nesting at {at}"),
        ),
        Category::Syntax => match msg.strip_prefix("expected ") {
            Some(what) => (
                format!("{what} at {at}"),
                match char_at(text, e.line(), e.column()) {
                    Some(c) => format!("`{}`", c.escape_debug()),
                    None => "the end of the line".to_string(),
                },
            ),
            None => (format!("valid JSON at {at}"), msg),
        },
        _ => (format!("a valid dump at {at}"), msg),
    };
    Fail::about(name, expected, found)
}

/// Refuses YAML nested deeper than [`MAX_DEPTH`] after reading no further than the point where
/// it gets too deep. (The YAML library builds every event of a document before it checks
/// depth, in time that grows with the square of flow nesting: 80,000 levels took 9 s.)
fn yaml_depth(s: &str, name: &str) -> Result<(), Fail> {
    use saphyr_parser::{Event, Parser};
    let too_deep = |line: usize, column: usize| {
        Err(Fail::about(
            name,
            format!("YAML nested at most {MAX_DEPTH} deep"),
            format!("deeper nesting at line {line} column {column}"),
        ))
    };
    let mut depth = 0usize;
    for ev in Parser::new_from_str(s) {
        match ev {
            Ok((Event::SequenceStart(..) | Event::MappingStart(..), span)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return too_deep(span.start.line(), span.start.col() + 1);
                }
            }
            Ok((Event::SequenceEnd | Event::MappingEnd, _)) => depth = depth.saturating_sub(1),
            Ok(_) => {}
            Err(e) => {
                let m = e.marker();
                if e.info() == "recursion limit exceeded" {
                    // The parser's own limit, which lies above ours.
                    return too_deep(m.line(), m.col() + 1);
                }
                return Err(Fail::about(
                    name,
                    format!("valid YAML at line {} column {}", m.line(), m.col() + 1),
                    e.info().to_string(),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::fail::Fail;
    use std::path::Path;

    fn refusal(text: &str) -> String {
        match parse(text.as_bytes(), Path::new("d.json")) {
            Err(Fail::Refused(f)) => f.line(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn syntax_errors_say_what_was_expected_and_found() {
        assert_eq!(
            refusal("{\"a\": 1 ]"),
            "d.json: expected `,` or `}` at line 1 column 9, found `]`"
        );
        assert_eq!(
            refusal("{\"a\": [1,]}"),
            "d.json: expected valid JSON at line 1 column 10, found trailing comma"
        );
        assert_eq!(
            refusal("{\"a\": "),
            "d.json: expected more JSON at line 1 column 6, found the end of the input"
        );
        assert_eq!(
            refusal("a: [1, 2"),
            "d.json: expected valid YAML at line 2 column 1, found while parsing a flow sequence, expected ',' or ']'"
        );
    }

    #[test]
    fn deep_nesting_is_refused_in_either_syntax() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(refusal(&format!("{{\"a\": {deep}}}")).contains("nested at most 128 deep"));
        assert!(refusal(&format!("a: {deep}")).starts_with(
            "d.json: expected YAML nested at most 128 deep, found deeper nesting at line 1 column"
        ));
        let shallow = format!("a: {}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(shallow.as_bytes(), Path::new("d")).is_ok());
    }
}
