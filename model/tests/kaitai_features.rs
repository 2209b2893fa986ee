//! Kaitai constructs the format gallery uses, taken by the model as Kaitai takes them.

fn load(text: &str) -> Result<meshspec_model::Spec, String> {
    meshspec_model::load("spec/x.ksy", text).map_err(|e| e.to_string())
}

const HEAD: &str = "meta:\n  id: x\n  endian: le\n";

#[test]
fn to_string_is_checked_and_not_used() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: f\n    type: flags\ntypes:\n  flags:\n    seq:\n      - id: a\n        type: u1\n    to-string: '(a == 1 ? \"one\" : \"other\") + \"!\"'\n"
    ))
    .unwrap();
    assert_eq!(s.types.len(), 2);
    // A number is not text (Kaitai: expected string, got CalcIntType).
    let e = load(&format!("{HEAD}to-string: 1 + 2\n")).unwrap_err();
    assert!(e.contains("to-string must be text, found `1 + 2`"), "{e}");
}

#[test]
fn yaml_true_and_false_name_enum_values() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: b\n    type: u1\n    enum: flag\nenums:\n  flag:\n    0x30: false\n    0x31: true\n"
    ))
    .unwrap();
    let e = &s.enums[0];
    assert_eq!(
        (e.value_of("false"), e.value_of("true")),
        (Some(0x30), Some(0x31))
    );
}

#[test]
fn a_number_type_named_by_a_positional_instance_switch_is_wrapped() {
    let s = load(&format!(
        "{HEAD}instances:\n  p:\n    pos: 0\n    type:\n      switch-on: 1\n      cases:\n        1: u2\n"
    ))
    .unwrap();
    assert!(s.types.iter().any(|t| t.wrapper && t.name == "u2"));
}

#[test]
fn specs_that_import_each_other_load() {
    let a = "meta:\n  id: a\n  endian: le\n  imports:\n    - b\nseq:\n  - id: x\n    type: b\n";
    let b = "meta:\n  id: b\n  endian: le\n  imports:\n    - a\nseq:\n  - id: n\n    type: u1\n  - id: back\n    type: a\n    if: n == 0\n";
    let files = |_: &str, name: &str| -> Result<(String, String), String> {
        match name {
            "a" => Ok(("a.ksy".into(), a.into())),
            "b" => Ok(("b.ksy".into(), b.into())),
            _ => Err(format!("no {name}")),
        }
    };
    let s = meshspec_model::load_with("a.ksy", a, &files).unwrap();
    let names: Vec<&str> = s.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    // A real mistake in the circle is still found, by the spec that loads them all.
    let bad = b.replace("type: a\n", "type: nowhere\n");
    let files = |_: &str, name: &str| -> Result<(String, String), String> {
        match name {
            "a" => Ok(("a.ksy".into(), a.into())),
            _ => Ok(("b.ksy".into(), bad.clone())),
        }
    };
    let e = meshspec_model::load_with("a.ksy", a, &files)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no type `nowhere`"), "{e}");
    assert!(e.starts_with("a.ksy: imports b.ksy:9:5: b.back"), "{e}");
}

