//! The mutation sweep as an ordinary test: every prefix and every single-byte change (to 0x00,
//! 0xFF, and one bit flipped) of a small corpus file of each layout goes through the one verdict,
//! build and export. Never a panic; an input the reader accepts is consumed exactly and written
//! back identically; its dump builds the same bytes with the same verdict; one that passes
//! exports to a .glb the exporter's own glTF checks accept.

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::rt::Root;
use meshspec_formats::{export, find, fuzzing};
use meshspec_tests::samples;

/// Every mutant of `bytes`: each prefix, and each byte set to 0, to 0xFF and with its low bit
/// flipped.
fn mutants(bytes: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let prefixes = (0..bytes.len()).map(|n| bytes[..n].to_vec());
    let changes = (0..bytes.len()).flat_map(move |i| {
        [0x00, 0xFF, bytes[i] ^ 1]
            .into_iter()
            .filter(move |&b| b != bytes[i])
            .map(move |b| {
                let mut m = bytes.to_vec();
                m[i] = b;
                m
            })
    });
    prefixes.chain(changes)
}

fn sweep<T: Root>(max_len: usize) -> usize {
    let ctx = Context::new().with_winding(Winding::Gl);
    let entry = find(T::ID).unwrap();
    let mut n = 0;
    for s in samples().iter().filter(|s| !s.bad && s.layout == T::ID) {
        let bytes = std::fs::read(&s.path).unwrap();
        if bytes.len() > max_len {
            continue;
        }
        for m in mutants(&bytes) {
            fuzzing::deep::<T>(&m, &ctx);
            if entry.judge(&m, &ctx).passes() {
                if let Ok(scene) = entry.scene(&m, &ctx) {
                    if let Err(e) = export::glb(scene.clone(), export::NonFinite::Zero) {
                        panic!(
                            "{}: a mutant that passes does not export: {e}",
                            s.path.display()
                        );
                    }
                }
            }
            n += 1;
        }
    }
    n
}

#[test]
fn meshbin_mutants() {
    assert!(sweep::<meshspec_formats::generated::meshbin::Meshbin>(512) > 300);
}

#[test]
fn sws_mutants() {
    use meshspec_formats::generated::sws_mesh::*;
    let n = sweep::<SwsMesh>(700)
        + sweep::<Submesh>(700)
        + sweep::<CompiledMesh>(700)
        + sweep::<MeshBone>(700)
        + sweep::<UvChannel>(700)
        + sweep::<MorphChannel>(700);
    assert!(n > 3000, "{n}");
}

// RR's mutants go through the same properties and its topology decoder in tests/rr.rs.
