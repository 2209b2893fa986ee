//! Field checks (`valid`): the refusing ones the reader and the writer make where the value is
//! (`codegen/src/emit/shape.rs`, `check_code`), and the checks pass over a reading
//! (`codegen/src/emit/checks.rs`): the warning-level field checks, each failure at its field's
//! offset and path, and the relations the spec states as expressions, each violation at its
//! place with its rule's severity.

use super::eval::Env;
use super::plan::{Check, Elem, Found, Plan, RelationPlan, Test};
use super::value::{Pos, Val};
use super::walk::{elements, fixed_at};
use crate::rt::{codec, Error, ErrorKind, Path, Result, Seg, Severity};
use std::borrow::Cow;

/// Whether `v` passes check `c`, with `env` giving the other names; the error at `at`
/// otherwise.
pub(super) fn run<'a>(c: &Check, v: &Val<'a>, env: &Env<'_, 'a>, at: u64) -> Result<()> {
    let env = Env {
        under: Some(v),
        ..*env
    };
    let under = v.int();
    let holds = match &c.test {
        Test::Eq(x) => under == env.int(x)?,
        Test::Range(lo, hi) => {
            (match lo {
                Some(lo) => under >= env.int(lo)?,
                None => true,
            }) && (match hi {
                Some(hi) => under <= env.int(hi)?,
                None => true,
            })
        }
        Test::AnyOf(xs) => {
            let mut any = false;
            for x in xs {
                if under == env.int(x)? {
                    any = true;
                    break;
                }
            }
            any
        }
        Test::Expr(e) => env.bool(e)?,
    };
    if holds {
        return Ok(());
    }
    let found = match c.found {
        Found::Int { hex: true, width } => codec::show_hex(under, width),
        Found::Int { hex: false, .. } => under.to_string(),
        Found::Bool => (under != 0).to_string(),
        Found::Other => "a value that is not".to_string(),
    };
    Err(Error::new(ErrorKind::Invalid, at, &c.expected, found))
}

/// The checks pass over a value of type `ty` read with positions `pos` at `path`
/// (`Codec::checks`): the field checks the spec makes warnings, then the type's relations
/// stated as expressions.
pub(super) fn checks(
    plan: &Plan,
    ty: usize,
    v: &Val<'_>,
    pos: &Pos,
    path: &mut Path,
    out: &mut Vec<Error>,
) {
    let tp = &plan.types[ty];
    let (Val::Struct(vals), Pos::Struct(sp)) = (v, pos) else {
        return;
    };
    for (fi, fp) in tp.fields.iter().enumerate() {
        let own = fp
            .valid
            .as_ref()
            .filter(|c| c.severity == Severity::Warning);
        let inner = match &fp.elem {
            Elem::User { ty, .. } | Elem::Sized { ty, .. } => plan.types[*ty].has_checks,
            Elem::Switch(sw) => sw.variants.iter().any(|t| plan.types[*t].has_checks),
            _ => false,
        };
        if own.is_none() && !inner {
            continue;
        }
        let (Some(val), Some(p)) = (vals.get(fi), sp.fields.get(fi)) else {
            continue;
        };
        if matches!(val, Val::Absent) || matches!(p, Pos::Absent) {
            continue;
        }
        path.push(Seg::Field(Cow::Borrowed(fp.id)));
        let mut one = |e: &Val<'_>, ep: &Pos, index: usize, path: &mut Path| {
            if let Some(c) = own {
                let env = Env {
                    fields: vals,
                    index,
                    start: sp.span.start,
                    ..Env::params(&[])
                };
                if let Err(err) = run(c, e, &env, 0) {
                    out.push(
                        err.placed(ep.span().start, path)
                            .with_severity(Severity::Warning),
                    );
                }
            }
            if inner {
                match (&fp.elem, e) {
                    (Elem::Switch(sw), Val::Case(variant, case)) => {
                        if let Some(t) = sw.variants.get(*variant) {
                            checks(plan, *t, case, ep, path, out);
                        }
                    }
                    (Elem::User { ty, .. } | Elem::Sized { ty, .. }, _) => {
                        checks(plan, *ty, e, ep, path, out)
                    }
                    _ => {}
                }
            }
        };
        if fp.list.is_none() {
            one(val, p, 0, path);
        } else {
            for (i, e) in elements(plan, fp, val).enumerate() {
                let ep = element_pos(plan, fp, p, i);
                path.push(Seg::Index(i));
                one(&e, &ep, i, path);
                path.pop();
            }
        }
        path.pop();
    }
    for r in &tp.relations {
        let env = Env {
            fields: vals,
            start: sp.span.start,
            ..Env::params(&[])
        };
        match (r.each, r.at) {
            (Some(fi), _) => {
                let (fp, (Some(val), Some(p))) =
                    (&tp.fields[fi], (vals.get(fi), sp.fields.get(fi)))
                else {
                    continue;
                };
                path.push(Seg::Field(Cow::Borrowed(fp.id)));
                for (i, e) in elements(plan, fp, val).enumerate() {
                    let ep = element_pos(plan, fp, p, i);
                    path.push(Seg::Index(i));
                    let env = Env {
                        index: i,
                        under: Some(&e),
                        ..env
                    };
                    relation(r, &env, ep.span().start, path, out);
                    path.pop();
                }
                path.pop();
            }
            (None, Some(fi)) => {
                let Some(p) = sp.fields.get(fi).filter(|p| !matches!(p, Pos::Absent)) else {
                    continue;
                };
                path.push(Seg::Field(Cow::Borrowed(tp.fields[fi].id)));
                relation(r, &env, p.span().start, path, out);
                path.pop();
            }
            (None, None) => relation(r, &env, sp.span.start, path, out),
        }
    }
}

