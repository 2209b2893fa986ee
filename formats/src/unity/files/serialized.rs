//! Serialized files: the spec reads the header and the metadata and keeps the objects' data
//! as one block (`spec/unity_serialized.ksy`); this module builds the type trees, finds each
//! object's bytes and type, and checks the relations the spec states, at the positions the
//! reader recorded ([`Parts::of`], the verdict's `unity-serialized` part).

use super::typetree::{self, RawNode, RefType, Trees, TypeTree, Value};
use super::{Located, Shared};
use crate::context::Context;
use crate::generated::unity_serialized::{
    BuildTarget, CommonString, HeaderPlace, HeaderWidePlace, MetadataPlace, MetadataRef,
    ObjectInfoPlace, ObjectInfoRef, OldTypeTreeNodePlace, OldTypeTreeNodePos, OldTypeTreeNodeRef,
    SerializedTypePlace, SerializedTypePos, SerializedTypeRef, TypeTreeNodePlace, TypeTreePlace,
    UnityClass, UnitySerialized, UnitySerializedPlace, UnitySerializedPos, UnitySerializedRef,
};
use crate::rt::pod::Pod;
use crate::rt::{Error, ErrorKind, Place, Result, Root, Severity, Span};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// The error path's root.
pub const ROOT: &str = "unity_serialized";

/// One object of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectEntry {
    /// Its index in the object table.
    pub index: usize,
    /// Its id in the file.
    pub path_id: i64,
    /// Its class id (43 Mesh).
    pub class_id: i32,
    /// Its type (an index into the types), when one matches.
    pub type_index: Option<usize>,
    /// Where its bytes start in the file.
    pub offset: u64,
    /// How many bytes it takes.
    pub size: u32,
    /// Where its entry in the object table starts in the file.
    pub entry_at: u64,
}

/// What the metadata of a serialized file says beyond its bytes, and every finding of the
/// verdict on it.
#[derive(Debug, Clone, Default)]
pub struct Parts {
    /// Per type, its tree when the file carries type trees (and the tree builds).
    pub trees: Vec<Option<Arc<TypeTree>>>,
    /// The managed reference types.
    pub ref_types: Vec<RefType>,
    /// The objects whose ranges lie in the data, in table order.
    pub objects: Vec<ObjectEntry>,
    /// Every relation that does not hold, at its severity, and every decoder finding (an
    /// error) where reading the objects needs what does not hold.
    pub findings: Vec<Error>,
    by_path_id: HashMap<i64, usize>,
}

/// A serialized file its verdict opened (it holds no error), for the file's bytes to be
/// bound to: what `unity-serialized`'s checks keep, so a survey does not read it again.
pub struct Unbound(Serialized);

impl Unbound {
    /// The file a reading and its `parts` describe, when the parts hold no error (their
    /// findings are then the file's warnings).
    pub(crate) fn of(
        view: &UnitySerializedRef<'_>,
        at: &Place<'_, UnitySerializedPos>,
        parts: Parts,
    ) -> Option<Unbound> {
        if parts.findings.iter().any(|e| e.severity == Severity::Error) {
            return None;
        }
        let warnings = parts.findings.clone();
        Some(Unbound(Serialized::of(
            view,
            at.get(),
            parts,
            warnings,
            Shared::new(vec![]),
        )))
    }

    /// The file over its bytes (those the reading read).
    pub fn bind(self, bytes: Shared) -> Serialized {
        Serialized { bytes, ..self.0 }
    }
}

