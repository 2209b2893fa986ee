//! The generated code, docs and fuzz targets are what the specs produce (rust-analyzer's habit:
//! a test fails when regenerating would change a committed file), and the docs tables are
//! snapshots so a spec change shows up in review.

use meshspec_tests::{node_tool, root};

#[test]
fn generated_files_are_up_to_date() {
    let stale = meshspec_codegen::stale(&root()).expect("the specs load");
    assert!(
        stale.is_empty(),
        "stale generated files: {stale:?}; run `cargo run -p meshspec-codegen` and commit the result"
    );
}

#[test]
fn docs_tables_are_snapshots() {
    let dir = root().join("docs/layouts");
    let files = meshspec_tests::sorted_paths(&dir, |_| true);
    assert!(files.len() >= 2);
    for f in files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        insta::assert_snapshot!(format!("docs__{name}"), text);
    }
}

/// Every spec must stay valid Kaitai: its own compiler (kaitai-struct-compiler 0.11, run by
/// `tools/ksc-check.mjs`) compiles each to Python.
#[test]
fn kaitai_compiles_every_spec() {
    let ksy = |p: &std::path::Path| p.extension().is_some_and(|x| x == "ksy");
    let mut specs = meshspec_tests::sorted_paths(&root().join("spec"), ksy);
    // The generator's own fixtures too.
    specs.extend(meshspec_tests::sorted_paths(
        &root().join("codegen/fixtures"),
        ksy,
    ));
    let (ok, text) = node_tool("ksc-check.mjs", "kaitai-struct-compiler", &specs);
    assert!(ok, "Kaitai refused a spec:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        specs.len(),
        "{text}"
    );
}

// ---- Confidence, readings and severity (issue 9) ----

use meshspec_model::{self as model, Confidence, Severity, Spec};

fn spec(file: &str) -> Spec {
    let path = format!("spec/{file}");
    let text = std::fs::read_to_string(root().join(&path)).unwrap();
    model::load(&path, &text).unwrap()
}

/// A one-field spec with the given extra keys on its relation and on its field.
fn tiny(relation: &str, field: &str) -> Result<Spec, String> {
    let text = format!(
        "meta:\n  id: tiny\n  title: t\n  endian: le\n-relations:\n  - id: r\n    doc: d\n{relation}seq:\n  - id: a\n    type: u1\n    doc: d\n{field}"
    );
    model::load("spec/tiny.ksy", &text).map_err(|e| e.to_string())
}

#[test]
fn severity_follows_confidence() {
    assert_eq!(Severity::of(Confidence::Proven), Severity::Error);
    for c in [
        Confidence::Observed,
        Confidence::Sourced,
        Confidence::Inferred,
        Confidence::Unknown,
    ] {
        assert_eq!(Severity::of(c), Severity::Warning, "{c:?}");
    }
    let rel = |s: &Spec| s.types[0].relations[0].clone();
    // Computed from the confidence when the spec says nothing.
    let s = tiny("    -confidence: observed\n", "").unwrap();
    assert_eq!(rel(&s).severity, Severity::Warning);
    let s = tiny("    -confidence: proven\n", "").unwrap();
    assert_eq!(rel(&s).severity, Severity::Error);
    // A -severity that agrees may be written.
    let s = tiny("    -confidence: observed\n    -severity: warning\n", "").unwrap();
    assert_eq!(rel(&s).severity, Severity::Warning);
    // One that contradicts the confidence is refused, unless the spec says why.
    let e = tiny("    -confidence: proven\n    -severity: warning\n", "").unwrap_err();
    assert!(e.contains("contradicts -confidence: proven"), "{e}");
    let e = tiny("    -confidence: observed\n    -severity: error\n", "").unwrap_err();
    assert!(e.contains("-severity-reason"), "{e}");
    let s = tiny(
        "    -confidence: proven\n    -severity: warning\n    -severity-reason: a census range\n",
        "",
    )
    .unwrap();
    assert_eq!(
        (rel(&s).severity, rel(&s).severity_reason.as_deref()),
        (Severity::Warning, Some("a census range"))
    );
    // A reason for nothing is refused too.
    let e = tiny(
        "    -confidence: observed\n    -severity: warning\n    -severity-reason: why\n",
        "",
    )
    .unwrap_err();
    assert!(e.contains("what the confidence gives anyway"), "{e}");
    // A relation cannot be `unknown`.
    assert!(tiny("    -confidence: unknown\n", "").is_err());
}

