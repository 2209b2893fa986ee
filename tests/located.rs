//! Recorded positions against the bytes, for any layout: the located reader's spans all lie in
//! the input, the located writer records the same ones and writes the same bytes, and every
//! field's span holds exactly the bytes of the value the owned type (the dump) gives it.
//!
//! The positions are walked through their `Debug` form (every generated `*Pos` derives it), so
//! one walker serves every spec type without knowing it. Lists of fixed-layout elements record
//! only base and stride; their elements' positions come from the generated `Fixed::at`, which
//! the caller passes per element type ([`fixed`]).

use meshspec_formats::rt::{Fixed, Root};
use meshspec_formats::Context;
use serde_json::Value;

/// What one check of a file's positions covered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Covered {
    /// Field values (numbers, bytes, text) whose span was compared with the value.
    pub values: usize,
    /// Spans checked to lie in the input (values, lists, elements, whole types).
    pub spans: usize,
}

/// The positions of an element of fixed layout `P` of `size` bytes at `start`, in `Debug` form.
pub type ElementAt = (&'static str, fn(u64, u64) -> String);

/// [`ElementAt`] for `P`: its type name and its generated `Fixed::at`.
pub fn fixed<P: Fixed + std::fmt::Debug>() -> ElementAt {
    let name = std::any::type_name::<P>();
    (name.rsplit("::").next().unwrap_or(name), |start, size| {
        format!("{:?}", P::at(start, size))
    })
}

/// Reads `bytes` located as `T`, writes the value back located, and checks every recorded
/// position: `Err` names the field whose bytes or position are wrong. `elements` gives the
/// positions of the fixed-layout types lists of `T` hold.
pub fn check_positions<T: Root>(
    bytes: &[u8],
    ctx: &Context,
    elements: &[ElementAt],
) -> Result<Covered, String> {
    let read = T::read::<true>(bytes, ctx).map_err(|e| format!("read: {e}"))?;
    let pos = read.pos.ok_or("the located reader recorded no positions")?;
    let owned = T::own(&read.value);
    let (out, wpos) = owned
        .write::<true>(ctx)
        .map_err(|e| format!("write: {e}"))?;
    if out != bytes {
        return Err("the writer does not write the bytes read".into());
    }
    if wpos.as_ref() != Some(&pos) {
        return Err(format!(
            "the writer records other positions than the reader:\n{wpos:?}\n{pos:?}"
        ));
    }
    let tree = Parser::new(&format!("{pos:?}")).value()?;
    let data = serde_json::to_value(&owned).map_err(|e| e.to_string())?;
    let mut walk = Walk {
        input: bytes,
        elements,
        covered: Covered::default(),
    };
    walk.node(&tree, &data, T::ROOT)?;
    Ok(walk.covered)
}

/// A `Debug` value.
#[derive(Debug)]
enum D {
    Num(u64),
    Struct(String, Vec<(String, D)>),
    Tuple(String, Vec<D>),
    List(Vec<D>),
    Unit(String),
    /// `PhantomData<path::Type>`: the type's last segment.
    Phantom(String),
}

struct Parser<'s> {
    s: &'s [u8],
    at: usize,
}

impl<'s> Parser<'s> {
    fn new(s: &'s str) -> Self {
        Parser {
            s: s.as_bytes(),
            at: 0,
        }
    }

    fn ws(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!(
                "positions' Debug form: expected `{}` at {}",
                c as char, self.at
            ))
        }
    }

    fn word(&mut self) -> String {
        self.ws();
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.at]).into_owned()
    }

    fn list(&mut self, close: u8) -> Result<Vec<D>, String> {
        let mut out = vec![];
        while !self.eat(close) {
            out.push(self.value()?);
            if !self.eat(b',') {
                self.expect(close)?;
                break;
            }
        }
        Ok(out)
    }

    fn value(&mut self) -> Result<D, String> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => self
                .word()
                .parse()
                .map(D::Num)
                .map_err(|e| format!("positions' Debug form: {e}")),
            Some(b'[') => {
                self.at += 1;
                Ok(D::List(self.list(b']')?))
            }
            Some(_) => {
                let name = self.word();
                if name.is_empty() {
                    return Err(format!("positions' Debug form: a value at {}", self.at));
                }
                if self.s.get(self.at) == Some(&b'<') {
                    // `PhantomData<path::Type>`: the element type of a list.
                    let start = self.at + 1;
                    let mut depth = 0;
                    while let Some(&c) = self.s.get(self.at) {
                        self.at += 1;
                        depth += i32::from(c == b'<') - i32::from(c == b'>');
                        if depth == 0 {
                            break;
                        }
                    }
                    let ty = String::from_utf8_lossy(&self.s[start..self.at - 1]).into_owned();
                    return Ok(D::Phantom(ty.rsplit("::").next().unwrap_or("").to_string()));
                }
                if self.eat(b'{') {
                    let mut fields = vec![];
                    while !self.eat(b'}') {
                        let f = self.word();
                        self.expect(b':')?;
                        fields.push((f, self.value()?));
                        if !self.eat(b',') {
                            self.expect(b'}')?;
                            break;
                        }
                    }
                    Ok(D::Struct(name, fields))
                } else if self.eat(b'(') {
                    Ok(D::Tuple(name, self.list(b')')?))
                } else {
                    Ok(D::Unit(name))
                }
            }
            None => Err("positions' Debug form: ended early".into()),
        }
    }
}

