//! What the spec says about each field, as static tables the generator writes (the docs' rows,
//! for programs), and the two generated walks over a value: its positions ([`Walk`]: every byte
//! attributed to a field) and its values ([`Visitor`]: tallies straight from the typed view).

use super::path::{Path, Seg};
use super::pos::Span;
use super::rule::Confidence;

/// One field of a spec type, as the spec states it.
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
    /// The field's condition (`if`), as a function of its type's parameters (in the order of
    /// [`TypeInfo::params`]): whether the field is there, or `None` where the condition reads
    /// the bytes. `None` for a field that is always there.
    pub when: Option<Condition>,
    /// The spec type the field holds (each element's, for a list), if it holds one.
    pub of: Option<Nested>,
    /// The bytes one value of the field takes (one element's, for a list), where every value
    /// takes the same (a number, a fixed number of bytes, a type of fixed size).
    pub size: Option<u64>,
    /// The element count of a list whose count the spec fixes (`repeat-expr: 16`).
    pub count: Option<u64>,
}

impl std::fmt::Debug for FieldInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldInfo")
            .field("id", &self.id)
            .field("ty", &self.ty)
            .field("offset", &self.offset)
            .field("confidence", &self.confidence)
            .field("of", &self.of)
            .field("size", &self.size)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

/// A field's condition over its type's parameter values: whether the field is there, `None`
/// where the condition reads the bytes. A closure, so that tables built when a spec is loaded
/// (the interpreter's) carry conditions as well as the generated ones.
pub type Condition = &'static (dyn Fn(&[i128]) -> Option<bool> + Sync);

/// A nested type's arguments from the enclosing type's parameter values, `None` where they
/// read the bytes.
pub type Arguments = &'static (dyn Fn(&[i128]) -> Option<Vec<i128>> + Sync);

/// The spec type a field holds, and the arguments it gets.
#[derive(Clone, Copy)]
pub struct Nested {
    /// The type (a function, so that a type may hold itself).
    pub info: &'static (dyn Fn() -> &'static TypeInfo + Sync),
    /// Its arguments from the values of the enclosing type's parameters, or `None` where they
    /// read the bytes.
    pub args: Arguments,
}

impl std::fmt::Debug for Nested {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Nested({})", (self.info)().name)
    }
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
    /// Its parameters' names, in order.
    pub params: &'static [&'static str],
    /// Its fields, in order.
    pub fields: &'static [FieldInfo],
}

/// A field of a type as the values of the type's parameters lay it out, before any byte is
/// read (see [`shape`]).
#[derive(Debug, Clone)]
pub struct Shaped {
    /// The field.
    pub info: &'static FieldInfo,
    /// Whether the field is there in every value (`false`: its condition reads the bytes).
    pub certain: bool,
    /// The fields of the spec type it holds (of each element, for a list), laid out by the
    /// arguments it gets; empty for numbers, bytes and text, for a type whose arguments read
    /// the bytes, and for a type inside itself.
    pub fields: Vec<Shaped>,
}

/// The fields of `ty` that are there for the parameter values `params` (in the order of
/// [`TypeInfo::params`]), each with the fields of the type it holds, as deep as the types go:
/// the layout the spec gives those values, from the spec alone. A field whose condition reads
/// the bytes is kept, marked not [`Shaped::certain`].
pub fn shape(ty: &'static TypeInfo, params: &[i128]) -> Vec<Shaped> {
    shape_in(ty, params, &mut vec![])
}

fn shape_in(
    ty: &'static TypeInfo,
    params: &[i128],
    inside: &mut Vec<&'static TypeInfo>,
) -> Vec<Shaped> {
    inside.push(ty);
    let mut out = vec![];
    for f in ty.fields {
        let there = f.when.map(|w| w(params));
        if there == Some(Some(false)) {
            continue;
        }
        let fields = match f.of {
            Some(n) => {
                let t = (n.info)();
                match (n.args)(params) {
                    Some(args) if !inside.iter().any(|o| std::ptr::eq(*o, t)) => {
                        shape_in(t, &args, inside)
                    }
                    _ => vec![],
                }
            }
            None => vec![],
        };
        out.push(Shaped {
            info: f,
            certain: there != Some(None),
            fields,
        });
    }
    inside.pop();
    out
}

/// Positions with the spec's facts: [`Walk::walk`] calls `visit` for every field of a value
/// (and every element of its lists), outermost first, with the field's path, the bytes it took
/// and what the spec says about it. `leaf` is true for a field that holds no further fields.
pub trait Walk {
    /// Walks the positions below `path`.
    fn walk(&self, path: &mut Path, visit: &mut dyn FnMut(&Path, Span, &'static FieldInfo, bool));

    /// Calls `visit` for each field of this value's own type that is there (a list once, with
    /// the bytes of all its elements), without looking into them: the top level of
    /// [`Walk::walk`], for what needs no more.
    fn own_fields(&self, visit: &mut dyn FnMut(Span, &'static FieldInfo)) {
        let _ = visit;
    }
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

    fn own_fields(&self, visit: &mut dyn FnMut(Span, &'static FieldInfo)) {
        (**self).own_fields(visit)
    }
}
