//! Type definitions: the spec's enums, and per spec type its owned struct (serde and arbitrary
//! for dumps and fuzzing), its borrowed view, its positions and its switch enums.

use super::names::{self, rt};
use super::{doc, Gen, Target, R};
use meshspec_model::expr::{BinOp, Expr};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// What a field's rustdoc says beyond its `doc`: the document's name, offset and confidence.
fn facts(f: &Field) -> String {
    let mut parts = vec![];
    if let Some(o) = &f.orig_id {
        parts.push(format!("Documented as “{o}”"));
    }
    if let Some(off) = &f.offset {
        parts.push(format!("at offset `{off}`"));
    }
    if let Some(c) = f.confidence {
        parts.push(c.title().to_string());
    }
    let mut s = parts.join(", ");
    if let Some(e) = &f.evidence {
        s.push_str(&format!(" ({e})"));
    }
    s
}

fn serde_with(f: &Field) -> Option<String> {
    let repeated = !matches!(f.repeat, Repeat::None);
    let opt = f.cond.is_some();
    let float = matches!(f.ty, FieldType::Prim(p) if p.kind == PrimKind::F);
    let blob = matches!(f.ty, FieldType::Bytes(_));
    Some(names::rt_str(match (float, blob, repeated, opt) {
        (true, _, false, false) => "serde_as::float",
        (true, _, true, false) => "serde_as::float_vec",
        (true, _, false, true) => "serde_as::float_opt",
        (true, _, true, true) => "serde_as::float_vec_opt",
        (_, true, false, false) => "serde_as::hex",
        (_, true, true, false) => "serde_as::hex_vec",
        (_, true, false, true) => "serde_as::hex_opt",
        (_, true, true, true) => "serde_as::hex_vec_opt",
        (false, false, _, _) => return None,
    }))
}

const ARBITRARY: &str = "arbitrary";

