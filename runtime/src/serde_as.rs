//! How dumps show values that JSON and YAML cannot carry as they are: raw bytes as hex text,
//! non-finite floats as words (`inf`, `-inf`, `nan:0x7FC00000`, keeping the NaN's bits). A
//! serializer that is not human-readable (the Python package's) gets raw bytes as bytes.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use std::fmt;

/// Raw bytes as one lowercase hex string.
pub mod hex {
    use super::*;

    /// Serializes bytes as hex (as bytes, for a serializer that is not human-readable).
    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&encode(v))
        } else {
            s.serialize_bytes(v)
        }
    }

    /// Bytes serialized as [`serialize`] does, inside a list or an option.
    pub(super) struct Hex<'a>(pub &'a [u8]);

    impl serde::Serialize for Hex<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize(self.0, s)
        }
    }

    /// Deserializes hex (whitespace between digits is allowed, so long blobs can be wrapped).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(d)?;
        decode(&s).map_err(de::Error::custom)
    }

    /// Lowercase hex of `v`.
    pub fn encode(v: &[u8]) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(v.len() * 2);
        for b in v {
            out.push(DIGITS[usize::from(b >> 4)] as char);
            out.push(DIGITS[usize::from(b & 15)] as char);
        }
        out
    }

    /// Bytes of a hex string.
    pub fn decode(s: &str) -> Result<Vec<u8>, String> {
        let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        if !digits.len().is_multiple_of(2) {
            return Err(format!(
                "hex text of an even number of digits, found {}",
                digits.len()
            ));
        }
        digits
            .chunks(2)
            .map(|p| {
                let hi = (p[0] as char).to_digit(16);
                let lo = (p[1] as char).to_digit(16);
                match (hi, lo) {
                    (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                    _ => Err(format!(
                        "hex digits, found {:?}",
                        String::from_utf8_lossy(p)
                    )),
                }
            })
            .collect()
    }
}

/// A float kind that dumps can carry exactly.
pub trait Float: Copy {
    /// The float's bits, for NaN payloads.
    fn bits(self) -> u64;
    /// The float from bits.
    fn from_bits(b: u64) -> Self;
    /// Whether it is finite.
    fn finite(self) -> bool;
    /// Whether it is a NaN.
    fn nan(self) -> bool;
    /// Whether it is zero (either sign).
    fn zero(self) -> bool;
    /// Conversion from what a JSON/YAML number parses to (rounding to nearest).
    fn from_f64(v: f64) -> Self;
    /// The value as text, for messages.
    fn show(self) -> String;
    /// The type's name, for messages.
    const NAME: &'static str;
    /// The largest finite value, for messages.
    const LARGEST: &'static str;
    /// Whether it is negative (for infinities).
    fn negative(self) -> bool;
    /// Digits of the bit pattern.
    const HEX_DIGITS: usize;
    /// Serializes a finite value as a number.
    fn ser<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error>;
}

/// The methods of [`Float`] that `f32` and `f64` have under the same names.
macro_rules! same_in_both {
    () => {
        fn finite(self) -> bool {
            self.is_finite()
        }
        fn nan(self) -> bool {
            self.is_nan()
        }
        fn zero(self) -> bool {
            self == 0.0
        }
        fn show(self) -> String {
            self.to_string()
        }
        fn negative(self) -> bool {
            self.is_sign_negative()
        }
    };
}

impl Float for f32 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits(b: u64) -> Self {
        f32::from_bits(b as u32)
    }
    same_in_both!();
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    const NAME: &'static str = "f32";
    const LARGEST: &'static str = "3.4028235e38";
    const HEX_DIGITS: usize = 8;
    fn ser<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error> {
        // Dumps go through JSON values, which hold f64: pass the f64 nearest the f32's shortest
        // decimal form, so 0.1f32 shows as 0.1 (not 0.10000000149011612) and still reads back
        // to the same f32.
        let shortest: f64 = self.to_string().parse().unwrap_or(f64::from(self));
        s.serialize_f64(shortest)
    }
}

impl Float for f64 {
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn from_bits(b: u64) -> Self {
        f64::from_bits(b)
    }
    same_in_both!();
    fn from_f64(v: f64) -> Self {
        v
    }
    const NAME: &'static str = "f64";
    const LARGEST: &'static str = "1.7976931348623157e308";
    const HEX_DIGITS: usize = 16;
    fn ser<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self)
    }
}

