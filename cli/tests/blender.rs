//! The Blender add-on (`blender/meshspec_blender/`), packed by `blender/build.sh` and installed
//! into a headless Blender as a user would: a Unity mesh and a .meshbin imported, a vertex
//! moved, written back into copies and checked with the command line
//! (`tests/blender/addon_roundtrip.py`). `.ci/run` installs Blender, so CI always runs it.

mod common;
use common::*;
use std::process::Command;

#[test]
fn the_addon_imports_and_writes_back_from_headless_blender() {
    if Command::new("blender").arg("--version").output().is_err() {
        eprintln!("!!! SKIPPED: blender is not installed (Debian: blender, python3-numpy); the add-on is not checked");
        return;
    }
    let dir = tmp_dir("blender-addon");
    let zip = dir.join("meshspec_blender.zip");
    let packed = Command::new("sh")
        .arg(root().join("blender/build.sh"))
        .arg(&zip)
        .output()
        .unwrap();
    assert!(packed.status.success(), "{}", text(&packed.stderr));
    let mut c = Command::new("blender");
    c.args(["-b", "--factory-startup", "--python"])
        .arg(root().join("tests/blender/addon_roundtrip.py"))
        .arg("--")
        .arg(root())
        .arg(env!("CARGO_BIN_EXE_meshspec"))
        .arg(&dir)
        .arg(&zip)
        // Everything Blender writes stays in the test's folder; meshspec is found through the
        // add-on's preferences, not the environment.
        .env("BLENDER_USER_SCRIPTS", dir.join("scripts"))
        .env("BLENDER_USER_CONFIG", dir.join("config"))
        .env_remove("MESHSPEC");
    let out = run(c, None);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success() && said.contains("meshspec add-on round trip: ok"),
        "{said}"
    );
}
