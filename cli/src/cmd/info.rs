//! `meshspec info LAYOUT FILE`: one screen about a file: its size, the verdict, and per mesh the
//! counts, bounding box, attributes, skin and morph targets.

use crate::args::{
    AllOpt, GameSelect, InputOpt, Json, QuietOpt, RelationsOpt, RessOpt, UnityEditorOpt, UnityOpt,
};
use crate::fail::{exit, Fail};
use crate::report::{
    check_lines, note_json, thousands, verdict_json, Finding, Line, Severity, Verdict, JSON_VERSION,
};
use crate::usage::{Given, Usage};
use crate::{input, term};
use meshspec_formats::scene::{Colors, Mesh, Mode, Scene};
use meshspec_formats::Winding;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec info`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id.
    pub layout: String,
    /// The file to describe.
    pub file: PathBuf,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub editor: UnityEditorOpt,
    #[command(flatten)]
    pub ress: RessOpt,
    #[command(flatten)]
    pub relations: RelationsOpt,
    #[command(flatten)]
    pub lines: AllOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub game: GameSelect,
}

/// How many meshes the text lists one by one (`--json` lists all).
const MESHES_LISTED: usize = 8;

/// What one mesh holds.
struct Summary {
    name: String,
    vertices: usize,
    primitives: Vec<(Mode, usize)>,
    bounds: Option<([f32; 3], [f32; 3])>,
    /// glTF's attribute names with the words the text shows.
    attributes: Vec<(String, String)>,
    materials: usize,
    joints: Option<usize>,
    morph_targets: Vec<String>,
}

fn mode_word(m: Mode) -> &'static str {
    match m {
        Mode::Points => "points",
        Mode::Lines => "lines",
        Mode::LineStrip => "line-strip",
        Mode::Triangles => "triangles",
    }
}

/// How many of its shapes `n` indices joined by `m` make.
fn shapes(m: Mode, n: usize) -> usize {
    match m {
        Mode::Points => n,
        Mode::Lines => n / 2,
        Mode::LineStrip => n.saturating_sub(1),
        Mode::Triangles => n / 3,
    }
}

fn summary(m: &Mesh) -> Summary {
    let mut bounds: Option<([f32; 3], [f32; 3])> = None;
    for p in m
        .positions
        .iter()
        .filter(|p| p.iter().all(|c| c.is_finite()))
    {
        let (lo, hi) = bounds.get_or_insert((*p, *p));
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let mut attributes: Vec<(String, String)> = vec![("POSITION".into(), "position".into())];
    let mut add = |gltf: String, words: String| attributes.push((gltf, words));
    if m.normals.is_some() {
        add("NORMAL".into(), "normal".into());
    }
    if m.tangents.is_some() {
        add("TANGENT".into(), "tangent".into());
    }
    match &m.colors {
        Some(Colors::Rgba8(_)) => add("COLOR_0".into(), "colour (8-bit)".into()),
        Some(Colors::Float(_)) => add("COLOR_0".into(), "colour (float)".into()),
        None => {}
    }
    for i in 0..m.uvs.len() {
        add(format!("TEXCOORD_{i}"), format!("uv{i}"));
    }
    if m.skin.is_some() {
        add("JOINTS_0".into(), "joints".into());
        add("WEIGHTS_0".into(), "weights".into());
    }
    Summary {
        name: m.name.clone(),
        vertices: m.positions.len(),
        primitives: m
            .primitives
            .iter()
            .map(|p| (p.mode, p.indices.len()))
            .collect(),
        bounds,
        attributes,
        materials: m.materials.len(),
        joints: m.skin.as_ref().map(|s| {
            s.joint_names.len().max(s.inverse_bind_matrices.len()).max(
                s.joints
                    .iter()
                    .flatten()
                    .map(|&j| usize::from(j) + 1)
                    .max()
                    .unwrap_or(0),
            )
        }),
        morph_targets: m.morph_targets.iter().map(|t| t.name.clone()).collect(),
    }
}

fn num(x: f32) -> String {
    format!("{x}")
}

fn point(p: [f32; 3]) -> String {
    format!("({}, {}, {})", num(p[0]), num(p[1]), num(p[2]))
}

/// The primitives as `21,836 triangles in 1 primitive`.
fn primitives_text(prims: &[(Mode, usize)]) -> String {
    let mut by_mode: Vec<(Mode, usize)> = vec![];
    for &(m, n) in prims {
        match by_mode.iter_mut().find(|(k, _)| *k == m) {
            Some(slot) => slot.1 += shapes(m, n),
            None => by_mode.push((m, shapes(m, n))),
        }
    }
    let what: Vec<String> = by_mode
        .iter()
        .map(|(m, n)| format!("{} {}", thousands(*n as u64), mode_word(*m)))
        .collect();
    let what = if what.is_empty() {
        "nothing drawn".to_string()
    } else {
        what.join(", ")
    };
    format!(
        "{what} in {}",
        count(prims.len(), "primitive", "primitives")
    )
}

/// `n` and its noun: `1 mesh`, `2 meshes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        thousands(n as u64),
        if n == 1 { one } else { many }
    )
}

