//! Type trees against the spec.
//!
//! The Mesh field table is derived from the spec's `-orig-id`s: on every real Mesh that carries
//! a type tree (`../shared/corpus/unity/` and `../shared/corpus/unity-real/`) it is the type
//! tree's own list of top-level fields, ending where the tree's reading ends them, and the
//! version's layout agrees with the tree field by field. Files whose type tree and bytes differ
//! from the spec in a known field, made here from `corpus/unity/game.unity-serialized` through
//! the generated `unity-serialized` writer, are refused with that field named in both.

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_serialized::{CommonString, TypeTree, UnitySerialized};
use meshspec_formats::rt::{Codec, Output, Root};
use meshspec_formats::unity::files::game::{GameFile, GameFiles, Select};
use meshspec_formats::unity::files::typetree::{Trees, Value};
use meshspec_formats::unity::files::{draft, fields, mesh, serialized, Limits};
use meshspec_tests::{node_tool, root};
use std::path::{Path, PathBuf};

/// One node of a type tree as the tests edit it: level, type, name, byte size, meta flag.
type Line = (u8, String, String, i32, i32);

fn name_at(t: &TypeTree, ofs: CommonString) -> String {
    if let Some(s) = ofs.orig_id() {
        return s.to_string();
    }
    let b = &t.string_buffer[ofs.0 as usize..];
    let end = b.iter().position(|&c| c == 0).unwrap();
    String::from_utf8(b[..end].to_vec()).unwrap()
}

fn lines(t: &TypeTree) -> Vec<Line> {
    t.nodes
        .iter()
        .map(|n| {
            (
                n.level,
                name_at(t, n.ofs_type),
                name_at(t, n.ofs_name),
                n.byte_size,
                n.meta_flag,
            )
        })
        .collect()
}

/// `t` with its nodes replaced by `lines` (names new to it appended to its string buffer).
fn rebuilt(t: &TypeTree, lines: &[Line]) -> TypeTree {
    let mut buffer = t.string_buffer.clone();
    let mut ofs = |s: &str| -> CommonString {
        if let Some(k) =
            (0x8000_0000u32..0x8000_0000 + 2048).find(|&k| CommonString(k).orig_id() == Some(s))
        {
            return CommonString(k);
        }
        let mut at = 0;
        for part in buffer.split(|&c| c == 0) {
            if part == s.as_bytes() {
                return CommonString(at as u32);
            }
            at += part.len() + 1;
        }
        let at = buffer.len() as u32;
        buffer.extend_from_slice(s.as_bytes());
        buffer.push(0);
        CommonString(at)
    };
    let template = t.nodes[0].clone();
    let nodes: Vec<_> = lines
        .iter()
        .enumerate()
        .map(|(i, (level, ty, name, size, meta))| {
            let mut n = template.clone();
            n.level = *level;
            n.type_flags = u8::from(ty == "Array");
            n.ofs_type = ofs(ty);
            n.ofs_name = ofs(name);
            n.byte_size = *size;
            n.index = i as i32;
            n.meta_flag = *meta;
            n
        })
        .collect();
    // The metadata keeps its 4-byte alignment (the object entries are aligned in it).
    let grown = (nodes.len() as i64 - t.nodes.len() as i64) * 32 + buffer.len() as i64
        - t.string_buffer.len() as i64;
    buffer.resize(buffer.len() + (-grown).rem_euclid(4) as usize, 0);
    TypeTree {
        num_nodes: nodes.len() as i32,
        len_string_buffer: buffer.len() as i32,
        nodes,
        string_buffer: buffer,
    }
}

fn size_of<T: Codec>(v: &T, args: T::Args) -> u64 {
    let mut out = Output::with_capacity(1024);
    v.write_out::<false>(&mut out, args).unwrap();
    out.into_vec().len() as u64
}

fn game() -> Vec<u8> {
    std::fs::read(root().join("corpus/unity/game.unity-serialized")).unwrap()
}

/// `bytes` opened as the game file `path`.
fn opened(path: &str, bytes: &[u8]) -> GameFiles {
    GameFiles::from_files(vec![GameFile::from_bytes(
        Path::new(path),
        bytes,
        &Limits::default(),
    )
    .unwrap()])
}

