//! What a loaded spec must satisfy beyond its syntax, and what the outputs need computed:
//! names resolve, enums get their integer types, counts and sizes to recompute, measured
//! fields, sizes, the byte-order and stream rules, documented offsets that agree.

use crate::expr::Expr;
use crate::load::{Problem, R};
use crate::*;
use std::collections::BTreeSet;

/// What a layout spec (unlike the generator's fixtures) must state beyond the subset: the
/// document's word on every relation and on every field that checks its own value, so that
/// every rule's severity follows from it.
pub fn require_facts(spec: &Spec) -> Result<(), SpecError> {
    facts(spec).map_err(|p| SpecError {
        file: spec.file.clone(),
        at: p.at,
        message: p.message,
    })
}

fn facts(spec: &Spec) -> R<()> {
    for t in &spec.types {
        for r in &t.relations {
            if r.confidence.is_none() {
                return Err(Problem::from(format!(
                    "{} relation `{}` needs a -confidence (its severity follows from it)",
                    t.name, r.id
                ))
                .or_at(r.at));
            }
        }
        for f in &t.fields {
            if f.check_severity.is_some() && f.confidence.is_none() {
                return Err(Problem::from(format!(
                    "{}.{}: a field with valid or contents needs a -confidence (the check's severity follows from it)",
                    t.name, f.id
                )).or_at(f.at));
            }
        }
    }
    Ok(())
}

