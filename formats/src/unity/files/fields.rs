//! A spec layout's fields as Unity's type trees name them, and the first field where an
//! object's type tree and a layout part.
//!
//! Every field of a Unity layout carries the name Unity's type tree gives it (`-orig-id`), so
//! the spec itself says which of its fields make up which field of a type tree:
//!
//! - `X.Array.size` is the count of the vector `X`, and the list that follows it, named `X`,
//!   its elements (`X.Array.data`): the two are one field `X` of the type tree.
//! - A name in parentheses (`(alignment after m_BitSize)`) is padding, part of the field
//!   before it.
//! - `A.b` is the member `b` of the struct `A` (`m_LodSelectionCurve.m_LodSlope`): the fields
//!   named `A.*` one after another are one field `A`. A type whose fields are `Array.size` and
//!   `Array.data` (a string, a byte vector) is a vector.
//! - `first .. last` on a list of a fixed count (`e00 .. e33`) stands for that many fields of
//!   the type tree, `first` to `last`.
//! - A field whose condition (`if:`) does not hold for a version is absent in it.
//!
//! From the positions a reader recorded, [`layout_fields`] gives a value's top-level fields in
//! Unity's names with where each lies; from the spec alone, [`unity_fields`] gives the layout
//! a version's parameters make (every field with what it holds), and [`parting`] compares it
//! with an object's type tree, field by field and into nested types, naming the first field
//! where they part with its name and type in both, at its offset in the object.

use super::typetree::{Data, Kind, Trees, TypeTree, Value};
use crate::rt::meta::Shaped;
use crate::rt::{Error, ErrorKind, FieldInfo, Path, Seg, Span, Walk};

/// What a spec field is in Unity's terms, from its `-orig-id` (its id where it has none).
enum Role {
    /// Padding: part of the field before it.
    Pad,
    /// A list of a fixed count standing for the type tree's fields `first` to `last`.
    Range(&'static str, &'static str),
    /// A field, by its path of Unity names (`m_SubMeshes.Array.size`: three steps).
    Named(Vec<&'static str>),
}

fn role(f: &'static FieldInfo) -> Role {
    let name = f.orig_id.unwrap_or(f.id);
    if name.starts_with('(') {
        Role::Pad
    } else if let Some((first, last)) = name.split_once(" .. ") {
        Role::Range(first.trim(), last.trim())
    } else {
        Role::Named(name.split('.').collect())
    }
}

/// A top-level field of a value as Unity's type trees name it, where a reader read it.
#[derive(Debug, Clone)]
pub struct LayoutField {
    /// Unity's name (`m_SubMeshes`).
    pub name: &'static str,
    /// Its bytes: from its first spec field's start (a count's) to its last one's end (its
    /// padding's).
    pub span: Span,
    /// The spec fields it is made of, in order (a count, its list, padding).
    pub spec: Vec<&'static FieldInfo>,
}

/// The top-level fields of a value in Unity's names, from the positions its reader recorded
/// (`pos`, of any spec type): each with its bytes and the spec fields it is made of. A field
/// absent from the value (its condition did not hold) is absent here.
pub fn layout_fields(pos: &impl Walk) -> Vec<LayoutField> {
    let mut out: Vec<LayoutField> = vec![];
    pos.own_fields(&mut |span, f| {
        let name = match role(f) {
            Role::Pad => match out.last_mut() {
                Some(before) => {
                    before.span.end = before.span.end.max(span.end);
                    before.spec.push(f);
                    return;
                }
                None => f.orig_id.unwrap_or(f.id),
            },
            Role::Range(..) => f.orig_id.unwrap_or(f.id),
            Role::Named(steps) => steps[0],
        };
        match out.last_mut() {
            Some(l) if l.name == name => {
                l.span.end = l.span.end.max(span.end);
                l.spec.push(f);
            }
            _ => out.push(LayoutField {
                name,
                span,
                spec: vec![f],
            }),
        }
    });
    out
}

/// A field of a spec layout as Unity's type trees name it, with what it holds.
#[derive(Debug, Clone)]
pub struct UnityField {
    /// Unity's name: a field's (`m_SubMeshes`), or a step inside a vector (`Array`, then its
    /// `size` and its `data`, which stands for each element).
    pub name: &'static str,
    /// The spec field it is (a count, a list, a number, a value of a spec type); `None` for
    /// what the names of several spec fields make (a vector of a count and a list, a struct of
    /// dotted names).
    pub spec: Option<&'static FieldInfo>,
    /// For a list the spec names `first .. last`: `last` (it stands for as many fields of the
    /// type tree as it has elements).
    pub last: Option<&'static str>,
    /// Whether its condition reads the bytes (so it may be absent).
    pub uncertain: bool,
    /// What it holds (for a list, what each element holds).
    pub fields: Vec<UnityField>,
}

impl UnityField {
    fn group(name: &'static str) -> UnityField {
        UnityField {
            name,
            spec: None,
            last: None,
            uncertain: false,
            fields: vec![],
        }
    }

