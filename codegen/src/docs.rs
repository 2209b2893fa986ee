//! The human view of a spec: one markdown table per type, in the seeds' columns
//! (Offset | Size | Type | Field | Confidence | Notes).

use meshspec_model::expr::Expr;
use meshspec_model::*;
use std::fmt::Write as _;

type R<T> = Result<T, String>;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The items, shown and separated by `sep`.
fn join<T: std::fmt::Display>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A `contents` constant, as hex bytes.
fn magic(c: &[u8]) -> String {
    format!("magic {}", join(c.iter().map(|b| format!("{b:02X}")), " "))
}

/// A confidence word for a cell (empty without one).
fn title(c: Option<Confidence>) -> &'static str {
    c.map(|c| c.title()).unwrap_or("")
}

/// An id, with the document's name for it when the spec gives one.
fn named(id: &str, orig: &Option<String>) -> String {
    match orig {
        Some(o) => format!("`{id}` ({o})"),
        None => format!("`{id}`"),
    }
}

/// A `valid` range, in words (`>= 1 and <= 8`).
fn range(min: &Option<Expr>, max: &Option<Expr>) -> String {
    let min = min.iter().map(|m| format!(">= {m}"));
    join(min.chain(max.iter().map(|m| format!("<= {m}"))), " and ")
}

fn endian_word(e: Endian) -> &'static str {
    match e {
        Endian::Le => "little",
        Endian::Be => "big",
    }
}

fn type_cell(f: &Field) -> String {
    let link = |r: &TypeRef| {
        let args = if r.args.is_empty() {
            String::new()
        } else {
            format!("({})", join(&r.args, ", "))
        };
        format!("[{}](#{}){args}", r.name, anchor(&r.name))
    };
    let base = match &f.ty {
        FieldType::Prim(p) => p.ksy(),
        FieldType::Bits(n) => format!("b{n}"),
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => link(r),
        FieldType::Bytes(_) => "bytes".into(),
        FieldType::Str { encoding, .. } => format!("str ({encoding})"),
        FieldType::Strz { encoding } => format!("strz ({encoding})"),
        FieldType::Contents(c) => magic(c),
        FieldType::Switch { on, cases } => format!(
            "by `{on}`: {}",
            join(
                cases.iter().map(|(k, r)| format!("{k} → {}", link(r))),
                ", "
            )
        ),
    };
    let base = match &f.repeat {
        Repeat::None => base,
        Repeat::Expr(e) => format!("{base}[{e}]"),
        Repeat::Eos | Repeat::Until(_) => format!("{base}[]"),
    };
    match (&f.valid, &f.enum_name) {
        (Some(Valid::Eq(e)), _) => format!("{base} = {}", constant(f, e)),
        (_, Some(en)) => format!("{base} ({en})"),
        _ => base,
    }
}

fn size_cell(spec: &Spec, f: &Field) -> String {
    let (_, fixed) = elem_size(spec, f);
    let elem = match (&f.ty, fixed, f.ty.size()) {
        (FieldType::Bits(n), _, _) => format!("{n} bits"),
        (_, Some(n), _) => n.to_string(),
        (_, None, Some(Size::Expr(e))) => e.to_string(),
        (_, None, Some(Size::Eos)) => "to the end".into(),
        (FieldType::Strz { .. }, None, _) => "to a NUL byte".into(),
        _ => "varies".into(),
    };
    let s = match &f.repeat {
        Repeat::None => elem,
        Repeat::Expr(e) => match (fixed, e.literal()) {
            (Some(n), Some(k)) => (n * k as u64).to_string(),
            (Some(n), None) => format!("{n} × {}", paren(e)),
            _ => format!("varies × {}", paren(e)),
        },
        Repeat::Eos => "to the end".into(),
        Repeat::Until(e) => format!("until {e}"),
    };
    if f.cond.is_some() {
        format!("{s} or 0")
    } else {
        s
    }
}

fn paren(e: &Expr) -> String {
    match e {
        Expr::Binary(..) | Expr::Cond(..) => format!("({e})"),
        _ => e.to_string(),
    }
}

