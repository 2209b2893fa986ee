//! `meshspec-codegen [--check] [--root DIR]`: writes the generated files from `spec/*.ksy`, or with
//! `--check` writes nothing and exits 1 when any generated file is stale.

use meshspec_codegen::{default_root, differing, outputs};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let root = args
        .iter()
        .position(|a| a == "--root")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(default_root);
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage: meshspec-codegen [--check] [--root DIR]\n\nWrites formats/src/generated/, docs/layouts/ and fuzz/ from spec/*.ksy.\nWith --check, writes nothing and exits 1 when a generated file is stale.");
        return ExitCode::SUCCESS;
    }
    let out = match outputs(&root) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stale = differing(&root, &out);
    if !check {
        for rel in &stale {
            let path = root.join(rel);
            // A file no spec produces any more is removed.
            let Some(text) = out.get(rel) else {
                let _ = std::fs::remove_file(&path);
                continue;
            };
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: {}: {e}", rel.display());
                return ExitCode::from(2);
            }
        }
    }
    if check {
        if stale.is_empty() {
            println!("generated files are up to date ({} files)", out.len());
            ExitCode::SUCCESS
        } else {
            for s in &stale {
                eprintln!("stale: {}", s.display());
            }
            eprintln!("run `cargo run -p meshspec-codegen` and commit the result");
            ExitCode::FAILURE
        }
    } else {
        for s in &stale {
            println!("wrote {}", s.display());
        }
        println!("{} generated files, {} changed", out.len(), stale.len());
        ExitCode::SUCCESS
    }
}
