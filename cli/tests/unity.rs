//! `meshspec unity ...` and the game-file form of `check`, `dump` and `export`, on the files of
//! `corpus/unity/`: their lines and exit codes are an interface too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn meshspec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshspec"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("meshspec-cli-unity-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn list_shows_every_object_or_one_class() {
    let out = meshspec(&[
        "unity",
        "list",
        "corpus/unity/game.unity-serialized",
        "--class",
        "Mesh",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[0],
        "corpus/unity/game.unity-serialized game.unity-serialized:"
    );
    assert_eq!(lines.len(), 6, "{t}");
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["101", "Mesh", "(43)", "948", "Arm"]
    );
    assert_eq!(text(&out.stderr), "5 objects\n");
    // JSON: every object with its file, serialized file, class, name, size and offset.
    let out = meshspec(&["unity", "list", "corpus/unity/lz4.unity-bundle", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 18);
    assert_eq!(rows[1]["name"], "Shoulder");
    assert_eq!(rows[1]["class"], "GameObject");
    assert_eq!(
        rows[1]["serialized"],
        "CAB-0123456789abcdef0123456789abcdef"
    );
    assert_eq!(rows[1]["path_id"], 2);
}

#[test]
fn extract_writes_the_object_and_its_streamed_range() {
    let out_path = tmp("blade.mesh");
    let o = out_path.to_str().unwrap();
    let out = meshspec(&[
        "unity",
        "extract",
        "corpus/unity/lzma.unity-bundle",
        "--path-id",
        "100",
        "-o",
        o,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mesh = std::fs::read(&out_path).unwrap();
    assert_eq!(&mesh[..9], b"\x05\0\0\0Blade");
    assert_eq!(
        std::fs::read(out_path.with_extension("vertexdata"))
            .unwrap()
            .len(),
        128
    );
    // The extracted object reads as a bare unity-mesh of the file's version, and one the wrong
    // version does not read names the layouts that do.
    let arm = tmp("arm.mesh");
    let a = arm.to_str().unwrap();
    let out = meshspec(&[
        "unity",
        "extract",
        "corpus/unity/game.unity-serialized",
        "--path-id",
        "101",
        "-o",
        a,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = meshspec(&["check", "unity-mesh", a, "--unity-version", "2022.3.10f1"]);
    assert_eq!(text(&out.stdout), format!("{a}: ok\n"));
    let out = meshspec(&["check", "unity-mesh", a, "--unity-version", "2021.3.0f1"]);
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out.stdout);
    assert!(t.starts_with(&format!("{a}: 0x")), "{t}");
    assert!(
        t.contains("(the layouts that read these bytes exactly: 2022.1 to 6000.1 (--unity-version 2022.1.0))"),
        "{t}"
    );
    let out = meshspec(&[
        "export",
        "unity-mesh",
        a,
        "--unity-version",
        "2019.4.0f1",
        "-o",
        tmp("x.glb").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("2022.1 to 6000.1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_reads_the_version_from_the_file() {
    let out = meshspec(&["check", "unity-mesh", "corpus/unity/lz4.unity-bundle"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let t = text(&out.stdout);
    assert_eq!(t.lines().count(), 5);
    assert!(t.lines().all(|l| l
        .starts_with("corpus/unity/lz4.unity-bundle/CAB-0123456789abcdef0123456789abcdef#10")
        && l.ends_with(": ok")));
    assert_eq!(text(&out.stderr), "5 meshes: 5 ok, 0 failed\n");
    let out = meshspec(&[
        "unity",
        "check",
        "corpus/unity/notree.unity-serialized",
        "--mesh",
        "Rock",
    ]);
    assert_eq!(
        text(&out.stdout),
        "corpus/unity/notree.unity-serialized#103: ok\n"
    );
    // A game file says its own version.
    let out = meshspec(&[
        "check",
        "unity-mesh",
        "corpus/unity/lz4.unity-bundle",
        "--unity-version",
        "2021.3.0f1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--unity-version is for bare objects"));
    // A bad file: its error line, exit 1.
    let out = meshspec(&[
        "unity",
        "check",
        "corpus/unity/bad/corrupt-lzma.unity-bundle",
    ]);
    assert_eq!(out.status.code(), Some(1));
    // (A file that cannot be opened is a line of its own, as a mesh that fails is.)
    assert!(
        text(&out.stdout).starts_with(
            "corpus/unity/bad/corrupt-lzma.unity-bundle: 0x90 unity_bundle.blocks[0]: expected LZMA data"
        ),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(text(&out.stderr), "1 files could not be opened\n");
}

#[test]
fn dump_and_export_take_a_mesh_by_name_or_path_id() {
    let out = meshspec(&[
        "dump",
        "unity-mesh",
        "corpus/unity/stored.unity-bundle",
        "--mesh",
        "Face",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["layout"], "unity-mesh");
    assert_eq!(v["data"]["name"]["value"], "Face");
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .ends_with("with the layout of Unity 2022.3.10, the file's version."));
    let glb = tmp("arm.glb");
    let out = meshspec(&[
        "export",
        "unity-mesh",
        "corpus/unity/game.unity-serialized",
        "--path-id",
        "101",
        "-o",
        glb.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
    // No such mesh.
    let out = meshspec(&[
        "dump",
        "unity-mesh",
        "corpus/unity/game.unity-serialized",
        "--mesh",
        "Nope",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --mesh Nope: expected an object it names (`meshspec unity list` shows them), found none\n"
    );
    // A selection is needed.
    let out = meshspec(&["dump", "unity-mesh", "corpus/unity/game.unity-serialized"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn export_all_writes_every_mesh_of_a_folder_a_folder_per_file() {
    let dir = tmp("all");
    let out = meshspec(&[
        "export",
        "unity-mesh",
        "corpus/unity",
        "--all",
        "-o",
        dir.to_str().unwrap(),
    ]);
    // The bad files under the folder fail, the others export.
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out.stdout);
    let ok = t.lines().filter(|l| l.ends_with(".glb: ok")).count();
    assert_eq!(ok, 25, "{t}");
    assert!(
        t.contains(&format!(
            "{}/lz4.unity-bundle/Arm.101.glb: ok",
            dir.display()
        )),
        "{t}"
    );
    assert!(dir.join("game.unity-serialized/Arm.101.glb").is_file());
    assert!(dir.join("notree.unity-serialized/Rock.103.glb").is_file());
    let e = text(&out.stderr);
    assert!(
        e.ends_with("25 meshes: 25 written, 0 failed\n5 files could not be opened\n"),
        "{e}"
    );
    assert_eq!(
        t.lines()
            .filter(|l| l.starts_with("corpus/unity/bad/"))
            .count(),
        5,
        "{t}"
    );
    assert!(e.contains("note: skipped corpus/unity/bad/signature.unity-bundle: not a bundle or a serialized file"), "{e}");
    // Nothing is written outside the folder, and no progress bar goes to a pipe.
    assert!(!e.contains('\u{1b}'), "{e}");
}
