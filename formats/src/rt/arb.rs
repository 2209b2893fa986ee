//! `arbitrary` values for fields the spec gives a fixed size, count or value (the generator
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

/// `N` bytes, or nothing (a field that is present only under a condition).
pub fn maybe_bytes<const N: usize>(u: &mut Unstructured<'_>) -> Result<Option<Vec<u8>>> {
    Ok(if u.arbitrary()? {
        Some(bytes::<N>(u)?)
    } else {
        None
    })
}

/// Exactly `N` elements (a list whose count the spec fixes).
pub fn list<T: for<'a> arbitrary::Arbitrary<'a>, const N: usize>(
    u: &mut Unstructured<'_>,
) -> Result<Vec<T>> {
    (0..N).map(|_| u.arbitrary()).collect()
}

/// The value `V` the spec requires (`valid: V`) seven times in eight, any other value the rest,
/// so that values get past the check and the writer's refusal is still tried.
pub fn mostly<T: for<'a> arbitrary::Arbitrary<'a> + TryFrom<i128>, const V: i128>(
    u: &mut Unstructured<'_>,
) -> Result<T> {
    let other = u.ratio(1u8, 8u8)?;
    match T::try_from(V) {
        Ok(v) if !other => Ok(v),
        _ => u.arbitrary(),
    }
}
