//! One cargo-fuzz target per layout, and the fuzz crate's manifest that lists them.

use crate::expr::{BinOp, Expr};
use crate::model::{FieldType, Repeat, Size, Spec, Valid};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Every integer that an expression compares the name `param` with (`param >= 20200100`,
/// `4 == param`), searched through every subexpression.
fn compared_with(e: &Expr, param: &str, out: &mut BTreeSet<i128>) {
    match e {
        Expr::Binary(op, a, b) => {
            if matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            ) {
                match (&**a, &**b) {
                    (Expr::Name(n), Expr::Int { value, .. })
                    | (Expr::Int { value, .. }, Expr::Name(n))
                        if n == param =>
                    {
                        out.insert(*value);
                    }
                    _ => {}
                }
            }
            compared_with(a, param, out);
            compared_with(b, param, out);
        }
        Expr::Unary(_, a) | Expr::Attr(a, _) => compared_with(a, param, out),
        Expr::Cond(c, a, b) => {
            compared_with(c, param, out);
            compared_with(a, param, out);
            compared_with(b, param, out);
        }
        Expr::Int { .. } | Expr::Bool(_) | Expr::Name(_) | Expr::EnumVal(..) => {}
    }
}

/// The values of a layout parameter worth fuzzing with: 0, and every cut-off (see [`cut_offs`])
/// with its two neighbours, so that both sides of every cut-off are reached. Only values the
/// parameter's type can hold (`max`) are kept.
pub fn param_values(spec: &Spec, param: &str, max: u128) -> Vec<i128> {
    let mut values = BTreeSet::from([0i128]);
    for c in cut_offs(spec, param) {
        values.extend([c - 1, c, c + 1]);
    }
    values
        .into_iter()
        .filter(|&v| v >= 0 && (v as u128) <= max)
        .collect()
}

