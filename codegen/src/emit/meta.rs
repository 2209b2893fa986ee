//! The spec's facts for programs: a `TypeInfo` table per type (the docs' rows), the walk over
//! positions that attributes every byte to a field, and the visitor over views that tallies
//! values straight from the typed data.

use super::names::{self, rt};
use super::{option, Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// The type as the spec writes it.
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

/// The bytes one value of `f` takes (one element's, for a list), where every value takes the
/// same.
fn fixed_size(spec: &Spec, f: &Field) -> Option<u64> {
    if matches!(f.ty, FieldType::Bits(_)) {
        // Bits are counted in bits, and share bytes with their neighbours.
        return None;
    }
    elem_size(spec, f).1
}

/// The element count of a list whose count the spec fixes.
fn fixed_count(f: &Field) -> Option<u64> {
    match &f.repeat {
        Repeat::Expr(e) => e.literal().and_then(|n| u64::try_from(n).ok()),
        _ => None,
    }
}

impl<'a> Gen<'a> {
    /// `code`, an expression over the parameters of `t`, as a function of their values (in
    /// the order of `params`): `None` from it when a value is missing or does not fit.
    fn over_params(&self, t: &Type, ret: TokenStream, code: TokenStream) -> TokenStream {
        let binds = t.params.iter().map(|p| {
            let id = names::ident(&p.id);
            let ty = names::prim(p.prim);
            quote!(let #id: #ty = <#ty as ::std::convert::TryFrom<i128>>::try_from(*_it.next()?).ok()?;)
        });
        quote!(&|_p: &[i128]| -> ::std::option::Option<#ret> {
            #[allow(unused_mut, unused_variables)]
            let mut _it = _p.iter();
            #(#[allow(unused_variables)] #binds)*
            ::std::option::Option::Some(#code)
        })
    }

    /// The field's condition as a function of the type's parameters (`None` for a field
    /// always there; the function answers `None` where the condition reads the bytes).
    fn when(&self, t: &'a Type, f: &Field) -> TokenStream {
        let Some(c) = &f.cond else {
            return quote!(::std::option::Option::None);
        };
        let f = match self.scope(t, 0).bool_of(c) {
            Ok(code) => self.over_params(t, quote!(bool), code),
            Err(_) => {
                quote!(&|_p: &[i128]| -> ::std::option::Option<bool> {
                    ::std::option::Option::None
                })
            }
        };
        quote!(::std::option::Option::Some(#f))
    }

    /// The spec type a field holds (each element of a list of them), with its arguments as a
    /// function of the enclosing type's parameters.
    fn nested_info(&self, t: &'a Type, f: &Field) -> TokenStream {
        let rt = rt();
        let r = match &f.ty {
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => r,
            _ => return quote!(::std::option::Option::None),
        };
        let target = names::ty(self.spec, &r.name);
        let owned = names::owned(target);
        let sc = self.scope(t, 0);
        let args: Option<Vec<TokenStream>> = r.args.iter().map(|a| sc.int_of(a).ok()).collect();
        let args = match args {
            Some(a) => self.over_params(
                t,
                quote!(::std::vec::Vec<i128>),
                quote!(::std::vec![#(#a),*]),
            ),
            None => quote!(
                &|_p: &[i128]| -> ::std::option::Option<::std::vec::Vec<i128>> {
                    ::std::option::Option::None
                }
            ),
        };
        quote!(::std::option::Option::Some(#rt::Nested {
            info: &|| <#owned as #rt::Codec>::INFO,
            args: #args,
        }))
    }

    /// `const INFO` of the `Codec` impl.
    pub fn info(&self, t: &'a Type) -> TokenStream {
        let rt = rt();
        let name = &t.name;
        let doc = t.doc.clone().unwrap_or_default();
        let conf = names::confidence(t.confidence);
        let params = t.params.iter().map(|p| &p.id);
        let fields = t.fields.iter().map(|f| {
            let when = self.when(t, f);
            let of = self.nested_info(t, f);
            let size = option(fixed_size(self.spec, f));
            let count = option(fixed_count(f));
            let id = &f.id;
            let ty = ty_text(f);
            let orig = option(f.orig_id.as_ref());
            let conf = names::confidence(f.confidence);
            let offset = option(f.offset.as_ref().map(|e| e.to_string()));
            let evidence = option(f.evidence.as_ref());
            let reading = option(f.reading.as_ref());
            let doc = f.doc.clone().unwrap_or_default();
            quote! {
                #rt::FieldInfo {
                    id: #id,
                    ty: #ty,
                    orig_id: #orig,
                    confidence: #conf,
                    offset: #offset,
                    evidence: #evidence,
                    reading: #reading,
                    doc: #doc,
                    when: #when,
                    of: #of,
                    size: #size,
                    count: #count,
                }
            }
        });
        quote! {
            const INFO: &'static #rt::TypeInfo = &#rt::TypeInfo {
                name: #name,
                doc: #doc,
                confidence: #conf,
                params: &[#(#params),*],
                fields: &[#(#fields),*],
            };
        }
    }

    /// Whether the elements of field `f` hold further fields (so the walk looks into them).
    fn nested(f: &Field) -> bool {
        matches!(
            f.ty,
            FieldType::User(_) | FieldType::SizedUser { .. } | FieldType::Switch { .. }
        )
    }

    /// Whether `f` is a field of numbers, bytes or text that the spec itself calls proven
    /// (whatever encloses it: a field's own confidence is its own).
    fn proven_leaf(f: &Field) -> bool {
        f.confidence == Some(Confidence::Proven) && !Self::nested(f)
    }

    /// `impl rt::Walk` for the positions of `t` (and of its switch fields).
    pub fn walk(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let pos = names::pos(t);
        let owned = names::owned(t);
        let mut out = quote!();
        let mut body = vec![];
        let mut own = vec![];
        for (i, f) in t.fields.iter().enumerate() {
            let id = names::ident(&f.id);
            let name = &f.id;
            let nested = Self::nested(f);
            let one = if matches!(f.repeat, Repeat::None) {
                quote! {
                    visit(path, #rt::Spanned::span(p), &_f[#i], !#nested);
                    #rt::Walk::walk(p, path, visit);
                }
            } else {
                let elems = if strided(self.spec, t, f) {
                    quote!((0..p.count).map(|i| p.get(i)))
                } else {
                    quote!(p.items.iter().cloned())
                };
                quote! {
                    visit(path, #rt::Spanned::span(p), &_f[#i], false);
                    for (i, e) in #elems.enumerate() {
                        #rt::meta::under(path, #rt::Seg::Index(i), |path| {
                            visit(path, #rt::Spanned::span(&e), &_f[#i], !#nested);
                            #rt::Walk::walk(&e, path, visit);
                        });
                    }
                }
            };
            let one = if f.cond.is_some() {
                quote!(if let ::std::option::Option::Some(p) = &self.#id { #one })
            } else {
                quote!({ let p = &self.#id; #one })
            };
            body.push(quote! {
                #rt::meta::under(path, #rt::Seg::Field(::std::borrow::Cow::Borrowed(#name)), |path| #one);
            });
            own.push(if f.cond.is_some() {
                quote!(if let ::std::option::Option::Some(p) = &self.#id { visit(#rt::Spanned::span(p), &_f[#i]); })
            } else {
                quote!(visit(#rt::Spanned::span(&self.#id), &_f[#i]);)
            });
            if let FieldType::Switch { .. } = &f.ty {
                let sp = names::switch_pos(t, f);
                let vs: Vec<_> = self
                    .switch_targets(f)
                    .into_iter()
                    .map(names::owned)
                    .collect();
                let walks = vs
                    .iter()
                    .map(|v| quote!(#sp::#v(p) => #rt::Walk::walk(p, path, visit)));
                let owns = vs
                    .iter()
                    .map(|v| quote!(#sp::#v(p) => #rt::Walk::own_fields(p, visit)));
                out.extend(quote! {
                    impl #rt::Walk for #sp {
                        fn walk(&self, path: &mut #rt::Path, visit: &mut dyn FnMut(&#rt::Path, #rt::Span, &'static #rt::FieldInfo, bool)) {
                            match self { #(#walks),* }
                        }
                        fn own_fields(&self, visit: &mut dyn FnMut(#rt::Span, &'static #rt::FieldInfo)) {
                            match self { #(#owns),* }
                        }
                    }
                });
            }
        }
        out.extend(quote! {
            impl #rt::Walk for #pos {
                fn walk(&self, path: &mut #rt::Path, visit: &mut dyn FnMut(&#rt::Path, #rt::Span, &'static #rt::FieldInfo, bool)) {
                    let _f = <#owned as #rt::Codec>::INFO.fields;
                    #(#body)*
                }
                fn own_fields(&self, visit: &mut dyn FnMut(#rt::Span, &'static #rt::FieldInfo)) {
                    let _f = <#owned as #rt::Codec>::INFO.fields;
                    #(#own)*
                }
            }
        });
        Ok(out)
    }

    /// One element `x` (a reference) of a field `f` of numbers, bytes or text, as a
    /// `Scalar`; `None` for a field that holds fields.
    fn scalar(f: &Field, x: &TokenStream) -> Option<TokenStream> {
        let rt = rt();
        Some(match &f.ty {
            FieldType::Prim(_) if f.enum_name.is_some() => quote!(#rt::Scalar::from(#x.0)),
            FieldType::Prim(_) | FieldType::Bits(_) => quote!(#rt::Scalar::from(*#x)),
            FieldType::Bytes(_) | FieldType::Str { .. } | FieldType::Strz { .. } => {
                quote!(#rt::Scalar::from(&**#x))
            }
            FieldType::Contents(c) => quote!(#rt::Scalar::Bytes(&[#(#c),*])),
            _ => return None,
        })
    }

    /// One element `x` (a reference) of field `f`, shown to the visitor `v`.
    fn visit_elem(&self, t: &Type, f: &Field, x: TokenStream) -> TokenStream {
        let rt = rt();
        if let Some(v) = Self::scalar(f, &x) {
            return quote!(_vis.value(#v));
        }
        match &f.ty {
            FieldType::Prim(_)
            | FieldType::Bits(_)
            | FieldType::Bytes(_)
            | FieldType::Str { .. }
            | FieldType::Strz { .. }
            | FieldType::Contents(_) => unreachable!("a scalar"),
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                let o = names::owned(names::ty(self.spec, &r.name));
                if boxed(self.spec, t, f) {
                    quote!(<#o as #rt::Codec>::visit(&**#x, _vis))
                } else {
                    quote!(<#o as #rt::Codec>::visit(#x, _vis))
                }
            }
            FieldType::Switch { .. } => {
                let sv = self.switch_view_name(t, f);
                let arms = self.switch_targets(f).into_iter().map(|x| {
                    let o = names::owned(x);
                    quote!(#sv::#o(_c) => <#o as #rt::Codec>::visit(_c, _vis))
                });
                quote!(match #x { #(#arms),* })
            }
        }
    }

    /// `fn visit` of the `Codec` impl.
    pub fn visit(&self, t: &'a Type) -> TokenStream {
        let rt = rt();
        let view = self.view_name(t);
        let stored = names::stored(t);
        let mut body = vec![];
        let mut skips = false;
        for (i, f) in t.fields.iter().enumerate() {
            let id = names::ident(&f.id);
            let get = if matches!(f.ty, FieldType::Contents(_)) {
                quote!(&())
            } else {
                quote!(#id)
            };
            // A leaf the spec itself calls proven is shown only to a visitor that wants
            // such leaves (asked once per record, not once per field).
            let proven = Self::proven_leaf(f);
            skips |= proven;
            let gate = if proven { quote!(_all &&) } else { quote!() };
            // A single value that is always there: one call.
            let single = f.cond.is_none() && list_kind(self.spec, t, f).is_none();
            if let Some(v) = Self::scalar(f, &quote!(_x)).filter(|_| single) {
                let show = quote!({
                    let _x = #get;
                    _vis.leaf(&_f[#i], #v);
                });
                body.push(if proven { quote!(if _all #show) } else { show });
                continue;
            }
            // A list: each element `_e` shown, while the visitor wants more.
            let each = |show: TokenStream| {
                quote! {
                    for (_i, _e) in _x.iter().enumerate() {
                        if !_vis.index(_i) {
                            break;
                        }
                        #show;
                    }
                }
            };
            let inner = match list_kind(self.spec, t, f) {
                None => self.visit_elem(t, f, quote!(_x)),
                Some(ListKind::Nums(_)) => each(quote!(_vis.value(#rt::Scalar::from(_e)))),
                Some(ListKind::Chunks(_)) => each(quote!(_vis.value(#rt::Scalar::Bytes(_e)))),
                Some(ListKind::Blocks(name)) => {
                    let o = names::owned(names::ty(self.spec, &name));
                    each(quote!(<#o as #rt::Codec>::visit(&_e, _vis)))
                }
                Some(ListKind::Each) => each(self.visit_elem(t, f, quote!(_e))),
            };
            let inner = if f.cond.is_some() {
                quote!(if let ::std::option::Option::Some(_x) = #get { _vis.present(); #inner })
            } else {
                quote!({ let _x = #get; #inner })
            };
            body.push(quote! {
                if #gate _vis.enter(&_f[#i]) {
                    #inner;
                    _vis.leave();
                }
            });
        }
        let all = skips.then(|| quote!(let _all = _vis.proven_leaves();));
        quote! {
            fn visit(view: &Self::Ref<'_>, _vis: &mut dyn #rt::Visitor) {
                let _f = Self::INFO.fields;
                let #view { #(#stored,)* .. } = view;
                #all
                #(#body)*
            }
        }
    }
}
