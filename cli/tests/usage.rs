//! Exit codes and messages (README, "Output lines and exit codes"): 2 for every usage mistake,
//! found before any input is read and reported together; 1 for a refused input; 0 otherwise.

mod common;
use common::*;

/// The `error: ` lines on standard error.
fn errors(out: &std::process::Output) -> Vec<String> {
    text(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("error: ").map(str::to_string))
        .collect()
}

#[test]
fn an_unknown_layout_is_a_usage_mistake_with_a_suggestion() {
    let out = meshspec(&["check", "meshbn", "corpus/meshbin/floor.meshbin"], None);
    code(&out, 2);
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
    let out = meshspec(
        &[
            "export",
            "meshbin",
            "corpus/meshbin/floor.meshbin",
            "-o",
            "x.stl",
        ],
        None,
    );
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec![
            "layout `meshbin` needs --winding d3d or --winding gl: its files do not record whether a Direct3D or an OpenGL build wrote them",
            "-o x.stl: export writes glTF (.glb) or Wavefront OBJ (.obj), chosen by the extension",
        ]
    );
    // The input is not read: a missing file is no part of the usage verdict.
    let out = meshspec(&["export", "meshbin", "no-such-file", "-o", "x.stl"], None);
    code(&out, 2);
    assert_eq!(errors(&out).len(), 2);
    // An unknown layout and a folder in the same check.
    let out = meshspec(&["check", "nope", "corpus/meshbin", "corpus/sws"], None);
    code(&out, 2);
    assert_eq!(errors(&out).len(), 3, "{:?}", errors(&out));
}

#[test]
fn the_unity_version_message_names_the_flag_and_auto() {
    let out = meshspec(&["check", "unity-mesh", "any.mesh", "other.mesh"], None);
    code(&out, 2);
    // Said once, however many files.
    assert_eq!(
        errors(&out),
        vec!["layout `unity-mesh` needs the Unity version that wrote the file: --unity-version 2021.3.0f1, or --unity-version auto (the nearest folder above the file named after a version)"]
    );
    let out = meshspec(
        &[
            "dump",
            "unity-mesh",
            "any.mesh",
            "--unity-version",
            "banana",
        ],
        None,
    );
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec!["--unity-version banana: expected a Unity version such as 2021.3.0f1, or auto"]
    );
    let out = meshspec(
        &[
            "info",
            "unity-mesh",
            "/tmp/any.mesh",
            "--unity-version",
            "auto",
        ],
        None,
    );
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec!["--unity-version auto: no folder above /tmp/any.mesh is named after a Unity version; give the version (--unity-version 2021.3.0f1)"]
    );
    // Layouts that take no version do not ask for one.
    let out = meshspec(&["check", "meshbin", "corpus/meshbin/floor.meshbin"], None);
    code(&out, 0);
}

#[test]
fn a_folder_given_to_check_suggests_survey() {
    let out = meshspec(&["check", "meshbin", "corpus/meshbin"], None);
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec!["corpus/meshbin is a folder; `meshspec survey corpus/meshbin` reads every file under it"]
    );
    let out = meshspec(&["dump", "meshbin", "corpus/meshbin"], None);
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec!["corpus/meshbin is a folder; name a file"]
    );
}

#[test]
fn import_refuses_layouts_without_a_builder_and_needs_a_winding() {
    let out = meshspec(&["import", "sws-mesh", "x.glb", "-o", "y.sws-mesh"], None);
    code(&out, 2);
    assert_eq!(
        errors(&out),
        vec!["layout `sws-mesh` has no builder from geometry; import builds meshbin"]
    );
    let out = meshspec(&["import", "meshbin", "x.glb", "-o", "y.meshbin"], None);
    code(&out, 2);
    assert!(errors(&out)[0].contains("needs --winding d3d or --winding gl"));
}

#[test]
fn outputs_that_cannot_be_are_usage_mistakes() {
    let d = tmp_dir("usage-outputs");
    let dump = "corpus/meshbin/floor.meshbin";
    let out = meshspec(
        &[
            "dump",
            "meshbin",
            dump,
            "-o",
            d.join("no/such/dir/x.json").to_str().unwrap(),
        ],
        None,
    );
    code(&out, 2);
    assert!(errors(&out)[0].ends_with(&format!(
        "there is no folder {}",
        d.join("no/such/dir").display()
    )));
    let out = meshspec(&["dump", "meshbin", dump, "-o", d.to_str().unwrap()], None);
    code(&out, 2);
    assert!(errors(&out)[0].ends_with("is a folder; name a file in it"));
    assert!(names(&d).is_empty());
}

#[test]
fn clap_mistakes_exit_2_and_help_exits_0() {
    code(&meshspec(&["check", "meshbin"], None), 2);
    code(&meshspec(&["chek"], None), 2);
    code(
        &meshspec(&["dump", "meshbin", "f", "--format", "xml"], None),
        2,
    );
    code(
        &meshspec(&["check", "meshbin", "f", "--max-input-size", "lots"], None),
        2,
    );
    code(&meshspec(&["--help"], None), 0);
    code(&meshspec(&["--version"], None), 0);
}

