//! What the export, rest-pose and import tests share: every exportable corpus scene (the
//! repository's and the shared Unity meshes), the findings' inputs, and glTF-Validator held to
//! no errors and no warnings.

#![allow(dead_code)]

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::scene::Scene;
use meshspec_formats::{find, Entry};
use meshspec_tests::{node_tool, samples};
use std::path::{Path, PathBuf};

/// One exportable input and its scene, labelled as the command line labels it.
pub struct Input {
    /// `family/file` or `unity/VERSION/file`.
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// Its layout.
    pub entry: &'static Entry,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// How it was read.
    pub ctx: Context,
    /// The decoded scene.
    pub scene: Scene,
}

pub use meshspec_tests::shared_or_skip;

/// A Unity mesh read as `version`, resource file beside it or given.
pub fn unity(path: &Path, version: &str, ress: Option<&Path>) -> Input {
    let entry = find("unity-mesh").unwrap();
    let bytes = std::fs::read(path).unwrap();
    let mut ctx = Context::new().with_unity_version(version).unwrap();
    ctx.input = Some(path.to_path_buf());
    ctx.resource = ress.map(Path::to_path_buf);
    let mut scene = entry
        .scene(&bytes, &ctx)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    scene.label(entry.id, &stem);
    Input {
        name: format!(
            "unity/{version}/{}",
            path.file_name().unwrap().to_string_lossy()
        ),
        path: path.to_path_buf(),
        entry,
        bytes,
        ctx,
        scene,
    }
}

/// Every repository corpus file with geometry.
pub fn repo_inputs() -> Vec<Input> {
    let mut out = vec![];
    for s in samples().iter().filter(|s| !s.bad) {
        let entry = find(&s.layout).unwrap();
        let ctx = Context::new().with_winding(Winding::D3d);
        let bytes = std::fs::read(&s.path).unwrap();
        let Ok(mut scene) = entry.scene(&bytes, &ctx) else {
            continue; // layouts whose geometry is not established say so in their own tests
        };
        let stem = s.path.file_stem().unwrap().to_string_lossy().to_string();
        scene.label(entry.id, &stem);
        out.push(Input {
            name: s.snapshot_name(),
            path: s.path.clone(),
            entry,
            bytes,
            ctx,
            scene,
        });
    }
    out
}

/// Every Mesh object of the shared Unity corpus (35), or none when it is missing (said).
pub fn unity_inputs(test: &str) -> Vec<Input> {
    let Some(shared) = shared_or_skip(test) else {
        return vec![];
    };
    let out: Vec<Input> = meshspec_tests::unity_mesh_files(&shared, ".mesh")
        .iter()
        .map(|(version, f)| unity(f, version, None))
        .collect();
    assert_eq!(out.len(), 35, "every Mesh object of the shared corpus");
    out
}

/// A fresh folder in the running test's own temporary folder.
pub fn temp(test: &str) -> PathBuf {
    meshspec_tests::tools::scratch_dir(test)
}

/// Runs Khronos' glTF-Validator over `files` and asserts that each has no error and no warning.
pub fn validate_strict(files: &[PathBuf]) {
    assert!(!files.is_empty());
    let (ok, text) = node_tool("gltf-validate.mjs", "gltf-validator", files);
    assert!(ok, "glTF-Validator found errors:\n{text}");
    let clean = text
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with(": 0 errors, 0 warnings"))
        .count();
    assert_eq!(clean, files.len(), "errors or warnings:\n{text}");
}

/// What glTF-Validator says of `files`: its output, and whether every one had no error.
pub fn validator_output(files: &[PathBuf]) -> (bool, String) {
    node_tool("gltf-validate.mjs", "gltf-validator", files)
}
