//! Type trees: how a serialized file describes its objects' fields, and reading any object
//! through one.
//!
//! A type tree is a list of nodes in depth-first order (the blob form of formats 10 and 12 on,
//! or the nested form of 9 and 11, flattened here): each names a type, a field, a byte size
//! and flags. An object's bytes are its root node's fields in order: numbers of the node's
//! size in the file's byte order; a node whose first child is an `Array` is a vector (a
//! 32-bit count, then the elements); `string` and `TypelessData` are vectors of bytes; a node
//! whose meta flag has 0x4000 (kAlignBytes) is followed by padding to a multiple of 4 bytes
//! from the object's start. Managed references (`ReferencedObjectData`) take the tree of the
//! reference type the object names.
//!
//! Reading never trusts a count: each is checked against the bytes left (each element takes
//! at least the bytes its node needs) before anything is allocated.

use super::unsupported;
use crate::rt::pod::Pod;
use crate::rt::{Error, ErrorKind, Input, Path, Result};
use binrw::Endian;
use std::borrow::Cow;
use std::sync::Arc;

/// The meta flag of a node followed by padding to 4 bytes.
pub const ALIGN: i32 = 0x4000;

/// A number's encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// `bool`.
    Bool,
    /// Signed integers of 1, 2, 4 or 8 bytes.
    I(u8),
    /// Unsigned integers of 1, 2, 4 or 8 bytes.
    U(u8),
    /// `float`.
    F32,
    /// `double`.
    F64,
}

impl Prim {
    /// The primitive a type name stands for.
    pub fn of(type_name: &str) -> Option<Prim> {
        Some(match type_name {
            "bool" => Prim::Bool,
            "SInt8" => Prim::I(1),
            "UInt8" | "char" => Prim::U(1),
            "SInt16" | "short" => Prim::I(2),
            "UInt16" | "unsigned short" => Prim::U(2),
            "SInt32" | "int" => Prim::I(4),
            "UInt32" | "unsigned int" | "Type*" => Prim::U(4),
            "SInt64" | "long long" => Prim::I(8),
            "UInt64" | "unsigned long long" | "FileSize" => Prim::U(8),
            "float" => Prim::F32,
            "double" => Prim::F64,
            _ => return None,
        })
    }

    /// Its size in bytes.
    pub fn size(self) -> usize {
        match self {
            Prim::Bool => 1,
            Prim::I(n) | Prim::U(n) => usize::from(n),
            Prim::F32 => 4,
            Prim::F64 => 8,
        }
    }
}

/// What reading a node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number.
    Prim(Prim),
    /// A vector: the `Array` child (its meta flag counts too) and the element node.
    Vector {
        /// The `Array` node.
        array: usize,
        /// The element node.
        elem: usize,
    },
    /// `TypelessData`: a 32-bit count and that many bytes.
    Typeless,
    /// The data of a managed reference, read by the reference type's tree.
    RefData,
    /// Fields in order.
    Struct,
}

/// One node, with its names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Depth (0 for the root).
    pub level: u8,
    /// The type's name (`Mesh`, `vector`, `UInt8`): Unity's common strings are borrowed.
    pub type_name: Cow<'static, str>,
    /// The field's name (`m_VertexData`).
    pub name: Cow<'static, str>,
    /// The value's size in bytes, -1 when it varies.
    pub byte_size: i32,
    /// The type flags (bit 0: an array).
    pub type_flags: u32,
    /// The meta flags (0x4000: padding to 4 after the value).
    pub meta_flag: i32,
    /// The children's indices.
    pub children: Vec<usize>,
    /// How it reads.
    pub kind: Kind,
    /// The fewest bytes a value of the node takes.
    pub min_size: u64,
}

impl Node {
    /// Whether padding to 4 bytes follows the value.
    pub fn aligned(&self) -> bool {
        self.meta_flag & ALIGN != 0
    }
}

/// A node as read from a file, before the tree is built: its names and where it was, for
/// errors (its path is made only for an error: see [`TypeTree::build`]).
#[derive(Debug, Clone)]
pub struct RawNode {
    /// Depth.
    pub level: u8,
    /// Type name.
    pub type_name: Cow<'static, str>,
    /// Field name.
    pub name: Cow<'static, str>,
    /// Byte size.
    pub byte_size: i32,
    /// Type flags.
    pub type_flags: u32,
    /// Meta flags.
    pub meta_flag: i32,
    /// Where the node's entry starts in its file.
    pub offset: u64,
    /// Where its level is stored (the blob form stores it; the nested form implies it).
    pub level_at: Option<u64>,
}

