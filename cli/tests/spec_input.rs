//! A spec is an input: a `.ksy` written outside the project (a format the project has never
//! had, in Kaitai's own style) is checked, dumped, rebuilt, explained and surveyed with no
//! rebuild, wherever a command takes a LAYOUT; a bad spec gets one line with its file, line and
//! column; a spec that is one of the project's own, byte for byte, is read by its generated
//! code and its family's meaning.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// A chunked container, in Kaitai's style: a magic, a version it checks, a count, chunks of a
/// tag and a sized body, and a relation stated as an expression.
const CHUNKY: &str = r#"meta:
  id: chunky
  title: A chunked container
  file-extension: chunky
  license: CC0-1.0
  endian: le
doc: Chunks after a small header.
-relations:
  - id: few_chunks
    doc: A file holds at most 4 chunks.
    -confidence: observed
    -at: num_chunks
    -check: num_chunks <= 4
seq:
  - id: magic
    contents: CHNK
  - id: version
    type: u2
    valid:
      any-of: [1, 2]
  - id: num_chunks
    type: u2
  - id: chunks
    type: chunk
    repeat: expr
    repeat-expr: num_chunks
types:
  chunk:
    seq:
      - id: tag
        type: str
        size: 4
        encoding: ASCII
      - id: len_body
        type: u4
      - id: body
        size: len_body
"#;

/// A file of `chunks` (tag, body), version 1.
fn chunky(chunks: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = b"CHNK".to_vec();
    b.extend(1u16.to_le_bytes());
    b.extend((chunks.len() as u16).to_le_bytes());
    for (tag, body) in chunks {
        b.extend(tag.as_bytes());
        b.extend((body.len() as u32).to_le_bytes());
        b.extend(*body);
    }
    b
}

/// The spec and two files in a folder of the test's own: (spec path, folder).
fn setup(test: &str) -> (String, PathBuf) {
    let d = scratch_dir(test);
    let spec = d.join("chunky.ksy");
    std::fs::write(&spec, CHUNKY).unwrap();
    let files = d.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("a.chunky"),
        chunky(&[("HEAD", b"abc"), ("DATA", b"0123456789")]),
    )
    .unwrap();
    std::fs::write(files.join("b.chunky"), chunky(&[("HEAD", b"")])).unwrap();
    (spec.to_str().unwrap().to_string(), files)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_spec_from_outside_checks_dumps_builds_and_explains_its_files() {
    let (spec, files) = setup("spec-outside");
    let a = files.join("a.chunky");
    let out = exits(&["check", &spec, s(&a)], 0);
    assert_eq!(text(&out.stdout), format!("{}: ok\n", s(&a)));
    // `layouts SPEC` lists the types, each a LAYOUT.
    let out = exits(&["layouts", &spec], 0);
    let t = text(&out.stdout);
    assert!(
        t.starts_with(&format!("{spec}        A chunked container\n")),
        "{t}"
    );
    has(&t, &format!("{spec}#chunk  "));
    // Dump, then build: the same bytes.
    let dumped = scratch("spec-outside/a.json");
    let out = exits(&["dump", &spec, s(&a)], 0);
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["data"]["chunks"][1]["tag"], "DATA");
    assert_eq!(d["data"]["chunks"][1]["body"], "30313233343536373839");
    std::fs::write(&dumped, &out.stdout).unwrap();
    let built = scratch("spec-outside/a.built");
    exits(&["build", &spec, s(&dumped), "-o", s(&built)], 0);
    assert!(same_bytes(&built, &a));
    // An edited dump: the count and the size are recomputed.
    let mut d = d;
    d["data"]["chunks"][0]["body"] = "ffff".into();
    d["data"]["chunks"].as_array_mut().unwrap().pop();
    std::fs::write(&dumped, serde_json::to_vec(&d).unwrap()).unwrap();
    exits(&["build", &spec, s(&dumped), "-o", s(&built), "-q"], 0);
    assert_eq!(
        std::fs::read(&built).unwrap(),
        chunky(&[("HEAD", &[0xff, 0xff])])
    );
    // One chunk of a type alone, by SPEC#TYPE.
    std::fs::write(&built, &std::fs::read(&a).unwrap()[8..19]).unwrap();
    exits(&["check", &format!("{spec}#chunk"), s(&built)], 0);
    // explain attributes every byte.
    let page = scratch("spec-outside/a.html");
    exits(&["explain", &spec, s(&a), "--html", s(&page)], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    has(&html, "Every byte belongs to a field (37 bytes).");
    let out = exits(&["explain", &spec, s(&a), "--at", "0x18"], 0);
    let t = text(&out.stdout);
    let row = t
        .lines()
        .find(|l| l.starts_with("> 0x17"))
        .unwrap_or_default();
    assert!(row.contains("len_body") && row.contains("u4"), "{t}");
}

