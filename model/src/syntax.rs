//! YAML as a spec's author wrote it: every node with the line and column it starts at, so that
//! every complaint about a spec names the place in the file it is about.
//!
//! Scalars are typed as YAML 1.2's core schema types them (what the serde YAML reader did
//! before): plain `true`/`false`, `null`/`~`/nothing, integers (decimal, `0x`, `0o`) and floats;
//! anything quoted or in a block is text. Anchors and aliases are resolved; a key given twice in
//! one map is refused.

use std::fmt;

/// Where a node starts: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Mark {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A YAML node and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub at: Mark,
}

/// What a node holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in the order written.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The node as text (a number is its digits, as a key or name may be).
    pub fn text(&self) -> Option<String> {
        match &self.kind {
            Kind::Str(s) => Some(s.clone()),
            Kind::Int(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// The node's text, when it is text.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The entries of a map.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items of a list.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// The value of key `k` of a map.
    pub fn get(&self, k: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(key, _)| key.as_str() == Some(k))
            .map(|(_, v)| v)
    }

    /// What kind of node this is, for "expected ..., found ..." messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Null => "nothing".into(),
            Kind::Bool(b) => format!("`{b}`"),
            Kind::Int(n) => format!("the number {n}"),
            Kind::Float(x) => format!("the number {x}"),
            Kind::Str(s) => format!("the text {:?}", shorten(s)),
            Kind::Seq(_) => "a list".into(),
            Kind::Map(_) => "a map".into(),
        }
    }
}

/// At most 40 characters of `s`, for a message.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A YAML syntax error: where, and what the YAML reader says.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub at: Mark,
    pub message: String,
}

/// How deep YAML may nest (far beyond any spec; a bound on the reader's recursion and stack).
const MAX_DEPTH: usize = 256;

/// Reads one YAML document.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    use saphyr_parser::{Event, Parser};
    enum Open {
        Seq(Mark, usize, Vec<Node>),
        Map(Mark, usize, Vec<(Node, Node)>, Option<Node>),
    }
    let mut stack: Vec<Open> = vec![];
    let mut anchors: Vec<(usize, Node)> = vec![];
    let mut done: Option<Node> = None;
    for ev in Parser::new_from_str(text) {
        let (ev, span) = ev.map_err(|e| SyntaxError {
            at: Mark {
                line: e.marker().line(),
                column: e.marker().col() + 1,
            },
            message: e.info().to_string(),
        })?;
        let at = Mark {
            line: span.start.line(),
            column: span.start.col() + 1,
        };
        let node = match ev {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(SyntaxError {
                        at,
                        message: format!("YAML nested deeper than {MAX_DEPTH}"),
                    });
                }
                stack.push(match ev {
                    Event::SequenceStart(..) => Open::Seq(at, anchor, vec![]),
                    _ => Open::Map(at, anchor, vec![], None),
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (node, anchor) = match stack.pop() {
                    Some(Open::Seq(at, anchor, items)) => (
                        Node {
                            kind: Kind::Seq(items),
                            at,
                        },
                        anchor,
                    ),
                    Some(Open::Map(at, anchor, entries, _)) => (
                        Node {
                            kind: Kind::Map(entries),
                            at,
                        },
                        anchor,
                    ),
                    None => continue,
                };
                if anchor != 0 {
                    anchors.push((anchor, node.clone()));
                }
                node
            }
            Event::Scalar(value, style, anchor, _) => {
                let node = Node {
                    kind: scalar(&value, style == saphyr_parser::ScalarStyle::Plain),
                    at,
                };
                if anchor != 0 {
                    anchors.push((anchor, node.clone()));
                }
                node
            }
            Event::Alias(id) => anchors
                .iter()
                .rev()
                .find(|(a, _)| *a == id)
                .map(|(_, n)| Node { at, ..n.clone() })
                .ok_or_else(|| SyntaxError {
                    at,
                    message: "an alias of no anchor".into(),
                })?,
            Event::DocumentStart(_) if done.is_some() => {
                return Err(SyntaxError {
                    at,
                    message: "a second YAML document (a spec is one)".into(),
                })
            }
            _ => continue,
        };
        match stack.last_mut() {
            Some(Open::Seq(_, _, items)) => items.push(node),
            Some(Open::Map(_, _, entries, key)) => match key.take() {
                None => *key = Some(node),
                Some(k) => {
                    if let Some((first, _)) = entries.iter().find(|(e, _)| e.kind == k.kind) {
                        return Err(SyntaxError {
                            at: k.at,
                            message: format!(
                                "key {} given twice (first at line {})",
                                k.as_str()
                                    .map_or_else(|| k.describe(), |t| format!("`{t}`")),
                                first.at.line
                            ),
                        });
                    }
                    entries.push((k, node))
                }
            },
            None => done = Some(node),
        }
    }
    Ok(done.unwrap_or(Node {
        kind: Kind::Null,
        at: Mark { line: 1, column: 1 },
    }))
}

