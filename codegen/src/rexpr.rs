//! Spec expressions as Rust. Integers are evaluated in `i128` (no product of two file values
//! overflows it), field values are read through `rt::Int`, so the same code works on the reader's
//! values and the writer's references.

use crate::expr::{BinOp, Expr, UnOp};
use crate::model::{FieldType, PrimKind, Repeat, Spec, Type};

#[derive(Debug, Clone, PartialEq)]
pub enum ETy {
    /// An `i128` expression.
    Int,
    /// A `bool` expression.
    Bool,
    /// Places: a value that can only be measured or looked into.
    Seq,
    Bytes,
    Str,
    User(String),
}

pub struct Val {
    pub code: String,
    pub ty: ETy,
}

/// What names an expression can see.
pub struct Scope<'a> {
    pub spec: &'a Spec,
    pub ty: &'a Type,
    /// Fields `[..visible]` are in scope (the reader sees only earlier fields).
    pub visible: usize,
    /// The value `_` names inside `valid`.
    pub underscore: Option<(String, ETy)>,
    /// Inside an element of a repeated field, where `_index` is the element's index.
    pub in_repeat: bool,
    /// While reading or writing field `i`: the fields before it have been measured, so
    /// `name._sizeof` of one of them is known. `None` outside the reader and the writer.
    pub measured_before: Option<usize>,
}

pub fn ident(id: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
        "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
        "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
    ];
    if KEYWORDS.contains(&id) {
        format!("r#{id}")
    } else {
        id.to_string()
    }
}

fn field_ety(t: &Type, id: &str, place: String, fallible: bool) -> Result<Val, String> {
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
        format!(
            "(crate::rt::read::present({place}.as_ref(), _start, {:?})?)",
            f.id
        )
    } else {
        place
    };
    if !matches!(f.repeat, Repeat::None) {
        return Ok(Val {
            code: place,
            ty: ETy::Seq,
        });
    }
    Ok(match &f.ty {
        FieldType::Prim(p) if p.kind == PrimKind::F => {
            return Err(format!("`{id}` is a float: floats are not in expressions"))
        }
        FieldType::Prim(_) => Val {
            code: format!("crate::rt::Int::int(&{place})"),
            ty: ETy::Int,
        },
        FieldType::Bits(1) => Val {
            code: format!("(crate::rt::Int::int(&{place}) != 0)"),
            ty: ETy::Bool,
        },
        FieldType::Bits(_) => Val {
            code: format!("crate::rt::Int::int(&{place})"),
            ty: ETy::Int,
        },
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => Val {
            code: place,
            ty: ETy::User(r.name.clone()),
        },
        FieldType::Bytes(_) => Val {
            code: place,
            ty: ETy::Bytes,
        },
        FieldType::Str { .. } | FieldType::Strz { .. } => Val {
            code: place,
            ty: ETy::Str,
        },
        FieldType::Contents(_) | FieldType::Switch { .. } => {
            return Err(format!("`{id}` cannot be used in an expression"))
        }
    })
}

