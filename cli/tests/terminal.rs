//! What reaches a terminal: colour on meshspec's own prefixes (on a terminal unless NO_COLOR,
//! or as `--color` says), `--quiet`, text from inputs escaped, completions and the man page.

mod common;
use common::*;

const RED_ERROR: &str = "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m";
const YELLOW_WARNING: &str = "\u{1b}[1m\u{1b}[33mwarning:\u{1b}[0m";
const CYAN_NOTE: &str = "\u{1b}[1m\u{1b}[36mnote:\u{1b}[0m";

/// Runs `meshspec ARGS` under a pseudo-terminal (`script`), with `env` set; what the terminal
/// showed (standard output and error together).
fn on_terminal(args: &str, env: &[(&str, &str)]) -> Option<(String, i32)> {
    let defaults = [
        ("NO_COLOR", None),
        ("CLICOLOR_FORCE", None),
        ("CLICOLOR", None),
    ];
    let set = env.iter().map(|&(k, v)| (k, Some(v)));
    let env: Vec<_> = defaults
        .into_iter()
        .chain([("TERM", Some("xterm"))])
        .chain(set)
        .collect();
    let Some(out) = common::on_terminal(args, &env) else {
        eprintln!("no `script` here: not run");
        return None;
    };
    Some((text(&out.stdout), out.status.code().unwrap_or(-1)))
}

/// A floor whose fifth index names a vertex that is not there.
fn bad_floor(test: &str) -> String {
    let mut floor = std::fs::read(root().join("corpus/meshbin/floor.meshbin")).unwrap();
    floor[0x44 + 8] = 9;
    let f = scratch_dir(test).join("bad-index.meshbin");
    std::fs::write(&f, &floor).unwrap();
    f.to_str().unwrap().to_string()
}

#[test]
fn prefixes_are_coloured_on_a_terminal_unless_no_color() {
    let bad = bad_floor("colour");
    // The index's relation is a warning (sourced); the file still fails on the decoder's check.
    let check = format!("check meshbin '{bad}' --relations warn");
    let Some((t, status)) = on_terminal(&check, &[]) else {
        return;
    };
    assert_eq!(status, 1);
    assert!(
        t.contains(&format!("{bad}: {YELLOW_WARNING} 0x4C meshbin.indices[4]")),
        "{t:?}"
    );
    let (t, _) = on_terminal(&check, &[("NO_COLOR", "1")]).unwrap();
    assert!(!t.contains('\u{1b}'), "{t:?}");
    assert!(t.contains(&format!("{bad}: warning: 0x4C")), "{t:?}");
    let (t, _) = on_terminal(&format!("{check} --color never"), &[]).unwrap();
    assert!(!t.contains('\u{1b}'), "{t:?}");
    // Errors on standard error, and notes.
    let (t, status) = on_terminal("dump nope x", &[]).unwrap();
    assert_eq!(status, 2);
    assert!(
        t.starts_with(&format!("{RED_ERROR} unknown layout `nope`")),
        "{t:?}"
    );
    let (t, _) = on_terminal("info meshbin corpus/meshbin/floor.meshbin", &[]).unwrap();
    assert!(
        t.contains(&format!("{CYAN_NOTE} The file does not record its winding")),
        "{t:?}"
    );
    // `--color never` also reaches clap's own messages.
    let (t, status) = on_terminal("chek --color never", &[]).unwrap();
    assert_eq!(status, 2);
    assert!(t.starts_with("error: unrecognized subcommand"), "{t:?}");
}

#[test]
fn colour_is_off_in_a_pipe_unless_asked_for() {
    let bad = bad_floor("colour-pipe");
    let check = ["check", "meshbin", &bad, "--relations", "warn"];
    let out = meshspec(&check);
    assert!(!out.stdout.contains(&0x1b));
    let out = meshspec(&[&check[..], &["--color", "always"]].concat());
    assert!(text(&out.stdout).contains(YELLOW_WARNING));
    let mut c = cmd(&check);
    c.env("CLICOLOR_FORCE", "1");
    assert!(text(&run(c, None).stdout).contains(YELLOW_WARNING));
}