    /// The spec's type for it, as the spec writes it (`aligned_bytes`, `sub_mesh[]`): its
    /// own, or for a vector its elements'.
    pub fn spec_type(&self) -> String {
        if let Some(f) = self.spec {
            return f.ty.trim_end_matches('?').to_string();
        }
        let data = self
            .fields
            .iter()
            .find(|f| f.name == "Array")
            .and_then(|a| a.fields.iter().find(|f| f.name == "data"));
        match data {
            Some(d) => format!("vector of {}", d.spec_type()),
            None => "struct".into(),
        }
    }

    /// The bytes one value takes where the spec fixes it: a number's, a fixed part's; 1 for
    /// text and bytes of any length (a vector's elements).
    fn size(&self) -> Option<u64> {
        let f = self.spec?;
        f.size
            .or_else(|| matches!(f.ty, "bytes" | "str" | "strz").then_some(1))
    }
}

/// The fields of a spec layout (`shape`, from [`crate::rt::meta::shape`]) in Unity's names,
/// each with what it holds.
pub fn unity_fields(shape: &[Shaped]) -> Vec<UnityField> {
    let mut out: Vec<UnityField> = vec![];
    for s in shape {
        let mut field = UnityField {
            name: "",
            spec: Some(s.info),
            last: None,
            uncertain: !s.certain,
            fields: unity_fields(&s.fields),
        };
        let path = match role(s.info) {
            Role::Pad => continue,
            Role::Range(first, last) => {
                field.last = Some(last);
                vec![first]
            }
            Role::Named(mut steps) => {
                // The list `X` after `X.Array.size` is the vector's data.
                let after_count = out.last().is_some_and(|l| {
                    l.spec.is_none()
                        && l.name == steps[0]
                        && l.fields.last().is_some_and(|a| a.name == "Array")
                });
                if steps.len() == 1 && after_count {
                    steps.extend(["Array", "data"]);
                }
                steps
            }
        };
        insert(&mut out, &path, field);
    }
    out
}

fn insert(out: &mut Vec<UnityField>, path: &[&'static str], mut field: UnityField) {
    let Some((&head, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        field.name = head;
        out.push(field);
        return;
    }
    let merge = out
        .last()
        .is_some_and(|l| l.spec.is_none() && l.name == head);
    if !merge {
        out.push(UnityField::group(head));
    }
    let group = out.last_mut().expect("pushed or there");
    insert(&mut group.fields, rest, field);
}

/// Where an object's type tree and a spec layout part: the first field (depth first) whose
/// name, kind or size differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parting {
    /// Where, from the object's start: the tree's field's first byte (where the tree has one
    /// more field than the layout, or a different one), or the end of the field before it.
    pub offset: u64,
    /// The spec path of the layout's field there (or of the field the layout ends).
    pub path: Path,
    /// What the type tree has there (``expected `m_IndexFormat` (SInt32, 4 bytes) after
    /// `m_KeepIndices` as the object's type tree has it``, without `expected`).
    pub tree: String,
    /// What the layout has there (`` `m_IndexBuffer` (aligned_bytes) ``; `in the layout of
    /// ...` is the caller's).
    pub layout: String,
}

impl Parting {
    /// The error, for an object at `offset` in its file, the layout named `layout` (`the
    /// layout of 2017.1.0`).
    pub fn error(&self, offset: u64, layout: &str) -> Error {
        Error::new(
            ErrorKind::Inconsistent,
            0,
            format!("{} as the object's type tree has it", self.tree),
            format!("{} in {layout}", self.layout),
        )
        .placed(offset + self.offset, &self.path)
    }
}

/// A node of a type tree as compared: a node, or the `Array` a `TypelessData` node stands for
/// (its count and its bytes, without the `Array` node a vector has).
#[derive(Debug, Clone, Copy)]
enum TreeNode {
    Node(usize),
    Array(usize),
}

/// A node with the value that read it, where the object has one (the first element, inside a
/// vector), and where it starts in the object.
#[derive(Debug, Clone, Copy)]
struct At<'v, 'a> {
    node: TreeNode,
    value: Option<&'v Value<'a>>,
    start: u64,
    end: u64,
}

struct Compare<'t> {
    tree: &'t TypeTree,
}

impl<'t> Compare<'t> {
    fn name(&self, n: TreeNode) -> &'t str {
        match n {
            TreeNode::Node(i) => &self.tree.nodes[i].name,
            TreeNode::Array(_) => "Array",
        }
    }

