//! The model's types: a spec, its types, fields, parameters, instances, relations and enums,
//! as the YAML states them and as resolution completes them.

use crate::expr::Expr;
use crate::syntax::Mark;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    Le,
    Be,
}

/// The spec's `-confidence` and `-severity` words, as the library's runtime carries them.
pub use meshspec_confidence::{Confidence, Severity};

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
    /// A number type's name (`u4`, `s2be`, `f8le`).
    pub fn parse(s: &str) -> Option<Prim> {
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

/// Kaitai's `terminator`, `include`, `consume`, `eos-error` and `pad-right` on bytes or text
/// (`type: strz` with a size is text with `terminator: 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// The byte that ends the value.
    pub terminator: Option<u8>,
    /// The terminator is part of the value.
    pub include: bool,
    /// The terminator is read past (else the next field starts at it).
    pub consume: bool,
    /// Running out of bytes before the terminator is an error.
    pub eos_error: bool,
    /// Trailing bytes of this value are padding, not part of the value.
    pub pad_right: Option<u8>,
    /// A size (or `size-eos`) bounds the value and is taken whole, the terminator looked for
    /// inside it; else the terminator ends the value.
    pub bounded: bool,
}

/// Kaitai's `process`: how the stored bytes are decoded before they are the value (or are
/// read as the field's type).
#[derive(Debug, Clone)]
pub enum Process {
    /// `xor(key)`: each byte xored with the key (a byte, or bytes repeated).
    Xor(Expr),
    /// `rol(n)`, `ror(n)`: each byte rotated left (right) by `n` bits.
    Rol(Expr),
    Ror(Expr),
    /// `zlib`: a zlib stream, inflated.
    Zlib,
}

#[derive(Debug, Clone)]
pub enum Repeat {
    None,
    Expr(Expr),
    Eos,
    /// `repeat: until`: elements up to and including the first for which the expression (over
    /// `_`, the element just read) holds.
    Until(Expr),
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
    /// Where the field's entry starts in the spec file.
    pub at: Mark,
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
    /// How bytes or text end (a terminator, padding), beyond their size; `None` for `strz`
    /// without a size, whose NUL the type says.
    pub term: Option<Term>,
    /// The size of a sized switch: the case's type is read from exactly that many bytes.
    pub switch_size: Option<Size>,
    /// `process`: the stored bytes decoded before they are the value.
    pub process: Option<Process>,
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
    /// `type: bool`: the value is 0 or 1 (`prim` is `u1`).
    pub flag: bool,
    /// `enum`: the value names a value of this enum (Kaitai's typed parameter; here its
    /// integer).
    pub enum_name: Option<String>,
    pub doc: Option<String>,
    /// For layouts: the name of the command-line value that fills this parameter.
    pub context: Option<String>,
    /// For layouts: the value when none is given (`-default`); without one, a value must be.
    pub default: Option<i128>,
}

#[derive(Debug, Clone)]
pub struct Instance {
    pub id: String,
    /// Where the instance's entry starts in the spec file.
    pub at: Mark,
    pub value: Expr,
    pub doc: Option<String>,
    /// `if`: the value is there only when this holds (else null).
    pub cond: Option<Expr>,
    /// `enum`: the value names a value of this enum.
    pub enum_name: Option<String>,
}

/// An instance read from the bytes (Kaitai's `pos`, `io` and the keys of a field): read when
/// asked, at `pos` of the stream `io` names (the type's own by default).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub id: String,
    /// Where the instance's entry starts in the spec file.
    pub at: Mark,
    pub pos: Option<Expr>,
    pub io: Option<Expr>,
    /// What is read there, as a field states it (its id is the instance's).
    pub field: Field,
}

/// A relation between fields that the document states: checked from the spec alone when it
/// states the check as an expression ([`Relation::check`]), otherwise by hand-written code in
/// the family's `relations` pass, which names it by this id.
#[derive(Debug, Clone)]
pub struct Relation {
    pub id: String,
    /// Where the relation's entry starts in the spec file.
    pub at: Mark,
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
    /// `-check`: the relation as an expression over the type's fields, parameters and
    /// instances that holds for every value of the type (for every element of
    /// [`Relation::each`], where `_` is the element and `_index` its index).
    pub check: Option<Expr>,
    /// `-each`: the repeated field whose every element the check is about; a violation is
    /// placed at the element.
    pub each: Option<String>,
    /// `-at`: the field a violation is placed at (default: the value of the type), for a check
    /// without `-each`.
    pub placed_at: Option<String>,
}

