//! How sure the documents are of a fact (the spec's `-confidence`) and what breaking a rule
//! of that strength costs. One definition for both sides of the generator: `meshspec-codegen`
//! reads the words from the specs, the library's runtime carries them in every generated
//! rule and field description. (The generator cannot depend on the crate it generates, so
//! the words live here, below both.)

use std::fmt;

/// How sure the documents are of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
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
    /// Every confidence, strongest first (the order the docs count them in).
    pub const ALL: [Confidence; 5] = [
        Confidence::Proven,
        Confidence::Observed,
        Confidence::Sourced,
        Confidence::Inferred,
        Confidence::Unknown,
    ];

    /// The word the documents and the spec use (`proven`).
    pub fn word(self) -> &'static str {
        match self {
            Confidence::Proven => "proven",
            Confidence::Observed => "observed",
            Confidence::Sourced => "sourced",
            Confidence::Inferred => "inferred",
            Confidence::Unknown => "unknown",
        }
    }

    /// The word as a heading or a Rust variant writes it (`Proven`).
    pub fn title(self) -> &'static str {
        match self {
            Confidence::Proven => "Proven",
            Confidence::Observed => "Observed",
            Confidence::Sourced => "Sourced",
            Confidence::Inferred => "Inferred",
            Confidence::Unknown => "Unknown",
        }
    }

    /// The confidence of a word, if it is one.
    pub fn from_word(w: &str) -> Option<Confidence> {
        Self::ALL.into_iter().find(|c| c.word() == w)
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// What breaking a rule does to a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Severity {
    /// The input is refused.
    #[default]
    Error,
    /// Reported; the input passes (unless the caller is strict).
    Warning,
}

impl Severity {
    /// The severity of a rule the documents state with confidence `c`: what they prove
    /// refuses the input; what they observe, source or leave us to infer warns.
    pub fn of(c: Confidence) -> Severity {
        match c {
            Confidence::Proven => Severity::Error,
            Confidence::Observed
            | Confidence::Sourced
            | Confidence::Inferred
            | Confidence::Unknown => Severity::Warning,
        }
    }

    /// `error` or `warning`.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    /// The severity of a word, if it is one.
    pub fn from_word(w: &str) -> Option<Severity> {
        [Severity::Error, Severity::Warning]
            .into_iter()
            .find(|s| s.word() == w)
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        for c in Confidence::ALL {
            assert_eq!(Confidence::from_word(c.word()), Some(c));
            assert_eq!(c.title().to_ascii_lowercase(), c.word());
        }
        assert_eq!(Confidence::from_word("Proven"), None);
        assert_eq!(Severity::from_word("warning"), Some(Severity::Warning));
        assert_eq!(Severity::of(Confidence::Proven), Severity::Error);
        assert_eq!(Severity::of(Confidence::Observed), Severity::Warning);
    }
}
