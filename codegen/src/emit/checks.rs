//! The checks pass, over the view and its positions after a reading: a field's own check
//! (`valid`) that the documents do not call proven is not the reader's to refuse, so each
//! failure is a warning at the field's offset and path; and every relation the spec states as
//! an expression (`-check`) is evaluated, each violation at its place (the element `-each`
//! names, the field `-at` names, or the value) with the rule's severity.

use super::expr::{ETy, Val};
use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::expr::Expr;
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

impl<'a> Gen<'a> {
    /// Whether a value of `t` can hold a warning-level check or a relation stated as an
    /// expression.
    pub fn has_checks(&self, t: &Type) -> bool {
        reachable(self.spec, &t.name).into_iter().any(|u| {
            u.fields
                .iter()
                .any(|f| f.check_severity == Some(Severity::Warning))
                || u.relations.iter().any(Relation::stated)
        })
    }

    /// `Codec::checks` for `t`, or nothing (the default reports none).
    pub fn checks_fn(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        if !self.has_checks(t) {
            return Ok(quote!());
        }
        let mut body = vec![];
        for (fi, f) in t.fields.iter().enumerate() {
            let id = names::ident(&f.id);
            // The field's own check.
            if f.check_severity == Some(Severity::Warning) {
                let check = self.check_code(t, fi, quote!(_v), fi)?;
                let here = self.here(t, f);
                let one = quote! {
                    if let Err(e) = (|| -> #rt::Result<()> { let _at = 0u64; #check Ok(()) })() {
                        #here
                        out.push(e.placed(_place.span().start, _place.field_path()).with_severity(#rt::Severity::Warning));
                    }
                };
                body.push(self.each(t, f, &id, one, true)?);
            }
            // The checks inside the field's values.
            let inner = match &f.ty {
                FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                    let target = names::ty(self.spec, &r.name);
                    if !self.has_checks(target) {
                        continue;
                    }
                    let o = names::owned(target);
                    if boxed(self.spec, t, f) {
                        quote!(<#o as #rt::Codec>::checks(&**_v, &_place.unboxed(), out);)
                    } else {
                        quote!(<#o as #rt::Codec>::checks(_v, &_place, out);)
                    }
                }
                FieldType::Switch { .. } => {
                    let vname = self.switch_view_name(t, f);
                    let pname = names::switch_pos(t, f);
                    let targets = self.switch_targets(f).into_iter();
                    let arms: Vec<_> = targets.filter(|x| self.has_checks(x)).map(|x| {
                        let o = names::owned(x);
                        quote! {
                            (#vname::#o(v), #pname::#o(p)) => <#o as #rt::Codec>::checks(v, &_place.case(p), out),
                        }
                    }).collect();
                    if arms.is_empty() {
                        continue;
                    }
                    quote!(match (_v, _place.get()) { #(#arms)* _ => {} })
                }
                _ => continue,
            };
            body.push(self.each(t, f, &id, inner, false)?);
        }
        for r in t.relations.iter().filter(|r| r.stated()) {
            body.push(self.relation_check(t, r)?);
        }
        let view = self.view_name(t);
        let fields = names::stored(t);
        Ok(quote! {
            fn checks(view: &Self::Ref<'_>, at: &#rt::Place<'_, Self::Pos>, out: &mut ::std::vec::Vec<#rt::Error>) {
                let #view { #(#fields,)* .. } = view;
                let _start = at.span().start;
                #(#body)*
            }
        })
    }

    /// The check of relation `r` (its `-check`), for the value or for every element of its
    /// `-each` field: a violation pushed at its place, with the values the expression names
    /// as what was found; an expression that cannot be evaluated (a conditional field that is
    /// absent) is reported where it was.
    fn relation_check(&self, t: &'a Type, r: &Relation) -> R<TokenStream> {
        let rt = rt();
        let check = r.check.as_ref().expect("stated");
        let rule = names::rule(&r.id);
        let mut sc = self.scope(t, t.fields.len());
        sc.fallible = true;
        let element = r
            .each
            .as_ref()
            .map(|e| t.fields.iter().position(|f| &f.id == e).expect("resolved"));
        if let Some(fi) = element {
            let (under, ty) = self.element_value(t, fi, quote!(_v))?;
            sc.underscore = Some((under, ty));
            sc.in_repeat = true;
        }
        let cond = sc.bool_of(check)?;
        // What was found: the element (`-each`) or the field (`-at`) the violation is placed
        // at; the other numbers the expression reads are shown beside what was expected.
        let mut context = vec![];
        let mut found = vec![];
        for term in terms(check) {
            let Ok(Val { code, ty: ETy::Int }) = sc.gen(&term) else {
                continue;
            };
            let name = term.to_string();
            let subject = match (&r.each, &r.placed_at) {
                (Some(_), _) => term.names().first().is_some_and(|n| n == "_"),
                (None, Some(at)) => &name == at,
                (None, None) => false,
            };
            if subject {
                found.push((name, code));
            } else {
                context.push(quote!(::std::format!("{} = {}", #name, #code)));
            }
        }
        let text = check.to_string();
        let expected = if context.is_empty() {
            quote!(::std::string::String::from(#text))
        } else {
            quote!(::std::format!("{} with {}", #text, [#(#context),*].join(", ")))
        };
        let found = match found.as_slice() {
            [] => quote!(::std::string::String::from("values that do not satisfy it")),
            // The element, or the field, is what was found.
            [(name, code)] if name == "_" || Some(name) == r.placed_at.as_ref() => {
                quote!(::std::format!("{}", #code))
            }
            more => {
                let parts = more
                    .iter()
                    .map(|(n, c)| quote!(::std::format!("{} = {}", #n, #c)));
                quote!([#(#parts),*].join(", "))
            }
        };
        // The values shown are read inside the check, where a conditional one may be absent.
        let here = match element {
            Some(fi) => self.here(t, &t.fields[fi]),
            None => quote!(),
        };
        let one = quote! {
            let said = (|| -> #rt::Result<::std::option::Option<(::std::string::String, ::std::string::String)>> {
                if #cond {
                    return Ok(None);
                }
                Ok(Some((#expected, #found)))
            })();
            match said {
                Ok(None) => {}
                Ok(Some((expected, found))) => { #here out.push(_place.violates(Self::#rule, expected, found)) }
                Err(e) => { #here out.push(e.placed(_place.span().start, _place.field_path())) }
            }
        };
        match (element, &r.placed_at) {
            (Some(fi), _) => {
                let f = &t.fields[fi];
                self.each(t, f, &names::ident(&f.id), one, true)
            }
            (None, Some(at)) => {
                let f = t.fields.iter().find(|f| &f.id == at).expect("resolved");
                let id = names::ident(&f.id);
                Ok(if f.cond.is_some() {
                    quote!(if let Some(_place) = at.#id().some() { #one })
                } else {
                    quote!({ let _place = at.#id(); #one })
                })
            }
            (None, None) => Ok(quote!({ let _place = at; #one })),
        }
    }

    /// Binds `_place` to where a value of field `f` lies, inside the code [`Self::each`] runs
    /// with `lazy`: a list's element's place is made only when a check reports it (making one
    /// costs an allocation, and a check passes on almost every element).
    fn here(&self, t: &Type, f: &Field) -> TokenStream {
        match list_kind(self.spec, t, f) {
            None => quote!(),
            Some(_) => quote!(let _place = _place.at(_i);),
        }
    }

    /// Runs `code` for every value of field `f` (bound to `_v`, a reference, and `_i` its
    /// index in a list), with `_place` its place, or with `lazy` the list's place (the code
    /// takes the element's with [`Self::here`]).
    fn each(
        &self,
        t: &Type,
        f: &Field,
        id: &proc_macro2::Ident,
        code: TokenStream,
        lazy: bool,
    ) -> R<TokenStream> {
        let place = if lazy {
            quote!()
        } else {
            quote!(let _place = _place.at(_i);)
        };
        let one = match list_kind(self.spec, t, f) {
            None => quote!({ #code }),
            Some(ListKind::Nums(_) | ListKind::Blocks(_) | ListKind::Chunks(_)) => quote! {
                for (_i, _e) in _v.iter().enumerate() {
                    let _v = &_e;
                    #place
                    #code
                }
            },
            Some(ListKind::Each) => quote! {
                for (_i, _v) in _v.iter().enumerate() {
                    #place
                    #code
                }
            },
        };
        Ok(if f.cond.is_some() {
            quote! {
                if let (Some(_v), Some(_place)) = (#id.as_ref(), at.#id().some()) {
                    #one
                }
            }
        } else {
            quote!({ let _v = #id; let _place = at.#id(); #one })
        })
    }
}

/// The values an expression reads, each once in the order written: its names and its member
/// chains (`_.value`, `header.len_data`), but not `_io` nor `_sizeof`.
fn terms(e: &Expr) -> Vec<Expr> {
    fn walk(e: &Expr, out: &mut Vec<Expr>) {
        match e {
            Expr::Name(n) if n == "_io" || n == "_index" => {}
            Expr::Attr(_, n) if n == "_sizeof" => {}
            Expr::Name(_) | Expr::Attr(..) => {
                if !out.contains(e) {
                    out.push(e.clone());
                }
            }
            other => {
                for c in other.children() {
                    walk(c, out);
                }
            }
        }
    }
    let mut out = vec![];
    walk(e, &mut out);
    out
}
