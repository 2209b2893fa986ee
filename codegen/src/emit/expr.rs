//! Spec expressions as Rust. Integers are evaluated in `i128` (no product of two file values
//! overflows it) and field values are read through `rt::Int`, so the same code works on the
//! reader's views, the writer's references and the owned values of instances.

use super::names::{ident, rt, sizeof_local};
use meshspec_model::expr::{BinOp, Expr, UnOp};
use meshspec_model::{FieldType, PrimKind, Repeat, Spec, Type};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// What an expression evaluates to.
#[derive(Debug, Clone, PartialEq)]
pub enum ETy {
    /// An `i128`.
    Int,
    /// A `bool`.
    Bool,
    /// A list: only its length can be asked.
    Seq,
    /// Bytes: only their length.
    Bytes,
    /// Text: only its length.
    Str,
    /// A value of a spec type: its fields can be asked.
    User(String),
}

/// Generated code and what it evaluates to.
pub struct Val {
    pub code: TokenStream,
    pub ty: ETy,
}

impl Val {
    fn int(code: TokenStream) -> Val {
        Val { code, ty: ETy::Int }
    }
    fn bool(code: TokenStream) -> Val {
        Val {
            code,
            ty: ETy::Bool,
        }
    }
}

type R<T> = Result<T, String>;

/// What names an expression can see.
pub struct Scope<'a> {
    pub spec: &'a Spec,
    pub ty: &'a Type,
    /// Fields `[..visible]` are in scope (the reader sees only earlier fields).
    pub visible: usize,
    /// The value `_` names inside `valid`.
    pub underscore: Option<(TokenStream, ETy)>,
    /// Inside an element of a repeated field, where `_index` is the element's index (`_i`).
    pub in_repeat: bool,
    /// While reading or writing field `i`: the fields before it have been measured, so
    /// `name._sizeof` of one of them is known. `None` outside the reader and the writer.
    pub measured_before: Option<usize>,
    /// Whether the code may fail with `?` outside the reader and the writer (the checks pass):
    /// a conditional field is then read as in the reader, an error when absent.
    pub fallible: bool,
}

