//! Why a command stops early, and its exit code: 2 for usage mistakes (all of them, found before
//! any input is read), 1 for a refused input or output.

use crate::report::Finding;
use std::process::ExitCode;

/// A command that could not do what was asked.
#[derive(Debug)]
pub enum Fail {
    /// Usage mistakes, each one line (exit 2).
    Usage(Vec<String>),
    /// A refused input, or an output that could not be written (exit 1).
    Refused(Box<Finding>),
}

impl Fail {
    /// A refusal about a whole file or stream (`FILE: expected EXPECTED, found FOUND`).
    pub fn about(
        subject: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Fail::Refused(Box::new(Finding::about(subject, expected, found)))
    }

    /// The process exit code.
    pub fn code(&self) -> ExitCode {
        ExitCode::from(match self {
            Fail::Usage(_) => 2,
            Fail::Refused(_) => 1,
        })
    }
}

/// The exit code of a command that ran to its end: 0 when everything asked for succeeded, 1
/// when an input was refused.
pub fn exit(ok: bool) -> ExitCode {
    ExitCode::from(if ok { 0 } else { 1 })
}

impl From<meshspec_formats::Error> for Fail {
    fn from(e: meshspec_formats::Error) -> Self {
        Fail::Refused(Box::new(Finding::from_error(
            &e,
            crate::report::Severity::Error,
        )))
    }
}

/// What an I/O error found, in words (no OS error numbers).
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or folder".into(),
        K::PermissionDenied => "permission denied".into(),
        K::IsADirectory => "a folder".into(),
        K::NotADirectory => "a path through something that is not a folder".into(),
        K::StorageFull => "no space left on the device".into(),
        K::AlreadyExists => "a file already there".into(),
        K::BrokenPipe => "a closed pipe".into(),
        K::ReadOnlyFilesystem => "a read-only file system".into(),
        K::InvalidData => "data that is not valid UTF-8".into(),
        K::UnexpectedEof => "the end of the stream".into(),
        _ => {
            let s = e.to_string();
            let s = match s.rfind(" (os error ") {
                Some(at) if s.ends_with(')') => s[..at].to_string(),
                _ => s,
            };
            let mut c = s.chars();
            match c.next() {
                Some(first) => first.to_lowercase().chain(c).collect(),
                None => "an I/O error".into(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::io_words;
    use std::io::Error;

    #[test]
    fn io_errors_in_words_without_numbers() {
        assert_eq!(
            io_words(&Error::from_raw_os_error(2)),
            "no such file or folder"
        );
        assert_eq!(
            io_words(&Error::from_raw_os_error(28)),
            "no space left on the device"
        );
        // EIO: no kind of its own; the OS text without its number.
        assert_eq!(io_words(&Error::from_raw_os_error(5)), "input/output error");
        assert_eq!(io_words(&Error::other("Odd")), "odd");
    }
}
