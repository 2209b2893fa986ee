//! The runtime that generated layout code stands on: errors with offsets and field paths,
//! bounded reads, recomputing writes, and the serde forms of dumps.

pub mod codec;
pub mod error;
pub mod pod;
pub mod read;
pub mod serde_as;
pub mod text;
pub mod write;

pub use codec::{Codec, Int, Layout};
pub use error::{Error, ErrorKind, Result, Seg};

/// Runs one field's reader or writer, adding the field's name to the path of any error.
#[inline]
pub fn field<T>(name: &'static str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    f().map_err(|e| e.in_field(name))
}