pub fn int_lit(v: i128) -> TokenStream {
    let l = Literal::i128_suffixed(v);
    quote!((#l))
}

fn field_val(t: &Type, id: &str, place: TokenStream, fallible: bool) -> R<Val> {
    let rt = rt();
    let f = t
        .fields
        .iter()
        .find(|f| f.id == id)
        .ok_or_else(|| format!("`{}` has no field `{id}`", t.name))?;
    // A conditional field read in an expression: its value when present, an error when absent
    // (Kaitai's generated code fails on the missing value too); guard it with its own
    // condition (`c ? f : 0`), which is evaluated lazily. Only where errors can be returned
    // (while reading and writing), not in instances.
    let place = if f.cond.is_some() {
        if !fallible {
            return Err(format!(
                "`{id}` is conditional (if:) and cannot be used in an instance"
            ));
        }
        let name = &f.id;
        quote!((#rt::codec::present(#place.as_ref(), _start, #name)?))
    } else {
        place
    };
    let ty = match &f.ty {
        _ if !matches!(f.repeat, Repeat::None) => ETy::Seq,
        FieldType::Prim(p) if p.kind == PrimKind::F => {
            return Err(format!("`{id}` is a float: floats are not in expressions"))
        }
        FieldType::Prim(_) | FieldType::Bits(2..) => {
            return Ok(Val::int(quote!(#rt::Int::int(&#place))))
        }
        FieldType::Bits(_) => return Ok(Val::bool(quote!((#rt::Int::int(&#place) != 0)))),
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => ETy::User(r.name.clone()),
        FieldType::Bytes(_) => ETy::Bytes,
        FieldType::Str { .. } | FieldType::Strz { .. } => ETy::Str,
        FieldType::Contents(_) | FieldType::Switch { .. } => {
            return Err(format!("`{id}` cannot be used in an expression"))
        }
    };
    Ok(Val { code: place, ty })
}

/// A comparison or bitwise operator, written as Rust writes it (Kaitai writes them the same).
fn rust_op(op: BinOp) -> TokenStream {
    op.text().parse().expect("Rust has the operator")
}

impl Scope<'_> {
    /// Whether the code can return an error (`?`).
    fn can_fail(&self) -> bool {
        self.measured_before.is_some() || self.fallible
    }

    pub fn gen(&self, e: &Expr) -> R<Val> {
        self.gen_depth(e, 0)
    }

    fn gen_depth(&self, e: &Expr, depth: u32) -> R<Val> {
        let rt = rt();
        if depth > 32 {
            return Err("instances refer to each other in a loop".into());
        }
        Ok(match e {
            Expr::Int { value, .. } => Val::int(int_lit(*value)),
            Expr::Bool(b) => Val::bool(quote!(#b)),
            Expr::Name(n) if n == "_index" => {
                if !self.in_repeat {
                    return Err("`_index` is only defined inside a repeated field".into());
                }
                Val::int(quote!((_i as i128)))
            }
            Expr::Name(n) if n == "_" => {
                let (code, ty) = self
                    .underscore
                    .clone()
                    .ok_or("`_` is only defined inside valid")?;
                Val { code, ty }
            }
            Expr::Name(n) => {
                let id = ident(n);
                if self.ty.params.iter().any(|p| &p.id == n) {
                    Val::int(quote!(#rt::Int::int(&#id)))
                } else if let Some(pos) = self.ty.fields.iter().position(|f| &f.id == n) {
                    if pos >= self.visible {
                        return Err(format!("`{n}` is read after this expression"));
                    }
                    field_val(self.ty, n, quote!(#id), self.can_fail())?
                } else if let Some(i) = self.ty.instances.iter().find(|i| &i.id == n) {
                    let v = self.gen_depth(&i.value, depth + 1)?;
                    let c = v.code;
                    Val {
                        code: quote!((#c)),
                        ty: v.ty,
                    }
                } else {
                    return Err(format!(
                        "`{n}` is not a field, parameter or instance of `{}`",
                        self.ty.name
                    ));
                }
            }
            Expr::Attr(a, name) if name == "_sizeof" => {
                let Expr::Name(n) = &**a else {
                    return Err(format!("`_sizeof` applies to a field name, not to `{a}`"));
                };
                let pos = self
                    .ty
                    .fields
                    .iter()
                    .position(|f| &f.id == n)
                    .ok_or_else(|| {
                        format!("`{n}._sizeof`: `{n}` is not a field of `{}`", self.ty.name)
                    })?;
                match self.measured_before {
                    Some(before) if pos < before => {
                        let l = sizeof_local(n);
                        Val::int(quote!(i128::from(#l)))
                    }
                    Some(_) => {
                        return Err(format!(
                            "`{n}._sizeof` is used before `{n}` is read (or written)"
                        ))
                    }
                    None => {
                        return Err(format!(
                        "`{n}._sizeof` is only known while reading or writing, not in an instance"
                    ))
                    }
                }
            }
            // `_io.pos`: the position in the stream the value is read from (or written to),
            // counted from the start of the innermost sized part, as Kaitai counts it.
            // `_io.size`: the size of the innermost sized part (only in a count, read).
            Expr::Attr(a, name) if matches!(&**a, Expr::Name(n) if n == "_io") => {
                let code = match name.as_str() {
                    "pos" => quote!((_io.io_pos() as i128)),
                    "size" => quote!((_io.io_size() as i128)),
                    _ => return Err(format!("`_io.{name}` is not in the subset")),
                };
                if self.measured_before.is_none() {
                    return Err(format!(
                        "`_io.{name}` is only known while reading or writing, not in an instance"
                    ));
                }
                Val::int(code)
            }
            Expr::Attr(a, name) => {
                let base = self.gen_depth(a, depth)?;
                let b = base.code;
                match (&base.ty, name.as_str()) {
                    (ETy::Seq | ETy::Bytes | ETy::Str, "size" | "length") => {
                        Val::int(quote!((#b.len() as i128)))
                    }
                    // Kaitai's enum-to-integer conversion: values are integers here already.
                    (ETy::Int, "to_i") => Val::int(b),
                    (ETy::User(t), _) => {
                        let t = self.spec.ty(t).expect("resolved");
                        let f = ident(name);
                        field_val(t, name, quote!(#b.#f), self.can_fail())?
                    }
                    _ => return Err(format!("`.{name}` is not defined on `{a}`")),
                }
            }
            Expr::EnumVal(en, v) => {
                let def = self
                    .spec
                    .enum_def(en)
                    .ok_or_else(|| format!("no enum `{en}`"))?;
                if def.value_of(v).is_none() {
                    return Err(format!("enum `{en}` has no value `{v}`"));
                }
                let et = quote::format_ident!("{}", def.rust);
                let vi = super::names::enum_value(v);
                Val::int(quote!(#rt::Int::int(&#et::#vi)))
            }
            Expr::Unary(op, a) => {
                let v = self.gen_depth(a, depth)?;
                match op {
                    UnOp::Neg => {
                        let x = self.int(v)?;
                        Val::int(quote!((#x).wrapping_neg()))
                    }
                    UnOp::BitNot => {
                        let x = self.int(v)?;
                        Val::int(quote!((!(#x))))
                    }
                    UnOp::Not => {
                        let x = self.boolean(v)?;
                        Val::bool(quote!((!(#x))))
                    }
                }
            }
            Expr::Binary(op, a, b) => {
                let x = self.gen_depth(a, depth)?;
                let y = self.gen_depth(b, depth)?;
                if op.is_logic() {
                    let (x, y) = (self.boolean(x)?, self.boolean(y)?);
                    Val::bool(if *op == BinOp::And {
                        quote!((#x && #y))
                    } else {
                        quote!((#x || #y))
                    })
                } else if op.is_compare() {
                    let (x, y, _) = self.alike(x, y)?;
                    let o = rust_op(*op);
                    Val::bool(quote!((#x #o #y)))
                } else {
                    let (x, y) = (self.int(x)?, self.int(y)?);
                    Val::int(match op {
                        BinOp::Add => quote!((#x).wrapping_add(#y)),
                        BinOp::Sub => quote!((#x).wrapping_sub(#y)),
                        BinOp::Mul => quote!((#x).wrapping_mul(#y)),
                        BinOp::Div => quote!(#rt::codec::div(#x, #y)),
                        BinOp::Rem => quote!(#rt::codec::rem(#x, #y)),
                        BinOp::Shl => quote!((#x).wrapping_shl((#y) as u32)),
                        BinOp::Shr => quote!((#x).wrapping_shr((#y) as u32)),
                        _ => {
                            let o = rust_op(*op);
                            quote!((#x #o #y))
                        }
                    })
                }
            }
            Expr::Cond(c, a, b) => {
                let c = self.gen_depth(c, depth)?;
                let x = self.gen_depth(a, depth)?;
                let y = self.gen_depth(b, depth)?;
                let c = self.boolean(c)?;
                let (x, y, ty) = self.alike(x, y)?;
                Val {
                    code: quote!((if #c { #x } else { #y })),
                    ty,
                }
            }
            Expr::Float(_)
            | Expr::Str(_)
            | Expr::Array(_)
            | Expr::Index(..)
            | Expr::Call(..)
            | Expr::Cast(..)
            | Expr::SizeOf { .. } => {
                return Err(format!(
                    "`{e}`: the generator emits integer and condition expressions only (no floats, text, arrays, indexing, methods, casts or sizeof yet)"
                ))
            }
        })
    }

    /// Two operands of one kind: booleans where both are, integers otherwise.
    fn alike(&self, x: Val, y: Val) -> R<(TokenStream, TokenStream, ETy)> {
        if x.ty == ETy::Bool && y.ty == ETy::Bool {
            Ok((x.code, y.code, ETy::Bool))
        } else {
            Ok((self.int(x)?, self.int(y)?, ETy::Int))
        }
    }

    pub fn int(&self, v: Val) -> R<TokenStream> {
        match v.ty {
            ETy::Int => Ok(v.code),
            ETy::Bool => {
                let c = v.code;
                Ok(quote!(i128::from(#c)))
            }
            other => Err(format!("expected an integer, found {other:?} `{}`", v.code)),
        }
    }

    pub fn boolean(&self, v: Val) -> R<TokenStream> {
        match v.ty {
            ETy::Bool => Ok(v.code),
            ETy::Int => {
                let c = v.code;
                Ok(quote!((#c != 0)))
            }
            other => Err(format!(
                "expected a condition, found {other:?} `{}`",
                v.code
            )),
        }
    }

    pub fn int_of(&self, e: &Expr) -> R<TokenStream> {
        let v = self.gen(e)?;
        self.int(v).map_err(|m| format!("`{e}`: {m}"))
    }

    pub fn bool_of(&self, e: &Expr) -> R<TokenStream> {
        let v = self.gen(e)?;
        self.boolean(v).map_err(|m| format!("`{e}`: {m}"))
    }
}
