//! The traits generated types implement: [`Codec`] for every type of a spec, [`Root`] for the
//! types a user can name on the command line, and the small helpers generated code calls.

use super::error::{Error, ErrorKind, Result};
use super::input::Input;
use super::output::Output;
use super::pos::{Place, Spanned};
use super::rule::Rule;
use std::collections::BTreeMap;

/// A type of a spec. One generated reader makes a borrowed view of the input ([`Codec::Ref`])
/// and, when asked, the positions of every field ([`Codec::Pos`]); the owned value (for edits
/// and dumps) is made from the view, so there is only one reading. One generated writer writes
/// the owned value back.
pub trait Codec: Sized {
    /// The type's parameters (the spec's `params`), as a tuple.
    type Args: Copy;
    /// The borrowed view: numbers by value, blobs and lists of numbers as views of the input.
    type Ref<'a>;
    /// Where every field lies.
    type Pos: Clone + Default + Spanned + PartialEq + std::fmt::Debug + super::meta::Walk;
    /// The fewest bytes a value can take: bounds counts before anything is allocated.
    const MIN_SIZE: u64;

    /// Reads a value at the input's position. With `L` (located), also returns where every
    /// field lies; without it, nothing is recorded.
    fn read_in<'a, const L: bool>(
        input: &mut Input<'a>,
        args: Self::Args,
    ) -> Result<(Self::Ref<'a>, Option<Self::Pos>)>;

    /// The owned value of a view (copies every view).
    fn own(view: &Self::Ref<'_>) -> Self;

    /// Writes the value, recomputing counts and sizes that are plain fields. With `L`, also
    /// returns where every field was written.
    fn write_out<const L: bool>(
        &self,
        out: &mut Output,
        args: Self::Args,
    ) -> Result<Option<Self::Pos>>;

    /// The checks made on a reading that do not refuse it: the field checks the spec makes
    /// warnings (rules the documents do not call proven) and the relations the spec states as
    /// expressions, each failure at its place with its rule's severity.
    fn checks(view: &Self::Ref<'_>, at: &Place<'_, Self::Pos>, out: &mut Vec<Error>) {
        let _ = (view, at, out);
    }

    /// About how many bytes the value takes when written (to allocate the output once).
    fn size_hint(&self) -> usize;

    /// What the spec says about the type and each of its fields.
    const INFO: &'static super::meta::TypeInfo;

    /// Shows every field of a view to `v`, in order.
    fn visit(view: &Self::Ref<'_>, v: &mut dyn super::meta::Visitor);
}

/// Values for layout parameters that the bytes do not say (the Unity editor version), by the
/// name the spec gives them with `-context`.
pub trait Params {
    /// The value named `name`, if given.
    fn param(&self, name: &str) -> Option<i128>;
}

impl Params for () {
    fn param(&self, _: &str) -> Option<i128> {
        None
    }
}

impl Params for BTreeMap<String, i128> {
    fn param(&self, name: &str) -> Option<i128> {
        self.get(name).copied()
    }
}

/// The parameter a layout needs and was not given.
pub fn missing_param(name: &str) -> Error {
    Error::unplaced(
        ErrorKind::Input,
        format!("a value for `{name}` (this layout needs it)"),
        "none given",
    )
}

/// A whole input read as a [`Root`].
pub struct Parsed<'a, T: Codec> {
    /// The view of the input.
    pub value: T::Ref<'a>,
    /// Where every field lies (when read located).
    pub pos: Option<T::Pos>,
    /// Checks that failed without refusing the input.
    pub warnings: Vec<Error>,
}

/// A type that can be read as a whole input: a layout the command line names.
pub trait Root: Codec + serde::Serialize + serde::de::DeserializeOwned {
    /// The layout id (`sws-mesh`).
    const ID: &'static str;
    /// The first step of field paths: the spec's name for the type.
    const ROOT: &'static str;
    /// One line for `meshspec layouts`.
    const DESCRIPTION: &'static str;
    /// The spec file it is generated from, relative to the repository.
    const SPEC: &'static str;
    /// The dump paths (`bones[].name_hash`) of the fields the spec marks unknown.
    const UNKNOWN: &'static [&'static str];
    /// The names of the values the user gives for its parameters (`unity_version`).
    const PARAMS: &'static [&'static str];
    /// For each parameter, the values the spec compares it with, in order: where the layout
    /// changes (`unity_version`: 20170300, 20180100, ...).
    const CUT_OFFS: &'static [(&'static str, &'static [i128])];
    /// Every relation the spec states for the types a value of this layout holds.
    const RULES: &'static [&'static Rule];
    /// The constants every value holds at fixed offsets (offset, bytes): what recognises an
    /// input as this layout before it is read. Empty for a layout without any.
    const SIGNATURE: &'static [(u64, &'static [u8])];

    /// Whether `input` holds this layout's constants where the spec puts them (never true for a
    /// layout without any).
    fn claims(input: &[u8]) -> bool {
        claims(Self::SIGNATURE, input)
    }

    /// The parameters of a whole input, from the values given.
    fn args(params: &dyn Params) -> Result<Self::Args>;

    /// Reads `input`, which must hold exactly one value (a reading [`super::readings`] counts).
    fn read<'a, const L: bool>(input: &'a [u8], params: &dyn Params) -> Result<Parsed<'a, Self>> {
        super::readings::note(Self::ID);
        Self::parse::<L>(input, params)
    }

    /// [`Root::read`] without counting: the writer's own check of the bytes it wrote.
    #[doc(hidden)]
    fn parse<'a, const L: bool>(input: &'a [u8], params: &dyn Params) -> Result<Parsed<'a, Self>> {
        let args = Self::args(params)?;
        let mut r = Input::new(input);
        let (value, pos) = Self::read_in::<L>(&mut r, args).map_err(|e| e.rooted(Self::ROOT))?;
        let warnings = r.finish().map_err(|e| e.rooted(Self::ROOT))?;
        let warnings = warnings.into_iter().map(|w| w.rooted(Self::ROOT)).collect();
        Ok(Parsed {
            value,
            pos,
            warnings,
        })
    }

    /// Reads `input` into an owned value.
    fn from_bytes<P: Params + ?Sized>(input: &[u8], params: &P) -> Result<Self> {
        let p = Self::read::<false>(input, &ParamsRef(params))?;
        Ok(Self::own(&p.value))
    }

    /// Reads `input` (located) and runs the checks that do not refuse it: the field checks the
    /// spec makes warnings and the relations it states as expressions (`-check`). Returns every
    /// failure, each with its offset, field path and severity (a relation's follows from its
    /// `-confidence`: proven is [`Severity::Error`](super::rule::Severity)); an input the reader
    /// refuses is the error.
    fn findings<P: Params + ?Sized>(input: &[u8], params: &P) -> Result<Vec<Error>> {
        let p = Self::read::<true>(input, &ParamsRef(params))?;
        let mut out = p.warnings;
        if let Some(pos) = &p.pos {
            Self::checks(&p.value, &Place::root(pos, Self::ROOT), &mut out);
        }
        Ok(out)
    }

    /// Writes the value into a new buffer.
    fn to_bytes<P: Params + ?Sized>(&self, params: &P) -> Result<Vec<u8>> {
        Ok(self.write::<false>(&ParamsRef(params))?.0)
    }

    /// Writes the value, and with `L` where every field went. The bytes are read back before
    /// they are returned: what the reader would refuse (a limit that depends on the bytes
    /// around a field, such as a list of empty elements at the end of the input, which the
    /// reader bounds by the bytes left) is refused here, at the field the reader names, so no
    /// caller ever holds bytes the reader would not read.
    fn write<const L: bool>(&self, params: &dyn Params) -> Result<(Vec<u8>, Option<Self::Pos>)> {
        let args = Self::args(params)?;
        let mut out = Output::with_capacity(self.size_hint());
        let pos = self
            .write_out::<L>(&mut out, args)
            .map_err(|e| e.rooted(Self::ROOT))?;
        let bytes = out.into_vec();
        if let Err(e) = Self::parse::<false>(&bytes, params) {
            return Err(e.written());
        }
        Ok((bytes, pos))
    }
}

