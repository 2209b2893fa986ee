//! Printing: text lines (escaped, with meshspec's own prefixes coloured when colour is on) and
//! documents (JSON, dumps) to standard output and error. A failed write to standard output is a
//! refusal (exit 1, one line), never a panic.

use crate::args::ColorArg;
use crate::fail::{io_words, Fail};
use crate::report::{Line, Severity};
use anstyle::{AnsiColor, Style};
use std::io::Write;

/// Applies `--color` to our own output (`auto` leaves the choice to each stream: a terminal,
/// NO_COLOR and CLICOLOR_FORCE).
pub fn init(color: ColorArg) {
    let choice = match color {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    };
    choice.write_global();
}

fn style(s: Severity) -> Style {
    let c = match s {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Note => AnsiColor::Cyan,
    };
    Style::new().bold().fg_color(Some(c.into()))
}

/// The line with its tag coloured (the colour is stripped again by streams that must not get
/// it).
fn styled(line: &Line) -> String {
    let mut s = String::new();
    if let Some(f) = &line.subject {
        s.push_str(&crate::escape::text(f));
        s.push_str(": ");
    }
    if let Some(tag) = line.tag {
        let st = style(tag);
        s.push_str(&format!("{st}{}:{st:#} ", tag.word()));
    }
    s.push_str(&crate::escape::text(&line.text));
    s
}

fn stdout_failed(e: &std::io::Error) -> Fail {
    Fail::about(
        "standard output",
        "a stream that takes the output",
        io_words(e),
    )
}

/// Prints lines already safe for a terminal (escaped, their colours those of `anstream`) to
/// standard output.
pub fn out_styled(lines: impl IntoIterator<Item = impl std::fmt::Display>) -> Result<(), Fail> {
    let mut out = anstream::stdout().lock();
    for l in lines {
        writeln!(out, "{l}").map_err(|e| stdout_failed(&e))?;
    }
    out.flush().map_err(|e| stdout_failed(&e))
}

/// Prints text lines to standard output.
pub fn out_lines<'a>(lines: impl IntoIterator<Item = &'a Line>) -> Result<(), Fail> {
    out_styled(lines.into_iter().map(styled))
}

/// Prints a document (JSON, YAML, bytes) to standard output as it is.
pub fn out_bytes(bytes: &[u8]) -> Result<(), Fail> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|e| stdout_failed(&e))
}

/// Prints a JSON document (one line per value, pretty) to standard output.
pub fn out_json(v: &serde_json::Value) -> Result<(), Fail> {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialize");
    s.push('\n');
    out_bytes(s.as_bytes())
}

/// Prints a line to standard error (where nothing can be reported when it fails).
pub fn err_line(line: &Line) {
    let _ = writeln!(anstream::stderr().lock(), "{}", styled(line));
}

/// A line of our own text (nothing from an input) on standard error.
pub fn err_text(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// `error: TEXT` (or `warning:`, `note:`) on standard error.
pub fn err(tag: Severity, text: &str) {
    err_line(&Line::tagged(tag, text));
}
