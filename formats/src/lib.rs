//! meshspec: readers, writers and decoders of game mesh layouts.
//!
//! The layouts are declared once, in `spec/*.ksy` (Kaitai Struct with our `-` keys for offsets,
//! confidence and evidence). `meshspec-codegen` turns each spec into a module of
//! [`generated`]: one type per spec type, whose reader and writer are generated together and
//! implement binrw's `BinRead`/`BinWrite`. Everything that gives the bytes a meaning (vertex
//! formats, winding, skin, shapes) is written by hand on top, per family ([`meshbin`]), and
//! feeds one mesh model ([`scene`]) that one exporter ([`export`]) writes as glTF or OBJ.
//!
//! Errors are one type, [`rt::Error`]: byte offset, field path as the spec names it, expected
//! and found.

// Nothing here needs `unsafe`: hostile input meets only checked code (and the fuzz campaigns
// without a sanitizer lose nothing by it).
#![forbid(unsafe_code)]

pub mod context;
pub mod dump;
pub mod explain;
pub mod export;
pub mod fuzzing;
#[allow(missing_docs)]
pub mod generated;
#[cfg(test)]
mod generator_tests;
#[cfg(test)]
mod generator_tests_text_and_order;
pub mod import;
mod interp;
pub mod layouts;
pub mod meaning;
pub mod meshbin;
pub mod ops;
pub mod reading;
pub mod report;
pub mod rr;
/// The runtime the generated code stands on (its own crate, so that code generated for other
/// crates stands on the same one).
pub use meshspec_runtime as rt;
pub mod scene;
pub mod survey;
pub mod sws;
pub mod unity;
pub mod verdict;

pub use context::{Context, Winding};
pub use interp::{add_import_dir, Answer};
pub use layouts::{find, Entry};
pub use meaning::Semantics;
pub use rt::{Error, ErrorKind, Result};
