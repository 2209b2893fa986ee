//! Reading inputs: whole files or standard input, refused before reading when larger than
//! `--max-input-size` (and a stream, whose size is not known, is cut off at the limit).

use crate::fail::{io_words, Fail};
use crate::report::thousands;
use std::io::Read;
use std::path::Path;

/// The default `--max-input-size`: far above any real mesh (the largest corpus file is a few
/// MB), far below what would exhaust memory.
pub const DEFAULT_MAX_INPUT: &str = "1G";

/// Parses a size: bytes, or a number with K, M or G (powers of 1024; `KiB`, `MB`... accepted).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits_end);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("a size such as 500M or 2G, not `{s}`"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("a size such as 500M or 2G, not `{s}`")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("a size that fits 64 bits, not `{s}`"))
}

/// How a file is named in messages.
pub fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

fn too_big(path: &Path, limit: u64, found: String) -> Fail {
    Fail::about(
        shown(path),
        format!(
            "at most {} bytes (--max-input-size raises the limit)",
            thousands(limit)
        ),
        found,
    )
}

/// Refuses a regular file larger than `limit`, without reading it (for readers that open the
/// file themselves).
pub fn within_limit(path: &Path, limit: u64) -> Result<(), Fail> {
    std::fs::metadata(path).map_or(Ok(()), |m| size_within(path, limit, &m))
}

/// Refuses a regular file whose metadata is `meta` when it is larger than `limit`.
fn size_within(path: &Path, limit: u64, meta: &std::fs::Metadata) -> Result<(), Fail> {
    if meta.is_file() && meta.len() > limit {
        let found = format!("{} bytes", thousands(meta.len()));
        return Err(too_big(path, limit, found));
    }
    Ok(())
}

/// An input's bytes: a regular file mapped into memory (no copy, no zeroed pages), or what a
/// stream gave.
pub enum Bytes {
    /// A regular file's pages.
    Mapped(memmap2::Mmap),
    /// Standard input, a pipe, or an empty file.
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// A regular, non-empty file mapped read-only; `None` for anything else.
fn map(f: &std::fs::File, meta: &std::fs::Metadata) -> Option<memmap2::Mmap> {
    if !meta.is_file() || meta.len() == 0 {
        return None;
    }
    // SAFETY: the map is read-only and private, and no reference into it outlives the command.
    // Another process truncating or rewriting the file while the command runs would change
    // the bytes under us (or end it with SIGBUS), as for every tool that maps its inputs
    // (ripgrep, for one); the command never writes to its inputs.
    unsafe { memmap2::Mmap::map(f) }.ok()
}

/// The bytes of the file at `path` (a game file the game-file layer opens), mapped when it is
/// a regular file.
pub fn map_shared(path: &Path) -> std::io::Result<meshspec_formats::unity::files::Shared> {
    let f = std::fs::File::open(path)?;
    let meta = f.metadata()?;
    let bytes = match map(&f, &meta) {
        Some(m) => Bytes::Mapped(m),
        None => {
            let mut buf = vec![];
            f.take(u64::MAX).read_to_end(&mut buf)?;
            Bytes::Owned(buf)
        }
    };
    Ok(meshspec_formats::unity::files::Shared::from_arc(
        std::sync::Arc::new(bytes),
    ))
}

/// The bytes of `path` (`-`: standard input), at most `limit` of them: a regular file is
/// mapped, a stream read up to the limit.
pub fn read(path: &Path, limit: u64) -> Result<Bytes, Fail> {
    let cannot = |e: std::io::Error| Fail::about(shown(path), "a readable file", io_words(&e));
    let mut buf = vec![];
    let got = if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(limit.saturating_add(1))
            .read_to_end(&mut buf)
    } else {
        let f = std::fs::File::open(path).map_err(cannot)?;
        let meta = f.metadata().map_err(cannot)?;
        if meta.is_dir() {
            return Err(Fail::about(shown(path), "a file", "a folder"));
        }
        size_within(path, limit, &meta)?;
        if let Some(m) = map(&f, &meta) {
            // (The map's length is the size checked above.)
            return Ok(Bytes::Mapped(m));
        }
        f.take(limit.saturating_add(1)).read_to_end(&mut buf)
    };
    got.map_err(cannot)?;
    if buf.len() as u64 > limit {
        return Err(too_big(
            path,
            limit,
            "more (a stream, read up to the limit)".into(),
        ));
    }
    Ok(Bytes::Owned(buf))
}

#[cfg(test)]
mod tests {
    use super::{parse_size, read, Bytes};

    /// A regular file is mapped (its bytes as on disk, the limit checked on its size); an
    /// empty one is read.
    #[test]
    fn regular_files_are_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.bin");
        std::fs::write(&p, b"meshspec").unwrap();
        let b = read(&p, 100).unwrap();
        assert!(matches!(b, Bytes::Mapped(_)));
        assert_eq!(&*b, b"meshspec");
        assert!(read(&p, 7).is_err(), "the limit holds for a mapped file");
        std::fs::write(&p, b"").unwrap();
        assert!(matches!(read(&p, 100).unwrap(), Bytes::Owned(v) if v.is_empty()));
        let shared = super::map_shared(&p).unwrap();
        assert!(shared.is_empty());
    }

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("123"), Ok(123));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("3 MiB"), Ok(3 << 20));
        assert!(parse_size("").is_err());
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
