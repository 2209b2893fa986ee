//! What the interpreter reads into: one dynamic value per spec value (the generated code's
//! view and owned value in one type: read values borrow the input, dump values own their
//! data), and the positions the generated `XPos` types record, with the same shapes (lists of
//! fixed layout as base and stride, others element by element).

use crate::rt::Span;
use binrw::Endian;
use meshspec_model::Prim;
use std::borrow::Cow;

/// Runs `$body` with `$t` the Rust type of number `$p` (the generated code names it
/// statically; the interpreter calls the same generic runtime functions with it).
macro_rules! by_prim {
    ($p:expr, $t:ident => $body:expr) => {{
        use meshspec_model::PrimKind as K;
        match ($p.kind, $p.bytes) {
            (K::U, 1) => {
                type $t = u8;
                $body
            }
            (K::U, 2) => {
                type $t = u16;
                $body
            }
            (K::U, 4) => {
                type $t = u32;
                $body
            }
            (K::U, _) => {
                type $t = u64;
                $body
            }
            (K::S, 1) => {
                type $t = i8;
                $body
            }
            (K::S, 2) => {
                type $t = i16;
                $body
            }
            (K::S, 4) => {
                type $t = i32;
                $body
            }
            (K::S, _) => {
                type $t = i64;
                $body
            }
            (K::F, 4) => {
                type $t = f32;
                $body
            }
            (K::F, _) => {
                type $t = f64;
                $body
            }
        }
    }};
}
pub(super) use by_prim;

/// [`by_prim!`] for integer types (a float is taken as `u64`: never asked).
macro_rules! by_int {
    ($p:expr, $t:ident => $body:expr) => {{
        use meshspec_model::PrimKind as K;
        match ($p.kind, $p.bytes) {
            (K::U, 1) => {
                type $t = u8;
                $body
            }
            (K::U, 2) => {
                type $t = u16;
                $body
            }
            (K::U, 4) => {
                type $t = u32;
                $body
            }
            (K::S, 1) => {
                type $t = i8;
                $body
            }
            (K::S, 2) => {
                type $t = i16;
                $body
            }
            (K::S, 4) => {
                type $t = i32;
                $body
            }
            (K::S, _) => {
                type $t = i64;
                $body
            }
            _ => {
                type $t = u64;
                $body
            }
        }
    }};
}
pub(super) use by_int;

