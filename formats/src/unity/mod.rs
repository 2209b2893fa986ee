//! Unity meshes (class 43).

pub mod decode;
