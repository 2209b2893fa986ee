//! Kaitai expressions asked of a value already read (what Kaitai's test suite asserts, and what
//! a user asks of a reading): the whole expression language over the interpreter's values,
//! with `_parent`, `_root`, value instances of any kind, indexing and methods. The reader's own
//! expressions (sizes, counts, conditions) stay the compiled integer ones of [`super::eval`],
//! so this evaluator cannot change how anything is read.

use super::plan::{Elem, FieldPlan, List, Plan};
use super::read::Reader;
use super::value::{runs, Pos, Val};
use meshspec_model::expr::{BinOp, Expr, UnOp};
use std::rc::Rc;

/// The value of an expression asked of a reading.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Bytes(Vec<u8>),
    List(Vec<Answer>),
    /// A value of an enum: the enum's name, the value's id when it has one, and the number.
    Enum {
        name: String,
        id: Option<String>,
        value: i128,
    },
    /// A value of a spec type (named by its type).
    Struct(String),
    /// A field whose `if` did not hold.
    Null,
}

impl Answer {
    /// Whether two answers are the same value as Kaitai's tests compare them: numbers by value
    /// (floats to 1e-6 relative), an enum by its number, bytes with a list of numbers.
    pub fn same(&self, other: &Answer) -> bool {
        use Answer::*;
        match (self, other) {
            (Float(a), b) | (b, Float(a)) => match b.number() {
                Some(b) => {
                    let b = b as f64;
                    a == &b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1e-300)
                }
                None => match b {
                    Float(b) => (a - b).abs() <= 1e-6 * a.abs().max(b.abs()),
                    _ => false,
                },
            },
            (Bytes(a), List(b)) | (List(b), Bytes(a)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| y.same(&Int(i128::from(*x))))
            }
            (List(a), List(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (a, b) => match (a.number(), b.number()) {
                (Some(x), Some(y)) => x == y,
                _ => a == b,
            },
        }
    }

    /// The number an integer or enum value stands for.
    pub fn number(&self) -> Option<i128> {
        match self {
            Answer::Int(i) => Some(*i),
            Answer::Enum { value, .. } => Some(*value),
            _ => None,
        }
    }
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Int(i) => write!(f, "{i}"),
            Answer::Float(x) => write!(f, "{x:?}"),
            Answer::Bool(b) => write!(f, "{b}"),
            Answer::Str(s) => write!(f, "{s:?}"),
            Answer::Bytes(b) => {
                let hex: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
                write!(f, "[{}]", hex.join(", "))
            }
            Answer::List(items) => {
                let items: Vec<String> = items.iter().map(|x| x.to_string()).collect();
                write!(f, "[{}]", items.join(", "))
            }
            Answer::Enum { name, id, value } => match id {
                Some(id) => write!(f, "{name}::{id}"),
                None => write!(f, "{name}({value})"),
            },
            Answer::Struct(t) => write!(f, "a {t}"),
            Answer::Null => f.write_str("null"),
        }
    }
}

type R<T> = std::result::Result<T, String>;

/// A value of a spec type, where it lies, and the values it lies in (`_parent`, `_root`).
struct Obj<'a> {
    ty: usize,
    val: Val<'a>,
    /// Its positions (absent for a value whose positions were not recorded).
    pos: Pos,
    /// Its stream (`_io`): where it starts and ends in the input; `None` for a part decoded
    /// by `process`, whose stream is not kept.
    io: Option<(u64, u64)>,
    /// Its arguments, where known (values being read; a value read does not keep them).
    args: Vec<i128>,
    parent: Option<Rc<Obj<'a>>>,
}

impl<'a> Obj<'a> {
    /// The same value, its stream `io` (where an instance read from the bytes lies).
    fn in_stream(&self, io: (u64, u64)) -> Rc<Obj<'a>> {
        Rc::new(Obj {
            ty: self.ty,
            val: self.val.clone(),
            pos: self.pos.clone(),
            io: Some(io),
            parent: self.parent.clone(),
            args: self.args.clone(),
        })
    }
}

