//! UnityWeb and UnityRaw bundles (`spec/unity_web.ksy`, `unity::files::web`): opened into the
//! same `Bundle` as UnityFS, so every command reads them.
//!
//! The project's own samples (`corpus/unity/web.unity-web`, `raw.unity-web`, both holding
//! `game.unity-serialized` and its `.resS`) always; the real Web Player file of the shared
//! corpus (`gimballock/Web Player.unity3d`, Unity 4.1.2) whenever it is there, listed and
//! extracted as UnityPy 1.25.4 lists and extracts it (when UnityPy is installed).

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_web::{Payload, UnityWeb};
use meshspec_formats::rt::{ErrorKind, Root, Severity};
use meshspec_formats::unity::files::bundle::{self, Bundle};
use meshspec_formats::unity::files::game::{GameFile, GameFiles, Select};
use meshspec_formats::unity::files::{Limits, Located};
use meshspec_formats::verdict::Verdict;
use meshspec_tests::{sha256_hex, unity_corpus as corpus, unity_corpus_bytes as read, verdict};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn limits(bytes: &[u8]) -> Limits {
    Limits::for_input(bytes.len() as u64)
}

/// Every finding of a verdict, as `check` prints it.
fn lines(v: &Verdict) -> Vec<String> {
    v.refused
        .iter()
        .map(|e| e.to_string())
        .chain(v.findings.iter().map(|e| format!("{}: {e}", e.severity)))
        .collect()
}

/// The ids of the relations a verdict's findings break.
fn rule_ids(v: &Verdict) -> Vec<&'static str> {
    v.findings
        .iter()
        .filter_map(|f| f.rule.map(|r| r.id))
        .collect()
}

fn open_err(bytes: &[u8]) -> Located {
    GameFile::from_bytes(Path::new("x"), bytes, &limits(bytes)).unwrap_err()
}

fn owned(bytes: &[u8]) -> UnityWeb {
    UnityWeb::from_bytes(bytes, &Context::new()).unwrap()
}

fn written(w: &UnityWeb) -> Vec<u8> {
    w.to_bytes(&Context::new()).unwrap()
}

#[test]
fn the_samples_hold_the_serialized_file_and_its_resource() {
    let game = read("game.unity-serialized");
    let res = read("game.unity-serialized.resS");
    for (name, compressed, format) in [("web.unity-web", true, 3), ("raw.unity-web", false, 4)] {
        let bytes = read(name);
        assert!(bundle::is_bundle(&bytes), "{name}");
        assert_eq!(bundle::layout_of(&bytes), Some("unity-web"), "{name}");
        let b = Bundle::open(&bytes, &limits(&bytes)).unwrap();
        assert_eq!(b.layout(), "unity-web");
        assert!(b.warnings.is_empty(), "{name}: {:?}", b.warnings);
        let w = b.web().expect("a UnityWeb or UnityRaw bundle");
        assert_eq!(w.header.compressed(), compressed, "{name}");
        assert_eq!(w.header.version, format, "{name}");
        assert_eq!(b.revision(), "2022.3.10f1");
        let nodes: Vec<(&str, Vec<u8>)> = b
            .nodes()
            .map(|n| (n.path, b.node_bytes(n.index).unwrap().to_vec()))
            .collect();
        assert_eq!(
            nodes,
            [
                ("game.unity-serialized", game.to_vec()),
                ("game.unity-serialized.resS", res.to_vec())
            ],
            "{name}"
        );
        assert!(lines(&verdict("unity-web", &bytes)).is_empty(), "{name}");
        // Opened as a game file, it lists what the serialized file lists, and every mesh
        // decodes (Blade streaming from the bundle's resource file).
        let g = GameFiles::open(&[corpus(name)]).unwrap();
        let plain = GameFiles::open(&[corpus("game.unity-serialized")]).unwrap();
        let strip = |g: &GameFiles| -> Vec<(i64, i32, Option<String>, u32)> {
            g.list(None)
                .into_iter()
                .map(|l| (l.path_id, l.class_id, l.name, l.byte_size))
                .collect()
        };
        assert_eq!(strip(&g), strip(&plain), "{name}");
        assert_eq!(g.meshes().len(), 5);
        for r in g.meshes() {
            let i = g.input(r, &Context::new()).unwrap();
            let d = i.decode().unwrap();
            assert!(d.verdict.passes(), "{name} {}", i.mesh.name());
        }
        let blade = g.select(&Select::MeshName("Blade".into()));
        let m = g.mesh(blade[0]).unwrap();
        let range = m.stream().unwrap();
        let s = g.streamed(&m, None).unwrap().unwrap();
        assert_eq!(
            &s[..],
            &res[range.offset as usize..(range.offset + range.size) as usize]
        );
        // The generated writer writes the file back byte for byte.
        assert_eq!(written(&owned(&bytes)), bytes, "{name}");
    }
    // The payload sample is the UnityWeb bundle's payload, decompressed.
    let b = Bundle::open(&read("web.unity-web"), &Limits::default()).unwrap();
    assert_eq!(&b.data().unwrap()[..], &read("web.unity-web-payload")[..]);
    let p = Payload::from_bytes(&b.data().unwrap(), &Context::new()).unwrap();
    assert_eq!(p.files.len(), 2);
    assert_eq!(p.pad_directory.len(), 3, "a 69-byte directory padded to 72");
}

