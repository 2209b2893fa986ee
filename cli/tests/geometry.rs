//! `export --mtl` and `import --mesh` on the command line: the material library is written only
//! when asked and said; an import says what the layout drops and which mesh it took.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn meshspec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshspec"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("meshspec-cli-geometry-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn obj_materials_go_to_a_library_only_when_asked() {
    let obj = tmp("five.obj");
    let mtl = tmp("five.mtl");
    let o = obj.to_str().unwrap();
    let out = meshspec(&[
        "export",
        "sws-mesh",
        "corpus/sws/built-five-parts.sws-mesh",
        "-o",
        o,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!mtl.exists());
    let t = std::fs::read_to_string(&obj).unwrap();
    assert!(!t.contains("usemtl") && !t.contains("mtllib"));
    assert!(text(&out.stderr).contains("note: OBJ: materials are named in the group names only"));
    assert!(text(&out.stderr).contains("OBJ has no tangents"));
    let out = meshspec(&[
        "export",
        "sws-mesh",
        "corpus/sws/built-five-parts.sws-mesh",
        "-o",
        o,
        "--mtl",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = std::fs::read_to_string(&obj).unwrap();
    assert!(t.contains("mtllib five.mtl\n") && t.contains("usemtl material_50331649_(range_0)\n"));
    let m = std::fs::read_to_string(&mtl).unwrap();
    assert_eq!(m.lines().filter(|l| l.starts_with("newmtl ")).count(), 5);
    assert!(text(&out.stderr).contains(&format!("note: materials written to {}", mtl.display())));
    let out = meshspec(&[
        "export",
        "sws-mesh",
        "corpus/sws/built-five-parts.sws-mesh",
        "-o",
        tmp("x.glb").to_str().unwrap(),
        "--mtl",
    ]);
    // A usage mistake, found before the input is read.
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn import_says_what_it_drops_and_which_mesh_it_took() {
    let glb = tmp("five.glb");
    let g = glb.to_str().unwrap();
    let out = meshspec(&[
        "export",
        "sws-mesh",
        "corpus/sws/built-five-parts.sws-mesh",
        "-o",
        g,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bin = tmp("five.meshbin");
    let b = bin.to_str().unwrap();
    let out = meshspec(&["import", "meshbin", g, "-o", b, "--winding", "gl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    for what in [
        "note: the file holds 5 meshes",
        "this took `submesh 0 (sws-mesh)`",
        "note: meshbin has no normals: left out",
        "note: meshbin has no morph targets (3): left out",
    ] {
        assert!(err.contains(what), "{what}: {err}");
    }
    let out = meshspec(&[
        "import",
        "meshbin",
        g,
        "-o",
        b,
        "--winding",
        "gl",
        "--mesh",
        "submesh 4 (sws-mesh)",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("the one --mesh names"));
    let out = meshspec(&[
        "import",
        "meshbin",
        g,
        "-o",
        b,
        "--winding",
        "gl",
        "--mesh",
        "nope",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: "),
        "{}",
        text(&out.stderr)
    );
}