fn ser_float<F: Float, S: Serializer>(v: F, s: S) -> Result<S::Ok, S::Error> {
    if v.finite() {
        v.ser(s)
    } else {
        s.serialize_str(&float_word(v))
    }
}

fn float_word<F: Float>(v: F) -> String {
    let inf_bits = F::from_f64(f64::INFINITY).bits();
    let neg_inf_bits = F::from_f64(f64::NEG_INFINITY).bits();
    if v.bits() == inf_bits {
        "inf".into()
    } else if v.bits() == neg_inf_bits {
        "-inf".into()
    } else {
        format!("nan:0x{:0w$X}", v.bits(), w = F::HEX_DIGITS)
    }
}

fn parse_word<F: Float>(s: &str) -> Result<F, String> {
    match s {
        "inf" => Ok(F::from_f64(f64::INFINITY)),
        "-inf" => Ok(F::from_f64(f64::NEG_INFINITY)),
        _ => {
            let hex = s.strip_prefix("nan:0x").ok_or_else(|| {
                format!("`{s}`, which is not a number, inf, -inf or nan:0x<bits>")
            })?;
            let bits = u64::from_str_radix(hex, 16)
                .ok()
                .filter(|&b| F::from_bits(b).bits() == b)
                .ok_or_else(|| {
                    format!(
                        "`{s}`, whose digits are not the bits of an {} ({} hex digits)",
                        F::NAME,
                        F::HEX_DIGITS
                    )
                })?;
            let v = F::from_bits(bits);
            if v.nan() {
                Ok(v)
            } else {
                let what = if v.finite() { v.show() } else { float_word(v) };
                Err(format!("`{s}`, the bits of {what}, not of a NaN"))
            }
        }
    }
}

/// The float a dump's number stands for, when the field's type holds it: a number beyond the
/// type's range, or one that would round to zero, is refused rather than written as infinity
/// or 0; a NaN (YAML's `.nan`) is refused because its bits would be made up.
fn from_number<F: Float>(v: f64) -> Result<F, String> {
    if v.is_nan() {
        return Err(format!(
            "a NaN as a number; write it as nan:0x<bits>, {} hex digits",
            F::HEX_DIGITS
        ));
    }
    let x = F::from_f64(v);
    if v.is_finite() && !x.finite() {
        return Err(format!(
            "{v:e}, beyond the range of an {} (largest {})",
            F::NAME,
            F::LARGEST
        ));
    }
    if v != 0.0 && x.zero() {
        return Err(format!("{v:e}, which an {} rounds to 0", F::NAME));
    }
    Ok(x)
}

struct FloatVisitor<F>(std::marker::PhantomData<F>);

impl<F: Float> Visitor<'_> for FloatVisitor<F> {
    type Value = F;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, or inf, -inf or nan:0x<bits>")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<F, E> {
        from_number(v).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<F, E> {
        from_number(v as f64).map_err(E::custom)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<F, E> {
        from_number(v as f64).map_err(E::custom)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<F, E> {
        parse_word(s).map_err(E::custom)
    }
}

fn de_float<'de, F: Float, D: Deserializer<'de>>(d: D) -> Result<F, D::Error> {
    d.deserialize_any(FloatVisitor(std::marker::PhantomData))
}

/// A float field: a number when finite, a word otherwise.
pub mod float {
    use super::*;

    /// Serializes the float.
    pub fn serialize<F: Float, S: Serializer>(v: &F, s: S) -> Result<S::Ok, S::Error> {
        ser_float(*v, s)
    }

    /// Deserializes the float.
    pub fn deserialize<'de, F: Float, D: Deserializer<'de>>(d: D) -> Result<F, D::Error> {
        de_float(d)
    }
}

/// A repeated float field.
pub mod float_vec {
    use super::*;
    use serde::ser::SerializeSeq;

    struct One<F>(F);
    impl<F: Float> serde::Serialize for One<F> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            ser_float(self.0, s)
        }
    }
    impl<'de, F: Float> serde::Deserialize<'de> for One<F> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            de_float(d).map(One)
        }
    }

    /// Serializes the floats.
    pub fn serialize<F: Float, S: Serializer>(v: &[F], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&One(*x))?;
        }
        seq.end()
    }

    /// Deserializes the floats.
    pub fn deserialize<'de, F: Float, D: Deserializer<'de>>(d: D) -> Result<Vec<F>, D::Error> {
        let v: Vec<One<F>> = serde::Deserialize::deserialize(d)?;
        Ok(v.into_iter().map(|o| o.0).collect())
    }
}

