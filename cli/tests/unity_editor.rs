//! A file the Unity editor saved for itself (`corpus/unity/editor.unity-serialized`: target
//! platform NoTarget, the editor-only fields in every object) on the command line: `check`,
//! `export`, `dump` and `explain` of its meshes, `survey`, and the write-back (`unity
//! replace`, `import --like`) work as on a player's file; a bare editor object cut from it
//! reads with `--unity-editor`, and the refusal without it says so.

mod common;
use common::*;

const EDITOR: &str = "corpus/unity/editor.unity-serialized";
const VERSION: &str = "2022.3.10f1";

/// A path in `dir` as text.
fn at(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_str().unwrap().to_string()
}

#[test]
fn an_editors_file_reads_and_writes_back_as_a_players() {
    let dir = tempfile::tempdir().unwrap();
    // Every mesh passes check, in both forms of the command.
    for args in [
        &["check", "unity-mesh", EDITOR][..],
        &["unity", "check", EDITOR][..],
    ] {
        let out = exits(args, 0);
        let t = text(&out.stdout);
        assert_eq!(t.lines().filter(|l| l.ends_with(": ok")).count(), 5, "{t}");
    }
    // The skinned arm exports with the renderer's joint names.
    let glb = at(&dir, "arm.glb");
    exits(
        &[
            "export",
            "unity-mesh",
            EDITOR,
            "--mesh",
            "Arm",
            "-o",
            &glb,
            "-q",
        ],
        0,
    );
    let info = json_of(&exits(
        &["info", "unity-mesh", EDITOR, "--mesh", "Arm", "--json"],
        0,
    ));
    assert_eq!(info["ok"], true, "{info}");
    // explain names the editor-only fields, at their offsets in the serialized file.
    let out = exits(
        &[
            "explain",
            "unity-mesh",
            EDITOR,
            "--mesh",
            "Arm",
            "--field",
            "object_hide_flags",
        ],
        0,
    );
    has(&text(&out.stdout), "object_hide_flags");
    // The dump holds them; a dump put back unedited, and the object put back, give the file.
    let dump = exits(&["unity", "dump", EDITOR, "--path-id", "101"], 0);
    let v = json_of(&dump);
    assert_eq!(v["data"]["object_hide_flags"], 8);
    assert_eq!(v["data"]["mesh_optimization_flags"], -1);
    let d = at(&dir, "arm.json");
    std::fs::write(&d, &dump.stdout).unwrap();
    let back = at(&dir, "back.unity-serialized");
    exits(
        &[
            "unity",
            "replace",
            EDITOR,
            "--path-id",
            "101",
            "--dump",
            &d,
            "-o",
            &back,
        ],
        0,
    );
    assert!(same_bytes(&back, root().join(EDITOR)));
    let mesh = at(&dir, "arm.mesh");
    exits(
        &["unity", "extract", EDITOR, "--path-id", "101", "-o", &mesh],
        0,
    );
    exits(
        &[
            "unity",
            "replace",
            EDITOR,
            "--path-id",
            "101",
            "--object",
            &mesh,
            "-o",
            &back,
        ],
        0,
    );
    assert!(same_bytes(&back, root().join(EDITOR)));
    // Exported and made like the original: the original's bytes, editor-only fields included.
    let like = at(&dir, "like.mesh");
    exits(
        &[
            "import",
            "unity-mesh",
            &glb,
            "--like",
            EDITOR,
            "--path-id",
            "101",
            "-o",
            &like,
        ],
        0,
    );
    assert!(same_bytes(&like, &mesh));
    // An edited dump (renamed) goes back, and the file reads with the new name.
    let mut edited = v.clone();
    edited["data"]["name"]["value"] = "Leg".into();
    std::fs::write(&d, serde_json::to_vec(&edited).unwrap()).unwrap();
    exits(
        &[
            "unity",
            "replace",
            EDITOR,
            "--path-id",
            "101",
            "--dump",
            &d,
            "-o",
            &back,
        ],
        0,
    );
    let rows = json_of(&exits(
        &["unity", "list", &back, "--class", "Mesh", "--json"],
        0,
    ));
    assert_eq!(rows[1]["name"], "Leg");
    exits(&["unity", "check", &back], 0);
    // The survey counts its five meshes, every one passing.
    let s = json_of(&exits(&["survey", EDITOR, "--json"], 0));
    let m = layout(&s, "unity-mesh");
    assert_eq!(
        (m["tried"].as_u64(), m["passed"].as_u64()),
        (Some(5), Some(5)),
        "{m}"
    );
}

#[test]
fn a_bare_editor_object_reads_with_unity_editor() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = at(&dir, "arm.mesh");
    exits(
        &["unity", "extract", EDITOR, "--path-id", "101", "-o", &mesh],
        0,
    );
    // Read as a player's object it is refused, and the refusal names the layouts that read it
    // as an editor's.
    let out = exits(
        &["check", "unity-mesh", &mesh, "--unity-version", VERSION],
        1,
    );
    let t = text(&out.stdout);
    has(&t, "as an editor's object (--unity-editor): 2022.1 to");
    exits(
        &[
            "check",
            "unity-mesh",
            &mesh,
            "--unity-version",
            VERSION,
            "--unity-editor",
        ],
        0,
    );
    // dump and build give its bytes; built as a player's, the editor-only fields are refused.
    let dump = exits(
        &[
            "dump",
            "unity-mesh",
            &mesh,
            "--unity-version",
            VERSION,
            "--unity-editor",
        ],
        0,
    );
    let d = at(&dir, "arm.json");
    std::fs::write(&d, &dump.stdout).unwrap();
    let built = at(&dir, "built.mesh");
    exits(
        &[
            "build",
            "unity-mesh",
            &d,
            "--unity-version",
            VERSION,
            "--unity-editor",
            "-o",
            &built,
        ],
        0,
    );
    assert!(same_bytes(&built, &mesh));
    let out = exits(
        &[
            "build",
            "unity-mesh",
            &d,
            "--unity-version",
            VERSION,
            "-o",
            &built,
        ],
        1,
    );
    has(&text(&out.stderr), "unity_mesh.object_hide_flags");
    // A game file says itself whether the editor saved it.
    for args in [
        &["check", "unity-mesh", EDITOR, "--unity-editor"][..],
        &[
            "export",
            "unity-mesh",
            EDITOR,
            "--mesh",
            "Arm",
            "-o",
            &at(&dir, "x.glb"),
            "--unity-editor",
        ][..],
        &[
            "info",
            "unity-mesh",
            EDITOR,
            "--mesh",
            "Arm",
            "--unity-editor",
        ][..],
    ] {
        let out = exits(args, 2);
        has(
            &text(&out.stderr),
            "--unity-editor is for a bare Mesh object",
        );
    }
}
