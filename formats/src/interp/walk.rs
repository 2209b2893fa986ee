//! The two walks over a reading, in the generated order (`codegen/src/emit/meta.rs`): its
//! positions (every field with its path, span and spec facts: `rt::Walk`) and its values (a
//! `rt::Visitor`'s calls, for the census).

use super::plan::{Elem, FieldPlan, List, Plan};
use super::read::decode_block;
use super::value::{num, runs, Pos, StructPos, Val};
use crate::rt::{FieldInfo, Path, Scalar, Seg, Span, TypeInfo, Visitor};
use std::borrow::Cow;

/// What `walk` calls for every field.
pub(crate) type WalkFn<'a> = crate::reading::WalkFn<'a>;

/// The positions of a value of fixed-layout type `ty` that starts at `start` (`rt::Fixed`).
pub(super) fn fixed_at(plan: &Plan, ty: usize, start: u64) -> Pos {
    let tp = &plan.types[ty];
    let Some(fixed) = &tp.fixed else {
        return Pos::Absent;
    };
    let size = tp.t.fixed_size.unwrap_or(0);
    let fields = tp
        .fields
        .iter()
        .zip(fixed)
        .map(|(fp, &(off, len))| match &fp.elem {
            Elem::User { ty, .. } => fixed_at(plan, *ty, start + off),
            _ => Pos::Span(Span::new(start + off, start + off + len)),
        })
        .collect();
    Pos::Struct(StructPos {
        ty,
        span: Span::new(start, start + size),
        fields,
    })
}

/// The elements of a list field's value, whichever way it is held.
pub(super) fn elements<'v>(
    plan: &'v Plan,
    fp: &'v FieldPlan,
    v: &'v Val<'_>,
) -> Box<dyn Iterator<Item = Cow<'v, Val<'v>>> + 'v> {
    match v {
        Val::List(vs) => Box::new(vs.iter().map(Cow::Borrowed)),
        Val::Nums(n) => Box::new(
            n.bytes
                .chunks_exact(usize::from(n.prim.bytes))
                .map(move |b| Cow::Owned(num(n.prim, n.endian, b))),
        ),
        Val::Blocks(b, size) => {
            let ty = match fp.list {
                Some(List::Blocks { ty, .. }) => ty,
                _ => return Box::new(std::iter::empty()),
            };
            let tp = &plan.types[ty];
            Box::new(runs(b, *size).map(move |c| Cow::Owned(decode_block(tp, c))))
        }
        Val::Chunks(b, size) => {
            Box::new(runs(b, *size).map(|b| Cow::Owned(Val::Bytes(Cow::Borrowed(b)))))
        }
        _ => Box::new(std::iter::empty()),
    }
}

