//! `meshspec unity ...` and the game-file form of `check`, `dump` and `export`, on the files of
//! `corpus/unity/`: their lines and exit codes are an interface too.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

const GAME: &str = "corpus/unity/game.unity-serialized";
const RESS: &str = "corpus/unity/game.unity-serialized.resS";
const LZ4: &str = "corpus/unity/lz4.unity-bundle";
const LZMA: &str = "corpus/unity/lzma.unity-bundle";
const STORED: &str = "corpus/unity/stored.unity-bundle";
const NOTREE: &str = "corpus/unity/notree.unity-serialized";
/// The version that wrote the corpus's files, and one of another era.
const V2022: &str = "2022.3.10f1";
const V2021: &str = "2021.3.0f1";

#[test]
fn list_shows_every_object_or_one_class() {
    let out = exits(&["unity", "list", GAME, "--class", "Mesh"], 0);
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
    let v = json_of(&meshspec(&["unity", "list", LZ4, "--json"]));
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
    let out_path = scratch("blade.mesh");
    extract(LZMA, "100", &out_path);
    let mesh = std::fs::read(&out_path).unwrap();
    assert_eq!(&mesh[..9], b"\x05\0\0\0Blade");
    let vertex = std::fs::read(out_path.with_extension("vertexdata")).unwrap();
    assert_eq!(vertex.len(), 128);
    // The extracted object reads as a bare unity-mesh of the file's version, and one the wrong
    // version does not read names the layouts that do.
    let arm = scratch("arm.mesh");
    let a = arm.to_str().unwrap();
    extract(GAME, "101", a);
    let out = meshspec(&["check", "unity-mesh", a, "--unity-version", V2022]);
    assert_eq!(text(&out.stdout), format!("{a}: ok\n"));
    let out = exits(&["check", "unity-mesh", a, "--unity-version", V2021], 1);
    let t = text(&out.stdout);
    assert!(t.starts_with(&format!("{a}: 0x")), "{t}");
    has(
        &t,
        "(the layouts that read these bytes exactly: 2022.1 to 6000.1 (--unity-version 2022.1.0))",
    );
    let x = scratch("x.glb");
    let x = x.to_str().unwrap();
    let out = exits(
        &[
            "export",
            "unity-mesh",
            a,
            "--unity-version",
            "2019.4.0f1",
            "-o",
            x,
        ],
        1,
    );
    has(&text(&out.stderr), "2022.1 to 6000.1");
}

#[test]
fn check_reads_the_version_from_the_file() {
    let out = exits(&["check", "unity-mesh", LZ4], 0);
    let t = text(&out.stdout);
    assert_eq!(t.lines().count(), 5);
    assert!(t.lines().all(|l| l
        .starts_with("corpus/unity/lz4.unity-bundle/CAB-0123456789abcdef0123456789abcdef#10")
        && l.ends_with(": ok")));
    assert_eq!(text(&out.stderr), "5 meshes: 5 ok, 0 failed\n");
    let out = meshspec(&["unity", "check", NOTREE, "--mesh", "Rock"]);
    assert_eq!(
        text(&out.stdout),
        "corpus/unity/notree.unity-serialized#103: ok\n"
    );
    // A game file says its own version: another --unity-version is refused at its version
    // string, the same one is taken.
    let out = exits(&["check", "unity-mesh", LZ4, "--unity-version", V2021], 1);
    assert_eq!(
        text(&out.stdout).lines().next(),
        Some("corpus/unity/lz4.unity-bundle/CAB-0123456789abcdef0123456789abcdef#100: 0x30 unity_serialized.metadata.unity_version: expected the file's own version 2022.3.10 (a file's version string wins: give no --unity-version, or that one), found --unity-version 2021.3.0")
    );
    assert_eq!(text(&out.stderr), "5 meshes: 0 ok, 5 failed\n");
    exits(&["unity", "check", LZ4, "--unity-version", V2022], 0);
    let out = exits(&["unity", "check", LZ4, "--unity-version", "auto"], 2);
    has(&text(&out.stderr), "`auto` is for bare objects");
    // A bad file: its error line, exit 1.
    let bad = "corpus/unity/bad/corrupt-lzma.unity-bundle";
    let out = exits(&["unity", "check", bad], 1);
    // (A file that cannot be opened is a line of its own, as a mesh that fails is.)
    let t = text(&out.stdout);
    assert!(
        t.starts_with(
            "corpus/unity/bad/corrupt-lzma.unity-bundle: 0x90 unity_bundle.blocks[0]: expected LZMA data"
        ),
        "{t}"
    );
    assert_eq!(text(&out.stderr), "1 files could not be opened\n");
}

