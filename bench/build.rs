//! Compiles spec/meshbin.ksy with Kaitai's compiler (tools/node_modules) to Rust, into OUT_DIR.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=../spec/meshbin.ksy");
    let script = format!(
        "const ksc = require({tools:?} + '/kaitai-struct-compiler');\
         const yaml = require({tools:?} + '/js-yaml');\
         const fs = require('fs');\
         (async () => {{\
           const files = await ksc.compile('rust', yaml.load(fs.readFileSync({spec:?}, 'utf8')), null, false);\
           for (const [name, text] of Object.entries(files)) fs.writeFileSync({out:?} + '/' + name, text);\
         }})();",
        tools = root.join("tools/node_modules").display().to_string(),
        spec = root.join("spec/meshbin.ksy").display().to_string(),
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
    // The generated file starts with inner attributes, so it is a module of its own, not an
    // `include!`.
    std::fs::write(
        out.join("modules.rs"),
        format!(
            "#[path = {:?}]\npub mod meshbin;\n",
            out.join("meshbin.rs").display().to_string()
        ),
    )
    .unwrap();
}
