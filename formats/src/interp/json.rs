//! Values as dumps carry them, both ways, in the generated types' serde forms
//! (`codegen/src/emit/defs.rs`): a value of a spec type is a struct of its stored fields (not
//! its constants), numbers by their type, floats and bytes through `rt::serde_as` (words for
//! non-finite floats, hex for bytes), an absent field `null`, a switch field an enum variant
//! named for the type it holds. Reading a dump refuses unknown keys as `deny_unknown_fields`
//! does, takes a missing count or total as 0 (`serde(default)`) and a missing optional field as
//! absent where serde does, and names the dump path of any refusal.

use super::plan::{Elem, FieldPlan, Plan};
use super::value::{by_int, number, Val};
use super::walk::elements;
use crate::rt::serde_as::{self, Float};
use meshspec_model::{PrimKind, Repeat};
use serde::de::DeserializeOwned;
use serde::ser::{SerializeStruct, Serializer};
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;

/// A value of spec type `ty`, serializable as the generated owned type is.
pub(crate) struct Owned<'p, 'v, 'a> {
    pub plan: &'p Plan,
    pub ty: usize,
    pub v: &'v Val<'a>,
}

impl Serialize for Owned<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tp = &self.plan.types[self.ty];
        let vals = self.v.fields();
        let stored = tp
            .fields
            .iter()
            .filter(|f| !matches!(f.elem, Elem::Contents(_)))
            .count();
        let mut st = s.serialize_struct(tp.t.rust.as_str(), stored)?;
        for (fi, fp) in tp.fields.iter().enumerate() {
            if matches!(fp.elem, Elem::Contents(_)) {
                continue;
            }
            const ABSENT: &Val<'static> = &Val::Absent;
            let v = vals.get(fi).unwrap_or(ABSENT);
            st.serialize_field(
                fp.id,
                &Field {
                    plan: self.plan,
                    fp,
                    v,
                },
            )?;
        }
        st.end()
    }
}

/// A field's value, serialized as the generated field is (with its `serde(with)`).
struct Field<'p, 'v, 'a> {
    plan: &'p Plan,
    fp: &'p FieldPlan,
    v: &'v Val<'a>,
}

/// What `serde(with)` a field's generated type takes.
#[derive(Clone, Copy, PartialEq)]
enum With {
    F32,
    F64,
    Hex,
    None,
}

fn with(fp: &FieldPlan) -> With {
    match &fp.elem {
        Elem::Prim(p) if p.kind == PrimKind::F && p.bytes == 4 => With::F32,
        Elem::Prim(p) if p.kind == PrimKind::F => With::F64,
        Elem::Bytes(_) => With::Hex,
        _ => With::None,
    }
}

fn float<F: Float + FromVal>(v: &Val<'_>) -> F {
    F::from_val(v)
}

trait FromVal {
    fn from_val(v: &Val<'_>) -> Self;
}

impl FromVal for f32 {
    fn from_val(v: &Val<'_>) -> Self {
        number::<f32>(v)
    }
}

impl FromVal for f64 {
    fn from_val(v: &Val<'_>) -> Self {
        number::<f64>(v)
    }
}

impl Field<'_, '_, '_> {
    fn list<T>(&self, one: impl Fn(&Val<'_>) -> T) -> Vec<T> {
        elements(self.plan, self.fp, self.v)
            .map(|e| one(&e))
            .collect()
    }

    fn floats<F: Float + FromVal, S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cond = self.fp.f.cond.is_some();
        let absent = matches!(self.v, Val::Absent);
        match (self.fp.repeated(), cond) {
            (false, false) => serde_as::float::serialize(&float::<F>(self.v), s),
            (true, false) => serde_as::float_vec::serialize(&self.list(float::<F>), s),
            (false, true) => {
                serde_as::float_opt::serialize(&(!absent).then(|| float::<F>(self.v)), s)
            }
            (true, true) => {
                serde_as::float_vec_opt::serialize(&(!absent).then(|| self.list(float::<F>)), s)
            }
        }
    }

    fn hex<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cond = self.fp.f.cond.is_some();
        let absent = matches!(self.v, Val::Absent);
        let blob = |v: &Val<'_>| v.bytes().to_vec();
        match (self.fp.repeated(), cond) {
            (false, false) => serde_as::hex::serialize(self.v.bytes(), s),
            (true, false) => serde_as::hex_vec::serialize(&self.list(blob), s),
            (false, true) => serde_as::hex_opt::serialize(&(!absent).then(|| blob(self.v)), s),
            (true, true) => {
                serde_as::hex_vec_opt::serialize(&(!absent).then(|| self.list(blob)), s)
            }
        }
    }
}

