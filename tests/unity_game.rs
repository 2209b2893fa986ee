//! Unity game files as a source of entries: each object is an input of its layout, judged,
//! walked and decoded through the same `Entry` as a bare object with offsets in its serialized
//! file; files whose version string is not a version read with the one layout range that
//! fits; a player build in a folder reads as the bundle it was cut from; and the survey
//! reaches the meshes inside game files, per editor version.

use meshspec_formats::context::Context;
use meshspec_formats::rt::Span;
use meshspec_formats::survey::{self, Options};
use meshspec_formats::unity::files::game::{GameFile, GameFiles, Select};
use meshspec_formats::unity::files::version::How;
use meshspec_formats::unity::files::{mesh, Limits, ObjectRef};
use meshspec_formats::verdict::Verdict;
use meshspec_tests::tools::scratch;
use meshspec_tests::unity_corpus as corpus;
use meshspec_tests::unity_fixtures::{bundle_with_version, cut, with_version};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn open(paths: &[PathBuf]) -> GameFiles {
    GameFiles::open(paths).unwrap_or_else(|e| panic!("{paths:?}: {e}"))
}

/// Opens `bytes` as if read from `path` (nothing is looked for beside it).
fn from_bytes(path: &str, bytes: &[u8]) -> GameFiles {
    let mut f = GameFile::from_bytes(Path::new(path), bytes, &Limits::default()).unwrap();
    f.resources_beside = false;
    GameFiles::from_files(vec![f])
}

fn mesh_named(g: &GameFiles, name: &str) -> ObjectRef {
    let found = g.select(&Select::MeshName(name.into()));
    assert_eq!(found.len(), 1, "{name}");
    found[0]
}

/// A verdict as lines, the strictness left out.
fn lines(v: &Verdict) -> Vec<String> {
    v.refused
        .iter()
        .chain(&v.findings)
        .map(|e| format!("{:?} {e}", e.severity))
        .chain(v.notes.iter().cloned())
        .collect()
}

#[test]
fn a_game_files_mesh_is_the_bare_objects_entry_with_offsets_in_its_serialized_file() {
    let entry = meshspec_formats::find("unity-mesh").unwrap();
    let mut checked = 0;
    for file in [
        "game.unity-serialized",
        "notree.unity-serialized",
        "lz4.unity-bundle",
        "player.unity-bundle",
    ] {
        let g = open(&[corpus(file)]);
        for r in g.meshes() {
            let input = g.input(r, &Context::new()).unwrap();
            let o = g.entry(r);
            assert_eq!(input.base, o.offset, "{file}");
            assert_eq!(input.bytes, g.bytes(r));
            // The bare object, read with its file's version and its streamed data given as
            // the file that holds it.
            let mut bare = mesh::context(20220310);
            if let Some(range) = &input.mesh.stream {
                let p = scratch(&format!("{file}.{}.resS", o.path_id));
                let mut res = vec![0u8; range.offset as usize];
                res.extend_from_slice(&g.streamed(&input.mesh, None).unwrap().unwrap());
                std::fs::write(&p, &res).unwrap();
                bare.resource = Some(p);
            }
            let mut want = entry.judge(g.bytes(r), &bare);
            want.refused = want.refused.map(|e| e.shifted(o.offset));
            want.findings = want
                .findings
                .into_iter()
                .map(|e| e.shifted(o.offset))
                .collect();
            assert_eq!(lines(&input.judge()), lines(&want), "{file} #{}", o.path_id);
            // Every field where the bare object has it.
            let mut ours: Vec<(String, Span)> = vec![];
            input
                .walk(&mut |p, s, _, _| ours.push((p.to_string(), s)))
                .unwrap();
            let mut theirs: Vec<(String, Span)> = vec![];
            entry
                .walk(g.bytes(r), &bare, &mut |p, s, _, _| {
                    theirs.push((p.to_string(), s))
                })
                .unwrap();
            assert_eq!(ours, theirs, "{file}");
            // The same geometry; the parts' byte ranges moved by the object's start.
            let ours = input.decode().unwrap().scene;
            let theirs = entry.scene(g.bytes(r), &bare).unwrap();
            let (a, b) = (&ours.meshes[0], &theirs.meshes[0]);
            assert_eq!(a.positions, b.positions);
            assert_eq!(a.primitives, b.primitives);
            let shifted: Vec<u64> = b
                .origin
                .ranges
                .iter()
                .map(|x| x.offset + if x.file.is_none() { o.offset } else { 0 })
                .collect();
            let got: Vec<u64> = a.origin.ranges.iter().map(|x| x.offset).collect();
            assert_eq!(got, shifted, "{file}");
            checked += 1;
        }
    }
    assert_eq!(checked, 20);
}

