//! The game-file form of `info` and `explain`, files whose version string is not a version,
//! and whole player builds in a folder, on the command line: their lines are an interface.

mod common;

use common::*;
use meshspec_tests::unity_fixtures::{bundle_with_version, cut};
use std::path::PathBuf;

const LZ4: &str = "corpus/unity/lz4.unity-bundle";
const V: &str = "2022.3.10f1";

/// `meshspec ARGS` that must exit with `code`; its standard output.
#[track_caller]
fn run(args: &[&str], want: i32) -> String {
    text(&exits(args, want).stdout)
}

/// The object `unity extract` cuts out of `file`.
fn extracted(file: &str, id: &str) -> PathBuf {
    let out = scratch(&format!("{}.{id}.mesh", file.replace('/', "_")));
    let o = out.to_str().unwrap();
    run(&["unity", "extract", file, "--path-id", id, "-o", o], 0);
    out
}

#[test]
fn info_of_a_game_files_mesh_is_the_screen_of_the_extracted_object() {
    for (file, id, name) in [
        ("corpus/unity/lz4.unity-bundle", "101", "Arm"),
        ("corpus/unity/game.unity-serialized", "102", "Face"),
        ("corpus/unity/player.unity-bundle", "104", "Wire"),
    ] {
        let game = run(&["info", "unity-mesh", file, "--mesh", name], 0);
        let bare = extracted(file, id);
        let alone = run(
            &[
                "info",
                "unity-mesh",
                bare.to_str().unwrap(),
                "--unity-version",
                V,
            ],
            0,
        );
        let (g, b): (Vec<&str>, Vec<&str>) = (game.lines().collect(), alone.lines().collect());
        assert!(
            g[0].starts_with(file) && g[0].ends_with(&format!("#{id}")),
            "{}",
            g[0]
        );
        assert_eq!(g[1..], b[1..], "{file}");
        assert!(
            g.contains(&format!("  mesh 0       {name}").as_str()),
            "{game}"
        );
        // The same with --path-id, and as JSON.
        assert_eq!(run(&["info", "unity-mesh", file, "--path-id", id], 0), game);
        let j = json_of(&exits(
            &["info", "unity-mesh", file, "--mesh", name, "--json"],
            0,
        ));
        assert_eq!(j["command"], "info");
        assert_eq!(j["meshes"][0]["name"], name);
        assert_eq!(j["file"], g[0]);
    }
}

/// The rows of `explain`'s text: offset and the rest of the line.
fn rows(out: &str) -> Vec<(u64, String)> {
    out.lines()
        .skip(4)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let t = l[2..].trim_start();
            let (off, rest) = t.split_once(' ').unwrap();
            (
                u64::from_str_radix(off.trim_start_matches("0x"), 16).unwrap(),
                rest.trim_start().to_string(),
            )
        })
        .collect()
}

#[test]
fn explain_of_a_game_files_mesh_is_the_extracted_objects_with_offsets_in_its_serialized_file() {
    let file = LZ4;
    let list = json_of(&exits(&["unity", "list", file, "--json"], 0));
    let mut rows_listed = list.as_array().unwrap().iter();
    let arm = rows_listed.find(|r| r["path_id"] == 101).unwrap();
    let start = arm["offset"].as_u64().unwrap();
    let arm = ["explain", "unity-mesh", file, "--mesh", "Arm"];
    let game = run(&arm, 0);
    let bare = extracted(file, "101");
    let b = bare.to_str().unwrap();
    let alone = run(&["explain", "unity-mesh", b, "--unity-version", V], 0);
    assert_eq!(
        game.lines().next().unwrap(),
        format!("unity-mesh: {file}/CAB-0123456789abcdef0123456789abcdef#101 (948 bytes at 0x{start:X} of CAB-0123456789abcdef0123456789abcdef, spec/unity_mesh.ksy); verdict: passes")
    );
    let (g, a) = (rows(&game), rows(&alone));
    assert!(g.len() > 50, "{game}");
    assert_eq!(g.len(), a.len());
    for ((go, gr), (ao, ar)) in g.iter().zip(&a) {
        assert_eq!(*go, ao + start);
        assert_eq!(gr, ar);
    }
    // --at counts in the serialized file too, and an offset outside the object is refused.
    let at = format!("0x{:X}", start + 8);
    let near = run(&[&arm[..], &["--at", &at]].concat(), 0);
    assert!(
        near.lines()
            .any(|l| l.starts_with(&format!("> 0x{:X} ", start + 8))),
        "{near}"
    );
    let out = exits(&[&arm[..], &["--at", "0x10"]].concat(), 1);
    has(&text(&out.stderr), &format!(
        "expected --at 16: an offset of the object's bytes (0x{start:X} to 0x{:X} of its serialized file)",
        start + 948
    ));
    // The page names the serialized file and gives each byte its offset there.
    let page = scratch("arm.html");
    run(&[&arm[..], &["--html", page.to_str().unwrap()]].concat(), 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("of CAB-0123456789abcdef0123456789abcdef"));
    assert!(html.contains(&format!("id=\"b{start}\"")));
    assert!(!html.contains("id=\"b0\""));
}

