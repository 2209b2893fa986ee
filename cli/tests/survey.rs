//! `meshspec survey`: the census of a folder as people read it (Markdown) and as tools read it
//! (`--json`, stable, mergeable), its usage mistakes, Unity's companion files, the progress bar.

mod common;
use common::*;
use serde_json::Value;

#[track_caller]
fn json(args: &[&str]) -> Value {
    json_of(&exits(&[args, &["--json"]].concat(), 0))
}

#[test]
fn the_corpus_census_is_markdown_with_failures_as_data() {
    let out = exits(&["survey", "corpus"], 0);
    let t = text(&out.stdout);
    assert!(t.starts_with("# Survey\n"), "{t}");
    has(&t, "## sws-mesh\n");
    // The bad samples fail, grouped by field and rule, with an example each.
    has(&t, "### Failures, by field and rule");
    has(&t, "| `data.total` | relation `total_adds_up` | corpus/sws/bad/total-adds-up.sws-mesh: 0x55 sws_mesh.data.total: expected");
    // Relations with how often they held, and fields below proven in the documents' style.
    has(
        &t,
        "| `indices_name_vertices` | sourced | warning | 6 | none |",
    );
    has(
        &t,
        "| `num_vertices` | u2 | sourced | 6 in 6 files | 4 on 2; 24 on 2; 65,508 on 2 |",
    );
    // What no layout claims is skipped, with examples, never a stop.
    has(&t, "## Skipped");
    has(&t, "| 3 | .py | no layout claims it");
    // --fail-on-error makes the failures count.
    exits(&["survey", "corpus", "--fail-on-error"], 1);
    exits(&["survey", "corpus/meshbin", "--fail-on-error"], 0);
}

#[test]
fn a_path_that_does_not_exist_is_a_usage_mistake() {
    for args in [
        vec!["survey", "/nonexistent", "corpus/meshbin"],
        vec!["survey", "/nonexistent"],
    ] {
        let out = exits(&args, 2);
        assert_eq!(
            text(&out.stderr),
            "error: /nonexistent: no such file or folder\n",
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
    let out = exits(&["survey", "corpus", "--layout", "unity-mesh"], 2);
    has(&text(&out.stderr), "--unity-version");
    exits(&["survey", "corpus", "--jobs", "0"], 2);
    exits(&["survey", "corpus", "--layout", "nope"], 2);
}

#[test]
fn json_is_stable_and_reports_add_up() {
    let a = meshspec(&["survey", "corpus", "--json"]);
    let b = meshspec(&["survey", "corpus", "--json", "--jobs", "1"]);
    code(&a, 0);
    assert_eq!(text(&a.stdout), text(&b.stdout), "two runs differ");
    let one: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(
        (&one["version"], &one["command"]),
        (&2.into(), &"survey".into())
    );
    let d = scratch_dir("survey-merge");
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
    std::fs::write(&other, meshspec(&["layouts", "--json"]).stdout).unwrap();
    let out = exits(&["survey", "--merge", other.to_str().unwrap()], 1);
    has(&text(&out.stderr), "expected a survey report of version 2");
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
    let out = meshspec(&["survey", "corpus"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // On a terminal (script's pseudo-terminal): files, bytes, rate and time left.
    let out = on_terminal(
        "survey corpus --jobs 1 > /dev/null",
        &[("TERM", Some("xterm"))],
    );
    let Some(out) = out else {
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