/// Whether `input` holds a layout's constants (`signature`: offset and bytes) where the spec
/// puts them (never true for a layout without any).
pub fn claims(signature: &[(u64, &[u8])], input: &[u8]) -> bool {
    !signature.is_empty()
        && signature.iter().all(|&(at, b)| {
            usize::try_from(at)
                .ok()
                .and_then(|at| input.get(at..at.checked_add(b.len())?))
                == Some(b)
        })
}

struct ParamsRef<'p, P: ?Sized>(&'p P);

impl<P: Params + ?Sized> Params for ParamsRef<'_, P> {
    fn param(&self, name: &str) -> Option<i128> {
        self.0.param(name)
    }
}

/// Integer view of field values inside spec expressions, which are evaluated in `i128` so that
/// no product of two file values can overflow.
pub trait Int {
    /// The value as an `i128`.
    fn int(&self) -> i128;
}

macro_rules! int_impl {
    ($($t:ty),*) => {$(
        impl Int for $t {
            #[inline]
            fn int(&self) -> i128 {
                i128::from(*self)
            }
        }
    )*};
}
int_impl!(u8, u16, u32, u64, i8, i16, i32, i64, bool);

impl<T: Int + ?Sized> Int for &T {
    #[inline]
    fn int(&self) -> i128 {
        (**self).int()
    }
}

