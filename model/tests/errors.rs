//! A bad spec gets one clear error: the file, the line and column of what is wrong, the key or
//! field, what was expected. Names an expression cannot see are refused when the spec loads.

fn err(text: &str) -> String {
    meshspec_model::load("spec/x.ksy", text)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

const HEAD: &str = "meta:\n  id: x\n  title: t\n  endian: le\n";

#[test]
fn a_key_outside_the_subset_is_refused_where_it_is_written() {
    let e = err(&format!(
        "{HEAD}seq:\n  - id: a\n    type: u1\n    sizee: 3\n"
    ));
    assert!(
        e.starts_with("spec/x.ksy:8:5: x.a: key `sizee` is not in the subset"),
        "{e}"
    );
}

#[test]
fn a_type_that_is_not_there_is_refused_at_its_field() {
    let e = err(&format!("{HEAD}seq:\n  - id: a\n    type: nothing\n"));
    assert_eq!(e, "spec/x.ksy:6:5: x.a: no type `nothing`");
}

#[test]
fn names_an_expression_cannot_see_are_refused_when_the_spec_loads() {
    let field = |extra: &str| {
        err(&format!(
            "{HEAD}seq:\n  - id: n\n    type: u1\n  - id: a\n    type: u1\n{extra}"
        ))
    };
    // `_parent` and `_root` are Kaitai's: known when a value is read, so the model takes them
    // (the generator refuses them where it cannot say them, the interpreter reads them).
    for e in ["_parent.n > 0", "_root.n > 0"] {
        meshspec_model::load(
            "spec/x.ksy",
            &format!("{HEAD}seq:\n  - id: n\n    type: u1\n  - id: a\n    type: u1\n    if: {e}\n"),
        )
        .unwrap();
    }
    let e = field("    if: nothere > 0\n");
    assert!(
        e.contains("`nothere` is not a field, parameter or instance of `x`"),
        "{e}"
    );
    let e = field("    if: a > 0\n");
    assert!(e.contains("`a` is read after this expression"), "{e}");
    let e = field("    if: n == kind::nope\n");
    assert!(e.contains("no enum `kind`"), "{e}");
    let e = field("    repeat: expr\n    repeat-expr: _ + 1\n");
    assert!(e.contains("`_` is only defined inside valid"), "{e}");
    // `_` inside valid, and earlier fields, are fine.
    meshspec_model::load(
        "spec/x.ksy",
        &format!("{HEAD}seq:\n  - id: n\n    type: u1\n  - id: a\n    type: u1\n    valid:\n      expr: _ < n\n"),
    )
    .unwrap();
}

#[test]
fn a_member_of_a_nested_value_must_be_a_field_of_its_type() {
    let e = err(&format!(
        "{HEAD}seq:\n  - id: h\n    type: head\n  - id: body\n    size: h.len_bodyy\ntypes:\n  head:\n    seq:\n      - id: len_body\n        type: u1\n"
    ));
    assert!(
        e.contains("`h.len_bodyy`: `head` has no field or instance `len_bodyy`"),
        "{e}"
    );
    // An instance of the nested value's type is one of its members (Kaitai's
    // `header.len_body`), a value instance or one read from the bytes.
    for inst in [
        "        value: n + 1
",
        "        pos: 0
        type: u1
",
    ] {
        meshspec_model::load(
            "spec/x.ksy",
            &format!(
                "{HEAD}seq:\n  - id: h\n    type: head\n  - id: body\n    size: h.len_body\ntypes:\n  head:\n    seq:\n      - id: n\n        type: u1\n    instances:\n      len_body:\n{inst}"
            ),
        )
        .unwrap();
    }
}

#[test]
fn yaml_that_does_not_parse_says_where() {
    let e = err("meta:\n  id: x\n  title: [t\n");
    assert!(e.starts_with("spec/x.ksy:4:"), "{e}");
    assert!(e.contains("not valid YAML"), "{e}");
    let e = err("meta:\n  id: x\n  id: y\n");
    assert!(
        e.starts_with("spec/x.ksy:3:3: not valid YAML: key `id` given twice (first at line 2)"),
        "{e}"
    );
}

#[test]
fn a_wrong_kind_of_value_names_what_was_found() {
    let e = err(&format!("{HEAD}seq:\n  - id: a\n    type: [u1]\n"));
    assert_eq!(e, "spec/x.ksy:7:11: type must be text, found a list");
    let e = err(&format!("{HEAD}seq: 3\n"));
    assert_eq!(e, "spec/x.ksy:5:6: seq must be a list, found the number 3");
}

/// A layout with the parameter line `param` (and a field that uses it).
fn with_param(param: &str) -> String {
    format!(
        "meta:\n  id: demo\n  title: A demo\n  endian: le\n  -layout: demo\nparams:\n  - id: ver\n    type: u1\n    -context: ver\n  - id: editor\n    type: u1\n{param}\nseq:\n  - id: a\n    type: u1\n    if: editor != 0\n"
    )
}

#[test]
fn a_layout_parameter_may_take_a_default() {
    let s = meshspec_model::load(
        "spec/demo.ksy",
        &with_param("    -context: editor\n    -default: 0"),
    )
    .unwrap();
    let p = &s.types[0].params;
    assert_eq!((p[0].default, p[1].default), (None, Some(0)));
    // Only a layout's parameters (those a user gives) take one, within their type.
    let e = meshspec_model::load("spec/demo.ksy", &with_param("    -default: 0"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("-default is for a layout's parameters"), "{e}");
    let e = meshspec_model::load(
        "spec/demo.ksy",
        &with_param("    -context: editor\n    -default: 256"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with(
            "spec/demo.ksy:13:15: demo: param editor: -default must be an integer a u1 holds"
        ),
        "{e}"
    );
}