#[test]
fn dump_and_export_take_a_mesh_by_name_or_path_id() {
    let v = json_of(&exits(&["dump", "unity-mesh", STORED, "--mesh", "Face"], 0));
    assert_eq!(v["layout"], "unity-mesh");
    assert_eq!(v["data"]["name"]["value"], "Face");
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .ends_with("with the layout of Unity 2022.3.10, the file's version."));
    let glb = scratch("arm.glb");
    let g = glb.to_str().unwrap();
    exits(
        &["export", "unity-mesh", GAME, "--path-id", "101", "-o", g],
        0,
    );
    assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
    // No such mesh.
    let out = exits(&["dump", "unity-mesh", GAME, "--mesh", "Nope"], 1);
    assert_eq!(
        text(&out.stderr),
        "error: --mesh Nope: expected an object it names (`meshspec unity list` shows them), found none; the meshes: Blade (path id 100, in corpus/unity/game.unity-serialized), Arm (path id 101, in corpus/unity/game.unity-serialized), Face (path id 102, in corpus/unity/game.unity-serialized), Rock (path id 103, in corpus/unity/game.unity-serialized), Wire (path id 104, in corpus/unity/game.unity-serialized)\n"
    );
    // A selection is needed.
    exits(&["dump", "unity-mesh", GAME], 2);
}

