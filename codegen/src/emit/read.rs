//! The reader: one function per spec type that reads a borrowed view from an `rt::Input` and,
//! when `L` (located) is set, records where every field lies.

use super::names::{self, rt};
use super::{Gen, R};
use meshspec_model::*;
use proc_macro2::TokenStream;
use quote::quote;

impl<'a> Gen<'a> {
    /// The body of `read_in`.
    pub fn read_fn(&self, t: &'a Type) -> R<TokenStream> {
        let rt = rt();
        let args = self.args_pat(t);
        let pos = names::pos(t);
        let mut body = quote!();
        if block_offsets(t).is_some() {
            // A block type: read in one go when the input holds it all; otherwise field by
            // field below, for an error that names the field where the input ends.
            let size64 = t.fixed_size.expect("block types have a fixed size");
            body.extend(quote! {
                if _io.left() >= #size64 {
                    let _b = _io.take(#size64, "")?;
                    <Self as #rt::pod::Block>::check(_b, _start)?;
                    let _v = <Self as #rt::pod::Block>::decode(_b);
                    return Ok((_v, if L { Some(<#pos as #rt::Fixed>::at(_start, #size64)) } else { None }));
                }
            });
        }
        body.extend(Self::per_field(
            t,
            |first, count, bits| self.read_bits(t, first, count, bits),
            |fi| self.read_field(t, fi),
        )?);
        let stored = names::stored(t);
        let view = self.view_name(t);
        let located = Self::located(t);
        let endian = self.endian_setup(t)?;
        Ok(quote! {
            let #args = _args;
            let _start = _io.pos();
            #endian
            #body
            Ok((#view { #(#stored),* }, #located))
        })
    }

    fn read_field(&self, t: &'a Type, fi: usize) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let sc = self.field_scope(t, fi, fi);
        let id = names::ident(&f.id);
        let p = names::pos_local(f);
        let name = &f.id;
        let offset = self.offset_code(t, fi, fi)?;
        let value = match list_kind(self.spec, t, f) {
            None => {
                let elem = self.read_elem(t, fi)?;
                let valid = self.valid_code(t, fi, quote!(_v), false)?;
                quote!({ let (_v, _p) = #elem; #valid (_v, _p) })
            }
            Some(kind) => self.read_list(t, fi, kind)?,
        };
        let value = match &f.cond {
            Some(c) => {
                let c = sc.bool_of(c)?;
                quote!(if #c { let (_v, _p) = #value; (Some(_v), Some(_p)) } else { (None, None) })
            }
            None => value,
        };
        let (pre, post) = Self::measure(f);
        Ok(quote! {
            #pre
            let (#id, #p) = #rt::field(#name, || {
                #offset
                let _at = _io.pos();
                Ok(#value)
            })?;
            #post
        })
    }

    /// A repeated field: an expression evaluating to `(value, positions)`.
    fn read_list(&self, t: &'a Type, fi: usize, kind: ListKind) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let sc = self.field_scope(t, fi, fi);
        let count = match &f.repeat {
            Repeat::Expr(e) => {
                let e = sc.int_of(e)?;
                Some(quote!(#rt::input::count(_at, #e, "count")?))
            }
            _ => None,
        };
        match kind {
            ListKind::Nums(p) => {
                let ty = names::prim(p);
                let e = names::endian(self.spec, t, p);
                let size = u64::from(p.bytes);
                let k = p.ksy();
                match count {
                    Some(n) => Ok(quote!({
                        let _n = #n;
                        let _v = _io.nums::<#ty>(_n, #e)?;
                        (_v, #rt::Strided::new(_at, #size, _n as usize))
                    })),
                    None => Ok(quote!({
                        let _n = _io.left() / #size;
                        let _v = _io.nums::<#ty>(_n, #e)?;
                        if !_io.at_end() {
                            return Err(#rt::input::eof(_io.pos(), #k, #size, _io.left()).at_index(_n as usize));
                        }
                        (_v, #rt::Strided::new(_at, #size, _n as usize))
                    })),
                }
            }
            ListKind::Blocks(name) => {
                let target = names::ty(self.spec, &name);
                let o = names::owned(target);
                let size = target.fixed_size.expect("block types have a fixed size");
                let n = count.expect("block lists have a count");
                Ok(quote!({
                    let _n = #n;
                    let _v = _io.blocks::<#o>(_n)?;
                    (_v, #rt::Strided::new(_at, #size, _n as usize))
                }))
            }
            ListKind::Chunks(size) => {
                let size = sc.int_of(&size)?;
                let size = quote!(#rt::input::count(_at, #size, "size")?);
                match count {
                    Some(n) => Ok(quote!({
                        let _size = #size;
                        let _n = #n;
                        let _v = _io.chunks(_n, _size)?;
                        (_v, #rt::Strided::new(_at, _size, _n as usize))
                    })),
                    None => Ok(quote!({
                        let _size = #size;
                        if _size == 0 && !_io.at_end() {
                            return Err(#rt::Error::new(#rt::ErrorKind::Count, _at,
                                "an element that consumes input", "elements of 0 bytes"));
                        }
                        let _n = _io.left().checked_div(_size).unwrap_or(0);
                        let _v = _io.chunks(_n, _size)?;
                        if !_io.at_end() {
                            return Err(#rt::input::eof(_io.pos(), "bytes", _size, _io.left()).at_index(_n as usize));
                        }
                        (_v, #rt::Strided::new(_at, _size, _n as usize))
                    })),
                }
            }
            ListKind::Each => {
                let elem = self.read_elem(t, fi)?;
                let valid = self.valid_code(t, fi, quote!(_v), false)?;
                let one = quote!((|| -> #rt::Result<_> {
                    let _at = _io.pos();
                    let (_v, _p) = #elem;
                    #valid
                    Ok((_v, _p))
                })().map_err(|e| e.at_index(_i))?);
                // With a count (checked against the bytes left), the positions are reserved
                // as the values are: growing them one by one moved every element again.
                let room = if count.is_some() {
                    quote!(if L { _n as usize } else { 0 })
                } else {
                    quote!(0)
                };
                let (keep, pos, ps) = self.list_positions(f, quote!(_vs.len()), room);
                let min = self.min_elem(f);
                match count {
                    Some(n) => Ok(quote!({
                        let _n = #n;
                        _io.room(_n, #min)?;
                        let mut _vs = ::std::vec::Vec::with_capacity(_n as usize);
                        #ps
                        for _i in 0.._n as usize {
                            let (_v, _p) = #one;
                            _vs.push(_v);
                            #keep
                        }
                        let _pos = #pos;
                        (_vs, _pos)
                    })),
                    None => Ok(quote!({
                        let mut _vs = ::std::vec::Vec::new();
                        #ps
                        while !_io.at_end() {
                            let _i = _vs.len();
                            let _before = _io.pos();
                            let (_v, _p) = #one;
                            if _io.pos() == _before {
                                return Err(#rt::Error::new(#rt::ErrorKind::Count, _before,
                                    "an element that consumes input", "one that consumes nothing").at_index(_i));
                            }
                            _vs.push(_v);
                            #keep
                        }
                        let _pos = #pos;
                        (_vs, _pos)
                    })),
                }
            }
        }
    }

    /// One element of field `fi` at `_at`: an expression evaluating to `(value, positions)`.
    fn read_elem(&self, t: &'a Type, fi: usize) -> R<TokenStream> {
        let rt = rt();
        let f = &t.fields[fi];
        let sc = self.elem_scope(t, fi, fi);
        let span = quote!(#rt::Span::new(_at, _io.pos()));
        Ok(match &f.ty {
            FieldType::Prim(p) => {
                let ty = names::prim(*p);
                let e = names::endian(self.spec, t, *p);
                let k = p.ksy();
                let read = quote!(_io.prim::<#ty>(#e, #k)?);
                let v = match &f.enum_name {
                    Some(en) => {
                        let en = names::enum_ty(self.spec, en);
                        quote!(#en(#read))
                    }
                    None => read,
                };
                quote!({ let _v = #v; (_v, #span) })
            }
            FieldType::User(r) => {
                let o = names::owned(names::ty(self.spec, &r.name));
                let args = self.args_code(&sc, r)?;
                let read = quote!(<#o as #rt::Codec>::read_in::<L>(_io, _args));
                // A value of a type inside itself, or an element of a tree of values: nesting
                // is bounded, so no input can exhaust the stack (a list is the indirection of
                // a tree, so no box).
                let read = if boxed(self.spec, t, f) || self.recursive_list(t, f) {
                    quote!(_io.nested(_at, |_io| #read)?)
                } else {
                    quote!(#read?)
                };
                let wrap = self.wrap_read(t, f);
                quote!({ let _args = #args; let (_v, _p) = #read; #wrap })
            }
            FieldType::Bytes(s) => {
                let read = match s {
                    Size::Expr(e) => {
                        let e = sc.int_of(e)?;
                        quote!(_io.take(#rt::input::count(_at, #e, "size")?, "bytes")?)
                    }
                    Size::Eos => quote!(_io.rest()),
                };
                quote!({ let _v = #read; (_v, #span) })
            }
            FieldType::Str { size, encoding } => {
                let read = match size {
                    Size::Expr(e) => {
                        let e = sc.int_of(e)?;
                        quote!(_io.text(#rt::input::count(_at, #e, "size")?, #encoding)?)
                    }
                    Size::Eos => quote!(_io.text_eos(#encoding)?),
                };
                quote!({ let _v = #read; (_v, #span) })
            }
            FieldType::Strz { encoding } => {
                quote!({ let _v = _io.strz(#encoding)?; (_v, #span) })
            }
            FieldType::Contents(bytes) => {
                quote!({ _io.magic(&[#(#bytes),*])?; ((), #span) })
            }
            FieldType::SizedUser { r#ref: r, size } => {
                let o = names::owned(names::ty(self.spec, &r.name));
                let args = self.args_code(&sc, r)?;
                let read = quote!(<#o as #rt::Codec>::read_in::<L>(_io, _args));
                let inner = match size {
                    Size::Expr(e) => {
                        let e = sc.int_of(e)?;
                        quote!(_io.sized(#rt::input::count(_at, #e, "size")?, |_io| #read)?)
                    }
                    Size::Eos => quote!(#read?),
                };
                let wrap = self.wrap_read(t, f);
                quote!({ let _args = #args; let (_v, _p) = #inner; #wrap })
            }
            FieldType::Switch { on, cases } => {
                let vname = self.switch_view_name(t, f);
                let pname = names::switch_pos(t, f);
                let on_code = sc.int_of(on)?;
                let mut arms = vec![];
                let mut keys = vec![];
                for (k, r) in cases {
                    let target = names::ty(self.spec, &r.name);
                    let o = names::owned(target);
                    let kc = sc.int_of(k)?;
                    keys.push(k.to_string());
                    let args = self.args_code(&sc, r)?;
                    arms.push(quote! {
                        if _on == #kc {
                            let _args = #args;
                            let (_v, _p) = <#o as #rt::Codec>::read_in::<L>(_io, _args)?;
                            (#vname::#o(_v), #pname::#o(_p.unwrap_or_default()))
                        }
                    });
                }
                let expected = format!("`{on}` to be one of {}", keys.join(", "));
                quote!({
                    let _on: i128 = #on_code;
                    #(#arms else)* {
                        return Err(#rt::Error::new(#rt::ErrorKind::Switch, _at, #expected, _on.to_string()));
                    }
                })
            }
            FieldType::Bits(_) => unreachable!("bit groups are read together"),
        })
    }

    /// A value `_v` of a spec type read with its positions `_p`, as field `f` holds them.
    fn wrap_read(&self, t: &Type, f: &Field) -> TokenStream {
        if boxed(self.spec, t, f) {
            quote!((
                ::std::boxed::Box::new(_v),
                ::std::boxed::Box::new(_p.unwrap_or_default())
            ))
        } else {
            quote!((_v, _p.unwrap_or_default()))
        }
    }

    fn read_bits(&self, t: &'a Type, first: usize, count: usize, bits: u32) -> R<TokenStream> {
        let rt = rt();
        let bytes = u64::from(bits / 8);
        let offset = self.offset_code(t, first, first)?;
        let name = &t.fields[first].id;
        let mut out = quote! {
            let (_bits, _group) = #rt::field(#name, || {
                #offset
                let _at = _io.pos();
                let _raw = _io.take(#bytes, "bits")?;
                Ok((_raw, #rt::Span::new(_at, _io.pos())))
            })?;
            let _at = _group.start;
        };
        // The first field holds the group's lowest bits, each next one the bits above.
        let mut lo = 0u32;
        for fi in first..first + count {
            let f = &t.fields[fi];
            let FieldType::Bits(n) = f.ty else {
                unreachable!("a bit group holds bit fields")
            };
            let id = names::ident(&f.id);
            let p = names::pos_local(f);
            let name = &f.id;
            let valid = self.valid_code(t, fi, quote!(_v), false)?;
            let ty = self.owned_field(t, f);
            let get = if n == 1 {
                quote!(#rt::bits::get(_bits, #lo, 1) != 0)
            } else {
                let vt = names::bits_value(n);
                quote!(#rt::bits::get(_bits, #lo, #n) as #vt)
            };
            out.extend(quote! {
                let #id: #ty = #rt::field(#name, || { let _v = #get; #valid Ok(_v) })?;
                let #p = _group;
            });
            lo += n;
        }
        Ok(out)
    }
}
