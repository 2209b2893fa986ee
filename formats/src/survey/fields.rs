//! The tallies of one layout's fields, straight from the typed views: a [`Visitor`] that keeps
//! one node per field path it meets (`bones[].name_hash`), and counts the values of every field
//! the spec does not call proven (a field without a confidence of its own has its parent's).
//!
//! Per field: in how many files and how many times it occurred, its values, and for a list
//! its lengths. Nothing per file is kept: a node's counters are all there is.
//!
//! Data arrays are not tallied value by value: a list of plain numbers is looked into only when
//! its meaning is unknown, and a list of flat records (records made only of numbers: vertices,
//! weights, matrices) only when one of the record's fields is unknown. Their elements' meaning
//! is given and their count is a field of its own; tallying every vertex would cost many times
//! what reading the file does. Lists of structured records (submeshes, ranges, palettes) are
//! tallied element by element. Which lists are data follows from the spec alone, so every run
//! decides the same: a list of records is looked at once, through its first element, and if it
//! is data what that element added is taken back.

use super::tally::Tally;
use super::value::Value;
use crate::rt::{Confidence, FieldInfo, Scalar, TypeInfo, Visitor};
use std::collections::BTreeMap;

/// What a census says about one field.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FieldStats {
    /// The type as the spec writes it (`u4`, `palette[]`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The field's confidence (its own, or the nearest enclosing one's).
    pub confidence: Confidence,
    /// In how many files it occurred.
    pub files: u64,
    /// How many times it occurred (once per file, or once per element of the lists it is in).
    pub occurrences: u64,
    /// Its values (the elements' values, for a list of numbers).
    pub values: Tally,
    /// A list's lengths, one per occurrence.
    pub lengths: Option<Tally>,
    /// Whether the field is a data array (not reported): known only once an element was
    /// seen, so a census that saw only empty lists of it is told by one that saw more when
    /// they are added up ([`super::LayoutReport::promote`] then leaves it out).
    #[serde(skip)]
    pub data: bool,
}

impl FieldStats {
    /// Adds another census of the same field.
    pub fn merge(&mut self, o: FieldStats, cap: usize) {
        self.files += o.files;
        self.occurrences += o.occurrences;
        self.data |= o.data;
        self.values.merge(o.values, cap);
        self.lengths = match (self.lengths.take(), o.lengths) {
            (Some(mut a), Some(b)) => {
                a.merge(b, cap);
                Some(a)
            }
            (a, b) => a.or(b),
        };
    }
}

/// One field path met so far.
struct Node {
    info: &'static FieldInfo,
    parent: usize,
    /// By the address of the child's `FieldInfo` (a `'static` table entry: the address is
    /// only compared, as a key).
    children: Vec<(usize, usize)>,
    /// The child expected next (fields come in spec order).
    cursor: usize,
    confidence: Confidence,
    /// Whether its values are tallied (below proven).
    tallied: bool,
    list: bool,
    optional: bool,
    /// Whether it can hold fields of its own (not a number, bytes or text).
    nested: bool,
    /// For a list: whether it is data, not looked into (`None` until its first element showed
    /// what its records hold).
    data: Option<bool>,
    file: u64,
    files: u64,
    occurrences: u64,
}

/// What a node counted of its values (kept apart from [`Node`]: the visit reads and writes
/// the nodes on every field, the tallies only on the values).
#[derive(Default)]
struct Tallies {
    values: Tally,
    lengths: Tally,
}

/// Where the visit is: one frame per field entered.
struct Frame {
    node: usize,
    /// Whether an optional field was said to be there.
    present: bool,
    len: u64,
}

/// The fields of one layout, tallied over every file shown to it.
pub struct Fields {
    nodes: Vec<Node>,
    /// Per node, in the same order.
    counted: Vec<Tallies>,
    stack: Vec<Frame>,
    file: u64,
    cap: usize,
}

