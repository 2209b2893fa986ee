//! The programs the tests read with, where `tools/setup.sh` (the README's test command) puts
//! them: the checkout's own Python (`.venv/`, with Kaitai's runtime and UnityPy), Debian's
//! Blender and Chromium. A test never skips for want of one: it fails, naming what is missing
//! and the command that installs it, so a run can never be greener than a fresh machine's.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

const SETUP: &str = "run tools/setup.sh (the README's test command runs it)";

/// The checkout's Python (`.venv/bin/python`).
pub fn python() -> Command {
    let exe = crate::root().join(".venv/bin/python");
    assert!(
        exe.is_file(),
        "MISSING: {} (the tests' Python, with Kaitai's runtime and UnityPy); {SETUP}",
        exe.display()
    );
    Command::new(exe)
}

/// The checkout's Python, once it is known to import `module` (asked once per module and run).
pub fn python_with(module: &'static str) -> Command {
    static ASKED: OnceLock<std::sync::Mutex<Vec<&'static str>>> = OnceLock::new();
    let asked = ASKED.get_or_init(Default::default);
    if !asked.lock().unwrap().contains(&module) {
        let out = python()
            .args(["-c", &format!("import {module}")])
            .output()
            .expect("the tests' Python runs");
        assert!(
            out.status.success(),
            "MISSING: the Python module {module} in .venv ({}); {SETUP}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        asked.lock().unwrap().push(module);
    }
    python()
}

/// UnityPy, the second reader of Unity files: the checkout's Python with it importable.
pub fn unitypy() -> Command {
    python_with("UnityPy")
}

/// A program on `PATH` (the first of `names` that answers `--version`), or a failure naming
/// the Debian packages that bring it.
pub fn program(names: &[&'static str], packages: &str) -> &'static str {
    names
        .iter()
        .copied()
        .find(|n| {
            Command::new(n)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .unwrap_or_else(|| panic!("MISSING: {} (Debian: {packages}); {SETUP}", names[0]))
}

/// Blender, headless, with numpy for its glTF importer.
pub fn blender() -> Command {
    Command::new(program(&["blender"], "blender python3-numpy"))
}

/// Headless Chromium.
pub fn chromium() -> &'static str {
    program(&["chromium", "chromium-browser"], "chromium")
}

/// `name` inside the running test's own temporary folder, its parent folders made. The folder
/// is made fresh for the test on first use (each test runs on a thread of its own) and removed
/// when the test's thread ends, whether it passed or failed, so no test meets another's or an
/// earlier run's leftovers.
pub fn scratch(name: &str) -> PathBuf {
    thread_local! {
        static DIR: tempfile::TempDir = tempfile::Builder::new()
            .prefix("meshspec-test-")
            .tempdir()
            .expect("a temporary folder");
    }
    DIR.with(|d| {
        let p = d.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        p
    })
}

/// A fresh, empty folder `name` inside the running test's own temporary folder.
pub fn scratch_dir(name: &str) -> PathBuf {
    let d = scratch(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
