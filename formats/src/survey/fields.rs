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
    /// Its first and last child and its next sibling, in the order they were met (0, the
    /// root, for none). A child is known by its `FieldInfo`'s address (a `'static` table
    /// entry).
    first: usize,
    last: usize,
    next: usize,
    confidence: Confidence,
    /// Whether its values are tallied (below proven).
    tallied: bool,
    list: bool,
    optional: bool,
    /// Whether it can hold fields of its own (not a number, bytes or text).
    nested: bool,
    /// Whether `enter` skips it whatever it holds: a proven field of numbers, bytes or text,
    /// or a field that reports nothing of its own and below which the spec's tables put no
    /// field the census reports ([`reports_below`]).
    skipped: bool,
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
    /// The child of `node` expected next, if any (fields come in spec order; each element
    /// of a list starts again at the first).
    expected: usize,
    /// Whether an optional field was said to be there.
    present: bool,
    len: u64,
}

/// The fields of one layout, tallied over every file shown to it.
pub struct Fields {
    nodes: Vec<Node>,
    /// Per node, in the same order.
    counted: Vec<Tallies>,
    /// The field the visit is in (the root's frame between files).
    here: Frame,
    /// The frames of the fields around it, outermost first.
    stack: Vec<Frame>,
    file: u64,
    cap: usize,
    /// Whether fields below which nothing is reported are skipped (always, but in a test
    /// that compares with looking into everything).
    skips: bool,
    /// Whether two fields of one record have one id but not one type and confidence (two
    /// switch cases' fields): then a path's first node decides what it reports, and censuses
    /// are added up by path ([`Fields::merge`]).
    twins: bool,
}

