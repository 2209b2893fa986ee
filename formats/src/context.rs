//! What the user tells a layout that the bytes do not say: values for layout parameters (the
//! Unity editor version), the winding of a .meshbin, where streamed data lives, and how strictly
//! relations are checked.

use crate::rt::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Which faces are front faces in a file that does not record it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Winding {
    /// Direct3D: clockwise front faces (left-handed).
    D3d,
    /// OpenGL: counter-clockwise front faces (right-handed), as glTF.
    Gl,
}

/// Whether a violated relation fails a check or is only reported.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Relations {
    /// A violated relation is an error (the default: the reader is strict).
    #[default]
    Error,
    /// A violated relation is a warning.
    Warn,
}

/// Options for reading, writing and decoding one input.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Context {
    /// Named values for layout parameters (`unity_version`), as spec parameters declare them
    /// with `-context`.
    pub params: BTreeMap<String, i128>,
    /// The winding of the input's triangles, for layouts that do not record it.
    pub winding: Option<Winding>,
    /// Where the input was read from: resources it names are looked up beside it.
    pub input: Option<PathBuf>,
    /// A resource file given explicitly (Unity's `.resS`).
    pub resource: Option<PathBuf>,
    /// How relation violations count.
    pub relations: Relations,
}

impl Context {
    /// A context with no options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the winding.
    #[must_use]
    pub fn with_winding(mut self, w: Winding) -> Self {
        self.winding = Some(w);
        self
    }

    /// Sets a named parameter.
    #[must_use]
    pub fn with_param(mut self, name: &str, value: i128) -> Self {
        self.params.insert(name.to_string(), value);
        self
    }

    /// A named parameter, or an error saying that the layout needs it.
    pub fn param(&self, name: &str) -> Result<i128> {
        self.params.get(name).copied().ok_or_else(|| {
            Error::unplaced(
                ErrorKind::Input,
                format!("a value for `{name}` (this layout needs it)"),
                "none given",
            )
        })
    }
}
