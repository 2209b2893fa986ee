//! What one layout's files showed: how many were tried, read, consumed exactly and passed; the
//! failures and warnings grouped by field path and rule with a few example files; how often
//! every relation held; the tallies of the fields below proven; and which fields and relations
//! the census supports promoting.
//!
//! Everything here adds up: two censuses of different files merge into the census of both
//! (that is how the worker threads' results, and `survey --merge`, combine).

use super::fields::{FieldStats, Fields};
use super::value::{Thousands, Value};
use crate::layouts::Entry;
use crate::rt::{Confidence, Error, ErrorKind, Rule, Severity};
use crate::verdict::Verdict;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// How many example files a group keeps (the first by name, so that runs agree).
pub const EXAMPLES: usize = 3;

/// One file of a group, and what was found in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Example {
    /// The file, as the survey was given it.
    pub file: String,
    /// The first finding of the group in it (`0x4 meshbin.vertices: expected ..., found ...`).
    pub text: String,
}

/// Findings of one rule at one field path, over every file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Group {
    /// The field path without element indices (`ranges[].num_triangles`); `(file)` for a file
    /// that could not be read, `(input)` for a finding about the whole input.
    pub path: String,
    /// The relation's id, or for other checks the kind of check (`count`, `eof`, `trailing`).
    pub rule: String,
    /// Whether `rule` is a relation of the spec.
    pub relation: bool,
    /// In how many files.
    pub files: u64,
    /// How many findings (a relation can be broken many times in one file).
    pub findings: u64,
    /// The first files by name, with their first finding.
    pub examples: Vec<Example>,
}

/// How often one relation held.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RelationStats {
    /// The relation's id.
    pub id: String,
    /// The spec type that states it.
    pub owner: String,
    /// How sure the documents are.
    pub confidence: Option<Confidence>,
    /// What breaking it costs.
    pub severity: Severity,
    /// On how many of the files consumed exactly it was broken.
    pub broken_files: u64,
    /// How many times (over all files).
    pub violations: u64,
}

/// What the census supports: a field whose value never varied, or a relation never broken.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Promotion {
    /// `field` or `relation`.
    pub kind: String,
    /// The field path or the relation id.
    pub id: String,
    /// Its confidence today.
    pub confidence: Option<Confidence>,
    /// What the census found.
    pub evidence: String,
}

/// The census of one layout.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayoutReport {
    /// The layout id.
    pub layout: String,
    /// Files read as this layout.
    pub tried: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Files whose structure read to its end (bytes may be left over).
    pub parsed: u64,
    /// Files read to their exact end: their fields are tallied and their relations judged.
    pub consumed_exactly: u64,
    /// Files that passed the verdict.
    pub passed: u64,
    /// Files that did not.
    pub failed: u64,
    /// What failed files (the structure, checks and relations at error severity), by path and
    /// rule.
    pub failures: Vec<Group>,
    /// What was found at warning severity, by path and rule.
    pub warnings: Vec<Group>,
    /// Every relation of the layout, with how often it was broken.
    pub relations: Vec<RelationStats>,
    /// The fields below proven, by path.
    pub fields: BTreeMap<String, FieldStats>,
    /// What the census supports promoting.
    pub promotions: Vec<Promotion>,
    /// How many of the inputs tried were objects inside game files (a bundle's or a player's
    /// meshes), not files of their own.
    #[serde(default)]
    pub in_game_files: u64,
    /// For a layout read with an editor version (`unity_version`), the census of the inputs
    /// of each version (`2021.3.0`; for a file whose version string is not a version, how it
    /// was read: `0.0.0 read as 2020.1 to 2021.3`), each a census of its own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, LayoutReport>,
}

/// Where the group `path`, `rule` is in `groups` (sorted by both), or would be.
fn find_group(groups: &[Group], path: &str, rule: &str) -> Result<usize, usize> {
    groups.binary_search_by(|x| (x.path.as_str(), x.rule.as_str()).cmp(&(path, rule)))
}

fn add_group(groups: &mut Vec<Group>, g: Group) {
    match find_group(groups, &g.path, &g.rule) {
        Ok(i) => {
            let x = &mut groups[i];
            x.files += g.files;
            x.findings += g.findings;
            x.examples.extend(g.examples);
            x.examples.sort();
            x.examples.dedup_by(|a, b| a.file == b.file);
            x.examples.truncate(EXAMPLES);
        }
        Err(i) => groups.insert(i, g),
    }
}

