//! What the interpreter reads that the generator does not emit yet: a spec using it is refused
//! here with its place, so generated code never reads a spec differently from what it says.

use meshspec_model::{FieldType, Spec};

/// The first construct of `spec` the generator does not emit, as `FILE:LINE:COL: what`.
pub fn refuse_gaps(spec: &Spec) -> Result<(), String> {
    if let Some(e) = spec.enums.iter().find(|e| e.mixed) {
        return Err(format!(
            "{}:{}: enum `{}` used by fields of different integer types is read by the interpreter but not yet generated",
            spec.file, e.at, e.name
        ));
    }
    for t in &spec.types {
        match &t.endian {
            Some(meshspec_model::TypeEndian::Inherit) => {
                return Err(format!(
                    "{}:{}: {}: a byte order inherited at run time (a type inside one whose order is calculated) is read by the interpreter but not yet generated",
                    spec.file, t.at, t.name
                ))
            }
            Some(meshspec_model::TypeEndian::Switch { on, .. })
                if on.names().iter().any(|n| !t.params.iter().any(|p| &p.id == n)) =>
            {
                return Err(format!(
                    "{}:{}: {}: a byte order calculated from values other than the type's parameters is read by the interpreter but not yet generated",
                    spec.file, t.at, t.name
                ))
            }
            _ => {}
        }
        if let Some(p) = t.params.iter().find(|p| p.flag) {
            return Err(format!(
                "{}:{}: {}: parameter `{}` of type bool is read by the interpreter but not yet generated",
                spec.file, t.at, t.name, p.id
            ));
        }
        if let Some(f) = t.fields.iter().find(|f| {
            matches!(f.ty, FieldType::Bits(_))
                && (spec.bit_endian == meshspec_model::Endian::Be || f.enum_name.is_some())
        }) {
            return Err(format!(
                "{}:{}: {}.{}: big-endian bit fields and enums on bit fields are read by the interpreter but not yet generated",
                spec.file, f.at, t.name, f.id
            ));
        }
        if let Some(g) = meshspec_model::bit_groups(t).iter().find(|g| g.2 % 8 != 0) {
            let f = &t.fields[g.0];
            return Err(format!(
                "{}:{}: {}.{}: bit fields that end inside a byte are read by the interpreter but not yet generated",
                spec.file, f.at, t.name, f.id
            ));
        }
        if let Some(p) = t.parsed.first() {
            return Err(format!(
                "{}:{}: {}.{}: an instance read from the bytes (pos, io, type) is read by the interpreter but not yet generated",
                spec.file, p.at, t.name, p.id
            ));
        }
        if let Some(i) = t
            .instances
            .iter()
            .find(|i| i.cond.is_some() || i.enum_name.is_some())
        {
            return Err(format!(
                "{}:{}: {}.{}: a value instance with `if` or `enum` is answered by the interpreter but not yet generated",
                spec.file, i.at, t.name, i.id
            ));
        }
        // A value held in its own type through switches alone: its Rust type would hold itself.
        let through_switches = |f: &meshspec_model::Field| {
            matches!(f.repeat, meshspec_model::Repeat::None)
                && matches!(f.ty, FieldType::Switch { .. })
        };
        if let Some(f) = t.fields.iter().filter(|f| through_switches(f)).find(|f| {
            meshspec_model::refs(&f.ty).iter().any(|r| {
                meshspec_model::reachable_by(spec, &r.name, &through_switches)
                    .iter()
                    .any(|x| x.name == t.name)
            })
        }) {
            return Err(format!(
                "{}:{}: {}.{}: a value held in its own type through switches alone is read by the interpreter but not yet generated",
                spec.file, f.at, t.name, f.id
            ));
        }
        // `header.len_body`: an instance of another value (the emitter's values have fields
        // only).
        let other_instance =
            |e: &meshspec_model::expr::Expr| meshspec_model::asks_other_value(spec, t, e);
        for f in &t.fields {
            if meshspec_model::field_exprs(f)
                .into_iter()
                .any(other_instance)
            {
                return Err(format!(
                    "{}:{}: {}.{}: an instance of another value (`a.b`, `b` an instance of `a`'s type) is read by the interpreter but not yet generated",
                    spec.file, f.at, t.name, f.id
                ));
            }
        }
        if let Some(i) = t.instances.iter().find(|i| other_instance(&i.value)) {
            return Err(format!(
                "{}:{}: {}.{}: an instance of another value (`a.b`, `b` an instance of `a`'s type) is answered by the interpreter but not yet generated",
                spec.file, i.at, t.name, i.id
            ));
        }
        for f in &t.fields {
            let default_case = matches!(&f.ty, FieldType::Switch { cases, .. }
                if cases.iter().any(|(k, _)| matches!(k, meshspec_model::expr::Expr::Name(n) if n == "_")));
            let count = match &f.repeat {
                meshspec_model::Repeat::Expr(c) => Some(c),
                _ => None,
            };
            let io_beyond = meshspec_model::field_exprs(f).iter().any(|e| {
                let in_count = count.is_some_and(|c| std::ptr::eq(c, *e));
                e.any(&|x| {
                    matches!(x, meshspec_model::expr::Expr::Attr(a, n)
                        if matches!(&**a, meshspec_model::expr::Expr::Name(b) if b == "_io")
                            && (n == "eof" || (n == "size" && !in_count)))
                })
            });
            let args_use_io = meshspec_model::refs(&f.ty)
                .iter()
                .any(|r| r.args.iter().any(|a| a.uses_io()));
            let eos_io = matches!(&f.ty, FieldType::SizedUser { r#ref: r, size: meshspec_model::Size::Eos }
                if meshspec_model::uses_io_deep(spec, &r.name));
            let gap = if eos_io {
                Some("a type that reads `_io.pos` through size-eos (a part of its own)")
            } else if matches!(f.ty, FieldType::Bits(_))
                && (f.cond.is_some() || !matches!(f.repeat, meshspec_model::Repeat::None))
            {
                Some("a conditional or repeated bit field")
            } else if args_use_io {
                Some("`_io.pos` in a type's arguments")
            } else if matches!(f.ty, FieldType::Contents(_))
                && (f.cond.is_some() || !matches!(f.repeat, meshspec_model::Repeat::None))
            {
                Some("a contents field with a condition or a repeat")
            } else if io_beyond {
                Some("`_io.eof`, or `_io.size` outside a count")
            } else if default_case {
                Some("a switch's `_` case")
            } else if f.process.is_some() {
                Some("process (zlib, xor, rol, ror)")
            } else if t.wrapper {
                Some("a number or text type as a switch's case")
            } else if f.switch_size.is_some() {
                Some("a sized switch")
            } else if matches!(f.repeat, meshspec_model::Repeat::Until(_)) {
                Some("repeat: until")
            } else if f.term.is_some() {
                Some("a terminator or padding (terminator, pad-right, include, consume, eos-error)")
            } else {
                match &f.ty {
                    FieldType::Str { encoding, .. } | FieldType::Strz { encoding }
                        if !["UTF-8", "ASCII"]
                            .iter()
                            .any(|e| encoding.eq_ignore_ascii_case(e)) =>
                    {
                        Some("text in an encoding other than UTF-8 and ASCII")
                    }
                    _ => None,
                }
            };
            if let Some(gap) = gap {
                return Err(format!(
                    "{}:{}: {}.{}: {gap} is read by the interpreter (meshspec check FILE.ksy ...) but not yet generated",
                    spec.file, f.at, t.name, f.id
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::refuse_gaps;

    fn gap(body: &str) -> String {
        let text = format!("meta:\n  id: x\n  endian: le\n{body}");
        let spec = meshspec_model::load("spec/x.ksy", &text).unwrap();
        refuse_gaps(&spec).unwrap_err()
    }

    #[test]
    fn what_only_the_interpreter_reads_of_kaitai_s_gallery_is_refused() {
        let e = gap("seq:\n  - id: h\n    type: h\n  - id: b\n    size: h.n2\ntypes:\n  h:\n    seq:\n      - id: n\n        type: u1\n    instances:\n      n2:\n        value: n * 2\n");
        assert!(e.contains("x.b: an instance of another value"), "{e}");
        let e = gap("seq:\n  - id: t\n    type: u1\n  - id: b\n    type:\n      switch-on: t\n      cases:\n        1: x\n");
        assert!(e.contains("through switches alone"), "{e}");
        let e = gap("seq:\n  - id: a\n    type: u1\n    enum: k\n  - id: b\n    type: u2\n    enum: k\nenums:\n  k:\n    1: one\n");
        assert!(
            e.contains("enum `k` used by fields of different integer types"),
            "{e}"
        );
    }
}