#[test]
fn joints_and_materials_are_named_from_the_renderer_even_in_another_serialized_file() {
    // In player.unity-bundle the renderers are in level0 and the meshes and materials in
    // sharedassets0.assets, which level0 names as its first external file.
    for file in ["game.unity-serialized", "player.unity-bundle"] {
        let g = open(&[corpus(file)]);
        let arm = mesh_named(&g, "Arm");
        let scene = meshspec_tests::unity_scene(&g, arm);
        let m = &scene.meshes[0];
        assert_eq!(m.skin.as_ref().unwrap().joint_names, ["Shoulder", "Elbow"]);
        assert_eq!(m.materials[0].name, "ArmSkin");
        let face = mesh_named(&g, "Face");
        let scene = meshspec_tests::unity_scene(&g, face);
        assert_eq!(scene.meshes[0].materials[0].name, "FacePaint", "{file}");
        let drawers: Vec<(String, i64)> = g
            .drawn_by(face)
            .into_iter()
            .map(|r| {
                (
                    g.files[0].serialized[r.inner].name.clone(),
                    g.entry(r).path_id,
                )
            })
            .collect();
        let renderer_in = if file == "player.unity-bundle" {
            "level0"
        } else {
            file
        };
        assert_eq!(drawers, [(renderer_in.to_string(), 32)], "{file}");
    }
}

/// What a set of opened files shows of every object, by serialized file name (not the file on
/// disk): class, name, size; and of every mesh, its verdict, joint and material names and the
/// renderers that draw it.
fn fingerprint(g: &GameFiles) -> BTreeMap<(String, i64), String> {
    let mut out = BTreeMap::new();
    for l in g.list(None) {
        let base = l.serialized.rsplit('/').next().unwrap().to_string();
        out.insert(
            (base, l.path_id),
            format!("{} {:?} {} {}", l.class, l.name, l.byte_size, l.offset),
        );
    }
    for r in g.meshes() {
        let input = g.input(r, &Context::new()).unwrap();
        let names = g.names(&input.mesh);
        let drawn: Vec<i64> = g.drawn_by(r).iter().map(|&d| g.entry(d).path_id).collect();
        let key = (
            g.files[r.file].serialized[r.inner]
                .name
                .rsplit('/')
                .next()
                .unwrap()
                .to_string(),
            g.entry(r).path_id,
        );
        let text = out.get_mut(&key).unwrap();
        text.push_str(&format!(
            " | {:?} | {:?} {:?} | drawn by {drawn:?}",
            lines(&input.judge()),
            names.joints,
            names.materials
        ));
        if let Ok(d) = input.decode() {
            text.push_str(&format!(
                " | {} vertices",
                d.scene.meshes[0].positions.len()
            ));
        }
    }
    out
}