#[test]
fn export_all_writes_every_mesh_of_a_folder_a_folder_per_file() {
    let dir = scratch("all");
    let d = dir.to_str().unwrap();
    // The bad files under the folder fail, the others export.
    let out = exits(
        &["export", "unity-mesh", "corpus/unity", "--all", "-o", d],
        1,
    );
    let t = text(&out.stdout);
    let ok = t.lines().filter(|l| l.ends_with(".glb: ok")).count();
    // (Five meshes in each of the nine game files: the player bundle's in its
    // sharedassets0.assets, and the editor's file's; three in each of the two of Unity 3.4,
    // and two of the three in bad/arrays-per-vertex.assets.)
    assert_eq!(ok, 53, "{t}");
    has(&t, &format!("{d}/lz4.unity-bundle/Arm.101.glb: ok"));
    for f in [
        "game.unity-serialized/Arm.101.glb",
        "notree.unity-serialized/Rock.103.glb",
        // UnityWeb and UnityRaw bundles are found by their first bytes like UnityFS ones.
        "web.unity-web/Blade.100.glb",
        "raw.unity-web/Wire.104.glb",
        "player.unity-bundle/sharedassets0.assets.Arm.101.glb",
        "editor.unity-serialized/Face.102.glb",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let e = text(&out.stderr);
    assert!(
        e.ends_with("54 meshes: 53 written, 1 failed\n9 files could not be opened\n"),
        "{e}"
    );
    let bad = t.lines().filter(|l| l.starts_with("corpus/unity/bad/"));
    assert_eq!(bad.count(), 10, "{t}");
    has(
        &e,
        "note: skipped corpus/unity/bad/signature.unity-bundle: not a bundle or a serialized file",
    );
    // Nothing is written outside the folder, and no progress bar goes to a pipe.
    assert!(!e.contains('\u{1b}'), "{e}");
}

/// `meshspec unity extract FILE --path-id ID -o OUT`, which must succeed.
#[track_caller]
#[test]
fn unity_3_4_files_list_check_and_export_and_a_container_of_nothing_readable_fails() {
    const OLD: &str = "corpus/unity/old.unity-serialized";
    const OLD_WEB: &str = "corpus/unity/old.unity-web";
    for file in [OLD, OLD_WEB] {
        assert_eq!(
            mesh_names(file),
            ["Quad34", "Strip34", "Packed34"],
            "{file}"
        );
        let out = exits(&["unity", "check", file], 0);
        assert_eq!(text(&out.stderr), "3 meshes: 3 ok, 0 failed\n", "{file}");
    }
    let dir = scratch_dir("unity-3-4-export");
    let o = dir.to_str().unwrap();
    let out = exits(&["unity", "export", OLD_WEB, "--all", "-o", o], 0);
    has(&text(&out.stderr), "3 meshes: 3 written, 0 failed");
    for name in ["Quad34.1.glb", "Strip34.2.glb", "Packed34.3.glb"] {
        let (doc, buffers, _) =
            gltf::import(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mesh = doc.meshes().next().unwrap();
        let primitive = mesh.primitives().next().unwrap();
        let reader = primitive.reader(|b| Some(&buffers[b.index()]));
        assert!(reader.read_positions().unwrap().count() >= 3, "{name}");
    }
    // import --like: a compressed mesh of 3.4 is remade in its own layout (unchanged, the
    // same bytes); one of separate arrays is refused with the reason.
    let made = dir.join("packed.mesh");
    let glb = dir.join("Packed34.3.glb");
    let (g, m) = (glb.to_str().unwrap(), made.to_str().unwrap());
    exits(
        &[
            "import",
            "unity-mesh",
            g,
            "--like",
            OLD,
            "--path-id",
            "3",
            "-o",
            m,
        ],
        0,
    );
    let original = dir.join("packed-original.mesh");
    extract(OLD, "3", &original);
    assert!(same_bytes(&made, &original));
    let glb = dir.join("Quad34.1.glb");
    let g = glb.to_str().unwrap();
    let out = exits(
        &[
            "import",
            "unity-mesh",
            g,
            "--like",
            OLD,
            "--path-id",
            "1",
            "-o",
            m,
        ],
        1,
    );
    has(
        &text(&out.stderr),
        "expected an original of Unity 3.5 or later, or a compressed one (before 3.5 the vertices are separate arrays, which this does not write), found a mesh of 3.4.2",
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A mesh whose arrays disagree: check fails at the count.
    let bad = "corpus/unity/bad/arrays-per-vertex.assets";
    let out = exits(&["unity", "check", bad], 1);
    has(
        &text(&out.stdout),
        "#1: 0x130 unity_mesh.num_normals: expected one entry per vertex (4), or none, to decode normals as a vertex channel (relation `arrays_per_vertex`), found 3",
    );
    // A Web Player whose only serialized file is of a format not read: no empty listing.
    let none = "corpus/unity/bad/no-serialized-file.unity-web";
    let out = exits(&["unity", "list", none], 1);
    has(
        &text(&out.stdout),
        "expected a bundle holding a serialized file of format 5 to 22 (where its objects are), found 2 files, none of them one",
    );
}

fn extract(file: &str, id: &str, out: impl AsRef<Path>) {
    let o = out.as_ref().to_str().unwrap();
    exits(&["unity", "extract", file, "--path-id", id, "-o", o], 0);
}

/// `meshspec unity replace ...` with `-o OUT` in a fresh folder; OUT's path.
fn replace(name: &str, args: &[&str]) -> (Output, PathBuf) {
    let dir = scratch(&format!("replace-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("out");
    let _ = std::fs::remove_file(&out_path);
    let o = out_path.to_str().unwrap();
    let out = meshspec(&[&["unity", "replace"], args, &["-o", o]].concat());
    (out, out_path)
}

/// The names of the meshes `meshspec unity list` gives for `file`, in its order.
fn mesh_names(file: &str) -> Vec<String> {
    let rows = json_of(&meshspec(&[
        "unity", "list", file, "--class", "Mesh", "--json",
    ]));
    let rows = rows.as_array().unwrap().iter();
    rows.map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
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
        ("corpus/unity/old.unity-serialized", "2"),
        ("corpus/unity/old.unity-web", "1"),
    ] {
        let mesh = scratch(&format!("unedited-{id}.mesh"));
        let m = mesh.to_str().unwrap();
        extract(file, id, m);
        let (out, written) = replace(id, &[file, "--path-id", id, "--object", m]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out.stderr));
        assert!(same_bytes(&written, root().join(file)), "{file}");
        has(
            &text(&out.stderr),
            &format!("note: replaced path id {id} in "),
        );
    }
    // Streamed: the object and its vertex data, written back over the same range of the
    // resource file, which goes beside OUT (the input's is never touched).
    let mesh = scratch("unedited-blade.mesh");
    let m = mesh.to_str().unwrap();
    extract(GAME, "100", m);
    let vd = mesh.with_extension("vertexdata");
    let vd = vd.to_str().unwrap();
    let (out, written) = replace(
        "blade",
        &[GAME, "--path-id", "100", "--object", m, "--ress", vd],
    );
    code(&out, 0);
    assert!(same_bytes(&written, root().join(GAME)));
    let res = written.with_file_name("game.unity-serialized.resS");
    assert_eq!(
        std::fs::read(res).unwrap(),
        std::fs::read(root().join(RESS)).unwrap()
    );
}

/// The dump of a mesh, edited by `f`, written to a file.
fn edited_dump(file: &str, id: &str, f: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut v = json_of(&exits(&["unity", "dump", file, "--path-id", id], 0));
    f(&mut v["data"]);
    // One file per call: tests run side by side in this process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = scratch(&format!("edited-{id}-{k}.json"));
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    p
}

#[test]
fn replace_from_an_edited_dump() {
    // Renamed (the same length), and a submesh dropped (its count recomputed by the writer).
    let dump = edited_dump(LZ4, "104", |d| {
        d["name"]["value"] = "Rope".into();
        d["sub_meshes"].as_array_mut().unwrap().pop();
    });
    let d = dump.to_str().unwrap();
    let (out, written) = replace("dump", &[LZ4, "--path-id", "104", "--dump", d]);
    code(&out, 0);
    let w = written.to_str().unwrap();
    assert_eq!(mesh_names(w), ["Blade", "Arm", "Face", "Rock", "Rope"]);
    exits(&["unity", "check", w], 0);
    let v = json_of(&meshspec(&["unity", "dump", w, "--path-id", "104"]));
    assert_eq!(v["data"]["num_sub_meshes"], 1);
    // Every other object unchanged.
    for id in ["1", "30", "100", "101", "102", "103"] {
        let (a, b) = (scratch(&format!("a{id}")), scratch(&format!("b{id}")));
        extract(LZ4, id, &a);
        extract(w, id, &b);
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "#{id}"
        );
    }
}

/// UnityPy's reading of mesh `id` of `file`: its name and its triangles' indices (one list
/// per submesh).
fn unitypy_mesh(file: &Path, id: &str) -> String {
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
    let out = meshspec_tests::tools::unitypy()
        .args(["-c", script, file.to_str().unwrap(), id])
        .output()
        .unwrap();
    assert!(out.status.success(), "UnityPy: {}", text(&out.stderr));
    text(&out.stdout).trim().to_string()
}

#[test]
fn dump_edits_that_move_alignment_pads_need_no_arithmetic() {
    // A longer name (4 bytes to 11: its pad goes from none to 1 byte) and a grown index
    // buffer (6 bytes to 12: its pad from 2 bytes to none), with only the values edited: the
    // lengths and pads the dump still gives are the writer's to recompute.
    let dump = edited_dump(LZ4, "102", |d| {
        d["name"]["value"] = "Edited_Face".into();
        d["index_buffer"]["indices"]["u16_indices"] = serde_json::json!([0, 1, 2, 0, 2, 1]);
        d["sub_meshes"][0]["index_count"] = 6.into();
    });
    let d = dump.to_str().unwrap();
    let (out, written) = replace("pads", &[LZ4, "--path-id", "102", "--dump", d]);
    code(&out, 0);
    let e = text(&out.stderr);
    // What the writer recomputed is said, the pads among it.
    for said in [
        "name.len_value: the dump gives 4, 11 was written",
        "name.pad: the dump gives \"\", \"00\" was written",
        "index_buffer.len_data: the dump gives 6, 12 was written",
        "index_buffer.pad: the dump gives \"0000\", \"\" was written",
    ] {
        has(&e, said);
    }
    let w = written.to_str().unwrap();
    exits(&["unity", "check", w], 0);
    let v = json_of(&meshspec(&["unity", "dump", w, "--path-id", "102"]));
    assert_eq!(v["data"]["name"]["value"], "Edited_Face");
    assert_eq!(v["data"]["name"]["pad"], "00");
    assert_eq!(v["data"]["index_buffer"]["pad"], "");
    let seen = unitypy_mesh(&written, "102");
    assert_eq!(seen, "Edited_Face [[[0, 1, 2], [0, 2, 1]]]");

    // The same edit of the bare object, through `build`.
    let version = V2022;
    let object = scratch("pads-face.mesh");
    let o = object.to_str().unwrap();
    extract(LZ4, "102", o);
    let mut d = json_of(&exits(
        &["dump", "unity-mesh", o, "--unity-version", version],
        0,
    ));
    d["data"]["name"]["value"] = "Edited_Face".into();
    let edited = scratch("pads-face.json");
    std::fs::write(&edited, serde_json::to_vec(&d).unwrap()).unwrap();
    let built = scratch("pads-face-built.mesh");
    let (e, b) = (edited.to_str().unwrap(), built.to_str().unwrap());
    exits(
        &[
            "build",
            "unity-mesh",
            e,
            "--unity-version",
            version,
            "-o",
            b,
        ],
        0,
    );
    let v = json_of(&meshspec(&[
        "dump",
        "unity-mesh",
        b,
        "--unity-version",
        version,
    ]));
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
    let rope = edited_dump(LZ4, "104", |d| {
        d["name"]["value"] = "Rope".into();
        d["sub_meshes"].as_array_mut().unwrap().pop();
    });
    let face = edited_dump(LZ4, "102", |d| d["name"]["value"] = "Edited_Face".into());
    let (r, f) = (rope.to_str().unwrap(), face.to_str().unwrap());
    let args = [
        LZ4,
        "--path-id",
        "104",
        "--dump",
        r,
        "--path-id",
        "102",
        "--dump",
        f,
    ];
    let (out, written) = replace("several", &args);
    code(&out, 0);
    let e = text(&out.stderr);
    assert!(
        e.contains("note: replaced path id 104 in ")
            && e.contains("note: replaced path id 102 in "),
        "{e}"
    );
    has(&e, "bundle blocks after path id 102: ");
    let w = written.to_str().unwrap();
    assert_eq!(
        mesh_names(w),
        ["Blade", "Arm", "Edited_Face", "Rock", "Rope"]
    );
    exits(&["unity", "check", w], 0);
    for (id, name) in [("104", "Rope"), ("102", "Edited_Face")] {
        let seen = unitypy_mesh(&written, id);
        assert!(seen.starts_with(&format!("{name} [")), "{seen}");
    }
    // Objects unedited, in a serialized file: the same bytes back.
    let [m1, m4] = ["101", "104"].map(|id| {
        let m = scratch(&format!("several-{id}.mesh"));
        extract(GAME, id, &m);
        m.display().to_string()
    });
    let args = [
        GAME,
        "--path-id",
        "101",
        "--object",
        &m1,
        "--path-id",
        "104",
        "--object",
        &m4,
    ];
    let (out, written) = replace("several-same", &args);
    code(&out, 0);
    assert!(same_bytes(&written, root().join(GAME)));
    // One new mesh per path id, and one replacement per path id.
    code(&replace("several-short", &args[..5]).0, 0);
    let short = [&args[..5], &["--path-id", "104"]].concat();
    let (out, _) = replace("several-unpaired", &short);
    code(&out, 2);
    has(
        &text(&out.stderr),
        "one --object or --dump per --path-id, in the same order: 2 path ids, 1 new meshes",
    );
    let twice = [
        args[0], args[1], args[2], args[3], args[4], args[1], args[2], args[3], args[4],
    ];
    let (out, w) = replace("several-twice", &twice);
    code(&out, 1);
    has(
        &text(&out.stderr),
        "expected one replacement per path id, found path id 101 twice",
    );
    assert!(!w.exists());
}

#[test]
fn replace_refuses_without_writing() {
    let arm = scratch("refused-arm.mesh");
    let a = arm.to_str().unwrap();
    extract(LZ4, "101", a);
    let broken = edited_dump(LZ4, "104", |d| {
        d["sub_meshes"][0]["index_count"] = 3000.into();
    });
    let b = broken.to_str().unwrap();
    let half = scratch("refused-half.mesh");
    let bytes = std::fs::read(&arm).unwrap();
    std::fs::write(&half, &bytes[..bytes.len() / 2]).unwrap();
    let h = half.to_str().unwrap();
    let corrupt = "corpus/unity/bad/corrupt-lz4.unity-bundle";
    for (case, args, says) in [
        (
            "missing",
            [LZ4, "--path-id", "999", "--object", a],
            "path id 999",
        ),
        (
            "class",
            [LZ4, "--path-id", "1", "--object", a],
            "a Mesh (class 43)",
        ),
        ("relation", [LZ4, "--path-id", "104", "--dump", b], "error:"),
        (
            "corrupt",
            [corrupt, "--path-id", "101", "--object", a],
            "error:",
        ),
        (
            "truncated",
            [LZ4, "--path-id", "101", "--object", h],
            "error:",
        ),
        (
            "no-file",
            ["no-such.bundle", "--path-id", "101", "--object", a],
            "no such file",
        ),
    ] {
        let (out, written) = replace(case, &args);
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case}: {e}");
        assert!(e.contains(says), "{case}: {e}");
        assert!(!written.exists(), "{case}: nothing is written");
    }
    // Usage mistakes: exit 2, before anything is read.
    for (case, args) in [
        ("neither", vec![LZ4, "--path-id", "101"]),
        (
            "both",
            vec![LZ4, "--path-id", "101", "--object", a, "--dump", b],
        ),
    ] {
        let (out, written) = replace(case, &args);
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stderr));
        assert!(!written.exists(), "{case}");
    }
    let args = [LZ4, "--path-id", "101", "--object", a, "-o", LZ4];
    let out = exits(&[&["unity", "replace"], &args[..]].concat(), 2);
    has(&text(&out.stderr), "is one of the inputs");
}

