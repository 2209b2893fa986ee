//! Streamed vertex data: a mesh whose `m_StreamData` has a non-zero size keeps its vertex bytes
//! in a resource file (a bundle's or a player's `.resS`), as the byte range `offset..offset +
//! size`.
//!
//! The file is the one given explicitly ([`Context::resource`], `--ress FILE`), or else the file
//! named by the last part of `m_StreamData.path` beside the input ([`Context::input`]): inside a
//! bundle the path reads `archive:/CAB-.../CAB-....resS`, and extracted files are laid out side by
//! side, as the shared corpus does. Exactly the range is read; a range that does not lie inside
//! the file is an error, never a short read.

use crate::context::Context;
use crate::generated::unity_mesh::{StreamingInfo, UnityMesh};
use crate::rt::{Error, ErrorKind, Result};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The error path of everything this module reports.
const ROOT: &str = "unity_mesh.stream_data";

fn input_error(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Input, expected, found).rooted(ROOT)
}

/// A byte range of a resource file, as `m_StreamData` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamRange {
    /// The path as stored (`archive:/CAB-.../CAB-....resS`).
    pub path: String,
    /// The first byte of the range in the resource file.
    pub offset: u64,
    /// The length of the range in bytes.
    pub size: u64,
}

impl StreamRange {
    /// The range a `StreamingInfo` names, whichever width its offset has.
    pub fn of(info: &StreamingInfo) -> StreamRange {
        let offset = info
            .ofs_data_u8
            .or(info.ofs_data_u4.map(u64::from))
            .unwrap_or(0);
        StreamRange {
            path: info.path.value.clone(),
            offset,
            size: u64::from(info.len_data),
        }
    }

    /// The file name the path ends with: the part after the last `/` (or `\`, or `:` for an
    /// `archive:` path without folders).
    pub fn file_name(&self) -> &str {
        self.path
            .rsplit(['/', '\\', ':'])
            .next()
            .unwrap_or(self.path.as_str())
    }
}

/// The streamed range of `mesh`, or `None` when its vertex data is inline (no `m_StreamData`,
/// before 2018.3, or a size of 0).
pub fn range(mesh: &UnityMesh) -> Option<StreamRange> {
    let r = StreamRange::of(mesh.stream_data.as_ref()?);
    (r.size > 0).then_some(r)
}

/// The resource file that holds `range`: [`Context::resource`] when given, else the file of the
/// path's base name beside [`Context::input`].
pub fn resource_file(range: &StreamRange, ctx: &Context) -> Result<PathBuf> {
    if let Some(p) = &ctx.resource {
        return Ok(p.clone());
    }
    let name = range.file_name();
    if name.is_empty() || name == "." || name == ".." {
        return Err(input_error(
            "a resource path that ends in a file name (or --ress FILE)",
            format!("`{}`", range.path),
        ));
    }
    let Some(input) = &ctx.input else {
        return Err(input_error(
            format!(
                "the resource file `{name}` (give --ress FILE, or read the mesh from a file beside it)"
            ),
            "no input path and no --ress",
        ));
    };
    let dir = input.parent().unwrap_or(Path::new(""));
    Ok(dir.join(name))
}

/// Reads exactly `size` bytes from `offset` of the file at `path`. The range must lie inside
/// the file; nothing is allocated before that is checked.
pub fn read_range(path: &Path, offset: u64, size: u64) -> Result<Vec<u8>> {
    let shown = path.display();
    let mut f = std::fs::File::open(path)
        .map_err(|e| input_error(format!("a readable resource file `{shown}`"), e.to_string()))?;
    let len = f
        .metadata()
        .map_err(|e| input_error(format!("the length of `{shown}`"), e.to_string()))?
        .len();
    let end = offset.checked_add(size);
    if end.is_none_or(|end| end > len) {
        return Err(input_error(
            format!("a range inside `{shown}` ({len} bytes)"),
            format!(
                "offset {offset} + size {size} = {}, past its end",
                u128::from(offset) + u128::from(size)
            ),
        ));
    }
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| input_error(format!("to seek to {offset} in `{shown}`"), e.to_string()))?;
    // `size` is at most the file's length, checked above.
    let mut buf = vec![0u8; size as usize];
    f.read_exact(&mut buf).map_err(|e| {
        input_error(
            format!("{size} bytes at {offset} of `{shown}`"),
            e.to_string(),
        )
    })?;
    Ok(buf)
}

/// The streamed vertex bytes of `mesh`, read from its resource file; `None` when the vertex
/// data is inline.
pub fn streamed_data(mesh: &UnityMesh, ctx: &Context) -> Result<Option<Vec<u8>>> {
    let Some(r) = range(mesh) else {
        return Ok(None);
    };
    let file = resource_file(&r, ctx)?;
    read_range(&file, r.offset, r.size).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("meshspec-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn the_file_name_is_the_last_part_of_the_path() {
        let r = |p: &str| StreamRange {
            path: p.into(),
            offset: 0,
            size: 1,
        };
        assert_eq!(
            r("archive:/CAB-5d40/CAB-5d40.resS").file_name(),
            "CAB-5d40.resS"
        );
        assert_eq!(r("level0.resS").file_name(), "level0.resS");
        assert_eq!(r("archive:x.resS").file_name(), "x.resS");
        assert_eq!(r("C:\\data\\a.resS").file_name(), "a.resS");
    }

    #[test]
    fn exactly_the_range_is_read_and_a_range_past_the_end_is_refused() {
        let p = temp_file("range.resS", &(0u8..100).collect::<Vec<_>>());
        assert_eq!(read_range(&p, 10, 5).unwrap(), vec![10, 11, 12, 13, 14]);
        assert_eq!(read_range(&p, 100, 0).unwrap(), Vec::<u8>::new());
        assert_eq!(read_range(&p, 0, 100).unwrap().len(), 100);
        let e = read_range(&p, 96, 5).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Input);
        let text = e.to_string();
        assert!(
            text.starts_with("unity_mesh.stream_data: expected a range inside"),
            "{text}"
        );
        assert!(
            text.ends_with("(100 bytes), found offset 96 + size 5 = 101, past its end"),
            "{text}"
        );
        // An offset near u64::MAX must not wrap around into the file.
        let e = read_range(&p, u64::MAX, 2).unwrap_err();
        assert!(e.found.contains("18446744073709551617"), "{e}");
    }

    #[test]
    fn the_explicit_resource_wins_and_the_default_is_beside_the_input() {
        let r = StreamRange {
            path: "archive:/CAB-1/CAB-1.resS".into(),
            offset: 0,
            size: 4,
        };
        let mut ctx = Context::new();
        assert!(resource_file(&r, &ctx)
            .unwrap_err()
            .to_string()
            .contains("give --ress FILE"));
        ctx.input = Some(PathBuf::from("/data/meshes/Lame.mesh"));
        assert_eq!(
            resource_file(&r, &ctx).unwrap(),
            PathBuf::from("/data/meshes/CAB-1.resS")
        );
        ctx.resource = Some(PathBuf::from("/elsewhere/x.resS"));
        assert_eq!(
            resource_file(&r, &ctx).unwrap(),
            PathBuf::from("/elsewhere/x.resS")
        );
    }
}