#[test]
fn a_spec_from_outside_refuses_broken_files_at_their_offset_and_field() {
    let (spec, files) = setup("spec-refuses");
    let bytes = std::fs::read(files.join("a.chunky")).unwrap();
    // Truncated in the second chunk's body.
    let cut = files.join("cut.chunky");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let out = exits(&["check", &spec, s(&cut)], 1);
    has(
        &text(&out.stdout),
        "0x1B chunky.chunks[1].body: expected bytes (10 bytes), found end of input after 7 bytes",
    );
    // A version the spec does not take, and a relation stated as an expression.
    let mut bad = bytes.clone();
    bad[4] = 7;
    std::fs::write(&cut, &bad).unwrap();
    let out = exits(&["check", &spec, s(&cut)], 1);
    has(
        &text(&out.stdout),
        "0x4 chunky.version: expected one of 1, 2, found 7",
    );
    let many: Vec<(&str, &[u8])> = vec![("X   ", b""); 5];
    std::fs::write(&cut, chunky(&many)).unwrap();
    let out = exits(&["check", &spec, s(&cut)], 0);
    has(
        &text(&out.stdout),
        "warning: 0x6 chunky.num_chunks: expected num_chunks <= 4 (relation `few_chunks`), found 5",
    );
    exits(&["check", &spec, s(&cut), "--strict"], 1);
}

#[test]
fn a_survey_with_a_spec_tallies_its_fields_over_a_folder() {
    let (spec, files) = setup("spec-survey");
    let out = exits(&["survey", "--layout", &spec, s(&files), "--json"], 0);
    let r = json_of(&out);
    let l = layout(&r, "chunky");
    assert_eq!(l["tried"], 2);
    assert_eq!(l["passed"], 2);
}

#[test]
fn a_bad_spec_is_one_line_with_its_file_line_and_column() {
    let d = scratch_dir("spec-bad");
    let spec = d.join("chunky.ksy");
    std::fs::write(&spec, CHUNKY.replace("    repeat-expr:", "    repeat-exp:")).unwrap();
    let f = d.join("a.chunky");
    std::fs::write(&f, chunky(&[])).unwrap();
    let out = exits(&["check", s(&spec), s(&f)], 2);
    has(
        &text(&out.stderr),
        &format!(
            "error: {}:26:5: chunky.chunks: key `repeat-exp` is not in the subset",
            s(&spec)
        ),
    );
    std::fs::write(&spec, CHUNKY).unwrap();
    let out = exits(&["check", &format!("{}#nothing", s(&spec)), s(&f)], 2);
    has(
        &text(&out.stderr),
        &format!(
            "error: {}: no type `nothing` (its types: chunky, chunk)",
            s(&spec)
        ),
    );
    let missing = d.join("none.ksy");
    let out = exits(&["layouts", s(&missing)], 2);
    has(&text(&out.stderr), "none.ksy: cannot be read");
}

#[test]
fn the_projects_own_spec_named_by_its_file_is_its_layout() {
    // spec/meshbin.ksy copied elsewhere, byte for byte: read by the generated code with the
    // family's meaning (its decoder's refusals too), as `check meshbin` reads it.
    let d = scratch_dir("spec-own");
    let copy = d.join("meshbin.ksy");
    std::fs::copy(root().join("spec/meshbin.ksy"), &copy).unwrap();
    let mut bad = std::fs::read(root().join("corpus/meshbin/cube.meshbin")).unwrap();
    bad[4 + 16 * 24] = 200;
    let f = d.join("bad.meshbin");
    std::fs::write(&f, &bad).unwrap();
    let by_id = meshspec(&["check", "meshbin", s(&f)]);
    let by_spec = meshspec(&["check", s(&copy), s(&f)]);
    assert_eq!(by_id.status.code(), Some(1));
    assert_eq!(text(&by_spec.stdout), text(&by_id.stdout));
    // Edited (a doc), it is interpreted, and the family whose layout it declares lends it its
    // checks: the same verdict, the decoder's refusal included.
    let own = std::fs::read_to_string(&copy).unwrap();
    std::fs::write(&copy, own.replace("doc: Red, 0 to 255.", "doc: Red.")).unwrap();
    let edited = meshspec(&["check", s(&copy), s(&f)]);
    assert_eq!(edited.status.code(), Some(1));
    assert_eq!(text(&edited.stdout), text(&by_id.stdout));
    has(&text(&edited.stdout), "to decode the triangles");
    // A field renamed: the family's code was written for other fields, so it does not run,
    // and the verdict says so; the relations the spec states as expressions are checked.
    std::fs::write(&copy, own.replace("      - id: r\n", "      - id: red\n")).unwrap();
    let out = meshspec(&["check", s(&copy), s(&f)]);
    let t = text(&out.stdout);
    has(&t, "(relation `indices_name_vertices`), found 200");
    has(&t, "this spec reads the input differently");
    assert!(!t.contains("to decode the triangles"), "{t}");
    assert_eq!(out.status.code(), Some(0), "{t}");
    let strict = meshspec(&["check", "--strict", s(&copy), s(&f)]);
    assert_eq!(strict.status.code(), Some(1));
}

