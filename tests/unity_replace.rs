//! Putting edited meshes back into Unity game files (`unity::files::replace`): unedited files
//! come back byte for byte; an edited Mesh (made through the generated owned `UnityMesh` and
//! its writer) is in the written file, which meshspec reads with every other object
//! unchanged; what must be refused is refused. Over the project's own files always, and over
//! the real files Unity built (`../shared/corpus/unity/`) whenever they are there.

use meshspec_formats::context::Context;
use meshspec_formats::generated::unity_mesh::UnityMesh;
use meshspec_formats::rt::{Root, Severity};
use meshspec_formats::unity::files::bundle::{self, Bundle};
use meshspec_formats::unity::files::game::{GameFile, GameFiles, GameMesh, Select};
use meshspec_formats::unity::files::replace::{replace, replace_all, Edit, Replaced};
use meshspec_formats::unity::files::{mesh, serialized, Limits, Located};
use meshspec_tests::{unity_corpus as corpus, unity_scene as scene};
use std::path::{Path, PathBuf};

const BUNDLES: &[&str] = &[
    "stored.unity-bundle",
    "lz4.unity-bundle",
    "lzma.unity-bundle",
    "web.unity-web",
    "raw.unity-web",
];
const SERIALIZED: &[&str] = &[
    "game.unity-serialized",
    "notree.unity-serialized",
    "big-endian.unity-serialized",
];
/// The corpus meshes: Blade (streamed), Arm (skinned), Face (blend shapes), Rock
/// (compressed), Wire (32-bit indices, two submeshes).
const MESHES: &[i64] = &[100, 101, 102, 103, 104];

fn open(path: &Path, bytes: &[u8]) -> GameFiles {
    let f = GameFile::from_bytes(path, bytes, &Limits::for_input(bytes.len() as u64))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    GameFiles::from_files(vec![f])
}

/// The bytes of the file at `path`, and the file opened.
fn load(path: &Path) -> (Vec<u8>, GameFiles) {
    let bytes = std::fs::read(path).unwrap();
    let g = open(path, &bytes);
    (bytes, g)
}

/// The corpus's serialized file with a resource file beside it.
fn game() -> PathBuf {
    corpus("game.unity-serialized")
}

fn limits(bytes: &[u8]) -> Limits {
    Limits::for_input(bytes.len() as u64)
}

/// The x of the first vertex of mesh `m`, decoded.
fn first_x(g: &GameFiles, m: &GameMesh) -> f32 {
    scene(g, m.at).meshes[0].positions[0][0]
}

/// Mesh `m` as the fixed layout of its file's version reads it.
fn fixed(g: &GameFiles, m: &GameMesh) -> UnityMesh {
    mesh::read_fixed(g.bytes(m.at), m.version.unwrap())
        .unwrap()
        .0
}

/// The only object of `id` in `g`.
fn object(g: &GameFiles, id: i64) -> meshspec_formats::unity::files::ObjectRef {
    let found = g.select(&Select::PathId(id));
    assert_eq!(found.len(), 1, "path id {id}");
    found[0]
}

/// The editor version of the file an object is in.
fn version(g: &GameFiles, id: i64) -> u32 {
    g.serialized(object(g, id)).unity_version().unwrap()
}

/// Mesh `id` of `bytes` edited by `f` through the generated owned value and its writer.
fn edited(path: &Path, bytes: &[u8], id: i64, f: impl FnOnce(&mut UnityMesh)) -> Vec<u8> {
    let g = open(path, bytes);
    let v = version(&g, id);
    let (mut m, _) = mesh::read_fixed(g.bytes(object(&g, id)), v).unwrap();
    f(&mut m);
    m.to_bytes(&mesh::context(v)).unwrap()
}

fn rename(m: &mut UnityMesh, name: &str) {
    m.name.value = name.to_string();
    m.name.len_value = name.len() as i32;
    m.name.pad = vec![0; (4 - name.len() % 4) % 4];
}

/// Moves the first vertex of inline vertex data (its first float, position x, in stream 0).
fn move_first_vertex(data: &mut [u8]) {
    let x = f32::from_le_bytes(data[..4].try_into().unwrap()) + 0.5;
    data[..4].copy_from_slice(&x.to_le_bytes());
}

/// Every object of `before` other than `except` has the same bytes in `after` (same
/// serialized file and path id), and both files hold the same objects.
fn others_unchanged(before: &GameFiles, after: &GameFiles, except: i64) {
    let key = |g: &GameFiles, r: meshspec_formats::unity::files::ObjectRef| {
        (
            g.files[r.file].serialized[r.inner].name.clone(),
            g.entry(r).path_id,
        )
    };
    let a: Vec<_> = before.objects().iter().map(|&r| key(before, r)).collect();
    let b: Vec<_> = after.objects().iter().map(|&r| key(after, r)).collect();
    assert_eq!(a, b, "the same objects in the same order");
    for (&x, &y) in before.objects().iter().zip(after.objects().iter()) {
        if before.entry(x).path_id != except {
            assert_eq!(
                before.bytes(x),
                after.bytes(y),
                "object {:?}",
                key(before, x)
            );
            assert_eq!(before.entry(x).class_id, after.entry(y).class_id);
        }
    }
}

/// Replaces mesh `id` of the file at `path` by `new` and checks the result: meshspec reads
/// it, the mesh has the new bytes and passes its verdict, every other object is unchanged.
fn replaced(path: &Path, new: &[u8], vertex: Option<&[u8]>, id: i64) -> (Replaced, GameFiles) {
    let bytes = std::fs::read(path).unwrap();
    let r = replace(
        path,
        &bytes,
        &Edit {
            path_id: id,
            object: new,
            vertex_data: vertex,
        },
        &Context::new(),
        &limits(&bytes),
    )
    .unwrap_or_else(|e| panic!("{} #{id}: {e}", path.display()));
    let mut after = GameFile::from_bytes(path, &r.bytes, &limits(&r.bytes)).unwrap();
    if let Some((name, res)) = &r.resource {
        after.resources.push((
            name.clone(),
            meshspec_formats::unity::files::Shared::new(res.clone()),
        ));
    }
    let after = GameFiles::from_files(vec![after]);
    let o = object(&after, id);
    if vertex.is_none() {
        assert_eq!(after.bytes(o), new, "{} #{id}", path.display());
    }
    let m = after.mesh(o).unwrap();
    let v = after.input(m.at, &Context::new()).unwrap().judge();
    assert!(
        v.passes(),
        "{} #{id}: {:?}",
        path.display(),
        v.first_failure()
    );
    others_unchanged(&open(path, &bytes), &after, id);
    (r, after)
}