/// The spec's primitive types: a field of one of them holds no fields of its own.
pub(super) fn holds_fields(ty: &str) -> bool {
    let base = ty.split(' ').next().unwrap_or(ty);
    let base = base.trim_end_matches('?').trim_end_matches("[]");
    let number = |p: &str| {
        base.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    !(number("u")
        || number("s")
        || number("f")
        || number("b")
        || matches!(base, "bytes" | "str" | "strz" | "contents"))
}

/// A field of id `id`, type `ty` and `confidence` that the spec says nothing else of: the root
/// of the tallies, and fields for tests.
const fn bare_field(
    id: &'static str,
    ty: &'static str,
    confidence: Option<Confidence>,
) -> FieldInfo {
    FieldInfo {
        id,
        ty,
        orig_id: None,
        confidence,
        offset: None,
        evidence: None,
        reading: None,
        doc: "",
        when: None,
        of: None,
        size: None,
        count: None,
    }
}

impl Fields {
    /// Tallies for a layout whose root type is `root`, keeping `cap` distinct values exactly
    /// per field.
    pub fn new(root: &'static TypeInfo, cap: usize) -> Fields {
        static ROOT: FieldInfo = bare_field("", "", None);
        let confidence = root.confidence.unwrap_or(Confidence::Unknown);
        Fields {
            nodes: vec![Node {
                info: &ROOT,
                parent: 0,
                children: vec![],
                cursor: 0,
                confidence,
                tallied: false,
                list: false,
                optional: false,
                nested: true,
                data: Some(false),
                file: 0,
                files: 0,
                occurrences: 0,
            }],
            counted: vec![Tallies::default()],
            stack: vec![Frame {
                node: 0,
                present: false,
                len: 0,
            }],
            file: 0,
            cap,
        }
    }

    /// Starts the next file.
    pub fn next_file(&mut self) {
        self.file += 1;
        self.stack.truncate(1);
    }

    #[inline]
    fn child(&mut self, parent: usize, info: &'static FieldInfo) -> usize {
        let key = std::ptr::from_ref(info) as usize;
        let p = &mut self.nodes[parent];
        if let Some(&(k, id)) = p.children.get(p.cursor) {
            if k == key {
                p.cursor += 1;
                return id;
            }
        }
        if let Some(at) = p.children.iter().position(|(k, _)| *k == key) {
            p.cursor = at + 1;
            return p.children[at].1;
        }
        self.add_child(parent, info, key)
    }

    /// A field path met for the first time.
    #[cold]
    #[inline(never)]
    fn add_child(&mut self, parent: usize, info: &'static FieldInfo, key: usize) -> usize {
        let confidence = info.confidence.unwrap_or(self.nodes[parent].confidence);
        let id = self.nodes.len();
        let list = info.ty.contains("[]");
        let nested = holds_fields(info.ty);
        self.nodes.push(Node {
            info,
            parent,
            children: vec![],
            cursor: 0,
            confidence,
            tallied: confidence != Confidence::Proven,
            list,
            optional: info.ty.ends_with('?'),
            nested,
            data: match (list, nested) {
                (false, _) => Some(false),
                (true, false) => Some(confidence != Confidence::Unknown),
                (true, true) => None,
            },
            file: 0,
            files: 0,
            occurrences: 0,
        });
        self.counted.push(Tallies::default());
        let p = &mut self.nodes[parent];
        p.children.push((key, id));
        p.cursor = p.children.len();
        id
    }

    /// Every node's path, with `[]` after lists (a node comes after its parent, so each path
    /// is its parent's and one more step).
    fn paths(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            if i == 0 {
                out.push(String::new());
                continue;
            }
            let parent = &out[n.parent];
            let mut p = String::with_capacity(parent.len() + n.info.id.len() + 3);
            if !parent.is_empty() {
                p.push_str(parent);
                p.push('.');
            }
            p.push_str(n.info.id);
            if n.list {
                p.push_str("[]");
            }
            out.push(p);
        }
        out
    }

    /// Every field met, by path (`bones[].name_hash`), with what was counted; fields of two
    /// switch cases with the same path are counted together.
    pub fn finish(self) -> BTreeMap<String, FieldStats> {
        let mut out: BTreeMap<String, FieldStats> = BTreeMap::new();
        let cap = self.cap;
        let paths = self.paths();
        for ((path, n), c) in paths.into_iter().zip(self.nodes).zip(self.counted).skip(1) {
            // (A nested record that is always there holds no value of its own: its fields
            // have theirs.)
            let holds_nothing = n.nested && !n.list && !n.optional;
            if !n.tallied || n.occurrences == 0 || holds_nothing {
                continue;
            }
            let stats = FieldStats {
                ty: n.info.ty.to_string(),
                confidence: n.confidence,
                files: n.files,
                occurrences: n.occurrences,
                values: c.values,
                lengths: n.list.then_some(c.lengths),
                data: n.data == Some(true),
            };
            match out.get_mut(&path) {
                Some(s) => s.merge(stats, cap),
                None => {
                    out.insert(path, stats);
                }
            }
        }
        out
    }
}

impl Fields {
    /// Decides whether the list `node`, whose first element was just shown, is data: its
    /// records are flat and none of their fields is unknown. If so, what the element added is
    /// taken back.
    fn decide(&mut self, node: usize) {
        let kids: Vec<usize> = self.nodes[node].children.iter().map(|c| c.1).collect();
        let flat = kids.iter().all(|&k| !self.nodes[k].nested);
        let unknown = kids
            .iter()
            .any(|&k| self.nodes[k].confidence == Confidence::Unknown);
        let data = flat && !unknown;
        self.nodes[node].data = Some(data);
        if data {
            for k in kids {
                let n = &mut self.nodes[k];
                n.files = 0;
                n.occurrences = 0;
                self.counted[k] = Tallies::default();
            }
        }
    }
}

impl Fields {
    /// The node of `field` under the current one, unless the current one is a data array
    /// (whose elements are not looked into).
    #[inline]
    fn meet(&mut self, field: &'static FieldInfo) -> Option<usize> {
        let parent = self.stack.last()?.node;
        if self.nodes[parent].data == Some(true) {
            return None;
        }
        Some(self.child(parent, field))
    }