fn field<'d>(fields: &'d [(String, D)], name: &str) -> Option<&'d D> {
    fields.iter().find(|(n, _)| n == name).map(|(_, d)| d)
}

fn num(fields: &[(String, D)], name: &str) -> Result<u64, String> {
    match field(fields, name) {
        Some(D::Num(n)) => Ok(*n),
        other => Err(format!("`{name}`: a number, found {other:?}")),
    }
}

struct Walk<'i> {
    input: &'i [u8],
    elements: &'i [ElementAt],
    covered: Covered,
}

impl Walk<'_> {
    fn span(&mut self, start: u64, end: u64, path: &str) -> Result<&[u8], String> {
        self.covered.spans += 1;
        let len = self.input.len() as u64;
        if start > end || end > len {
            return Err(format!(
                "{path}: span {start}..{end} is not inside the input of {len} bytes"
            ));
        }
        Ok(&self.input[start as usize..end as usize])
    }

    fn node(&mut self, d: &D, v: &Value, path: &str) -> Result<(), String> {
        match d {
            D::Struct(name, f) if name == "Span" => {
                let b = self.span(num(f, "start")?, num(f, "end")?, path)?;
                leaf(b, v).map_err(|e| format!("{path}: {e}"))?;
                self.covered.values += 1;
                Ok(())
            }
            D::Struct(name, f) if name == "Strided" => {
                let (base, stride, count) = (num(f, "base")?, num(f, "stride")?, num(f, "count")?);
                self.span(base, base + stride * count, path)?;
                let items = v
                    .as_array()
                    .ok_or_else(|| format!("{path}: a list in the value, found {v}"))?;
                if items.len() as u64 != count {
                    return Err(format!(
                        "{path}: {count} elements recorded, {} in the value",
                        items.len()
                    ));
                }
                let ty = match field(f, "_p") {
                    Some(D::Phantom(t)) => t.clone(),
                    _ => String::new(),
                };
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    let start = base + stride * i as u64;
                    let b = self.span(start, start + stride, &p)?;
                    if !item.is_object() {
                        leaf(b, item).map_err(|e| format!("{p}: {e}"))?;
                        self.covered.values += 1;
                        continue;
                    }
                    // An element of a fixed-layout type: its fields' places are the type's
                    // constant offsets from where it starts.
                    let Some((_, at)) = self.elements.iter().find(|(n, _)| *n == ty) else {
                        return Err(format!("{p}: no element positions given for `{ty}`"));
                    };
                    let d = Parser::new(&at(start, stride)).value()?;
                    self.node(&d, item, &p)?;
                }
                Ok(())
            }
            D::Struct(name, f) if name == "Each" => {
                let Some(D::Struct(_, s)) = field(f, "span") else {
                    return Err(format!("{path}: a list without its span"));
                };
                self.span(num(s, "start")?, num(s, "end")?, path)?;
                let Some(D::List(items)) = field(f, "items") else {
                    return Err(format!("{path}: a list without its items"));
                };
                let values = v
                    .as_array()
                    .ok_or_else(|| format!("{path}: a list in the value, found {v}"))?;
                if items.len() != values.len() {
                    return Err(format!(
                        "{path}: {} elements recorded, {} in the value",
                        items.len(),
                        values.len()
                    ));
                }
                for (i, (d, v)) in items.iter().zip(values).enumerate() {
                    self.node(d, v, &format!("{path}[{i}]"))?;
                }
                Ok(())
            }
            D::Struct(_, fields) => {
                let obj = v
                    .as_object()
                    .ok_or_else(|| format!("{path}: an object in the value, found {v}"))?;
                let Some(D::Struct(_, s)) = field(fields, "_span") else {
                    return Err(format!("{path}: no `_span`"));
                };
                self.span(num(s, "start")?, num(s, "end")?, path)?;
                let recorded: Vec<&str> = fields
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| *n != "_span")
                    .collect();
                let mut valued: Vec<&str> = obj.keys().map(String::as_str).collect();
                let mut sorted = recorded.clone();
                sorted.sort_unstable();
                valued.sort_unstable();
                if sorted != valued {
                    return Err(format!(
                        "{path}: positions for {recorded:?}, values for {valued:?}"
                    ));
                }
                for (n, d) in fields.iter().filter(|(n, _)| n != "_span") {
                    self.node(d, &obj[n], &format!("{path}.{n}"))?;
                }
                Ok(())
            }
            D::Tuple(name, inner) if name == "Some" => match inner.as_slice() {
                [d] if !v.is_null() => self.node(d, v, path),
                _ => Err(format!("{path}: recorded as present, the value is {v}")),
            },
            D::Unit(name) if name == "None" => {
                if v.is_null() {
                    Ok(())
                } else {
                    Err(format!("{path}: recorded as absent, the value is {v}"))
                }
            }
            // A switch's case: the value names it too.
            D::Tuple(case, inner) => match (inner.as_slice(), v.get(case)) {
                ([d], Some(v)) => self.node(d, v, path),
                _ => Err(format!("{path}: case {case} recorded, the value is {v}")),
            },
            other => Err(format!("{path}: unexpected positions {other:?}")),
        }
    }
}