/// `  label      value`, the values of one level aligned.
fn row(indent: usize, label: &str, value: impl std::fmt::Display) -> String {
    format!("{:indent$}{label:<w$} {value}", "", w = 14 - indent)
}

fn mesh_lines(i: usize, s: &Summary) -> Vec<String> {
    let mut out = vec![
        row(2, &format!("mesh {i}"), &s.name),
        row(4, "vertices", thousands(s.vertices as u64)),
        row(4, "drawn", primitives_text(&s.primitives)),
    ];
    if let Some((lo, hi)) = s.bounds {
        out.push(row(4, "bounds", format!("{} to {}", point(lo), point(hi))));
    }
    let words: Vec<&str> = s.attributes.iter().map(|(_, w)| w.as_str()).collect();
    out.push(row(4, "attributes", words.join(", ")));
    if s.materials > 0 {
        out.push(row(4, "materials", thousands(s.materials as u64)));
    }
    out.push(row(
        4,
        "skin",
        match s.joints {
            Some(j) => format!("{} joints", thousands(j as u64)),
            None => "none".into(),
        },
    ));
    out.push(row(
        4,
        "morphs",
        if s.morph_targets.is_empty() {
            "none".into()
        } else {
            format!(
                "{}: {}",
                thousands(s.morph_targets.len() as u64),
                s.morph_targets.join(", ")
            )
        },
    ));
    out
}

/// A point in JSON, each coordinate in the shortest form that reads back to the same f32
/// (as dumps show floats).
fn json_point(p: [f32; 3]) -> Vec<f64> {
    p.iter()
        .map(|c| c.to_string().parse().unwrap_or(f64::from(*c)))
        .collect()
}

fn mesh_json(s: &Summary) -> Value {
    json!({
        "name": s.name,
        "vertices": s.vertices,
        "primitives": s.primitives.iter().map(|(m, n)| json!({
            "mode": mode_word(*m),
            "indices": n,
        })).collect::<Vec<_>>(),
        "bounds": s.bounds.map(|(lo, hi)| json!({ "min": json_point(lo), "max": json_point(hi) })),
        "attributes": s.attributes.iter().map(|(g, _)| g.as_str()).collect::<Vec<_>>(),
        "materials": s.materials,
        "skin": s.joints.map(|j| json!({ "joints": j })),
        "morph_targets": s.morph_targets,
    })
}

fn verdict_text(v: &Verdict) -> String {
    let (e, w) = (v.count(Severity::Error), v.count(Severity::Warning));
    let (errors, warnings) = (count(e, "error", "errors"), count(w, "warning", "warnings"));
    match (v.passes(), w) {
        (true, 0) => "ok".into(),
        (true, _) => format!("ok, with {warnings}"),
        (false, 0) => format!("refused: {errors}"),
        (false, _) => format!("refused: {errors}, {warnings}"),
    }
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.file), None);
    crate::cmd::unity::not_a_game_file(&mut u, &a.layout, &a.game, false);
    let given = Given {
        unity_version: a.unity.unity_version.clone(),
        unity_editor: a.editor.unity_editor,
        ress: a.ress.ress.clone(),
        ..Given::default()
    }
    .relations(a.relations);
    let mut ctx = u.context(entry, &given, Some(&a.file));
    u.finish()?;
    let entry = entry.expect("usage checked");

    let bytes = input::read(&a.file, a.input.max_input_size)?;
    let reading = entry.read(&bytes, &ctx);
    let verdict = &reading.verdict;
    // Counts, bounds and attributes do not depend on the winding: when the file does not record
    // it, either one shows the same.
    if entry.needs_winding() && ctx.winding.is_none() {
        ctx.winding = Some(Winding::Gl);
    }
    let shown = Verdict::of(verdict);
    let geometry = parsed(&shown).then(|| reading.decode(&ctx).map(|d| d.scene));
    show(
        &a,
        &Screen {
            name: input::shown(&a.file),
            layout: entry,
            size: bytes.len() as u64,
            verdict,
            geometry,
        },
    )
}

