//! Positions as hand-written code uses them: each positions struct knows its own span, types of
//! fixed layout compute their positions from where they start, and `rt::Place` gets one
//! accessor per field, so checks name fields by method, not by text. The accessors are a trait
//! per type (`XPlace`), since `rt::Place` lives in the runtime crate, where no other crate can
//! add inherent methods; code that steps into fields imports the trait.

use super::names::{self, rt};
use super::{doc, Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

impl<'a> Gen<'a> {
    pub fn place(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let pos = names::pos(t);
        let mut out = quote! {
            impl #rt::Spanned for #pos {
                fn span(&self) -> #rt::Span {
                    self._span
                }
            }
        };
        if fixed_layout(self.spec, t) {
            out.extend(self.fixed(t));
        }
        let mut sigs = vec![];
        let mut accessors = vec![];
        for f in &t.fields {
            if names::PLACE_RESERVED.contains(&f.id.as_str()) {
                return Err(format!(
                    "{}.{}: `{}` is a name rt::Place uses for itself; give the field another id",
                    t.name, f.id, f.id
                ));
            }
            let id = names::ident(&f.id);
            let ty = self.pos_field(t, f);
            let name = &f.id;
            let d = doc(&format!("The place of `{}`.", f.id));
            sigs.push(quote! {
                #d
                fn #id(&self) -> #rt::Place<'_, #ty>;
            });
            accessors.push(quote! {
                #[inline]
                fn #id(&self) -> #rt::Place<'_, #ty> {
                    self.field(#name, &self.get().#id)
                }
            });
        }
        if !accessors.is_empty() {
            let place = names::place(t);
            let d = doc(&format!(
                "The places of the fields of a [`{}`]: `rt::Place`'s accessors for [`{pos}`].",
                t.rust
            ));
            out.extend(quote! {
                #d
                pub trait #place {
                    #(#sigs)*
                }
                impl #place for #rt::Place<'_, #pos> {
                    #(#accessors)*
                }
            });
        }
        Ok(out)
    }

    /// `rt::Fixed` for a type whose every field lies at a fixed offset.
    fn fixed(&self, t: &Type) -> TokenStream {
        let rt = rt();
        let pos = names::pos(t);
        let size = t.fixed_size.expect("fixed layouts have a fixed size");
        let offs = static_bit_offsets(self.spec, t);
        let groups = bit_groups(t);
        let fields = t.fields.iter().enumerate().map(|(fi, f)| {
            let id = names::ident(&f.id);
            let (at, len) = match groups.iter().find(|g| (g.0..g.0 + g.1).contains(&fi)) {
                Some(&(first, _, bits)) => (offs[first].expect("fixed") / 8, u64::from(bits) / 8),
                None => (
                    offs[fi].expect("fixed") / 8,
                    field_size(self.spec, f).1.expect("fixed"),
                ),
            };
            let ty = self.pos_elem(t, f);
            quote!(#id: <#ty as #rt::Fixed>::at(start + #at, #len))
        });
        quote! {
            impl #rt::Fixed for #pos {
                fn at(start: u64, _size: u64) -> Self {
                    #pos { _span: #rt::Span::new(start, start + #size), #(#fields),* }
                }
            }
        }
    }
}
