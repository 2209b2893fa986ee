//! The properties every layout must have on any input, for fuzz targets and tests.

use crate::context::{Context, Winding};
use crate::layouts::Semantics;

/// Any input the reader of `T` accepts is consumed exactly, written back identically, survives
/// a dump and a build, and decodes (or refuses to) without panicking. Inputs it refuses must
/// carry an error whose offset lies within the input.
pub fn roundtrip<T: Semantics>(data: &[u8]) {
    roundtrip_with::<T>(data, &Context::new().with_winding(Winding::Gl));
}

/// [`roundtrip`] for a layout with parameters the user gives (`--unity-version`): the input's
/// first bytes, one per parameter, choose each parameter's value among `params` (the context
/// name and the values worth trying, which the generator takes from the spec's comparisons), and
/// the rest of the input is the layout's bytes. An input shorter than that is skipped.
pub fn roundtrip_with_params<T: Semantics>(data: &[u8], params: &[(&str, &[i128])]) {
    if data.len() < params.len() {
        return;
    }
    let (choice, rest) = data.split_at(params.len());
    let mut ctx = Context::new().with_winding(Winding::Gl);
    for ((name, values), &c) in params.iter().zip(choice) {
        if let Some(&v) = values.get(usize::from(c) % values.len().max(1)) {
            ctx = ctx.with_param(name, v);
        }
    }
    roundtrip_with::<T>(rest, &ctx);
}

/// [`roundtrip`] with a given context.
pub fn roundtrip_with<T: Semantics>(data: &[u8], ctx: &Context) {
    let v = match T::from_bytes(data, ctx) {
        Ok(v) => v,
        Err(e) => {
            assert!(
                e.offset.is_some_and(|o| o <= data.len() as u64),
                "error offset past the input: {e}"
            );
            return;
        }
    };
    // Stored totals are rewritten from their definition, so only an input whose relations hold
    // is one the strict reader accepts.
    if !v.relations(ctx).is_empty() {
        return;
    }
    let out = v
        .to_bytes(ctx)
        .unwrap_or_else(|e| panic!("accepted input does not write back: {e}"));
    assert_eq!(out, data, "accepted input writes back different bytes");
    let entry = crate::layouts::Entry::of::<T>();
    let dump = entry
        .dump(data, ctx)
        .unwrap_or_else(|e| panic!("accepted input does not dump: {e}"));
    let text = serde_json::to_string(&dump).expect("dumps are JSON");
    let back: serde_json::Value = serde_json::from_str(&text).expect("dump text parses");
    let built = entry
        .build(&back, ctx)
        .unwrap_or_else(|e| panic!("dump does not build: {e}"));
    assert_eq!(built, data, "dump builds different bytes");
    if let Ok(scene) = v.scene(ctx) {
        for m in &scene.meshes {
            m.validate()
                .unwrap_or_else(|e| panic!("decoded mesh is inconsistent: {e}"));
        }
    }
}