/// An optional float field (a spec field with `if`).
pub mod float_opt {
    use super::*;

    struct One<F>(F);
    impl<'de, F: Float> serde::Deserialize<'de> for One<F> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            de_float(d).map(One)
        }
    }

    /// Serializes the float or nothing.
    pub fn serialize<F: Float, S: Serializer>(v: &Option<F>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => ser_float(*x, s),
            None => s.serialize_none(),
        }
    }

    /// Deserializes the float or nothing.
    pub fn deserialize<'de, F: Float, D: Deserializer<'de>>(d: D) -> Result<Option<F>, D::Error> {
        let v: Option<One<F>> = serde::Deserialize::deserialize(d)?;
        Ok(v.map(|o| o.0))
    }
}

/// Optional raw bytes.
pub mod hex_opt {
    use super::*;

    /// Serializes the bytes or nothing.
    pub fn serialize<S: Serializer>(v: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => s.serialize_some(&hex::Hex(b)),
            None => s.serialize_none(),
        }
    }

    /// Deserializes the bytes or nothing.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let v: Option<String> = serde::Deserialize::deserialize(d)?;
        v.map(|s| hex::decode(&s).map_err(de::Error::custom))
            .transpose()
    }
}

/// Repeated raw byte blobs.
pub mod hex_vec {
    use super::*;

    /// Serializes the blobs.
    pub fn serialize<S: Serializer>(v: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|b| hex::Hex(b)))
    }

    /// Deserializes the blobs.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let v: Vec<String> = serde::Deserialize::deserialize(d)?;
        v.iter()
            .map(|s| hex::decode(s).map_err(de::Error::custom))
            .collect()
    }
}

/// An optional list of floats (a repeated spec field with `if`).
pub mod float_vec_opt {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Floats<F: Float>(#[serde(with = "float_vec")] Vec<F>);

    struct Ser<'a, F>(&'a [F]);
    impl<F: Float> serde::Serialize for Ser<'_, F> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            float_vec::serialize(self.0, s)
        }
    }

    /// Serializes the floats or nothing.
    pub fn serialize<F: Float, S: Serializer>(v: &Option<Vec<F>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => s.serialize_some(&Ser(x)),
            None => s.serialize_none(),
        }
    }

    /// Deserializes the floats or nothing.
    pub fn deserialize<'de, F: Float, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<F>>, D::Error> {
        let v: Option<Floats<F>> = serde::Deserialize::deserialize(d)?;
        Ok(v.map(|f| f.0))
    }
}

/// An optional list of byte blobs.
pub mod hex_vec_opt {
    use super::*;