    /// Counts one occurrence of the tallied node `id` in the current file.
    #[inline]
    fn occurs(&mut self, id: usize) {
        let n = &mut self.nodes[id];
        n.occurrences += 1;
        if n.file != self.file {
            n.file = self.file;
            n.files += 1;
        }
    }
}

impl Visitor for Fields {
    /// A field the spec calls proven holds nothing to tally (and `enter` would skip it).
    fn proven_leaves(&self) -> bool {
        false
    }

    fn enter(&mut self, field: &'static FieldInfo) -> bool {
        let Some(id) = self.meet(field) else {
            return false;
        };
        let n = &self.nodes[id];
        // A proven field of numbers, bytes or text holds nothing to tally, and a data array
        // is not looked into.
        if (!n.tallied && !n.nested) || n.data == Some(true) {
            return false;
        }
        if n.tallied {
            self.occurs(id);
        }
        self.stack.push(Frame {
            node: id,
            present: false,
            len: 0,
        });
        true
    }

    fn leaf(&mut self, field: &'static FieldInfo, v: Scalar<'_>) {
        // `enter`, `value` and `leave` of a value that is always there, without the frame.
        let Some(id) = self.meet(field).filter(|&id| self.nodes[id].tallied) else {
            return;
        };
        self.occurs(id);
        self.counted[id].values.add_scalar(v, self.cap);
    }

    #[inline]
    fn present(&mut self) {
        if let Some(f) = self.stack.last_mut() {
            f.present = true;
        }
    }

    #[inline]
    fn index(&mut self, i: usize) -> bool {
        let Some(f) = self.stack.last_mut() else {
            return true;
        };
        f.len += 1;
        let node = f.node;
        // The second element begins: the first showed every field of the records.
        if i == 1 && self.nodes[node].data.is_none() {
            self.decide(node);
        }
        // A data array's further elements are not looked into (nor counted: its length is
        // not tallied).
        self.nodes[node].data != Some(true)
    }

    #[inline]
    fn value(&mut self, v: Scalar<'_>) {
        if let Some(f) = self.stack.last() {
            if self.nodes[f.node].tallied {
                self.counted[f.node].values.add_scalar(v, self.cap);
            }
        }
    }

    fn leave(&mut self) {
        let Some(f) = self.stack.pop() else { return };
        if f.len == 1 && self.nodes[f.node].data.is_none() {
            self.decide(f.node);
        }
        let n = &self.nodes[f.node];
        if !n.tallied || n.data == Some(true) {
            return;
        }
        let c = &mut self.counted[f.node];
        if n.list {
            c.lengths.add_scalar(Scalar::U(f.len), self.cap);
        } else if n.optional && !f.present {
            c.values.add(Value::Absent, self.cap);
        } else if n.optional && n.nested {
            c.values.add(Value::Present, self.cap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bare_field, holds_fields, Fields};
    use crate::rt::{Confidence, FieldInfo, Scalar, TypeInfo, Visitor};
    use crate::survey::value::Value;

    const fn field(id: &'static str, ty: &'static str, c: Confidence) -> FieldInfo {
        bare_field(id, ty, Some(c))
    }

    /// An optional record is counted present when the generated visit says so, even when
    /// every field it holds is a proven leaf the visit does not show; a leaf shown in one
    /// call counts as `enter`, `value` and `leave` would.
    #[test]
    fn presence_is_said_not_inferred_from_what_is_shown() {
        static OPT: FieldInfo = field("extra", "extra_block?", Confidence::Observed);
        static FLAG: FieldInfo = field("flag", "u1", Confidence::Unknown);
        static ROOT: TypeInfo = TypeInfo {
            name: "root",
            doc: "",
            confidence: Some(Confidence::Proven),
            params: &[],
            fields: &[],
        };
        let mut f = Fields::new(&ROOT, 8);
        assert!(!f.proven_leaves());
        for (i, present) in [true, false, true].into_iter().enumerate() {
            f.next_file();
            if f.enter(&OPT) {
                if present {
                    f.present();
                }
                f.leave();
            }
            f.leaf(&FLAG, Scalar::U(i as u64 % 2));
        }
        let stats = f.finish();
        let extra: Vec<(&Value, u64)> = stats["extra"].values.kept().collect();
        assert_eq!(extra, [(&Value::Absent, 1), (&Value::Present, 2)]);
        let flag: Vec<(&Value, u64)> = stats["flag"].values.kept().collect();
        assert_eq!(flag, [(&Value::U(0), 2), (&Value::U(1), 1)]);
        assert_eq!((stats["flag"].files, stats["flag"].occurrences), (3, 3));
    }

    #[test]
    fn primitive_types_hold_no_fields() {
        for t in [
            "u4",
            "u1[]",
            "s4 (topology)",
            "f4?",
            "bytes",
            "u4[]?",
            "b12",
            "str",
        ] {
            assert!(!holds_fields(t), "{t}");
        }
        for t in ["vertex[]", "palette_block", "switch", "u32_run", "submesh?"] {
            assert!(holds_fields(t), "{t}");
        }
    }
}