#[test]
fn a_player_build_cut_into_loose_files_reads_as_its_bundle() {
    let bundle = corpus("player.unity-bundle");
    let dir = scratch("player/Game_Data");
    let written = cut(&std::fs::read(&bundle).unwrap(), &dir);
    assert_eq!(written.len(), 3);
    let whole = open(std::slice::from_ref(&bundle));
    let loose = open(std::slice::from_ref(&dir));
    assert_eq!(loose.files.len(), 2, "level0 and sharedassets0.assets");
    assert_eq!(
        loose.resource_files,
        [dir.join("sharedassets0.assets.resS")]
    );
    assert!(loose.skipped.is_empty(), "{:?}", loose.skipped);
    let (a, b) = (fingerprint(&whole), fingerprint(&loose));
    assert_eq!(a.len(), 18);
    assert_eq!(a, b);
    // The streamed mesh reads its vertex data from the .resS beside sharedassets0.assets.
    let blade = mesh_named(&loose, "Blade");
    assert_eq!(
        loose
            .streamed(&loose.mesh(blade).unwrap(), None)
            .unwrap()
            .unwrap()
            .len(),
        128
    );
    assert!(b[&("sharedassets0.assets".into(), 101)]
        .contains(r#"["Shoulder", "Elbow"] ["ArmSkin"] | drawn by [30]"#));
}

#[test]
fn shared_webgl_player_builds_cut_into_loose_files_read_as_their_bundles() {
    let shared = meshspec_tests::shared_or_return!("WebGL player builds cut into loose files");
    let real = shared.join("corpus/unity-real/gimballock");
    for (build, meshes) in [
        ("GimbalLock.data.unityweb-contents", 2),
        ("WebGL.data.unityweb-contents", 2),
    ] {
        let bundle = real.join(build).join("data.unity3d");
        let dir = scratch(&format!("{build}/Build_Data"));
        cut(&std::fs::read(&bundle).unwrap(), &dir);
        let whole = open(std::slice::from_ref(&bundle));
        let loose = open(std::slice::from_ref(&dir));
        assert_eq!(loose.meshes().len(), meshes, "{build}");
        assert_eq!(
            loose.files.len(),
            whole.files[0].serialized.len(),
            "{build}"
        );
        let (a, b) = (fingerprint(&whole), fingerprint(&loose));
        assert_eq!(a, b, "{build}");
        let names: Vec<String> = loose
            .meshes()
            .iter()
            .map(|&r| loose.name(r).unwrap())
            .collect();
        assert_eq!(names, ["Cone", "Torus"], "{build}");
    }
    // A loose player file of a build, opened with its folder.
    let g = open(&[shared.join("corpus/unity-real/ggj2017/Build_Data")]);
    assert_eq!(g.meshes().len(), 13);
    assert!(g
        .meshes()
        .iter()
        .all(|&r| g.input(r, &Context::new()).unwrap().judge().passes()));
}

#[test]
fn stripped_version_strings_read_with_the_one_layout_range_that_fits() {
    for (file, trees) in [
        ("notree.unity-serialized", false),
        ("lz4.unity-bundle", true),
    ] {
        let original = std::fs::read(corpus(file)).unwrap();
        let stripped = if file.ends_with("bundle") {
            bundle_with_version(&original, "0.0.0")
        } else {
            with_version(&original, "0.0.0")
        };
        let g = from_bytes(file, &stripped);
        let before = from_bytes(file, &original);
        assert_eq!(g.files[0].serialized[0].file.unity_version, "0.0.0");
        assert_eq!(g.meshes().len(), 5);
        for (r, r0) in g.meshes().into_iter().zip(before.meshes()) {
            let v = g.version(r).unwrap();
            assert_eq!(
                v.how,
                How::Fitted {
                    range: "2022.1 to 6000.1".into(),
                    meshes: 5
                }
            );
            assert_eq!(v.number, 20220100);
            let input = g.input(r, &Context::new()).unwrap();
            assert_eq!(input.mesh.typed, trees);
            let verdict = input.judge();
            assert!(verdict.refused.is_none(), "{file}: {verdict:?}");
            assert_eq!(
                verdict.notes[0],
                "the file's version string is 0.0.0; its 5 meshes read exactly with the layout of 2022.1 to 6000.1 (read as 2022.1.0)"
            );
            // The same meshes as the file that says its version.
            let a = input.decode();
            let b = before.input(r0, &Context::new()).unwrap().decode();
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    let (a, b) = (&a.scene.meshes[0], &b.scene.meshes[0]);
                    assert_eq!(a.positions, b.positions);
                    assert_eq!(a.skin, b.skin, "{file}");
                    assert_eq!(a.materials, b.materials, "{file}");
                }
                (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{file}"),
            }
        }
        // The version given instead.
        let mut given = from_bytes(file, &stripped);
        given.unity_version = Some(20220310);
        let v = given.version(given.meshes()[0]).unwrap();
        assert_eq!(v.how, How::Given);
        assert_eq!(
            v.note().unwrap(),
            "the file's version string is 0.0.0; read with --unity-version 2022.3.10"
        );
        // A file's own version wins; another one given is refused at the version string.
        let mut other = from_bytes(file, &original);
        other.unity_version = Some(20210300);
        let e = other.version(other.meshes()[0]).unwrap_err();
        assert!(
            e.error
                .to_string()
                .ends_with("unity_serialized.metadata.unity_version: expected the file's own version 2022.3.10 (a file's version string wins: give no --unity-version, or that one), found --unity-version 2021.3.0"),
            "{e}"
        );
        other.unity_version = Some(20220310);
        assert!(other.version(other.meshes()[0]).is_ok());
    }
}

#[test]
fn shared_stripped_bundles_fit_the_layout_range_of_the_version_that_wrote_them() {
    let shared =
        meshspec_tests::shared_or_return!("stripped real bundles fit their own layout range");
    let cases = [
        (
            "corpus/unity/bundles/2019.4.0f1/assetbundle",
            "2019.1 to 2019.4",
            7,
        ),
        (
            "corpus/unity/bundles/2020.3.0f1/assetbundle",
            "2020.1 to 2021.3",
            7,
        ),
        (
            "corpus/unity/bundles/2021.3.0f1/assetbundle",
            "2020.1 to 2021.3",
            7,
        ),
        (
            "corpus/unity/bundles/2022.1.20f1/assetbundle",
            "2022.1 to 6000.1",
            7,
        ),
        (
            "corpus/unity/bundles/2023.1.0a16/assetbundle",
            "2022.1 to 6000.1",
            7,
        ),
        (
            "corpus/unity-real/beatsaber-avatars/2018.4.4f1/TemplateFullBody.avatar",
            "2018.3 to 2018.4",
            2,
        ),
        (
            "corpus/unity-real/ggj2017/Build_Data/sharedassets0.assets",
            "2017.3 to 2017.4",
            13,
        ),
        (
            "corpus/unity-real/project-mvps/5.6.2f1/mymod",
            "5.0 to 5.6",
            5,
        ),
    ];
    for (file, range, meshes) in cases {
        let original = std::fs::read(shared.join(file)).unwrap();
        let stripped = if original.starts_with(b"UnityFS") {
            bundle_with_version(&original, "0.0.0")
        } else {
            with_version(&original, "0.0.0")
        };
        let g = from_bytes(file, &stripped);
        let m = g.meshes();
        assert_eq!(m.len(), meshes, "{file}");
        let v = g.version(m[0]).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            v.how,
            How::Fitted {
                range: range.into(),
                meshes
            },
            "{file}"
        );
        assert!(
            m.iter()
                .all(|&r| g.input(r, &Context::new()).unwrap().judge().passes()),
            "{file}"
        );
    }
}

