//! What a layout (a type with `-layout`) tells a reader before any byte is read: its one-line
//! description, the constants that recognise it, the dump paths of the fields it marks unknown,
//! and where its parameters change it. The generator writes them into each `Root` impl; the
//! interpreter states them from the same functions.

use crate::expr::Expr;
use crate::*;
use std::collections::BTreeSet;

/// The first sentence of a doc text.
pub fn first_sentence(s: &str) -> String {
    let s = s.split("\n\n").next().unwrap_or("").replace('\n', " ");
    match s.find(". ") {
        Some(i) => s[..=i].trim().to_string(),
        None => s.trim().to_string(),
    }
}

/// A layout's one line: the spec's title for its root type, else the first sentence of the
/// type's doc (its name without one).
pub fn description(spec: &Spec, t: &Type) -> String {
    if t.name == spec.id {
        spec.title.clone()
    } else {
        first_sentence(t.doc.as_deref().unwrap_or(&t.name))
    }
}

/// The dump paths (`bones[].name_hash`) of every field the spec marks `-confidence: unknown`,
/// reachable from `t`, for `meshspec survey` to tally.
pub fn unknown_paths(spec: &Spec, t: &Type) -> Vec<String> {
    fn walk(spec: &Spec, t: &Type, prefix: &str, stack: &mut Vec<String>, out: &mut Vec<String>) {
        if stack.contains(&t.name) {
            return;
        }
        stack.push(t.name.clone());
        for f in t.stored() {
            let mut path = format!("{prefix}{}", f.id);
            if !matches!(f.repeat, Repeat::None) {
                path.push_str("[]");
            }
            if f.confidence == Some(Confidence::Unknown) {
                out.push(path.clone());
            }
            match &f.ty {
                FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                    if let Some(target) = spec.ty(&r.name) {
                        walk(spec, target, &format!("{path}."), stack, out);
                    }
                }
                FieldType::Switch { cases, .. } => {
                    for (_, r) in cases {
                        if let Some(target) = spec.ty(&r.name) {
                            let prefix = format!("{path}.{}.", target.rust);
                            walk(spec, target, &prefix, stack, out);
                        }
                    }
                }
                _ => {}
            }
        }
        stack.pop();
    }
    let mut out = vec![];
    walk(spec, t, "", &mut vec![], &mut out);
    out.dedup();
    out
}

/// The constants a value of `t` holds at fixed offsets from its start (a `contents` magic, or a
/// number whose `valid` is one value and whose check refuses), outermost type first: what
/// recognises a file of the layout before it is read.
pub fn signature(spec: &Spec, t: &Type) -> Vec<(u64, Vec<u8>)> {
    fn walk(spec: &Spec, t: &Type, base: u64, depth: u32, out: &mut Vec<(u64, Vec<u8>)>) {
        if depth > 4 {
            return;
        }
        for (f, bits) in t.fields.iter().zip(static_bit_offsets(spec, t)) {
            let Some(at) = bits.filter(|b| b % 8 == 0).map(|b| base + b / 8) else {
                return;
            };
            if !matches!(f.repeat, Repeat::None) || f.cond.is_some() {
                continue;
            }
            let refuses = f.check_severity == Some(Severity::Error);
            match (&f.ty, &f.valid) {
                (FieldType::Contents(c), _) if refuses => out.push((at, c.clone())),
                (FieldType::Prim(p), Some(Valid::Eq(e))) if refuses && p.kind != PrimKind::F => {
                    if let Some(v) = e.literal() {
                        out.push((at, p.stored(v, spec.endian)));
                    }
                }
                (FieldType::User(r), _) => {
                    if let Some(target) = spec.ty(&r.name) {
                        walk(spec, target, at, depth + 1, out)
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = vec![];
    walk(spec, t, 0, 0, &mut out);
    out
}

/// Every integer that an expression compares the name `param` with (`param >= 20200100`,
/// `4 == param`), searched through every subexpression.
fn compared_with(e: &Expr, param: &str, out: &mut BTreeSet<i128>) {
    e.walk(&mut |x| {
        let Expr::Binary(op, a, b) = x else { return };
        match (&**a, &**b) {
            (Expr::Name(n), Expr::Int { value, .. }) | (Expr::Int { value, .. }, Expr::Name(n))
                if op.is_compare() && n == param =>
            {
                out.insert(*value);
            }
            _ => {}
        }
    });
}

/// Every integer that a type of the spec with a parameter named `param` compares it with: the
/// values at which the layout changes (`if: unity_version >= 20200100`), in order.
pub fn cut_offs(spec: &Spec, param: &str) -> BTreeSet<i128> {
    let mut found = BTreeSet::new();
    for t in &spec.types {
        if !t.params.iter().any(|p| p.id == param) {
            continue;
        }
        for e in t.fields.iter().flat_map(field_exprs) {
            compared_with(e, param, &mut found);
        }
    }
    found
}

/// The values of a layout parameter worth trying (fuzzing): 0, and every cut-off (see
/// [`cut_offs`]) with its two neighbours, so that both sides of every cut-off are reached. Only
/// values the parameter's type can hold (`max`) are kept.
pub fn param_values(spec: &Spec, param: &str, max: u128) -> Vec<i128> {
    let mut values = BTreeSet::from([0i128]);
    for c in cut_offs(spec, param) {
        values.extend([c - 1, c, c + 1]);
    }
    values
        .into_iter()
        .filter(|&v| v >= 0 && (v as u128) <= max)
        .collect()
}
