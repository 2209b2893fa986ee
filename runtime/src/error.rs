//! The one error type of the crate: where (byte offset and the field path as the spec names it),
//! what was expected and what was found, and for a violated rule which one and what it costs.

use super::path::{self, Path, Seg};
use super::rule::{Rule, Severity};
use std::borrow::Cow;
use std::fmt;

/// What kind of rule a byte stream (or a value being written) broke.
///
/// The kind is for programs; people read the one-line [`Display`](fmt::Display) form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a field.
    Eof,
    /// A `contents` magic did not match.
    Magic,
    /// A `valid` assertion failed.
    Invalid,
    /// A field is not at the offset the spec documents for it.
    Offset,
    /// A count or size asks for more than the bytes left, or does not fit its field.
    Count,
    /// Bytes are left over after the layout (or a sized part of it) was read.
    Trailing,
    /// A switch value has no case.
    Switch,
    /// Text that is not in the declared encoding.
    Encoding,
    /// A relation between fields does not hold.
    Relation,
    /// The value given to a writer is inconsistent in a way that cannot be recomputed.
    Inconsistent,
    /// A dump, a geometry file or an option is not acceptable.
    Input,
    /// Reading or writing the underlying stream failed.
    Io,
    /// The decoder cannot produce what was asked (for example geometry whose encoding is not
    /// established).
    Unsupported,
    /// A check could not run (a resource file that is not there).
    Unchecked,
}

/// Everything an [`Error`] carries (boxed, so that every `Result` of the crate stays small).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    /// Byte offset of the field in the input (or in the output, for write errors); `None` for
    /// errors that are not about a byte stream (a dump, a geometry file, an option).
    pub offset: Option<u64>,
    /// The rule that was broken.
    pub kind: ErrorKind,
    /// What the spec (or the writer) expected.
    pub expected: String,
    /// What was there.
    pub found: String,
    /// The relation the spec states that this violates, if any.
    pub rule: Option<&'static Rule>,
    /// What the violation costs: a relation's own severity, or a check's.
    pub severity: Severity,
    /// The file the offset is in, when it is not the input itself (Unity's `.resS`).
    pub resource: Option<String>,
    root: Option<Cow<'static, str>>,
    /// Innermost step first: errors are built where they happen and gain their parents on the
    /// way out, so pushing is the cheap direction.
    rev_path: Vec<Seg>,
}