/// Every integer that a type of the spec with a parameter named `param` compares it with: the
/// values at which the layout changes (`if: unity_version >= 20200100`), in order.
pub fn cut_offs(spec: &Spec, param: &str) -> BTreeSet<i128> {
    let mut found = BTreeSet::new();
    for t in &spec.types {
        if !t.params.iter().any(|p| p.id == param) {
            continue;
        }
        let mut exprs: Vec<&Expr> = vec![];
        for f in &t.fields {
            exprs.extend(f.cond.iter());
            exprs.extend(f.offset.iter());
            exprs.extend(f.derive.iter());
            if let Repeat::Expr(e) = &f.repeat {
                exprs.push(e);
            }
            match &f.valid {
                Some(Valid::Eq(e) | Valid::Expr(e)) => exprs.push(e),
                Some(Valid::Range { min, max }) => exprs.extend(min.iter().chain(max.iter())),
                Some(Valid::AnyOf(v)) => exprs.extend(v.iter()),
                None => {}
            }
            match &f.ty {
                FieldType::User(r) => exprs.extend(r.args.iter()),
                FieldType::Bytes(Size::Expr(e))
                | FieldType::Str {
                    size: Size::Expr(e),
                    ..
                } => exprs.push(e),
                FieldType::SizedUser { r#ref, size } => {
                    exprs.extend(r#ref.args.iter());
                    if let Size::Expr(e) = size {
                        exprs.push(e);
                    }
                }
                FieldType::Switch { on, cases } => {
                    exprs.push(on);
                    for (k, r) in cases {
                        exprs.push(k);
                        exprs.extend(r.args.iter());
                    }
                }
                _ => {}
            }
        }
        for e in exprs {
            compared_with(e, param, &mut found);
        }
    }
    found
}

pub fn target_name(layout: &str) -> String {
    layout.replace('-', "_")
}

/// The three properties every layout is fuzzed for, one target each.
const KINDS: &[(&str, &str)] = &[
    (
        "",
        "the fast properties: any input the reader accepts is consumed exactly, written back\n//! identically, with the reader's positions; every error lies inside the input",
    ),
    (
        "_deep",
        "the deep properties: an accepted input survives a dump and a build with the same\n//! verdict, and one that passes decodes into a consistent mesh",
    ),
    (
        "_written",
        "the writer's half: any value the writer accepts reads back to the same bytes; a value\n//! it refuses is refused at a field",
    ),
];

/// The literal of the parameter choices a target passes (`&[("unity_version", &[0, ...])]`).
fn params_code(s: &Spec, t: &crate::model::Type) -> String {
    let lists: Vec<String> = t
        .params
        .iter()
        .map(|p| {
            let name = p.context.as_deref().unwrap_or(&p.id);
            let values = param_values(s, &p.id, p.prim.max())
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            format!("({name:?}, &[{values}])")
        })
        .collect();
    format!("&[{}]", lists.join(", "))
}

/// A libFuzzer dictionary: every constant the spec states (magics, `valid` values, enum values)
/// as the bytes a file holds them in, so mutations reach past them.
fn dictionary(s: &Spec) -> String {
    let mut words: BTreeSet<Vec<u8>> = BTreeSet::new();
    let enc = |v: i128, p: crate::model::Prim| -> Vec<u8> {
        let n = usize::from(p.bytes);
        let mut b = (v as u128).to_le_bytes()[..n].to_vec();
        if p.endian.unwrap_or(s.endian) == crate::model::Endian::Be {
            b.reverse();
        }
        b
    };
    for t in &s.types {
        for f in &t.fields {
            match (&f.ty, &f.valid) {
                (FieldType::Contents(c), _) => {
                    words.insert(c.clone());
                }
                (FieldType::Prim(p), Some(v)) if p.kind != crate::model::PrimKind::F => {
                    let vals: Vec<&Expr> = match v {
                        Valid::Eq(e) => vec![e],
                        Valid::AnyOf(es) => es.iter().collect(),
                        Valid::Range { min, max } => min.iter().chain(max.iter()).collect(),
                        Valid::Expr(_) => vec![],
                    };
                    for e in vals {
                        if let Some(v) = e.literal() {
                            words.insert(enc(v, *p));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    for e in &s.enums {
        if let Some(p) = e.prim {
            for (v, _, _) in &e.values {
                words.insert(enc(*v, p));
            }
        }
    }
    let mut out = format!(
        "# Generated by `cargo run -p meshspec-codegen` from {}. Do not edit by hand.\n# Every constant the spec states, as stored.\n",
        s.file
    );
    for w in words
        .iter()
        .filter(|w| w.iter().any(|&b| b != 0) || w.len() > 1)
    {
        let hex: String = w.iter().map(|b| format!("\\x{b:02X}")).collect();
        let _ = writeln!(out, "\"{hex}\"");
    }
    out
}

pub fn outputs(specs: &[Spec]) -> Vec<(PathBuf, String)> {
    let mut out = vec![];
    let mut manifest = String::from(
        "# Generated by `cargo run -p meshspec-codegen` from spec/*.ksy. Do not edit by hand.\n\
         [package]\nname = \"meshspec-fuzz\"\nversion = \"0.0.0\"\npublish = false\nedition = \"2021\"\n\n\
         [package.metadata]\ncargo-fuzz = true\n\n\
         [dependencies]\nlibfuzzer-sys = \"0.4.13\"\nmeshspec-formats = { path = \"../formats\", features = [\"arbitrary\"] }\n\n\
         # Its own workspace, so the main build never needs libFuzzer.\n[workspace]\nmembers = [\".\"]\n\n\
         [profile.release]\ndebug = 1\n",
    );
    let mut list = String::from(
        "# Generated by `cargo run -p meshspec-codegen` from spec/*.ksy. Do not edit by hand.\n# target, layout (the corpus files it is seeded with: corpus/*/*.LAYOUT), dictionary\n",
    );
    let mut entry_points = String::from(
        "// Generated by `cargo run -p meshspec-codegen` from spec/*.ksy. Do not edit by hand.\n\
         //! One function per fuzz target (`fuzz/fuzz_targets/`), the property instantiated here.\n",
    );
    let mut target_fns: Vec<(String, String)> = vec![];
    for s in specs {
        let mut any = false;
        for t in &s.types {
            let Some(layout) = &t.layout else { continue };
            any = true;
            let base = target_name(layout);
            let params = params_code(s, t);
            let ty = format!("crate::generated::{}::{}", s.id, t.rust);
            for (suffix, what) in KINDS {
                let name = format!("{base}{suffix}");
                // The property is instantiated once, in the formats crate (fuzzing/targets.rs):
                // each target is a thin call, so the 48 targets build in minutes, not each
                // compiling every reader again.
                let property = match *suffix {
                    "" => format!("crate::fuzzing::fast_with_params::<{ty}>(data, {params});"),
                    "_deep" => {
                        format!("crate::fuzzing::roundtrip_with_params::<{ty}>(data, {params});")
                    }
                    _ => format!(
                        "let u = arbitrary::Unstructured::new(data);\n    let Ok((choice, value)) = <(u8, {ty}) as arbitrary::Arbitrary>::arbitrary_take_rest(u) else {{\n        return;\n    }};\n    crate::fuzzing::written_with_params::<{ty}>(&value, choice, {params});"
                    ),
                };
                let _ = write!(
                    entry_points,
                    "\n/// `{name}`: {}.\npub fn {name}(data: &[u8]) {{\n    {property}\n}}\n",
                    what.replace("\n//! ", " ")
                );
                target_fns.push((name.clone(), name.clone()));
                let body = format!(
                    "libfuzzer_sys::fuzz_target!(|data: &[u8]| {{\n    meshspec_formats::fuzzing::targets::{name}(data);\n}});\n"
                );
                let code = format!(
                    "// Generated by `cargo run -p meshspec-codegen` from {}. Do not edit by hand.\n\
                     //! `{layout}`: {what}.\n\
                     #![no_main]\n\n{body}",
                    s.file
                );
                out.push((PathBuf::from(format!("fuzz/fuzz_targets/{name}.rs")), code));
                let _ = writeln!(list, "{name} {layout} dict/{}.dict", s.id);
                let _ = write!(
                    manifest,
                    "\n[[bin]]\nname = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"\ntest = false\ndoc = false\nbench = false\n"
                );
            }
        }
        if any {
            out.push((
                PathBuf::from(format!("fuzz/dict/{}.dict", s.id)),
                dictionary(s),
            ));
        }
    }
    // Targets written by hand (they drive more than one layout): listed, never generated.
    for (name, _, _, _, path) in HAND_WRITTEN {
        target_fns.push((name.to_string(), path.to_string()));
    }
    for (name, layout, dict, _, _) in HAND_WRITTEN {
        let _ = write!(
            manifest,
            "\n[[bin]]\nname = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"\ntest = false\ndoc = false\nbench = false\n"
        );
        let _ = writeln!(list, "{name} {layout} {dict}");
    }
    // Every target by name, so a test can replay the inputs a campaign found
    // (`tests/regressions/fuzz/TARGET/`) exactly as the target runs them.
    let _ = write!(
        entry_points,
        "\n/// A target's function: the property, on one input.\npub type Target = fn(&[u8]);\n\n/// Every target by name (those written by hand too).\npub static TARGETS: &[(&str, Target)] = &[\n{}];\n",
        target_fns
            .iter()
            .map(|(name, path)| format!("    ({name:?}, {path}),\n"))
            .collect::<String>()
    );
    out.push((
        PathBuf::from("formats/src/fuzzing/targets.rs"),
        entry_points,
    ));
    out.push((PathBuf::from("fuzz/Cargo.toml"), manifest));
    out.push((PathBuf::from("fuzz/targets.txt"), list));
    out
}

/// Fuzz targets written by hand in `fuzz/fuzz_targets/`: name, the corpus files they are seeded
/// with (by extension), their dictionary, what they drive, and the library function they call.
pub const HAND_WRITTEN: &[(&str, &str, &str, &str, &str)] = &[(
    "unity_game_file",
    "unity-bundle",
    "dict/unity_bundle.dict",
    "a Unity game file (bundle or serialized file) opened whole: decompression, type trees, objects and meshes",
    "crate::fuzzing::game_file",
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_values_reach_both_sides_of_every_cut_off() {
        let yaml = r#"
meta:
  id: demo
  title: A demo
  endian: le
  -layout: demo
params:
  - id: ver
    type: u2
    -context: ver
seq:
  - id: a
    type: u1
    if: ver >= 300
  - id: b
    type: part(ver)
  - id: c
    size: 'ver < 2 ? 1 : 2'
types:
  part:
    params:
      - id: ver
        type: u2
    seq:
      - id: d
        type: u1
        if: 65535 == ver or ver > 70000
"#;
        let spec = crate::model::load("spec/demo.ksy", yaml).unwrap();
        assert_eq!(
            param_values(&spec, "ver", u16::MAX.into()),
            vec![0, 1, 2, 3, 299, 300, 301, 65534, 65535]
        );
        let out = outputs(&[spec]);
        let file = |name: &str| {
            &out.iter()
                .find(|(p, _)| p.ends_with(name))
                .unwrap_or_else(|| panic!("no {name}"))
                .1
        };
        // The target is a thin call; the property with its parameter choices is instantiated
        // in the formats crate.
        let target = file("fuzz_targets/demo.rs");
        assert!(
            target.contains("meshspec_formats::fuzzing::targets::demo(data);"),
            "{target}"
        );
        let entry_points = file("formats/src/fuzzing/targets.rs");
        assert!(entry_points.contains(
            "fast_with_params::<crate::generated::demo::Demo>(data, &[(\"ver\", &[0, 1, 2, 3, 299, 300, 301, 65534, 65535])]);"
        ), "{entry_points}");
        assert!(out
            .iter()
            .any(|(p, _)| p.ends_with("fuzz_targets/demo_deep.rs")));
        assert!(out
            .iter()
            .any(|(p, _)| p.ends_with("fuzz_targets/demo_written.rs")));
    }
}