/// Relation `r` evaluated with `env` (the generated `relation_check`): nothing when it holds;
/// otherwise its violation, what it expected with the other numbers it reads, and what was
/// found (the element or field it is placed at); an evaluation that fails (a conditional field
/// absent) is reported where the violation would be.
fn relation(r: &RelationPlan, env: &Env<'_, '_>, at: u64, path: &Path, out: &mut Vec<Error>) {
    let said = (|| -> Result<Option<(String, String)>> {
        if env.bool(&r.cond)? {
            return Ok(None);
        }
        let mut context = vec![];
        for (name, ce, subject) in &r.terms {
            if !subject {
                context.push(format!("{name} = {}", env.int(ce)?));
            }
        }
        let mut found = vec![];
        for (name, ce, subject) in &r.terms {
            if *subject {
                found.push((name.as_str(), env.int(ce)?));
            }
        }
        let expected = if context.is_empty() {
            r.text.clone()
        } else {
            format!("{} with {}", r.text, context.join(", "))
        };
        let found = match found.as_slice() {
            [] => "values that do not satisfy it".to_string(),
            [(name, v)] if *name == "_" || Some(*name) == r.placed_at => v.to_string(),
            more => more
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        Ok(Some((expected, found)))
    })();
    match said {
        Ok(None) => {}
        Ok(Some((expected, found))) => {
            out.push(Error::relation(r.rule, 0, expected, found).placed(at, path))
        }
        Err(e) => out.push(e.placed(at, path)),
    }
}

/// The positions of element `i` of a list whose positions are `p` (computed from base and
/// stride, or recorded; empty past the end, as `rt::Place::at` gives).
pub(super) fn element_pos(plan: &Plan, fp: &super::plan::FieldPlan, p: &Pos, i: usize) -> Pos {
    match p {
        Pos::Strided { base, stride, .. } => {
            let start = base + stride * i as u64;
            match &fp.elem {
                Elem::User { ty, .. } => fixed_at(plan, *ty, start),
                _ => Pos::Span(crate::rt::Span::new(start, start + stride)),
            }
        }
        Pos::Each { items, .. } => items.get(i).cloned().unwrap_or_default(),
        _ => Pos::Absent,
    }
}
