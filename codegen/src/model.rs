//! One reading of a `.ksy` file: the subset of Kaitai Struct that `spec/README.md` documents,
//! with our `-` keys, checked and resolved. Every output (code, docs, fuzz targets) is written
//! from this model, never from the YAML.

use crate::expr::{self, Expr};
use serde_norway::{Mapping, Value};
use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    Le,
    Be,
}

/// The spec's `-confidence` and `-severity` words, as the library's runtime carries them.
pub use meshspec_confidence::{Confidence, Severity};

fn confidence_word(s: &str) -> Result<Confidence, String> {
    Confidence::from_word(s).ok_or_else(|| {
        format!("-confidence must be proven, observed, sourced, inferred or unknown, found `{s}`")
    })
}

fn severity_word(s: &str) -> Result<Severity, String> {
    Severity::from_word(s).ok_or_else(|| format!("-severity is error or warning, found `{s}`"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimKind {
    U,
    S,
    F,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prim {
    pub kind: PrimKind,
    pub bytes: u8,
    pub endian: Option<Endian>,
}

impl Prim {
    fn parse(s: &str) -> Option<Prim> {
        let (base, endian) = if let Some(b) = s.strip_suffix("le") {
            (b, Some(Endian::Le))
        } else if let Some(b) = s.strip_suffix("be") {
            (b, Some(Endian::Be))
        } else {
            (s, None)
        };
        let kind = match base.as_bytes().first()? {
            b'u' => PrimKind::U,
            b's' => PrimKind::S,
            b'f' => PrimKind::F,
            _ => return None,
        };
        let bytes: u8 = base[1..].parse().ok()?;
        let ok = match kind {
            PrimKind::F => matches!(bytes, 4 | 8),
            _ => matches!(bytes, 1 | 2 | 4 | 8),
        };
        if !ok || (bytes == 1 && endian.is_some()) {
            return None;
        }
        Some(Prim {
            kind,
            bytes,
            endian,
        })
    }
    pub fn rust(self) -> &'static str {
        match (self.kind, self.bytes) {
            (PrimKind::U, 1) => "u8",
            (PrimKind::U, 2) => "u16",
            (PrimKind::U, 4) => "u32",
            (PrimKind::U, _) => "u64",
            (PrimKind::S, 1) => "i8",
            (PrimKind::S, 2) => "i16",
            (PrimKind::S, 4) => "i32",
            (PrimKind::S, _) => "i64",
            (PrimKind::F, 4) => "f32",
            (PrimKind::F, _) => "f64",
        }
    }
    pub fn ksy(self) -> String {
        let k = match self.kind {
            PrimKind::U => 'u',
            PrimKind::S => 's',
            PrimKind::F => 'f',
        };
        format!("{k}{}", self.bytes)
    }
    /// The bytes value `v` is stored as: in the type's own byte order, else the file's.
    pub fn stored(self, v: i128, file: Endian) -> Vec<u8> {
        let mut b = (v as u128).to_le_bytes()[..usize::from(self.bytes)].to_vec();
        if self.endian.unwrap_or(file) == Endian::Be {
            b.reverse();
        }
        b
    }
    pub fn max(self) -> u128 {
        match self.kind {
            PrimKind::U => (1u128 << (8 * u32::from(self.bytes))) - 1,
            PrimKind::S => (1u128 << (8 * u32::from(self.bytes) - 1)) - 1,
            PrimKind::F => 0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct TypeRef {
    pub name: String,
    pub args: Vec<Expr>,
}

#[derive(Debug, Clone)]
pub enum Size {
    Expr(Expr),
    Eos,
}

#[derive(Debug, Clone)]
pub enum FieldType {
    Prim(Prim),
    Bits(u32),
    User(TypeRef),
    Bytes(Size),
    Str {
        size: Size,
        encoding: String,
    },
    /// `type: strz`: text up to a NUL byte, which is consumed and not kept (Kaitai's
    /// `terminator: 0`, `consume: true`, `include: false`).
    Strz {
        encoding: String,
    },
    Contents(Vec<u8>),
    Switch {
        on: Expr,
        cases: Vec<(Expr, TypeRef)>,
    },
    SizedUser {
        r#ref: TypeRef,
        size: Size,
    },
}

impl FieldType {
    /// The size a sized field states (bytes, text, a sized part).
    pub fn size(&self) -> Option<&Size> {
        match self {
            FieldType::Bytes(s)
            | FieldType::Str { size: s, .. }
            | FieldType::SizedUser { size: s, .. } => Some(s),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Repeat {
    None,
    Expr(Expr),
    Eos,
}

#[derive(Debug, Clone)]
pub enum Valid {
    Eq(Expr),
    Range {
        min: Option<Expr>,
        max: Option<Expr>,
    },
    AnyOf(Vec<Expr>),
    Expr(Expr),
}

impl Valid {
    /// The expressions of the check.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Valid::Eq(e) | Valid::Expr(e) => vec![e],
            Valid::Range { min, max } => min.iter().chain(max.iter()).collect(),
            Valid::AnyOf(es) => es.iter().collect(),
        }
    }
}

/// How a field's value is recomputed on writing: it is the count (or byte size) of later fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// `repeat-expr: this`
    Count,
    /// `size: this`
    Size,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub id: String,
    pub doc: Option<String>,
    pub orig_id: Option<String>,
    pub confidence: Option<Confidence>,
    pub evidence: Option<String>,
    pub offset: Option<Expr>,
    pub ty: FieldType,
    pub repeat: Repeat,
    pub cond: Option<Expr>,
    pub valid: Option<Valid>,
    pub enum_name: Option<String>,
    /// The later fields of the same type whose count or size is exactly this field.
    pub users: Vec<(usize, Use)>,
    /// `-derive`: a stored value the document defines from other fields (a total); written
    /// as the expression's value, kept as read (the family's relation pass compares them).
    pub derive: Option<Expr>,
    /// Whether an expression of the type uses `id._sizeof` (the bytes this field took), so the
    /// reader and the writer measure it.
    pub measured: bool,
    /// `-reading`: the choice the documents leave open that this field's place, size or
    /// meaning rests on, stated (its confidence is then `inferred`, or `unknown` for bytes
    /// whose meaning is not claimed).
    pub reading: Option<String>,
    /// How a value that fails the field's own check (`valid` or `contents`) is reported: `Some`
    /// exactly when the field has one. From the field's confidence ([`Severity::of`]) unless
    /// the spec gives `-severity` with a `-severity-reason`; `Error` for a field without a
    /// confidence (the generator's fixtures).
    pub check_severity: Option<Severity>,
    /// `-severity-reason`: why `check_severity` is not the one the confidence gives.
    pub severity_reason: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Param {
    pub id: String,
    pub prim: Prim,
    pub doc: Option<String>,
    /// For layouts: the name of the command-line value that fills this parameter.
    pub context: Option<String>,
    /// For layouts: the value when none is given (`-default`); without one, a value must be.
    pub default: Option<i128>,
}

#[derive(Debug, Clone)]
pub struct Instance {
    pub id: String,
    pub value: Expr,
    pub doc: Option<String>,
}

/// A relation between fields that the document states (checked by hand-written code in the
/// family's `relations` pass, which names it by this id).
#[derive(Debug, Clone)]
pub struct Relation {
    pub id: String,
    pub doc: String,
    /// The document's word for the relation. Layout specs must give it
    /// ([`require_facts`]); only the generator's fixtures leave it out.
    pub confidence: Option<Confidence>,
    pub evidence: Option<String>,
    /// How a violation is reported: [`Severity::of`] the confidence, unless the spec gives
    /// `-severity` with a `-severity-reason` (then that); `Error` without a confidence.
    pub severity: Severity,
    /// `-severity-reason`: why `severity` is not the one the confidence gives (a census range,
    /// a structural necessity).
    pub severity_reason: Option<String>,
    /// `-reading`: the choice the documents leave open that the relation's check rests on
    /// (its confidence is then `inferred`).
    pub reading: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Type {
    pub name: String,
    pub rust: String,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub confidence: Option<Confidence>,
    pub evidence: Option<String>,
    pub params: Vec<Param>,
    pub fields: Vec<Field>,
    pub instances: Vec<Instance>,
    pub relations: Vec<Relation>,
    pub layout: Option<String>,
    pub min_size: u64,
    pub fixed_size: Option<u64>,
    /// The type's own `meta: endian` (Kaitai lets a type override the file's byte order, or
    /// compute it); `None` keeps the file's.
    pub endian: Option<TypeEndian>,
}

impl Type {
    /// The fields a value keeps: all but `contents` (a constant, checked and written, not kept).
    pub fn stored(&self) -> impl Iterator<Item = &Field> {
        self.fields
            .iter()
            .filter(|f| !matches!(f.ty, FieldType::Contents(_)))
    }
}

/// A type's `meta: endian`.
#[derive(Debug, Clone)]
pub enum TypeEndian {
    /// `meta: endian: le` or `be`.
    Fixed(Endian),
    /// `meta: endian: {switch-on: EXPR, cases: {K: le, ...}}`: chosen when a value of the type
    /// starts, from its parameters (Kaitai's calculated default endianness). A value with no
    /// case is an error.
    Switch {
        on: Expr,
        cases: Vec<(Expr, Endian)>,
    },
}

/// One named value of an enum, with the document's facts for its row.
#[derive(Debug, Clone)]
pub struct EnumValue {
    pub value: i128,
    pub id: String,
    pub doc: Option<String>,
    /// The value's name as the document's table writes it (`Float16`).
    pub orig_id: Option<String>,
    /// The document's word for this value's row (the vertex formats' table labels each row).
    pub confidence: Option<Confidence>,
    pub evidence: Option<String>,
    /// `-reading`, as for fields.
    pub reading: Option<String>,
}

#[derive(Debug, Clone)]
pub struct EnumDef {
    pub name: String,
    pub rust: String,
    /// `(value, id, doc)` of every item, in spec order (the view the emitter takes).
    pub values: Vec<(i128, String, Option<String>)>,
    /// Every value with its facts, in spec order.
    pub items: Vec<EnumValue>,
    /// The integer type of the fields that use it.
    pub prim: Option<Prim>,
}

impl EnumDef {
    /// The value named `id`.
    pub fn value_of(&self, id: &str) -> Option<i128> {
        self.values
            .iter()
            .find(|(_, i, _)| i == id)
            .map(|(v, _, _)| *v)
    }
}

#[derive(Debug, Clone)]
pub struct Spec {
    /// Path relative to the repository (`spec/meshbin.ksy`).
    pub file: String,
    pub id: String,
    pub title: String,
    pub application: Option<String>,
    pub extension: Option<String>,
    pub license: Option<String>,
    pub endian: Endian,
    pub types: Vec<Type>,
    pub enums: Vec<EnumDef>,
}

/// Where a reading is made, for listing every reading of a spec ([`Spec::readings`]).
#[derive(Debug, Clone, Copy)]
pub enum ReadingSite<'a> {
    /// A field of a type.
    Field { ty: &'a Type, field: &'a Field },
    /// A relation of a type.
    Relation {
        ty: &'a Type,
        relation: &'a Relation,
    },
    /// A value of an enum.
    EnumValue {
        def: &'a EnumDef,
        value: &'a EnumValue,
    },
}

impl ReadingSite<'_> {
    /// The site as the docs name it: `type.field`, `type` relation `id`, `enum::value`.
    pub fn name(&self) -> String {
        match self {
            ReadingSite::Field { ty, field } => format!("{}.{}", ty.name, field.id),
            ReadingSite::Relation { ty, relation } => {
                format!("{} relation {}", ty.name, relation.id)
            }
            ReadingSite::EnumValue { def, value } => format!("{}::{}", def.name, value.id),
        }
    }
    /// The reading, as the spec states it.
    pub fn text(&self) -> &str {
        match self {
            ReadingSite::Field { field, .. } => field.reading.as_deref().unwrap_or_default(),
            ReadingSite::Relation { relation, .. } => {
                relation.reading.as_deref().unwrap_or_default()
            }
            ReadingSite::EnumValue { value, .. } => value.reading.as_deref().unwrap_or_default(),
        }
    }
}

impl Spec {
    pub fn ty(&self, name: &str) -> Option<&Type> {
        self.types.iter().find(|t| t.name == name)
    }
    pub fn enum_def(&self, name: &str) -> Option<&EnumDef> {
        self.enums.iter().find(|e| e.name == name)
    }
    /// The value of a constant expression: a literal or an enum's named value.
    pub fn constant(&self, e: &Expr) -> Option<i128> {
        match e {
            Expr::EnumVal(en, id) => self.enum_def(en)?.value_of(id),
            e => e.literal(),
        }
    }
    /// Every reading the spec makes (`-reading` on a field, a relation or an enum value), in
    /// spec order: types (fields, then relations), then enums.
    pub fn readings(&self) -> Vec<ReadingSite<'_>> {
        let mut out = vec![];
        for ty in &self.types {
            for field in ty.fields.iter().filter(|f| f.reading.is_some()) {
                out.push(ReadingSite::Field { ty, field });
            }
            for relation in ty.relations.iter().filter(|r| r.reading.is_some()) {
                out.push(ReadingSite::Relation { ty, relation });
            }
        }
        for def in &self.enums {
            for value in def.items.iter().filter(|v| v.reading.is_some()) {
                out.push(ReadingSite::EnumValue { def, value });
            }
        }
        out
    }
}

/// What a layout spec (unlike the generator's fixtures) must state beyond the subset: the
/// document's word on every relation and on every field that checks its own value, so that
/// every rule's severity follows from it.
pub fn require_facts(spec: &Spec) -> R<()> {
    for t in &spec.types {
        for r in &t.relations {
            if r.confidence.is_none() {
                return Err(format!(
                    "{}: {} relation `{}` needs a -confidence (its severity follows from it)",
                    spec.file, t.name, r.id
                ));
            }
        }
        for f in &t.fields {
            if f.check_severity.is_some() && f.confidence.is_none() {
                return Err(format!(
                    "{}: {}.{}: a field with valid or contents needs a -confidence (the check's severity follows from it)",
                    spec.file, t.name, f.id
                ));
            }
        }
    }
    Ok(())
}

pub fn camel(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn is_snake(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

type R<T> = Result<T, String>;

fn str_of(v: &Value, what: &str) -> R<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("{what} must be text")),
    }
}

fn map_of<'a>(v: &'a Value, what: &str) -> R<&'a Mapping> {
    v.as_mapping()
        .ok_or_else(|| format!("{what} must be a map"))
}

/// Refuses keys outside the subset: our own keys start with `-`, and only those listed are ours.
fn check_keys(m: &Mapping, allowed: &[&str], what: &str) -> R<()> {
    for k in m.keys() {
        let k = k
            .as_str()
            .ok_or_else(|| format!("{what}: keys must be text"))?;
        if !allowed.contains(&k) {
            return Err(format!(
                "{what}: key `{k}` is not in the subset spec/README.md documents (allowed: {})",
                allowed.join(", ")
            ));
        }
    }
    Ok(())
}

fn get<'a>(m: &'a Mapping, k: &str) -> Option<&'a Value> {
    m.get(Value::String(k.to_string()))
}

