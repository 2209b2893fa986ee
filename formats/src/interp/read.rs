//! The interpreter's reader: the runtime calls the generated reader makes
//! (`codegen/src/emit/read.rs`), in the same order, so that an input gets the same error
//! (kind, offset, field path, expected, found) and the same warnings from both.

use super::check;
use super::eval::{Env, ParsedCache, Up};
use super::plan::{Bits, Elem, FieldPlan, List, Order, Plan, Proc, Size, TypePlan};
use super::value::{by_int, by_prim, Nums, Pos, StructPos, Val};
use crate::rt::input::{count, eof};
use crate::rt::{self, codec, Error, ErrorKind, Input, Params, Result, Span};
use binrw::Endian;
use meshspec_model::Prim;
use std::borrow::Cow;

/// The most bytes a `process: zlib` part may decompress to: a stream of a few kilobytes can
/// claim gigabytes, and a reading's memory stays bounded.
const ZLIB_MAX: u64 = 256 << 20;

/// The spec's name of a number type (`u2`), as the generated reader names it in errors.
pub(super) fn ksy(p: Prim) -> &'static str {
    use meshspec_model::PrimKind as K;
    match (p.kind, p.bytes) {
        (K::U, 1) => "u1",
        (K::U, 2) => "u2",
        (K::U, 4) => "u4",
        (K::U, _) => "u8",
        (K::S, 1) => "s1",
        (K::S, 2) => "s2",
        (K::S, 4) => "s4",
        (K::S, _) => "s8",
        (K::F, 4) => "f4",
        (K::F, _) => "f8",
    }
}

/// A value converted to a parameter's type (`rt::codec::arg`), back as an expression value.
pub(super) fn arg(at: u64, v: i128, p: Prim, name: &str) -> Result<i128> {
    by_int!(p, T => arg_int::<T>(at, v, name))
}

fn arg_int<T: TryFrom<i128> + Copy>(at: u64, v: i128, name: &str) -> Result<i128>
where
    i128: TryFrom<T>,
{
    let x: T = codec::arg(at, v, name)?;
    Ok(i128::try_from(x).unwrap_or(v))
}

/// The byte order of a value of type `ty` starting at `start`: fixed, chosen by its
/// parameters or the values it is read in (`up`), or `up`'s own (refused where it starts when
/// none is chosen, or there is no value it is read in).
pub(super) fn type_order(
    plan: &Plan,
    ty: usize,
    args: &[i128],
    start: u64,
    up: Option<&Up<'_, '_>>,
) -> Result<Endian> {
    let tp = &plan.types[ty];
    match &tp.order {
        Order::Fixed(e) => Ok(*e),
        Order::Inherit => up.map(|u| u.order).ok_or_else(|| {
            Error::new(
                ErrorKind::Input,
                start,
                format!(
                    "`{}` read inside a value whose byte order it takes",
                    tp.t.name
                ),
                "a value read on its own",
            )
        }),
        Order::Switch {
            on,
            cases,
            expected,
        } => {
            let env = Env {
                start,
                here: up.map(|u| Up {
                    plan,
                    ty,
                    fields: &[],
                    up: Some(u),
                    stream: None,
                    parsed: None,
                    growing: None,
                    order: u.order,
                    bits_left: false,
                }),
                ..Env::params(args)
            };
            for (test, e) in cases {
                if env.bool(test)? {
                    return Ok(*e);
                }
            }
            let found = match on {
                Some(on) => env.int(on)?.to_string(),
                None => "none of them".into(),
            };
            Err(Error::new(ErrorKind::Switch, start, expected, found))
        }
    }
}

/// A number's byte order: its own, else its type's.
pub(super) fn prim_order(p: Prim, ty: Endian) -> Endian {
    p.endian.map(super::plan::order).unwrap_or(ty)
}

/// The arguments of a parameterised layout from the values the user gave, by the names the
/// spec's `-context` gives them (or the parameters' own names).
pub(super) fn root_args(tp: &TypePlan, params: &dyn Params) -> Result<Vec<i128>> {
    tp.t.params
        .iter()
        .map(|p| {
            let name = p.context.as_deref().unwrap_or(&p.id);
            // A parameter with a `-default` takes it when the user gives no value.
            let v = match (params.param(name), p.default) {
                (Some(v), _) | (None, Some(v)) => v,
                (None, None) => return Err(codec::missing_param(name)),
            };
            arg(0, v, p.prim, &p.id)
        })
        .collect()
}

/// Reads values of a compiled spec; with `loc`, records where every field lies.
pub(crate) struct Reader<'p> {
    pub plan: &'p Plan,
    pub loc: bool,
}

