//! What the command line shows of a verdict: the library's findings ([`meshspec_formats::report`],
//! shared with the Python package) as the lines docs/cli.md describes.

pub use meshspec_formats::report::*;

/// One line of text output: an optional subject (`FILE: `), an optional coloured tag
/// (`warning: `), then the text. Everything from input is escaped when it is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The file the line is about.
    pub subject: Option<String>,
    /// The severity word shown before the text.
    pub tag: Option<Severity>,
    /// The rest.
    pub text: String,
}

impl Line {
    /// A line of text alone.
    pub fn text(text: impl Into<String>) -> Line {
        Line {
            subject: None,
            tag: None,
            text: text.into(),
        }
    }

    /// `SUBJECT: TEXT`.
    pub fn about(subject: impl Into<String>, text: impl Into<String>) -> Line {
        Line {
            subject: Some(subject.into()),
            ..Line::text(text)
        }
    }

    /// `TAG: TEXT`.
    pub fn tagged(tag: Severity, text: impl Into<String>) -> Line {
        Line {
            tag: Some(tag),
            ..Line::text(text)
        }
    }
}

/// The lines of `check` for one file (docs/cli.md, "Output lines and exit codes"): a
/// `warning: ` line per warning, a line per error, how many more of each relation were left
/// out, then `ok` if the file passes.
pub fn check_lines(file: &str, v: &Verdict, all: bool) -> Vec<Line> {
    let line = |tag, text| Line {
        subject: Some(file.to_string()),
        tag,
        text,
    };
    let tag = |s: Severity| (s != Severity::Error).then_some(s);
    let (listed, omitted) = shown(&v.findings, all);
    let mut out: Vec<Line> = listed
        .iter()
        .map(|f| line(tag(f.severity), f.line_about(file)))
        .collect();
    out.extend(omitted.iter().map(|o| line(tag(o.severity), o.line())));
    if v.passes() {
        out.push(line(None, "ok".into()));
    }
    out
}
