//! Questions about a resolved spec that every output asks: which types a type reaches, every
//! expression of a field, sizes and static offsets, how a list is laid out.

use crate::expr::Expr;
use crate::*;

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

pub(crate) fn type_uses_io(t: &Type) -> bool {
    t.fields
        .iter()
        .any(|f| field_exprs(f).iter().any(|e| e.uses_io()))
}

/// Every expression of a field: its offset, size, count, condition, checks, derivation and the
/// arguments and switch of its type.
pub fn field_exprs(f: &Field) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = vec![];
    out.extend(f.offset.iter());
    out.extend(f.cond.iter());
    out.extend(f.derive.iter());
    if let Repeat::Expr(e) | Repeat::Until(e) = &f.repeat {
        out.push(e);
    }
    if let Some(Size::Expr(e)) = f.ty.size() {
        out.push(e);
    }
    if let FieldType::Switch { on, cases } = &f.ty {
        out.push(on);
        out.extend(cases.iter().map(|(k, _)| k));
    }
    if let Some(Size::Expr(e)) = &f.switch_size {
        out.push(e);
    }
    if let Some(Process::Xor(e) | Process::Rol(e) | Process::Ror(e)) = &f.process {
        out.push(e);
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
        FieldType::Switch { .. } if f.switch_size.is_some() => match &f.switch_size {
            Some(Size::Expr(e)) => e
                .literal()
                .map_or((0, None), |v| (v as u64, Some(v as u64))),
            _ => (0, None),
        },
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
        Repeat::Eos | Repeat::Until(_) => (0, None),
    };
    if f.cond.is_some() {
        (0, None)
    } else {
        (min, fixed)
    }
}

pub(crate) fn type_size(spec: &Spec, t: &Type) -> (u64, Option<u64>) {
    let mut min = 0u64;
    let mut fixed = Some(0u64);
    let mut bits = 0u64;
    for f in &t.fields {
        if let FieldType::Bits(n) = f.ty {
            // A conditional or repeated bit field takes a number of bits known when read.
            if f.cond.is_some() || !matches!(f.repeat, Repeat::None) {
                fixed = None;
            } else {
                bits += u64::from(n);
            }
            continue;
        }
        // A byte-aligned field after bit fields starts at the next whole byte.
        min += bits.div_ceil(8);
        fixed = fixed.map(|x| x + bits.div_ceil(8));
        bits = 0;
        let (m, x) = field_size(spec, f);
        min += m;
        fixed = match (fixed, x) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
    (min + bits.div_ceil(8), fixed.map(|x| x + bits.div_ceil(8)))
}

/// Where each field starts inside its type, in bits, when every field before it has a fixed
/// size (`None` from the first field of variable size on).
pub fn static_bit_offsets(spec: &Spec, t: &Type) -> Vec<Option<u64>> {
    let mut out = vec![];
    let mut at = Some(0u64);
    for f in &t.fields {
        out.push(at);
        let bits = match f.ty {
            FieldType::Bits(_) if f.cond.is_some() || !matches!(f.repeat, Repeat::None) => None,
            FieldType::Bits(n) => Some(u64::from(n)),
            _ => {
                // Starts at the next whole byte after bit fields.
                at = at.map(|a| a.div_ceil(8) * 8);
                *out.last_mut().expect("pushed") = at;
                field_size(spec, f).1.map(|b| b * 8)
            }
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
                    FieldType::Bits(n)
                        if t.fields[i].cond.is_none()
                            && matches!(t.fields[i].repeat, Repeat::None) =>
                    {
                        total += n;
                        i += 1;
                    }
                    _ => break,
                }
            }
            out.push((start, i - start, total));
            // A conditional bit field makes a group of none (refused where groups are read).
            if i == start {
                i += 1;
            }
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
    // A block's numbers are in one known order.
    if !t.params.is_empty()
        || matches!(
            t.endian,
            Some(TypeEndian::Switch { .. } | TypeEndian::Inherit)
        )
    {
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
    if matches!(f.repeat, Repeat::Until(_)) {
        return Some(ListKind::Each);
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
            if f.valid.is_none()
                && f.term.is_none()
                && f.process.is_none()
                && !e.names().iter().any(|n| n == "_index") =>
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

/// The spec type of the value `e` names where type `t` is written, when its form says (a
/// field, or a field of a field, of a spec type, not repeated).
pub fn value_type<'s>(spec: &'s Spec, t: &'s Type, e: &Expr) -> Option<&'s Type> {
    let of = |f: &'s Field| match &f.ty {
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. }
            if matches!(f.repeat, Repeat::None) =>
        {
            spec.ty(&r.name)
        }
        _ => None,
    };
    let member = |u: &'s Type, n: &str| {
        u.fields
            .iter()
            .chain(u.parsed.iter().map(|p| &p.field))
            .find(|f| f.id == n)
            .and_then(of)
    };
    match e {
        // The spec's own root, where its own types are written.
        Expr::Name(n) if n == "_root" && t.origin.is_none() => spec.ty(&spec.id),
        Expr::Name(n) => member(t, n),
        Expr::Attr(a, n) => member(value_type(spec, t, a)?, n),
        _ => None,
    }
}

/// The size in bytes of the field `e` names (`footer.op`, `_root.file_header`) where it is
/// fixed: not repeated, not conditional, of a fixed size, not bits.
pub fn fixed_field_size(spec: &Spec, t: &Type, e: &Expr) -> Option<u64> {
    let (owner, name) = match e {
        Expr::Name(n) => (t, n),
        Expr::Attr(a, n) => (value_type(spec, t, a)?, n),
        _ => return None,
    };
    let f = owner.fields.iter().find(|f| &f.id == name)?;
    if !matches!(f.repeat, Repeat::None) || f.cond.is_some() || matches!(f.ty, FieldType::Bits(_)) {
        return None;
    }
    elem_size(spec, f).1
}

/// Whether `e` asks a value of another type for one of its instances or parameters
/// (`header.len_body`), which only a reading answers.
pub fn asks_other_value(spec: &Spec, t: &Type, e: &Expr) -> bool {
    e.any(&|x| match x {
        Expr::Attr(a, n) => value_type(spec, t, a).is_some_and(|u| {
            u.instances.iter().any(|i| &i.id == n)
                || u.parsed.iter().any(|p| &p.id == n)
                || u.params.iter().any(|p| &p.id == n)
        }),
        _ => false,
    })
}
