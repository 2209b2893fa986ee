//! The generated code, docs and fuzz targets are what the specs produce (rust-analyzer's habit:
//! a test fails when regenerating would change a committed file), and the docs tables are
//! snapshots so a spec change shows up in review.

use meshspec_tests::root;
use std::process::Command;

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
    let tools = root().join("tools");
    assert!(
        tools.join("node_modules/kaitai-struct-compiler").is_dir(),
        "MISSING: tools/node_modules; run `npm ci --prefix tools` (node and npm are needed)"
    );
    let mut specs: Vec<String> = std::fs::read_dir(root().join("spec"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
        .map(|p| p.display().to_string())
        .collect();
    specs.push(
        root()
            .join("codegen/fixtures/features.ksy")
            .display()
            .to_string(),
    );
    let out = Command::new("node")
        .arg(tools.join("ksc-check.mjs"))
        .args(&specs)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "Kaitai refused a spec:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        specs.len(),
        "{text}"
    );
}