/// Checks names and computes what the outputs need: counts to recompute, sizes, enum types.
pub(crate) fn resolve(spec: &mut Spec) -> R<()> {
    // Every referenced type and enum exists, with the right number of arguments.
    for t in &spec.types {
        let mut seen = BTreeSet::new();
        for f in &t.fields {
            if !seen.insert(f.id.clone()) {
                return Err(
                    Problem::from(format!("{}.{}: id used twice", t.name, f.id)).or_at(f.at)
                );
            }
            for r in refs(&f.ty) {
                let target = spec.ty(&r.name).ok_or_else(|| {
                    Problem::from(format!("{}.{}: no type `{}`", t.name, f.id, r.name)).or_at(f.at)
                })?;
                if target.params.len() != r.args.len() {
                    return Err(Problem::from(format!(
                        "{}.{}: `{}` takes {} arguments, given {}",
                        t.name,
                        f.id,
                        r.name,
                        target.params.len(),
                        r.args.len()
                    ))
                    .or_at(f.at));
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
                    // A bit field's enum takes the narrowest unsigned type of its width.
                    FieldType::Bits(n) => Prim {
                        kind: PrimKind::U,
                        bytes: match n {
                            ..=8 => 1,
                            9..=16 => 2,
                            17..=32 => 4,
                            _ => 8,
                        },
                        endian: None,
                    },
                    _ => {
                        return Err(
                            Problem::from(format!("{}: enum on a non-integer field", f.id))
                                .or_at(f.at),
                        )
                    }
                };
                let ei = spec.enum_index(en).ok_or_else(|| {
                    Problem::from(format!("{}: no enum `{en}`", f.id)).or_at(f.at)
                })?;
                let e = &mut spec.enums[ei];
                match e.prim {
                    // Kaitai's enum holds any integer: it takes the wider type (signed if
                    // either is), and the generator refuses it (codegen/src/gaps.rs).
                    Some(p) if p.rust() != prim.rust() => {
                        e.mixed = true;
                        let kind = if p.kind == PrimKind::S || prim.kind == PrimKind::S {
                            PrimKind::S
                        } else {
                            PrimKind::U
                        };
                        e.prim = Some(Prim {
                            kind,
                            bytes: p.bytes.max(prim.bytes),
                            endian: None,
                        });
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
            // With negative values: the narrowest signed type that holds them.
            let max = e.values.iter().map(|v| v.0).max().unwrap_or(0);
            let min = e.values.iter().map(|v| v.0).min().unwrap_or(0);
            let (kind, bytes) = if min < 0 {
                let fits = |b: u32| min >= -(1i128 << (8 * b - 1)) && max < (1i128 << (8 * b - 1));
                (
                    PrimKind::S,
                    match () {
                        _ if fits(1) => 1,
                        _ if fits(2) => 2,
                        _ if fits(4) => 4,
                        _ => 8,
                    },
                )
            } else {
                (
                    PrimKind::U,
                    match max {
                        0..=0xFF => 1,
                        0x100..=0xFFFF => 2,
                        0x1_0000..=0xFFFF_FFFF => 4,
                        _ => 8,
                    },
                )
            };
            e.prim = Some(Prim {
                kind,
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
                    return Err(Problem::from(format!(
                        "{}.{}: -derive is for plain integer fields that are not also a count or size",
                        t.name, f.id
                    )).or_at(f.at));
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
            let at = t.at;
            let f = t.fields.iter_mut().find(|f| f.id == n).ok_or_else(|| {
                Problem::from(format!(
                    "{}: `{n}._sizeof`: `{n}` is not a field of `{}`",
                    t.name, t.name
                ))
                .or_at(at)
            })?;
            if matches!(f.ty, FieldType::Bits(_)) {
                return Err(Problem::from(format!(
                    "{}.{n}: `_sizeof` of a bit field is not in the subset",
                    t.name
                ))
                .or_at(f.at));
            }
            f.measured = true;
        }
    }
    // Sizes, innermost types first (a fixed point: types refer to each other in any order);
    // the names' check asks them (`_root.header._sizeof` of a fixed-size header).
    let n = spec.types.len();
    for _ in 0..=n {
        for ti in 0..n {
            let (min, fixed) = type_size(spec, &spec.types[ti]);
            spec.types[ti].min_size = min;
            spec.types[ti].fixed_size = fixed;
        }
    }
    check_endian_and_io(spec)?;
    check_kinds(spec)?;
    check_names(spec)?;
    // A documented offset that is a number must be where the fixed fields before it end.
    for t in &spec.types {
        for (f, at) in t.fields.iter().zip(static_bit_offsets(spec, t)) {
            if let (Some(doc), Some(bits)) = (f.offset.as_ref().and_then(|e| e.literal()), at) {
                if bits % 8 != 0 || doc != i128::from(bits / 8) {
                    return Err(Problem::from(format!(
                        "{}.{}: -offset says {doc}, the fields before it take {} bytes",
                        t.name,
                        f.id,
                        bits as f64 / 8.0
                    ))
                    .or_at(f.at));
                }
            }
        }
    }
    Ok(())
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
                // Parameters, and the values this one is read in (`_root.endianness`).
                if !t.params.iter().any(|p| p.id == n) && !matches!(n.as_str(), "_root" | "_parent")
                {
                    return Err(Problem::from(format!(
                        "{}: meta.endian switch-on reads `{n}`, which is not a parameter of the type nor a value it is read in (only those are known before the first field)",
                        t.name
                    )).or_at(t.at));
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
                    return Err(Problem::from(format!(
                        "{}.{}: `{}` has a calculated byte order and holds `{}`, whose numbers have none of their own: give `{}` its own meta.endian (Kaitai would inherit it at run time)",
                        u.name, f.id, t.name, u.name, u.name
                    )).or_at(f.at));
                }
            }
        }
        for p in &t.params {
            if let Some(en) = &p.enum_name {
                if spec.enum_def(en).is_none() {
                    return Err(Problem::from(format!(
                        "{}: param {}: no enum `{en}`",
                        t.name, p.id
                    ))
                    .or_at(t.at));
                }
            }
            if t.fields.iter().any(|f| f.id == p.id)
                || t.instances.iter().any(|i| i.id == p.id)
                || t.parsed.iter().any(|i| i.id == p.id)
            {
                return Err(Problem::from(format!(
                    "{}.{}: the id is used twice (parameters, fields and instances share one namespace)",
                    t.name, p.id
                ))
                .or_at(t.at));
            }
        }
        for i in &t.instances {
            let clash = t.fields.iter().any(|f| f.id == i.id)
                || t.parsed.iter().any(|p| p.id == i.id)
                || t.instances.iter().filter(|j| j.id == i.id).count() > 1;
            if clash {
                return Err(Problem::from(format!(
                    "{}.{}: the id is used twice (fields and instances share one namespace)",
                    t.name, i.id
                ))
                .or_at(i.at));
            }
            if let Some(en) = &i.enum_name {
                if spec.enum_def(en).is_none() {
                    return Err(
                        Problem::from(format!("{}.{}: no enum `{en}`", t.name, i.id)).or_at(i.at),
                    );
                }
            }
        }
        for p in &t.parsed {
            if t.fields.iter().any(|f| f.id == p.id) {
                return Err(Problem::from(format!(
                    "{}.{}: the id is used twice (fields and instances share one namespace)",
                    t.name, p.id
                ))
                .or_at(p.at));
            }
            for r in refs(&p.field.ty) {
                if spec.ty(&r.name).is_none() {
                    return Err(Problem::from(format!(
                        "{}.{}: no type `{}`",
                        t.name, p.id, r.name
                    ))
                    .or_at(p.at));
                }
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
                // `_io.size` outside a count and `_io.eof` are Kaitai's too; the generator
                // refuses them (codegen/src/gaps.rs) and the interpreter reads them.
                let _ = in_count;
                let bad = e.any(&|x| match x {
                    Expr::Attr(a, n) => {
                        matches!(&**a, Expr::Name(b) if b == "_io")
                            && !matches!(n.as_str(), "pos" | "size" | "eof")
                    }
                    _ => false,
                });
                let bare = e.any(&|x| matches!(x, Expr::Name(n) if n == "_io"))
                    && !e.any(&|x| matches!(x, Expr::Attr(a, _) if matches!(&**a, Expr::Name(b) if b == "_io")));
                if bad || bare {
                    return Err(Problem::from(format!(
                        "{}.{}: `{e}`: only `_io.pos`, and `_io.size` in a count, of the stream are in the subset",
                        t.name, f.id
                    )).or_at(f.at));
                }
            }
            // `_io.pos` in a type's arguments: the interpreter reads it, the generator refuses
            // it (codegen/src/gaps.rs).
            // A type that reads `_io.pos` through `size-eos`: the interpreter reads it as a
            // part of its own; the generator refuses it (codegen/src/gaps.rs).
        }
    }
    Ok(())
}

/// What an expression's form alone says it is, where that is certain.
#[derive(PartialEq)]
pub(crate) enum Kindly {
    Number,
    Condition,
    Text,
    Array,
    Unknown,
}

pub(crate) fn kind_of(e: &Expr) -> Kindly {
    use crate::expr::BinOp::*;
    match e {
        Expr::Int { .. } | Expr::Float(_) => Kindly::Number,
        Expr::Bool(_) => Kindly::Condition,
        Expr::Str(_) => Kindly::Text,
        Expr::Array(_) => Kindly::Array,
        Expr::Binary(op, ..) if op.is_compare() || op.is_logic() => Kindly::Condition,
        Expr::Binary(Add | Sub | Mul | Div | Rem | Shl | Shr, a, b) => {
            match (kind_of(a), kind_of(b)) {
                (Kindly::Text, _) | (_, Kindly::Text) => Kindly::Text,
                _ => Kindly::Number,
            }
        }
        Expr::Unary(crate::expr::UnOp::Not, _) => Kindly::Condition,
        Expr::Unary(_, _) => Kindly::Number,
        Expr::Attr(_, n) if n == "to_i" || n == "length" || n == "size" => Kindly::Number,
        _ => Kindly::Unknown,
    }
}

/// Expressions whose form says they are the wrong kind for their place (a number as a
/// condition, text as a size), and `not` of a number: refused as Kaitai refuses them.
fn check_kinds(spec: &Spec) -> R<()> {
    let need = |e: &Expr, want: Kindly, what: &str, t: &Type, id: &str, at| -> R<()> {
        let found = kind_of(e);
        let wrong = found != Kindly::Unknown && found != want;
        let bad_not = e.any(&|x| {
            matches!(x, Expr::Unary(crate::expr::UnOp::Not, a) if kind_of(a) == Kindly::Number)
        });
        if wrong || bad_not {
            return Err(Problem::from(format!("{}.{id}: `{e}` is not {what}", t.name)).or_at(at));
        }
        Ok(())
    };
    for t in &spec.types {
        for f in &t.fields {
            if let Some(c) = &f.cond {
                need(c, Kindly::Condition, "a condition (if)", t, &f.id, f.at)?;
            }
            if let Repeat::Until(c) = &f.repeat {
                need(
                    c,
                    Kindly::Condition,
                    "a condition (repeat-until)",
                    t,
                    &f.id,
                    f.at,
                )?;
            }
            if let Repeat::Expr(c) = &f.repeat {
                need(c, Kindly::Number, "a number (repeat-expr)", t, &f.id, f.at)?;
            }
            if let Some(Size::Expr(s)) = f.ty.size() {
                need(s, Kindly::Number, "a number (size)", t, &f.id, f.at)?;
            }
            if let Some(Valid::Expr(c)) = &f.valid {
                need(
                    c,
                    Kindly::Condition,
                    "a condition (valid expr)",
                    t,
                    &f.id,
                    f.at,
                )?;
            }
            // A number is compared with numbers (valid eq, min, max, any-of).
            let number =
                matches!(f.ty, FieldType::Prim(_) | FieldType::Bits(2..)) && f.enum_name.is_none();
            if let (true, Some(v)) = (number, &f.valid) {
                if !matches!(v, Valid::Expr(_)) {
                    for e in v.exprs() {
                        need(
                            e,
                            Kindly::Number,
                            "a number (the field is one)",
                            t,
                            &f.id,
                            f.at,
                        )?;
                    }
                }
            }
            // A switch over a number field has numbers as its cases.
            if let FieldType::Switch {
                on: Expr::Name(n),
                cases,
            } = &f.ty
            {
                let over_number = t.fields.iter().any(|g| {
                    &g.id == n
                        && matches!(g.ty, FieldType::Prim(_) | FieldType::Bits(2..))
                        && g.enum_name.is_none()
                });
                for (k, _) in cases.iter().filter(|_| over_number) {
                    if !matches!(k, Expr::Name(x) if x == "_") {
                        need(
                            k,
                            Kindly::Number,
                            "a number (the switch is over one)",
                            t,
                            &f.id,
                            f.at,
                        )?;
                    }
                }
            }
        }
        for i in &t.instances {
            if let Some(c) = &i.cond {
                need(c, Kindly::Condition, "a condition (if)", t, &i.id, i.at)?;
            }
            let bad_not = i.value.any(&|x| {
                matches!(x, Expr::Unary(crate::expr::UnOp::Not, a) if kind_of(a) == Kindly::Number)
            });
            if bad_not {
                return Err(Problem::from(format!(
                    "{}.{}: `{}`: `not` of a number",
                    t.name, i.id, i.value
                ))
                .or_at(i.at));
            }
        }
        for p in &t.parsed {
            if let Some(e) = &p.pos {
                need(e, Kindly::Number, "a number (pos)", t, &p.id, p.at)?;
            }
            if let Some(c) = &p.field.cond {
                need(c, Kindly::Condition, "a condition (if)", t, &p.id, p.at)?;
            }
            if let Some(Size::Expr(s)) = p.field.ty.size() {
                need(s, Kindly::Number, "a number (size)", t, &p.id, p.at)?;
            }
        }
    }
    Ok(())
}

/// What an expression may name, where it is written.
struct NameScope<'a> {
    spec: &'a Spec,
    ty: &'a Type,
    /// Fields `[..visible]` are known (the reader has read them).
    visible: usize,
    /// `_` (the value a `valid` checks, the element a relation's `-each` names) is known, and
    /// the spec type of its value when it has one.
    underscore: Option<Option<&'a str>>,
    /// `_index` (the element's index in a repeated field) is known.
    index: bool,
    /// The type's parameters are known (not in a relation's check, which is evaluated over a
    /// value already read, whose arguments it does not keep).
    params: bool,
    /// The repeated field whose element the expression is about: its elements read so far
    /// are known (Kaitai's `groups[_index - 1]`).
    growing: Option<usize>,
}

impl NameScope<'_> {
    /// Refuses a name the expression's place cannot see, and `a.b` where `a` is a value of a
    /// spec type without a field `b`: when the spec loads, not when a file is read.
    fn check(&self, e: &Expr) -> Result<Option<&str>, String> {
        let t = self.ty;
        match e {
            Expr::Name(n) if n == "_" => self
                .underscore
                .ok_or_else(|| "`_` is only defined inside valid and a relation's -each".into()),
            Expr::Name(n) if n == "_index" => {
                if self.index {
                    Ok(None)
                } else {
                    Err("`_index` is only defined in a repeated field".into())
                }
            }
            // Known when a value is read; whether a reader's expression may use them is the
            // generator's and the interpreter's question.
            Expr::Name(n) if n == "_parent" || n == "_root" => Ok(None),
            Expr::Name(n) if n == "_io" => Ok(None),
            Expr::Name(n) => {
                if t.params.iter().any(|p| &p.id == n) {
                    return if self.params {
                        Ok(None)
                    } else {
                        Err(format!(
                            "`{n}` is a parameter: a relation's check sees the type's fields and instances"
                        ))
                    };
                }
                if t.instances.iter().any(|i| &i.id == n) || t.parsed.iter().any(|i| &i.id == n) {
                    return Ok(None);
                }
                match t.fields.iter().position(|f| &f.id == n) {
                    Some(i) if i < self.visible => Ok(match &t.fields[i].ty {
                        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. }
                            if matches!(t.fields[i].repeat, Repeat::None) =>
                        {
                            Some(r.name.as_str())
                        }
                        _ => None,
                    }),
                    Some(i) if Some(i) == self.growing => Ok(None),
                    Some(_) => Err(format!("`{n}` is read after this expression")),
                    None => Err(format!(
                        "`{n}` is not a field, parameter or instance of `{}`",
                        t.name
                    )),
                }
            }
            Expr::Attr(a, name) => {
                if name == "_sizeof" {
                    return match &**a {
                        Expr::Name(n) if t.fields.iter().any(|f| &f.id == n) => Ok(None),
                        other if crate::fixed_field_size(self.spec, t, other).is_some() => Ok(None),
                        other => Err(format!(
                            "`_sizeof` applies to a field of `{}`, not to `{other}`",
                            t.name
                        )),
                    };
                }
                let of = self.check(a)?;
                match of {
                    Some(tn) => {
                        let target = self.spec.ty(tn).expect("resolved earlier");
                        // An instance of the value: a value instance's type is its
                        // expression's, a positional one's its field's.
                        if target.instances.iter().any(|i| &i.id == name)
                            || target.params.iter().any(|p| &p.id == name)
                        {
                            return Ok(None);
                        }
                        let f = target
                            .fields
                            .iter()
                            .chain(target.parsed.iter().map(|p| &p.field))
                            .find(|f| &f.id == name)
                            .ok_or_else(|| {
                                format!("`{a}.{name}`: `{tn}` has no field or instance `{name}`")
                            })?;
                        Ok(match &f.ty {
                            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. }
                                if matches!(f.repeat, Repeat::None) =>
                            {
                                Some(r.name.as_str())
                            }
                            _ => None,
                        })
                    }
                    None => Ok(None),
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
                Ok(None)
            }
            other => {
                for c in other.children() {
                    self.check(c)?;
                }
                Ok(None)
            }
        }
    }
}

