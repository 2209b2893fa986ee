//! What the user tells a layout that the bytes do not say: values for layout parameters (the
//! Unity editor version), the winding of a .meshbin, where streamed data lives, and how strictly
//! relations are checked.

use crate::rt::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

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

/// Which of a skinned mesh's influences a renderer draws (Unity's `QualitySettings.skinWeights`,
/// seed 002): up to one, two or four per vertex from the blend channels (cut and renormalised),
/// or all of them, which Unity takes from `m_VariableBoneCountWeights` when the mesh has it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum SkinWeights {
    /// One bone per vertex.
    One,
    /// Two bones.
    Two,
    /// Four bones (the blend channels; Unity's default).
    #[default]
    Four,
    /// Every influence (Unity's 255, unlimited).
    All,
}

impl SkinWeights {
    /// The setting of a stored `QualitySettings.skinWeights` value (1, 2, 4 or 255).
    pub fn from_value(v: u32) -> Option<Self> {
        Some(match v {
            1 => SkinWeights::One,
            2 => SkinWeights::Two,
            4 => SkinWeights::Four,
            255 => SkinWeights::All,
            _ => return None,
        })
    }

    /// The most influences per vertex, `None` for all.
    pub fn limit(self) -> Option<usize> {
        match self {
            SkinWeights::One => Some(1),
            SkinWeights::Two => Some(2),
            SkinWeights::Four => Some(4),
            SkinWeights::All => None,
        }
    }
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
    /// Resource files held in memory by what the input came from (a bundle's `.resS`), looked
    /// up by file name after [`Context::resource`] and before the files beside
    /// [`Context::input`].
    pub held: Vec<Held>,
    /// How relation violations count.
    pub relations: Relations,
    /// Whether warnings fail a verdict too (`--strict`).
    pub strict: bool,
    /// Which skin influences decoding draws (`--skin-weights`).
    pub skin_weights: SkinWeights,
}

/// A resource file held by what the input came from: its name and its bytes.
#[derive(Clone)]
pub struct Held {
    /// Its file name (`CAB-5d40....resS`).
    pub name: String,
    /// Its bytes.
    pub bytes: Arc<dyn HeldBytes>,
}

/// The bytes of a held resource file: in memory (any bytes, shared, never copied), or made
/// when a range of them is asked for (a bundle's file whose LZ4 blocks were checked but not
/// kept).
pub trait HeldBytes: Send + Sync {
    /// How many bytes the file holds.
    fn size(&self) -> u64;
    /// The bytes of `range`, which lies inside the file.
    fn range(&self, range: std::ops::Range<usize>) -> Result<std::borrow::Cow<'_, [u8]>>;
}

impl<T: AsRef<[u8]> + Send + Sync> HeldBytes for T {
    fn size(&self) -> u64 {
        self.as_ref().len() as u64
    }

    fn range(&self, range: std::ops::Range<usize>) -> Result<std::borrow::Cow<'_, [u8]>> {
        Ok(std::borrow::Cow::Borrowed(&self.as_ref()[range]))
    }
}

impl std::fmt::Debug for dyn HeldBytes + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes", self.size())
    }
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Held({}, {} bytes)", self.name, self.bytes.size())
    }
}

impl Context {
    /// The held resource file named `name`, if any.
    pub fn held(&self, name: &str) -> Option<&dyn HeldBytes> {
        self.held.iter().find(|h| h.name == name).map(|h| &*h.bytes)
    }
}

impl crate::rt::Params for Context {
    fn param(&self, name: &str) -> Option<i128> {
        self.params.get(name).copied()
    }
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

    /// Sets `unity_version` from an editor version such as `2021.3.0f1`.
    pub fn with_unity_version(self, version: &str) -> Result<Self> {
        Ok(self.with_param("unity_version", unity_version(version)?))
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

/// Encodes a Unity editor version (`2021.3.0f1`, `6000.2.1f1`) as the integer the specs compare
/// against: major x 10,000 + minor x 100 + patch (`20210300`). The release type and build number
/// after the patch do not change a layout, so they are dropped.
pub fn unity_version(s: &str) -> Result<i128> {
    let bad = || {
        Error::unplaced(
            ErrorKind::Input,
            "a Unity version such as 2021.3.0f1",
            format!("`{s}`"),
        )
    };
    let mut parts = s.trim().splitn(3, '.');
    let major: i128 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    let minor: i128 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    let patch: i128 = match parts.next() {
        None => 0,
        Some(p) => {
            let digits: String = p.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().map_err(|_| bad())?
        }
    };
    if !(1..10_000).contains(&major) || !(0..100).contains(&minor) || !(0..100).contains(&patch) {
        return Err(bad());
    }
    Ok(major * 10_000 + minor * 100 + patch)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unity_versions_encode_in_order() {
        use super::unity_version as v;
        assert_eq!(v("2021.3.0f1").unwrap(), 20210300);
        assert_eq!(v("2019.4.0f1").unwrap(), 20190400);
        assert_eq!(v("2023.1.0a16").unwrap(), 20230100);
        assert_eq!(v("6000.2.1f1").unwrap(), 60000201);
        assert!(v("2020.3.0f1").unwrap() > v("2020.1.0b4").unwrap());
        assert!(v("banana").is_err());
        assert!(v("2021").is_err());
    }
}
