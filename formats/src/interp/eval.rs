//! Spec expressions, compiled once when a spec is loaded (names resolved to fields,
//! parameters and instances, types checked) with the scoping rules the generator's emitter
//! applies (`codegen/src/emit/expr.rs`): a name the generated code could not see is refused
//! here too. Evaluated as the generated code evaluates them: in `i128`, wrapping, division by
//! zero giving 0, `and`/`or` and `c ? a : b` lazily, a conditional field that is absent an
//! error at the start of the value being read.

use super::plan::Plan;
use super::value::Val;
use crate::rt::{codec, Result};
use meshspec_model::expr::{BinOp, Expr, UnOp};
use meshspec_model::{FieldType, PrimKind, Repeat, Spec, Type};

type R<T> = std::result::Result<T, String>;

/// What an expression evaluates to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Ty {
    Int,
    Bool,
    /// A list: only its length can be asked.
    Seq,
    /// Bytes: only their length.
    Bytes,
    /// Text: only its length.
    Str,
    /// A value of a spec type (by index): its fields can be asked.
    User(usize),
}

/// How a field's value enters an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum As {
    Int,
    /// A one-bit field: `!= 0`.
    Bool,
    /// A list, bytes, text or a value of a spec type.
    Ref,
}

/// A compiled expression.
#[derive(Debug, Clone)]
pub(super) enum CE {
    Int(i128),
    Bool(bool),
    Param(usize),
    /// `_index`.
    Index,
    /// `_`, inside `valid`.
    Under(As),
    IoPos,
    IoSize,
    /// `name._sizeof` of field `i`.
    Sizeof(usize),
    /// Field `i` of the value being read or written; `cond` names it when it is conditional.
    Field {
        i: usize,
        cond: Option<&'static str>,
        how: As,
    },
    /// Field `i` of the value `base` evaluates to.
    Attr {
        base: Box<CE>,
        i: usize,
        cond: Option<&'static str>,
        how: As,
    },
    /// `.size` / `.length` of a list, bytes or text.
    Len(Box<CE>),
    /// An integer as a condition: `!= 0`.
    Truthy(Box<CE>),
    /// A condition as an integer.
    Flag(Box<CE>),
    Neg(Box<CE>),
    BitNot(Box<CE>),
    Not(Box<CE>),
    /// Integer arithmetic, or a comparison of two integers.
    Op(BinOp, Box<CE>, Box<CE>),
    /// A comparison of two conditions.
    BoolCmp(BinOp, Box<CE>, Box<CE>),
    And(Box<CE>, Box<CE>),
    Or(Box<CE>, Box<CE>),
    Cond(Box<CE>, Box<CE>, Box<CE>),
    /// An expression the compiled form cannot say (`_parent`, `_root`, text, arrays, indexing,
    /// methods, `_io.eof`): evaluated over the values being read by the evaluator of
    /// [`super::query`], its answer a number or a condition.
    Dyn(Box<Expr>),
}

/// Whether `e` uses what only the dynamic evaluator answers ([`CE::Dyn`]).
pub(super) fn needs_dyn(e: &Expr) -> bool {
    e.any(&|x| match x {
        Expr::Name(n) => n == "_parent" || n == "_root",
        Expr::Attr(a, n) => {
            (n == "eof" && matches!(&**a, Expr::Name(b) if b == "_io"))
                || matches!(
                    n.as_str(),
                    "first" | "last" | "min" | "max" | "reverse" | "to_s" | "_io" | "_parent"
                )
        }
        Expr::Str(_)
        | Expr::Float(_)
        | Expr::Array(_)
        | Expr::Index(..)
        | Expr::Call(..)
        | Expr::Cast(..)
        | Expr::SizeOf { .. } => true,
        _ => false,
    })
}