fn notes(t: &Type, f: &Field) -> String {
    let mut parts = vec![];
    if let Some(d) = &f.doc {
        parts.push(d.trim().replace('\n', " "));
    }
    if let Some(e) = &f.evidence {
        parts.push(format!("Evidence: {e}."));
    }
    if let Some(c) = &f.cond {
        parts.push(format!("Present if `{c}`."));
    }
    match &f.valid {
        Some(Valid::Range { min, max }) => parts.push(format!("Must be {}.", range(min, max))),
        Some(Valid::AnyOf(es)) => parts.push(format!("Must be one of {}.", join(es, ", "))),
        Some(Valid::Expr(e)) => parts.push(format!("Must satisfy `{e}`.")),
        _ => {}
    }
    if let Some(sev) = f.check_severity {
        parts.push(format!(
            "{}.",
            check_sentence(sev, f.severity_reason.as_deref())
        ));
    }
    if let Some(r) = &f.reading {
        parts.push(format!("Reading: {}", sentence(r)));
    }
    if let Some(e) = &f.derive {
        parts.push(format!("Recomputed on writing as `{e}`."));
    }
    for (gi, u) in &f.users {
        parts.push(format!(
            "Recomputed on writing from `{}` ({}).",
            t.fields[*gi].id,
            match u {
                Use::Count => "its element count",
                Use::Size => "its size in bytes",
            }
        ));
    }
    parts.join(" ")
}

