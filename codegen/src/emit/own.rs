//! The owned value made from a view: every view copied out, so that a value for editing and
//! dumping comes from the one reader.

use super::names;
use super::{doc, Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// `ts` as one operand, whatever follows (an invisible group, so no parentheses are printed).
fn grouped(ts: TokenStream) -> TokenStream {
    let g = proc_macro2::Group::new(proc_macro2::Delimiter::None, ts);
    quote!(#g)
}

impl<'a> Gen<'a> {
    /// Copies one element `x` (a reference to the view's element) of field `f`.
    fn own_elem(&self, t: &Type, f: &Field, x: TokenStream) -> TokenStream {
        match &f.ty {
            FieldType::Bytes(_) => quote!(#x.to_vec()),
            FieldType::Str { .. } | FieldType::Strz { .. } => quote!(#x.to_string()),
            FieldType::User(_) | FieldType::SizedUser { .. } => {
                let inner = self.own_value(self.user_target(f), &x);
                if boxed(self.spec, t, f) {
                    quote!(::std::boxed::Box::new(#inner))
                } else {
                    inner
                }
            }
            FieldType::Switch { .. } if self.switch_borrows(f) => quote!(#x.own()),
            _ => quote!(::std::clone::Clone::clone(#x)),
        }
    }

    /// Copies `x`, a reference to a value of `t` as read (its view, or the owned value).
    pub fn own_value(&self, t: &Type, x: &TokenStream) -> TokenStream {
        if self.borrows(t) {
            quote!(#x.own())
        } else {
            quote!(::std::clone::Clone::clone(#x))
        }
    }

    fn own_field(&self, t: &Type, f: &Field) -> TokenStream {
        let id = names::ident(&f.id);
        let one = |x: TokenStream| match list_kind(self.spec, t, f) {
            None => self.own_elem(t, f, x),
            Some(ListKind::Nums(_) | ListKind::Blocks(_) | ListKind::Chunks(_)) => {
                quote!(#x.to_vec())
            }
            Some(ListKind::Each) => {
                let e = self.own_elem(t, f, quote!(_e));
                quote!(#x.iter().map(|_e| #e).collect())
            }
        };
        if f.cond.is_some() {
            let e = one(quote!(_x));
            quote!(self.#id.as_ref().map(|_x| #e))
        } else {
            one(grouped(quote!(&self.#id)))
        }
    }

    /// `own()` on the view of `t` (and on its switch views).
    pub fn own(&self, t: &'a Type) -> R<TokenStream> {
        let mut out = quote!();
        for f in &t.fields {
            if !matches!(f.ty, FieldType::Switch { .. }) || !self.switch_borrows(f) {
                continue;
            }
            let view = names::switch_view(t, f);
            let owned = names::switch_owned(t, f);
            let arms = self.switch_targets(f).into_iter().map(|x| {
                let v = names::owned(x);
                let e = self.own_value(x, &quote!(x));
                quote!(#view::#v(x) => #owned::#v(#e))
            });
            out.extend(quote! {
                impl #view<'_> {
                    /// The owned value (copies every view).
                    pub fn own(&self) -> #owned {
                        match self { #(#arms),* }
                    }
                }
            });
        }
        if !self.borrows(t) {
            return Ok(out);
        }
        let view = names::view(t);
        let owned = names::owned(t);
        let fields = t.stored().map(|f| {
            let id = names::ident(&f.id);
            let e = self.own_field(t, f);
            quote!(#id: #e)
        });
        let d = doc(&format!("The owned [`{}`] (copies every view).", t.rust));
        out.extend(quote! {
            impl #view<'_> {
                #d
                pub fn own(&self) -> #owned {
                    #owned { #(#fields),* }
                }
            }
        });
        Ok(out)
    }
}
