//! The generator outside the project: `meshspec-codegen SPEC.ksy --out DIR` writes Rust for a
//! crate of the user's own that depends on `meshspec-runtime` alone. A spec written here (not in
//! `spec/`, in Kaitai's style) is generated into a scratch crate, which is built with the
//! workspace's pinned versions (its `Cargo.lock` copied in) into the workspace's target folder
//! (so the dependencies the workspace compiled are reused), then run on a file it must give
//! back byte for byte, an edited value whose count and size it must recompute, and a truncated
//! file it must refuse at the offset and field path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// A chunked container: a magic, a version it checks, a count, chunks of a kind (an enum), a
/// name and a sized body, and a relation stated as an expression.
const SPEC: &str = r#"meta:
  id: tagged
  title: A chunked container
  file-extension: tgd
  license: CC0-1.0
  endian: le
doc: Chunks after a small header, each with a kind, a name and a sized body.
-relations:
  - id: few_chunks
    doc: A file holds at most 8 chunks.
    -confidence: observed
    -at: num_chunks
    -check: num_chunks <= 8
seq:
  - id: magic
    contents: TGD1
  - id: version
    type: u2
    valid:
      any-of: [1, 2]
  - id: num_chunks
    type: u2
  - id: chunks
    type: chunk
    repeat: expr
    repeat-expr: num_chunks
types:
  chunk:
    seq:
      - id: kind
        type: u1
        enum: chunk_kind
      - id: name
        type: str
        size: 3
        encoding: ASCII
      - id: len_body
        type: u4
      - id: body
        size: len_body
enums:
  chunk_kind:
    1: text
    2: data
"#;

/// The user's program: checks the file named, lists its chunks, writes it back and says whether
/// the bytes are the same, then adds a chunk and reads what it wrote.
const MAIN: &str = r#"mod generated;

use generated::tagged::{Chunk, ChunkKind, Tagged};
use meshspec_runtime::{Codec, Root};

fn main() {
    let path = std::env::args().nth(1).expect("a file to read");
    let bytes = std::fs::read(&path).expect("a readable file");
    let findings = match Tagged::findings(&bytes, &()) {
        Ok(f) => f,
        Err(e) => {
            println!("refused: {e}");
            std::process::exit(1);
        }
    };
    for f in &findings {
        println!("finding: {f}");
    }
    let read = Tagged::read::<false>(&bytes, &()).expect("read once, read again");
    for c in &read.value.chunks {
        let kind = c.kind.name().unwrap_or("unnamed");
        println!("chunk {kind} {} {} bytes", c.name, c.body.len());
    }
    let mut value = Tagged::own(&read.value);
    let written = value.to_bytes(&()).expect("written back");
    println!("identical: {}", written == bytes);
    value.chunks.push(Chunk {
        kind: ChunkKind::DATA,
        name: "NEW".into(),
        len_body: 0,
        body: b"edit".to_vec(),
    });
    let edited = Tagged::from_bytes(&value.to_bytes(&()).expect("edited"), &()).expect("reread");
    let last = edited.chunks.last().expect("a chunk");
    println!("edited: {} chunks, the last of {} bytes", edited.num_chunks, last.len_body);
}
"#;

/// A file of `chunks` (kind, name, body), version 1.
fn tagged(chunks: &[(u8, &str, &[u8])]) -> Vec<u8> {
    let mut b = b"TGD1".to_vec();
    b.extend(1u16.to_le_bytes());
    b.extend((chunks.len() as u16).to_le_bytes());
    for (kind, name, body) in chunks {
        b.push(*kind);
        b.extend(name.as_bytes());
        b.extend((body.len() as u32).to_le_bytes());
        b.extend(*body);
    }
    b
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The target folder this test was built into (`<target>/<profile>/deps/<test>`), where the
/// workspace's dependencies are already compiled.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .expect("the test runs from <target>/<profile>/deps")
        .to_path_buf()
}

fn codegen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshspec-codegen"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A fresh folder of the test's own, removed when it ends.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("meshspec-codegen-test-")
        .tempdir()
        .unwrap()
}

