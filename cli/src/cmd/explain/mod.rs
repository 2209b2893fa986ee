//! `meshspec explain LAYOUT FILE`: every byte of FILE attributed to a field, with what the
//! spec says of it (offset, size, type, value, confidence, doc), as text or as one HTML page
//! (`--html OUT.html`). By default a list shows its first few elements and folds the rest, so
//! a 2 MB mesh prints a screen, not 2 MB; `--at`, `--field`, `--depth` and `--elements` choose
//! what to look at.

mod html;
mod text;

use meshspec_formats::explain as model;

use crate::args::{GameSelect, InputOpt, RessOpt, UnityEditorOpt, UnityOpt};
use crate::cmd::unity;
use crate::fail::Fail;
use crate::input;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// An offset: decimal, or hex with `0x`.
fn offset(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    parsed.map_err(|_| format!("an offset such as 0x1A4 or 420, not `{s}`"))
}

#[derive(Args)]
pub struct ExplainArgs {
    /// The layout id.
    layout: String,
    /// The file to explain.
    file: PathBuf,
    /// Show the fields around this byte offset (0x1A4 or 420), every element included.
    #[arg(long, value_name = "OFFSET", value_parser = offset)]
    at: Option<u64>,
    /// Show only this field and what it holds (`bones[2]`, `data.ranges_a`).
    #[arg(long, value_name = "PATH")]
    field: Option<String>,
    /// Show no field deeper than N (the file's own fields are depth 1); deeper fields are
    /// shown as their enclosing field's bytes.
    #[arg(long, value_name = "N")]
    depth: Option<usize>,
    /// How many elements of each list to show; the others are folded into one line.
    #[arg(long, value_name = "N", default_value_t = 4)]
    elements: usize,
    /// Write one self-contained HTML page (the fields as a tree beside the bytes) to OUT
    /// instead of printing text.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    #[command(flatten)]
    unity: UnityOpt,
    #[command(flatten)]
    editor: UnityEditorOpt,
    #[command(flatten)]
    ress: RessOpt,
    #[command(flatten)]
    input: InputOpt,
    #[command(flatten)]
    game: GameSelect,
}

pub fn run(a: ExplainArgs) -> Result<ExitCode, Fail> {
    if unity::is_game(&a.layout, [&a.file]) {
        return game(a);
    }
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.file), None);
    unity::not_a_game_file(&mut u, &a.layout, &a.game, false);
    let given = Given {
        unity_version: a.unity.unity_version.clone(),
        unity_editor: a.editor.unity_editor,
        ress: a.ress.ress.clone(),
        ..Given::default()
    };
    let ctx = u.context(entry, &given, Some(&a.file));
    let target = a.html.as_deref().map(|p| Target::of(Some(p)));
    if let Some(t) = &target {
        u.output(t, false);
    }
    u.finish()?;
    let entry = entry.expect("usage checked");

    let bytes = input::read(&a.file, a.input.max_input_size)?;
    let shown = input::shown(&a.file);
    let reading = entry.read(&bytes, &ctx);
    let census = |v: &mut dyn meshspec_formats::rt::Visitor| reading.census(v);
    let walk = |f: &mut meshspec_formats::reading::WalkFn<'_>| reading.walk(f);
    let i = model::Input {
        entry,
        bytes: &bytes,
        walk: &walk,
        base: 0,
        census: &census,
    };
    let x = model::explain(&i, &select(&a))?;
    let header = format!(
        "{}: {} ({} bytes, {}); verdict: {}",
        entry.id,
        shown,
        model::thousands(x.size),
        entry.spec,
        x.verdict
    );
    show(&a, &shown, &header, &bytes, &x, target)
}

fn select(a: &ExplainArgs) -> model::Select {
    model::Select {
        at: a.at,
        field: a.field.clone(),
        depth: a.depth,
        elements: a.elements,
    }
}

/// `explain unity-mesh GAMEFILE --mesh NAME|--path-id N`: the object's bytes, with offsets in
/// the (decompressed) serialized file it lies in.
fn game(a: ExplainArgs) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let target = a.html.as_deref().map(|p| Target::of(Some(p)));
    if let Some(t) = &target {
        u.output(t, false);
    }
    let version = unity::given_version(&mut u, a.unity.unity_version.as_deref());
    unity::bare_only(&mut u, a.editor.unity_editor);
    let sel = unity::needs_one(&mut u, &a.game, "explain");
    let user = u.context(
        None,
        &Given {
            ress: a.ress.ress.clone(),
            ..Given::default()
        },
        None,
    );
    u.finish()?;
    let sel = sel.expect("usage checked");
    let g = unity::open_one(&a.file, a.input.max_input_size, version)?;
    let r = unity::one(&g, &sel)?;
    let obj = g.input(r, &user).map_err(|e| unity::refused(&e))?;
    let entry = meshspec_formats::find(obj.layout).expect("an object's layout is in the table");
    let census = |v: &mut dyn meshspec_formats::rt::Visitor| obj.census(v);
    let walk = |f: &mut meshspec_formats::reading::WalkFn<'_>| obj.walk(f).map_err(|e| *e.error);
    let i = model::Input {
        entry,
        bytes: obj.bytes,
        walk: &walk,
        base: obj.base,
        census: &census,
    };
    // (The walk's errors are in the serialized file already.)
    let x = model::explain(&i, &select(&a)).map_err(|e| {
        unity::refused(&meshspec_formats::unity::files::Located::new(&obj.place, e))
    })?;
    let shown = unity::label(&g, r);
    let header = format!(
        "{}: {} ({} bytes at 0x{:X} of {}, {}); verdict: {}",
        entry.id,
        shown,
        model::thousands(x.size),
        obj.base,
        g.files[r.file].serialized[r.inner].name,
        entry.spec,
        x.verdict
    );
    show(&a, &shown, &header, obj.bytes, &x, target)
}

/// What `explain` prints or writes of an explained input.
fn show(
    a: &ExplainArgs,
    shown: &str,
    header: &str,
    bytes: &[u8],
    x: &model::Explained,
    target: Option<Target>,
) -> Result<ExitCode, Fail> {
    if let Some(p) = a.at.filter(|&o| o < x.base || o >= x.base + x.size) {
        let expected = if x.base == 0 {
            format!("--at {p}: an offset below the file's size")
        } else {
            format!(
                "--at {p}: an offset of the object's bytes (0x{:X} to 0x{:X} of its serialized file)",
                x.base,
                x.base + x.size
            )
        };
        return Err(Fail::about(
            shown,
            expected,
            format!("{} bytes", model::thousands(x.size)),
        ));
    }
    if x.rows.is_empty() {
        return Err(Fail::about(
            shown,
            format!(
                "a field `{}` (--field)",
                crate::escape::text(a.field.as_deref().unwrap_or(""))
            ),
            "no field of that path",
        ));
    }
    match target {
        Some(t) => {
            let page = html::page(
                &format!("meshspec explain {} {shown}", a.layout),
                header,
                bytes,
                x,
                &text::coverage(x),
            );
            output::write(&t, page.as_bytes())?;
        }
        None => {
            crate::term::out_styled(text::lines(&crate::escape::text(header), bytes, x))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::offset;

    #[test]
    fn offsets_are_decimal_or_hex() {
        assert_eq!(offset("0x1A4"), Ok(0x1A4));
        assert_eq!(offset("420"), Ok(420));
        assert!(offset("x").is_err());
    }
}
