//! Unity game files made from others for tests, through the generated readers and writers:
//! a serialized file or bundle with its version strings replaced (a stripped build's `0.0.0`),
//! and a bundle cut into the loose files of a player build.

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_bundle::UnityBundle;
use meshspec_formats::generated::unity_serialized::UnitySerialized;
use meshspec_formats::rt::{Codec, Output, Root, Spanned};
use meshspec_formats::unity::files::bundle::{self, Bundle};
use meshspec_formats::unity::files::{serialized, Limits};
use std::path::{Path, PathBuf};

/// A serialized file with its version string `version`: the metadata's length, the first
/// object entry's alignment pad and the data's offset follow the text (the data moves on by
/// 16 when the metadata outgrows the padding before it), everything else as it was.
pub fn with_version(bytes: &[u8], version: &str) -> Vec<u8> {
    let ctx = Context::new();
    let mut s = UnitySerialized::from_bytes(bytes, &ctx).expect("a serialized file");
    let m = s
        .metadata
        .as_mut()
        .expect("a serialized file of format 9 or later");
    let old_version = m.unity_version.replace(version.into()).unwrap_or_default();
    let delta = version.len() as i64 - old_version.len() as i64;
    // The entries after the first stay aligned: each takes a multiple of 4 bytes.
    let mut grow = delta;
    if let Some(pad) = m.objects.first_mut().and_then(|o| o.pad.as_mut()) {
        let old = pad.len() as i64;
        let new = (old - delta).rem_euclid(4);
        *pad = vec![0; new as usize];
        grow += new - old;
    }
    let pad_data = s.pad_data.as_mut().expect("format 9 or later");
    let mut room = pad_data.len() as i64 - grow;
    let mut moved = 0i64;
    while room < 0 {
        room += 16;
        moved += 16;
    }
    *pad_data = vec![0; room as usize];
    let add = |v: u64, d: i64| (v as i64 + d) as u64;
    match &mut s.header.wide {
        Some(w) => {
            w.len_metadata = add(u64::from(w.len_metadata), grow) as u32;
            w.ofs_data = add(w.ofs_data, moved);
            w.len_file = add(w.len_file, moved);
        }
        None => {
            let h = &mut s.header;
            h.len_metadata = add(u64::from(h.len_metadata), grow) as u32;
            h.ofs_data = add(u64::from(h.ofs_data), moved) as u32;
            h.len_file = add(u64::from(h.len_file), moved) as u32;
        }
    }
    s.to_bytes(&ctx).expect("the serialized file writes")
}

/// A bundle whose serialized files and header revision say `version`: the files rewritten
/// by [`with_version`] and written back by the bundle writer `unity replace` uses, then the
/// header's revision replaced (its padding and the file size following).
pub fn bundle_with_version(bytes: &[u8], version: &str) -> Vec<u8> {
    let ctx = Context::new();
    let b = Bundle::open(bytes, &Limits::default()).expect("a bundle");
    let files: Vec<(usize, Vec<u8>)> = b
        .nodes()
        .map(|n| b.node_bytes(n.index).expect("the file decompresses"))
        .enumerate()
        .filter(|(_, bytes)| serialized::looks_serialized(bytes))
        .map(|(i, bytes)| (i, with_version(&bytes, version)))
        .collect();
    let (out, _) = bundle::write(bytes, &b, &files).expect("the bundle writes back");
    let mut u = UnityBundle::from_bytes(&out, &ctx).expect("the bundle reads back");
    u.header.unity_revision = version.into();
    if let Some(pad) = &mut u.pad_header {
        let mut o = Output::default();
        let at = u
            .header
            .write_out::<true>(&mut o, ())
            .expect("the header writes");
        let len = at.map_or(0, |p| p.span().len());
        *pad = vec![0; ((16 - len % 16) % 16) as usize];
    }
    let first = u.to_bytes(&ctx).expect("the bundle writes");
    u.header.len_file = first.len() as i64;
    u.to_bytes(&ctx).expect("the bundle writes")
}

/// The files of a bundle laid out loose under `dir`, as a player build lays them out
/// (`level0`, `sharedassets0.assets`, `Resources/unity_builtin_extra`, `.resS` beside): every
/// file's path in the bundle's directory, its bytes as the bundle holds them. The paths
/// written, in directory order.
pub fn cut(bytes: &[u8], dir: &Path) -> Vec<PathBuf> {
    let b = Bundle::open(bytes, &Limits::default()).expect("a bundle");
    let mut out = vec![];
    for n in b.nodes() {
        let p = dir.join(n.path);
        std::fs::create_dir_all(p.parent().expect("inside dir")).unwrap();
        let bytes = b.node_bytes(n.index).expect("the file decompresses");
        std::fs::write(&p, &*bytes).unwrap();
        out.push(p);
    }
    out
}