impl Serialize for Field<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match with(self.fp) {
            With::F32 => return self.floats::<f32, S>(s),
            With::F64 => return self.floats::<f64, S>(s),
            With::Hex => return self.hex(s),
            With::None => {}
        }
        let plain = Plain {
            plan: self.plan,
            fp: self.fp,
            v: self.v,
        };
        if self.fp.f.cond.is_some() {
            if matches!(self.v, Val::Absent) {
                s.serialize_none()
            } else {
                s.serialize_some(&plain)
            }
        } else {
            plain.serialize(s)
        }
    }
}

/// A present field without `serde(with)`: a list of elements, or one.
struct Plain<'p, 'v, 'a> {
    plan: &'p Plan,
    fp: &'p FieldPlan,
    v: &'v Val<'a>,
}

impl Serialize for Plain<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.fp.repeated() {
            s.collect_seq(elements(self.plan, self.fp, self.v).map(|e| Elem1 {
                plan: self.plan,
                fp: self.fp,
                v: e,
            }))
        } else {
            Elem1 {
                plan: self.plan,
                fp: self.fp,
                v: Cow::Borrowed(self.v),
            }
            .serialize(s)
        }
    }
}

/// One element of a field.
struct Elem1<'p, 'v, 'a> {
    plan: &'p Plan,
    fp: &'p FieldPlan,
    v: Cow<'v, Val<'a>>,
}

impl Serialize for Elem1<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v: &Val<'_> = &self.v;
        match &self.fp.elem {
            Elem::Prim(p) if p.kind == PrimKind::F && p.bytes == 4 => {
                serde_as::float::serialize(&number::<f32>(v), s)
            }
            Elem::Prim(p) if p.kind == PrimKind::F => {
                serde_as::float::serialize(&number::<f64>(v), s)
            }
            Elem::Prim(p) => by_int!(p, T => number::<T>(v).serialize(s)),
            Elem::Bits(1) => (v.int() != 0).serialize(s),
            Elem::Bits(2..=8) => number::<u8>(v).serialize(s),
            Elem::Bits(9..=16) => number::<u16>(v).serialize(s),
            Elem::Bits(17..=32) => number::<u32>(v).serialize(s),
            Elem::Bits(_) => number::<u64>(v).serialize(s),
            Elem::Bytes(_) => serde_as::hex::serialize(v.bytes(), s),
            Elem::Str { .. } | Elem::Strz { .. } => s.serialize_str(v.text()),
            Elem::Contents(_) => s.serialize_unit(),
            Elem::User { ty, .. } | Elem::Sized { ty, .. } => Owned {
                plan: self.plan,
                ty: *ty,
                v,
            }
            .serialize(s),
            Elem::Switch(sw) => {
                let (variant, inner) = match v {
                    Val::Case(variant, inner) => (*variant, &**inner),
                    _ => (0, v),
                };
                let ty = sw.variants.get(variant).copied().unwrap_or(0);
                let name = self.plan.types[ty].t.rust.as_str();
                s.serialize_newtype_variant(
                    sw.name,
                    variant as u32,
                    name,
                    &Owned {
                        plan: self.plan,
                        ty,
                        v: inner,
                    },
                )
            }
        }
    }
}

/// How deep values may nest in a dump (a recursive type's value inside itself): JSON text
/// nests at most 128 deep when serde_json parses it, so this bounds only values made
/// otherwise, before they could exhaust the stack.
const MAX_DEPTH: u32 = 128;

/// Why a dump's value is refused: where (serde_path_to_error's form) and why (serde's words).
pub(crate) struct Refusal {
    pub path: String,
    pub why: String,
}

/// A step of a dump path.
enum Step<'k> {
    Key(&'k str),
    Index(usize),
}

fn render(path: &[Step<'_>]) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let mut s = String::new();
    for (i, step) in path.iter().enumerate() {
        match step {
            Step::Key(k) => {
                if i > 0 {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(n) => s.push_str(&format!("[{n}]")),
        }
    }
    s
}

type Parsed<T> = std::result::Result<T, Refusal>;

/// Parses JSON values against a compiled spec.
pub(crate) struct Parser<'p> {
    pub plan: &'p Plan,
}

/// serde's words for a JSON value of the wrong kind.
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => format!("integer `{u}`"),
            (_, Some(i)) => format!("integer `{i}`"),
            _ => format!("floating point `{}`", n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".into(),
        Value::Object(_) => "map".into(),
    }
}

/// serde's list of what was expected (`OneOf`).
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => {
            let all: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", all.join(", "))
        }
    }
}

