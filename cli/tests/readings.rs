//! Each input is read once per command (issue 25): the runtime counts its readings by layout
//! (`MESHSPEC_READINGS=1` prints them), and every command of a bare object or a game file
//! reads the file, each container inside it and each object it works on exactly once.

mod common;
use common::*;
use std::collections::BTreeMap;

/// The readings `meshspec ARGS` made, by layout id.
fn readings(args: &[&str]) -> BTreeMap<String, u64> {
    let mut c = cmd(args);
    c.env("MESHSPEC_READINGS", "1");
    let out = run(c, None);
    let err = text(&out.stderr);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("meshspec readings: "))
        .unwrap_or_else(|| panic!("{args:?}: no readings line in {err}"));
    serde_json::from_str(line).unwrap()
}

fn once(ids: &[&str]) -> BTreeMap<String, u64> {
    ids.iter().map(|i| (i.to_string(), 1)).collect()
}

#[test]
fn every_command_reads_a_bare_object_once() {
    let dir = scratch_dir("readings-bare");
    let glb = dir.join("out.glb");
    let glb = glb.to_str().unwrap();
    for (layout, file) in [
        ("meshbin", "corpus/meshbin/cube.meshbin"),
        ("sws-mesh", "corpus/sws/built-skinned.sws-mesh"),
        ("sws-submesh", "corpus/sws/hand-triangle.sws-submesh"),
        ("rr-mesh", "corpus/rr/inline-two-objects.rr-mesh"),
        ("rr-mesh-data", "corpus/rr/inline-two-objects.rr-mesh-data"),
        (
            "sws-compiled-mesh",
            "corpus/sws/hand-boned.sws-compiled-mesh",
        ),
        (
            "rr-compiled-mesh",
            "corpus/rr/quad-split12.rr-compiled-mesh",
        ),
    ] {
        let winding: &[&str] = if layout == "meshbin" {
            &["--winding", "gl"]
        } else {
            &[]
        };
        for command in [
            vec!["check", layout, file],
            vec!["info", layout, file],
            vec!["dump", layout, file],
            vec!["explain", layout, file],
            vec!["export", layout, file, "-o", glb],
            vec!["survey", file],
        ] {
            let mut args = command.clone();
            if command[0] == "export" {
                args.extend_from_slice(winding);
            }
            assert_eq!(readings(&args), once(&[layout]), "{args:?}");
        }
    }
}

#[test]
fn every_command_reads_a_game_file_and_each_object_once() {
    let dir = scratch_dir("readings-game");
    let glb = dir.join("out.glb");
    let glb = glb.to_str().unwrap();
    let all = dir.join("all");
    let all = all.to_str().unwrap();
    for (file, containers) in [
        (
            "corpus/unity/lz4.unity-bundle",
            &[
                "unity-bundle",
                "unity-bundle-blocks-info",
                "unity-serialized",
            ][..],
        ),
        (
            "corpus/unity/game.unity-serialized",
            &["unity-serialized"][..],
        ),
        (
            "corpus/unity/web.unity-web",
            &["unity-web", "unity-web-payload", "unity-serialized"][..],
        ),
    ] {
        let mut one = once(containers);
        one.insert("unity-mesh".into(), 1);
        let mesh = ["--mesh", "Arm"];
        for command in ["check", "info", "dump", "explain"] {
            let mut args = vec![command, "unity-mesh", file];
            args.extend_from_slice(&mesh);
            assert_eq!(readings(&args), one, "{args:?}");
        }
        let mut args = vec!["export", "unity-mesh", file, "-o", glb];
        args.extend_from_slice(&mesh);
        assert_eq!(readings(&args), one, "{args:?}");
        // Every mesh of the file, each once.
        let listed = text(&meshspec(&["unity", "list", file, "--class", "Mesh"]).stdout);
        let meshes = listed.lines().filter(|l| l.contains("Mesh (43)")).count() as u64;
        assert!(meshes > 1, "{file}: {listed}");
        let mut each = once(containers);
        each.insert("unity-mesh".into(), meshes);
        for args in [
            vec!["unity", "check", file],
            vec!["unity", "export", file, "--all", "-o", all],
            vec!["survey", file],
        ] {
            let _ = std::fs::remove_dir_all(all);
            assert_eq!(readings(&args), each, "{args:?}");
        }
        assert_eq!(
            readings(&["unity", "list", file]),
            once(containers),
            "{file}"
        );
    }
}
