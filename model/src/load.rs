//! Reading a `.ksy` file's YAML into the model: every key checked against the subset, every
//! expression parsed, our `-` keys' words (confidence, severity, readings) validated.

use crate::expr::{self, Expr};
use crate::*;
use serde_norway::{Mapping, Value};

fn confidence_word(s: &str) -> Result<Confidence, String> {
    Confidence::from_word(s).ok_or_else(|| {
        format!("-confidence must be proven, observed, sourced, inferred or unknown, found `{s}`")
    })
}

fn severity_word(s: &str) -> Result<Severity, String> {
    Severity::from_word(s).ok_or_else(|| format!("-severity is error or warning, found `{s}`"))
}

fn is_snake(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

pub(crate) type R<T> = Result<T, String>;

fn str_of(v: &Value, what: &str) -> R<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("{what} must be text")),
    }
}

fn map_of<'a>(v: &'a Value, what: &str) -> R<&'a Mapping> {
    v.as_mapping()
        .ok_or_else(|| format!("{what} must be a map"))
}

/// Refuses keys outside the subset: our own keys start with `-`, and only those listed are ours.
fn check_keys(m: &Mapping, allowed: &[&str], what: &str) -> R<()> {
    for k in m.keys() {
        let k = k
            .as_str()
            .ok_or_else(|| format!("{what}: keys must be text"))?;
        if !allowed.contains(&k) {
            return Err(format!(
                "{what}: key `{k}` is not in the subset spec/README.md documents (allowed: {})",
                allowed.join(", ")
            ));
        }
    }
    Ok(())
}

fn get<'a>(m: &'a Mapping, k: &str) -> Option<&'a Value> {
    m.get(Value::String(k.to_string()))
}

fn opt_str(m: &Mapping, k: &str) -> R<Option<String>> {
    get(m, k).map(|v| str_of(v, k)).transpose()
}

fn opt_expr(m: &Mapping, k: &str, what: &str) -> R<Option<Expr>> {
    get(m, k)
        .map(|v| expr::from_yaml(v).map_err(|e| format!("{what}: {k}: {e}")))
        .transpose()
}

fn doc_refs(m: &Mapping) -> R<Vec<String>> {
    match get(m, "doc-ref") {
        None => Ok(vec![]),
        Some(Value::Sequence(s)) => s.iter().map(|v| str_of(v, "doc-ref")).collect(),
        Some(v) => Ok(vec![str_of(v, "doc-ref")?]),
    }
}

fn confidence(m: &Mapping, what: &str) -> R<Option<Confidence>> {
    opt_str(m, "-confidence")?
        .map(|s| confidence_word(&s).map_err(|e| format!("{what}: {e}")))
        .transpose()
}

/// The severity of a rule (a relation, or a field's own check) and the reason the spec gives
/// when it differs from the one the confidence gives. A `-severity` that contradicts the
/// confidence without a `-severity-reason` is refused, and so is a reason for nothing.
fn rule_severity(
    m: &Mapping,
    confidence: Option<Confidence>,
    what: &str,
) -> R<(Severity, Option<String>)> {
    let given = opt_str(m, "-severity")?
        .map(|s| severity_word(&s).map_err(|e| format!("{what}: {e}")))
        .transpose()?;
    let reason = opt_str(m, "-severity-reason")?.filter(|r| !r.trim().is_empty());
    let from_confidence = confidence.map(Severity::of);
    match (given, from_confidence, reason) {
        (None, None, None) => Ok((Severity::Error, None)),
        (None, Some(c), None) => Ok((c, None)),
        (None, _, Some(_)) => Err(format!("{what}: -severity-reason without -severity")),
        (Some(g), None, reason) => Ok((g, reason)),
        (Some(g), Some(c), None) if g == c => Ok((g, None)),
        (Some(g), Some(c), None) => Err(format!(
            "{what}: -severity: {} contradicts -confidence: {} (which gives {}); state why with -severity-reason, or drop -severity",
            g.word(),
            confidence.map(|c| c.word()).unwrap_or_default(),
            c.word()
        )),
        (Some(g), Some(c), Some(_)) if g == c => Err(format!(
            "{what}: -severity-reason given, but -severity: {} is what the confidence gives anyway",
            g.word()
        )),
        (Some(g), Some(_), Some(r)) => Ok((g, Some(r))),
    }
}

