//! The runtime that generated layout code stands on: a reader over byte slices that borrows
//! what it reads and can record where every field lies, a writer that recomputes counts and
//! sizes, one error type with byte offset and field path, and the serde forms of dumps.
//!
//! It knows nothing of the command line: a layout's parameters come in as [`Params`].

#[cfg(feature = "arbitrary")]
pub mod arb;
pub mod codec;
pub mod error;
pub mod input;
pub mod meta;
pub mod output;
pub mod path;
pub mod pod;
pub mod pos;
pub mod readings;
pub mod rule;
pub mod serde_as;
pub mod text;
pub mod view;

pub use codec::{Codec, Int, Params, Parsed, Root};
pub use error::{Error, ErrorKind, Result};
pub use input::Input;
pub use meta::{FieldInfo, Nested, Scalar, TypeInfo, Visitor, Walk};
pub use output::Output;
pub use path::{Path, Seg};
pub use pos::{Each, Fixed, Place, Span, Spanned, Strided};
pub use rule::{Confidence, Rule, Severity};
pub use view::{Blocks, Chunks, Nums};

/// Runs one field's reader or writer, adding the field's name to the path of any error.
#[inline(always)]
pub fn field<T>(name: &'static str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    f().map_err(|e| e.in_field(name))
}
