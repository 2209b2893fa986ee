//! The files under the paths a survey is given: every file below each folder, in name order,
//! one at a time (nothing is collected, however many there are). Links to folders are not
//! followed (no loops); links to files are read.

use std::path::{Path, PathBuf};

/// One thing met while walking.
#[derive(Debug)]
pub enum Found {
    /// A file.
    File(PathBuf),
    /// A folder or file that could not be looked at, and why.
    Unreadable(PathBuf, String),
}

/// The paths among `paths` that do not exist (a mistake to report before anything is read).
pub fn missing(paths: &[PathBuf]) -> Vec<&Path> {
    paths
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_err())
        .map(PathBuf::as_path)
        .collect()
}

/// Whether `path` ends with `.EXT` (`ext` without the dot).
pub fn has_ext(path: &Path, ext: &str) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        n.len() > ext.len() && n.ends_with(ext) && n[..n.len() - ext.len()].ends_with('.')
    })
}

/// The extension of `path` (the text after the last dot of its name; empty when there is none).
pub fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every file under `paths` (whose name ends with `.EXT`, when `ext` is given).
pub fn files<'a>(paths: &'a [PathBuf], ext: Option<&'a str>) -> impl Iterator<Item = Found> + 'a {
    paths.iter().flat_map(move |root| {
        walkdir::WalkDir::new(root)
            .follow_root_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_map(move |e| match e {
                Ok(e) => {
                    let is_file = if e.file_type().is_symlink() {
                        e.path().is_file()
                    } else {
                        e.file_type().is_file()
                    };
                    (is_file && ext.is_none_or(|x| has_ext(e.path(), x)))
                        .then(|| Found::File(e.into_path()))
                }
                Err(err) => {
                    let path = err.path().map_or_else(|| root.clone(), Path::to_path_buf);
                    let why = err.io_error().map_or_else(|| err.to_string(), io_words);
                    Some(Found::Unreadable(path, why))
                }
            })
    })
}

/// What an I/O error found, in words (no OS error numbers).
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or folder".into(),
        K::PermissionDenied => "permission denied".into(),
        K::IsADirectory => "a folder".into(),
        _ => {
            let s = e.to_string();
            match s.rfind(" (os error ") {
                Some(at) if s.ends_with(')') => s[..at].to_string(),
                _ => s,
            }
        }
    }
}

/// How many files there are under `paths` and how many bytes they hold (for a progress bar's
/// time left; one walk without reading).
pub fn totals(paths: &[PathBuf], ext: Option<&str>) -> (u64, u64) {
    files(paths, ext).fold((0, 0), |(n, b), f| match f {
        Found::File(p) => (n + 1, b + std::fs::metadata(&p).map_or(0, |m| m.len())),
        Found::Unreadable(..) => (n, b),
    })
}

/// The Unity version named by the nearest folder above `file` (`--unity-version auto`), as the
/// number the specs compare against.
pub fn version_folder(file: &Path) -> Option<i128> {
    let abs = std::path::absolute(file).ok()?;
    abs.ancestors().skip(1).find_map(|a| {
        let name = a.file_name()?.to_str()?;
        crate::context::unity_version(name).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_what_follows_the_last_dot() {
        assert!(has_ext(Path::new("a/b.mesh"), "mesh"));
        assert!(has_ext(
            Path::new("a/Lame.92d9.unitypy.json"),
            "unitypy.json"
        ));
        assert!(!has_ext(Path::new("a/mesh"), "mesh"));
        assert!(!has_ext(Path::new("a/b.xmesh"), "mesh"));
        assert_eq!(extension(Path::new("x/Lame.92d9.mesh")), "mesh");
        assert_eq!(extension(Path::new("x/README")), "");
        assert_eq!(
            version_folder(Path::new("/m/2021.3.0f1/sub/x.mesh")),
            Some(20210300)
        );
        assert_eq!(version_folder(Path::new("/m/x.mesh")), None);
    }
}
