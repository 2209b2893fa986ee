//! Reading a `.ksy` file's YAML into the model: every key checked against the subset, every
//! expression parsed, our `-` keys' words (confidence, severity, readings) validated. Every
//! complaint carries the line and column of the node it is about.

use crate::expr::{self, Expr};
use crate::syntax::{Kind, Mark, Node};
use crate::*;

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

/// What is wrong with a spec, and where when known.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    pub at: Option<Mark>,
    pub message: String,
}

impl From<String> for Problem {
    fn from(message: String) -> Self {
        Problem { at: None, message }
    }
}

impl From<&str> for Problem {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

impl Problem {
    /// The problem placed at `at`, unless a nearer place is known already.
    pub(crate) fn or_at(self, at: Mark) -> Self {
        Problem {
            at: self.at.or(Some(at)),
            ..self
        }
    }
}

/// Places a problem at `n` unless it has a nearer place.
pub(crate) fn at(n: &Node) -> impl Fn(Problem) -> Problem + '_ {
    move |p| p.or_at(n.at)
}

pub(crate) type R<T> = Result<T, Problem>;

/// `f`'s result, its problems placed at `n` unless they have a nearer place.
fn within<T>(n: &Node, f: impl FnOnce() -> R<T>) -> R<T> {
    f().map_err(at(n))
}

fn str_of(v: &Node, what: &str) -> R<String> {
    v.text().ok_or_else(|| Problem {
        at: Some(v.at),
        message: format!("{what} must be text, found {}", v.describe()),
    })
}

fn map_of<'a>(v: &'a Node, what: &str) -> R<&'a Node> {
    match v.kind {
        Kind::Map(_) => Ok(v),
        _ => Err(Problem {
            at: Some(v.at),
            message: format!("{what} must be a map, found {}", v.describe()),
        }),
    }
}

/// Refuses keys outside the subset: our own keys start with `-`, and only those listed are ours.
fn check_keys(m: &Node, allowed: &[&str], what: &str) -> R<()> {
    for (k, _) in m.as_map().unwrap_or_default() {
        let Some(k_text) = k.as_str() else {
            return Err(Problem {
                at: Some(k.at),
                message: format!("{what}: keys must be text, found {}", k.describe()),
            });
        };
        if !allowed.contains(&k_text) {
            if foreign_key(k_text) {
                continue;
            }
            return Err(Problem {
                at: Some(k.at),
                message: format!(
                    "{what}: key `{k_text}` is not in the subset spec/README.md documents (allowed: {})",
                    allowed.join(", ")
                ),
            });
        }
    }
    Ok(())
}

/// Every `-` key meshspec itself defines, wherever it goes: one of these where it does not
/// belong is refused, and so is a near miss of one (`-confidance`).
pub(crate) const OUR_KEYS: &[&str] = &[
    "-offset",
    "-confidence",
    "-evidence",
    "-orig-id",
    "-derive",
    "-reading",
    "-severity",
    "-severity-reason",
    "-layout",
    "-relations",
    "-context",
    "-default",
    "-check",
    "-each",
    "-at",
];

/// Whether `k` is another tool's key (`-webide-representation`, `-affected-by`): Kaitai
/// ignores every key that starts with `-`, and so does meshspec where the key is not its own
/// and not a near miss of its own (a misspelt key of ours must not pass as documentation).
pub(crate) fn foreign_key(k: &str) -> bool {
    k.starts_with('-') && !OUR_KEYS.iter().any(|o| *o == k || edits(o, k) <= 2)
}

/// The edit distance between two short words.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The entries of a map node.
fn entries<'a>(v: &'a Node, what: &str) -> R<&'a [(Node, Node)]> {
    Ok(map_of(v, what)?.as_map().unwrap_or_default())
}

/// The items of a list node.
fn items<'a>(v: &'a Node, what: &str) -> R<&'a [Node]> {
    v.as_seq().ok_or_else(|| Problem {
        at: Some(v.at),
        message: format!("{what} must be a list, found {}", v.describe()),
    })
}

fn get<'a>(m: &'a Node, k: &str) -> Option<&'a Node> {
    m.get(k)
}

fn opt_str(m: &Node, k: &str) -> R<Option<String>> {
    get(m, k).map(|v| str_of(v, k)).transpose()
}

fn opt_expr(m: &Node, k: &str, what: &str) -> R<Option<Expr>> {
    get(m, k)
        .map(|v| expr_of(v, &format!("{what}: {k}")))
        .transpose()
}

/// The expression a node states (a number, `true`/`false`, or text to parse).
fn expr_of(v: &Node, what: &str) -> R<Expr> {
    let e = match &v.kind {
        Kind::Int(n) => Ok(Expr::Int {
            value: *n,
            hex: false,
        }),
        Kind::Bool(b) => Ok(Expr::Bool(*b)),
        Kind::Float(x) => Ok(Expr::Float(*x)),
        Kind::Str(s) => expr::parse(s),
        _ => Err(format!("expected an expression, found {}", v.describe())),
    };
    e.map_err(|e| Problem {
        at: Some(v.at),
        message: format!("{what}: {e}"),
    })
}

fn doc_refs(m: &Node) -> R<Vec<String>> {
    match get(m, "doc-ref") {
        None => Ok(vec![]),
        Some(Node {
            kind: Kind::Seq(s), ..
        }) => s.iter().map(|v| str_of(v, "doc-ref")).collect(),
        Some(v) => Ok(vec![str_of(v, "doc-ref")?]),
    }
}

fn confidence(m: &Node, what: &str) -> R<Option<Confidence>> {
    opt_str(m, "-confidence")?
        .map(|s| confidence_word(&s).map_err(|e| format!("{what}: {e}").into()))
        .transpose()
}

/// The severity of a rule (a relation, or a field's own check) and the reason the spec gives
/// when it differs from the one the confidence gives. A `-severity` that contradicts the
/// confidence without a `-severity-reason` is refused, and so is a reason for nothing.
fn rule_severity(
    m: &Node,
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
        (None, _, Some(_)) => Err(Problem::from(format!("{what}: -severity-reason without -severity"))),
        (Some(g), None, reason) => Ok((g, reason)),
        (Some(g), Some(c), None) if g == c => Ok((g, None)),
        (Some(g), Some(c), None) => Err(Problem::from(format!(
            "{what}: -severity: {} contradicts -confidence: {} (which gives {}); state why with -severity-reason, or drop -severity",
            g.word(),
            confidence.map(|c| c.word()).unwrap_or_default(),
            c.word()
        ))),
        (Some(g), Some(c), Some(_)) if g == c => Err(Problem::from(format!(
            "{what}: -severity-reason given, but -severity: {} is what the confidence gives anyway",
            g.word()
        ))),
        (Some(g), Some(_), Some(r)) => Ok((g, Some(r))),
    }
}

/// `-reading`: a stated reading goes with the confidence `inferred` (or `unknown`, for bytes
/// whose meaning is not claimed, where `unknown_allowed`).
fn reading(
    m: &Node,
    confidence: Option<Confidence>,
    unknown_allowed: bool,
    what: &str,
) -> R<Option<String>> {
    let Some(r) = opt_str(m, "-reading")? else {
        return Ok(None);
    };
    if r.trim().is_empty() {
        return Err(Problem::from(format!(
            "{what}: -reading is empty; state the reading"
        )));
    }
    match confidence {
        Some(Confidence::Inferred) => Ok(Some(r)),
        Some(Confidence::Unknown) if unknown_allowed => Ok(Some(r)),
        other => Err(Problem::from(format!(
            "{what}: a reading (a choice the documents leave open) is labelled -confidence: inferred{}, found {}",
            if unknown_allowed {
                " (or unknown, for bytes whose meaning is not claimed)"
            } else {
                ""
            },
            other.map(|c| c.word()).unwrap_or("none")
        ))),
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
    "repeat-until",
    "if",
    "valid",
    "enum",
    "encoding",
    "terminator",
    "include",
    "consume",
    "eos-error",
    "pad-right",
    "process",
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
    "-orig-id",
    "to-string",
];

const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "license",
    "endian",
    "bit-endian",
    "encoding",
    "imports",
    "ks-version",
    "ks-debug",
    "xref",
    "tags",
    "-layout",
];

