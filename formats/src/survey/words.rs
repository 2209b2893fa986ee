//! The confidence and severity words in a survey's JSON, read back for `survey --merge` (the
//! runtime's types only write them).

use crate::rt::{Confidence, Severity};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const CONFIDENCES: [Confidence; 5] = [
    Confidence::Proven,
    Confidence::Observed,
    Confidence::Sourced,
    Confidence::Inferred,
    Confidence::Unknown,
];

fn confidence_of<E: serde::de::Error>(w: &str) -> Result<Confidence, E> {
    CONFIDENCES
        .into_iter()
        .find(|c| c.word() == w)
        .ok_or_else(|| E::custom(format!("a confidence word, not `{w}`")))
}

/// A confidence.
pub mod confidence {
    use super::*;

    /// As its word.
    pub fn serialize<S: Serializer>(c: &Confidence, s: S) -> Result<S::Ok, S::Error> {
        c.serialize(s)
    }

    /// From its word.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Confidence, D::Error> {
        confidence_of(&String::deserialize(d)?)
    }
}

/// A confidence that may be missing.
pub mod opt_confidence {
    use super::*;

    /// As its word, or null.
    pub fn serialize<S: Serializer>(c: &Option<Confidence>, s: S) -> Result<S::Ok, S::Error> {
        c.serialize(s)
    }

    /// From its word, or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Confidence>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|w| confidence_of(&w))
            .transpose()
    }
}

/// A severity.
pub mod severity {
    use super::*;

    /// As its word.
    pub fn serialize<S: Serializer>(v: &Severity, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    /// From its word.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Severity, D::Error> {
        match String::deserialize(d)?.as_str() {
            "error" => Ok(Severity::Error),
            "warning" => Ok(Severity::Warning),
            w => Err(serde::de::Error::custom(format!(
                "`error` or `warning`, not `{w}`"
            ))),
        }
    }
}