/// An opened serialized file.
#[derive(Debug, Clone)]
pub struct Serialized {
    /// The file's bytes.
    pub bytes: Shared,
    /// The format version.
    pub version: u32,
    /// Whether the metadata and the objects are big endian.
    pub big_endian: bool,
    /// The editor version that wrote the file, as written.
    pub unity_version: String,
    /// Whether the editor saved the file for itself (its target platform is NoTarget): its
    /// objects keep the editor-only fields, which the `unity-mesh` layout reads when its
    /// `unity_editor` parameter says so.
    pub editor: bool,
    /// Where the metadata starts in the file (after the header).
    pub metadata_at: u64,
    /// Where the objects' data starts in the file.
    pub data_at: u64,
    /// Per type, its tree when the file carries type trees.
    pub trees: Vec<Option<Arc<TypeTree>>>,
    /// Whether the type trees are in the nested form of formats 9 and 11.
    pub nested_trees: bool,
    /// The managed reference types.
    pub ref_types: Vec<RefType>,
    /// The objects, in table order.
    pub objects: Vec<ObjectEntry>,
    /// The paths of the external files, in order (`m_FileID` 1 is the first).
    pub externals: Vec<String>,
    /// What the verdict warns about (relations that do not hold and that reading does not
    /// need).
    pub warnings: Vec<Error>,
    unity_version_at: u64,
    /// The metadata's field (`metadata`, `old_metadata` before format 9).
    metadata_field: &'static str,
    by_path_id: HashMap<i64, usize>,
}

/// How many bytes of a file [`looks_serialized`] looks at.
pub const LOOKS_AT: usize = 20;

/// Whether `bytes` look like a serialized file of the formats read here: a big-endian format
/// version of 9 to 22 at offset 8 and an endianness byte of 0 or 1 at 16; or a format version
/// of 5 to 8, a metadata size above 0 and below the file size (the metadata is at the end) and
/// a data offset of 0 (as in every such file seen: 563 files of Unity 3.3 and 3.4).
pub fn looks_serialized(bytes: &[u8]) -> bool {
    if bytes.len() < LOOKS_AT {
        return false;
    }
    let be = |at: usize| u32::from_slice(&bytes[at..at + 4], binrw::Endian::Big);
    match be(8) {
        9..=22 => bytes[16] <= 1,
        5..=8 => (1..be(4)).contains(&be(0)) && be(12) == 0,
        _ => false,
    }
}

/// The metadata of a reading, where its format puts it (before the data from format 9, at the
/// file's end before).
pub(crate) fn metadata<'v, 'a>(view: &'v UnitySerializedRef<'a>) -> Option<&'v MetadataRef<'a>> {
    view.metadata.as_ref().or(view.old_metadata.as_ref())
}

/// The objects' data of a reading and where it lies, where its format puts it.
fn objects_data<'a>(
    view: &UnitySerializedRef<'a>,
    pos: &UnitySerializedPos,
) -> Option<(&'a [u8], Span)> {
    match (view.data, pos.data, view.old_data, pos.old_data) {
        (Some(d), Some(s), _, _) | (_, _, Some(d), Some(s)) => Some((d, s)),
        _ => None,
    }
}

/// Where objects' byte_start counts from in the file: from format 9 the data offset, where the
/// data starts (`data_at`); before, the header's data offset (0 in every file seen: the file's
/// start).
fn objects_base(view: &UnitySerializedRef<'_>, data_at: u64) -> u64 {
    if view.header.version >= 9 {
        data_at
    } else {
        u64::from(view.header.ofs_data)
    }
}

/// An object's byte_start as stored (32 or 64-bit by format).
fn start_of(o: &ObjectInfoRef<'_>) -> u64 {
    o.byte_start_u8
        .unwrap_or(u64::from(o.byte_start_u4.unwrap_or(0)))
}

