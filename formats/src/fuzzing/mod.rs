//! The properties every layout must have on any input, for fuzz targets and tests. They judge
//! bytes through the same verdict as every command.

pub mod edits;
pub mod interp;
#[cfg(feature = "arbitrary")]
#[rustfmt::skip]
pub mod targets;

use crate::context::{Context, Winding};
use crate::layouts::Entry;
use crate::reading::Reading;
use crate::rt::{Root, Severity};
use crate::verdict::Verdict;

fn entry<T: Root>() -> &'static Entry {
    crate::layouts::find(T::ID).expect("every root type is in the table")
}

fn judge<T: Root>(data: &[u8], ctx: &Context) -> Verdict {
    entry::<T>().judge(data, ctx)
}

/// The context a fuzz input is read with: `params` chooses each parameter's value among the
/// values worth trying (the spec's cut-offs and their neighbours) with one leading byte each;
/// the rest is the layout's bytes. `None` for an input shorter than its choices.
pub fn split<'d>(data: &'d [u8], params: &[(&str, &[i128])]) -> Option<(Context, &'d [u8])> {
    if data.len() < params.len() {
        return None;
    }
    let (choice, rest) = data.split_at(params.len());
    let mut ctx = Context::new().with_winding(Winding::Gl);
    for ((name, values), &c) in params.iter().zip(choice) {
        if let Some(&v) = values.get(usize::from(c) % values.len().max(1)) {
            ctx = ctx.with_param(name, v);
        }
    }
    Some((ctx, rest))
}

/// The fast properties, on the one reading of `data`: the verdict never panics and places
/// every error inside the input; an input the reader accepts is consumed exactly, written back
/// identically where no error-level rule is broken (a stored total that disagrees is rewritten
/// from its definition), and the writer records the positions the reader recorded. The
/// reading, for the deep properties.
pub fn fast<'d, T: Root>(data: &'d [u8], ctx: &Context) -> Reading<'d> {
    let r = entry::<T>().read(data, ctx);
    let v = &r.verdict;
    if let Some(e) = &v.refused {
        assert!(
            e.offset.is_some_and(|o| o <= data.len() as u64),
            "error offset past the input: {e}"
        );
        return r;
    }
    for f in &v.findings {
        if let Some(o) = f.offset {
            if f.resource.is_none() {
                assert!(o <= data.len() as u64, "finding offset past the input: {f}");
            }
        }
    }
    if v.findings.iter().any(|f| f.severity == Severity::Error) {
        return r;
    }
    let out = r
        .write_back(ctx)
        .unwrap_or_else(|e| panic!("accepted input: {e}"));
    assert_eq!(out, data, "accepted input writes back different bytes");
    r
}

/// The deep properties, on top of [`fast`] and from the same reading: the dump of an accepted
/// input builds the same bytes with the same verdict, and an input that passes decodes
/// without panicking into a consistent mesh.
pub fn deep<T: Root>(data: &[u8], ctx: &Context) {
    let r = fast::<T>(data, ctx);
    let v = &r.verdict;
    if v.refused.is_some() || v.errors().next().is_some() {
        return;
    }
    let dump = r
        .dump(ctx)
        .unwrap_or_else(|e| panic!("accepted input does not dump: {e}"));
    let text = serde_json::to_string(&dump).expect("dumps are JSON");
    let back: serde_json::Value = serde_json::from_str(&text).expect("dump text parses");
    let built = crate::dump::build::<T>(&back, ctx, judge::<T>)
        .unwrap_or_else(|e| panic!("dump does not build: {e}"));
    assert_eq!(built.bytes, data, "dump builds different bytes");
    assert_eq!(
        built.verdict.passes(),
        v.passes(),
        "the built file's verdict differs"
    );
    assert!(
        built.overrides.is_empty(),
        "an unedited dump overrode {:?}",
        built.overrides
    );
    if v.passes() {
        if let Ok(d) = r.decode(ctx) {
            for m in &d.scene.meshes {
                m.validate()
                    .unwrap_or_else(|e| panic!("decoded mesh is inconsistent: {e}"));
            }
        }
    }
}