/// `-reading`: a stated reading goes with the confidence `inferred` (or `unknown`, for bytes
/// whose meaning is not claimed, where `unknown_allowed`).
fn reading(
    m: &Mapping,
    confidence: Option<Confidence>,
    unknown_allowed: bool,
    what: &str,
) -> R<Option<String>> {
    let Some(r) = opt_str(m, "-reading")? else {
        return Ok(None);
    };
    if r.trim().is_empty() {
        return Err(format!("{what}: -reading is empty; state the reading"));
    }
    match confidence {
        Some(Confidence::Inferred) => Ok(Some(r)),
        Some(Confidence::Unknown) if unknown_allowed => Ok(Some(r)),
        other => Err(format!(
            "{what}: a reading (a choice the documents leave open) is labelled -confidence: inferred{}, found {}",
            if unknown_allowed {
                " (or unknown, for bytes whose meaning is not claimed)"
            } else {
                ""
            },
            other.map(|c| c.word()).unwrap_or("none")
        )),
    }
}

const ATTR_KEYS: &[&str] = &[
    "id",
    "type",
    "size",
    "size-eos",
    "contents",
    "repeat",
    "repeat-expr",
    "if",
    "valid",
    "enum",
    "encoding",
    "doc",
    "doc-ref",
    "-offset",
    "-confidence",
    "-evidence",
    "-orig-id",
    "-derive",
    "-reading",
    "-severity",
    "-severity-reason",
];

const TYPE_KEYS: &[&str] = &[
    "meta",
    "-relations",
    "seq",
    "types",
    "params",
    "instances",
    "enums",
    "doc",
    "doc-ref",
    "-layout",
    "-confidence",
    "-evidence",
];

const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "license",
    "endian",
    "bit-endian",
    "ks-version",
    "xref",
    "tags",
    "-layout",
];

fn endian_word(v: &Value, what: &str) -> R<Endian> {
    match v.as_str() {
        Some("le") => Ok(Endian::Le),
        Some("be") => Ok(Endian::Be),
        _ => Err(format!("{what}: an endianness is le or be")),
    }
}

/// A `{switch-on: EXPR, cases: {K: V}}` map, each `V` read by `case`. `needs` begins the
/// message for a missing key (`needs`, `switch needs`).
fn switch<T>(
    m: &Mapping,
    what: &str,
    needs: &str,
    case: impl Fn(&Value) -> R<T>,
) -> R<(Expr, Vec<(Expr, T)>)> {
    check_keys(m, &["switch-on", "cases"], what)?;
    let on = opt_expr(m, "switch-on", what)?.ok_or_else(|| format!("{what}: {needs} switch-on"))?;
    let cases = get(m, "cases").ok_or_else(|| format!("{what}: {needs} cases"))?;
    let cases = map_of(cases, what)?
        .iter()
        .map(|(k, v)| {
            let key = expr::from_yaml(k).map_err(|e| format!("{what}: case key: {e}"))?;
            Ok((key, case(v)?))
        })
        .collect::<R<Vec<_>>>()?;
    Ok((on, cases))
}

/// A type's `meta: endian`: `le`, `be`, or `{switch-on: EXPR, cases: {K: le|be}}`.
fn type_endian(v: &Value, what: &str) -> R<TypeEndian> {
    let what = format!("{what}.meta.endian");
    match v {
        Value::Mapping(m) => {
            let (on, cases) = switch(m, &what, "needs", |e| endian_word(e, &what))?;
            if cases.is_empty() {
                return Err(format!("{what}: needs at least one case"));
            }
            Ok(TypeEndian::Switch { on, cases })
        }
        other => Ok(TypeEndian::Fixed(endian_word(other, &what)?)),
    }
}