#[test]
fn quiet_leaves_out_notes() {
    let d = scratch_dir("quiet");
    let glb = d.join("floor.glb");
    let args = ["info", "meshbin", "corpus/meshbin/floor.meshbin"];
    assert!(text(&meshspec(&args).stdout).contains("note: "));
    let out = exits(&[&args[..], &["--quiet"]].concat(), 0);
    assert!(!text(&out.stdout).contains("note: "));
    // An export's notes go to standard error; --quiet drops them, and only them.
    let tri = "corpus/sws/hand-triangle.sws-submesh";
    let g = glb.to_str().unwrap();
    let out = exits(&["export", "sws-submesh", tri, "-o", g], 0);
    has(&text(&out.stderr), "note: ");
    let out = exits(&["export", "sws-submesh", tri, "-o", g, "-q"], 0);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn names_from_inputs_cannot_add_lines_or_escape_sequences() {
    // A file name is input too: one with a newline, an escape sequence and a fake error.
    let d = scratch_dir("escape");
    let name = d.join("a\nerror: fake\u{1b}[2J.meshbin");
    std::fs::write(&name, b"\x01\x00").unwrap();
    let out = exits(&["check", "meshbin", name.to_str().unwrap()], 1);
    let t = text(&out.stdout);
    assert_eq!(t.lines().count(), 1, "{t:?}");
    assert!(t.contains("a\\nerror: fake\\u{1b}[2J.meshbin: "), "{t:?}");
    assert!(!t.contains('\u{1b}'));
    // The Unity finding whose mesh name holds newlines (it once faked an `error:` line).
    let Some(shared) = shared() else { return };
    let f = shared.join("findings/robustness/unity-name-newline.mesh");
    let ress =
        shared.join("corpus/unity/meshes/2021.3.0f1/CAB-5d40f7cad7c871cf2ad2af19ac542994.resS");
    let obj = d.join("g.obj");
    let (f, ress) = (f.to_str().unwrap(), ress.to_str().unwrap());
    let mesh = [
        "unity-mesh",
        f,
        "--unity-version",
        "2021.3.0f1",
        "--ress",
        ress,
    ];
    let out = exits(
        &[&["export"], &mesh[..], &["-o", obj.to_str().unwrap()]].concat(),
        0,
    );
    let e = text(&out.stderr);
    assert!(e.lines().all(|l| l.starts_with("note: ")), "{e}");
    has(&e, "Lame\\nerror: 0x0 unity_mesh.name");
    let out = exits(&[&["info"], &mesh[..]].concat(), 0);
    let t = text(&out.stdout);
    assert!(
        !t.lines()
            .any(|l| l.starts_with("error:") || l.starts_with("v ")),
        "{t}"
    );
}

#[test]
fn completions_are_scripts_the_shell_accepts() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = exits(&["completions", shell], 0);
        let t = text(&out.stdout);
        for word in ["check", "survey", "info", "unity-version"] {
            assert!(t.contains(word), "{shell} completions lack {word}");
        }
    }
    let d = scratch_dir("completions");
    let script = d.join("meshspec.bash");
    std::fs::write(&script, meshspec(&["completions", "bash"]).stdout).unwrap();
    let out = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // And it completes: the commands after `meshspec `.
    let probe = format!(
        "source '{}'; COMP_WORDS=(meshspec ch); COMP_CWORD=1; _meshspec meshspec ch meshspec; echo \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &probe])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout).trim(), "check", "{}", text(&out.stderr));
    exits(&["completions", "tcsh"], 2);
}

#[test]
fn the_man_pages_render_without_warnings() {
    let d = scratch_dir("man");
    for page in [None, Some("check"), Some("export")] {
        let mut args = vec!["man"];
        args.extend(page);
        let out = exits(&args, 0);
        let roff = d.join("page.1");
        std::fs::write(&roff, &out.stdout).unwrap();
        let t = text(&out.stdout);
        assert!(t.starts_with(".ie \\n(.g .ds Aq"), "{t}");
        match page {
            None => assert!(t.contains(".TH meshspec 1")),
            Some(p) => {
                has(&t, &format!(".TH meshspec-{p} 1"));
            }
        }
        let Ok(out) = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&roff)
            .output()
        else {
            eprintln!("no groff here: the page is not rendered");
            continue;
        };
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{}",
            text(&out.stderr)
        );
    }
    exits(&["man", "nope"], 2);
}
