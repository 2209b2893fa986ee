//! The interpreter's writer: the runtime calls the generated writer makes
//! (`codegen/src/emit/write.rs`), in the same order: counts, sizes and stored totals
//! recomputed from what they count, sizes of later parts left as holes and patched once the
//! part is written, what cannot be recomputed refused at its field.

use super::check;
use super::eval::Env;
use super::plan::{Args, Bits, Elem, FieldPlan, List, Plan, Size, TypePlan};
use super::read::{arg, ksy, prim_order, root_args, type_order, Reader};
use super::value::{by_int, by_prim, number, Pos, StructPos, Val};
use super::walk::elements;
use crate::rt::input::count;
use crate::rt::output::{agree, fit, fit_i, presence, too_wide};
use crate::rt::{self, Error, ErrorKind, Output, Params, Result, Span};
use binrw::Endian;
use meshspec_model::{Prim, PrimKind, Use};

/// Writes values of a compiled spec; with `loc`, records where every field went.
pub(crate) struct Writer<'p> {
    pub plan: &'p Plan,
    pub loc: bool,
}

/// What a type's writer holds while it writes a value.
struct Frame<'f, 'v, 'a> {
    tp: &'f TypePlan,
    args: &'f [i128],
    start: u64,
    order: Endian,
    vals: &'v [Val<'a>],
    /// The values written in place of those given (counts, sizes, totals).
    over: Vec<(usize, Option<i128>)>,
    sizeof: Vec<u64>,
}

impl<'a> Frame<'_, '_, 'a> {
    fn env<'e>(&'e self, out: &Output, index: usize) -> Env<'e, 'a> {
        Env {
            fields: self.vals,
            over: &self.over,
            params: self.args,
            sizeof: &self.sizeof,
            index,
            under: None,
            io: (out.io_pos(), 0),
            start: self.start,
            here: None,
        }
    }

    fn val(&self, fi: usize) -> &Val<'a> {
        const ABSENT: &Val<'static> = &Val::Absent;
        self.vals.get(fi).unwrap_or(ABSENT)
    }

    fn set(&mut self, fi: usize, v: Option<i128>) {
        self.over.retain(|o| o.0 != fi);
        self.over.push((fi, v));
    }
}

/// Writes number `v` of type `p` in order `e`.
fn put(out: &mut Output, p: Prim, e: Endian, v: &Val<'_>) {
    by_prim!(p, T => out.prim::<T>(e, number::<T>(v)))
}

