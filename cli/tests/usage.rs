//! Exit codes and messages (docs/cli.md, "Output lines and exit codes"): 2 for every usage mistake,
//! found before any input is read and reported together; 1 for a refused input; 0 otherwise.

mod common;
use common::*;

const FLOOR: &str = "corpus/meshbin/floor.meshbin";
const HELIX: &str = "corpus/meshbin/helix.meshbin";

/// The `error: ` lines on standard error.
fn errors(out: &std::process::Output) -> Vec<String> {
    text(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("error: ").map(str::to_string))
        .collect()
}

/// The `error: ` lines of `meshspec ARGS`, which must exit 2.
#[track_caller]
fn usage_errors(args: &[&str]) -> Vec<String> {
    errors(&exits(args, 2))
}

#[test]
fn an_unknown_layout_is_a_usage_mistake_with_a_suggestion() {
    let out = exits(&["check", "meshbn", FLOOR], 2);
    let e = errors(&out);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("unknown layout `meshbn` (did you mean `meshbin`?); `meshspec layouts` lists them: meshbin, "),
        "{e:?}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn every_usage_mistake_is_reported_at_once_before_reading() {
    // Export without a winding and to an extension it cannot write: both said in one go.
    assert_eq!(
        usage_errors(&["export", "meshbin", FLOOR, "-o", "x.stl"]),
        vec![
            "layout `meshbin` needs --winding d3d or --winding gl: its files do not record whether a Direct3D or an OpenGL build wrote them",
            "-o x.stl: export writes glTF (.glb) or Wavefront OBJ (.obj), chosen by the extension",
        ]
    );
    // The input is not read: a missing file is no part of the usage verdict.
    let e = usage_errors(&["export", "meshbin", "no-such-file", "-o", "x.stl"]);
    assert_eq!(e.len(), 2);
    // An unknown layout and a folder in the same check.
    let e = usage_errors(&["check", "nope", "corpus/meshbin", "corpus/sws"]);
    assert_eq!(e.len(), 3, "{e:?}");
}

#[test]
fn the_unity_version_message_names_the_flag_and_auto() {
    // Said once, however many files.
    assert_eq!(
        usage_errors(&["check", "unity-mesh", "any.mesh", "other.mesh"]),
        vec!["layout `unity-mesh` needs the Unity version that wrote the file: --unity-version 2021.3.0f1, or --unity-version auto (the nearest folder above the file named after a version)"]
    );
    assert_eq!(
        usage_errors(&[
            "dump",
            "unity-mesh",
            "any.mesh",
            "--unity-version",
            "banana"
        ]),
        vec!["--unity-version banana: expected a Unity version such as 2021.3.0f1, or auto"]
    );
    assert_eq!(
        usage_errors(&["info", "unity-mesh", "/tmp/any.mesh", "--unity-version", "auto"]),
        vec!["--unity-version auto: no folder above /tmp/any.mesh is named after a Unity version; give the version (--unity-version 2021.3.0f1)"]
    );
    // Layouts that take no version do not ask for one.
    exits(&["check", "meshbin", FLOOR], 0);
}

#[test]
fn a_folder_given_to_check_suggests_survey() {
    assert_eq!(
        usage_errors(&["check", "meshbin", "corpus/meshbin"]),
        vec!["corpus/meshbin is a folder; `meshspec survey corpus/meshbin` reads every file under it"]
    );
    assert_eq!(
        usage_errors(&["dump", "meshbin", "corpus/meshbin"]),
        vec!["corpus/meshbin is a folder; name a file"]
    );
}

#[test]
fn import_refuses_layouts_without_a_builder_and_needs_a_winding() {
    assert_eq!(
        usage_errors(&["import", "sws-mesh", "x.glb", "-o", "y.sws-mesh"]),
        vec!["layout `sws-mesh` has no builder from geometry; import builds meshbin"]
    );
    let e = usage_errors(&["import", "meshbin", "x.glb", "-o", "y.meshbin"]);
    assert!(e[0].contains("needs --winding d3d or --winding gl"));
}

#[test]
fn outputs_that_cannot_be_are_usage_mistakes() {
    let d = scratch_dir("usage-outputs");
    let x = d.join("no/such/dir/x.json");
    let e = usage_errors(&["dump", "meshbin", FLOOR, "-o", x.to_str().unwrap()]);
    assert!(e[0].ends_with(&format!(
        "there is no folder {}",
        d.join("no/such/dir").display()
    )));
    let e = usage_errors(&["dump", "meshbin", FLOOR, "-o", d.to_str().unwrap()]);
    assert!(e[0].ends_with("is a folder; name a file in it"));
    assert!(names(&d).is_empty());
}

#[test]
fn clap_mistakes_exit_2_and_help_exits_0() {
    exits(&["check", "meshbin"], 2);
    exits(&["chek"], 2);
    exits(&["dump", "meshbin", "f", "--format", "xml"], 2);
    exits(&["check", "meshbin", "f", "--max-input-size", "lots"], 2);
    exits(&["--help"], 0);
    exits(&["--version"], 0);
}