#[test]
fn unedited_files_are_written_back_byte_for_byte() {
    for name in BUNDLES {
        let bytes = std::fs::read(corpus(name)).unwrap();
        let b = Bundle::open(&bytes, &limits(&bytes)).unwrap();
        let (out, rep) = bundle::write(&bytes, &b, &[]).unwrap();
        assert_eq!(out, bytes, "{name}");
        assert_eq!(rep.blocks_compressed, 0, "{name}");
        // (A UnityWeb or UnityRaw payload is one block.)
        let blocks = b.fs().map_or(1, |fs| fs.blocks_info.blocks.len());
        assert_eq!(rep.blocks_kept, blocks, "{name}");
        assert!(rep.info_kept, "{name}");
    }
    for name in SERIALIZED {
        let (bytes, g) = load(&corpus(name));
        for r in g.objects() {
            let id = g.entry(r).path_id;
            let out = serialized::with_object(&bytes, id, g.bytes(r)).unwrap();
            assert_eq!(out, bytes, "{name} #{id}");
        }
    }
    // Every mesh replaced by itself, through the whole path (and its verdict).
    for name in BUNDLES.iter().chain(&SERIALIZED[..2]) {
        let path = corpus(name);
        let (bytes, g) = load(&path);
        for &id in MESHES {
            let own = g.bytes(object(&g, id)).to_vec();
            let (r, _) = replaced(&path, &own, None, id);
            assert_eq!(r.bytes, bytes, "{name} #{id}");
            assert!(r.resource.is_none());
        }
    }
}

#[test]
fn edited_meshes_are_in_the_written_files() {
    for name in BUNDLES.iter().chain(&SERIALIZED[..2]) {
        let path = corpus(name);
        let bytes = std::fs::read(&path).unwrap();
        // A renamed mesh (the object grows: every object after it moves).
        let new = edited(&path, &bytes, 101, |m| rename(m, "Arm, edited by a modder"));
        let (r, after) = replaced(&path, &new, None, 101);
        assert_eq!(
            after.name(object(&after, 101)).as_deref(),
            Some("Arm, edited by a modder")
        );
        unitypy_reads(&path, &r.bytes, 101, "Arm, edited by a modder");
        assert_ne!(r.bytes, bytes);
        if let Some(rep) = &r.repacked {
            assert!(!rep.info_kept, "{name}: the directory's sizes changed");
        }
        // A dropped submesh.
        let new = edited(&path, &bytes, 104, |m| {
            m.sub_meshes.pop();
            m.num_sub_meshes = m.sub_meshes.len() as i32;
        });
        let (_, after) = replaced(&path, &new, None, 104);
        let m = after.mesh(object(&after, 104)).unwrap();
        assert_eq!(m.sub_meshes, 1, "{name}");
        // A moved vertex (inline vertex data), decoded where it was moved to.
        let new = edited(&path, &bytes, 101, |m| {
            move_first_vertex(&mut m.vertex_data.as_mut().unwrap().data.data)
        });
        let (_, after) = replaced(&path, &new, None, 101);
        let before = open(&path, &bytes);
        let p = |g: &GameFiles| {
            let m = g.mesh(object(g, 101)).unwrap();
            scene(g, m.at).meshes[0].positions[0]
        };
        let (a, b) = (p(&before), p(&after));
        // The scene mirrors x (Unity is left-handed, glTF right-handed).
        assert_eq!(b[0], a[0] - 0.5, "{name}");
        assert_eq!(b[1..], a[1..], "{name}");
    }
}

#[test]
fn streamed_vertex_data_goes_into_the_resource() {
    for name in BUNDLES.iter().chain(&SERIALIZED[..1]) {
        let path = corpus(name);
        let (_, g) = load(&path);
        let m = g.mesh(object(&g, 100)).unwrap();
        let old_range = m.stream().expect("Blade streams its vertex data");
        let mut vertex = g.streamed(&m, None).unwrap().unwrap().into_owned();
        move_first_vertex(&mut vertex);
        let own = g.bytes(object(&g, 100)).to_vec();
        let (r, after) = replaced(&path, &own, Some(&vertex), 100);
        // The same size: written over the old range, the object unchanged.
        assert_eq!(r.stream.as_ref(), Some(&old_range), "{name}");
        assert_eq!(r.object, own);
        let m2 = after.mesh(object(&after, 100)).unwrap();
        assert_eq!(
            after.streamed(&m2, None).unwrap().unwrap(),
            vertex.as_slice()
        );
        let x = first_x;
        assert_eq!(x(&after, &m2), x(&g, &m) - 0.5, "{name} (x mirrored)");
        // On disk, the resource comes back to be written beside the output.
        assert_eq!(
            r.resource.is_some(),
            name.ends_with(".unity-serialized"),
            "{name}"
        );
    }
}

/// Vertex data of another size is appended to the resource (at a multiple of 16), and the
/// mesh's m_StreamData is pointed at it through the generated writer.
#[test]
fn larger_vertex_data_is_appended_to_the_resource() {
    for name in BUNDLES.iter().chain(&SERIALIZED[..1]) {
        let path = corpus(name);
        let (bytes, g) = load(&path);
        let m = g.mesh(object(&g, 100)).unwrap();
        let old = m.stream().unwrap();
        let resource_len = match &g.files[0].bundle {
            Some(b) => b.node(old.file_name()).unwrap().len,
            None => std::fs::read(path.with_file_name(old.file_name()))
                .unwrap()
                .len() as u64,
        };
        let mut vertex = g.streamed(&m, None).unwrap().unwrap().into_owned();
        let count = fixed(&g, &m).vertex_data.as_ref().unwrap().vertex_count as usize;
        // One more vertex: a copy of the last (nothing draws it).
        let stride = vertex.len() / count;
        vertex.extend_from_within(vertex.len() - stride..);
        let new = edited(&path, &bytes, 100, |m| {
            m.vertex_data.as_mut().unwrap().vertex_count += 1
        });
        let (r, after) = replaced(&path, &new, Some(&vertex), 100);
        let s = r.stream.unwrap();
        assert_eq!(s.offset, resource_len.div_ceil(16) * 16, "{name}");
        assert_eq!(s.size, vertex.len() as u64, "{name}");
        assert_eq!(s.path, old.path);
        let m2 = after.mesh(object(&after, 100)).unwrap();
        assert_eq!(
            after.streamed(&m2, None).unwrap().unwrap(),
            vertex.as_slice()
        );
        assert_eq!(scene(&after, m2.at).meshes[0].positions.len(), count + 1);
        if let Some((_, res)) = &r.resource {
            assert_eq!(res.len() as u64, s.offset + s.size);
        }
        unitypy_reads(&path, &r.bytes, 100, "Blade");
    }
}

fn refused(path: &Path, edit: Edit<'_>) -> Located {
    let bytes = std::fs::read(path).unwrap();
    match replace(path, &bytes, &edit, &Context::new(), &limits(&bytes)) {
        Ok(_) => panic!(
            "{}: replacing #{} was not refused",
            path.display(),
            edit.path_id
        ),
        Err(e) => e,
    }
}