/// The vertex data extracted beside `mesh` with its first byte flipped, written to
/// `new.vertexdata` in the same folder: its bytes and that file.
fn flipped_vertex_data(mesh: &Path) -> (Vec<u8>, PathBuf) {
    let mut vertex = std::fs::read(mesh.with_extension("vertexdata")).unwrap();
    vertex[0] ^= 1;
    let vd = mesh.with_file_name("new.vertexdata");
    std::fs::write(&vd, &vertex).unwrap();
    (vertex, vd)
}

/// A serialized file's new resource file goes beside OUT: never over the input's own.
#[test]
fn replace_never_writes_over_the_inputs_resource_file() {
    let d = scratch("replace-beside");
    std::fs::create_dir_all(&d).unwrap();
    let game = d.join("game.unity-serialized");
    let res = d.join("game.unity-serialized.resS");
    std::fs::copy(root().join(GAME), &game).unwrap();
    std::fs::copy(root().join(RESS), &res).unwrap();
    let before = std::fs::read(&res).unwrap();
    let mesh = d.join("blade.mesh");
    let g = game.to_str().unwrap();
    let m = mesh.to_str().unwrap();
    extract(g, "100", m);
    let (_, vd) = flipped_vertex_data(&mesh);
    let written = d.join("out.unity-serialized");
    let w = written.to_str().unwrap();
    let args = ["unity", "replace", g, "--path-id", "100", "--object", m];
    let args = [&args[..], &["--ress", vd.to_str().unwrap()]].concat();
    let out = exits(&[&args[..], &["-o", w]].concat(), 1);
    has(&text(&out.stderr), "the input's own resource file");
    assert!(!written.exists());
    assert_eq!(std::fs::read(&res).unwrap(), before);
    // In another folder: both written, the input's untouched.
    let other = d.join("out");
    std::fs::create_dir_all(&other).unwrap();
    let written = other.join("game.unity-serialized");
    let w = written.to_str().unwrap();
    exits(&[&args[..], &["-o", w]].concat(), 0);
    assert_eq!(std::fs::read(&res).unwrap(), before);
    let new_res = std::fs::read(other.join("game.unity-serialized.resS")).unwrap();
    assert_eq!(new_res.len(), before.len());
    assert_eq!(new_res[0], before[0] ^ 1);
    assert_eq!(new_res[1..], before[1..]);
    exits(&["unity", "check", w, "--path-id", "100"], 0);
}