/// The spec's primitive types: a field of one of them holds no fields of its own.
pub(super) fn holds_fields(ty: &str) -> bool {
    // The type's name: before its enum's, without `?` and `[]`.
    let name = ty
        .bytes()
        .position(|b| b == b' ')
        .map_or(ty, |end| &ty[..end]);
    let mut base = name.trim_end_matches('?');
    while let Some(b) = base.strip_suffix("[]") {
        base = b;
    }
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

/// Whether a field of type `ty` (as the spec writes it) is a list.
fn is_list(ty: &str) -> bool {
    ty.as_bytes().windows(2).any(|w| w == b"[]")
}

/// Whether the census can report a field below `info` (a field that holds fields, of
/// `confidence`), from the spec's tables alone: a field below proven that holds a value, a
/// list's lengths or an optional field's presence. A switch's cases are not in the tables,
/// nor a type inside itself: below those it assumes so.
fn reports_below(
    info: &'static FieldInfo,
    confidence: Confidence,
    inside: &mut Vec<&'static TypeInfo>,
) -> bool {
    let Some(nested) = info.of else {
        return true;
    };
    let ty = (nested.info)();
    if inside.iter().any(|t| std::ptr::eq(*t, ty)) {
        return true;
    }
    inside.push(ty);
    let any = ty.fields.iter().any(|f| {
        let confidence = f.confidence.unwrap_or(confidence);
        let tallied = confidence != Confidence::Proven;
        if !holds_fields(f.ty) {
            return tallied;
        }
        let holds_value = is_list(f.ty) || f.ty.ends_with('?');
        (tallied && holds_value) || reports_below(f, confidence, inside)
    });
    inside.pop();
    any
}

/// A field of id `id`, type `ty` and `confidence` that the spec says nothing else of: the root
/// of the tallies, and fields for tests.
pub(super) const fn bare_field(
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
        // (Room for a layout's usual number of field paths from the start.)
        let mut nodes = Vec::with_capacity(256);
        nodes.push(Node {
            info: &ROOT,
            parent: 0,
            first: 0,
            last: 0,
            next: 0,
            confidence,
            tallied: false,
            list: false,
            optional: false,
            nested: true,
            skipped: false,
            data: Some(false),
            file: 0,
            files: 0,
            occurrences: 0,
        });
        let mut counted = Vec::with_capacity(nodes.capacity());
        counted.push(Tallies::default());
        Fields {
            nodes,
            counted,
            here: Frame {
                node: 0,
                expected: 0,
                present: false,
                len: 0,
            },
            stack: vec![],
            file: 0,
            cap,
            skips: true,
            twins: false,
        }
    }

    /// Starts the next file.
    pub fn next_file(&mut self) {
        self.file += 1;
        self.here = self.frame(0);
        self.stack.clear();
    }

    /// A frame for entering `node`.
    fn frame(&self, node: usize) -> Frame {
        Frame {
            node,
            expected: self.nodes[node].first,
            present: false,
            len: 0,
        }
    }

    /// The node of `info` under the current one.
    #[inline]
    fn child(&mut self, info: &'static FieldInfo) -> usize {
        let c = self.here.expected;
        if c != 0 && std::ptr::eq(self.nodes[c].info, info) {
            self.here.expected = self.nodes[c].next;
            return c;
        }
        self.find_child(info)
    }

    /// [`Fields::child`] for a field out of the expected order, or met for the first time.
    #[inline(never)]
    fn find_child(&mut self, info: &'static FieldInfo) -> usize {
        let parent = self.here.node;
        let mut c = self.nodes[parent].first;
        while c != 0 && !std::ptr::eq(self.nodes[c].info, info) {
            c = self.nodes[c].next;
        }
        if c == 0 {
            c = self.add_child(parent, info);
        }
        self.here.expected = self.nodes[c].next;
        c
    }

    /// A field path met for the first time.
    #[cold]
    #[inline(never)]
    fn add_child(&mut self, parent: usize, info: &'static FieldInfo) -> usize {
        let confidence = info.confidence.unwrap_or(self.nodes[parent].confidence);
        let id = self.nodes.len();
        let list = is_list(info.ty);
        let optional = info.ty.ends_with('?');
        let nested = holds_fields(info.ty);
        let tallied = confidence != Confidence::Proven;
        // (A nested record that is always there holds no value of its own.)
        let holds_value = tallied && (list || optional);
        let skipped = if nested {
            self.skips && !holds_value && !reports_below(info, confidence, &mut vec![])
        } else {
            !tallied
        };
        self.nodes.push(Node {
            info,
            parent,
            first: 0,
            last: 0,
            next: 0,
            confidence,
            tallied,
            list,
            optional,
            nested,
            skipped,
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
        let twin = self.twin(parent, info, confidence);
        self.twins |= twin;
        self.attach(id);
        id
    }

    /// Whether a child of `parent` has the id of `info` but not its type or `confidence`.
    fn twin(&self, parent: usize, info: &FieldInfo, confidence: Confidence) -> bool {
        self.kids(parent).any(|k| {
            let n = &self.nodes[k];
            n.info.id == info.id && (n.info.ty != info.ty || n.confidence != confidence)
        })
    }

    /// The children of `node`, in the order they were met.
    fn kids(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(self.nodes[node].first), |&k| Some(self.nodes[k].next))
            .take_while(|&k| k != 0)
    }

    /// Makes the node `id` the last child of its parent.
    fn attach(&mut self, id: usize) {
        let parent = self.nodes[id].parent;
        match self.nodes[parent].last {
            0 => self.nodes[parent].first = id,
            last => self.nodes[last].next = id,
        }
        self.nodes[parent].last = id;
    }

    /// Adds the census `o` of other files of the same layout, node by node: what
    /// [`Fields::finish`] then reports is what the two would report added up by path. Not
    /// where a path can be two fields' of different types or confidences (in either census,
    /// or in both together), whose first met decides what the path reports: `o` comes back.
    pub fn merge(&mut self, o: Fields) -> Result<(), Box<Fields>> {
        if self.twins || o.twins || self.cap != o.cap || self.skips != o.skips {
            return Err(Box::new(o));
        }
        // Where each of `o`'s nodes goes: a node met in both, or a new one (numbered on).
        let known = self.nodes.len();
        let mut to = vec![0; o.nodes.len()];
        let mut next = known;
        for (i, b) in o.nodes.iter().enumerate().skip(1) {
            let parent = to[b.parent];
            let met = match parent < known {
                true => self
                    .kids(parent)
                    .find(|&k| std::ptr::eq(self.nodes[k].info, b.info)),
                false => None,
            };
            to[i] = match met {
                Some(k) => k,
                None if parent < known && self.twin(parent, b.info, b.confidence) => {
                    return Err(Box::new(o));
                }
                None => {
                    next += 1;
                    next - 1
                }
            };
        }
        // (`o`'s files are numbered after these.)
        let files = self.file;
        let shift = |file: u64| if file == 0 { 0 } else { file + files };
        let cap = self.cap;
        for (i, (mut b, t)) in o.nodes.into_iter().zip(o.counted).enumerate().skip(1) {
            let m = to[i];
            if m < known {
                let a = &mut self.nodes[m];
                a.files += b.files;
                a.occurrences += b.occurrences;
                a.file = a.file.max(shift(b.file));
                a.data = match (a.data, b.data) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (None, None) => None,
                };
                let c = &mut self.counted[m];
                c.values.merge(t.values, cap);
                c.lengths.merge(t.lengths, cap);
            } else {
                b.parent = to[b.parent];
                (b.first, b.last, b.next) = (0, 0, 0);
                b.file = shift(b.file);
                debug_assert_eq!(m, self.nodes.len());
                self.nodes.push(b);
                self.counted.push(t);
                self.attach(m);
            }
        }
        self.file += o.file;
        Ok(())
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
    pub fn finish(mut self) -> BTreeMap<String, FieldStats> {
        let cap = self.cap;
        // The reported nodes by path, the first met first among equal paths (the others are
        // added to it).
        let mut reported: Vec<(String, usize)> = self
            .paths()
            .into_iter()
            .enumerate()
            .skip(1)
            .filter(|&(i, _)| {
                let n = &self.nodes[i];
                // (A nested record that is always there holds no value of its own: its
                // fields have theirs.)
                let holds_nothing = n.nested && !n.list && !n.optional;
                n.tallied && n.occurrences > 0 && !holds_nothing
            })
            .map(|(i, path)| (path, i))
            .collect();
        reported.sort_unstable();
        let mut out: Vec<(String, FieldStats)> = Vec::with_capacity(reported.len());
        for (path, i) in reported {
            let n = &self.nodes[i];
            let c = std::mem::take(&mut self.counted[i]);
            let stats = FieldStats {
                ty: n.info.ty.to_string(),
                confidence: n.confidence,
                files: n.files,
                occurrences: n.occurrences,
                values: c.values,
                lengths: n.list.then_some(c.lengths),
                data: n.data == Some(true),
            };
            match out.last_mut() {
                Some((p, s)) if *p == path => s.merge(stats, cap),
                _ => out.push((path, stats)),
            }
        }
        out.into_iter().collect()
    }
}

impl Fields {
    /// Decides whether the list `node`, whose first element was just shown, is data: its
    /// records are flat and none of their fields is unknown. If so, what the element added is
    /// taken back.
    fn decide(&mut self, node: usize) {
        let kids: Vec<usize> = self.kids(node).collect();
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
        // (No field is met below a data array: its elements are not looked into.)
        let id = self.child(field);
        let n = &self.nodes[id];
        // A field that holds nothing to tally is not looked into, nor is a data array.
        if n.skipped || n.data == Some(true) {
            return false;
        }
        if n.tallied {
            self.occurs(id);
        }
        let inner = self.frame(id);
        self.stack.push(std::mem::replace(&mut self.here, inner));
        true
    }

    fn leaf(&mut self, field: &'static FieldInfo, v: Scalar<'_>) {
        // `enter`, `value` and `leave` of a value that is always there, without the frame.
        let id = self.child(field);
        if self.nodes[id].tallied {
            self.occurs(id);
            self.counted[id].values.add_scalar(v, self.cap);
        }
    }

    #[inline]
    fn present(&mut self) {
        self.here.present = true;
    }

    #[inline]
    fn index(&mut self, i: usize) -> bool {
        let node = self.here.node;
        self.here.len += 1;
        self.here.expected = self.nodes[node].first;
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
        let node = self.here.node;
        if self.nodes[node].tallied {
            self.counted[node].values.add_scalar(v, self.cap);
        }
    }

    fn leave(&mut self) {
        let Some(outer) = self.stack.pop() else {
            return;
        };
        let f = std::mem::replace(&mut self.here, outer);
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
    use std::collections::BTreeMap;

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

    /// Every shipped corpus file (and Unity's meshes, when the shared corpus is there) that
    /// a layout's extension names, shown to `visit` with its layout, in name order.
    fn each_corpus_file(
        mut visit: impl FnMut(&'static crate::Entry, &crate::reading::Reading<'_>),
    ) {
        use crate::survey::walk;
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut dirs = vec![repo.join("corpus")];
        dirs.extend(Some(repo.join("../shared/corpus/unity/meshes")).filter(|p| p.is_dir()));
        for f in walk::files(&dirs, None) {
            let walk::Found::File(f) = f else { continue };
            let Some(entry) = crate::find(&walk::extension(&f)) else {
                continue;
            };
            let mut ctx = crate::Context::new();
            let version = walk::version_folder(&f);
            if let Some(v) = version.filter(|_| entry.params.contains(&"unity_version")) {
                ctx = ctx.with_param("unity_version", v);
            }
            let bytes = std::fs::read(&f).unwrap();
            visit(entry, &entry.read(&bytes, &ctx));
        }
    }

    /// Skipping the fields below which the spec's tables put nothing the census reports
    /// changes no tally: every layout's fields over the corpus come out as when every field
    /// is looked into.
    #[test]
    fn fields_that_report_nothing_below_are_skipped_without_changing_a_tally() {
        let mut by_layout: BTreeMap<&str, [Fields; 2]> = BTreeMap::new();
        each_corpus_file(|entry, reading| {
            let both = by_layout.entry(entry.id).or_insert_with(|| {
                let mut everything = Fields::new(entry.info, 8);
                everything.skips = false;
                [Fields::new(entry.info, 8), everything]
            });
            for fields in both.iter_mut() {
                fields.next_file();
                reading.visit(fields);
            }
        });
        assert!(by_layout.len() >= 3, "{:?}", by_layout.keys());
        let mut fewer = 0;
        for (id, [skipping, everything]) in by_layout {
            assert!(skipping.nodes.len() <= everything.nodes.len(), "{id}");
            fewer += usize::from(skipping.nodes.len() < everything.nodes.len());
            let (a, b) = (skipping.finish(), everything.finish());
            assert!(!b.is_empty(), "{id}");
            assert_eq!(a, b, "{id}");
        }
        assert!(fewer >= 2, "{fewer} layouts skip a field");
    }

    /// Two censuses added up node by node report what they report finished apart and added
    /// up by path: every layout's files split in two (every other file, and halves).
    #[test]
    fn censuses_merged_node_by_node_report_what_they_report_added_by_path() {
        let mut files: BTreeMap<&str, usize> = BTreeMap::new();
        each_corpus_file(|entry, _| *files.entry(entry.id).or_default() += 1);
        for split in [0, 1] {
            let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
            let mut by_layout: BTreeMap<&str, [Fields; 4]> = BTreeMap::new();
            each_corpus_file(|entry, reading| {
                let i = seen.entry(entry.id).or_default();
                let second = match split {
                    0 => *i % 2 == 1,
                    _ => *i >= files[entry.id] / 2,
                };
                *i += 1;
                let censuses = by_layout
                    .entry(entry.id)
                    .or_insert_with(|| std::array::from_fn(|_| Fields::new(entry.info, 3)));
                // (Two to merge node by node, two to add up by path.)
                for k in [usize::from(second), 2 + usize::from(second)] {
                    censuses[k].next_file();
                    reading.visit(&mut censuses[k]);
                }
            });
            assert!(by_layout.len() >= 3, "{:?}", by_layout.keys());
            let mut merged = 0;
            for (id, [mut a, b, c, d]) in by_layout {
                // (Not where switch cases have fields of one id and different types: those go
                // by path, as `fields_of_one_id_are_added_up_by_path` shows.)
                if a.merge(b).is_err() {
                    continue;
                }
                merged += 1;
                let mut by_path = c.finish();
                for (path, s) in d.finish() {
                    match by_path.get_mut(&path) {
                        Some(x) => x.merge(s, 3),
                        None => {
                            by_path.insert(path, s);
                        }
                    }
                }
                let nodes = a.finish();
                assert!(!nodes.is_empty(), "{id}");
                assert_eq!(nodes, by_path, "{id}, split {split}");
            }
            assert!(merged >= 2, "{merged} layouts merged node by node");
        }
    }

    /// A path that two fields could take (two switch cases' fields of one id) is not merged
    /// node by node: whichever census holds them, or when each holds one.
    #[test]
    fn fields_of_one_id_are_added_up_by_path() {
        static A: FieldInfo = field("x", "u1", Confidence::Unknown);
        static B: FieldInfo = field("x", "u2", Confidence::Unknown);
        static C: FieldInfo = field("y", "u2", Confidence::Unknown);
        static ROOT: TypeInfo = TypeInfo {
            name: "root",
            doc: "",
            confidence: Some(Confidence::Proven),
            params: &[],
            fields: &[],
        };
        let census = |fields: &[&'static FieldInfo]| {
            let mut f = Fields::new(&ROOT, 8);
            f.next_file();
            for &x in fields {
                f.leaf(x, Scalar::U(1));
            }
            f
        };
        static D: FieldInfo = field("x", "u1", Confidence::Unknown);
        assert!(census(&[&A, &B]).twins);
        // (Fields of one id, type and confidence report alike whichever is first.)
        assert!(!census(&[&A, &D]).twins);
        assert!(census(&[&A]).merge(census(&[&D, &B])).is_err());
        assert!(census(&[&A, &C]).merge(census(&[&D])).is_ok());
        assert!(census(&[&A, &C]).merge(census(&[&A, &B])).is_err());
        assert!(census(&[&A, &C]).merge(census(&[&B])).is_err());
        let mut both = census(&[&A, &C]);
        assert!(both.merge(census(&[&C])).is_ok());
        let stats = both.finish();
        assert_eq!((stats["y"].files, stats["y"].occurrences), (2, 2));
        assert_eq!((stats["x"].files, stats["x"].occurrences), (1, 1));
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