/// What a type's reader holds while it reads a value.
struct Frame<'f, 'a> {
    ty: usize,
    /// The value this one lies in, being read.
    up: Option<&'f Up<'f, 'a>>,
    plan: &'f Plan,
    tp: &'f TypePlan,
    args: &'f [i128],
    start: u64,
    order: Endian,
    vals: Vec<Val<'a>>,
    sizeof: Vec<u64>,
    /// Its instances read from the bytes, once asked.
    parsed: ParsedCache<'a>,
    /// The elements read so far of the list being read, and its field (`usize::MAX`: none).
    growing: std::cell::RefCell<Vec<Val<'a>>>,
    growing_at: std::cell::Cell<usize>,
    /// Bits of the last byte read are left for the bit fields of a run ([`Up::bits_left`]).
    bits_left: std::cell::Cell<bool>,
}

impl<'a> Frame<'_, 'a> {
    fn env<'e>(&'e self, io: &Input<'a>, index: usize, under: Option<&'e Val<'a>>) -> Env<'e, 'a> {
        Env {
            fields: &self.vals,
            over: &[],
            params: self.args,
            sizeof: &self.sizeof,
            index,
            under,
            io: (io.io_pos(), io.io_size()),
            start: self.start,
            here: Some(Up {
                stream: Some((io.data(), io.base())),
                ..self.here()
            }),
        }
    }

    /// This value as the dynamic evaluator sees it.
    fn here(&self) -> Up<'_, 'a> {
        Up {
            plan: self.plan,
            ty: self.ty,
            fields: &self.vals,
            up: self.up,
            stream: None,
            parsed: Some(&self.parsed),
            growing: Some((self.growing_at.get(), &self.growing)),
            order: self.order,
            bits_left: self.bits_left.get(),
        }
    }
}

