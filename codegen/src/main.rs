//! `meshspec-codegen [--check] [--root DIR]`: writes the generated files from `spec/*.ksy`, or with
//! `--check` writes nothing and exits 1 when any generated file is stale.
//!
//! `meshspec-codegen SPEC.ksy [SPEC.ksy ...] --out DIR [--check]`: writes Rust for a user's own
//! crate, `DIR/<id>.rs` per spec and `DIR/mod.rs`, standing on `meshspec-runtime` alone.

use meshspec_codegen::{crate_outputs, default_root, differing, load_specs, outputs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage: meshspec-codegen [--check] [--root DIR]
       meshspec-codegen SPEC.ksy [SPEC.ksy ...] --out DIR [--check]

The first form writes the project's generated files (formats/src/generated/, docs/layouts/,
fuzz/) from spec/*.ksy under DIR (default: the repository it was built in).

The second writes Rust for a crate of your own: DIR/<id>.rs for each spec (its meta.id) and
DIR/mod.rs declaring them. The code names only the meshspec-runtime crate, the one dependency
the crate needs (`mod <dir>;` in the crate, then `<dir>::<id>::<Type>`). Nothing is written
outside DIR.

With --check, nothing is written; the exit code is 1 when a file would change.
Exit codes: 0 done or up to date, 1 stale (--check), 2 a bad spec, argument or file.";

/// What the command line asks for.
struct Args {
    check: bool,
    root: Option<PathBuf>,
    out: Option<PathBuf>,
    specs: Vec<String>,
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args {
        check: false,
        root: None,
        out: None,
        specs: vec![],
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--check" => a.check = true,
            "--root" | "--out" => {
                let v = it
                    .next()
                    .ok_or_else(|| format!("{arg} needs a folder after it"))?;
                let slot = if arg == "--root" {
                    &mut a.root
                } else {
                    &mut a.out
                };
                if slot.replace(PathBuf::from(v)).is_some() {
                    return Err(format!("{arg} is given twice"));
                }
            }
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(format!("unknown option `{s}`"));
            }
            spec => a.specs.push(spec.to_string()),
        }
    }
    match (&a.out, a.specs.is_empty(), &a.root) {
        (Some(_), true, _) => Err("--out needs at least one SPEC.ksy before it".into()),
        (None, false, _) => Err(format!(
            "a spec ({}) is generated into a folder of yours: add --out DIR",
            a.specs[0]
        )),
        (Some(_), false, Some(_)) => {
            Err("--root is for the project's own specs; with --out, name the specs".into())
        }
        _ => Ok(Some(a)),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = match parse(&args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match &a.out {
        Some(dir) => user_crate(&a.specs, dir, a.check),
        None => project(&a.root.clone().unwrap_or_else(default_root), a.check),
    }
}

/// Code for a user's crate, from the specs named, into `dir`.
fn user_crate(specs: &[String], dir: &Path, check: bool) -> ExitCode {
    let out = match load_specs(specs).and_then(|s| crate_outputs(&s)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Only the files this run makes are compared: others in the folder are the user's.
    let stale: Vec<PathBuf> = differing(dir, &out)
        .into_iter()
        .filter(|p| out.contains_key(p))
        .collect();
    if check {
        return report_check(&stale, out.len(), "run the same command without --check");
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: cannot be made ({e})", dir.display());
        return ExitCode::from(2);
    }
    // Every path is judged before anything is written.
    if let Some(e) = stale.iter().find_map(|rel| inside(dir, rel).err()) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    for rel in &stale {
        let path = dir.join(rel);
        if let Err(e) = std::fs::write(&path, &out[rel]) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", path.display());
    }
    println!(
        "{} files in {}, {} changed",
        out.len(),
        dir.display(),
        stale.len()
    );
    ExitCode::SUCCESS
}

/// Refuses a path that would put a file anywhere but directly in `dir`: a name that is not one
/// plain component, or a symbolic link already there (writing would follow it).
fn inside(dir: &Path, rel: &Path) -> Result<(), String> {
    let path = dir.join(rel);
    let plain = rel.components().count() == 1
        && matches!(
            rel.components().next(),
            Some(std::path::Component::Normal(_))
        );
    let linked = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
    if !plain || linked {
        return Err(format!(
            "{}: refused, it would write outside {}",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

fn report_check(stale: &[PathBuf], total: usize, fix: &str) -> ExitCode {
    if stale.is_empty() {
        println!("generated files are up to date ({total} files)");
        ExitCode::SUCCESS
    } else {
        for s in stale {
            eprintln!("stale: {}", s.display());
        }
        eprintln!("{fix}");
        ExitCode::FAILURE
    }
}

/// The project's own outputs, from `root/spec`.
fn project(root: &Path, check: bool) -> ExitCode {
    let out: BTreeMap<PathBuf, String> = match outputs(root) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stale = differing(root, &out);
    if check {
        return report_check(
            &stale,
            out.len(),
            "run `cargo run -p meshspec-codegen` and commit the result",
        );
    }
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
    for s in &stale {
        println!("wrote {}", s.display());
    }
    println!("{} generated files, {} changed", out.len(), stale.len());
    ExitCode::SUCCESS
}
