//! Streamed data: the byte ranges of resource files (`.resS`) that objects name in a
//! `StreamingInfo` (`m_StreamData`).
//!
//! Inside a bundle the path reads `archive:/CAB-.../CAB-....resS`: the bundle's file of that
//! name. For a serialized file on disk (a player's `level0`), the path is the resource file's
//! name beside it (`level0.resS`). This module says where those files are for an object's
//! context ([`around`]): the one the object names, held in memory when a bundle holds it, and
//! the object's file on disk as the input beside which the others are found. The layout's own
//! stream code ([`crate::unity::stream`]) then finds and reads the range, as it does for a bare
//! object; a range must lie inside its file, and nothing is read or allocated before that is
//! checked.

use super::game::GameFiles;
use super::{Located, Shared};
use crate::context::{Context, Held, HeldBytes};
use crate::unity::stream::{self, StreamRange};
use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// The resource file `name` held in memory for an object of opened file `file`: the file's
/// own (a file written back, not yet on disk), its bundle's file of that name, or another
/// opened bundle's.
fn held(files: &GameFiles, file: usize, name: &str) -> Option<Held> {
    let f = &files.files[file];
    let found = |bytes: Arc<dyn HeldBytes>| Held {
        name: name.to_string(),
        bytes,
    };
    if let Some((_, held)) = f.resources.iter().find(|(n, _)| n == name) {
        return Some(found(Arc::new(held.clone())));
    }
    let order = std::iter::once(file).chain((0..files.files.len()).filter(|&i| i != file));
    order
        .filter_map(|i| files.files[i].bundle.as_ref())
        .find_map(|b| b.node(name).map(|n| found(b.node_held(n.index))))
}

/// Says in `ctx` where the resource files around opened file `file` are: the one named
/// `name` when the opened files hold it in memory, and the file on disk as the input (the
/// others are beside it), unless it holds resources of its own or may not look beside it.
pub fn around(files: &GameFiles, file: usize, name: Option<&str>, ctx: &mut Context) {
    let f = &files.files[file];
    ctx.held = name
        .and_then(|n| held(files, file, n))
        .into_iter()
        .collect();
    // Resource files held in memory replace those beside the file on disk.
    ctx.input = (f.resources_beside && f.resources.is_empty()).then(|| f.path.clone());
}

/// The bytes of `range`, named by an object of opened file `file`, found as its layout finds
/// them: `explicit` when given (`--ress FILE`), else the file of the range's name held in
/// memory, else the one beside the object's file on disk.
pub fn bytes<'g>(
    files: &'g GameFiles,
    file: usize,
    range: &StreamRange,
    explicit: Option<&Path>,
) -> Result<Cow<'g, [u8]>, Located> {
    let mut ctx = Context::new();
    ctx.resource = explicit.map(Path::to_path_buf);
    around(files, file, Some(range.file_name()), &mut ctx);
    stream::bytes(range, &ctx)
        .map(|b| Cow::Owned(b.into_owned()))
        .map_err(Located::from)
}