impl Reader<'_> {
    /// A whole input read as type `ty`: the value, its positions and the warnings recorded
    /// (what `rt::Root::parse` does).
    pub fn parse<'a>(
        &self,
        ty: usize,
        input: &'a [u8],
        params: &dyn Params,
    ) -> Result<(Val<'a>, Pos, Vec<Error>)> {
        let tp = &self.plan.types[ty];
        let root = tp.t.name.as_str();
        let args = root_args(tp, params)?;
        let mut io = Input::new(input);
        let (v, p) = self
            .read_type(&mut io, ty, &args)
            .map_err(|e| e.rooted(root.to_string()))?;
        let warnings = io.finish().map_err(|e| e.rooted(root.to_string()))?;
        let warnings = warnings
            .into_iter()
            .map(|w| w.rooted(root.to_string()))
            .collect();
        Ok((v, p, warnings))
    }

    /// Instance `k` of type `ty` read from the bytes, for a value of that type whose fields
    /// are `fields`: at `at` of `input` (an offset in the whole input, the instance's `pos`
    /// added to its stream's start), its stream ending at `end`.
    #[allow(clippy::too_many_arguments)]
    pub fn read_instance<'a>(
        &self,
        input: &'a [u8],
        ty: usize,
        k: usize,
        fields: &[Val<'a>],
        args: &[i128],
        order: Endian,
        at: u64,
        end: u64,
    ) -> Result<(Val<'a>, Pos)> {
        let tp = &self.plan.types[ty];
        let (fp, _) = &tp.parsed[k];
        let end = usize::try_from(end).unwrap_or(usize::MAX).min(input.len());
        let mut io = Input::new(&input[..end]);
        let fr = Frame {
            ty,
            up: None,
            plan: self.plan,
            tp,
            args,
            start: at,
            order,
            vals: fields.to_vec(),
            sizeof: vec![],
            parsed: Default::default(),
            growing: Default::default(),
            growing_at: std::cell::Cell::new(usize::MAX),
            bits_left: Default::default(),
        };
        // An instance whose `if` does not hold is not read, wherever its pos points.
        if let Some(c) = &fp.cond {
            if !fr.env(&io, 0, None).bool(c)? {
                return Ok((Val::Absent, Pos::Absent));
            }
        }
        io.take(at, "the bytes before the instance's pos")?;
        rt::field(fp.id, || self.read_field(&mut io, &fr, fp))
    }

    /// A value of type `ty` at the input's position (`Codec::read_in`).
    pub fn read_type<'a>(
        &self,
        io: &mut Input<'a>,
        ty: usize,
        args: &[i128],
    ) -> Result<(Val<'a>, Pos)> {
        self.read_in(io, ty, args, None)
    }

    /// [`Reader::read_type`] for a value that lies in `up` (being read).
    fn read_in<'a>(
        &self,
        io: &mut Input<'a>,
        ty: usize,
        args: &[i128],
        up: Option<&Up<'_, 'a>>,
    ) -> Result<(Val<'a>, Pos)> {
        let tp = &self.plan.types[ty];
        let start = io.pos();
        let order = type_order(self.plan, ty, args, start, up)?;
        let n = tp.fields.len();
        let mut fr = Frame {
            ty,
            up,
            plan: self.plan,
            tp,
            args,
            start,
            order,
            vals: Vec::with_capacity(n),
            sizeof: if tp.measured { vec![0; n] } else { vec![] },
            parsed: std::cell::RefCell::new(vec![None; tp.parsed.len()]),
            growing: Default::default(),
            growing_at: std::cell::Cell::new(usize::MAX),
            bits_left: Default::default(),
        };
        let mut poss = Vec::with_capacity(if self.loc { n } else { 0 });
        let mut fi = 0;
        while fi < n {
            let fp = &tp.fields[fi];
            if let Some(count) = fp.bit_run {
                let run = self.read_bit_run(io, &mut fr, fi, count)?;
                if self.loc {
                    poss.extend(fr.vals[fi..].iter().map(|v| match v {
                        Val::Absent => Pos::Absent,
                        _ => Pos::Span(run),
                    }));
                }
                fi += count;
                continue;
            }
            if let Some(b) = fp.bits {
                let group = self.read_bits(io, &mut fr, b)?;
                if self.loc {
                    poss.extend((0..b.count).map(|_| Pos::Span(group)));
                }
                fi += b.count;
                continue;
            }
            let before = io.pos();
            let (v, p) = rt::field(fp.id, || self.read_field(io, &fr, fp))?;
            if fp.f.measured {
                fr.sizeof[fi] = io.pos() - before;
            }
            fr.vals.push(v);
            if self.loc {
                poss.push(p);
            }
            fi += 1;
        }
        let pos = if self.loc {
            Pos::Struct(StructPos {
                ty,
                span: Span::new(start, io.pos()),
                fields: poss.into_boxed_slice(),
            })
        } else {
            Pos::Absent
        };
        // The instances read from the bytes while the value was read are kept after its
        // fields: asked later, they are those values (Kaitai reads an instance once).
        // So are its arguments, after them (Kaitai keeps a value's parameters: `header.len`).
        let mut vals = fr.vals;
        let parsed = fr.parsed.into_inner();
        if parsed.iter().any(Option::is_some) || !args.is_empty() {
            vals.resize(n, Val::Absent);
            vals.extend(
                parsed
                    .into_iter()
                    .map(|p| p.map_or(Val::Absent, |(v, _, _)| v)),
            );
            vals.extend(args.iter().map(|&a| match u64::try_from(a) {
                Ok(u) => Val::U(u),
                Err(_) => Val::I(a as i64),
            }));
        }
        Ok((Val::Struct(vals.into_boxed_slice()), pos))
    }

    fn read_field<'a>(
        &self,
        io: &mut Input<'a>,
        fr: &Frame<'_, 'a>,
        fp: &FieldPlan,
    ) -> Result<(Val<'a>, Pos)> {
        if let Some((ce, text)) = &fp.offset {
            let e = fr.env(io, 0, None).int(ce)?;
            io.offset(fr.start, e, text)?;
        }
        let at = io.pos();
        if let Some(c) = &fp.cond {
            if !fr.env(io, 0, None).bool(c)? {
                return Ok((Val::Absent, Pos::Absent));
            }
        }
        match &fp.list {
            None => {
                let (v, p) = self.read_elem(io, fr, fp, at, 0)?;
                refuse(fr, io, fp, &v, at, 0)?;
                Ok((v, p))
            }
            Some(list) => self.read_list(io, fr, fp, list, at),
        }
    }

    fn read_list<'a>(
        &self,
        io: &mut Input<'a>,
        fr: &Frame<'_, 'a>,
        fp: &FieldPlan,
        list: &List,
        at: u64,
    ) -> Result<(Val<'a>, Pos)> {
        if let Elem::Bits(width) = fp.elem {
            return self.read_bit_list(io, fr, fp, width, at);
        }
        let strided = |stride: u64, n: u64| Pos::Strided {
            base: at,
            stride,
            count: n as usize,
        };
        let counted = |io: &Input<'a>| -> Result<Option<u64>> {
            match &fp.count {
                Some(c) => Ok(Some(count(at, fr.env(io, 0, None).int(c)?, "count")?)),
                None => Ok(None),
            }
        };
        match list {
            List::Nums(p) => {
                let size = u64::from(p.bytes);
                let endian = prim_order(*p, fr.order);
                let n = match counted(io)? {
                    Some(n) => n,
                    None => io.left() / size,
                };
                let bytes = io.run(n, size, "numbers")?;
                if fp.count.is_none() && !io.at_end() {
                    return Err(eof(io.pos(), ksy(*p), size, io.left()).at_index(n as usize));
                }
                let v = Val::Nums(Nums {
                    bytes: Cow::Borrowed(bytes),
                    prim: *p,
                    endian,
                });
                Ok((v, strided(size, n)))
            }
            List::Blocks { ty, size, checked } => {
                let n = counted(io)?.unwrap_or(0);
                let bytes = io.run(n, *size, "blocks")?;
                if *checked && *size > 0 {
                    for (i, b) in bytes.chunks_exact(*size as usize).enumerate() {
                        self.check_block(*ty, b, at + i as u64 * size)
                            .map_err(|e| e.at_index(i))?;
                    }
                }
                Ok((Val::Blocks(Cow::Borrowed(bytes), *size), strided(*size, n)))
            }
            List::Chunks(size) => {
                let size = count(at, fr.env(io, 0, None).int(size)?, "size")?;
                let n = match counted(io)? {
                    Some(n) => n,
                    None => {
                        if size == 0 && !io.at_end() {
                            return Err(Error::new(
                                ErrorKind::Count,
                                at,
                                "an element that consumes input",
                                "elements of 0 bytes",
                            ));
                        }
                        io.left().checked_div(size).unwrap_or(0)
                    }
                };
                let bytes = io.run(n, size, "bytes")?;
                if fp.count.is_none() && !io.at_end() {
                    return Err(eof(io.pos(), "bytes", size, io.left()).at_index(n as usize));
                }
                Ok((Val::Chunks(Cow::Borrowed(bytes), size), strided(size, n)))
            }
            List::Each => {
                let keep = self.loc && fp.stride.is_none();
                let one = |io: &mut Input<'a>, i: usize| -> Result<(Val<'a>, Pos)> {
                    let at = io.pos();
                    let (v, p) = self.read_elem(io, fr, fp, at, i)?;
                    refuse(fr, io, fp, &v, at, i)?;
                    Ok((v, p))
                };
                // The list read so far is seen by its own elements' expressions (Kaitai's
                // `groups[_index - 1]`).
                let grow = &fr.growing;
                grow.borrow_mut().clear();
                fr.growing_at.set(fr.vals.len());
                let done = || {
                    fr.growing_at.set(usize::MAX);
                    grow.take()
                };
                let mut ps = vec![];
                if let Some(until) = &fp.until {
                    // Up to and including the first element the condition holds for.
                    loop {
                        let i = grow.borrow().len();
                        let before = io.pos();
                        let (v, p) = one(io, i).map_err(|e| e.at_index(i))?;
                        // Elements that take no bytes could repeat forever: the list may hold
                        // no more of them than its part has bytes, or 1,024 (its memory stays bounded
                        // by the input's size).
                        if io.pos() == before && i as u64 > io.io_size().max(1024) {
                            return Err(Error::new(
                                ErrorKind::Count,
                                before,
                                "a repeat-until that ends",
                                format!(
                                    "{i} elements that took no bytes, and the condition not met"
                                ),
                            )
                            .at_index(i));
                        }
                        let done = fr
                            .env(io, i, Some(&v))
                            .bool(until)
                            .map_err(|e| e.at_index(i))?;
                        grow.borrow_mut().push(v);
                        if keep {
                            ps.push(p);
                        }
                        if done {
                            break;
                        }
                    }
                    let pos = Pos::Each {
                        span: Span::new(at, io.pos()),
                        items: ps,
                    };
                    return Ok((Val::List(done()), pos));
                }
                match counted(io)? {
                    Some(n) => {
                        io.room(n, fp.min_elem)?;
                        grow.borrow_mut().reserve_exact(n as usize);
                        if keep {
                            ps.reserve_exact(n as usize);
                        }
                        for i in 0..n as usize {
                            let (v, p) = one(io, i).map_err(|e| e.at_index(i))?;
                            grow.borrow_mut().push(v);
                            if keep {
                                ps.push(p);
                            }
                        }
                    }
                    None => {
                        while !io.at_end() {
                            let i = grow.borrow().len();
                            let before = io.pos();
                            let (v, p) = one(io, i).map_err(|e| e.at_index(i))?;
                            if io.pos() == before {
                                return Err(Error::new(
                                    ErrorKind::Count,
                                    before,
                                    "an element that consumes input",
                                    "one that consumes nothing",
                                )
                                .at_index(i));
                            }
                            grow.borrow_mut().push(v);
                            if keep {
                                ps.push(p);
                            }
                        }
                    }
                }
                let pos = match fp.stride {
                    Some(stride) => strided(stride, grow.borrow().len() as u64),
                    None => Pos::Each {
                        span: Span::new(at, io.pos()),
                        items: ps,
                    },
                };
                Ok((Val::List(done()), pos))
            }
        }
    }

    /// One element of field `fp` at `at` (element `index` of a list).
    fn read_elem<'a>(
        &self,
        io: &mut Input<'a>,
        fr: &Frame<'_, 'a>,
        fp: &FieldPlan,
        at: u64,
        index: usize,
    ) -> Result<(Val<'a>, Pos)> {
        let span = |io: &Input<'_>| Pos::Span(Span::new(at, io.pos()));
        let args = |io: &Input<'a>, args: &super::plan::Args| -> Result<Vec<i128>> {
            let env = fr.env(io, index, None);
            args.iter()
                .map(|(ce, p, name)| arg(at, env.int(ce)?, *p, name))
                .collect()
        };
        let size = |io: &Input<'a>, ce| -> Result<u64> {
            count(at, fr.env(io, index, None).int(ce)?, "size")
        };
        match &fp.elem {
            Elem::Prim(p) => {
                let e = prim_order(*p, fr.order);
                let v = by_prim!(p, T => Val::from(io.prim::<T>(e, ksy(*p))?));
                Ok((v, span(io)))
            }
            Elem::User { ty, args: a } => {
                let argv = args(io, a)?;
                let me = fr.here();
                if fp.nested {
                    io.nested(at, |io| self.read_in(io, *ty, &argv, Some(&me)))
                } else {
                    self.read_in(io, *ty, &argv, Some(&me))
                }
            }
            Elem::Bytes(s) | Elem::Str { size: s, .. } if fp.f.term.is_some() => {
                let term = fp.f.term.unwrap_or_else(|| unreachable!());
                let region = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.take(n, "bytes")?
                    }
                    Size::Eos if term.bounded => io.rest(),
                    Size::Eos => io.peek(io.left()),
                };
                let unit = match &fp.elem {
                    Elem::Str { enc, .. } => unit_of(enc),
                    _ => 1,
                };
                let b = terminated(region, &term, unit, at)?;
                if !term.bounded {
                    // The terminator is read past when consumed, and is in the value when
                    // included; the next field starts after what was read.
                    let found = b.len() < region.len() || term.include;
                    let value = b.len() - if term.include && found { unit } else { 0 };
                    let end = value + if term.consume && found { unit } else { 0 };
                    io.take(end.min(region.len()) as u64, "bytes")?;
                }
                let v = match &fp.elem {
                    Elem::Str { enc, .. } => Val::Str(text_in(b, enc, at)?),
                    _ => Val::Bytes(Cow::Borrowed(b)),
                };
                Ok((v, span(io)))
            }
            Elem::Str { size: s, enc } if !plain_text(enc) => {
                let b = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.take(n, "bytes")?
                    }
                    Size::Eos => io.rest(),
                };
                Ok((Val::Str(text_in(b, enc, at)?), span(io)))
            }
            Elem::Bytes(s) => {
                let b = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.take(n, "bytes")?
                    }
                    Size::Eos => io.rest(),
                };
                let v = match &fp.process {
                    Some(p) => Cow::Owned(self.decode(p, b, &fr.env(io, index, None), at)?),
                    None => Cow::Borrowed(b),
                };
                Ok((Val::Bytes(v), span(io)))
            }
            Elem::Sized {
                ty,
                args: a,
                size: s,
            } if fp.f.term.is_some() && fp.process.is_none() => {
                // The type is read from the bytes the terminator (or padding) leaves, in
                // place; then the rest of the size, or the terminator when consumed.
                let term = fp.f.term.unwrap_or_else(|| unreachable!());
                let argv = args(io, a)?;
                let n = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        if n > io.left() {
                            return Err(eof(at, "bytes", n, io.left()));
                        }
                        n
                    }
                    Size::Eos => io.left(),
                };
                let region = io.peek(n);
                let b = terminated(region, &term, 1, at)?.len() as u64;
                let me = fr.here();
                let (v, p) = io.sized(b, |io| self.read_in(io, *ty, &argv, Some(&me)))?;
                let found = (b as usize) < region.len() || term.include;
                let rest = if term.bounded {
                    n - b
                } else if term.consume && found && !term.include {
                    1
                } else {
                    0
                };
                io.take(rest, "bytes")?;
                Ok((v, p))
            }
            Elem::Sized {
                ty,
                args: a,
                size: s,
            } if fp.process.is_some() => {
                // The type is read from the decoded bytes; its values own what they hold.
                let argv = args(io, a)?;
                let b = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.take(n, "bytes")?
                    }
                    Size::Eos => io.rest(),
                };
                let p = fp.process.as_ref().unwrap_or_else(|| unreachable!());
                let decoded = self.decode(p, b, &fr.env(io, index, None), at)?;
                let mut inner = Input::new(&decoded);
                let (v, _) = self
                    .read_type(&mut inner, *ty, &argv)
                    .map_err(|e| e.shifted(at))?;
                Ok((v.into_static(), span(io)))
            }
            Elem::Str { size: s, enc } => {
                let t = match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.text(n, enc)?
                    }
                    Size::Eos => io.text_eos(enc)?,
                };
                Ok((Val::Str(Cow::Borrowed(t)), span(io)))
            }
            Elem::Strz { enc } => {
                let t = io.strz(enc)?;
                Ok((Val::Str(Cow::Borrowed(t)), span(io)))
            }
            Elem::Contents(c) => {
                io.magic(c)?;
                Ok((Val::Unit, span(io)))
            }
            Elem::Sized {
                ty,
                args: a,
                size: s,
            } => {
                let argv = args(io, a)?;
                let me = fr.here();
                match s {
                    Size::Expr { ce, .. } => {
                        let n = size(io, ce)?;
                        io.sized(n, |io| self.read_in(io, *ty, &argv, Some(&me)))
                    }
                    // A type that asks its stream's position reads the rest as a part of
                    // its own (Kaitai's substream: `_io.pos` counts from where it starts).
                    Size::Eos if fp.eos_part => {
                        let n = io.left();
                        io.sized(n, |io| self.read_in(io, *ty, &argv, Some(&me)))
                    }
                    Size::Eos => self.read_in(io, *ty, &argv, Some(&me)),
                }
            }
            Elem::Switch(sw) => {
                let on = fr.env(io, index, None).int(&sw.on)?;
                for case in &sw.cases {
                    let picked = match &case.test {
                        Some(t) => fr.env(io, index, None).bool(t)?,
                        None => on == fr.env(io, index, None).int(&case.key)?,
                    };
                    if picked {
                        let argv = args(io, &case.args)?;
                        let ty = sw.variants[case.variant];
                        let me = fr.here();
                        let read = |io: &mut Input<'a>| match &sw.size {
                            Some(Size::Expr { ce, .. }) => {
                                let n = size(io, ce)?;
                                io.sized(n, |io| self.read_in(io, ty, &argv, Some(&me)))
                            }
                            _ => self.read_in(io, ty, &argv, Some(&me)),
                        };
                        let (v, p) = if fp.nested {
                            io.nested(at, read)?
                        } else {
                            read(io)?
                        };
                        return Ok((Val::Case(case.variant, Box::new(v)), p));
                    }
                }
                Err(Error::new(
                    ErrorKind::Switch,
                    at,
                    &sw.expected,
                    on.to_string(),
                ))
            }
            Elem::Bits(_) => Ok((Val::Absent, Pos::Absent)),
        }
    }

    /// Bytes `b`, stored at `at`, decoded as `process` says.
    fn decode(&self, p: &Proc, b: &[u8], env: &Env<'_, '_>, at: u64) -> Result<Vec<u8>> {
        let rotate = |n: i128, left: bool| {
            let n = (n.rem_euclid(8)) as u32;
            b.iter()
                .map(|x| {
                    if left {
                        x.rotate_left(n)
                    } else {
                        x.rotate_right(n)
                    }
                })
                .collect()
        };
        Ok(match p {
            Proc::Xor(key) => {
                let key = match key {
                    Ok(k) => k.clone(),
                    Err(ce) => env.bytes(ce)?,
                };
                if key.is_empty() {
                    return Ok(b.to_vec());
                }
                b.iter()
                    .zip(key.iter().cycle())
                    .map(|(x, k)| x ^ k)
                    .collect()
            }
            Proc::Rol(n) => rotate(env.int(n)?, true),
            Proc::Ror(n) => rotate(env.int(n)?, false),
            Proc::Zlib => {
                use std::io::Read as _;
                let mut out = vec![];
                flate2::read::ZlibDecoder::new(b)
                    .take(ZLIB_MAX + 1)
                    .read_to_end(&mut out)
                    .map_err(|e| {
                        Error::new(ErrorKind::Invalid, at, "a zlib stream", e.to_string())
                    })?;
                if out.len() as u64 > ZLIB_MAX {
                    return Err(Error::new(
                        ErrorKind::Invalid,
                        at,
                        format!("a zlib stream of at most {ZLIB_MAX} bytes decompressed"),
                        "more",
                    ));
                }
                out
            }
        })
    }

    /// Consecutive bit fields: their bytes read once, each field's value taken from them, its
    /// check made. Returns the bytes they took.
    fn read_bits<'a>(&self, io: &mut Input<'a>, fr: &mut Frame<'_, 'a>, b: Bits) -> Result<Span> {
        let first = &fr.tp.fields[b.first];
        let (raw, group) = rt::field(first.id, || {
            if let Some((ce, text)) = &first.offset {
                let e = fr.env(io, 0, None).int(ce)?;
                io.offset(fr.start, e, text)?;
            }
            let at = io.pos();
            let raw = io.take(b.bytes, "bits")?;
            let mut num = [0u8; 16];
            let v = match self.plan.spec.bit_endian {
                meshspec_model::Endian::Le => {
                    num[..raw.len()].copy_from_slice(raw);
                    u128::from_le_bytes(num)
                }
                meshspec_model::Endian::Be => {
                    num[16 - raw.len()..].copy_from_slice(raw);
                    u128::from_be_bytes(num)
                }
            };
            Ok((v, Span::new(at, io.pos())))
        })?;
        for fi in b.first..b.first + b.count {
            let fp = &fr.tp.fields[fi];
            let bits = fp.bits.unwrap_or(b);
            let mask = if bits.width >= 128 {
                u128::MAX
            } else {
                (1u128 << bits.width) - 1
            };
            let x = (raw >> bits.shift) & mask;
            let v = if bits.width == 1 {
                Val::Bool(x != 0)
            } else {
                Val::U(x as u64)
            };
            rt::field(fp.id, || refuse(fr, io, fp, &v, group.start, 0))?;
            fr.vals.push(v);
        }
        Ok(group)
    }

    /// A repeated bit field: its elements one after another in the bits (Kaitai's), whole
    /// bytes read as they are needed, the rest of the last byte skipped. `repeat: eos` ends
    /// where the part does and no bits are left.
    fn read_bit_list<'a>(
        &self,
        io: &mut Input<'a>,
        fr: &Frame<'_, 'a>,
        fp: &FieldPlan,
        width: u32,
        at: u64,
    ) -> Result<(Val<'a>, Pos)> {
        let le = self.plan.spec.bit_endian == meshspec_model::Endian::Le;
        let n = match &fp.count {
            Some(c) => Some(count(at, fr.env(io, 0, None).int(c)?, "count")?),
            None => None,
        };
        let (mut acc, mut have) = (0u128, 0u32);
        let (mut vs, mut ps) = (vec![], vec![]);
        loop {
            let i = vs.len();
            let more = match n {
                Some(n) => (i as u64) < n,
                None => fp.until.is_some() || !io.at_end() || have > 0,
            };
            if !more {
                break;
            }
            let before = io.pos();
            let v = (|| {
                let x = take_bits(io, &mut acc, &mut have, width, le)?;
                let v = if width == 1 {
                    Val::Bool(x != 0)
                } else {
                    Val::U(x as u64)
                };
                refuse(fr, io, fp, &v, before, i)?;
                Ok(v)
            })()
            .map_err(|e: Error| e.at_index(i))?;
            let done = match &fp.until {
                Some(u) => fr.env(io, i, Some(&v)).bool(u).map_err(|e| e.at_index(i))?,
                None => false,
            };
            vs.push(v);
            if self.loc {
                ps.push(Pos::Span(Span::new(before, io.pos())));
            }
            if done {
                break;
            }
        }
        let pos = Pos::Each {
            span: Span::new(at, io.pos()),
            items: ps,
        };
        Ok((Val::List(vs), pos))
    }

    /// The `count` bit fields from field `first` on, some of them conditional: each present
    /// one takes its bits after the previous one's (in the spec's bit order), whole bytes read
    /// as they are needed; the bits left in the last byte are skipped, as Kaitai skips them
    /// before the next field that is not bits.
    fn read_bit_run<'a>(
        &self,
        io: &mut Input<'a>,
        fr: &mut Frame<'_, 'a>,
        first: usize,
        count: usize,
    ) -> Result<Span> {
        let start = io.pos();
        let le = self.plan.spec.bit_endian == meshspec_model::Endian::Le;
        // Bits read and not yet taken, and how many.
        let (mut acc, mut have) = (0u128, 0u32);
        for fi in first..first + count {
            let fp = &fr.tp.fields[fi];
            let width = match fp.elem {
                Elem::Bits(n) => n,
                _ => 0,
            };
            fr.bits_left.set(have > 0);
            let v = rt::field(fp.id, || {
                if let Some(c) = &fp.cond {
                    if !fr.env(io, 0, None).bool(c)? {
                        return Ok(Val::Absent);
                    }
                }
                let at = io.pos();
                let x = take_bits(io, &mut acc, &mut have, width, le)?;
                let v = if width == 1 {
                    Val::Bool(x != 0)
                } else {
                    Val::U(x as u64)
                };
                refuse(fr, io, fp, &v, at, 0)?;
                Ok(v)
            })?;
            fr.vals.push(v);
        }
        fr.bits_left.set(false);
        Ok(Span::new(start, io.pos()))
    }

    /// The refusing checks of one value of block type `ty` read from `b`, which starts at byte
    /// `start` (`rt::pod::Block::check`).
    fn check_block(&self, ty: usize, b: &[u8], start: u64) -> Result<()> {
        let tp = &self.plan.types[ty];
        let v = decode_block(tp, b);
        let fields = v.fields();
        for (fi, fp) in tp.fields.iter().enumerate() {
            let Some(c) = &fp.valid else { continue };
            if c.severity == rt::Severity::Warning {
                continue;
            }
            let off = tp.fixed.as_ref().and_then(|f| f.get(fi)).map_or(0, |f| f.0);
            rt::field(fp.id, || {
                let env = Env {
                    fields: &fields[..fi],
                    start,
                    ..Env::params(&[])
                };
                check::run(c, &fields[fi], &env, start + off)
            })?;
        }
        Ok(())
    }
}

