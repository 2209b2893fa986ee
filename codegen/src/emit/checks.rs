//! The warnings pass: a field's own check (`valid`) that the documents do not call proven is
//! not the reader's to refuse; a generated pass over the view and its positions reports each
//! failure as a warning at the field's offset and path.

use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

impl<'a> Gen<'a> {
    /// Whether a value of `t` can hold a warning-level check.
    pub fn has_warnings(&self, t: &Type) -> bool {
        reachable(self.spec, &t.name).into_iter().any(|u| {
            u.fields
                .iter()
                .any(|f| f.check_severity == Some(Severity::Warning))
        })
    }

    /// `Codec::warnings` for `t`, or nothing (the default reports none).
    pub fn warnings_fn(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        if !self.has_warnings(t) {
            return Ok(quote!());
        }
        let mut body = vec![];
        for (fi, f) in t.fields.iter().enumerate() {
            let id = names::ident(&f.id);
            // The field's own check.
            if f.check_severity == Some(Severity::Warning) {
                let check = self.check_code(t, fi, quote!(_v), fi)?;
                let one = quote! {
                    if let Err(e) = (|| -> #rt::Result<()> { let _at = 0u64; #check Ok(()) })() {
                        out.push(e.placed(_place.span().start, _place.field_path()).with_severity(#rt::Severity::Warning));
                    }
                };
                body.push(self.each(t, f, &id, one)?);
            }
            // The checks inside the field's values.
            let inner = match &f.ty {
                FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                    let target = names::ty(self.spec, &r.name);
                    if !self.has_warnings(target) {
                        continue;
                    }
                    let o = names::owned(target);
                    if boxed(self.spec, t, f) {
                        quote!(<#o as #rt::Codec>::warnings(&**_v, &_place.unboxed(), out);)
                    } else {
                        quote!(<#o as #rt::Codec>::warnings(_v, &_place, out);)
                    }
                }
                FieldType::Switch { .. } => {
                    let vname = self.switch_view_name(t, f);
                    let pname = names::switch_pos(t, f);
                    let targets = self.switch_targets(f).into_iter();
                    let arms: Vec<_> = targets.filter(|x| self.has_warnings(x)).map(|x| {
                        let o = names::owned(x);
                        quote! {
                            (#vname::#o(v), #pname::#o(p)) => <#o as #rt::Codec>::warnings(v, &_place.case(p), out),
                        }
                    }).collect();
                    if arms.is_empty() {
                        continue;
                    }
                    quote!(match (_v, _place.get()) { #(#arms)* _ => {} })
                }
                _ => continue,
            };
            body.push(self.each(t, f, &id, inner)?);
        }
        let view = self.view_name(t);
        let fields = names::stored(t);
        Ok(quote! {
            fn warnings(view: &Self::Ref<'_>, at: &#rt::Place<'_, Self::Pos>, out: &mut ::std::vec::Vec<#rt::Error>) {
                let #view { #(#fields,)* .. } = view;
                #(#body)*
            }
        })
    }

    /// Runs `code` for every value of field `f` (bound to `_v`, a reference, with `_place`
    /// its place and `_i` its index in a list).
    fn each(
        &self,
        t: &Type,
        f: &Field,
        id: &proc_macro2::Ident,
        code: TokenStream,
    ) -> R<TokenStream> {
        let one = match list_kind(self.spec, t, f) {
            None => quote!({ #code }),
            Some(ListKind::Nums(_) | ListKind::Blocks(_) | ListKind::Chunks(_)) => quote! {
                for (_i, _e) in _v.iter().enumerate() {
                    let _v = &_e;
                    let _place = _place.at(_i);
                    #code
                }
            },
            Some(ListKind::Each) => quote! {
                for (_i, _v) in _v.iter().enumerate() {
                    let _place = _place.at(_i);
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
