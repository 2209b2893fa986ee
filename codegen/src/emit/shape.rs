//! The Rust types a field takes in each of the three forms (owned value, borrowed view,
//! positions), and the pieces of code every emitter shares: scopes, arguments and checks.

use super::expr::{ETy, Scope};
use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::expr::Expr;
use meshspec_model::*;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// A field's type `e` as the field holds it: an `Option` where the field is conditional.
fn optional(f: &Field, e: TokenStream) -> TokenStream {
    if f.cond.is_some() {
        quote!(::std::option::Option<#e>)
    } else {
        e
    }
}

impl<'a> Gen<'a> {
    /// Whether the view of `t` borrows from the input (it holds bytes, text, a list, or a type
    /// that does). A type that does not is its own view.
    pub fn borrows(&self, t: &Type) -> bool {
        reachable(self.spec, &t.name).into_iter().any(|u| {
            u.fields.iter().any(|f| {
                matches!(
                    list_kind(self.spec, u, f),
                    Some(ListKind::Nums(_) | ListKind::Blocks(_) | ListKind::Chunks(_))
                ) || matches!(
                    f.ty,
                    FieldType::Bytes(_) | FieldType::Str { .. } | FieldType::Strz { .. }
                )
            })
        })
    }

    /// Whether the view of a switch field differs from its owned enum.
    pub fn switch_borrows(&self, f: &Field) -> bool {
        refs(&f.ty)
            .iter()
            .any(|r| self.borrows(names::ty(self.spec, &r.name)))
    }

    /// The distinct types a switch field holds, in the order of its cases (one variant each).
    pub fn switch_targets(&self, f: &Field) -> Vec<&'a Type> {
        let mut out: Vec<&Type> = vec![];
        for r in refs(&f.ty) {
            let target = names::ty(self.spec, &r.name);
            if !out.iter().any(|x| x.name == target.name) {
                out.push(target);
            }
        }
        out
    }

    /// The name of the type `t` is read as: its view, or its owned value where that is the same.
    pub fn view_name(&self, t: &Type) -> Ident {
        if self.borrows(t) {
            names::view(t)
        } else {
            names::owned(t)
        }
    }

    /// The name of the enum switch field `f` is read as (its view, or its owned enum).
    pub fn switch_view_name(&self, t: &Type, f: &Field) -> Ident {
        if self.switch_borrows(f) {
            names::switch_view(t, f)
        } else {
            names::switch_owned(t, f)
        }
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

    /// The spec type a field of a user type holds.
    pub fn user_target(&self, f: &Field) -> &'a Type {
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
                    let e = names::enum_ty(self.spec, e);
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
        optional(f, e)
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
        optional(f, e)
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
        optional(f, e)
    }

    /// The positions the reader and the writer return: `Some` when `L` is set, from the span
    /// since `_start` and every field's position local.
    pub fn located(t: &Type) -> TokenStream {
        let rt = rt();
        let pos = names::pos(t);
        let all = t.fields.iter().map(|f| names::ident(&f.id));
        let ps = t.fields.iter().map(names::pos_local);
        quote!(if L {
            Some(#pos { _span: #rt::Span::new(_start, _io.pos()), #(#all: #ps),* })
        } else {
            None
        })
    }

    /// The code for every field of `t`, in order: `field(fi)` for one field, `group(first,
    /// count, bits)` for consecutive bit fields (read and written together).
    pub fn per_field(
        t: &Type,
        group: impl Fn(usize, usize, u32) -> R<TokenStream>,
        field: impl Fn(usize) -> R<TokenStream>,
    ) -> R<TokenStream> {
        let groups = bit_groups(t);
        let mut out = quote!();
        let mut fi = 0;
        while fi < t.fields.len() {
            match groups.iter().find(|g| g.0 == fi) {
                Some(&(first, count, bits)) => {
                    out.extend(group(first, count, bits)?);
                    fi += count;
                }
                None => {
                    out.extend(field(fi)?);
                    fi += 1;
                }
            }
        }
        Ok(out)
    }

    /// The check that field `fi` lies at its `-offset` (nothing without one), with the fields
    /// before `visible` in scope.
    pub fn offset_code(&self, t: &'a Type, fi: usize, visible: usize) -> R<TokenStream> {
        let Some(off) = &t.fields[fi].offset else {
            return Ok(quote!());
        };
        let e = self.field_scope(t, fi, visible).int_of(off)?;
        let text = off.to_string();
        Ok(quote!(_io.offset(_start, #e, #text)?;))
    }

    /// For a field an expression measures (`name._sizeof`): the statements before and after
    /// reading or writing it that record the bytes it took.
    pub fn measure(f: &Field) -> (TokenStream, TokenStream) {
        if !f.measured {
            return (quote!(), quote!());
        }
        let l = names::sizeof_local(&f.id);
        let s = format_ident!("_sizeof_start_{}", f.id);
        (
            quote!(let #s = _io.pos();),
            quote!(let #l: u64 = _io.pos() - #s;),
        )
    }

    /// For a list of field `f` read or written element by element (`_p` each element's
    /// positions): the statement that keeps `_p`, the list's positions, and the statement that
    /// starts them with room for `room`. Elements of one layout keep only base and stride
    /// (`len` of them).
    pub fn list_positions(
        &self,
        f: &Field,
        len: TokenStream,
        room: TokenStream,
    ) -> (TokenStream, TokenStream, TokenStream) {
        let rt = rt();
        match fixed_elem(self.spec, f) {
            Some(stride) => (
                quote!(),
                quote!(#rt::Strided::new(_at, #stride, #len)),
                quote!(),
            ),
            None => (
                quote!(if L {
                    _ps.push(_p);
                }),
                quote!(#rt::Each { span: #rt::Span::new(_at, _io.pos()), items: _ps }),
                quote!(let mut _ps = ::std::vec::Vec::with_capacity(#room);),
            ),
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
            fallible: false,
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

    /// One value `v` of field `fi` (an element, for a list) as an expression sees it (what `_`
    /// names), and its type.
    pub fn element_value(&self, t: &Type, fi: usize, v: TokenStream) -> R<(TokenStream, ETy)> {
        let rt = rt();
        let f = &t.fields[fi];
        Ok(match &f.ty {
            FieldType::Prim(p) if p.kind != PrimKind::F => (quote!(#rt::Int::int(&#v)), ETy::Int),
            FieldType::Bits(n) if *n > 1 => (quote!(#rt::Int::int(&#v)), ETy::Int),
            FieldType::Bits(_) => (quote!((*&#v)), ETy::Bool),
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                (v, ETy::User(r.name.clone()))
            }
            FieldType::Bytes(_) => (v, ETy::Bytes),
            FieldType::Str { .. } | FieldType::Strz { .. } => (v, ETy::Str),
            _ => {
                return Err(format!(
                    "{}.{}: its values cannot be used in an expression",
                    t.name, f.id
                ))
            }
        })
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
        let (under, under_ty) = self
            .element_value(t, fi, v.clone())
            .map_err(|_| format!("{}.{}: valid is not supported on this type", t.name, f.id))?;
        let mut sc = self.elem_scope(t, fi, visible);
        let is_int = under_ty == ETy::Int;
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
                for (m, op) in [(min, quote!(>=)), (max, quote!(<=))] {
                    if let Some(m) = m {
                        let x = sc.int_of(m)?;
                        conds.push(quote!(#under #op #x));
                        words.push(format!("{op} {m}"));
                    }
                }
                let h = min.iter().chain(max).any(hex);
                (quote!(#(#conds)&&*), words.join(" and "), h)
            }
            Valid::AnyOf(es) => {
                let conds = es.iter().map(|e| sc.int_of(e)).collect::<R<Vec<_>>>()?;
                let words: Vec<String> = es.iter().map(|e| e.to_string()).collect();
                (
                    quote!(#(#under == #conds)||*),
                    format!("one of {}", words.join(", ")),
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
            let order = names::order(*e);
            arms.push(quote!(if _on == #kc { #order }));
        }
        let keys: Vec<String> = cases.iter().map(|(k, _)| k.to_string()).collect();
        let expected = format!("`{on}` to be one of {} (the byte order)", keys.join(", "));
        Ok(quote! {
            let _endian: #rt::Endian = {
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