fn survey_of(paths: &[PathBuf]) -> survey::Report {
    survey::survey(paths, &Options::default(), &())
}

#[test]
fn the_survey_counts_the_meshes_inside_game_files_per_editor_version() {
    // The shipped corpus: 45 meshes in nine game files of Unity 2022.3.10 (the editor's file
    // among them), nine in three of Unity 3.4.2 (one of them, in bad/, with arrays that
    // disagree); a stripped copy of one adds its five under the range they were read with.
    let stripped = scratch("survey/stripped.unity-bundle");
    std::fs::create_dir_all(stripped.parent().unwrap()).unwrap();
    std::fs::write(
        &stripped,
        bundle_with_version(&std::fs::read(corpus("lz4.unity-bundle")).unwrap(), "0.0.0"),
    )
    .unwrap();
    // A mesh its layout does not read, in a serialized file no signature claims.
    let g = open(&[corpus("notree.unity-serialized")]);
    let face = mesh_named(&g, "Face");
    let mut bytes = g.bytes(face).to_vec();
    let at = bytes.len() - 4;
    bytes.truncate(at);
    let broken = meshspec_formats::unity::files::serialized::with_object(
        &std::fs::read(corpus("notree.unity-serialized")).unwrap(),
        102,
        &bytes,
    )
    .unwrap();
    let level = scratch("survey/level1");
    std::fs::write(&level, broken).unwrap();
    let r = survey_of(&[corpus(""), stripped.parent().unwrap().to_path_buf()]);
    let m = r.layout("unity-mesh").expect("a unity-mesh section");
    assert_eq!((m.tried, m.in_game_files), (64, 64));
    assert_eq!((m.passed, m.failed), (62, 2));
    let versions: Vec<(&str, u64)> = m
        .versions
        .iter()
        .map(|(k, v)| (k.as_str(), v.tried))
        .collect();
    assert_eq!(
        versions,
        [
            ("0.0.0 read as 2022.1 to 6000.1", 5),
            ("2022.3.10", 50),
            ("3.4.2", 9)
        ]
    );
    assert_eq!(m.versions["3.4.2"].failed, 1);
    let v = &m.versions["2022.3.10"];
    assert_eq!(v.failed, 1);
    assert_eq!(v.failures.len(), 1);
    let f = &v.failures[0];
    assert_eq!(f.examples[0].file, format!("{}#102", level.display()));
    assert_eq!(
        (f.path.as_str(), f.rule.as_str()),
        ("stream_data.path.len_value", "eof")
    );
    let f = &m.versions["3.4.2"].failures[0];
    assert!(
        f.examples[0]
            .file
            .ends_with("bad/arrays-per-vertex.assets#1"),
        "{:?}",
        f.examples
    );
    assert_eq!(
        (f.path.as_str(), f.rule.as_str()),
        ("num_normals", "arrays_per_vertex")
    );
    // The fields below proven are tallied per version too.
    // (Every mesh read is counted, the field present or not: 54 of 2022.3, 9 of 3.4.)
    assert_eq!(m.fields["cooking_options"].occurrences, 63);
    assert_eq!(v.fields["cooking_options"].occurrences, 49);
    // The editor's meshes are surveyed with their editor-only fields (absent from the
    // players').
    let hide: Vec<String> = m.fields["object_hide_flags"]
        .values
        .kept()
        .map(|(v, n)| format!("{v:?} {n}"))
        .collect();
    assert_eq!(hide, ["Absent 58", "U(8) 5"]);
    // The containers keep their sections; the plain serialized file is one by its content.
    let s = r.layout("unity-serialized").unwrap();
    assert!(
        s.failures.is_empty()
            || s.failures
                .iter()
                .all(|g| g.examples.iter().all(|e| e.file.contains("/bad/"))),
        "{:?}",
        s.failures
    );
    assert_eq!(s.tried, 10);
    // Adding up the halves gives the whole (the counts, the failures and the versions; a
    // list of records only ever seen empty by one half is a field there, see fields.rs).
    let mut a = survey_of(&[corpus("")]);
    a.merge(
        survey_of(&[stripped.parent().unwrap().to_path_buf()]),
        survey::DEFAULT_CAP,
    );
    let counts = |l: &survey::LayoutReport| {
        let versions: Vec<(String, u64, u64)> = l
            .versions
            .iter()
            .map(|(k, v)| (k.clone(), v.tried, v.passed))
            .collect();
        (
            l.tried,
            l.passed,
            l.in_game_files,
            l.failures.clone(),
            versions,
        )
    };
    assert_eq!(counts(a.layout("unity-mesh").unwrap()), counts(m));
    // One run gives the same tallies on any number of threads.
    for threads in [1, 8] {
        let o = Options {
            threads: Some(threads),
            ..Options::default()
        };
        let r = survey::survey(
            &[corpus(""), stripped.parent().unwrap().to_path_buf()],
            &o,
            &(),
        );
        assert_eq!(r.layout("unity-mesh"), Some(m), "{threads} threads");
    }
}

