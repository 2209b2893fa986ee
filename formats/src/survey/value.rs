//! One tallied value: what a visitor showed of a field, reduced to what a census can count
//! (long byte strings and long text by their length), with a total order so that tallies are
//! the same whatever order the files were read in.

use crate::rt::pod::Pod;
use crate::rt::Scalar;
use std::cmp::Ordering;
use std::fmt;

/// Byte strings up to this long are tallied by value; longer ones by their length.
pub const SHORT_BYTES: usize = 32;
/// Text up to this many bytes is tallied by value; longer text by its length.
pub const SHORT_TEXT: usize = 64;

/// A value as a census counts it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// An optional field that is not there.
    Absent,
    /// An optional field that is there (and holds fields of its own).
    Present,
    /// A one-bit flag.
    Bool(bool),
    /// An unsigned integer (an enum's raw value, a bit field, a list's length).
    U(u64),
    /// A signed integer.
    I(i64),
    /// A float (widened to 64 bits).
    F(#[serde(with = "crate::rt::serde_as::float")] f64),
    /// A short byte string.
    Bytes(#[serde(with = "crate::rt::serde_as::hex")] Vec<u8>),
    /// A longer byte string, by its length.
    Blob(u64),
    /// Short text.
    Str(String),
    /// Longer text, by its length in bytes.
    Text(u64),
}

impl Value {
    /// The value a visitor showed.
    pub fn of(s: Scalar<'_>) -> Value {
        match s {
            Scalar::U(v) => Value::U(v),
            Scalar::I(v) => Value::I(v),
            Scalar::F(v) => Value::F(v),
            Scalar::Bool(v) => Value::Bool(v),
            Scalar::Bytes(b) if b.len() <= SHORT_BYTES => Value::Bytes(b.to_vec()),
            Scalar::Bytes(b) => Value::Blob(b.len() as u64),
            Scalar::Str(s) if s.len() <= SHORT_TEXT => Value::Str(s.to_string()),
            Scalar::Str(s) => Value::Text(s.len() as u64),
        }
    }

    /// How `self` compares with the value `s` would become, without making it.
    #[inline]
    pub fn cmp_scalar(&self, s: &Scalar<'_>) -> Ordering {
        use Value::*;
        match (self, s) {
            (U(a), Scalar::U(b)) => a.cmp(b),
            (I(a), Scalar::I(b)) => a.cmp(b),
            (F(a), Scalar::F(b)) => a.total_cmp(b),
            (Bool(a), Scalar::Bool(b)) => a.cmp(b),
            (Bytes(a), Scalar::Bytes(b)) if b.len() <= SHORT_BYTES => cmp_bytes(a, b),
            _ => self.cmp_other(s),
        }
    }

    /// [`Value::cmp_scalar`] beyond two numbers of one kind.
    fn cmp_other(&self, s: &Scalar<'_>) -> Ordering {
        use Value::*;
        let rank = match s {
            Scalar::Bool(_) => 2,
            Scalar::U(_) => 3,
            Scalar::I(_) => 4,
            Scalar::F(_) => 5,
            Scalar::Bytes(b) if b.len() <= SHORT_BYTES => 6,
            Scalar::Bytes(_) => 7,
            Scalar::Str(t) if t.len() <= SHORT_TEXT => 8,
            Scalar::Str(_) => 9,
        };
        match (self, s) {
            (Bytes(a), Scalar::Bytes(b)) if rank == 6 => cmp_bytes(a, b),
            (Blob(a), Scalar::Bytes(b)) if rank == 7 => a.cmp(&(b.len() as u64)),
            (Str(a), Scalar::Str(b)) if rank == 8 => a.as_str().cmp(b),
            (Text(a), Scalar::Str(b)) if rank == 9 => a.cmp(&(b.len() as u64)),
            _ => self.rank().cmp(&rank),
        }
    }

    /// The value's kind and order key: see [`order_key`].
    pub fn order_key(&self) -> (u8, u64) {
        match self {
            Value::Absent | Value::Present => (self.rank(), 0),
            Value::Bool(b) => order_key(&Scalar::Bool(*b)),
            Value::U(u) => order_key(&Scalar::U(*u)),
            Value::I(i) => order_key(&Scalar::I(*i)),
            Value::F(f) => order_key(&Scalar::F(*f)),
            Value::Bytes(b) => (self.rank(), prefix(b)),
            Value::Str(s) => (self.rank(), prefix(s.as_bytes())),
            Value::Blob(n) | Value::Text(n) => (self.rank(), *n),
        }
    }

    /// Whether `s` becomes this value (the equality [`Value::cmp_scalar`] gives, sooner).
    #[inline]
    pub fn is(&self, s: &Scalar<'_>) -> bool {
        match (self, s) {
            (Value::Bytes(a), Scalar::Bytes(b)) if b.len() <= SHORT_BYTES => a.as_slice() == *b,
            (Value::Str(a), Scalar::Str(b)) if b.len() <= SHORT_TEXT => a == b,
            _ => self.cmp_scalar(s) == Ordering::Equal,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Absent => 0,
            Value::Present => 1,
            Value::Bool(_) => 2,
            Value::U(_) => 3,
            Value::I(_) => 4,
            Value::F(_) => 5,
            Value::Bytes(_) => 6,
            Value::Blob(_) => 7,
            Value::Str(_) => 8,
            Value::Text(_) => 9,
        }
    }

    /// Whether `self` and `next` are neighbouring integers (so that a run of them reads as a
    /// range).
    pub fn follows(&self, next: &Value) -> bool {
        match (self, next) {
            (Value::U(a), Value::U(b)) => a.checked_add(1) == Some(*b),
            (Value::I(a), Value::I(b)) => a.checked_add(1) == Some(*b),
            _ => false,
        }
    }
}

/// The kind (its rank among values) and order key of the value `s` becomes
/// ([`Value::order_key`]): values of one kind whose keys differ order as their keys do. Equal
/// keys are of equal values, but for byte strings and text kept by value, keyed by their
/// first eight bytes ([`exact_keys`]).
#[inline]
pub fn order_key(s: &Scalar<'_>) -> (u8, u64) {
    const SIGN: u64 = 1 << 63;
    match *s {
        Scalar::Bool(b) => (2, u64::from(b)),
        Scalar::U(u) => (3, u),
        Scalar::I(i) => (4, i as u64 ^ SIGN),
        // The order of `f64::total_cmp`, as an unsigned integer.
        Scalar::F(f) => {
            let b = f.to_bits() as i64;
            (5, (b ^ (((b >> 63) as u64) >> 1) as i64) as u64 ^ SIGN)
        }
        Scalar::Bytes(b) if b.len() <= SHORT_BYTES => (6, prefix(b)),
        Scalar::Bytes(b) => (7, b.len() as u64),
        Scalar::Str(t) if t.len() <= SHORT_TEXT => (8, prefix(t.as_bytes())),
        Scalar::Str(t) => (9, t.len() as u64),
    }
}

/// Whether equal order keys of the kind `kind` ([`order_key`]) are of equal values.
#[inline]
pub fn exact_keys(kind: u8) -> bool {
    !matches!(kind, 6 | 8)
}

/// The first eight bytes of `b`, zero-padded, big-endian: slices whose prefixes differ order
/// as these numbers do.
fn prefix(b: &[u8]) -> u64 {
    let mut first = [0; 8];
    let n = b.len().min(8);
    first[..n].copy_from_slice(&b[..n]);
    u64::from_slice(&first, binrw::Endian::Big)
}

/// Byte strings in lexicographic order, decided by their first eight bytes where those differ
/// (one integer comparison instead of a call to `memcmp`: a tally compares a value with several
/// kept ones).
fn cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    match (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        (Some(x), Some(y)) if x != y => {
            let key = |k: &[u8; 8]| u64::from_slice(k, binrw::Endian::Big);
            key(x).cmp(&key(y))
        }
        _ => a.cmp(b),
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Bool(a), Bool(b)) => a.cmp(b),
            (U(a), U(b)) | (Blob(a), Blob(b)) | (Text(a), Text(b)) => a.cmp(b),
            (I(a), I(b)) => a.cmp(b),
            // Bits, not numbers: -0.0 and 0.0, and every NaN, are values of their own.
            (F(a), F(b)) => a.total_cmp(b),
            (Bytes(a), Bytes(b)) => cmp_bytes(a, b),
            (Str(a), Str(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// The value as the documents write one: `0`, `0x9EF0E7A1`-free decimal, `-1.5`, `"Body"`,
/// `00 ff`, `(absent)`. Text from a file is shown escaped (quotes, control characters,
/// reordering characters), so it cannot break a line or a table.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Absent => f.write_str("(absent)"),
            Value::Present => f.write_str("(present)"),
            Value::Bool(b) => write!(f, "{}", u8::from(*b)),
            Value::U(v) => Thousands(*v).fmt(f),
            Value::I(v) if *v < 0 => write!(f, "-{}", Thousands(v.unsigned_abs())),
            Value::I(v) => Thousands(*v as u64).fmt(f),
            Value::F(v) if v.is_nan() => write!(f, "nan:0x{:016X}", v.to_bits()),
            Value::F(v) => write!(f, "{v}"),
            Value::Bytes(b) if b.is_empty() => f.write_str("(no bytes)"),
            Value::Bytes(b) => {
                let hex: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
                f.write_str(&hex.join(" "))
            }
            Value::Blob(n) => write!(f, "({} bytes)", Thousands(*n)),
            Value::Str(s) => write!(f, "\"{}\"", s.escape_debug()),
            Value::Text(n) => write!(f, "(text of {} bytes)", Thousands(*n)),
        }
    }
}