#[test]
fn a_fields_own_check_has_the_severity_of_its_confidence() {
    let field = |s: &Spec| s.types[0].fields[0].clone();
    let ok = "    -confidence: proven\n";
    let s = tiny(ok, "    valid: 3\n    -confidence: observed\n").unwrap();
    assert_eq!(field(&s).check_severity, Some(Severity::Warning));
    let s = tiny(ok, "    valid: 3\n    -confidence: proven\n").unwrap();
    assert_eq!(field(&s).check_severity, Some(Severity::Error));
    let s = tiny(ok, "    -confidence: proven\n").unwrap();
    assert_eq!(field(&s).check_severity, None);
    // Structural necessity, stated.
    let s = tiny(
        ok,
        "    valid: 0\n    -confidence: unknown\n    -severity: error\n    -severity-reason: cannot read past it\n",
    )
    .unwrap();
    assert_eq!(field(&s).check_severity, Some(Severity::Error));
    assert!(tiny(
        ok,
        "    valid: 0\n    -confidence: unknown\n    -severity: error\n"
    )
    .is_err());
    // -severity on a field without a check of its own is refused.
    assert!(tiny(ok, "    -confidence: observed\n    -severity: warning\n").is_err());
    // Layout specs must give a checked field (and every relation) a confidence.
    let s = tiny(ok, "    valid: 3\n").unwrap();
    assert!(model::require_facts(&s).is_err());
    let s = tiny("", "    -confidence: proven\n").unwrap();
    assert!(model::require_facts(&s).is_err());
}

#[test]
fn a_reading_is_labelled_inferred() {
    let ok = "    -confidence: proven\n";
    let s = tiny(
        ok,
        "    -confidence: inferred\n    -reading: a u32 prefix\n",
    )
    .unwrap();
    assert_eq!(s.readings().len(), 1);
    assert_eq!(s.readings()[0].name(), "tiny.a");
    assert_eq!(s.readings()[0].text(), "a u32 prefix");
    // Unknown bytes whose place is a reading may keep `unknown`.
    assert!(tiny(
        ok,
        "    -confidence: unknown\n    -reading: after the bones\n"
    )
    .is_ok());
    let e = tiny(ok, "    -confidence: proven\n    -reading: a u32 prefix\n").unwrap_err();
    assert!(e.contains("-confidence: inferred"), "{e}");
    // A relation that rests on a reading is inferred; `unknown` is not allowed there.
    assert!(tiny("    -confidence: inferred\n    -reading: r\n", "").is_ok());
    assert!(tiny("    -confidence: observed\n    -reading: r\n", "").is_err());
}

