//! The one place where a verdict on an input becomes what a user is shown: findings (severity,
//! offset, spec path, relation id, expected, found) rendered as the lines of docs/cli.md and as the
//! JSON objects of the command line's `--json` (and of the Python package's findings).
//!
//! [`Verdict::of`] is the only code that knows the shape of the library's check result; every
//! command (check, info, survey) and binding goes through it.

use crate::Error;
use serde_json::{json, Value};

/// The version of every `--json` document (a stable interface: docs/cli.md, "JSON output").
pub const JSON_VERSION: u32 = 1;

/// How many findings of one relation are shown before `... and N more` (`--all` shows all).
pub const SHOWN_PER_RELATION: usize = 10;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The input is refused.
    Error,
    /// Reported; the input still passes.
    Warning,
    /// What a reader should know.
    Note,
}

impl Severity {
    /// The word used in lines (`warning:`) and JSON (`"warning"`).
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One thing wrong with an input (or with an output that could not be written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// Byte offset in the input (in the output, for `build`); `None` when not about bytes.
    pub offset: Option<u64>,
    /// The file the offset is in, when it is not the input itself (a Unity `.resS`, the
    /// serialized file inside a bundle).
    pub resource: Option<String>,
    /// The field path as the spec names it (`meshbin.indices[4]`); for a problem with a whole
    /// file or stream, its name; `None` when there is neither.
    pub path: Option<String>,
    /// The id of the violated relation in the spec.
    pub relation: Option<String>,
    /// What was expected (without the relation id).
    pub expected: String,
    /// What was found.
    pub found: String,
}

impl Finding {
    /// A finding from one of the library's errors.
    pub fn from_error(e: &Error, severity: Severity) -> Self {
        let relation = e.relation_id().map(str::to_string);
        let expected = e.expected.clone();
        let path = e.path_string();
        Finding {
            severity,
            offset: e.offset,
            resource: e.resource.clone(),
            path: (path != "(input)").then_some(path),
            relation,
            expected,
            found: without_os_error_number(&e.found),
        }
    }

    /// A finding from an error in a game file: the file (and the file inside it) as the
    /// finding's resource, the offset in that file.
    pub fn located(e: &crate::unity::files::Located, severity: Severity) -> Self {
        let mut f = Finding::from_error(&e.error, severity);
        if !e.place.is_empty() {
            f.resource = Some(match f.resource.take() {
                Some(inner) => format!("{}/{inner}", e.place),
                None => e.place.clone(),
            });
        }
        f
    }

