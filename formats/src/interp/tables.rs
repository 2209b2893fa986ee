//! The spec's facts for programs, built from the model when a spec is loaded: the
//! `rt::TypeInfo` and `rt::FieldInfo` rows the generator writes as constants
//! (`codegen/src/emit/meta.rs`), and the relations as `rt::Rule`s. The runtime's API takes
//! them as `&'static`; they are leaked once per loaded spec, which the loader caches by its
//! text (loading the same spec again leaks nothing more).

use super::eval::{Env, Scope, CE};
use super::value::by_int;
use crate::rt::meta::{Arguments, Condition, Nested};
use crate::rt::{FieldInfo, Rule, TypeInfo};
use meshspec_model::*;
use std::sync::OnceLock;

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The type as the spec writes it (`u2`, `vertex[]`, `bytes?`).
fn ty_text(f: &Field) -> String {
    let mut s = match &f.ty {
        FieldType::Prim(p) => match &f.enum_name {
            Some(e) => format!("{} ({e})", p.ksy()),
            None => p.ksy(),
        },
        FieldType::Bits(n) => format!("b{n}"),
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => r.name.clone(),
        FieldType::Bytes(_) => "bytes".into(),
        FieldType::Str { .. } => "str".into(),
        FieldType::Strz { .. } => "strz".into(),
        FieldType::Contents(_) => "contents".into(),
        FieldType::Switch { .. } => "switch".into(),
    };
    if !matches!(f.repeat, Repeat::None) {
        s.push_str("[]");
    }
    if f.cond.is_some() {
        s.push('?');
    }
    s
}

/// The parameter values `p` as the parameters' types hold them, or `None` when one is missing
/// or does not fit (as the generated functions bind them).
fn bind(prims: &[Prim], p: &[i128]) -> Option<Vec<i128>> {
    let mut it = p.iter();
    prims
        .iter()
        .map(|prim| {
            let v = *it.next()?;
            let fits = by_int!(prim, T => T::try_from(v).is_ok());
            fits.then_some(v)
        })
        .collect()
}

/// The `TypeInfo` of every type of `spec`, in spec order.
pub(super) fn infos(spec: &'static Spec) -> Vec<&'static TypeInfo> {
    let index = |name: &str| spec.type_index(name);
    // A type may hold itself: each nested type is found through its slot, filled below.
    let slots: &'static [OnceLock<&'static TypeInfo>] = Box::leak(
        (0..spec.types.len())
            .map(|_| OnceLock::new())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    static NONE: TypeInfo = TypeInfo {
        name: "",
        doc: "",
        confidence: None,
        params: &[],
        fields: &[],
    };
    let mut out = vec![];
    for t in &spec.types {
        // What the generated functions over parameters can see: the parameters alone.
        let sc = Scope {
            spec,
            index: &index,
            ty: t,
            visible: 0,
            underscore: None,
            in_repeat: false,
            measured_before: None,
            fallible: false,
            this: None,
        };
        let prims: Vec<Prim> = t.params.iter().map(|p| p.prim).collect();
        let fields: Vec<FieldInfo> = t
            .fields
            .iter()
            .map(|f| {
                let when = f.cond.as_ref().map(|c| -> Condition {
                    match sc.bool_of(c) {
                        Ok(ce) => {
                            let prims = prims.clone();
                            leak(move |p: &[i128]| -> Option<bool> {
                                Env::params(&bind(&prims, p)?).bool(&ce).ok()
                            })
                        }
                        Err(_) => &|_: &[i128]| None,
                    }
                });
                let of = match &f.ty {
                    FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => index(&r.name)
                        .map(|target| {
                            let slot = &slots[target];
                            let args: Option<Vec<CE>> =
                                r.args.iter().map(|a| sc.int_of(a).ok()).collect();
                            let args: Arguments = match args {
                                Some(ces) => {
                                    let prims = prims.clone();
                                    leak(move |p: &[i128]| -> Option<Vec<i128>> {
                                        let vals = bind(&prims, p)?;
                                        let env = Env::params(&vals);
                                        ces.iter().map(|c| env.int(c).ok()).collect()
                                    })
                                }
                                None => &|_: &[i128]| None,
                            };
                            Nested {
                                info: leak(move || slot.get().copied().unwrap_or(&NONE)),
                                args,
                            }
                        }),
                    _ => None,
                };
                FieldInfo {
                    id: f.id.as_str(),
                    ty: leak_str(ty_text(f)),
                    orig_id: f.orig_id.as_deref(),
                    confidence: f.confidence,
                    offset: f.offset.as_ref().map(|e| leak_str(e.to_string())),
                    evidence: f.evidence.as_deref(),
                    reading: f.reading.as_deref(),
                    doc: f.doc.as_deref().unwrap_or(""),
                    when,
                    of,
                    size: match f.ty {
                        FieldType::Bits(_) => None,
                        _ => elem_size(spec, f).1,
                    },
                    count: match &f.repeat {
                        Repeat::Expr(e) => e.literal().and_then(|n| u64::try_from(n).ok()),
                        _ => None,
                    },
                }
            })
            .collect();
        let params: Vec<&'static str> = t.params.iter().map(|p| p.id.as_str()).collect();
        out.push(leak(TypeInfo {
            name: t.name.as_str(),
            doc: t.doc.as_deref().unwrap_or(""),
            confidence: t.confidence,
            params: Box::leak(params.into_boxed_slice()),
            fields: Box::leak(fields.into_boxed_slice()),
        }));
    }
    for (slot, info) in slots.iter().zip(&out) {
        let _ = slot.set(info);
    }
    out
}

/// Every relation of every type of the spec, as a rule, and whether the spec states it as an
/// expression.
pub(super) fn relations(spec: &'static Spec) -> Vec<(&'static Rule, bool)> {
    spec.types
        .iter()
        .flat_map(|t| {
            t.relations.iter().map(move |r| {
                let rule: &'static Rule = leak(Rule {
                    id: r.id.as_str(),
                    owner: t.name.as_str(),
                    confidence: r.confidence,
                    severity: r.severity,
                });
                (rule, r.stated())
            })
        })
        .collect()
}

/// The rules, of `all` ([`relations`]), that the types a value of `t` holds state.
pub(super) fn rules(
    spec: &'static Spec,
    t: &Type,
    all: &[(&'static Rule, bool)],
) -> &'static [&'static Rule] {
    let rules: Vec<&'static Rule> = reachable(spec, &t.name)
        .into_iter()
        .flat_map(|x| {
            all.iter()
                .filter(move |(r, _)| r.owner == x.name)
                .map(|(r, _)| *r)
        })
        .collect();
    Box::leak(rules.into_boxed_slice())
}