fn type_ref(s: &str, what: &str) -> R<TypeRef> {
    let s = s.trim();
    if let Some(open) = s.find('(') {
        let inner = s[open + 1..]
            .strip_suffix(')')
            .ok_or_else(|| format!("{what}: `{s}` lacks `)`"))?;
        let args = split_args(inner)
            .iter()
            .map(|a| expr::parse(a).map_err(|e| format!("{what}: argument `{a}`: {e}")))
            .collect::<R<Vec<_>>>()?;
        Ok(TypeRef {
            name: s[..open].trim().to_string(),
            args,
        })
    } else {
        Ok(TypeRef {
            name: s.to_string(),
            args: vec![],
        })
    }
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn size_of_attr(m: &Mapping, what: &str) -> R<Option<Size>> {
    let size = opt_expr(m, "size", what)?;
    let eos = matches!(get(m, "size-eos"), Some(Value::Bool(true)));
    match (size, eos) {
        (Some(_), true) => Err(format!("{what}: both size and size-eos")),
        (Some(e), false) => Ok(Some(Size::Expr(e))),
        (None, true) => Ok(Some(Size::Eos)),
        (None, false) => Ok(None),
    }
}

fn contents(v: &Value, what: &str) -> R<Vec<u8>> {
    match v {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        Value::Sequence(items) => {
            let mut out = vec![];
            for it in items {
                match it {
                    Value::Number(n) => out.push(
                        n.as_u64()
                            .and_then(|v| u8::try_from(v).ok())
                            .ok_or_else(|| format!("{what}: contents byte {n} is not 0..255"))?,
                    ),
                    Value::String(s) => out.extend_from_slice(s.as_bytes()),
                    _ => return Err(format!("{what}: contents items must be bytes or text")),
                }
            }
            Ok(out)
        }
        _ => Err(format!("{what}: contents must be a list or text")),
    }
}

fn valid(v: &Value, what: &str) -> R<Valid> {
    match v {
        Value::Mapping(m) => {
            check_keys(m, &["eq", "min", "max", "any-of", "expr"], what)?;
            if let Some(e) = opt_expr(m, "eq", what)? {
                return Ok(Valid::Eq(e));
            }
            if let Some(e) = opt_expr(m, "expr", what)? {
                return Ok(Valid::Expr(e));
            }
            if let Some(Value::Sequence(items)) = get(m, "any-of") {
                return Ok(Valid::AnyOf(
                    items
                        .iter()
                        .map(|v| expr::from_yaml(v).map_err(|e| format!("{what}: any-of: {e}")))
                        .collect::<R<_>>()?,
                ));
            }
            Ok(Valid::Range {
                min: opt_expr(m, "min", what)?,
                max: opt_expr(m, "max", what)?,
            })
        }
        other => Ok(Valid::Eq(
            expr::from_yaml(other).map_err(|e| format!("{what}: valid: {e}"))?,
        )),
    }
}

fn attr(v: &Value, where_: &str, bit_le: bool) -> R<Field> {
    let m = map_of(v, where_)?;
    let id = opt_str(m, "id")?.ok_or_else(|| format!("{where_}: an attribute needs an id"))?;
    let what = format!("{where_}.{id}");
    check_keys(m, ATTR_KEYS, &what)?;
    if !is_snake(&id) {
        return Err(format!("{what}: ids are snake_case"));
    }
    let size = size_of_attr(m, &what)?;
    let ty = match (get(m, "type"), get(m, "contents")) {
        (Some(_), Some(_)) => return Err(format!("{what}: both type and contents")),
        (None, Some(c)) => FieldType::Contents(contents(c, &what)?),
        (None, None) => FieldType::Bytes(
            size.clone()
                .ok_or_else(|| format!("{what}: a field without type needs size or size-eos"))?,
        ),
        (Some(Value::Mapping(sw)), None) => {
            let (on, cases) = switch(sw, &what, "switch needs", |t| {
                type_ref(&str_of(t, "case type")?, &what)
            })?;
            if size.is_some() {
                return Err(format!("{what}: sized switches are not in the subset"));
            }
            FieldType::Switch { on, cases }
        }
        (Some(t), None) => {
            let t = str_of(t, "type")?;
            if let Some(p) = Prim::parse(&t) {
                if size.is_some() {
                    return Err(format!("{what}: a sized primitive is not in the subset"));
                }
                FieldType::Prim(p)
            } else if let Some(n) = t.strip_prefix('b').and_then(|n| n.parse::<u32>().ok()) {
                if !(1..=64).contains(&n) {
                    return Err(format!("{what}: bit fields are b1 to b64"));
                }
                if !bit_le {
                    return Err(format!(
                        "{what}: bit fields need `bit-endian: le` in meta (the subset's only order)"
                    ));
                }
                FieldType::Bits(n)
            } else if t == "str" {
                FieldType::Str {
                    size: size
                        .clone()
                        .ok_or_else(|| format!("{what}: str needs size"))?,
                    encoding: opt_str(m, "encoding")?
                        .ok_or_else(|| format!("{what}: str needs an encoding"))?,
                }
            } else if t == "strz" {
                if size.is_some() {
                    return Err(format!(
                        "{what}: a sized strz (padded text) is not in the subset"
                    ));
                }
                FieldType::Strz {
                    encoding: opt_str(m, "encoding")?
                        .ok_or_else(|| format!("{what}: strz needs an encoding"))?,
                }
            } else {
                let r = type_ref(&t, &what)?;
                match size.clone() {
                    Some(size) => FieldType::SizedUser { r#ref: r, size },
                    None => FieldType::User(r),
                }
            }
        }
    };
    let repeat = match opt_str(m, "repeat")?.as_deref() {
        None => Repeat::None,
        Some("expr") => Repeat::Expr(
            opt_expr(m, "repeat-expr", &what)?
                .ok_or_else(|| format!("{what}: repeat: expr needs repeat-expr"))?,
        ),
        Some("eos") => Repeat::Eos,
        Some(other) => return Err(format!("{what}: repeat: {other} is not in the subset")),
    };
    if matches!(ty, FieldType::Bits(_)) && !matches!(repeat, Repeat::None) {
        return Err(format!("{what}: repeated bit fields are not in the subset"));
    }
    let conf = confidence(m, &what)?;
    let valid = get(m, "valid").map(|v| valid(v, &what)).transpose()?;
    let checked = valid.is_some() || matches!(ty, FieldType::Contents(_));
    let (severity, severity_reason) = rule_severity(m, conf, &what)?;
    if !checked && (get(m, "-severity").is_some() || get(m, "-severity-reason").is_some()) {
        return Err(format!(
            "{what}: -severity is for a field with valid or contents (its own check)"
        ));
    }
    if matches!(ty, FieldType::Contents(_)) && severity == Severity::Warning {
        return Err(format!(
            "{what}: a `contents` check cannot be a warning: the writer writes the constant, so other bytes would be lost; use a stored field with `valid` instead"
        ));
    }
    Ok(Field {
        reading: reading(m, conf, true, &what)?,
        check_severity: checked.then_some(severity),
        severity_reason,
        id,
        doc: opt_str(m, "doc")?,
        orig_id: opt_str(m, "-orig-id")?,
        confidence: conf,
        evidence: opt_str(m, "-evidence")?,
        offset: opt_expr(m, "-offset", &what)?,
        ty,
        repeat,
        cond: opt_expr(m, "if", &what)?,
        valid,
        enum_name: opt_str(m, "enum")?,
        users: vec![],
        derive: opt_expr(m, "-derive", &what)?,
        measured: false,
    })
}

struct Loader {
    types: Vec<Type>,
    enums: Vec<EnumDef>,
    bit_le: bool,
}

impl Loader {
    fn enums(&mut self, m: &Mapping, what: &str) -> R<()> {
        if let Some(es) = get(m, "enums") {
            for (name, vals) in map_of(es, "enums")? {
                let name = str_of(name, "enum name")?;
                let mut values = vec![];
                for (k, v) in map_of(vals, &name)? {
                    let key = expr::from_yaml(k)
                        .ok()
                        .and_then(|e| e.literal())
                        .ok_or_else(|| format!("{what}: enum {name}: keys are integers"))?;
                    let item = match v {
                        Value::Mapping(vm) => {
                            let at = format!("enum {name}: {key}");
                            check_keys(
                                vm,
                                &[
                                    "id",
                                    "doc",
                                    "doc-ref",
                                    "-orig-id",
                                    "-confidence",
                                    "-evidence",
                                    "-reading",
                                ],
                                &at,
                            )?;
                            let conf = confidence(vm, &at)?;
                            EnumValue {
                                value: key,
                                id: opt_str(vm, "id")?
                                    .ok_or_else(|| format!("enum {name}: value needs id"))?,
                                doc: opt_str(vm, "doc")?,
                                orig_id: opt_str(vm, "-orig-id")?,
                                confidence: conf,
                                evidence: opt_str(vm, "-evidence")?,
                                reading: reading(vm, conf, false, &at)?,
                            }
                        }
                        other => EnumValue {
                            value: key,
                            id: str_of(other, "enum value")?,
                            doc: None,
                            orig_id: None,
                            confidence: None,
                            evidence: None,
                            reading: None,
                        },
                    };
                    values.push(item);
                }
                if self.enums.iter().any(|e| e.name == name) {
                    return Err(format!("enum `{name}` is defined twice"));
                }
                self.enums.push(EnumDef {
                    rust: camel(&name),
                    name,
                    values: values
                        .iter()
                        .map(|v| (v.value, v.id.clone(), v.doc.clone()))
                        .collect(),
                    items: values,
                    prim: None,
                });
            }
        }
        Ok(())
    }

    fn ty(&mut self, name: &str, m: &Mapping, layout_from_meta: Option<String>) -> R<()> {
        check_keys(m, TYPE_KEYS, name)?;
        self.enums(m, name)?;
        let mut params = vec![];
        if let Some(ps) = get(m, "params") {
            for p in ps.as_sequence().ok_or("params must be a list")? {
                let pm = map_of(p, "param")?;
                check_keys(pm, &["id", "type", "doc", "-context"], name)?;
                let id = opt_str(pm, "id")?.ok_or("param needs id")?;
                let t = opt_str(pm, "type")?.ok_or("param needs type")?;
                let prim = Prim::parse(&t)
                    .filter(|p| p.kind != PrimKind::F)
                    .ok_or_else(|| format!("{name}: param {id}: integer types only, found {t}"))?;
                params.push(Param {
                    id,
                    prim,
                    doc: opt_str(pm, "doc")?,
                    context: opt_str(pm, "-context")?,
                });
            }
        }
        let mut fields = vec![];
        if let Some(seq) = get(m, "seq") {
            for a in seq.as_sequence().ok_or("seq must be a list")? {
                fields.push(attr(a, name, self.bit_le)?);
            }
        }
        let mut instances = vec![];
        if let Some(is) = get(m, "instances") {
            for (k, v) in map_of(is, "instances")? {
                let id = str_of(k, "instance")?;
                let im = map_of(v, &id)?;
                check_keys(im, &["value", "doc"], &format!("{name}.{id}"))?;
                instances.push(Instance {
                    value: opt_expr(im, "value", &id)?.ok_or_else(|| {
                        format!("{name}.{id}: only value instances are in the subset")
                    })?,
                    doc: opt_str(im, "doc")?,
                    id,
                });
            }
        }
        let mut relations = vec![];
        if let Some(rs) = get(m, "-relations") {
            for r in rs.as_sequence().ok_or("-relations must be a list")? {
                let rm = map_of(r, "relation")?;
                check_keys(
                    rm,
                    &[
                        "id",
                        "doc",
                        "-confidence",
                        "-evidence",
                        "-severity",
                        "-severity-reason",
                        "-reading",
                    ],
                    &format!("{name}: -relations"),
                )?;
                let id =
                    opt_str(rm, "id")?.ok_or_else(|| format!("{name}: a relation needs an id"))?;
                if !is_snake(&id) {
                    return Err(format!("{name}: relation ids are snake_case: {id}"));
                }
                if relations.iter().any(|r: &Relation| r.id == id) {
                    return Err(format!("{name}.{id}: relation id used twice"));
                }
                let what = format!("{name}.{id}");
                let conf = confidence(rm, &what)?;
                if conf == Some(Confidence::Unknown) {
                    return Err(format!(
                        "{what}: a relation is a rule the documents state (proven, observed, sourced) or that we infer; `unknown` is for stored bytes"
                    ));
                }
                let (severity, severity_reason) = rule_severity(rm, conf, &what)?;
                relations.push(Relation {
                    severity,
                    severity_reason,
                    reading: reading(rm, conf, false, &what)?,
                    doc: opt_str(rm, "doc")?
                        .ok_or_else(|| format!("{name}.{id}: a relation needs doc"))?,
                    confidence: conf,
                    evidence: opt_str(rm, "-evidence")?,
                    id,
                });
            }
        }
        let layout = match (opt_str(m, "-layout")?, layout_from_meta) {
            (Some(_), Some(_)) => return Err(format!("{name}: -layout given twice")),
            (a, b) => a.or(b),
        };
        if self.types.iter().any(|t| t.name == name) {
            return Err(format!(
                "type `{name}` is defined twice (names are unique per spec)"
            ));
        }
        self.types.push(Type {
            name: name.to_string(),
            rust: camel(name),
            doc: opt_str(m, "doc")?,
            doc_ref: doc_refs(m)?,
            confidence: confidence(m, name)?,
            evidence: opt_str(m, "-evidence")?,
            params,
            fields,
            instances,
            relations,
            layout,
            min_size: 0,
            fixed_size: None,
            endian: match get(m, "meta") {
                Some(meta) => {
                    let meta = map_of(meta, &format!("{name}.meta"))?;
                    check_keys(meta, &["endian"], &format!("{name}.meta"))?;
                    get(meta, "endian")
                        .map(|e| type_endian(e, name))
                        .transpose()?
                }
                None => None,
            },
        });
        if let Some(ts) = get(m, "types") {
            for (k, v) in map_of(ts, "types")? {
                let tn = str_of(k, "type name")?;
                if !is_snake(&tn) {
                    return Err(format!("type `{tn}`: names are snake_case"));
                }
                self.ty(&tn, map_of(v, &tn)?, None)?;
            }
        }
        Ok(())
    }
}

/// Reads and resolves one spec file. `file` is the repository-relative path, for headers.
pub fn load(file: &str, text: &str) -> R<Spec> {
    let y: Value = serde_norway::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let top = map_of(&y, "the spec")?;
    let meta = map_of(get(top, "meta").ok_or("meta is required")?, "meta")?;
    check_keys(meta, META_KEYS, "meta")?;
    let id = opt_str(meta, "id")?.ok_or("meta.id is required")?;
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if id != stem {
        return Err(format!("meta.id `{id}` must equal the file name `{stem}`"));
    }
    let endian = match opt_str(meta, "endian")?.as_deref() {
        Some("le") => Endian::Le,
        Some("be") => Endian::Be,
        _ => return Err("meta.endian must be le or be".into()),
    };
    let bit_le = match opt_str(meta, "bit-endian")?.as_deref() {
        None | Some("be") => false,
        Some("le") => true,
        Some(o) => return Err(format!("meta.bit-endian: {o}")),
    };
    let mut l = Loader {
        types: vec![],
        enums: vec![],
        bit_le,
    };
    let mut root = top.clone();
    root.remove("meta");
    l.ty(&id, &root, opt_str(meta, "-layout")?)?;
    let mut spec = Spec {
        file: file.to_string(),
        title: opt_str(meta, "title")?.ok_or("meta.title is required")?,
        application: opt_str(meta, "application")?,
        extension: opt_str(meta, "file-extension")?,
        license: opt_str(meta, "license")?,
        id,
        endian,
        types: l.types,
        enums: l.enums,
    };
    crate::resolve::resolve(&mut spec)?;
    Ok(spec)
}
