//! `export --mtl` and `import --mesh` on the command line: the material library is written only
//! when asked and said; an import says what the layout drops and which mesh it took.

mod common;
use common::*;

const FIVE: &str = "corpus/sws/built-five-parts.sws-mesh";

#[test]
fn obj_materials_go_to_a_library_only_when_asked() {
    let obj = scratch("five.obj");
    let mtl = scratch("five.mtl");
    let o = obj.to_str().unwrap();
    let out = exits(&["export", "sws-mesh", FIVE, "-o", o], 0);
    assert!(!mtl.exists());
    let t = std::fs::read_to_string(&obj).unwrap();
    assert!(!t.contains("usemtl") && !t.contains("mtllib"));
    has(
        &text(&out.stderr),
        "note: OBJ: materials are named in the group names only",
    );
    has(&text(&out.stderr), "OBJ has no tangents");
    let out = exits(&["export", "sws-mesh", FIVE, "-o", o, "--mtl"], 0);
    let t = std::fs::read_to_string(&obj).unwrap();
    assert!(t.contains("mtllib five.mtl\n") && t.contains("usemtl material_50331649_(range_0)\n"));
    let m = std::fs::read_to_string(&mtl).unwrap();
    assert_eq!(m.lines().filter(|l| l.starts_with("newmtl ")).count(), 5);
    has(
        &text(&out.stderr),
        &format!("note: materials written to {}", mtl.display()),
    );
    // A usage mistake, found before the input is read.
    let glb = scratch("x.glb");
    exits(
        &[
            "export",
            "sws-mesh",
            FIVE,
            "-o",
            glb.to_str().unwrap(),
            "--mtl",
        ],
        2,
    );
}

#[test]
fn import_says_what_it_drops_and_which_mesh_it_took() {
    let glb = scratch("five.glb");
    let g = glb.to_str().unwrap();
    exits(&["export", "sws-mesh", FIVE, "-o", g], 0);
    let bin = scratch("five.meshbin");
    let b = bin.to_str().unwrap();
    let import = ["import", "meshbin", g, "-o", b, "--winding", "gl"];
    let out = exits(&import, 0);
    let err = text(&out.stderr);
    for what in [
        "note: the file holds 5 meshes",
        "this took `submesh 0 (sws-mesh)`",
        "note: meshbin has no normals: left out",
        "note: meshbin has no morph targets (3): left out",
    ] {
        has(&err, what);
    }
    let out = exits(
        &[&import[..], &["--mesh", "submesh 4 (sws-mesh)"]].concat(),
        0,
    );
    has(&text(&out.stderr), "the one --mesh names");
    let out = exits(&[&import[..], &["--mesh", "nope"]].concat(), 1);
    assert!(
        text(&out.stderr).starts_with("error: "),
        "{}",
        text(&out.stderr)
    );
}
