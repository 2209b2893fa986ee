//! The command line's lines and exit codes are an interface (docs/cli.md): these tests pin them.

mod common;
use common::*;

const FLOOR: &str = "corpus/meshbin/floor.meshbin";
const CUBE: &str = "corpus/meshbin/cube.meshbin";

#[test]
fn layouts_lists_every_layout_with_a_description() {
    let t = text(&exits(&["layouts"], 0).stdout);
    assert!(
        t.lines()
            .any(|l| l.starts_with("meshbin ") && l.contains("MeshBuilder")),
        "{t}"
    );
}

#[test]
fn check_prints_one_line_per_file_and_exits_1_on_any_failure() {
    let out = exits(&["check", "meshbin", FLOOR, CUBE], 0);
    assert_eq!(
        text(&out.stdout),
        "corpus/meshbin/floor.meshbin: ok\ncorpus/meshbin/cube.meshbin: ok\n"
    );
    let bad = scratch("short.meshbin");
    let floor = std::fs::read(root().join(FLOOR)).unwrap();
    std::fs::write(&bad, &floor[..79]).unwrap();
    let b = bad.to_str().unwrap();
    let out = exits(&["check", "meshbin", FLOOR, b], 1);
    let t = text(&out.stdout);
    assert_eq!(t.lines().count(), 2);
    assert_eq!(
        t.lines().nth(1).unwrap(),
        format!("{b}: 0x44 meshbin.indices: expected at most 5 elements (11 bytes left, 2 bytes each at least), found 6 elements")
    );
    assert_eq!(text(&out.stderr), "2 files: 1 ok, 1 failed\n");
}

#[test]
fn violated_relations_fail_unless_asked_to_warn() {
    // A proven relation refuses the file; `--relations warn` reports it and passes.
    let p = "corpus/sws/bad/total-adds-up.sws-mesh";
    let line = "0x55 sws_mesh.data.total: expected total == len_vertex_stream * (num_extra_streams + 1) + len_indices + 24 * (num_ranges_a + num_ranges_b) with len_vertex_stream = 32, num_extra_streams = 0, len_indices = 12, num_ranges_a = 1, num_ranges_b = 1 (relation `total_adds_up`), found 999";
    let out = exits(&["check", "sws-mesh", p], 1);
    assert_eq!(text(&out.stdout), format!("{p}: {line}\n"));
    let out = exits(&["check", "sws-mesh", p, "--relations", "warn"], 0);
    assert_eq!(
        text(&out.stdout),
        format!("{p}: warning: {line}\n{p}: ok\n")
    );
}

#[test]
fn rules_the_documents_do_not_prove_warn_unless_strict() {
    // `palette_bones_exist` is inferred: a warning, and the file passes; `--strict` fails it.
    let p = "corpus/sws/bad/palette-bones-exist.sws-mesh";
    let out = exits(&["check", "sws-mesh", p], 0);
    let t = text(&out.stdout);
    assert!(t.starts_with(&format!("{p}: warning: 0x1A7 ")), "{t}");
    assert!(t.ends_with(&format!("{p}: ok\n")), "{t}");
    let out = exits(&["check", "sws-mesh", p, "--strict"], 1);
    assert!(!text(&out.stdout).contains(": ok"));
}

#[test]
fn an_index_naming_no_vertex_is_warned_about_and_cannot_be_decoded() {
    // The relation is the document's (sourced: a warning); decoding the triangles rests on it,
    // so the verdict refuses the file whatever the relation mode.
    let mut floor = std::fs::read(root().join(FLOOR)).unwrap();
    floor[0x44 + 8] = 9;
    let f = scratch("bad-index.meshbin");
    std::fs::write(&f, &floor).unwrap();
    let p = f.to_str().unwrap();
    for mode in ["error", "warn"] {
        let out = exits(&["check", "meshbin", p, "--relations", mode], 1);
        assert_eq!(
            text(&out.stdout),
            format!("{p}: warning: 0x4C meshbin.indices[4]: expected _ < num_vertices with num_vertices = 4 (relation `indices_name_vertices`), found 9\n{p}: 0x44 meshbin.indices: expected every index below the vertex count 4, to decode the triangles, found 1 indices that name no vertex\n")
        );
    }
    // Export refuses it with the same error, and build will not write it.
    let glb = scratch("bad.glb");
    let g = glb.to_str().unwrap();
    let out = exits(&["export", "meshbin", p, "--winding", "d3d", "-o", g], 1);
    has(
        &text(&out.stderr),
        "0x44 meshbin.indices: expected every index below",
    );
}

