//! Serialized files: the spec reads the header and the metadata and keeps the objects' data
//! as one block (`spec/unity_serialized.ksy`); this module builds the type trees, finds each
//! object's bytes and type, and checks the relations the spec states.

use super::adapter;
use super::typetree::{self, PathStep, RawNode, RefType, Trees, TypeTree, Value};
use super::Located;
use crate::generated::unity_serialized::{
    ObjectInfo, OldTypeTreeNode, SerializedType, UnitySerialized,
};
use crate::rt::{Error, ErrorKind, Result};
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
}

/// An opened serialized file.
#[derive(Debug, Clone)]
pub struct Serialized {
    /// What the spec read.
    pub file: UnitySerialized,
    /// Where the metadata starts in the file (after the header).
    pub metadata_at: u64,
    /// Where the objects' data starts in the file.
    pub data_at: u64,
    /// Whether the metadata and the objects are big endian.
    pub big_endian: bool,
    /// Per type, its tree when the file carries type trees.
    pub trees: Vec<Option<Arc<TypeTree>>>,
    /// The managed reference types.
    pub ref_types: Vec<RefType>,
    /// The objects, in table order.
    pub objects: Vec<ObjectEntry>,
    /// Where each object's table entry starts in the file.
    object_table: Vec<u64>,
    by_path_id: HashMap<i64, usize>,
}

/// Whether `bytes` look like a serialized file of the formats read here: a big-endian format
/// version of 9 to 22 at offset 8 and an endianness byte of 0 or 1 at 16.
pub fn looks_serialized(bytes: &[u8]) -> bool {
    if bytes.len() < 20 {
        return false;
    }
    let v = u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    (9..=22).contains(&v) && bytes[16] <= 1
}

fn path(steps: Vec<PathStep>, e: Error) -> Error {
    typetree::placed(e, &steps, ROOT)
}

/// The bytes a `SerializedType` takes before its type tree.
fn before_tree(t: &SerializedType) -> u64 {
    4 + t.is_stripped_type.map_or(0, |_| 1)
        + t.script_type_index.map_or(0, |_| 2)
        + t.script_id.as_ref().map_or(0, |b| b.len() as u64)
        + t.old_type_hash.as_ref().map_or(0, |b| b.len() as u64)
}

/// The bytes an object table entry takes.
fn object_info_len(o: &ObjectInfo) -> u64 {
    o.pad.as_ref().map_or(0, |p| p.len() as u64)
        + if o.path_id.is_some() { 8 } else { 4 }
        + if o.byte_start_u8.is_some() { 8 } else { 4 }
        + 4
        + 4
        + o.class_id.map_or(0, |_| 2)
        + o.is_destroyed.map_or(0, |_| 2)
        + o.script_type_index.map_or(0, |_| 2)
        + o.stripped.map_or(0, |_| 1)
}