/// A value while an expression is evaluated.
#[derive(Clone)]
enum Q<'a> {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Bytes(Vec<u8>),
    List(Vec<Q<'a>>),
    Enum(usize, i128),
    Obj(Rc<Obj<'a>>),
    /// A stream (`_io`): its start and end in the input, and where the value asked of it
    /// ends (its `pos`).
    Io(u64, u64, u64),
    Null,
}

/// Evaluates expressions over the value of a spec's type read from an input.
pub(crate) struct Query<'p, 'a> {
    pub plan: &'p Plan,
    input: &'a [u8],
    root: Rc<Obj<'a>>,
    /// `_index` and `_`, where an expression of the reader asks them.
    index: Option<usize>,
    under: Option<Q<'a>>,
    /// The value being read (when the reader asks) and its instances read from the bytes so
    /// far, each read once.
    cache: Option<(Rc<Obj<'a>>, &'p super::eval::ParsedCache<'a>)>,
    /// The stream of the value being read, when bits of its last byte are left unread (it is
    /// not at its end then).
    bits_left: Option<(u64, u64)>,
}

/// `e` evaluated while `here` is being read (its fields so far, and the values it lies in):
/// what the reader's compiled expressions cannot say ([`super::eval::CE::Dyn`]). `io` is the
/// position and size of its stream, `params` its arguments, `index` and `under` the element's.
pub(super) fn dynamic<'a>(
    here: &super::eval::Up<'_, 'a>,
    io: (u64, u64),
    params: &[i128],
    index: usize,
    under: Option<&Val<'a>>,
    e: &Expr,
) -> R<Answer> {
    fn obj<'a>(
        u: &super::eval::Up<'_, 'a>,
        io: Option<(u64, u64)>,
        pos: Pos,
        args: Vec<i128>,
    ) -> Rc<Obj<'a>> {
        let n = u.plan.types[u.ty].fields.len();
        let mut fields = u.fields.to_vec();
        fields.resize(n.max(fields.len()), Val::Absent);
        if let Some((fi, list)) = u.growing {
            if let Some(slot) = fields.get_mut(fi) {
                *slot = Val::List(list.borrow().clone());
            }
        }
        Rc::new(Obj {
            ty: u.ty,
            val: Val::Struct(fields.into_boxed_slice()),
            pos,
            io,
            parent: u.up.map(|p| obj(p, None, Pos::Absent, vec![])),
            args,
        })
    }
    // Offsets are absolute in the stream's bytes (where a positional instance is read).
    let (input, base) = here.stream.unwrap_or((&[], 0));
    let current = obj(
        here,
        Some((base, base + io.1)),
        Pos::Span(crate::rt::Span::new(base, base + io.0)),
        params.to_vec(),
    );
    let mut root = current.clone();
    while let Some(p) = root.parent.clone() {
        root = p;
    }
    let under = under.map(|v| match v {
        Val::Bytes(b) => Q::Bytes(b.to_vec()),
        Val::Str(s) => Q::Str(s.to_string()),
        Val::Bool(b) => Q::Bool(*b),
        Val::F32(x) => Q::Float(f64::from(*x)),
        Val::F64(x) => Q::Float(*x),
        other => Q::Int(other.int()),
    });
    let q = Query {
        plan: here.plan,
        input,
        root,
        index: Some(index),
        under,
        cache: here.parsed.map(|c| (current.clone(), c)),
        bits_left: here.bits_left.then_some((base, base + io.1)),
    };
    let v = q.eval(&current, e, 0)?;
    Ok(q.export(&v))
}

impl<'p, 'a> Query<'p, 'a> {
    /// The value `val` of type `ty` read from the whole of `input`, with its positions.
    pub fn new(plan: &'p Plan, input: &'a [u8], ty: usize, val: Val<'a>, pos: Pos) -> Self {
        Query {
            plan,
            input,
            root: Rc::new(Obj {
                ty,
                val,
                pos,
                io: Some((0, input.len() as u64)),
                parent: None,
                args: vec![],
            }),
            index: None,
            under: None,
            cache: None,
            bits_left: None,
        }
    }

    /// `e` evaluated with the root value as the current one.
    pub fn answer(&self, e: &Expr) -> R<Answer> {
        let q = self.eval(&self.root, e, 0)?;
        Ok(self.export(&q))
    }

    fn export(&self, q: &Q<'a>) -> Answer {
        let spec = self.plan.spec;
        match q {
            Q::Int(i) => Answer::Int(*i),
            Q::Float(x) => Answer::Float(*x),
            Q::Bool(b) => Answer::Bool(*b),
            Q::Str(s) => Answer::Str(s.clone()),
            Q::Bytes(b) => Answer::Bytes(b.clone()),
            Q::List(items) => Answer::List(items.iter().map(|x| self.export(x)).collect()),
            Q::Enum(e, v) => {
                let def = &spec.enums[*e];
                Answer::Enum {
                    name: def.name.clone(),
                    id: def.values.iter().find(|x| x.0 == *v).map(|x| x.1.clone()),
                    value: *v,
                }
            }
            Q::Obj(o) => Answer::Struct(spec.types[o.ty].name.clone()),
            Q::Io(..) => Answer::Struct("a stream".into()),
            Q::Null => Answer::Null,
        }
    }

