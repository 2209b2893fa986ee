//! Where every field lies: the positions the generated readers record (and the writers, for
//! what they write), and [`Place`], a position with its field path, for errors that name the
//! offset the reader saw instead of recomputing it.

use super::error::{Error, ErrorKind};
use super::path::Path;
use super::rule::Rule;
use std::borrow::Cow;
use std::marker::PhantomData;

/// A byte range of the input: `start..end`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

impl Span {
    /// `start..end`.
    #[inline]
    pub fn new(start: u64, end: u64) -> Self {
        Span { start, end }
    }

    /// The number of bytes.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether it holds no byte.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// As an index range into the input.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The positions of a value whose layout is fixed (a number, or a type made only of numbers at
/// fixed offsets), computed from where it starts: lists of them record only base and stride.
pub trait Fixed: Sized {
    /// The positions of a value of `size` bytes that starts at `start`.
    fn at(start: u64, size: u64) -> Self;
}

impl Fixed for Span {
    #[inline]
    fn at(start: u64, size: u64) -> Self {
        Span::new(start, start + size)
    }
}

/// A value's own byte range.
pub trait Spanned {
    /// The bytes the value took.
    fn span(&self) -> Span;
}

impl Spanned for Span {
    fn span(&self) -> Span {
        *self
    }
}

impl<P: Spanned> Spanned for Box<P> {
    fn span(&self) -> Span {
        (**self).span()
    }
}

impl<P: Spanned> Spanned for Option<P> {
    fn span(&self) -> Span {
        self.as_ref().map(Spanned::span).unwrap_or_default()
    }
}

/// The positions of a list of fixed-layout values: where it starts and how far apart they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strided<P> {
    /// Where the first element starts.
    pub base: u64,
    /// The size of each element.
    pub stride: u64,
    /// How many elements.
    pub count: usize,
    _p: PhantomData<P>,
}

impl<P: Fixed> Strided<P> {
    /// `count` elements of `stride` bytes from `base`.
    #[inline]
    pub fn new(base: u64, stride: u64, count: usize) -> Self {
        Strided {
            base,
            stride,
            count,
            _p: PhantomData,
        }
    }

    /// The positions of element `i` (computed, so also for `i` past the end).
    #[inline]
    pub fn get(&self, i: usize) -> P {
        P::at(self.base + self.stride * i as u64, self.stride)
    }

    /// The bytes of elements `from..from + count` (computed, so also past the end).
    #[inline]
    pub fn run(&self, from: usize, count: usize) -> Span {
        let at = |i: usize| {
            self.base
                .saturating_add(self.stride.saturating_mul(i as u64))
        };
        Span::new(at(from), at(from.saturating_add(count)))
    }
}

impl<P> Spanned for Strided<P> {
    fn span(&self) -> Span {
        Span::new(self.base, self.base + self.stride * self.count as u64)
    }
}

/// The positions of a list whose elements vary in size: each element's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Each<P> {
    /// The whole list.
    pub span: Span,
    /// Every element's positions.
    pub items: Vec<P>,
}

impl<P> Spanned for Each<P> {
    fn span(&self) -> Span {
        self.span
    }
}

/// A recorded position and the field path it belongs to, in the spec's ids. Generated methods
/// step into fields (`place.bones().at(2).class()`), so hand-written checks name what the
/// reader recorded instead of rebuilding offsets.
#[derive(Debug, Clone)]
pub struct Place<'p, P: Clone> {
    pos: Cow<'p, P>,
    path: Path,
}

impl<'p, P: Clone> Place<'p, P> {
    /// The place of a whole input read as the spec type `root`.
    pub fn root(pos: &'p P, root: &'static str) -> Self {
        Place {
            pos: Cow::Borrowed(pos),
            path: Path::root(root),
        }
    }

    /// The positions.
    pub fn get(&self) -> &P {
        &self.pos
    }

    /// The field path.
    pub fn field_path(&self) -> &Path {
        &self.path
    }

    /// The place of the case a switch field holds (same path, the case's positions).
    #[doc(hidden)]
    pub fn case<'s, Q: Clone>(&'s self, pos: &'s Q) -> Place<'s, Q> {
        Place {
            pos: Cow::Borrowed(pos),
            path: self.path.clone(),
        }
    }

    /// The place of a field of this value (generated accessors call this).
    #[doc(hidden)]
    pub fn field<'s, Q: Clone>(&'s self, name: &'static str, pos: &'s Q) -> Place<'s, Q> {
        Place {
            pos: Cow::Borrowed(pos),
            path: self.path.field(name),
        }
    }
}

impl<P: Clone> Place<'_, P> {
    /// This place with its positions copied, to keep beyond the positions it came from.
    pub fn owned(&self) -> Place<'static, P>
    where
        P: 'static,
    {
        Place {
            pos: Cow::Owned((*self.pos).clone()),
            path: self.path.clone(),
        }
    }
}

impl Place<'static, Span> {
    /// The place of `span` at `path` (a part of a value seen as one span).
    pub fn detached(span: Span, path: Path) -> Self {
        Place {
            pos: Cow::Owned(span),
            path,
        }
    }
}

impl<P: Clone + Spanned> Place<'_, P> {
    /// The bytes the value took.
    pub fn span(&self) -> Span {
        self.pos.span()
    }

    /// An error about this value, at its offset and path.
    #[cold]
    pub fn error(
        &self,
        kind: ErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Error {
        Error::new(kind, 0, expected, found).placed(self.span().start, &self.path)
    }

    /// A violation of `rule` by this value.
    #[cold]
    pub fn violates(
        &self,
        rule: &'static Rule,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Error {
        Error::relation(rule, 0, expected, found).placed(self.span().start, &self.path)
    }
}

impl<P: Clone + Fixed> Place<'_, Strided<P>> {
    /// The place of element `i`.
    pub fn at(&self, i: usize) -> Place<'static, P>
    where
        P: 'static,
    {
        Place {
            pos: Cow::Owned(self.pos.get(i)),
            path: self.path.index(i),
        }
    }
}

impl<P: Clone + Default> Place<'_, Each<P>> {
    /// The place of element `i` (an empty position past the end, never a panic).
    pub fn at(&self, i: usize) -> Place<'_, P> {
        Place {
            pos: match self.pos.items.get(i) {
                Some(p) => Cow::Borrowed(p),
                None => Cow::Owned(P::default()),
            },
            path: self.path.index(i),
        }
    }
}

impl<P: Clone> Place<'_, Option<P>> {
    /// The place of the value, when it is present.
    pub fn some(&self) -> Option<Place<'_, P>> {
        self.pos.as_ref().as_ref().map(|p| Place {
            pos: Cow::Borrowed(p),
            path: self.path.clone(),
        })
    }
}

impl<P: Clone> Place<'_, Box<P>> {
    /// The place of the boxed value.
    pub fn unboxed(&self) -> Place<'_, P> {
        Place {
            pos: Cow::Borrowed(&**self.pos),
            path: self.path.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_lists_name_their_elements() {
        let list: Strided<Span> = Strided::new(4, 16, 3);
        let root = Span::new(0, 52);
        let place = Place::root(&root, "meshbin");
        let l = place.field("vertices", &list);
        assert_eq!(l.span(), Span::new(4, 52));
        let e = l.at(2).error(ErrorKind::Invalid, "x", "y");
        assert_eq!(
            e.to_string(),
            "0x24 meshbin.vertices[2]: expected x, found y"
        );
    }
}