/// The labels and rules issue 9 names, as the documents give them.
#[test]
fn labels_are_the_documents() {
    fn field<'a>(s: &'a Spec, ty: &str, id: &str) -> &'a model::Field {
        let t = s.ty(ty).unwrap_or_else(|| panic!("no type {ty}"));
        t.fields
            .iter()
            .find(|f| f.id == id)
            .unwrap_or_else(|| panic!("no field {ty}.{id}"))
    }
    fn relation<'a>(s: &'a Spec, ty: &str, id: &str) -> &'a model::Relation {
        let t = s.ty(ty).unwrap_or_else(|| panic!("no type {ty}"));
        t.relations
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("no relation {ty}.{id}"))
    }
    fn value(s: &Spec, en: &str, v: i128) -> Option<Confidence> {
        let e = s.enum_def(en).unwrap();
        e.items.iter().find(|i| i.value == v).unwrap().confidence
    }
    use Confidence::*;

    let rr = spec("rr_mesh.ksy");
    // Every length prefix's width is a reading.
    for t in ["ranged_layout", "inline_layout"] {
        let lens: Vec<_> = rr
            .ty(t)
            .unwrap()
            .fields
            .iter()
            .filter(|f| f.id.starts_with("len_"))
            .collect();
        assert!(lens.len() >= 4, "{t}");
        for f in lens {
            assert_eq!(f.confidence, Some(Inferred), "{t}.{}", f.id);
            assert!(f.reading.is_some(), "{t}.{}", f.id);
        }
    }
    let marker = field(&rr, "ranged_layout", "mesh_data_marker");
    assert_eq!(
        (marker.confidence, marker.check_severity),
        (Some(Inferred), Some(Severity::Warning))
    );
    assert_eq!(
        relation(&rr, "ranged_layout", "format_strides").severity,
        Severity::Error
    );
    assert_eq!(
        relation(&rr, "ranged_layout", "static_format_strides").confidence,
        Some(Observed)
    );
    for (v, c) in [
        (0, Proven),
        (1, Proven),
        (2, Observed),
        (3, Observed),
        (11, Observed),
    ] {
        assert_eq!(value(&rr, "vertex_format", v), Some(c), "vertex_format {v}");
    }
    for (t, r) in [
        ("ranged_layout", "indices_relative_to_vertex_base"),
        ("inline_layout", "indices_absolute"),
        ("ranged_layout", "cpu_runs_copy_buffers"),
    ] {
        let r = relation(&rr, t, r);
        assert_eq!(
            (r.confidence, r.severity),
            (Some(Inferred), Severity::Warning)
        );
        assert!(r.reading.is_some());
    }
    for r in [
        "single_range_bounds",
        "primitive_desc_index_count",
        "primitive_desc_first_index",
        "descriptor_final_bytes",
    ] {
        assert_eq!(
            relation(&rr, "ranged_layout", r).severity,
            Severity::Warning,
            "{r}"
        );
    }
    assert_eq!(
        relation(&rr, "ranged_layout", "final_runs_empty_when_split").severity,
        Severity::Error
    );

    let sws = spec("sws_mesh.ksy");
    let r = relation(&sws, "submesh", "indices_name_vertices");
    assert_eq!(
        (r.confidence, r.severity),
        (Some(Inferred), Severity::Warning)
    );
    assert_eq!(
        relation(&sws, "sws_mesh", "palette_bones_exist").severity,
        Severity::Warning
    );
    for (t, r) in [
        ("compiled_mesh", "second_partition_not_larger"),
        ("submesh", "no_morphs_on_copy"),
        ("morph_channel", "id_not_zero"),
        ("sws_mesh", "submesh_matches_its_range"),
        ("sws_mesh", "palettes_empty_without_bones"),
    ] {
        let r = relation(&sws, t, r);
        assert_eq!((r.confidence, r.severity), (Some(Proven), Severity::Error));
    }
    for r in ["uv_channels_census", "morph_channels_census"] {
        let r = relation(&sws, "submesh", r);
        assert_eq!(
            (r.confidence, r.severity),
            (Some(Proven), Severity::Warning)
        );
        assert!(r
            .severity_reason
            .as_deref()
            .unwrap()
            .starts_with("a census range"));
    }
    assert_eq!(
        field(&sws, "palette", "num_bones").check_severity,
        Some(Severity::Warning)
    );

    let unity = spec("unity_mesh.ksy");
    assert_eq!(
        field(&unity, "vertex_data", "channels").confidence,
        Some(Sourced)
    );
    for f in ["num_items", "range", "start", "data", "bit_size"] {
        assert_eq!(
            field(&unity, "packed_float_vector", f).confidence,
            Some(Sourced),
            "{f}"
        );
    }
    // The format table's own word per row.
    for (v, c) in [
        (0, Observed),
        (1, Observed),
        (2, Observed),
        (3, Sourced),
        (4, Observed),
        (5, Observed),
        (6, Observed),
        (7, Sourced),
        (8, Observed),
        (9, Sourced),
        (10, Observed),
        (11, Sourced),
    ] {
        assert_eq!(
            value(&unity, "vertex_format", v),
            Some(c),
            "vertex_format {v}"
        );
    }
    for r in ["variable_weights_sorted", "variable_weights_sum_to_one"] {
        assert_eq!(
            relation(&unity, "unity_mesh", r).severity,
            Severity::Warning
        );
    }
}

/// Each docs page begins with its summary: the counts, the rules and the readings.
#[test]
fn docs_pages_start_with_a_summary() {
    for family in ["meshbin", "sws_mesh", "rr_mesh", "unity_mesh"] {
        let text =
            std::fs::read_to_string(root().join(format!("docs/layouts/{family}.md"))).unwrap();
        let summary = text.find("## Summary").expect(family);
        let first_type = text.find(&format!("## {family}\n")).expect(family);
        assert!(summary < first_type, "{family}");
        let s = spec(&format!("{family}.ksy"));
        let relations: usize = s.types.iter().map(|t| t.relations.len()).sum();
        let fields: usize = s.types.iter().map(|t| t.fields.len()).sum();
        let total = format!("| **total** | {fields} | ");
        assert!(text.contains(&total), "{family}: {total}");
        assert!(
            text[..first_type].contains(&format!("| {relations} |\n")),
            "{family}"
        );
        for r in s.readings() {
            assert!(
                text[..first_type].contains(&format!("`{}`", r.name())),
                "{family}: {}",
                r.name()
            );
        }
    }
}