fn opt_str(m: &Mapping, k: &str) -> R<Option<String>> {
    get(m, k).map(|v| str_of(v, k)).transpose()
}

fn opt_expr(m: &Mapping, k: &str, what: &str) -> R<Option<Expr>> {
    get(m, k)
        .map(|v| expr::from_yaml(v).map_err(|e| format!("{what}: {k}: {e}")))
        .transpose()
}

fn doc_refs(m: &Mapping) -> R<Vec<String>> {
    match get(m, "doc-ref") {
        None => Ok(vec![]),
        Some(Value::Sequence(s)) => s.iter().map(|v| str_of(v, "doc-ref")).collect(),
        Some(v) => Ok(vec![str_of(v, "doc-ref")?]),
    }
}

fn confidence(m: &Mapping, what: &str) -> R<Option<Confidence>> {
    opt_str(m, "-confidence")?
        .map(|s| confidence_word(&s).map_err(|e| format!("{what}: {e}")))
        .transpose()
}

/// The severity of a rule (a relation, or a field's own check) and the reason the spec gives
/// when it differs from the one the confidence gives. A `-severity` that contradicts the
/// confidence without a `-severity-reason` is refused, and so is a reason for nothing.
fn rule_severity(
    m: &Mapping,
    confidence: Option<Confidence>,
    what: &str,
) -> R<(Severity, Option<String>)> {
    let given = opt_str(m, "-severity")?
        .map(|s| severity_word(&s).map_err(|e| format!("{what}: {e}")))
        .transpose()?;
    let reason = opt_str(m, "-severity-reason")?.filter(|r| !r.trim().is_empty());
    let from_confidence = confidence.map(Severity::of);
    match (given, from_confidence, reason) {
        (None, None, None) => Ok((Severity::Error, None)),
        (None, Some(c), None) => Ok((c, None)),
        (None, _, Some(_)) => Err(format!("{what}: -severity-reason without -severity")),
        (Some(g), None, reason) => Ok((g, reason)),
        (Some(g), Some(c), None) if g == c => Ok((g, None)),
        (Some(g), Some(c), None) => Err(format!(
            "{what}: -severity: {} contradicts -confidence: {} (which gives {}); state why with -severity-reason, or drop -severity",
            g.word(),
            confidence.map(|c| c.word()).unwrap_or_default(),
            c.word()
        )),
        (Some(g), Some(c), Some(_)) if g == c => Err(format!(
            "{what}: -severity-reason given, but -severity: {} is what the confidence gives anyway",
            g.word()
        )),
        (Some(g), Some(_), Some(r)) => Ok((g, Some(r))),
    }
}