    /// A tree field as the messages show it: `` `m_IndexFormat` (SInt32, 4 bytes) ``.
    fn text(&self, upath: &[&str], n: TreeNode) -> String {
        let (ty, size) = match n {
            TreeNode::Node(i) => {
                let node = &self.tree.nodes[i];
                (node.type_name.as_ref(), node.byte_size)
            }
            TreeNode::Array(_) => ("Array", -1),
        };
        let size = if size < 0 {
            "variable size".to_string()
        } else {
            format!("{size} bytes")
        };
        format!(
            "`{}` ({}, {size})",
            in_path(upath, self.name(n)).escape_debug(),
            ty.escape_debug()
        )
    }

    fn leaf(&self, n: TreeNode) -> bool {
        matches!(n, TreeNode::Node(i) if self.tree.nodes[i].children.is_empty())
    }

    fn size(&self, n: TreeNode) -> Option<u64> {
        match n {
            TreeNode::Node(i) => u64::try_from(self.tree.nodes[i].byte_size).ok(),
            TreeNode::Array(_) => None,
        }
    }

    /// The fields of `at` with their values where the object has them.
    fn children<'v, 'a>(&self, at: At<'v, 'a>) -> Vec<At<'v, 'a>> {
        let none = |node, start| At {
            node,
            value: None,
            start,
            end: start,
        };
        let (i, array) = match at.node {
            TreeNode::Node(i) => (i, None),
            TreeNode::Array(i) => (i, Some(i)),
        };
        let node = &self.tree.nodes[i];
        let kids = &node.children;
        // The count and the element of a vector (or of TypelessData): the count at the
        // vector's start, the first element where there is one.
        let vector_steps = |size: usize, data: usize| {
            let first = match at.value.map(|v| &v.data) {
                Some(Data::List(items)) => items.first(),
                _ => None,
            };
            let count = At {
                node: TreeNode::Node(size),
                value: None,
                start: at.start,
                end: at.start + 4,
            };
            let elem = match first {
                Some(v) => At {
                    node: TreeNode::Node(data),
                    value: Some(v),
                    start: u64::from(v.start),
                    end: u64::from(v.end),
                },
                None => none(TreeNode::Node(data), at.start + 4),
            };
            vec![count, elem]
        };
        match (array, node.kind) {
            (Some(_), _) => match kids[..] {
                [size, data] => vector_steps(size, data),
                _ => vec![],
            },
            (None, Kind::Typeless) => vec![At {
                node: TreeNode::Array(i),
                ..at
            }],
            (None, Kind::Vector { array, .. }) => vec![At {
                node: TreeNode::Node(array),
                ..at
            }],
            (None, _) if node.type_name == "Array" => match kids[..] {
                [size, data] => vector_steps(size, data),
                _ => vec![],
            },
            (None, _) => {
                let values = match at.value.map(|v| &v.data) {
                    Some(Data::Struct(f)) if f.len() == kids.len() => Some(f),
                    _ => None,
                };
                let mut end = at.start;
                kids.iter()
                    .enumerate()
                    .map(|(k, &c)| match values.map(|v| &v[k]) {
                        Some(v) => {
                            end = u64::from(v.end);
                            At {
                                node: TreeNode::Node(c),
                                value: Some(v),
                                start: u64::from(v.start),
                                end,
                            }
                        }
                        None => none(TreeNode::Node(c), end),
                    })
                    .collect()
            }
        }
    }

