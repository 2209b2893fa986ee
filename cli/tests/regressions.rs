//! Inputs that meshspec once mishandled (cli/tests/regressions/README.md): each is refused
//! with its reason, quickly, and nothing is written.

mod common;
use common::*;
use std::time::{Duration, Instant};

const DIR: &str = "cli/tests/regressions";

/// `build LAYOUT DIR/FILE -o OUT`: exit 1, the one `error:` line, no output.
#[track_caller]
fn refused_build(layout: &str, file: &str) -> String {
    let d = scratch_dir(&format!("regress-{file}"));
    let out_path = d.join("out.bin");
    let o = out_path.to_str().unwrap();
    let out = exits(&["build", layout, &format!("{DIR}/{file}"), "-o", o], 1);
    assert!(names(&d).is_empty(), "{:?}", names(&d));
    let e = text(&out.stderr);
    assert_eq!(e.lines().count(), 1, "{e}");
    e.trim_end().to_string()
}

/// The text of `DIR/FILE`.
fn regression(file: &str) -> String {
    std::fs::read_to_string(root().join(DIR).join(file)).unwrap()
}

/// `build sws-uv-channel - -o TO` of `dump` on standard input, which must exit `want`.
#[track_caller]
fn build_uv(dump: &str, to: &str, want: i32) -> std::process::Output {
    let out = meshspec_in(&["build", "sws-uv-channel", "-", "-o", to], dump.as_bytes());
    code(&out, want);
    out
}

#[test]
fn build_refuses_floats_an_f32_cannot_hold() {
    assert_eq!(
        refused_build("sws-uv-channel", "float-1e39.sws-uv-channel.json"),
        "error: dump: expected a valid value at data.uvs.items[1].u, found 1e39, beyond the range of an f32 (largest 3.4028235e38)"
    );
    // The same dump with a number that would round to 0, from standard input.
    let text_in = regression("float-1e39.sws-uv-channel.json").replace("1e+39", "1e-50");
    let out = build_uv(&text_in, "-", 1);
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "error: dump: expected a valid value at data.uvs.items[1].u, found 1e-50, which an f32 rounds to 0\n"
    );
    // The smallest f32 (a subnormal) and the largest are held exactly: accepted.
    for ok in ["1e-45", "3.4028235e38", "-0.0"] {
        build_uv(&text_in.replace("1e-50", ok), "/dev/null", 0);
    }
}

#[test]
fn build_refuses_nan_words_that_are_not_nans() {
    assert_eq!(
        refused_build("sws-uv-channel", "nan-payload-inf.sws-uv-channel.json"),
        "error: dump: expected a valid value at data.uvs.items[1].u, found `nan:0x7F800000`, the bits of inf, not of a NaN"
    );
    let t = regression("nan-payload-inf.sws-uv-channel.json");
    // A real NaN payload is kept bit for bit.
    let nan = t.replace("nan:0x7F800000", "nan:0x7F800001");
    let out = build_uv(&nan, "-", 0);
    let back = meshspec_in(&["dump", "sws-uv-channel", "-"], &out.stdout);
    assert!(text(&back.stdout).contains("\"nan:0x7F800001\""));
    let one = t.replace("nan:0x7F800000", "nan:0x3F800000");
    let out = build_uv(&one, "-", 1);
    assert!(text(&out.stderr).ends_with("found `nan:0x3F800000`, the bits of 1, not of a NaN\n"));
}

#[test]
fn build_refuses_unknown_dump_versions() {
    assert_eq!(
        refused_build("sws-uv-channel", "meshspec-version-2.json"),
        "error: dump.meshspec: expected 1 (the dump format version this build reads), found 2"
    );
    let t = regression("meshspec-version-2.json");
    let none = t.replace("\"meshspec\": 2, ", "");
    assert!(!none.contains("meshspec\""));
    let out = build_uv(&none, "-", 1);
    assert_eq!(
        text(&out.stderr),
        "error: dump.meshspec: expected 1 (the dump format version this build reads), found no such key\n"
    );
    let one = t.replace("\"meshspec\": 2", "\"meshspec\": 1");
    build_uv(&one, "/dev/null", 0);
}

#[test]
fn build_refuses_deep_yaml_at_once() {
    let started = Instant::now();
    assert_eq!(
        refused_build("sws-uv-channel", "yaml-deep-flow-80000.yaml"),
        "error: cli/tests/regressions/yaml-deep-flow-80000.yaml: expected YAML nested at most 128 deep, found deeper nesting at line 3 column 262"
    );
    // It took 9 s (release) before the limit; a debug build now takes milliseconds.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn check_lists_a_few_lines_per_relation() {
    let f = format!("{DIR}/helix-all-indices-bad.meshbin");
    let out = exits(&["check", "meshbin", &f], 1);
    let t = text(&out.stdout);
    let lines: Vec<&str> = t.lines().collect();
    // Ten lines of the relation, how many more, and the one error decoding rests on.
    assert_eq!(lines.len(), 12, "{t}");
    assert_eq!(
        lines[0],
        format!("{f}: warning: 0xFFE44 meshbin.indices[0]: expected _ < num_vertices with num_vertices = 65508 (relation `indices_name_vertices`), found 65535")
    );
    assert_eq!(
        lines[11],
        format!(
            "{f}: warning: ... and 65,498 more (relation `indices_name_vertices`; --all shows every one)"
        )
    );
    assert!(
        lines[10].starts_with(&format!(
            "{f}: 0xFFE44 meshbin.indices: expected every index"
        )),
        "{t}"
    );
    let out = exits(&["check", "meshbin", &f, "--all"], 1);
    assert_eq!(text(&out.stdout).lines().count(), 65_509);
}