    /// An error about a whole file or stream: `SUBJECT: expected EXPECTED, found FOUND`.
    pub fn about(
        subject: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Finding {
            severity: Severity::Error,
            offset: None,
            resource: None,
            path: Some(subject.into()),
            relation: None,
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// The error line of docs/cli.md: `0xOFFSET PATH: expected EXPECTED (relation `ID`), found FOUND`.
    pub fn line(&self) -> String {
        self.render(Some(self.path.as_deref().unwrap_or("(input)")))
    }

    /// The line after `SUBJECT: `: without the path when the finding is about the subject as a
    /// whole (`FILE: expected a readable file, found ...`).
    pub fn line_about(&self, subject: &str) -> String {
        if self.path.as_deref() == Some(subject) {
            self.render(None)
        } else {
            self.line()
        }
    }

    fn render(&self, path: Option<&str>) -> String {
        let mut s = String::new();
        match (&self.resource, self.offset) {
            (Some(r), Some(o)) => s.push_str(&format!("{r}:0x{o:X} ")),
            (None, Some(o)) => s.push_str(&format!("0x{o:X} ")),
            (Some(r), None) => s.push_str(&format!("{r}: ")),
            (None, None) => {}
        }
        if let Some(p) = path {
            s.push_str(p);
            s.push_str(": ");
        }
        s.push_str("expected ");
        s.push_str(&self.expected);
        if let Some(id) = &self.relation {
            s.push_str(&format!(" (relation `{id}`)"));
        }
        s.push_str(", found ");
        s.push_str(&self.found);
        s
    }

    /// The finding as a `--json` message object.
    pub fn json(&self) -> Value {
        json!({
            "severity": self.severity.word(),
            "offset": self.offset,
            "resource": self.resource,
            "path": self.path,
            "relation": self.relation,
            "expected": self.expected,
            "found": self.found,
            "text": self.line(),
        })
    }
}

/// `No such file or directory (os error 2)` without its number: people read the words.
fn without_os_error_number(s: &str) -> String {
    match s.rfind(" (os error ") {
        Some(at)
            if s.ends_with(')') && s[at + 11..s.len() - 1].chars().all(|c| c.is_ascii_digit()) =>
        {
            s[..at].to_string()
        }
        _ => s.to_string(),
    }
}

/// A note as a `--json` message object (the same keys as a finding's, most of them null).
pub fn note_json(text: &str) -> Value {
    json!({
        "severity": "note",
        "offset": null,
        "path": null,
        "relation": null,
        "expected": null,
        "found": null,
        "text": text,
    })
}

/// What the library says about one input.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Errors and warnings, in the library's order.
    pub findings: Vec<Finding>,
    /// Notes for the reader.
    pub notes: Vec<String>,
}

impl Verdict {
    /// The library's verdict on one input.
    pub fn of(v: &crate::verdict::Verdict) -> Verdict {
        let severity = |e: &Error| match e.severity {
            crate::rt::Severity::Error => Severity::Error,
            // Under --strict a warning fails the input: it is shown as what it does.
            crate::rt::Severity::Warning if v.strict => Severity::Error,
            crate::rt::Severity::Warning => Severity::Warning,
        };
        let findings = v
            .refused
            .iter()
            .map(|e| Finding::from_error(e, Severity::Error))
            .chain(
                v.findings
                    .iter()
                    .map(|e| Finding::from_error(e, severity(e))),
            )
            .collect();
        Verdict {
            findings,
            notes: v.notes.clone(),
        }
    }

    /// The verdict on an input that could not be read or parsed at all.
    pub fn refused(f: Finding) -> Verdict {
        Verdict {
            findings: vec![f],
            notes: vec![],
        }
    }

    /// Whether the input passes: no finding is an error.
    pub fn passes(&self) -> bool {
        self.findings.iter().all(|f| f.severity != Severity::Error)
    }

    /// How many findings have severity `s`.
    pub fn count(&self, s: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == s).count()
    }
}

/// Findings left out of a listing: how many of one relation (and severity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Omitted {
    /// The severity they share.
    pub severity: Severity,
    /// The relation they violate (`None` for findings without one).
    pub relation: Option<String>,
    /// How many were left out.
    pub count: usize,
}

impl Omitted {
    /// `... and 65,498 more (relation `ID`; --all shows every one)`.
    pub fn line(&self) -> String {
        match &self.relation {
            Some(id) => format!(
                "... and {} more (relation `{id}`; --all shows every one)",
                thousands(self.count as u64)
            ),
            None => format!(
                "... and {} more (--all shows every one)",
                thousands(self.count as u64)
            ),
        }
    }

    /// As a `--json` object.
    pub fn json(&self) -> Value {
        json!({
            "severity": self.severity.word(),
            "relation": self.relation,
            "count": self.count,
        })
    }
}

/// The findings to list: all of them with `all`, otherwise the first
/// [`SHOWN_PER_RELATION`] of each relation, and what was left out (in order of first
/// appearance).
pub fn shown(findings: &[Finding], all: bool) -> (Vec<&Finding>, Vec<Omitted>) {
    if all {
        return (findings.iter().collect(), vec![]);
    }
    let mut counts: Vec<Omitted> = vec![];
    let mut listed = vec![];
    for f in findings {
        let slot = match counts
            .iter_mut()
            .position(|o| o.severity == f.severity && o.relation == f.relation)
        {
            Some(i) => &mut counts[i],
            None => {
                counts.push(Omitted {
                    severity: f.severity,
                    relation: f.relation.clone(),
                    count: 0,
                });
                counts.last_mut().expect("just pushed")
            }
        };
        slot.count += 1;
        if slot.count <= SHOWN_PER_RELATION {
            listed.push(f);
        }
    }
    let omitted = counts
        .into_iter()
        .filter(|o| o.count > SHOWN_PER_RELATION)
        .map(|o| Omitted {
            count: o.count - SHOWN_PER_RELATION,
            ..o
        })
        .collect();
    (listed, omitted)
}

