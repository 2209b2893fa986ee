//! `meshspec survey`: the census of a folder as people read it (Markdown) and as tools read it
//! (`--json`, stable, mergeable), its usage mistakes, Unity's companion files, the progress bar.

mod common;
use common::*;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let out = meshspec(&a, None);
    code(&out, 0);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn layout<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["layout"] == id)
        .unwrap_or_else(|| panic!("no {id} in {doc:#}"))
}

#[test]
fn the_corpus_census_is_markdown_with_failures_as_data() {
    let out = meshspec(&["survey", "corpus"], None);
    code(&out, 0);
    let t = text(&out.stdout);
    assert!(t.starts_with("# Survey\n"), "{t}");
    assert!(t.contains("## sws-mesh\n"), "{t}");
    // The bad samples fail, grouped by field and rule, with an example each.
    assert!(t.contains("### Failures, by field and rule"), "{t}");
    assert!(
        t.contains("| `data.total` | relation `total_adds_up` | corpus/sws/bad/total-adds-up.sws-mesh: 0x55 sws_mesh.data.total: expected"),
        "{t}"
    );
    // Relations with how often they held, and fields below proven in the documents' style.
    assert!(
        t.contains("| `indices_name_vertices` | sourced | warning | 6 | none |"),
        "{t}"
    );
    assert!(
        t.contains(
            "| `num_vertices` | u2 | sourced | 6 in 6 files | 4 on 2; 24 on 2; 65,508 on 2 |"
        ),
        "{t}"
    );
    // What no layout claims is skipped, with examples, never a stop.
    assert!(t.contains("## Skipped"), "{t}");
    assert!(t.contains("| 3 | .py | no layout claims it"), "{t}");
    // --fail-on-error makes the failures count.
    code(&meshspec(&["survey", "corpus", "--fail-on-error"], None), 1);
    code(
        &meshspec(&["survey", "corpus/meshbin", "--fail-on-error"], None),
        0,
    );
}

#[test]
fn a_path_that_does_not_exist_is_a_usage_mistake() {
    for args in [
        vec!["survey", "/nonexistent", "corpus/meshbin"],
        vec!["survey", "/nonexistent"],
    ] {
        let out = meshspec(&args, None);
        code(&out, 2);
        assert_eq!(
            text(&out.stderr),
            "error: /nonexistent: no such file or folder\n",
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
    let out = meshspec(&["survey", "corpus", "--layout", "unity-mesh"], None);
    code(&out, 2);
    assert!(
        text(&out.stderr).contains("--unity-version"),
        "{}",
        text(&out.stderr)
    );
    code(&meshspec(&["survey", "corpus", "--jobs", "0"], None), 2);
    code(
        &meshspec(&["survey", "corpus", "--layout", "nope"], None),
        2,
    );
}

#[test]
fn json_is_stable_and_reports_add_up() {
    let a = meshspec(&["survey", "corpus", "--json"], None);
    let b = meshspec(&["survey", "corpus", "--json", "--jobs", "1"], None);
    code(&a, 0);
    assert_eq!(text(&a.stdout), text(&b.stdout), "two runs differ");
    let one: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(
        (&one["version"], &one["command"]),
        (&2.into(), &"survey".into())
    );
    let d = tmp_dir("survey-merge");
    let f = d.join("corpus.json");
    std::fs::write(&f, &a.stdout).unwrap();
    let f = f.to_str().unwrap();
    let two = json(&["survey", "--merge", f, f]);
    for key in ["files", "bytes", "skipped_files"] {
        assert_eq!(
            two[key].as_u64().unwrap(),
            2 * one[key].as_u64().unwrap(),
            "{key}"
        );
    }
    let (m1, m2) = (layout(&one, "meshbin"), layout(&two, "meshbin"));
    assert_eq!(
        m2["tried"].as_u64().unwrap(),
        2 * m1["tried"].as_u64().unwrap()
    );
    assert_eq!(
        m2["fields"]["num_vertices"]["values"]["values"][0],
        serde_json::json!({"value": {"u": 4}, "count": 4})
    );
    // Another command's document is not a survey report.
    let other = d.join("layouts.json");
    std::fs::write(&other, meshspec(&["layouts", "--json"], None).stdout).unwrap();
    let out = meshspec(&["survey", "--merge", other.to_str().unwrap()], None);
    code(&out, 1);
    assert!(
        text(&out.stderr).contains("expected a survey report of version 2"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn unity_meshes_are_read_beside_their_companions() {
    let Some(shared) = shared() else { return };
    let meshes = shared.join("corpus/unity/meshes");
    let m = meshes.to_str().unwrap();
    let doc = json(&[
        "survey",
        "--layout",
        "unity-mesh",
        "--unity-version",
        "auto",
        m,
    ]);
    let u = layout(&doc, "unity-mesh");
    assert_eq!(
        (u["tried"].as_u64(), u["failed"].as_u64()),
        (Some(35), Some(0)),
        "{u:#}"
    );
    // index.json (no version folder above it), the .resS and the UnityPy files are skipped
    // with the reason, not counted as failed meshes.
    let skipped: Vec<(&str, u64)> = doc["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["extension"].as_str().unwrap(),
                s["files"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(skipped, [("json", 36), ("resS", 5), ("vertexdata", 18)]);
    // Read without a layout, `.mesh` names none and Unity meshes have no signature: skipped.
    let doc = json(&["survey", m]);
    assert_eq!(doc["layouts"].as_array().unwrap().len(), 0, "{doc:#}");
    assert_eq!(doc["skipped_files"], doc["files"]);
}

#[test]
fn a_progress_bar_on_a_terminal_only() {
    // Piped: nothing on standard error.
    let out = meshspec(&["survey", "corpus"], None);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // On a terminal (script's pseudo-terminal): files, bytes, rate and time left.
    let bin = env!("CARGO_BIN_EXE_meshspec");
    let out = std::process::Command::new("script")
        .args([
            "-qfec",
            &format!("'{bin}' survey corpus --jobs 1 > /dev/null"),
            "/dev/null",
        ])
        .current_dir(root())
        .env("TERM", "xterm")
        .output();
    let Ok(out) = out else {
        eprintln!("no `script` here: the terminal part is not run");
        return;
    };
    let t = text(&out.stdout);
    // `N/TOTAL files`: the total is every file under corpus/, counted before the first.
    let total = t
        .split(" files,")
        .next()
        .and_then(|head| head.rsplit('/').next())
        .and_then(|n| n.trim().parse::<u32>().ok());
    assert!(total.is_some_and(|n| n > 80), "{t:?}");
    assert!(t.contains("left)"), "{t:?}");
}