/// Whether `e`, if the compiled form cannot say it, is one the dynamic evaluator answers while
/// reading: [`needs_dyn`], and also `.to_i` (of text or a float: a float is a number in an
/// expression only so), a switch's value (a number type as a case) or an instance read from
/// the bytes, wherever they lie.
pub(super) fn reader_only(spec: &Spec, e: &Expr) -> bool {
    let special = |n: &str| {
        spec.types.iter().any(|t| {
            t.parsed.iter().any(|p| p.id == n)
                || t.instances.iter().any(|i| i.id == n && needs_dyn(&i.value))
                || t.fields
                    .iter()
                    .any(|f| f.id == n && matches!(f.ty, FieldType::Switch { .. }))
        })
    };
    needs_dyn(e)
        || e.any(&|x| match x {
            Expr::Attr(_, n) => n == "to_i" || special(n),
            Expr::Name(n) => special(n),
            _ => false,
        })
}

/// Whether a compiled expression asks the dynamic evaluator (which only the reader has).
pub(super) fn has_dyn(ce: &CE) -> bool {
    match ce {
        CE::Dyn(_) => true,
        CE::Attr { base: a, .. }
        | CE::Len(a)
        | CE::Truthy(a)
        | CE::Flag(a)
        | CE::Neg(a)
        | CE::BitNot(a)
        | CE::Not(a) => has_dyn(a),
        CE::Op(_, a, b) | CE::BoolCmp(_, a, b) | CE::And(a, b) | CE::Or(a, b) => {
            has_dyn(a) || has_dyn(b)
        }
        CE::Cond(c, a, b) => has_dyn(c) || has_dyn(a) || has_dyn(b),
        CE::Int(_)
        | CE::Bool(_)
        | CE::Param(_)
        | CE::Index
        | CE::Under(_)
        | CE::IoPos
        | CE::IoSize
        | CE::Sizeof(_)
        | CE::Field { .. } => false,
    }
}

/// A value being read, as the dynamic evaluator sees it: its type, the fields read so far, and
/// the value it lies in.
#[derive(Clone, Copy)]
pub(super) struct Up<'u, 'a> {
    pub plan: &'u Plan,
    pub ty: usize,
    pub fields: &'u [Val<'a>],
    pub up: Option<&'u Up<'u, 'a>>,
    /// The bytes of the stream it is read from and where its part starts in them (what a
    /// positional instance asked while reading is read from); `None` for the values it lies in.
    pub stream: Option<(&'a [u8], u64)>,
    /// Its instances read from the bytes so far, by instance: each is read once, where its
    /// `pos` says when it is first asked (Kaitai's lazy instances), and kept.
    pub parsed: Option<&'u ParsedCache<'a>>,
    /// The list being read (its field, `usize::MAX` for none) and its elements so far.
    pub growing: Option<(usize, &'u std::cell::RefCell<Vec<Val<'a>>>)>,
    /// Its byte order (what a type inside it that inherits its order takes).
    pub order: binrw::Endian,
    /// Bits of a byte read are left for its next bit fields (its stream is not at its end
    /// while they are: Kaitai's `_io.eof`).
    pub bits_left: bool,
}

/// The instances read from the bytes of a value being read ([`Up::parsed`]).
pub(super) type ParsedCache<'a> =
    std::cell::RefCell<Vec<Option<(super::value::Val<'a>, super::value::Pos, (u64, u64))>>>;

/// A compiled expression and its type.
pub(super) struct Val2 {
    pub ce: CE,
    pub ty: Ty,
}

/// What names an expression can see (the generator's `Scope`).
pub(super) struct Scope<'s> {
    pub spec: &'static Spec,
    pub index: &'s dyn Fn(&str) -> Option<usize>,
    pub ty: &'static Type,
    /// Fields `[..visible]` are in scope.
    pub visible: usize,
    /// What `_` is inside `valid`.
    pub underscore: Option<Ty>,
    /// Inside an element of a repeated field (`_index` is defined).
    pub in_repeat: bool,
    /// While reading or writing field `i` (`name._sizeof` of the fields before it is known);
    /// `None` outside the reader and the writer.
    pub measured_before: Option<usize>,
    /// Whether the evaluation may fail outside the reader and the writer (the checks pass), so
    /// a conditional field reads as in the reader, an error when absent (the generator's
    /// `Scope::fallible`).
    pub fallible: bool,
    /// The field a `valid` checks: its own name is `_` there (the value just read).
    pub this: Option<usize>,
}