/// A type tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeTree {
    /// The nodes, depth first; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
}

impl TypeTree {
    /// Builds a tree from nodes in depth-first order, checking that their levels describe one
    /// tree and that vectors have their two `Array` children. `at` and `path` are where the
    /// node list is (for a list without nodes); `node_path` makes the path of node `i` in the
    /// spec's ids (`unity_serialized.metadata.types[3].type_tree.nodes[7]`) for an error.
    pub fn build(
        raw: Vec<RawNode>,
        at: u64,
        path: &Path,
        node_path: &dyn Fn(usize) -> Path,
    ) -> Result<TypeTree> {
        if raw.is_empty() {
            return Err(Error::new(
                ErrorKind::Count,
                0,
                "a type tree of at least one node",
                "none",
            )
            .placed(at, path));
        }
        // Where each node starts, for errors.
        let offsets: Vec<u64> = raw.iter().map(|r| r.offset).collect();
        let mut nodes: Vec<Node> = Vec::with_capacity(raw.len());
        let mut stack: Vec<usize> = vec![];
        for (i, r) in raw.into_iter().enumerate() {
            let lvl = usize::from(r.level);
            let max = if i == 0 {
                0
            } else {
                usize::from(nodes[i - 1].level) + 1
            };
            let min = usize::from(i > 0);
            if !(min..=max).contains(&lvl) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    0,
                    if i == 0 {
                        "0 (the root)".into()
                    } else {
                        format!("1 to {max} (one root, each node at most one deeper than the one before)")
                    },
                    lvl.to_string(),
                )
                .placed(r.level_at.unwrap_or(r.offset), &node_path(i).field("level")));
            }
            while stack.len() > lvl {
                stack.pop();
            }
            if let Some(&parent) = stack.last() {
                nodes[parent].children.push(i);
            }
            stack.push(i);
            nodes.push(Node {
                level: r.level,
                type_name: r.type_name,
                name: r.name,
                byte_size: r.byte_size,
                type_flags: r.type_flags,
                meta_flag: r.meta_flag,
                children: vec![],
                kind: Kind::Struct,
                min_size: 0,
            });
        }
        // Kinds and sizes, children before parents.
        for i in (0..nodes.len()).rev() {
            let n = &nodes[i];
            let first_is_array = n
                .children
                .first()
                .is_some_and(|&c| nodes[c].type_name == "Array");
            let (kind, min) = if first_is_array {
                let array = n.children[0];
                let a = &nodes[array];
                if a.children.len() != 2 {
                    return Err(Error::new(
                        ErrorKind::Invalid,
                        0,
                        "an Array node with two children (its size and its element)",
                        format!("{} children", a.children.len()),
                    )
                    .placed(offsets[array], &node_path(array)));
                }
                (
                    Kind::Vector {
                        array,
                        elem: a.children[1],
                    },
                    4,
                )
            } else if n.type_name == "TypelessData" {
                (Kind::Typeless, 4)
            } else if n.type_name == "ReferencedObjectData" {
                (Kind::RefData, 0)
            } else if n.children.is_empty() {
                match Prim::of(&n.type_name) {
                    Some(p) => (Kind::Prim(p), p.size() as u64),
                    // An empty struct (a class with no serialized fields).
                    None if n.byte_size <= 0 => (Kind::Struct, 0),
                    None => {
                        return Err(unsupported(
                            0,
                            "a leaf of a known number type (bool, SInt8 ... double)",
                            format!("`{}` of {} bytes", n.type_name.escape_debug(), n.byte_size),
                        )
                        .placed(offsets[i], &node_path(i)))
                    }
                }
            } else {
                let sum = n
                    .children
                    .iter()
                    .map(|&c| nodes[c].min_size)
                    .fold(0u64, u64::saturating_add);
                (Kind::Struct, sum)
            };
            nodes[i].kind = kind;
            nodes[i].min_size = min;
        }
        Ok(TypeTree { nodes })
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The index of the root's child named `name`.
    pub fn child(&self, node: usize, name: &str) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].name == name)
    }
}