    /// Field or instance `name` of `obj`.
    fn member(&self, obj: &Rc<Obj<'a>>, name: &str, depth: u32) -> R<Q<'a>> {
        let tp = &self.plan.types[obj.ty];
        match name {
            "_index" => {
                return self
                    .index
                    .map(|i| Q::Int(i as i128))
                    .ok_or_else(|| "`_index` outside a list".into())
            }
            "_" => {
                return self
                    .under
                    .clone()
                    .ok_or_else(|| "`_` outside valid and repeat-until".into())
            }
            "_parent" => {
                return Ok(obj.parent.clone().map_or(Q::Null, Q::Obj));
            }
            "_root" => return Ok(Q::Obj(self.root.clone())),
            "_io" => {
                let (start, end) = obj
                    .io
                    .ok_or("the stream of a part decoded by process is not kept")?;
                return Ok(Q::Io(start, end, obj.pos.span().end));
            }
            _ => {}
        }
        if let Some(fi) = tp.t.fields.iter().position(|f| f.id == name) {
            let v = obj.val.fields().get(fi).cloned().unwrap_or(Val::Absent);
            let pos = match &obj.pos {
                Pos::Struct(sp) => sp.fields.get(fi).cloned().unwrap_or_default(),
                _ => Pos::Absent,
            };
            return Ok(self.field(obj, &tp.fields[fi], v, pos));
        }
        if let Some(i) = tp.t.instances.iter().find(|i| i.id == name) {
            if let Some(c) = &i.cond {
                if !truth(&self.eval(obj, c, depth + 1)?)? {
                    return Ok(Q::Null);
                }
            }
            let v = self.eval(obj, &i.value, depth + 1)?;
            return Ok(match (&i.enum_name, v) {
                (Some(en), v) => match self.plan.spec.enum_index(en) {
                    Some(e) => Q::Enum(e, int(&v)?),
                    None => v,
                },
                (None, v) => v,
            });
        }
        if let Some(k) = tp.parsed.iter().position(|(_, p)| p.id == name) {
            let (fp, p) = &tp.parsed[k];
            let cache = self
                .cache
                .as_ref()
                .filter(|(current, _)| Rc::ptr_eq(current, obj))
                .map(|(_, c)| *c);
            let known = cache.and_then(|c| c.borrow().get(k).cloned().flatten());
            // Read while the value was read, and kept after its fields.
            let kept = obj
                .val
                .fields()
                .get(tp.fields.len() + k)
                .filter(|v| !matches!(v, Val::Absent));
            if let (None, Some(v)) = (&known, kept) {
                return Ok(self.field(obj, fp, v.clone(), Pos::Absent));
            }
            if let Some((v, vpos, io)) = known {
                return Ok(self.field(&obj.in_stream(io), fp, v, vpos));
            }
            let io = match &p.io {
                Some(e) => match self.eval(obj, e, depth + 1)? {
                    Q::Io(start, end, _) => (start, end),
                    _ => return Err(format!("`{e}` is not a stream")),
                },
                None => obj
                    .io
                    .ok_or("the stream of a part decoded by process is not kept")?,
            };
            let pos = match &p.pos {
                Some(e) => int(&self.eval(obj, e, depth + 1)?)?,
                None => return Err(format!("`{name}` has no pos: not read yet")),
            };
            let at = u64::try_from(pos).map_err(|_| format!("`{name}` at pos {pos}"))? + io.0;
            let reader = Reader {
                plan: self.plan,
                loc: true,
            };
            let (v, vpos) = reader
                .read_instance(
                    self.input,
                    obj.ty,
                    k,
                    obj.val.fields(),
                    &self.args_of(obj),
                    self.order_of(obj, depth + 1)?,
                    at,
                    io.1,
                )
                .map_err(|e| e.to_string())?;
            if let Some(c) = cache {
                if let Some(slot) = c.borrow_mut().get_mut(k) {
                    *slot = Some((v.clone(), vpos.clone(), io));
                }
            }
            // What it holds lies in the stream it was read from.
            return Ok(self.field(&obj.in_stream(io), fp, v, vpos));
        }
        if let Some(k) = tp.t.params.iter().position(|p| p.id == name) {
            if let Some(v) = obj.args.get(k) {
                return Ok(Q::Int(*v));
            }
            // Kept after the value's fields and its instances read from the bytes.
            let kept = tp.t.fields.len() + tp.parsed.len() + k;
            if let Some(v) = obj.val.fields().get(kept) {
                return Ok(Q::Int(v.int()));
            }
            return Err(format!(
                "`{name}` is a parameter of `{}`: a value read does not keep its arguments",
                tp.t.name
            ));
        }
        Err(format!("`{}` has no field or instance `{name}`", tp.t.name))
    }

    /// The arguments of `obj`: given while it is read, kept after its fields once read.
    fn args_of(&self, obj: &Obj<'a>) -> Vec<i128> {
        if !obj.args.is_empty() {
            return obj.args.clone();
        }
        let tp = &self.plan.types[obj.ty];
        let from = tp.t.fields.len() + tp.parsed.len();
        (0..tp.t.params.len())
            .map(|k| obj.val.fields().get(from + k).map_or(0, Val::int))
            .collect()
    }

    /// The byte order of `obj`: its type's, or calculated as its reader calculated it.
    fn order_of(&self, obj: &Rc<Obj<'a>>, depth: u32) -> R<binrw::Endian> {
        if depth > 64 {
            return Err("byte orders that refer to each other in a loop".into());
        }
        let tp = &self.plan.types[obj.ty];
        match (&tp.order, &tp.t.endian) {
            (super::plan::Order::Fixed(e), _) => Ok(*e),
            (super::plan::Order::Inherit, _) => match &obj.parent {
                Some(p) => self.order_of(p, depth + 1),
                None => Err(format!(
                    "`{}` takes the byte order of the value it is read in, and is read on its own",
                    tp.t.name
                )),
            },
            (_, Some(meshspec_model::TypeEndian::Switch { on, cases })) => {
                let v = self.eval(obj, on, depth + 1)?;
                let mut default = None;
                for (k, e) in cases {
                    if matches!(k, Expr::Name(n) if n == "_") {
                        default = Some(super::plan::order(*e));
                        continue;
                    }
                    let key = self.eval(obj, k, depth + 1)?;
                    if truth(&binary(BinOp::Eq, v.clone(), key)?)? {
                        return Ok(super::plan::order(*e));
                    }
                }
                default.ok_or_else(|| format!("`{on}` is none of the byte order's cases"))
            }
            _ => Err("a byte order the type does not state".into()),
        }
    }

    /// Field `fp` of `obj`, whose value is `v`, at `pos`.
    fn field(&self, obj: &Rc<Obj<'a>>, fp: &FieldPlan, v: Val<'a>, pos: Pos) -> Q<'a> {
        if matches!(v, Val::Absent) {
            return Q::Null;
        }
        if !fp.repeated() {
            return self.elem(obj, fp, v, pos);
        }
        let at = |i: usize| match &pos {
            Pos::Each { items, .. } => items.get(i).cloned().unwrap_or_default(),
            Pos::Strided { base, stride, .. } => {
                let s = base + stride * i as u64;
                Pos::Span(crate::rt::Span::new(s, s + stride))
            }
            _ => Pos::Absent,
        };
        let one = |v: Val<'a>| self.elem(obj, fp, v, Pos::Absent);
        match (v, &fp.list) {
            (Val::List(items), _) => Q::List(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| self.elem(obj, fp, v, at(i)))
                    .collect(),
            ),
            (Val::Nums(n), _) => {
                let w = usize::from(n.prim.bytes);
                Q::List(
                    n.bytes
                        .chunks_exact(w)
                        .map(|b| one(super::value::num(n.prim, n.endian, b)))
                        .collect(),
                )
            }
            (Val::Blocks(b, size), Some(List::Blocks { ty, .. })) => Q::List(
                runs(&b, size)
                    .map(|c| one(super::read::decode_block(&self.plan.types[*ty], c)))
                    .collect(),
            ),
            (Val::Chunks(b, size), _) => {
                Q::List(runs(&b, size).map(|c| Q::Bytes(c.to_vec())).collect())
            }
            (other, _) => one(other),
        }
    }

    /// One element of field `fp` of `obj`, at `pos`.
    fn elem(&self, obj: &Rc<Obj<'a>>, fp: &FieldPlan, v: Val<'a>, pos: Pos) -> Q<'a> {
        let spec = self.plan.spec;
        // A sized part is a stream of its own.
        let io = match &fp.elem {
            _ if fp.process.is_some() => None,
            Elem::Sized { .. } if !matches!(pos, Pos::Absent) => {
                let s = pos.span();
                Some((s.start, s.end))
            }
            _ => obj.io,
        };
        let child = |ty: usize, val: Val<'a>, pos: Pos| {
            let o = Rc::new(Obj {
                ty,
                val,
                pos,
                io,
                parent: Some(obj.clone()),
                args: vec![],
            });
            // A number or text a switch's case names is its value, not a value of a type.
            if spec.types[ty].wrapper {
                return self.member(&o, "value", 0).unwrap_or(Q::Null);
            }
            Q::Obj(o)
        };
        let number = |v: &Val<'a>| match v {
            Val::F32(x) => Q::Float(f64::from(*x)),
            Val::F64(x) => Q::Float(*x),
            Val::Bool(b) if fp.f.enum_name.is_none() => Q::Bool(*b),
            other => match &fp.f.enum_name {
                Some(en) => match spec.enum_index(en) {
                    Some(e) => Q::Enum(e, other.int()),
                    None => Q::Int(other.int()),
                },
                None => Q::Int(other.int()),
            },
        };
        match (&fp.elem, v) {
            (_, Val::Absent) => Q::Null,
            (Elem::Contents(c), _) => Q::Bytes(c.to_vec()),
            (Elem::User { ty, .. } | Elem::Sized { ty, .. }, v) => child(*ty, v, pos),
            (Elem::Switch(sw), Val::Case(k, v)) => match sw.variants.get(k) {
                Some(ty) => child(*ty, *v, pos),
                None => Q::Null,
            },
            (_, Val::Bytes(b)) => Q::Bytes(b.into_owned()),
            (_, Val::Str(s)) => Q::Str(s.into_owned()),
            (Elem::Bits(1), v) if fp.f.enum_name.is_none() => Q::Bool(v.int() != 0),
            (_, v) => number(&v),
        }
    }

    fn eval(&self, obj: &Rc<Obj<'a>>, e: &Expr, depth: u32) -> R<Q<'a>> {
        if depth > 64 {
            return Err("instances refer to each other in a loop".into());
        }
        let go = |x: &Expr| self.eval(obj, x, depth);
        Ok(match e {
            Expr::Int { value, .. } => Q::Int(*value),
            Expr::Bool(b) => Q::Bool(*b),
            Expr::Float(x) => Q::Float(*x),
            Expr::Str(s) => Q::Str(s.clone()),
            Expr::Array(items) => {
                let items = items.iter().map(go).collect::<R<Vec<_>>>()?;
                // An array of byte-sized integers is a byte array, as Kaitai types it.
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|x| matches!(x, Q::Int(i) if (0..=255).contains(i)))
                {
                    Q::Bytes(
                        items
                            .iter()
                            .map(|x| match x {
                                Q::Int(i) => *i as u8,
                                _ => 0,
                            })
                            .collect(),
                    )
                } else {
                    Q::List(items)
                }
            }
            Expr::Name(n) => self.member(obj, n, depth)?,
            Expr::Attr(a, name) => {
                let base = go(a)?;
                self.attr(base, name, depth)?
            }
            Expr::Index(a, i) => {
                let (base, i) = (go(a)?, int(&go(i)?)?);
                let at = usize::try_from(i).map_err(|_| format!("index {i} below 0"))?;
                match base {
                    Q::List(items) => items
                        .get(at)
                        .cloned()
                        .ok_or_else(|| format!("index {i} of {} elements", items.len()))?,
                    Q::Bytes(b) => Q::Int(i128::from(
                        *b.get(at)
                            .ok_or_else(|| format!("index {i} of {} bytes", b.len()))?,
                    )),
                    _ => return Err(format!("`{a}` is not a list")),
                }
            }
            Expr::Call(a, name, args) => {
                let base = go(a)?;
                let args = args.iter().map(go).collect::<R<Vec<_>>>()?;
                call(base, name, &args)?
            }
            Expr::Cast(a, _) => go(a)?,
            Expr::SizeOf { ty, bits } => {
                let bytes = self.size_of(ty)?;
                Q::Int(if *bits { bytes * 8 } else { bytes })
            }
            Expr::EnumVal(path, v) => {
                let spec = self.plan.spec;
                let e = spec
                    .enum_index(path)
                    .ok_or_else(|| format!("no enum `{path}`"))?;
                let value = spec.enums[e]
                    .value_of(v)
                    .ok_or_else(|| format!("enum `{path}` has no value `{v}`"))?;
                Q::Enum(e, value)
            }
            Expr::Unary(op, a) => {
                let x = go(a)?;
                match (op, x) {
                    (UnOp::Neg, Q::Float(f)) => Q::Float(-f),
                    (UnOp::Neg, x) => Q::Int(int(&x)?.wrapping_neg()),
                    (UnOp::BitNot, x) => Q::Int(!int(&x)?),
                    (UnOp::Not, x) => Q::Bool(!truth(&x)?),
                }
            }
            Expr::Binary(BinOp::And, a, b) => Q::Bool(truth(&go(a)?)? && truth(&go(b)?)?),
            Expr::Binary(BinOp::Or, a, b) => Q::Bool(truth(&go(a)?)? || truth(&go(b)?)?),
            Expr::Binary(op, a, b) => binary(*op, go(a)?, go(b)?)?,
            Expr::Cond(c, a, b) => {
                if truth(&go(c)?)? {
                    go(a)?
                } else {
                    go(b)?
                }
            }
        })
    }

    fn attr(&self, base: Q<'a>, name: &str, depth: u32) -> R<Q<'a>> {
        match (&base, name) {
            (Q::Obj(o), _) => self.member(o, name, depth),
            (Q::Io(start, end, _), "size") => Ok(Q::Int(i128::from(end - start))),
            (Q::Io(start, _, at), "pos") => Ok(Q::Int(i128::from(at.saturating_sub(*start)))),
            (Q::Io(start, end, at), "eof") => {
                let pending = self.bits_left == Some((*start, *end));
                Ok(Q::Bool(at >= end && !pending))
            }
            _ => call(base, name, &[]),
        }
    }

    /// `sizeof<t>`: the fixed size of a number type or a spec type.
    fn size_of(&self, ty: &str) -> R<i128> {
        if let Some(p) = meshspec_model::Prim::parse(ty) {
            return Ok(i128::from(p.bytes));
        }
        let t = self
            .plan
            .spec
            .ty(ty)
            .ok_or_else(|| format!("no type `{ty}`"))?;
        t.fixed_size
            .map(i128::from)
            .ok_or_else(|| format!("`{ty}` has no fixed size"))
    }
}

