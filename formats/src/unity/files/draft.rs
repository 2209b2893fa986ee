//! A draft `.ksy` from a type tree: the layout a file's type tree gives one class, written in
//! the spec language (`spec/README.md`), for a researcher to start or extend a spec from.
//!
//! The root type is the tree's root; each struct node becomes a type of its own (one per
//! distinct struct, by its type's name and what it holds), each vector a count (`num_x`, or
//! `len_x` for text and bytes) and its elements (`repeat-expr`, or `size` for text and bytes),
//! and each align flag a padding field (`size: (4 - _io.pos % 4) % 4`, counted from the
//! object's start as Unity counts it). Every field carries the tree's name (`-orig-id`, in the
//! forms [`super::fields`] reads: `X.Array.size` for a count, `(alignment after X)` for
//! padding), `-confidence: observed` and `-evidence` naming the file and the editor version.

use super::typetree::{Kind, Prim, TypeTree};
use crate::rt::{Error, ErrorKind, Result};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// Where a tree comes from: what the draft's evidence and title say.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file (and the file inside a bundle) the tree is from.
    pub file: &'a str,
    /// The editor version the file names (`2019.4.0f1`).
    pub unity_version: &'a str,
    /// The class id of the objects the tree describes.
    pub class_id: i32,
    /// Whether the file's objects are big endian.
    pub big_endian: bool,
}

/// The padding expression of an align flag: to a multiple of 4 from the object's start.
pub const ALIGN_PAD: &str = "(4 - _io.pos % 4) % 4";

/// A snake_case id from a Unity name (`m_SubMeshes` -> `sub_meshes`, `localAABB` ->
/// `local_aabb`, `PPtr<Material>` -> `p_ptr_material`): never empty, starting with a letter.
pub fn snake(name: &str) -> String {
    let name = name.strip_prefix("m_").unwrap_or(name);
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let boundary = c.is_ascii_uppercase()
                && prev.is_some_and(|p| {
                    p.is_ascii_lowercase()
                        || p.is_ascii_digit()
                        || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
                });
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out
    } else {
        format!("f_{out}")
    }
}

/// Ids not yet taken in one scope: `id`, else `id_2`, `id_3`, ...
#[derive(Default)]
struct Ids(HashSet<String>);

impl Ids {
    fn take(&mut self, id: String) -> String {
        let mut k = 1;
        let mut name = id.clone();
        while !self.0.insert(name.clone()) {
            k += 1;
            name = format!("{id}_{k}");
        }
        name
    }
}

struct Draft<'t> {
    tree: &'t TypeTree,
    evidence: String,
    /// The types made so far, in order.
    types: Vec<(String, Value)>,
    /// A struct's type by what it is (its subtree).
    by_shape: HashMap<String, String>,
    type_ids: Ids,
}

fn prim(p: Prim) -> &'static str {
    match p {
        Prim::Bool | Prim::U(1) => "u1",
        Prim::I(1) => "s1",
        Prim::U(2) => "u2",
        Prim::I(2) => "s2",
        Prim::U(4) => "u4",
        Prim::I(4) => "s4",
        Prim::U(_) => "u8",
        Prim::I(_) => "s8",
        Prim::F32 => "f4",
        Prim::F64 => "f8",
    }
}

