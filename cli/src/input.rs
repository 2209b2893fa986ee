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
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() > limit => Err(too_big(
            path,
            limit,
            format!("{} bytes", thousands(m.len())),
        )),
        _ => Ok(()),
    }
}

/// The bytes of `path` (`-`: standard input), at most `limit` of them.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Fail> {
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
        if meta.is_file() && meta.len() > limit {
            return Err(too_big(
                path,
                limit,
                format!("{} bytes", thousands(meta.len())),
            ));
        }
        if meta.is_file() {
            // Never trust the size for the allocation beyond the limit: the file may grow.
            buf.reserve_exact(meta.len() as usize);
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
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

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
