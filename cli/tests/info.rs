//! `meshspec info` on every corpus file (and the Unity meshes beside the checkout): one screen,
//! the verdict `check` gives, and the geometry `export` would write.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) with its extension, but the .md and .py ones.
fn corpus_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let with_ext = |p: PathBuf| {
        let ext = p.extension()?.to_str()?.to_string();
        (ext != "md" && ext != "py").then_some((p, ext))
    };
    files_under(dir).into_iter().filter_map(with_ext).collect()
}

/// `info` agrees with `check` on the verdict and fits a screen.
#[track_caller]
fn agrees(layout: &str, file: &Path, extra: &[&str]) -> String {
    let f = file.to_str().unwrap();
    let info = meshspec(&[&["info", layout, f], extra].concat());
    let check = meshspec(&[&["check", layout, f], extra].concat());
    assert_eq!(
        info.status.code(),
        check.status.code(),
        "{f}: {}",
        text(&info.stderr)
    );
    assert!(info.status.code() == Some(0) || info.status.code() == Some(1));
    let t = text(&info.stdout);
    assert!(t.lines().count() <= 60, "{f}: {} lines", t.lines().count());
    assert!(t.starts_with(&format!("{f}\n")), "{t}");
    let size = std::fs::metadata(file).unwrap().len();
    has(&t, &format!("  size         {} bytes\n", thousands(size)));
    let verdict = if check.status.code() == Some(0) {
        "ok"
    } else {
        "refused"
    };
    has(&t, &format!("  verdict      {verdict}"));
    t
}

#[test]
fn info_on_every_shipped_corpus_file() {
    let files = corpus_files(&root().join("corpus"));
    let layouts: Vec<&str> = files
        .iter()
        .filter(|(_, ext)| meshspec_known(ext))
        .map(|(_, e)| e.as_str())
        .collect();
    assert!(layouts.len() >= 40, "{}", layouts.len());
    let mut with_geometry = 0;
    for (p, ext) in files.iter().filter(|(_, e)| meshspec_known(e)) {
        let t = agrees(ext, p, &[]);
        if t.contains("  mesh 0") {
            with_geometry += 1;
        }
    }
    assert!(with_geometry >= 11, "{with_geometry}");
    // The helix: the counts of the document.
    let t = agrees("meshbin", &root().join("corpus/meshbin/helix.meshbin"), &[]);
    has(&t, "  size         1,179,148 bytes\n");
    has(&t, "    vertices   65,508\n");
    has(&t, "    drawn      21,836 triangles in 1 primitive\n");
}

fn meshspec_known(ext: &str) -> bool {
    use std::sync::OnceLock;
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        text(&meshspec(&["layouts"]).stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    })
    .iter()
    .any(|id| id == ext)
}

#[test]
fn info_on_every_unity_mesh_beside_the_checkout() {
    let Some(shared) = shared() else { return };
    let meshes = shared.join("corpus/unity/meshes");
    let mut n = 0;
    // The .mesh files in the folders named after versions.
    for f in files_under(&meshes) {
        let in_version = f.parent().and_then(Path::parent) == Some(meshes.as_path());
        if in_version && f.extension().is_some_and(|e| e == "mesh") {
            let t = agrees("unity-mesh", &f, &["--unity-version", "auto"]);
            has(&t, "  mesh 0");
            has(&t, "    bounds     (");
            n += 1;
        }
    }
    assert_eq!(n, 35);
}