fn int(q: &Q<'_>) -> R<i128> {
    match q {
        Q::Int(i) | Q::Enum(_, i) => Ok(*i),
        Q::Bool(b) => Ok(i128::from(*b)),
        Q::Float(x) => Ok(*x as i128),
        _ => Err("expected an integer".into()),
    }
}

fn truth(q: &Q<'_>) -> R<bool> {
    match q {
        Q::Bool(b) => Ok(*b),
        Q::Int(i) => Ok(*i != 0),
        _ => Err("expected a condition".into()),
    }
}

fn float(q: &Q<'_>) -> Option<f64> {
    match q {
        Q::Float(x) => Some(*x),
        Q::Int(i) => Some(*i as f64),
        _ => None,
    }
}

fn binary<'a>(op: BinOp, x: Q<'a>, y: Q<'a>) -> R<Q<'a>> {
    use std::cmp::Ordering;
    let order = |o: Ordering| {
        Q::Bool(match op {
            BinOp::Eq => o == Ordering::Equal,
            BinOp::Ne => o != Ordering::Equal,
            BinOp::Lt => o == Ordering::Less,
            BinOp::Le => o != Ordering::Greater,
            BinOp::Gt => o == Ordering::Greater,
            _ => o != Ordering::Less,
        })
    };
    Ok(match (x, y) {
        (Q::Str(a), Q::Str(b)) if op == BinOp::Add => Q::Str(a + &b),
        (Q::Str(a), Q::Str(b)) if op.is_compare() => order(a.cmp(&b)),
        (Q::Bytes(a), Q::Bytes(b)) if op.is_compare() => order(a.cmp(&b)),
        (Q::Bool(a), Q::Bool(b)) if op.is_compare() => order(a.cmp(&b)),
        (a, b) if matches!(a, Q::Float(_)) || matches!(b, Q::Float(_)) => {
            let (Some(x), Some(y)) = (float(&a), float(&b)) else {
                return Err("a float with something not a number".into());
            };
            if op.is_compare() {
                order(x.partial_cmp(&y).unwrap_or(Ordering::Equal))
            } else {
                Q::Float(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    BinOp::Rem => x.rem_euclid(y),
                    _ => return Err(format!("`{}` of floats", op.text())),
                })
            }
        }
        (a, b) => {
            let (a, b) = (int(&a)?, int(&b)?);
            if op.is_compare() {
                order(a.cmp(&b))
            } else {
                Q::Int(arith(op, a, b)?)
            }
        }
    })
}