impl Gen<'_> {
    /// `#[cfg_attr(feature = "arbitrary", attr)]` for the project's own layouts (structure-aware
    /// fuzzing). Code for a user's crate gets none: that crate has no `arbitrary` feature (each
    /// attribute would warn of an unexpected cfg) nor the `arbitrary` crate the derive names.
    fn arbitrary(&self, attr: TokenStream) -> Option<TokenStream> {
        (self.target == Target::Project).then(|| quote!(#[cfg_attr(feature = #ARBITRARY, #attr)]))
    }
}

/// How `arbitrary` makes a field whose size or count the spec fixes to a number, or computes
/// modulo a number (`rt::arb`), so that values get past the writer's first checks;
/// `None` for the derived values. Fields whose value the spec constrains are
/// [`Gen::arbitrary_value`]'s.
fn arbitrary_size(f: &Field) -> Option<TokenStream> {
    let rt = rt();
    let lit = proc_macro2::Literal::i128_unsuffixed;
    if let (Repeat::Expr(c), None, FieldType::Prim(_)) = (&f.repeat, &f.cond, &f.ty) {
        let n = lit(c.literal()?);
        return Some(quote!(#rt::arb::list::<_, #n>));
    }
    let FieldType::Bytes(Size::Expr(e)) = &f.ty else {
        return None;
    };
    // A size computed modulo N (an alignment pad) is below N.
    if let (Expr::Binary(BinOp::Rem, _, n), Repeat::None, None) = (e, &f.repeat, &f.cond) {
        let n = lit(n.literal()?);
        return Some(quote!(#rt::arb::bytes_below::<#n>));
    }
    let n = lit(e.literal()?);
    let helper = match (&f.repeat, f.cond.is_some()) {
        (Repeat::None, false) => format_ident!("bytes"),
        (Repeat::None, true) => format_ident!("maybe_bytes"),
        // A count the spec fixes too would need both: left to the derived value.
        (Repeat::Expr(c), false) if c.literal().is_none() => format_ident!("byte_records"),
        (Repeat::Eos, false) => format_ident!("byte_records"),
        _ => return None,
    };
    Some(quote!(#rt::arb::#helper::<#n>))
}

impl<'a> Gen<'a> {
    /// How `arbitrary` makes a whole integer field whose values the spec constrains: one it
    /// allows (`valid`: a value, a list, bounds) or, for a field a later switch is on, one of
    /// the switch's cases, seven times in eight (`rt::arb`). Without it a derived number
    /// takes the one value the writer accepts (or the variant the switch holds) about never.
    /// A conditional field is present or not at random, and such a value when present.
    fn arbitrary_value(&self, t: &Type, f: &Field) -> Option<TokenStream> {
        let rt = rt();
        let (FieldType::Prim(p), Repeat::None) = (&f.ty, &f.repeat) else {
            return None;
        };
        if p.kind == PrimKind::F {
            return None;
        }
        let lit = proc_macro2::Literal::i128_unsuffixed;
        let list = |es: &[&Expr]| -> Option<TokenStream> {
            let vs = es
                .iter()
                .map(|e| self.spec.constant(e).map(lit))
                .collect::<Option<Vec<_>>>()?;
            Some(quote!(#rt::arb::mostly_in(u, &[#(#vs),*])))
        };
        let switched = || {
            t.fields.iter().find_map(|g| match &g.ty {
                FieldType::Switch {
                    on: Expr::Name(n),
                    cases,
                } if n == &f.id => {
                    let keys: Vec<&Expr> = cases.iter().map(|(k, _)| k).collect();
                    list(&keys)
                }
                _ => None,
            })
        };
        let make = match &f.valid {
            Some(Valid::Eq(e)) => list(&[e])?,
            Some(Valid::AnyOf(es)) => list(&es.iter().collect::<Vec<_>>())?,
            Some(Valid::Range { min, max }) => {
                let bound = |b: &Option<Expr>| self.spec.constant(b.as_ref()?);
                let (lo, hi) = (bound(min)?, bound(max)?);
                let (lo, hi) = (lit(lo), lit(hi));
                quote!(#rt::arb::mostly_within(u, #lo, #hi))
            }
            Some(Valid::Expr(_)) => return None,
            None => match switched() {
                Some(make) => make,
                // A number another field is derived from: small, so that the derived value
                // fits its field.
                None if t
                    .fields
                    .iter()
                    .any(|g| g.derive.as_ref().is_some_and(|d| d.names().contains(&f.id))) =>
                {
                    quote!(#rt::arb::mostly_within(u, 0, 255))
                }
                None => return None,
            },
        };
        let make = match &f.enum_name {
            Some(e) => {
                let ty = names::enum_ty(self.spec, e);
                quote!(::std::result::Result::Ok(#ty(#make?)))
            }
            None => make,
        };
        Some(match &f.cond {
            Some(_) => quote!(|u| #rt::arb::maybe(u, |u| #make)),
            None => quote!(|u| #make),
        })
    }

    /// The spec's enums: open newtypes, so unnamed values are kept.
    pub fn enums(&self) -> TokenStream {
        let rt = rt();
        let mut out = quote!();
        for e in &self.spec.enums {
            let Some(p) = e.prim else { continue };
            let name = format_ident!("{}", e.rust);
            let prim = names::prim(p);
            let d = doc(&format!(
                "The `{}` enum: an open set, so unnamed values are kept.",
                e.name
            ));
            let consts = e.values.iter().map(|(v, id, d)| {
                let c = names::enum_value(id);
                let lit = proc_macro2::Literal::i128_unsuffixed(*v);
                let d = doc(d.as_deref().unwrap_or(""));
                quote!(#d pub const #c: Self = Self(#lit);)
            });
            let arms = e.values.iter().map(|(v, id, _)| {
                let lit = proc_macro2::Literal::i128_unsuffixed(*v);
                quote!(#lit => ::std::option::Option::Some(#id),)
            });
            // The names the source writes (`PPtr<Object>`), where they are not identifiers.
            let orig_arms: Vec<TokenStream> = e
                .items
                .iter()
                .filter_map(|i| {
                    let o = i.orig_id.as_ref()?;
                    let lit = proc_macro2::Literal::i128_unsuffixed(i.value);
                    Some(quote!(#lit => ::std::option::Option::Some(#o),))
                })
                .collect();
            let orig = (!orig_arms.is_empty()).then(|| {
                quote! {
                    /// The value's name as the source document writes it, when the spec gives one.
                    pub fn orig_id(self) -> ::std::option::Option<&'static str> {
                        match self.0 {
                            #(#orig_arms)*
                            _ => ::std::option::Option::None,
                        }
                    }
                }
            });
            let (serde, serde_crate) = names::serde_derives();
            let arb = self.arbitrary(quote!(derive(::arbitrary::Arbitrary)));
            out.extend(quote! {
                #d
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, #serde)]
                #serde_crate
                #arb
                #[serde(transparent)]
                pub struct #name(pub #prim);
                impl #name {
                    #(#consts)*
                    /// The value's name in the spec, when it has one.
                    pub fn name(self) -> ::std::option::Option<&'static str> {
                        match self.0 {
                            #(#arms)*
                            _ => ::std::option::Option::None,
                        }
                    }
                    #orig
                }
                impl #rt::Int for #name {
                    fn int(&self) -> i128 {
                        i128::from(self.0)
                    }
                }
            });
        }
        out
    }

    /// The struct definitions of `t` and of its switch enums (a group of bit fields is read and
    /// written whole, with `rt::bits`).
    pub fn defs(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let mut out = quote!();
        for (first, _, bits) in bit_groups(t) {
            if bits % 8 != 0 {
                return Err(format!(
                    "{}.{}: consecutive bit fields add up to {bits} bits, not whole bytes",
                    t.name, t.fields[first].id
                ));
            }
        }
        for f in &t.fields {
            if let FieldType::Switch { on, cases } = &f.ty {
                out.extend(self.switch_defs(t, f, on, cases));
            }
        }

        // The owned struct.
        let mut d = t.doc.clone().unwrap_or_default();
        let mut tail = vec![format!("Type `{}` of `{}`.", t.name, self.spec.file)];
        if let Some(c) = t.confidence {
            tail.push(c.title().to_string());
        }
        if let Some(e) = &t.evidence {
            tail.push(format!("({e})"));
        }
        d.push_str("\n\n");
        d.push_str(&tail.join(" "));
        let sd = doc(&d);
        let owned = names::owned(t);
        let stored: Vec<&Field> = t.stored().collect();
        let owned_fields = stored.iter().map(|f| {
            let mut d = f.doc.clone().unwrap_or_else(|| format!("`{}`", f.id));
            let fx = facts(f);
            if !fx.is_empty() {
                d.push_str("\n\n");
                d.push_str(&fx);
                d.push('.');
            }
            if let Some(e) = &f.derive {
                d.push_str(&format!(
                    "\n\nRecomputed on writing as `{e}`; kept as read (the relation pass compares)."
                ));
            }
            if let Some((_, u)) = f.users.first() {
                let of: Vec<String> = f
                    .users
                    .iter()
                    .map(|(gi, _)| format!("`{}`", t.fields[*gi].id))
                    .collect();
                d.push_str(&format!(
                    "\n\nRecomputed on writing: the {} of {}.",
                    match u {
                        Use::Count => "number of elements",
                        Use::Size => "size in bytes",
                    },
                    of.join(" or ")
                ));
            }
            let d = doc(&d);
            let default =
                (!f.users.is_empty() || f.derive.is_some()).then(|| quote!(#[serde(default)]));
            let with = serde_with(f).map(|w| quote!(#[serde(with = #w)]));
            let arb = arbitrary_size(f)
                .or_else(|| self.arbitrary_value(t, f))
                .and_then(|w| self.arbitrary(quote!(arbitrary(with = #w))));
            let id = names::ident(&f.id);
            let ty = self.owned_field(t, f);
            quote!(#d #default #with #arb pub #id: #ty)
        });
        let (serde, serde_crate) = names::serde_derives();
        let arb = self.arbitrary(quote!(derive(::arbitrary::Arbitrary)));
        out.extend(quote! {
            #sd
            #[derive(Debug, Clone, PartialEq, #serde)]
            #serde_crate
            #arb
            #[serde(deny_unknown_fields)]
            pub struct #owned { #(#owned_fields),* }
        });

        // The view, when it differs from the owned value.
        if self.borrows(t) {
            let view = names::view(t);
            let vd = doc(&format!(
                "[`{}`] as read: numbers by value, blobs and lists as views of the input.",
                t.rust
            ));
            let view_fields = stored.iter().map(|f| {
                let d = doc(&format!("See [`{}::{}`].", t.rust, f.id));
                let id = names::ident(&f.id);
                let ty = self.view_field(t, f);
                quote!(#d pub #id: #ty)
            });
            out.extend(quote! {
                #vd
                #[derive(Debug, Clone)]
                pub struct #view<'a> { #(#view_fields,)* }
            });
        }

        // The positions.
        let pos = names::pos(t);
        let pd = doc(&format!("Where each field of a [`{}`] lies.", t.rust));
        let pos_fields = t.fields.iter().map(|f| {
            let id = names::ident(&f.id);
            let ty = self.pos_field(t, f);
            let d = doc(&format!("Where `{}` lies.", f.id));
            quote!(#d pub #id: #ty)
        });
        out.extend(quote! {
            #pd
            #[derive(Debug, Clone, Default, PartialEq, Eq)]
            pub struct #pos {
                /// The whole value.
                pub _span: #rt::Span,
                #(#pos_fields,)*
            }
        });
        Ok(out)
    }

    fn switch_defs(
        &self,
        t: &Type,
        f: &Field,
        on: &meshspec_model::expr::Expr,
        cases: &[(meshspec_model::expr::Expr, TypeRef)],
    ) -> TokenStream {
        let rt = rt();
        // One variant per distinct target type, documented with the keys that select it.
        let targets = self.switch_targets(f);
        let variant_doc = |target: &Type| {
            let keys: Vec<String> = cases
                .iter()
                .filter(|(_, r)| r.name == target.name)
                .map(|(k, _)| k.to_string())
                .collect();
            doc(&format!("`{on}` = {}", keys.join(" or ")))
        };
        let owned = names::switch_owned(t, f);
        let variants = targets.iter().map(|x| {
            let v = names::owned(x);
            let d = variant_doc(x);
            quote!(#d #v(#v))
        });
        let names_arms = targets.iter().map(|x| {
            let v = names::owned(x);
            let s = &x.rust;
            quote!(#owned::#v(_) => #s)
        });
        let d = doc(&format!("What `{}` holds, chosen by `{on}`.", f.id));
        let (serde, serde_crate) = names::serde_derives();
        let arb = self.arbitrary(quote!(derive(::arbitrary::Arbitrary)));
        let mut out = quote! {
            #d
            #[derive(Debug, Clone, PartialEq, #serde)]
            #serde_crate
            #arb
            #[allow(clippy::large_enum_variant)]
            pub enum #owned { #(#variants),* }
            impl #rt::codec::Variant for #owned {
                fn variant(&self) -> &'static str {
                    match self { #(#names_arms),* }
                }
            }
        };
        if self.switch_borrows(f) {
            let view = names::switch_view(t, f);
            let variants = targets.iter().map(|x| {
                let v = names::owned(x);
                let ty = self.view_ty(x);
                let d = variant_doc(x);
                quote!(#d #v(#ty))
            });
            let d = doc(&format!("[`{owned}`] as read."));
            out.extend(quote! {
                #d
                #[derive(Debug, Clone)]
                #[allow(clippy::large_enum_variant)]
                pub enum #view<'a> { #(#variants),* }
            });
        }
        let pos = names::switch_pos(t, f);
        let variants = targets.iter().map(|x| {
            let v = names::owned(x);
            let p = names::pos(x);
            quote!(#v(#p))
        });
        let first = names::owned(targets[0]);
        let spans = targets.iter().map(|x| {
            let v = names::owned(x);
            quote!(#pos::#v(p) => #rt::Spanned::span(p))
        });
        let d = doc(&format!("Where the case of `{}` lies.", f.id));
        out.extend(quote! {
            #d
            #[derive(Debug, Clone, PartialEq, Eq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #pos { #(#variants),* }
            impl ::std::default::Default for #pos {
                fn default() -> Self {
                    #pos::#first(::std::default::Default::default())
                }
            }
            impl #rt::Spanned for #pos {
                fn span(&self) -> #rt::Span {
                    match self { #(#spans),* }
                }
            }
        });
        out
    }
}