/// Reads a NUL-terminated name at `at` of a type tree's string buffer.
fn buffer_string(buf: &[u8], at: usize) -> Option<String> {
    let rest = buf.get(at..)?;
    let end = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// The relation `type_tree_names_resolve` broken at `at`, and the name as shown.
fn unresolved(at: &Place<'_, crate::rt::Span>, expected: String, found: String) -> Error {
    at.violates(
        UnitySerialized::REL_TYPE_TREE_NAMES_RESOLVE,
        expected,
        found,
    )
}

/// The type tree of type `t` (at `tp`), built and checked: `None` when the file carries no
/// tree for it, or when it does not build (the findings say why). Places and paths are made
/// only for errors: a file holds thousands of nodes.
fn tree_of(
    t: &SerializedTypeRef<'_>,
    tp: &Place<'_, SerializedTypePos>,
    findings: &mut Vec<Error>,
) -> Option<TypeTree> {
    if let (Some(tt), Some(ttp)) = (&t.type_tree, tp.type_tree().some()) {
        let nodes_at = ttp.nodes();
        let buffer_at = ttp.string_buffer().span().start;
        let mut raw = Vec::with_capacity(tt.nodes.len());
        let mut bad = 0usize;
        for (j, n) in tt.nodes.iter().enumerate() {
            // Recorded for every node by the located reader (0 past the end, never a panic).
            let (offset, level_at) = nodes_at
                .get()
                .items
                .get(j)
                .map_or((0, 0), |p| (p._span.start, p.level.start));
            let mut name_of = |ofs: u32, field: &dyn Fn() -> Place<'static, crate::rt::Span>| {
                if ofs & 0x8000_0000 != 0 {
                    if let Some(s) = CommonString(ofs).orig_id() {
                        return Cow::Borrowed(s);
                    }
                    bad += 1;
                    findings.push(unresolved(
                        &field(),
                        "an offset of one of Unity's common strings (top bit set)".into(),
                        format!("0x{ofs:08X}"),
                    ));
                    return Cow::Borrowed("");
                }
                match buffer_string(tt.string_buffer, ofs as usize) {
                    Some(s) => Cow::Owned(s),
                    None => {
                        bad += 1;
                        findings.push(unresolved(
                            &field(),
                            format!(
                                "an offset of a NUL-terminated name inside the {}-byte string buffer (at 0x{buffer_at:X})",
                                tt.string_buffer.len()
                            ),
                            format!("offset {ofs}"),
                        ));
                        Cow::Borrowed("")
                    }
                }
            };
            let type_name = name_of(n.ofs_type.0, &|| nodes_at.at(j).ofs_type().owned());
            let name = name_of(n.ofs_name.0, &|| nodes_at.at(j).ofs_name().owned());
            raw.push(RawNode {
                level: n.level,
                type_name,
                name,
                byte_size: n.byte_size,
                type_flags: u32::from(n.type_flags),
                meta_flag: n.meta_flag,
                offset,
                level_at: Some(level_at),
            });
        }
        if bad > 0 {
            // What reading this type's objects needs.
            findings.push(nodes_at.error(
                ErrorKind::Unsupported,
                "type and field names that resolve, to read objects of this type",
                if bad == 1 {
                    "1 name that does not (the relation above)".to_string()
                } else {
                    format!("{bad} names that do not (the relation above)")
                },
            ));
            return None;
        }
        let list = nodes_at.field_path();
        return build(raw, &nodes_at, &|i| list.index(i), findings);
    }
    if let (Some(root), Some(rp)) = (&t.old_type_tree, tp.old_type_tree().some()) {
        // Flatten the nested form depth first (its depth is bounded by the reader).
        fn walk(
            n: &OldTypeTreeNodeRef<'_>,
            at: &Place<'_, OldTypeTreeNodePos>,
            level: u8,
            out: &mut Vec<RawNode>,
            paths: &mut Vec<crate::rt::Path>,
        ) {
            out.push(RawNode {
                level,
                type_name: Cow::Owned(n.type_name.to_string()),
                name: Cow::Owned(n.name.to_string()),
                byte_size: n.byte_size,
                type_flags: n.type_flags as u32,
                meta_flag: n.meta_flag,
                offset: at.span().start,
                level_at: None,
            });
            paths.push(at.field_path().clone());
            let children = at.children();
            for (k, c) in n.children.iter().enumerate() {
                walk(c, &children.at(k), level.saturating_add(1), out, paths);
            }
        }
        let (mut raw, mut paths) = (vec![], vec![]);
        walk(root, &rp, 0, &mut raw, &mut paths);
        return build(raw, &rp, &|i| paths[i].clone(), findings);
    }
    None
}

/// [`TypeTree::build`], its error a finding.
fn build<P: Clone + crate::rt::Spanned>(
    raw: Vec<RawNode>,
    at: &Place<'_, P>,
    node_path: &dyn Fn(usize) -> crate::rt::Path,
    findings: &mut Vec<Error>,
) -> Option<TypeTree> {
    match TypeTree::build(raw, at.span().start, at.field_path(), node_path) {
        Ok(t) => Some(t),
        Err(e) => {
            findings.push(e);
            None
        }
    }
}

