//! `-o PATH` touches the named output and nothing else: regular files are replaced atomically
//! (a temporary file beside them, removed on every failure), links are written through,
//! devices and FIFOs are written as streams, binary never goes to a terminal.

mod common;
use common::*;
use std::path::Path;
use std::process::Output;

const FLOOR: &str = "corpus/meshbin/floor.meshbin";

fn floor_dump(d: &Path) -> String {
    let p = d.join("floor.json");
    let p = p.to_str().unwrap();
    exits(&["dump", "meshbin", FLOOR, "-o", p], 0);
    p.to_string()
}

fn floor() -> Vec<u8> {
    std::fs::read(root().join(FLOOR)).unwrap()
}

/// `meshspec build meshbin DUMP -o TARGET`, which must exit `want`.
#[track_caller]
fn build(dump: &str, target: impl AsRef<Path>, want: i32) -> Output {
    let t = target.as_ref().to_str().unwrap();
    exits(&["build", "meshbin", dump, "-o", t], want)
}

#[test]
fn a_regular_file_is_replaced_and_keeps_its_permissions() {
    let d = scratch_dir("out-regular");
    let dump = floor_dump(&d);
    let target = d.join("out.meshbin");
    std::fs::write(&target, b"old").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    build(&dump, &target, 0);
    assert_eq!(std::fs::read(&target).unwrap(), floor());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    assert_eq!(names(&d), vec!["floor.json", "out.meshbin"]);
}

#[cfg(unix)]
#[test]
fn a_link_is_written_through_and_a_link_to_nothing_refused() {
    let d = scratch_dir("out-link");
    let dump = floor_dump(&d);
    std::fs::write(d.join("real.meshbin"), b"old").unwrap();
    std::os::unix::fs::symlink("real.meshbin", d.join("link.meshbin")).unwrap();
    let link = d.join("link.meshbin");
    build(&dump, &link, 0);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(d.join("real.meshbin")).unwrap(), floor());
    std::os::unix::fs::symlink("nothing", d.join("dangling.meshbin")).unwrap();
    let out = build(&dump, d.join("dangling.meshbin"), 2);
    assert!(text(&out.stderr).contains("is a link to nothing; name its target"));
    assert_eq!(
        names(&d),
        vec![
            "dangling.meshbin",
            "floor.json",
            "link.meshbin",
            "real.meshbin"
        ]
    );
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_are_written_as_streams() {
    use std::os::unix::fs::FileTypeExt;
    let d = scratch_dir("out-stream");
    let dump = floor_dump(&d);
    // /dev/null stays the device it is.
    build(&dump, "/dev/null", 0);
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A FIFO gets the bytes and stays a FIFO.
    let fifo = d.join("pipe");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    build(&dump, &fifo, 0);
    assert_eq!(reader.join().unwrap(), floor());
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // A device that refuses the bytes: one line, exit 1.
    let out = build(&dump, "/dev/full", 1);
    assert_eq!(
        text(&out.stderr),
        "error: /dev/full: expected a writable output, found no space left on the device\n"
    );
    // `-` is standard output.
    let out = build(&dump, "-", 0);
    assert_eq!(out.stdout, floor());
    assert_eq!(names(&d), vec!["floor.json", "pipe"]);
}

/// Runs `script` in a private mount namespace (root only): a 16 KiB file system at DIR, so that
/// writing a large output fails half way.
#[cfg(target_os = "linux")]
fn in_small_fs(dir: &Path, script: &str) -> Option<std::process::Output> {
    let probe = std::process::Command::new("unshare")
        .args(["-m", "true"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("cannot make a mount namespace here (needs root and unshare): not run");
        return None;
    }
    let full = format!(
        "mount -t tmpfs -o size=16k tmpfs '{}' && {script}",
        dir.display()
    );
    Some(
        std::process::Command::new("unshare")
            .args(["-m", "sh", "-c", &full])
            .current_dir(root())
            .output()
            .unwrap(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_leaves_the_target_and_no_temporary_file() {
    let d = scratch_dir("out-full");
    let fs = d.join("fs");
    std::fs::create_dir(&fs).unwrap();
    let bin = env!("CARGO_BIN_EXE_meshspec");
    // The helix is 1.1 MB: it cannot fit. An older output of the same name must survive, and
    // so must a file named like a temporary one.
    let script = format!(
        "echo old > '{f}/helix.meshbin' && echo keep > '{f}/.helix.meshbin.partial' && \
         '{bin}' dump meshbin corpus/meshbin/helix.meshbin -o /dev/stdout | \
         '{bin}' build meshbin - -o '{f}/helix.meshbin'; echo \"exit $?\"; \
         ls -A '{f}'; cat '{f}/helix.meshbin' '{f}/.helix.meshbin.partial'",
        f = fs.display()
    );
    let Some(out) = in_small_fs(&fs, &script) else {
        return;
    };
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(
        stdout, "exit 1\n.helix.meshbin.partial\nhelix.meshbin\nold\nkeep\n",
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!(
            "error: {}/helix.meshbin: expected a writable output, found no space left on the device\n",
            fs.display()
        )),
        "{stderr}"
    );
}

#[test]
fn binary_never_goes_to_a_terminal() {
    // Under a pseudo-terminal (`script`), build without -o is a usage mistake.
    let d = scratch_dir("out-tty");
    let dump = floor_dump(&d);
    let out = on_terminal(
        &format!("build meshbin '{dump}'"),
        &[("NO_COLOR", Some("1"))],
    );
    let Some(out) = out else {
        eprintln!("no `script` here: not run");
        return;
    };
    let t = text(&out.stdout);
    assert_eq!(
        t.trim_end(),
        "error: standard output is a terminal; binary output goes to a file (-o FILE) or a pipe",
    );
    assert_eq!(out.status.code(), Some(2), "{t}");
    // A dump is text: it may.
    let out = on_terminal(&format!("dump meshbin {FLOOR}"), &[]).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("\"meshspec\": 1"));
}