fn how(ty: Ty) -> As {
    match ty {
        Ty::Int => As::Int,
        Ty::Bool => As::Bool,
        _ => As::Ref,
    }
}

impl Scope<'_> {
    fn type_index(&self, name: &str) -> R<usize> {
        (self.index)(name).ok_or_else(|| format!("no type `{name}`"))
    }

    /// Field `id` of type `t`, as an expression sees it (the generator's `field_val`).
    fn field_val(&self, t: &'static Type, id: &str) -> R<(usize, Option<&'static str>, Ty)> {
        let i = t
            .fields
            .iter()
            .position(|f| f.id == id)
            .ok_or_else(|| format!("`{}` has no field `{id}`", t.name))?;
        let f = &t.fields[i];
        let cond = if f.cond.is_some() {
            if self.measured_before.is_none() && !self.fallible {
                return Err(format!(
                    "`{id}` is conditional (if:) and cannot be used in an instance"
                ));
            }
            Some(f.id.as_str())
        } else {
            None
        };
        let ty = match &f.ty {
            _ if !matches!(f.repeat, Repeat::None) => Ty::Seq,
            FieldType::Prim(p) if p.kind == PrimKind::F => {
                return Err(format!("`{id}` is a float: floats are not in expressions"))
            }
            FieldType::Prim(_) | FieldType::Bits(2..) => Ty::Int,
            FieldType::Bits(_) => Ty::Bool,
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                Ty::User(self.type_index(&r.name)?)
            }
            FieldType::Bytes(_) => Ty::Bytes,
            FieldType::Str { .. } | FieldType::Strz { .. } => Ty::Str,
            FieldType::Contents(_) | FieldType::Switch { .. } => {
                return Err(format!("`{id}` cannot be used in an expression"))
            }
        };
        Ok((i, cond, ty))
    }

    pub fn compile(&self, e: &Expr) -> R<Val2> {
        self.go(e, 0)
    }

    fn go(&self, e: &Expr, depth: u32) -> R<Val2> {
        if depth > 32 {
            return Err("instances refer to each other in a loop".into());
        }
        let v = |ce: CE, ty: Ty| Ok(Val2 { ce, ty });
        match e {
            Expr::Int { value, .. } => v(CE::Int(*value), Ty::Int),
            Expr::Bool(b) => v(CE::Bool(*b), Ty::Bool),
            Expr::Name(n) if n == "_index" => {
                if !self.in_repeat {
                    return Err("`_index` is only defined inside a repeated field".into());
                }
                v(CE::Index, Ty::Int)
            }
            Expr::Name(n) if n == "_" => {
                let ty = self.underscore.ok_or("`_` is only defined inside valid")?;
                v(CE::Under(how(ty)), ty)
            }
            Expr::Name(n) => {
                if let Some(p) = self.ty.params.iter().position(|p| &p.id == n) {
                    v(CE::Param(p), Ty::Int)
                } else if let Some(pos) = self.ty.fields.iter().position(|f| &f.id == n) {
                    if Some(pos) == self.this {
                        let ty = self.underscore.ok_or("`_` is only defined inside valid")?;
                        return v(CE::Under(how(ty)), ty);
                    }
                    if pos >= self.visible {
                        return Err(format!("`{n}` is read after this expression"));
                    }
                    let (i, cond, ty) = self.field_val(self.ty, n)?;
                    v(
                        CE::Field {
                            i,
                            cond,
                            how: how(ty),
                        },
                        ty,
                    )
                } else if let Some(inst) = self.ty.instances.iter().find(|i| &i.id == n) {
                    if inst.cond.is_some() || inst.enum_name.is_some() {
                        if self.measured_before.is_some() {
                            return v(CE::Dyn(Box::new(e.clone())), Ty::Int);
                        }
                        return Err(format!(
                            "`{n}` is an instance with `if` or `enum`: only read while reading"
                        ));
                    }
                    match self.go(&inst.value, depth + 1) {
                        // Text, a list or what only the dynamic evaluator says.
                        Err(_)
                            if self.measured_before.is_some()
                                && reader_only(self.spec, &inst.value) =>
                        {
                            v(CE::Dyn(Box::new(e.clone())), Ty::Int)
                        }
                        other => other,
                    }
                } else if let Some(p) = self.ty.parsed.iter().find(|p| &p.id == n) {
                    // Read from the bytes when asked (Kaitai's positional instance): the
                    // dynamic evaluator reads it while a value is read; a number only.
                    let ty = match p.field.ty {
                        _ if !matches!(p.field.repeat, Repeat::None) => None,
                        FieldType::Prim(q) if q.kind != PrimKind::F => Some(Ty::Int),
                        FieldType::Bits(1) if p.field.enum_name.is_none() => Some(Ty::Bool),
                        FieldType::Bits(_) => Some(Ty::Int),
                        _ => None,
                    };
                    match (ty, self.measured_before) {
                        (Some(ty), Some(_)) => v(CE::Dyn(Box::new(e.clone())), ty),
                        (None, Some(_)) => Err(format!(
                            "`{n}` is an instance read from the bytes that is not a number: only a number is used while reading"
                        )),
                        (_, None) => Err(format!(
                            "`{n}` is an instance read from the bytes: only read while reading"
                        )),
                    }
                } else {
                    Err(format!(
                        "`{n}` is not a field, parameter or instance of `{}`",
                        self.ty.name
                    ))
                }
            }
            Expr::Attr(a, name) if name == "_sizeof" => {
                let Expr::Name(n) = &**a else {
                    // A field of another value whose size is fixed (`footer.op._sizeof`).
                    return match meshspec_model::fixed_field_size(self.spec, self.ty, a) {
                        Some(size) => v(CE::Int(i128::from(size)), Ty::Int),
                        None => Err(format!("`_sizeof` applies to a field name, not to `{a}`")),
                    };
                };
                let pos = self
                    .ty
                    .fields
                    .iter()
                    .position(|f| &f.id == n)
                    .ok_or_else(|| {
                        format!("`{n}._sizeof`: `{n}` is not a field of `{}`", self.ty.name)
                    })?;
                // A field whose size is fixed has it before it is read (dbf's
                // `header_terminator._sizeof`, a contents field after the expression).
                let f = &self.ty.fields[pos];
                let fixed = match meshspec_model::elem_size(self.spec, f) {
                    (_, Some(n))
                        if matches!(f.repeat, Repeat::None)
                            && f.cond.is_none()
                            && !matches!(f.ty, FieldType::Bits(_)) =>
                    {
                        Some(n)
                    }
                    _ => None,
                };
                match self.measured_before {
                    Some(before) if pos < before => v(CE::Sizeof(pos), Ty::Int),
                    _ if fixed.is_some() => v(CE::Int(i128::from(fixed.unwrap_or(0))), Ty::Int),
                    Some(_) => Err(format!(
                        "`{n}._sizeof` is used before `{n}` is read (or written)"
                    )),
                    None => Err(format!(
                        "`{n}._sizeof` is only known while reading or writing, not in an instance"
                    )),
                }
            }
            Expr::Attr(a, name) if matches!(&**a, Expr::Name(n) if n == "_io") => {
                let ce = match name.as_str() {
                    "pos" => CE::IoPos,
                    "size" => CE::IoSize,
                    _ => return Err(format!("`_io.{name}` is not in the subset")),
                };
                if self.measured_before.is_none() {
                    return Err(format!(
                        "`_io.{name}` is only known while reading or writing, not in an instance"
                    ));
                }
                v(ce, Ty::Int)
            }
            Expr::Attr(a, name) => {
                let base = self.go(a, depth)?;
                match (base.ty, name.as_str()) {
                    (Ty::Seq | Ty::Bytes | Ty::Str, "size" | "length") => {
                        v(CE::Len(Box::new(base.ce)), Ty::Int)
                    }
                    // Kaitai's enum-to-integer conversion: values are integers here already.
                    (Ty::Int, "to_i") => Ok(base),
                    (Ty::User(t), _) => {
                        let target = &self.spec.types[t];
                        // An instance of the value (its expression is the value's, not this
                        // one's): the dynamic evaluator answers it while reading.
                        let instance = target.instances.iter().any(|i| &i.id == name)
                            || target.parsed.iter().any(|i| &i.id == name)
                            || target.params.iter().any(|p| &p.id == name);
                        if instance && self.measured_before.is_some() {
                            return v(CE::Dyn(Box::new(e.clone())), Ty::Int);
                        }
                        let (i, cond, ty) = self.field_val(target, name)?;
                        v(
                            CE::Attr {
                                base: Box::new(base.ce),
                                i,
                                cond,
                                how: how(ty),
                            },
                            ty,
                        )
                    }
                    _ => Err(format!("`.{name}` is not defined on `{a}`")),
                }
            }
            Expr::EnumVal(en, val) => {
                let def = self
                    .spec
                    .enum_def(en)
                    .ok_or_else(|| format!("no enum `{en}`"))?;
                let value = def
                    .value_of(val)
                    .ok_or_else(|| format!("enum `{en}` has no value `{val}`"))?;
                v(CE::Int(value), Ty::Int)
            }
            Expr::Unary(op, a) => {
                let x = self.go(a, depth)?;
                match op {
                    UnOp::Neg => v(CE::Neg(Box::new(self.int(x)?)), Ty::Int),
                    UnOp::BitNot => v(CE::BitNot(Box::new(self.int(x)?)), Ty::Int),
                    UnOp::Not => v(CE::Not(Box::new(self.boolean(x)?)), Ty::Bool),
                }
            }
            Expr::Binary(op, a, b) => {
                let x = self.go(a, depth)?;
                let y = self.go(b, depth)?;
                if op.is_logic() {
                    let (x, y) = (Box::new(self.boolean(x)?), Box::new(self.boolean(y)?));
                    v(
                        if *op == BinOp::And {
                            CE::And(x, y)
                        } else {
                            CE::Or(x, y)
                        },
                        Ty::Bool,
                    )
                } else if op.is_compare() {
                    let (x, y, ty) = self.alike(x, y)?;
                    let (x, y) = (Box::new(x), Box::new(y));
                    v(
                        if ty == Ty::Bool {
                            CE::BoolCmp(*op, x, y)
                        } else {
                            CE::Op(*op, x, y)
                        },
                        Ty::Bool,
                    )
                } else {
                    let (x, y) = (self.int(x)?, self.int(y)?);
                    v(CE::Op(*op, Box::new(x), Box::new(y)), Ty::Int)
                }
            }
            Expr::Cond(c, a, b) => {
                let c = self.go(c, depth)?;
                let x = self.go(a, depth)?;
                let y = self.go(b, depth)?;
                let c = self.boolean(c)?;
                let (x, y, ty) = self.alike(x, y)?;
                v(CE::Cond(Box::new(c), Box::new(x), Box::new(y)), ty)
            }
            Expr::Float(_)
            | Expr::Str(_)
            | Expr::Array(_)
            | Expr::Index(..)
            | Expr::Call(..)
            | Expr::Cast(..)
            | Expr::SizeOf { .. } => Err(format!(
                "`{e}`: only integer and condition expressions are evaluated while reading (no floats, text, arrays, indexing, methods, casts or sizeof yet)"
            )),
        }
    }

    /// Two operands of one kind: conditions where both are, integers otherwise.
    fn alike(&self, x: Val2, y: Val2) -> R<(CE, CE, Ty)> {
        if x.ty == Ty::Bool && y.ty == Ty::Bool {
            Ok((x.ce, y.ce, Ty::Bool))
        } else {
            Ok((self.int(x)?, self.int(y)?, Ty::Int))
        }
    }

    fn int(&self, v: Val2) -> R<CE> {
        match v.ty {
            Ty::Int => Ok(v.ce),
            Ty::Bool => Ok(CE::Flag(Box::new(v.ce))),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }

    fn boolean(&self, v: Val2) -> R<CE> {
        match v.ty {
            Ty::Bool => Ok(v.ce),
            Ty::Int => Ok(CE::Truthy(Box::new(v.ce))),
            other => Err(format!("expected a condition, found {other:?}")),
        }
    }

    /// `e` as an integer.
    pub fn int_of(&self, e: &Expr) -> R<CE> {
        match self.compile(e) {
            Err(_) if self.measured_before.is_some() && reader_only(self.spec, e) => {
                Ok(CE::Dyn(Box::new(e.clone())))
            }
            v => self.int(v?).map_err(|m| format!("`{e}`: {m}")),
        }
    }

    /// `e` as a condition.
    pub fn bool_of(&self, e: &Expr) -> R<CE> {
        match self.compile(e) {
            Err(_) if self.measured_before.is_some() && reader_only(self.spec, e) => {
                Ok(CE::Dyn(Box::new(e.clone())))
            }
            v => self.boolean(v?).map_err(|m| format!("`{e}`: {m}")),
        }
    }
}