impl Parts {
    /// Everything the metadata of `view` (read located, at `at`) says, and every finding.
    pub fn of(view: &UnitySerializedRef<'_>, at: &Place<'_, UnitySerializedPos>) -> Parts {
        let mut p = Parts::default();
        let f = &mut p.findings;
        let fv = view.header.version;
        let (new_meta, old_meta) = (at.metadata(), at.old_metadata());
        let (Some(m), Some(meta), Some((data, data_span))) = (
            metadata(view),
            new_meta.some().or_else(|| old_meta.some()),
            objects_data(view, at.get()),
        ) else {
            // The reader gives every file one metadata and one data (the spec's conditions).
            return p;
        };
        let total = at.span().end;
        let data_at = data_span.start;
        // Where byte_start counts from: the data offset (from format 9 where the data starts;
        // 0 before, the file's start).
        let base = objects_base(view, data_at);

        let header = at.header();
        let (stated, len_file) = match (&view.header.wide, header.wide().some()) {
            (Some(w), Some(wp)) => (w.len_file, wp.len_file().span().start),
            _ => (
                u64::from(view.header.len_file),
                header.len_file().span().start,
            ),
        };
        if stated != total {
            let e = Error::relation(
                UnitySerialized::REL_LEN_FILE_IS_FILE_SIZE,
                0,
                format!("the file's size, {total} bytes"),
                stated.to_string(),
            );
            let path = match header.wide().some() {
                Some(wp) => wp.len_file().field_path().clone(),
                None => header.len_file().field_path().clone(),
            };
            f.push(e.placed(len_file, &path));
        }

        let types_at = meta.types();
        // Each type's tree on its own (a file holds thousands of nodes): on every core, the
        // trees and their findings then taken in order.
        let built: Vec<(Option<TypeTree>, Vec<Error>)> = m
            .types
            .par_iter()
            .enumerate()
            .map(|(i, t)| {
                let mut found = vec![];
                (tree_of(t, &types_at.at(i), &mut found), found)
            })
            .collect();
        for (tree, mut found) in built {
            f.append(&mut found);
            p.trees.push(tree.map(Arc::new));
        }
        if let (Some(rts), Some(rp)) = (&m.ref_types, meta.ref_types().some()) {
            for (i, t) in rts.iter().enumerate() {
                let tree = tree_of(t, &rp.at(i), f);
                p.ref_types.push(RefType {
                    class: t.class_name.unwrap_or_default().to_string(),
                    namespace: t.namespace.unwrap_or_default().to_string(),
                    assembly: t.assembly_name.unwrap_or_default().to_string(),
                    tree: tree.map(Arc::new),
                });
            }
        }

        let data_len = data.len() as u64;
        let objects_at = meta.objects();
        let mut ranges: Vec<(u64, u64, usize)> = Vec::with_capacity(m.objects.len());
        for (i, o) in m.objects.iter().enumerate() {
            let op = objects_at.at(i);
            let path_id = o.path_id.unwrap_or(i64::from(o.path_id_s4.unwrap_or(0)));
            let start = start_of(o);
            let type_index = if fv >= 16 {
                usize::try_from(o.type_id)
                    .ok()
                    .filter(|&t| t < m.types.len())
            } else {
                m.types.iter().position(|t| t.class_id.0 == o.type_id)
            };
            let class_id = match (type_index, o.class_id) {
                (_, Some(c)) => i32::from(c),
                (Some(t), None) => m.types[t].class_id.0,
                (None, None) => -1,
            };
            if type_index.is_none() && fv >= 16 {
                let expected = format!("an index into the {} types", m.types.len());
                f.push(op.type_id().violates(
                    UnitySerialized::REL_TYPE_IDS_NAME_TYPES,
                    expected.clone(),
                    o.type_id.to_string(),
                ));
                f.push(op.type_id().error(
                    ErrorKind::Unsupported,
                    format!("{expected}, to read the object"),
                    o.type_id.to_string(),
                ));
            }
            // The range in the data: from the data offset, which lies before the data or at it.
            let start = base.checked_add(start).and_then(|s| s.checked_sub(data_at));
            let end = start.and_then(|s| s.checked_add(u64::from(o.byte_size)));
            if end.is_none_or(|e| e > data_len) {
                let start = start_of(o);
                let expected =
                    format!("a range inside the {data_len} bytes of data (at 0x{data_at:X})");
                let found = format!("byte_start {start} and byte_size {}", o.byte_size);
                f.push(op.byte_size().violates(
                    UnitySerialized::REL_OBJECTS_INSIDE_DATA,
                    expected.clone(),
                    found.clone(),
                ));
                f.push(op.byte_size().error(
                    ErrorKind::Unsupported,
                    format!("{expected}, to read the object"),
                    found,
                ));
                continue;
            }
            if p.by_path_id.insert(path_id, p.objects.len()).is_some() {
                let id_at = match op.get().path_id {
                    Some(_) => op.path_id(),
                    None => op.path_id_s4(),
                };
                f.push(id_at.error(
                    ErrorKind::Unsupported,
                    "a path id no other object has, to resolve references to it",
                    path_id.to_string(),
                ));
            }
            let start = start.unwrap_or(0);
            ranges.push((data_at + start, data_at + start + u64::from(o.byte_size), i));
            p.objects.push(ObjectEntry {
                index: i,
                path_id,
                class_id,
                type_index,
                offset: data_at + start,
                size: o.byte_size,
                entry_at: op.span().start,
            });
        }
        // No two objects overlap (reading each needs only its own range).
        ranges.sort_unstable();
        for w in ranges.windows(2) {
            if w[1].0 < w[0].1 {
                let op = objects_at.at(w[1].2);
                let start = match op.get().byte_start_u8 {
                    Some(_) => op.byte_start_u8(),
                    None => op.byte_start_u4(),
                };
                f.push(start.violates(
                    UnitySerialized::REL_OBJECTS_INSIDE_DATA,
                    format!(
                        "a range after the end of object {} (0x{:X})",
                        w[0].2, w[0].1
                    ),
                    format!("one starting at 0x{:X}", w[1].0),
                ));
            }
        }
        p
    }
}

