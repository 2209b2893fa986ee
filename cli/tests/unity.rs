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
    // A game file says its own version: another --unity-version is refused at its version
    // string, the same one is taken.
    let out = meshspec(&[
        "check",
        "unity-mesh",
        "corpus/unity/lz4.unity-bundle",
        "--unity-version",
        "2021.3.0f1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout).lines().next(),
        Some("corpus/unity/lz4.unity-bundle/CAB-0123456789abcdef0123456789abcdef#100: 0x30 unity_serialized.metadata.unity_version: expected the file's own version 2022.3.10 (a file's version string wins: give no --unity-version, or that one), found --unity-version 2021.3.0")
    );
    assert_eq!(text(&out.stderr), "5 meshes: 0 ok, 5 failed\n");
    let out = meshspec(&[
        "unity",
        "check",
        "corpus/unity/lz4.unity-bundle",
        "--unity-version",
        "2022.3.10f1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = meshspec(&[
        "unity",
        "check",
        "corpus/unity/lz4.unity-bundle",
        "--unity-version",
        "auto",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`auto` is for bare objects"));
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
        "error: --mesh Nope: expected an object it names (`meshspec unity list` shows them), found none; the meshes: Blade (path id 100, in corpus/unity/game.unity-serialized), Arm (path id 101, in corpus/unity/game.unity-serialized), Face (path id 102, in corpus/unity/game.unity-serialized), Rock (path id 103, in corpus/unity/game.unity-serialized), Wire (path id 104, in corpus/unity/game.unity-serialized)\n"
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
    // (Five meshes in each of the eight game files: the player bundle's in its
    // sharedassets0.assets.)
    assert_eq!(ok, 40, "{t}");
    assert!(
        t.contains(&format!(
            "{}/lz4.unity-bundle/Arm.101.glb: ok",
            dir.display()
        )),
        "{t}"
    );
    assert!(dir.join("game.unity-serialized/Arm.101.glb").is_file());
    assert!(dir.join("notree.unity-serialized/Rock.103.glb").is_file());
    // UnityWeb and UnityRaw bundles are found by their first bytes like UnityFS ones.
    assert!(dir.join("web.unity-web/Blade.100.glb").is_file());
    assert!(dir.join("raw.unity-web/Wire.104.glb").is_file());
    assert!(dir
        .join("player.unity-bundle/sharedassets0.assets.Arm.101.glb")
        .is_file());
    let e = text(&out.stderr);
    assert!(
        e.ends_with("40 meshes: 40 written, 0 failed\n8 files could not be opened\n"),
        "{e}"
    );
    assert_eq!(
        t.lines()
            .filter(|l| l.starts_with("corpus/unity/bad/"))
            .count(),
        8,
        "{t}"
    );
    assert!(e.contains("note: skipped corpus/unity/bad/signature.unity-bundle: not a bundle or a serialized file"), "{e}");
    // Nothing is written outside the folder, and no progress bar goes to a pipe.
    assert!(!e.contains('\u{1b}'), "{e}");
}

/// `meshspec unity extract FILE --path-id ID -o OUT`.
fn extract(file: &str, id: &str, out: &Path) -> Output {
    meshspec(&[
        "unity",
        "extract",
        file,
        "--path-id",
        id,
        "-o",
        out.to_str().unwrap(),
    ])
}

/// `meshspec unity replace ...` with `-o OUT` in a fresh folder; OUT's path.
fn replace(name: &str, args: &[&str]) -> (Output, PathBuf) {
    let dir = tmp(&format!("replace-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("out");
    let _ = std::fs::remove_file(&out_path);
    let mut a = vec!["unity", "replace"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["-o", out_path.to_str().unwrap()]);
    (meshspec(&a), out_path)
}

#[test]
fn replace_with_the_object_unedited_gives_the_same_bytes() {
    for (file, id) in [
        ("corpus/unity/lz4.unity-bundle", "101"),
        ("corpus/unity/lzma.unity-bundle", "104"),
        ("corpus/unity/stored.unity-bundle", "103"),
        ("corpus/unity/web.unity-web", "101"),
        ("corpus/unity/raw.unity-web", "102"),
        ("corpus/unity/notree.unity-serialized", "102"),
    ] {
        let mesh = tmp(&format!("unedited-{id}.mesh"));
        let m = mesh.to_str().unwrap();
        let out = meshspec(&["unity", "extract", file, "--path-id", id, "-o", m]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let (out, written) = replace(id, &[file, "--path-id", id, "--object", m]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out.stderr));
        assert!(
            std::fs::read(&written).unwrap() == std::fs::read(root().join(file)).unwrap(),
            "{file}"
        );
        assert!(
            text(&out.stderr).contains(&format!("note: replaced path id {id} in ")),
            "{}",
            text(&out.stderr)
        );
    }
    // Streamed: the object and its vertex data, written back over the same range of the
    // resource file, which goes beside OUT (the input's is never touched).
    let mesh = tmp("unedited-blade.mesh");
    let m = mesh.to_str().unwrap();
    let file = "corpus/unity/game.unity-serialized";
    let out = meshspec(&["unity", "extract", file, "--path-id", "100", "-o", m]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let vd = mesh.with_extension("vertexdata");
    let (out, written) = replace(
        "blade",
        &[
            file,
            "--path-id",
            "100",
            "--object",
            m,
            "--ress",
            vd.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(&written).unwrap() == std::fs::read(root().join(file)).unwrap());
    let res = written.with_file_name("game.unity-serialized.resS");
    assert_eq!(
        std::fs::read(res).unwrap(),
        std::fs::read(root().join("corpus/unity/game.unity-serialized.resS")).unwrap()
    );
}

/// The dump of a mesh, edited by `f`, written to a file.
fn edited_dump(file: &str, id: &str, f: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let out = meshspec(&["unity", "dump", file, "--path-id", id]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    f(&mut v["data"]);
    // One file per call: tests run side by side in this process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = tmp(&format!("edited-{id}-{k}.json"));
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    p
}

#[test]
fn replace_from_an_edited_dump() {
    let file = "corpus/unity/lz4.unity-bundle";
    // Renamed (the same length), and a submesh dropped (its count recomputed by the writer).
    let dump = edited_dump(file, "104", |d| {
        d["name"]["value"] = "Rope".into();
        d["sub_meshes"].as_array_mut().unwrap().pop();
    });
    let (out, written) = replace(
        "dump",
        &[file, "--path-id", "104", "--dump", dump.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let w = written.to_str().unwrap();
    let list = meshspec(&["unity", "list", w, "--class", "Mesh", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let names: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Blade", "Arm", "Face", "Rock", "Rope"]);
    let check = meshspec(&["unity", "check", w]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    let dumped = meshspec(&["unity", "dump", w, "--path-id", "104"]);
    let v: serde_json::Value = serde_json::from_slice(&dumped.stdout).unwrap();
    assert_eq!(v["data"]["num_sub_meshes"], 1);
    // Every other object unchanged.
    for id in ["1", "30", "100", "101", "102", "103"] {
        let (a, b) = (tmp(&format!("a{id}")), tmp(&format!("b{id}")));
        for (f, o) in [(file, &a), (w, &b)] {
            let out = meshspec(&[
                "unity",
                "extract",
                f,
                "--path-id",
                id,
                "-o",
                o.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        }
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "#{id}"
        );
    }
}

/// UnityPy's reading of mesh `id` of `file`: its name and its triangles' indices (one list
/// per submesh), or `None` after a loud line when UnityPy is not installed.
fn unitypy_mesh(file: &Path, id: &str) -> Option<String> {
    let have = std::process::Command::new("python3")
        .args(["-c", "import UnityPy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("SKIPPED: UnityPy is not installed (pip install UnityPy): the written file is not read by a second reader");
        return None;
    }
    let script = r#"
import sys, UnityPy
from UnityPy.helpers.MeshHelper import MeshHandler
env = UnityPy.load(sys.argv[1])
for obj in env.objects:
    if obj.path_id == int(sys.argv[2]):
        m = obj.read()
        h = MeshHandler(m)
        h.process()
        print(m.m_Name, [[list(t) for t in sub] for sub in h.get_triangles()])
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, file.to_str().unwrap(), id])
        .output()
        .unwrap();
    assert!(out.status.success(), "UnityPy: {}", text(&out.stderr));
    Some(text(&out.stdout).trim().to_string())
}

#[test]
fn dump_edits_that_move_alignment_pads_need_no_arithmetic() {
    // A longer name (4 bytes to 11: its pad goes from none to 1 byte) and a grown index
    // buffer (6 bytes to 12: its pad from 2 bytes to none), with only the values edited: the
    // lengths and pads the dump still gives are the writer's to recompute.
    let file = "corpus/unity/lz4.unity-bundle";
    let dump = edited_dump(file, "102", |d| {
        d["name"]["value"] = "Edited_Face".into();
        d["index_buffer"]["indices"]["u16_indices"] = serde_json::json!([0, 1, 2, 0, 2, 1]);
        d["sub_meshes"][0]["index_count"] = 6.into();
    });
    let (out, written) = replace(
        "pads",
        &[file, "--path-id", "102", "--dump", dump.to_str().unwrap()],
    );
    let e = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{e}");
    // What the writer recomputed is said, the pads among it.
    for said in [
        "name.len_value: the dump gives 4, 11 was written",
        "name.pad: the dump gives \"\", \"00\" was written",
        "index_buffer.len_data: the dump gives 6, 12 was written",
        "index_buffer.pad: the dump gives \"0000\", \"\" was written",
    ] {
        assert!(e.contains(said), "{said}: {e}");
    }
    let w = written.to_str().unwrap();
    let check = meshspec(&["unity", "check", w]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    let dumped = meshspec(&["unity", "dump", w, "--path-id", "102"]);
    let v: serde_json::Value = serde_json::from_slice(&dumped.stdout).unwrap();
    assert_eq!(v["data"]["name"]["value"], "Edited_Face");
    assert_eq!(v["data"]["name"]["pad"], "00");
    assert_eq!(v["data"]["index_buffer"]["pad"], "");
    if let Some(seen) = unitypy_mesh(&written, "102") {
        assert_eq!(seen, "Edited_Face [[[0, 1, 2], [0, 2, 1]]]");
    }
    // The same edit of the bare object, through `build`.
    let object = tmp("pads-face.mesh");
    let o = object.to_str().unwrap();
    let out = meshspec(&["unity", "extract", file, "--path-id", "102", "-o", o]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = meshspec(&["dump", "unity-mesh", o, "--unity-version", "2022.3.10f1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    d["data"]["name"]["value"] = "Edited_Face".into();
    let edited = tmp("pads-face.json");
    std::fs::write(&edited, serde_json::to_vec(&d).unwrap()).unwrap();
    let built = tmp("pads-face-built.mesh");
    let out = meshspec(&[
        "build",
        "unity-mesh",
        edited.to_str().unwrap(),
        "--unity-version",
        "2022.3.10f1",
        "-o",
        built.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let back = meshspec(&[
        "dump",
        "unity-mesh",
        built.to_str().unwrap(),
        "--unity-version",
        "2022.3.10f1",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    assert_eq!(v["data"]["name"]["value"], "Edited_Face");
    let len = std::fs::read(&built).unwrap().len();
    assert_eq!(
        len,
        std::fs::read(&object).unwrap().len() + 8,
        "11 bytes and a pad of 1 for 4"
    );
}

#[test]
fn several_meshes_are_replaced_in_one_run() {
    // Two edited dumps of one bundle: each built, replaced in the file the one before wrote,
    // and judged there.
    let file = "corpus/unity/lz4.unity-bundle";
    let rope = edited_dump(file, "104", |d| {
        d["name"]["value"] = "Rope".into();
        d["sub_meshes"].as_array_mut().unwrap().pop();
    });
    let face = edited_dump(file, "102", |d| d["name"]["value"] = "Edited_Face".into());
    let (out, written) = replace(
        "several",
        &[
            file,
            "--path-id",
            "104",
            "--dump",
            rope.to_str().unwrap(),
            "--path-id",
            "102",
            "--dump",
            face.to_str().unwrap(),
        ],
    );
    let e = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{e}");
    assert!(
        e.contains("note: replaced path id 104 in ")
            && e.contains("note: replaced path id 102 in "),
        "{e}"
    );
    assert!(e.contains("bundle blocks after path id 102: "), "{e}");
    let w = written.to_str().unwrap();
    let list = meshspec(&["unity", "list", w, "--class", "Mesh", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let names: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Blade", "Arm", "Edited_Face", "Rock", "Rope"]);
    let check = meshspec(&["unity", "check", w]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    for (id, name) in [("104", "Rope"), ("102", "Edited_Face")] {
        if let Some(seen) = unitypy_mesh(&written, id) {
            assert!(seen.starts_with(&format!("{name} [")), "{seen}");
        }
    }
    // Objects unedited, in a serialized file: the same bytes back.
    let file = "corpus/unity/game.unity-serialized";
    let mut args = vec![file.to_string()];
    for id in ["101", "104"] {
        let m = tmp(&format!("several-{id}.mesh"));
        let out = meshspec(&[
            "unity",
            "extract",
            file,
            "--path-id",
            id,
            "-o",
            m.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        args.extend([
            "--path-id".into(),
            id.into(),
            "--object".into(),
            m.display().to_string(),
        ]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, written) = replace("several-same", &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(&written).unwrap() == std::fs::read(root().join(file)).unwrap());
    // One new mesh per path id, and one replacement per path id.
    let (out, _) = replace("several-short", &args[..5]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut short = args.clone();
    short.truncate(5);
    short.extend(["--path-id", "104"]);
    let (out, _) = replace("several-unpaired", &short);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "one --object or --dump per --path-id, in the same order: 2 path ids, 1 new meshes"
        ),
        "{}",
        text(&out.stderr)
    );
    let twice = [
        args[0], args[1], args[2], args[3], args[4], args[1], args[2], args[3], args[4],
    ];
    let (out, w) = replace("several-twice", &twice);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("expected one replacement per path id, found path id 101 twice"),
        "{}",
        text(&out.stderr)
    );
    assert!(!w.exists());
}

#[test]
fn replace_refuses_without_writing() {
    let file = "corpus/unity/lz4.unity-bundle";
    let arm = tmp("refused-arm.mesh");
    let a = arm.to_str().unwrap();
    let out = meshspec(&["unity", "extract", file, "--path-id", "101", "-o", a]);
    assert_eq!(out.status.code(), Some(0));
    let broken = edited_dump(file, "104", |d| {
        d["sub_meshes"][0]["index_count"] = 3000.into();
    });
    let b = broken.to_str().unwrap();
    let half = tmp("refused-half.mesh");
    let bytes = std::fs::read(&arm).unwrap();
    std::fs::write(&half, &bytes[..bytes.len() / 2]).unwrap();
    let h = half.to_str().unwrap();
    for (case, args, says) in [
        (
            "missing",
            vec![file, "--path-id", "999", "--object", a],
            "path id 999",
        ),
        (
            "class",
            vec![file, "--path-id", "1", "--object", a],
            "a Mesh (class 43)",
        ),
        (
            "relation",
            vec![file, "--path-id", "104", "--dump", b],
            "error:",
        ),
        (
            "corrupt",
            vec![
                "corpus/unity/bad/corrupt-lz4.unity-bundle",
                "--path-id",
                "101",
                "--object",
                a,
            ],
            "error:",
        ),
        (
            "truncated",
            vec![file, "--path-id", "101", "--object", h],
            "error:",
        ),
        (
            "no-file",
            vec!["no-such.bundle", "--path-id", "101", "--object", a],
            "no such file",
        ),
    ] {
        let (out, written) = replace(case, &args);
        assert_eq!(out.status.code(), Some(1), "{case}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(says),
            "{case}: {}",
            text(&out.stderr)
        );
        assert!(!written.exists(), "{case}: nothing is written");
    }
    // Usage mistakes: exit 2, before anything is read.
    for (case, args) in [
        ("neither", vec![file, "--path-id", "101"]),
        (
            "both",
            vec![file, "--path-id", "101", "--object", a, "--dump", b],
        ),
    ] {
        let (out, written) = replace(case, &args);
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stderr));
        assert!(!written.exists(), "{case}");
    }
    let out = meshspec(&[
        "unity",
        "replace",
        file,
        "--path-id",
        "101",
        "--object",
        a,
        "-o",
        file,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is one of the inputs"));
}

/// A serialized file's new resource file goes beside OUT: never over the input's own.
#[test]
fn replace_never_writes_over_the_inputs_resource_file() {
    let d = tmp("replace-beside");
    std::fs::create_dir_all(&d).unwrap();
    let game = d.join("game.unity-serialized");
    let res = d.join("game.unity-serialized.resS");
    std::fs::copy(root().join("corpus/unity/game.unity-serialized"), &game).unwrap();
    std::fs::copy(root().join("corpus/unity/game.unity-serialized.resS"), &res).unwrap();
    let before = std::fs::read(&res).unwrap();
    let mesh = d.join("blade.mesh");
    let g = game.to_str().unwrap();
    let m = mesh.to_str().unwrap();
    let out = meshspec(&["unity", "extract", g, "--path-id", "100", "-o", m]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut vertex = std::fs::read(mesh.with_extension("vertexdata")).unwrap();
    vertex[0] ^= 1;
    let vd = d.join("new.vertexdata");
    std::fs::write(&vd, &vertex).unwrap();
    let written = d.join("out.unity-serialized");
    let w = written.to_str().unwrap();
    let args = ["unity", "replace", g, "--path-id", "100", "--object", m];
    let mut a = args.to_vec();
    a.extend_from_slice(&["--ress", vd.to_str().unwrap(), "-o", w]);
    let out = meshspec(&a);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("the input's own resource file"));
    assert!(!written.exists());
    assert_eq!(std::fs::read(&res).unwrap(), before);
    // In another folder: both written, the input's untouched.
    let other = d.join("out");
    std::fs::create_dir_all(&other).unwrap();
    let written = other.join("game.unity-serialized");
    let mut a = args.to_vec();
    a.extend_from_slice(&[
        "--ress",
        vd.to_str().unwrap(),
        "-o",
        written.to_str().unwrap(),
    ]);
    let out = meshspec(&a);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&res).unwrap(), before);
    let new_res = std::fs::read(other.join("game.unity-serialized.resS")).unwrap();
    assert_eq!(new_res.len(), before.len());
    assert_eq!(new_res[0], before[0] ^ 1);
    assert_eq!(new_res[1..], before[1..]);
    let check = meshspec(&[
        "unity",
        "check",
        written.to_str().unwrap(),
        "--path-id",
        "100",
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
}

/// An edited dump and new vertex data together: the renamed mesh streams the new data from
/// the resource file written beside OUT.
#[test]
fn replace_from_a_dump_with_new_vertex_data() {
    let d = tmp("replace-dump-ress");
    std::fs::create_dir_all(&d).unwrap();
    let file = "corpus/unity/game.unity-serialized";
    let mesh = d.join("blade.mesh");
    let out = extract(file, "100", &mesh);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut vertex = std::fs::read(mesh.with_extension("vertexdata")).unwrap();
    vertex[0] ^= 1;
    let vd = d.join("new.vertexdata");
    std::fs::write(&vd, &vertex).unwrap();
    let dump = edited_dump(file, "100", |v| v["name"]["value"] = "Sword".into());
    let written = d.join("game.unity-serialized");
    let out = meshspec(&[
        "unity",
        "replace",
        file,
        "--path-id",
        "100",
        "--dump",
        dump.to_str().unwrap(),
        "--ress",
        vd.to_str().unwrap(),
        "-o",
        written.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let w = written.to_str().unwrap();
    let list = meshspec(&["unity", "list", w, "--class", "Mesh", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(rows[0]["name"], "Sword");
    let back = d.join("back.mesh");
    let out = meshspec(&[
        "unity",
        "extract",
        w,
        "--path-id",
        "100",
        "-o",
        back.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(back.with_extension("vertexdata")).unwrap(),
        vertex
    );
}

/// A modder's round: export to glTF, import like the original (in the game file, or a bare
/// object extracted into a folder named after its version), put back. With nothing edited,
/// every step gives the original's bytes.
#[test]
fn export_import_like_replace_gives_the_same_bundle() {
    let d = tmp("like-round").join("2022.3.10f1");
    std::fs::create_dir_all(&d).unwrap();
    let file = "corpus/unity/lzma.unity-bundle";
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    let run = |args: &[&str], want: i32| {
        let out = meshspec(args);
        assert_eq!(
            out.status.code(),
            Some(want),
            "{args:?}: {}",
            text(&out.stderr)
        );
        out
    };
    for (id, name) in [("100", "blade"), ("101", "arm"), ("104", "wire")] {
        let mesh = p(&format!("{name}.mesh"));
        let glb = p(&format!("{name}.glb"));
        let back = p(&format!("{name}.back.mesh"));
        run(&["unity", "extract", file, "--path-id", id, "-o", &mesh], 0);
        run(
            &["unity", "export", file, "--path-id", id, "-o", &glb, "-q"],
            0,
        );
        let like = ["import", "unity-mesh", &glb, "-o", &back, "--like"];
        let mut a = like.to_vec();
        a.extend_from_slice(&[file, "--path-id", id]);
        run(&a, 0);
        assert!(
            std::fs::read(&back).unwrap() == std::fs::read(&mesh).unwrap(),
            "{name}"
        );
        let vd = d.join(format!("{name}.back.vertexdata"));
        if id != "100" {
            // A bare original, its version from its folder (Blade's .resS is in the bundle).
            let mut a = like.to_vec();
            a.push(&mesh);
            run(&a, 0);
            assert!(
                std::fs::read(&back).unwrap() == std::fs::read(&mesh).unwrap(),
                "{name}"
            );
        } else {
            let extracted = std::fs::read(d.join("blade.vertexdata")).unwrap();
            assert_eq!(std::fs::read(&vd).unwrap(), extracted);
        }
        let out_bundle = p(&format!("{name}.bundle"));
        let mut a = vec!["unity", "replace", file, "--path-id", id, "--object", &back];
        let vd_arg = vd.to_str().unwrap().to_string();
        if id == "100" {
            a.extend_from_slice(&["--ress", &vd_arg]);
        }
        a.extend_from_slice(&["-o", &out_bundle]);
        run(&a, 0);
        assert!(
            std::fs::read(&out_bundle).unwrap() == std::fs::read(root().join(file)).unwrap(),
            "{name}"
        );
    }
    // Geometry the layout cannot hold: the face (no skin) like the arm (skinned).
    run(
        &[
            "unity",
            "export",
            file,
            "--path-id",
            "102",
            "-o",
            &p("face.glb"),
            "-q",
        ],
        0,
    );
    let out = run(
        &[
            "import",
            "unity-mesh",
            &p("face.glb"),
            "--like",
            file,
            "--path-id",
            "101",
            "-o",
            &p("refused.mesh"),
        ],
        1,
    );
    assert!(
        text(&out.stderr).contains("error:"),
        "{}",
        text(&out.stderr)
    );
    assert!(!d.join("refused.mesh").exists());
    // Usage: --like is for unity-mesh; a game file needs --path-id; a bare object needs a
    // version folder.
    run(
        &[
            "import",
            "meshbin",
            &p("arm.glb"),
            "--like",
            &p("arm.mesh"),
            "-o",
            &p("x"),
        ],
        2,
    );
    run(
        &[
            "import",
            "unity-mesh",
            &p("arm.glb"),
            "--like",
            file,
            "-o",
            &p("x"),
        ],
        2,
    );
    let elsewhere = tmp("arm-without-version.mesh");
    std::fs::copy(p("arm.mesh"), &elsewhere).unwrap();
    let out = run(
        &[
            "import",
            "unity-mesh",
            &p("arm.glb"),
            "--like",
            elsewhere.to_str().unwrap(),
            "-o",
            &p("x"),
        ],
        2,
    );
    assert!(
        text(&out.stderr).contains("named after"),
        "{}",
        text(&out.stderr)
    );
    assert!(!d.join("x").exists());
}

#[test]
fn unityweb_and_unityraw_bundles_are_game_files() {
    for file in ["corpus/unity/web.unity-web", "corpus/unity/raw.unity-web"] {
        let out = meshspec(&["unity", "list", file, "--class", "Mesh"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let t = text(&out.stdout);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], format!("{file} game.unity-serialized:"));
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["101", "Mesh", "(43)", "948", "Arm"]
        );
        // The container's own verdict, and every mesh inside through the same one.
        let out = meshspec(&["check", "unity-web", file]);
        assert_eq!(text(&out.stdout), format!("{file}: ok\n"));
        let out = meshspec(&["unity", "check", file]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        assert_eq!(text(&out.stderr), "5 meshes: 5 ok, 0 failed\n");
        // Blade streams from the bundle's resource file, extracted beside the object.
        let m = tmp(&format!("{}-blade.mesh", file.rsplit('/').next().unwrap()));
        let out = extract(file, "100", &m);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            std::fs::read(m.with_extension("vertexdata")).unwrap(),
            std::fs::read(root().join("corpus/unity/game.unity-serialized.resS")).unwrap()
        );
    }
    let out = meshspec(&[
        "check",
        "unity-web-payload",
        "corpus/unity/web.unity-web-payload",
    ]);
    assert_eq!(
        text(&out.stdout),
        "corpus/unity/web.unity-web-payload: ok\n"
    );
    // A declared size past the limit is refused before anything is decompressed.
    let out = meshspec(&["unity", "list", "corpus/unity/bad/huge-level.unity-web"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("corpus/unity/bad/huge-level.unity-web: 0x33 unity_web.header.levels[0].len_uncompressed: expected at most 67108864 decompressed bytes (the reader's limit), found 4294967040 bytes"), "{}", text(&out.stdout));
}

#[test]
fn shared_the_web_player_file_lists_and_extracts() {
    let file = root().join("../shared/corpus/unity-real/gimballock/Web Player.unity3d");
    if !file.is_file() {
        eprintln!(
            "SKIPPED: {} is missing: the real UnityWeb file is NOT listed",
            file.display()
        );
        return;
    }
    let f = file.to_str().unwrap();
    let out = meshspec(&["unity", "list", f, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 284);
    let torus = rows
        .iter()
        .find(|r| r["path_id"] == 13 && r["serialized"] == "sharedassets0.assets")
        .unwrap();
    assert_eq!(
        (torus["class"].as_str(), torus["name"].as_str()),
        (Some("Mesh"), Some("Torus"))
    );
    // Extracting takes the object's bytes out of the decompressed payload: path id 27 is
    // only in mainData (the Main Camera's GameObject).
    let m = tmp("camera.object");
    let out = extract(f, "27", &m);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let camera = rows
        .iter()
        .find(|r| r["path_id"] == 27 && r["serialized"] == "mainData")
        .unwrap();
    assert_eq!(camera["name"], "Main Camera");
    let bytes = std::fs::read(&m).unwrap();
    assert_eq!(bytes.len() as u64, camera["byte_size"].as_u64().unwrap());
    assert!(bytes.windows(11).any(|w| w == b"Main Camera"));
    // Path ids count per serialized file: Torus's is in both, and extract says so.
    let out = extract(f, "13", &m);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(
        e.contains("found 2 objects: Torus (path id 13, in ")
            && e.contains("Web Player.unity3d/sharedassets0.assets), a ")
            && e.contains("(path id 13, in ")
            && e.contains("Web Player.unity3d/mainData)"),
        "{e}"
    );
    // The container's verdict: ok, nothing to warn about.
    let out = meshspec(&["check", "unity-web", f]);
    assert_eq!(text(&out.stdout), format!("{f}: ok\n"));
    assert_eq!(text(&out.stderr), "");
    // A survey of its folder reads it as unity-web, by its first bytes.
    let dir = file.parent().unwrap().to_str().unwrap();
    let out = meshspec(&["survey", dir, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let web = v["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["layout"] == "unity-web")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        (web["tried"].as_u64(), web["passed"].as_u64()),
        (Some(1), Some(1)),
        "{web}"
    );
}

/// `meshspec unity typetree` of the corpus's serialized file with `args` after it.
fn typetree(args: &[&str]) -> Output {
    let mut all = vec!["unity", "typetree", "corpus/unity/game.unity-serialized"];
    all.extend_from_slice(args);
    meshspec(&all)
}

#[test]
fn typetree_prints_each_distinct_tree_of_a_class_one_line_per_node() {
    let out = typetree(&["--class", "Mesh"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "Mesh (class 43): 5 objects, Unity 2022.3.10f1, in corpus/unity/game.unity-serialized",
            "  Mesh Base (variable)",
            "    string m_Name (variable)",
            "      Array Array (variable, align)",
            "        int size (4 bytes)",
            "        char data (1 byte)",
            "    vector m_SubMeshes (variable)",
        ]
    );
    assert!(
        t.contains("\n    bool m_KeepIndices (1 byte, align)\n"),
        "{t}"
    );
    assert!(t.contains("\n          AABB localAABB (24 bytes)\n"), "{t}");
    // One line per node of the tree, after the heading.
    let nodes = lines.len() - 1;
    assert_eq!(text(&out.stderr), "1 type tree\n");
    // The class by its id gives the same; every class gives one block each.
    let by_id = typetree(&["--class", "43"]);
    assert_eq!(text(&by_id.stdout), t);
    let all = typetree(&[]);
    assert_eq!(all.status.code(), Some(0));
    let headings: Vec<String> = text(&all.stdout)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(str::to_string)
        .collect();
    assert_eq!(headings.len(), 7, "{headings:?}");
    assert!(headings[0].starts_with("GameObject (class 1): 4 objects"));
    // The three bundles hold the same serialized file: one block, naming the first and how
    // many more.
    let out = meshspec(&[
        "unity",
        "typetree",
        "corpus/unity/stored.unity-bundle",
        "corpus/unity/lz4.unity-bundle",
        "corpus/unity/lzma.unity-bundle",
        "--class",
        "mesh",
    ]);
    let t = text(&out.stdout);
    assert_eq!(
        t.lines().next().unwrap(),
        "Mesh (class 43): 15 objects, Unity 2022.3.10f1, in \
         corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef and 2 more"
    );
    assert_eq!(t.lines().count(), nodes + 1);
}

#[test]
fn typetree_ksy_prints_a_draft_spec_and_files_without_trees_are_refused() {
    let out = typetree(&["--class", "Mesh", "--ksy"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(t.starts_with(
        "# Mesh (class 43): 5 objects, Unity 2022.3.10f1, in corpus/unity/game.unity-serialized\n\
         meta:\n  id: mesh\n"
    ));
    let doc: serde_json::Value = serde_norway::from_str(&t).unwrap();
    assert_eq!(doc["meta"]["endian"], "le");
    let seq = doc["seq"].as_array().unwrap();
    assert_eq!(seq[0]["-orig-id"], "m_Name.Array.size");
    assert!(seq.iter().all(|f| f["-confidence"] == "observed"
        && f["-evidence"]
            == "type tree of corpus/unity/game.unity-serialized (Unity 2022.3.10f1)"));
    let sub = &doc["types"]["sub_mesh"]["seq"];
    assert_eq!(sub[3]["id"], "base_vertex");
    assert_eq!(sub[3]["type"], "u4");
    // Every class: one YAML document each.
    let all = meshspec(&[
        "unity",
        "typetree",
        "corpus/unity/game.unity-serialized",
        "--ksy",
    ]);
    assert_eq!(all.status.code(), Some(0));
    assert_eq!(text(&all.stdout).matches("\nmeta:\n").count(), 7);
    assert_eq!(text(&all.stdout).matches("\n---\n").count(), 6);
    // A file built without type trees has none to print.
    let out = meshspec(&["unity", "typetree", "corpus/unity/notree.unity-serialized"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: corpus/unity/notree.unity-serialized: expected type trees, found none (a file \
         built without type trees has none)\n"
    );
    let out = typetree(&["--class", "Texture2D"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("expected a type tree of class `Texture2D`, found none"));
}