/// The `--json` keys of one file's verdict (the listing limited as in [`shown`]), after
/// `before` (the file's name).
pub fn verdict_json(before: Value, v: &Verdict, all: bool) -> Value {
    let (listed, omitted) = shown(&v.findings, all);
    let mut o = match before {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    o.insert("ok".into(), v.passes().into());
    o.insert(
        "findings".into(),
        listed.iter().map(|f| f.json()).collect::<Vec<_>>().into(),
    );
    o.insert(
        "omitted".into(),
        omitted.iter().map(Omitted::json).collect::<Vec<_>>().into(),
    );
    o.insert(
        "notes".into(),
        v.notes
            .iter()
            .map(|n| note_json(n))
            .collect::<Vec<_>>()
            .into(),
    );
    Value::Object(o)
}

/// A bare Mesh object the fixed layout of the version given (in `ctx`) does not read: the
/// refusal says which of the spec's layouts (of an editor's object, when `ctx` says it is one)
/// read it exactly (for any other layout, nothing changes).
pub fn bare_hint(
    entry: &crate::Entry,
    bytes: &[u8],
    ctx: &crate::Context,
    refused: &mut Option<Error>,
) {
    if entry.id != <crate::generated::unity_mesh::UnityMesh as crate::rt::Root>::ID {
        return;
    }
    if let Some(e) = refused.take() {
        *refused = Some(
            *crate::unity::files::Located::new("", e)
                .with_layouts_hint(bytes, crate::unity::editor(ctx))
                .error,
        );
    }
}

/// `n` with thousands separators: `65,498` (the library's, which the survey's reports use).
pub use crate::survey::value::thousands;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn rule(id: &str) -> &'static crate::rt::Rule {
        Box::leak(Box::new(crate::rt::Rule {
            id: Box::leak(id.to_string().into_boxed_str()),
            owner: "t",
            confidence: None,
            severity: crate::rt::Severity::Error,
        }))
    }

    fn rel(id: &str, at: u64) -> Finding {
        Finding::from_error(
            &Error::relation(rule(id), at, "below 4", "9")
                .in_field("x")
                .rooted("t"),
            Severity::Error,
        )
    }

    #[test]
    fn a_finding_keeps_the_libraries_line_and_splits_the_relation_id() {
        let e = Error::relation(rule("names_vertices"), 0x4C, "an index below 4", "9")
            .at_index(4)
            .in_field("indices")
            .rooted("meshbin");
        let f = Finding::from_error(&e, Severity::Error);
        assert_eq!(f.line(), e.to_string());
        assert_eq!(f.relation.as_deref(), Some("names_vertices"));
        assert_eq!(f.expected, "an index below 4");
        assert_eq!(f.path.as_deref(), Some("meshbin.indices[4]"));
        let plain = Error::unplaced(ErrorKind::Input, "x", "y");
        let f = Finding::from_error(&plain, Severity::Error);
        assert_eq!((f.path, f.offset), (None, None));
        assert_eq!(
            Finding::from_error(&plain, Severity::Error).line(),
            plain.to_string()
        );
    }

    #[test]
    fn listings_keep_the_first_few_of_each_relation() {
        let mut all: Vec<Finding> = (0..25).map(|i| rel("a", i)).collect();
        all.extend((0..3).map(|i| rel("b", i)));
        let (listed, omitted) = shown(&all, false);
        assert_eq!(listed.len(), SHOWN_PER_RELATION + 3);
        assert_eq!(
            omitted,
            vec![Omitted {
                severity: Severity::Error,
                relation: Some("a".into()),
                count: 15
            }]
        );
        assert_eq!(
            omitted[0].line(),
            "... and 15 more (relation `a`; --all shows every one)"
        );
        let (listed, omitted) = shown(&all, true);
        assert_eq!((listed.len(), omitted.len()), (28, 0));
    }

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(65_498), "65,498");
        assert_eq!(thousands(1_073_741_824), "1,073,741,824");
    }
}