/// Every expression's names are ones its place can see ([`NameScope::check`]).
pub(crate) fn check_names(spec: &Spec) -> R<()> {
    for t in &spec.types {
        let scope = |visible, underscore: bool, index| NameScope {
            spec,
            ty: t,
            visible,
            underscore: underscore.then_some(None),
            index,
            params: true,
            growing: None,
        };
        for (i, f) in t.fields.iter().enumerate() {
            let repeats = !matches!(f.repeat, Repeat::None);
            let until = match &f.repeat {
                Repeat::Until(u) => Some(u),
                _ => None,
            };
            let own: Vec<&Expr> = field_exprs(f)
                .into_iter()
                .filter(|e| {
                    !f.derive.iter().any(|d| std::ptr::eq(d, *e))
                        && !until.is_some_and(|u| std::ptr::eq(u, *e))
                        // A switch's `_` case: every other value.
                        && !matches!(e, Expr::Name(n) if n == "_")
                        && !f
                            .valid
                            .iter()
                            .flat_map(Valid::exprs)
                            .any(|v| std::ptr::eq(v, *e))
                })
                .collect();
            let fail = |e: &Expr, why: String| {
                Problem::from(format!("{}.{}: `{e}`: {why}", t.name, f.id)).or_at(f.at)
            };
            // An element's own expressions (not the list's condition or count) see the
            // elements before it.
            let whole_list = |e: &Expr| {
                f.cond.as_ref().is_some_and(|c| std::ptr::eq(c, e))
                    || matches!(&f.repeat, Repeat::Expr(c) if std::ptr::eq(c, e))
            };
            for e in own {
                NameScope {
                    growing: (repeats && !whole_list(e)).then_some(i),
                    ..scope(i, false, repeats)
                }
                .check(e)
                .map_err(|why| fail(e, why))?;
            }
            for e in f.valid.iter().flat_map(Valid::exprs).chain(until) {
                scope(i + 1, true, repeats)
                    .check(e)
                    .map_err(|why| fail(e, why))?;
            }
            if let Some(e) = &f.derive {
                scope(t.fields.len(), false, false)
                    .check(e)
                    .map_err(|why| fail(e, why))?;
            }
        }
        for inst in &t.instances {
            scope(t.fields.len(), false, false)
                .check(&inst.value)
                .map_err(|why| {
                    Problem::from(format!("{}.{}: `{}`: {why}", t.name, inst.id, inst.value))
                        .or_at(inst.at)
                })?;
        }
        for r in &t.relations {
            let fail = |why: String| {
                Problem::from(format!("{} relation {}: {why}", t.name, r.id)).or_at(r.at)
            };
            let Some(check) = &r.check else { continue };
            let field = |id: &str, key: &str| {
                t.fields
                    .iter()
                    .find(|f| f.id == id)
                    .ok_or_else(|| fail(format!("{key}: `{id}` is not a field of `{}`", t.name)))
            };
            let mut underscore = None;
            if let Some(each) = &r.each {
                let f = field(each, "-each")?;
                if matches!(f.repeat, Repeat::None) {
                    return Err(fail(format!("-each: `{each}` is not a repeated field")));
                }
                underscore = Some(match &f.ty {
                    FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                        Some(r.name.as_str())
                    }
                    _ => None,
                });
            }
            if let Some(at) = &r.placed_at {
                field(at, "-at")?;
            }
            NameScope {
                spec,
                ty: t,
                visible: t.fields.len(),
                underscore,
                index: r.each.is_some(),
                params: false,
                growing: None,
            }
            .check(check)
            .map_err(|why| fail(format!("-check `{check}`: {why}")))?;
        }
    }
    Ok(())
}