/// `game.unity-serialized` with its Mesh type tree's nodes edited by `edit` and the Mesh `Arm`
/// replaced by what `object` makes of its bytes and its type tree reading, written by the
/// generated writer (sizes and the data offset recomputed) and the object table rewritten
/// by `serialized::with_object`.
fn edited(
    edit: impl FnOnce(&mut Vec<Line>),
    object: impl FnOnce(&[u8], &Value, &Trees) -> Vec<u8>,
) -> GameFiles {
    let bytes = game();
    let g = opened("edited.unity-serialized", &bytes);
    let r = g.select(&Select::MeshName("Arm".into()))[0];
    let s = g.serialized(r);
    let o = g.entry(r);
    let value = s.read(o).unwrap();
    let arm = object(s.bytes(o), &value, &s.trees_of(o).unwrap());
    let path_id = o.path_id;

    let mut file = UnitySerialized::from_bytes(&bytes, &Context::new()).unwrap();
    let (format, big) = (file.header.version, file.header.endianness.unwrap());
    let metadata = file.metadata.as_mut().unwrap();
    let ty = metadata
        .types
        .iter_mut()
        .find(|t| t.class_id.0 == mesh::MESH)
        .unwrap();
    let tree = ty.type_tree.as_mut().unwrap();
    let mut l = lines(tree);
    edit(&mut l);
    *tree = rebuilt(tree, &l);
    let len_metadata = size_of(&*metadata, (format, big));
    let wide = file.header.wide.as_mut().unwrap();
    let data_at = (48 + len_metadata).div_ceil(16) * 16;
    wide.len_metadata = len_metadata as u32;
    wide.ofs_data = data_at;
    wide.len_file = data_at + file.data.as_ref().unwrap().len() as u64;
    file.pad_data = Some(vec![0; (data_at - 48 - len_metadata) as usize]);
    let written = file.to_bytes(&Context::new()).unwrap();
    let replaced = serialized::with_object(&written, path_id, &arm).unwrap();
    opened("edited.unity-serialized", &replaced)
}

/// Where the Mesh's top-level field `name` is in the tree's lines.
fn top(lines: &[Line], name: &str) -> usize {
    lines
        .iter()
        .position(|l| l.0 == 1 && l.2 == name)
        .unwrap_or_else(|| panic!("no top-level `{name}`"))
}

/// Where the top-level field `name` of the unedited `Arm` ends, from the object's start.
fn original_end(name: &str) -> u64 {
    let g = opened("game.unity-serialized", &game());
    let r = g.select(&Select::MeshName("Arm".into()))[0];
    let s = g.serialized(r);
    let o = g.entry(r);
    let v = s.read(o).unwrap();
    field_end(&v, &s.trees_of(o).unwrap(), name) as u64
}

fn field_end(value: &Value, trees: &Trees, name: &str) -> usize {
    value.field(trees, name).unwrap().end as usize
}

/// The error `check_fixed_layout` gives on the edited `Arm`, the verdict's (which adds the
/// layouts that read the bytes exactly), and where the object starts in its file.
fn refusal(g: &GameFiles) -> (String, String, u64) {
    let r = g.select(&Select::MeshName("Arm".into()))[0];
    let m = g.mesh(r).unwrap();
    let fixed = m.fixed.as_ref().unwrap_err().to_string();
    let judged = g.input(r, &Context::new()).unwrap().judge();
    let verdict = judged.refused.expect("refused").to_string();
    (fixed, verdict, g.entry(r).offset)
}

#[test]
fn an_unedited_file_reads_and_an_edit_that_keeps_the_tree_agrees() {
    let g = edited(|_| {}, |b, _, _| b.to_vec());
    let r = g.select(&Select::MeshName("Arm".into()))[0];
    let m = g.mesh(r).unwrap();
    assert!(m.fixed.is_ok(), "{:?}", m.fixed);
    let v = g.input(r, &Context::new()).unwrap().judge();
    assert!(v.passes(), "{v:?}");
}