#[test]
fn each_commands_help_lists_only_its_options() {
    for (command, absent, present) in [
        (
            "import",
            &["--ress", "--relations", "--non-finite"][..],
            // --unity-version: of a bare original (--like), as every command on one takes it.
            &["--winding", "--unity-version"][..],
        ),
        (
            "check",
            &["--winding", "--output", "--non-finite"],
            &[
                "--unity-version",
                // The verdict reads a Unity mesh's streamed data too.
                "--ress",
                "--relations",
                "--strict",
                "--all",
                "--json",
                "--max-input-size",
            ],
        ),
        // build writes only what passes check's verdict, under the same policy.
        (
            "build",
            &["--winding", "--ress"],
            &["--relations", "--strict"],
        ),
        (
            "export",
            &["--relations"],
            &[
                "--winding",
                "--unity-version",
                "--ress",
                "--non-finite",
                "--quiet",
            ],
        ),
    ] {
        let help = text(&meshspec(&[command, "--help"]).stdout);
        for a in absent {
            assert!(!help.contains(a), "{command} --help shows {a}:\n{help}");
        }
        for p in present {
            assert!(help.contains(p), "{command} --help lacks {p}");
        }
    }
}

#[test]
fn refused_inputs_exit_1_with_one_line_in_the_users_words() {
    let out = exits(&["dump", "meshbin", "no-such.meshbin"], 1);
    assert_eq!(
        text(&out.stderr),
        "error: no-such.meshbin: expected a readable file, found no such file or folder\n"
    );
    // check reports it per file, in its line shape, and goes on with the others.
    let out = exits(
        &[
            "check",
            "meshbin",
            "no-such.meshbin",
            "corpus/meshbin/cube.meshbin",
        ],
        1,
    );
    assert_eq!(
        text(&out.stdout),
        "no-such.meshbin: expected a readable file, found no such file or folder\ncorpus/meshbin/cube.meshbin: ok\n"
    );
    assert_eq!(text(&out.stderr), "2 files: 1 ok, 1 failed\n");
    for command in ["dump", "info"] {
        let e = text(&meshspec(&[command, "meshbin", "no-such"]).stderr);
        assert!(!e.contains("os error"), "{e}");
    }
}

#[test]
fn json_syntax_errors_have_the_line_shape() {
    for (input, said) in [
        (&b"{\"a\": 1 ]"[..], "error: standard input: expected `,` or `}` at line 1 column 9, found `]`\n"),
        (b"{\"a\": ", "error: standard input: expected more JSON at line 1 column 6, found the end of the input\n"),
        (&[b'{', 0xFF], "error: standard input: expected UTF-8 text (a JSON or YAML dump), found byte 0xFF at offset 0x1\n"),
    ] {
        let out = meshspec_in(&["build", "meshbin", "-", "-o", "-"], input);
        code(&out, 1);
        assert_eq!(text(&out.stderr), said, "{input:?}");
    }
}

#[test]
fn inputs_over_the_limit_are_refused_before_reading() {
    let out = exits(&["check", "meshbin", HELIX, "--max-input-size", "1M"], 1);
    assert_eq!(
        text(&out.stdout),
        "corpus/meshbin/helix.meshbin: expected at most 1,048,576 bytes (--max-input-size raises the limit), found 1,179,148 bytes\n"
    );
    exits(&["check", "meshbin", HELIX, "--max-input-size", "2M"], 0);
    // A stream has no size: it is read up to the limit and no further.
    let out = exits(
        &["dump", "meshbin", "/dev/zero", "--max-input-size", "64K"],
        1,
    );
    assert_eq!(
        text(&out.stderr),
        "error: /dev/zero: expected at most 65,536 bytes (--max-input-size raises the limit), found more (a stream, read up to the limit)\n"
    );
    let out = meshspec_in(
        &["build", "meshbin", "-", "--max-input-size", "10", "-o", "-"],
        b"{\"meshspec\": 1}",
    );
    code(&out, 1);
    assert!(text(&out.stderr).starts_with("error: standard input: expected at most 10 bytes"));
}

#[test]
fn the_default_limit_stops_dev_zero() {
    let started = std::time::Instant::now();
    let out = exits(&["check", "meshbin", "/dev/zero"], 1);
    assert_eq!(
        text(&out.stdout),
        "/dev/zero: expected at most 1,073,741,824 bytes (--max-input-size raises the limit), found more (a stream, read up to the limit)\n"
    );
    assert!(started.elapsed().as_secs() < 60);
}

#[test]
fn a_failed_write_to_standard_output_is_one_line_and_exit_1() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("no /dev/full here: not run");
        return;
    };
    for args in [
        vec!["layouts"],
        vec!["layouts", "--json"],
        vec!["check", "meshbin", FLOOR],
        vec!["check", "meshbin", FLOOR, "--json"],
        vec!["survey", "corpus/meshbin"],
        vec!["dump", "meshbin", FLOOR],
        vec!["info", "meshbin", FLOOR],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let mut c = cmd(&args);
        c.stdout(full.try_clone().unwrap());
        let out = c.stderr(std::process::Stdio::piped()).output().unwrap();
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {e}");
        assert_eq!(
            e,
            "error: standard output: expected a stream that takes the output, found no space left on the device\n",
            "{args:?}"
        );
    }
}