/// `-reading`: a stated reading goes with the confidence `inferred` (or `unknown`, for bytes
/// whose meaning is not claimed, where `unknown_allowed`).
fn reading(
    m: &Mapping,
    confidence: Option<Confidence>,
    unknown_allowed: bool,
    what: &str,
) -> R<Option<String>> {
    let Some(r) = opt_str(m, "-reading")? else {
        return Ok(None);
    };
    if r.trim().is_empty() {
        return Err(format!("{what}: -reading is empty; state the reading"));
    }
    match confidence {
        Some(Confidence::Inferred) => Ok(Some(r)),
        Some(Confidence::Unknown) if unknown_allowed => Ok(Some(r)),
        other => Err(format!(
            "{what}: a reading (a choice the documents leave open) is labelled -confidence: inferred{}, found {}",
            if unknown_allowed {
                " (or unknown, for bytes whose meaning is not claimed)"
            } else {
                ""
            },
            other.map(|c| c.word()).unwrap_or("none")
        )),
    }
}

const ATTR_KEYS: &[&str] = &[
    "id",
    "type",
    "size",
    "size-eos",
    "contents",
    "repeat",
    "repeat-expr",
    "if",
    "valid",
    "enum",
    "encoding",
    "doc",
    "doc-ref",
    "-offset",
    "-confidence",
    "-evidence",
    "-orig-id",
    "-derive",
    "-reading",
    "-severity",
    "-severity-reason",
];

const TYPE_KEYS: &[&str] = &[
    "meta",
    "-relations",
    "seq",
    "types",
    "params",
    "instances",
    "enums",
    "doc",
    "doc-ref",
    "-layout",
    "-confidence",
    "-evidence",
];

const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "license",
    "endian",
    "bit-endian",
    "ks-version",
    "xref",
    "tags",
    "-layout",
];

fn endian_word(v: &Value, what: &str) -> R<Endian> {
    match v.as_str() {
        Some("le") => Ok(Endian::Le),
        Some("be") => Ok(Endian::Be),
        _ => Err(format!("{what}: an endianness is le or be")),
    }
}

/// A `{switch-on: EXPR, cases: {K: V}}` map, each `V` read by `case`. `needs` begins the
/// message for a missing key (`needs`, `switch needs`).
fn switch<T>(
    m: &Mapping,
    what: &str,
    needs: &str,
    case: impl Fn(&Value) -> R<T>,
) -> R<(Expr, Vec<(Expr, T)>)> {
    check_keys(m, &["switch-on", "cases"], what)?;
    let on = opt_expr(m, "switch-on", what)?.ok_or_else(|| format!("{what}: {needs} switch-on"))?;
    let cases = get(m, "cases").ok_or_else(|| format!("{what}: {needs} cases"))?;
    let cases = map_of(cases, what)?
        .iter()
        .map(|(k, v)| {
            let key = expr::from_yaml(k).map_err(|e| format!("{what}: case key: {e}"))?;
            Ok((key, case(v)?))
        })
        .collect::<R<Vec<_>>>()?;
    Ok((on, cases))
}

/// A type's `meta: endian`: `le`, `be`, or `{switch-on: EXPR, cases: {K: le|be}}`.
fn type_endian(v: &Value, what: &str) -> R<TypeEndian> {
    let what = format!("{what}.meta.endian");
    match v {
        Value::Mapping(m) => {
            let (on, cases) = switch(m, &what, "needs", |e| endian_word(e, &what))?;
            if cases.is_empty() {
                return Err(format!("{what}: needs at least one case"));
            }
            Ok(TypeEndian::Switch { on, cases })
        }
        other => Ok(TypeEndian::Fixed(endian_word(other, &what)?)),
    }
}