#[test]
fn bad_replacements_are_refused() {
    let path = corpus("lz4.unity-bundle");
    let (bytes, g) = load(&path);
    let own = g.bytes(object(&g, 101)).to_vec();
    let edit = |id, object| Edit {
        path_id: id,
        object,
        vertex_data: None,
    };
    // A path id that is not there.
    let e = refused(&path, edit(999, &own));
    assert!(e.error.expected.contains("path id 999"), "{e}");
    // An object of another class (the GameObject ArmRoot).
    let e = refused(&path, edit(1, &own));
    assert!(e.error.expected.contains("a Mesh"), "{e}");
    assert!(e.error.found.contains("class 1"), "{e}");
    // An edit that breaks a relation: a submesh reading past the index buffer.
    let broken = edited(&path, &bytes, 104, |m| m.sub_meshes[0].index_count += 300);
    let e = refused(&path, edit(104, &broken));
    assert_eq!(e.error.severity, Severity::Error, "{e}");
    assert!(e.place.contains("CAB-"), "{e}");
    // Bytes that are not a Mesh of this version at all.
    let e = refused(&path, edit(101, &own[..own.len() / 2]));
    assert_eq!(e.error.severity, Severity::Error, "{e}");
    // New vertex data for a mesh that does not stream.
    let e = refused(
        &path,
        Edit {
            path_id: 101,
            object: &own,
            vertex_data: Some(&[0; 16]),
        },
    );
    assert!(e.error.expected.contains("m_StreamData"), "{e}");
    // Bundles whose blocks do not decompress.
    for bad in [
        "bad/corrupt-lz4.unity-bundle",
        "bad/corrupt-lzma.unity-bundle",
    ] {
        let e = refused(&corpus(bad), edit(101, &own));
        assert_eq!(e.error.severity, Severity::Error, "{bad}: {e}");
        assert!(e.error.offset.is_some(), "{bad}: {e}");
    }
    // A serialized file whose table is broken.
    let e = refused(
        &corpus("bad/object-outside-data.unity-serialized"),
        edit(101, &own),
    );
    assert_eq!(e.error.severity, Severity::Error, "{e}");
    assert!(e.error.path_string().ends_with("byte_size"), "{e}");
}

/// Hostile objects (cut short, or with bytes changed) are refused or written, never a panic;
/// what is written passed the verdict inside `replace`.
#[test]
fn hostile_objects_are_refused_not_panicked_on() {
    let path = corpus("stored.unity-bundle");
    let (bytes, g) = load(&path);
    for id in MESHES {
        let own = g.bytes(object(&g, *id)).to_vec();
        let mut cases: Vec<Vec<u8>> = (0..own.len())
            .step_by(37)
            .map(|n| own[..n].to_vec())
            .collect();
        for at in (0..own.len()).step_by(29) {
            let mut b = own.clone();
            b[at] ^= 0xA5;
            cases.push(b);
        }
        for (k, c) in cases.iter().enumerate() {
            let edit = Edit {
                path_id: *id,
                object: c,
                vertex_data: (k % 2 == 0).then_some(&c[..c.len().min(48)]),
            };
            if let Ok(r) = replace(&path, &bytes, &edit, &Context::new(), &limits(&bytes)) {
                assert!(r.verdict.passes());
                let after = open(&path, &r.bytes);
                others_unchanged(&g, &after, *id);
            }
        }
    }
}

/// Blocks of new content are compressed as their flags say, and blocks whose content did not
/// change keep their bytes: in the LZ4 bundle of 9 blocks, an edit of the same size changes
/// one block.
#[test]
fn unchanged_blocks_keep_their_bytes() {
    let path = corpus("lz4.unity-bundle");
    let bytes = std::fs::read(&path).unwrap();
    let new = edited(&path, &bytes, 101, |m| {
        move_first_vertex(&mut m.vertex_data.as_mut().unwrap().data.data)
    });
    let (r, _) = replaced(&path, &new, None, 101);
    let rep = r.repacked.unwrap();
    assert_eq!(rep.blocks_compressed, 1, "{rep:?}");
    assert_eq!(rep.blocks_kept, 8, "{rep:?}");
    // The same sizes, but the changed block's compressed size is in the blocks info.
    assert!(!rep.info_kept);
}

// ---- The real files Unity built ----

fn shared_bundles(shared: &Path) -> Vec<PathBuf> {
    let dirs = meshspec_tests::sorted_paths(&shared.join("corpus/unity/bundles"), |_| true);
    assert_eq!(dirs.len(), 5);
    dirs.iter().map(|d| d.join("assetbundle")).collect()
}

#[test]
fn shared_files_are_written_back_byte_for_byte() {
    let shared = meshspec_tests::shared_or_return!();
    for path in shared_bundles(&shared) {
        let bytes = std::fs::read(&path).unwrap();
        let b = Bundle::open(&bytes, &limits(&bytes)).unwrap();
        let (out, rep) = bundle::write(&bytes, &b, &[]).unwrap();
        assert!(out == bytes, "{}", path.display());
        assert_eq!(rep.blocks_compressed, 0);
        let g = open(&path, &bytes);
        let meshes = g.meshes();
        assert_eq!(meshes.len(), 7, "{}", path.display());
        let id = g.entry(meshes[0]).path_id;
        let (r, _) = replaced(&path, g.bytes(meshes[0]), None, id);
        assert!(r.bytes == bytes, "{} #{id}", path.display());
    }
    let level = shared.join("corpus/unity/player/2022.1.20f1/level0");
    let (bytes, g) = load(&level);
    assert!(g.objects().len() > 50);
    for r in g.objects() {
        let id = g.entry(r).path_id;
        let out = serialized::with_object(&bytes, id, g.bytes(r)).unwrap();
        assert!(out == bytes, "level0 #{id}");
    }
    // level0 holds no Mesh: replacing any object is refused.
    let first = g.objects()[0];
    let e = refused(
        &level,
        Edit {
            path_id: g.entry(first).path_id,
            object: g.bytes(first),
            vertex_data: None,
        },
    );
    assert!(e.error.expected.contains("a Mesh"), "{e}");
}

#[test]
fn shared_bundles_take_edited_meshes() {
    let shared = meshspec_tests::shared_or_return!();
    for path in shared_bundles(&shared) {
        let (bytes, g) = load(&path);
        let by_name = |n: &str| {
            g.meshes()
                .into_iter()
                .find(|&r| g.name(r).as_deref() == Some(n))
                .map(|r| g.entry(r).path_id)
                .unwrap()
        };
        // The body: renamed, and a submesh dropped.
        let body = by_name("Robot_A_Body_LOD03");
        let new = edited(&path, &bytes, body, |m| {
            rename(m, "Robot_A_Body_edited");
            m.sub_meshes.pop();
            m.num_sub_meshes = m.sub_meshes.len() as i32;
        });
        let (r, after) = replaced(&path, &new, None, body);
        assert_eq!(
            after.name(object(&after, body)).as_deref(),
            Some("Robot_A_Body_edited")
        );
        unitypy_reads(&path, &r.bytes, body, "Robot_A_Body_edited");
        let rep = r.repacked.unwrap();
        assert_eq!(rep.blocks_compressed, 1, "{}: {rep:?}", path.display());
        // The blade: a moved vertex, streamed (in place in the bundle's .resS) or inline.
        let lame = by_name("Lame");
        let m = g.mesh(object(&g, lame)).unwrap();
        let x = first_x;
        let (r, after) = match g.streamed(&m, None).unwrap() {
            Some(v) => {
                let mut v = v.into_owned();
                move_first_vertex(&mut v);
                let own = g.bytes(object(&g, lame)).to_vec();
                replaced(&path, &own, Some(&v), lame)
            }
            None => {
                let new = edited(&path, &bytes, lame, |m| {
                    move_first_vertex(&mut m.vertex_data.as_mut().unwrap().data.data)
                });
                replaced(&path, &new, None, lame)
            }
        };
        let m2 = after.mesh(object(&after, lame)).unwrap();
        assert_eq!(
            x(&after, &m2),
            x(&g, &m) - 0.5,
            "{} (x mirrored)",
            path.display()
        );
        unitypy_reads(&path, &r.bytes, lame, "Lame");
    }
}