/// A scalar typed as YAML 1.2's core schema types a plain one; anything else is text.
fn scalar(v: &str, plain: bool) -> Kind {
    if !plain {
        return Kind::Str(v.to_string());
    }
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Kind::Null,
        "true" | "True" | "TRUE" => return Kind::Bool(true),
        "false" | "False" | "FALSE" => return Kind::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Kind::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Kind::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Kind::Float(f64::NAN),
        _ => {}
    }
    let (neg, digits) = match v.as_bytes()[0] {
        b'-' => (true, &v[1..]),
        b'+' => (false, &v[1..]),
        _ => (false, v),
    };
    let int = if let Some(h) = digits.strip_prefix("0x") {
        (!neg && !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| i128::from_str_radix(h, 16).ok())
            .flatten()
    } else if let Some(o) = digits.strip_prefix("0o") {
        (!neg && !o.is_empty() && o.bytes().all(|b| matches!(b, b'0'..=b'7')))
            .then(|| i128::from_str_radix(o, 8).ok())
            .flatten()
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits
            .parse::<i128>()
            .ok()
            .map(|n| if neg { -n } else { n })
    } else {
        None
    };
    if let Some(n) = int {
        return Kind::Int(n);
    }
    let float_like = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().any(|b| b.is_ascii_digit())
        && digits.as_bytes()[0] != b'e'
        && digits.as_bytes()[0] != b'E';
    match v.parse::<f64>() {
        Ok(x) if float_like => Kind::Float(x),
        _ => Kind::Str(v.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_know_where_they_start() {
        let n = parse("meta:\n  id: x\nseq:\n  - id: a\n    type: u1\n").unwrap();
        let seq = n.get("seq").unwrap();
        assert_eq!(seq.at, Mark { line: 4, column: 3 });
        let a = &seq.as_seq().unwrap()[0];
        assert_eq!(
            a.get("type").unwrap().at,
            Mark {
                line: 5,
                column: 11
            }
        );
        assert_eq!(a.get("type").unwrap().as_str(), Some("u1"));
    }

    #[test]
    fn scalars_are_typed_as_the_core_schema_types_them() {
        let n = parse("a: 12\nb: 0x1F\nc: '12'\nd: true\ne: 1.5\nf: -3\ng: u4le\nh:\ni: 1e3\n")
            .unwrap();
        let k = |key: &str| n.get(key).unwrap().kind.clone();
        assert_eq!(k("a"), Kind::Int(12));
        assert_eq!(k("b"), Kind::Int(31));
        assert_eq!(k("c"), Kind::Str("12".into()));
        assert_eq!(k("d"), Kind::Bool(true));
        assert_eq!(k("e"), Kind::Float(1.5));
        assert_eq!(k("f"), Kind::Int(-3));
        assert_eq!(k("g"), Kind::Str("u4le".into()));
        assert_eq!(k("h"), Kind::Null);
        assert_eq!(k("i"), Kind::Float(1000.0));
    }

    #[test]
    fn a_key_given_twice_and_bad_yaml_are_refused_where_they_are() {
        let e = parse("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(e.at, Mark { line: 3, column: 1 });
        assert!(e.message.contains("given twice (first at line 1)"), "{e:?}");
        let e = parse("a: [1, 2\n").unwrap_err();
        assert_eq!(e.at.line, 2);
    }

    #[test]
    fn aliases_take_their_anchors_node() {
        let n = parse("a: &x {k: 1}\nb: *x\n").unwrap();
        assert_eq!(n.get("b").unwrap().get("k").unwrap().kind, Kind::Int(1));
    }
}
