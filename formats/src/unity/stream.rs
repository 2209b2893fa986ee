//! Streamed vertex data: a mesh whose `m_StreamData` has a non-zero size keeps its vertex bytes
//! in a resource file (a bundle's or a player's `.resS`), as the byte range `offset..offset +
//! size`.
//!
//! The file is the one given explicitly ([`Context::resource`], `--ress FILE`), or else the file
//! named by the last part of `m_StreamData.path`: held in memory by what the input came from
//! ([`Context::held`]: a bundle's `.resS`), or beside the input ([`Context::input`]): inside a
//! bundle the path reads `archive:/CAB-.../CAB-....resS`, and extracted files are laid out side by
//! side, as the shared corpus does. The verdict checks the range against the file's length
//! ([`judge`]); decoding reads exactly the range, once ([`read`]).

use crate::context::{Context, HeldBytes};
use crate::generated::unity_mesh::{
    StreamingInfoPlace, StreamingInfoPos, StreamingInfoRef, UnityMeshRef,
};
use crate::rt::{Error, ErrorKind, Place, Result};
use crate::verdict::Judge;
use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

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
    pub fn of(info: &StreamingInfoRef<'_>) -> StreamRange {
        let offset = info
            .ofs_data_u8
            .or(info.ofs_data_u4.map(u64::from))
            .unwrap_or(0);
        StreamRange {
            path: info.path.value.to_string(),
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

/// The streamed range of a mesh, or `None` when its vertex data is inline (no `m_StreamData`,
/// before 2018.3, or a size of 0).
pub fn range(view: &UnityMeshRef<'_>) -> Option<StreamRange> {
    let r = StreamRange::of(view.stream_data.as_ref()?);
    (r.size > 0).then_some(r)
}

/// Where a streamed range is read from.
#[derive(Debug, Clone)]
pub enum Resource<'c> {
    /// A resource file held by what the input came from ([`Context::held`]: a bundle's), by
    /// its name.
    Held {
        /// Its file name.
        name: &'c str,
        /// Its bytes.
        bytes: &'c dyn HeldBytes,
    },
    /// A file on disk.
    File(PathBuf),
}

/// The resource file that holds `range`: [`Context::resource`] when given, else the file of the
/// path's base name held in memory ([`Context::held`]), else the file of that name beside
/// [`Context::input`]; `Err` says why none can be known.
pub fn resource<'c>(
    range: &'c StreamRange,
    ctx: &'c Context,
) -> std::result::Result<Resource<'c>, String> {
    if let Some(p) = &ctx.resource {
        return Ok(Resource::File(p.clone()));
    }
    let name = range.file_name();
    if name.is_empty() || name == "." || name == ".." {
        return Err(format!(
            "m_StreamData.path `{}` ends in no file name; give --ress FILE",
            range.path
        ));
    }
    if let Some(bytes) = ctx.held(name) {
        return Ok(Resource::Held { name, bytes });
    }
    let Some(input) = &ctx.input else {
        return Err(format!(
            "the mesh was not read from a file, so `{name}` cannot be looked for beside it; give --ress FILE"
        ));
    };
    let dir = input.parent().unwrap_or(Path::new(""));
    Ok(Resource::File(dir.join(name)))
}

/// What the verdict can say of the streamed range: the resource file when it is there and holds
/// the range. A file that cannot be found or read is an `unchecked` finding naming it and
/// `--ress`; a range past its end is an error at the field that points there.
pub(crate) fn judge(
    range: &StreamRange,
    at: &Place<'_, StreamingInfoPos>,
    j: &mut Judge<'_>,
) -> Option<PathBuf> {
    let what = format!(
        "a check of the streamed vertex data ({} bytes at offset {} of `{}`)",
        range.size,
        range.offset,
        range.file_name()
    );
    let file = match resource(range, j.ctx) {
        Ok(Resource::File(f)) => f,
        Ok(Resource::Held { name, bytes }) => {
            // (Only a file on disk is handed on: the bone slots in held bytes are checked
            // when the mesh is decoded.)
            check_range(range, bytes.size(), name, at, j);
            return None;
        }
        Err(why) => {
            j.unchecked(what, why);
            return None;
        }
    };
    match resource_len(&file) {
        Ok(len) => check_range(range, len, &file.display().to_string(), at, j).then_some(file),
        Err(why) => {
            j.unchecked(what, why);
            None
        }
    }
}

/// The length of a resource file, or why it cannot be read (with the `--ress` hint).
fn resource_len(file: &Path) -> std::result::Result<u64, String> {
    match std::fs::metadata(file) {
        Ok(m) if m.is_file() => Ok(m.len()),
        Ok(_) => Err(format!(
            "`{}` is not a file; give --ress FILE",
            file.display()
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "`{}` is not there; give --ress FILE",
            file.display()
        )),
        Err(e) => Err(format!(
            "`{}` cannot be read ({e}); give --ress FILE",
            file.display()
        )),
    }
}

/// Whether the range lies inside the `len` bytes of the resource file `file`; an error at the
/// field otherwise.
fn check_range(
    range: &StreamRange,
    len: u64,
    file: &str,
    at: &Place<'_, StreamingInfoPos>,
    j: &mut Judge<'_>,
) -> bool {
    let end = u128::from(range.offset) + u128::from(range.size);
    if end <= u128::from(len) {
        return true;
    }
    // The offset itself past the end blames the offset; otherwise the size.
    let (u8_at, u4_at) = (at.ofs_data_u8(), at.ofs_data_u4());
    let offset_at = u8_at.some().or(u4_at.some());
    let expected =
        format!("a range inside `{file}` ({len} bytes), to read the streamed vertex data");
    let found = format!(
        "offset {} + size {} = {end}, past its end",
        range.offset, range.size
    );
    j.push(match offset_at {
        Some(o) if range.offset > len => o.error(ErrorKind::Count, expected, found),
        _ => at.len_data().error(ErrorKind::Count, expected, found),
    });
    false
}