#[test]
fn the_bad_samples_are_refused_where_they_break() {
    for (name, want) in [
        (
            "bad/truncated-header.unity-web",
            "x: 0x2F unity_web.header.levels: expected at most 0 elements (1 byte left, 8 bytes each at least), found 1 elements",
        ),
        (
            "bad/file-past-data.unity-web",
            "x/(payload, decompressed): 0x3D payload.files[1].ofs_data: expected a range after the directory's 69 bytes, inside the 16836 bytes of the payload, found offset 16708 and size 4224",
        ),
        (
            "bad/huge-level.unity-web",
            "x: 0x33 unity_web.header.levels[0].len_uncompressed: expected at most 67108864 decompressed bytes (the reader's limit), found 4294967040 bytes",
        ),
    ] {
        let e = open_err(&read(name));
        assert_eq!(e.to_string(), want, "{name}");
        assert!(
            e.error.offset.is_some_and(|o| o < read(name).len() as u64),
            "{name}"
        );
    }
    // The relation behind the directory entry past the data, at its observed severity, said
    // at the payload with the place inside it.
    let v = verdict("unity-web", &read("bad/file-past-data.unity-web"));
    let rel = v
        .findings
        .iter()
        .find(|f| f.kind == ErrorKind::Relation)
        .unwrap();
    assert_eq!(rel.severity, Severity::Warning);
    assert_eq!(rel.rule.unwrap().id, "files_inside_data");
    assert!(!v.passes(), "the file cannot be cut: a decoder error too");
}

/// `web.unity-web` with its owned value edited by `f` and written again.
fn web_with(f: impl FnOnce(&mut UnityWeb)) -> Vec<u8> {
    let mut w = owned(&read("web.unity-web"));
    f(&mut w);
    written(&w)
}

#[test]
fn the_lzma_size_may_be_unknown_but_not_wrong() {
    let good = Bundle::open(&read("web.unity-web"), &Limits::default()).unwrap();
    // -1: the size the level gives is used.
    let unknown = web_with(|w| w.payload[5..13].fill(0xFF));
    let b = Bundle::open(&unknown, &limits(&unknown)).unwrap();
    assert_eq!(&b.data().unwrap()[..], &good.data().unwrap()[..]);
    // Another size: refused at the size field, the relation and the decoder's error both.
    let wrong = web_with(|w| w.payload[5] ^= 1);
    let e = open_err(&wrong);
    assert_eq!(
        e.to_string(),
        "x: 0x45 unity_web.payload: expected an .lzma header whose size is 16836 (the declared size) or -1, found 16837"
    );
    let v = verdict("unity-web", &wrong);
    let rules = rule_ids(&v);
    assert_eq!(rules, ["payload_decompresses"]);
    // A size the level does not match, the stream being right: the stream decides nothing.
    let short = web_with(|w| w.header.levels[0].len_uncompressed -= 1);
    assert!(open_err(&short).to_string().contains("16835"), "{short:?}");
}