#[test]
fn shared_the_survey_reaches_every_mesh_of_the_real_files() {
    let shared = meshspec_tests::shared_or_return!("survey of the real Unity files");
    let r = survey_of(&[shared.join("corpus/unity-real")]);
    let m = r.layout("unity-mesh").unwrap();
    let tried = |v: &str| m.versions.get(v).map_or(0, |r| r.tried);
    assert_eq!(tried("2017.1.1"), 51);
    assert_eq!(tried("2017.3.0"), 51);
    assert_eq!(tried("2020.3.25"), 31);
    assert_eq!(tried("2022.3.9"), 28);
    assert_eq!(tried("2018.2.15"), 1);
    assert_eq!(m.in_game_files, m.tried);
    assert!(m.tried >= 237, "{}", m.tried);
}

/// `a · b` of column-major 4x4 matrices.
fn mul4(a: [[f32; 4]; 4], b: [[f32; 4]; 4]) -> [[f32; 4]; 4] {
    std::array::from_fn(|c| std::array::from_fn(|r| (0..4).map(|k| a[k][r] * b[c][k]).sum()))
}

/// The world matrix of glTF node `n` (column-major), its ancestors' transforms applied.
fn world_of(doc: &gltf::Document, n: usize) -> [[f32; 4]; 4] {
    let node = doc.nodes().nth(n).unwrap();
    let local = node.transform().matrix();
    match doc.nodes().find(|p| p.children().any(|c| c.index() == n)) {
        Some(p) => mul4(world_of(doc, p.index()), local),
        None => local,
    }
}