/// `n` with thousands separators: `15,928`.
pub fn thousands(n: u64) -> String {
    Thousands(n).to_string()
}

/// A number shown with thousands separators (`15,928`), written without a string of its own.
#[derive(Debug, Clone, Copy)]
pub struct Thousands(pub u64);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // (At most 20 digits and 6 separators, written from the last.)
        let mut out = [b','; 26];
        let mut at = out.len();
        let mut n = self.0;
        let mut digits = 0;
        loop {
            if digits > 0 && digits % 3 == 0 {
                at -= 1;
            }
            at -= 1;
            out[at] = b'0' + (n % 10) as u8;
            n /= 10;
            digits += 1;
            if n == 0 {
                break;
            }
        }
        f.write_str(std::str::from_utf8(&out[at..]).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_order_by_kind_then_value_and_floats_by_bits() {
        let mut v = [
            Value::F(1.0),
            Value::U(3),
            Value::Absent,
            Value::F(-0.0),
            Value::F(0.0),
            Value::U(1),
        ];
        v.sort();
        assert_eq!(
            v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            ["(absent)", "1", "3", "-0", "0", "1"]
        );
        assert_ne!(Value::F(0.0), Value::F(-0.0));
        assert_eq!(Value::F(f64::NAN), Value::F(f64::NAN));
    }

    #[test]
    fn values_compare_with_scalars_as_with_their_values() {
        let scalars = [
            Scalar::U(3),
            Scalar::U(9),
            Scalar::I(-2),
            Scalar::F(-0.0),
            Scalar::F(f64::NAN),
            Scalar::Bool(true),
            Scalar::Bytes(&[1, 2]),
            Scalar::Bytes(&[0; 40]),
            Scalar::Str("ab"),
            Scalar::Str("a"),
        ];
        for a in &scalars {
            for b in &scalars {
                assert_eq!(
                    Value::of(*a).cmp_scalar(b),
                    Value::of(*a).cmp(&Value::of(*b)),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    /// Values of one kind whose order keys differ order as their keys do, equal values
    /// have equal keys (and equal keys of an exact kind are of equal values); the keys are
    /// the same whether made from the value or the scalar it came from.
    #[test]
    fn order_keys_order_as_values_do() {
        let bytes: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1],
            vec![1, 0],
            vec![0, 255],
            vec![255, 0],
            vec![255; 7],
            vec![255; 8],
            vec![1, 0, 0, 0, 0, 0, 0, 0],
            vec![1, 0, 0, 0, 0, 0, 0, 1],
            vec![1, 0, 0, 0, 0, 0, 0, 0, 0],
            vec![1, 0, 0, 0, 0, 0, 0, 0, 2],
            vec![7; 32],
            vec![7; 33],
            vec![7; 34],
        ];
        let mut scalars: Vec<Scalar<'_>> = vec![
            Scalar::Bool(false),
            Scalar::Bool(true),
            Scalar::U(0),
            Scalar::U(u64::MAX),
            Scalar::I(-1),
            Scalar::I(i64::MIN),
            Scalar::I(3),
            Scalar::F(-0.0),
            Scalar::F(0.0),
            Scalar::F(f64::NAN),
            Scalar::F(-f64::NAN),
            Scalar::F(f64::NEG_INFINITY),
            Scalar::F(1.5),
            Scalar::Str(""),
            Scalar::Str("a"),
            Scalar::Str("b"),
            Scalar::Str("ab"),
            Scalar::Str("abcdefgh"),
            Scalar::Str("abcdefgi"),
            Scalar::Str("abcdefghi"),
        ];
        scalars.extend(bytes.iter().map(|b| Scalar::Bytes(b)));
        let long = "x".repeat(SHORT_TEXT + 1);
        let longer = "x".repeat(SHORT_TEXT + 2);
        scalars.extend([Scalar::Str(&long), Scalar::Str(&longer)]);
        let mut values: Vec<Value> = scalars.iter().map(|s| Value::of(*s)).collect();
        values.extend([Value::Absent, Value::Present]);
        for (s, v) in scalars.iter().zip(&values) {
            assert_eq!(order_key(s), v.order_key(), "{s:?}");
            assert!(v.is(s), "{s:?}");
        }
        let (mut ordered, mut tied) = (0, 0);
        for (a, s) in values.iter().zip(&scalars) {
            for b in &values {
                let ((x, k), (y, l)) = (a.order_key(), b.order_key());
                if x != y {
                    continue;
                }
                assert_eq!(b.is(s), a == b, "{a:?} {b:?}");
                if k == l {
                    assert!(!exact_keys(x) || a == b, "{a:?} {b:?}");
                    tied += usize::from(a != b);
                } else {
                    assert_eq!(k.cmp(&l), a.cmp(b), "{a:?} {b:?}");
                    ordered += 1;
                }
            }
        }
        assert!(ordered >= 100 && tied >= 4, "{ordered} {tied}");
    }

    #[test]
    fn byte_strings_order_as_slices_do() {
        let strings: [&[u8]; 9] = [
            &[],
            &[0],
            &[0, 0],
            &[1],
            &[1, 0, 0, 0, 0, 0, 0, 0, 0],
            &[1, 0, 0, 0, 0, 0, 0, 0],
            &[1, 0, 0, 0, 0, 0, 0, 0, 2],
            &[0xff; 8],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0],
        ];
        for a in strings {
            for b in strings {
                assert_eq!(cmp_bytes(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn thousands_are_separated() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (15_928, "15,928"),
            (1_000_000, "1,000,000"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(thousands(n), s);
        }
    }

    #[test]
    fn long_bytes_and_text_count_by_length_and_text_is_escaped() {
        assert_eq!(Value::of(Scalar::Bytes(&[0; 40])), Value::Blob(40));
        assert_eq!(Value::of(Scalar::Bytes(&[0, 255])).to_string(), "00 ff");
        assert_eq!(
            Value::of(Scalar::Str("a\n|\u{202e}\"")).to_string(),
            "\"a\\n|\\u{202e}\\\"\""
        );
        assert_eq!(Value::U(15_928).to_string(), "15,928");
        assert_eq!(Value::I(-1_000).to_string(), "-1,000");
        assert!(Value::U(4).follows(&Value::U(5)));
        assert!(!Value::U(4).follows(&Value::I(5)));
    }

    #[test]
    fn values_survive_json() {
        for v in [
            Value::Absent,
            Value::F(f64::NAN),
            Value::F(-0.0),
            Value::F(f64::NEG_INFINITY),
            Value::Bytes(vec![1, 2]),
            Value::Str("x".into()),
            Value::I(-4),
        ] {
            let j = serde_json::to_string(&v).unwrap();
            let back: Value = serde_json::from_str(&j).unwrap();
            assert_eq!(back, v, "{j}");
        }
    }
}