#[test]
fn a_field_the_spec_does_not_have_is_named_with_its_type_in_both() {
    let g = edited(
        |l| {
            let at = top(l, "m_KeepIndices") + 1;
            l.insert(at, (1, "SInt32".into(), "m_MeshLightmapFlags".into(), 4, 0));
        },
        |b, v, t| {
            let at = field_end(v, t, "m_KeepIndices");
            [&b[..at], &7i32.to_le_bytes(), &b[at..]].concat()
        },
    );
    let (fixed, verdict, at) = refusal(&g);
    // Where the new field starts: after m_KeepIndices, in the edited object.
    let keep = original_end("m_KeepIndices");
    assert_eq!(
        fixed,
        format!(
            "0x{:X} unity_mesh.index_format: expected `m_MeshLightmapFlags` (SInt32, 4 bytes) \
             after `m_KeepIndices` as the object's type tree has it, found `m_IndexFormat` (s4 \
             (index_format), 4 bytes) in the layout of 2022.3.10",
            at + keep
        )
    );
    assert!(
        verdict.ends_with(
            "(no known unity-mesh layout reads these bytes exactly), found `m_IndexFormat` (s4 \
             (index_format), 4 bytes) in the layout of 2022.3.10"
        ),
        "{verdict}"
    );
}

#[test]
fn a_field_the_file_lacks_is_named_and_the_layout_that_reads_it_said() {
    let g = edited(
        |l| {
            l.remove(top(l, "m_CookingOptions"));
        },
        |b, v, t| {
            let end = field_end(v, t, "m_CookingOptions");
            [&b[..end - 4], &b[end..]].concat()
        },
    );
    let (fixed, verdict, at) = refusal(&g);
    // Where the file's next field starts: where m_CookingOptions was.
    let next = original_end("m_MeshUsageFlags");
    assert_eq!(
        fixed,
        format!(
            "0x{:X} unity_mesh.cooking_options: expected `m_BakedConvexCollisionMesh` (vector, \
             variable size) after `m_MeshUsageFlags` as the object's type tree has it, found \
             `m_CookingOptions` (s4, 4 bytes) in the layout of 2022.3.10",
            at + next
        )
    );
    // Without m_CookingOptions the bytes are those of 2020.1 to 2021.3.
    assert!(
        verdict.contains(
            "(the layouts that read these bytes exactly: 2020.1 to 2021.3 (--unity-version \
             2020.1.0))"
        ),
        "{verdict}"
    );
}

#[test]
fn a_nested_type_that_gained_a_field_is_named_inside_it() {
    let g = edited(
        |l| {
            // SubMesh's last field is localAABB (two Vector3f of three floats): 9 lines.
            let sub = l.iter().position(|x| x.1 == "SubMesh").unwrap();
            l[sub].3 += 4;
            let after = sub + 1 + l[sub + 1..].iter().take_while(|x| x.0 > l[sub].0).count();
            l.insert(after, (4, "UInt32".into(), "m_LodCount".into(), 4, 0));
        },
        |b, v, t| {
            let subs = v.field(t, "m_SubMeshes").unwrap().items().unwrap();
            let mut out = vec![];
            let mut from = 0;
            for s in subs {
                out.extend_from_slice(&b[from..s.end as usize]);
                out.extend_from_slice(&1u32.to_le_bytes());
                from = s.end as usize;
            }
            out.extend_from_slice(&b[from..]);
            out
        },
    );
    let (fixed, _, at) = refusal(&g);
    // The new field of the first SubMesh: after its 48 bytes, which follow m_Name and the count.
    let first = original_end("m_Name") + 4 + 48;
    assert_eq!(
        fixed,
        format!(
            "0x{:X} unity_mesh.sub_meshes[0]: expected `m_SubMeshes[0].m_LodCount` (UInt32, 4 \
             bytes) after `localAABB` as the object's type tree has it, found the end of \
             `m_SubMeshes[0]` in the layout of 2022.3.10",
            at + first
        )
    );
}