/// A value read through a type tree, with where it is in the object.
#[derive(Debug, Clone, PartialEq)]
pub struct Value<'a> {
    /// The node it was read by (in the tree it was read with).
    pub node: u32,
    /// Which tree: 0 the object's type, 1 + i the file's reference type i.
    pub tree: u32,
    /// Its first byte, from the object's start.
    pub start: u32,
    /// Its end (after its padding), from the object's start.
    pub end: u32,
    /// What it holds.
    pub data: Data<'a>,
}

/// What a value holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Data<'a> {
    /// A bool.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A float or double.
    Float(f64),
    /// A `string`'s bytes (Unity writes UTF-8).
    Text(&'a [u8]),
    /// `TypelessData`, or a vector of one-byte numbers, as bytes.
    Bytes(&'a [u8]),
    /// A vector of wider numbers, as their bytes.
    Prims(Prim, &'a [u8]),
    /// A vector of anything else.
    List(Vec<Value<'a>>),
    /// Fields, in the tree's order.
    Struct(Vec<Value<'a>>),
    /// An empty managed reference (no type).
    Null,
}

/// What an object is read with: its type's tree and the file's reference types.
#[derive(Debug, Clone, Copy)]
pub struct Trees<'t> {
    /// The object's type tree.
    pub main: &'t TypeTree,
    /// The file's managed reference types: class, namespace, assembly and tree.
    pub refs: &'t [RefType],
}

/// A managed reference type of a file.
#[derive(Debug, Clone)]
pub struct RefType {
    /// Its class name.
    pub class: String,
    /// Its namespace.
    pub namespace: String,
    /// Its assembly.
    pub assembly: String,
    /// Its tree, when the file carries type trees.
    pub tree: Option<Arc<TypeTree>>,
}

impl<'t> Trees<'t> {
    fn tree(&self, i: u32) -> &'t TypeTree {
        if i == 0 {
            self.main
        } else {
            self.refs[i as usize - 1]
                .tree
                .as_deref()
                .expect("only reference types with trees are read")
        }
    }
}

/// How deep values may nest (a tree's levels, through managed references too), counted by the
/// runtime's input as a spec's recursive types are: a tree's levels are a byte, and real trees
/// reach about 25 (an AnimatorController); the rest is room for references inside references,
/// far below what would exhaust a thread's stack.
const TREE_NESTING: u32 = 512;

/// One step of a [`Reader`]'s path: a field (the node of a tree) or an element.
#[derive(Clone, Copy)]
enum Step {
    Field(u32, u32),
    Index(usize),
}

struct Reader<'a, 't> {
    /// The runtime's cursor over the object, as every generated reader has.
    input: Input<'a>,
    endian: Endian,
    trees: Trees<'t>,
    /// The fields and elements from the root, for errors: nodes, named only when an error
    /// is made (Unity's names, not the spec's), so reading makes no string.
    path: Vec<Step>,
    in_registry: bool,
    /// Stop after the root's child of this name (for peeking an object's name).
    stop_after: Option<&'t str>,
    stopped: bool,
    /// The class, namespace and assembly of the managed reference being read: its data
    /// follows.
    last_ref_type: Option<(&'a [u8], &'a [u8], &'a [u8])>,
    /// The same, kept after the data is read (to see a registry's terminus).
    last_type: Option<(&'a [u8], &'a [u8], &'a [u8])>,
}

/// Reads the object `bytes` through `trees.main`, in the given byte order. `offset` is where
/// the object starts in its file: errors carry offsets in the file and the path of Unity's
/// field names from the root (`Mesh.m_SubMeshes[2].firstByte`).
pub fn read<'a>(
    bytes: &'a [u8],
    big_endian: bool,
    trees: Trees<'_>,
    offset: u64,
) -> Result<Value<'a>> {
    let mut r = Reader {
        input: Input::new(bytes).with_nesting(TREE_NESTING),
        endian: endian(big_endian),
        trees,
        path: Vec::new(),
        in_registry: false,
        stop_after: None,
        stopped: false,
        last_ref_type: None,
        last_type: None,
    };
    let v = r.node(0, 0).map_err(|e| r.fail(e, offset))?;
    if !r.input.at_end() {
        let e = Error::new(
            ErrorKind::Trailing,
            r.input.pos(),
            "the end of the object (its type tree read to here)",
            format!("{} more bytes", r.input.left()),
        );
        return Err(r.fail(e, offset));
    }
    Ok(v)
}

/// Reads the root's fields up to and including the one named `field` (an object's `m_Name`),
/// for listing objects without reading all of them. `None` when the root has no such field.
pub fn peek<'a>(
    bytes: &'a [u8],
    big_endian: bool,
    trees: Trees<'_>,
    field: &str,
    offset: u64,
) -> Result<Option<Value<'a>>> {
    let root = trees.main.root();
    let Some(k) = root
        .children
        .iter()
        .position(|&c| trees.main.nodes[c].name == field)
    else {
        return Ok(None);
    };
    let mut r = Reader {
        input: Input::new(bytes).with_nesting(TREE_NESTING),
        endian: endian(big_endian),
        trees,
        path: Vec::new(),
        in_registry: false,
        stop_after: Some(&trees.main.nodes[root.children[k]].name),
        stopped: false,
        last_ref_type: None,
        last_type: None,
    };
    let v = r.node(0, 0).map_err(|e| r.fail(e, offset))?;
    match v.data {
        Data::Struct(mut fields) => Ok(fields.pop()),
        _ => Ok(None),
    }
}

