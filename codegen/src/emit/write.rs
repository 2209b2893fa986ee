//! The writer: one function per spec type that writes the owned value to an `rt::Output`,
//! recomputing counts, sizes and stored totals, refusing what it cannot recompute, and (with
//! `L`) returning where every field went.

use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// A size field whose value is the written size of a part after it: left as a hole and
/// patched once the part is written, unless an expression needs the value before the part is
/// written (then the part is measured first).
fn patched_by(t: &Type, fi: usize) -> Option<usize> {
    match t.fields[fi].users.first() {
        Some(&(gi, Use::Size))
            if matches!(t.fields[gi].ty, FieldType::SizedUser { .. })
                && !needed_before(t, fi, gi) =>
        {
            Some(gi)
        }
        _ => None,
    }
}

/// Whether an expression of the fields after size field `fi`, up to the part `gi` it
/// measures, uses its value.
fn needed_before(t: &Type, fi: usize, gi: usize) -> bool {
    let id = &t.fields[fi].id;
    t.fields[fi + 1..=gi].iter().any(|f| {
        let mut uses = field_exprs(f);
        if let FieldType::SizedUser {
            size: Size::Expr(e),
            ..
        } = &f.ty
        {
            uses.retain(|x| !std::ptr::eq(*x, e));
        }
        uses.iter().any(|e| e.names().iter().any(|n| n == id))
    })
}

/// Whether count field `f` is, or counts, something conditional: it is then the length of the
/// first of its lists that is present (the stored value where none is), written where its own
/// condition holds.
fn counts_any(t: &Type, f: &Field) -> bool {
    !f.users.is_empty()
        && f.users.iter().all(|&(_, u)| u == Use::Count)
        && (f.cond.is_some() || f.users.iter().any(|&(gi, _)| t.fields[gi].cond.is_some()))
}

/// Whether a size is an alignment pad, `(N - x % N) % N` or any remainder by a literal: fewer
/// than N bytes, whose length the writer recomputes from where the pad lies.
pub fn alignment(e: &meshspec_model::expr::Expr) -> bool {
    use meshspec_model::expr::{BinOp, Expr};
    matches!(e, Expr::Binary(BinOp::Rem, _, n) if matches!(**n, Expr::Int { value, .. } if value > 0))
}

fn stored_local(f: &Field) -> proc_macro2::Ident {
    format_ident!("_stored_{}", f.id)
}

fn hole_local(f: &Field) -> proc_macro2::Ident {
    format_ident!("_hole_{}", f.id)
}

