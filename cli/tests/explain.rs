//! `meshspec explain`: every byte attributed to a field, as text (coloured by confidence only
//! when colour is on) and as one HTML page; the selections; text from the input escaped.

mod common;
use common::*;

fn explain(args: &[&str]) -> String {
    let mut a = vec!["explain"];
    a.extend_from_slice(args);
    let out = meshspec(&a, None);
    code(&out, 0);
    text(&out.stdout)
}

#[test]
fn every_field_with_offset_size_bytes_type_value_confidence_and_doc() {
    let t = explain(&["meshbin", "corpus/meshbin/floor.meshbin"]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[0],
        "meshbin: corpus/meshbin/floor.meshbin (80 bytes, spec/meshbin.ksy); verdict: passes"
    );
    let row = |field: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().any(|w| w == field))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| panic!("no {field} in {t}"))
    };
    assert_eq!(
        row("num_vertices"),
        "0x0 2 04 00 num_vertices u2 4 sourced How many vertices the vertex array holds."
    );
    // The first vertex's x: -4 as an f32, its doc; the fifth index folded with the sixth.
    assert!(row("x").starts_with("0x4 4 00 00 80 c0 x f4 -4 sourced Position x."));
    assert!(t.contains("… 2 more elements"), "{t}");
    assert_eq!(
        lines.last(),
        Some(&"Every byte belongs to a field (80 bytes).")
    );
    // Not a terminal: no colour.
    assert!(!t.contains('\u{1b}'));
}

#[test]
fn every_byte_of_every_corpus_file_belongs_to_a_field() {
    let mut n = 0;
    for dir in ["corpus/meshbin", "corpus/sws", "corpus/rr"] {
        for f in names(&root().join(dir)) {
            let Some((_, ext)) = f.rsplit_once('.') else {
                continue;
            };
            if matches!(ext, "md" | "py") {
                continue;
            }
            let path = format!("{dir}/{f}");
            let t = explain(&[ext, &path]);
            let last = t.lines().last().unwrap_or("");
            assert!(
                last.starts_with("Every byte belongs to a field ("),
                "{path}: {last}"
            );
            n += 1;
        }
    }
    assert!(n >= 30, "{n} files");
}

#[test]
fn a_large_mesh_prints_a_screen_and_the_selections_choose_what() {
    let t = explain(&["meshbin", "corpus/meshbin/helix.meshbin"]);
    assert!(t.lines().count() < 80, "{} lines", t.lines().count());
    assert!(t.contains("… 65,504 more elements"), "{t}");
    // --at: the fields around the offset, those that hold it marked.
    let t = explain(&["meshbin", "corpus/meshbin/helix.meshbin", "--at", "0x1000"]);
    let held: Vec<&str> = t.lines().filter(|l| l.starts_with('>')).collect();
    assert_eq!(held.len(), 3, "{t}");
    assert!(held[2].contains("0x1000") && held[2].contains(" r "), "{t}");
    assert!(
        t.contains("[255]") && t.contains("[257]") && !t.contains("[0]"),
        "{t}"
    );
    // --field: one element, however deep in the list.
    let t = explain(&[
        "meshbin",
        "corpus/meshbin/helix.meshbin",
        "--field",
        "vertices[500]",
    ]);
    assert!(t.contains("[500]") && !t.contains("num_vertices"), "{t}");
    assert_eq!(t.lines().filter(|l| l.contains(" f4 ")).count(), 3, "{t}");
    // --depth 1: the file's own fields only, each with its bytes.
    let t = explain(&["sws-mesh", "corpus/sws/hand-boned.sws-mesh", "--depth", "1"]);
    assert!(!t.contains("  version  "), "{t}");
    assert!(t.contains("bones"), "{t}");
    // --elements: how many elements before folding.
    let t = explain(&["meshbin", "corpus/meshbin/floor.meshbin", "--elements", "6"]);
    assert!(!t.contains("more elements"), "{t}");
}

#[test]
fn colour_by_confidence_only_when_asked_or_on_a_terminal() {
    let t = explain(&[
        "sws-mesh",
        "corpus/sws/hand-plain.sws-mesh",
        "--color",
        "always",
    ]);
    // Proven in green, unknown in bold red.
    assert!(t.contains("\u{1b}[32m"), "{t:?}");
    assert!(t.contains("\u{1b}[1m\u{1b}[31m"), "{t:?}");
    let mut c = cmd(&[
        "explain",
        "sws-mesh",
        "corpus/sws/hand-plain.sws-mesh",
        "--color",
        "always",
    ]);
    c.env("NO_COLOR", "1");
    // (--color always wins over NO_COLOR; auto on a pipe never colours.)
    assert!(text(&run(c, None).stdout).contains('\u{1b}'));
    let t = explain(&[
        "sws-mesh",
        "corpus/sws/hand-plain.sws-mesh",
        "--color",
        "never",
    ]);
    assert!(!t.contains('\u{1b}'), "{t:?}");
}