#[test]
fn a_type_or_enum_name_is_scoped_to_the_type_it_is_written_in() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: a\n    type: one\n  - id: b\n    type: two\n  - id: c\n    type: flags\ntypes:\n  one:\n    seq:\n      - id: f\n        type: flags\n      - id: k\n        type: u1\n        enum: kind\n    types:\n      flags:\n        seq:\n          - id: x\n            type: u1\n    enums:\n      kind:\n        1: first\n  two:\n    seq:\n      - id: f\n        type: flags\n      - id: k\n        type: u1\n        enum: kind\n      - id: m\n        type: u1\n        if: k == kind::second\n    types:\n      flags:\n        seq:\n          - id: y\n            type: u2\n          - id: z\n            type: u2\n    enums:\n      kind:\n        2: second\n  flags:\n    seq:\n      - id: w\n        type: u4\n"
    ))
    .unwrap();
    let field_ty = |t: &str, f: &str| {
        let t = s.ty(t).unwrap();
        let f = t.fields.iter().find(|x| x.id == f).unwrap();
        match &f.ty {
            meshspec_model::FieldType::User(r) => r.name.clone(),
            _ => f.enum_name.clone().unwrap(),
        }
    };
    // Each `flags` is the one written in the type that names it, the spec's own elsewhere.
    let one = field_ty("one", "f");
    let two = field_ty("two", "f");
    let top = field_ty("x", "c");
    assert_eq!(s.ty(&one).unwrap().fields[0].id, "x");
    assert_eq!(s.ty(&two).unwrap().fields[0].id, "y");
    assert_eq!(s.ty(&top).unwrap().fields[0].id, "w");
    assert_eq!(s.ty(&top).unwrap().fields[0].id, "w");
    // Kaitai's paths find them too.
    assert_eq!(s.ty("two::flags").unwrap().fields[0].id, "y");
    assert_eq!(s.ty("x::flags").unwrap().fields[0].id, "w");
    // And enums.
    let k1 = field_ty("one", "k");
    let k2 = field_ty("two", "k");
    assert_eq!(s.enum_def(&k1).unwrap().value_of("first"), Some(1));
    assert_eq!(s.enum_def(&k2).unwrap().value_of("second"), Some(2));
    assert_eq!(s.enum_def("two::kind").unwrap().value_of("second"), Some(2));
    // A name given twice in one type is still refused.
    let e = load(&format!(
        "{HEAD}seq:\n  - id: a\n    type: one\ntypes:\n  one:\n    types:\n      flags:\n        seq: []\n    enums:\n      flags: {{}}\n"
    ));
    assert!(e.is_ok(), "a type and an enum may share a name: {e:?}");
}

#[test]
fn an_enum_takes_any_integer() {
    // Negative values, no field: the narrowest signed type that holds them.
    let s = load(&format!(
        "{HEAD}seq: []\nenums:\n  k:\n    -1: minus\n    300: big\n"
    ))
    .unwrap();
    assert_eq!(s.enums[0].prim.unwrap().rust(), "i16");
    assert!(!s.enums[0].mixed);
    // Fields of different widths: the widest, and marked for the generator to refuse.
    let s = load(&format!(
        "{HEAD}seq:\n  - id: a\n    type: u1\n    enum: k\n  - id: b\n    type: s2\n    enum: k\nenums:\n  k:\n    1: one\n"
    ))
    .unwrap();
    assert_eq!(s.enums[0].prim.unwrap().rust(), "i16");
    assert!(s.enums[0].mixed);
}

#[test]
fn an_imported_name_this_spec_has_too_is_the_import_s() {
    let a = "meta:\n  id: a\n  endian: le\n  imports:\n    - b\nseq:\n  - id: mine\n    type: chunk\n  - id: theirs\n    type: b::chunk\n  - id: whole\n    type: b\ntypes:\n  chunk:\n    seq:\n      - id: x\n        type: u1\n        enum: kind\nenums:\n  kind:\n    1: mine\n";
    let b = "meta:\n  id: b\n  endian: le\nseq:\n  - id: c\n    type: chunk\ntypes:\n  chunk:\n    seq:\n      - id: y\n        type: u2\n        enum: kind\nenums:\n  kind:\n    2: theirs\n";
    let files = |_: &str, name: &str| -> Result<(String, String), String> {
        match name {
            "b" => Ok(("b.ksy".into(), b.into())),
            _ => Err(format!("no {name}")),
        }
    };
    let s = meshspec_model::load_with("a.ksy", a, &files).unwrap();
    let target = |t: &str, f: &str| {
        let f = s.ty(t).unwrap().fields.iter().find(|x| x.id == f).unwrap();
        match &f.ty {
            meshspec_model::FieldType::User(r) => s.ty(&r.name).unwrap(),
            _ => unreachable!(),
        }
    };
    assert_eq!(target("a", "mine").fields[0].id, "x");
    assert_eq!(target("a", "theirs").fields[0].id, "y");
    // The imported spec's own uses follow the rename, enums too.
    let inner = target("b", "c");
    assert_eq!(inner.fields[0].id, "y");
    let en = inner.fields[0].enum_name.clone().unwrap();
    assert_eq!(s.enum_def(&en).unwrap().value_of("theirs"), Some(2));
    assert_eq!(s.enum_def("kind").unwrap().value_of("mine"), Some(1));
}

