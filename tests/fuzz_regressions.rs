//! Every input a fuzz campaign found (`tests/regressions/fuzz/TARGET/NAME`), replayed through
//! the function its target calls (`meshspec_formats::fuzzing::targets::TARGETS`), exactly as the
//! target runs it: a panic is a failure. `tests/regressions/README.md` says what each one was.

use meshspec_formats::fuzzing::targets::TARGETS;

#[test]
fn every_input_a_campaign_found_passes_its_target() {
    let dir = meshspec_tests::root().join("tests/regressions/fuzz");
    let mut replayed = 0;
    for target in meshspec_tests::sorted_paths(&dir, |_| true) {
        let name = target.file_name().unwrap().to_string_lossy().into_owned();
        let run = TARGETS
            .iter()
            .find(|(t, _)| *t == name)
            .unwrap_or_else(|| panic!("{name}: not a fuzz target"))
            .1;
        for input in meshspec_tests::sorted_paths(&target, |_| true) {
            let data = std::fs::read(&input).unwrap();
            run(&data);
            replayed += 1;
        }
    }
    assert!(replayed >= 3, "{replayed} inputs replayed");
}

/// The writer's half on what the first `sws_compiled_mesh_written` finding held: one vertex
/// stream of 0 bytes with nothing after it. The reader bounds a list by the bytes left (every
/// element takes at least one byte there, so no count of empty elements allocates unchecked);
/// the writer accepted the value, so its bytes did not read back. Now the writer refuses it,
/// at the field the reader names.
#[test]
fn the_writer_refuses_what_its_reader_would_not_read() {
    use meshspec_formats::generated::sws_mesh::CompiledMesh;
    use meshspec_formats::rt::Root;
    // The value the campaign's input made, as JSON: how `arbitrary` maps bytes to values
    // changes with the generated types (fields the spec fixes have their own makers since),
    // so the input file alone no longer makes it.
    let text = std::fs::read_to_string(
        meshspec_tests::root()
            .join("tests/regressions/written/sws_compiled_mesh-empty-stream-at-end.json"),
    )
    .unwrap();
    let value: CompiledMesh = serde_json::from_str(&text).expect("the campaign's value");
    let e = value
        .to_bytes(&meshspec_formats::Context::new())
        .expect_err("refused");
    assert_eq!(e.path_string(), "compiled_mesh.vertex_streams", "{e}");
    assert!(
        e.expected
            .starts_with("in the bytes the writer would write"),
        "{e}"
    );
}

/// The structure-aware targets make a field whose size or count the spec fixes at exactly that
/// size (a derived `Vec` has any length, which the writer refuses, so values rarely got past
/// it): RR's eight-byte `unknown_0x8`, 81-byte bones and 41 bytes after them, from any input.
#[test]
fn arbitrary_values_have_the_sizes_the_spec_fixes() {
    use meshspec_formats::generated::rr_mesh::RrMesh;
    let meshes = made::<RrMesh>(200, 600);
    for v in &meshes {
        assert_eq!(v.unknown_0x8.len(), 8);
        assert_eq!(v.unknown_after_bones.len(), 41);
        assert!(v.bones.iter().all(|b| b.len() == 81), "{:?}", v.bones);
    }
    let with_bones = meshes.iter().filter(|v| !v.bones.is_empty()).count();
    assert!(
        meshes.len() > 100 && with_bones > 10,
        "{} values, {with_bones} with bones",
        meshes.len()
    );
}

/// What the makers are for: a UV channel's class must equal the spec's constant, and before
/// the makers not one value `arbitrary` made from the `_written` campaign's corpus got past
/// it. Now most values from any bytes reach the writer's acceptance, and some are still
/// refused there (the other value the maker gives one time in eight).
#[test]
fn most_arbitrary_uv_channels_are_written() {
    use meshspec_formats::generated::sws_mesh::UvChannel;
    use meshspec_formats::rt::Root;
    let channels = made::<UvChannel>(400, 300);
    let ctx = meshspec_formats::Context::new();
    let written = channels.iter().filter(|v| v.to_bytes(&ctx).is_ok()).count();
    let n = channels.len();
    assert!(n > 300, "{n} values");
    assert!(written * 2 > n && written < n, "{written} of {n} written");
}

/// The values a field may take, from the spec: a switch's selector is one of its cases, a
/// field the spec bounds lies within the bounds, an alignment pad is shorter than the
/// alignment, mostly (the other values are still made, for the writer's refusals). With them
/// some whole RR meshes get past the writer and read back, where none did before.
#[test]
fn arbitrary_values_take_the_values_the_spec_allows() {
    use meshspec_formats::generated::rr_mesh::{LayoutSelector, RrMesh};
    use meshspec_formats::generated::unity_mesh::UnityMesh;
    use meshspec_formats::generated::unity_serialized::UnitySerialized;
    use meshspec_formats::rt::Root;
    let ctx = meshspec_formats::Context::new();
    let meshes = made::<RrMesh>(1000, 3000);
    let cased = meshes
        .iter()
        .filter(|v| {
            let s = v.compiled.layout_selector;
            s == LayoutSelector::RANGED || s == LayoutSelector::INLINE
        })
        .count();
    let n = meshes.len();
    assert!(n > 800 && cased * 4 > n * 3 && cased < n, "{cased} of {n}");
    let mut written = 0;
    for bytes in meshes.iter().filter_map(|v| v.to_bytes(&ctx).ok()) {
        // Counts and sizes are recomputed on writing, so compare what is written again.
        let back = RrMesh::from_bytes(&bytes, &ctx).unwrap();
        assert_eq!(back.to_bytes(&ctx).unwrap(), bytes);
        written += 1;
    }
    assert!(written > 0, "no arbitrary RR mesh was written");

    let files = made::<UnitySerialized>(400, 3000);
    let bounded = files
        .iter()
        .filter(|v| {
            (5..=22).contains(&v.header.version) && v.header.endianness.is_none_or(|e| e <= 1)
        })
        .count();
    let n = files.len();
    assert!(
        n > 300 && bounded * 2 > n && bounded < n,
        "{bounded} of {n}"
    );

    let meshes = made::<UnityMesh>(400, 3000);
    assert!(meshes.len() > 300, "{} values", meshes.len());
    for v in meshes {
        assert!(v.name.pad.len() < 4, "{:?}", v.name.pad);
    }
}

/// The values `arbitrary` makes of `len` random bytes from each of `seeds` seeds.
fn made<T: for<'a> arbitrary::Arbitrary<'a>>(seeds: u32, len: u32) -> Vec<T> {
    (0..seeds)
        .filter_map(|seed| {
            let data = scrambled(seed, len);
            T::arbitrary_take_rest(arbitrary::Unstructured::new(&data)).ok()
        })
        .collect()
}

/// `len` bytes that look random, different for every seed (the tests above make values from
/// them the way a fuzzer's inputs would).
fn scrambled(seed: u32, len: u32) -> Vec<u8> {
    let mut rng =
        meshspec_formats::sws::build::Rng(u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    rng.bytes(len as usize)
}
