//! `meshspec explain`: every byte attributed to a field, as text (coloured by confidence only
//! when colour is on) and as one HTML page; the selections; text from the input escaped.

mod common;
use common::*;

const FLOOR: &str = "corpus/meshbin/floor.meshbin";
const HELIX: &str = "corpus/meshbin/helix.meshbin";
const PLAIN: &str = "corpus/sws/hand-plain.sws-mesh";

/// The standard output of `meshspec explain ARGS`, which must exit 0.
#[track_caller]
fn explain(args: &[&str]) -> String {
    text(&exits(&[&["explain"], args].concat(), 0).stdout)
}

#[test]
fn every_field_with_offset_size_bytes_type_value_confidence_and_doc() {
    let t = explain(&["meshbin", FLOOR]);
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
    has(&t, "… 2 more elements");
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
    let t = explain(&["meshbin", HELIX]);
    assert!(t.lines().count() < 80, "{} lines", t.lines().count());
    has(&t, "… 65,504 more elements");
    // --at: the fields around the offset, those that hold it marked.
    let t = explain(&["meshbin", HELIX, "--at", "0x1000"]);
    let held: Vec<&str> = t.lines().filter(|l| l.starts_with('>')).collect();
    assert_eq!(held.len(), 3, "{t}");
    assert!(held[2].contains("0x1000") && held[2].contains(" r "), "{t}");
    assert!(
        t.contains("[255]") && t.contains("[257]") && !t.contains("[0]"),
        "{t}"
    );
    // --field: one element, however deep in the list.
    let t = explain(&["meshbin", HELIX, "--field", "vertices[500]"]);
    assert!(t.contains("[500]") && !t.contains("num_vertices"), "{t}");
    assert_eq!(t.lines().filter(|l| l.contains(" f4 ")).count(), 3, "{t}");
    // --depth 1: the file's own fields only, each with its bytes.
    let t = explain(&["sws-mesh", "corpus/sws/hand-boned.sws-mesh", "--depth", "1"]);
    assert!(!t.contains("  version  "), "{t}");
    has(&t, "bones");
    // --elements: how many elements before folding.
    let t = explain(&["meshbin", FLOOR, "--elements", "6"]);
    assert!(!t.contains("more elements"), "{t}");
}

#[test]
fn colour_by_confidence_only_when_asked_or_on_a_terminal() {
    let t = explain(&["sws-mesh", PLAIN, "--color", "always"]);
    // Proven in green, unknown in bold red.
    assert!(t.contains("\u{1b}[32m"), "{t:?}");
    assert!(t.contains("\u{1b}[1m\u{1b}[31m"), "{t:?}");
    let mut c = cmd(&["explain", "sws-mesh", PLAIN, "--color", "always"]);
    c.env("NO_COLOR", "1");
    // (--color always wins over NO_COLOR; auto on a pipe never colours.)
    assert!(text(&run(c, None).stdout).contains('\u{1b}'));
    let t = explain(&["sws-mesh", PLAIN, "--color", "never"]);
    assert!(!t.contains('\u{1b}'), "{t:?}");
}

#[test]
fn mistakes_are_usage_errors_or_refusals() {
    exits(&["explain", "nope", FLOOR], 2);
    exits(&["explain", "meshbin", "corpus/meshbin"], 2);
    exits(&["explain", "meshbin", FLOOR, "--at", "x"], 2);
    let out = exits(&["explain", "meshbin", FLOOR, "--at", "80"], 1);
    has(&text(&out.stderr), "an offset below the file's size");
    exits(&["explain", "meshbin", FLOOR, "--field", "nope"], 1);
    // A file the layout does not read: the reader's refusal.
    let out = exits(&["explain", "meshbin", PLAIN], 1);
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
    let version = ["--unity-version", "2021.3.0f1"];
    let out = exits(
        &[&["dump", "unity-mesh", src.to_str()?], &version[..]].concat(),
        0,
    );
    let mut dump: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    dump["data"]["name"]["value"] = name.into();
    let d = scratch_dir(test);
    let dump_path = d.join("dump.json");
    std::fs::write(&dump_path, dump.to_string()).ok()?;
    let file = d.join("named.mesh");
    let build = [
        "build",
        "unity-mesh",
        dump_path.to_str()?,
        "-o",
        file.to_str()?,
    ];
    exits(&[&build[..], &version[..]].concat(), 0);
    Some((file.to_str()?.to_string(), d.to_str()?.to_string()))
}

#[test]
fn text_from_the_input_is_escaped() {
    let Some((file, dir)) = unity_named("explain-escape", "a\u{1b}[31m\n<script>alert(1)</script>")
    else {
        return;
    };
    let mesh = ["unity-mesh", &file, "--unity-version", "2021.3.0f1"];
    let t = explain(&[&mesh[..], &["--field", "name"]].concat());
    assert!(!t.contains('\u{1b}'), "{t:?}");
    assert!(t.contains(r#""a\u{1b}[31m\n<script>alert(1)"#), "{t}");
    let page = format!("{dir}/page.html");
    explain(&[&mesh[..], &["--html", &page]].concat());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("<script>alert"),
        "the page runs the input's script"
    );
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let on_terminal = |no_color: Option<&str>| {
        let env = [
            ("NO_COLOR", None),
            ("CLICOLOR_FORCE", None),
            ("TERM", Some("xterm")),
            ("NO_COLOR", no_color),
        ];
        let out = on_terminal(&format!("explain sws-mesh {PLAIN}"), &env);
        out.map(|o| text(&o.stdout))
    };
    let Some(t) = on_terminal(None) else {
        eprintln!("no `script` here: not run");
        return;
    };
    assert!(
        t.contains("\u{1b}[1m\u{1b}[31munknown_after_bones"),
        "{t:?}"
    );
    let t = on_terminal(Some("1")).unwrap();
    assert!(!t.contains('\u{1b}'), "{t:?}");
}