#[test]
fn text_as_a_switch_case_is_read_in_the_encoding_where_it_is_written() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: t\n    type: u1\n  - id: a\n    size: 2\n    type:\n      switch-on: t\n      cases:\n        1: strz\n    encoding: UTF-16LE\n  - id: b\n    type: inner\ntypes:\n  inner:\n    meta:\n      encoding: ASCII\n    seq:\n      - id: c\n        size: 2\n        type:\n          switch-on: 1\n          cases:\n            1: str\n"
    ))
    .unwrap();
    let enc = |name: &str| match &s.ty(name).unwrap().fields[0].ty {
        meshspec_model::FieldType::Str { encoding, .. } => encoding.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(enc("strz in UTF-16LE"), "UTF-16LE");
    assert_eq!(enc("str in ASCII"), "ASCII");
}

#[test]
fn in_enum_checks_the_value_is_one_of_the_enum_s() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: c\n    type: u1\n    enum: color\n    valid:\n      in-enum: true\nenums:\n  color:\n    0: grey\n    2: rgb\n"
    ))
    .unwrap();
    match &s.types[0].fields[0].valid {
        Some(meshspec_model::Valid::AnyOf(es)) => {
            let shown: Vec<String> = es.iter().map(|e| e.to_string()).collect();
            assert_eq!(shown, ["color::grey", "color::rgb"]);
        }
        other => panic!("{other:?}"),
    }
    let e = load(&format!(
        "{HEAD}seq:\n  - id: c\n    type: u1\n    valid:\n      in-enum: true\n"
    ))
    .unwrap_err();
    assert!(e.contains("x.c: valid in-enum needs an enum"), "{e}");
    let e = load(&format!(
        "{HEAD}seq:\n  - id: c\n    type: u1\n    enum: k\n    valid:\n      in-enum: 3\nenums:\n  k: {{}}\n"
    ))
    .unwrap_err();
    assert!(e.contains("in-enum can only be true"), "{e}");
}

#[test]
fn a_parameter_may_name_an_enum() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: t\n    type: tab(kind::a)\ntypes:\n  tab:\n    params:\n      - id: k\n        type: u1\n        enum: kind\nenums:\n  kind:\n    1: a\n"
    ))
    .unwrap();
    assert_eq!(
        s.ty("tab").unwrap().params[0].enum_name.as_deref(),
        Some("kind")
    );
    let e = load(&format!(
        "{HEAD}seq:\n  - id: t\n    type: tab(1)\ntypes:\n  tab:\n    params:\n      - id: k\n        type: u1\n        enum: nope\n"
    ))
    .unwrap_err();
    assert!(e.contains("param k: no enum `nope`"), "{e}");
}

#[test]
fn conditional_bit_fields_have_no_fixed_size() {
    let s = load(&format!(
        "{HEAD}seq:\n  - id: t\n    type: b1\n  - id: a\n    type: b7\n    if: t\n  - id: b\n    type: b15\n    if: not t\n  - id: c\n    type: u1\n"
    ))
    .unwrap();
    let t = &s.types[0];
    // One byte at least for the flag's, one for `c`; never the 3 of all its bits.
    assert_eq!((t.min_size, t.fixed_size), (2, None));
}
