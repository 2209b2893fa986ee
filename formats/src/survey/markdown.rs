//! The census for people: Markdown, with the values in the documents' own style
//! (`0 on 15,928; 1 to 5 on 221`).

use super::census::{Group, LayoutReport};
use super::report::Report;
use super::value::thousands;

/// Text in a table cell: `|` would end the cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn size(b: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if b < 1024 {
        return format!("{} bytes", thousands(b));
    }
    let mut v = b as f64 / 1024.0;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

fn groups(out: &mut Vec<String>, h: &str, title: &str, gs: &[Group]) {
    if gs.is_empty() {
        return;
    }
    out.push(format!("{h} {title}"));
    out.push(String::new());
    out.push("| files | findings | field | rule | for example |".into());
    out.push("|---:|---:|---|---|---|".into());
    for g in gs {
        let rule = if g.relation {
            format!("relation `{}`", cell(&g.rule))
        } else {
            cell(&g.rule)
        };
        let example = g
            .examples
            .first()
            .map(|e| format!("{}: {}", cell(&e.file), cell(&e.text)))
            .unwrap_or_default();
        out.push(format!(
            "| {} | {} | `{}` | {rule} | {example} |",
            thousands(g.files),
            thousands(g.findings),
            cell(&g.path)
        ));
    }
    out.push(String::new());
}

/// One layout's census under a heading of `level` (`##`), its parts one level deeper, then
/// the census of each editor version one level deeper still.
fn layout(out: &mut Vec<String>, l: &LayoutReport, top: usize, title: &str, level: usize) {
    let h = "#".repeat(level + 1);
    out.push(format!("{} {title}", "#".repeat(level)));
    out.push(String::new());
    // Objects inside game files are inputs, not files of their own.
    let (tried, inside) = if l.in_game_files > 0 {
        (
            plural(l.tried, "input", "inputs"),
            format!(
                "; {} of them objects inside game files",
                thousands(l.in_game_files)
            ),
        )
    } else {
        (plural(l.tried, "file", "files"), String::new())
    };
    out.push(format!(
        "{tried} tried ({}{inside}): {} read, {} consumed exactly, {} passed, {} failed.",
        size(l.bytes),
        thousands(l.parsed),
        thousands(l.consumed_exactly),
        thousands(l.passed),
        thousands(l.failed),
    ));
    out.push(String::new());
    groups(out, &h, "Failures, by field and rule", &l.failures);
    groups(out, &h, "Warnings, by field and rule", &l.warnings);
    if !l.relations.is_empty() {
        out.push(format!("{h} Relations"));
        out.push(String::new());
        out.push(format!(
            "Over the {} consumed exactly.",
            if l.in_game_files > 0 {
                plural(l.consumed_exactly, "input", "inputs")
            } else {
                plural(l.consumed_exactly, "file", "files")
            }
        ));
        out.push(String::new());
        out.push("| relation | confidence | severity | held on | broken on |".into());
        out.push("|---|---|---|---:|---:|".into());
        for r in &l.relations {
            let broken = if r.broken_files == 0 {
                "none".to_string()
            } else {
                format!(
                    "{} ({})",
                    plural(r.broken_files, "file", "files"),
                    plural(r.violations, "time", "times")
                )
            };
            out.push(format!(
                "| `{}` | {} | {} | {} | {broken} |",
                cell(&r.id),
                r.confidence.map_or("-", |c| c.word()),
                r.severity,
                thousands(l.consumed_exactly.saturating_sub(r.broken_files)),
            ));
        }
        out.push(String::new());
    }
    if !l.fields.is_empty() {
        out.push(format!("{h} Fields below proven"));
        out.push(String::new());
        out.push(
            "Values over the files consumed exactly, each counted once per occurrence (per file, \
             or per element of the lists it is in); a list's lengths after its values."
                .into(),
        );
        out.push(String::new());
        out.push("| field | type | confidence | occurrences | values |".into());
        out.push("|---|---|---|---:|---|".into());
        for (path, f) in &l.fields {
            let mut values = if f.values.is_empty() {
                String::new()
            } else {
                f.values.describe(top)
            };
            if let Some(lens) = &f.lengths {
                if !values.is_empty() {
                    values.push_str("; ");
                }
                values.push_str("lengths: ");
                values.push_str(&lens.describe(top));
            }
            out.push(format!(
                "| `{}` | {} | {} | {} in {} | {} |",
                cell(path),
                cell(&f.ty),
                f.confidence.word(),
                thousands(f.occurrences),
                plural(f.files, "file", "files"),
                cell(&values),
            ));
        }
        out.push(String::new());
    }
    if !l.promotions.is_empty() {
        out.push(format!("{h} What this census supports promoting"));
        out.push(String::new());
        for p in &l.promotions {
            out.push(format!(
                "- {} `{}` ({} today): {}",
                p.kind,
                cell(&p.id),
                p.confidence.map_or("no confidence", |c| c.word()),
                cell(&p.evidence)
            ));
        }
        out.push(String::new());
    }
    // Oldest first (the keys sort as text: 2022.3.10 before 2022.3.6).
    let mut versions: Vec<(&String, &LayoutReport)> = l.versions.iter().collect();
    versions.sort_by_key(|(v, _)| {
        let first = v.split(' ').next().unwrap_or("");
        (
            crate::context::unity_version(first).unwrap_or(0),
            v.as_str(),
        )
    });
    for (v, r) in versions {
        layout(
            out,
            r,
            top,
            &format!("{}, Unity {}", l.layout, cell(v)),
            level + 1,
        );
    }
}

impl Report {
    /// The census as Markdown, naming at most `top` values per field.
    pub fn markdown(&self, top: usize) -> String {
        let mut out = vec!["# Survey".to_string(), String::new()];
        let counted: u64 = self.layouts.iter().map(|l| l.tried).sum();
        out.push(format!(
            "{} ({}): {} read as a layout, {} skipped, {} failed.",
            plural(self.files, "file", "files"),
            size(self.bytes),
            thousands(counted),
            thousands(self.skipped_files),
            thousands(self.failed()),
        ));
        out.push(String::new());
        for l in &self.layouts {
            layout(&mut out, l, top, &l.layout, 2);
        }
        if !self.skipped.is_empty() {
            out.push("## Skipped".into());
            out.push(String::new());
            out.push("| files | extension | why | for example |".into());
            out.push("|---:|---|---|---|".into());
            for s in &self.skipped {
                let example = s
                    .examples
                    .first()
                    .map(|e| {
                        if e.text.is_empty() {
                            cell(&e.file)
                        } else {
                            format!("{}: {}", cell(&e.file), cell(&e.text))
                        }
                    })
                    .unwrap_or_default();
                let ext = if s.extension.is_empty() {
                    "(none)".to_string()
                } else {
                    format!(".{}", cell(&s.extension))
                };
                out.push(format!(
                    "| {} | {ext} | {} | {example} |",
                    thousands(s.files),
                    cell(&s.reason)
                ));
            }
            out.push(String::new());
        }
        out.join("\n")
    }
}