/// Reads a NUL-terminated name at `at` of a type tree's string buffer.
fn buffer_string(buf: &[u8], at: usize) -> Option<String> {
    let rest = buf.get(at..)?;
    let end = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// The type tree of type `t` (at `type_at` in the file), built and checked.
fn tree_of(t: &SerializedType, type_at: u64, steps: &[PathStep]) -> Result<Option<TypeTree>> {
    if let Some(tt) = &t.type_tree {
        let blob = type_at + before_tree(t);
        let node_len: u64 = if tt.nodes.first().is_some_and(|n| n.ref_type_hash.is_some()) {
            32
        } else {
            24
        };
        let buffer_at = blob + 8 + node_len * tt.nodes.len() as u64;
        let mut raw = Vec::with_capacity(tt.nodes.len());
        for (j, n) in tt.nodes.iter().enumerate() {
            let node_at = blob + 8 + node_len * j as u64;
            let name_of = |ofs: u32, field: &'static str, rel: u64| -> Result<String> {
                if ofs & 0x8000_0000 != 0 {
                    let common = crate::generated::unity_serialized::CommonString(ofs);
                    return common.orig_id().map(str::to_string).ok_or_else(|| {
                        let mut p = steps.to_vec();
                        p.extend([
                            PathStep::F("type_tree"),
                            PathStep::F("nodes"),
                            PathStep::I(j),
                            PathStep::F(field),
                        ]);
                        path(
                            p,
                            Error::relation(
                                UnitySerialized::REL_TYPE_TREE_NAMES_RESOLVE,
                                node_at + rel,
                                "an offset of one of Unity's common strings (top bit set)",
                                format!("0x{ofs:08X}"),
                            ),
                        )
                    });
                }
                buffer_string(&tt.string_buffer, ofs as usize).ok_or_else(|| {
                    let mut p = steps.to_vec();
                    p.extend([PathStep::F("type_tree"), PathStep::F("nodes"), PathStep::I(j), PathStep::F(field)]);
                    path(
                        p,
                        Error::relation(
                            UnitySerialized::REL_TYPE_TREE_NAMES_RESOLVE,
                            node_at + rel,
                            format!(
                                "an offset of a NUL-terminated name inside the {}-byte string buffer (at 0x{buffer_at:X})",
                                tt.string_buffer.len()
                            ),
                            format!("offset {ofs}"),
                        ),
                    )
                })
            };
            raw.push(RawNode {
                level: n.level,
                type_name: name_of(n.ofs_type.0, "ofs_type", 4)?,
                name: name_of(n.ofs_name.0, "ofs_name", 8)?,
                byte_size: n.byte_size,
                type_flags: u32::from(n.type_flags),
                meta_flag: n.meta_flag,
                offset: node_at,
            });
        }
        let mut p = steps.to_vec();
        p.extend([PathStep::F("type_tree"), PathStep::F("nodes")]);
        return TypeTree::build(
            raw,
            typetree::NodesAt {
                path: &p,
                root: ROOT,
            },
        )
        .map(Some);
    }
    if let Some(root) = &t.old_type_tree {
        // Flatten the nested form depth first (its depth is bounded by the reader).
        fn walk(n: &OldTypeTreeNode, level: usize, at: &mut u64, out: &mut Vec<RawNode>) -> bool {
            let Ok(level8) = u8::try_from(level) else {
                return false;
            };
            out.push(RawNode {
                level: level8,
                type_name: n.type_name.clone(),
                name: n.name.clone(),
                byte_size: n.byte_size,
                type_flags: n.type_flags as u32,
                meta_flag: n.meta_flag,
                offset: *at,
            });
            *at += n.type_name.len() as u64 + n.name.len() as u64 + 2 + 24;
            n.children.iter().all(|c| walk(c, level + 1, at, out))
        }
        let mut raw = vec![];
        let mut at = type_at + before_tree(t);
        walk(root, 0, &mut at, &mut raw);
        let mut p = steps.to_vec();
        p.push(PathStep::F("old_type_tree"));
        return TypeTree::build(
            raw,
            typetree::NodesAt {
                path: &p,
                root: ROOT,
            },
        )
        .map(Some);
    }
    Ok(None)
}

/// Where the parts of the metadata start: (types, objects, ref types).
struct Offsets {
    types: Vec<u64>,
    objects: Vec<u64>,
    ref_types: Vec<u64>,
}

fn offsets(s: &UnitySerialized, metadata_at: u64) -> Offsets {
    let m = &s.metadata;
    let fv = s.header.version;
    let be = s.header.endianness;
    let tree = m.enable_type_tree.unwrap_or(1);
    let mut at = metadata_at + m.unity_version.len() as u64 + 1 + 4;
    at += m.enable_type_tree.map_or(0, |_| 1) + 4;
    let mut types = Vec::with_capacity(m.types.len());
    for t in &m.types {
        types.push(at);
        at += adapter::size_of(t, (fv, be, 0, tree));
    }
    at += m.big_id_enabled.map_or(0, |_| 4) + 4;
    let mut objects = Vec::with_capacity(m.objects.len());
    for o in &m.objects {
        objects.push(at);
        at += object_info_len(o);
    }
    if let Some(st) = &m.script_types {
        at += 4;
        for t in st {
            at += 4
                + t.pad.as_ref().map_or(0, |p| p.len() as u64)
                + if t.local_identifier_in_file.is_some() {
                    8
                } else {
                    4
                };
        }
    }
    at += 4;
    for e in &m.externals {
        at += e.temp_empty.len() as u64 + 1 + 16 + 4 + e.path.len() as u64 + 1;
    }
    let mut ref_types = vec![];
    if let Some(rt) = &m.ref_types {
        at += 4;
        for t in rt {
            ref_types.push(at);
            at += adapter::size_of(t, (fv, be, 1, tree));
        }
    }
    Offsets {
        types,
        objects,
        ref_types,
    }
}

impl Serialized {
    /// Reads a whole serialized file.
    pub fn open(bytes: &[u8]) -> std::result::Result<Serialized, Located> {
        let file = adapter::read_serialized(bytes).map_err(Located::from)?;
        Serialized::from_file(file, bytes.len() as u64).map_err(Located::from)
    }

