//! One verdict on one input: the structure (read, consumed exactly), every field check at its
//! severity, every relation the spec states, and every check a decoder makes that needs no
//! choice from the user. `check` prints it, `export` decodes only what passes it, `build` writes
//! only what passes it, and `survey` and the fuzz targets use it too.

use crate::context::{Context, Relations};
use crate::rt::{Error, ErrorKind, Nums, Place, Rule, Severity, Span, Strided};

/// What was found in one input.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    /// Why the input could not be read at all (its structure), when it could not: nothing else
    /// was checked then.
    pub refused: Option<Error>,
    /// Every rule or check that does not hold, in the order found, each with its severity.
    pub findings: Vec<Error>,
    /// What a reader of the input should know.
    pub notes: Vec<String>,
    /// Whether warnings fail the verdict too (`--strict`).
    pub strict: bool,
}

impl Verdict {
    /// Whether the input passes: it was read, and no finding is an error (nor a warning, when
    /// strict).
    pub fn passes(&self) -> bool {
        self.refused.is_none()
            && self
                .findings
                .iter()
                .all(|f| f.severity == Severity::Warning && !self.strict)
    }

    /// The findings that fail the input.
    pub fn errors(&self) -> impl Iterator<Item = &Error> {
        self.refused.iter().chain(
            self.findings
                .iter()
                .filter(|f| f.severity == Severity::Error),
        )
    }

    /// The findings reported without failing the input.
    pub fn warnings(&self) -> impl Iterator<Item = &Error> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
    }

    /// The first reason the input does not pass.
    pub fn first_failure(&self) -> Option<&Error> {
        self.errors().next().or(if self.strict {
            self.warnings().next()
        } else {
            None
        })
    }
}

/// What a family's checks report into.
pub struct Judge<'c> {
    /// What the user gave.
    pub ctx: &'c Context,
    findings: Vec<Error>,
    notes: Vec<String>,
    kept: Option<Kept>,
}

/// What a family's checks made on the way and keep for the reading's owner (a container's
/// unpacked contents), so nothing is unpacked twice.
pub type Kept = Box<dyn std::any::Any>;

impl<'c> Judge<'c> {
    /// A judge of an input whose structure read, starting from the reader's own `findings`.
    pub(crate) fn new(ctx: &'c Context, findings: Vec<Error>) -> Self {
        Judge {
            ctx,
            findings,
            notes: vec![],
            kept: None,
        }
    }

    /// The findings so far, for a pass that reports into a list (the field checks).
    pub(crate) fn findings_mut(&mut self) -> &mut Vec<Error> {
        &mut self.findings
    }

    /// The verdict: every finding, a violated relation a warning where the user asked for
    /// that, and what the checks kept.
    pub(crate) fn finish(mut self) -> (Verdict, Option<Kept>) {
        if self.ctx.relations == Relations::Warn {
            for f in &mut self.findings {
                if f.kind == ErrorKind::Relation {
                    f.severity = Severity::Warning;
                }
            }
        }
        let v = Verdict {
            refused: None,
            findings: self.findings,
            notes: self.notes,
            strict: self.ctx.strict,
        };
        (v, self.kept)
    }

    /// A finding: a rule that does not hold (its severity is the rule's) or a decoder's check.
    pub fn push(&mut self, e: Error) {
        self.findings.push(e);
    }

    /// Several findings.
    pub fn extend(&mut self, es: impl IntoIterator<Item = Error>) {
        self.findings.extend(es);
    }

    /// A check that could not run (a resource file that is not there): a warning, so the
    /// verdict never says plain `ok` about bytes it did not see.
    pub fn unchecked(&mut self, what: impl Into<String>, why: impl Into<String>) {
        self.findings.push(unchecked(what, why));
    }

    /// A note for the reader.
    pub fn note(&mut self, n: impl Into<String>) {
        self.notes.push(n.into());
    }

    /// Several notes.
    pub(crate) fn extend_notes(&mut self, ns: impl IntoIterator<Item = String>) {
        self.notes.extend(ns);
    }

    /// Keeps what the checks made (see [`Kept`]); the last kept value wins.
    pub fn keep<K: 'static>(&mut self, k: K) {
        self.kept = Some(Box::new(k));
    }

    /// Whether an error-severity finding was reported so far.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// A violation of `rule` for each of the triangle list's `indices` (placed by `list`) that
    /// names no vertex below `n`: how many there are.
    pub(crate) fn indices_below(
        &mut self,
        rule: &'static Rule,
        indices: &Nums<'_, u16>,
        list: &Place<'_, Strided<Span>>,
        n: usize,
    ) -> usize {
        let mut bad = 0;
        for (i, ix) in indices.iter().enumerate() {
            if usize::from(ix) >= n {
                bad += 1;
                self.push(list.at(i).violates(
                    rule,
                    format!("a vertex index below {n} (in triangle {})", i / 3),
                    ix.to_string(),
                ));
            }
        }
        bad
    }
}

/// The finding that a check could not run: a warning (see [`Judge::unchecked`]).
pub(crate) fn unchecked(what: impl Into<String>, why: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Unchecked, what, why).with_severity(Severity::Warning)
}

/// The verdict on an input whose structure does not read: `e` says why, and nothing else was
/// checked.
pub(crate) fn refused(e: Error, ctx: &Context) -> Verdict {
    Verdict {
        refused: Some(e),
        strict: ctx.strict,
        ..Verdict::default()
    }
}
