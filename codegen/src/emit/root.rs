//! The items around the reader and writer: the `Codec` impl, the facts hand-written code needs
//! (fixed sizes, field offsets, relations as `rt::Rule` constants), instances, and for layouts
//! the `Root` impl.

use super::expr::ETy;
use super::names::{self, rt};
use super::{doc, Gen, Target, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn rule_code(t: &Type, r: &Relation) -> TokenStream {
    let rt = rt();
    let id = &r.id;
    let owner = &t.name;
    let conf = names::confidence(r.confidence);
    let sev = match r.severity {
        Severity::Warning => quote!(#rt::Severity::Warning),
        Severity::Error => quote!(#rt::Severity::Error),
    };
    quote!(&#rt::Rule { id: #id, owner: #owner, confidence: #conf, severity: #sev })
}

impl<'a> Gen<'a> {
    /// Constants and instances.
    pub fn consts(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let owned = names::owned(t);
        let mut items = vec![];
        if let Some(n) = t.fixed_size {
            items.push(quote! {
                /// The bytes every value of this type takes.
                pub const FIXED_SIZE: u64 = #n;
            });
        }
        // Where each field lies when the fields before it have fixed sizes: the facts
        // hand-written code needs, so no offset is stated a second time outside the spec.
        for (f, b) in t.fields.iter().zip(static_bit_offsets(self.spec, t)) {
            let Some(b) = b.filter(|b| b % 8 == 0) else {
                continue;
            };
            let c = format_ident!("OFFSET_{}", f.id.to_ascii_uppercase());
            let at = proc_macro2::Literal::u64_unsuffixed(b / 8);
            let d = doc(&format!(
                "Where `{}` starts, from the start of the type.",
                f.id
            ));
            items.push(quote!(#d pub const #c: u64 = #at;));
        }
        for r in &t.relations {
            let mut d = r.doc.clone();
            if let Some(c) = r.confidence {
                d.push_str(&format!("\n\n{}", c.title()));
                if let Some(e) = &r.evidence {
                    d.push_str(&format!(" ({e})"));
                }
                d.push('.');
            }
            d.push_str(&format!(
                "\n\nA violation is {}",
                match r.severity {
                    Severity::Error => "an error: the input is refused.",
                    Severity::Warning => "a warning: reported, the input passes.",
                }
            ));
            if let Some(why) = &r.severity_reason {
                d.push_str(&format!(" ({why})"));
            }
            let d = doc(&d);
            let c = names::rule(&r.id);
            let code = rule_code(t, r);
            items.push(quote!(#d pub const #c: &'static #rt::Rule = #code;));
        }
        if !t.relations.is_empty() {
            let all = t.relations.iter().map(|r| names::rule(&r.id));
            items.push(quote! {
                /// Every relation the spec states for this type.
                pub const RELATIONS: &'static [&'static #rt::Rule] = &[#(Self::#all),*];
            });
        }
        let mut out = if items.is_empty() {
            quote!()
        } else {
            quote!(impl #owned { #(#items)* })
        };
        if !t.instances.is_empty() {
            out.extend(self.instances(t, &owned)?);
            if self.borrows(t) {
                let v = names::view(t);
                out.extend(self.instances(t, &quote!(#v<'_>))?);
            }
        }
        Ok(out)
    }

    fn instances(&self, t: &'a Type, on: &dyn quote::ToTokens) -> R<TokenStream> {
        let mut methods = vec![];
        for i in &t.instances {
            let sc = self.scope(t, t.fields.len());
            let v = sc.gen(&i.value)?;
            let (ret, code) = match v.ty {
                ETy::Bool => (quote!(bool), v.code),
                _ => (quote!(i128), sc.int(v)?),
            };
            let d = doc(&format!(
                "{}\n\nThe spec's value `{}`.",
                i.doc.clone().unwrap_or_default(),
                i.value
            ));
            let id = names::ident(&i.id);
            let fields = names::stored(t);
            methods.push(quote! {
                #d
                #[allow(unused_variables)]
                pub fn #id(&self) -> #ret {
                    let Self { #(#fields,)* .. } = self;
                    #code
                }
            });
        }
        Ok(quote!(impl #on { #(#methods)* }))
    }

    /// The `Codec` impl and binrw's traits.
    pub fn codec(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let owned = names::owned(t);
        let pos = names::pos(t);
        let args = self.args_ty(t);
        let min = t.min_size;
        let view = self.view_ty(t);
        let read = self.read_fn(t)?;
        let write = self.write_fn(t)?;
        let warnings = self.checks_fn(t)?;
        let size_hint = self.size_hint_fn(t);
        let info = self.info(t);
        let visit = self.visit(t);
        let own = self.own_value(t, &quote!(view));
        Ok(quote! {
            impl #rt::Codec for #owned {
                type Args = #args;
                type Ref<'a> = #view;
                type Pos = #pos;
                const MIN_SIZE: u64 = #min;
                fn read_in<'a, const L: bool>(
                    _io: &mut #rt::Input<'a>,
                    _args: Self::Args,
                ) -> #rt::Result<(Self::Ref<'a>, ::std::option::Option<Self::Pos>)> {
                    #read
                }
                fn own(view: &Self::Ref<'_>) -> Self {
                    #own
                }
                fn write_out<const L: bool>(
                    &self,
                    _io: &mut #rt::Output,
                    _args: Self::Args,
                ) -> #rt::Result<::std::option::Option<Self::Pos>> {
                    #write
                }
                #warnings
                fn size_hint(&self) -> usize {
                    #size_hint
                }
                #info
                #visit
            }
            #rt::codec::binrw_adapter!(#owned, ENDIAN);
        })
    }

    /// The id `t` reads a whole input under (`rt::Root::ID`): its `-layout`, or in a user's
    /// crate the spec's id for the spec's top type, when every parameter it takes is one a
    /// user gives by name (`-context`).
    fn layout_id(&self, t: &Type) -> Option<&'a str> {
        let t = self.spec.ty(&t.name)?;
        if let Some(l) = &t.layout {
            return Some(l);
        }
        (self.target == Target::Crate
            && t.name == self.spec.id
            && t.params.iter().all(|p| p.context.is_some()))
        .then_some(self.spec.id.as_str())
    }

    /// For a layout: the `Root` impl.
    pub fn root(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let Some(id) = self.layout_id(t) else {
            return Ok(quote!());
        };
        let owned = names::owned(t);
        let description = description(self.spec, t);
        let mut contexts = vec![];
        let mut args = vec![];
        let mut cuts = vec![];
        for p in &t.params {
            let c = p
                .context
                .as_ref()
                .ok_or_else(|| format!("{}: layout parameter `{}` needs -context", t.name, p.id))?;
            let ty = names::prim(p.prim);
            let pid = &p.id;
            contexts.push(c.clone());
            let at = cut_offs(self.spec, &p.id)
                .into_iter()
                .map(proc_macro2::Literal::i128_unsuffixed);
            cuts.push(quote!((#c, &[#(#at),*])));
            // A parameter with a `-default` takes it when the user gives no value.
            let given = match p.default {
                Some(d) => {
                    let d = proc_macro2::Literal::i128_suffixed(d);
                    quote!(params.param(#c).unwrap_or(#d))
                }
                None => quote!(params.param(#c).ok_or_else(|| #rt::codec::missing_param(#c))?),
            };
            args.push(quote! {
                #rt::codec::arg::<#ty>(0, #given, #pid)?
            });
        }
        let unknown = unknown_paths(self.spec, t);
        let root = &t.name;
        let spec_file = &self.spec.file;
        let sig = signature(self.spec, t);
        let sig = sig.iter().map(|(at, b)| quote!((#at, &[#(#b),*])));
        let rules = reachable(self.spec, &t.name).into_iter().flat_map(|x| {
            let o = names::owned(x);
            x.relations.iter().map(move |r| {
                let c = names::rule(&r.id);
                quote!(#o::#c)
            })
        });
        Ok(quote! {
            impl #rt::Root for #owned {
                const ID: &'static str = #id;
                const ROOT: &'static str = #root;
                const DESCRIPTION: &'static str = #description;
                const SPEC: &'static str = #spec_file;
                const UNKNOWN: &'static [&'static str] = &[#(#unknown),*];
                const PARAMS: &'static [&'static str] = &[#(#contexts),*];
                const CUT_OFFS: &'static [(&'static str, &'static [i128])] = &[#(#cuts),*];
                const RULES: &'static [&'static #rt::Rule] = &[#(#rules),*];
                const SIGNATURE: &'static [(u64, &'static [u8])] = &[#(#sig),*];
                fn args(params: &dyn #rt::Params) -> #rt::Result<Self::Args> {
                    let _ = params;
                    Ok((#(#args,)*))
                }
            }
        })
    }
}