/// An edited dump and new vertex data together: the renamed mesh streams the new data from
/// the resource file written beside OUT.
#[test]
fn replace_from_a_dump_with_new_vertex_data() {
    let d = scratch("replace-dump-ress");
    std::fs::create_dir_all(&d).unwrap();
    let mesh = d.join("blade.mesh");
    extract(GAME, "100", &mesh);
    let (vertex, vd) = flipped_vertex_data(&mesh);
    let dump = edited_dump(GAME, "100", |v| v["name"]["value"] = "Sword".into());
    let written = d.join("game.unity-serialized");
    let w = written.to_str().unwrap();
    let (du, v) = (dump.to_str().unwrap(), vd.to_str().unwrap());
    let args = [GAME, "--path-id", "100", "--dump", du, "--ress", v, "-o", w];
    exits(&[&["unity", "replace"], &args[..]].concat(), 0);
    assert_eq!(mesh_names(w)[0], "Sword");
    let back = d.join("back.mesh");
    extract(w, "100", &back);
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
    let d = scratch("like-round").join("2022.3.10f1");
    std::fs::create_dir_all(&d).unwrap();
    let file = LZMA;
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    for (id, name) in [("100", "blade"), ("101", "arm"), ("104", "wire")] {
        let mesh = p(&format!("{name}.mesh"));
        let glb = p(&format!("{name}.glb"));
        let back = p(&format!("{name}.back.mesh"));
        extract(file, id, &mesh);
        exits(
            &["unity", "export", file, "--path-id", id, "-o", &glb, "-q"],
            0,
        );
        let like = ["import", "unity-mesh", &glb, "-o", &back, "--like"];
        exits(&[&like[..], &[file, "--path-id", id]].concat(), 0);
        assert!(same_bytes(&back, &mesh), "{name}");
        let vd = d.join(format!("{name}.back.vertexdata"));
        if id != "100" {
            // A bare original, its version from its folder (Blade's .resS is in the bundle).
            exits(&[&like[..], &[&mesh[..]]].concat(), 0);
            assert!(same_bytes(&back, &mesh), "{name}");
        } else {
            let extracted = std::fs::read(d.join("blade.vertexdata")).unwrap();
            assert_eq!(std::fs::read(&vd).unwrap(), extracted);
        }
        let out_bundle = p(&format!("{name}.bundle"));
        let ress = ["--ress", vd.to_str().unwrap()];
        let ress: &[&str] = if id == "100" { &ress } else { &[] };
        let put = ["unity", "replace", file, "--path-id", id, "--object", &back];
        exits(&[&put[..], ress, &["-o", &out_bundle]].concat(), 0);
        assert!(same_bytes(&out_bundle, root().join(file)), "{name}");
    }
    // Geometry the layout cannot hold: the face (no skin) like the arm (skinned).
    let (face, refused, x) = (p("face.glb"), p("refused.mesh"), p("x"));
    exits(
        &[
            "unity",
            "export",
            file,
            "--path-id",
            "102",
            "-o",
            &face,
            "-q",
        ],
        0,
    );
    let like = [
        "import",
        "unity-mesh",
        &face,
        "--like",
        file,
        "--path-id",
        "101",
    ];
    let out = exits(&[&like[..], &["-o", &refused]].concat(), 1);
    has(&text(&out.stderr), "error:");
    assert!(!d.join("refused.mesh").exists());
    // Usage: --like is for unity-mesh; a game file needs --path-id; a bare object needs its
    // version, from a folder named after it or from --unity-version.
    let (arm_glb, arm) = (p("arm.glb"), p("arm.mesh"));
    exits(
        &["import", "meshbin", &arm_glb, "--like", &arm, "-o", &x],
        2,
    );
    exits(
        &["import", "unity-mesh", &arm_glb, "--like", file, "-o", &x],
        2,
    );
    let elsewhere = scratch("arm-without-version.mesh");
    std::fs::copy(&arm, &elsewhere).unwrap();
    let e = elsewhere.to_str().unwrap();
    let out = exits(
        &["import", "unity-mesh", &arm_glb, "--like", e, "-o", &x],
        2,
    );
    has(&text(&out.stderr), "--unity-version");
    assert!(!d.join("x").exists());
    // ... unless --unity-version gives it, as every other command on a bare object takes it;
    // a version that does not read the object is refused at its bytes, and the folder's
    // version never overrides the one given.
    exits(
        &[
            "import",
            "unity-mesh",
            &arm_glb,
            "--like",
            e,
            "--unity-version",
            V2022,
            "-o",
            &x,
        ],
        0,
    );
    assert!(same_bytes(&x, &arm));
    let old = ["--unity-version", "2017.1.0f1"];
    let like_arm = ["import", "unity-mesh", &arm_glb, "--like", &arm, "-o", &x];
    exits(&[&like_arm[..], &old].concat(), 1);
    exits(&[&like_arm[..], &["--unity-version", "next"]].concat(), 2);
}