/// A value of a spec field (one element of it, for a list), or of a spec type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val<'a> {
    /// A field whose `if` does not hold.
    Absent,
    /// A `contents` constant (checked and written, not kept).
    Unit,
    /// An unsigned number (an enum's raw value, a bit field).
    U(u64),
    /// A signed number.
    I(i64),
    F32(f32),
    F64(f64),
    /// A one-bit field.
    Bool(bool),
    Bytes(Cow<'a, [u8]>),
    Str(Cow<'a, str>),
    /// A value of a spec type: every field in spec order (`contents` as [`Val::Unit`]).
    Struct(Box<[Val<'a>]>),
    /// A switch field: which of its target types (in the order of its cases), and the value.
    Case(usize, Box<Val<'a>>),
    /// A list read or given element by element.
    List(Vec<Val<'a>>),
    /// A list of numbers, as a view of the input.
    Nums(Nums<'a>),
    /// A list of values of a block type (numbers at fixed offsets, this many bytes each), as
    /// a view of the input.
    Blocks(Cow<'a, [u8]>, u64),
    /// A list of byte runs of one size, as a view of the input.
    Chunks(Cow<'a, [u8]>, u64),
}

/// Numbers of one type and byte order, borrowed from the input.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Nums<'a> {
    pub bytes: Cow<'a, [u8]>,
    pub prim: Prim,
    pub endian: Endian,
}

impl Nums<'_> {
    pub fn len(&self) -> usize {
        self.bytes.len() / usize::from(self.prim.bytes)
    }
}

/// The elements of a run of `size` bytes each in `b` (`rt::Chunks`: none of size 0).
pub(crate) fn runs(b: &[u8], size: u64) -> impl Iterator<Item = &[u8]> {
    let size = usize::try_from(size).unwrap_or(0);
    let n = b.len().checked_div(size).unwrap_or(0);
    b[..n * size].chunks_exact(size.max(1)).take(n)
}

/// The number of type `p` stored in `b` (at least as long as the number) in order `e`.
pub(crate) fn num<'a>(p: Prim, e: Endian, b: &[u8]) -> Val<'a> {
    use crate::rt::pod::Pod;
    by_prim!(p, T => Val::from(T::from_slice(b, e)))
}

/// A number as the type it is stored as.
pub(crate) fn number<T: NumFrom>(v: &Val<'_>) -> T {
    T::from_val(v)
}

pub(crate) trait NumFrom {
    fn from_val(v: &Val<'_>) -> Self;
}

macro_rules! num_from {
    ($($t:ty),*) => {$(
        impl NumFrom for $t {
            fn from_val(v: &Val<'_>) -> Self {
                match v {
                    Val::U(u) => *u as $t,
                    Val::I(i) => *i as $t,
                    Val::F32(f) => *f as $t,
                    Val::F64(f) => *f as $t,
                    Val::Bool(b) => u8::from(*b) as $t,
                    _ => 0 as $t,
                }
            }
        }
    )*};
}
num_from!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

macro_rules! val_from {
    ($v:ident as $w:ty: $($t:ty),*) => {$(
        impl From<$t> for Val<'_> {
            fn from(x: $t) -> Self {
                Val::$v(<$w>::from(x))
            }
        }
    )*};
}
val_from!(U as u64: u8, u16, u32, u64);
val_from!(I as i64: i8, i16, i32, i64);

impl From<f32> for Val<'_> {
    fn from(x: f32) -> Self {
        Val::F32(x)
    }
}

impl From<f64> for Val<'_> {
    fn from(x: f64) -> Self {
        Val::F64(x)
    }
}

impl<'a> Val<'a> {
    /// The value as an expression sees it (`rt::Int`): numbers, flags as 0 and 1.
    pub fn int(&self) -> i128 {
        match self {
            Val::U(u) => i128::from(*u),
            Val::I(i) => i128::from(*i),
            Val::Bool(b) => i128::from(*b),
            _ => 0,
        }
    }

    /// The number of elements of a list, bytes of a blob or of text (`.size`).
    pub fn len(&self) -> usize {
        match self {
            Val::List(v) => v.len(),
            Val::Nums(n) => n.len(),
            Val::Blocks(b, size) | Val::Chunks(b, size) => usize::try_from(*size)
                .ok()
                .and_then(|s| b.len().checked_div(s))
                .unwrap_or(0),
            Val::Bytes(b) => b.len(),
            Val::Str(s) => s.len(),
            _ => 0,
        }
    }

    /// The same value owning everything it holds.
    pub fn into_static(self) -> Val<'static> {
        let owned = |b: Cow<'_, [u8]>| Cow::Owned(b.into_owned());
        match self {
            Val::Absent => Val::Absent,
            Val::Unit => Val::Unit,
            Val::U(u) => Val::U(u),
            Val::I(i) => Val::I(i),
            Val::F32(x) => Val::F32(x),
            Val::F64(x) => Val::F64(x),
            Val::Bool(b) => Val::Bool(b),
            Val::Bytes(b) => Val::Bytes(owned(b)),
            Val::Str(s) => Val::Str(Cow::Owned(s.into_owned())),
            Val::Struct(f) => Val::Struct(f.into_vec().into_iter().map(Val::into_static).collect()),
            Val::Case(v, x) => Val::Case(v, Box::new(x.into_static())),
            Val::List(v) => Val::List(v.into_iter().map(Val::into_static).collect()),
            Val::Nums(n) => Val::Nums(Nums {
                bytes: owned(n.bytes),
                prim: n.prim,
                endian: n.endian,
            }),
            Val::Blocks(b, size) => Val::Blocks(owned(b), size),
            Val::Chunks(b, size) => Val::Chunks(owned(b), size),
        }
    }

    /// The fields of a value of a spec type (none for anything else).
    pub fn fields(&self) -> &[Val<'a>] {
        match self {
            Val::Struct(f) => f,
            _ => &[],
        }
    }

    /// The raw bytes of a blob.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Val::Bytes(b) => b,
            _ => &[],
        }
    }

    /// The text of a text field.
    pub fn text(&self) -> &str {
        match self {
            Val::Str(s) => s,
            _ => "",
        }
    }
}

/// Where a value lies, in the shapes of the generated positions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Pos {
    /// Not recorded (a reading that was not asked for positions), or a field that is not there.
    #[default]
    Absent,
    /// A number, bytes, text, a constant.
    Span(Span),
    /// A value of a spec type.
    Struct(StructPos),
    /// A list whose elements all take the same bytes in the same layout.
    Strided {
        base: u64,
        stride: u64,
        count: usize,
    },
    /// A list of elements of varying size.
    Each { span: Span, items: Vec<Pos> },
}

/// Where a value of a spec type and each of its fields lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StructPos {
    /// Its type (the case of a switch is known from it).
    pub ty: usize,
    pub span: Span,
    pub fields: Box<[Pos]>,
}

impl Pos {
    /// The bytes the value took (`rt::Spanned`).
    pub fn span(&self) -> Span {
        match self {
            Pos::Absent => Span::default(),
            Pos::Span(s) => *s,
            Pos::Struct(p) => p.span,
            Pos::Strided {
                base,
                stride,
                count,
            } => Span::new(*base, base + stride * *count as u64),
            Pos::Each { span, .. } => *span,
        }
    }
}
