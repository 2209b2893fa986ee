//! Rules the documents state (relations between fields, constants), with the strength the
//! documents give them: what a violation costs follows from how sure the documents are.

pub use meshspec_confidence::{Confidence, Severity};

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