impl Serialized {
    /// Reads a whole serialized file. Refused on the first error-severity finding of its
    /// verdict; warnings are kept.
    pub fn open(bytes: Shared) -> std::result::Result<Serialized, Located> {
        let parsed =
            UnitySerialized::read::<true>(&bytes, &Context::new()).map_err(Located::from)?;
        let pos = parsed.pos.unwrap_or_default();
        let at = Place::root(&pos, ROOT);
        let mut parts = Parts::of(&parsed.value, &at);
        if let Some(i) = parts
            .findings
            .iter()
            .position(|e| e.severity == Severity::Error)
        {
            return Err(Located::from(parts.findings.swap_remove(i)));
        }
        let mut warnings = parsed.warnings;
        warnings.append(&mut parts.findings);
        Ok(Self::of(
            &parsed.value,
            &pos,
            parts,
            warnings,
            bytes.clone(),
        ))
    }

    /// The file a reading and its parts describe (they hold no error), over `bytes`.
    fn of(
        view: &UnitySerializedRef<'_>,
        pos: &UnitySerializedPos,
        parts: Parts,
        warnings: Vec<Error>,
        bytes: Shared,
    ) -> Serialized {
        let m = metadata(view);
        let m_at = pos.metadata.as_ref().or(pos.old_metadata.as_ref());
        Serialized {
            version: view.header.version,
            big_endian: view.header.endianness.or(view.old_endianness) == Some(1),
            unity_version: m
                .and_then(|m| m.unity_version)
                .unwrap_or_default()
                .to_string(),
            editor: m.and_then(|m| m.target_platform) == Some(BuildTarget::NO_TARGET),
            unity_version_at: m_at
                .map_or(0, |p| p.unity_version.map_or(p._span.start, |s| s.start)),
            metadata_at: m_at.map_or(0, |p| p._span.start),
            metadata_field: if view.metadata.is_some() {
                "metadata"
            } else {
                "old_metadata"
            },
            data_at: objects_data(view, pos).map_or(0, |(_, s)| s.start),
            trees: parts.trees,
            nested_trees: m.is_some_and(|m| m.types.iter().any(|t| t.old_type_tree.is_some())),
            ref_types: parts.ref_types,
            objects: parts.objects,
            externals: m
                .map(|m| m.externals.iter().map(|e| e.path.to_string()).collect())
                .unwrap_or_default(),
            warnings,
            by_path_id: parts.by_path_id,
            bytes,
        }
    }

