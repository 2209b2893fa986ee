//! .meshbin beyond the shared corpus tests: what the bytes mean, the two windings, the builder
//! and its messages, refusals at the right field, and geometry round trips through glTF and OBJ.

use meshspec_formats::context::{Context, Winding};
use meshspec_formats::generated::meshbin::Meshbin;
use meshspec_formats::rt::{ErrorKind, Root};
use meshspec_formats::scene::{Colors, Mode};
use meshspec_formats::{export, find, import, meshbin};
use meshspec_tests::root;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(root().join("corpus/meshbin").join(name)).unwrap()
}

#[test]
fn the_documents_floor_decodes_to_its_plane() {
    let m = Meshbin::from_bytes(&corpus("floor.meshbin"), &Context::new()).unwrap();
    assert_eq!((m.num_vertices, m.num_indices), (4, 6));
    let v0 = &m.vertices[0];
    assert_eq!((v0.x, v0.y, v0.z), (-4.0, 0.0, 4.0));
    assert_eq!((v0.r, v0.g, v0.b, v0.a), (51, 115, 64, 255));
    assert_eq!(m.indices, vec![0, 2, 1, 2, 3, 1]);
    let bytes = corpus("floor.meshbin");
    let read = Meshbin::read::<false>(&bytes, &Context::new()).unwrap();
    let mesh = meshbin::to_mesh(&read.value, Winding::D3d);
    assert_eq!(mesh.primitives[0].mode, Mode::Triangles);
    // Decoded counter-clockwise, and facing +y: the plane's normal from the first triangle.
    let idx = &mesh.primitives[0].indices;
    assert_eq!(idx, &vec![0, 1, 2, 2, 1, 3]);
    let p = |i: u32| mesh.positions[i as usize];
    let (a, b, c) = (p(idx[0]), p(idx[1]), p(idx[2]));
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    assert!(u[2] * v[0] - u[0] * v[2] > 0.0, "the floor faces +y");
    assert_eq!(
        mesh.colors,
        Some(Colors::Rgba8(vec![[51, 115, 64, 255]; 4]))
    );
}

#[test]
fn direct3d_and_opengl_files_differ_only_in_each_triangles_order() {
    for (d3d, gl) in [
        ("floor.meshbin", "floor-gl.meshbin"),
        ("cube.meshbin", "cube-gl.meshbin"),
        ("helix.meshbin", "helix-gl.meshbin"),
    ] {
        let (a, b) = (corpus(d3d), corpus(gl));
        assert_eq!(a.len(), b.len());
        let ma = Meshbin::from_bytes(&a, &Context::new()).unwrap();
        let mb = Meshbin::from_bytes(&b, &Context::new()).unwrap();
        let split = 4 + 16 * ma.vertices.len();
        assert_eq!(
            a[..split],
            b[..split],
            "{d3d}: counts and vertices are the same"
        );
        assert_ne!(ma.indices, mb.indices);
        for (ta, tb) in ma.indices.chunks(3).zip(mb.indices.chunks(3)) {
            assert_eq!(ta, [tb[0], tb[2], tb[1]]);
        }
        // Named with their windings, both decode to the same triangles.
        let ctx = Context::new();
        let da = meshbin::to_mesh(
            &Meshbin::read::<false>(&a, &ctx).unwrap().value,
            Winding::D3d,
        );
        let db = meshbin::to_mesh(
            &Meshbin::read::<false>(&b, &ctx).unwrap().value,
            Winding::Gl,
        );
        assert_eq!(da, db);
    }
}

#[test]
fn the_helix_is_the_documents_size_benchmark() {
    let bytes = corpus("helix.meshbin");
    assert_eq!(bytes.len(), 1_179_148);
    let m = Meshbin::from_bytes(&bytes, &Context::new()).unwrap();
    assert_eq!(m.vertices.len(), 65_508);
    assert_eq!(m.indices.len() / 3, 21_836);
}