#[test]
fn mistakes_are_usage_errors_or_refusals() {
    code(
        &meshspec(&["explain", "nope", "corpus/meshbin/floor.meshbin"], None),
        2,
    );
    code(
        &meshspec(&["explain", "meshbin", "corpus/meshbin"], None),
        2,
    );
    code(
        &meshspec(
            &[
                "explain",
                "meshbin",
                "corpus/meshbin/floor.meshbin",
                "--at",
                "x",
            ],
            None,
        ),
        2,
    );
    let out = meshspec(
        &[
            "explain",
            "meshbin",
            "corpus/meshbin/floor.meshbin",
            "--at",
            "80",
        ],
        None,
    );
    code(&out, 1);
    assert!(
        text(&out.stderr).contains("an offset below the file's size"),
        "{}",
        text(&out.stderr)
    );
    let out = meshspec(
        &[
            "explain",
            "meshbin",
            "corpus/meshbin/floor.meshbin",
            "--field",
            "nope",
        ],
        None,
    );
    code(&out, 1);
    // A file the layout does not read: the reader's refusal.
    let out = meshspec(
        &["explain", "meshbin", "corpus/sws/hand-plain.sws-mesh"],
        None,
    );
    code(&out, 1);
    assert!(
        text(&out.stderr).starts_with("error: 0x"),
        "{}",
        text(&out.stderr)
    );
}

/// A Unity mesh of the shared corpus renamed (through dump and build) to `name`.
fn unity_named(test: &str, name: &str) -> Option<(String, String)> {
    let shared = shared()?;
    let dir = shared.join("corpus/unity/meshes/2021.3.0f1");
    let mesh = names(&dir)
        .into_iter()
        .find(|n| n.starts_with("Lame") && n.ends_with(".mesh"))?;
    let src = dir.join(&mesh);
    let out = meshspec(
        &[
            "dump",
            "unity-mesh",
            src.to_str()?,
            "--unity-version",
            "2021.3.0f1",
        ],
        None,
    );
    code(&out, 0);
    let mut dump: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    dump["data"]["name"]["value"] = name.into();
    let d = tmp_dir(test);
    let dump_path = d.join("dump.json");
    std::fs::write(&dump_path, dump.to_string()).ok()?;
    let file = d.join("named.mesh");
    let out = meshspec(
        &[
            "build",
            "unity-mesh",
            dump_path.to_str()?,
            "-o",
            file.to_str()?,
            "--unity-version",
            "2021.3.0f1",
        ],
        None,
    );
    code(&out, 0);
    Some((file.to_str()?.to_string(), d.to_str()?.to_string()))
}

#[test]
fn text_from_the_input_is_escaped() {
    let Some((file, dir)) = unity_named("explain-escape", "a\u{1b}[31m\n<script>alert(1)</script>")
    else {
        return;
    };
    let t = explain(&[
        "unity-mesh",
        &file,
        "--unity-version",
        "2021.3.0f1",
        "--field",
        "name",
    ]);
    assert!(!t.contains('\u{1b}'), "{t:?}");
    assert!(t.contains(r#""a\u{1b}[31m\n<script>alert(1)"#), "{t}");
    let page = format!("{dir}/page.html");
    explain(&[
        "unity-mesh",
        &file,
        "--unity-version",
        "2021.3.0f1",
        "--html",
        &page,
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("<script>alert"),
        "the page runs the input's script"
    );
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let bin = env!("CARGO_BIN_EXE_meshspec");
    let on_terminal = |no_color: bool| {
        let mut c = std::process::Command::new("script");
        c.args([
            "-qfec",
            &format!("'{bin}' explain sws-mesh corpus/sws/hand-plain.sws-mesh"),
            "/dev/null",
        ])
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TERM", "xterm");
        if no_color {
            c.env("NO_COLOR", "1");
        }
        c.output().ok().map(|o| text(&o.stdout))
    };
    let Some(t) = on_terminal(false) else {
        eprintln!("no `script` here: not run");
        return;
    };
    assert!(
        t.contains("\u{1b}[1m\u{1b}[31munknown_after_bones"),
        "{t:?}"
    );
    let t = on_terminal(true).unwrap();
    assert!(!t.contains('\u{1b}'), "{t:?}");
}