/// Text as one line ending in a full stop.
fn sentence(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.ends_with('.') {
        s
    } else {
        s + "."
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A constant a field is checked against, as the documents write it: hex as wide as the field
/// when it is larger than a byte (`0x07B19A87`).
fn constant(f: &Field, e: &Expr) -> String {
    match (e.literal(), &f.ty) {
        (Some(v), FieldType::Prim(p)) if v > 0xFF && p.kind == PrimKind::U => {
            format!("0x{v:0width$X}", width = 2 * usize::from(p.bytes))
        }
        _ => e.to_string(),
    }
}

/// What happens to a value that fails a field's own check.
fn check_sentence(sev: Severity, reason: Option<&str>) -> String {
    let what = match sev {
        Severity::Error => "A value that fails this check refuses the file",
        Severity::Warning => "A value that fails this check is a warning",
    };
    match reason {
        Some(r) => format!("{what}: {}", r.trim().trim_end_matches('.')),
        None => what.to_string(),
    }
}

/// The anchor a Markdown renderer gives the heading `## name`: GitHub's keeps underscores and
/// turns only spaces into hyphens, and type names are snake_case.
fn anchor(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

/// A field's own check, as the summary names it (`palette.num_bones <= 32`).
fn check_text(t: &Type, f: &Field) -> String {
    let at = format!("{}.{}", t.name, f.id);
    match (&f.valid, &f.ty) {
        (Some(Valid::Eq(e)), _) => format!("{at} = {}", constant(f, e)),
        (Some(Valid::Range { min, max }), _) => format!("{at} {}", range(min, max)),
        (Some(Valid::AnyOf(es)), _) => format!("{at} one of {}", join(es, ", ")),
        (Some(Valid::Expr(e)), _) => format!("{at} satisfies {e}"),
        (None, FieldType::Contents(c)) => format!("{at} = {}", magic(c)),
        (None, _) => at,
    }
}

/// The summary at the top of a family's page: rows per confidence word, the rules and their
/// severities, and every reading the spec makes.
fn summary(spec: &Spec) -> String {
    let mut out = String::from("## Summary\n\n");
    out.push_str(
        "What the documents prove and what this spec reads into them, at a glance. A field, enum value or relation carries the document's word for its row; a choice the documents leave open is a *reading*, labelled Inferred (Unknown for bytes whose meaning is not claimed) and stated below.\n\n",
    );
    // Rows per confidence word.
    let fields: Vec<&Field> = spec.types.iter().flat_map(|t| t.fields.iter()).collect();
    let values: Vec<&EnumValue> = spec.enums.iter().flat_map(|e| e.items.iter()).collect();
    let relations: Vec<&Relation> = spec.types.iter().flat_map(|t| t.relations.iter()).collect();
    let _ = writeln!(
        out,
        "| Confidence | Fields | Enum values | Relations |\n|---|---|---|---|"
    );
    let count = |c: Option<Confidence>| {
        (
            fields.iter().filter(|f| f.confidence == c).count(),
            values.iter().filter(|v| v.confidence == c).count(),
            relations.iter().filter(|r| r.confidence == c).count(),
        )
    };
    for c in Confidence::ALL {
        let (f, v, r) = count(Some(c));
        let _ = writeln!(out, "| {} | {f} | {v} | {r} |", c.title());
    }
    let (f, v, r) = count(None);
    if f + v + r > 0 {
        let _ = writeln!(
            out,
            "| none (parts of a row: runs, vectors, helper types) | {f} | {v} | {r} |"
        );
    }
    let _ = writeln!(
        out,
        "| **total** | {} | {} | {} |\n",
        fields.len(),
        values.len(),
        relations.len()
    );

    // Rules: relations and fields' own checks, errors first.
    let mut rules: Vec<(Severity, String, String, String)> = vec![];
    for t in &spec.types {
        for r in &t.relations {
            rules.push((
                r.severity,
                format!("relation `{}` of [{}](#{})", r.id, t.name, anchor(&t.name)),
                title(r.confidence).to_string(),
                r.severity_reason.clone().unwrap_or_default(),
            ));
        }
        for f in &t.fields {
            if let Some(sev) = f.check_severity {
                rules.push((
                    sev,
                    format!("`{}`", check_text(t, f)),
                    title(f.confidence).to_string(),
                    f.severity_reason.clone().unwrap_or_default(),
                ));
            }
        }
    }
    if !rules.is_empty() {
        let errors = rules.iter().filter(|r| r.0 == Severity::Error).count();
        let _ = writeln!(
            out,
            "Rules: {} the file (error), {} (`check` prints them and passes; `--strict` fails on them). Proven rules refuse; observed, sourced and inferred ones warn; a severity set against that rule carries the spec's reason.\n",
            plural(errors, "refuses", "refuse"),
            plural(rules.len() - errors, "warns", "warn")
        );
        let _ = writeln!(
            out,
            "| Severity | Rule | Confidence | Reason for the severity |\n|---|---|---|---|"
        );
        for sev in [Severity::Error, Severity::Warning] {
            for (s, rule, conf, reason) in rules.iter().filter(|r| r.0 == sev) {
                let _ = writeln!(
                    out,
                    "| {} | {} | {conf} | {} |",
                    s.word(),
                    cell(rule),
                    cell(reason.trim())
                );
            }
        }
        out.push('\n');
    }

    // Readings, the same text stated once with every place it is made.
    let readings = spec.readings();
    if readings.is_empty() {
        out.push_str("Readings: none.\n\n");
    } else {
        let mut grouped: Vec<(String, Vec<String>)> = vec![];
        for site in &readings {
            let text = sentence(site.text());
            let name = format!("`{}`", site.name());
            match grouped.iter_mut().find(|(t, _)| *t == text) {
                Some((_, names)) => names.push(name),
                None => grouped.push((text, vec![name])),
            }
        }
        let _ = writeln!(
            out,
            "Readings: {} in {}:\n\n| Where | Reading |\n|---|---|",
            grouped.len(),
            plural(readings.len(), "place", "places")
        );
        for (text, names) in grouped {
            let _ = writeln!(out, "| {} | {} |", names.join(", "), cell(&text));
        }
        out.push('\n');
    }
    out
}

pub fn page(spec: &Spec) -> R<String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated by `cargo run -p meshspec-codegen` from {}. Do not edit by hand. -->\n",
        spec.file
    );
    let _ = writeln!(out, "# {}\n", spec.title);
    let mut facts = vec![format!("Spec: `{}`", spec.file)];
    if let Some(a) = &spec.application {
        facts.push(format!("application: {a}"));
    }
    if let Some(l) = &spec.license {
        facts.push(format!("spec licence: {l}"));
    }
    if let Some(x) = &spec.extension {
        facts.push(format!("extension: `.{x}`"));
    }
    facts.push(format!("{} endian", endian_word(spec.endian)));
    let _ = writeln!(out, "{}.\n", facts.join(" · "));
    let layouts: Vec<String> = spec
        .types
        .iter()
        .filter_map(|t| {
            t.layout
                .as_ref()
                .map(|l| format!("`{l}` ([{}](#{}))", t.name, anchor(&t.name)))
        })
        .collect();
    if !layouts.is_empty() {
        let _ = writeln!(out, "Layouts: {}.\n", layouts.join(", "));
    }
    out.push_str(&summary(spec));
    for t in &spec.types {
        let _ = writeln!(out, "## {}\n", t.name);
        if let Some(d) = &t.doc {
            let _ = writeln!(out, "{}\n", d.trim());
        }
        let mut line = vec![];
        if let Some(s) = t.fixed_size {
            line.push(format!("{s} bytes"));
        } else {
            line.push(format!("at least {} bytes", t.min_size));
        }
        if !t.params.is_empty() {
            let params = t.params.iter().map(|p| {
                let ty = match p.default {
                    Some(d) => format!("{}, {d} when not given", p.prim.ksy()),
                    None => p.prim.ksy(),
                };
                match &p.doc {
                    Some(d) => format!("`{}` ({ty}: {})", p.id, d.trim()),
                    None => format!("`{}` ({ty})", p.id),
                }
            });
            line.push(format!("parameters: {}", join(params, ", ")));
        }
        match &t.endian {
            Some(TypeEndian::Fixed(e)) => line.push(format!("{} endian", endian_word(*e))),
            Some(TypeEndian::Switch { on, cases }) => {
                let cases = cases
                    .iter()
                    .map(|(k, e)| format!("{k} → {}", endian_word(*e)));
                line.push(format!("byte order by `{on}`: {}", join(cases, ", ")));
            }
            Some(TypeEndian::Inherit) => {
                line.push("the byte order of the value it is read in".into())
            }
            None => {}
        }
        if let Some(c) = t.confidence {
            line.push(c.title().to_string());
        }
        if let Some(e) = &t.evidence {
            line.push(e.clone());
        }
        for r in &t.doc_ref {
            line.push(format!("source: {r}"));
        }
        let _ = writeln!(out, "{}.\n", line.join(" · "));
        let _ = writeln!(out, "| Offset | Size | Type | Field | Confidence | Notes |");
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for (f, at) in t.fields.iter().zip(static_bit_offsets(spec, t)) {
            let off = match (&f.offset, at) {
                (Some(e), _) if e.literal().is_none() => e.to_string(),
                (_, Some(b)) if b % 8 == 0 => format!("0x{:X}", b / 8),
                (_, Some(b)) => format!("0x{:X} bit {}", b / 8, b % 8),
                (Some(e), None) => e.to_string(),
                (None, None) => "…".into(),
            };
            let field = named(&f.id, &f.orig_id);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&off),
                cell(&size_cell(spec, f)),
                cell(&type_cell(f)),
                cell(&field),
                title(f.confidence),
                cell(&notes(t, f))
            );
        }
        if !t.relations.is_empty() {
            let _ = writeln!(out, "\nRelations (checked by `meshspec check`: an error refuses the file, a warning is reported and fails only under `--strict`):\n");
            let _ = writeln!(
                out,
                "| Relation | Confidence | Severity | Statement |\n|---|---|---|---|"
            );
            for r in &t.relations {
                let mut st = sentence(&r.doc);
                if let Some(e) = &r.evidence {
                    st.push_str(&format!(" Evidence: {}", sentence(e)));
                }
                if let Some(rd) = &r.reading {
                    st.push_str(&format!(" Reading: {}", sentence(rd)));
                }
                if let Some(c) = &r.check {
                    let each = r.each.as_ref().map_or(String::new(), |e| {
                        format!(" for every element `_` of `{e}`")
                    });
                    st.push_str(&format!(" Checked from the spec: `{c}`{each}."));
                }
                let sev = match &r.severity_reason {
                    Some(why) => format!("{} ({})", r.severity.word(), why.trim()),
                    None => r.severity.word().to_string(),
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} |",
                    r.id,
                    title(r.confidence),
                    cell(&sev),
                    cell(&st)
                );
            }
        }
        if !t.instances.is_empty() {
            let _ = writeln!(out, "\nValues computed from the fields:\n");
            for i in &t.instances {
                let _ = writeln!(
                    out,
                    "- `{}` = `{}`{}",
                    i.id,
                    i.value,
                    i.doc
                        .as_ref()
                        .map(|d| format!(": {}", d.trim().replace('\n', " ")))
                        .unwrap_or_default()
                );
            }
        }
        let _ = writeln!(out);
    }
    for e in &spec.enums {
        let _ = writeln!(out, "## enum {}\n", e.name);
        let _ = writeln!(
            out,
            "| Value | Name | Confidence | Notes |\n|---|---|---|---|"
        );
        for v in &e.items {
            let value = if v.value > 0xFFFF {
                format!("0x{:X}", v.value)
            } else {
                v.value.to_string()
            };
            let name = named(&v.id, &v.orig_id);
            let mut notes = vec![];
            if let Some(d) = &v.doc {
                notes.push(sentence(d));
            }
            if let Some(ev) = &v.evidence {
                notes.push(format!("Evidence: {}", sentence(ev)));
            }
            if let Some(r) = &v.reading {
                notes.push(format!("Reading: {}", sentence(r)));
            }
            let _ = writeln!(
                out,
                "| {value} | {} | {} | {} |",
                cell(&name),
                title(v.confidence),
                cell(&notes.join(" "))
            );
        }
        let _ = writeln!(out);
    }
    Ok(out.trim_end().to_string() + "\n")
}

pub fn index(specs: &[Spec]) -> String {
    let mut out = String::from(
        "<!-- Generated by `cargo run -p meshspec-codegen` from spec/*.ksy. Do not edit by hand. -->\n\n# Layouts\n\n| Layout | Type | Spec | Description |\n|---|---|---|---|\n",
    );
    for s in specs {
        for t in &s.types {
            if let Some(l) = &t.layout {
                let desc = if t.name == s.id {
                    s.title.clone()
                } else {
                    meshspec_model::first_sentence(t.doc.as_deref().unwrap_or(""))
                };
                let _ = writeln!(
                    out,
                    "| `{l}` | [{}]({}.md#{}) | `{}` | {} |",
                    t.name,
                    s.id,
                    anchor(&t.name),
                    s.file,
                    cell(&desc)
                );
            }
        }
    }
    out
}
