//! The peers' parsers, made at build time into OUT_DIR: Kaitai's compiler (tools/node_modules)
//! compiles spec/meshbin.ksy and the gallery's media/stl.ksy (../shared/kaitai) to Rust, and
//! meshspec's generator compiles the same stl.ksy to Rust on meshspec's runtime.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Kaitai's compiler run on `spec`, its Rust written into `out`.
fn kaitai(tools: &Path, spec: &Path, out: &Path) {
    println!("cargo:rerun-if-changed={}", spec.display());
    let script = format!(
        "const ksc = require({tools:?} + '/kaitai-struct-compiler');\
         const yaml = require({tools:?} + '/js-yaml');\
         const fs = require('fs');\
         (async () => {{\
           const files = await ksc.compile('rust', yaml.load(fs.readFileSync({spec:?}, 'utf8')), null, false);\
           for (const [name, text] of Object.entries(files)) fs.writeFileSync({out:?} + '/' + name, text);\
         }})();",
        tools = tools.display().to_string(),
        spec = spec.display().to_string(),
        out = out.display().to_string(),
    );
    let ok = Command::new("node")
        .arg("-e")
        .arg(script)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "Kaitai's compiler did not run: `npm ci --prefix tools` first (node is needed)"
    );
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let tools = root.join("tools/node_modules");
    let stl = root.join("../shared/kaitai/gallery/media/stl.ksy");
    kaitai(&tools, &root.join("spec/meshbin.ksy"), &out);
    kaitai(&tools, &stl, &out);
    // meshspec's generated reader of the same gallery spec, in a folder of its own (its file
    // is stl.rs too).
    let ours = out.join("meshspec");
    std::fs::create_dir_all(&ours).unwrap();
    let specs = meshspec_codegen::load_specs(&[stl.display().to_string()]).unwrap();
    for (name, code) in meshspec_codegen::crate_outputs(&specs).unwrap() {
        std::fs::write(ours.join(name), code).unwrap();
    }
    // The generated files start with inner attributes, so each is a module of its own, not an
    // `include!`.
    let module = |name: &str, file: PathBuf| {
        format!(
            "#[path = {:?}]\npub mod {name};\n",
            file.display().to_string()
        )
    };
    std::fs::write(
        out.join("modules.rs"),
        [
            module("meshbin", out.join("meshbin.rs")),
            module("stl", out.join("stl.rs")),
            module("meshspec_stl", ours.join("stl.rs")),
        ]
        .concat(),
    )
    .unwrap();
}