    /// Compares the fields of one struct: the tree's `tree` (starting at `start`, at the
    /// Unity path `upath`) and the layout's `ours` (at the spec path `spath`). The paths grow
    /// and shrink as the comparison goes in and out; text is made only for a parting.
    fn fields(
        &self,
        tree: &[At],
        ours: &[UnityField],
        start: u64,
        upath: &mut Vec<&'t str>,
        spath: &mut Path,
    ) -> Option<Parting> {
        let (mut i, mut j) = (0, 0);
        loop {
            let t = tree.get(i);
            let s = ours.get(j);
            // A field whose condition reads the bytes: absent unless the tree has it here.
            if let Some(s) = s {
                if s.uncertain && t.is_none_or(|t| self.name(t.node) != s.name) {
                    j += 1;
                    continue;
                }
            }
            let (t, s) = match (t, s) {
                (None, None) => return None,
                (Some(t), None) => {
                    return Some(Parting {
                        offset: t.start,
                        path: spath.clone(),
                        tree: format!(
                            "{} {}",
                            self.text(upath, t.node),
                            self.after(tree, i, upath)
                        ),
                        layout: the_end(upath),
                    })
                }
                (None, Some(s)) => {
                    return Some(Parting {
                        offset: end_before(tree, i, start),
                        path: here(spath, s),
                        tree: format!("{} {}", the_end(upath), self.after(tree, i, upath)),
                        layout: layout_text(upath, s),
                    })
                }
                (Some(t), Some(s)) => (*t, s),
            };
            if let Some(last) = s.last {
                // `first .. last`: as many leaves of the tree, of the element's size.
                let n = s.spec.and_then(|f| f.count).unwrap_or(0) as usize;
                for k in 0..n.max(1) {
                    let Some(tk) = tree.get(i + k) else {
                        return Some(Parting {
                            offset: end_before(tree, i + k, start),
                            path: here(spath, s),
                            tree: format!("{} {}", the_end(upath), self.after(tree, i + k, upath)),
                            layout: layout_text(upath, s),
                        });
                    };
                    let name_ok = match k {
                        0 => self.name(tk.node) == s.name,
                        _ if k + 1 == n => self.name(tk.node) == last,
                        _ => true,
                    };
                    let size_ok = self.leaf(tk.node)
                        && (s.size().is_none() || self.size(tk.node) == s.size());
                    if !name_ok || !size_ok {
                        return Some(Parting {
                            offset: tk.start,
                            path: here(spath, s),
                            tree: format!(
                                "{} {}",
                                self.text(upath, tk.node),
                                self.after(tree, i + k, upath)
                            ),
                            layout: format!("element {k} of {}", layout_text(upath, s)),
                        });
                    }
                }
                i += n.max(1);
                j += 1;
                continue;
            }
            let name = self.name(t.node);
            if name != s.name {
                return Some(Parting {
                    offset: t.start,
                    path: here(spath, s),
                    tree: format!(
                        "{} {}",
                        self.text(upath, t.node),
                        self.after(tree, i, upath)
                    ),
                    layout: layout_text(upath, s),
                });
            }
            // A number, text or bytes where the tree has one of another size (where both
            // are fixed) or more; or more where the tree has a number.
            let differs = if s.fields.is_empty() {
                match (self.size(t.node), s.size()) {
                    (Some(a), Some(b)) => a != b,
                    (_, b) => !self.leaf(t.node) && b.is_some(),
                }
            } else {
                self.leaf(t.node)
            };
            if differs {
                return Some(Parting {
                    offset: t.start,
                    path: here(spath, s),
                    tree: self.text(upath, t.node),
                    layout: layout_text(upath, s),
                });
            }
            if !s.fields.is_empty() {
                // Into the field: Unity's path gains its name (an element its index, an Array
                // nothing), the spec's path the spec field (and its first element, for a
                // list; a group of names is no step of it).
                let steps = match name {
                    "Array" => 0,
                    "data" => {
                        upath.push(if t.value.is_some() { "[0]" } else { "[]" });
                        1
                    }
                    _ => {
                        upath.push(name);
                        1
                    }
                };
                let mut segs = 0;
                if let Some(f) = s.spec {
                    spath.push(Seg::Field(f.id.into()));
                    segs += 1;
                    if f.ty.contains("[]") {
                        spath.push(Seg::Index(0));
                        segs += 1;
                    }
                }
                let kids = self.children(t);
                let found = self.fields(&kids, &s.fields, t.start, upath, spath);
                for _ in 0..segs {
                    spath.pop();
                }
                upath.truncate(upath.len() - steps);
                if found.is_some() {
                    return found;
                }
            }
            i += 1;
            j += 1;
        }
    }