/// Whether the input read far enough for its geometry to be worth decoding: its first finding
/// is a relation or a warning.
pub fn parsed(v: &Verdict) -> bool {
    v.findings
        .first()
        .is_none_or(|f| f.relation.is_some() || f.severity != Severity::Error)
}

/// What one screen is about.
pub struct Screen<'a> {
    /// The input, as lines name it.
    pub name: String,
    /// Its layout.
    pub layout: &'static meshspec_formats::Entry,
    /// Its size in bytes.
    pub size: u64,
    /// The verdict on it.
    pub verdict: &'a meshspec_formats::verdict::Verdict,
    /// Its geometry, when it read far enough to decode.
    pub geometry: Option<meshspec_formats::Result<Scene>>,
}

/// Prints one screen (or its JSON document); exit 0 when the verdict passes.
pub fn show(a: &Args, s: &Screen<'_>) -> Result<ExitCode, Fail> {
    let verdict = Verdict::of(s.verdict);
    let geometry: Option<Result<&Scene, Box<Finding>>> = s.geometry.as_ref().map(|g| {
        g.as_ref()
            .map_err(|e| Box::new(Finding::from_error(e, Severity::Error)))
    });
    let meshes: Vec<Summary> = match &geometry {
        Some(Ok(s)) => s.meshes.iter().map(summary).collect(),
        _ => vec![],
    };
    let mut notes = verdict.notes.clone();
    if let Some(Ok(s)) = &geometry {
        notes.extend(
            s.notes
                .iter()
                .filter(|n| !notes.contains(n))
                .cloned()
                .collect::<Vec<_>>(),
        );
    }
    let name = s.name.clone();
    let entry = s.layout;

    if a.json.json {
        let mut o = verdict_json(
            json!({
                "version": JSON_VERSION,
                "command": "info",
                "layout": entry.id,
                "file": name,
                "size": s.size,
            }),
            &verdict,
            a.lines.all,
        );
        o["notes"] = notes.iter().map(|n| note_json(n)).collect();
        o["meshes"] = meshes.iter().map(mesh_json).collect();
        o["geometry_error"] = match &geometry {
            Some(Err(f)) => f.json(),
            _ => Value::Null,
        };
        term::out_json(&o)?;
    } else {
        let total_vertices: usize = meshes.iter().map(|m| m.vertices).sum();
        let mut text = vec![
            name.clone(),
            row(2, "layout", format!("{} ({})", entry.id, entry.description)),
            row(2, "size", format!("{} bytes", thousands(s.size))),
            row(2, "verdict", verdict_text(&verdict)),
        ];
        text.push(row(
            2,
            "geometry",
            match &geometry {
                Some(Ok(_)) => format!(
                    "{}, {} vertices",
                    count(meshes.len(), "mesh", "meshes"),
                    thousands(total_vertices as u64)
                ),
                Some(Err(f)) if verdict.findings.contains(&**f) => {
                    "not decoded (the errors below)".into()
                }
                Some(Err(f)) => format!("not decoded: {}", f.line()),
                None => "not decoded (the file does not parse)".into(),
            },
        ));
        for (i, m) in meshes.iter().enumerate().take(MESHES_LISTED) {
            text.extend(mesh_lines(i, m));
        }
        if meshes.len() > MESHES_LISTED {
            text.push(format!(
                "  ... and {} more meshes (--json lists every one)",
                thousands((meshes.len() - MESHES_LISTED) as u64)
            ));
        }
        let mut lines: Vec<Line> = text.into_iter().map(Line::text).collect();
        // The verdict's own lines (errors and warnings, the first few per relation), without
        // the final `ok`.
        let findings = check_lines(&name, &verdict, a.lines.all);
        lines.extend(
            findings
                .into_iter()
                .filter(|l| !(l.tag.is_none() && l.text == "ok"))
                .map(|l| Line::tagged(l.tag.unwrap_or(Severity::Error), l.text)),
        );
        if !a.quiet.quiet {
            lines.extend(notes.iter().map(|n| Line::tagged(Severity::Note, n)));
        }
        term::out_lines(&lines)?;
    }
    Ok(exit(verdict.passes()))
}
