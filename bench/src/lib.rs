//! Kaitai Struct's Rust parser for spec/meshbin.ksy, generated at build time by build.rs.
#![allow(clippy::all, warnings)]

include!(concat!(env!("OUT_DIR"), "/modules.rs"));