/// Whether `b` are the bytes of `v` (little-endian numbers, hex bytes, the dump's float forms).
fn leaf(b: &[u8], v: &Value) -> Result<(), String> {
    let le = |b: &[u8]| -> Option<u64> {
        (b.len() <= 8).then(|| {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(w)
        })
    };
    let float_bits = |b: &[u8]| -> Option<u64> {
        match b.len() {
            4 | 8 => le(b),
            _ => None,
        }
    };
    let ok = match v {
        Value::Number(n) if n.is_u64() => le(b) == n.as_u64(),
        Value::Number(n) if n.is_i64() => {
            let bits = le(b).unwrap_or(0);
            let shift = 64 - 8 * b.len() as u32;
            b.len() <= 8 && ((bits << shift) as i64 >> shift) == n.as_i64().unwrap_or(0)
        }
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            match b.len() {
                4 => le(b) == Some(u64::from((f as f32).to_bits())),
                8 => le(b) == Some(f.to_bits()),
                _ => false,
            }
        }
        Value::String(s) if s == "inf" || s == "-inf" => {
            let neg = s.starts_with('-');
            match b.len() {
                4 => {
                    le(b)
                        == Some(u64::from(
                            if neg {
                                f32::NEG_INFINITY
                            } else {
                                f32::INFINITY
                            }
                            .to_bits(),
                        ))
                }
                8 => {
                    le(b)
                        == Some(
                            if neg {
                                f64::NEG_INFINITY
                            } else {
                                f64::INFINITY
                            }
                            .to_bits(),
                        )
                }
                _ => false,
            }
        }
        Value::String(s) if s.starts_with("nan:0x") => {
            u64::from_str_radix(&s[6..], 16).ok() == float_bits(b)
        }
        Value::String(s) if s.len() == 2 * b.len() && s.bytes().all(|c| c.is_ascii_hexdigit()) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            hex.eq_ignore_ascii_case(s)
        }
        // Text fields are stored as they read.
        Value::String(s) => s.as_bytes() == b,
        other => return Err(format!("no leaf check for {other}")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("the recorded bytes {b:02X?} are not the value {v}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_debug_form_of_positions_parses() {
        let d = Parser::new(
            "X { _span: Span { start: 0, end: 4 }, a: Some(Span { start: 0, end: 2 }), b: None, \
             c: Strided { base: 2, stride: 1, count: 2, _p: PhantomData<a::b::Span> }, \
             d: Each { span: Span { start: 0, end: 4 }, items: [] }, e: Case(Y { _span: Span { start: 0, end: 0 } }) }",
        )
        .value()
        .unwrap();
        let D::Struct(name, fields) = d else {
            panic!("{d:?}")
        };
        assert_eq!(name, "X");
        assert_eq!(fields.len(), 6);
        assert!(matches!(&fields[5].1, D::Tuple(c, _) if c == "Case"));
        let D::Struct(_, strided) = &fields[3].1 else {
            panic!("{fields:?}")
        };
        assert!(matches!(field(strided, "_p"), Some(D::Phantom(t)) if t == "Span"));
        assert!(leaf(&[1, 0], &serde_json::json!(1)).is_ok());
        assert!(leaf(&[1, 0], &serde_json::json!(2)).is_err());
        assert!(leaf(&[0xAB], &serde_json::json!("ab")).is_ok());
    }
}