    /// The editor version as the specs compare it (2021.3.0f1 is 20210300), or an error at the
    /// field when the text is not a version.
    pub fn unity_version(&self) -> Result<u32> {
        crate::context::unity_version(&self.unity_version)
            .ok()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                self.version_error(
                    "a Unity version such as 2021.3.0f1",
                    format!("`{}`", self.unity_version.escape_debug()),
                )
            })
    }

    /// An error about the file's version string, at its field.
    pub fn version_error(&self, expected: impl Into<String>, found: impl Into<String>) -> Error {
        Error::new(ErrorKind::Invalid, 0, expected, found).placed(
            self.unity_version_at,
            &crate::rt::Path::root(ROOT)
                .field(self.metadata_field)
                .field("unity_version"),
        )
    }

    /// The object of `path_id`.
    pub fn object(&self, path_id: i64) -> Option<&ObjectEntry> {
        self.by_path_id.get(&path_id).map(|&i| &self.objects[i])
    }

    /// An object's bytes.
    pub fn bytes(&self, o: &ObjectEntry) -> &[u8] {
        let from = o.offset as usize;
        &self.bytes[from..from + o.size as usize]
    }

    /// An object's type tree, when the file carries one.
    pub fn tree(&self, o: &ObjectEntry) -> Option<&Arc<TypeTree>> {
        self.trees.get(o.type_index?)?.as_ref()
    }

    /// The class name of an object: its type tree's root type, else the name of its class id.
    pub fn class_name(&self, o: &ObjectEntry) -> String {
        if let Some(t) = self.tree(o) {
            return t.root().type_name.to_string();
        }
        UnityClass(o.class_id)
            .orig_id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("class {}", o.class_id))
    }

    /// Reads an object through its type tree.
    pub fn read(&self, o: &ObjectEntry) -> Result<Value<'_>> {
        let trees = self.trees_of(o).ok_or_else(|| self.no_tree(o))?;
        typetree::read(self.bytes(o), self.big_endian, trees, o.offset)
    }

    /// Reads an object's fields up to `field` (`m_Name`) through its type tree.
    pub fn peek(&self, o: &ObjectEntry, field: &str) -> Result<Option<Value<'_>>> {
        let trees = self.trees_of(o).ok_or_else(|| self.no_tree(o))?;
        typetree::peek(self.bytes(o), self.big_endian, trees, field, o.offset)
    }

    fn no_tree(&self, o: &ObjectEntry) -> Error {
        super::unsupported(
            o.offset,
            "an object whose type carries a type tree",
            format!("{} without one", self.class_name(o)),
        )
    }

    /// The type trees and reference types an object is read with.
    pub fn trees_of<'s>(&'s self, o: &ObjectEntry) -> Option<Trees<'s>> {
        Some(Trees {
            main: self.tree(o)?,
            refs: &self.ref_types,
        })
    }
}

/// Data bytes are padded so that every object after a replaced one keeps its offset modulo
/// this (Unity starts objects on multiples of 8 from the data offset).
const OBJECT_ALIGN: i64 = 8;