#[test]
fn the_levels_and_the_payload_must_agree() {
    // No level: nothing sizes the payload.
    let none = web_with(|w| {
        w.header.levels.clear();
        w.header.num_levels = 0;
        w.header.len_header -= 8;
        w.header.len_file = w.header.len_file.map(|l| l - 8);
        w.header.minimum_streamed_bytes -= 8;
    });
    assert_eq!(
        open_err(&none).to_string(),
        "x: 0x2B unity_web.header.num_levels: expected at least one level (the last one sizes the payload), found none"
    );
    // A level before the last that is larger: a warning; the last one still reads.
    let two = web_with(|w| {
        let mut first = w.header.levels[0].clone();
        first.len_uncompressed += 1;
        w.header.levels.insert(0, first);
        w.header.num_levels = 2;
        w.header.len_header += 8;
        w.header.len_file = w.header.len_file.map(|l| l + 8);
        w.header.minimum_streamed_bytes += 8;
    });
    let v = verdict("unity-web", &two);
    assert!(v.passes(), "{:?}", lines(&v));
    assert_eq!(
        lines(&v),
        ["warning: 0x37 unity_web.header.levels[1]: expected sizes of at least those of level 0 (2576 and 16837 bytes) (relation `levels_grow`), found 2576 and 16836 bytes"]
    );
    // Bytes after the payload: kept, and a warning.
    let long = web_with(|w| w.payload.extend_from_slice(&[0; 7]));
    let v = verdict("unity-web", &long);
    assert!(v.passes());
    let rules = rule_ids(&v);
    assert_eq!(rules, ["len_file_is_file_size", "payload_is_last_level"]);
    assert_eq!(written(&owned(&long)), long);
    // Fewer bytes than the level says: the payload cannot be read.
    let cut = read("web.unity-web");
    let e = open_err(&cut[..cut.len() - 1]);
    assert_eq!(
        e.to_string(),
        "x: 0x40 unity_web.payload: expected the last level's 2576 bytes after the header, found 2575 bytes"
    );
    // A header size that is not the fields rounded up to 4: the payload is still read from
    // it (as UnityPy does), and a warning says so.
    let padded = web_with(|w| {
        w.header.len_header += 4;
        w.pad_header.extend_from_slice(&[0; 4]);
        w.header.len_file = w.header.len_file.map(|l| l + 4);
        w.header.minimum_streamed_bytes += 4;
    });
    let v = verdict("unity-web", &padded);
    assert!(v.passes());
    assert_eq!(
        lines(&v),
        ["warning: 0x23 unity_web.header.len_header: expected 64 (the header's 63 bytes of fields, rounded up to a multiple of 4) (relation `header_padded_to_4`), found 68"]
    );
}

#[test]
fn format_6_and_other_signatures_are_not_this_layout() {
    // Format 6 UnityWeb has the UnityFS layout after the versions.
    // (The writer refuses the value too, so the bytes are edited.)
    assert!(owned(&read("web.unity-web"))
        .to_bytes(&Context::new())
        .is_ok());
    let mut w = owned(&read("web.unity-web"));
    w.header.version = 6;
    assert!(w.to_bytes(&Context::new()).is_err());
    let mut six = read("web.unity-web");
    six[9..13].copy_from_slice(&6u32.to_be_bytes());
    assert_eq!(
        open_err(&six).to_string(),
        "x: 0x9 unity_web.header.version: expected >= 1 and <= 5, found 6"
    );
    // UnityArchive is no bundle meshspec reads: not a game file at all.
    let mut archive = read("web.unity-web");
    archive[5..9].copy_from_slice(b"Arch");
    assert!(!bundle::is_bundle(&archive));
    let e = open_err(&archive);
    assert_eq!(e.error.kind, ErrorKind::Magic);
    assert!(e.error.expected.contains("UnityWeb or UnityRaw"), "{e}");
}

#[test]
fn truncations_of_the_samples_are_refused_with_an_offset_inside() {
    for name in ["web.unity-web", "raw.unity-web"] {
        let bytes = read(name);
        let step = (bytes.len() / 300).max(1);
        for n in (0..bytes.len()).step_by(step) {
            let cut = &bytes[..n];
            match GameFile::from_bytes(Path::new("x"), cut, &limits(cut)) {
                Ok(_) => panic!("{name} cut to {n} bytes opened"),
                Err(e) => {
                    if e.place == "x" {
                        assert!(
                            e.error.offset.is_none_or(|o| o <= n as u64),
                            "{name} cut to {n}: {e}"
                        );
                    }
                }
            }
        }
    }
}

// ---- The real Web Player file ----