impl Relation {
    /// Whether the spec alone checks the relation.
    pub fn stated(&self) -> bool {
        self.check.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct Type {
    pub name: String,
    /// Where the type's map starts in the spec file.
    pub at: Mark,
    pub rust: String,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub confidence: Option<Confidence>,
    pub evidence: Option<String>,
    pub params: Vec<Param>,
    pub fields: Vec<Field>,
    pub instances: Vec<Instance>,
    /// Instances read from the bytes (`pos`, `io`, or a type without `value`).
    pub parsed: Vec<Parsed>,
    /// The spec file an imported type comes from (`None`: this spec's own).
    pub origin: Option<String>,
    /// Made by the loader to hold one value of a number or text type that a switch names as
    /// a case (`cases: {1: u4}`): its one field `value` is the case's value.
    pub wrapper: bool,
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
    /// A type written inside one whose order is calculated, with no `meta: endian` of its own:
    /// Kaitai reads it in the order of the value it is read in, known only at run time.
    Inherit,
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
    /// Where the enum's map starts in the spec file.
    pub at: Mark,
    pub rust: String,
    /// `(value, id, doc)` of every item, in spec order (the view the emitter takes).
    pub values: Vec<(i128, String, Option<String>)>,
    /// Every value with its facts, in spec order.
    pub items: Vec<EnumValue>,
    /// The integer type of the fields that use it (the widest, when they differ).
    pub prim: Option<Prim>,
    /// Fields of different integer types use it (Kaitai's enums hold any integer; the
    /// generator's are of one type).
    pub mixed: bool,
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
    /// `meta.title`, else the id.
    pub title: String,
    pub application: Option<String>,
    pub extension: Option<String>,
    pub license: Option<String>,
    /// `meta.endian`; little endian where the spec states none (then every number of more
    /// than one byte states its own, or its type does: the loader refuses it otherwise).
    pub endian: Endian,
    /// Whether `meta.endian` is given (the project's specs give it: `lint`).
    pub endian_stated: bool,
    /// `meta.bit-endian`: the order of bit fields (Kaitai's default: big endian).
    pub bit_endian: Endian,
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
    /// The type `name` names: its own name, or Kaitai's path to it (`spec_id::type`,
    /// `outer::type`: a name two types share is `outer__type` here, the loader's unique
    /// name; otherwise the last step decides).
    pub fn ty(&self, name: &str) -> Option<&Type> {
        self.type_index(name).map(|i| &self.types[i])
    }
    /// The index of the type `name` names ([`Spec::ty`]).
    pub fn type_index(&self, name: &str) -> Option<usize> {
        let by = |n: &str| self.types.iter().position(|t| t.name == n);
        by(name)
            .or_else(|| scoped(name).and_then(|q| by(&q)))
            .or_else(|| by(name.rsplit("::").next().unwrap_or(name)))
    }
    /// The enum `name` names: its own name or a path to it (`type::enum`, as [`Spec::ty`]).
    pub fn enum_def(&self, name: &str) -> Option<&EnumDef> {
        self.enum_index(name).map(|i| &self.enums[i])
    }
    /// The index of the enum `name` names ([`Spec::enum_def`]).
    pub fn enum_index(&self, name: &str) -> Option<usize> {
        let by = |n: &str| self.enums.iter().position(|e| e.name == n);
        by(name)
            .or_else(|| scoped(name).and_then(|q| by(&q)))
            .or_else(|| by(name.rsplit("::").next().unwrap_or(name)))
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

/// The loader's unique name for the last two steps of a path (`outer::name` →
/// `outer__name`), which it gives a name that another type (enum) has already.
fn scoped(path: &str) -> Option<String> {
    let mut steps = path.rsplit("::");
    let (name, outer) = (steps.next()?, steps.next()?);
    Some(format!("{outer}__{name}"))
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