/// `bytes` (a whole serialized file) with the object of `path_id` replaced by `object`: the
/// header's file size and the object table's offsets and sizes rewritten by the generated
/// writer, the objects after it moved by a multiple of 8 (so each keeps its alignment; the
/// gap after the replaced object is its old padding when the size changed by a multiple of 8,
/// else zeros), every other byte kept. Errors are in `bytes`.
pub fn with_object(bytes: &[u8], path_id: i64, object: &[u8]) -> Result<Vec<u8>> {
    let ctx = Context::new();
    let mut file = UnitySerialized::from_bytes(bytes, &ctx)?;
    let old_format = file.header.version < 9;
    let (Some(meta), Some(data_part)) = (
        file.metadata.as_mut().or(file.old_metadata.as_mut()),
        file.data.as_mut().or(file.old_data.as_mut()),
    ) else {
        return Err(Error::unplaced(
            ErrorKind::Input,
            "a serialized file with its metadata and data",
            "neither",
        ));
    };
    // Where the data starts in the file, and where byte_start counts from (the data offset:
    // the data's start from format 9, the file's start before).
    let after_data = if old_format {
        u64::from(file.header.len_metadata)
    } else {
        0
    };
    let data_at = bytes.len() as u64 - data_part.len() as u64 - after_data;
    let base = if old_format {
        u64::from(file.header.ofs_data)
    } else {
        data_at
    };
    let id_of = |o: &crate::generated::unity_serialized::ObjectInfo| {
        o.path_id.unwrap_or(i64::from(o.path_id_s4.unwrap_or(0)))
    };
    // An object's start in the data (none before the data).
    let start_of = |o: &crate::generated::unity_serialized::ObjectInfo| {
        base.checked_add(
            o.byte_start_u8
                .unwrap_or(u64::from(o.byte_start_u4.unwrap_or(0))),
        )?
        .checked_sub(data_at)
    };
    let objects = &meta.objects;
    let Some(index) = objects.iter().position(|o| id_of(o) == path_id) else {
        return Err(Error::unplaced(
            ErrorKind::Input,
            format!("an object of path id {path_id}"),
            "none in the object table",
        ));
    };
    let old = &objects[index];
    let old_len = u64::from(old.byte_size);
    let data_len = data_part.len() as u64;
    let Some(start) =
        start_of(old).filter(|s| s.checked_add(old_len).is_some_and(|e| e <= data_len))
    else {
        return Err(super::unsupported(
            data_at,
            "an object inside the data",
            format!(
                "byte_start {} and byte_size {old_len}",
                old.byte_start_u8
                    .unwrap_or(u64::from(old.byte_start_u4.unwrap_or(0)))
            ),
        ));
    };
    let new_len = u32::try_from(object.len()).map_err(|_| {
        Error::unplaced(
            ErrorKind::Count,
            "an object of at most 4 GiB (its byte_size is 32-bit)",
            format!("{} bytes", object.len()),
        )
    })?;
    // The next object in the data (or the data's end): the gap up to it is the padding.
    let next = objects
        .iter()
        .filter_map(start_of)
        .filter(|&s| s > start)
        .min()
        .unwrap_or(data_len)
        .max(start + old_len);
    let grow = i64::from(new_len) - old_len as i64;
    let shift = grow.div_euclid(OBJECT_ALIGN) * OBJECT_ALIGN
        + if grow.rem_euclid(OBJECT_ALIGN) == 0 {
            0
        } else {
            OBJECT_ALIGN
        };
    let (s, e, n) = (start as usize, (start + old_len) as usize, next as usize);
    let mut data = Vec::with_capacity((data_len as i64 + shift).max(0) as usize);
    data.extend_from_slice(&data_part[..s]);
    data.extend_from_slice(object);
    if shift == grow {
        data.extend_from_slice(&data_part[e..n]);
    } else {
        let gap = (n - e) as i64 + shift - grow;
        data.resize(data.len() + gap as usize, 0);
    }
    data.extend_from_slice(&data_part[n..]);
    for (i, o) in meta.objects.iter_mut().enumerate() {
        let s = start_of(o);
        if i == index {
            o.byte_size = new_len;
        } else if s.is_some_and(|s| s > start) {
            let stored = o
                .byte_start_u8
                .unwrap_or(u64::from(o.byte_start_u4.unwrap_or(0)));
            let moved = (stored as i64 + shift) as u64;
            match (&mut o.byte_start_u8, &mut o.byte_start_u4) {
                (Some(v), _) => *v = moved,
                (None, Some(v)) => {
                    *v = u32::try_from(moved).map_err(|_| {
                        Error::unplaced(
                            ErrorKind::Count,
                            "object offsets below 4 GiB (byte_start is 32-bit before format 22)",
                            format!("{moved}"),
                        )
                    })?
                }
                (None, None) => {}
            }
        }
    }
    let total = data_at + data.len() as u64 + after_data;
    *data_part = data;
    match &mut file.header.wide {
        Some(w) => w.len_file = total,
        None => {
            file.header.len_file = u32::try_from(total).map_err(|_| {
                Error::unplaced(
                    ErrorKind::Count,
                    "a file below 4 GiB (its size is 32-bit before format 22)",
                    format!("{total} bytes"),
                )
            })?
        }
    }
    file.to_bytes(&ctx)
}
