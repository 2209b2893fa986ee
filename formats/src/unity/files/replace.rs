//! Writing a game file back with Mesh objects replaced (one, or several in turn): the way
//! modders put edited meshes back into the files a game loads.
//!
//! The serialized file is written by [`serialized::with_object`] (object table and header
//! through the generated writer, every other byte kept), a bundle by [`bundle::write`] (blocks
//! re-used where their content did not change, so an unedited bundle comes back byte for
//! byte). New streamed vertex data replaces the mesh's old range of its resource file when it
//! has the same size, else is appended to the resource (at a multiple of 16), and the mesh's
//! `m_StreamData` offset and size are rewritten by the generated `unity-mesh` writer.
//!
//! Nothing is returned that does not read back: the new bytes are opened again as a game file
//! and the replaced mesh judged by the one verdict (`ObjectInput::judge`, what `check` uses);
//! a file that does not open, a mesh whose verdict fails, or any other object whose bytes
//! changed refuses the replacement.

use super::bundle::{self, Repacked};
use super::compress::Limits;
use super::game::{GameFile, GameFiles, Select};
use super::mesh::{self, MESH};
use super::serialized;
use super::{Located, Shared};
use crate::context::Context;
use crate::rt::{Error, ErrorKind, Root};
use crate::unity::stream::StreamRange;
use crate::verdict::Verdict;
use std::path::Path;

/// Where streamed data is appended in a resource file (its ranges start on multiples of 16 in
/// every file seen).
const RESOURCE_ALIGN: u64 = 16;

/// What replaces what.
#[derive(Debug, Clone, Copy)]
pub struct Edit<'a> {
    /// The path id of the Mesh to replace.
    pub path_id: i64,
    /// The new object's bytes (a Mesh as the `unity-mesh` layout of the file's version reads
    /// it).
    pub object: &'a [u8],
    /// New streamed vertex data for it, when its vertex data is streamed (`m_StreamData`).
    pub vertex_data: Option<&'a [u8]>,
}

/// A game file written back.
#[derive(Debug, Clone)]
pub struct Replaced {
    /// The game file's new bytes.
    pub bytes: Vec<u8>,
    /// For a serialized file on disk whose resource file changed: the resource's name (the
    /// last part of `m_StreamData`'s path) and its new bytes, to be written beside the output.
    pub resource: Option<(String, Vec<u8>)>,
    /// The object as written (its `m_StreamData` pointed at the new vertex data).
    pub object: Vec<u8>,
    /// The streamed range the object names, when its vertex data is streamed.
    pub stream: Option<StreamRange>,
    /// For a bundle, how its blocks were written.
    pub repacked: Option<Repacked>,
    /// The verdict on the replaced mesh in the new file.
    pub verdict: Verdict,
    /// Where the object is: the file and, in a bundle, its serialized file.
    pub place: String,
    /// The replaced object's path id.
    pub path_id: i64,
}

fn refusal(place: &str, kind: ErrorKind, expected: String, found: String) -> Located {
    Located::new(place, Error::unplaced(kind, expected, found))
}

/// `original` (the game file read from `path`) with the Mesh of `edit.path_id` replaced,
/// judged as described in the module's documentation. `user` is how the verdict counts
/// (`--relations`, `--strict`); its resource file is not used.
pub fn replace(
    path: &Path,
    original: &[u8],
    edit: &Edit<'_>,
    user: &Context,
    limits: &Limits,
) -> Result<Replaced, Located> {
    replace_in(path, original, None, edit, user, limits)
}