/// The draft `unity typetree --ksy` writes from a file's type tree is itself a layout: the
/// file's meshes, extracted, check and survey against it as written, each consumed exactly.
#[test]
fn the_draft_a_type_tree_gives_checks_and_surveys_the_files_meshes() {
    let game = "corpus/unity/game.unity-serialized";
    let d = scratch_dir("spec-draft");
    let draft = d.join("mesh.ksy");
    let out = meshspec(&["unity", "typetree", game, "--class", "Mesh", "--ksy"]);
    code(&out, 0);
    std::fs::write(&draft, &out.stdout).unwrap();
    let objs = d.join("objects");
    std::fs::create_dir(&objs).unwrap();
    let listing = text(&meshspec(&["unity", "list", game]).stdout);
    let ids: Vec<&str> = listing
        .lines()
        .filter(|l| l.contains("Mesh (43)"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(ids.len(), 5, "{listing}");
    for id in &ids {
        let o = objs.join(format!("{id}.mesh"));
        let args = [
            "unity",
            "extract",
            game,
            "--path-id",
            id,
            "-o",
            o.to_str().unwrap(),
        ];
        code(&meshspec(&args), 0);
    }
    let mut args = vec!["check", draft.to_str().unwrap()];
    let meshes: Vec<String> = ids
        .iter()
        .map(|id| objs.join(format!("{id}.mesh")).display().to_string())
        .collect();
    args.extend(meshes.iter().map(String::as_str));
    let out = meshspec(&args);
    code(&out, 0);
    assert_eq!(text(&out.stdout).matches(": ok\n").count(), 5);
    let out = meshspec(&[
        "survey",
        "--layout",
        draft.to_str().unwrap(),
        objs.to_str().unwrap(),
        "--json",
    ]);
    code(&out, 0);
    let doc = json_of(&out);
    let mesh = layout(&doc, "mesh");
    assert_eq!(mesh["tried"], 5, "{mesh}");
    assert_eq!(mesh["consumed_exactly"], 5, "{mesh}");
    assert_eq!(mesh["passed"], 5, "{mesh}");
}

/// A `repeat: until` whose elements take no bytes and whose condition never holds is refused
/// with its place, not read forever.
#[test]
fn a_repeat_until_that_never_ends_is_refused() {
    let d = scratch_dir("spec-until");
    let spec = d.join("forever.ksy");
    std::fs::write(
        &spec,
        "meta:\n  id: forever\nseq:\n  - id: items\n    type: nothing\n    repeat: until\n    repeat-until: false\ntypes:\n  nothing: {}\n",
    )
    .unwrap();
    let file = d.join("a.bin");
    std::fs::write(&file, b"ab").unwrap();
    let out = meshspec(&["check", spec.to_str().unwrap(), file.to_str().unwrap()]);
    code(&out, 1);
    has(&text(&out.stdout), "forever.items[1025]");
    has(&text(&out.stdout), "expected a repeat-until that ends");
}

/// The gallery's glTF binary spec (Kaitai's `3d/gltf_binary.ksy`, unchanged) over a GLB that
/// meshspec exports (glTF-Validator accepts it, `.ci/run`): checked, and dump then build gives
/// the file back byte for byte (its chunks are a sized switch).
#[test]
fn the_gallerys_gltf_binary_spec_reads_and_writes_back_an_exported_glb() {
    let Some(shared) = shared() else { return };
    let spec = shared.join("kaitai/gallery/3d/gltf_binary.ksy");
    let d = scratch_dir("spec-glb");
    let glb = d.join("cube.glb");
    code(
        &meshspec(&[
            "export",
            "meshbin",
            "corpus/meshbin/cube.meshbin",
            "--winding",
            "d3d",
            "-o",
            s(&glb),
        ]),
        0,
    );
    let out = exits(&["check", s(&spec), s(&glb)], 0);
    has(&text(&out.stdout), "ok");
    let dump = exits(&["dump", s(&spec), s(&glb)], 0);
    let json = d.join("cube.json");
    std::fs::write(&json, &dump.stdout).unwrap();
    has(&text(&dump.stdout), "\"Json\"");
    let back = d.join("back.glb");
    exits(&["build", s(&spec), s(&json), "-o", s(&back)], 0);
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&glb).unwrap());
}
