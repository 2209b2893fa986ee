//! `meshspec unity typetree FILE... [--class Mesh|43] [--ksy]`: the type trees the files carry,
//! one block per distinct tree of a class (a file may hold several trees of one class, such as
//! its scripts'), one line per node; or each tree as a draft `.ksy` in the spec language, for a
//! researcher to start a spec of a version from.

use super::{failed_lines, open, opened_failures};
use crate::args::InputOpt;
use crate::fail::{exit, Fail};
use crate::report::{Line, Severity};
use crate::term;
use meshspec_formats::generated::unity_serialized::UnityClass;
use meshspec_formats::unity::files::draft::{self, Source};
use meshspec_formats::unity::files::game::GameFiles;
use meshspec_formats::unity::files::typetree::TypeTree;
use meshspec_formats::unity::files::ObjectRef;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `unity typetree` was asked.
#[derive(clap::Args)]
pub struct Args {
    /// Bundles, serialized files, or folders of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Only the trees of this class: its name (`Mesh`) or its class id (`43`).
    #[arg(long)]
    pub class: Option<String>,
    /// Print each tree as a draft .ksy (fields with -orig-id, -confidence observed and
    /// -evidence naming the file and the editor version).
    #[arg(long)]
    pub ksy: bool,
    #[command(flatten)]
    pub input: InputOpt,
}

/// One distinct tree of a class, and where it is.
struct Block<'g> {
    tree: &'g TypeTree,
    class_id: Option<i32>,
    /// The files (and files inside bundles) that hold it, the first one first.
    places: Vec<String>,
    objects: usize,
    unity_version: &'g str,
    big_endian: bool,
}

impl Block<'_> {
    fn class(&self) -> String {
        let name = &self.tree.root().type_name;
        match self.class_id {
            Some(id) => format!("{name} (class {id})"),
            None => format!("{name} (no object)"),
        }
    }
}

/// Whether a tree of class `class_id` whose root type is `root` is the class `wanted` names.
fn is_class(wanted: &str, class_id: Option<i32>, root: &str) -> bool {
    match wanted.parse::<i32>() {
        Ok(id) => class_id == Some(id),
        Err(_) => {
            root.eq_ignore_ascii_case(wanted)
                || class_id
                    .and_then(|c| UnityClass(c).orig_id())
                    .is_some_and(|n| n.eq_ignore_ascii_case(wanted))
        }
    }
}

/// The distinct trees of the files, in the order they are first found.
fn blocks<'g>(g: &'g GameFiles, class: Option<&str>) -> Vec<Block<'g>> {
    let mut out: Vec<Block<'g>> = vec![];
    for (file, f) in g.files.iter().enumerate() {
        for (inner, s) in f.serialized.iter().enumerate() {
            let s = &s.file;
            let place = g.place(ObjectRef {
                file,
                inner,
                object: 0,
            });
            for (k, tree) in s.trees.iter().enumerate() {
                let Some(tree) = tree.as_deref() else {
                    continue;
                };
                let of_type = s.objects.iter().filter(|o| o.type_index == Some(k));
                let class_id = of_type.clone().next().map(|o| o.class_id);
                let objects = of_type.count();
                if class.is_some_and(|c| !is_class(c, class_id, &tree.root().type_name)) {
                    continue;
                }
                match out
                    .iter_mut()
                    .find(|b| b.class_id == class_id && b.tree == tree)
                {
                    Some(b) => {
                        b.objects += objects;
                        if !b.places.contains(&place) {
                            b.places.push(place.clone());
                        }
                    }
                    None => out.push(Block {
                        tree,
                        class_id,
                        places: vec![place.clone()],
                        objects,
                        unity_version: &s.unity_version,
                        big_endian: s.big_endian,
                    }),
                }
            }
        }
    }
    out
}

/// A block's heading: the class, how many objects use the tree, and where it is.
fn heading(b: &Block) -> String {
    let more = match b.places.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let objects = match b.objects {
        1 => "1 object".to_string(),
        n => format!("{n} objects"),
    };
    format!(
        "{}: {objects}, Unity {}, in {}{more}",
        b.class(),
        b.unity_version,
        b.places[0]
    )
}

/// One line per node, indented by depth: type, name, byte size (or variable) and the align
/// flag.
fn node_lines(t: &TypeTree) -> Vec<Line> {
    t.nodes
        .iter()
        .map(|n| {
            let size = match n.byte_size {
                s if s < 0 => "variable".to_string(),
                1 => "1 byte".to_string(),
                s => format!("{s} bytes"),
            };
            let align = if n.aligned() { ", align" } else { "" };
            Line::text(format!(
                "{}{} {} ({size}{align})",
                "  ".repeat(usize::from(n.level) + 1),
                n.type_name,
                n.name
            ))
        })
        .collect()
}

/// Runs `meshspec unity typetree`.
pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let g = open(&a.files, a.input.max_input_size, false, None);
    let found = blocks(&g, a.class.as_deref());
    let mut failed = !g.failed.is_empty();
    if found.is_empty() {
        term::out_lines(&failed_lines(&g))?;
        opened_failures(&g);
        return Err(Fail::about(
            a.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            match &a.class {
                Some(c) => format!("a type tree of class `{c}`"),
                None => "type trees".to_string(),
            },
            "none (a file built without type trees has none)",
        ));
    }
    if a.ksy {
        let mut docs = vec![];
        for b in &found {
            let src = Source {
                file: &b.places[0],
                unity_version: b.unity_version,
                class_id: b.class_id.unwrap_or(-1),
                big_endian: b.big_endian,
            };
            match draft::ksy(b.tree, &src) {
                Ok(text) => docs.push(format!(
                    "# {}\n{text}",
                    crate::escape::text(&heading(b)).replace(['\n', '\r'], " ")
                )),
                Err(e) => {
                    failed = true;
                    term::err(Severity::Error, &format!("{}: no draft: {}", b.class(), e));
                }
            }
        }
        term::out_bytes(docs.join("---\n").as_bytes())?;
    } else {
        let mut lines = failed_lines(&g);
        for b in &found {
            lines.push(Line::text(heading(b)));
            lines.extend(node_lines(b.tree));
        }
        term::out_lines(&lines)?;
        term::err_text(&match found.len() {
            1 => "1 type tree".to_string(),
            n => format!("{n} type trees"),
        });
    }
    opened_failures(&g);
    Ok(exit(!failed))
}
