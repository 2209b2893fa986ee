//! A spec compiled for the interpreter: per type and field, every decision the generator's
//! emitters take (`codegen/src/emit/`), taken once from the same model functions (`list_kind`,
//! `boxed`, `fixed_elem`, the counts and sizes the writer recomputes, the holes it patches),
//! and every expression compiled in the scope the generated code evaluates it in. A spec the
//! generator would refuse is refused here, with the generator's words where it has them.

use super::eval::{Scope, Ty, CE};
use binrw::Endian;
use meshspec_model::expr::{BinOp, Expr};
use meshspec_model::*;

type R<T> = std::result::Result<T, String>;

/// A compiled spec.
pub(crate) struct Plan {
    pub spec: &'static Spec,
    pub types: Vec<TypePlan>,
    /// Why the writer cannot give back what the reader read (a construct it does not write
    /// yet), at the spec's place: writing is then refused, never done wrong.
    pub unwritable: Option<String>,
}

/// The first construct of `spec` that the interpreter reads but does not write back exactly.
fn unwritable(spec: &'static Spec) -> Option<String> {
    for t in &spec.types {
        let calculated = match &t.endian {
            Some(TypeEndian::Inherit) => true,
            Some(TypeEndian::Switch { on, .. }) => on
                .names()
                .iter()
                .any(|n| !t.params.iter().any(|p| &p.id == n)),
            _ => false,
        };
        if calculated {
            return Some(format!(
                "{}:{}: {}: a byte order from the values it is read in is read but not yet written back",
                spec.file, t.at, t.name
            ));
        }
        if let Some(f) = t.fields.iter().find(|f| {
            matches!(f.ty, FieldType::Bits(_))
                && (f.cond.is_some() || !matches!(f.repeat, Repeat::None))
        }) {
            return Some(format!(
                "{}:{}: {}.{}: a conditional or repeated bit field is read but not yet written back",
                spec.file, f.at, t.name, f.id
            ));
        }
        if let Some(f) = t.fields.iter().find(|f| matches!(f.ty, FieldType::Bits(_))) {
            let odd = bit_groups(t).iter().any(|g| g.2 % 8 != 0);
            if spec.bit_endian == meshspec_model::Endian::Be || odd {
                return Some(format!(
                    "{}:{}: {}.{}: big-endian bit fields, or bit fields that end inside a byte, are read but not yet written back",
                    spec.file, f.at, t.name, f.id
                ));
            }
        }
        for (fi, f) in t.fields.iter().enumerate() {
            let count = match &f.repeat {
                Repeat::Expr(c) => Some(c),
                _ => None,
            };
            // What the reader answers with the dynamic evaluator (`CE::Dyn`), which the
            // writer does not have.
            let index = |n: &str| spec.type_index(n);
            let sc = Scope {
                spec,
                index: &index,
                ty: t,
                visible: fi,
                underscore: None,
                in_repeat: !matches!(f.repeat, Repeat::None),
                measured_before: Some(fi),
                fallible: false,
                this: None,
            };
            let compiled_dyn = |e: &Expr| match sc.compile(e) {
                Ok(v) => super::eval::has_dyn(&v.ce),
                Err(_) => super::eval::reader_only(spec, e),
            };
            let dynamic = field_exprs(f).iter().any(|e| {
                let in_count = count.is_some_and(|c| std::ptr::eq(c, *e));
                super::eval::needs_dyn(e)
                    || compiled_dyn(e)
                    || asks_other_value(spec, t, e)
                    || e.any(&|x| {
                        matches!(x, Expr::Attr(a, n) if matches!(&**a, Expr::Name(b) if b == "_io")
                            && n == "size" && !in_count)
                    })
            });
            let contents_varies = matches!(f.ty, FieldType::Contents(_))
                && (f.cond.is_some() || !matches!(f.repeat, Repeat::None));
            let why = if contents_varies {
                Some("a contents field with a condition or a repeat (a value keeps no contents, so not whether or how often it is there)")
            } else if dynamic {
                Some("an expression over _parent, _root, text, bytes, arrays or another value's instances (evaluated while reading only)")
            } else if f.process.is_some() {
                Some("process (zlib, xor, rol, ror)")
            } else if t.wrapper {
                Some("a number or text type as a switch's case")
            } else if let Some(p) = t.parsed.first() {
                return Some(format!(
                    "{}:{}: {}.{}: an instance read from the bytes (pos) is read but not yet written back",
                    spec.file, p.at, t.name, p.id
                ));
            } else if matches!(f.repeat, Repeat::Until(_)) {
                Some("repeat: until (the writer does not yet check that only the last element ends the list)")
            } else if f.term.is_some() {
                Some("a terminator or padding (terminator, pad-right, include, consume)")
            } else {
                match &f.ty {
                    FieldType::Str { encoding, .. } | FieldType::Strz { encoding }
                        if !super::read::plain_text(encoding) =>
                    {
                        Some("text in an encoding other than UTF-8 and ASCII")
                    }
                    _ => None,
                }
            };
            if let Some(why) = why {
                return Some(format!(
                    "{}:{}: {}.{}: {why} is read but not yet written back",
                    spec.file, f.at, t.name, f.id
                ));
            }
        }
    }
    None
}

