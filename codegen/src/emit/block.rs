//! `rt::pod::Block` for types made only of numbers at fixed offsets: decoded from and encoded
//! into one block, so lists of them are views of the input.

use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

impl<'a> Gen<'a> {
    pub fn block(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let Some(offs) = block_offsets(t) else {
            return Ok(quote!());
        };
        let size = t.fixed_size.expect("block types have a fixed size") as usize;
        let owned = names::owned(t);
        let mut decode = vec![];
        let mut checks = vec![];
        let mut encode = vec![];
        for (fi, (f, &off)) in t.fields.iter().zip(&offs).enumerate() {
            let FieldType::Prim(p) = f.ty else {
                unreachable!("block fields are numbers")
            };
            let off = off as usize;
            let off64 = off as u64;
            let ty = names::prim(p);
            let e = names::endian(self.spec, t, p);
            let id = names::ident(&f.id);
            let name = &f.id;
            let get = quote!(#rt::pod::get::<#ty>(_b, #off, #e));
            let get = match &f.enum_name {
                Some(en) => {
                    let en = names::enum_ty(self.spec, en);
                    quote!(#en(#get))
                }
                None => get,
            };
            decode.push(quote!(let #id = #get;));
            let valid_r = self.valid_code(t, fi, quote!(_v), false)?;
            if !valid_r.is_empty() {
                checks.push(quote! {
                    #rt::field(#name, || { let _at = _start + #off64; let _v = #get; #valid_r Ok(()) })?;
                });
            }
            let valid_w = self.valid_code(t, fi, quote!(_v), true)?;
            if !valid_w.is_empty() {
                encode.push(quote! {
                    #rt::field(#name, || { let _at = _start + #off64; let _v = #id; #valid_w Ok(()) })?;
                });
            }
            let v = if f.enum_name.is_some() {
                quote!(#id.0)
            } else {
                quote!(*#id)
            };
            encode.push(quote!(#rt::pod::set::<#ty>(_b, #off, #v, #e);));
        }
        let checked = !checks.is_empty();
        let ids: Vec<_> = t.fields.iter().map(|f| names::ident(&f.id)).collect();
        Ok(quote! {
            impl #rt::pod::Block for #owned {
                const SIZE: usize = #size;
                const CHECKED: bool = #checked;
                #[inline]
                fn decode(_b: &[u8]) -> Self {
                    #(#decode)*
                    Self { #(#ids),* }
                }
                #[inline]
                fn check(_b: &[u8], _start: u64) -> #rt::Result<()> {
                    #(#checks)*
                    Ok(())
                }
                // (Inlined into the loop over a run of blocks: a call per record was most of a
                // run's cost.)
                #[inline]
                fn encode(&self, _b: &mut [u8], _start: u64) -> #rt::Result<()> {
                    let Self { #(#ids),* } = self;
                    #(#encode)*
                    Ok(())
                }
            }
        })
    }
}