#[test]
fn unityweb_and_unityraw_bundles_are_game_files() {
    for file in ["corpus/unity/web.unity-web", "corpus/unity/raw.unity-web"] {
        let out = exits(&["unity", "list", file, "--class", "Mesh"], 0);
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
        let out = exits(&["unity", "check", file], 0);
        assert_eq!(text(&out.stderr), "5 meshes: 5 ok, 0 failed\n");
        // Blade streams from the bundle's resource file, extracted beside the object.
        let m = scratch(&format!("{}-blade.mesh", file.rsplit('/').next().unwrap()));
        extract(file, "100", &m);
        assert_eq!(
            std::fs::read(m.with_extension("vertexdata")).unwrap(),
            std::fs::read(root().join(RESS)).unwrap()
        );
    }
    let payload = "corpus/unity/web.unity-web-payload";
    let out = meshspec(&["check", "unity-web-payload", payload]);
    assert_eq!(
        text(&out.stdout),
        "corpus/unity/web.unity-web-payload: ok\n"
    );
    // A declared size past the limit is refused before anything is decompressed.
    let out = exits(
        &["unity", "list", "corpus/unity/bad/huge-level.unity-web"],
        1,
    );
    has(&text(&out.stdout), "corpus/unity/bad/huge-level.unity-web: 0x33 unity_web.header.levels[0].len_uncompressed: expected at most 67108864 decompressed bytes (the reader's limit), found 4294967040 bytes");
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
    let v = json_of(&exits(&["unity", "list", f, "--json"], 0));
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 284);
    let row = |id: u64, serialized: &str| {
        let mut rows = rows.iter();
        rows.find(|r| r["path_id"] == id && r["serialized"] == serialized)
            .unwrap()
    };
    let torus = row(13, "sharedassets0.assets");
    assert_eq!(
        (torus["class"].as_str(), torus["name"].as_str()),
        (Some("Mesh"), Some("Torus"))
    );
    // Extracting takes the object's bytes out of the decompressed payload: path id 27 is
    // only in mainData (the Main Camera's GameObject).
    let m = scratch("camera.object");
    extract(f, "27", &m);
    let camera = row(27, "mainData");
    assert_eq!(camera["name"], "Main Camera");
    let bytes = std::fs::read(&m).unwrap();
    assert_eq!(bytes.len() as u64, camera["byte_size"].as_u64().unwrap());
    assert!(bytes.windows(11).any(|w| w == b"Main Camera"));
    // Path ids count per serialized file: Torus's is in both, and extract says so.
    let m = m.to_str().unwrap();
    let out = exits(&["unity", "extract", f, "--path-id", "13", "-o", m], 1);
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
    let v = json_of(&meshspec(&["survey", dir, "--json"]));
    let web = layout(&v, "unity-web");
    assert_eq!(
        (web["tried"].as_u64(), web["passed"].as_u64()),
        (Some(1), Some(1)),
        "{web}"
    );
}