    /// Opens a serialized file the spec has read (`total` is the file's length), failing on
    /// the first relation that does not hold.
    pub fn from_file(file: UnitySerialized, total: u64) -> Result<Serialized> {
        let (s, errors) = Self::build(file, total);
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(s.expect("built when no error")),
        }
    }

    /// Builds everything and collects every relation that does not hold.
    fn build(file: UnitySerialized, total: u64) -> (Option<Serialized>, Vec<Error>) {
        let mut errors = vec![];
        let fv = file.header.version;
        let metadata_at = adapter::size_of(&file.header, ());
        let data_at = metadata_at + (file.metadata_len()) + file.pad_data.len() as u64;
        let off = offsets(&file, metadata_at);
        let m = &file.metadata;
        let stated = file
            .header
            .wide
            .as_ref()
            .map_or(u64::from(file.header.len_file), |w| w.len_file);
        if stated != total {
            errors.push(path(
                vec![
                    PathStep::F("header"),
                    PathStep::F(if file.header.wide.is_some() {
                        "wide"
                    } else {
                        "len_file"
                    }),
                ],
                Error::relation(
                    UnitySerialized::REL_LEN_FILE_IS_FILE_SIZE,
                    if file.header.wide.is_some() { 24 } else { 4 },
                    format!("the file's size, {total} bytes"),
                    stated.to_string(),
                ),
            ));
        }
        let mut trees = Vec::with_capacity(m.types.len());
        for (i, t) in m.types.iter().enumerate() {
            let steps = [
                PathStep::F("metadata"),
                PathStep::F("types"),
                PathStep::I(i),
            ];
            match tree_of(t, off.types[i], &steps) {
                Ok(tree) => trees.push(tree.map(Arc::new)),
                Err(e) => {
                    errors.push(e);
                    trees.push(None);
                }
            }
        }
        let mut ref_types = vec![];
        for (i, t) in m.ref_types.iter().flatten().enumerate() {
            let steps = [
                PathStep::F("metadata"),
                PathStep::F("ref_types"),
                PathStep::I(i),
            ];
            let tree = match tree_of(t, off.ref_types[i], &steps) {
                Ok(tree) => tree.map(Arc::new),
                Err(e) => {
                    errors.push(e);
                    None
                }
            };
            ref_types.push(RefType {
                class: t.class_name.clone().unwrap_or_default(),
                namespace: t.namespace.clone().unwrap_or_default(),
                assembly: t.assembly_name.clone().unwrap_or_default(),
                tree,
            });
        }
        let data_len = file.data.len() as u64;
        let mut objects = Vec::with_capacity(m.objects.len());
        let mut by_path_id = HashMap::with_capacity(m.objects.len());
        for (i, o) in m.objects.iter().enumerate() {
            let entry_at = off.objects[i];
            let here = |field: &'static str, e: Error| {
                path(
                    vec![
                        PathStep::F("metadata"),
                        PathStep::F("objects"),
                        PathStep::I(i),
                        PathStep::F(field),
                    ],
                    e,
                )
            };
            let pad = o.pad.as_ref().map_or(0, |p| p.len() as u64);
            let id_len = if o.path_id.is_some() { 8 } else { 4 };
            let start_len = if o.byte_start_u8.is_some() { 8 } else { 4 };
            let path_id = o.path_id.unwrap_or(i64::from(o.path_id_s4.unwrap_or(0)));
            let start = o
                .byte_start_u8
                .unwrap_or(u64::from(o.byte_start_u4.unwrap_or(0)));
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
                errors.push(here(
                    "type_id",
                    Error::relation(
                        UnitySerialized::REL_TYPE_IDS_NAME_TYPES,
                        entry_at + pad + id_len + start_len + 4,
                        format!("an index into the {} types", m.types.len()),
                        o.type_id.to_string(),
                    ),
                ));
            }
            let end = start.checked_add(u64::from(o.byte_size));
            if end.is_none_or(|e| e > data_len) {
                errors.push(here(
                    "byte_size",
                    Error::relation(
                        UnitySerialized::REL_OBJECTS_INSIDE_DATA,
                        entry_at + pad + id_len,
                        format!("a range inside the {data_len} bytes of data (at 0x{data_at:X})"),
                        format!("byte_start {start} and byte_size {}", o.byte_size),
                    ),
                ));
                continue;
            }
            if by_path_id.insert(path_id, objects.len()).is_some() {
                errors.push(here(
                    "path_id",
                    Error::relation(
                        UnitySerialized::REL_OBJECTS_INSIDE_DATA,
                        entry_at + pad,
                        "a path id no other object has",
                        path_id.to_string(),
                    ),
                ));
            }
            objects.push(ObjectEntry {
                index: i,
                path_id,
                class_id,
                type_index,
                offset: data_at + start,
                size: o.byte_size,
            });
        }
        // No two objects overlap.
        let mut ranges: Vec<(u64, u64, usize)> = objects
            .iter()
            .map(|o| (o.offset, o.offset + u64::from(o.size), o.index))
            .collect();
        ranges.sort_unstable();
        for w in ranges.windows(2) {
            if w[1].0 < w[0].1 {
                let i = w[1].2;
                errors.push(path(
                    vec![
                        PathStep::F("metadata"),
                        PathStep::F("objects"),
                        PathStep::I(i),
                        PathStep::F("byte_size"),
                    ],
                    Error::relation(
                        UnitySerialized::REL_OBJECTS_INSIDE_DATA,
                        off.objects[i],
                        format!(
                            "a range after the end of object {} (0x{:X})",
                            w[0].2, w[0].1
                        ),
                        format!("one starting at 0x{:X}", w[1].0),
                    ),
                ));
            }
        }
        let s = Serialized {
            big_endian: file.header.endianness != 0,
            file,
            metadata_at,
            data_at,
            trees,
            ref_types,
            objects,
            object_table: off.objects,
            by_path_id,
        };
        (Some(s), errors)
    }

    /// The editor version that wrote the file, as written.
    pub fn unity_version_text(&self) -> &str {
        &self.file.metadata.unity_version
    }

    /// The editor version as the specs compare it (2021.3.0f1 is 20210300), or an error at the
    /// field when the text is not a version.
    pub fn unity_version(&self) -> Result<u32> {
        let text = &self.file.metadata.unity_version;
        crate::context::unity_version(text)
            .ok()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                path(
                    vec![PathStep::F("metadata"), PathStep::F("unity_version")],
                    Error::new(
                        ErrorKind::Invalid,
                        self.metadata_at,
                        "a Unity version such as 2021.3.0f1",
                        format!("`{}`", text.escape_debug()),
                    ),
                )
            })
    }

    /// The object of `path_id`.
    pub fn object(&self, path_id: i64) -> Option<&ObjectEntry> {
        self.by_path_id.get(&path_id).map(|&i| &self.objects[i])
    }

    /// An object's bytes.
    pub fn bytes(&self, o: &ObjectEntry) -> &[u8] {
        let from = (o.offset - self.data_at) as usize;
        &self.file.data[from..from + o.size as usize]
    }

    /// Where an object's table entry is in the file.
    pub fn table_entry_at(&self, o: &ObjectEntry) -> u64 {
        self.object_table[o.index]
    }

    /// An object's type tree, when the file carries one.
    pub fn tree(&self, o: &ObjectEntry) -> Option<&Arc<TypeTree>> {
        self.trees.get(o.type_index?)?.as_ref()
    }

    /// The class name of an object: its type tree's root type, else the name of its class id.
    pub fn class_name(&self, o: &ObjectEntry) -> String {
        if let Some(t) = self.tree(o) {
            return t.root().type_name.clone();
        }
        let c = crate::generated::unity_serialized::UnityClass(o.class_id);
        c.orig_id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("class {}", o.class_id))
    }

    /// Reads an object through its type tree.
    pub fn read(&self, o: &ObjectEntry) -> Result<Value<'_>> {
        let tree = self.tree(o).ok_or_else(|| self.no_tree(o))?;
        typetree::read(
            self.bytes(o),
            self.big_endian,
            Trees {
                main: tree,
                refs: &self.ref_types,
            },
            o.offset,
        )
    }

    /// Reads an object's fields up to `field` (`m_Name`) through its type tree.
    pub fn peek(&self, o: &ObjectEntry, field: &str) -> Result<Option<Value<'_>>> {
        let tree = self.tree(o).ok_or_else(|| self.no_tree(o))?;
        typetree::peek(
            self.bytes(o),
            self.big_endian,
            Trees {
                main: tree,
                refs: &self.ref_types,
            },
            field,
            o.offset,
        )
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

impl UnitySerialized {
    /// The metadata's size as the header states it.
    pub fn metadata_len(&self) -> u64 {
        match &self.header.wide {
            Some(w) => u64::from(w.len_metadata),
            None => u64::from(self.header.len_metadata),
        }
    }
}

/// The relations of `unity-serialized`, all of them.
pub fn relations(file: &UnitySerialized, total: u64) -> Vec<Error> {
    Serialized::build(file.clone(), total).1
}