#[test]
fn a_name_matching_several_meshes_or_none_lists_the_candidates() {
    let out = exits(&["info", "unity-mesh", "corpus/unity", "--mesh", "Arm"], 1);
    let e = text(&out.stderr);
    assert!(
        e.lines().last().unwrap().starts_with("error: --mesh Arm: expected one object (--path-id N names one; a folder or several files may hold it more than once), found 9 objects: Arm (path id 101, in corpus/unity/editor.unity-serialized), Arm (path id 101, in corpus/unity/game.unity-serialized), Arm (path id 101, in corpus/unity/lz4.unity-bundle/CAB-0123456789abcdef0123456789abcdef), "),
        "{e}"
    );
    // The files under the folder that do not open are said, not fatal.
    has(&e, "note: could not open corpus/unity/bad/corrupt-lz4.unity-bundle:0xB5 unity_bundle.blocks[0]");
    let stored = "corpus/unity/stored.unity-bundle";
    let out = exits(&["explain", "unity-mesh", stored, "--mesh", "Leg"], 1);
    assert_eq!(
        text(&out.stderr),
        "error: --mesh Leg: expected an object it names (`meshspec unity list` shows them), found none; the meshes: Blade (path id 100, in corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef), Arm (path id 101, in corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef), Face (path id 102, in corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef), Rock (path id 103, in corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef), Wire (path id 104, in corpus/unity/stored.unity-bundle/CAB-0123456789abcdef0123456789abcdef)\n"
    );
    // A selection is needed; a bare object takes none.
    let out = exits(&["info", "unity-mesh", LZ4], 2);
    assert_eq!(
        text(&out.stderr),
        "error: info of a game file needs --mesh NAME or --path-id N\n"
    );
    let bare = extracted(LZ4, "103");
    let b = bare.to_str().unwrap();
    let out = exits(
        &[
            "explain",
            "unity-mesh",
            b,
            "--unity-version",
            V,
            "--mesh",
            "Rock",
        ],
        2,
    );
    has(&text(&out.stderr), "this is a bare object");
}

