//! Every corpus file with geometry exports to a .glb that Khronos' glTF-Validator accepts with no
//! errors (run through `tools/gltf-validate.mjs`).

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::find;
use meshspec_tests::{samples, validate_gltf};

#[test]
fn every_export_passes_gltf_validator() {
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
    validate_gltf(&files);
}
