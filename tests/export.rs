//! Every corpus file with geometry exports to a .glb that Khronos' glTF-Validator accepts with no
//! errors (run through `tools/gltf-validate.mjs`).

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::find;
use meshspec_tests::{root, samples};
use std::process::Command;

#[test]
fn every_export_passes_gltf_validator() {
    let tools = root().join("tools");
    assert!(
        tools.join("node_modules/gltf-validator").is_dir(),
        "MISSING: tools/node_modules; run `npm ci --prefix tools` (node and npm are needed)"
    );
    let dir = std::env::temp_dir().join(format!("meshspec-glb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![];
    for s in samples().iter().filter(|s| !s.bad) {
        let entry = find(&s.layout).unwrap();
        let ctx = Context::new().with_winding(Winding::D3d);
        let bytes = std::fs::read(&s.path).unwrap();
        let Ok(scene) = entry.scene(&bytes, &ctx) else {
            continue; // layouts whose geometry is not established say so in their own tests
        };
        let out =
            glb(&scene, NonFinite::Refuse).unwrap_or_else(|e| panic!("{}: {e}", s.path.display()));
        let path = dir.join(format!("{}.glb", s.snapshot_name()));
        std::fs::write(&path, &out.bytes).unwrap();
        files.push(path);
    }
    assert!(files.len() >= 6, "only {} exports", files.len());
    let out = Command::new("node")
        .arg(tools.join("gltf-validate.mjs"))
        .args(&files)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "glTF-Validator found errors:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        files.len(),
        "{text}"
    );
}