/// Whether `file` would be among the examples of the group `path`, `rule` in `groups` (the
/// first files by name).
fn wants_example(groups: &[Group], path: &str, rule: &str, file: &Path) -> bool {
    match find_group(groups, path, rule) {
        Ok(i) => {
            let e = &groups[i].examples;
            e.len() < EXAMPLES
                || e.last().is_some_and(|last| match file.to_str() {
                    Some(f) => f < last.file.as_str(),
                    None => file.display().to_string() < last.file,
                })
        }
        Err(_) => true,
    }
}

/// The group key of a finding: its field path and its rule.
fn key(e: &Error) -> (String, String, bool) {
    let path = e.path_pattern();
    let path = if path.is_empty() {
        "(input)".to_string()
    } else {
        path
    };
    match e.relation_id() {
        Some(id) => (path, id.to_string(), true),
        None => (path, kind_word(e.kind).to_string(), false),
    }
}

/// The kind of a check, as its `serde` name (`count`, `eof`).
pub fn kind_word(k: ErrorKind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{k:?}").to_lowercase())
}

impl LayoutReport {
    /// An empty census of `entry`, listing its relations.
    pub fn new(entry: &Entry) -> LayoutReport {
        let mut relations: Vec<RelationStats> = entry
            .rules
            .iter()
            .map(|r| RelationStats {
                id: r.id.to_string(),
                owner: r.owner.to_string(),
                confidence: r.confidence,
                severity: r.severity,
                broken_files: 0,
                violations: 0,
            })
            .collect();
        relations.sort_by(|a, b| (&a.id, &a.owner).cmp(&(&b.id, &b.owner)));
        relations.dedup_by(|a, b| a.id == b.id);
        LayoutReport {
            layout: entry.id.to_string(),
            tried: 0,
            bytes: 0,
            parsed: 0,
            consumed_exactly: 0,
            passed: 0,
            failed: 0,
            failures: vec![],
            warnings: vec![],
            relations,
            fields: BTreeMap::new(),
            promotions: vec![],
            in_game_files: 0,
            versions: BTreeMap::new(),
        }
    }

    /// Counts a file that could not be read at all.
    pub fn unreadable(&mut self, file: &Path, e: &Error) {
        self.tried += 1;
        self.failed += 1;
        add_group(
            &mut self.failures,
            Group {
                path: "(file)".into(),
                rule: kind_word(e.kind),
                relation: false,
                files: 1,
                findings: 1,
                examples: vec![Example {
                    file: file.display().to_string(),
                    text: e.to_string(),
                }],
            },
        );
    }