impl Writer<'_> {
    /// The bytes of value `v` of layout type `ty`, read back before they are returned
    /// (`rt::Root::write`), and where every field went.
    pub fn write(&self, ty: usize, v: &Val<'_>, params: &dyn Params) -> Result<(Vec<u8>, Pos)> {
        if let Some(why) = &self.plan.unwritable {
            return Err(crate::rt::Error::unplaced(
                crate::rt::ErrorKind::Input,
                "a spec whose every construct meshspec writes back",
                why.clone(),
            ));
        }
        let tp = &self.plan.types[ty];
        let root = tp.t.name.as_str();
        let args = root_args(tp, params)?;
        let mut out = Output::default();
        let pos = self
            .write_type(&mut out, ty, v, &args)
            .map_err(|e| e.rooted(root.to_string()))?;
        let bytes = out.into_vec();
        let reader = Reader {
            plan: self.plan,
            loc: false,
        };
        if let Err(e) = reader.parse(ty, &bytes, params) {
            return Err(e.written());
        }
        Ok((bytes, pos))
    }

    /// Writes value `v` of type `ty` (`Codec::write_out`).
    pub fn write_type(
        &self,
        out: &mut Output,
        ty: usize,
        v: &Val<'_>,
        args: &[i128],
    ) -> Result<Pos> {
        let tp = &self.plan.types[ty];
        let start = out.pos();
        let order = type_order(self.plan, ty, args, start, None)?;
        let n = tp.fields.len();
        let mut fr = Frame {
            tp,
            args,
            start,
            order,
            vals: v.fields(),
            over: vec![],
            sizeof: if tp.measured { vec![0; n] } else { vec![] },
        };
        let mut poss = vec![Pos::Absent; if self.loc { n } else { 0 }];
        let mut holes = vec![0u64; n];
        let mut parts = vec![0u64; n];
        let mut fi = 0;
        while fi < n {
            let fp = &tp.fields[fi];
            if let Some(b) = fp.bits {
                let group = self.write_bits(out, &mut fr, b)?;
                if self.loc {
                    for p in &mut poss[fi..fi + b.count] {
                        *p = Pos::Span(group);
                    }
                }
                fi += b.count;
                continue;
            }
            let before = out.pos();
            if fp.part_start {
                parts[fi] = out.pos();
            }
            let p = self.write_value(out, &mut fr, fi, &mut holes)?;
            if fp.f.measured {
                fr.sizeof[fi] = out.pos() - before;
            }
            if self.loc {
                poss[fi] = p;
            }
            // The holes of the sizes of this part.
            for (x, xp) in tp.fields[..fi].iter().enumerate() {
                if xp.patched_by != Some(fi) {
                    continue;
                }
                let Elem::Prim(pr) = xp.elem else { continue };
                let e = prim_order(pr, fr.order);
                let at = holes[x];
                let size = out.pos() - parts[fi];
                let v = rt::field(xp.id, || {
                    let v = fit_u(at, size, pr)?;
                    refuse(&fr, out, xp, &v, at, 0)?;
                    by_prim!(pr, T => out.patch::<T>(at, e, number::<T>(&v)));
                    Ok(v)
                })?;
                fr.set(x, Some(v.int()));
            }
            fi += 1;
        }
        Ok(if self.loc {
            Pos::Struct(StructPos {
                ty,
                span: Span::new(start, out.pos()),
                fields: poss.into_boxed_slice(),
            })
        } else {
            Pos::Absent
        })
    }

    /// Writes field `fi` and returns its positions.
    fn write_value(
        &self,
        out: &mut Output,
        fr: &mut Frame<'_, '_, '_>,
        fi: usize,
        holes: &mut [u64],
    ) -> Result<Pos> {
        let tp = fr.tp;
        let fp = &tp.fields[fi];
        let offset = |fr: &Frame<'_, '_, '_>, out: &Output| -> Result<()> {
            if let Some((ce, text)) = &fp.offset {
                let e = fr.env(out, 0).int(ce)?;
                out.offset(fr.start, e, text)?;
            }
            Ok(())
        };
        if let Some(d) = &fp.derive {
            // A stored total the document defines from other fields: written as its definition.
            let (v, p) = rt::field(fp.id, || {
                let at = out.pos();
                offset(fr, out)?;
                let n = fr.env(out, 0).int(d)?;
                let v = fit_signed(at, n, prim_of(fp))?;
                self.number(out, fr, fp, v, at)
            })?;
            fr.set(fi, Some(v.int()));
            return Ok(p);
        }
        if fp.patched_by.is_some() {
            // The size of a part written later: a hole now, filled once the part is written.
            let pr = prim_of(fp);
            let (h, p) = rt::field(fp.id, || {
                let at = out.pos();
                offset(fr, out)?;
                let h = by_prim!(pr, T => out.hole::<T>());
                Ok((h, Pos::Span(Span::new(at, out.pos()))))
            })?;
            holes[fi] = h;
            return Ok(p);
        }
        if fp.counts_any {
            if let Some(c) = &fp.cond {
                if !fr.env(out, 0).bool(c)? {
                    fr.set(fi, None);
                    return Ok(Pos::Absent);
                }
            }
            let (v, p) = rt::field(fp.id, || {
                let at = out.pos();
                offset(fr, out)?;
                let n = self.count_any(fr, fi);
                let v = fit_u(at, n, prim_of(fp))?;
                self.number(out, fr, fp, v, at)
            })?;
            fr.set(fi, Some(v.int()));
            return Ok(p);
        }
        if let Some(&(gi, use_)) = fp.f.users.first() {
            // A count or size recomputed from the data it counts.
            let (v, p) = rt::field(fp.id, || {
                let at = out.pos();
                offset(fr, out)?;
                let g = fr.val(gi);
                let n = match (use_, &tp.fields[gi].elem) {
                    (Use::Size, Elem::Sized { ty, args, .. }) => {
                        // Needed before the part is written: measured by writing it aside. A
                        // part that cannot be written measures 0, and writing it then fails at
                        // its own offset and path.
                        let argv = self.args(fr, out, args, at, 0)?;
                        let mut m = Output::default();
                        let w = Writer {
                            plan: self.plan,
                            loc: false,
                        };
                        w.write_type(&mut m, *ty, g, &argv)
                            .map(|_| m.pos())
                            .unwrap_or(0)
                    }
                    _ => g.len() as u64,
                };
                let v = fit_u(at, n, prim_of(fp))?;
                self.number(out, fr, fp, v, at)
            })?;
            fr.set(fi, Some(v.int()));
            return Ok(p);
        }
        let x = fr.val(fi);
        rt::field(fp.id, || {
            let at = out.pos();
            offset(fr, out)?;
            if let Some(c) = &fp.cond {
                let cc = fr.env(out, 0).bool(c)?;
                match (cc, matches!(x, Val::Absent)) {
                    (true, false) => {}
                    (false, true) => return Ok(Pos::Absent),
                    (true, true) => return Err(presence(at, &fp.cond_text, true)),
                    (false, false) => return Err(presence(at, &fp.cond_text, false)),
                }
            }
            match &fp.list {
                None => {
                    refuse(fr, out, fp, x, at, 0)?;
                    self.write_elem(out, fr, fp, x, at, 0)
                }
                Some(list) => self.write_list(out, fr, fp, list, x, at),
            }
        })
    }

    /// A number the writer computed (`v`, already fitted to its type): checked and written.
    fn number<'a>(
        &self,
        out: &mut Output,
        fr: &Frame<'_, '_, 'a>,
        fp: &FieldPlan,
        v: Val<'a>,
        at: u64,
    ) -> Result<(Val<'a>, Pos)> {
        refuse(fr, out, fp, &v, at, 0)?;
        let pr = prim_of(fp);
        put(out, pr, prim_order(pr, fr.order), &v);
        Ok((v, Pos::Span(Span::new(at, out.pos()))))
    }

    /// A count of conditional lists: the length of the first that is there, else the value
    /// given.
    fn count_any(&self, fr: &Frame<'_, '_, '_>, fi: usize) -> u64 {
        for &(gi, _) in &fr.tp.fields[fi].f.users {
            let g = fr.val(gi);
            if fr.tp.fields[gi].f.cond.is_some() && matches!(g, Val::Absent) {
                continue;
            }
            return g.len() as u64;
        }
        match fr.val(fi) {
            Val::Absent => 0,
            v => u64::try_from(v.int()).unwrap_or(0),
        }
    }

    fn args(
        &self,
        fr: &Frame<'_, '_, '_>,
        out: &Output,
        args: &Args,
        at: u64,
        index: usize,
    ) -> Result<Vec<i128>> {
        let env = fr.env(out, index);
        args.iter()
            .map(|(ce, p, name)| arg(at, env.int(ce)?, *p, name))
            .collect()
    }

    fn write_list(
        &self,
        out: &mut Output,
        fr: &Frame<'_, '_, '_>,
        fp: &FieldPlan,
        list: &List,
        x: &Val<'_>,
        at: u64,
    ) -> Result<Pos> {
        let len = x.len();
        if fp.agree {
            if let Some(c) = &fp.count {
                let n = fr.env(out, 0).int(c)?;
                let text = match &fp.f.repeat {
                    meshspec_model::Repeat::Expr(e) => e.to_string(),
                    _ => String::new(),
                };
                agree(at, len as u64, n, &text, "elements")?;
            }
        }
        let strided = |stride: u64| Pos::Strided {
            base: at,
            stride,
            count: len,
        };
        match list {
            List::Nums(p) => {
                let e = prim_order(*p, fr.order);
                match x {
                    // Numbers read from an input are already their bytes.
                    Val::Nums(n) if n.prim == *p && n.endian == e => out.bytes(&n.bytes),
                    _ => {
                        for v in elements(self.plan, fp, x) {
                            put(out, *p, e, &v);
                        }
                    }
                }
                Ok(strided(u64::from(p.bytes)))
            }
            List::Blocks { ty, size, checked } => {
                match x {
                    Val::Blocks(b, _) if !checked => out.bytes(b),
                    _ => {
                        for (i, v) in elements(self.plan, fp, x).enumerate() {
                            self.write_block(out, *ty, &v).map_err(|e| e.at_index(i))?;
                        }
                    }
                }
                Ok(strided(*size))
            }
            List::Chunks(size) => {
                for (i, v) in elements(self.plan, fp, x).enumerate() {
                    let at = out.pos();
                    self.write_elem(out, fr, fp, &v, at, i)
                        .map_err(|e| e.at_index(i))?;
                }
                let size = fr.env(out, 0).int(size)?;
                Ok(strided(size as u64))
            }
            List::Each => {
                let keep = self.loc && fp.stride.is_none();
                let mut ps = Vec::with_capacity(if keep { len } else { 0 });
                for (i, v) in elements(self.plan, fp, x).enumerate() {
                    let p = (|| {
                        let at = out.pos();
                        refuse(fr, out, fp, &v, at, i)?;
                        self.write_elem(out, fr, fp, &v, at, i)
                    })()
                    .map_err(|e| e.at_index(i))?;
                    if keep {
                        ps.push(p);
                    }
                }
                Ok(match fp.stride {
                    Some(stride) => strided(stride),
                    None => Pos::Each {
                        span: Span::new(at, out.pos()),
                        items: ps,
                    },
                })
            }
        }
    }

    /// A value of block type `ty`: its checks, then its numbers (`rt::pod::Block::encode`).
    fn write_block(&self, out: &mut Output, ty: usize, v: &Val<'_>) -> Result<()> {
        let tp = &self.plan.types[ty];
        let start = out.pos();
        let order = type_order(self.plan, ty, &[], start, None)?;
        let vals = v.fields();
        let mut b = vec![0u8; tp.t.fixed_size.unwrap_or(0) as usize];
        for (fi, fp) in tp.fields.iter().enumerate() {
            let Elem::Prim(p) = fp.elem else { continue };
            let off = tp.fixed.as_ref().and_then(|f| f.get(fi)).map_or(0, |f| f.0);
            const ABSENT: &Val<'static> = &Val::Absent;
            let x = vals.get(fi).unwrap_or(ABSENT);
            if let Some(c) = fp
                .valid
                .as_ref()
                .filter(|c| c.severity != rt::Severity::Warning)
            {
                rt::field(fp.id, || {
                    let env = Env {
                        fields: vals,
                        start,
                        ..Env::params(&[])
                    };
                    check::run(c, x, &env, start + off)
                })?;
            }
            let e = prim_order(p, order);
            let at = off as usize;
            if let Some(dst) = b.get_mut(at..at + usize::from(p.bytes)) {
                use crate::rt::pod::Pod;
                by_prim!(p, T => number::<T>(x).put(e, dst));
            }
        }
        out.bytes(&b);
        Ok(())
    }

    /// One element `v` of field `fp` at `at` (element `index` of a list): its positions.
    fn write_elem(
        &self,
        out: &mut Output,
        fr: &Frame<'_, '_, '_>,
        fp: &FieldPlan,
        v: &Val<'_>,
        at: u64,
        index: usize,
    ) -> Result<Pos> {
        let span = |out: &Output| Pos::Span(Span::new(at, out.pos()));
        match &fp.elem {
            Elem::Prim(p) => {
                put(out, *p, prim_order(*p, fr.order), v);
                Ok(span(out))
            }
            Elem::User { ty, args } => {
                let argv = self.args(fr, out, args, at, index)?;
                if fp.nested {
                    out.nested(at, |out| self.write_type(out, *ty, v, &argv))
                } else {
                    self.write_type(out, *ty, v, &argv)
                }
            }
            Elem::Bytes(Size::Expr {
                ce,
                alignment: true,
                ..
            }) => {
                // An alignment pad follows from what lies before it: stored bytes of the
                // length it keeps are kept, a length it no longer has is written as zeros.
                let n = count(at, fr.env(out, index).int(ce)?, "size")?;
                let b = v.bytes();
                if b.len() as u64 == n {
                    out.bytes(b);
                } else {
                    out.zeros(n);
                }
                Ok(span(out))
            }
            Elem::Bytes(s) => {
                let b = v.bytes();
                self.agree_size(fr, out, s, b.len(), at, index)?;
                out.bytes(b);
                Ok(span(out))
            }
            Elem::Str { size, .. } => {
                let t = v.text();
                self.agree_size(fr, out, size, t.len(), at, index)?;
                out.bytes(t.as_bytes());
                Ok(span(out))
            }
            Elem::Strz { .. } => {
                out.strz(v.text())?;
                Ok(span(out))
            }
            Elem::Contents(c) => {
                out.bytes(c);
                Ok(span(out))
            }
            Elem::Sized { ty, args, size } => {
                let argv = self.args(fr, out, args, at, index)?;
                match size {
                    Size::Expr {
                        ce,
                        recomputed: false,
                        ..
                    } => {
                        let n = count(at, fr.env(out, index).int(ce)?, "size")?;
                        let mut p = Pos::Absent;
                        out.sized(n, |out| {
                            p = self.write_type(out, *ty, v, &argv)?;
                            Ok(())
                        })?;
                        Ok(p)
                    }
                    Size::Expr { .. } => out.part(|out| self.write_type(out, *ty, v, &argv)),
                    Size::Eos => self.write_type(out, *ty, v, &argv),
                }
            }
            Elem::Switch(sw) => {
                let env = fr.env(out, index);
                let on = env.int(&sw.on)?;
                if let Val::Case(variant, inner) = v {
                    let mut first = None;
                    for case in sw.cases.iter().filter(|c| c.variant == *variant) {
                        if first.is_none() {
                            first = Some(case);
                        }
                        if on == env.int(&case.key)? {
                            let args = &first.unwrap_or(case).args;
                            let argv = self.args(fr, out, args, at, index)?;
                            let ty = sw.variants[*variant];
                            // A sized switch's case fills the size its field states (kept,
                            // not recomputed: the writer refuses a case that does not fill it).
                            return match &sw.size {
                                Some(Size::Expr { ce, .. }) => {
                                    let n = count(at, env.int(ce)?, "size")?;
                                    let mut p = Pos::Absent;
                                    out.sized(n, |out| {
                                        p = self.write_type(out, ty, inner, &argv)?;
                                        Ok(())
                                    })?;
                                    Ok(p)
                                }
                                _ => self.write_type(out, ty, inner, &argv),
                            };
                        }
                    }
                }
                let held = match v {
                    Val::Case(variant, _) => sw
                        .variants
                        .get(*variant)
                        .map_or("", |t| self.plan.types[*t].t.rust.as_str()),
                    _ => "",
                };
                Err(Error::new(
                    ErrorKind::Inconsistent,
                    at,
                    format!("the case that `{}` = {on} selects", sw.on_text),
                    format!("a {held}"),
                ))
            }
            Elem::Bits(_) => Ok(Pos::Absent),
        }
    }

    /// For a sized field whose size is not recomputed from it: the size must agree.
    fn agree_size(
        &self,
        fr: &Frame<'_, '_, '_>,
        out: &Output,
        s: &Size,
        actual: usize,
        at: u64,
        index: usize,
    ) -> Result<()> {
        match s {
            Size::Expr {
                ce,
                text,
                recomputed: false,
                ..
            } => {
                let n = fr.env(out, index).int(ce)?;
                agree(at, actual as u64, n, text, "bytes")
            }
            _ => Ok(()),
        }
    }

    /// Consecutive bit fields: each checked and packed, then their bytes written once.
    fn write_bits(&self, out: &mut Output, fr: &mut Frame<'_, '_, '_>, b: Bits) -> Result<Span> {
        let at = out.pos();
        let mut bits: u128 = 0;
        for fi in b.first..b.first + b.count {
            let fp = &fr.tp.fields[fi];
            let x = fr.val(fi);
            let one = fp.bits.unwrap_or(b);
            rt::field(fp.id, || {
                refuse(fr, out, fp, x, at, 0)?;
                let v = x.int();
                if one.width < 128 && (v < 0 || v >> one.width != 0) {
                    return Err(too_wide(at, v, one.width));
                }
                bits |= (v as u128) << one.shift;
                Ok(())
            })?;
        }
        let first = &fr.tp.fields[b.first];
        rt::field(first.id, || {
            let at = out.pos();
            if let Some((ce, text)) = &first.offset {
                let e = fr.env(out, 0).int(ce)?;
                out.offset(fr.start, e, text)?;
            }
            out.bytes(&bits.to_le_bytes()[..b.bytes as usize]);
            Ok(Span::new(at, out.pos()))
        })
    }
}