/// What an expression is evaluated against.
pub(super) struct Env<'e, 'a> {
    /// The fields of the value being read (those read so far) or written.
    pub fields: &'e [Val<'a>],
    /// The values the writer recomputed (by field; `None`: not written, its `if` not holding),
    /// which expressions see instead of the value given.
    pub over: &'e [(usize, Option<i128>)],
    pub params: &'e [i128],
    /// The bytes each measured field took (`name._sizeof`), by field.
    pub sizeof: &'e [u64],
    /// `_index`.
    pub index: usize,
    /// `_`.
    pub under: Option<&'e Val<'a>>,
    /// `_io.pos` and `_io.size`.
    pub io: (u64, u64),
    /// Where the value being read starts: an absent field that an expression reads is
    /// reported there.
    pub start: u64,
    /// The value being read and those it lies in, for [`CE::Dyn`] (`None` in the writer and
    /// the checks, which refuse such specs before).
    pub here: Option<Up<'e, 'a>>,
}

/// A value an expression computes.
enum Ev<'v, 'a> {
    Int(i128),
    Bool(bool),
    Ref(&'v Val<'a>),
}

impl<'e, 'a> Env<'e, 'a> {
    /// The environment of parameters alone (a field table's conditions).
    pub fn params(params: &'e [i128]) -> Self {
        Env {
            fields: &[],
            over: &[],
            params,
            sizeof: &[],
            index: 0,
            under: None,
            io: (0, 0),
            start: 0,
            here: None,
        }
    }