/// Kaitai's integer arithmetic: `/` rounds toward negative infinity, `%` is never negative for
/// a positive divisor.
fn arith(op: BinOp, a: i128, b: i128) -> R<i128> {
    Ok(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div if b == 0 => return Err("division by zero".into()),
        BinOp::Div => a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0),
        BinOp::Rem if b == 0 => return Err("division by zero".into()),
        BinOp::Rem => a.rem_euclid(b),
        BinOp::Shl => a.wrapping_shl(b as u32),
        BinOp::Shr => a.wrapping_shr(b as u32),
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        _ => a ^ b,
    })
}

/// A method or property of a value that is not a spec type's.
fn call<'a>(base: Q<'a>, name: &str, args: &[Q<'a>]) -> R<Q<'a>> {
    let items = |q: &Q<'a>| -> Option<Vec<Q<'a>>> {
        match q {
            Q::List(v) => Some(v.clone()),
            Q::Bytes(b) => Some(b.iter().map(|x| Q::Int(i128::from(*x))).collect()),
            _ => None,
        }
    };
    Ok(match (name, &base) {
        ("to_i", Q::Str(s)) => {
            let radix = match args.first() {
                Some(r) => u32::try_from(int(r)?).map_err(|_| "bad radix")?,
                None => 10,
            };
            Q::Int(i128::from_str_radix(s, radix).map_err(|_| format!("{s:?} is not a number"))?)
        }
        ("to_i", Q::Float(x)) => Q::Int(x.trunc() as i128),
        ("to_i", q) => Q::Int(int(q)?),
        ("to_s", Q::Int(i)) => Q::Str(i.to_string()),
        ("to_s", Q::Bytes(b)) => {
            let enc = match args.first() {
                Some(Q::Str(e)) => e.clone(),
                _ => return Err("`to_s` of bytes takes an encoding".into()),
            };
            Q::Str(super::encoding::decode(b, &enc)?.into_owned())
        }
        ("length" | "size", Q::Str(s)) => Q::Int(s.chars().count() as i128),
        ("reverse", Q::Str(s)) => Q::Str(s.chars().rev().collect()),
        ("substring", Q::Str(s)) => {
            let from = args.first().map(int).transpose()?.unwrap_or(0).max(0) as usize;
            let to = args.get(1).map(int).transpose()?.unwrap_or(0).max(0) as usize;
            Q::Str(s.chars().skip(from).take(to.saturating_sub(from)).collect())
        }
        ("length" | "size", q) if items(q).is_some() => {
            Q::Int(items(q).map_or(0, |v| v.len()) as i128)
        }
        ("first", q) | ("last", q) if items(q).is_some() => {
            let v = items(q).unwrap_or_default();
            let x = if name == "first" { v.first() } else { v.last() };
            x.cloned().ok_or("`first`/`last` of nothing")?
        }
        ("min", q) | ("max", q) if items(q).is_some() => {
            let v = items(q).unwrap_or_default();
            let mut best: Option<Q<'a>> = None;
            for x in v {
                best = Some(match best {
                    None => x,
                    Some(b) => {
                        let less =
                            matches!(binary(BinOp::Lt, x.clone(), b.clone())?, Q::Bool(true));
                        if less == (name == "min") {
                            x
                        } else {
                            b
                        }
                    }
                });
            }
            best.ok_or("`min`/`max` of nothing")?
        }
        ("reverse", Q::Bytes(b)) => Q::Bytes(b.iter().rev().copied().collect()),
        ("reverse", Q::List(v)) => Q::List(v.iter().rev().cloned().collect()),
        (_, Q::Null) => return Err(format!("`.{name}` of a field that is not there")),
        _ => return Err(format!("`.{name}` is not defined on this value")),
    })
}