impl<'a, 't> Reader<'a, 't> {
    /// The error with the current path and the object's offset.
    fn fail(&self, e: Error, offset: u64) -> Error {
        let mut e = e.shifted(offset);
        for s in self.path.iter().rev() {
            e = match *s {
                Step::Field(tree, node) => {
                    e.in_field(self.trees.tree(tree).nodes[node as usize].name.clone())
                }
                Step::Index(i) => e.at_index(i),
            };
        }
        e.rooted(self.trees.main.root().type_name.clone())
    }

    fn left(&self) -> usize {
        self.input.left() as usize
    }

    fn pos(&self) -> usize {
        self.input.pos() as usize
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        self.input.take(n as u64, what)
    }

    fn align(&mut self) -> Result<()> {
        let pad = (4 - self.pos() % 4) % 4;
        self.take(pad, "padding to 4 bytes").map(|_| ())
    }

    fn prim(&mut self, p: Prim) -> Result<Data<'a>> {
        let (i, e) = (&mut self.input, self.endian);
        Ok(match p {
            Prim::Bool => Data::Bool(i.prim::<u8>(e, "a bool")? != 0),
            Prim::U(1) => Data::UInt(i.prim::<u8>(e, "u1")?.into()),
            Prim::U(2) => Data::UInt(i.prim::<u16>(e, "u2")?.into()),
            Prim::U(4) => Data::UInt(i.prim::<u32>(e, "u4")?.into()),
            Prim::U(_) => Data::UInt(i.prim::<u64>(e, "u8")?),
            Prim::I(1) => Data::Int(i.prim::<i8>(e, "s1")?.into()),
            Prim::I(2) => Data::Int(i.prim::<i16>(e, "s2")?.into()),
            Prim::I(4) => Data::Int(i.prim::<i32>(e, "s4")?.into()),
            Prim::I(_) => Data::Int(i.prim::<i64>(e, "s8")?),
            Prim::F32 => Data::Float(i.prim::<f32>(e, "f4")?.into()),
            Prim::F64 => Data::Float(i.prim::<f64>(e, "f8")?),
        })
    }

    fn count(&mut self, min_each: u64) -> Result<usize> {
        let at = self.input.pos();
        let n = self.input.prim::<i32>(self.endian, "a count")?;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::Count,
                at,
                "a count of 0 or more",
                n.to_string(),
            ));
        }
        let per = min_each.max(1);
        if (n as u64).saturating_mul(per) > self.left() as u64 {
            return Err(Error::new(
                ErrorKind::Count,
                at,
                format!(
                    "at most {} elements ({} bytes left, {} each at least)",
                    self.left() as u64 / per,
                    self.left(),
                    min_each
                ),
                format!("{n} elements"),
            ));
        }
        Ok(n as usize)
    }

    fn node(&mut self, tree: u32, i: usize) -> Result<Value<'a>> {
        self.input.enter(self.input.pos())?;
        let v = self.node_inner(tree, i);
        self.input.leave();
        v
    }

    fn node_inner(&mut self, tree: u32, i: usize) -> Result<Value<'a>> {
        let t = self.trees.tree(tree);
        let n = &t.nodes[i];
        let start = self.pos();
        let mut align = n.aligned();
        let data = match n.kind {
            Kind::Prim(p) => self.prim(p)?,
            Kind::Typeless => {
                let len = self.count(1)?;
                Data::Bytes(self.take(len, "the data")?)
            }
            Kind::Vector { array, elem } => {
                align |= t.nodes[array].aligned();
                let e = &t.nodes[elem];
                let len = self.count(e.min_size)?;
                match e.kind {
                    Kind::Prim(p) if !e.aligned() => {
                        let raw = self.take(len * p.size(), "the elements")?;
                        if n.type_name == "string" {
                            Data::Text(raw)
                        } else if p.size() == 1 && p != Prim::Bool {
                            Data::Bytes(raw)
                        } else {
                            Data::Prims(p, raw)
                        }
                    }
                    _ => {
                        // `len` elements of at least `min_size` bytes each fit (checked).
                        let mut out = Vec::with_capacity(len);
                        for k in 0..len {
                            self.path.push(Step::Index(k));
                            out.push(self.node(tree, elem)?);
                            self.path.pop();
                        }
                        Data::List(out)
                    }
                }
            }
            Kind::RefData => return self.ref_data(tree, i, start),
            Kind::Struct => {
                let registry = n.type_name == "ManagedReferencesRegistry";
                if registry && self.in_registry {
                    // A registry inside a referenced value is the outer one's; Unity writes
                    // nothing for it.
                    Data::Struct(vec![])
                } else {
                    let was = self.in_registry;
                    self.in_registry |= registry;
                    if registry {
                        let v = self.registry_v1(tree, i);
                        self.in_registry = was;
                        if let Some(v) = v? {
                            return Ok(v);
                        }
                        self.in_registry = true;
                    }
                    let mut fields = Vec::with_capacity(n.children.len());
                    for &c in &n.children {
                        self.path.push(Step::Field(tree, c as u32));
                        let v = self.node(tree, c)?;
                        self.path.pop();
                        fields.push(v);
                        if i == 0 && tree == 0 && self.stop_after == Some(t.nodes[c].name.as_ref())
                        {
                            self.stopped = true;
                            break;
                        }
                    }
                    self.in_registry = was;
                    if n.type_name == "ReferencedManagedType" {
                        let text = |k: usize| match fields.get(k).map(|v| &v.data) {
                            Some(Data::Text(t)) => *t,
                            _ => &[][..],
                        };
                        self.last_ref_type = Some((text(0), text(1), text(2)));
                        self.last_type = self.last_ref_type;
                    }
                    Data::Struct(fields)
                }
            }
        };
        if align && !self.stopped {
            self.align()?;
        }
        Ok(Value {
            node: i as u32,
            tree,
            start: start as u32,
            end: self.pos() as u32,
            data,
        })
    }

    /// A registry of managed references in its first form (`version` 1, Unity 2019.3 to
    /// 2020): not a vector but entries of the `ReferencedObject` template one after another,
    /// ended by one whose type is Unity's terminus (class `Terminus`, namespace
    /// `UnityEngine.DMAT`, assembly `FAKE_ASM`), as Unity's editor writes them in its text
    /// scenes. `None` (nothing read) for any other form.
    fn registry_v1(&mut self, tree: u32, i: usize) -> Result<Option<Value<'a>>> {
        let t = self.trees.tree(tree);
        let n = &t.nodes[i];
        let [version, entry] = n.children[..] else {
            return Ok(None);
        };
        if t.nodes[entry].type_name != "ReferencedObject"
            || !matches!(t.nodes[version].kind, Kind::Prim(Prim::I(4)))
        {
            return Ok(None);
        }
        let start = self.pos();
        let saved = self.input.clone();
        self.path.push(Step::Field(tree, version as u32));
        let v = self.node(tree, version)?;
        self.path.pop();
        if v.data != Data::Int(1) {
            self.input = saved;
            return Ok(None);
        }
        let mut fields = vec![v];
        loop {
            let k = fields.len() - 1;
            self.path.push(Step::Index(k));
            let at = self.pos();
            let e = self.node(tree, entry)?;
            self.path.pop();
            let done = matches!(
                self.last_type,
                Some((b"Terminus", b"UnityEngine.DMAT", b"FAKE_ASM"))
            );
            fields.push(e);
            if done {
                break;
            }
            // Every entry takes at least its three (empty) names, so the loop ends with the
            // bytes.
            if self.pos() == at {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    at as u64,
                    "a managed reference entry that takes bytes",
                    "one that takes none",
                ));
            }
        }
        if n.aligned() {
            self.align()?;
        }
        Ok(Some(Value {
            node: i as u32,
            tree,
            start: start as u32,
            end: self.pos() as u32,
            data: Data::Struct(fields),
        }))
    }

    /// A managed reference's data: the tree of the reference type named by the sibling
    /// `type` (class, namespace, assembly) read just before.
    fn ref_data(&mut self, tree: u32, i: usize, start: usize) -> Result<Value<'a>> {
        let key = self.last_ref_type.take();
        let Some((class, ns, asm)) = key else {
            return Err(unsupported(
                start as u64,
                "ReferencedObjectData after its ReferencedManagedType (class, ns, asm)",
                "none before it",
            ));
        };
        // No type, or the terminus that ends a first-form registry: no data.
        if class.is_empty() || (class, ns, asm) == (b"Terminus", b"UnityEngine.DMAT", b"FAKE_ASM") {
            return Ok(Value {
                node: i as u32,
                tree,
                start: start as u32,
                end: start as u32,
                data: Data::Null,
            });
        }
        let found = self.trees.refs.iter().position(|r| {
            r.class.as_bytes() == class
                && r.namespace.as_bytes() == ns
                && r.assembly.as_bytes() == asm
        });
        let Some(k) = found else {
            return Err(Error::new(
                ErrorKind::Invalid,
                start as u64,
                "a reference type the file lists (m_RefTypes)",
                format!("`{}`", String::from_utf8_lossy(class).escape_debug()),
            ));
        };
        if self.trees.refs[k].tree.is_none() {
            return Err(unsupported(
                start as u64,
                "a reference type with its type tree",
                "none",
            ));
        }
        let mut v = self.node(1 + k as u32, 0)?;
        v.start = start as u32;
        Ok(v)
    }
}