/// Every field of the value whose positions are `sp`, below `path`, as `rt::Walk::walk`.
pub(super) fn walk(
    plan: &Plan,
    infos: &[&'static TypeInfo],
    sp: &StructPos,
    path: &mut Path,
    visit: &mut WalkFn<'_>,
) {
    let tp = &plan.types[sp.ty];
    let f = infos[sp.ty].fields;
    for (i, fp) in tp.fields.iter().enumerate() {
        let Some(p) = sp.fields.get(i) else { continue };
        if fp.f.cond.is_some() && matches!(p, Pos::Absent) {
            continue;
        }
        let info: &'static FieldInfo = &f[i];
        path.push(Seg::Field(Cow::Borrowed(fp.id)));
        if fp.repeated() {
            visit(path, p.span(), info, false);
            let n = match p {
                Pos::Strided { count, .. } => *count,
                Pos::Each { items, .. } => items.len(),
                _ => 0,
            };
            for e in 0..n {
                let ep = super::check::element_pos(plan, fp, p, e);
                path.push(Seg::Index(e));
                visit(path, ep.span(), info, !fp.holds);
                if let Pos::Struct(s) = &ep {
                    walk(plan, infos, s, path, visit);
                }
                path.pop();
            }
        } else {
            visit(path, p.span(), info, !fp.holds);
            if let Pos::Struct(s) = p {
                walk(plan, infos, s, path, visit);
            }
        }
        path.pop();
    }
}

/// A leaf value as a visitor sees it.
fn scalar<'v>(fp: &FieldPlan, v: &'v Val<'_>) -> Option<Scalar<'v>> {
    Some(match (v, &fp.elem) {
        (_, Elem::Contents(c)) => Scalar::Bytes(c),
        (Val::U(u), _) => Scalar::U(*u),
        (Val::I(i), _) => Scalar::I(*i),
        (Val::F32(x), _) => Scalar::F(f64::from(*x)),
        (Val::F64(x), _) => Scalar::F(*x),
        (Val::Bool(b), _) => Scalar::Bool(*b),
        (Val::Bytes(b), _) => Scalar::Bytes(b),
        (Val::Str(s), _) => Scalar::Str(s),
        _ => return None,
    })
}

/// Whether the field's values are numbers, bytes or text.
fn leafy(fp: &FieldPlan) -> bool {
    !fp.holds
}

/// Every field of value `v` of type `ty` shown to `vis`, as the generated `Codec::visit`.
pub(super) fn visit(
    plan: &Plan,
    infos: &[&'static TypeInfo],
    ty: usize,
    v: &Val<'_>,
    vis: &mut dyn Visitor,
) {
    let tp = &plan.types[ty];
    let f = infos[ty].fields;
    let vals = v.fields();
    let all = if tp.proven_leaves {
        vis.proven_leaves()
    } else {
        true
    };
    for (i, fp) in tp.fields.iter().enumerate() {
        const ABSENT: &Val<'static> = &Val::Absent;
        let x = vals.get(i).unwrap_or(ABSENT);
        let info: &'static FieldInfo = &f[i];
        let single = fp.f.cond.is_none() && fp.list.is_none();
        if single && leafy(fp) {
            if fp.proven_leaf && !all {
                continue;
            }
            if let Some(s) = scalar(fp, x) {
                vis.leaf(info, s);
            }
            continue;
        }
        if fp.proven_leaf && !all {
            continue;
        }
        if !vis.enter(info) {
            continue;
        }
        if fp.f.cond.is_some() {
            if !matches!(x, Val::Absent) {
                vis.present();
                inner(plan, infos, fp, x, vis);
            }
        } else {
            inner(plan, infos, fp, x, vis);
        }
        vis.leave();
    }
}

/// What a field holds, shown to the visitor (inside its `enter` and `leave`).
fn inner(
    plan: &Plan,
    infos: &[&'static TypeInfo],
    fp: &FieldPlan,
    x: &Val<'_>,
    vis: &mut dyn Visitor,
) {
    if fp.list.is_none() {
        element(plan, infos, fp, x, vis);
        return;
    }
    for (i, e) in elements(plan, fp, x).enumerate() {
        if !vis.index(i) {
            break;
        }
        match &fp.list {
            Some(List::Blocks { ty, .. }) => visit(plan, infos, *ty, &e, vis),
            _ => element(plan, infos, fp, &e, vis),
        }
    }
}

/// One element of a field, shown to the visitor.
fn element(
    plan: &Plan,
    infos: &[&'static TypeInfo],
    fp: &FieldPlan,
    x: &Val<'_>,
    vis: &mut dyn Visitor,
) {
    match (&fp.elem, x) {
        (Elem::User { ty, .. } | Elem::Sized { ty, .. }, _) => visit(plan, infos, *ty, x, vis),
        (Elem::Switch(sw), Val::Case(variant, case)) => {
            if let Some(t) = sw.variants.get(*variant) {
                visit(plan, infos, *t, case, vis);
            }
        }
        _ => {
            if let Some(s) = scalar(fp, x) {
                vis.value(s);
            }
        }
    }
}