    pub fn int(&self, e: &CE) -> Result<i128> {
        match self.eval(e)? {
            Ev::Int(i) => Ok(i),
            Ev::Bool(b) => Ok(i128::from(b)),
            Ev::Ref(v) => Ok(v.int()),
        }
    }

    /// `e` as bytes: a blob's, or the one byte an integer is.
    pub fn bytes(&self, e: &CE) -> Result<Vec<u8>> {
        Ok(match self.eval(e)? {
            Ev::Int(i) => vec![i as u8],
            Ev::Bool(b) => vec![u8::from(b)],
            Ev::Ref(v) => v.bytes().to_vec(),
        })
    }

    pub fn bool(&self, e: &CE) -> Result<bool> {
        match self.eval(e)? {
            Ev::Bool(b) => Ok(b),
            Ev::Int(i) => Ok(i != 0),
            Ev::Ref(v) => Ok(v.int() != 0),
        }
    }

    fn val<'v>(&self, v: &'v Val<'a>, cond: Option<&'static str>, how: As) -> Result<Ev<'v, 'a>> {
        if let (Some(name), Val::Absent) = (cond, v) {
            return Err(codec::absent(self.start, name));
        }
        Ok(match how {
            As::Int => Ev::Int(v.int()),
            As::Bool => Ev::Bool(v.int() != 0),
            As::Ref => Ev::Ref(v),
        })
    }

    fn eval(&self, e: &CE) -> Result<Ev<'e, 'a>> {
        const ABSENT: &Val<'static> = &Val::Absent;
        Ok(match e {
            CE::Int(i) => Ev::Int(*i),
            CE::Bool(b) => Ev::Bool(*b),
            CE::Param(p) => Ev::Int(self.params.get(*p).copied().unwrap_or(0)),
            CE::Index => Ev::Int(self.index as i128),
            CE::Under(how) => match self.under {
                Some(v) => self.val(v, None, *how)?,
                None => Ev::Int(0),
            },
            CE::IoPos => Ev::Int(i128::from(self.io.0)),
            CE::IoSize => Ev::Int(i128::from(self.io.1)),
            CE::Sizeof(i) => Ev::Int(i128::from(self.sizeof.get(*i).copied().unwrap_or(0))),
            CE::Field { i, cond, how } => match self.over.iter().find(|o| o.0 == *i) {
                Some((_, Some(x))) => Ev::Int(*x),
                Some((_, None)) => self.val(ABSENT, *cond, *how)?,
                None => match self.fields.get(*i) {
                    Some(v) => self.val(v, *cond, *how)?,
                    None => Ev::Int(0),
                },
            },
            CE::Attr { base, i, cond, how } => match self.eval(base)? {
                Ev::Ref(v) => match v.fields().get(*i) {
                    Some(f) => self.val(f, *cond, *how)?,
                    None => Ev::Int(0),
                },
                _ => Ev::Int(0),
            },
            CE::Len(a) => match self.eval(a)? {
                Ev::Ref(v) => Ev::Int(v.len() as i128),
                _ => Ev::Int(0),
            },
            CE::Truthy(a) => Ev::Bool(self.int(a)? != 0),
            CE::Flag(a) => Ev::Int(i128::from(self.bool(a)?)),
            CE::Neg(a) => Ev::Int(self.int(a)?.wrapping_neg()),
            CE::BitNot(a) => Ev::Int(!self.int(a)?),
            CE::Not(a) => Ev::Bool(!self.bool(a)?),
            CE::And(a, b) => Ev::Bool(self.bool(a)? && self.bool(b)?),
            CE::Or(a, b) => Ev::Bool(self.bool(a)? || self.bool(b)?),
            CE::Cond(c, a, b) => {
                if self.bool(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            CE::BoolCmp(op, a, b) => {
                let (x, y) = (self.bool(a)?, self.bool(b)?);
                Ev::Bool(compare(*op, x, y))
            }
            CE::Dyn(e) => match &self.here {
                Some(here) => {
                    match super::query::dynamic(
                        here,
                        self.io,
                        self.params,
                        self.index,
                        self.under,
                        e,
                    ) {
                        Ok(super::query::Answer::Bool(b)) => Ev::Bool(b),
                        Ok(a) => match a.number() {
                            Some(i) => Ev::Int(i),
                            None => {
                                return Err(crate::rt::Error::new(
                                    crate::rt::ErrorKind::Invalid,
                                    self.start,
                                    format!("`{e}` to be a number or a condition"),
                                    a.to_string(),
                                ))
                            }
                        },
                        Err(why) => {
                            return Err(crate::rt::Error::new(
                                crate::rt::ErrorKind::Invalid,
                                self.start,
                                format!("`{e}` evaluated"),
                                why,
                            ))
                        }
                    }
                }
                None => {
                    return Err(crate::rt::Error::new(
                        crate::rt::ErrorKind::Input,
                        self.start,
                        format!("`{e}` evaluated where values are read"),
                        "a writer or a check",
                    ))
                }
            },
            CE::Op(op, a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                if op.is_compare() {
                    Ev::Bool(compare(*op, x, y))
                } else {
                    Ev::Int(arith(*op, x, y))
                }
            }
        })
    }
}

fn compare<T: PartialOrd>(op: BinOp, x: T, y: T) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

/// Integer arithmetic as the generated code does it.
fn arith(op: BinOp, x: i128, y: i128) -> i128 {
    match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => codec::div(x, y),
        BinOp::Rem => codec::rem(x, y),
        BinOp::Shl => x.wrapping_shl(y as u32),
        BinOp::Shr => x.wrapping_shr(y as u32),
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        _ => x ^ y,
    }
}