/// The crates outside `std` the generated code names by absolute path (`::x::...`).
fn crates_named(code: &str) -> Vec<String> {
    let mut out: Vec<String> = code
        .match_indices("::")
        .filter(|(i, _)| {
            // A path's start: `::` not preceded by a name, `>` or another `::`.
            let before = code[..*i].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '>' || c == ':')
        })
        .filter_map(|(i, _)| {
            let name: String = code[i + 2..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .filter(|n| n != "std")
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn a_generated_crate_builds_on_the_runtime_alone_and_round_trips_its_files() {
    let d = scratch();
    let spec = d.path().join("tagged.ksy");
    std::fs::write(&spec, SPEC).unwrap();
    let krate = d.path().join("user");
    let gen = krate.join("src/generated");
    let out = codegen(&[s(&spec), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("2 files in"),
        "{}",
        text(&out.stdout)
    );
    let module = std::fs::read_to_string(gen.join("tagged.rs")).unwrap();
    let listing = std::fs::read_to_string(gen.join("mod.rs")).unwrap();
    assert!(listing.contains("pub mod tagged;"), "{listing}");
    assert!(
        module.starts_with("// Generated by `meshspec-codegen` from tagged.ksy."),
        "{}",
        &module[..200]
    );
    // The runtime is the only crate the code names, and nothing of the project's own.
    assert_eq!(crates_named(&module), ["meshspec_runtime"]);
    assert!(
        !module.contains("crate::"),
        "the code names a path of the project"
    );
    // Generating again changes nothing; --check says so, and sees an edited file.
    let again = codegen(&[s(&spec), "--out", s(&gen), "--check"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    std::fs::write(gen.join("tagged.rs"), format!("{module}// edited\n")).unwrap();
    let again = codegen(&[s(&spec), "--out", s(&gen), "--check"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("stale: tagged.rs"));
    assert_eq!(
        codegen(&[s(&spec), "--out", s(&gen)]).status.code(),
        Some(0)
    );
    assert_eq!(
        std::fs::read_to_string(gen.join("tagged.rs")).unwrap(),
        module
    );

    // The user's crate: one dependency, the workspace's profile (so that what the workspace
    // compiled is reused) and its lock file (so the versions are the pinned ones).
    let runtime = workspace().join("runtime").canonicalize().unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            r#"[package]
name = "tagged-user"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
meshspec-runtime = {{ path = {:?} }}

[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false

[workspace]
"#,
            s(&runtime)
        ),
    )
    .unwrap();
    std::fs::write(krate.join("src/main.rs"), MAIN).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let target = target_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let started = Instant::now();
    let built = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    eprintln!(
        "the user's crate built in {:.1} s (target folder {})",
        started.elapsed().as_secs_f64(),
        target.display()
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    // Warning-free: no unknown cfg, no dead code the crate does not use.
    assert!(
        !text(&built.stderr).contains("warning"),
        "{}",
        text(&built.stderr)
    );
    let program = target
        .join("debug")
        .join(format!("tagged-user{}", std::env::consts::EXE_SUFFIX));
    let run = |file: &Path| Command::new(&program).arg(file).output().unwrap();

    // A good file: its chunks, and the same bytes back; an edit recomputes count and size.
    let good = d.path().join("good.tgd");
    std::fs::write(
        &good,
        tagged(&[
            (1, "HED", b"hello"),
            (2, "DAT", b"0123456789"),
            (9, "ODD", b""),
        ]),
    )
    .unwrap();
    let out = run(&good);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "chunk text HED 5 bytes\n\
         chunk data DAT 10 bytes\n\
         chunk unnamed ODD 0 bytes\n\
         identical: true\n\
         edited: 4 chunks, the last of 4 bytes\n"
    );
    // A relation the spec states, checked in the user's crate: a warning, the file passes.
    let many = d.path().join("many.tgd");
    let nine: Vec<(u8, &str, &[u8])> = vec![(2, "ABC", b"x"); 9];
    std::fs::write(&many, tagged(&nine)).unwrap();
    let out = run(&many);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(
        "finding: 0x6 tagged.num_chunks: expected num_chunks <= 8 (relation `few_chunks`), found 9\n"
    ));
    assert!(
        text(&out.stdout).ends_with("identical: true\nedited: 10 chunks, the last of 4 bytes\n")
    );
    // Truncated in the second chunk's body, and a version the spec does not take: refused at
    // the offset and field path.
    let cut = d.path().join("cut.tgd");
    let bytes = tagged(&[(1, "HED", b"hello"), (2, "DAT", b"0123456789")]);
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let out = run(&cut);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "refused: 0x1D tagged.chunks[1].body: expected bytes (10 bytes), found end of input after 7 bytes\n"
    );
    let mut bad = bytes.clone();
    bad[4] = 7;
    std::fs::write(&cut, &bad).unwrap();
    let out = run(&cut);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "refused: 0x4 tagged.version: expected one of 1, 2, found 7\n"
    );
}

#[test]
fn a_bad_spec_is_one_line_with_its_file_line_and_column_and_nothing_is_written() {
    let d = scratch();
    let spec = d.path().join("tagged.ksy");
    std::fs::write(&spec, SPEC.replace("    repeat-expr:", "    repeat-exp:")).unwrap();
    let gen = d.path().join("gen");
    let out = codegen(&[s(&spec), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "error: {}:26:5: tagged.chunks: key `repeat-exp` is not in the subset",
            s(&spec)
        )) && err.lines().count() == 1,
        "{err}"
    );
    assert!(!gen.exists());
    // A spec that is not there, and one whose id is not its file's name.
    let missing = d.path().join("none.ksy");
    let out = codegen(&[s(&missing), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("error: {}: cannot be read", s(&missing)))
            && err.lines().count() == 1,
        "{err}"
    );
    let renamed = d.path().join("other.ksy");
    std::fs::write(&renamed, SPEC).unwrap();
    let out = codegen(&[s(&renamed), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:2:7: meta.id `tagged` must equal the file name `other`\n",
            s(&renamed)
        )
    );
    // Two items the generator would give one Rust name (a type's accessor trait and another
    // type's struct).
    let clash = SPEC.replace(
        "enums:\n",
        "  chunk_place:\n    seq:\n      - id: x\n        type: u1\nenums:\n",
    );
    std::fs::write(&spec, clash).unwrap();
    let out = codegen(&[s(&spec), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}: type `chunk`'s places and type `chunk_place` would both be `ChunkPlace` in Rust; rename one\n",
            s(&spec)
        )
    );
    assert!(!gen.exists());
}

/// A construct the interpreter reads and the generator does not emit yet (a positional
/// instance here) is refused at its place, never left out of the code: generated code that
/// silently skipped it would read the spec differently from what it says.
#[test]
fn what_the_generator_cannot_emit_is_refused_not_left_out() {
    let d = scratch();
    let spec = d.path().join("tagged.ksy");
    let positional = SPEC.replace(
        "types:\n",
        "instances:\n  first_byte:\n    pos: 0\n    type: u1\ntypes:\n",
    );
    std::fs::write(&spec, positional).unwrap();
    let gen = d.path().join("gen");
    let out = codegen(&[s(&spec), "--out", s(&gen)]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("tagged.first_byte: an instance read from the bytes")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(!gen.exists());
}

#[test]
fn nothing_is_written_outside_the_folder() {
    let d = scratch();
    let spec = d.path().join("tagged.ksy");
    std::fs::write(&spec, SPEC).unwrap();
    let gen = d.path().join("gen");
    std::fs::create_dir_all(&gen).unwrap();
    // A link in the folder to a file elsewhere is not written through.
    let elsewhere = d.path().join("elsewhere.rs");
    std::fs::write(&elsewhere, "kept").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&elsewhere, gen.join("tagged.rs")).unwrap();
        let out = codegen(&[s(&spec), "--out", s(&gen)]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("refused, it would write outside"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "kept");
    }
}

#[test]
fn the_command_line_says_how_it_is_used() {
    let out = codegen(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("meshspec-codegen SPEC.ksy [SPEC.ksy ...] --out DIR"));
    // A spec without a folder, a folder without a spec, an unknown option: usage, exit 2.
    for args in [
        &["some.ksy"][..],
        &["--out", "somewhere"],
        &["--frobnicate"],
    ] {
        let out = codegen(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains("usage:"),
            "{err}"
        );
    }
}