    /// Where field `k` of `tree` is: `` after `localAABB` ``, or at the start of its parent.
    fn after(&self, tree: &[At], k: usize, upath: &[&str]) -> String {
        match k.checked_sub(1).and_then(|p| tree.get(p)) {
            Some(p) => format!("after `{}`", self.name(p.node).escape_debug()),
            None if upath.is_empty() => {
                format!(
                    "at the start of `{}`",
                    self.tree.root().type_name.escape_debug()
                )
            }
            None => format!("at the start of `{}`", joined(upath).escape_debug()),
        }
    }
}

/// The field `name` at `upath`: `m_SubMeshes[0].baseVertex`.
fn in_path(upath: &[&str], name: &str) -> String {
    let mut p = joined(upath);
    if !p.is_empty() {
        p.push('.');
    }
    p.push_str(name);
    p
}

/// Where field `k` of `tree` would start: where the one before it ends (or at `start`).
fn end_before(tree: &[At], k: usize, start: u64) -> u64 {
    k.checked_sub(1)
        .and_then(|p| tree.get(p))
        .map_or(start, |p| p.end)
}

/// The spec path of a layout's field `s` inside `spath`.
fn here(spath: &Path, s: &UnityField) -> Path {
    match first_spec(s) {
        Some(f) => spath.field(f.id),
        None => spath.clone(),
    }
}

/// The end of the struct at `upath`, in words.
fn the_end(upath: &[&str]) -> String {
    if upath.is_empty() {
        "the end of the object".to_string()
    } else {
        format!("the end of `{}`", joined(upath).escape_debug())
    }
}

/// Unity's path of a field, for messages: names joined by dots, `[0]` for the element read.
fn joined(upath: &[&str]) -> String {
    let mut out = String::new();
    for step in upath {
        if !out.is_empty() && !step.starts_with('[') {
            out.push('.');
        }
        out.push_str(step);
    }
    out
}

/// The first spec field a Unity field is made of.
fn first_spec(s: &UnityField) -> Option<&'static FieldInfo> {
    s.spec.or_else(|| s.fields.iter().find_map(first_spec))
}

/// A layout's field as the messages show it: `` `m_IndexBuffer` (aligned_bytes) ``, with its
/// size where the spec fixes it.
fn layout_text(upath: &[&str], s: &UnityField) -> String {
    let name = match s.last {
        Some(last) => format!("{} .. {last}", s.name),
        None => s.name.to_string(),
    };
    let size = match s.spec.and_then(|f| f.size) {
        Some(n) => format!(", {n} bytes"),
        None => String::new(),
    };
    format!("`{}` ({}{size})", in_path(upath, &name), s.spec_type())
}