/// The real file, or one loud line saying what is not checked.
fn web_player() -> Option<PathBuf> {
    let p =
        meshspec_tests::shared_or_skip("the real UnityWeb file (gimballock/Web Player.unity3d)")?
            .join("corpus/unity-real/gimballock/Web Player.unity3d");
    if p.is_file() {
        return Some(p);
    }
    eprintln!(
        "SKIPPED: {} is missing: the real UnityWeb file is NOT checked",
        p.display()
    );
    None
}

#[test]
fn shared_the_web_player_file_opens_and_writes_back() {
    let Some(path) = web_player() else { return };
    let bytes = std::fs::read(&path).unwrap();
    // Read and written back byte for byte by the spec; no rule, checked or not, says
    // anything.
    assert_eq!(written(&owned(&bytes)), bytes);
    let v = verdict("unity-web", &bytes);
    assert!(lines(&v).is_empty(), "{:?}", lines(&v));
    let b = Bundle::open(&bytes, &limits(&bytes)).unwrap();
    let w = b.web().unwrap();
    assert!(w.header.compressed());
    assert_eq!(
        (w.header.version, w.header.unity_revision.as_str()),
        (3, "4.1.2f1")
    );
    assert_eq!(w.header.len_header, 60);
    assert_eq!(b.data().unwrap().len(), 259_988);
    let names: Vec<&str> = b.nodes().map(|n| n.path).collect();
    assert_eq!(
        names,
        [
            "Assembly-UnityScript-firstpass.dll",
            "Assembly-CSharp.dll",
            "sharedassets0.assets",
            "mainData"
        ]
    );
    // Its payload, as the second layout: read, judged clean and written back.
    let p = Payload::from_bytes(&b.data().unwrap(), &Context::new()).unwrap();
    assert_eq!(p.to_bytes(&Context::new()).unwrap(), &b.data().unwrap()[..]);
    assert!(lines(&verdict("unity-web-payload", &b.data().unwrap())).is_empty());
    // Two serialized files of format 9, with type trees.
    let g = GameFiles::open(&[path]).unwrap();
    let f = &g.files[0];
    let inner: Vec<&str> = f.serialized.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(inner, ["sharedassets0.assets", "mainData"]);
    // With nothing replaced, writing it back gives the input.
    let (out, rep) = bundle::write(&bytes, &b, &[]).unwrap();
    assert_eq!(out, bytes);
    assert!(rep.info_kept);
}

/// One object as UnityPy lists it: serialized file, path id, class id, name, SHA-256 of its
/// bytes.
type Row = (String, i64, i64, String, String);

/// UnityPy's listing of `path`, or `None` (and one loud line) when UnityPy is not installed.
fn unitypy_rows(path: &Path) -> BTreeSet<Row> {
    let script = r#"
import sys, hashlib, json, UnityPy
env = UnityPy.load(sys.argv[1])
rows = []
for f in env.files.values():
    for name, inner in f.files.items():
        for pid, o in getattr(inner, "objects", {}).items():
            try:
                n = o.peek_name() or ""
            except Exception:
                n = ""
            rows.append([name, pid, o.class_id, n, hashlib.sha256(o.get_raw_data()).hexdigest()])
print(json.dumps(rows))
"#;
    let out = meshspec_tests::tools::unitypy()
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "UnityPy: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<(String, i64, i64, String, String)> =
        serde_json::from_slice(&out.stdout).unwrap();
    rows.into_iter().collect()
}

#[test]
fn shared_the_web_player_file_lists_and_extracts_as_unitypy_does() {
    let Some(path) = web_player() else { return };
    let g = GameFiles::open(std::slice::from_ref(&path)).unwrap();
    let ours: BTreeSet<Row> = g
        .objects()
        .into_iter()
        .map(|r| {
            (
                g.files[0].serialized[r.inner].name.clone(),
                g.entry(r).path_id,
                i64::from(g.entry(r).class_id),
                g.name(r).unwrap_or_default(),
                sha256_hex(g.bytes(r)),
            )
        })
        .collect();
    assert_eq!(ours.len(), 284);
    // The classes the file holds, by the names `unity list` gives them.
    let listed = g.list(None);
    let meshes: Vec<(i64, Option<&str>)> = listed
        .iter()
        .filter(|l| l.class == "Mesh")
        .map(|l| (l.path_id, l.name.as_deref()))
        .collect();
    assert_eq!(
        meshes,
        [(12, Some("Cone")), (13, Some("Torus")), (14, Some("Ring"))]
    );
    let theirs = unitypy_rows(&path);
    assert_eq!(ours, theirs);
}