/// `original` with several Meshes replaced, one after another, each as [`replace`] replaces
/// one in the file the replacements before it wrote (and in the resource file they wrote, for
/// a serialized file on disk), so each is judged in the file as it finally reads and every
/// object not named stays as it was. One replacement per path id. The last of the results
/// holds the file (and the resource file); the earlier ones say what was replaced.
pub fn replace_all(
    path: &Path,
    original: &[u8],
    edits: &[Edit<'_>],
    user: &Context,
    limits: &Limits,
) -> Result<Vec<Replaced>, Located> {
    let shown = path.display().to_string();
    for (k, e) in edits.iter().enumerate() {
        if edits[..k].iter().any(|x| x.path_id == e.path_id) {
            return Err(refusal(
                &shown,
                ErrorKind::Input,
                "one replacement per path id".into(),
                format!("path id {} twice", e.path_id),
            ));
        }
    }
    let mut done: Vec<Replaced> = Vec::with_capacity(edits.len());
    for e in edits {
        let r = match done.last_mut() {
            None => replace_in(path, original, None, e, user, limits)?,
            Some(last) => {
                // Only the last result keeps the file's bytes.
                let bytes = std::mem::take(&mut last.bytes);
                let resource = last.resource.clone();
                replace_in(path, &bytes, resource, e, user, limits)?
            }
        };
        done.push(r);
    }
    Ok(done)
}

/// [`replace`] of `original`, whose resource file on disk, when an earlier replacement wrote
/// it anew, is `resource` (its name and bytes).
fn replace_in(
    path: &Path,
    original: &[u8],
    resource_written: Option<(String, Vec<u8>)>,
    edit: &Edit<'_>,
    user: &Context,
    limits: &Limits,
) -> Result<Replaced, Located> {
    let shown = path.display().to_string();
    let g = GameFiles::from_files(vec![GameFile::from_bytes(path, original, limits)?]);
    let r = match g.select(&Select::PathId(edit.path_id)).as_slice() {
        [r] => *r,
        [] => {
            return Err(refusal(
                &shown,
                ErrorKind::Input,
                format!(
                    "an object of path id {} (`meshspec unity list` shows them)",
                    edit.path_id
                ),
                "none".into(),
            ))
        }
        many => {
            return Err(refusal(
                &shown,
                ErrorKind::Input,
                format!("one object of path id {}", edit.path_id),
                format!("{} (one in each of several serialized files)", many.len()),
            ))
        }
    };
    let place = g.place(r);
    let inner = &g.files[0].serialized[r.inner];
    let s = &inner.file;
    let o = g.entry(r);
    if o.class_id != MESH {
        return Err(Located::new(
            &place,
            Error::new(
                ErrorKind::Input,
                o.offset,
                "a Mesh (class 43) to replace",
                format!(
                    "{} (class {}), path id {}",
                    s.class_name(o),
                    o.class_id,
                    o.path_id
                ),
            ),
        ));
    }
    let layout = mesh::Layout {
        version: g.version(r)?.number,
        editor: s.editor,
    };
    let bundle = g.files[0].bundle.as_ref();

    // New vertex data: into the resource, and the object pointed at it.
    let mut object = edit.object.to_vec();
    let mut resource: Option<(String, Option<usize>, Vec<u8>)> = None;
    if let Some(vertex) = edit.vertex_data {
        let new_place = format!("{place} (the new object)");
        let ctx = mesh::context(layout);
        let (mut m, _) =
            mesh::read_fixed(&object, layout).map_err(|e| Located::new(&new_place, e))?;
        if m.to_bytes(&ctx).ok().as_deref() != Some(edit.object) {
            return Err(refusal(
                &new_place,
                ErrorKind::Unsupported,
                format!(
                    "an object the unity-mesh {} writes back as it is, to point its m_StreamData at new vertex data",
                    layout.text()
                ),
                "one it writes otherwise".into(),
            ));
        }
        let old = g.mesh(r).ok().and_then(|m| m.stream());
        let Some(info) = m.stream_data.as_mut() else {
            return Err(refusal(
                &new_place,
                ErrorKind::Input,
                "a Mesh with m_StreamData, for new streamed vertex data".into(),
                format!("none in {}", layout.text()),
            ));
        };
        if info.path.value.is_empty() {
            if let Some(o) = &old {
                info.path.value = o.path.clone();
            }
        }
        let range = StreamRange {
            path: info.path.value.clone(),
            offset: 0,
            size: 0,
        };
        let name = range.file_name().to_string();
        if name.is_empty() {
            return Err(refusal(
                &new_place,
                ErrorKind::Input,
                "an m_StreamData path that names a resource file".into(),
                format!("`{}`", range.path.escape_debug()),
            ));
        }
        let (node, mut bytes) = match bundle {
            Some(b) => match b.node(&name) {
                Some(n) => (Some(n.index), b.node_bytes(n.index)?.to_vec()),
                None => {
                    return Err(refusal(
                        &shown,
                        ErrorKind::Input,
                        format!("the resource file `{}` in the bundle", name.escape_debug()),
                        "none".into(),
                    ))
                }
            },
            // The resource file an earlier replacement wrote (one per file: two would need
            // two files beside the output).
            None if resource_written.is_some() => match &resource_written {
                Some((n, b)) if *n == name => (None, b.clone()),
                _ => {
                    return Err(refusal(
                        &new_place,
                        ErrorKind::Unsupported,
                        "the resource file the earlier replacements wrote into".into(),
                        format!("another, `{}`", name.escape_debug()),
                    ))
                }
            },
            None => {
                let beside = path.parent().unwrap_or(Path::new("")).join(&name);
                let bytes = std::fs::read(&beside).map_err(|e| {
                    refusal(
                        &beside.display().to_string(),
                        ErrorKind::Io,
                        "the resource file beside the file, to write the vertex data into".into(),
                        e.to_string(),
                    )
                })?;
                (None, bytes)
            }
        };
        let len = u32::try_from(vertex.len()).map_err(|_| {
            refusal(
                &new_place,
                ErrorKind::Count,
                "vertex data of at most 4 GiB (m_StreamData's size is 32-bit)".into(),
                format!("{} bytes", vertex.len()),
            )
        })?;
        let in_place = old.as_ref().filter(|o| {
            o.file_name() == name
                && o.size == u64::from(len)
                && o.offset
                    .checked_add(o.size)
                    .is_some_and(|e| e <= bytes.len() as u64)
        });
        let offset = match in_place {
            Some(o) => {
                let at = o.offset as usize;
                bytes[at..at + vertex.len()].copy_from_slice(vertex);
                o.offset
            }
            None => {
                let at = (bytes.len() as u64).div_ceil(RESOURCE_ALIGN) * RESOURCE_ALIGN;
                bytes.resize(at as usize, 0);
                bytes.extend_from_slice(vertex);
                at
            }
        };
        match (&mut info.ofs_data_u8, &mut info.ofs_data_u4) {
            (Some(v), _) => *v = offset,
            (None, Some(v)) => {
                *v = u32::try_from(offset).map_err(|_| {
                    refusal(
                        &new_place,
                        ErrorKind::Count,
                        "a resource offset below 4 GiB (m_StreamData's offset is 32-bit in this version)".into(),
                        offset.to_string(),
                    )
                })?
            }
            (None, None) => {}
        }
        info.len_data = len;
        object = m.to_bytes(&ctx).map_err(|e| Located::new(&new_place, e))?;
        resource = Some((name, node, bytes));
    }

    // The serialized file, then the bundle around it.
    let new_serialized = serialized::with_object(&s.bytes, edit.path_id, &object)
        .map_err(|e| Located::new(&place, e))?;
    let (bytes, repacked, on_disk) = match (bundle, inner.node) {
        (Some(b), Some(node)) => {
            let mut files = vec![(node, new_serialized)];
            if let Some((_, Some(k), res)) = &resource {
                files.push((*k, res.clone()));
            }
            let (bytes, rep) = bundle::write(original, b, &files).map_err(|e| e.within(&shown))?;
            (bytes, Some(rep), None)
        }
        // A resource file an earlier replacement wrote stays written.
        _ => (
            new_serialized,
            None,
            resource
                .map(|(name, _, bytes)| (name, bytes))
                .or(resource_written),
        ),
    };

    // Judged as written.
    let mut file = GameFile::from_bytes(path, &bytes, limits).map_err(|mut e| {
        e.error.expected = format!("the written file to read back: {}", e.error.expected);
        e.place = format!("{} (as written)", e.place);
        e
    })?;
    if let Some((name, res)) = &on_disk {
        file.resources
            .push((name.clone(), Shared::new(res.clone())));
    }
    let g2 = GameFiles::from_files(vec![file]);
    let r2 = g2
        .select(&Select::PathId(edit.path_id))
        .into_iter()
        .find(|x| g2.files[0].serialized[x.inner].name == inner.name)
        .ok_or_else(|| {
            refusal(
                &place,
                ErrorKind::Inconsistent,
                "the replaced object in the written file".into(),
                "none".into(),
            )
        })?;
    // Offsets in these refusals are in the file as it would have been written.
    let written = |mut e: Located| {
        e.place = format!("{} (as written)", e.place);
        e
    };
    let input = g2.input(r2, user).map_err(written)?;
    let verdict = input.judge();
    if let Some(e) = verdict.first_failure() {
        return Err(written(Located::new(g2.place(r2), e.clone())));
    }
    if g2.bytes(r2) != object.as_slice() {
        return Err(refusal(
            &place,
            ErrorKind::Inconsistent,
            "the new object's bytes in the written file".into(),
            "other bytes".into(),
        ));
    }
    // Every other object as it was.
    for x in g.objects() {
        if x == r {
            continue;
        }
        let name = &g.files[0].serialized[x.inner].name;
        let id = g.entry(x).path_id;
        let same = g2
            .select(&Select::PathId(id))
            .into_iter()
            .find(|y| &g2.files[0].serialized[y.inner].name == name)
            .is_some_and(|y| g2.bytes(y) == g.bytes(x));
        if !same {
            return Err(refusal(
                &g.place(x),
                ErrorKind::Inconsistent,
                format!("object {id} unchanged in the written file"),
                "other bytes, or no such object".into(),
            ));
        }
    }
    Ok(Replaced {
        bytes,
        resource: on_disk,
        stream: input.mesh.stream(),
        object,
        repacked,
        verdict,
        place,
        path_id: edit.path_id,
    })
}
