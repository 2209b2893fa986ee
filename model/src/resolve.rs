//! What a loaded spec must satisfy beyond its syntax, and what the outputs need computed:
//! names resolve, enums get their integer types, counts and sizes to recompute, measured
//! fields, sizes, the byte-order and stream rules, documented offsets that agree.

use crate::expr::Expr;
use crate::load::R;
use crate::*;
use std::collections::BTreeSet;

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

/// Checks names and computes what the outputs need: counts to recompute, sizes, enum types.
pub(crate) fn resolve(spec: &mut Spec) -> R<()> {
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