/// Reads exactly `size` bytes from `offset` of the file at `path`. The range must lie inside
/// the file; nothing is allocated before that is checked. Errors name the file.
pub fn read_range(path: &Path, offset: u64, size: u64) -> Result<Vec<u8>> {
    let shown = path.display().to_string();
    let fail = |expected: String, found: String| {
        Error::unplaced(ErrorKind::Io, expected, found).rooted("unity_mesh.stream_data")
    };
    let mut f = std::fs::File::open(path)
        .map_err(|e| fail(format!("a readable resource file `{shown}`"), e.to_string()))?;
    let len = f
        .metadata()
        .map_err(|e| fail(format!("the length of `{shown}`"), e.to_string()))?
        .len();
    let end = offset.checked_add(size);
    if end.is_none_or(|end| end > len) {
        return Err(fail(
            format!("a range inside `{shown}` ({len} bytes)"),
            format!(
                "offset {offset} + size {size} = {}, past its end",
                u128::from(offset) + u128::from(size)
            ),
        ));
    }
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| fail(format!("to seek to {offset} in `{shown}`"), e.to_string()))?;
    // `size` is at most the file's length, checked above.
    let mut buf = vec![0u8; size as usize];
    f.read_exact(&mut buf).map_err(|e| {
        fail(
            format!("{size} bytes at {offset} of `{shown}`"),
            e.to_string(),
        )
    })?;
    Ok(buf)
}

/// The bytes of `range` from the resource file [`resource`] finds: borrowed when held in
/// memory, read once from disk otherwise. The range must lie inside the file.
pub fn bytes<'c>(range: &'c StreamRange, ctx: &'c Context) -> Result<Cow<'c, [u8]>> {
    let what = format!(
        "the resource file `{}` that holds the vertex data",
        range.file_name()
    );
    let fail =
        |why| Error::unplaced(ErrorKind::Input, what.clone(), why).rooted("unity_mesh.stream_data");
    match resource(range, ctx).map_err(fail)? {
        Resource::Held { name, bytes } => {
            let len = bytes.size();
            match range.offset.checked_add(range.size) {
                Some(end) if end <= len => bytes.range(range.offset as usize..end as usize),
                _ => Err(Error::unplaced(
                    ErrorKind::Io,
                    format!("a range inside `{name}` ({len} bytes)"),
                    format!(
                        "offset {} + size {} = {}, past its end",
                        range.offset,
                        range.size,
                        u128::from(range.offset) + u128::from(range.size)
                    ),
                )
                .rooted("unity_mesh.stream_data")),
            }
        }
        Resource::File(file) => {
            resource_len(&file).map_err(fail)?;
            read_range(&file, range.offset, range.size).map(Cow::Owned)
        }
    }
}

/// The streamed vertex bytes of a mesh, read once from its resource file; `None` when the
/// vertex data is inline.
pub fn read(view: &UnityMeshRef<'_>, ctx: &Context) -> Result<Option<Vec<u8>>> {
    let Some(r) = range(view) else {
        return Ok(None);
    };
    bytes(&r, ctx).map(|b| Some(b.into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` as file `name` in a fresh temporary folder, removed when it is dropped.
    fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        (dir, p)
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
        let (_dir, p) = temp_file("range.resS", &(0u8..100).collect::<Vec<_>>());
        assert_eq!(read_range(&p, 10, 5).unwrap(), vec![10, 11, 12, 13, 14]);
        assert_eq!(read_range(&p, 100, 0).unwrap(), Vec::<u8>::new());
        assert_eq!(read_range(&p, 0, 100).unwrap().len(), 100);
        let e = read_range(&p, 96, 5).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Io);
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
    fn the_explicit_resource_wins_then_a_held_one_then_the_one_beside_the_input() {
        let r = StreamRange {
            path: "archive:/CAB-1/CAB-1.resS".into(),
            offset: 1,
            size: 2,
        };
        let mut ctx = Context::new();
        assert!(resource(&r, &ctx).unwrap_err().contains("give --ress FILE"));
        ctx.input = Some(PathBuf::from("/data/meshes/Lame.mesh"));
        let file = |r: Resource<'_>| match r {
            Resource::File(f) => Some(f),
            Resource::Held { .. } => None,
        };
        assert_eq!(
            file(resource(&r, &ctx).unwrap()),
            Some(PathBuf::from("/data/meshes/CAB-1.resS"))
        );
        ctx.held.push(crate::context::Held {
            name: "CAB-1.resS".into(),
            bytes: std::sync::Arc::new(vec![7u8, 8, 9]),
        });
        match resource(&r, &ctx).unwrap() {
            Resource::Held { name, bytes } => {
                assert_eq!(name, "CAB-1.resS");
                assert_eq!(&*bytes.range(0..3).unwrap(), &[7, 8, 9]);
            }
            Resource::File(f) => panic!("the file beside, {f:?}, not the held one"),
        }
        assert_eq!(&*bytes(&r, &ctx).unwrap(), &[8, 9]);
        let past = StreamRange {
            offset: 2,
            ..r.clone()
        };
        assert!(bytes(&past, &ctx)
            .unwrap_err()
            .to_string()
            .ends_with("expected a range inside `CAB-1.resS` (3 bytes), found offset 2 + size 2 = 4, past its end"));
        ctx.resource = Some(PathBuf::from("/elsewhere/x.resS"));
        assert_eq!(
            file(resource(&r, &ctx).unwrap()),
            Some(PathBuf::from("/elsewhere/x.resS"))
        );
    }
}