#[test]
fn a_skinned_mesh_exports_with_the_skeleton_its_transforms_make() {
    // Arm's bones are Shoulder and Elbow; Elbow's Transform hangs from Shoulder's, Shoulder's
    // from ArmRoot's (no bone): Shoulder is a root joint, Elbow its child.
    let g = open(&[corpus("game.unity-serialized")]);
    let arm = mesh_named(&g, "Arm");
    let scene = meshspec_tests::unity_scene(&g, arm);
    let skin = scene.meshes[0].skin.as_ref().unwrap();
    assert_eq!(skin.joint_names, ["Shoulder", "Elbow"]);
    assert_eq!(skin.joint_parents, [None, Some(0)]);
    let glb =
        meshspec_formats::export::glb(scene.clone(), meshspec_formats::export::NonFinite::Refuse)
            .unwrap();
    let (doc, buffers, _) = gltf::import_slice(&glb.bytes).unwrap();
    let s = doc.skins().next().unwrap();
    let joints: Vec<gltf::Node> = s.joints().collect();
    assert_eq!(
        joints[0].children().map(|c| c.index()).collect::<Vec<_>>(),
        [joints[1].index()]
    );
    // At rest each joint is where its bind pose puts it: its world matrix times its inverse
    // bind matrix is the identity.
    let ibms: Vec<[[f32; 4]; 4]> = s
        .reader(|b| Some(&buffers[b.index()]))
        .read_inverse_bind_matrices()
        .unwrap()
        .collect();
    for (j, ibm) in joints.iter().zip(&ibms) {
        let p = mul4(world_of(&doc, j.index()), *ibm);
        for (c, column) in p.iter().enumerate() {
            for (r, &v) in column.iter().enumerate() {
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-5, "{:?}: {v} at {r},{c}", j.name());
            }
        }
    }
}
