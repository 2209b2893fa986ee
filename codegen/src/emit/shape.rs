//! The Rust types a field takes in each of the three forms (owned value, borrowed view,
//! positions), and the pieces of code every emitter shares: scopes, arguments and checks.

use super::expr::{ETy, Scope};
use super::names::{self, rt};
use super::{Gen, R};
use crate::expr::Expr;
use crate::model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl<'a> Gen<'a> {
    /// Whether the view of `t` borrows from the input (it holds bytes, text, a list, or a type
    /// that does). A type that does not is its own view.
    pub fn borrows(&self, t: &Type) -> bool {
        fn walk(spec: &Spec, t: &Type, stack: &mut Vec<String>) -> bool {
            if stack.contains(&t.name) {
                return false;
            }
            stack.push(t.name.clone());
            let b = t.fields.iter().any(|f| {
                matches!(
                    list_kind(spec, t, f),
                    Some(ListKind::Nums(_) | ListKind::Blocks(_) | ListKind::Chunks(_))
                ) || match &f.ty {
                    FieldType::Bytes(_) | FieldType::Str { .. } | FieldType::Strz { .. } => true,
                    other => refs(other)
                        .iter()
                        .any(|r| walk(spec, names::ty(spec, &r.name), stack)),
                }
            });
            stack.pop();
            b
        }
        walk(self.spec, t, &mut vec![])
    }

    /// Whether the view of a switch field differs from its owned enum.
    pub fn switch_borrows(&self, f: &Field) -> bool {
        refs(&f.ty)
            .iter()
            .any(|r| self.borrows(names::ty(self.spec, &r.name)))
    }

    /// The view type of `t`, with lifetime `'a`.
    pub fn view_ty(&self, t: &Type) -> TokenStream {
        if self.borrows(t) {
            let v = names::view(t);
            quote!(#v<'a>)
        } else {
            let o = names::owned(t);
            quote!(#o)
        }
    }

    fn user_target(&self, f: &Field) -> &'a Type {
        match &f.ty {
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                names::ty(self.spec, &r.name)
            }
            _ => unreachable!("a user type"),
        }
    }

    /// One element of field `f`, owned.
    pub fn owned_elem(&self, t: &Type, f: &Field) -> TokenStream {
        match &f.ty {
            FieldType::Prim(p) => match &f.enum_name {
                Some(e) => {
                    let e = format_ident!("{}", self.spec.enum_def(e).expect("resolved").rust);
                    quote!(#e)
                }
                None => {
                    let p = names::prim(*p);
                    quote!(#p)
                }
            },
            FieldType::Bits(n) => {
                let b = names::bits_value(*n);
                quote!(#b)
            }
            FieldType::User(_) | FieldType::SizedUser { .. } => {
                let o = names::owned(self.user_target(f));
                if boxed(self.spec, t, f) {
                    quote!(::std::boxed::Box<#o>)
                } else {
                    quote!(#o)
                }
            }
            FieldType::Bytes(_) => quote!(::std::vec::Vec<u8>),
            FieldType::Str { .. } | FieldType::Strz { .. } => quote!(::std::string::String),
            FieldType::Contents(_) => quote!(()),
            FieldType::Switch { .. } => {
                let s = names::switch_owned(t, f);
                quote!(#s)
            }
        }
    }

    /// Field `f`, owned.
    pub fn owned_field(&self, t: &Type, f: &Field) -> TokenStream {
        let e = self.owned_elem(t, f);
        let e = if matches!(f.repeat, Repeat::None) {
            e
        } else {
            quote!(::std::vec::Vec<#e>)
        };
        if f.cond.is_some() {
            quote!(::std::option::Option<#e>)
        } else {
            e
        }
    }

    /// One element of field `f`, as a view.
    pub fn view_elem(&self, t: &Type, f: &Field) -> TokenStream {
        match &f.ty {
            FieldType::User(_) | FieldType::SizedUser { .. } => {
                let v = self.view_ty(self.user_target(f));
                if boxed(self.spec, t, f) {
                    quote!(::std::boxed::Box<#v>)
                } else {
                    v
                }
            }
            FieldType::Bytes(_) => quote!(&'a [u8]),
            FieldType::Str { .. } | FieldType::Strz { .. } => quote!(&'a str),
            FieldType::Switch { .. } if self.switch_borrows(f) => {
                let s = names::switch_view(t, f);
                quote!(#s<'a>)
            }
            _ => self.owned_elem(t, f),
        }
    }

    /// Field `f`, as a view.
    pub fn view_field(&self, t: &Type, f: &Field) -> TokenStream {
        let rt = rt();
        let e = match list_kind(self.spec, t, f) {
            None => self.view_elem(t, f),
            Some(ListKind::Nums(p)) => {
                let p = names::prim(p);
                quote!(#rt::Nums<'a, #p>)
            }
            Some(ListKind::Blocks(name)) => {
                let o = names::owned(names::ty(self.spec, &name));
                quote!(#rt::Blocks<'a, #o>)
            }
            Some(ListKind::Chunks(_)) => quote!(#rt::Chunks<'a>),
            Some(ListKind::Each) => {
                let e = self.view_elem(t, f);
                quote!(::std::vec::Vec<#e>)
            }
        };
        if f.cond.is_some() {
            quote!(::std::option::Option<#e>)
        } else {
            e
        }
    }

    /// One element of field `f`, as positions.
    pub fn pos_elem(&self, t: &Type, f: &Field) -> TokenStream {
        let rt = rt();
        match &f.ty {
            FieldType::User(_) | FieldType::SizedUser { .. } => {
                let p = names::pos(self.user_target(f));
                if boxed(self.spec, t, f) {
                    quote!(::std::boxed::Box<#p>)
                } else {
                    quote!(#p)
                }
            }
            FieldType::Switch { .. } => {
                let s = names::switch_pos(t, f);
                quote!(#s)
            }
            _ => quote!(#rt::Span),
        }
    }

    /// Field `f`, as positions.
    pub fn pos_field(&self, t: &Type, f: &Field) -> TokenStream {
        let rt = rt();
        let e = self.pos_elem(t, f);
        let e = if matches!(f.repeat, Repeat::None) {
            e
        } else if strided(self.spec, t, f) {
            quote!(#rt::Strided<#e>)
        } else {
            quote!(#rt::Each<#e>)
        };
        if f.cond.is_some() {
            quote!(::std::option::Option<#e>)
        } else {
            e
        }
    }

    pub fn scope(&self, t: &'a Type, visible: usize) -> Scope<'a> {
        Scope {
            spec: self.spec,
            ty: t,
            visible,
            underscore: None,
            in_repeat: false,
            measured_before: None,
        }
    }

    /// The scope of the reader or the writer of field `fi`, where the fields before it have
    /// been measured (`name._sizeof`).
    pub fn field_scope(&self, t: &'a Type, fi: usize, visible: usize) -> Scope<'a> {
        let mut sc = self.scope(t, visible);
        sc.measured_before = Some(fi);
        sc
    }

    /// The scope of one element of field `fi`: `_index` is defined when the field repeats.
    pub fn elem_scope(&self, t: &'a Type, fi: usize, visible: usize) -> Scope<'a> {
        let mut sc = self.field_scope(t, fi, visible);
        sc.in_repeat = !matches!(t.fields[fi].repeat, Repeat::None);
        sc
    }

    /// The parameters' types, as a tuple.
    pub fn args_ty(&self, t: &Type) -> TokenStream {
        let ps = t.params.iter().map(|p| names::prim(p.prim));
        quote!((#(#ps,)*))
    }

    /// The pattern binding the parameters.
    pub fn args_pat(&self, t: &Type) -> TokenStream {
        let ps = t.params.iter().map(|p| names::ident(&p.id));
        quote!((#(#ps,)*))
    }

    /// Arguments for a type reference, converted to the parameters' types (errors at `_at`).
    pub fn args_code(&self, sc: &Scope, r: &TypeRef) -> R<TokenStream> {
        let rt = rt();
        let target = names::ty(self.spec, &r.name);
        let mut parts = vec![];
        for (p, a) in target.params.iter().zip(&r.args) {
            let v = sc.int_of(a)?;
            let ty = names::prim(p.prim);
            let name = &p.id;
            parts.push(quote!(#rt::codec::arg::<#ty>(_at, #v, #name)?));
        }
        Ok(quote!((#(#parts,)*)))
    }

    /// The fewest bytes one element of `f` takes (bounds counts before allocating).
    pub fn min_elem(&self, f: &Field) -> TokenStream {
        let rt = rt();
        match &f.ty {
            FieldType::User(r)
            | FieldType::SizedUser {
                r#ref: r,
                size: Size::Eos,
            } => {
                let o = names::owned(names::ty(self.spec, &r.name));
                quote!(<#o as #rt::Codec>::MIN_SIZE)
            }
            _ => {
                let n = elem_size(self.spec, f).0;
                quote!(#n)
            }
        }
    }

    /// Code that checks `valid` on `v` (one element), returning an error at `_at`: the checks
    /// whose severity is error (the reader refuses, the writer will not write). Warning-level
    /// checks are the warnings pass's (`Gen::check_code`). The writer sees every field of the
    /// type; the reader only those before.
    pub fn valid_code(
        &self,
        t: &'a Type,
        fi: usize,
        v: TokenStream,
        write: bool,
    ) -> R<TokenStream> {
        if t.fields[fi].check_severity == Some(Severity::Warning) {
            return Ok(quote!());
        }
        self.check_code(t, fi, v, if write { t.fields.len() } else { fi })
    }

    /// Code that checks `valid` on `v` (one element), returning an error at `_at`, with the
    /// fields before `visible` in scope.
    pub fn check_code(
        &self,
        t: &'a Type,
        fi: usize,
        v: TokenStream,
        visible: usize,
    ) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let Some(valid) = &f.valid else {
            return Ok(quote!());
        };
        let is_int = matches!(f.ty, FieldType::Prim(p) if p.kind != PrimKind::F)
            || matches!(f.ty, FieldType::Bits(n) if n > 1);
        let under_ty = if is_int {
            ETy::Int
        } else if matches!(f.ty, FieldType::Bits(1)) {
            ETy::Bool
        } else {
            match &f.ty {
                FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                    ETy::User(r.name.clone())
                }
                FieldType::Bytes(_) => ETy::Bytes,
                FieldType::Str { .. } | FieldType::Strz { .. } => ETy::Str,
                _ => {
                    return Err(format!(
                        "{}.{}: valid is not supported on this type",
                        t.name, f.id
                    ))
                }
            }
        };
        let under = match under_ty {
            ETy::Int => quote!(#rt::Int::int(&#v)),
            ETy::Bool => quote!((*&#v)),
            _ => v.clone(),
        };
        let mut sc = self.elem_scope(t, fi, visible);
        sc.underscore = Some((under.clone(), under_ty));
        let hex = |e: &Expr| matches!(e, Expr::Int { hex: true, .. });
        let (cond, expected, hexed) = match valid {
            Valid::Eq(e) => {
                let x = sc.int_of(e)?;
                (
                    quote!(#under == #x),
                    match (e, &f.ty) {
                        // A constant written in hex shows as wide as its field, like the value found.
                        (Expr::Int { value, hex: true }, FieldType::Prim(p)) => {
                            format!("0x{value:0w$X}", w = usize::from(p.bytes) * 2)
                        }
                        _ => format!("{e}"),
                    },
                    hex(e),
                )
            }
            Valid::Range { min, max } => {
                let mut conds = vec![];
                let mut words = vec![];
                let mut h = false;
                if let Some(m) = min {
                    let x = sc.int_of(m)?;
                    conds.push(quote!(#under >= #x));
                    words.push(format!(">= {m}"));
                    h |= hex(m);
                }
                if let Some(m) = max {
                    let x = sc.int_of(m)?;
                    conds.push(quote!(#under <= #x));
                    words.push(format!("<= {m}"));
                    h |= hex(m);
                }
                (quote!(#(#conds)&&*), words.join(" and "), h)
            }
            Valid::AnyOf(es) => {
                let mut conds = vec![];
                for e in es {
                    let x = sc.int_of(e)?;
                    conds.push(quote!(#under == #x));
                }
                (
                    quote!(#(#conds)||*),
                    format!(
                        "one of {}",
                        es.iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    es.iter().any(hex),
                )
            }
            Valid::Expr(e) => (sc.bool_of(e)?, format!("`{e}`"), false),
        };
        let found = if is_int {
            let width = match f.ty {
                FieldType::Prim(p) => usize::from(p.bytes) * 2,
                _ => 0,
            };
            if hexed {
                quote!(#rt::codec::show_hex(#under, #width))
            } else {
                quote!(#under.to_string())
            }
        } else if matches!(f.ty, FieldType::Bits(1)) {
            quote!(#v.to_string())
        } else {
            quote!("a value that is not".to_string())
        };
        Ok(quote! {
            if !(#cond) {
                return Err(#rt::Error::new(#rt::ErrorKind::Invalid, _at, #expected, #found));
            }
        })
    }

    /// For a type whose byte order is computed from its parameters: the `_endian` local the
    /// reader and writer set before any field (a value with no case is refused where it
    /// starts).
    pub fn endian_setup(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let Some(TypeEndian::Switch { on, cases }) = &t.endian else {
            return Ok(quote!());
        };
        let sc = self.scope(t, 0);
        let on_code = sc.int_of(on)?;
        let mut arms = vec![];
        for (k, e) in cases {
            let kc = sc.int_of(k)?;
            let order = match e {
                Endian::Le => quote!(::binrw::Endian::Little),
                Endian::Be => quote!(::binrw::Endian::Big),
            };
            arms.push(quote!(if _on == #kc { #order }));
        }
        let keys: Vec<String> = cases.iter().map(|(k, _)| k.to_string()).collect();
        let expected = format!("`{on}` to be one of {} (the byte order)", keys.join(", "));
        Ok(quote! {
            let _endian: ::binrw::Endian = {
                let _on: i128 = #on_code;
                #(#arms else)* {
                    return Err(#rt::Error::new(#rt::ErrorKind::Switch, _start, #expected, _on.to_string()));
                }
            };
        })
    }

    /// Whether field `f` of `t` holds values of `t` again through a list (a tree of nodes):
    /// each element read is one level of nesting, bounded like a boxed value.
    pub fn recursive_list(&self, t: &Type, f: &Field) -> bool {
        !matches!(f.repeat, Repeat::None)
            && refs(&f.ty)
                .iter()
                .any(|r| reaches(self.spec, &r.name, &t.name))
    }

    /// Whether `e` is a plain field whose written value is recomputed from field `fi`.
    pub fn recomputed_from(&self, t: &Type, e: &Expr, fi: usize) -> bool {
        match e {
            Expr::Name(n) => t
                .fields
                .iter()
                .find(|f| &f.id == n)
                .is_some_and(|f| f.users.iter().any(|u| u.0 == fi)),
            _ => false,
        }
    }
}