/// The first field where an object's type tree and the layout `ours` part, or `None` where
/// they agree field by field (names, and the sizes of numbers). `value` is the object read
/// through `trees.main` (for where each field is); `root` is the spec path of the layout
/// (`unity_mesh`).
pub fn parting(
    trees: &Trees,
    value: &Value,
    ours: &[UnityField],
    root: &'static str,
) -> Option<Parting> {
    let c = Compare { tree: trees.main };
    let top = At {
        node: TreeNode::Node(0),
        value: Some(value),
        start: 0,
        end: u64::from(value.end),
    };
    let kids = c.children(top);
    c.fields(&kids, ours, 0, &mut vec![], &mut Path::root(root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::fixtures::unity_names::{AlignedString, SubMesh, UnityNames};
    use crate::rt::meta::shape;
    use crate::rt::{Codec, Output};
    use crate::unity::files::typetree;

    fn layout(version: u32) -> Vec<UnityField> {
        unity_fields(&shape(<UnityNames as Codec>::INFO, &[i128::from(version)]))
    }

    fn names(fields: &[UnityField]) -> Vec<String> {
        fields
            .iter()
            .map(|f| match f.last {
                Some(last) => format!("{} .. {last}", f.name),
                None => f.name.to_string(),
            })
            .collect()
    }

    fn value(version: u32) -> UnityNames {
        let newer = version >= 40000;
        UnityNames {
            name: AlignedString {
                len_value: 2,
                value: "ab".into(),
                pad: vec![0; 2],
            },
            num_sub_meshes: 1,
            sub_meshes: vec![SubMesh {
                first_byte: 6,
                base_vertex: (version >= 20170300).then_some(7),
                topology: 0,
            }],
            use_16bit_indices: (version < 30500).then_some(1),
            stream_compression: newer.then_some(0),
            is_readable: 1,
            pad_is_readable: vec![0; if newer { 2 } else { 3 }],
            lod_slope: 1.0,
            lod_bias: 0.5,
            pose: vec![1.0, 2.0, 3.0, 4.0],
        }
    }

    fn written(version: u32) -> (Vec<u8>, <UnityNames as Codec>::Pos) {
        let mut out = Output::with_capacity(64);
        let pos = value(version)
            .write_out::<true>(&mut out, (version,))
            .unwrap()
            .unwrap();
        (out.into_vec(), pos)
    }

    fn tree(text: &str) -> TypeTree {
        typetree::from_text(text)
    }

    /// The type tree of the fixture's 2017.3 layout, with `extra` lines after `topology`
    /// (inside a SubMesh) and `top` lines after `m_IsReadable`.
    fn tree_2017(extra: &str, top: &str) -> TypeTree {
        tree(&format!(
            "Mesh Base -1
  string m_Name -1
    Array Array -1 ALIGN
      SInt32 size 4
      char data 1
  vector m_SubMeshes -1
    Array Array -1 ALIGN
      SInt32 size 4
      SubMesh data 12
        UInt32 firstByte 4
        UInt32 baseVertex 4
        SInt32 topology 4
{extra}  UInt8 m_StreamCompression 1
  bool m_IsReadable 1 ALIGN
{top}  Curve m_Curve 8
    float m_Slope 4
    float m_Bias 4
  float e0 4
  float e1 4
  float e2 4
  float e3 4
"
        ))
    }

    #[test]
    fn a_versions_layout_has_the_fields_its_conditions_give_it() {
        assert_eq!(
            names(&layout(30000)),
            [
                "m_Name",
                "m_SubMeshes",
                "m_Use16BitIndices",
                "m_IsReadable",
                "m_Curve",
                "e0 .. e3"
            ]
        );
        let new = layout(20170300);
        assert_eq!(
            names(&new),
            [
                "m_Name",
                "m_SubMeshes",
                "m_StreamCompression",
                "m_IsReadable",
                "m_Curve",
                "e0 .. e3"
            ]
        );
        // A vector: its Array of a count and the data standing for each element, which holds
        // the nested type's fields of that version.
        let sub = &new[1];
        assert_eq!(names(&sub.fields), ["Array"]);
        assert_eq!(names(&sub.fields[0].fields), ["size", "data"]);
        let data = &sub.fields[0].fields[1];
        assert_eq!(data.spec.unwrap().id, "sub_meshes");
        assert_eq!(names(&data.fields), ["firstByte", "baseVertex", "topology"]);
        assert_eq!(
            names(&layout(40000)[1].fields[0].fields[1].fields),
            ["firstByte", "topology"]
        );
        // Dotted names make a struct; a string is a vector of its bytes.
        assert_eq!(names(&new[4].fields), ["m_Slope", "m_Bias"]);
        assert_eq!(names(&new[0].fields[0].fields), ["size", "data"]);
        assert_eq!(new[1].spec_type(), "vector of sub_mesh[]");
    }

    #[test]
    fn the_top_level_fields_group_counts_lists_padding_and_dotted_names() {
        for (version, readable_pad) in [(30000u32, 3u64), (20170300, 2)] {
            let (bytes, pos) = written(version);
            let got: Vec<(&str, u64, u64, usize)> = layout_fields(&pos)
                .iter()
                .map(|f| (f.name, f.span.start, f.span.end, f.spec.len()))
                .collect();
            let sub = 4 + if version >= 20170300 { 12 } else { 8 };
            let mut want = vec![("m_Name", 0, 8, 1), ("m_SubMeshes", 8, 8 + sub, 2)];
            let mut at = 8 + sub;
            if version < 30500 {
                want.push(("m_Use16BitIndices", at, at + 4, 1));
                at += 4;
            } else {
                want.push(("m_StreamCompression", at, at + 1, 1));
                at += 1;
            }
            want.push(("m_IsReadable", at, at + 1 + readable_pad, 2));
            at += 1 + readable_pad;
            want.push(("m_Curve", at, at + 8, 2));
            want.push(("e0 .. e3", at + 8, at + 24, 1));
            assert_eq!(got, want, "{version}");
            assert_eq!(bytes.len() as u64, at + 24);
        }
    }

    fn parted(t: &TypeTree, bytes: &[u8], version: u32) -> Option<String> {
        let trees = Trees { main: t, refs: &[] };
        let v = typetree::read(bytes, false, trees, 0).unwrap();
        parting(&trees, &v, &layout(version), "unity_names").map(|p| {
            p.error(0x100, &format!("the layout of {version}"))
                .to_string()
        })
    }

    #[test]
    fn a_tree_that_agrees_has_no_parting_and_one_that_differs_names_the_first_field() {
        let (bytes, _) = written(20170300);
        let t = tree_2017("", "");
        assert_eq!(parted(&t, &bytes, 20170300), None);
        // The 4.0 layout has no baseVertex: the first element's field is named, at its offset.
        assert_eq!(
            parted(&t, &bytes, 40000).unwrap(),
            "0x110 unity_names.sub_meshes[0].topology: expected `m_SubMeshes[0].baseVertex` \
             (UInt32, 4 bytes) after `firstByte` as the object's type tree has it, found \
             `m_SubMeshes[0].topology` (s4, 4 bytes) in the layout of 40000"
        );
        // A field the spec does not have, at the top level and inside a SubMesh.
        let mut b = bytes.clone();
        b.splice(28..28, [9, 0, 0, 0]);
        let t = tree_2017("", "  SInt32 m_New 4\n");
        assert_eq!(
            parted(&t, &b, 20170300).unwrap(),
            "0x11C unity_names.lod_slope: expected `m_New` (SInt32, 4 bytes) after \
             `m_IsReadable` as the object's type tree has it, found `m_Curve` (struct) in the \
             layout of 20170300"
        );
        let mut b = bytes.clone();
        b.splice(24..24, [9, 0, 0, 0]);
        let t = tree_2017("        UInt32 extra 4\n", "");
        assert_eq!(
            parted(&t, &b, 20170300).unwrap(),
            "0x118 unity_names.sub_meshes[0]: expected `m_SubMeshes[0].extra` (UInt32, 4 bytes) \
             after `topology` as the object's type tree has it, found the end of \
             `m_SubMeshes[0]` in the layout of 20170300"
        );
    }
}
