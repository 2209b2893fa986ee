//! `meshspec info` on every corpus file (and the Unity meshes beside the checkout): one screen,
//! the verdict `check` gives, and the geometry `export` would write.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose extension is a layout id.
fn corpus_files(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if let Some(ext) = p.extension().and_then(|e| e.to_str()) {
            if ext != "md" && ext != "py" {
                out.push((p.clone(), ext.to_string()));
            }
        }
    }
}

/// `info` agrees with `check` on the verdict and fits a screen.
#[track_caller]
fn agrees(layout: &str, file: &Path, extra: &[&str]) -> String {
    let f = file.to_str().unwrap();
    let mut args = vec!["info", layout, f];
    args.extend(extra);
    let info = meshspec(&args, None);
    let mut args = vec!["check", layout, f];
    args.extend(extra);
    let check = meshspec(&args, None);
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
    assert!(
        t.contains(&format!("  size         {} bytes\n", thousands(size))),
        "{t}"
    );
    let verdict = if check.status.code() == Some(0) {
        "ok"
    } else {
        "refused"
    };
    assert!(t.contains(&format!("  verdict      {verdict}")), "{t}");
    t
}

#[test]
fn info_on_every_shipped_corpus_file() {
    let mut files = vec![];
    corpus_files(&root().join("corpus"), &mut files);
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
    assert!(t.contains("  size         1,179,148 bytes\n"), "{t}");
    assert!(t.contains("    vertices   65,508\n"), "{t}");
    assert!(
        t.contains("    drawn      21,836 triangles in 1 primitive\n"),
        "{t}"
    );
}

fn meshspec_known(ext: &str) -> bool {
    use std::sync::OnceLock;
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        text(&meshspec(&["layouts"], None).stdout)
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
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&meshes)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    versions.sort();
    for v in versions {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&v)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "mesh"))
            .collect();
        files.sort();
        for f in files {
            let t = agrees("unity-mesh", &f, &["--unity-version", "auto"]);
            assert!(t.contains("  mesh 0"), "{t}");
            assert!(t.contains("    bounds     ("), "{t}");
            n += 1;
        }
    }
    assert_eq!(n, 35);
}
