//! Running the `meshspec` binary from tests.
#![allow(dead_code)]

use serde_json::Value;
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

/// Runs `meshspec ARGS` with nothing on standard input.
pub fn meshspec(args: &[&str]) -> Output {
    run(cmd(args), None)
}

/// Runs `meshspec ARGS`, feeding `stdin`.
pub fn meshspec_in(args: &[&str], stdin: &[u8]) -> Output {
    run(cmd(args), Some(stdin))
}

/// Runs `meshspec ARGS` and asserts its exit code (showing the arguments and the output when it
/// differs).
#[track_caller]
pub fn exits(args: &[&str], want: i32) -> Output {
    let out = meshspec(args);
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(want),
        "{args:?}\nstdout:\n{o}\nstderr:\n{e}"
    );
    out
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

/// Runs `meshspec ARGS` under a pseudo-terminal (`script -qfec`) from the repository, with `env`
/// set (`None` removes the variable); `None` when there is no `script`.
pub fn on_terminal(args: &str, env: &[(&str, Option<&str>)]) -> Option<Output> {
    let bin = env!("CARGO_BIN_EXE_meshspec");
    let mut c = Command::new("script");
    c.args(["-qfec", &format!("'{bin}' {args}"), "/dev/null"])
        .current_dir(root());
    for (k, v) in env {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    c.output().ok()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// Asserts that `hay` holds `needle`, showing both when it does not.
#[track_caller]
pub fn has(hay: &str, needle: &str) {
    assert!(hay.contains(needle), "{needle:?} is not in:\n{hay}");
}

/// Standard output, parsed as JSON.
#[track_caller]
pub fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The entry of a report's `layouts` whose `layout` is `id`.
#[track_caller]
pub fn layout<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["layout"] == id)
        .unwrap_or_else(|| panic!("no {id} in {doc:#}"))
}

/// Whether two files hold the same bytes.
pub fn same_bytes(a: impl AsRef<Path>, b: impl AsRef<Path>) -> bool {
    std::fs::read(a).unwrap() == std::fs::read(b).unwrap()
}

/// Each test's own temporary folder (removed when it ends).
#[allow(unused_imports)]
pub use meshspec_tests::tools::{scratch, scratch_dir};

/// Every file under `dir`, recursively, each folder's entries in name order.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let walk = |p: PathBuf| if p.is_dir() { files_under(&p) } else { vec![p] };
    entries.into_iter().flat_map(walk).collect()
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