/// An error with the byte offset, the field path, the expectation and what was found.
///
/// Displayed on one line: `0x1A4 sws_mesh.bones[2].class: expected 0x9EF0E7A1, found 0x00000000`.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl std::ops::Deref for Error {
    type Target = Details;
    fn deref(&self) -> &Details {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut Details {
        &mut self.0
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Error {
    /// A new error at `offset`, with an empty path (the callers above add theirs).
    #[cold]
    pub fn new(
        kind: ErrorKind,
        offset: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error(Box::new(Details {
            offset: Some(offset),
            kind,
            expected: expected.into(),
            found: found.into(),
            rule: None,
            severity: Severity::Error,
            resource: None,
            root: None,
            rev_path: Vec::new(),
        }))
    }

    /// A new error that is not about a position in a byte stream.
    #[cold]
    pub fn unplaced(
        kind: ErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        let mut e = Error::new(kind, 0, expected, found);
        e.offset = None;
        e
    }

    /// A violated relation of the spec, at `offset`: its severity is the rule's.
    #[cold]
    pub fn relation(
        rule: &'static Rule,
        offset: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        let mut e = Error::new(ErrorKind::Relation, offset, expected, found);
        e.rule = Some(rule);
        e.severity = rule.severity;
        e
    }

    /// The spec id of the relation the error violates.
    pub fn relation_id(&self) -> Option<&'static str> {
        self.rule.map(|r| r.id)
    }

    /// Places the error at a recorded position: its offset and its path (replacing any).
    #[must_use]
    pub fn placed(mut self, offset: u64, path: &Path) -> Self {
        self.offset = Some(offset);
        let mut segs = path.segs().iter();
        self.root = match segs.next() {
            Some(Seg::Field(r)) => Some(r.clone()),
            _ => None,
        };
        self.rev_path = segs.rev().cloned().collect();
        self
    }

    /// Sets what the violation costs.
    #[must_use]
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The same error about bytes a writer made (their reader refused them): said in
    /// `expected`, so nobody looks for the offset in their input.
    #[must_use]
    pub fn written(mut self) -> Self {
        self.expected = format!("in the bytes the writer would write, {}", self.expected);
        self
    }

    /// Says which file the offset is in (when it is not the input).
    #[must_use]
    pub fn in_resource(mut self, name: impl Into<String>) -> Self {
        self.resource = Some(name.into());
        self
    }

    /// Adds the field the error happened in (the innermost step first, the outermost last).
    #[must_use]
    pub fn in_field(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.rev_path.push(Seg::Field(name.into()));
        self
    }

    /// Adds the index of the element the error happened in.
    #[must_use]
    pub fn at_index(mut self, index: usize) -> Self {
        self.rev_path.push(Seg::Index(index));
        self
    }

    /// Names the root of the path (the layout's type) if no root is set yet.
    #[must_use]
    pub fn rooted(mut self, root: impl Into<Cow<'static, str>>) -> Self {
        if self.root.is_none() {
            self.root = Some(root.into());
        }
        self
    }

    /// Moves the offset by `base`: for errors found in a buffer that starts at `base`.
    #[must_use]
    pub fn shifted(mut self, base: u64) -> Self {
        self.offset = self.offset.map(|o| o.saturating_add(base));
        self
    }

    /// The path, outermost step first, with its root.
    pub fn path(&self) -> Path {
        self.root
            .iter()
            .map(|r| Seg::Field(r.clone()))
            .chain(self.rev_path.iter().rev().cloned())
            .collect()
    }

    /// The path as the spec names it: `meshbin.indices[4]`, or `(input)` when there is none.
    pub fn path_string(&self) -> String {
        let s = self.path().to_string();
        if s.is_empty() {
            "(input)".into()
        } else {
            s
        }
    }

    /// The path below the root with element indices left out (`indices[]`), so that errors
    /// group by field.
    pub fn path_pattern(&self) -> String {
        path::render(self.rev_path.iter().rev(), |_| String::new())
    }

    /// Wraps the error for transport through binrw's traits.
    pub fn into_binrw(self) -> binrw::Error {
        binrw::Error::Custom {
            pos: self.offset.unwrap_or(0),
            err: Box::new(self),
        }
    }

    /// Recovers an error from binrw: ours if it carries one, otherwise translated at `offset`.
    pub fn from_binrw(err: binrw::Error, offset: u64) -> Self {
        match err {
            binrw::Error::Custom { pos, err } => match err.downcast::<Error>() {
                Ok(ours) => *ours,
                Err(other) => Error::new(ErrorKind::Io, pos, "a readable value", other.to_string()),
            },
            binrw::Error::Backtrace(bt) => Error::from_binrw(*bt.error, offset),
            binrw::Error::Io(e) => Error::io(offset, &e),
            other => Error::new(ErrorKind::Io, offset, "a readable value", other.to_string()),
        }
    }

    /// An I/O failure at `offset`.
    #[cold]
    pub fn io(offset: u64, e: &std::io::Error) -> Self {
        Error::new(ErrorKind::Io, offset, "a working stream", e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = self.offset {
            match &self.resource {
                Some(r) => write!(f, "{r}:0x{o:X} ")?,
                None => write!(f, "0x{o:X} ")?,
            }
        }
        write!(f, "{}: expected {}", self.path_string(), self.expected)?;
        if let Some(r) = self.rule {
            write!(f, " (relation `{}`)", r.id)?;
        }
        write!(f, ", found {}", self.found)
    }
}

impl std::error::Error for Error {}

impl From<Error> for binrw::Error {
    fn from(e: Error) -> Self {
        e.into_binrw()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TOTAL: Rule = Rule {
        id: "total_adds_up",
        owner: "sws_mesh",
        confidence: None,
        severity: Severity::Error,
    };

    #[test]
    fn path_is_built_from_the_inside_out() {
        let e = Error::new(ErrorKind::Invalid, 0x1A4, "<= 1200", "4096")
            .in_field("index_count")
            .at_index(3)
            .in_field("submeshes")
            .rooted("mesh");
        assert_eq!(
            e.to_string(),
            "0x1A4 mesh.submeshes[3].index_count: expected <= 1200, found 4096"
        );
        assert_eq!(e.path_pattern(), "submeshes[].index_count");
    }

    #[test]
    fn relation_errors_name_their_relation_as_a_field() {
        let e = Error::relation(&TOTAL, 0x2C, "12", "13").in_field("total");
        assert_eq!(e.relation_id(), Some("total_adds_up"));
        assert_eq!(e.expected, "12");
        assert_eq!(
            e.to_string(),
            "0x2C total: expected 12 (relation `total_adds_up`), found 13"
        );
        assert_eq!(
            Error::new(ErrorKind::Invalid, 0, "x", "y").relation_id(),
            None
        );
    }

    #[test]
    fn placed_errors_take_the_recorded_path() {
        let p = Path::root("meshbin").field("indices").index(4);
        let e = Error::new(ErrorKind::Invalid, 0, "x", "y").placed(0x20, &p);
        assert_eq!(
            e.to_string(),
            "0x20 meshbin.indices[4]: expected x, found y"
        );
        assert_eq!(e.path(), p);
    }

    #[test]
    fn the_error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        assert!(std::mem::size_of::<Result<u32>>() <= 16);
    }

    #[test]
    fn binrw_transport_keeps_everything() {
        let e = Error::new(ErrorKind::Eof, 7, "u2 (2 bytes)", "1 byte").in_field("x");
        let back = Error::from_binrw(e.clone().into_binrw(), 0);
        assert_eq!(back, e);
    }
}
