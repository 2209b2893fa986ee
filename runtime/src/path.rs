//! Field paths in the spec's own ids: `sws_mesh.bones[2].matrix`. One type for every error the
//! library makes and every position it records.

use std::borrow::Cow;
use std::fmt;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A field of a type, by its spec id (or the root type's name).
    Field(Cow<'static, str>),
    /// An element of a repeated field.
    Index(usize),
}

/// A field path, outermost step first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(Vec<Seg>);

impl Path {
    /// The path of a whole input read as type `root`.
    pub fn root(root: impl Into<Cow<'static, str>>) -> Self {
        Path(vec![Seg::Field(root.into())])
    }

    /// The path one field further in.
    #[must_use]
    pub fn field(&self, name: impl Into<Cow<'static, str>>) -> Self {
        self.and(Seg::Field(name.into()))
    }

    /// The path of element `i` of the list this path names.
    #[must_use]
    pub fn index(&self, i: usize) -> Self {
        self.and(Seg::Index(i))
    }

    /// This path and one step more, in one allocation (a clone has no room for the step: the
    /// verdict's checks step into fields on every element they look at).
    fn and(&self, seg: Seg) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + 1);
        v.extend_from_slice(&self.0);
        v.push(seg);
        Path(v)
    }

    /// Adds a step at the end.
    pub fn push(&mut self, seg: Seg) {
        self.0.push(seg);
    }

    /// Removes the last step.
    pub fn pop(&mut self) -> Option<Seg> {
        self.0.pop()
    }

    /// The steps, outermost first.
    pub fn segs(&self) -> &[Seg] {
        &self.0
    }

    /// Whether there are no steps.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The path without its root and with element indices left out (`bones[].matrix`), so that
    /// errors and tallies group by field.
    pub fn pattern(&self) -> String {
        render(self.0.iter().skip(1), |_| String::new())
    }
}

pub(crate) fn render<'s>(
    segs: impl Iterator<Item = &'s Seg>,
    index: impl Fn(usize) -> String,
) -> String {
    let mut s = String::new();
    for seg in segs {
        match seg {
            Seg::Field(name) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(name);
            }
            Seg::Index(i) => {
                s.push('[');
                s.push_str(&index(*i));
                s.push(']');
            }
        }
    }
    s
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(self.0.iter(), |i| i.to_string()))
    }
}

impl FromIterator<Seg> for Path {
    fn from_iter<I: IntoIterator<Item = Seg>>(iter: I) -> Self {
        Path(iter.into_iter().collect())
    }
}