#[test]
fn bad_counts_are_refused_at_the_field_they_break() {
    let floor = corpus("floor.meshbin");
    let ctx = Context::new();
    // One vertex too many: the vertex array would run past the end.
    let mut b = floor.clone();
    b[0] = 5;
    let e = Meshbin::from_bytes(&b, &ctx).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Count, Some(4)));
    assert_eq!(e.path_string(), "meshbin.vertices");
    assert_eq!(e.found, "5 elements");
    // One index too many.
    let mut b = floor.clone();
    b[2] = 7;
    let e = Meshbin::from_bytes(&b, &ctx).unwrap_err();
    assert_eq!(
        (e.offset, e.path_string()),
        (Some(0x44), "meshbin.indices".into())
    );
    // One vertex too few: the file is longer than the counts say.
    let mut b = floor.clone();
    b[0] = 3;
    let e = Meshbin::from_bytes(&b, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Trailing);
    // Truncated in the middle of an index.
    let e = Meshbin::from_bytes(&floor[..79], &ctx).unwrap_err();
    assert_eq!(
        (e.offset, e.path_string()),
        (Some(0x44), "meshbin.indices".into())
    );
    // Extended by a byte.
    let e = Meshbin::from_bytes(&[&floor[..], &[0]].concat(), &ctx).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x50 meshbin: expected end of input, found 1 byte more"
    );
    // An index naming no vertex parses; the verdict names the relation at the index's offset
    // (a warning: the document's word for it is sourced) and refuses the file, since its
    // triangles cannot be decoded.
    let mut b = floor.clone();
    b[0x44 + 8] = 9;
    let entry = find("meshbin").unwrap();
    let v = entry.judge(&b, &ctx);
    assert!(!v.passes());
    let warnings: Vec<String> = v.warnings().map(|e| e.to_string()).collect();
    assert_eq!(
        warnings,
        ["0x4C meshbin.indices[4]: expected _ < num_vertices with num_vertices = 4 (relation `indices_name_vertices`), found 9"]
    );
    let errors: Vec<String> = v.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["0x44 meshbin.indices: expected every index below the vertex count 4, to decode the triangles, found 1 indices that name no vertex"]
    );
}

#[test]
fn an_edited_dump_is_rebuilt_with_recomputed_counts() {
    let entry = find("meshbin").unwrap();
    let ctx = Context::new();
    let mut dump = entry.dump(&corpus("floor.meshbin"), &ctx).unwrap();
    // Drop the second triangle and its now unused vertex; leave the counts stale.
    let data = &mut dump["data"];
    data["indices"].as_array_mut().unwrap().truncate(3);
    data["vertices"].as_array_mut().unwrap().pop();
    assert_eq!(data["num_vertices"], 4);
    let built = entry.build(&dump, &ctx).unwrap();
    let bytes = &built.bytes;
    assert_eq!(bytes.len(), 4 + 3 * 16 + 3 * 2);
    assert_eq!(&bytes[..4], &[3, 0, 3, 0]);
    assert!(built.verdict.passes() && built.verdict.findings.is_empty());
    // The counts the dump gave are named with what was written instead.
    let said: Vec<String> = built.overrides.iter().map(|o| o.to_string()).collect();
    assert_eq!(
        said,
        [
            "data.num_vertices: the dump gives 4, 3 was written (recomputed from the data)",
            "data.num_indices: the dump gives 6, 3 was written (recomputed from the data)"
        ]
    );
    // A dump that is not of this layout, or holds a value its field cannot, is refused.
    let mut other = dump.clone();
    other["layout"] = "sws-mesh".into();
    assert!(entry
        .build(&other, &ctx)
        .unwrap_err()
        .to_string()
        .contains("a dump of layout `meshbin`"));
    let mut bad = dump.clone();
    bad["data"]["vertices"][0]["r"] = 300.into();
    let e = entry.build(&bad, &ctx).unwrap_err();
    assert!(e.to_string().contains("data.vertices[0].r"), "{e}");
    // 65,536 vertices do not fit a u16 count: refused, not truncated.
    let mut big = dump.clone();
    let v = big["data"]["vertices"][0].clone();
    big["data"]["vertices"] = serde_json::Value::Array(vec![v; 65_536]);
    let e = entry.build(&big, &ctx).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x0 meshbin.num_vertices: expected at most 65535 (the largest u2), found 65536"
    );
}

fn export_import(name: &str, winding: Winding, ext: &str) -> Vec<u8> {
    let bytes = corpus(name);
    let m = Meshbin::read::<false>(&bytes, &Context::new()).unwrap();
    let scene = meshspec_formats::scene::Scene {
        meshes: vec![meshbin::to_mesh(&m.value, winding)],
        notes: vec![],
    };
    let out = match ext {
        "glb" => export::glb(scene.clone(), export::NonFinite::Refuse).unwrap(),
        _ => export::obj(scene.clone(), export::NonFinite::Refuse).unwrap(),
    };
    let path = meshspec_tests::tools::scratch(&format!("{name}.{ext}"));
    std::fs::write(&path, &out.bytes).unwrap();
    let back = import::merge(&import::read(&path).unwrap());
    let built = meshbin::from_mesh(&back, winding).unwrap();
    built.to_bytes(&Context::new()).unwrap()
}