impl Draft<'_> {
    /// A field's facts, after what it is (`id` and its type, size or repeat).
    fn facts(&self, mut f: Map<String, Value>, orig: String, doc: String) -> Value {
        f.insert("-orig-id".into(), orig.into());
        f.insert("-confidence".into(), "observed".into());
        f.insert("-evidence".into(), self.evidence.clone().into());
        f.insert("doc".into(), doc.into());
        Value::Object(f)
    }

    /// What the tree says of node `i`, for docs: `` `UInt32`, 4 bytes ``.
    fn said(&self, i: usize) -> String {
        let n = &self.tree.nodes[i];
        let size = if n.byte_size < 0 {
            "of variable size".to_string()
        } else {
            format!("{} bytes", n.byte_size)
        };
        format!("`{}` in the type tree, {size}", n.type_name)
    }

    /// A canonical text of node `i`'s subtree: the same text is the same layout.
    fn shape(&self, i: usize) -> String {
        let n = &self.tree.nodes[i];
        let kids: Vec<String> = n.children.iter().map(|&c| self.shape(c)).collect();
        format!(
            "{}\u{1}{}\u{1}{}\u{1}{}\u{1}[{}]",
            n.type_name,
            n.name,
            n.byte_size,
            n.meta_flag,
            kids.join(",")
        )
    }

    /// The type of struct node `i` (made on first use): its children as fields.
    fn struct_type(&mut self, i: usize) -> Result<String> {
        let tree = self.tree;
        let n = &tree.nodes[i];
        let key = {
            let kids: Vec<String> = n.children.iter().map(|&c| self.shape(c)).collect();
            format!("{}\u{2}{}", n.type_name, kids.join(","))
        };
        if let Some(id) = self.by_shape.get(&key) {
            return Ok(id.clone());
        }
        let id = self.type_ids.take(snake(&n.type_name));
        self.by_shape.insert(key, id.clone());
        let seq = self.seq(&n.children)?;
        self.push_type(
            id.clone(),
            format!("`{}` as the type tree lays it out.", n.type_name),
            seq,
        );
        Ok(id)
    }

    /// The type of one element of a vector that is not a plain number or struct (aligned, or
    /// itself a vector): the element as the one field of a type.
    fn elem_type(&mut self, e: usize) -> Result<String> {
        let tree = self.tree;
        let n = &tree.nodes[e];
        let key = format!("elem\u{2}{}", self.shape(e));
        if let Some(id) = self.by_shape.get(&key) {
            return Ok(id.clone());
        }
        let id = self.type_ids.take(format!("{}_elem", snake(&n.type_name)));
        self.by_shape.insert(key, id.clone());
        let seq = self.seq(&[e])?;
        self.push_type(
            id.clone(),
            format!("One element of a vector of `{}`.", n.type_name),
            seq,
        );
        Ok(id)
    }

    fn push_type(&mut self, id: String, doc: String, seq: Vec<Value>) {
        let t = json!({
            "doc": doc,
            "-confidence": "observed",
            "-evidence": self.evidence,
            "seq": seq,
        });
        self.types.push((id, t));
    }

    fn seq(&mut self, kids: &[usize]) -> Result<Vec<Value>> {
        let mut ids = Ids::default();
        let mut out = vec![];
        for &c in kids {
            self.field(c, &mut ids, &mut out)?;
        }
        Ok(out)
    }

    /// The fields node `i` is: one, or a count and its elements, and padding after it when
    /// the tree aligns it.
    fn field(&mut self, i: usize, ids: &mut Ids, out: &mut Vec<Value>) -> Result<()> {
        let tree = self.tree;
        let n = &tree.nodes[i];
        let name = n.name.clone();
        let id = ids.take(snake(&name));
        let mut aligned = n.aligned();
        let said = self.said(i);
        let one = |k: &[(&str, Value)]| -> Map<String, Value> {
            let mut m = Map::new();
            m.insert("id".into(), id.clone().into());
            for (key, v) in k {
                m.insert((*key).into(), v.clone());
            }
            m
        };
        match n.kind {
            Kind::Prim(p) => out.push(self.facts(
                one(&[("type", prim(p).into())]),
                name.to_string(),
                format!("{said}."),
            )),
            Kind::Typeless | Kind::Vector { .. } => {
                let elem = match n.kind {
                    Kind::Vector { array, elem } => {
                        aligned |= tree.nodes[array].aligned();
                        Some(elem)
                    }
                    _ => None,
                };
                // One-byte numbers are text or bytes, sized by their count.
                let bytes = elem.is_none_or(|e| {
                    let e = &tree.nodes[e];
                    matches!(e.kind, Kind::Prim(Prim::U(1) | Prim::I(1))) && !e.aligned()
                });
                let count = ids.take(format!("{}_{id}", if bytes { "len" } else { "num" }));
                let mut c = Map::new();
                c.insert("id".into(), count.clone().into());
                c.insert("type".into(), "s4".into());
                out.push(self.facts(
                    c,
                    format!("{name}.Array.size"),
                    format!("How many elements `{name}` has."),
                ));
                let what = match elem {
                    None => one(&[("size", count.into())]),
                    Some(_) if bytes && n.type_name == "string" => one(&[
                        ("type", "str".into()),
                        ("size", count.into()),
                        ("encoding", "UTF-8".into()),
                    ]),
                    Some(_) if bytes => one(&[("size", count.into())]),
                    Some(e) => {
                        let en = &tree.nodes[e];
                        let ty = match en.kind {
                            Kind::Prim(p) if !en.aligned() => prim(p).to_string(),
                            Kind::Struct if !en.aligned() && en.type_name != "Array" => {
                                self.struct_type(e)?
                            }
                            Kind::RefData => return Err(not_drafted(&en.type_name)),
                            _ => self.elem_type(e)?,
                        };
                        one(&[
                            ("type", ty.into()),
                            ("repeat", "expr".into()),
                            ("repeat-expr", count.into()),
                        ])
                    }
                };
                out.push(self.facts(what, name.to_string(), format!("{said}.")));
            }
            Kind::RefData => return Err(not_drafted(&n.type_name)),
            Kind::Struct if n.type_name == "ManagedReferencesRegistry" => {
                return Err(not_drafted(&n.type_name))
            }
            Kind::Struct => {
                let ty = self.struct_type(i)?;
                out.push(self.facts(
                    one(&[("type", ty.into())]),
                    name.to_string(),
                    format!("{said}."),
                ));
            }
        }
        if aligned {
            let mut p = Map::new();
            p.insert("id".into(), ids.take(format!("pad_{id}")).into());
            p.insert("size".into(), ALIGN_PAD.into());
            out.push(self.facts(
                p,
                format!("(alignment after {name})"),
                format!("Padding to 4 bytes from the object's start (the align flag of `{name}`)."),
            ));
        }
        Ok(())
    }
}