#[test]
fn each_commands_help_lists_only_its_options() {
    let help = |c: &str| text(&meshspec(&[c, "--help"], None).stdout);
    let import = help("import");
    for absent in ["--unity-version", "--ress", "--relations", "--non-finite"] {
        assert!(
            !import.contains(absent),
            "import --help shows {absent}:\n{import}"
        );
    }
    assert!(import.contains("--winding"));
    let check = help("check");
    for absent in ["--winding", "--output", "--non-finite"] {
        assert!(
            !check.contains(absent),
            "check --help shows {absent}:\n{check}"
        );
    }
    for present in [
        "--unity-version",
        // The verdict reads a Unity mesh's streamed data too.
        "--ress",
        "--relations",
        "--strict",
        "--all",
        "--json",
        "--max-input-size",
    ] {
        assert!(check.contains(present), "check --help lacks {present}");
    }
    let build = help("build");
    for absent in ["--winding", "--ress"] {
        assert!(
            !build.contains(absent),
            "build --help shows {absent}:\n{build}"
        );
    }
    // build writes only what passes check's verdict, under the same policy.
    assert!(build.contains("--relations") && build.contains("--strict"));
    let export = help("export");
    for present in [
        "--winding",
        "--unity-version",
        "--ress",
        "--non-finite",
        "--quiet",
    ] {
        assert!(export.contains(present), "export --help lacks {present}");
    }
    assert!(!export.contains("--relations"));
}

#[test]
fn refused_inputs_exit_1_with_one_line_in_the_users_words() {
    let out = meshspec(&["dump", "meshbin", "no-such.meshbin"], None);
    code(&out, 1);
    assert_eq!(
        text(&out.stderr),
        "error: no-such.meshbin: expected a readable file, found no such file or folder\n"
    );
    // check reports it per file, in its line shape, and goes on with the others.
    let out = meshspec(
        &[
            "check",
            "meshbin",
            "no-such.meshbin",
            "corpus/meshbin/cube.meshbin",
        ],
        None,
    );
    code(&out, 1);
    assert_eq!(
        text(&out.stdout),
        "no-such.meshbin: expected a readable file, found no such file or folder\ncorpus/meshbin/cube.meshbin: ok\n"
    );
    assert_eq!(text(&out.stderr), "2 files: 1 ok, 1 failed\n");
    for args in [
        ["dump", "meshbin", "no-such"],
        ["info", "meshbin", "no-such"],
    ] {
        let e = text(&meshspec(&args, None).stderr);
        assert!(!e.contains("os error"), "{e}");
    }
}

#[test]
fn json_syntax_errors_have_the_line_shape() {
    let out = meshspec(&["build", "meshbin", "-", "-o", "-"], Some(b"{\"a\": 1 ]"));
    code(&out, 1);
    assert_eq!(
        text(&out.stderr),
        "error: standard input: expected `,` or `}` at line 1 column 9, found `]`\n"
    );
    let out = meshspec(&["build", "meshbin", "-", "-o", "-"], Some(b"{\"a\": "));
    code(&out, 1);
    assert_eq!(
        text(&out.stderr),
        "error: standard input: expected more JSON at line 1 column 6, found the end of the input\n"
    );
    let out = meshspec(&["build", "meshbin", "-", "-o", "-"], Some(&[b'{', 0xFF]));
    code(&out, 1);
    assert_eq!(
        text(&out.stderr),
        "error: standard input: expected UTF-8 text (a JSON or YAML dump), found byte 0xFF at offset 0x1\n"
    );
}

#[test]
fn inputs_over_the_limit_are_refused_before_reading() {
    let out = meshspec(
        &[
            "check",
            "meshbin",
            "corpus/meshbin/helix.meshbin",
            "--max-input-size",
            "1M",
        ],
        None,
    );
    code(&out, 1);
    assert_eq!(
        text(&out.stdout),
        "corpus/meshbin/helix.meshbin: expected at most 1,048,576 bytes (--max-input-size raises the limit), found 1,179,148 bytes\n"
    );
    let out = meshspec(
        &[
            "check",
            "meshbin",
            "corpus/meshbin/helix.meshbin",
            "--max-input-size",
            "2M",
        ],
        None,
    );
    code(&out, 0);
    // A stream has no size: it is read up to the limit and no further.
    let out = meshspec(
        &["dump", "meshbin", "/dev/zero", "--max-input-size", "64K"],
        None,
    );
    code(&out, 1);
    assert_eq!(
        text(&out.stderr),
        "error: /dev/zero: expected at most 65,536 bytes (--max-input-size raises the limit), found more (a stream, read up to the limit)\n"
    );
    let out = meshspec(
        &["build", "meshbin", "-", "--max-input-size", "10", "-o", "-"],
        Some(b"{\"meshspec\": 1}"),
    );
    code(&out, 1);
    assert!(text(&out.stderr).starts_with("error: standard input: expected at most 10 bytes"));
}

#[test]
fn the_default_limit_stops_dev_zero() {
    let started = std::time::Instant::now();
    let out = meshspec(&["check", "meshbin", "/dev/zero"], None);
    code(&out, 1);
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
        vec!["check", "meshbin", "corpus/meshbin/floor.meshbin"],
        vec!["check", "meshbin", "corpus/meshbin/floor.meshbin", "--json"],
        vec!["survey", "corpus/meshbin"],
        vec!["dump", "meshbin", "corpus/meshbin/floor.meshbin"],
        vec!["info", "meshbin", "corpus/meshbin/floor.meshbin"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let mut c = cmd(&args);
        c.stdout(full.try_clone().unwrap());
        let out = c.stderr(std::process::Stdio::piped()).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stderr),
            "error: standard output: expected a stream that takes the output, found no space left on the device\n",
            "{args:?}"
        );
    }
}