/// Every Unity file under the shared corpus's `unity/bundles` and `unity-real`.
fn shared_files(shared: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![
        shared.join("corpus/unity/bundles"),
        shared.join("corpus/unity-real"),
    ];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if !name.ends_with(".md") && !name.starts_with("LICENSE") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn shared_the_field_table_is_the_type_tree_of_every_real_mesh() {
    let shared = meshspec_tests::shared_or_return!(
        "the Mesh field table against the real files' type trees"
    );
    let mut checked = 0;
    let mut versions = std::collections::BTreeSet::new();
    for path in shared_files(&shared) {
        let Ok(g) = GameFiles::open(std::slice::from_ref(&path)) else {
            // A container meshspec does not open (a UnityWeb file) has nothing to compare.
            continue;
        };
        for r in g.meshes() {
            let s = g.serialized(r);
            let o = g.entry(r);
            let Some(trees) = s.trees_of(o) else { continue };
            let v = s.unity_version().unwrap();
            let value = s.read(o).unwrap();
            let (_, pos) = mesh::read_fixed(s.bytes(o), v).unwrap();
            let ours: Vec<(&str, u64)> = mesh::layout_fields(&pos)
                .iter()
                .map(|f| (f.name, f.span.end))
                .collect();
            let theirs: Vec<(&str, u64)> = value
                .fields(&trees)
                .into_iter()
                .map(|(n, f)| (n, u64::from(f.end)))
                .collect();
            let at = format!("{} #{}", path.display(), o.path_id);
            assert_eq!(ours, theirs, "{at}");
            assert_eq!(
                fields::parting(&trees, &value, &mesh::layout_shape(v), "unity_mesh"),
                None,
                "{at}"
            );
            g.mesh(r).unwrap().fixed.unwrap();
            versions.insert(v);
            checked += 1;
        }
    }
    // 35 meshes of the five corpus bundles and 179 of the real files with type trees, of 19
    // editor versions from 4.1.2 (the Web Player file) to 2023.1.0.
    assert_eq!(
        checked, 214,
        "the real Meshes with type trees, 4.1.2 (the Web Player file) to 2023.1"
    );
    assert_eq!(versions.len(), 19, "{versions:?}");
}

/// One distinct Mesh type tree of a file, as a draft `.ksy`, with the bytes of every object it
/// describes.
struct Drafted {
    place: String,
    ksy: String,
    objects: Vec<Vec<u8>>,
}

/// The draft of every distinct Mesh type tree of `g`.
fn mesh_drafts(g: &GameFiles, out: &mut Vec<Drafted>, seen: &mut Vec<(String, Vec<String>)>) {
    for r in g.meshes() {
        let s = g.serialized(r);
        let o = g.entry(r);
        let Some(trees) = s.trees_of(o) else { continue };
        let key: Vec<String> = trees
            .main
            .nodes
            .iter()
            .map(|n| {
                format!(
                    "{} {} {} {} {}",
                    n.level, n.type_name, n.name, n.byte_size, n.meta_flag
                )
            })
            .collect();
        let place = g.place(r);
        let known = seen.iter().position(|(p, k)| *k == key && *p == place);
        match known {
            Some(i) => out[i].objects.push(s.bytes(o).to_vec()),
            None => {
                let src = draft::Source {
                    file: &place,
                    unity_version: &s.unity_version,
                    class_id: mesh::MESH,
                    big_endian: s.big_endian,
                };
                let ksy = draft::ksy(trees.main, &src).unwrap();
                seen.push((place.clone(), key));
                out.push(Drafted {
                    place,
                    ksy,
                    objects: vec![s.bytes(o).to_vec()],
                });
            }
        }
    }
}

/// Reads each object of each draft with the Python that Kaitai's compiler made of it: every
/// object must be read to its last byte. Returns how many were.
fn read_with_kaitai(dir: &Path, drafts: &[Drafted]) -> usize {
    let mut list = String::new();
    for (i, d) in drafts.iter().enumerate() {
        for (k, o) in d.objects.iter().enumerate() {
            let f = dir.join(format!("d{i}/object{k}.bin"));
            std::fs::write(&f, o).unwrap();
            list.push_str(&format!("{}\n", f.display()));
        }
    }
    std::fs::write(dir.join("objects.txt"), list).unwrap();
    let script = r#"
import importlib.util, os, sys
from kaitaistruct import KaitaiStream, BytesIO
n = 0
for line in open(sys.argv[1]):
    obj = line.strip()
    folder = os.path.dirname(obj)
    spec = importlib.util.spec_from_file_location("draft_" + os.path.basename(folder), os.path.join(folder, "mesh.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = open(obj, "rb").read()
    io = KaitaiStream(BytesIO(data))
    module.Mesh(io)
    if not io.is_eof():
        sys.exit(f"{obj}: read {io.pos()} of {len(data)} bytes")
    n += 1
print(n)
"#;
    let out = meshspec_tests::tools::python_with("kaitaistruct")
        .args(["-c", script])
        .arg(dir.join("objects.txt"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Kaitai's Python did not read an object with its draft:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// Proves drafts real: meshspec's codegen loads each and generates its module (as
/// `cargo run -p meshspec-codegen` would from `spec/`), Kaitai's compiler compiles each, and
/// the compiled Python reads every object the tree describes to its end.
fn prove_drafts(drafts: &[Drafted], name: &str) -> usize {
    let dir = meshspec_tests::tools::scratch_dir(&format!("drafts-{name}"));
    let mut files = vec![];
    for (i, d) in drafts.iter().enumerate() {
        let spec = meshspec_model::load("mesh.ksy", &d.ksy)
            .unwrap_or_else(|e| panic!("{}: codegen refuses the draft: {e}\n{}", d.place, d.ksy));
        assert_eq!(spec.id, "mesh");
        // The whole generator, on a repository of this draft alone.
        let repo = dir.join(format!("repo{i}"));
        std::fs::create_dir_all(repo.join("spec")).unwrap();
        std::fs::create_dir_all(repo.join("codegen/fixtures")).unwrap();
        std::fs::write(repo.join("spec/mesh.ksy"), &d.ksy).unwrap();
        let generated = meshspec_codegen::outputs(&repo)
            .unwrap_or_else(|e| panic!("{}: codegen cannot generate the draft: {e}", d.place));
        assert!(generated.contains_key(Path::new("formats/src/generated/mesh.rs")));
        let f = dir.join(format!("d{i}/mesh.ksy"));
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, &d.ksy).unwrap();
        files.push(f);
    }
    let mut args = vec![PathBuf::from("--write")];
    args.extend(files.iter().cloned());
    let (ok, text) = node_tool("ksc-check.mjs", "kaitai-struct-compiler", &args);
    assert!(ok, "Kaitai refused a draft:\n{text}");
    let n = read_with_kaitai(&dir, drafts);
    let _ = std::fs::remove_dir_all(&dir);
    n
}

#[test]
fn the_draft_of_the_corpus_mesh_tree_compiles_generates_and_reads_every_mesh() {
    let g = opened("corpus/unity/game.unity-serialized", &game());
    let (mut drafts, mut seen) = (vec![], vec![]);
    mesh_drafts(&g, &mut drafts, &mut seen);
    assert_eq!(drafts.len(), 1);
    let d = &drafts[0];
    // The draft's first fields: a string as a count and its text, an align flag as padding,
    // a vector as a count and its elements, each with the tree's name and the evidence.
    let head: String = d
        .ksy
        .lines()
        .skip_while(|l| *l != "seq:")
        .take(21)
        .collect::<Vec<_>>()
        .join("\n");
    let ev = "type tree of corpus/unity/game.unity-serialized (Unity 2022.3.10f1)";
    assert_eq!(
        head,
        format!(
            "seq:
- id: len_name
  type: s4
  -orig-id: m_Name.Array.size
  -confidence: observed
  -evidence: {ev}
  doc: How many elements `m_Name` has.
- id: name
  type: str
  size: len_name
  encoding: UTF-8
  -orig-id: m_Name
  -confidence: observed
  -evidence: {ev}
  doc: '`string` in the type tree, of variable size.'
- id: pad_name
  size: (4 - _io.pos % 4) % 4
  -orig-id: (alignment after m_Name)
  -confidence: observed
  -evidence: {ev}
  doc: Padding to 4 bytes from the object's start (the align flag of `m_Name`)."
        )
    );
    assert!(
        d.ksy.contains(
            "- id: sub_meshes\n  type: sub_mesh\n  repeat: expr\n  repeat-expr: num_sub_meshes\n"
        ),
        "{}",
        d.ksy
    );
    assert_eq!(prove_drafts(&drafts, "corpus"), 5);
}

#[test]
fn shared_the_drafts_of_every_real_mesh_tree_compile_generate_and_read_their_meshes() {
    let shared = meshspec_tests::shared_or_return!("drafts of the real files' Mesh type trees");
    let (mut drafts, mut seen) = (vec![], vec![]);
    for path in shared_files(&shared) {
        if let Ok(g) = GameFiles::open(std::slice::from_ref(&path)) {
            mesh_drafts(&g, &mut drafts, &mut seen);
        }
    }
    // One Mesh tree per file with type trees: the five corpus bundles and 17 real files.
    assert_eq!(drafts.len(), 23);
    assert_eq!(prove_drafts(&drafts, "shared"), 214);
}
