//! Streamed data: the byte ranges of resource files (`.resS`) that objects name in a
//! `StreamingInfo` (`m_StreamData`).
//!
//! Inside a bundle the path reads `archive:/CAB-.../CAB-....resS`: the bundle's file of that
//! name. For a serialized file on disk (a player's `level0`), the path is the resource file's
//! name beside it (`level0.resS`). A range must lie inside its file; nothing is read or
//! allocated before that is checked.

use super::game::GameFiles;
use super::Located;
use crate::rt::{Error, ErrorKind};
use crate::unity::stream::{read_range, StreamRange};
use std::borrow::Cow;
use std::path::Path;

/// A streamed range that cannot be read: what decoding the mesh needs (an error of its
/// verdict), or, for a resource file that is not there, a check that could not run (a
/// warning).
fn error(kind: ErrorKind, expected: impl Into<String>, found: impl Into<String>) -> Located {
    Located::new(
        "",
        Error::unplaced(kind, expected, found).rooted("m_StreamData"),
    )
}

/// The bytes of `range`, named by an object of serialized file `inner` of opened file
/// `file`: from `explicit` when given (`--ress FILE`), else the bundle's file of the range's
/// name (in the object's bundle first, then in any opened bundle), else the file of that name
/// beside the object's file on disk.
pub fn bytes<'g>(
    files: &'g GameFiles,
    file: usize,
    range: &StreamRange,
    explicit: Option<&Path>,
) -> Result<Cow<'g, [u8]>, Located> {
    if let Some(p) = explicit {
        return read_range(p, range.offset, range.size)
            .map(Cow::Owned)
            .map_err(Located::from);
    }
    let name = range.file_name();
    if name.is_empty() || name == "." || name == ".." {
        return Err(error(
            ErrorKind::Unsupported,
            "a resource path that ends in a file name",
            format!("`{}`", range.path.escape_debug()),
        ));
    }
    let order = std::iter::once(file).chain((0..files.files.len()).filter(|&i| i != file));
    for i in order {
        let Some(b) = &files.files[i].bundle else {
            continue;
        };
        if let Some(node) = b.node(name) {
            let len = node.bytes.len() as u64;
            let end = range.offset.checked_add(range.size);
            return match end {
                Some(end) if end <= len => Ok(Cow::Borrowed(
                    &node.bytes[range.offset as usize..end as usize],
                )),
                _ => Err(error(
                    ErrorKind::Unsupported,
                    format!("a range inside `{name}` ({len} bytes, in the bundle)"),
                    format!(
                        "offset {} + size {} = {}, past its end",
                        range.offset,
                        range.size,
                        u128::from(range.offset) + u128::from(range.size)
                    ),
                )),
            };
        }
    }
    if let Some((_, held)) = files.files[file].resources.iter().find(|(n, _)| n == name) {
        return match range.offset.checked_add(range.size) {
            Some(end) if end <= held.len() as u64 => {
                Ok(Cow::Borrowed(&held[range.offset as usize..end as usize]))
            }
            _ => Err(error(
                ErrorKind::Unsupported,
                format!("a range inside `{name}` ({} bytes)", held.len()),
                format!(
                    "offset {} + size {}, past its end",
                    range.offset, range.size
                ),
            )),
        };
    }
    let beside = files.files[file]
        .path
        .parent()
        .unwrap_or(Path::new(""))
        .join(name);
    if files.files[file].resources_beside && beside.is_file() {
        return read_range(&beside, range.offset, range.size)
            .map(Cow::Owned)
            .map_err(Located::from);
    }
    Err(error(
        ErrorKind::Unchecked,
        format!(
            "the resource file `{}` (in the bundle, beside the file, or given with --ress FILE)",
            name.escape_debug()
        ),
        "none found",
    ))
}