#[test]
fn dump_then_build_from_stdin_gives_the_file_back() {
    for format in ["json", "yaml"] {
        let out = exits(&["dump", "meshbin", CUBE, "--format", format], 0);
        let built = meshspec_in(&["build", "meshbin", "-"], &out.stdout);
        code(&built, 0);
        assert!(built.stdout == std::fs::read(root().join(CUBE)).unwrap());
    }
}

#[test]
fn a_refused_build_writes_nothing() {
    let dump = meshspec(&["dump", "meshbin", FLOOR]).stdout;
    let mut v: serde_json::Value = serde_json::from_slice(&dump).unwrap();
    v["data"]["vertices"][0]["a"] = 256.into();
    let target = scratch("never.meshbin");
    let out = meshspec_in(
        &["build", "meshbin", "-", "-o", target.to_str().unwrap()],
        serde_json::to_string(&v).unwrap().as_bytes(),
    );
    code(&out, 1);
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: dump: expected a valid value at data.vertices[0].a"),
        "{err}"
    );
    assert!(!target.exists());
}

#[test]
fn export_needs_the_winding_and_writes_a_glb() {
    let glb = scratch("floor.glb");
    let g = glb.to_str().unwrap();
    // A missing winding is a usage mistake, found before the input is read.
    let out = exits(&["export", "meshbin", FLOOR, "-o", g], 2);
    has(&text(&out.stderr), "--winding d3d or --winding gl");
    assert!(!glb.exists());
    exits(
        &["export", "meshbin", FLOOR, "-o", g, "--winding", "d3d"],
        0,
    );
    assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
}

#[test]
fn import_builds_the_documents_file_from_geometry() {
    let glb = scratch("cube.glb");
    let g = glb.to_str().unwrap();
    exits(&["export", "meshbin", CUBE, "-o", g, "--winding", "d3d"], 0);
    let back = scratch("cube.meshbin");
    let b = back.to_str().unwrap();
    exits(&["import", "meshbin", g, "-o", b, "--winding", "d3d"], 0);
    assert!(same_bytes(&back, root().join(CUBE)));
}

#[test]
fn unknown_layouts_and_usage_errors_have_their_exit_codes() {
    let out = exits(&["check", "nope", FLOOR], 2);
    assert!(text(&out.stderr).starts_with("error: unknown layout `nope`"));
    exits(&["check", "meshbin"], 2);
}

#[test]
fn survey_reports_and_exits_0() {
    let t = text(&exits(&["survey", "corpus/meshbin"], 0).stdout);
    assert!(t.starts_with("# Survey\n"), "{t}");
    has(
        &t,
        "## meshbin\n\n6 files tried (2.3 MB): 6 read, 6 consumed exactly, 6 passed, 0 failed.",
    );
}

#[test]
fn export_says_which_skin_influences_it_drew() {
    // The Robot body of the shared corpus (skipped with a line when ../shared is not there).
    let body = root()
        .join("../shared/corpus/unity/meshes/2021.3.0f1/Robot_A_Body_LOD03.c1bd822390ee02eb.mesh");
    if !body.exists() {
        eprintln!("SKIPPED: {} is not there", body.display());
        return;
    }
    let body = body.to_str().unwrap();
    let out_glb = scratch("skin-weights.glb");
    let out = out_glb.to_str().unwrap();
    for (n, note) in [
        ("1", "up to 1 influence per vertex (--skin-weights 1)"),
        ("4", "up to 4 influences per vertex (--skin-weights 4)"),
        // The body has no m_VariableBoneCountWeights: all draws its four blend channels.
        ("all", "up to 4 influences per vertex (--skin-weights all)"),
    ] {
        let export = ["export", "unity-mesh", "--unity-version", "2021.3.0f1"];
        let o = exits(
            &[&export[..], &["--skin-weights", n, body, "-o", out]].concat(),
            0,
        );
        has(&text(&o.stderr), note);
    }
    exits(
        &[
            "export",
            "unity-mesh",
            "--skin-weights",
            "3",
            body,
            "-o",
            out,
        ],
        2,
    );
}
