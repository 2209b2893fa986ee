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
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
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
    let mut specs: Vec<std::path::PathBuf> = std::fs::read_dir(root().join("spec"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
        .collect();
    // The generator's own fixtures too.
    specs.extend(
        std::fs::read_dir(root().join("codegen/fixtures"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ksy")),
    );
    let (ok, text) = node_tool("ksc-check.mjs", "kaitai-struct-compiler", &specs);
    assert!(ok, "Kaitai refused a spec:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        specs.len(),
        "{text}"
    );
}