/// `meshspec unity typetree` of the corpus's serialized file with `args` after it.
fn typetree(args: &[&str]) -> Output {
    meshspec(&[&["unity", "typetree", GAME], args].concat())
}

#[test]
fn typetree_prints_each_distinct_tree_of_a_class_one_line_per_node() {
    let out = typetree(&["--class", "Mesh"]);
    code(&out, 0);
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
    has(&t, "\n    bool m_KeepIndices (1 byte, align)\n");
    has(&t, "\n          AABB localAABB (24 bytes)\n");
    // One line per node of the tree, after the heading.
    let nodes = lines.len() - 1;
    assert_eq!(text(&out.stderr), "1 type tree\n");
    // The class by its id gives the same; every class gives one block each.
    let by_id = typetree(&["--class", "43"]);
    assert_eq!(text(&by_id.stdout), t);
    let all = typetree(&[]);
    code(&all, 0);
    let headings: Vec<String> = text(&all.stdout)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(str::to_string)
        .collect();
    assert_eq!(headings.len(), 7, "{headings:?}");
    assert!(headings[0].starts_with("GameObject (class 1): 4 objects"));
    // The three bundles hold the same serialized file: one block, naming the first and how
    // many more.
    let out = meshspec(&["unity", "typetree", STORED, LZ4, LZMA, "--class", "mesh"]);
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
    code(&out, 0);
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
    let all = typetree(&["--ksy"]);
    code(&all, 0);
    assert_eq!(text(&all.stdout).matches("\nmeta:\n").count(), 7);
    assert_eq!(text(&all.stdout).matches("\n---\n").count(), 6);
    // A file built without type trees has none to print.
    let out = exits(&["unity", "typetree", NOTREE], 1);
    assert_eq!(
        text(&out.stderr),
        "error: corpus/unity/notree.unity-serialized: expected type trees, found none (a file \
         built without type trees has none)\n"
    );
    let out = typetree(&["--class", "Texture2D"]);
    code(&out, 1);
    has(
        &text(&out.stderr),
        "expected a type tree of class `Texture2D`, found none",
    );
}