fn not_drafted(type_name: &str) -> Error {
    super::unsupported(
        0,
        "a type tree without managed references (the spec language has no form for them)",
        format!("`{}`", type_name.escape_debug()),
    )
}

/// The draft `.ksy` of `tree` (a class's type tree from `src`), as YAML text.
pub fn ksy(tree: &TypeTree, src: &Source) -> Result<String> {
    let root = tree.root();
    let evidence = format!("type tree of {} (Unity {})", src.file, src.unity_version);
    let id = snake(&root.type_name);
    let mut d = Draft {
        tree,
        evidence: evidence.clone(),
        types: vec![],
        by_shape: HashMap::new(),
        type_ids: Ids::default(),
    };
    d.type_ids.take(id.clone());
    let seq = d.seq(&root.children)?;
    let mut top = Map::new();
    top.insert(
        "meta".into(),
        json!({
            "id": id,
            "title": format!(
                "Unity {} (class {}) as the type tree of {} lays it out",
                root.type_name, src.class_id, src.file
            ),
            "application": format!("Unity {}", src.unity_version),
            "endian": if src.big_endian { "be" } else { "le" },
        }),
    );
    top.insert(
        "doc".into(),
        format!(
            "A draft made by `meshspec unity typetree --ksy` from the type tree {} carries for \
             class {} (`{}`): every field as the tree names it and lays it out, observed in that \
             one file of Unity {}. Other versions and files are not known to it.",
            src.file, src.class_id, root.type_name, src.unity_version
        )
        .into(),
    );
    top.insert("-confidence".into(), "observed".into());
    top.insert("-evidence".into(), evidence.into());
    top.insert("seq".into(), Value::Array(seq));
    if !d.types.is_empty() {
        top.insert("types".into(), Value::Object(d.types.into_iter().collect()));
    }
    serde_norway::to_string(&Value::Object(top))
        .map_err(|e| Error::unplaced(ErrorKind::Io, "YAML text of the draft", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rt::Path;
    use crate::unity::files::typetree::RawNode;

    #[test]
    fn unity_names_become_snake_case_ids() {
        for (name, id) in [
            ("m_SubMeshes", "sub_meshes"),
            ("localAABB", "local_aabb"),
            ("m_BonesAABB", "bones_aabb"),
            ("m_UVInfo", "uv_info"),
            ("PPtr<Material>", "p_ptr_material"),
            ("HTTPServer", "http_server"),
            ("m_MeshMetrics[0]", "mesh_metrics_0"),
            ("e00", "e00"),
            ("123", "f_123"),
            ("", "f_"),
        ] {
            assert_eq!(snake(name), id, "{name}");
        }
    }

    #[test]
    fn text_from_the_file_reaches_the_draft_escaped() {
        let node = |level: u8, ty: &str, name: &str, size: i32| RawNode {
            level,
            type_name: ty.to_string().into(),
            name: name.to_string().into(),
            byte_size: size,
            type_flags: 0,
            meta_flag: 0,
            offset: 0,
            level_at: None,
        };
        let tree = TypeTree::build(
            vec![
                node(0, "Thing", "Base", 4),
                node(1, "UInt32", "m_Evil\n\u{1b}[31m: x", 4),
            ],
            0,
            &Path::default(),
            &|_| Path::default(),
        )
        .unwrap();
        let src = Source {
            file: "a\nb.assets",
            unity_version: "2019.4.0f1",
            class_id: 114,
            big_endian: true,
        };
        let text = ksy(&tree, &src).unwrap();
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("- id: evil_31m_x\n  type: u4\n"), "{text}");
        assert!(text.contains("  endian: be\n"), "{text}");
        let back: Value = serde_norway::from_str(&text).unwrap();
        assert_eq!(back["seq"][0]["-orig-id"], "m_Evil\n\u{1b}[31m: x");
        assert_eq!(
            back["-evidence"],
            "type tree of a\nb.assets (Unity 2019.4.0f1)"
        );
    }
}