    /// Serializes the blobs or nothing.
    pub fn serialize<S: Serializer>(v: &Option<Vec<Vec<u8>>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => s.collect_seq(b.iter().map(|x| hex::Hex(x))),
            None => s.serialize_none(),
        }
    }

    /// Deserializes the blobs or nothing.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Vec<u8>>>, D::Error> {
        let v: Option<Vec<String>> = serde::Deserialize::deserialize(d)?;
        v.map(|v| {
            v.iter()
                .map(|s| hex::decode(s).map_err(de::Error::custom))
                .collect()
        })
        .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct T {
        #[serde(with = "float")]
        x: f32,
        #[serde(with = "float_vec")]
        v: Vec<f32>,
        #[serde(with = "hex")]
        b: Vec<u8>,
    }

    #[test]
    fn non_finite_floats_and_bytes_survive_json() {
        let nan = f32::from_bits(0x7FC0_0001);
        let t = T {
            x: f32::NEG_INFINITY,
            v: vec![nan, -0.0, 0.1, f32::INFINITY],
            b: vec![0, 0xAB, 0xFF],
        };
        let j = serde_json::to_string(&serde_json::to_value(&t).unwrap()).unwrap();
        assert_eq!(
            j,
            r#"{"x":"-inf","v":["nan:0x7FC00001",-0.0,0.1,"inf"],"b":"00abff"}"#
        );
        let back: T = serde_json::from_str(&j).unwrap();
        assert_eq!(back.x, t.x);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.v), bits(&t.v));
        assert_eq!(back.b, t.b);
    }

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Opt {
        #[serde(with = "float_vec_opt")]
        v: Option<Vec<f32>>,
        #[serde(with = "hex_vec_opt")]
        b: Option<Vec<Vec<u8>>>,
    }

    #[test]
    fn optional_lists_keep_non_finite_floats_and_bytes() {
        let t = Opt {
            v: Some(vec![f32::NAN, 1.5]),
            b: Some(vec![vec![1, 2], vec![]]),
        };
        let j = serde_json::to_string(&serde_json::to_value(&t).unwrap()).unwrap();
        assert_eq!(j, r#"{"v":["nan:0x7FC00000",1.5],"b":["0102",""]}"#);
        let back: Opt = serde_json::from_str(&j).unwrap();
        assert_eq!(back.v.unwrap()[0].to_bits(), f32::NAN.to_bits());
        assert_eq!(back.b, t.b);
        let none: Opt = serde_json::from_str(r#"{"v":null,"b":null}"#).unwrap();
        assert_eq!((none.v, none.b), (None, None));
    }

    #[test]
    fn every_f32_exponent_survives_json_bit_for_bit() {
        // Shortest decimal forms parsed back through f64 must give the same f32. Walk every
        // exponent with a spread of mantissas, including the neighbours of powers of two.
        for exp in 0u32..255 {
            for m in [
                0u32, 1, 2, 0x3F_FFFF, 0x40_0000, 0x40_0001, 0x7F_FFFE, 0x7F_FFFF, 0x12_3457,
            ] {
                for sign in [0u32, 1] {
                    let x = f32::from_bits(sign << 31 | exp << 23 | m);
                    let j = serde_json::to_string(&T {
                        x,
                        v: vec![],
                        b: vec![],
                    })
                    .unwrap();
                    let back: T = serde_json::from_str(&j).unwrap();
                    assert_eq!(back.x.to_bits(), x.to_bits(), "{j}");
                }
            }
        }
    }

    #[test]
    fn numbers_a_float_cannot_hold_are_refused_not_rounded_away() {
        let x = |j: &str| serde_json::from_str::<T>(&format!(r#"{{"x":{j},"v":[],"b":""}}"#));
        let err = |j: &str| x(j).unwrap_err().to_string();
        assert!(err("1e39").starts_with("1e39, beyond the range of an f32 (largest 3.4028235e38)"));
        assert!(err("-1e39").starts_with("-1e39, beyond the range"));
        assert!(err("1e-50").starts_with("1e-50, which an f32 rounds to 0"));
        // Rounding to the nearest f32 is how every dump's decimals read back: kept.
        assert_eq!(x("3.4028235e38").unwrap().x, f32::MAX);
        assert_eq!(x("1e-45").unwrap().x.to_bits(), 1);
        assert_eq!(x("-0.0").unwrap().x.to_bits(), 0x8000_0000);
        assert_eq!(x("0.1").unwrap().x, 0.1f32);
        // Words: infinities, and NaNs whose bits are a NaN's.
        assert_eq!(x(r#""inf""#).unwrap().x, f32::INFINITY);
        assert_eq!(x(r#""nan:0x7FC00001""#).unwrap().x.to_bits(), 0x7FC0_0001);
        assert!(err(r#""nan:0x7F800000""#)
            .starts_with("`nan:0x7F800000`, the bits of inf, not of a NaN"));
        assert!(
            err(r#""nan:0x3F800000""#).starts_with("`nan:0x3F800000`, the bits of 1, not of a NaN")
        );
        assert!(err(r#""nan:0x17FC00000""#).contains("not the bits of an f32"));
        assert!(err(r#""banana""#).contains("not a number, inf, -inf or nan:0x<bits>"));
    }

    #[test]
    fn a_nan_number_is_refused_for_its_unknown_bits() {
        // YAML's `.nan` and `.inf` arrive as f64 numbers.
        use serde::de::value::{Error as E, F64Deserializer};
        let e = de_float::<f64, _>(F64Deserializer::<E>::new(f64::NAN)).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("a NaN as a number; write it as nan:0x<bits>, 16 hex digits"));
        let inf = de_float::<f32, _>(F64Deserializer::<E>::new(f64::INFINITY)).unwrap();
        assert_eq!(inf, f32::INFINITY);
    }
}
