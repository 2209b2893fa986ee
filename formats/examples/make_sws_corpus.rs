//! Writes the larger SWS corpus files (`corpus/sws/built-*`), built by
//! `meshspec_formats::sws::build` from grid patches, and checks that every rule holds on each.
//!
//! `cargo run -p meshspec-formats --example make_sws_corpus` (deterministic output).

use meshspec_formats::context::Context;
use meshspec_formats::rt::Root;
use meshspec_formats::sws::build::{mesh, part, submesh, Rng, SecondPartition, Spec};
use std::path::{Path, PathBuf};

fn write<T: Root>(dir: &Path, name: &str, value: &T) {
    let ctx = Context::new();
    let bytes = value
        .to_bytes(&ctx)
        .expect("the writer accepts the constructed value");
    let back = T::from_bytes(&bytes, &ctx).expect("the written file reads back");
    // Every rule holds: no finding at all, not even a warning.
    let entry = meshspec_formats::find(T::ID).expect("a layout of the table");
    let verdict = entry.judge(&bytes, &ctx);
    let found: Vec<String> = verdict.findings.iter().map(|e| e.to_string()).collect();
    assert!(verdict.passes() && found.is_empty(), "{name}: {found:?}");
    assert_eq!(back.to_bytes(&ctx).unwrap(), bytes, "{name}: round trip");
    std::fs::write(dir.join(name), &bytes).expect("corpus/sws is writable");
    println!("{name}: {} bytes", bytes.len());
}

fn main() {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/sws");
    let mut rng = Rng(0x5EED_0003_5357_5300);
    // Each mesh body built from its spec with the one generator, written and checked.
    let mut built = |name: &str, spec: Spec| write(&dir, name, &mesh(spec, &mut rng).unwrap());

    // Skinned, no SubMeshes: its positions are compiled only. Six bones, three ranges in the
    // first partition and one range over every index in the second.
    built(
        "built-skinned.sws-mesh",
        Spec {
            id: 0x5001,
            parts: vec![
                part(5, 4, [0.0, 0.0], 1, 0, false, 0x0100_0001).unwrap(),
                part(4, 4, [3.0, 0.0], 1, 0, false, 0x0100_0002).unwrap(),
                part(6, 3, [0.0, 3.0], 1, 0, false, 0x0100_0003).unwrap(),
            ],
            keep_submeshes: false,
            bones: 6,
            stride: 32,
            flags: 0x0000_2157,
            second: SecondPartition::One,
        },
    );

    // Three SubMeshes with 0, 1 and 2 morph channels (so two extra streams), one to three UV
    // channels, colours on one; both partitions alike.
    let mut parts = vec![
        part(4, 4, [0.0, 0.0], 1, 0, false, 0x0200_0001).unwrap(),
        part(5, 3, [2.5, 0.0], 2, 1, true, 0x0200_0002).unwrap(),
        part(3, 5, [0.0, 2.5], 3, 2, false, 0x0200_0003).unwrap(),
    ];
    parts[0].words_a = true;
    built(
        "built-three-parts.sws-mesh",
        Spec {
            id: 0x6001,
            parts,
            keep_submeshes: true,
            bones: 2,
            stride: 36,
            flags: 0x0001_0157,
            second: SecondPartition::Same,
        },
    );

    // Five SubMeshes, up to three morph channels (three extra streams), a second partition
    // of two ranges split inside a part.
    let mut parts = vec![
        part(6, 6, [0.0, 0.0], 2, 3, true, 0x0300_0001).unwrap(),
        part(4, 5, [3.0, 0.0], 1, 0, false, 0x0300_0002).unwrap(),
        part(5, 5, [0.0, 3.0], 3, 1, true, 0x0300_0003).unwrap(),
        part(3, 3, [3.0, 3.0], 1, 2, false, 0x0300_0004).unwrap(),
        part(7, 4, [6.0, 0.0], 2, 3, false, 0x0300_0005).unwrap(),
    ];
    parts[1].words_b = true;
    parts[3].words_a = true;
    built(
        "built-five-parts.sws-mesh",
        Spec {
            id: 0x7001,
            parts,
            keep_submeshes: true,
            bones: 4,
            stride: 44,
            flags: 0x0011_0157,
            second: SecondPartition::At(vec![37]),
        },
    );

    // One SubMesh on its own (layout sws-submesh): two UV channels and two morph channels.
    let grid = part(6, 5, [1.0, -1.0], 2, 2, true, 0x0400_0001).unwrap();
    let sm = submesh(&grid, 0x8001, &mut rng);
    write(&dir, "built-grid.sws-submesh", &sm);
}
