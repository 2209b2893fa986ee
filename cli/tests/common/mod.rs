//! Running the `meshspec` binary from tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared` beside the checkout (the Unity corpus and the findings), when it is there.
pub fn shared() -> Option<PathBuf> {
    let p = root().join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("../shared is not beside the checkout: its part of this test is not run");
        None
    }
}

/// A `meshspec` command run from the repository, with colour left to its defaults.
pub fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_meshspec"));
    c.args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    c
}

/// Runs `meshspec ARGS`, feeding `stdin`.
pub fn meshspec(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run(cmd(args), stdin)
}

/// Runs a prepared command, feeding `stdin`.
pub fn run(mut c: Command, stdin: Option<&[u8]>) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// A fresh folder for one test.
pub fn tmp_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("meshspec-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names in a folder, sorted.
pub fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Asserts the exit code, showing the output when it differs.
#[track_caller]
pub fn code(out: &Output, want: i32) {
    assert_eq!(
        out.status.code(),
        Some(want),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// `n` with thousands separators, as meshspec prints counts.
pub fn thousands(n: u64) -> String {
    let d = n.to_string();
    d.chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let comma = i > 0 && (d.len() - i).is_multiple_of(3);
            comma.then_some(',').into_iter().chain([c])
        })
        .collect()
}