fn type_ref(s: &str, what: &str) -> R<TypeRef> {
    let s = s.trim();
    if let Some(open) = s.find('(') {
        let inner = s[open + 1..]
            .strip_suffix(')')
            .ok_or_else(|| format!("{what}: `{s}` lacks `)`"))?;
        let args = split_args(inner)
            .iter()
            .map(|a| expr::parse(a).map_err(|e| format!("{what}: argument `{a}`: {e}")))
            .collect::<R<Vec<_>>>()?;
        Ok(TypeRef {
            name: s[..open].trim().to_string(),
            args,
        })
    } else {
        Ok(TypeRef {
            name: s.to_string(),
            args: vec![],
        })
    }
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn size_of_attr(m: &Mapping, what: &str) -> R<Option<Size>> {
    let size = opt_expr(m, "size", what)?;
    let eos = matches!(get(m, "size-eos"), Some(Value::Bool(true)));
    match (size, eos) {
        (Some(_), true) => Err(format!("{what}: both size and size-eos")),
        (Some(e), false) => Ok(Some(Size::Expr(e))),
        (None, true) => Ok(Some(Size::Eos)),
        (None, false) => Ok(None),
    }
}

fn contents(v: &Value, what: &str) -> R<Vec<u8>> {
    match v {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        Value::Sequence(items) => {
            let mut out = vec![];
            for it in items {
                match it {
                    Value::Number(n) => out.push(
                        n.as_u64()
                            .and_then(|v| u8::try_from(v).ok())
                            .ok_or_else(|| format!("{what}: contents byte {n} is not 0..255"))?,
                    ),
                    Value::String(s) => out.extend_from_slice(s.as_bytes()),
                    _ => return Err(format!("{what}: contents items must be bytes or text")),
                }
            }
            Ok(out)
        }
        _ => Err(format!("{what}: contents must be a list or text")),
    }
}

fn valid(v: &Value, what: &str) -> R<Valid> {
    match v {
        Value::Mapping(m) => {
            check_keys(m, &["eq", "min", "max", "any-of", "expr"], what)?;
            if let Some(e) = opt_expr(m, "eq", what)? {
                return Ok(Valid::Eq(e));
            }
            if let Some(e) = opt_expr(m, "expr", what)? {
                return Ok(Valid::Expr(e));
            }
            if let Some(Value::Sequence(items)) = get(m, "any-of") {
                return Ok(Valid::AnyOf(
                    items
                        .iter()
                        .map(|v| expr::from_yaml(v).map_err(|e| format!("{what}: any-of: {e}")))
                        .collect::<R<_>>()?,
                ));
            }
            Ok(Valid::Range {
                min: opt_expr(m, "min", what)?,
                max: opt_expr(m, "max", what)?,
            })
        }
        other => Ok(Valid::Eq(
            expr::from_yaml(other).map_err(|e| format!("{what}: valid: {e}"))?,
        )),
    }
}

fn attr(v: &Value, where_: &str, bit_le: bool) -> R<Field> {
    let m = map_of(v, where_)?;
    let id = opt_str(m, "id")?.ok_or_else(|| format!("{where_}: an attribute needs an id"))?;
    let what = format!("{where_}.{id}");
    check_keys(m, ATTR_KEYS, &what)?;
    if !is_snake(&id) {
        return Err(format!("{what}: ids are snake_case"));
    }
    let size = size_of_attr(m, &what)?;
    let ty = match (get(m, "type"), get(m, "contents")) {
        (Some(_), Some(_)) => return Err(format!("{what}: both type and contents")),
        (None, Some(c)) => FieldType::Contents(contents(c, &what)?),
        (None, None) => FieldType::Bytes(
            size.clone()
                .ok_or_else(|| format!("{what}: a field without type needs size or size-eos"))?,
        ),
        (Some(Value::Mapping(sw)), None) => {
            let (on, cases) = switch(sw, &what, "switch needs", |t| {
                type_ref(&str_of(t, "case type")?, &what)
            })?;
            if size.is_some() {
                return Err(format!("{what}: sized switches are not in the subset"));
            }
            FieldType::Switch { on, cases }
        }
        (Some(t), None) => {
            let t = str_of(t, "type")?;
            if let Some(p) = Prim::parse(&t) {
                if size.is_some() {
                    return Err(format!("{what}: a sized primitive is not in the subset"));
                }
                FieldType::Prim(p)
            } else if let Some(n) = t.strip_prefix('b').and_then(|n| n.parse::<u32>().ok()) {
                if !(1..=64).contains(&n) {
                    return Err(format!("{what}: bit fields are b1 to b64"));
                }
                if !bit_le {
                    return Err(format!(
                        "{what}: bit fields need `bit-endian: le` in meta (the subset's only order)"
                    ));
                }
                FieldType::Bits(n)
            } else if t == "str" {
                FieldType::Str {
                    size: size
                        .clone()
                        .ok_or_else(|| format!("{what}: str needs size"))?,
                    encoding: opt_str(m, "encoding")?
                        .ok_or_else(|| format!("{what}: str needs an encoding"))?,
                }
            } else if t == "strz" {
                if size.is_some() {
                    return Err(format!(
                        "{what}: a sized strz (padded text) is not in the subset"
                    ));
                }
                FieldType::Strz {
                    encoding: opt_str(m, "encoding")?
                        .ok_or_else(|| format!("{what}: strz needs an encoding"))?,
                }
            } else {
                let r = type_ref(&t, &what)?;
                match size.clone() {
                    Some(size) => FieldType::SizedUser { r#ref: r, size },
                    None => FieldType::User(r),
                }
            }
        }
    };
    let repeat = match opt_str(m, "repeat")?.as_deref() {
        None => Repeat::None,
        Some("expr") => Repeat::Expr(
            opt_expr(m, "repeat-expr", &what)?
                .ok_or_else(|| format!("{what}: repeat: expr needs repeat-expr"))?,
        ),
        Some("eos") => Repeat::Eos,
        Some(other) => return Err(format!("{what}: repeat: {other} is not in the subset")),
    };
    if matches!(ty, FieldType::Bits(_)) && !matches!(repeat, Repeat::None) {
        return Err(format!("{what}: repeated bit fields are not in the subset"));
    }
    let conf = confidence(m, &what)?;
    let valid = get(m, "valid").map(|v| valid(v, &what)).transpose()?;
    let checked = valid.is_some() || matches!(ty, FieldType::Contents(_));
    let (severity, severity_reason) = rule_severity(m, conf, &what)?;
    if !checked && (get(m, "-severity").is_some() || get(m, "-severity-reason").is_some()) {
        return Err(format!(
            "{what}: -severity is for a field with valid or contents (its own check)"
        ));
    }
    if matches!(ty, FieldType::Contents(_)) && severity == Severity::Warning {
        return Err(format!(
            "{what}: a `contents` check cannot be a warning: the writer writes the constant, so other bytes would be lost; use a stored field with `valid` instead"
        ));
    }
    Ok(Field {
        reading: reading(m, conf, true, &what)?,
        check_severity: checked.then_some(severity),
        severity_reason,
        id,
        doc: opt_str(m, "doc")?,
        orig_id: opt_str(m, "-orig-id")?,
        confidence: conf,
        evidence: opt_str(m, "-evidence")?,
        offset: opt_expr(m, "-offset", &what)?,
        ty,
        repeat,
        cond: opt_expr(m, "if", &what)?,
        valid,
        enum_name: opt_str(m, "enum")?,
        users: vec![],
        derive: opt_expr(m, "-derive", &what)?,
        measured: false,
    })
}

struct Loader {
    types: Vec<Type>,
    enums: Vec<EnumDef>,
    bit_le: bool,
}

impl Loader {
    fn enums(&mut self, m: &Mapping, what: &str) -> R<()> {
        if let Some(es) = get(m, "enums") {
            for (name, vals) in map_of(es, "enums")? {
                let name = str_of(name, "enum name")?;
                let mut values = vec![];
                for (k, v) in map_of(vals, &name)? {
                    let key = expr::from_yaml(k)
                        .ok()
                        .and_then(|e| e.literal())
                        .ok_or_else(|| format!("{what}: enum {name}: keys are integers"))?;
                    let item = match v {
                        Value::Mapping(vm) => {
                            let at = format!("enum {name}: {key}");
                            check_keys(
                                vm,
                                &[
                                    "id",
                                    "doc",
                                    "doc-ref",
                                    "-orig-id",
                                    "-confidence",
                                    "-evidence",
                                    "-reading",
                                ],
                                &at,
                            )?;
                            let conf = confidence(vm, &at)?;
                            EnumValue {
                                value: key,
                                id: opt_str(vm, "id")?
                                    .ok_or_else(|| format!("enum {name}: value needs id"))?,
                                doc: opt_str(vm, "doc")?,
                                orig_id: opt_str(vm, "-orig-id")?,
                                confidence: conf,
                                evidence: opt_str(vm, "-evidence")?,
                                reading: reading(vm, conf, false, &at)?,
                            }
                        }
                        other => EnumValue {
                            value: key,
                            id: str_of(other, "enum value")?,
                            doc: None,
                            orig_id: None,
                            confidence: None,
                            evidence: None,
                            reading: None,
                        },
                    };
                    values.push(item);
                }
                if self.enums.iter().any(|e| e.name == name) {
                    return Err(format!("enum `{name}` is defined twice"));
                }
                self.enums.push(EnumDef {
                    rust: camel(&name),
                    name,
                    values: values
                        .iter()
                        .map(|v| (v.value, v.id.clone(), v.doc.clone()))
                        .collect(),
                    items: values,
                    prim: None,
                });
            }
        }
        Ok(())
    }

    fn ty(&mut self, name: &str, m: &Mapping, layout_from_meta: Option<String>) -> R<()> {
        check_keys(m, TYPE_KEYS, name)?;
        self.enums(m, name)?;
        let mut params = vec![];
        if let Some(ps) = get(m, "params") {
            for p in ps.as_sequence().ok_or("params must be a list")? {
                let pm = map_of(p, "param")?;
                check_keys(pm, &["id", "type", "doc", "-context", "-default"], name)?;
                let id = opt_str(pm, "id")?.ok_or("param needs id")?;
                let t = opt_str(pm, "type")?.ok_or("param needs type")?;
                let prim = Prim::parse(&t)
                    .filter(|p| p.kind != PrimKind::F)
                    .ok_or_else(|| format!("{name}: param {id}: integer types only, found {t}"))?;
                let context = opt_str(pm, "-context")?;
                let default = match get(pm, "-default") {
                    None => None,
                    Some(v) => Some(
                        v.as_i64()
                            .map(i128::from)
                            .filter(|&d| {
                                let min = match prim.kind {
                                    PrimKind::S => -(prim.max() as i128) - 1,
                                    _ => 0,
                                };
                                (min..=prim.max() as i128).contains(&d)
                            })
                            .ok_or_else(|| {
                                format!(
                                    "{name}: param {id}: -default must be an integer a {t} holds"
                                )
                            })?,
                    ),
                };
                if default.is_some() && context.is_none() {
                    return Err(format!(
                        "{name}: param {id}: -default is for a layout's parameters, which take -context"
                    ));
                }
                params.push(Param {
                    id,
                    prim,
                    doc: opt_str(pm, "doc")?,
                    context,
                    default,
                });
            }
        }
        let mut fields = vec![];
        if let Some(seq) = get(m, "seq") {
            for a in seq.as_sequence().ok_or("seq must be a list")? {
                fields.push(attr(a, name, self.bit_le)?);
            }
        }
        let mut instances = vec![];
        if let Some(is) = get(m, "instances") {
            for (k, v) in map_of(is, "instances")? {
                let id = str_of(k, "instance")?;
                let im = map_of(v, &id)?;
                check_keys(im, &["value", "doc"], &format!("{name}.{id}"))?;
                instances.push(Instance {
                    value: opt_expr(im, "value", &id)?.ok_or_else(|| {
                        format!("{name}.{id}: only value instances are in the subset")
                    })?,
                    doc: opt_str(im, "doc")?,
                    id,
                });
            }
        }
        let mut relations = vec![];
        if let Some(rs) = get(m, "-relations") {
            for r in rs.as_sequence().ok_or("-relations must be a list")? {
                let rm = map_of(r, "relation")?;
                check_keys(
                    rm,
                    &[
                        "id",
                        "doc",
                        "-confidence",
                        "-evidence",
                        "-severity",
                        "-severity-reason",
                        "-reading",
                    ],
                    &format!("{name}: -relations"),
                )?;
                let id =
                    opt_str(rm, "id")?.ok_or_else(|| format!("{name}: a relation needs an id"))?;
                if !is_snake(&id) {
                    return Err(format!("{name}: relation ids are snake_case: {id}"));
                }
                if relations.iter().any(|r: &Relation| r.id == id) {
                    return Err(format!("{name}.{id}: relation id used twice"));
                }
                let what = format!("{name}.{id}");
                let conf = confidence(rm, &what)?;
                if conf == Some(Confidence::Unknown) {
                    return Err(format!(
                        "{what}: a relation is a rule the documents state (proven, observed, sourced) or that we infer; `unknown` is for stored bytes"
                    ));
                }
                let (severity, severity_reason) = rule_severity(rm, conf, &what)?;
                relations.push(Relation {
                    severity,
                    severity_reason,
                    reading: reading(rm, conf, false, &what)?,
                    doc: opt_str(rm, "doc")?
                        .ok_or_else(|| format!("{name}.{id}: a relation needs doc"))?,
                    confidence: conf,
                    evidence: opt_str(rm, "-evidence")?,
                    id,
                });
            }
        }
        let layout = match (opt_str(m, "-layout")?, layout_from_meta) {
            (Some(_), Some(_)) => return Err(format!("{name}: -layout given twice")),
            (a, b) => a.or(b),
        };
        if self.types.iter().any(|t| t.name == name) {
            return Err(format!(
                "type `{name}` is defined twice (names are unique per spec)"
            ));
        }
        self.types.push(Type {
            name: name.to_string(),
            rust: camel(name),
            doc: opt_str(m, "doc")?,
            doc_ref: doc_refs(m)?,
            confidence: confidence(m, name)?,
            evidence: opt_str(m, "-evidence")?,
            params,
            fields,
            instances,
            relations,
            layout,
            min_size: 0,
            fixed_size: None,
            endian: match get(m, "meta") {
                Some(meta) => {
                    let meta = map_of(meta, &format!("{name}.meta"))?;
                    check_keys(meta, &["endian"], &format!("{name}.meta"))?;
                    get(meta, "endian")
                        .map(|e| type_endian(e, name))
                        .transpose()?
                }
                None => None,
            },
        });
        if let Some(ts) = get(m, "types") {
            for (k, v) in map_of(ts, "types")? {
                let tn = str_of(k, "type name")?;
                if !is_snake(&tn) {
                    return Err(format!("type `{tn}`: names are snake_case"));
                }
                self.ty(&tn, map_of(v, &tn)?, None)?;
            }
        }
        Ok(())
    }
}

/// Reads and resolves one spec file. `file` is the repository-relative path, for headers.
pub fn load(file: &str, text: &str) -> R<Spec> {
    let y: Value = serde_norway::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let top = map_of(&y, "the spec")?;
    let meta = map_of(get(top, "meta").ok_or("meta is required")?, "meta")?;
    check_keys(meta, META_KEYS, "meta")?;
    let id = opt_str(meta, "id")?.ok_or("meta.id is required")?;
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if id != stem {
        return Err(format!("meta.id `{id}` must equal the file name `{stem}`"));
    }
    let endian = match opt_str(meta, "endian")?.as_deref() {
        Some("le") => Endian::Le,
        Some("be") => Endian::Be,
        _ => return Err("meta.endian must be le or be".into()),
    };
    let bit_le = match opt_str(meta, "bit-endian")?.as_deref() {
        None | Some("be") => false,
        Some("le") => true,
        Some(o) => return Err(format!("meta.bit-endian: {o}")),
    };
    let mut l = Loader {
        types: vec![],
        enums: vec![],
        bit_le,
    };
    let mut root = top.clone();
    root.remove("meta");
    l.ty(&id, &root, opt_str(meta, "-layout")?)?;
    let mut spec = Spec {
        file: file.to_string(),
        title: opt_str(meta, "title")?.ok_or("meta.title is required")?,
        application: opt_str(meta, "application")?,
        extension: opt_str(meta, "file-extension")?,
        license: opt_str(meta, "license")?,
        id,
        endian,
        types: l.types,
        enums: l.enums,
    };
    resolve(&mut spec)?;
    Ok(spec)
}

/// Checks names and computes what the outputs need: counts to recompute, sizes, enum types.
fn resolve(spec: &mut Spec) -> R<()> {
    // Every referenced type and enum exists, with the right number of arguments.
    for t in &spec.types {
        let mut seen = BTreeSet::new();
        for f in &t.fields {
            if !seen.insert(f.id.clone()) {
                return Err(format!("{}.{}: id used twice", t.name, f.id));
            }
            for r in refs(&f.ty) {
                let target = spec
                    .ty(&r.name)
                    .ok_or_else(|| format!("{}.{}: no type `{}`", t.name, f.id, r.name))?;
                if target.params.len() != r.args.len() {
                    return Err(format!(
                        "{}.{}: `{}` takes {} arguments, given {}",
                        t.name,
                        f.id,
                        r.name,
                        target.params.len(),
                        r.args.len()
                    ));
                }
            }
        }
    }
    // Enum value types.
    for ti in 0..spec.types.len() {
        for fi in 0..spec.types[ti].fields.len() {
            let f = &spec.types[ti].fields[fi];
            if let Some(en) = &f.enum_name {
                let prim = match f.ty {
                    FieldType::Prim(p) if p.kind != PrimKind::F => p,
                    _ => return Err(format!("{}: enum on a non-integer field", f.id)),
                };
                let e = spec
                    .enums
                    .iter_mut()
                    .find(|e| &e.name == en)
                    .ok_or_else(|| format!("{}: no enum `{en}`", f.id))?;
                match e.prim {
                    Some(p) if p.rust() != prim.rust() => {
                        return Err(format!(
                            "enum `{en}` is used by fields of different types ({} and {})",
                            p.rust(),
                            prim.rust()
                        ))
                    }
                    _ => e.prim = Some(prim),
                }
            }
        }
    }
    // An enum no field takes is a table of facts a family reads by name (Unity's shader channel
    // orders): it gets the narrowest unsigned type that holds its values.
    for e in &mut spec.enums {
        if e.prim.is_none() {
            let max = e.values.iter().map(|v| v.0).max().unwrap_or(0);
            let bytes = match max {
                _ if e.values.iter().any(|v| v.0 < 0) => {
                    return Err(format!(
                        "enum `{}`: no field takes it and it has negative values (give it a field)",
                        e.name
                    ))
                }
                0..=0xFF => 1,
                0x100..=0xFFFF => 2,
                _ => 4,
            };
            e.prim = Some(Prim {
                kind: PrimKind::U,
                bytes,
                endian: None,
            });
        }
    }
    // Counts and sizes that are plain fields are recomputed on writing.
    for t in &mut spec.types {
        let ids: Vec<String> = t.fields.iter().map(|f| f.id.clone()).collect();
        for gi in 0..t.fields.len() {
            let g = &t.fields[gi];
            let mut uses = vec![];
            if let Repeat::Expr(Expr::Name(n)) = &g.repeat {
                uses.push((n.clone(), Use::Count));
            }
            if let (Some(Size::Expr(Expr::Name(n))), Repeat::None) = (g.ty.size(), &g.repeat) {
                uses.push((n.clone(), Use::Size));
            }
            let conditional = g.cond.is_some();
            for (n, u) in uses {
                if let Some(fi) = ids[..gi].iter().position(|i| *i == n) {
                    let f = &t.fields[fi];
                    let plain = matches!(f.ty, FieldType::Prim(p) if p.kind != PrimKind::F)
                        && matches!(f.repeat, Repeat::None)
                        && f.enum_name.is_none();
                    // A count may be conditional, and count several conditional lists (one
                    // per era of a layout): it is the length of the one that is present. A
                    // size stays unconditional (its part is measured or patched).
                    let counted = u == Use::Count && f.users.iter().all(|&(_, w)| w == Use::Count);
                    if plain && ((f.cond.is_none() && !conditional) || counted) {
                        t.fields[fi].users.push((gi, u));
                    }
                }
            }
        }
    }
    for t in &spec.types {
        for f in &t.fields {
            if f.derive.is_some() {
                let ok = matches!(f.ty, FieldType::Prim(p) if p.kind != PrimKind::F)
                    && matches!(f.repeat, Repeat::None)
                    && f.cond.is_none()
                    && f.users.is_empty();
                if !ok {
                    return Err(format!(
                        "{}.{}: -derive is for plain integer fields that are not also a count or size",
                        t.name, f.id
                    ));
                }
            }
        }
    }
    // `name._sizeof`: the fields whose size in bytes an expression uses are measured while
    // reading and writing.
    for t in &mut spec.types {
        let mut names = vec![];
        for f in &t.fields {
            for e in field_exprs(f) {
                e.sizeof_names(&mut names);
            }
        }
        for i in &t.instances {
            i.value.sizeof_names(&mut names);
        }
        for n in names {
            let f = t.fields.iter_mut().find(|f| f.id == n).ok_or_else(|| {
                format!(
                    "{}: `{n}._sizeof`: `{n}` is not a field of `{}`",
                    t.name, t.name
                )
            })?;
            if matches!(f.ty, FieldType::Bits(_)) {
                return Err(format!(
                    "{}.{n}: `_sizeof` of a bit field is not in the subset",
                    t.name
                ));
            }
            f.measured = true;
        }
    }
    check_endian_and_io(spec)?;
    // Sizes, innermost types first (a fixed point: types refer to each other in any order).
    let n = spec.types.len();
    for _ in 0..=n {
        for ti in 0..n {
            let (min, fixed) = type_size(spec, &spec.types[ti]);
            spec.types[ti].min_size = min;
            spec.types[ti].fixed_size = fixed;
        }
    }
    // A documented offset that is a number must be where the fixed fields before it end.
    for t in &spec.types {
        for (f, at) in t.fields.iter().zip(static_bit_offsets(spec, t)) {
            if let (Some(doc), Some(bits)) = (f.offset.as_ref().and_then(|e| e.literal()), at) {
                if bits % 8 != 0 || doc != i128::from(bits / 8) {
                    return Err(format!(
                        "{}.{}: -offset says {doc}, the fields before it take {} bytes",
                        t.name,
                        f.id,
                        bits as f64 / 8.0
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The spec's types that a value of type `from` can hold (itself included) through fields that
/// `through` accepts, in spec order.
pub fn reachable_by<'s>(
    spec: &'s Spec,
    from: &str,
    through: &dyn Fn(&Field) -> bool,
) -> Vec<&'s Type> {
    let mut names = vec![from.to_string()];
    let mut i = 0;
    while i < names.len() {
        let fields = spec.ty(&names[i]).into_iter().flat_map(|t| &t.fields);
        for f in fields.filter(|f| through(f)) {
            for r in refs(&f.ty) {
                if !names.contains(&r.name) {
                    names.push(r.name.clone());
                }
            }
        }
        i += 1;
    }
    spec.types
        .iter()
        .filter(|x| names.contains(&x.name))
        .collect()
}

/// The spec's types that a value of type `from` can hold (itself included), in spec order.
pub fn reachable<'s>(spec: &'s Spec, from: &str) -> Vec<&'s Type> {
    reachable_by(spec, from, &|_| true)
}

/// Whether values of type `from` can hold a value of type `target` (directly or further in).
pub fn reaches(spec: &Spec, from: &str, target: &str) -> bool {
    from == target || reachable(spec, from).iter().any(|t| t.name == target)
}

/// Whether reading or writing a value of type `name` evaluates `_io.pos` (in the type itself or
/// in a type it holds, read in the same stream).
pub fn uses_io_deep(spec: &Spec, name: &str) -> bool {
    reachable(spec, name).into_iter().any(type_uses_io)
}

fn type_uses_io(t: &Type) -> bool {
    t.fields
        .iter()
        .any(|f| field_exprs(f).iter().any(|e| e.uses_io()))
}

/// Byte order chosen per type and the stream position:
/// - a `meta: endian: switch-on` expression reads only the type's parameters (it is evaluated
///   before any field);
/// - a type that a calculated-endian type holds, and that has numbers without their own byte
///   order, must declare its own `meta: endian`: Kaitai would have it inherit the parent's
///   order at run time, which the generated code does not do implicitly;
/// - `_io` appears only as `_io.pos`, never in instances, and not in a type read through
///   `size-eos` (Kaitai gives such a part a stream of its own, which the reader here does not).
fn check_endian_and_io(spec: &Spec) -> R<()> {
    for t in &spec.types {
        if let Some(TypeEndian::Switch { on, .. }) = &t.endian {
            for n in on.names() {
                if !t.params.iter().any(|p| p.id == n) {
                    return Err(format!(
                        "{}: meta.endian switch-on reads `{n}`, which is not a parameter of the type (only parameters are known before the first field)",
                        t.name
                    ));
                }
            }
            for u in &spec.types {
                if u.name == t.name || u.endian.is_some() || !reaches(spec, &t.name, &u.name) {
                    continue;
                }
                let bare = u.fields.iter().find(
                    |f| matches!(f.ty, FieldType::Prim(p) if p.bytes > 1 && p.endian.is_none()),
                );
                if let Some(f) = bare {
                    return Err(format!(
                        "{}.{}: `{}` has a calculated byte order and holds `{}`, whose numbers have none of their own: give `{}` its own meta.endian (Kaitai would inherit it at run time)",
                        u.name, f.id, t.name, u.name, u.name
                    ));
                }
            }
        }
        for i in &t.instances {
            if i.value.uses_io() {
                return Err(format!(
                    "{}.{}: `_io` is only known while reading or writing, not in an instance",
                    t.name, i.id
                ));
            }
        }
        for f in &t.fields {
            let count = match &f.repeat {
                Repeat::Expr(c) => Some(c),
                _ => None,
            };
            for e in field_exprs(f) {
                // `_io.size` counts the elements that fill a sized part; the writer writes the
                // elements it has (the part's size is measured from them), so it is nowhere else.
                let in_count = count.is_some_and(|c| std::ptr::eq(c, e));
                let bad = e.any(&|x| match x {
                    Expr::Attr(a, n) => {
                        matches!(&**a, Expr::Name(b) if b == "_io")
                            && !(n == "pos" || (n == "size" && in_count))
                    }
                    _ => false,
                });
                let bare = e.any(&|x| matches!(x, Expr::Name(n) if n == "_io"))
                    && !e.any(&|x| matches!(x, Expr::Attr(a, _) if matches!(&**a, Expr::Name(b) if b == "_io")));
                if bad || bare {
                    return Err(format!(
                        "{}.{}: `{e}`: only `_io.pos`, and `_io.size` in a count, of the stream are in the subset",
                        t.name, f.id
                    ));
                }
            }
            let args_use_io = refs(&f.ty)
                .iter()
                .any(|r| r.args.iter().any(|a| a.uses_io()));
            if args_use_io {
                return Err(format!(
                    "{}.{}: `_io.pos` in a type's arguments is not in the subset (bind it to a field first)",
                    t.name, f.id
                ));
            }
            if let FieldType::SizedUser {
                r#ref: r,
                size: Size::Eos,
            } = &f.ty
            {
                if uses_io_deep(spec, &r.name) {
                    return Err(format!(
                        "{}.{}: `{}` reads `_io.pos`, so it cannot be read through size-eos (Kaitai would give it a stream of its own)",
                        t.name, f.id, r.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Every expression of a field: its offset, size, count, condition, checks, derivation and the
/// arguments and switch of its type.
pub fn field_exprs(f: &Field) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = vec![];
    out.extend(f.offset.iter());
    out.extend(f.cond.iter());
    out.extend(f.derive.iter());
    if let Repeat::Expr(e) = &f.repeat {
        out.push(e);
    }
    if let Some(Size::Expr(e)) = f.ty.size() {
        out.push(e);
    }
    if let FieldType::Switch { on, cases } = &f.ty {
        out.push(on);
        out.extend(cases.iter().map(|(k, _)| k));
    }
    for r in refs(&f.ty) {
        out.extend(r.args.iter());
    }
    out.extend(f.valid.iter().flat_map(Valid::exprs));
    out
}

pub fn refs(ty: &FieldType) -> Vec<&TypeRef> {
    match ty {
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => vec![r],
        FieldType::Switch { cases, .. } => cases.iter().map(|(_, r)| r).collect(),
        _ => vec![],
    }
}

/// (fewest bytes, exact bytes when every value has the same size)
pub fn elem_size(spec: &Spec, f: &Field) -> (u64, Option<u64>) {
    match &f.ty {
        FieldType::Prim(p) => (p.bytes.into(), Some(p.bytes.into())),
        FieldType::Bits(n) => (0, Some(u64::from(*n))), // in bits; groups are summed by the caller
        FieldType::User(r) => {
            let t = spec.ty(&r.name).expect("resolved");
            (t.min_size, t.fixed_size)
        }
        FieldType::Contents(c) => (c.len() as u64, Some(c.len() as u64)),
        FieldType::Bytes(s)
        | FieldType::Str { size: s, .. }
        | FieldType::SizedUser { size: s, .. } => match s {
            Size::Expr(e) => e
                .literal()
                .map_or((0, None), |v| (v as u64, Some(v as u64))),
            Size::Eos => (0, None),
        },
        // At least its terminator.
        FieldType::Strz { .. } => (1, None),
        FieldType::Switch { cases, .. } => {
            let sizes: Vec<(u64, Option<u64>)> = cases
                .iter()
                .map(|(_, r)| {
                    let t = spec.ty(&r.name).expect("resolved");
                    (t.min_size, t.fixed_size)
                })
                .collect();
            let min = sizes.iter().map(|s| s.0).min().unwrap_or(0);
            let fixed = sizes
                .first()
                .and_then(|s| s.1)
                .filter(|f| sizes.iter().all(|s| s.1 == Some(*f)));
            (min, fixed)
        }
    }
}

/// (fewest bytes, exact bytes) of a field with its repeat and condition.
pub fn field_size(spec: &Spec, f: &Field) -> (u64, Option<u64>) {
    let (min, fixed) = elem_size(spec, f);
    let (min, fixed) = match &f.repeat {
        Repeat::None => (min, fixed),
        Repeat::Expr(e) => match e.literal() {
            Some(n) => (min * n as u64, fixed.map(|s| s * n as u64)),
            None => (0, None),
        },
        Repeat::Eos => (0, None),
    };
    if f.cond.is_some() {
        (0, None)
    } else {
        (min, fixed)
    }
}

fn type_size(spec: &Spec, t: &Type) -> (u64, Option<u64>) {
    let mut min = 0u64;
    let mut fixed = Some(0u64);
    let mut bits = 0u64;
    for f in &t.fields {
        if let FieldType::Bits(n) = f.ty {
            bits += u64::from(n);
            continue;
        }
        min += bits / 8;
        fixed = fixed.map(|x| x + bits / 8);
        bits = 0;
        let (m, x) = field_size(spec, f);
        min += m;
        fixed = match (fixed, x) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
    (min + bits / 8, fixed.map(|x| x + bits / 8))
}

/// Where each field starts inside its type, in bits, when every field before it has a fixed
/// size (`None` from the first field of variable size on).
pub fn static_bit_offsets(spec: &Spec, t: &Type) -> Vec<Option<u64>> {
    let mut out = vec![];
    let mut at = Some(0u64);
    for f in &t.fields {
        out.push(at);
        let bits = match f.ty {
            FieldType::Bits(n) => Some(u64::from(n)),
            _ => field_size(spec, f).1.map(|b| b * 8),
        };
        at = match (at, bits) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
    out
}

/// Consecutive bit fields, as (first field index, number of fields, total bits).
pub fn bit_groups(t: &Type) -> Vec<(usize, usize, u32)> {
    let mut out = vec![];
    let mut i = 0;
    while i < t.fields.len() {
        if let FieldType::Bits(_) = t.fields[i].ty {
            let start = i;
            let mut total = 0;
            while i < t.fields.len() {
                match t.fields[i].ty {
                    FieldType::Bits(n) if t.fields[i].cond.is_none() => {
                        total += n;
                        i += 1;
                    }
                    _ => break,
                }
            }
            out.push((start, i - start, total));
        } else {
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// What the outputs need to know about a type or field, decided once here so that every emitter
// agrees (the walk stays apart from emission).

/// Whether a field holds its type by value inside a value of that same type (a SubMesh that
/// holds its copy): such fields are boxed, and their nesting is bounded when reading.
pub fn boxed(spec: &Spec, t: &Type, f: &Field) -> bool {
    let single = |f: &Field| matches!(f.repeat, Repeat::None);
    match &f.ty {
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
            single(f)
                && reachable_by(spec, &r.name, &single)
                    .iter()
                    .any(|x| x.name == t.name)
        }
        _ => false,
    }
}

/// A type made only of numbers at fixed offsets: read and written as one block of
/// `fixed_size` bytes. Returns each field's offset.
pub fn block_offsets(t: &Type) -> Option<Vec<u64>> {
    t.fixed_size?;
    if !t.params.is_empty() {
        return None;
    }
    let mut offs = vec![];
    let mut at = 0u64;
    for f in &t.fields {
        let FieldType::Prim(p) = f.ty else {
            return None;
        };
        let plain = matches!(f.repeat, Repeat::None)
            && f.cond.is_none()
            && f.users.is_empty()
            && f.derive.is_none()
            && !f.measured
            && f.offset
                .as_ref()
                .is_none_or(|e| e.literal() == Some(i128::from(at)));
        if !plain {
            return None;
        }
        offs.push(at);
        at += u64::from(p.bytes);
    }
    Some(offs)
}

/// Whether every field of `t` lies at a fixed offset with a fixed size, so that the positions
/// of a value follow from where it starts (lists of it record only base and stride).
pub fn fixed_layout(spec: &Spec, t: &Type) -> bool {
    fn walk(spec: &Spec, t: &Type, stack: &mut Vec<String>) -> bool {
        if t.fixed_size.is_none() || stack.contains(&t.name) {
            return false;
        }
        stack.push(t.name.clone());
        let ok = t.fields.iter().all(|f| {
            matches!(f.repeat, Repeat::None)
                && f.cond.is_none()
                && match &f.ty {
                    FieldType::Prim(_) | FieldType::Bits(_) | FieldType::Contents(_) => true,
                    FieldType::Bytes(Size::Expr(e))
                    | FieldType::Str {
                        size: Size::Expr(e),
                        ..
                    } => e.literal().is_some(),
                    FieldType::User(r) => walk(spec, spec.ty(&r.name).expect("resolved"), stack),
                    _ => false,
                }
        });
        stack.pop();
        ok
    }
    walk(spec, t, &mut vec![])
}

/// How a repeated field is held.
#[derive(Debug, Clone, PartialEq)]
pub enum ListKind {
    /// Plain numbers: a view of the input (`rt::Nums`), one block on writing.
    Nums(Prim),
    /// Values of a block type (see [`block_offsets`]): a view of the input (`rt::Blocks`).
    Blocks(String),
    /// Byte runs that all take the same size (an expression that does not depend on the
    /// element): a view of the input (`rt::Chunks`), base and stride positions.
    Chunks(Expr),
    /// Elements read one by one into a list.
    Each,
}

/// How field `f` of `t` is held when it repeats (`None` when it does not).
pub fn list_kind(spec: &Spec, t: &Type, f: &Field) -> Option<ListKind> {
    if matches!(f.repeat, Repeat::None) {
        return None;
    }
    Some(match &f.ty {
        FieldType::Prim(p) if f.enum_name.is_none() && f.valid.is_none() => ListKind::Nums(*p),
        FieldType::User(r)
            if matches!(f.repeat, Repeat::Expr(_))
                && f.valid.is_none()
                && r.args.is_empty()
                && !boxed(spec, t, f)
                && block_offsets(spec.ty(&r.name).expect("resolved")).is_some() =>
        {
            ListKind::Blocks(r.name.clone())
        }
        FieldType::Bytes(Size::Expr(e))
            if f.valid.is_none() && !e.names().iter().any(|n| n == "_index") =>
        {
            ListKind::Chunks(e.clone())
        }
        _ => ListKind::Each,
    })
}

/// Whether a repeated field's positions are base and stride: its elements all take the same
/// bytes in the same layout (a stride known from the spec, or one the reader computes).
pub fn strided(spec: &Spec, t: &Type, f: &Field) -> bool {
    fixed_elem(spec, f).is_some() || matches!(list_kind(spec, t, f), Some(ListKind::Chunks(_)))
}

/// Whether the elements of a repeated field all take the same bytes in the same layout, so the
/// list's positions are base and stride. Returns the stride.
pub fn fixed_elem(spec: &Spec, f: &Field) -> Option<u64> {
    match &f.ty {
        FieldType::Prim(p) => Some(u64::from(p.bytes)),
        FieldType::User(r) => {
            let t = spec.ty(&r.name).expect("resolved");
            fixed_layout(spec, t).then_some(t.fixed_size).flatten()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// A layout with the parameter line `param` (and a field that uses it).
    fn spec(param: &str) -> String {
        format!(
            r#"
meta:
  id: demo
  title: A demo
  endian: le
  -layout: demo
params:
  - id: ver
    type: u1
    -context: ver
  - id: editor
    type: u1
{param}
seq:
  - id: a
    type: u1
    if: editor != 0
"#
        )
    }

    #[test]
    fn a_layout_parameter_may_take_a_default() {
        let s = super::load(
            "spec/demo.ksy",
            &spec("    -context: editor\n    -default: 0"),
        )
        .unwrap();
        let p = &s.types[0].params;
        assert_eq!((p[0].default, p[1].default), (None, Some(0)));
        // Only a layout's parameters (those a user gives) take one, within their type.
        let e = super::load("spec/demo.ksy", &spec("    -default: 0")).unwrap_err();
        assert!(e.contains("-default is for a layout's parameters"), "{e}");
        let e = super::load(
            "spec/demo.ksy",
            &spec("    -context: editor\n    -default: 256"),
        )
        .unwrap_err();
        assert!(e.contains("-default must be an integer a u1 holds"), "{e}");
    }
}
