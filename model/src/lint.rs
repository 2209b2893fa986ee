//! meshspec's house conventions, which its own specs keep and another author's need not: a
//! title and a stated byte order in `meta`, and no `-` key but meshspec's own (Kaitai lets
//! other tools add theirs, and the loader takes them as documentation). The generator runs
//! it over `spec/`.

use crate::load::{foreign_key, OUR_KEYS};
use crate::syntax::{self, Kind, Node};
use crate::SpecError;

/// Every departure of spec `text` (read from `file`) from the house conventions; a spec that
/// does not load has its load error as the only one.
pub fn lint(file: &str, text: &str) -> Vec<SpecError> {
    if let Err(e) = crate::load(file, text) {
        return vec![e];
    }
    let Ok(y) = syntax::parse(text) else {
        return vec![];
    };
    let mut out = vec![];
    let mut say = |at, message: String| {
        out.push(SpecError {
            file: file.to_string(),
            at: Some(at),
            message,
        })
    };
    let meta = y.get("meta");
    for key in ["title", "endian"] {
        if meta.and_then(|m| m.get(key)).is_none() {
            say(
                meta.map_or(y.at, |m| m.at),
                format!("meta.{key} is missing (the project's specs state it)"),
            );
        }
    }
    let mut foreign = vec![];
    walk(&y, &mut |k: &Node| {
        if let Some(t) = k.as_str() {
            if t.starts_with('-') && !OUR_KEYS.contains(&t) && foreign_key(t) {
                foreign.push((k.at, t.to_string()));
            }
        }
    });
    for (at, k) in foreign {
        say(
            at,
            format!(
                "key `{k}` is another tool's (the project's specs use meshspec's own - keys only)"
            ),
        );
    }
    out
}

/// Calls `key` on every map key of the document.
fn walk(n: &Node, key: &mut dyn FnMut(&Node)) {
    match &n.kind {
        Kind::Map(entries) => {
            for (k, v) in entries {
                key(k);
                walk(v, key);
            }
        }
        Kind::Seq(items) => {
            for i in items {
                walk(i, key);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::lint;

    #[test]
    fn another_authors_spec_departs_from_the_house_conventions() {
        let spec =
            "meta:\n  id: x\nseq:\n  - id: a\n    type: u1\n    -webide-representation: '{a}'\n";
        let found: Vec<String> = lint("x.ksy", spec).iter().map(|e| e.to_string()).collect();
        assert_eq!(
            found,
            [
                "x.ksy:2:3: meta.title is missing (the project's specs state it)",
                "x.ksy:2:3: meta.endian is missing (the project's specs state it)",
                "x.ksy:6:5: key `-webide-representation` is another tool's (the project's specs use meshspec's own - keys only)",
            ]
        );
        let house = "meta:\n  id: x\n  title: X\n  endian: le\nseq:\n  - id: a\n    type: u1\n";
        assert!(lint("x.ksy", house).is_empty());
        // A near miss of one of ours is no other tool's key: the loader refuses it.
        let typo = "meta:\n  id: x\nseq:\n  - id: a\n    type: u1\n    -confidance: proven\n";
        assert!(lint("x.ksy", typo)[0].message.contains("-confidance"));
    }
}