impl<'a> Gen<'a> {
    /// The body of `size_hint`: the bytes the value will take, summed without writing (exact
    /// for everything but parts whose size a writer decides), so the output is allocated once.
    pub fn size_hint_fn(&self, t: &'a Type) -> TokenStream {
        let rt = rt();
        if let Some(n) = t.fixed_size {
            let n = n as usize;
            return quote!(#n);
        }
        let owned = names::owned(t);
        let pat = names::stored(t);
        let mut parts = vec![];
        let mut bits = 0u64;
        for f in &t.fields {
            if let FieldType::Bits(n) = f.ty {
                bits += u64::from(n);
                continue;
            }
            let id = names::ident(&f.id);
            let one = |x: TokenStream| -> TokenStream {
                match &f.ty {
                    FieldType::Prim(p) => {
                        let n = usize::from(p.bytes);
                        quote!(#n)
                    }
                    FieldType::Contents(c) => {
                        let n = c.len();
                        quote!(#n)
                    }
                    FieldType::Bytes(_) | FieldType::Str { .. } => quote!(#x.len()),
                    FieldType::Strz { .. } => quote!(#x.len() + 1),
                    FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                        let o = names::owned(names::ty(self.spec, &r.name));
                        quote!(<#o as #rt::Codec>::size_hint(#x))
                    }
                    FieldType::Switch { .. } => quote!(16usize),
                    FieldType::Bits(_) => unreachable!("bit groups are counted together"),
                }
            };
            let size = if matches!(f.ty, FieldType::Contents(_)) {
                one(quote!(()))
            } else if matches!(f.repeat, Repeat::None) {
                if f.cond.is_some() {
                    let e = one(quote!(_x));
                    quote!(#id.as_ref().map_or(0, |_x| #e))
                } else {
                    one(quote!(#id))
                }
            } else {
                let e = one(quote!(_x));
                let list = quote!(_l.iter().map(|_x| #e).sum::<usize>());
                if f.cond.is_some() {
                    quote!(#id.as_ref().map_or(0, |_l| #list))
                } else {
                    quote!({ let _l = #id; #list })
                }
            };
            parts.push(size);
        }
        let bytes = (bits / 8) as usize;
        quote! {
            let #owned { #(#pat,)* .. } = self;
            #bytes #(+ #parts)*
        }
    }

    /// The body of `write_out`.
    pub fn write_fn(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let args = self.args_pat(t);
        let pos = names::pos(t);
        let pat = t.stored().map(|f| {
            let id = names::ident(&f.id);
            if f.users.is_empty() && f.derive.is_none() {
                quote!(#id)
            } else if counts_any(t, f) {
                let stored = stored_local(f);
                quote!(#id: #stored)
            } else {
                quote!(#id: _)
            }
        });
        let owned = names::owned(t);
        if block_offsets(t).is_some() {
            let size = t.fixed_size.expect("block types have a fixed size");
            let n = size as usize;
            return Ok(quote! {
                let #args = _args;
                let _start = _io.pos();
                let mut _b = [0u8; #n];
                #rt::pod::Block::encode(self, &mut _b, _start)?;
                _io.bytes(&_b);
                Ok(if L { Some(<#pos as #rt::Fixed>::at(_start, #size)) } else { None })
            });
        }
        let mut body = quote!();
        for f in &t.fields {
            if matches!(f.ty, FieldType::Contents(_)) {
                let id = names::ident(&f.id);
                body.extend(quote!(let #id = &();));
            }
        }
        body.extend(Self::per_field(
            t,
            |first, count, _| self.write_bits(t, first, count),
            |fi| self.write_field(t, fi),
        )?);
        let located = Self::located(t);
        let endian = self.endian_setup(t)?;
        Ok(quote! {
            let #args = _args;
            let _start = _io.pos();
            #endian
            let #owned { #(#pat),* } = self;
            #body
            Ok(#located)
        })
    }

    fn write_field(&self, t: &'a Type, fi: usize) -> R<TokenStream> {
        let f = &t.fields[fi];
        let (pre, post) = Self::measure(f);
        let pre = if (0..fi).any(|x| patched_by(t, x) == Some(fi)) {
            let s = format_ident!("_part_start_{}", f.id);
            quote!(#pre let #s = _io.pos();)
        } else {
            pre
        };
        let write = self.write_value(t, fi)?;
        let patches = self.patches_after(t, fi)?;
        Ok(quote! {
            #pre
            #write
            #post
            #patches
        })
    }

    /// The statement that writes field `fi` and binds its positions (and the value written,
    /// for a number the writer computes).
    fn write_value(&self, t: &'a Type, fi: usize) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let sc = self.field_scope(t, fi, t.fields.len());
        let id = names::ident(&f.id);
        let p = names::pos_local(f);
        let name = &f.id;
        let offset = self.offset_code(t, fi, t.fields.len())?;
        let number = |(ty, write): (proc_macro2::Ident, TokenStream)| quote!(let (#id, #p): (#ty, #rt::Span) = #write;);

        if let Some(d) = &f.derive {
            // A stored total the document defines from other fields: written as its definition.
            let d = sc.int_of(d)?;
            return Ok(number(self.write_number(
                t,
                fi,
                quote!(),
                quote!(fit_i),
                d,
            )?));
        }
        if patched_by(t, fi).is_some() {
            // The size of a part written later: a hole now, filled once the part is written.
            let FieldType::Prim(pr) = f.ty else {
                unreachable!("only plain integers are recomputed")
            };
            let ty = names::prim(pr);
            let h = hole_local(f);
            return Ok(quote! {
                let (#h, #p) = #rt::field(#name, || {
                    let _at = _io.pos();
                    #offset
                    let _h = _io.hole::<#ty>();
                    Ok((_h, #rt::Span::new(_at, _io.pos())))
                })?;
            });
        }
        if counts_any(t, f) {
            let cands = f.users.iter().map(|&(gi, _)| {
                let g = &t.fields[gi];
                let gid = names::ident(&g.id);
                if g.cond.is_some() {
                    quote!(#gid.as_ref().map(|_g| _g.len() as u64))
                } else {
                    quote!(::std::option::Option::Some(#gid.len() as u64))
                }
            });
            let stored = stored_local(f);
            let fallback = if f.cond.is_some() {
                quote!(#stored.as_ref().and_then(|_s| u64::try_from(#rt::Int::int(_s)).ok()).unwrap_or(0))
            } else {
                quote!(u64::try_from(#rt::Int::int(#stored)).unwrap_or(0))
            };
            let count = quote! {
                let _n: u64 = ::std::option::Option::None #(.or(#cands))*
                    .unwrap_or_else(|| #fallback);
            };
            let (ty, write) = self.write_number(t, fi, count, quote!(fit), quote!(_n))?;
            return Ok(match &f.cond {
                Some(c) => {
                    let cc = sc.bool_of(c)?;
                    quote! {
                        let (#id, #p): (::std::option::Option<#ty>, ::std::option::Option<#rt::Span>) =
                            if #cc {
                                let (_v, _s) = #write;
                                (::std::option::Option::Some(_v), ::std::option::Option::Some(_s))
                            } else {
                                (::std::option::Option::None, ::std::option::Option::None)
                            };
                    }
                }
                None => number((ty, write)),
            });
        }
        if let Some((gi, use_)) = f.users.first().copied() {
            // A count or size recomputed from the data it counts.
            let g = &t.fields[gi];
            let gid = names::ident(&g.id);
            let n = match (use_, &g.ty) {
                (Use::Count, _) | (Use::Size, FieldType::Bytes(_) | FieldType::Str { .. }) => {
                    quote!(#gid.len() as u64)
                }
                (Use::Size, FieldType::SizedUser { r#ref: r, .. }) => {
                    // Needed before the part is written: measured by writing it aside. A part
                    // that cannot be written measures 0, and writing it then fails at its own
                    // offset and path.
                    let args = self.args_code(&sc, r)?;
                    quote!({
                        let _args = #args;
                        let mut _m = #rt::Output::default();
                        #rt::Codec::write_out::<false>(#gid, &mut _m, _args).map(|_| _m.pos()).unwrap_or(0)
                    })
                }
                _ => return Err(format!("{}.{}: cannot recompute this size", t.name, f.id)),
            };
            return Ok(number(self.write_number(
                t,
                fi,
                quote!(),
                quote!(fit),
                n,
            )?));
        }

        let value = match list_kind(self.spec, t, f) {
            None => {
                let elem = self.write_elem(t, fi)?;
                let valid = self.valid_code(t, fi, quote!(_v), true)?;
                quote!({ #valid #elem })
            }
            Some(kind) => self.write_list(t, fi, kind)?,
        };
        let value = match &f.cond {
            Some(c) => {
                let cc = sc.bool_of(c)?;
                let text = c.to_string();
                let present = match &f.repeat {
                    Repeat::None => value,
                    _ => quote!({ let #id = _v; #value }),
                };
                quote! {
                    match (#cc, #id.as_ref()) {
                        (true, Some(_v)) => Some(#present),
                        (false, None) => None,
                        (true, None) => return Err(#rt::output::presence(_at, #text, true)),
                        (false, Some(_)) => return Err(#rt::output::presence(_at, #text, false)),
                    }
                }
            }
            None => match &f.repeat {
                Repeat::None => quote!({ let _v = #id; #value }),
                _ => value,
            },
        };
        Ok(quote! {
            let #p = #rt::field(#name, || {
                let _at = _io.pos();
                #offset
                Ok(#value)
            })?;
        })
    }

    /// A number field `fi` the writer computes: its type, and the expression that writes
    /// `n` (after the statements `before`), fitted to the type by `rt::output::#fit` and
    /// checked, evaluating to the value and its span.
    fn write_number(
        &self,
        t: &'a Type,
        fi: usize,
        before: TokenStream,
        fit: TokenStream,
        n: TokenStream,
    ) -> R<(proc_macro2::Ident, TokenStream)> {
        let rt = rt();
        let f = &t.fields[fi];
        let FieldType::Prim(pr) = f.ty else {
            unreachable!("only plain integers are recomputed")
        };
        let offset = self.offset_code(t, fi, t.fields.len())?;
        let valid = self.valid_code(t, fi, quote!((&_v)), true)?;
        let ty = names::prim(pr);
        let e = names::endian(self.spec, t, pr);
        let (name, k, max) = (&f.id, pr.ksy(), pr.max());
        let write = quote! {
            #rt::field(#name, || {
                let _at = _io.pos();
                #offset
                #before
                let _v: #ty = #rt::output::#fit(_at, #n, #k, #max)?;
                #valid
                _io.prim(#e, _v);
                Ok((_v, #rt::Span::new(_at, _io.pos())))
            })?
        };
        Ok((ty, write))
    }

    /// After writing field `gi`: fill the holes of the size fields that measure it.
    fn patches_after(&self, t: &'a Type, gi: usize) -> R<TokenStream> {
        let rt = rt();
        let mut out = quote!();
        for fi in 0..gi {
            if patched_by(t, fi) != Some(gi) {
                continue;
            }
            let f = &t.fields[fi];
            let FieldType::Prim(pr) = f.ty else {
                unreachable!("only plain integers are recomputed")
            };
            let id = names::ident(&f.id);
            let h = hole_local(f);
            let start = format_ident!("_part_start_{}", t.fields[gi].id);
            let ty = names::prim(pr);
            let e = names::endian(self.spec, t, pr);
            let (name, k, max) = (&f.id, pr.ksy(), pr.max());
            let valid = self.valid_code(t, fi, quote!((&_v)), true)?;
            out.extend(quote! {
                let #id: #ty = #rt::field(#name, || {
                    let _at = #h;
                    let _v: #ty = #rt::output::fit(_at, _io.pos() - #start, #k, #max)?;
                    #valid
                    _io.patch::<#ty>(_at, #e, _v);
                    Ok(_v)
                })?;
            });
        }
        Ok(out)
    }

    /// A repeated field `#id` (a reference to the list): an expression evaluating to its
    /// positions.
    fn write_list(&self, t: &'a Type, fi: usize, kind: ListKind) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let id = names::ident(&f.id);
        let sc = self.field_scope(t, fi, t.fields.len());
        let check = match &f.repeat {
            // A count of `_io.size` is whatever fills the part: the part is measured from
            // the elements written, so there is nothing to agree with.
            Repeat::Expr(e) if !self.recomputed_from(t, e, fi) && !e.uses_io_size() => {
                let c = sc.int_of(e)?;
                let text = e.to_string();
                quote!(#rt::output::agree(_at, #id.len() as u64, #c, #text, "elements")?;)
            }
            _ => quote!(),
        };
        Ok(match kind {
            ListKind::Nums(p) => {
                let e = names::endian(self.spec, t, p);
                let size = u64::from(p.bytes);
                quote!({ #check _io.prims(#e, #id); #rt::Strided::new(_at, #size, #id.len()) })
            }
            ListKind::Blocks(name) => {
                let size = names::ty(self.spec, &name)
                    .fixed_size
                    .expect("block types have a fixed size");
                quote!({ #check _io.blocks(#id)?; #rt::Strided::new(_at, #size, #id.len()) })
            }
            ListKind::Chunks(size) => {
                // Each run must take the size the spec gives (checked per element), so the
                // positions are base and stride, as the reader records them.
                let elem = self.write_elem(t, fi)?;
                let size = sc.int_of(&size)?;
                quote!({
                    #check
                    for (_i, _v) in #id.iter().enumerate() {
                        (|| -> #rt::Result<_> {
                            let _at = _io.pos();
                            Ok(#elem)
                        })().map_err(|e| e.at_index(_i))?;
                    }
                    #rt::Strided::new(_at, (#size) as u64, #id.len())
                })
            }
            ListKind::Each => {
                let elem = self.write_elem(t, fi)?;
                let valid = self.valid_code(t, fi, quote!(_v), true)?;
                let room = quote!(if L { #id.len() } else { 0 });
                let (keep, pos, ps) = self.list_positions(f, quote!(#id.len()), room);
                quote!({
                    #check
                    #ps
                    for (_i, _v) in #id.iter().enumerate() {
                        let _p = (|| -> #rt::Result<_> {
                            let _at = _io.pos();
                            #valid
                            Ok(#elem)
                        })().map_err(|e| e.at_index(_i))?;
                        #keep
                    }
                    #pos
                })
            }
        })
    }

    /// One element `_v` (a reference) of field `fi` at `_at`: an expression evaluating to its
    /// positions.
    fn write_elem(&self, t: &'a Type, fi: usize) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let sc = self.elem_scope(t, fi, t.fields.len());
        let span = quote!(#rt::Span::new(_at, _io.pos()));
        Ok(match &f.ty {
            FieldType::Prim(p) => {
                let e = names::endian(self.spec, t, *p);
                let v = if f.enum_name.is_some() {
                    quote!(_v.0)
                } else {
                    quote!(*_v)
                };
                quote!({ _io.prim(#e, #v); #span })
            }
            FieldType::User(r) => {
                let args = self.args_code(&sc, r)?;
                let (boxed, v, wrap) = self.unboxed(t, f);
                // A value of a type inside itself nests as deep as the value does: bounded like
                // reading, so no value can exhaust the stack.
                let write = if boxed || self.recursive_list(t, f) {
                    quote!(_io.nested(_at, |_io| #rt::Codec::write_out::<L>(#v, _io, _args))?)
                } else {
                    quote!(#rt::Codec::write_out::<L>(#v, _io, _args)?)
                };
                quote!({
                    let _args = #args;
                    let _p = #write;
                    #wrap
                })
            }
            FieldType::Bytes(Size::Expr(e)) if alignment(e) => {
                // An alignment pad follows from what lies before it: stored bytes of the
                // length it keeps are kept, a length it no longer has is written as zeros.
                let n = sc.int_of(e)?;
                quote!({
                    let _n = #rt::input::count(_at, #n, "size")?;
                    if _v.len() as u64 == _n {
                        _io.bytes(_v);
                    } else {
                        _io.zeros(_n);
                    }
                    #span
                })
            }
            FieldType::Bytes(s) => {
                let check = self.agree_size(&sc, t, fi, s, quote!(_v.len()))?;
                quote!({ #check _io.bytes(_v); #span })
            }
            FieldType::Str { size, .. } => {
                let check = self.agree_size(&sc, t, fi, size, quote!(_v.len()))?;
                quote!({ #check _io.bytes(_v.as_bytes()); #span })
            }
            FieldType::Strz { .. } => quote!({ _io.strz(_v)?; #span }),
            FieldType::Contents(bytes) => {
                quote!({ let _ = _v; _io.bytes(&[#(#bytes),*]); #span })
            }
            FieldType::SizedUser { r#ref: r, size } => {
                let args = self.args_code(&sc, r)?;
                let (_, v, wrap) = self.unboxed(t, f);
                let write = quote!(#rt::Codec::write_out::<L>(#v, _io, _args)?);
                match size {
                    Size::Expr(e) if !self.recomputed_from(t, e, fi) => {
                        let n = sc.int_of(e)?;
                        quote!({
                            let _args = #args;
                            let _n = #rt::input::count(_at, #n, "size")?;
                            let mut _p = None;
                            _io.sized(_n, |_io| { _p = #write; Ok(()) })?;
                            #wrap
                        })
                    }
                    Size::Expr(_) => quote!({
                        let _args = #args;
                        let _p = _io.part(|_io| Ok(#write))?;
                        #wrap
                    }),
                    Size::Eos => quote!({ let _args = #args; let _p = #write; #wrap }),
                }
            }
            FieldType::Switch { on, cases } => {
                let en = names::switch_owned(t, f);
                let pn = names::switch_pos(t, f);
                let on_code = sc.int_of(on)?;
                let mut variants: Vec<(&Type, Vec<TokenStream>, TokenStream)> = vec![];
                for (k, r) in cases {
                    let target = names::ty(self.spec, &r.name);
                    let kc = sc.int_of(k)?;
                    match variants.iter_mut().find(|v| v.0.name == target.name) {
                        Some(v) => v.1.push(kc),
                        None => variants.push((target, vec![kc], self.args_code(&sc, r)?)),
                    }
                }
                let arms = variants.iter().map(|(target, keys, args)| {
                    let o = names::owned(target);
                    quote! {
                        #en::#o(_x) if #(_on == #keys)||* => {
                            let _args = #args;
                            #pn::#o(#rt::Codec::write_out::<L>(_x, _io, _args)?.unwrap_or_default())
                        }
                    }
                });
                let text = format!("the case that `{on}` = {{}} selects");
                quote!({
                    let _on: i128 = #on_code;
                    match _v {
                        #(#arms)*
                        _other => return Err(#rt::Error::new(#rt::ErrorKind::Inconsistent, _at,
                            format!(#text, _on), #rt::codec::variant_name(_other))),
                    }
                })
            }
            FieldType::Bits(_) => unreachable!("bit groups are written together"),
        })
    }

    /// For a field `f` of a spec type: whether it is boxed, the value `_v` (a reference) as the
    /// writer takes it, and the positions `_p` it returned as the field holds them.
    fn unboxed(&self, t: &Type, f: &Field) -> (bool, TokenStream, TokenStream) {
        if boxed(self.spec, t, f) {
            let wrap = quote!(::std::boxed::Box::new(_p.unwrap_or_default()));
            (true, quote!(&**_v), wrap)
        } else {
            (false, quote!(_v), quote!(_p.unwrap_or_default()))
        }
    }

    /// For a sized field whose size is not recomputed from it: the size must agree.
    fn agree_size(
        &self,
        sc: &super::expr::Scope,
        t: &Type,
        fi: usize,
        s: &Size,
        actual: TokenStream,
    ) -> R<TokenStream> {
        let rt = rt();
        let Size::Expr(e) = s else {
            return Ok(quote!());
        };
        if self.recomputed_from(t, e, fi) {
            return Ok(quote!());
        }
        let c = sc.int_of(e)?;
        let text = e.to_string();
        Ok(quote!(#rt::output::agree(_at, #actual as u64, #c, #text, "bytes")?;))
    }

    fn write_bits(&self, t: &'a Type, first: usize, count: usize) -> R<TokenStream> {
        let rt = rt();
        let bits: u32 = t.fields[first..first + count]
            .iter()
            .map(|f| match f.ty {
                FieldType::Bits(n) => n,
                _ => unreachable!("a bit group holds bit fields"),
            })
            .sum();
        let bytes = (bits / 8) as usize;
        let mut out = quote! {
            let _at = _io.pos();
            let mut _bits = [0u8; #bytes];
        };
        // The first field holds the group's lowest bits, each next one the bits above.
        let mut lo = 0u32;
        for fi in first..first + count {
            let f = &t.fields[fi];
            let FieldType::Bits(n) = f.ty else {
                unreachable!("a bit group holds bit fields")
            };
            let id = names::ident(&f.id);
            let valid = self.valid_code(t, fi, quote!(_v), true)?;
            let name = &f.id;
            out.extend(quote! {
                #rt::field(#name, || {
                    let _v = #id;
                    #valid
                    #rt::bits::set(&mut _bits, #lo, #n, u64::from(*_v))
                        .map_err(|_| #rt::output::too_wide(_at, #rt::Int::int(_v), #n))
                })?;
            });
            lo += n;
        }
        let offset = self.offset_code(t, first, t.fields.len())?;
        let name = &t.fields[first].id;
        out.extend(quote! {
            let _group = #rt::field(#name, || {
                let _at = _io.pos();
                #offset
                _io.bytes(&_bits);
                Ok(#rt::Span::new(_at, _io.pos()))
            })?;
        });
        for f in &t.fields[first..first + count] {
            let p = names::pos_local(f);
            out.extend(quote!(let #p = _group;));
        }
        Ok(out)
    }
}