/// How a type orders the bytes of its numbers that do not say.
pub(crate) enum Order {
    Fixed(Endian),
    /// A type written inside one whose order is calculated: the order of the value it is
    /// read in.
    Inherit,
    /// `meta: endian: switch-on`: chosen from the parameters when a value starts.
    Switch {
        /// The value switched on, where it is a number (for the error).
        on: Option<CE>,
        /// Each case's test, the default last.
        cases: Vec<(CE, Endian)>,
        expected: String,
    },
}

pub(crate) struct TypePlan {
    pub t: &'static Type,
    pub fields: Vec<FieldPlan>,
    pub order: Order,
    /// For a type whose every field lies at a fixed offset: each field's offset and size
    /// (bit fields: their group's), so a value's positions follow from where it starts.
    pub fixed: Option<Vec<(u64, u64)>>,
    /// Whether a value of it can hold a warning-level field check or a relation stated as an
    /// expression (the checks pass).
    pub has_checks: bool,
    /// Its relations stated as expressions, in spec order.
    pub relations: Vec<RelationPlan>,
    /// Whether any field is a leaf the spec calls proven (a visitor is asked once per value).
    pub proven_leaves: bool,
    /// Whether any field is measured (`_sizeof`).
    pub measured: bool,
    /// The instances read from the bytes, each compiled as a field after the type's fields
    /// (which its expressions see), with where it lies (`pos`, `io`).
    pub parsed: Vec<(FieldPlan, &'static Parsed)>,
}

/// How a repeated field is held (the model's `ListKind`, compiled).
pub(crate) enum List {
    Nums(Prim),
    /// Values of block type `ty`, `size` bytes each; `checked` when a field check refuses.
    Blocks {
        ty: usize,
        size: u64,
        checked: bool,
    },
    /// Byte runs all of the size `CE` gives.
    Chunks(CE),
    Each,
}

/// The arguments a field passes to the type it holds: each parameter's value, type and name.
pub(crate) type Args = Vec<(CE, Prim, &'static str)>;

pub(crate) enum Size {
    Expr {
        ce: CE,
        text: String,
        /// `(N - x % N) % N`: a pad whose length the writer recomputes.
        alignment: bool,
        /// A plain field recomputed from this part's size when written.
        recomputed: bool,
    },
    Eos,
}

pub(crate) struct Case {
    pub key: CE,
    /// For a switch over text, bytes or what only the dynamic evaluator says: the condition
    /// that picks the case (`key` is then unused).
    pub test: Option<CE>,
    /// Which of the switch's target types.
    pub variant: usize,
    pub args: Args,
}

pub(crate) struct Switch {
    /// A sized switch's size: the case is read from exactly that many bytes.
    pub size: Option<Size>,
    pub on: CE,
    pub on_text: String,
    pub cases: Vec<Case>,
    /// The distinct target types, in the order of the cases (one variant each).
    pub variants: Vec<usize>,
    /// The error's expectation when no case matches.
    pub expected: String,
    /// The owned enum's name (for serializers that name it).
    pub name: &'static str,
}

/// One element of a field.
pub(crate) enum Elem {
    Prim(Prim),
    Bits(u32),
    User { ty: usize, args: Args },
    Bytes(Size),
    Str { size: Size, enc: &'static str },
    Strz { enc: &'static str },
    Contents(&'static [u8]),
    Sized { ty: usize, args: Args, size: Size },
    Switch(Box<Switch>),
}

/// `process`, compiled: the key or the rotation as the reader evaluates it.
pub(crate) enum Proc {
    /// The key: constant bytes, or an expression (a byte, or bytes).
    Xor(Result<Vec<u8>, CE>),
    Rol(CE),
    Ror(CE),
    Zlib,
}

/// A field's own check (`valid`).
pub(crate) struct Check {
    pub test: Test,
    pub expected: String,
    /// How the value found is shown: a number (hex of this width when the spec wrote hex),
    /// a flag, or neither.
    pub found: Found,
    pub severity: Severity,
}

pub(crate) enum Test {
    Eq(CE),
    Range(Option<CE>, Option<CE>),
    AnyOf(Vec<CE>),
    Expr(CE),
}

#[derive(Clone, Copy)]
pub(crate) enum Found {
    Int { hex: bool, width: usize },
    Bool,
    Other,
}

/// A bit field: its group (first field, bytes) and where in it its bits lie.
#[derive(Clone, Copy)]
pub(crate) struct Bits {
    pub first: usize,
    pub count: usize,
    pub bytes: u64,
    pub shift: u32,
    pub width: u32,
}

pub(crate) struct FieldPlan {
    pub f: &'static Field,
    pub id: &'static str,
    pub elem: Elem,
    pub list: Option<List>,
    /// `repeat-expr`, as the reader evaluates it.
    pub count: Option<CE>,
    /// `repeat-until`, over `_` (the element just read) and `_index`.
    pub until: Option<CE>,
    /// `process`: how the stored bytes are decoded.
    pub process: Option<Proc>,
    pub cond: Option<CE>,
    pub cond_text: String,
    pub offset: Option<(CE, String)>,
    pub valid: Option<Check>,
    pub derive: Option<CE>,
    /// Each value read or written is a level of nesting (boxed, or a tree through a list).
    pub nested: bool,
    /// A repeated field whose elements all take this many bytes in one layout: its positions
    /// are base and stride.
    pub stride: Option<u64>,
    /// The fewest bytes an element takes (bounds a count before anything is allocated).
    pub min_elem: u64,
    /// The writer checks the list's length against its count.
    pub agree: bool,
    /// The length of the first of its conditional lists that is there.
    pub counts_any: bool,
    /// The size of the later part this field is a hole for, patched once it is written.
    pub patched_by: Option<usize>,
    /// A field an earlier one is patched with the size of.
    pub part_start: bool,
    pub bits: Option<Bits>,
    /// The first field of a run of bit fields some of which are conditional: the number of
    /// fields in the run, read bit by bit as Kaitai reads them (each present field takes its
    /// bits after the previous one's).
    pub bit_run: Option<usize>,
    /// A type read through `size-eos` that asks its stream's position: read as a part of its
    /// own (the rest of the stream).
    pub eos_part: bool,
    /// Holds further fields (a spec type or a switch).
    pub holds: bool,
    /// A leaf the spec itself calls proven.
    pub proven_leaf: bool,
}

impl FieldPlan {
    pub fn repeated(&self) -> bool {
        !matches!(self.f.repeat, Repeat::None)
    }
}

pub(crate) fn order(e: meshspec_model::Endian) -> Endian {
    match e {
        meshspec_model::Endian::Le => Endian::Little,
        meshspec_model::Endian::Be => Endian::Big,
    }
}

/// Whether a size is an alignment pad (the generator's `alignment`).
fn alignment(e: &Expr) -> bool {
    matches!(e, Expr::Binary(BinOp::Rem, _, n) if matches!(**n, Expr::Int { value, .. } if value > 0))
}

fn recomputed_from(t: &Type, e: &Expr, fi: usize) -> bool {
    match e {
        Expr::Name(n) => t
            .fields
            .iter()
            .find(|f| &f.id == n)
            .is_some_and(|f| f.users.iter().any(|u| u.0 == fi)),
        _ => false,
    }
}

fn needed_before(t: &Type, fi: usize, gi: usize) -> bool {
    let id = &t.fields[fi].id;
    t.fields[fi + 1..=gi].iter().any(|f| {
        let mut uses = field_exprs(f);
        if let FieldType::SizedUser {
            size: Size_::Expr(e),
            ..
        } = &f.ty
        {
            uses.retain(|x| !std::ptr::eq(*x, e));
        }
        uses.iter().any(|e| e.names().iter().any(|n| n == id))
    })
}

use meshspec_model::Size as Size_;

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

fn counts_any(t: &Type, f: &Field) -> bool {
    !f.users.is_empty()
        && f.users.iter().all(|&(_, u)| u == Use::Count)
        && (f.cond.is_some() || f.users.iter().any(|&(gi, _)| t.fields[gi].cond.is_some()))
}

/// A switch with a case that holds a value of the type it is read in (a value held in its own
/// type through switches alone): its reading counts a level of nesting.
fn recursive_switch(spec: &Spec, t: &Type, f: &Field) -> bool {
    matches!(f.ty, FieldType::Switch { .. })
        && refs(&f.ty).iter().any(|r| reaches(spec, &r.name, &t.name))
}

/// The runs of consecutive bit fields of `t` that hold a conditional one: (first, count).
fn conditional_bit_runs(t: &Type) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut i = 0;
    while i < t.fields.len() {
        let bits =
            |f: &Field| matches!(f.ty, FieldType::Bits(_)) && matches!(f.repeat, Repeat::None);
        if !bits(&t.fields[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < t.fields.len() && bits(&t.fields[i]) {
            i += 1;
        }
        if t.fields[start..i].iter().any(|f| f.cond.is_some()) {
            out.push((start, i - start));
        }
    }
    out
}

fn recursive_list(spec: &Spec, t: &Type, f: &Field) -> bool {
    !matches!(f.repeat, Repeat::None) && refs(&f.ty).iter().any(|r| reaches(spec, &r.name, &t.name))
}

fn has_checks(spec: &Spec, t: &Type) -> bool {
    reachable(spec, &t.name).into_iter().any(|u| {
        u.fields
            .iter()
            .any(|f| f.check_severity == Some(Severity::Warning))
            || u.relations.iter().any(Relation::stated)
    })
}

/// A relation the spec states as an expression (`-check`), compiled as the generated checks
/// pass evaluates it (`codegen/src/emit/checks.rs`, `relation_check`).
pub(crate) struct RelationPlan {
    pub rule: &'static crate::rt::Rule,
    pub cond: CE,
    /// The check as the spec writes it (what was expected).
    pub text: String,
    /// The repeated field whose every element it is checked for (`-each`).
    pub each: Option<usize>,
    /// The field a violation is placed at (`-at`), and its name.
    pub at: Option<usize>,
    pub placed_at: Option<&'static str>,
    /// The numbers the check reads, in order: each with its name and whether it is what was
    /// found (the element, or the `-at` field) rather than shown beside what was expected.
    pub terms: Vec<(String, CE, bool)>,
}

/// The values an expression reads, each once in the order written (the generator's `terms`).
fn terms(e: &Expr) -> Vec<Expr> {
    fn walk(e: &Expr, out: &mut Vec<Expr>) {
        match e {
            Expr::Name(n) if n == "_io" || n == "_index" => {}
            Expr::Attr(_, n) if n == "_sizeof" => {}
            Expr::Name(_) | Expr::Attr(..) => {
                if !out.contains(e) {
                    out.push(e.clone());
                }
            }
            other => {
                for c in other.children() {
                    walk(c, out);
                }
            }
        }
    }
    let mut out = vec![];
    walk(e, &mut out);
    out
}

fn relation(
    spec: &'static Spec,
    index: &dyn Fn(&str) -> Option<usize>,
    t: &'static Type,
    r: &'static Relation,
) -> R<RelationPlan> {
    let check = r.check.as_ref().expect("stated");
    let field_at = |id: &str| {
        t.fields
            .iter()
            .position(|f| f.id == id)
            .ok_or_else(|| format!("{} relation {}: `{id}` is not a field", t.name, r.id))
    };
    let each = r.each.as_deref().map(field_at).transpose()?;
    let at = r.placed_at.as_deref().map(field_at).transpose()?;
    // `_` is one element of the `-each` field, typed as the generator's `element_value` types it.
    let underscore = match each.map(|fi| &t.fields[fi].ty) {
        None => None,
        Some(FieldType::Prim(p)) if p.kind != PrimKind::F => Some(Ty::Int),
        Some(FieldType::Bits(n)) if *n > 1 => Some(Ty::Int),
        Some(FieldType::Bits(_)) => Some(Ty::Bool),
        Some(FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. }) => Some(Ty::User(
            index(&r.name).ok_or_else(|| format!("no type `{}`", r.name))?,
        )),
        Some(FieldType::Bytes(_)) => Some(Ty::Bytes),
        Some(FieldType::Str { .. } | FieldType::Strz { .. }) => Some(Ty::Str),
        Some(_) => {
            return Err(format!(
                "{}.{}: its values cannot be used in an expression",
                t.name,
                t.fields[each.unwrap_or_default()].id
            ))
        }
    };
    let scope = Scope {
        spec,
        index,
        ty: t,
        visible: t.fields.len(),
        underscore,
        in_repeat: each.is_some(),
        measured_before: None,
        fallible: true,
        this: None,
    };
    let cond = scope.bool_of(check)?;
    let mut shown = vec![];
    for term in terms(check) {
        let Ok(v) = scope.compile(&term) else {
            continue;
        };
        if v.ty != Ty::Int {
            continue;
        }
        let name = term.to_string();
        let subject = match (&r.each, &r.placed_at) {
            (Some(_), _) => term.names().first().is_some_and(|n| n == "_"),
            (None, Some(at)) => &name == at,
            (None, None) => false,
        };
        shown.push((name, v.ce, subject));
    }
    Ok(RelationPlan {
        rule: Box::leak(Box::new(crate::rt::Rule {
            id: r.id.as_str(),
            owner: t.name.as_str(),
            confidence: r.confidence,
            severity: r.severity,
        })),
        cond,
        text: check.to_string(),
        each,
        at,
        placed_at: r.placed_at.as_deref(),
        terms: shown,
    })
}

/// Compiles `spec` (leaked by the caller: the plan and the tables borrow it for good).
pub(crate) fn compile(spec: &'static Spec) -> R<Plan> {
    let index = |name: &str| spec.type_index(name);
    let mut types = vec![];
    for t in &spec.types {
        types.push(ty(spec, &index, t).map_err(|e| format!("{}: {e}", spec.file))?);
    }
    Ok(Plan {
        spec,
        types,
        unwritable: unwritable(spec),
    })
}

fn ty(spec: &'static Spec, index: &dyn Fn(&str) -> Option<usize>, t: &'static Type) -> R<TypePlan> {
    let scope = |visible: usize, measured_before: Option<usize>| Scope {
        spec,
        index,
        ty: t,
        visible,
        underscore: None,
        in_repeat: false,
        measured_before,
        fallible: false,
        this: None,
    };
    // An instance the reader's expressions cannot compute (text, floats, arrays, `_parent`)
    // is still answered over a value read (`query`); an expression of the reader that names
    // one is refused when it is compiled.
    let order = match &t.endian {
        None => Order::Fixed(self::order(spec.endian)),
        Some(TypeEndian::Fixed(e)) => Order::Fixed(self::order(*e)),
        Some(TypeEndian::Inherit) => Order::Inherit,
        Some(TypeEndian::Switch { on, cases }) => {
            // `_root.endianness`: answered by the dynamic evaluator over the values this one
            // is read in. Each case is a test (`on == key`; bytes and text compared by the
            // dynamic evaluator), `_` the default, tried last.
            let sc = scope(0, Some(0));
            let mut arms = vec![];
            let mut default = None;
            for (k, e) in cases {
                if matches!(k, Expr::Name(n) if n == "_") {
                    default = Some(self::order(*e));
                    continue;
                }
                let test = Expr::Binary(BinOp::Eq, Box::new(on.clone()), Box::new(k.clone()));
                arms.push((
                    sc.bool_of(&test).map_err(|e| format!("{}: {e}", t.name))?,
                    self::order(*e),
                ));
            }
            if let Some(e) = default {
                arms.push((CE::Bool(true), e));
            }
            let keys: Vec<String> = cases.iter().map(|(k, _)| k.to_string()).collect();
            Order::Switch {
                on: sc.int_of(on).ok(),
                cases: arms,
                expected: format!("`{on}` to be one of {} (the byte order)", keys.join(", ")),
            }
        }
    };
    // Runs of bit fields with a conditional one are read bit by bit; the others as groups.
    let runs = conditional_bit_runs(t);
    let in_run = |fi: usize| {
        runs.iter()
            .any(|&(first, count)| (first..first + count).contains(&fi))
    };
    let groups: Vec<(usize, usize, u32)> = bit_groups(t)
        .into_iter()
        .filter(|g| !in_run(g.0) && matches!(t.fields[g.0].repeat, Repeat::None))
        .collect();
    for &(first, count, bits) in &groups {
        if count == 0 {
            return Err(format!(
                "{}.{}: a conditional bit field is not in the subset",
                t.name, t.fields[first].id
            ));
        }

        if bits > 128 {
            return Err(format!(
                "{}.{}: consecutive bit fields add up to {bits} bits, more than 128",
                t.name, t.fields[first].id
            ));
        }
    }
    let mut fields = vec![];
    for fi in 0..t.fields.len() {
        let fp = field(spec, index, t, fi, &groups)
            .map_err(|e| format!("{}.{}: {e}", t.name, t.fields[fi].id))?;
        fields.push(fp);
    }
    for &(first, count) in &runs {
        fields[first].bit_run = Some(count);
    }
    for fi in 0..fields.len() {
        if let Some(gi) = fields[fi].patched_by {
            fields[gi].part_start = true;
        }
    }
    let fixed = fixed_layout(spec, t).then(|| {
        let offs = static_bit_offsets(spec, t);
        t.fields
            .iter()
            .enumerate()
            .map(
                |(fi, f)| match groups.iter().find(|g| (g.0..g.0 + g.1).contains(&fi)) {
                    Some(&(first, _, bits)) => (offs[first].unwrap_or(0) / 8, u64::from(bits) / 8),
                    None => (
                        offs[fi].unwrap_or(0) / 8,
                        field_size(spec, f).1.unwrap_or(0),
                    ),
                },
            )
            .collect()
    });
    // An instance read from the bytes is compiled as the field after the type's fields, in a
    // copy of the type that has just that one more (so it sees the fields, not the others).
    let mut parsed = vec![];
    for p in &t.parsed {
        let what = |e: String| format!("{}.{}: {e}", t.name, p.id);
        if matches!(p.field.ty, FieldType::Bits(_)) || p.field.offset.is_some() {
            return Err(what(
                "bit fields and -offset are not read as instances".into(),
            ));
        }
        let host: &'static Type = Box::leak(Box::new(Type {
            fields: t.fields.iter().chain([&p.field]).cloned().collect(),
            parsed: vec![],
            ..t.clone()
        }));
        let fp = field(spec, index, host, t.fields.len(), &groups).map_err(what)?;
        parsed.push((fp, p));
    }
    Ok(TypePlan {
        t,
        parsed,
        proven_leaves: fields.iter().any(|f| f.proven_leaf),
        measured: t.fields.iter().any(|f| f.measured),
        fields,
        order,
        fixed,
        has_checks: has_checks(spec, t),
        relations: t
            .relations
            .iter()
            .filter(|r| r.stated())
            .map(|r| relation(spec, index, t, r))
            .collect::<R<_>>()?,
    })
}

fn field(
    spec: &'static Spec,
    index: &dyn Fn(&str) -> Option<usize>,
    t: &'static Type,
    fi: usize,
    groups: &[(usize, usize, u32)],
) -> R<FieldPlan> {
    let f = &t.fields[fi];
    let type_of = |name: &str| index(name).ok_or_else(|| format!("no type `{name}`"));
    // The reader's scopes: the fields before this one; an element's, with `_index`.
    let field_scope = Scope {
        spec,
        index,
        ty: t,
        visible: fi,
        underscore: None,
        in_repeat: false,
        measured_before: Some(fi),
        fallible: false,
        this: None,
    };
    let elem_scope = Scope {
        in_repeat: !matches!(f.repeat, Repeat::None),
        ..field_scope
    };
    let args = |r: &TypeRef| -> R<Args> {
        let target = &spec.types[type_of(&r.name)?];
        target
            .params
            .iter()
            .zip(&r.args)
            .map(|(p, a)| Ok((elem_scope.int_of(a)?, p.prim, p.id.as_str())))
            .collect()
    };
    let size = |s: &Size_| -> R<Size> {
        Ok(match s {
            Size_::Expr(e) => Size::Expr {
                ce: elem_scope.int_of(e)?,
                text: e.to_string(),
                alignment: alignment(e),
                recomputed: recomputed_from(t, e, fi),
            },
            Size_::Eos => Size::Eos,
        })
    };
    if let FieldType::Str { encoding, .. } | FieldType::Strz { encoding } = &f.ty {
        super::encoding::decode(b"", encoding)?;
    }
    let elem = match &f.ty {
        FieldType::Prim(p) => Elem::Prim(*p),
        FieldType::Bits(n) => Elem::Bits(*n),
        FieldType::User(r) => Elem::User {
            ty: type_of(&r.name)?,
            args: args(r)?,
        },
        FieldType::Bytes(s) => Elem::Bytes(size(s)?),
        FieldType::Str { size: s, encoding } => Elem::Str {
            size: size(s)?,
            enc: encoding.as_str(),
        },
        FieldType::Strz { encoding } => Elem::Strz {
            enc: encoding.as_str(),
        },
        FieldType::Contents(c) => Elem::Contents(c.as_slice()),
        FieldType::SizedUser { r#ref: r, size: s } => Elem::Sized {
            ty: type_of(&r.name)?,
            args: args(r)?,
            size: size(s)?,
        },
        FieldType::Switch { on, cases } => {
            if cases.is_empty() {
                return Err("a switch needs at least one case".into());
            }
            let mut variants: Vec<usize> = vec![];
            let mut compiled = vec![];
            let mut defaults = vec![];
            // A switch over text or bytes is decided case by case by the dynamic evaluator.
            let dynamic = elem_scope.int_of(on).is_err()
                || cases.iter().any(|(k, _)| super::eval::needs_dyn(k));
            for (k, r) in cases {
                let target = type_of(&r.name)?;
                let variant = match variants.iter().position(|&v| v == target) {
                    Some(v) => v,
                    None => {
                        variants.push(target);
                        variants.len() - 1
                    }
                };
                // `_`, the case of every other value, is tried last: its key is the value.
                let default = matches!(k, Expr::Name(n) if n == "_");
                let test = match (dynamic, default) {
                    (false, _) => None,
                    (true, true) => Some(CE::Bool(true)),
                    (true, false) => Some(elem_scope.bool_of(&Expr::Binary(
                        BinOp::Eq,
                        Box::new(on.clone()),
                        Box::new(k.clone()),
                    ))?),
                };
                compiled.push(Case {
                    key: if dynamic {
                        CE::Int(0)
                    } else {
                        elem_scope.int_of(if default { on } else { k })?
                    },
                    test,
                    variant,
                    args: args(r)?,
                });
                if default {
                    let c = compiled.remove(compiled.len() - 1);
                    defaults.push(c);
                }
            }
            compiled.append(&mut defaults);
            let keys: Vec<String> = cases.iter().map(|(k, _)| k.to_string()).collect();
            let name: &'static str =
                Box::leak(format!("{}{}", t.rust, camel(&f.id)).into_boxed_str());
            Elem::Switch(Box::new(Switch {
                size: f.switch_size.as_ref().map(size).transpose()?,
                on: if dynamic {
                    CE::Int(0)
                } else {
                    elem_scope.int_of(on)?
                },
                on_text: on.to_string(),
                cases: compiled,
                variants,
                expected: format!("`{on}` to be one of {}", keys.join(", ")),
                name,
            }))
        }
    };
    let list = match list_kind(spec, t, f) {
        None => None,
        Some(ListKind::Nums(p)) => Some(List::Nums(p)),
        Some(ListKind::Blocks(name)) => {
            let b = type_of(&name)?;
            let target = &spec.types[b];
            Some(List::Blocks {
                ty: b,
                size: target.fixed_size.unwrap_or(0),
                checked: target
                    .fields
                    .iter()
                    .any(|g| g.valid.is_some() && g.check_severity != Some(Severity::Warning)),
            })
        }
        Some(ListKind::Chunks(e)) => Some(List::Chunks(field_scope.int_of(&e)?)),
        Some(ListKind::Each) => Some(List::Each),
    };
    let count = match &f.repeat {
        Repeat::Expr(e) => Some(field_scope.int_of(e)?),
        _ => None,
    };
    let until = match &f.repeat {
        Repeat::Until(e) => Some(
            Scope {
                underscore: Some(under_ty(index, f)?),
                in_repeat: true,
                ..field_scope
            }
            .bool_of(e)?,
        ),
        _ => None,
    };
    let agree = match &f.repeat {
        Repeat::Expr(e) => !recomputed_from(t, e, fi) && !e.uses_io_size(),
        _ => false,
    };
    let valid = match &f.valid {
        Some(v) => Some(check(spec, index, t, fi, v)?),
        None => None,
    };
    let derive = match &f.derive {
        Some(d) => {
            // The writer sees every field, but those it recomputes only once written.
            for n in d.names() {
                if let Some(j) = t.fields.iter().position(|g| g.id == n) {
                    let g = &t.fields[j];
                    if j >= fi && (!g.users.is_empty() || g.derive.is_some()) {
                        return Err(format!(
                            "-derive uses `{n}`, which the writer recomputes after this field"
                        ));
                    }
                }
            }
            Some(
                Scope {
                    visible: t.fields.len(),
                    ..field_scope
                }
                .int_of(d)?,
            )
        }
        None => None,
    };
    if let Some(&(gi, Use::Size)) = f.users.first() {
        if !matches!(
            t.fields[gi].ty,
            FieldType::Bytes(_) | FieldType::Str { .. } | FieldType::SizedUser { .. }
        ) {
            return Err("cannot recompute this size".into());
        }
    }
    let holds = matches!(
        f.ty,
        FieldType::User(_) | FieldType::SizedUser { .. } | FieldType::Switch { .. }
    );
    let bits =
        groups
            .iter()
            .find(|g| (g.0..g.0 + g.1).contains(&fi))
            .map(|&(first, count, total)| {
                let shift = t.fields[first..fi]
                    .iter()
                    .map(|g| match g.ty {
                        FieldType::Bits(n) => n,
                        _ => 0,
                    })
                    .sum();
                let width = match f.ty {
                    FieldType::Bits(n) => n,
                    _ => 0,
                };
                // The group's bytes as one number, in the bit order: little endian counts
                // from its lowest bit, big endian from its highest.
                let bytes = total.div_ceil(8);
                Bits {
                    first,
                    count,
                    bytes: u64::from(bytes),
                    shift: match spec.bit_endian {
                        meshspec_model::Endian::Le => shift,
                        meshspec_model::Endian::Be => bytes * 8 - shift - width,
                    },
                    width: match f.ty {
                        FieldType::Bits(n) => n,
                        _ => 0,
                    },
                }
            });
    let min_elem = match &f.ty {
        FieldType::User(r)
        | FieldType::SizedUser {
            r#ref: r,
            size: Size_::Eos,
        } => spec.types[type_of(&r.name)?].min_size,
        _ => elem_size(spec, f).0,
    };
    Ok(FieldPlan {
        f,
        id: f.id.as_str(),
        list,
        count,
        until,
        process: match &f.process {
            None => None,
            Some(Process::Zlib) => Some(Proc::Zlib),
            Some(Process::Rol(e)) => Some(Proc::Rol(elem_scope.int_of(e)?)),
            Some(Process::Ror(e)) => Some(Proc::Ror(elem_scope.int_of(e)?)),
            Some(Process::Xor(Expr::Array(items))) => Some(Proc::Xor(Ok(items
                .iter()
                .map(|x| {
                    x.literal()
                        .map(|v| v as u8)
                        .ok_or_else(|| "an xor key of bytes".to_string())
                })
                .collect::<R<Vec<u8>>>()?))),
            Some(Process::Xor(e)) => Some(Proc::Xor(Err(elem_scope.compile(e)?.ce))),
        },
        cond: match &f.cond {
            Some(c) => Some(field_scope.bool_of(c)?),
            None => None,
        },
        cond_text: f.cond.as_ref().map(|c| c.to_string()).unwrap_or_default(),
        offset: match &f.offset {
            Some(o) => Some((field_scope.int_of(o)?, o.to_string())),
            None => None,
        },
        valid,
        derive,
        // Held by value inside a value of its own type, or a tree through a list.
        nested: boxed(spec, t, f) || recursive_list(spec, t, f) || recursive_switch(spec, t, f),
        stride: if matches!(f.repeat, Repeat::None) {
            None
        } else {
            fixed_elem(spec, f)
        },
        min_elem,
        agree,
        counts_any: counts_any(t, f),
        patched_by: patched_by(t, fi),
        part_start: false,
        bits,
        bit_run: None,
        eos_part: matches!(&f.ty, FieldType::SizedUser { r#ref: r, size: Size_::Eos } if uses_io_deep(spec, &r.name)),
        holds,
        proven_leaf: f.confidence == Some(Confidence::Proven) && !holds,
        elem,
    })
}

/// What `_` is for an element of field `f` (in `valid`, `repeat-until`).
fn under_ty(index: &dyn Fn(&str) -> Option<usize>, f: &Field) -> R<Ty> {
    Ok(match &f.ty {
        FieldType::Prim(p) if p.kind != PrimKind::F => Ty::Int,
        FieldType::Bits(1) => Ty::Bool,
        FieldType::Bits(_) => Ty::Int,
        FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
            Ty::User(index(&r.name).ok_or_else(|| format!("no type `{}`", r.name))?)
        }
        FieldType::Bytes(_) => Ty::Bytes,
        FieldType::Str { .. } | FieldType::Strz { .. } => Ty::Str,
        _ => return Err("`_` of this type is not in expressions".into()),
    })
}

/// A field's `valid`, compiled (the generator's `check_code`).
fn check(
    spec: &'static Spec,
    index: &dyn Fn(&str) -> Option<usize>,
    t: &'static Type,
    fi: usize,
    valid: &Valid,
) -> R<Check> {
    let f = &t.fields[fi];
    let is_int = matches!(f.ty, FieldType::Prim(p) if p.kind != PrimKind::F)
        || matches!(f.ty, FieldType::Bits(n) if n > 1);
    let under = if is_int {
        Ty::Int
    } else if matches!(f.ty, FieldType::Bits(1)) {
        Ty::Bool
    } else {
        match &f.ty {
            FieldType::User(r) | FieldType::SizedUser { r#ref: r, .. } => {
                Ty::User(index(&r.name).ok_or_else(|| format!("no type `{}`", r.name))?)
            }
            FieldType::Bytes(_) => Ty::Bytes,
            FieldType::Str { .. } | FieldType::Strz { .. } => Ty::Str,
            _ => return Err("valid is not supported on this type".into()),
        }
    };
    // Text, bytes or floats are compared by the dynamic evaluator: the check as one condition
    // over `_`.
    let converted;
    let valid = if is_int || matches!(valid, Valid::Expr(_)) {
        valid
    } else {
        let under = || Box::new(Expr::Name("_".into()));
        let cmp = |op, e: &Expr| Expr::Binary(op, under(), Box::new(e.clone()));
        let all = |parts: Vec<Expr>, op| {
            parts
                .into_iter()
                .reduce(|a, b| Expr::Binary(op, Box::new(a), Box::new(b)))
                .unwrap_or(Expr::Bool(true))
        };
        converted = Valid::Expr(match valid {
            Valid::Eq(e) => cmp(BinOp::Eq, e),
            Valid::Range { min, max } => all(
                min.iter()
                    .map(|m| cmp(BinOp::Ge, m))
                    .chain(max.iter().map(|m| cmp(BinOp::Le, m)))
                    .collect(),
                BinOp::And,
            ),
            Valid::AnyOf(es) => all(es.iter().map(|e| cmp(BinOp::Eq, e)).collect(), BinOp::Or),
            Valid::Expr(_) => unreachable!(),
        });
        if !super::eval::needs_dyn(match &converted {
            Valid::Expr(e) => e,
            _ => unreachable!(),
        }) && !matches!(f.ty, FieldType::Prim(_) | FieldType::Bits(1))
        {
            return Err("valid eq, min, max and any-of compare an integer field".into());
        }
        &converted
    };
    let sc = Scope {
        spec,
        index,
        ty: t,
        visible: fi,
        underscore: Some(under),
        in_repeat: !matches!(f.repeat, Repeat::None),
        measured_before: Some(fi),
        fallible: false,
        this: Some(fi),
    };
    let hex = |e: &Expr| matches!(e, Expr::Int { hex: true, .. });
    let (test, expected, hexed) = match valid {
        Valid::Eq(e) => (
            Test::Eq(sc.int_of(e)?),
            match (e, &f.ty) {
                // A constant written in hex shows as wide as its field, like the value found.
                (Expr::Int { value, hex: true }, FieldType::Prim(p)) => {
                    format!("0x{value:0w$X}", w = usize::from(p.bytes) * 2)
                }
                _ => format!("{e}"),
            },
            hex(e),
        ),
        Valid::Range { min, max } => {
            let mut words = vec![];
            for (m, op) in [(min, ">="), (max, "<=")] {
                if let Some(m) = m {
                    words.push(format!("{op} {m}"));
                }
            }
            let lo = min.as_ref().map(|m| sc.int_of(m)).transpose()?;
            let hi = max.as_ref().map(|m| sc.int_of(m)).transpose()?;
            (
                Test::Range(lo, hi),
                words.join(" and "),
                min.iter().chain(max).any(hex),
            )
        }
        Valid::AnyOf(es) => {
            let ces = es.iter().map(|e| sc.int_of(e)).collect::<R<Vec<_>>>()?;
            let words: Vec<String> = es.iter().map(|e| e.to_string()).collect();
            (
                Test::AnyOf(ces),
                format!("one of {}", words.join(", ")),
                es.iter().any(hex),
            )
        }
        Valid::Expr(e) => (Test::Expr(sc.bool_of(e)?), format!("`{e}`"), false),
    };
    let found = if is_int {
        Found::Int {
            hex: hexed,
            width: match f.ty {
                FieldType::Prim(p) => usize::from(p.bytes) * 2,
                _ => 0,
            },
        }
    } else if matches!(f.ty, FieldType::Bits(1)) {
        Found::Bool
    } else {
        Found::Other
    };
    Ok(Check {
        test,
        expected,
        found,
        severity: f.check_severity.unwrap_or(Severity::Error),
    })
}