/// Whether text in `enc` is read as the runtime reads it (borrowed, checked as UTF-8 or ASCII).
pub(super) fn plain_text(enc: &str) -> bool {
    ["UTF-8", "UTF8", "ASCII"]
        .iter()
        .any(|e| enc.eq_ignore_ascii_case(e))
}

/// Text of encoding `enc` decoded from `b`, read at `at`.
fn text_in<'a>(b: &'a [u8], enc: &str, at: u64) -> Result<Cow<'a, str>> {
    if plain_text(enc) {
        let mut io = Input::new(b);
        return io
            .text(b.len() as u64, enc)
            .map(Cow::Borrowed)
            .map_err(|e| e.shifted(at));
    }
    super::encoding::decode(b, enc)
        .map_err(|why| rt::Error::new(rt::ErrorKind::Encoding, at, format!("{enc} text"), why))
}

/// The value of bytes `region` as `term` ends it (Kaitai's `bytes_strip_right`, then
/// `bytes_terminate`): without its padding, up to its terminator (with it, where included).
fn terminated<'a>(
    region: &'a [u8],
    term: &meshspec_model::Term,
    unit: usize,
    at: u64,
) -> Result<&'a [u8]> {
    let strip = |b: &'a [u8]| match term.pad_right {
        Some(pad) => &b[..b.iter().rposition(|&x| x != pad).map_or(0, |i| i + 1)],
        None => b,
    };
    let Some(t) = term.terminator else {
        return Ok(strip(region));
    };
    // A terminator 0 of wide text is a whole zero unit (two bytes of UTF-16), at a unit's
    // start; padding is stripped only where no terminator is found (Kaitai 0.11).
    let found = if unit > 1 && t == 0 {
        region
            .chunks_exact(unit)
            .position(|c| c.iter().all(|&x| x == 0))
            .map(|i| i * unit)
    } else {
        region.iter().position(|&x| x == t)
    };
    match found {
        Some(i) => Ok(&region[..i + if term.include { unit.max(1) } else { 0 }]),
        None if term.eos_error && !term.bounded => Err(rt::Error::new(
            rt::ErrorKind::Eof,
            at + region.len() as u64,
            format!("the terminator 0x{t:02X}"),
            format!("end of input after {} bytes without it", region.len()),
        )),
        None => Ok(strip(region)),
    }
}

