//! `--json` is a stable interface: every command's document validates against the schema the
//! repository ships (cli/report.schema.json), in success and in refusal.

mod common;
use common::*;
use serde_json::Value;

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_slice(&std::fs::read(root().join("cli/report.schema.json")).unwrap())
            .unwrap();
    jsonschema::meta::validate(&schema).expect("the schema is a valid JSON Schema");
    jsonschema::validator_for(&schema).unwrap()
}

/// Runs `meshspec ARGS --json`, checks the exit code, validates the document and returns it.
#[track_caller]
fn doc(args: &[&str], want: i32) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let out = meshspec(&a);
    code(&out, want);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", text(&out.stdout)));
    let errors: Vec<String> = validator()
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{args:?}: {errors:#?}\n{v:#}");
    // (Survey documents are version 2: their report was redesigned; the others version 1.)
    let version = if v["command"] == "survey" { 2 } else { 1 };
    assert_eq!(v["version"], version);
    v
}

#[test]
fn layouts_say_what_each_needs() {
    let v = doc(&["layouts"], 0);
    let find = |id: &str| {
        v["layouts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        find("unity-mesh")["reading_needs"],
        serde_json::json!(["--unity-version"])
    );
    assert_eq!(
        find("meshbin")["geometry_needs"],
        serde_json::json!(["--winding"])
    );
    assert_eq!(find("sws-mesh")["reading_needs"], serde_json::json!([]));
}

const HELIX_BAD: &str = "cli/tests/regressions/helix-all-indices-bad.meshbin";
const TRIANGLE: &str = "corpus/sws/hand-triangle.sws-uv-channel";

#[test]
fn check_verdicts_are_objects_with_offset_path_relation_and_severity() {
    let floor = "corpus/meshbin/floor.meshbin";
    let v = doc(
        &["check", "meshbin", floor, HELIX_BAD, "no-such.meshbin"],
        1,
    );
    assert_eq!((v["ok"].as_u64(), v["failed"].as_u64()), (Some(1), Some(2)));
    let files = v["files"].as_array().unwrap();
    assert_eq!(files[0]["ok"], true);
    let bad = &files[1];
    assert_eq!(bad["ok"], false);
    // The first 10 of the relation (warnings: the document's word is sourced), then the error
    // that decoding rests on.
    assert_eq!(bad["findings"].as_array().unwrap().len(), 11);
    assert_eq!(bad["findings"][10]["severity"], "error");
    assert_eq!(bad["findings"][10]["path"], "meshbin.indices");
    assert_eq!(
        bad["findings"][0],
        serde_json::json!({
            "severity": "warning",
            "offset": 0xFFE44,
            "resource": null,
            "path": "meshbin.indices[0]",
            "relation": "indices_name_vertices",
            "expected": "_ < num_vertices with num_vertices = 65508",
            "found": "65535",
            "text": "0xFFE44 meshbin.indices[0]: expected _ < num_vertices with num_vertices = 65508 (relation `indices_name_vertices`), found 65535",
        })
    );
    assert_eq!(
        bad["omitted"],
        serde_json::json!([{ "severity": "warning", "relation": "indices_name_vertices", "count": 65498 }])
    );
    assert_eq!(files[2]["findings"][0]["path"], "no-such.meshbin");
    // --all lists every finding.
    let v = doc(&["check", "meshbin", HELIX_BAD, "--all"], 1);
    assert_eq!(v["files"][0]["findings"].as_array().unwrap().len(), 65_509);
    assert_eq!(v["files"][0]["omitted"], serde_json::json!([]));
}

#[test]
fn warnings_under_relations_warn_pass() {
    let p = "corpus/sws/bad/total-adds-up.sws-mesh";
    let v = doc(&["check", "sws-mesh", p, "--relations", "warn"], 0);
    assert_eq!(v["files"][0]["ok"], true);
    assert_eq!(v["files"][0]["findings"][0]["severity"], "warning");
    assert_eq!(v["files"][0]["findings"][0]["offset"], 0x55);
    assert_eq!(v["files"][0]["findings"][0]["relation"], "total_adds_up");
}

#[test]
fn info_export_and_import_documents_validate() {
    let cube = "corpus/meshbin/cube.meshbin";
    let v = doc(&["info", "meshbin", cube], 0);
    assert_eq!(v["meshes"][0]["vertices"], 24);
    assert_eq!(
        v["meshes"][0]["attributes"],
        serde_json::json!(["POSITION", "COLOR_0"])
    );
    let v = doc(&["info", "sws-uv-channel", TRIANGLE], 0);
    assert_eq!(v["meshes"], serde_json::json!([]));
    assert_eq!(v["geometry_error"]["severity"], "error");

    let d = scratch_dir("json-export");
    let glb = d.join("cube.glb");
    let g = glb.to_str().unwrap();
    let v = doc(&["export", "meshbin", cube, "-o", g, "--winding", "d3d"], 0);
    assert_eq!(v["written"], true);
    assert!(glb.exists());
    // A refusal is a message of the document (and exit 1), not an `error:` line.
    let x = d.join("x.glb");
    let export = [
        "export",
        "sws-uv-channel",
        TRIANGLE,
        "-o",
        x.to_str().unwrap(),
    ];
    let out = exits(&[&export[..], &["--json"]].concat(), 1);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let v = doc(&export, 1);
    assert_eq!(v["written"], false);
    assert!(!x.exists());

    let back = d.join("cube.meshbin");
    let b = back.to_str().unwrap();
    let v = doc(&["import", "meshbin", g, "-o", b, "--winding", "d3d"], 0);
    assert_eq!(v["command"], "import");
    assert_eq!(v["written"], true);
}

#[test]
fn unity_replace_documents_validate() {
    let d = scratch_dir("json-unity-replace");
    let file = "corpus/unity/lz4.unity-bundle";
    let mesh = d.join("arm.mesh");
    let m = mesh.to_str().unwrap();
    exits(&["unity", "extract", file, "--path-id", "101", "-o", m], 0);
    let out = d.join("out.bundle");
    let o = out.to_str().unwrap();
    let replace = |id: &str, want: i32| {
        let args = [
            "unity",
            "replace",
            file,
            "--path-id",
            id,
            "--object",
            m,
            "-o",
            o,
        ];
        doc(&args, want)
    };
    let v = replace("101", 0);
    assert_eq!(
        (
            v["command"].as_str(),
            v["layout"].as_str(),
            v["written"].as_bool()
        ),
        (Some("unity replace"), Some("unity-bundle"), Some(true))
    );
    assert!(v["messages"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("replaced path id 101"));
    std::fs::remove_file(&out).unwrap();
    let v = replace("1", 1);
    assert_eq!(v["written"], false);
    assert!(!out.exists());
}

#[test]
fn survey_documents_validate() {
    let v = doc(&["survey", "corpus"], 0);
    let layouts = v["layouts"].as_array().unwrap();
    assert!(layouts.len() >= 8, "{}", layouts.len());
}

#[test]
fn the_schema_refuses_what_it_should() {
    // A message without its relation key, and a check whose file says nothing, are not
    // version 1 documents: the schema is not a formality.
    let v = validator();
    let good = serde_json::json!({
        "version": 1, "command": "check", "layout": "meshbin", "ok": 0, "failed": 1,
        "files": [{ "file": "f", "ok": false, "omitted": [], "notes": [], "findings": [{
            "severity": "error", "offset": 4, "path": "meshbin.x", "relation": null,
            "expected": "a", "found": "b", "text": "0x4 meshbin.x: expected a, found b"
        }]}]
    });
    assert!(v.is_valid(&good));
    let mut bad = good.clone();
    bad["files"][0]["findings"][0]
        .as_object_mut()
        .unwrap()
        .remove("relation");
    assert!(!v.is_valid(&bad));
    let mut bad = good.clone();
    bad["version"] = 2.into();
    assert!(!v.is_valid(&bad));
    let mut bad = good;
    bad["files"][0]["findings"][0]["severity"] = "fatal".into();
    assert!(!v.is_valid(&bad));
}