    /// Counts one file's verdict.
    pub fn record(&mut self, file: &Path, size: u64, v: &Verdict) {
        self.tried += 1;
        self.bytes += size;
        match &v.refused {
            None => {
                self.parsed += 1;
                self.consumed_exactly += 1;
            }
            // Left-over bytes after the whole layout: it read, but not to the end.
            Some(e) if e.kind == ErrorKind::Trailing && e.path_pattern().is_empty() => {
                self.parsed += 1
            }
            Some(_) => {}
        }
        if v.passes() {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        if v.refused.is_none() && v.findings.is_empty() {
            return;
        }
        // Per group, this file's first finding and how many there were.
        let mut errors: BTreeMap<(String, String, bool), (u64, &Error)> = BTreeMap::new();
        let mut warnings = errors.clone();
        let fails = |e: &Error| e.severity == Severity::Error || v.strict;
        for e in v.refused.iter().chain(&v.findings) {
            let into = if fails(e) { &mut errors } else { &mut warnings };
            into.entry(key(e)).or_insert((0, e)).0 += 1;
        }
        // Per relation, how often this file broke it (once per file in `broken_files`).
        let mut broken: BTreeMap<&str, (&Rule, u64)> = BTreeMap::new();
        for e in v.refused.iter().chain(&v.findings) {
            if let Some(r) = e.rule {
                broken.entry(r.id).or_insert((r, 0)).1 += 1;
            }
        }
        for (_, (rule, n)) in broken {
            self.count_relation(rule, n);
        }
        for (fail, from) in [(true, errors), (false, warnings)] {
            for ((path, rule, relation), (n, first)) in from {
                let into = if fail {
                    &mut self.failures
                } else {
                    &mut self.warnings
                };
                // (The finding is put in words only for a file that is among the group's
                // first by name so far: most files of a large group are never shown.)
                let examples = if wants_example(into, &path, &rule, file) {
                    vec![Example {
                        file: file.display().to_string(),
                        text: first.to_string(),
                    }]
                } else {
                    vec![]
                };
                add_group(
                    into,
                    Group {
                        path,
                        rule,
                        relation,
                        files: 1,
                        findings: n,
                        examples,
                    },
                );
            }
        }
    }

    fn count_relation(&mut self, rule: &Rule, n: u64) {
        let id = rule.id;
        match self.relations.iter_mut().find(|r| r.id == id) {
            Some(r) => {
                r.broken_files += 1;
                r.violations += n;
            }
            // A relation of a layout read inside this one (a bundle's payload): counted as its
            // own spec states it, where the sorted list puts it whichever worker met it first.
            None => {
                let at = self.relations.partition_point(|r| r.id.as_str() < id);
                self.relations.insert(
                    at,
                    RelationStats {
                        id: id.into(),
                        owner: rule.owner.into(),
                        confidence: rule.confidence,
                        severity: rule.severity,
                        broken_files: 1,
                        violations: n,
                    },
                );
            }
        }
    }

    /// Adds the fields tallied by a visitor.
    pub fn add_fields(&mut self, f: Fields, cap: usize) {
        self.merge_fields(f.finish(), cap);
    }

    /// Adds fields counted elsewhere.
    fn merge_fields(&mut self, o: BTreeMap<String, FieldStats>, cap: usize) {
        if self.fields.is_empty() {
            self.fields = o;
            return;
        }
        for (path, s) in o {
            match self.fields.get_mut(&path) {
                Some(x) => x.merge(s, cap),
                None => {
                    self.fields.insert(path, s);
                }
            }
        }
    }

    /// Adds the census of other files of the same layout.
    pub fn merge(&mut self, o: LayoutReport, cap: usize) {
        self.tried += o.tried;
        self.bytes += o.bytes;
        self.parsed += o.parsed;
        self.consumed_exactly += o.consumed_exactly;
        self.passed += o.passed;
        self.failed += o.failed;
        self.in_game_files += o.in_game_files;
        for (v, r) in o.versions {
            match self.versions.get_mut(&v) {
                Some(x) => x.merge(r, cap),
                None => {
                    self.versions.insert(v, r);
                }
            }
        }
        for g in o.failures {
            add_group(&mut self.failures, g);
        }
        for g in o.warnings {
            add_group(&mut self.warnings, g);
        }
        for r in o.relations {
            match self.relations.iter_mut().find(|x| x.id == r.id) {
                Some(x) => {
                    x.broken_files += r.broken_files;
                    x.violations += r.violations;
                }
                None => self.relations.push(r),
            }
        }
        self.relations.sort_by(|a, b| a.id.cmp(&b.id));
        self.merge_fields(o.fields, cap);
        self.promotions = vec![];
    }

    /// Works out what the census supports promoting: a field below proven whose value (or, for
    /// a list, whose length) was the same on every occurrence, in every file consumed exactly;
    /// a relation below proven never broken on any of them.
    pub fn promote(&mut self) {
        self.versions.par_iter_mut().for_each(|(_, v)| v.promote());
        // (Data arrays are not reported; one census may have seen only empty ones.)
        self.fields.retain(|_, f| !f.data);
        let n = self.consumed_exactly;
        let mut out = vec![];
        if n == 0 {
            self.promotions = out;
            return;
        }
        // (What follows the value, written once for each number of occurrences: most
        // fields occur once in every file.)
        let mut tail: Option<(u64, String)> = None;
        for (path, s) in &self.fields {
            if s.files != n {
                continue;
            }
            let mut constant = |t: &super::tally::Tally, what: &str| {
                let v: &Value = t.constant()?;
                let tail = match &mut tail {
                    Some((k, tail)) if *k == s.occurrences => tail,
                    _ => {
                        let words = format!(
                            " on every occurrence ({} in {} {})",
                            Thousands(s.occurrences),
                            Thousands(n),
                            if n == 1 { "file" } else { "files" }
                        );
                        &tail.insert((s.occurrences, words)).1
                    }
                };
                let mut e = String::with_capacity(what.len() + 16 + tail.len());
                e.push_str(what);
                let _ = write!(e, "{v}");
                e.push_str(tail);
                Some(e)
            };
            let evidence = constant(&s.values, "")
                .or_else(|| s.lengths.as_ref().and_then(|l| constant(l, "length ")));
            if let Some(evidence) = evidence {
                out.push(Promotion {
                    kind: "field".into(),
                    id: path.clone(),
                    confidence: Some(s.confidence),
                    evidence,
                });
            }
        }
        for r in &self.relations {
            if r.broken_files == 0 && r.confidence != Some(Confidence::Proven) {
                out.push(Promotion {
                    kind: "relation".into(),
                    id: r.id.clone(),
                    confidence: r.confidence,
                    evidence: format!(
                        "never broken ({} {})",
                        Thousands(n),
                        if n == 1 { "file" } else { "files" }
                    ),
                });
            }
        }
        self.promotions = out;
    }
}