#[test]
fn geometry_survives_glb_and_obj_and_builds_the_same_file() {
    for (name, w) in [
        ("floor.meshbin", Winding::D3d),
        ("floor-gl.meshbin", Winding::Gl),
        ("cube.meshbin", Winding::D3d),
        ("cube-gl.meshbin", Winding::Gl),
        ("helix.meshbin", Winding::D3d),
    ] {
        assert!(
            export_import(name, w, "glb") == corpus(name),
            "{name} through .glb"
        );
    }
    // OBJ readers renumber vertices in order of first use, so through OBJ the same triangles
    // come back (every corner's position and colour, in order) rather than the same bytes.
    for (name, w) in [
        ("floor.meshbin", Winding::D3d),
        ("cube-gl.meshbin", Winding::Gl),
        ("helix.meshbin", Winding::D3d),
    ] {
        let back = Meshbin::from_bytes(&export_import(name, w, "obj"), &Context::new()).unwrap();
        let orig = Meshbin::from_bytes(&corpus(name), &Context::new()).unwrap();
        assert_eq!(corners(&back), corners(&orig), "{name} through .obj");
    }
}

/// Every triangle corner's position bits and colour, in index order.
fn corners(m: &Meshbin) -> Vec<([u32; 3], [u8; 4])> {
    m.indices
        .iter()
        .map(|&i| {
            let v = &m.vertices[usize::from(i)];
            (
                [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()],
                [v.r, v.g, v.b, v.a],
            )
        })
        .collect()
}

/// A dump whose bytes would not pass `check`: built (so the caller can say why) but with a
/// verdict that refuses it, the same verdict `check` gives the bytes.
fn build_verdict(edit: impl Fn(&mut serde_json::Value)) -> meshspec_formats::dump::Built {
    let entry = find("meshbin").unwrap();
    let ctx = Context::new();
    let mut dump = entry.dump(&corpus("cube.meshbin"), &ctx).unwrap();
    edit(&mut dump["data"]);
    let built = entry.build(&dump, &ctx).unwrap();
    let check = entry.judge(&built.bytes, &ctx);
    assert_eq!(built.verdict.passes(), check.passes());
    let lines = |v: &meshspec_formats::verdict::Verdict| -> Vec<String> {
        v.findings.iter().map(|e| e.to_string()).collect()
    };
    assert_eq!(lines(&built.verdict), lines(&check));
    built
}

#[test]
fn build_judges_what_it_would_write_as_check_does() {
    // An index raised past the vertices (the finding `build-relation-*.json`).
    let built = build_verdict(|d| d["indices"][0] = 99.into());
    assert!(!built.verdict.passes());
    assert_eq!(
        built.verdict.warnings().next().unwrap().relation_id(),
        Some("indices_name_vertices")
    );
    // 35 indices: not whole triangles.
    let built = build_verdict(|d| {
        d["indices"].as_array_mut().unwrap().pop();
    });
    assert!(!built.verdict.passes());
    assert_eq!(
        built.verdict.warnings().next().unwrap().relation_id(),
        Some("whole_triangles")
    );
    // No vertices at all: every index names none.
    let built = build_verdict(|d| d["vertices"] = serde_json::json!([]));
    assert!(!built.verdict.passes());
    // An unedited dump passes and overrides nothing.
    let built = build_verdict(|_| {});
    assert!(built.verdict.passes() && built.overrides.is_empty());
}

#[test]
fn finding_build_relation_dumps_are_refused_by_build_as_check_refuses_them() {
    // Two dumps `build` once wrote though `check` refused the result: 37 indices (not whole
    // triangles), and indices with no vertex to name.
    let entry = find("meshbin").unwrap();
    let ctx = Context::new();
    for (file, relation) in [
        ("build-relation-37-indices.json", "whole_triangles"),
        ("build-relation-no-vertices.json", "indices_name_vertices"),
    ] {
        let path = meshspec_tests::finding_or_return!(file);
        let dump: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let built = entry.build(&dump, &ctx).unwrap();
        assert!(!built.verdict.passes(), "{file}: build refuses");
        let check = entry.judge(&built.bytes, &ctx);
        assert!(!check.passes(), "{file}: check refuses the same bytes");
        let ids = |v: &meshspec_formats::verdict::Verdict| -> Vec<String> {
            v.findings.iter().map(|e| e.to_string()).collect()
        };
        assert_eq!(ids(&built.verdict), ids(&check), "{file}: one verdict");
        assert!(
            built
                .verdict
                .findings
                .iter()
                .any(|e| e.relation_id() == Some(relation)),
            "{file}: {relation} named"
        );
    }
}
