//! The one error type of the crate: where (byte offset and the field path as the spec names it),
//! what was expected and what was found.

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
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// A field of a type, by its spec id.
    Field(Cow<'static, str>),
    /// An element of a repeated field.
    Index(usize),
}

/// An error with the byte offset, the field path, the expectation and what was found.
///
/// Displayed on one line: `0x1A4 sws_mesh.bones[2].class: expected 0x9EF0E7A1, found 0x00000000`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Byte offset of the field in the input (or in the output, for write errors); `None` for
    /// errors that are not about a byte stream (a dump, a geometry file, an option).
    pub offset: Option<u64>,
    /// The rule that was broken.
    pub kind: ErrorKind,
    /// What the spec (or the writer) expected.
    pub expected: String,
    /// What was there.
    pub found: String,
    root: Option<Cow<'static, str>>,
    /// Innermost step first: errors are built where they happen and gain their parents on the
    /// way out, so pushing is the cheap direction.
    rev_path: Vec<Seg>,
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A new error at `offset`, with an empty path (the callers above add theirs).
    pub fn new(
        kind: ErrorKind,
        offset: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error {
            offset: Some(offset),
            kind,
            expected: expected.into(),
            found: found.into(),
            root: None,
            rev_path: Vec::new(),
        }
    }

    /// A new error that is not about a position in a byte stream.
    pub fn unplaced(
        kind: ErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error {
            offset: None,
            ..Error::new(kind, 0, expected, found)
        }
    }

    /// A violated relation: `id` is the relation's id in the spec, shown with the expectation.
    pub fn relation(
        id: &str,
        offset: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        let expected = format!("{} (relation `{id}`)", expected.into());
        Error::new(ErrorKind::Relation, offset, expected, found)
    }

    /// The spec id of the relation a [`Error::relation`] error violates.
    pub fn relation_id(&self) -> Option<&str> {
        if self.kind != ErrorKind::Relation {
            return None;
        }
        let rest = self.expected.strip_suffix("`)")?;
        let at = rest.rfind("(relation `")?;
        Some(&rest[at + "(relation `".len()..])
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

    /// Moves the offset by `base`: for errors found in a sub-stream that starts at `base`.
    #[must_use]
    pub fn shifted(mut self, base: u64) -> Self {
        self.offset = self.offset.map(|o| o.saturating_add(base));
        self
    }

    /// The steps of the path, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &Seg> {
        self.rev_path.iter().rev()
    }

    /// The path as the spec names it: `meshbin.indices[4]`.
    pub fn path_string(&self) -> String {
        let mut s = self.path_with(|i| i.to_string());
        if let Some(root) = &self.root {
            s = if s.is_empty() {
                root.to_string()
            } else {
                format!("{root}.{s}")
            };
        }
        if s.is_empty() {
            s.push_str("(input)");
        }
        s
    }

    /// The path below the root with element indices left out (`indices[]`), so that errors
    /// group by field.
    pub fn path_pattern(&self) -> String {
        self.path_with(|_| String::new())
    }

    fn path_with(&self, index: impl Fn(usize) -> String) -> String {
        let mut s = String::new();
        for seg in self.path() {
            match seg {
                Seg::Field(name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                Seg::Index(i) => {
                    s.push('[');
                    s.push_str(&index(*i));
                    s.push(']');
                }
            }
        }
        s
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
            binrw::Error::BadMagic { pos, found } => {
                Error::new(ErrorKind::Magic, pos, "the magic", format!("{found:?}"))
            }
            binrw::Error::AssertFail { pos, message } => {
                Error::new(ErrorKind::Invalid, pos, message, "a value that fails it")
            }
            binrw::Error::Io(e) => Error::io(offset, &e),
            other => Error::new(ErrorKind::Io, offset, "a readable value", other.to_string()),
        }
    }

    /// An I/O failure at `offset`.
    pub fn io(offset: u64, e: &std::io::Error) -> Self {
        Error::new(ErrorKind::Io, offset, "a working stream", e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = self.offset {
            write!(f, "0x{o:X} ")?;
        }
        write!(
            f,
            "{}: expected {}, found {}",
            self.path_string(),
            self.expected,
            self.found
        )
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
    }

    #[test]
    fn relation_errors_name_their_relation() {
        let e = Error::relation("total_adds_up", 0x2C, "12", "13");
        assert_eq!(e.relation_id(), Some("total_adds_up"));
        assert_eq!(e.expected, "12 (relation `total_adds_up`)");
        assert_eq!(
            Error::new(ErrorKind::Invalid, 0, "x", "y").relation_id(),
            None
        );
    }

    #[test]
    fn binrw_transport_keeps_everything() {
        let e = Error::new(ErrorKind::Eof, 7, "u2 (2 bytes)", "1 byte").in_field("x");
        let back = Error::from_binrw(e.clone().into_binrw(), 0);
        assert_eq!(back, e);
    }
}
