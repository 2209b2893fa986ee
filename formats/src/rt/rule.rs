//! Rules the documents state (relations between fields, constants), with the strength the
//! documents give them: what a violation costs follows from how sure the documents are.

use std::fmt;

/// How sure the documents are of a row: the spec's `-confidence`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Holds on every instance of a full census.
    Proven,
    /// Seen, not exhaustively.
    Observed,
    /// From vendor documentation or another implementation.
    Sourced,
    /// Reasoned, not seen (and every reading of ambiguous text).
    Inferred,
    /// Stored; its meaning is not established.
    Unknown,
}

impl Confidence {
    /// The word the documents use.
    pub fn word(self) -> &'static str {
        match self {
            Confidence::Proven => "proven",
            Confidence::Observed => "observed",
            Confidence::Sourced => "sourced",
            Confidence::Inferred => "inferred",
            Confidence::Unknown => "unknown",
        }
    }
}

/// What a violation does to a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// The input is refused.
    #[default]
    Error,
    /// Reported; the input passes (unless the caller is strict).
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A relation the spec states (`-relations`), generated as a constant of the type it belongs
/// to (`SwsMesh::REL_TOTAL_ADDS_UP`) so that hand-written checks name it by value, not by text.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The relation's id in the spec.
    pub id: &'static str,
    /// The spec type that states it.
    pub owner: &'static str,
    /// How sure the documents are.
    pub confidence: Option<Confidence>,
    /// What a violation costs (the generator derives it from the confidence).
    pub severity: Severity,
}