/// UnityPy (a second, independent reader) reads the written bundle: the mesh's name and
/// vertex count.
fn unitypy_reads(path: &Path, bytes: &[u8], id: i64, name: &str) {
    // One file per call: a test may read several.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = meshspec_tests::tools::scratch(&format!("unitypy/{id}.{k}.bundle"));
    std::fs::write(&file, bytes).unwrap();
    let script = r#"
import sys, UnityPy
env = UnityPy.load(sys.argv[1])
for obj in env.objects:
    if obj.path_id == int(sys.argv[2]):
        m = obj.read()
        print(m.m_Name, m.m_VertexData.m_VertexCount)
"#;
    let out = meshspec_tests::tools::unitypy()
        .args(["-c", script, file.to_str().unwrap(), &id.to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "UnityPy: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let g = open(&file, bytes);
    let m = g.mesh(object(&g, id)).unwrap();
    let count = fixed(&g, &m).vertex_data.as_ref().unwrap().vertex_count;
    assert_eq!(text.trim(), format!("{name} {count}"), "{}", path.display());
    let _ = std::fs::remove_file(&file);
}

// ---- Geometry in the vertex layout of an original (`like`) ----

use meshspec_formats::export::{glb, NonFinite};
use meshspec_formats::unity::files::like::{like, Made, Original};

/// The context a bare Mesh object of `version` is read with, its resource file beside it.
fn bare(version: u32, at: &Path) -> Context {
    let mut ctx = mesh::context(version);
    ctx.input = Some(at.to_path_buf());
    ctx
}

/// `original` (a bare object at `at`) exported to .glb, the glTF edited by `edit` (in the
/// model), read back by the importer and made like the original.
fn round(
    original: &[u8],
    at: &Path,
    version: u32,
    edit: impl FnOnce(&mut meshspec_formats::scene::Mesh),
) -> meshspec_formats::rt::Result<Made> {
    let ctx = bare(version, at);
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    let mut scene = entry.scene(original, &ctx).unwrap();
    edit(&mut scene.meshes[0]);
    let out = glb(scene.clone(), NonFinite::Refuse).unwrap();
    // One file per call: tests run side by side in this process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = at.with_extension(format!("{k}.glb"));
    std::fs::write(&p, &out.bytes).unwrap();
    let (m, _) = meshspec_formats::import::read_mesh(&p, None).unwrap();
    like(&m, &Original::bare(original, &ctx)?)
}

/// The corpus meshes as bare objects in a folder, with the resource file beside them.
fn bare_corpus() -> (Vec<(i64, PathBuf, Vec<u8>)>, u32) {
    let (_, g) = load(&game());
    // One folder per call: tests run side by side in this process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = meshspec_tests::tools::scratch_dir(&format!("like-{k}"));
    std::fs::copy(
        corpus("game.unity-serialized.resS"),
        dir.join("game.unity-serialized.resS"),
    )
    .unwrap();
    let v = version(&g, 100);
    let out = MESHES
        .iter()
        .map(|&id| {
            let b = g.bytes(object(&g, id)).to_vec();
            let p = dir.join(format!("{id}.mesh"));
            std::fs::write(&p, &b).unwrap();
            (id, p, b)
        })
        .collect();
    (out, v)
}

#[test]
fn export_then_import_like_the_original_gives_its_bytes() {
    let (meshes, v) = bare_corpus();
    for (id, p, b) in &meshes {
        match round(b, p, v, |_| {}) {
            Ok(made) => {
                let d = made.object.iter().zip(b.iter()).position(|(x, y)| x != y);
                assert!(
                    made.object == *b,
                    "#{id}: {:?} len {} vs {} first diff {d:?}",
                    made.notes,
                    made.object.len(),
                    b.len()
                );
                if let Some(vd) = &made.vertex_data {
                    let (_, g) = load(&game());
                    let m = g.mesh(object(&g, *id)).unwrap();
                    assert_eq!(vd.as_slice(), &*g.streamed(&m, None).unwrap().unwrap());
                }
            }
            Err(e) => panic!("#{id}: {e}"),
        }
    }
    let shared = meshspec_tests::shared_or_return!();
    let mut seen = 0;
    for (name, p) in meshspec_tests::unity_mesh_files(&shared, ".mesh") {
        let v = meshspec_formats::context::unity_version(&name).unwrap();
        let b = std::fs::read(&p).unwrap();
        // The shared folder is read-only: the .glb goes to a temporary folder, the
        // resource file is found through the context.
        let tmp_at = meshspec_tests::tools::scratch_dir(&format!("like-shared/{name}"));
        let at = tmp_at.join(p.file_name().unwrap());
        for r in meshspec_tests::sorted_paths(p.parent().unwrap(), |r| {
            r.extension().and_then(|e| e.to_str()) == Some("resS")
        }) {
            let to = tmp_at.join(r.file_name().unwrap());
            if !to.exists() {
                std::fs::copy(&r, to).unwrap();
            }
        }
        let made =
            round(&b, &at, v as u32, |_| {}).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(made.object == b, "{}: {:?}", p.display(), made.notes);
        seen += 1;
    }
    assert_eq!(seen, 35);
}

/// The decoded scene of a bare object made by `like`.
fn scene_of(object: &[u8], ctx: &Context) -> meshspec_formats::scene::Mesh {
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    let v = entry.judge(object, ctx);
    assert!(v.passes(), "{:?}", v.first_failure());
    entry.scene(object, ctx).unwrap().meshes.remove(0)
}

#[test]
fn edited_geometry_is_made_in_the_originals_layout() {
    let (meshes, v) = bare_corpus();
    let (_, arm_at, arm) = &meshes[1];
    let ctx = bare(v, arm_at);
    let before = scene_of(arm, &ctx);
    // A moved vertex: only its position changes, and the bounds.
    let made = round(arm, arm_at, v, |m| m.positions[0][1] += 0.25).unwrap();
    assert_eq!(made.object.len(), arm.len());
    let after = scene_of(&made.object, &ctx);
    assert_eq!(after.positions[0][1], before.positions[0][1] + 0.25);
    assert_eq!(after.positions[1..], before.positions[1..]);
    assert_eq!(after.normals, before.normals);
    assert_eq!(after.skin, before.skin);
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    let (o, _) = mesh::read_fixed(arm, v).unwrap();
    assert_ne!(m.local_aabb, o.local_aabb, "the bounds are recomputed");
    // An edited bind pose (joint 0's inverse bind matrix moved up 0.5, in glTF's column-major
    // order): written into m_BindPose in Unity's row-major order, y unmirrored.
    let made = round(arm, arm_at, v, |m| {
        m.skin.as_mut().unwrap().inverse_bind_matrices[0][13] += 0.5;
    })
    .unwrap();
    assert!(
        made.notes
            .contains(&"2 bind poses written from the edited inverse bind matrices".to_string()),
        "{:?}",
        made.notes
    );
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    let (was, now) = (o.bind_poses.unwrap(), m.bind_poses.unwrap());
    assert_eq!(now[0].e[7], was[0].e[7] + 0.5);
    assert_eq!(now[1], was[1]);
    // UnityPy reads the bind pose written (row 1, column 3: e13).
    let said = unitypy_says(&game(), &made.object, None, 101, "m.m_BindPose[0].e13");
    assert_eq!(
        said.parse::<f32>().unwrap(),
        now[0].e[7],
        "UnityPy's m_BindPose[0].e13"
    );

    let after = scene_of(&made.object, &ctx);
    let ibm = &after.skin.as_ref().unwrap().inverse_bind_matrices;
    assert_eq!(
        ibm[0][13],
        before.skin.as_ref().unwrap().inverse_bind_matrices[0][13] + 0.5
    );
    assert_eq!(after.positions, before.positions);
    // A dropped primitive (Wire's second submesh, its lines).
    let (_, wire_at, wire) = &meshes[4];
    let made = round(wire, wire_at, v, |m| {
        m.primitives.pop();
        m.origin.ranges.retain(|r| r.primitive != Some(1));
    })
    .unwrap();
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    assert_eq!(m.sub_meshes.len(), 1);
    assert_eq!(
        scene_of(&made.object, &bare(v, wire_at)).primitives.len(),
        1
    );
    // A vertex added (and drawn): the counts, streams and index buffer made anew.
    let made = round(wire, wire_at, v, |m| {
        let n = m.positions.len() as u32;
        m.positions.push([3.0, 2.0, 1.0]);
        if let Some(nn) = &mut m.normals {
            nn.push([0.0, 1.0, 0.0]);
        }
        for set in &mut m.uvs {
            set.push([0.5, 0.5]);
        }
        m.primitives[0].indices.extend_from_slice(&[0, 1, n]);
    })
    .unwrap();
    let after = scene_of(&made.object, &bare(v, wire_at));
    assert_eq!(after.positions.last(), Some(&[3.0, 2.0, 1.0]));
    assert_eq!(after.primitives[0].indices.len() % 3, 0);
    // Streamed: the new vertex data comes back beside the object, and `replace` takes both.
    let (_, blade_at, blade) = &meshes[0];
    let made = round(blade, blade_at, v, |m| m.positions[2][2] -= 1.0).unwrap();
    let vd = made
        .vertex_data
        .clone()
        .expect("Blade streams its vertex data");
    let (r, after) = replaced(&game(), &made.object, Some(&vd), 100);
    assert_eq!(r.resource.as_ref().unwrap().0, "game.unity-serialized.resS");
    let m2 = after.mesh(object(&after, 100)).unwrap();
    let z = scene(&after, m2.at).meshes[0].positions[2][2];
    assert_eq!(z, before_z(blade, blade_at, v) - 1.0);
}

fn before_z(object: &[u8], at: &Path, v: u32) -> f32 {
    scene_of(object, &bare(v, at)).positions[2][2]
}

#[test]
fn geometry_the_layout_cannot_hold_is_refused() {
    let (meshes, v) = bare_corpus();
    let (_, arm_at, arm) = &meshes[1];
    let says = |r: meshspec_formats::rt::Result<Made>, what: &str| match r {
        Ok(_) => panic!("not refused: {what}"),
        Err(e) => assert!(e.to_string().contains(what), "{e}"),
    };
    // A channel the layout has, missing from the geometry.
    says(
        round(arm, arm_at, v, |m| m.normals = None),
        "a Normal attribute",
    );
    // An attribute the layout has no channel for.
    says(
        round(arm, arm_at, v, |m| {
            m.colors = Some(meshspec_formats::scene::Colors::Float(vec![
                [
                    1.0, 0.0, 0.0, 1.0
                ];
                m.positions
                    .len()
            ]))
        }),
        "no Color channel",
    );
    // Two morph targets of one name: which channel each is cannot be told.
    let (_, face_at, face) = &meshes[2];
    says(
        round(face, face_at, v, |m| {
            let t = m.morph_targets[0].clone();
            m.morph_targets.push(t)
        }),
        "morph targets of distinct names",
    );
    // Before 2017.3 an index buffer is 16-bit: more vertices drawn than it reaches is refused
    // (a 2017.2 mesh without a skin, so that its vertex count may change).
    let mut old = meshspec_formats::unity::make::sample(20170200, 4);
    if let Some(skin) = old.skin.as_mut() {
        skin.items.clear();
        skin.num_items = 0;
    }
    old.num_bind_poses = Some(0);
    old.bind_poses = Some(vec![]);
    let old = old.to_bytes(&mesh::context(20170200)).unwrap();
    let old_at = blade_dir(&meshes).join("old.mesh");
    std::fs::write(&old_at, &old).unwrap();
    says(
        round(&old, &old_at, 20170200, |m| grow(m, 70_000)),
        "at most 65,536 vertices drawn (before Unity 2017.3 index buffers are 16-bit), found index 69999",
    );
}

/// The folder the bare corpus meshes are in.
fn blade_dir(meshes: &[(i64, PathBuf, Vec<u8>)]) -> PathBuf {
    meshes[0].1.parent().unwrap().to_path_buf()
}

/// Vertices added up to `n` (every attribute the mesh has), the last drawn.
fn grow(m: &mut meshspec_formats::scene::Mesh, n: usize) {
    m.positions.resize(n, [0.0, 0.0, 0.0]);
    if let Some(nn) = &mut m.normals {
        nn.resize(n, [0.0, 1.0, 0.0]);
    }
    for set in &mut m.uvs {
        set.resize(n, [0.0, 0.0]);
    }
    if let Some(meshspec_formats::scene::Colors::Float(c)) = &mut m.colors {
        c.resize(n, [1.0; 4]);
    }
    if let Some(meshspec_formats::scene::Colors::Rgba8(c)) = &mut m.colors {
        c.resize(n, [255; 4]);
    }
    m.primitives[0]
        .indices
        .extend_from_slice(&[0, 1, n as u32 - 1]);
}

#[test]
fn more_vertices_than_16_bit_indices_reach_widen_the_index_format() {
    let (meshes, v) = bare_corpus();
    let (_, blade_at, blade) = &meshes[0];
    let (o, _) = mesh::read_fixed(blade, v).unwrap();
    assert_eq!(
        o.index_format.map(|f| f.0),
        Some(0),
        "Blade's indices are 16-bit"
    );
    let made = round(blade, blade_at, v, |m| grow(m, 70_000)).unwrap();
    assert!(
        made.notes
            .iter()
            .any(|n| n
                == "the index format widened to 32 bits: index 69999 is beyond a 16-bit index"),
        "{:?}",
        made.notes
    );
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    assert_eq!(m.index_format.map(|f| f.0), Some(1));
    // Put back into its file, it reads with the new vertex drawn.
    let vd = made
        .vertex_data
        .clone()
        .expect("Blade streams its vertex data");
    let (_, after) = replaced(&game(), &made.object, Some(&vd), 100);
    let s = scene(&after, object(&after, 100));
    assert_eq!(s.meshes[0].positions.len(), 70_000);
    assert!(s.meshes[0].primitives[0].indices.contains(&69_999));
    // UnityPy: 32-bit indices, the 70,000 vertices, the last one drawn.
    let said = unitypy_says(
        &game(),
        &made.object,
        Some(&vd),
        100,
        "f'{m.m_IndexFormat} {len(h.m_Vertices)} {max(max(t) for t in h.get_triangles()[0])}'",
    );
    assert_eq!(said, "1 70000 69999");
}

/// The real skinned body of three streams: a vertex moved in glTF, made like the original,
/// put back into its bundle, read by meshspec and UnityPy.
#[test]
fn shared_edited_geometry_goes_back_into_the_bundle() {
    let shared = meshspec_tests::shared_or_return!();
    let bundle = shared.join("corpus/unity/bundles/2021.3.0f1/assetbundle");
    let (_, g) = load(&bundle);
    let r = g
        .meshes()
        .into_iter()
        .find(|&r| g.name(r).as_deref() == Some("Robot_A_Body_LOD03"))
        .unwrap();
    let id = g.entry(r).path_id;
    let v = version(&g, id);
    let original = g.bytes(r).to_vec();
    let at = meshspec_tests::tools::scratch("like-body/body.mesh");
    let made = round(&original, &at, v, |m| m.positions[7][1] += 0.125).unwrap();
    assert_eq!(made.object.len(), original.len());
    let (r2, after) = replaced(&bundle, &made.object, None, id);
    let m = g.mesh(r).unwrap();
    let m2 = after.mesh(object(&after, id)).unwrap();
    let a = scene(&g, m.at).meshes.remove(0);
    let b = scene(&after, m2.at).meshes.remove(0);
    assert_eq!(b.positions[7][1], a.positions[7][1] + 0.125);
    assert_eq!(b.positions[8..], a.positions[8..]);
    assert_eq!(b.skin, a.skin);
    assert_eq!(b.primitives, a.primitives);
    unitypy_reads(&bundle, &r2.bytes, id, "Robot_A_Body_LOD03");
}

#[test]
fn several_meshes_go_back_in_one_write_with_the_resource_they_share() {
    // Blade's streamed vertex data moved, then Arm renamed: the second replacement reads the
    // resource file the first wrote, and the written pair holds both edits.
    let path = game();
    let (bytes, g) = load(&path);
    let blade = g.mesh(object(&g, 100)).unwrap();
    let mut vertex = g.streamed(&blade, None).unwrap().unwrap().into_owned();
    // Written over its old range of the resource file, which the second write must keep.
    move_first_vertex(&mut vertex);
    let own = g.bytes(object(&g, 100)).to_vec();
    let arm = edited(&path, &bytes, 101, |m| rename(m, "Arm_edited"));
    let edits = [
        Edit {
            path_id: 100,
            object: &own,
            vertex_data: Some(&vertex),
        },
        Edit {
            path_id: 101,
            object: &arm,
            vertex_data: None,
        },
    ];
    let all = replace_all(&path, &bytes, &edits, &Context::new(), &limits(&bytes)).unwrap();
    assert_eq!(
        all.iter().map(|r| r.path_id).collect::<Vec<_>>(),
        [100, 101]
    );
    let last = all.last().unwrap();
    assert!(
        all[0].bytes.is_empty(),
        "only the last result keeps the file"
    );
    let (name, res) = last.resource.clone().expect("the resource the first wrote");
    assert_eq!(name, "game.unity-serialized.resS");
    let mut after = GameFile::from_bytes(&path, &last.bytes, &limits(&last.bytes)).unwrap();
    after
        .resources
        .push((name, meshspec_formats::unity::files::Shared::new(res)));
    let after = GameFiles::from_files(vec![after]);
    assert_eq!(
        after.name(object(&after, 101)).as_deref(),
        Some("Arm_edited")
    );
    let m = after.mesh(object(&after, 100)).unwrap();
    assert_eq!(first_x(&after, &m), first_x(&g, &blade) - 0.5, "x mirrored");
    for id in [100, 101] {
        let v = after
            .input(object(&after, id), &Context::new())
            .unwrap()
            .judge();
        assert!(v.passes(), "#{id}: {:?}", v.first_failure());
    }
    // One replacement per path id.
    let e = replace_all(
        &path,
        &bytes,
        &[edits[1], edits[1]],
        &Context::new(),
        &limits(&bytes),
    )
    .unwrap_err();
    assert!(e.to_string().contains("path id 101 twice"), "{e}");
}

/// The blend shapes of a bare object, as stored.
fn shapes_of(object: &[u8], v: u32) -> meshspec_formats::generated::unity_mesh::BlendShapeData {
    mesh::read_fixed(object, v).unwrap().0.shapes.unwrap()
}

/// Face's blend shapes (`Smile`, one frame; `Blink`, two) edited in glTF: a moved delta, a new
/// target, a removed one; each made like the original, read back by meshspec and, put back
/// into its file, by UnityPy.
#[test]
fn edited_blend_shapes_are_written() {
    let (meshes, v) = bare_corpus();
    let (_, face_at, face) = &meshes[2];
    let ctx = bare(v, face_at);
    let before = scene_of(face, &ctx);
    let stored = shapes_of(face, v);
    let names = |m: &meshspec_formats::scene::Mesh| -> Vec<String> {
        m.morph_targets.iter().map(|t| t.name.clone()).collect()
    };
    assert_eq!(names(&before), ["Smile", "Blink"]);
    assert_eq!(
        stored.channels[1].frame_count, 2,
        "Blink has an in-between frame"
    );

    // Blink's full-weight delta of vertex 1 moved: its last frame is made anew, its
    // in-between frame and Smile keep their stored entries.
    let made = round(face, face_at, v, |m| {
        m.morph_targets[1].positions[1][1] += 0.5
    })
    .unwrap();
    let after = scene_of(&made.object, &ctx);
    assert_eq!(
        after.morph_targets[1].positions[1][1],
        before.morph_targets[1].positions[1][1] + 0.5
    );
    assert_eq!(after.morph_targets[0], before.morph_targets[0]);
    assert_eq!(after.positions, before.positions);
    let written = shapes_of(&made.object, v);
    assert_eq!(written.full_weights, stored.full_weights);
    let frame = |d: &meshspec_formats::generated::unity_mesh::BlendShapeData, k: usize| {
        let s = &d.shapes[k];
        d.vertices[s.first_vertex as usize..(s.first_vertex + s.vertex_count) as usize].to_vec()
    };
    let blink_first = stored.channels[1].frame_index as usize;
    assert_eq!(frame(&written, 0), frame(&stored, 0), "Smile as stored");
    assert_eq!(
        frame(&written, blink_first),
        frame(&stored, blink_first),
        "Blink's in-between frame as stored"
    );
    assert!(
        made.notes
            .iter()
            .any(|n| n.contains("1 blend shape frames made anew")),
        "{:?}",
        made.notes
    );
    let (_, file) = replaced(&game(), &made.object, None, 102);
    let back = scene(&file, object(&file, 102));
    assert_eq!(back.meshes[0].morph_targets, after.morph_targets);
    unitypy_shapes(&game(), &made.object, &written);

    // A new target: a channel of one frame at weight 100, its name's hash; one removed.
    let made = round(face, face_at, v, |m| {
        let mut t = m.morph_targets[0].clone();
        t.name = "Frown".into();
        for p in &mut t.positions {
            p[1] = -p[1];
        }
        m.morph_targets.remove(1);
        m.morph_targets.push(t);
    })
    .unwrap();
    let after = scene_of(&made.object, &ctx);
    assert_eq!(names(&after), ["Smile", "Frown"]);
    assert_eq!(after.morph_targets[0], before.morph_targets[0]);
    let written = shapes_of(&made.object, v);
    assert_eq!(written.channels.len(), 2);
    assert_eq!(written.full_weights, [stored.full_weights[0], 100.0]);
    assert_eq!(
        written.channels[1].name_hash,
        meshspec_formats::unity::decode::name_hash("Frown")
    );
    assert!(
        made.notes
            .iter()
            .any(|n| n.contains("blend shapes removed") && n.contains("Blink")),
        "{:?}",
        made.notes
    );
    let (_, file) = replaced(&game(), &made.object, None, 102);
    assert_eq!(
        names(&scene(&file, object(&file, 102)).meshes[0]),
        ["Smile", "Frown"]
    );
    unitypy_shapes(&game(), &made.object, &written);
}

/// UnityPy reads mesh 102 of `path` with `object` put in: its blend shape channels' names and
/// frame counts, and every entry's vertex index and position delta, as meshspec wrote them.
fn unitypy_shapes(
    path: &Path,
    object: &[u8],
    want: &meshspec_formats::generated::unity_mesh::BlendShapeData,
) {
    let said = unitypy_says(
        path,
        object,
        None,
        102,
        r#"';'.join(f'{c.name}:{c.frameCount}' for c in m.m_Shapes.channels) + '\n' + ';'.join(f'{v.index}:{v.vertex.x!r},{v.vertex.y!r},{v.vertex.z!r}' for v in m.m_Shapes.vertices)"#,
    );
    let channels: Vec<String> = want
        .channels
        .iter()
        .map(|c| format!("{}:{}", c.name.value, c.frame_count))
        .collect();
    let entries: Vec<String> = want
        .vertices
        .iter()
        .map(|e| {
            let f = |x: f32| format!("{:?}", f64::from(x));
            format!(
                "{}:{},{},{}",
                e.index,
                f(e.vertex.x),
                f(e.vertex.y),
                f(e.vertex.z)
            )
        })
        .collect();
    assert_eq!(
        said,
        format!("{}\n{}", channels.join(";"), entries.join(";")),
        "UnityPy's reading of the written blend shapes"
    );
}

/// What an editor changes without an edit is not an edit: normals off by less than 1e-4
/// (Blender keeps custom normals to about four decimals), a vertex's influences in another
/// slot order, bind matrices off in the last places. The object comes back byte for byte;
/// a normal moved further is written.
#[test]
fn round_trip_noise_is_no_edit() {
    let (meshes, v) = bare_corpus();
    let (_, arm_at, arm) = &meshes[1];
    let made = round(arm, arm_at, v, |m| {
        for n in m.normals.as_mut().unwrap() {
            n[0] += 4e-5;
        }
        let s = m.skin.as_mut().unwrap();
        for (j, w) in s.joints.iter_mut().zip(s.weights.iter_mut()) {
            j.reverse();
            w.reverse();
        }
        s.inverse_bind_matrices[1][12] += 2.4e-7;
    })
    .unwrap();
    assert!(made.object == *arm, "{:?}", made.notes);
    let ctx = bare(v, arm_at);
    let before = scene_of(arm, &ctx);
    let made = round(arm, arm_at, v, |m| {
        m.normals.as_mut().unwrap()[0] = [0.0, 1.0, 0.0]
    })
    .unwrap();
    assert!(made.object != *arm);
    let after = scene_of(&made.object, &ctx);
    assert_eq!(after.normals.as_ref().unwrap()[0], [0.0, 1.0, 0.0]);
    assert_eq!(after.normals.unwrap()[1..], before.normals.unwrap()[1..]);
}

/// Skin weights and bone assignments edited in glTF: Arm's vertex 2 weighted 0.25/0.75
/// instead of half and half, vertex 0 moved to the other joint; made like the original, read
/// back by meshspec, and put back into its file, read by UnityPy with the new influences.
#[test]
fn edited_skin_weights_are_written() {
    let (meshes, v) = bare_corpus();
    let (_, arm_at, arm) = &meshes[1];
    let ctx = bare(v, arm_at);
    let before = scene_of(arm, &ctx);
    let s0 = before.skin.as_ref().unwrap();
    assert_eq!(s0.weights[2], [0.5, 0.5, 0.0, 0.0], "{:?}", s0.weights);
    let made = round(arm, arm_at, v, |m| {
        let s = m.skin.as_mut().unwrap();
        s.weights[2] = [0.25, 0.75, 0.0, 0.0];
        s.joints[0] = [1, 0, 0, 0];
    })
    .unwrap();
    let after = scene_of(&made.object, &ctx);
    let s1 = after.skin.as_ref().unwrap();
    assert_eq!(s1.weights[2], [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(s1.joints[0][0], 1);
    assert_eq!(s1.weights[3..], s0.weights[3..]);
    assert_eq!(after.positions, before.positions);
    let (_, file) = replaced(&game(), &made.object, None, 101);
    let back = scene(&file, object(&file, 101)).meshes.remove(0);
    assert_eq!(back.skin.as_ref().unwrap().weights, s1.weights);
    // UnityPy's reading of the written file: vertex 0's bone and vertex 2's weights.
    let said = unitypy_says(
        &game(),
        &made.object,
        None,
        101,
        "f'{h.m_BoneIndices[0][0]} {h.m_BoneWeights[2][0]} {h.m_BoneWeights[2][1]}'",
    );
    assert_eq!(said, "1 0.25 0.75");
}

/// Before 2018.2 a mesh's influences are in m_Skin, four per vertex: an edited weight goes
/// there (the other vertices' entries kept as stored), and the mesh reads back with it.
#[test]
fn edited_influences_go_into_m_skin_before_2018_2() {
    let v = 20170400;
    let m = meshspec_formats::unity::make::sample(v, 6);
    assert!(
        m.skin.as_ref().is_some_and(|s| s.num_items == 6),
        "the sample has m_Skin"
    );
    let object = m.to_bytes(&mesh::context(v)).unwrap();
    let (meshes, _) = bare_corpus();
    let at = blade_dir(&meshes).join("old-skin.mesh");
    std::fs::write(&at, &object).unwrap();
    let ctx = bare(v, &at);
    let before = scene_of(&object, &ctx);
    let w = before.skin.as_ref().unwrap().weights.clone();
    let made = round(&object, &at, v, |m| {
        let s = m.skin.as_mut().unwrap();
        s.weights[1] = [0.25, 0.75, 0.0, 0.0];
        s.joints[1] = [1, 0, 0, 0];
    })
    .unwrap();
    assert!(
        made.notes
            .iter()
            .any(|n| n.contains("1 of 6 vertices' influences written into m_Skin")),
        "{:?}",
        made.notes
    );
    let after = scene_of(&made.object, &ctx);
    let s = after.skin.as_ref().unwrap();
    assert_eq!(s.weights[1], [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(s.joints[1][..2], [1, 0]);
    assert_eq!(s.weights[0], w[0]);
    assert_eq!(s.weights[2..], w[2..]);
    let (old, _) = mesh::read_fixed(&object, v).unwrap();
    let (new, _) = mesh::read_fixed(&made.object, v).unwrap();
    let (o, n) = (old.skin.unwrap().items, new.skin.unwrap().items);
    assert_eq!(o[0], n[0], "an unedited vertex keeps its entry");
    assert_ne!(o[1], n[1]);
}

/// Rock's compressed vertices edited in glTF: a vertex moved within the packed range and a
/// texture coordinate changed are quantised anew in the vectors' own bit widths (every other
/// item kept as stored); a vertex moved outside the range widens it. Read back by meshspec
/// and, put back into its file, by UnityPy.
#[test]
fn edited_compressed_meshes_are_re_packed() {
    let (meshes, v) = bare_corpus();
    let (_, rock_at, rock) = &meshes[3];
    let ctx = bare(v, rock_at);
    let before = scene_of(rock, &ctx);
    let (o, _) = mesh::read_fixed(rock, v).unwrap();
    let step = o.compressed_mesh.vertices.range
        / ((1u64 << o.compressed_mesh.vertices.bit_size) - 1) as f32;
    // Within the range: towards the middle of the box.
    let target = [
        (before.positions[0][0] + before.positions[1][0]) / 2.0,
        before.positions[0][1],
        before.positions[0][2],
    ];
    let made = round(rock, rock_at, v, |m| {
        m.positions[0] = target;
        m.uvs[0][1][0] = 0.25;
    })
    .unwrap();
    assert!(
        made.notes
            .iter()
            .any(|n| n.contains("compressed mesh re-packed") && !n.contains("widened")),
        "{:?}",
        made.notes
    );
    let after = scene_of(&made.object, &ctx);
    for k in 0..3 {
        assert!(
            (after.positions[0][k] - target[k]).abs() <= step,
            "{:?} {target:?}",
            after.positions[0]
        );
    }
    assert_eq!(after.positions[1..], before.positions[1..]);
    assert!(
        (after.uvs[0][1][0] - 0.25).abs() < 0.01,
        "{:?}",
        after.uvs[0][1]
    );
    assert_eq!(after.uvs[0][2..], before.uvs[0][2..]);
    assert_eq!(after.normals, before.normals);
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    assert_eq!(
        m.compressed_mesh.vertices.bit_size,
        o.compressed_mesh.vertices.bit_size
    );
    assert_eq!(
        m.compressed_mesh.vertices.start,
        o.compressed_mesh.vertices.start
    );
    let (_, file) = replaced(&game(), &made.object, None, 103);
    assert_eq!(
        scene(&file, object(&file, 103)).meshes[0].positions,
        after.positions
    );
    unitypy_first_vertex(&game(), &made.object, 103, after.positions[0]);

    // Outside the range: widened, said, and the vertex where it was put.
    let far = [
        before.positions[0][0] + 10.0,
        before.positions[0][1],
        before.positions[0][2],
    ];
    let made = round(rock, rock_at, v, |m| m.positions[0] = far).unwrap();
    assert!(
        made.notes.iter().any(|n| n.contains("widened")),
        "{:?}",
        made.notes
    );
    let after = scene_of(&made.object, &ctx);
    let (m, _) = mesh::read_fixed(&made.object, v).unwrap();
    let wide = m.compressed_mesh.vertices.range
        / ((1u64 << m.compressed_mesh.vertices.bit_size) - 1) as f32;
    assert!(
        (after.positions[0][0] - far[0]).abs() <= wide,
        "{:?}",
        after.positions[0]
    );
    for (a, b) in after.positions[1..].iter().zip(&before.positions[1..]) {
        for k in 0..3 {
            assert!((a[k] - b[k]).abs() <= wide, "{a:?} {b:?}");
        }
    }
    unitypy_first_vertex(&game(), &made.object, 103, after.positions[0]);
}

/// What UnityPy says of object `id` of `path` with `object` put in: `expr` (Python, over `m`,
/// the object read, and `h`, its MeshHandler after process()) printed.
fn unitypy_says(path: &Path, object: &[u8], vertex: Option<&[u8]>, id: i64, expr: &str) -> String {
    let (r, _) = replaced(path, object, vertex, id);
    // One folder per call (a test may ask several times), the file under its own name so that its
    // resource file, written beside it, is found.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = meshspec_tests::tools::scratch_dir(&format!("says-{k}"));
    let file = dir.join(path.file_name().unwrap());
    std::fs::write(&file, &r.bytes).unwrap();
    if let Some((name, res)) = &r.resource {
        std::fs::write(dir.join(name), res).unwrap();
    }
    let script = r#"
import sys, UnityPy
from UnityPy.helpers.MeshHelper import MeshHandler
env = UnityPy.load(sys.argv[1])
for obj in env.objects:
    if obj.path_id == int(sys.argv[2]):
        m = obj.read()
        h = MeshHandler(m); h.process()
        print(eval(sys.argv[3]))
"#;
    let out = meshspec_tests::tools::unitypy()
        .args(["-c", script, file.to_str().unwrap(), &id.to_string(), expr])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "UnityPy: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// UnityPy reads object `id` of `path` with `object` put in: its first vertex (in glTF's
/// frame, x mirrored) within 1e-5 of `want`.
fn unitypy_first_vertex(path: &Path, object: &[u8], id: i64, want: [f32; 3]) {
    let said = unitypy_says(
        path,
        object,
        None,
        id,
        "' '.join(repr(float(x)) for x in h.m_Vertices[0])",
    );
    let got: Vec<f64> = said
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let want = [-want[0], want[1], want[2]];
    for k in 0..3 {
        assert!(
            (got[k] - f64::from(want[k])).abs() < 1e-5,
            "UnityPy {got:?}, meshspec {want:?}"
        );
    }
}