/// Whether a missing value takes its default (`serde(default)`): a count, size or total the
/// writer recomputes anyway.
fn defaulted(fp: &FieldPlan) -> bool {
    !fp.f.users.is_empty() || fp.f.derive.is_some()
}

fn default(fp: &FieldPlan) -> Val<'static> {
    if fp.f.cond.is_some() {
        Val::Absent
    } else {
        match fp.elem {
            Elem::Prim(p) if p.kind == PrimKind::S => Val::I(0),
            _ => Val::U(0),
        }
    }
}

fn de<T: DeserializeOwned>(x: &Value) -> std::result::Result<T, String> {
    T::deserialize(x).map_err(|e| e.to_string())
}

impl Parser<'_> {
    /// The value of spec type `ty` that `data` describes.
    pub fn value(&self, ty: usize, data: &Value) -> Parsed<Val<'static>> {
        self.strukt(ty, data, &mut vec![], 0)
    }

    fn refuse(&self, path: &[Step<'_>], why: impl Into<String>) -> Refusal {
        Refusal {
            path: render(path),
            why: why.into(),
        }
    }

    fn strukt<'k>(
        &self,
        ty: usize,
        x: &'k Value,
        path: &mut Vec<Step<'k>>,
        depth: u32,
    ) -> Parsed<Val<'static>> {
        let tp = &self.plan.types[ty];
        if depth > MAX_DEPTH {
            return Err(self.refuse(path, format!("values nested at most {MAX_DEPTH} deep")));
        }
        let stored: Vec<&str> = tp
            .fields
            .iter()
            .filter(|f| !matches!(f.elem, Elem::Contents(_)))
            .map(|f| f.id)
            .collect();
        let mut vals: Vec<Option<Val<'static>>> = vec![None; tp.fields.len()];
        let m = match x {
            Value::Object(m) => m,
            // serde's other form of a struct: its fields' values in order.
            Value::Array(items) => {
                let mut next = items.iter();
                let mut i = 0;
                for (fi, fp) in tp.fields.iter().enumerate() {
                    if matches!(fp.elem, Elem::Contents(_)) {
                        vals[fi] = Some(Val::Unit);
                        continue;
                    }
                    match next.next() {
                        Some(v) => {
                            path.push(Step::Index(i));
                            vals[fi] = Some(self.field(fp, v, path, depth)?);
                            path.pop();
                        }
                        None if defaulted(fp) => vals[fi] = Some(default(fp)),
                        None => {
                            let n = stored.len();
                            let why = format!(
                                "invalid length {i}, expected struct {} with {n} element{}",
                                tp.t.rust,
                                if n == 1 { "" } else { "s" }
                            );
                            return Err(self.refuse(path, why));
                        }
                    }
                    i += 1;
                }
                if next.next().is_some() {
                    let why = format!(
                        "invalid length {}, expected fewer elements in array",
                        items.len()
                    );
                    return Err(self.refuse(path, why));
                }
                return Ok(Val::Struct(vals.into_iter().flatten().collect()));
            }
            _ => {
                return Err(self.refuse(
                    path,
                    format!(
                        "invalid type: {}, expected struct {}",
                        unexpected(x),
                        tp.t.rust
                    ),
                ))
            }
        };
        for (k, v) in m {
            path.push(Step::Key(k));
            let Some(fi) = tp
                .fields
                .iter()
                .position(|f| f.id == k && !matches!(f.elem, Elem::Contents(_)))
            else {
                let why = if stored.is_empty() {
                    format!("unknown field `{k}`, there are no fields")
                } else {
                    format!("unknown field `{k}`, expected {}", one_of(&stored))
                };
                return Err(self.refuse(path, why));
            };
            vals[fi] = Some(self.field(&tp.fields[fi], v, path, depth)?);
            path.pop();
        }
        let mut out = Vec::with_capacity(vals.len());
        for (fp, v) in tp.fields.iter().zip(vals) {
            out.push(match v {
                Some(v) => v,
                None if matches!(fp.elem, Elem::Contents(_)) => Val::Unit,
                None if defaulted(fp) => default(fp),
                // An `Option` without `serde(with)`: serde takes a missing key as `None`.
                None if fp.f.cond.is_some() && with(fp) == With::None => Val::Absent,
                None => {
                    return Err(self.refuse(path, format!("missing field `{}`", fp.id)));
                }
            });
        }
        Ok(Val::Struct(out.into_boxed_slice()))
    }

    fn field<'k>(
        &self,
        fp: &FieldPlan,
        x: &'k Value,
        path: &mut Vec<Step<'k>>,
        depth: u32,
    ) -> Parsed<Val<'static>> {
        let cond = fp.f.cond.is_some();
        let rep = !matches!(fp.f.repeat, Repeat::None);
        if cond && x.is_null() {
            return Ok(Val::Absent);
        }
        let kind = with(fp);
        if !rep {
            let r = match kind {
                With::F32 => serde_as::float::deserialize::<f32, _>(x).map(Val::F32),
                With::F64 => serde_as::float::deserialize::<f64, _>(x).map(Val::F64),
                With::Hex => serde_as::hex::deserialize(x).map(|b| Val::Bytes(Cow::Owned(b))),
                With::None => return self.elem(fp, x, path, depth),
            };
            return r.map_err(|e| self.refuse(path, e.to_string()));
        }
        let Value::Array(items) = x else {
            let why = format!("invalid type: {}, expected a sequence", unexpected(x));
            return Err(self.refuse(path, why));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            path.push(Step::Index(i));
            let r = match kind {
                With::F32 => serde_as::float::deserialize::<f32, _>(item).map(Val::F32),
                With::F64 => serde_as::float::deserialize::<f64, _>(item).map(Val::F64),
                // Text now; the digits are read once every element is text, as
                // `rt::serde_as::hex_vec` reads them.
                With::Hex => String::deserialize(item).map(|t| Val::Str(Cow::Owned(t))),
                With::None => {
                    out.push(self.elem(fp, item, path, depth)?);
                    path.pop();
                    continue;
                }
            };
            out.push(r.map_err(|e| self.refuse(path, e.to_string()))?);
            path.pop();
        }
        if kind == With::Hex {
            for v in &mut out {
                let bytes = serde_as::hex::decode(v.text()).map_err(|e| self.refuse(path, e))?;
                *v = Val::Bytes(Cow::Owned(bytes));
            }
        }
        Ok(Val::List(out))
    }

    fn elem<'k>(
        &self,
        fp: &FieldPlan,
        x: &'k Value,
        path: &mut Vec<Step<'k>>,
        depth: u32,
    ) -> Parsed<Val<'static>> {
        let r: std::result::Result<Val<'static>, String> = match &fp.elem {
            Elem::Prim(p) => by_int!(p, T => de::<T>(x).map(Val::from)),
            Elem::Bits(1) => de::<bool>(x).map(Val::Bool),
            Elem::Bits(2..=8) => de::<u8>(x).map(Val::from),
            Elem::Bits(9..=16) => de::<u16>(x).map(Val::from),
            Elem::Bits(17..=32) => de::<u32>(x).map(Val::from),
            Elem::Bits(_) => de::<u64>(x).map(Val::from),
            Elem::Str { .. } | Elem::Strz { .. } => {
                de::<String>(x).map(|s| Val::Str(Cow::Owned(s)))
            }
            Elem::Bytes(_) | Elem::Contents(_) => Ok(Val::Unit),
            Elem::User { ty, .. } | Elem::Sized { ty, .. } => {
                return self.strukt(*ty, x, path, depth + 1)
            }
            Elem::Switch(sw) => {
                let names: Vec<&str> = sw
                    .variants
                    .iter()
                    .map(|t| self.plan.types[*t].t.rust.as_str())
                    .collect();
                let unknown = |k: &str| {
                    if names.is_empty() {
                        format!("unknown variant `{k}`, there are no variants")
                    } else {
                        format!("unknown variant `{k}`, expected {}", one_of(&names))
                    }
                };
                match x {
                    Value::Object(m) if m.len() == 1 => {
                        let Some((k, v)) = m.iter().next() else {
                            let why = "invalid value: map, expected map with a single key";
                            return Err(self.refuse(path, why));
                        };
                        let Some(variant) = names.iter().position(|n| n == k) else {
                            return Err(self.refuse(path, unknown(k)));
                        };
                        path.push(Step::Key(k));
                        let inner = self.strukt(sw.variants[variant], v, path, depth + 1)?;
                        path.pop();
                        return Ok(Val::Case(variant, Box::new(inner)));
                    }
                    Value::Object(_) => {
                        Err("invalid value: map, expected map with a single key".to_string())
                    }
                    Value::String(k) if !names.contains(&k.as_str()) => Err(unknown(k)),
                    Value::String(_) => {
                        Err("invalid type: unit variant, expected newtype variant".to_string())
                    }
                    other => Err(format!(
                        "invalid type: {}, expected string or map",
                        unexpected(other)
                    )),
                }
            }
        };
        r.map_err(|why| self.refuse(path, why))
    }
}
