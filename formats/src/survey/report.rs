//! The whole census: what was skipped and why, and one [`LayoutReport`] per layout. It is what
//! `survey --json` prints (every map ordered, every list sorted, examples chosen by name: two
//! runs over the same files print the same document) and what `survey --merge` reads back and
//! adds up.

use super::census::{Example, LayoutReport, EXAMPLES};
use std::collections::BTreeMap;

/// Files that were not counted for any layout, for one reason.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// Their extension (empty for names without one).
    pub extension: String,
    /// Why they were skipped.
    pub reason: String,
    /// How many.
    pub files: u64,
    /// The first by name, with what was found in each.
    pub examples: Vec<Example>,
}

/// A census of every file under some paths.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Every file met.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
    /// How many were skipped.
    pub skipped_files: u64,
    /// The skipped files, by extension and reason.
    pub skipped: Vec<Skipped>,
    /// One census per layout, by id.
    pub layouts: Vec<LayoutReport>,
}

pub(crate) fn add_skipped(into: &mut Vec<Skipped>, s: Skipped) {
    match into.binary_search_by(|x| {
        (x.extension.as_str(), x.reason.as_str()).cmp(&(&s.extension, &s.reason))
    }) {
        Ok(i) => {
            let x = &mut into[i];
            x.files += s.files;
            x.examples.extend(s.examples);
            x.examples.sort();
            x.examples.dedup_by(|a, b| a.file == b.file);
            x.examples.truncate(EXAMPLES);
        }
        Err(i) => into.insert(i, s),
    }
}

/// The version of survey documents: the report of version 1 (files, ok, unknown_fields) was
/// replaced in version 2 (tried, parsed, consumed exactly, relations with how often they held,
/// tallies of every field below proven, promotions).
pub const SURVEY_JSON_VERSION: u32 = 2;

impl Report {
    /// The report as its JSON document (`meshspec survey --json`): `version` and `command`
    /// first, then the report's keys.
    pub fn document(&self) -> serde_json::Value {
        let mut doc = serde_json::Map::new();
        doc.insert("version".into(), SURVEY_JSON_VERSION.into());
        doc.insert("command".into(), "survey".into());
        if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(self) {
            doc.extend(m);
        }
        serde_json::Value::Object(doc)
    }

    /// Adds another census (of other files: two installs, two runs), keeping `cap` distinct
    /// values exactly per field.
    pub fn merge(&mut self, o: Report, cap: usize) {
        self.files += o.files;
        self.bytes += o.bytes;
        self.skipped_files += o.skipped_files;
        for s in o.skipped {
            add_skipped(&mut self.skipped, s);
        }
        let mut by: BTreeMap<String, LayoutReport> = std::mem::take(&mut self.layouts)
            .into_iter()
            .map(|l| (l.layout.clone(), l))
            .collect();
        for l in o.layouts {
            match by.get_mut(&l.layout) {
                Some(x) => x.merge(l, cap),
                None => {
                    by.insert(l.layout.clone(), l);
                }
            }
        }
        self.layouts = by.into_values().collect();
        for l in &mut self.layouts {
            l.promote();
        }
    }

    /// The census of one layout.
    pub fn layout(&self, id: &str) -> Option<&LayoutReport> {
        self.layouts.iter().find(|l| l.layout == id)
    }

    /// How many files were tried and did not pass, over every layout.
    pub fn failed(&self) -> u64 {
        self.layouts.iter().map(|l| l.failed).sum()
    }
}