impl Scope<'_> {
    pub fn gen(&self, e: &Expr) -> Result<Val, String> {
        self.gen_depth(e, 0)
    }

    fn gen_depth(&self, e: &Expr, depth: u32) -> Result<Val, String> {
        if depth > 32 {
            return Err("instances refer to each other in a loop".into());
        }
        Ok(match e {
            Expr::Int { value, .. } => Val {
                code: format!("{value}i128"),
                ty: ETy::Int,
            },
            Expr::Bool(b) => Val {
                code: b.to_string(),
                ty: ETy::Bool,
            },
            Expr::Name(n) if n == "_index" => {
                if !self.in_repeat {
                    return Err("`_index` is only defined inside a repeated field".into());
                }
                Val {
                    code: "(_i as i128)".into(),
                    ty: ETy::Int,
                }
            }
            Expr::Name(n) if n == "_" => {
                let (code, ty) = self
                    .underscore
                    .clone()
                    .ok_or("`_` is only defined inside valid")?;
                Val { code, ty }
            }
            Expr::Name(n) => {
                if self.ty.params.iter().any(|p| &p.id == n) {
                    Val {
                        code: format!("crate::rt::Int::int(&{})", ident(n)),
                        ty: ETy::Int,
                    }
                } else if let Some(pos) = self.ty.fields.iter().position(|f| &f.id == n) {
                    if pos >= self.visible {
                        return Err(format!("`{n}` is read after this expression"));
                    }
                    field_ety(self.ty, n, ident(n), self.measured_before.is_some())?
                } else if let Some(i) = self.ty.instances.iter().find(|i| &i.id == n) {
                    let v = self.gen_depth(&i.value, depth + 1)?;
                    Val {
                        code: format!("({})", v.code),
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
                    Some(before) if pos < before => Val {
                        code: format!("i128::from(_sizeof_{n})"),
                        ty: ETy::Int,
                    },
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
            Expr::Attr(a, name) if matches!(&**a, Expr::Name(n) if n == "_io") => {
                if name != "pos" || self.measured_before.is_none() {
                    return Err(format!(
                        "`_io.{name}`: only `_io.pos`, while reading or writing, is in the subset"
                    ));
                }
                Val {
                    code: "(crate::rt::read::pos(_io)? as i128)".into(),
                    ty: ETy::Int,
                }
            }
            Expr::Attr(a, name) => {
                let base = self.gen_depth(a, depth)?;
                match (&base.ty, name.as_str()) {
                    (ETy::Seq | ETy::Bytes | ETy::Str, "size" | "length") => Val {
                        code: format!("({}.len() as i128)", base.code),
                        ty: ETy::Int,
                    },
                    // Kaitai's enum-to-integer conversion: values are integers here already.
                    (ETy::Int, "to_i") => base,
                    (ETy::User(t), _) => {
                        let t = self.spec.ty(t).expect("resolved");
                        field_ety(
                            t,
                            name,
                            format!("{}.{}", base.code, ident(name)),
                            self.measured_before.is_some(),
                        )?
                    }
                    _ => return Err(format!("`.{name}` is not defined on `{a}`")),
                }
            }
            Expr::EnumVal(en, v) => {
                let def = self
                    .spec
                    .enum_def(en)
                    .ok_or_else(|| format!("no enum `{en}`"))?;
                if !def.values.iter().any(|(_, id, _)| id == v) {
                    return Err(format!("enum `{en}` has no value `{v}`"));
                }
                Val {
                    code: format!(
                        "crate::rt::Int::int(&{}::{})",
                        def.rust,
                        v.to_ascii_uppercase()
                    ),
                    ty: ETy::Int,
                }
            }
            Expr::Unary(op, a) => {
                let v = self.gen_depth(a, depth)?;
                match op {
                    UnOp::Neg => Val {
                        code: format!("({}).wrapping_neg()", self.int(v)?),
                        ty: ETy::Int,
                    },
                    UnOp::BitNot => Val {
                        code: format!("!({})", self.int(v)?),
                        ty: ETy::Int,
                    },
                    UnOp::Not => Val {
                        code: format!("!({})", self.boolean(v)?),
                        ty: ETy::Bool,
                    },
                }
            }
            Expr::Binary(op, a, b) => {
                let x = self.gen_depth(a, depth)?;
                let y = self.gen_depth(b, depth)?;
                if op.is_logic() {
                    let o = if *op == BinOp::And { "&&" } else { "||" };
                    Val {
                        code: format!("({} {o} {})", self.boolean(x)?, self.boolean(y)?),
                        ty: ETy::Bool,
                    }
                } else if op.is_compare() {
                    let (xc, yc) = if x.ty == ETy::Bool && y.ty == ETy::Bool {
                        (x.code, y.code)
                    } else {
                        (self.int(x)?, self.int(y)?)
                    };
                    Val {
                        code: format!("({xc} {} {yc})", op.text()),
                        ty: ETy::Bool,
                    }
                } else {
                    let (xc, yc) = (self.int(x)?, self.int(y)?);
                    let code = match op {
                        BinOp::Add => format!("({xc}).wrapping_add({yc})"),
                        BinOp::Sub => format!("({xc}).wrapping_sub({yc})"),
                        BinOp::Mul => format!("({xc}).wrapping_mul({yc})"),
                        BinOp::Div => format!("crate::rt::codec::div({xc}, {yc})"),
                        BinOp::Rem => format!("crate::rt::codec::rem({xc}, {yc})"),
                        BinOp::Shl => format!("({xc}).wrapping_shl(({yc}) as u32)"),
                        BinOp::Shr => format!("({xc}).wrapping_shr(({yc}) as u32)"),
                        BinOp::BitAnd => format!("({xc} & {yc})"),
                        BinOp::BitOr => format!("({xc} | {yc})"),
                        BinOp::BitXor => format!("({xc} ^ {yc})"),
                        _ => unreachable!("comparisons and logic are handled above"),
                    };
                    Val { code, ty: ETy::Int }
                }
            }
            Expr::Cond(c, a, b) => {
                let c = self.gen_depth(c, depth)?;
                let x = self.gen_depth(a, depth)?;
                let y = self.gen_depth(b, depth)?;
                let c = self.boolean(c)?;
                if x.ty == ETy::Bool && y.ty == ETy::Bool {
                    Val {
                        code: format!("(if {c} {{ {} }} else {{ {} }})", x.code, y.code),
                        ty: ETy::Bool,
                    }
                } else {
                    Val {
                        code: format!(
                            "(if {c} {{ {} }} else {{ {} }})",
                            self.int(x)?,
                            self.int(y)?
                        ),
                        ty: ETy::Int,
                    }
                }
            }
        })
    }

    pub fn int(&self, v: Val) -> Result<String, String> {
        match v.ty {
            ETy::Int => Ok(v.code),
            ETy::Bool => Ok(format!("i128::from({})", v.code)),
            other => Err(format!("expected an integer, found {other:?} `{}`", v.code)),
        }
    }

    pub fn boolean(&self, v: Val) -> Result<String, String> {
        match v.ty {
            ETy::Bool => Ok(v.code),
            ETy::Int => Ok(format!("({} != 0)", v.code)),
            other => Err(format!(
                "expected a condition, found {other:?} `{}`",
                v.code
            )),
        }
    }

    pub fn int_of(&self, e: &Expr) -> Result<String, String> {
        let v = self.gen(e)?;
        self.int(v).map_err(|m| format!("`{e}`: {m}"))
    }

    pub fn bool_of(&self, e: &Expr) -> Result<String, String> {
        let v = self.gen(e)?;
        self.boolean(v).map_err(|m| format!("`{e}`: {m}"))
    }
}