#[test]
fn a_file_whose_version_string_is_not_a_version_reads_with_the_layout_that_fits() {
    let stripped = scratch("stripped.unity-bundle");
    let lz4 = std::fs::read(root().join(LZ4)).unwrap();
    std::fs::write(&stripped, bundle_with_version(&lz4, "0.0.0")).unwrap();
    let s = stripped.to_str().unwrap();
    let note = "note: CAB-0123456789abcdef0123456789abcdef: the file's version string is 0.0.0; its 5 meshes read exactly with the layout of 2022.1 to 6000.1 (read as 2022.1.0)\n";
    let out = exits(&["unity", "check", s], 0);
    assert_eq!(
        text(&out.stderr),
        format!("{note}5 meshes: 5 ok, 0 failed\n")
    );
    let ok = text(&out.stdout);
    assert_eq!(ok.lines().filter(|l| l.ends_with(": ok")).count(), 5);
    // --unity-version reads it with that version, on every command that reads game files.
    let given = "note: CAB-0123456789abcdef0123456789abcdef: the file's version string is 0.0.0; read with --unity-version 2022.3.10\n";
    let out = exits(&["check", "unity-mesh", s, "--unity-version", V], 0);
    assert_eq!(
        text(&out.stderr),
        format!("{given}5 meshes: 5 ok, 0 failed\n")
    );
    let info = run(
        &[
            "info",
            "unity-mesh",
            s,
            "--mesh",
            "Arm",
            "--unity-version",
            V,
        ],
        0,
    );
    has(
        &info,
        "note: the file's version string is 0.0.0; read with --unity-version 2022.3.10",
    );
    let info = run(&["info", "unity-mesh", s, "--mesh", "Arm"], 0);
    has(&info, "note: the file's version string is 0.0.0; its 5 meshes read exactly with the layout of 2022.1 to 6000.1 (read as 2022.1.0)");
    let explain = run(
        &[
            "explain",
            "unity-mesh",
            s,
            "--path-id",
            "101",
            "--unity-version",
            V,
        ],
        0,
    );
    assert!(
        explain.lines().next().unwrap().ends_with("verdict: passes"),
        "{explain}"
    );
    let glb = scratch("stripped-arm.glb");
    let g = glb.to_str().unwrap();
    exits(
        &[
            "unity",
            "export",
            s,
            "--mesh",
            "Arm",
            "--unity-version",
            V,
            "-o",
            g,
        ],
        0,
    );
    let bytes = std::fs::read(&glb).unwrap();
    assert!(bytes.windows(8).any(|w| w == b"Shoulder"));
    let v = json_of(&exits(&["unity", "dump", s, "--mesh", "Arm"], 0));
    assert!(v["notes"][0].as_str().unwrap().ends_with("with the layout of Unity 2022.1.0, (as the file's version string is 0.0.0; its 5 meshes read exactly with the layout of 2022.1 to 6000.1 (read as 2022.1.0))."), "{}", v["notes"][0]);
}

#[test]
fn a_player_build_in_a_folder_lists_checks_exports_and_surveys_as_its_bundle() {
    let dir = scratch("Game_Data");
    let player = std::fs::read(root().join("corpus/unity/player.unity-bundle")).unwrap();
    cut(&player, &dir);
    let d = dir.to_str().unwrap();
    let list = run(&["unity", "list", d], 0);
    let heads: Vec<&str> = list.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        heads,
        [
            format!("{d}/level0 level0:"),
            format!("{d}/sharedassets0.assets sharedassets0.assets:")
        ]
    );
    let out = exits(&["unity", "check", d], 0);
    assert_eq!(text(&out.stderr), "5 meshes: 5 ok, 0 failed\n");
    let all = scratch("player-glb");
    exits(
        &["unity", "export", d, "--all", "-o", all.to_str().unwrap()],
        0,
    );
    // The renderer in level0 names the joints of the mesh in sharedassets0.assets.
    let arm = std::fs::read(all.join("sharedassets0.assets/Arm.101.glb")).unwrap();
    assert!(arm.windows(8).any(|w| w == b"Shoulder"));
    assert!(arm.windows(7).any(|w| w == b"ArmSkin"));
    assert_eq!(names(&all.join("sharedassets0.assets")).len(), 5);
    let survey = json_of(&exits(&["survey", d, "--json"], 0));
    let mesh = layout(&survey, "unity-mesh");
    assert_eq!(mesh["tried"], 5);
    assert_eq!(mesh["in_game_files"], 5);
    assert_eq!(mesh["versions"]["2022.3.10"]["passed"], 5);
    assert_eq!(survey["skipped_files"], 1, "the .resS");
}

#[test]
fn shared_a_loose_player_folder_checks() {
    let shared = root().join("../shared/corpus/unity-real/ggj2017/Build_Data");
    if !shared.is_dir() {
        eprintln!(
            "SKIPPED shared_a_loose_player_folder_checks: {} is missing",
            shared.display()
        );
        return;
    }
    let out = exits(&["unity", "check", shared.to_str().unwrap()], 0);
    assert_eq!(text(&out.stderr), "13 meshes: 13 ok, 0 failed\n");
}
