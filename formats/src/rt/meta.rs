//! What the spec says about each field, as static tables the generator writes (the docs' rows,
//! for programs), and the two generated walks over a value: its positions ([`Walk`]: every byte
//! attributed to a field) and its values ([`Visitor`]: tallies straight from the typed view).

use super::path::{Path, Seg};
use super::pos::Span;
use super::rule::Confidence;

/// One field of a spec type, as the spec states it.
#[derive(Debug)]
pub struct FieldInfo {
    /// The spec id.
    pub id: &'static str,
    /// The type as the spec writes it (`u2`, `vertex`, `bytes`, `str`), with `[]` for a list and
    /// `?` for an optional field.
    pub ty: &'static str,
    /// The name the source document gives the row.
    pub orig_id: Option<&'static str>,
    /// How sure the documents are.
    pub confidence: Option<Confidence>,
    /// The documented offset, as the spec writes it.
    pub offset: Option<&'static str>,
    /// The census behind it.
    pub evidence: Option<&'static str>,
    /// The reading the field rests on, when the documents leave a choice open.
    pub reading: Option<&'static str>,
    /// What the field is.
    pub doc: &'static str,
}

/// A spec type, as the spec states it.
#[derive(Debug)]
pub struct TypeInfo {
    /// The spec's name for the type.
    pub name: &'static str,
    /// What the type is.
    pub doc: &'static str,
    /// How sure the documents are of the type as a whole.
    pub confidence: Option<Confidence>,
    /// Its fields, in order.
    pub fields: &'static [FieldInfo],
}

/// Positions with the spec's facts: [`Walk::walk`] calls `visit` for every field of a value
/// (and every element of its lists), outermost first, with the field's path, the bytes it took
/// and what the spec says about it. `leaf` is true for a field that holds no further fields.
pub trait Walk {
    /// Walks the positions below `path`.
    fn walk(&self, path: &mut Path, visit: &mut dyn FnMut(&Path, Span, &'static FieldInfo, bool));
}

/// A leaf value, as a visitor sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar<'a> {
    /// An unsigned integer (an enum's raw value, a bit field).
    U(u64),
    /// A signed integer.
    I(i64),
    /// A float, widened.
    F(f64),
    /// A one-bit flag.
    Bool(bool),
    /// Raw bytes.
    Bytes(&'a [u8]),
    /// Text.
    Str(&'a str),
}

macro_rules! scalar_from {
    ($v:ident: $($t:ty),*) => {$(
        impl From<$t> for Scalar<'_> {
            fn from(x: $t) -> Self {
                Scalar::$v(x.into())
            }
        }
    )*};
}
scalar_from!(U: u8, u16, u32, u64);
scalar_from!(I: i8, i16, i32, i64);
scalar_from!(F: f32, f64);
scalar_from!(Bool: bool);

impl<'a> From<&'a [u8]> for Scalar<'a> {
    fn from(x: &'a [u8]) -> Self {
        Scalar::Bytes(x)
    }
}

impl<'a> From<&'a str> for Scalar<'a> {
    fn from(x: &'a str) -> Self {
        Scalar::Str(x)
    }
}

/// Sees every field of a view, in order: `enter` a field (return `false` to skip it and all it
/// holds; then no `leave` follows), `present` if it is an optional field that is there, its
/// leaf `value`s (one per element of a list of numbers, each after its `index`), and `leave`.
pub trait Visitor {
    /// Whether to be shown the fields of numbers, bytes or text whose own confidence is
    /// proven; `false` skips them without an `enter` (asked once per record).
    fn proven_leaves(&self) -> bool {
        true
    }
    /// A field begins; whether to look into it.
    fn enter(&mut self, field: &'static FieldInfo) -> bool;
    /// The current field is optional and there (said before anything it holds).
    fn present(&mut self) {}
    /// A field that is one value and always there: `enter`, `value`, `leave` in one call.
    fn leaf(&mut self, field: &'static FieldInfo, v: Scalar<'_>) {
        if self.enter(field) {
            self.value(v);
            self.leave();
        }
    }
    /// The next value (or nested value) of the current field is element `i` of its list;
    /// whether to show it (`false` skips the rest of the list; `leave` still follows).
    fn index(&mut self, i: usize) -> bool {
        let _ = i;
        true
    }
    /// A leaf value of the current field.
    fn value(&mut self, v: Scalar<'_>);
    /// The current field ends.
    fn leave(&mut self);
}

/// Pushes `seg` for the duration of `f` (the walk's path bookkeeping).
#[doc(hidden)]
pub fn under(path: &mut Path, seg: Seg, f: impl FnOnce(&mut Path)) {
    path.push(seg);
    f(path);
    path.pop();
}

impl Walk for Span {
    fn walk(&self, _: &mut Path, _: &mut dyn FnMut(&Path, Span, &'static FieldInfo, bool)) {}
}

impl<P: Walk> Walk for Box<P> {
    fn walk(&self, path: &mut Path, visit: &mut dyn FnMut(&Path, Span, &'static FieldInfo, bool)) {
        (**self).walk(path, visit)
    }
}