/// The writer's half: any value the writer accepts reads back to the same bytes and passes the
/// same verdict as the bytes themselves; a value it refuses is refused with an error that names
/// a field.
pub fn written<T: Root>(value: &T, ctx: &Context) {
    let bytes = match value.to_bytes(ctx) {
        Ok(b) => b,
        Err(e) => {
            assert!(!e.path().is_empty(), "a refusal without a field: {e}");
            return;
        }
    };
    let back = T::from_bytes(&bytes, ctx)
        .unwrap_or_else(|e| panic!("written bytes do not read back: {e}"));
    assert_eq!(
        back.to_bytes(ctx).expect("a value read writes"),
        bytes,
        "written bytes read back to another value"
    );
    let _ = judge::<T>(&bytes, ctx);
}

/// [`fast`] with a fuzz input's parameter choices (see [`split`]).
pub fn fast_with_params<T: Root>(data: &[u8], params: &[(&str, &[i128])]) {
    if let Some((ctx, rest)) = split(data, params) {
        fast::<T>(rest, &ctx);
    }
}

/// [`written`] with the parameter values `choice` selects (one byte choosing among each
/// parameter's values).
pub fn written_with_params<T: Root>(value: &T, choice: u8, params: &[(&str, &[i128])]) {
    let choices = vec![choice; params.len()];
    if let Some((ctx, _)) = split(&choices, params) {
        written::<T>(value, &ctx);
    }
}

/// [`deep`] with a fuzz input's parameter choices (see [`split`]).
pub fn roundtrip_with_params<T: Root>(data: &[u8], params: &[(&str, &[i128])]) {
    if let Some((ctx, rest)) = split(data, params) {
        deep::<T>(rest, &ctx);
    }
}

/// [`deep`] for a layout without parameters.
pub fn roundtrip<T: Root>(data: &[u8]) {
    deep::<T>(data, &Context::new().with_winding(Winding::Gl));
}

/// Every file of an opened bundle is the same bytes however it is brought: a range of it held
/// for streaming and its head (each decompressed on their own from an LZ4 bundle's blocks),
/// the file whole, and the part of the whole data the directory says.
fn same_files_however_brought(b: &crate::unity::files::bundle::Bundle) {
    let files: Vec<(usize, std::ops::Range<usize>)> = b
        .nodes()
        .map(|n| (n.index, n.offset as usize..(n.offset + n.len) as usize))
        .collect();
    let data = b.data().expect("an opened bundle's data decompresses");
    for (i, at) in files {
        let tail = at.len().saturating_sub(16)..at.len();
        let held = b.node_held(i);
        let tail_bytes = held
            .range(tail.clone())
            .expect("a range of a file decompresses");
        let head = b.node_head(i, 20).expect("a file's head decompresses");
        let whole = b.node_bytes(i).expect("a file decompresses");
        assert_eq!(&whole[..], &data[at], "file {i} whole and in the data");
        assert_eq!(&head[..], &whole[..head.len()], "file {i}'s head");
        assert_eq!(&tail_bytes[..], &whole[tail], "file {i}'s last bytes, held");
    }
}

/// The property every input must have as a whole game file (the fuzz target
/// `unity_game_file`): opened, listed, every object read through its type tree, every Mesh
/// checked and decoded; no panic, errors at offsets inside the input, a decoded mesh
/// consistent, and nothing read from disk.
pub fn game_file(data: &[u8]) {
    use crate::unity::files::{game, Limits};
    let limits = Limits { max_data: 64 << 20 };
    let mut file = match game::GameFile::from_bytes(std::path::Path::new("fuzz"), data, &limits) {
        Ok(f) => f,
        Err(e) => {
            if e.place.is_empty() {
                assert!(
                    e.error.offset.is_none_or(|o| o <= data.len() as u64),
                    "error offset past the input: {e}"
                );
            }
            return;
        }
    };
    file.resources_beside = false;
    if let Some(b) = &file.bundle {
        same_files_however_brought(b);
    }
    let g = game::GameFiles::from_files(vec![file]);
    let _ = g.list(None);
    for r in g.objects() {
        let s = g.serialized(r);
        let _ = s.read(g.entry(r));
    }
    for r in g.meshes() {
        let Ok(input) = g.input(r, &Context::new()) else {
            continue;
        };
        let _ = input.judge();
        if let Ok(d) = input.decode() {
            for mesh in &d.scene.meshes {
                mesh.validate()
                    .unwrap_or_else(|e| panic!("decoded mesh is inconsistent: {e}"));
            }
        }
    }
}