impl<'a> Value<'a> {
    /// The node that read the value.
    pub fn node<'t>(&self, trees: &Trees<'t>) -> &'t Node {
        &trees.tree(self.tree).nodes[self.node as usize]
    }

    /// The field named `name` of a struct value.
    pub fn field<'v>(&'v self, trees: &Trees, name: &str) -> Option<&'v Value<'a>> {
        match &self.data {
            Data::Struct(fields) => fields.iter().find(|f| f.node(trees).name == name),
            _ => None,
        }
    }

    /// The fields of a struct value, with their names.
    pub fn fields<'v, 't>(&'v self, trees: &Trees<'t>) -> Vec<(&'t str, &'v Value<'a>)> {
        match &self.data {
            Data::Struct(fields) => fields
                .iter()
                .map(|f| (f.node(trees).name.as_ref(), f))
                .collect(),
            _ => vec![],
        }
    }

    /// An integer value (any width, signed or not, or a bool).
    pub fn int(&self) -> Option<i128> {
        match self.data {
            Data::Int(v) => Some(i128::from(v)),
            Data::UInt(v) => Some(i128::from(v)),
            Data::Bool(b) => Some(i128::from(b)),
            _ => None,
        }
    }

    /// A float value.
    pub fn float(&self) -> Option<f64> {
        match self.data {
            Data::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The bytes of a `string`, `TypelessData` or byte vector.
    pub fn bytes(&self) -> Option<&'a [u8]> {
        match self.data {
            Data::Text(b) | Data::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The elements of a vector of structs (or other non-numbers).
    pub fn items(&self) -> Option<&[Value<'a>]> {
        match &self.data {
            Data::List(v) => Some(v),
            // An empty vector of numbers reads as empty bytes or numbers.
            Data::Bytes(b) | Data::Prims(_, b) if b.is_empty() => Some(&[]),
            _ => None,
        }
    }

    /// The elements of a vector of numbers, each decoded as an integer (`big` for the file's
    /// byte order) by the runtime's numbers (floats as their bits).
    pub fn ints(&self, big: bool) -> Option<Vec<i128>> {
        fn all<T: Pod>(raw: &[u8], e: Endian, f: impl Fn(T) -> i128) -> Vec<i128> {
            raw.chunks_exact(T::SIZE)
                .map(|c| f(T::from_slice(c, e)))
                .collect()
        }
        let (p, raw) = match self.data {
            Data::Prims(p, raw) => (p, raw),
            Data::Bytes(raw) => (Prim::U(1), raw),
            Data::List(ref v) if v.is_empty() => return Some(vec![]),
            _ => return None,
        };
        let e = endian(big);
        Some(match p {
            Prim::Bool | Prim::U(1) => all::<u8>(raw, e, i128::from),
            Prim::U(2) => all::<u16>(raw, e, i128::from),
            Prim::U(4) | Prim::F32 => all::<u32>(raw, e, i128::from),
            Prim::U(_) | Prim::F64 => all::<u64>(raw, e, i128::from),
            Prim::I(1) => all::<i8>(raw, e, i128::from),
            Prim::I(2) => all::<i16>(raw, e, i128::from),
            Prim::I(4) => all::<i32>(raw, e, i128::from),
            Prim::I(_) => all::<i64>(raw, e, i128::from),
        })
    }

    /// The elements of a vector of floats.
    pub fn floats(&self, big: bool) -> Option<Vec<f32>> {
        match self.data {
            Data::Prims(Prim::F32, raw) => Some(
                raw.chunks_exact(4)
                    .map(|c| f32::from_slice(c, endian(big)))
                    .collect(),
            ),
            Data::List(ref v) if v.is_empty() => Some(vec![]),
            Data::Bytes(b) | Data::Prims(_, b) if b.is_empty() => Some(vec![]),
            _ => None,
        }
    }
}

/// The byte order of a file that is big endian or not.
fn endian(big: bool) -> Endian {
    if big {
        Endian::Big
    } else {
        Endian::Little
    }
}

/// A type tree from lines of `type name size`, indented by depth with two spaces, `ALIGN` at
/// the end for the align flag (for tests).
#[cfg(test)]
pub(crate) fn from_text(text: &str) -> TypeTree {
    let raw = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let depth = (l.len() - l.trim_start().len()) / 2;
            let w: Vec<&str> = l.split_whitespace().collect();
            RawNode {
                level: depth as u8,
                type_name: w[0].to_string().into(),
                name: w[1].to_string().into(),
                byte_size: w[2].parse().unwrap(),
                type_flags: 0,
                meta_flag: if w.get(3) == Some(&"ALIGN") { ALIGN } else { 0 },
                offset: 0,
                level_at: None,
            }
        })
        .collect();
    TypeTree::build(raw, 0, &Path::default(), &|_| Path::default()).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A managed reference whose data is a reference of its own type, nested as deep as the
    /// bytes go: the reader stops at the runtime's nesting limit with an error, not a stack
    /// overflow.
    #[test]
    fn references_inside_references_stop_at_the_nesting_limit() {
        let shape = "R Base -1
  ReferencedManagedType type -1
    string class -1
      Array Array -1
        SInt32 size 4
        char data 1
    string ns -1
      Array Array -1
        SInt32 size 4
        char data 1
    string asm -1
      Array Array -1
        SInt32 size 4
        char data 1
  ReferencedObjectData data -1";
        let main = from_text(shape);
        let refs = [RefType {
            class: "R".into(),
            namespace: String::new(),
            assembly: String::new(),
            tree: Some(Arc::new(from_text(shape))),
        }];
        // Each level: class "R", empty namespace and assembly.
        let level: Vec<u8> = [&1i32.to_le_bytes()[..], b"R", &[0; 8]].concat();
        let trees = Trees {
            main: &main,
            refs: &refs,
        };
        let deep = level.repeat(TREE_NESTING as usize);
        let e = read(&deep, false, trees, 100).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count, "{e}");
        assert!(
            e.expected
                .contains(&format!("at most {TREE_NESTING} levels of nested values")),
            "{e}"
        );
        let at = e.offset.expect("an offset");
        assert!(at > 100 && at < 100 + deep.len() as u64, "{e}");

        // Ended by a reference of no type, a few levels read.
        let shallow = [level.repeat(3), 0i32.to_le_bytes().repeat(3)].concat();
        let v = read(&shallow, false, trees, 0).unwrap();
        assert_eq!(v.end as usize, shallow.len());
    }
}