/// The width of the units of text in `enc` (two bytes for UTF-16, four for UTF-32).
fn unit_of(enc: &str) -> usize {
    let e = enc.to_ascii_uppercase();
    if e.starts_with("UTF-16") || e.starts_with("UTF16") {
        2
    } else if e.starts_with("UTF-32") || e.starts_with("UTF32") {
        4
    } else {
        1
    }
}

/// The next `width` bits (at most 64): from `acc`, which holds `have` bits read and not yet
/// taken, reading whole bytes as they are needed; big endian takes a byte's highest bits
/// first, little endian its lowest.
fn take_bits(
    io: &mut Input<'_>,
    acc: &mut u128,
    have: &mut u32,
    width: u32,
    le: bool,
) -> Result<u128> {
    while *have < width {
        let b = u128::from(io.take(1, "bits")?[0]);
        if le {
            *acc |= b << *have;
        } else {
            *acc = (*acc << 8) | b;
        }
        *have += 8;
    }
    let mask = |n: u32| {
        if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    };
    let x = if le {
        let x = *acc & mask(width);
        *acc >>= width;
        x
    } else {
        let x = (*acc >> (*have - width)) & mask(width);
        *acc &= mask(*have - width);
        x
    };
    *have -= width;
    Ok(x)
}

/// A value of block type `tp` (numbers at fixed offsets) from its bytes.
pub(crate) fn decode_block<'a>(tp: &TypePlan, b: &[u8]) -> Val<'a> {
    // A block's type has a fixed order (`meshspec_model::block_offsets`).
    let order = match tp.order {
        Order::Fixed(e) => e,
        _ => Endian::Little,
    };
    let fields = tp
        .fields
        .iter()
        .enumerate()
        .map(|(fi, fp)| {
            let off = tp.fixed.as_ref().and_then(|f| f.get(fi)).map_or(0, |f| f.0) as usize;
            match (&fp.elem, b.get(off..)) {
                (Elem::Prim(p), Some(rest)) if rest.len() >= usize::from(p.bytes) => {
                    super::value::num(*p, prim_order(*p, order), rest)
                }
                _ => Val::Absent,
            }
        })
        .collect();
    Val::Struct(fields)
}

/// The refusing check of field `fp` on value `v` at `at` (a warning-level check is the
/// warnings pass's).
fn refuse<'a>(
    fr: &Frame<'_, 'a>,
    io: &Input<'a>,
    fp: &FieldPlan,
    v: &Val<'a>,
    at: u64,
    index: usize,
) -> Result<()> {
    match &fp.valid {
        Some(c) if c.severity != rt::Severity::Warning => {
            check::run(c, v, &fr.env(io, index, None), at)
        }
        _ => Ok(()),
    }
}
