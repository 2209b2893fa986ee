//! The traits generated types implement: [`Codec`] for every type of a spec, [`Layout`] for the
//! types a user can name on the command line.

use super::error::Result;
use crate::context::Context;
use binrw::io::{Read, Seek, Write};

/// A type of a spec: read and written by one generated pair of functions that cannot drift
/// apart. Its binrw `BinRead`/`BinWrite` impls call these.
pub trait Codec: Sized {
    /// The type's parameters (the spec's `params`), as a tuple.
    type Args: Copy;
    /// The fewest bytes a value can take: bounds counts before anything is allocated.
    const MIN_SIZE: u64;
    /// Reads a value at the stream's position.
    fn read_from<R: Read + Seek>(r: &mut R, args: Self::Args) -> Result<Self>;
    /// Writes the value, recomputing counts and sizes that are plain fields.
    fn write_to<W: Write + Seek>(&self, w: &mut W, args: Self::Args) -> Result<()>;
}

/// A type that the command line can name: a whole file or an addressable part of one.
pub trait Layout: Codec + serde::Serialize + serde::de::DeserializeOwned {
    /// The layout id (`sws-mesh`).
    const ID: &'static str;
    /// The first step of error paths: the spec's name for the type.
    const ROOT: &'static str;
    /// One line for `meshspec layouts`.
    const DESCRIPTION: &'static str;
    /// The spec file it is generated from, relative to the repository.
    const SPEC: &'static str;
    /// The dump paths (`bones[].name_hash`) of the fields the spec marks unknown.
    const UNKNOWN: &'static [&'static str];

    /// The parameters of a whole input, from what the user gave.
    fn args(ctx: &Context) -> Result<Self::Args>;

    /// Reads `input`, which must hold exactly one value.
    fn from_bytes(input: &[u8], ctx: &Context) -> Result<Self> {
        let args = Self::args(ctx)?;
        super::read::exact(input, Self::ROOT, |r| Self::read_from(r, args))
    }

    /// Writes the value into a new buffer.
    fn to_bytes(&self, ctx: &Context) -> Result<Vec<u8>> {
        let args = Self::args(ctx)?;
        super::write::to_vec(Self::ROOT, |w| self.write_to(w, args))
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
        super::Error::new(
            super::ErrorKind::Count,
            offset,
            format!(
                "a value that fits parameter `{param}` ({})",
                std::any::type_name::<T>()
            ),
            value.to_string(),
        )
    })
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