/// The number type of a plain integer field (what the writer recomputes).
fn prim_of(fp: &FieldPlan) -> Prim {
    match fp.elem {
        Elem::Prim(p) => p,
        _ => Prim {
            kind: PrimKind::U,
            bytes: 8,
            endian: None,
        },
    }
}

/// A recomputed count or size in its field's type (`rt::output::fit`).
fn fit_u<'a>(at: u64, n: u64, p: Prim) -> Result<Val<'a>> {
    by_int!(p, T => fit_int::<T>(at, n, p))
}

fn fit_int<'a, T: TryFrom<u64> + Into<Val<'a>>>(at: u64, n: u64, p: Prim) -> Result<Val<'a>> {
    let v: T = fit(at, n, ksy(p), p.max())?;
    Ok(v.into())
}

/// A derived value in its field's type (`rt::output::fit_i`).
fn fit_signed<'a>(at: u64, n: i128, p: Prim) -> Result<Val<'a>> {
    by_int!(p, T => fit_int_i::<T>(at, n, p))
}

fn fit_int_i<'a, T: TryFrom<i128> + Into<Val<'a>>>(at: u64, n: i128, p: Prim) -> Result<Val<'a>> {
    let v: T = fit_i(at, n, ksy(p), p.max())?;
    Ok(v.into())
}

/// The refusing check of field `fp` on value `v` at `at`.
fn refuse<'a>(
    fr: &Frame<'_, '_, 'a>,
    out: &Output,
    fp: &FieldPlan,
    v: &Val<'a>,
    at: u64,
    index: usize,
) -> Result<()> {
    match &fp.valid {
        Some(c) if c.severity != rt::Severity::Warning => check::run(c, v, &fr.env(out, index), at),
        _ => Ok(()),
    }
}