fn endian_word(v: &Node, what: &str) -> R<Endian> {
    match v.as_str() {
        Some("le") => Ok(Endian::Le),
        Some("be") => Ok(Endian::Be),
        _ => Err(Problem::from(format!("{what}: an endianness is le or be"))),
    }
}

/// A `{switch-on: EXPR, cases: {K: V}}` map, each `V` read by `case`. `needs` begins the
/// message for a missing key (`needs`, `switch needs`).
fn switch<T>(
    m: &Node,
    what: &str,
    needs: &str,
    case: impl Fn(&Node) -> R<T>,
) -> R<(Expr, Vec<(Expr, T)>)> {
    check_keys(m, &["switch-on", "cases"], what)?;
    let on = opt_expr(m, "switch-on", what)?.ok_or_else(|| format!("{what}: {needs} switch-on"))?;
    let cases = get(m, "cases").ok_or_else(|| format!("{what}: {needs} cases"))?;
    let cases = map_of(cases, what)?
        .as_map()
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| {
            let key = expr_of(k, &format!("{what}: case key"))?;
            Ok((key, case(v).map_err(at(v))?))
        })
        .collect::<R<Vec<_>>>()?;
    Ok((on, cases))
}

/// A type's `meta: endian`: `le`, `be`, or `{switch-on: EXPR, cases: {K: le|be}}`.
fn type_endian(v: &Node, what: &str) -> R<TypeEndian> {
    let what = format!("{what}.meta.endian");
    match &v.kind {
        Kind::Map(_) => {
            let (on, cases) = switch(v, &what, "needs", |e| endian_word(e, &what))?;
            if cases.is_empty() {
                return Err(Problem::from(format!("{what}: needs at least one case")));
            }
            Ok(TypeEndian::Switch { on, cases })
        }
        _ => Ok(TypeEndian::Fixed(endian_word(v, &what)?)),
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
            .map(|a| {
                expr::parse(a).map_err(|e| Problem::from(format!("{what}: argument `{a}`: {e}")))
            })
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

fn size_of_attr(m: &Node, what: &str) -> R<Option<Size>> {
    let size = opt_expr(m, "size", what)?;
    let eos = matches!(get(m, "size-eos").map(|n| &n.kind), Some(Kind::Bool(true)));
    match (size, eos) {
        (Some(_), true) => Err(Problem::from(format!("{what}: both size and size-eos"))),
        (Some(e), false) => Ok(Some(Size::Expr(e))),
        (None, true) => Ok(Some(Size::Eos)),
        (None, false) => Ok(None),
    }
}

fn contents(v: &Node, what: &str) -> R<Vec<u8>> {
    let bad = |n: &Node, expected: &str| Problem {
        at: Some(n.at),
        message: format!("{what}: {expected}, found {}", n.describe()),
    };
    match &v.kind {
        Kind::Str(s) => Ok(s.as_bytes().to_vec()),
        Kind::Seq(items) => {
            let mut out = vec![];
            for it in items {
                match &it.kind {
                    Kind::Int(n) => out
                        .push(u8::try_from(*n).map_err(|_| bad(it, "contents bytes are 0..255"))?),
                    Kind::Str(s) => out.extend_from_slice(s.as_bytes()),
                    _ => return Err(bad(it, "contents items are bytes or text")),
                }
            }
            Ok(out)
        }
        _ => Err(bad(v, "contents is a list or text")),
    }
}

fn valid(v: &Node, what: &str) -> R<Valid> {
    match &v.kind {
        Kind::Map(_) => {
            let m = v;
            check_keys(m, &["eq", "min", "max", "any-of", "expr", "in-enum"], what)?;
            // `in-enum: true`: one of the field's enum's values (filled in once the enums are
            // known: `in_enum`).
            match get(m, "in-enum").map(|n| (n, &n.kind)) {
                None => {}
                Some((_, Kind::Bool(true))) => {
                    return Ok(Valid::AnyOf(vec![Expr::Name(IN_ENUM.into())]))
                }
                // As Kaitai: without a check, there is no `valid`.
                Some((n, _)) => {
                    return Err(Problem {
                        at: Some(n.at),
                        message: format!(
                            "{what}: in-enum can only be true (without a check, leave valid out), found {}",
                            n.describe()
                        ),
                    })
                }
            }
            if let Some(e) = opt_expr(m, "eq", what)? {
                return Ok(Valid::Eq(e));
            }
            if let Some(e) = opt_expr(m, "expr", what)? {
                return Ok(Valid::Expr(e));
            }
            if let Some(items) = get(m, "any-of").and_then(Node::as_seq) {
                return Ok(Valid::AnyOf(
                    items
                        .iter()
                        .map(|v| expr_of(v, &format!("{what}: any-of")))
                        .collect::<R<_>>()?,
                ));
            }
            Ok(Valid::Range {
                min: opt_expr(m, "min", what)?,
                max: opt_expr(m, "max", what)?,
            })
        }
        _ => Ok(Valid::Eq(expr_of(v, &format!("{what}: valid"))?)),
    }
}

/// The placeholder of `valid: in-enum: true` until the field's enum is known (a name no
/// expression can spell).
const IN_ENUM: &str = "in-enum";

/// `valid: in-enum: true` made the check that the value is one of its enum's values.
fn in_enum(spec: &mut Spec) -> R<()> {
    let enums = spec.enums.clone();
    for t in &mut spec.types {
        let fields = t
            .fields
            .iter_mut()
            .chain(t.parsed.iter_mut().map(|p| &mut p.field));
        for f in fields {
            let Some(Valid::AnyOf(es)) = &f.valid else {
                continue;
            };
            if !matches!(es.as_slice(), [Expr::Name(n)] if n == IN_ENUM) {
                continue;
            }
            let what = format!("{}.{}", t.name, f.id);
            let en = f.enum_name.clone().ok_or_else(|| {
                Problem::from(format!("{what}: valid in-enum needs an enum")).or_at(f.at)
            })?;
            let probe = Spec {
                enums: enums.clone(),
                types: vec![],
                ..spec_shell()
            };
            let def = probe
                .enum_def(&en)
                .ok_or_else(|| Problem::from(format!("{what}: no enum `{en}`")).or_at(f.at))?;
            f.valid = Some(Valid::AnyOf(
                def.values
                    .iter()
                    .map(|(_, id, _)| Expr::EnumVal(def.name.clone(), id.clone()))
                    .collect(),
            ));
        }
    }
    Ok(())
}

/// A spec with nothing in it (to look names up in a part of one).
fn spec_shell() -> Spec {
    Spec {
        file: String::new(),
        id: String::new(),
        title: String::new(),
        application: None,
        extension: None,
        license: None,
        endian: Endian::Le,
        endian_stated: false,
        bit_endian: Endian::Be,
        types: vec![],
        enums: vec![],
    }
}

fn attr(v: &Node, where_: &str, bit_le: bool, encoding: Option<&str>) -> R<Field> {
    attr_of(v, where_, bit_le, encoding).map_err(at(v))
}

fn attr_of(v: &Node, where_: &str, bit_le: bool, default_encoding: Option<&str>) -> R<Field> {
    let m = map_of(v, where_)?;
    let id = opt_str(m, "id")?.ok_or_else(|| format!("{where_}: an attribute needs an id"))?;
    let what = format!("{where_}.{id}");
    check_keys(m, ATTR_KEYS, &what)?;
    let unnamed = id
        .strip_prefix("_unnamed")
        .is_some_and(|n| n.parse::<usize>().is_ok());
    if !is_snake(&id) && !unnamed {
        return Err(Problem::from(format!("{what}: ids are snake_case")));
    }
    let size = size_of_attr(m, &what)?;
    let mut term = term_of(m, &what, size.is_some())?;
    // Where a terminator ends the value, it lies in the rest of the stream.
    let size = size.or_else(|| term.map(|_| Size::Eos));
    let type_node = get(m, "type").or(get(m, "contents")).unwrap_or(v);
    let ty = (|| -> R<FieldType> {
        Ok(match (get(m, "type"), get(m, "contents")) {
            (Some(_), Some(_)) => {
                return Err(Problem::from(format!("{what}: both type and contents")))
            }
            (None, Some(c)) => FieldType::Contents(contents(c, &what)?),
            (None, None) => {
                FieldType::Bytes(size.clone().ok_or_else(|| {
                    format!("{what}: a field without type needs size or size-eos")
                })?)
            }
            (
                Some(
                    sw @ Node {
                        kind: Kind::Map(_), ..
                    },
                ),
                None,
            ) => {
                let (on, mut cases) = switch(sw, &what, "switch needs", |t| {
                    type_ref(&str_of(t, "case type")?, &what)
                })?;
                // Text as a case is held by a type made for it in the encoding of this field
                // (its own `encoding`, else its type's).
                let enc = opt_str(m, "encoding")?.or(default_encoding.map(str::to_string));
                for (_, r) in &mut cases {
                    if let (true, Some(enc)) = (matches!(r.name.as_str(), "str" | "strz"), &enc) {
                        r.name = format!("{} in {enc}", r.name);
                    }
                }
                FieldType::Switch { on, cases }
            }
            (Some(t), None) => {
                let t = str_of(t, "type")?;
                if let Some(p) = Prim::parse(&t) {
                    if size.is_some() {
                        return Err(Problem::from(format!(
                            "{what}: a sized primitive is not in the subset"
                        )));
                    }
                    FieldType::Prim(p)
                } else if let Some(n) = t.strip_prefix('b').and_then(|n| n.parse::<u32>().ok()) {
                    if !(1..=64).contains(&n) {
                        return Err(Problem::from(format!("{what}: bit fields are b1 to b64")));
                    }
                    let _ = bit_le;
                    FieldType::Bits(n)
                } else if t == "str" {
                    FieldType::Str {
                        size: size
                            .clone()
                            .ok_or_else(|| format!("{what}: str needs size"))?,
                        encoding: opt_str(m, "encoding")?
                            .or(default_encoding.map(str::to_string))
                            .ok_or_else(|| format!("{what}: str needs an encoding"))?,
                    }
                } else if t == "strz"
                    && (size.is_some()
                        || term.is_some()
                        || !["UTF-8", "ASCII"].iter().any(|e| {
                            opt_str(m, "encoding")
                                .ok()
                                .flatten()
                                .or(default_encoding.map(str::to_string))
                                .is_some_and(|x| x.eq_ignore_ascii_case(e))
                        }))
                {
                    // Sized, or with `include`/`consume`/`eos-error`: text with terminator 0.
                    let mut t = term.unwrap_or(Term {
                        terminator: None,
                        include: false,
                        consume: true,
                        eos_error: true,
                        pad_right: None,
                        bounded: size.is_some(),
                    });
                    t.terminator = Some(t.terminator.unwrap_or(0));
                    term = Some(t);
                    FieldType::Str {
                        size: size.clone().unwrap_or(Size::Eos),
                        encoding: opt_str(m, "encoding")?
                            .or(default_encoding.map(str::to_string))
                            .ok_or_else(|| format!("{what}: strz needs an encoding"))?,
                    }
                } else if t == "strz" {
                    FieldType::Strz {
                        encoding: opt_str(m, "encoding")?
                            .or(default_encoding.map(str::to_string))
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
        })
    })()
    .map_err(at(type_node))?;
    let repeat_node = get(m, "repeat").unwrap_or(v);
    // A repeat's count or condition without the repeat it belongs to is a mistake.
    for (key, kind) in [("repeat-expr", "expr"), ("repeat-until", "until")] {
        if let Some(n) = get(m, key) {
            if opt_str(m, "repeat")?.as_deref() != Some(kind) {
                return Err(
                    Problem::from(format!("{what}: {key} without repeat: {kind}")).or_at(n.at),
                );
            }
        }
    }
    let repeat = match opt_str(m, "repeat")?.as_deref() {
        None => Repeat::None,
        Some("expr") => Repeat::Expr(
            opt_expr(m, "repeat-expr", &what)?
                .ok_or_else(|| format!("{what}: repeat: expr needs repeat-expr"))?,
        ),
        Some("eos") => Repeat::Eos,
        Some("until") => Repeat::Until(
            opt_expr(m, "repeat-until", &what)?
                .ok_or_else(|| format!("{what}: repeat: until needs repeat-until"))?,
        ),
        Some(other) => {
            return Err(
                Problem::from(format!("{what}: repeat: {other} is not in the subset"))
                    .or_at(repeat_node.at),
            )
        }
    };
    let conf = confidence(m, &what)?;
    let valid = get(m, "valid").map(|v| valid(v, &what)).transpose()?;
    let checked = valid.is_some() || matches!(ty, FieldType::Contents(_));
    let (severity, severity_reason) = rule_severity(m, conf, &what)?;
    if !checked && (get(m, "-severity").is_some() || get(m, "-severity-reason").is_some()) {
        return Err(Problem::from(format!(
            "{what}: -severity is for a field with valid or contents (its own check)"
        )));
    }
    if matches!(ty, FieldType::Contents(_)) && severity == Severity::Warning {
        return Err(Problem::from(format!(
            "{what}: a `contents` check cannot be a warning: the writer writes the constant, so other bytes would be lost; use a stored field with `valid` instead"
        )));
    }
    if term.is_some()
        && !matches!(
            ty,
            FieldType::Bytes(_) | FieldType::Str { .. } | FieldType::SizedUser { .. }
        )
    {
        return Err(Problem::from(format!(
            "{what}: terminator, include, consume, eos-error and pad-right are for bytes, text and a type read from them"
        ))
        .or_at(v.at));
    }
    let switch_size = match ty {
        FieldType::Switch { .. } => size,
        _ => None,
    };
    let process = match get(m, "process") {
        None => None,
        Some(n) => {
            let p = process(&str_of(n, "process")?).map_err(|e| Problem {
                at: Some(n.at),
                message: format!("{what}: {e}"),
            })?;
            let sized = matches!(ty, FieldType::Bytes(_) | FieldType::SizedUser { .. });
            if !sized || term.is_some() {
                return Err(Problem::from(format!(
                    "{what}: process is read here on sized bytes or a sized part only"
                ))
                .or_at(n.at));
            }
            Some(p)
        }
    };
    Ok(Field {
        term,
        switch_size,
        process,
        at: v.at,
        reading: reading(m, conf, true, &what)?,
        check_severity: checked.then_some(severity),
        severity_reason,
        id,
        doc: opt_str(m, "doc")?,
        orig_id: texts(m, "-orig-id")?,
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

/// Renames the type and enum names type `t` uses: `ty` and `en` give a name's new one (`None`:
/// unchanged).
fn map_names(
    t: &mut Type,
    ty: &dyn Fn(&str) -> Option<String>,
    en: &dyn Fn(&str) -> Option<String>,
) {
    let fields = t
        .fields
        .iter_mut()
        .chain(t.parsed.iter_mut().map(|p| &mut p.field));
    for f in fields {
        match &mut f.ty {
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                if let Some(n) = ty(&r.name) {
                    r.name = n;
                }
            }
            FieldType::Switch { cases, .. } => {
                for (_, r) in cases {
                    if let Some(n) = ty(&r.name) {
                        r.name = n;
                    }
                }
            }
            _ => {}
        }
        if let Some(n) = f.enum_name.as_deref().and_then(en) {
            f.enum_name = Some(n);
        }
        for e in field_exprs_mut(f) {
            map_expr_names(e, ty, en);
        }
    }
    for p in &mut t.parsed {
        for e in p.pos.iter_mut().chain(p.io.iter_mut()) {
            map_expr_names(e, ty, en);
        }
    }
    for i in &mut t.instances {
        if let Some(n) = i.enum_name.as_deref().and_then(en) {
            i.enum_name = Some(n);
        }
        for e in std::iter::once(&mut i.value).chain(i.cond.iter_mut()) {
            map_expr_names(e, ty, en);
        }
    }
}

/// [`map_names`] in one expression: `enum::value`, `as<type>`, `sizeof<type>`.
fn map_expr_names(
    e: &mut Expr,
    ty: &dyn Fn(&str) -> Option<String>,
    en: &dyn Fn(&str) -> Option<String>,
) {
    let go = |x: &mut Expr| map_expr_names(x, ty, en);
    match e {
        Expr::EnumVal(path, _) => {
            if let Some(n) = en(path) {
                *path = n;
            }
        }
        Expr::Cast(a, t) => {
            if let Some(n) = ty(t) {
                *t = n;
            }
            go(a);
        }
        Expr::SizeOf { ty: t, .. } => {
            if let Some(n) = ty(t) {
                *t = n;
            }
        }
        Expr::Attr(a, _) | Expr::Unary(_, a) => go(a),
        Expr::Binary(_, a, b) | Expr::Index(a, b) => {
            go(a);
            go(b);
        }
        Expr::Cond(c, a, b) => {
            go(c);
            go(a);
            go(b);
        }
        Expr::Array(items) => items.iter_mut().for_each(go),
        Expr::Call(a, _, args) => {
            go(a);
            args.iter_mut().for_each(go);
        }
        Expr::Int { .. } | Expr::Bool(_) | Expr::Float(_) | Expr::Str(_) | Expr::Name(_) => {}
    }
}

/// Every expression of a field, to change ([`crate::field_exprs`]).
fn field_exprs_mut(f: &mut Field) -> Vec<&mut Expr> {
    let mut out: Vec<&mut Expr> = vec![];
    out.extend(f.offset.iter_mut());
    out.extend(f.cond.iter_mut());
    out.extend(f.derive.iter_mut());
    if let Repeat::Expr(e) | Repeat::Until(e) = &mut f.repeat {
        out.push(e);
    }
    match &mut f.ty {
        FieldType::Bytes(Size::Expr(e))
        | FieldType::Str {
            size: Size::Expr(e),
            ..
        } => out.push(e),
        FieldType::SizedUser { r#ref, size } => {
            out.extend(r#ref.args.iter_mut());
            if let Size::Expr(e) = size {
                out.push(e);
            }
        }
        FieldType::User(r) => out.extend(r.args.iter_mut()),
        FieldType::Switch { on, cases } => {
            out.push(on);
            for (k, r) in cases {
                out.push(k);
                out.extend(r.args.iter_mut());
            }
        }
        _ => {}
    }
    if let Some(Size::Expr(e)) = &mut f.switch_size {
        out.push(e);
    }
    if let Some(Process::Xor(e) | Process::Rol(e) | Process::Ror(e)) = &mut f.process {
        out.push(e);
    }
    match &mut f.valid {
        Some(Valid::Eq(e) | Valid::Expr(e)) => out.push(e),
        Some(Valid::Range { min, max }) => {
            out.extend(min.iter_mut());
            out.extend(max.iter_mut());
        }
        Some(Valid::AnyOf(es)) => out.extend(es.iter_mut()),
        None => {}
    }
    out
}

/// A `process` value: `zlib`, `xor(KEY)`, `rol(N)`, `ror(N)`; a custom processor is refused.
fn process(s: &str) -> Result<Process, String> {
    let s = s.trim();
    if s == "zlib" {
        return Ok(Process::Zlib);
    }
    let (name, arg) = s
        .split_once('(')
        .and_then(|(n, a)| Some((n.trim(), a.strip_suffix(')')?)))
        .ok_or_else(|| {
            format!("process `{s}` is a custom processor, which meshspec does not run")
        })?;
    let e = expr::parse(arg).map_err(|e| format!("process `{s}`: {e}"))?;
    match name {
        "xor" => Ok(Process::Xor(e)),
        "rol" => Ok(Process::Rol(e)),
        "ror" => Ok(Process::Ror(e)),
        other => Err(format!(
            "process `{other}` is a custom processor, which meshspec does not run (zlib, xor, rol and ror are Kaitai's own)"
        )),
    }
}

/// The keys that say how bytes or text end: `None` when none is given. `sized`: a size (or
/// `size-eos`) is given.
fn term_of(m: &Node, what: &str, sized: bool) -> R<Option<Term>> {
    let byte = |k: &str| -> R<Option<u8>> {
        match get(m, k) {
            None => Ok(None),
            Some(n) => match n.kind {
                Kind::Int(b) if (0..=255).contains(&b) => Ok(Some(b as u8)),
                _ => Err(Problem {
                    at: Some(n.at),
                    message: format!("{what}: {k} is a byte (0 to 255), found {}", n.describe()),
                }),
            },
        }
    };
    let flag = |k: &str, default: bool| -> R<bool> {
        match get(m, k) {
            None => Ok(default),
            Some(n) => match n.kind {
                Kind::Bool(b) => Ok(b),
                _ => Err(Problem {
                    at: Some(n.at),
                    message: format!("{what}: {k} is true or false, found {}", n.describe()),
                }),
            },
        }
    };
    let given = ["terminator", "include", "consume", "eos-error", "pad-right"]
        .iter()
        .any(|k| get(m, k).is_some());
    if !given {
        return Ok(None);
    }
    let t = Term {
        terminator: byte("terminator")?,
        include: flag("include", false)?,
        consume: flag("consume", true)?,
        eos_error: flag("eos-error", true)?,
        pad_right: byte("pad-right")?,
        bounded: sized,
    };
    if t.pad_right.is_some() && !sized {
        return Err(Problem::from(format!("{what}: pad-right needs a size")));
    }
    Ok(Some(t))
}

struct Loader {
    types: Vec<Type>,
    enums: Vec<EnumDef>,
    bit_le: bool,
    /// The encoding of text fields that name none: `meta.encoding`, or the enclosing type's.
    encoding: Option<String>,
    /// The byte order the type being read inherits from the type it is written in.
    endian: Option<Endian>,
    /// Kaitai scopes a type's and an enum's name to the type it is written in: for each type
    /// (by index in `types`), the type it is written in and its name as written (a name
    /// given twice in different types is made unique in `Type::name`).
    parents: Vec<(Option<usize>, String)>,
    /// For each enum, the type it is written in and its name as written.
    enum_parents: Vec<(Option<usize>, String)>,
    /// The types being read, outermost first.
    within: Vec<usize>,
    /// Each type's unique name (`Type::name`), by index.
    unique_names: Vec<String>,
    /// The type being read is written inside one whose byte order is calculated.
    inherit: bool,
}

impl Loader {
    /// `name`, or where another type (enum) has it already, `OUTER__name` (numbered if need
    /// be): Kaitai scopes names to the type they are written in, the model's are unique.
    fn unique(&self, name: &str, outer: &str, taken: impl Fn(&Self, &str) -> bool) -> String {
        if !taken(self, name) {
            return name.to_string();
        }
        let base = format!("{outer}__{name}");
        let mut candidate = base.clone();
        let mut k = 2;
        while taken(self, &candidate) {
            candidate = format!("{base}{k}");
            k += 1;
        }
        candidate
    }

    /// The type `path` (`name`, or `a::b::name`) names where type `from` is written, as Kaitai
    /// looks it up: among the types written in `from`, then in the types around it, outwards.
    fn find_type(&self, from: usize, path: &str) -> Option<usize> {
        let mut segs = path.split("::");
        let first = segs.next()?;
        let child = |of: Option<usize>, n: &str| {
            (0..self.parents.len()).find(|&c| self.parents[c].0 == of && self.parents[c].1 == n)
        };
        let mut scope = Some(from);
        let mut found = None;
        while let Some(s) = scope {
            if let Some(c) = child(Some(s), first) {
                found = Some(c);
                break;
            }
            scope = self.parents[s].0;
        }
        // The spec's own type, by its id.
        let mut at = found.or_else(|| child(None, first))?;
        for seg in segs {
            at = child(Some(at), seg)?;
        }
        Some(at)
    }

    /// The enum `path` (`name`, or `type::...::name`) names where type `from` is written.
    fn find_enum(&self, from: usize, path: &str) -> Option<usize> {
        let in_type = |t: usize, n: &str| {
            (0..self.enum_parents.len())
                .find(|&e| self.enum_parents[e].0 == Some(t) && self.enum_parents[e].1 == n)
        };
        match path.rsplit_once("::") {
            Some((types, name)) => in_type(self.find_type(from, types)?, name),
            None => {
                let mut scope = Some(from);
                while let Some(s) = scope {
                    if let Some(e) = in_type(s, path) {
                        return Some(e);
                    }
                    scope = self.parents[s].0;
                }
                None
            }
        }
    }

    /// Every type and enum name this spec's own types use, made the unique name of the one
    /// Kaitai's scoping finds (names it does not find are left for the imports and the
    /// checks).
    fn scope_names(&mut self) {
        let mut types = std::mem::take(&mut self.types);
        for (ti, t) in types.iter_mut().enumerate().take(self.parents.len()) {
            let ty_of = |n: &str| self.find_type(ti, n).map(|i| self.parents_name(i));
            let enum_of = |n: &str| self.find_enum(ti, n).map(|i| self.enums[i].name.clone());
            map_names(t, &ty_of, &enum_of);
        }
        self.types = types;
    }

    fn parents_name(&self, i: usize) -> String {
        self.unique_names[i].clone()
    }

    fn enums(&mut self, m: &Node, what: &str) -> R<()> {
        if let Some(es) = get(m, "enums") {
            for (name, vals) in entries(es, "enums")? {
                let name_at = name.at;
                let name = str_of(name, "enum name")?;
                if !is_snake(&name) {
                    return Err(
                        Problem::from(format!("enum `{name}`: names are snake_case"))
                            .or_at(name_at),
                    );
                }
                let mut values = vec![];
                for (k, v) in entries(vals, &name)? {
                    let key = match &k.kind {
                        Kind::Int(n) => *n,
                        // Kaitai's integer literals with `_` separators (`0x0253_f200`), which
                        // YAML takes as text.
                        Kind::Str(t) if expr::parse(t).ok().and_then(|e| e.literal()).is_some() => {
                            expr::parse(t)
                                .ok()
                                .and_then(|e| e.literal())
                                .unwrap_or_default()
                        }
                        _ => {
                            return Err(Problem {
                                at: Some(k.at),
                                message: format!(
                                    "{what}: enum {name}: keys are integers, found {}",
                                    k.describe()
                                ),
                            })
                        }
                    };
                    let item = within(v, || {
                        Ok(match &v.kind {
                            Kind::Map(_) => {
                                let vm = v;
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
                                    orig_id: texts(vm, "-orig-id")?,
                                    confidence: conf,
                                    evidence: opt_str(vm, "-evidence")?,
                                    reading: reading(vm, conf, false, &at)?,
                                }
                            }
                            _ => EnumValue {
                                value: key,
                                // Kaitai takes YAML's `true`/`false` as the names they spell.
                                id: match v.kind {
                                    Kind::Bool(b) => b.to_string(),
                                    _ => str_of(v, "enum value")?,
                                },
                                doc: None,
                                orig_id: None,
                                confidence: None,
                                evidence: None,
                                reading: None,
                            },
                        })
                    })?;
                    if !is_snake(&item.id) {
                        return Err(Problem::from(format!(
                            "enum {name}: value id `{}` is not snake_case",
                            item.id
                        ))
                        .or_at(v.at));
                    }
                    if values.iter().any(|x: &EnumValue| x.id == item.id) {
                        return Err(Problem::from(format!(
                            "enum {name}: value id `{}` given twice",
                            item.id
                        ))
                        .or_at(v.at));
                    }
                    values.push(item);
                }
                // The type this enum is written in is the one pushed next.
                let owner = self.types.len();
                if self
                    .enum_parents
                    .iter()
                    .any(|(o, n)| *o == Some(owner) && *n == name)
                {
                    return Err(Problem::from(format!(
                        "enum `{name}` is defined twice in `{what}`"
                    )));
                }
                self.enum_parents.push((Some(owner), name.clone()));
                let local = name.clone();
                let name = self.unique(&local, what, |l, n| l.enums.iter().any(|e| e.name == n));
                self.enums.push(EnumDef {
                    at: vals.at,
                    rust: camel(&name),
                    name,
                    values: values
                        .iter()
                        .map(|v| (v.value, v.id.clone(), v.doc.clone()))
                        .collect(),
                    items: values,
                    prim: None,
                    mixed: false,
                });
            }
        }
        Ok(())
    }

    fn ty(&mut self, name: &str, m: &Node, layout_from_meta: Option<String>) -> R<()> {
        check_keys(m, TYPE_KEYS, name)?;
        self.enums(m, name)?;
        let (own_endian, own_encoding) = match get(m, "meta") {
            Some(meta) => {
                let meta = map_of(meta, &format!("{name}.meta"))?;
                check_keys(meta, &["endian", "encoding"], &format!("{name}.meta"))?;
                (
                    get(meta, "endian")
                        .map(|e| type_endian(e, name))
                        .transpose()?,
                    opt_str(meta, "encoding")?,
                )
            }
            None => None.unzip(),
        };
        let endian = own_endian.clone().or(if self.inherit {
            Some(TypeEndian::Inherit)
        } else {
            self.endian.map(TypeEndian::Fixed)
        });
        let saved_encoding = self.encoding.clone();
        if let Some(e) = &own_encoding {
            self.encoding = Some(e.clone());
        }
        let mut params = vec![];
        if let Some(ps) = get(m, "params") {
            for p in items(ps, "params")? {
                let param = within(p, || {
                    let pm = map_of(p, "param")?;
                    check_keys(
                        pm,
                        &["id", "type", "enum", "doc", "-context", "-default"],
                        name,
                    )?;
                    let id = opt_str(pm, "id")?.ok_or("param needs id")?;
                    let t = opt_str(pm, "type")?.ok_or("param needs type")?;
                    // A flag is the integer 0 or 1 here.
                    let prim = Prim::parse(if t == "bool" { "u1" } else { &t })
                        .filter(|p| p.kind != PrimKind::F)
                        .ok_or_else(|| {
                            format!("{name}: param {id}: integer types and bool only, found {t}")
                        })?;
                    let context = opt_str(pm, "-context")?;
                    let default = match get(pm, "-default") {
                        None => None,
                        Some(v) => {
                            let min = match prim.kind {
                                PrimKind::S => -(prim.max() as i128) - 1,
                                _ => 0,
                            };
                            match v.kind {
                                Kind::Int(d) if (min..=prim.max() as i128).contains(&d) => Some(d),
                                _ => {
                                    return Err(Problem {
                                        at: Some(v.at),
                                        message: format!(
                                            "{name}: param {id}: -default must be an integer a {t} holds, found {}",
                                            v.describe()
                                        ),
                                    })
                                }
                            }
                        }
                    };
                    if default.is_some() && context.is_none() {
                        return Err(Problem::from(format!(
                            "{name}: param {id}: -default is for a layout's parameters, which take -context"
                        )));
                    }
                    Ok(Param {
                        enum_name: opt_str(pm, "enum")?,
                        flag: t == "bool",
                        id,
                        prim,
                        doc: opt_str(pm, "doc")?,
                        context,
                        default,
                    })
                })?;
                params.push(param);
            }
        }
        let mut fields = vec![];
        if let Some(seq) = get(m, "seq") {
            for (k, a) in items(seq, "seq")?.iter().enumerate() {
                // Kaitai names a field without an id `_unnamedN` (N its place in seq).
                let named;
                let a = match &a.kind {
                    Kind::Map(m) if a.get("id").is_none() => {
                        let mut m = m.clone();
                        m.insert(
                            0,
                            (
                                Node {
                                    kind: Kind::Str("id".into()),
                                    at: a.at,
                                },
                                Node {
                                    kind: Kind::Str(format!("_unnamed{k}")),
                                    at: a.at,
                                },
                            ),
                        );
                        named = Node {
                            kind: Kind::Map(m),
                            at: a.at,
                        };
                        &named
                    }
                    _ => a,
                };
                fields.push(attr(a, name, self.bit_le, self.encoding.as_deref())?);
            }
        }
        let mut instances = vec![];
        let mut parsed = vec![];
        if let Some(is) = get(m, "instances") {
            for (k, v) in entries(is, "instances")? {
                let id = str_of(k, "instance").map_err(at(k))?;
                let im = map_of(v, &id)?;
                if get(im, "value").is_none() {
                    // Read from the bytes: the keys of a field, and where.
                    let what = format!("{name}.{id}");
                    if !is_snake(&id) {
                        return Err(
                            Problem::from(format!("{what}: ids are snake_case")).or_at(k.at)
                        );
                    }
                    let mut fm = vec![(
                        Node {
                            kind: Kind::Str("id".into()),
                            at: k.at,
                        },
                        Node {
                            kind: Kind::Str(id.clone()),
                            at: k.at,
                        },
                    )];
                    fm.extend(
                        entries(im, &what)?
                            .iter()
                            .filter(|(key, _)| !matches!(key.as_str(), Some("pos" | "io")))
                            .cloned(),
                    );
                    let node = Node {
                        kind: Kind::Map(fm),
                        at: v.at,
                    };
                    let field = attr(&node, name, self.bit_le, self.encoding.as_deref())?;
                    parsed.push(Parsed {
                        at: k.at,
                        pos: opt_expr(im, "pos", &what)?,
                        io: opt_expr(im, "io", &what)?,
                        field,
                        id,
                    });
                    continue;
                }
                let instance = within(k, || {
                    check_keys(
                        im,
                        &["value", "doc", "doc-ref", "if", "enum", "-orig-id"],
                        &format!("{name}.{id}"),
                    )?;
                    if !is_snake(&id) {
                        return Err(Problem::from(format!("{name}.{id}: ids are snake_case")));
                    }
                    Ok(Instance {
                        at: k.at,
                        value: opt_expr(im, "value", &id)?.ok_or_else(|| {
                            format!("{name}.{id}: only value instances are in the subset")
                        })?,
                        doc: opt_str(im, "doc")?,
                        cond: opt_expr(im, "if", &id)?,
                        enum_name: opt_str(im, "enum")?,
                        id,
                    })
                })?;
                instances.push(instance);
            }
        }
        self.encoding = saved_encoding;
        let mut relations = vec![];
        if let Some(rs) = get(m, "-relations") {
            for r in items(rs, "-relations")? {
                let relation = within(r, || {
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
                            "-check",
                            "-each",
                            "-at",
                        ],
                        &format!("{name}: -relations"),
                    )?;
                    let id = opt_str(rm, "id")?
                        .ok_or_else(|| format!("{name}: a relation needs an id"))?;
                    if !is_snake(&id) {
                        return Err(Problem::from(format!(
                            "{name}: relation ids are snake_case: {id}"
                        )));
                    }
                    if relations.iter().any(|r: &Relation| r.id == id) {
                        return Err(Problem::from(format!(
                            "{name}.{id}: relation id used twice"
                        )));
                    }
                    let what = format!("{name}.{id}");
                    let conf = confidence(rm, &what)?;
                    if conf == Some(Confidence::Unknown) {
                        return Err(Problem::from(format!(
                        "{what}: a relation is a rule the documents state (proven, observed, sourced) or that we infer; `unknown` is for stored bytes"
                    )));
                    }
                    let (severity, severity_reason) = rule_severity(rm, conf, &what)?;
                    Ok(Relation {
                        at: r.at,
                        severity,
                        severity_reason,
                        reading: reading(rm, conf, false, &what)?,
                        doc: opt_str(rm, "doc")?
                            .ok_or_else(|| format!("{name}.{id}: a relation needs doc"))?,
                        confidence: conf,
                        evidence: opt_str(rm, "-evidence")?,
                        check: opt_expr(rm, "-check", &what)?,
                        each: opt_str(rm, "-each")?,
                        placed_at: opt_str(rm, "-at")?,
                        id,
                    })
                })?;
                if relation.check.is_none()
                    && (relation.each.is_some() || relation.placed_at.is_some())
                {
                    return Err(Problem::from(format!(
                        "{name}.{}: -each and -at say where a -check's violation lies; this relation has no -check",
                        relation.id
                    ))
                    .or_at(r.at));
                }
                relations.push(relation);
            }
        }
        // `to-string`: how Kaitai's generated code shows a value; checked, not used.
        if let Some(e) = opt_expr(m, "to-string", name)? {
            // A number, a condition or a list that its form alone shows (`1 + 2`).
            fn not_text(e: &Expr) -> bool {
                match e {
                    Expr::Int { .. } | Expr::Float(_) | Expr::Bool(_) | Expr::Array(_) => true,
                    Expr::Binary(op, ..) if op.is_compare() || op.is_logic() => true,
                    Expr::Binary(_, a, b) => not_text(a) && not_text(b),
                    Expr::Unary(_, a) => not_text(a),
                    _ => false,
                }
            }
            if not_text(&e) {
                return Err(
                    Problem::from(format!("{name}: to-string must be text, found `{e}`"))
                        .or_at(get(m, "to-string").map_or(m.at, |n| n.at)),
                );
            }
        }
        let layout = match (opt_str(m, "-layout")?, layout_from_meta) {
            (Some(_), Some(_)) => {
                return Err(Problem::from(format!("{name}: -layout given twice")))
            }
            (a, b) => a.or(b),
        };
        let parent = self.within.last().copied();
        if self
            .parents
            .iter()
            .any(|(p, n)| *p == parent && parent.is_some() && n == name)
        {
            return Err(Problem::from(format!("type `{name}` is defined twice")));
        }
        self.parents.push((parent, name.to_string()));
        self.unique_names.push(String::new());
        let outer = parent
            .map(|p| self.parents[p].1.clone())
            .unwrap_or_default();
        let unique = self.unique(name, &outer, |l, n| l.types.iter().any(|t| t.name == n));
        if let Some(slot) = self.unique_names.last_mut() {
            *slot = unique.clone();
        }
        self.types.push(Type {
            at: m.at,
            rust: camel(&unique),
            name: unique,
            doc: opt_str(m, "doc")?,
            doc_ref: doc_refs(m)?,
            confidence: confidence(m, name)?,
            evidence: opt_str(m, "-evidence")?,
            params,
            fields,
            instances,
            parsed,
            relations,
            origin: None,
            wrapper: false,
            layout,
            min_size: 0,
            fixed_size: None,
            endian,
        });
        // Kaitai's types inherit the byte order and the encoding of the type they are written
        // in (a computed order at run time: `TypeEndian::Inherit`).
        let (outer_endian, outer_encoding, outer_inherit) =
            (self.endian, self.encoding.clone(), self.inherit);
        match own_endian {
            Some(TypeEndian::Fixed(e)) => {
                self.endian = Some(e);
                self.inherit = false;
            }
            Some(_) => self.inherit = true,
            None => {}
        }
        if let Some(e) = own_encoding {
            self.encoding = Some(e);
        }
        if let Some(ts) = get(m, "types") {
            self.within.push(self.types.len() - 1);
            for (k, v) in entries(ts, "types")? {
                let tn = str_of(k, "type name")?;
                if !is_snake(&tn) {
                    return Err(Problem::from(format!("type `{tn}`: names are snake_case")));
                }
                self.ty(&tn, map_of(v, &tn)?, None)?;
            }
            self.within.pop();
        }
        (self.endian, self.encoding, self.inherit) = (outer_endian, outer_encoding, outer_inherit);
        Ok(())
    }
}

/// Why a spec does not load: the file, the place in it when known, and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError {
    /// The file, as the caller named it.
    pub file: String,
    /// The line and column of the node the complaint is about.
    pub at: Option<Mark>,
    /// What is wrong (the key or field, what was expected, what was found).
    pub message: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            Some(at) => write!(f, "{}:{at}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for SpecError {}

/// Reads and resolves one spec file. `file` names it in errors and is the repository-relative
/// path the outputs' headers cite; its stem must be the spec's `meta.id`. A spec that
/// `imports` others needs [`load_with`].
pub fn load(file: &str, text: &str) -> Result<Spec, SpecError> {
    load_with(file, text, &|_, name| {
        Err(format!(
            "imports `{name}`: imports are read from files (give the spec as a file)"
        ))
    })
}

/// Finds an import: given the importing file and the import as written (`common/x`,
/// `../x`, `/common/x`), the imported file's name and text.
pub type Resolver<'r> = dyn Fn(&str, &str) -> Result<(String, String), String> + 'r;

/// [`load`] for a spec whose `imports` `resolve` finds: the imported specs' types and enums
/// join the spec's (named as Kaitai names them, `id` or `id::type`, or by their own names).
pub fn load_with(file: &str, text: &str, resolve: &Resolver) -> Result<Spec, SpecError> {
    let mut loading = vec![file.to_string()];
    load_at(file, text, resolve, &mut loading, &mut false).map_err(|p| SpecError {
        file: file.to_string(),
        at: p.at,
        message: p.message,
    })
}

/// The specs `meta.imports` names, loaded (a spec being loaded already, imported in a circle,
/// is left out: its types are there; `partial` is then set, and so it is when an imported
/// spec is partial).
fn imported(
    file: &str,
    meta: &Node,
    resolve: &Resolver,
    loading: &mut Vec<String>,
    partial: &mut bool,
) -> R<Vec<Spec>> {
    let Some(list) = get(meta, "imports") else {
        return Ok(vec![]);
    };
    let mut out = vec![];
    for n in items(list, "meta.imports")? {
        let name = str_of(n, "an import")?;
        let (ifile, itext) = resolve(file, &name).map_err(|e| Problem {
            at: Some(n.at),
            message: e,
        })?;
        if loading.contains(&ifile) {
            *partial = true;
            continue;
        }
        loading.push(ifile.clone());
        let spec = load_at(&ifile, &itext, resolve, loading, partial).map_err(|p| Problem {
            at: Some(n.at),
            message: format!(
                "imports `{name}`: {ifile}{}: {}",
                p.at.map(|a| format!(":{a}")).unwrap_or_default(),
                p.message
            ),
        })?;
        loading.pop();
        out.push(spec);
    }
    Ok(out)
}

/// Loads one spec and what it imports. A spec in a circle of imports (`partial`: it, or a
/// spec it imports, imports one being loaded) is not resolved on its own, since the types of
/// the circle's first spec are not there yet: the spec that loads them all resolves them.
fn load_at(
    file: &str,
    text: &str,
    resolve: &Resolver,
    loading: &mut Vec<String>,
    partial: &mut bool,
) -> R<Spec> {
    let y = crate::syntax::parse(text).map_err(|e| Problem {
        at: Some(e.at),
        message: format!("not valid YAML: {}", e.message),
    })?;
    let top = map_of(&y, "the spec")?;
    let meta_node = get(top, "meta").ok_or("meta is required")?;
    let meta = map_of(meta_node, "meta")?;
    check_keys(meta, META_KEYS, "meta")?;
    let id = opt_str(meta, "id")?.ok_or("meta.id is required")?;
    if let Some(v) = get(meta, "ks-version") {
        ks_version(v)?;
    }
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if id != stem {
        return Err(
            Problem::from(format!("meta.id `{id}` must equal the file name `{stem}`"))
                .or_at(get(meta, "id").map_or(meta.at, |n| n.at)),
        );
    }
    // Without `meta.endian` a number needs its own order (`u4le`), as Kaitai has it; the
    // project's own specs state one (`lint`).
    let endian = match get(meta, "endian").map(|n| (n, n.as_str())) {
        None => None,
        Some((_, Some("le"))) => Some(Endian::Le),
        Some((_, Some("be"))) => Some(Endian::Be),
        Some((n, _)) => {
            return Err(Problem::from(
                "meta.endian must be le or be (a computed order is for a type's own meta)",
            )
            .or_at(n.at))
        }
    };
    // Kaitai's default bit order is big endian.
    let bit_le = match opt_str(meta, "bit-endian")?.as_deref() {
        None | Some("be") => false,
        Some("le") => true,
        Some(o) => {
            return Err(Problem::from(format!("meta.bit-endian: {o}"))
                .or_at(get(meta, "bit-endian").map_or(meta.at, |n| n.at)))
        }
    };
    let mut l = Loader {
        types: vec![],
        enums: vec![],
        bit_le,
        encoding: opt_str(meta, "encoding")?,
        endian: None,
        parents: vec![],
        enum_parents: vec![],
        within: vec![],
        unique_names: vec![],
        inherit: false,
    };
    let root = Node {
        kind: Kind::Map(
            entries(top, "the spec")?
                .iter()
                .filter(|(k, _)| k.as_str() != Some("meta"))
                .cloned()
                .collect(),
        ),
        at: top.at,
    };
    l.ty(&id, &root, opt_str(meta, "-layout")?)?;
    l.scope_names();
    // A number or text type named as a switch's case is held by a type made for it.
    let mut prims = vec![];
    for t in &l.types {
        for f in t.fields.iter().chain(t.parsed.iter().map(|p| &p.field)) {
            if let FieldType::Switch { cases, .. } = &f.ty {
                for (_, r) in cases {
                    let text = r.name.split(" in ").next().unwrap_or_default();
                    let builtin = Prim::parse(&r.name).is_some()
                        || matches!(r.name.as_str(), "str" | "strz" | "bytes")
                        || (r.name.contains(" in ") && matches!(text, "str" | "strz"))
                        || r.name
                            .strip_prefix('b')
                            .is_some_and(|n| n.parse::<u32>().is_ok());
                    if builtin && !prims.contains(&r.name) {
                        prims.push(r.name.clone());
                    }
                }
            }
        }
    }
    for name in prims {
        let s = |t: &str| Node {
            kind: Kind::Str(t.into()),
            at: top.at,
        };
        let mut value = vec![(s("id"), s("value"))];
        let (base, enc) = match name.split_once(" in ") {
            Some((b, e)) => (b, Some(e)),
            None => (name.as_str(), None),
        };
        if let Some(e) = enc {
            value.push((s("encoding"), s(e)));
        }
        match base {
            "bytes" => value.push((
                s("size-eos"),
                Node {
                    kind: Kind::Bool(true),
                    at: top.at,
                },
            )),
            "str" => {
                value.push((s("type"), s("str")));
                value.push((
                    s("size-eos"),
                    Node {
                        kind: Kind::Bool(true),
                        at: top.at,
                    },
                ));
            }
            other => value.push((s("type"), s(other))),
        }
        let node = Node {
            kind: Kind::Map(vec![(
                s("seq"),
                Node {
                    kind: Kind::Seq(vec![Node {
                        kind: Kind::Map(value),
                        at: top.at,
                    }]),
                    at: top.at,
                },
            )]),
            at: top.at,
        };
        if l.types.iter().any(|t| t.name == name) {
            continue;
        }
        l.ty(&name, &node, None)?;
        if let Some(t) = l.types.last_mut() {
            t.wrapper = true;
            // A number as a case is in the order of the value whose switch names it.
            t.endian = Some(TypeEndian::Inherit);
        }
    }
    // Imported types keep their file's byte order; a name two files give is refused.
    let mut in_circle = false;
    for mut other in imported(file, meta, resolve, loading, &mut in_circle)? {
        // A name of the imported spec that this spec's own type (enum) has too: Kaitai names
        // it through the import (`riff::chunk_type`), here `riff__chunk_type`.
        let clash = |n: &str, mine: &[String]| mine.iter().any(|m| m == n);

        let my_enums: Vec<String> = l.enums.iter().map(|e| e.name.clone()).collect();
        let renamed_types: Vec<String> = other
            .types
            .iter()
            .filter(|t| {
                let origin = t.origin.as_deref().unwrap_or(&other.file);
                !t.wrapper
                    && l.types.iter().any(|u| {
                        u.name == t.name && !u.wrapper && u.origin.as_deref() != Some(origin)
                    })
            })
            .map(|t| t.name.clone())
            .collect();
        let renamed_enums: Vec<String> = other
            .enums
            .iter()
            .filter(|e| clash(&e.name, &my_enums))
            .map(|e| e.name.clone())
            .collect();
        if !renamed_types.is_empty() || !renamed_enums.is_empty() {
            let oid = other.id.clone();
            let ty = |n: &str| {
                renamed_types
                    .iter()
                    .any(|r| r == n)
                    .then(|| format!("{oid}__{n}"))
            };
            let en = |n: &str| {
                renamed_enums
                    .iter()
                    .any(|r| r == n)
                    .then(|| format!("{oid}__{n}"))
            };
            for t in &mut other.types {
                map_names(t, &ty, &en);
                if let Some(n) = ty(&t.name) {
                    t.rust = camel(&n);
                    t.name = n;
                }
            }
            for e in &mut other.enums {
                if let Some(n) = en(&e.name) {
                    e.rust = camel(&n);
                    e.name = n;
                }
            }
        }
        for mut t in other.types {
            if t.endian.is_none() && other.endian_stated {
                t.endian = Some(TypeEndian::Fixed(other.endian));
            }
            let origin = t.origin.clone().unwrap_or_else(|| other.file.clone());
            match l.types.iter().find(|u| u.name == t.name) {
                Some(u) if u.origin.as_deref() == Some(origin.as_str()) => continue,
                // Both hold one value of the same number or text type.
                Some(u) if u.wrapper && t.wrapper => continue,
                Some(_) => {
                    return Err(Problem::from(format!(
                        "type `{}` of {origin} has the name of a type of this spec",
                        t.name
                    ))
                    .or_at(get(meta, "imports").map_or(meta.at, |n| n.at)))
                }
                None => {}
            }
            t.origin = Some(origin);
            l.types.push(t);
        }
        for e in other.enums {
            if !l.enums.iter().any(|x| x.name == e.name) {
                l.enums.push(e);
            }
        }
    }
    let mut spec = Spec {
        file: file.to_string(),
        title: opt_str(meta, "title")?.unwrap_or_else(|| id.clone()),
        application: texts(meta, "application")?,
        extension: texts(meta, "file-extension")?,
        license: opt_str(meta, "license")?,
        id,
        endian: endian.unwrap_or(Endian::Le),
        endian_stated: endian.is_some(),
        bit_endian: if bit_le { Endian::Le } else { Endian::Be },
        types: l.types,
        enums: l.enums,
    };
    if !spec.endian_stated {
        for t in spec.types.iter().filter(|t| t.endian.is_none()) {
            let bare = t.fields.iter().find_map(|f| match f.ty {
                FieldType::Prim(p) if p.bytes > 1 && p.endian.is_none() => Some((f, p)),
                _ => None,
            });
            if let Some((f, p)) = bare {
                return Err(Problem::from(format!(
                    "{}.{}: `{}` has no byte order: the spec gives no meta.endian (give one, or write `{}le`/`{}be`)",
                    t.name, f.id, p.ksy(), p.ksy(), p.ksy()
                ))
                .or_at(f.at));
            }
        }
    }
    *partial |= in_circle;
    if in_circle && loading.len() > 1 {
        return Ok(spec);
    }
    in_enum(&mut spec)?;
    crate::resolve::resolve(&mut spec).map_err(|p| {
        // A complaint about a type of the circle that another file defines names that file.
        let head = p.message.split(['.', ':', ' ']).next().unwrap_or_default();
        let origin = spec
            .types
            .iter()
            .find(|t| t.name == head)
            .and_then(|t| t.origin.clone());
        match (in_circle, origin) {
            (true, Some(o)) => Problem {
                at: None,
                message: format!(
                    "imports {o}{}: {}",
                    p.at.map(|a| format!(":{a}")).unwrap_or_default(),
                    p.message
                ),
            },
            _ => p,
        }
    })?;
    Ok(spec)
}

/// `meta.ks-version`: the Kaitai version the spec needs, `X.Y` or `X.Y.Z`; meshspec reads the
/// language of 0.11 (and refuses what Kaitai refuses: below 0.6, above its own).
fn ks_version(v: &Node) -> R<()> {
    let text = match &v.kind {
        Kind::Float(x) => format!("{x}"),
        _ => v.text().unwrap_or_default(),
    };
    let bad = |m: String| Problem {
        at: Some(v.at),
        message: format!("meta.ks-version: {m}"),
    };
    let parts: Vec<&str> = text.split('.').collect();
    let nums: Option<Vec<u32>> = parts
        .iter()
        .map(|p| {
            (!p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0')))
            .then(|| p.parse().ok())
            .flatten()
        })
        .collect();
    let Some(nums) = nums.filter(|n| (2..=3).contains(&n.len())) else {
        return Err(bad(format!("`{text}` is not X.Y or X.Y.Z")));
    };
    let version = (nums[0], nums[1], nums.get(2).copied().unwrap_or(0));
    if version < (0, 6, 0) {
        return Err(bad(format!(
            "{text} is below 0.6, the oldest Kaitai accepts"
        )));
    }
    if version > (0, 11, 0) {
        return Err(bad(format!(
            "the spec needs Kaitai {text}; meshspec reads the language of 0.11"
        )));
    }
    Ok(())
}

/// A key that is text or a list of texts (`application`, `file-extension`), joined.
fn texts(m: &Node, k: &str) -> R<Option<String>> {
    match get(m, k) {
        Some(Node {
            kind: Kind::Seq(items),
            ..
        }) => Ok(Some(
            items
                .iter()
                .map(|v| str_of(v, k))
                .collect::<R<Vec<_>>>()?
                .join(", "),
        )),
        _ => opt_str(m, k),
    }
}
