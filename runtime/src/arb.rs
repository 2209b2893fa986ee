//! `arbitrary` values for fields the spec gives a fixed size, count or values (the generator
//! chooses which field gets which): a derived `Vec<u8>` would have any length and a derived
//! number any value, and the writer refuses all but one, so the structure-aware targets would
//! almost never reach a value the writer accepts.

use arbitrary::{Result, Unstructured};

/// Exactly `N` bytes (zeros once the input runs out).
pub fn bytes<const N: usize>(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let mut v = vec![0; N];
    u.fill_buffer(&mut v)?;
    Ok(v)
}

/// A list of any length whose elements are `N` bytes each.
pub fn byte_records<const N: usize>(u: &mut Unstructured<'_>) -> Result<Vec<Vec<u8>>> {
    let n = u.arbitrary_len::<[u8; N]>()?;
    (0..n).map(|_| bytes::<N>(u)).collect()
}

/// Fewer than `N` bytes (a pad whose size the spec computes modulo `N`).
pub fn bytes_below<const N: usize>(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let n = u.int_in_range(0..=N - 1)?;
    let mut v = vec![0; n];
    u.fill_buffer(&mut v)?;
    Ok(v)
}

/// `N` bytes, or nothing (a field that is present only under a condition).
pub fn maybe_bytes<const N: usize>(u: &mut Unstructured<'_>) -> Result<Option<Vec<u8>>> {
    Ok(if u.arbitrary()? {
        Some(bytes::<N>(u)?)
    } else {
        None
    })
}

/// A value `make` makes, or none (a conditional field), each half the time.
pub fn maybe<T>(
    u: &mut Unstructured<'_>,
    make: impl FnOnce(&mut Unstructured<'_>) -> Result<T>,
) -> Result<Option<T>> {
    Ok(if u.arbitrary()? { Some(make(u)?) } else { None })
}

/// Exactly `N` elements (a list whose count the spec fixes).
pub fn list<T: for<'a> arbitrary::Arbitrary<'a>, const N: usize>(
    u: &mut Unstructured<'_>,
) -> Result<Vec<T>> {
    (0..N).map(|_| u.arbitrary()).collect()
}

/// One of the values the spec allows (`valid` with a value or a list; the cases of a switch on
/// the field), mostly (see [`mostly`]).
pub fn mostly_in<T: for<'a> arbitrary::Arbitrary<'a> + TryFrom<i128>>(
    u: &mut Unstructured<'_>,
    allowed: &[i128],
) -> Result<T> {
    let pick = u.choose(allowed).ok().copied();
    mostly(u, pick)
}

/// A value within `min..=max` (`valid: {min, max}`), mostly (see [`mostly`]).
pub fn mostly_within<T: for<'a> arbitrary::Arbitrary<'a> + TryFrom<i128>>(
    u: &mut Unstructured<'_>,
    min: i128,
    max: i128,
) -> Result<T> {
    let pick = u.int_in_range(min..=max).ok();
    mostly(u, pick)
}

/// `pick` seven times in eight, any value the rest (or when `pick` does not fit `T`), so that
/// values get past the writer's check and its refusal is still tried.
fn mostly<T: for<'a> arbitrary::Arbitrary<'a> + TryFrom<i128>>(
    u: &mut Unstructured<'_>,
    pick: Option<i128>,
) -> Result<T> {
    let other = u.ratio(1u8, 8u8)?;
    match pick.and_then(|v| T::try_from(v).ok()) {
        Some(v) if !other => Ok(v),
        _ => u.arbitrary(),
    }
}