/// Converts an expression value into a parameter's type.
pub fn arg<T: TryFrom<i128>>(offset: u64, value: i128, param: &str) -> Result<T> {
    T::try_from(value).map_err(|_| {
        Error::new(
            ErrorKind::Count,
            offset,
            format!(
                "a value that fits parameter `{param}` ({})",
                std::any::type_name::<T>()
            ),
            value.to_string(),
        )
    })
}

/// The value of a conditional field an expression reads: an error when it is absent (its `if`
/// does not hold), as Kaitai's generated code fails too.
pub fn present<'v, T>(value: Option<&'v T>, offset: u64, field: &str) -> Result<&'v T> {
    value.ok_or_else(|| absent(offset, field))
}

/// The error for a conditional field an expression reads where it is absent ([`present`]).
#[cold]
pub fn absent(offset: u64, field: &str) -> Error {
    Error::new(
        ErrorKind::Invalid,
        offset,
        format!("`{field}` to be present where an expression reads it"),
        "no value (its `if` does not hold)",
    )
}

/// Division in spec expressions: by zero gives 0 (no spec divides by a value read from a file,
/// and a check that uses the result then fails with the values shown).
pub fn div(a: i128, b: i128) -> i128 {
    a.checked_div(b).unwrap_or(0)
}

/// Remainder in spec expressions, with the same rule as [`div`].
pub fn rem(a: i128, b: i128) -> i128 {
    a.checked_rem(b).unwrap_or(0)
}

/// Shows an integer the way the spec wrote its constant: hex, zero-padded to `digits`.
pub fn show_hex(v: i128, digits: usize) -> String {
    if v < 0 {
        format!("-0x{:0digits$X}", v.unsigned_abs())
    } else {
        format!("0x{v:0digits$X}")
    }
}

/// The variants of a generated switch enum, named for errors.
pub trait Variant {
    /// The variant's name.
    fn variant(&self) -> &'static str;
}

/// The variant's name, for "found" in errors.
pub fn variant_name<T: Variant>(v: &T) -> String {
    format!("a {}", v.variant())
}

/// binrw's `BinRead`/`BinWrite` for a generated type, on top of its [`Codec`]: a stream is
/// read from its position to its end, and left just after the value.
#[macro_export]
macro_rules! binrw_adapter {
    ($t:ty, $endian:expr) => {
        impl $crate::binrw::BinRead for $t {
            type Args<'a> = <$t as $crate::Codec>::Args;
            fn read_options<R: $crate::binrw::io::Read + $crate::binrw::io::Seek>(
                r: &mut R,
                _endian: $crate::binrw::Endian,
                args: Self::Args<'_>,
            ) -> $crate::binrw::BinResult<Self> {
                $crate::codec::binrw_read::<$t, R>(r, args)
            }
        }
        impl $crate::binrw::BinWrite for $t {
            type Args<'a> = <$t as $crate::Codec>::Args;
            fn write_options<W: $crate::binrw::io::Write + $crate::binrw::io::Seek>(
                &self,
                w: &mut W,
                _endian: $crate::binrw::Endian,
                args: Self::Args<'_>,
            ) -> $crate::binrw::BinResult<()> {
                $crate::codec::binrw_write::<$t, W>(self, w, args)
            }
        }
        impl $crate::binrw::meta::ReadEndian for $t {
            const ENDIAN: $crate::binrw::meta::EndianKind =
                $crate::binrw::meta::EndianKind::Endian($endian);
        }
        impl $crate::binrw::meta::WriteEndian for $t {
            const ENDIAN: $crate::binrw::meta::EndianKind =
                $crate::binrw::meta::EndianKind::Endian($endian);
        }
    };
}
// Where generated code names it (`macro_export` puts it at the crate root).
#[doc(inline)]
pub use crate::binrw_adapter;

#[doc(hidden)]
pub fn binrw_read<T: Codec, R: binrw::io::Read + binrw::io::Seek>(
    r: &mut R,
    args: T::Args,
) -> binrw::BinResult<T> {
    use binrw::io::SeekFrom;
    let start = r.stream_position()?;
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)?;
    let mut input = Input::new(&buf);
    let (view, _) =
        T::read_in::<false>(&mut input, args).map_err(|e| e.shifted(start).into_binrw())?;
    r.seek(SeekFrom::Start(start + input.pos()))?;
    Ok(T::own(&view))
}

#[doc(hidden)]
pub fn binrw_write<T: Codec, W: binrw::io::Write + binrw::io::Seek>(
    v: &T,
    w: &mut W,
    args: T::Args,
) -> binrw::BinResult<()> {
    let mut out = Output::default();
    v.write_out::<false>(&mut out, args)
        .map_err(Error::into_binrw)?;
    w.write_all(out.as_slice())?;
    Ok(())
}
