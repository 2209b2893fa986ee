//! The serialized Unity Mesh (layout `unity-mesh`) on the 35 real Mesh objects of the shared
//! corpus (`../shared/corpus/unity/meshes/VERSION/NAME.PATHID.mesh`, 2019.4 to 2023.1): each is
//! read with its editor version, consumed exactly and written back byte for byte; its fields are
//! compared with Unity's own text dumps (the authority) and with UnityPy's reading (a second
//! opinion); streamed vertex data is read from the resource file beside it and compared with the
//! exact slices the corpus keeps. Layouts of versions the corpus lacks (6000.2, 6000.6, 2018.x)
//! are checked by building their bytes by hand from a real object.

mod unity_synth;

use meshspec_formats::context::Context;
use meshspec_formats::find;
use meshspec_formats::generated::unity_mesh::{
    MeshLodInfo, MeshLodRange, MeshLodSubMesh, UnityMesh, UnityMeshRef,
};
use meshspec_formats::rt::{ErrorKind, Root, Severity};
use meshspec_formats::unity::{make, stream};
use meshspec_formats::verdict::Verdict;
use meshspec_tests::{elide, sha256_hex as sha256, shared_dir};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One Mesh object of the corpus.
struct Obj {
    /// The editor version folder (`2021.3.0f1`).
    version: String,
    /// The `.mesh` file.
    path: PathBuf,
    /// The object's bytes.
    bytes: Vec<u8>,
    /// UnityPy's reading (`.unitypy.json`).
    unitypy: Value,
}

impl Obj {
    fn ctx(&self) -> Context {
        let mut c = Context::new().with_unity_version(&self.version).unwrap();
        c.input = Some(self.path.clone());
        c
    }

    fn file_name(&self) -> String {
        self.path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }

    /// The object's path id, from the file name's hex part.
    fn path_id(&self) -> i64 {
        let stem = self.file_name();
        let hex = stem.split('.').nth(1).unwrap();
        u64::from_str_radix(hex, 16).unwrap() as i64
    }

    fn mesh(&self) -> UnityMesh {
        UnityMesh::from_bytes(&self.bytes, &self.ctx())
            .unwrap_or_else(|e| panic!("{}/{}: {e}", self.version, self.file_name()))
    }

    /// The generated view of the object's bytes.
    fn view(&self) -> UnityMeshRef<'_> {
        UnityMesh::read::<false>(&self.bytes, &self.ctx())
            .unwrap_or_else(|e| panic!("{}/{}: {e}", self.version, self.file_name()))
            .value
    }

    /// The verdict on `m` written in place of this object (found beside it, with its
    /// resource file).
    fn judge(&self, m: &UnityMesh) -> Verdict {
        let ctx = self.ctx();
        unity_synth::entry().judge(&m.to_bytes(&ctx).unwrap(), &ctx)
    }
}

fn meshes_dir() -> PathBuf {
    shared_dir().join("corpus/unity/meshes")
}

fn corpus() -> Vec<Obj> {
    meshspec_tests::unity_mesh_files(&shared_dir(), ".mesh")
        .into_iter()
        .map(|(version, path)| {
            let json = path.with_extension("unitypy.json");
            Obj {
                version,
                bytes: std::fs::read(&path).unwrap(),
                unitypy: serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap(),
                path,
            }
        })
        .collect()
}

/// Unity's own text dump of one Mesh object, flattened to `path -> value`: names joined with
/// `/`, array elements as `data[i]`, and an array's length under `path/#`.
type UnityDump = BTreeMap<String, String>;

/// Every Mesh object of a dump file, by path id.
fn unity_dumps(version: &str) -> BTreeMap<i64, UnityDump> {
    let file = shared_dir().join(format!("corpus/unity/unity-dumps/{version}.txt"));
    let text = std::fs::read_to_string(&file).unwrap();
    let mut out = BTreeMap::new();
    let mut current: Option<(i64, UnityDump)> = None;
    let mut stack: Vec<(usize, String)> = vec![];
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("ID: ") {
            if let Some((id, d)) = current.take() {
                out.insert(id, d);
            }
            stack.clear();
            if rest.ends_with("(ClassID: 43) Mesh") {
                let id: i64 = rest.split_whitespace().next().unwrap().parse().unwrap();
                current = Some((id, UnityDump::new()));
            }
            continue;
        }
        let Some((_, dump)) = current.as_mut() else {
            continue;
        };
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        if body.is_empty() {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let prefix: Vec<&str> = stack.iter().map(|(_, n)| n.as_str()).collect();
        let prefix = prefix.join("/");
        if let Some(arr) = body.strip_prefix("Array<") {
            let n = arr.rsplit_once('[').unwrap().1.trim_end_matches(']');
            dump.insert(format!("{prefix}/#"), n.to_string());
            continue;
        }
        let Some((name, rest)) = body.split_once(" (") else {
            continue; // the values of a byte array, on their own line
        };
        let value = rest.split_once(')').map(|(_, v)| v.trim()).unwrap_or("");
        let path = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}/{name}")
        };
        dump.insert(path.clone(), value.to_string());
        stack.push((indent, name.to_string()));
    }
    if let Some((id, d)) = current.take() {
        out.insert(id, d);
    }
    out
}

#[test]
fn sha256_is_the_standard_one() {
    assert_eq!(
        sha256(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn all_35_objects_are_read_exactly_and_written_back_byte_for_byte() {
    meshspec_tests::shared_or_return!();
    let objs = corpus();
    assert_eq!(objs.len(), 35, "the corpus has 35 Mesh objects");
    let entry = find("unity-mesh").expect("the layout is registered");
    for o in &objs {
        let where_ = format!("{}/{}", o.version, o.file_name());
        let ctx = o.ctx();
        // The bytes are the object UnityPy extracted.
        assert_eq!(
            sha256(&o.bytes),
            o.unitypy["raw_sha256"].as_str().unwrap(),
            "{where_}"
        );
        assert_eq!(
            o.bytes.len() as u64,
            o.unitypy["raw_size"].as_u64().unwrap()
        );
        let m = o.mesh();
        assert_eq!(
            m.to_bytes(&ctx).unwrap(),
            o.bytes,
            "{where_}: write-back differs"
        );
        // Every relation holds and every check decoding needs passes, with the streamed range
        // read against its resource file: no finding at all.
        let v = entry.judge(&o.bytes, &ctx);
        assert!(v.passes(), "{where_}");
        let found: Vec<String> = v.findings.iter().map(|e| e.to_string()).collect();
        assert!(found.is_empty(), "{where_}: {found:?}");
        // A dump rebuilds the same bytes.
        let dump = entry.dump(&o.bytes, &ctx).unwrap();
        let text = serde_json::to_string(&dump).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(entry.build(&back, &ctx).unwrap().bytes, o.bytes, "{where_}");
    }
}

#[test]
fn dumps_of_the_corpus_are_snapshots() {
    meshspec_tests::shared_or_return!();
    let entry = find("unity-mesh").unwrap();
    for o in corpus() {
        let dump = entry.dump(&o.bytes, &o.ctx()).unwrap();
        let name = format!(
            "{}__{}",
            o.version,
            o.file_name().split('.').next().unwrap()
        );
        insta::assert_json_snapshot!(name, elide(&dump));
    }
}

fn num(d: &UnityDump, path: &str) -> i128 {
    d.get(path)
        .unwrap_or_else(|| panic!("Unity's dump has no {path}"))
        .parse()
        .unwrap_or_else(|_| panic!("{path} = {:?} is not an integer", d[path]))
}

fn float(d: &UnityDump, path: &str) -> f32 {
    d.get(path)
        .unwrap_or_else(|| panic!("Unity's dump has no {path}"))
        .parse()
        .unwrap()
}

#[test]
fn fields_agree_with_unitys_own_dumps() {
    meshspec_tests::shared_or_return!();
    let objs = corpus();
    let mut compared = 0;
    for version in ["2021.3.0f1", "2022.1.20f1", "2023.1.0a16"] {
        let dumps = unity_dumps(version);
        assert_eq!(
            dumps.len(),
            7,
            "{version}: seven Mesh objects in Unity's dump"
        );
        for o in objs.iter().filter(|o| o.version == version) {
            let d = dumps
                .get(&o.path_id())
                .unwrap_or_else(|| panic!("{version}: no dump of {}", o.file_name()));
            let m = o.mesh();
            let w = format!("{version}/{}", o.file_name());
            assert_eq!(m.name.value, d["m_Name"], "{w}");
            // Every integer field compared (one path of the dump each), then the floats.
            let vd = m.vertex_data.as_ref().unwrap();
            let channels = vd.channels.as_ref().unwrap();
            let sd = m.stream_data.as_ref().unwrap();
            let bones = m.bone_name_hashes.as_ref().unwrap().len();
            let mut ints: Vec<(String, i128)> = [
                ("m_VertexData/m_VertexCount", vd.vertex_count.into()),
                ("m_VertexData/m_Channels/#", channels.len() as i128),
                ("m_VertexData/#", vd.data.data.len() as i128),
                ("m_SubMeshes/#", m.sub_meshes.len() as i128),
                ("m_IndexFormat", m.index_format.unwrap().0 as i128),
                ("m_IndexBuffer/#", m.index_buffer.len_data as i128),
                ("m_BindPose/#", m.bind_poses.as_ref().unwrap().len() as i128),
                ("m_BoneNameHashes/#", bones as i128),
                ("m_RootBoneNameHash", m.root_bone_name_hash.unwrap().into()),
                (
                    "m_BonesAABB/#",
                    m.bones_aabb.as_ref().unwrap().items.len() as i128,
                ),
                ("m_MeshUsageFlags", m.mesh_usage_flags.unwrap().into()),
                ("m_StreamData/offset", sd.ofs_data_u8.unwrap().into()),
                ("m_StreamData/size", sd.len_data.into()),
            ]
            .map(|(p, v): (&str, i128)| (p.to_string(), v))
            .into();
            for (i, c) in channels.iter().enumerate() {
                let p = format!("m_VertexData/m_Channels/data[{i}]");
                ints.push((format!("{p}/stream"), c.stream.into()));
                ints.push((format!("{p}/offset"), c.offset.into()));
                ints.push((format!("{p}/format"), c.format.0.into()));
                ints.push((format!("{p}/dimension"), c.dimension.into()));
            }
            for (i, s) in m.sub_meshes.iter().enumerate() {
                let p = format!("m_SubMeshes/data[{i}]");
                ints.push((format!("{p}/firstByte"), s.first_byte.into()));
                ints.push((format!("{p}/indexCount"), s.index_count.into()));
                ints.push((format!("{p}/topology"), s.topology.unwrap().0.into()));
                ints.push((format!("{p}/baseVertex"), s.base_vertex.unwrap().into()));
                ints.push((format!("{p}/firstVertex"), s.first_vertex.into()));
                ints.push((format!("{p}/vertexCount"), s.vertex_count.into()));
                let c = &s.local_aabb.center;
                let p = format!("{p}/localAABB/m_Center/y");
                assert_eq!(c.y, float(d, &p), "{w} {p}");
            }
            for (p, v) in &ints {
                assert_eq!(*v, num(d, p), "{w} {p}");
            }
            for (b, pose) in m.bind_poses.as_ref().unwrap().iter().enumerate() {
                for r in 0..4 {
                    for c in 0..4 {
                        let p = format!("m_BindPose/data[{b}]/e{r}{c}");
                        assert_eq!(pose.e[4 * r + c], float(d, &p), "{w} {p}");
                    }
                }
            }
            // The flags around the collision data.
            match m.cooking_options {
                Some(c) => assert_eq!(i128::from(c), num(d, "m_CookingOptions"), "{w}"),
                None => assert!(!d.contains_key("m_CookingOptions"), "{w}"),
            }
            assert_eq!(
                i128::from(m.keep_vertices.unwrap()),
                (d["m_KeepVertices"] == "True") as i128
            );
            assert_eq!(m.mesh_metrics_0, Some(float(d, "m_MeshMetrics[0]")), "{w}");
            assert_eq!(m.mesh_metrics_1, Some(float(d, "m_MeshMetrics[1]")), "{w}");
            assert_eq!(m.local_aabb.extent.x, float(d, "m_LocalAABB/m_Extent/x"));
            // Where the vertex data streams from.
            assert_eq!(sd.path.value, d["m_StreamData/path"], "{w}");
            compared += 1;
        }
    }
    assert_eq!(compared, 21, "three dumped versions of seven meshes");
}

#[test]
fn fields_agree_with_unitypy() {
    meshspec_tests::shared_or_return!();
    for o in corpus() {
        let m = o.mesh();
        let u = &o.unitypy;
        let w = format!("{}/{}", o.version, o.file_name());
        assert_eq!(m.name.value, u["name"].as_str().unwrap());
        assert_eq!(
            u64::from(m.vertex_data.as_ref().unwrap().vertex_count),
            u["vertex_count"].as_u64().unwrap(),
            "{w}"
        );
        let channels = u["channels"].as_array().unwrap();
        let ours = m.vertex_data.as_ref().unwrap().channels.as_ref().unwrap();
        assert_eq!(ours.len(), channels.len());
        for (c, uc) in ours.iter().zip(channels) {
            let (s, o, f, d) = (c.stream, c.offset, c.format.0, c.dimension);
            for (k, v) in [
                ("stream", s),
                ("offset", o),
                ("format", f),
                ("dimension", d),
            ] {
                assert_eq!(u64::from(v), uc[k].as_u64().unwrap(), "{w} {k}");
            }
        }
        assert_eq!(
            m.index_format.unwrap().0 as i64,
            u["index_format"].as_i64().unwrap()
        );
        assert_eq!(
            m.index_buffer.len_data as u64,
            u["index_buffer_bytes"].as_u64().unwrap()
        );
        let subs = u["submeshes"].as_array().unwrap();
        assert_eq!(m.sub_meshes.len(), subs.len(), "{w}");
        for (s, us) in m.sub_meshes.iter().zip(subs) {
            for (k, v) in [
                ("firstByte", s.first_byte),
                ("indexCount", s.index_count),
                ("baseVertex", s.base_vertex.unwrap()),
                ("firstVertex", s.first_vertex),
                ("vertexCount", s.vertex_count),
            ] {
                assert_eq!(u64::from(v), us[k].as_u64().unwrap(), "{w} {k}");
            }
            let topology = us["topology"].as_i64().unwrap();
            assert_eq!(i64::from(s.topology.unwrap().0), topology, "{w}");
        }
        assert_eq!(
            m.bind_poses.as_ref().unwrap().len() as u64,
            u["bind_pose_count"].as_u64().unwrap(),
            "{w}"
        );
        match (stream::range(&o.view()), u["stream_data"].as_object()) {
            (None, None) => {}
            (Some(r), Some(us)) => {
                assert_eq!(r.path, us["path"].as_str().unwrap());
                assert_eq!(r.offset, us["offset"].as_u64().unwrap(), "{w}");
                assert_eq!(r.size, us["size"].as_u64().unwrap(), "{w}");
                assert_eq!(r.file_name(), us["resource_file"].as_str().unwrap());
            }
            (a, b) => panic!("{w}: streamed {a:?} against UnityPy's {b:?}"),
        }
    }
}

#[test]
fn the_stream_offset_is_u32_before_2020_1_and_u64_from_it() {
    meshspec_tests::shared_or_return!();
    let objs = corpus();
    let mut seen = (0, 0);
    for o in &objs {
        let sd = o.mesh().stream_data.unwrap();
        if o.version.starts_with("2019") {
            assert!(sd.ofs_data_u4.is_some() && sd.ofs_data_u8.is_none());
            seen.0 += 1;
        } else {
            assert!(sd.ofs_data_u8.is_some() && sd.ofs_data_u4.is_none());
            seen.1 += 1;
        }
    }
    assert_eq!(seen, (7, 28));
    // The same object read with the wrong side of a cut-off is refused, not misread.
    let o = &obj("2020.3.0f1", "Lame");
    let wrong = Context::new().with_unity_version("2019.4.0f1").unwrap();
    let e = UnityMesh::from_bytes(&o.bytes, &wrong).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ErrorKind::Trailing | ErrorKind::Eof | ErrorKind::Encoding | ErrorKind::Count
        ),
        "{e}"
    );
    let o = &obj("2021.3.0f1", "Lame");
    let newer = Context::new().with_unity_version("2022.1.20f1").unwrap();
    assert!(UnityMesh::from_bytes(&o.bytes, &newer).is_err());
}

#[test]
fn streamed_vertex_data_is_exactly_the_corpus_slice() {
    meshspec_tests::shared_or_return!();
    let mut n = 0;
    for o in corpus() {
        let m = o.view();
        let slice = o.path.with_extension("vertexdata");
        match stream::read(&m, &o.ctx()).unwrap() {
            None => assert!(!slice.exists(), "{}", slice.display()),
            Some(data) => {
                let want = std::fs::read(&slice).unwrap();
                assert_eq!(data, want, "{}", slice.display());
                assert!(!data.is_empty());
                // The explicit resource file gives the same bytes, whatever the input's path.
                let r = stream::range(&m).unwrap();
                let mut ctx = Context::new();
                ctx.resource = Some(o.path.parent().unwrap().join(r.file_name()));
                assert_eq!(stream::read(&m, &ctx).unwrap().unwrap(), want);
                n += 1;
            }
        }
    }
    // Four streamed meshes in four versions, two in 2022.1.
    assert_eq!(n, 18);
}

#[test]
fn a_stream_range_outside_the_resource_file_is_refused_by_check_and_export_alike() {
    meshspec_tests::shared_or_return!();
    let o = obj("2023.1.0a16", "Manche");
    let entry = find("unity-mesh").unwrap();
    let mut m = o.mesh();
    let res = {
        let r = stream::range(&o.view()).unwrap();
        o.path.parent().unwrap().join(r.file_name())
    };
    let res_len = std::fs::metadata(&res).unwrap().len();
    m.stream_data.as_mut().unwrap().ofs_data_u8 = Some(res_len - 100);
    let ctx = o.ctx();
    let bytes = m.to_bytes(&ctx).unwrap();
    let v = entry.judge(&bytes, &ctx);
    let e = v.first_failure().expect("refused").clone();
    // The offset lies inside the file, so the size is what runs past it.
    let size_at = UnityMesh::read::<true>(&bytes, &ctx)
        .unwrap()
        .pos
        .unwrap()
        .stream_data
        .unwrap()
        .len_data
        .start;
    assert_eq!(
        e.to_string(),
        format!(
            "0x{size_at:X} unity_mesh.stream_data.len_data: expected a range inside `{}` ({res_len} bytes), to read the streamed vertex data, found offset {} + size 4536 = {}, past its end",
            res.display(),
            res_len - 100,
            res_len - 100 + 4536
        )
    );
    assert!(!e.to_string().contains('\n'));
    assert_eq!(entry.decode(&bytes, &ctx).unwrap_err(), e);
    // A missing resource file: check cannot look, and says so naming the file and --ress (a
    // warning, never a plain ok); export cannot decode, and says which file.
    let mut ctx = o.ctx();
    ctx.resource = Some(PathBuf::from("/nonexistent/x.resS"));
    let v = entry.judge(&o.bytes, &ctx);
    assert!(v.passes());
    let w: Vec<String> = v.warnings().map(|e| e.to_string()).collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("`/nonexistent/x.resS` is not there; give --ress FILE"),
        "{w:?}"
    );
    assert_eq!(v.warnings().next().unwrap().kind, ErrorKind::Unchecked);
    let e = entry.decode(&o.bytes, &ctx).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/x.resS"), "{e}");
}

#[test]
fn every_prefix_of_a_small_object_is_refused_with_an_offset_inside_it() {
    meshspec_tests::shared_or_return!();
    let o = obj("2019.4.0f1", "Manche");
    let ctx = o.ctx();
    for n in 0..o.bytes.len() {
        let e = UnityMesh::from_bytes(&o.bytes[..n], &ctx).unwrap_err();
        assert!(e.offset.is_some_and(|at| at <= n as u64), "cut at {n}: {e}");
    }
    let mut longer = o.bytes.clone();
    longer.extend_from_slice(&[0; 4]);
    let e = UnityMesh::from_bytes(&longer, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Trailing);
    assert_eq!(e.offset, Some(o.bytes.len() as u64));
}

#[test]
fn a_huge_count_is_refused_before_anything_is_allocated() {
    meshspec_tests::shared_or_return!();
    let o = obj("2021.3.0f1", "Lame");
    let mut bytes = o.bytes.clone();
    // The submesh count follows the 4-byte name "Lame" and its length.
    bytes[8..12].copy_from_slice(&0x7FFF_FFF0i32.to_le_bytes());
    let e = UnityMesh::from_bytes(&bytes, &o.ctx()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert_eq!(e.offset, Some(12));
    assert!(
        e.to_string()
            .starts_with("0xC unity_mesh.sub_meshes: expected at most"),
        "{e}"
    );
    // A negative count is refused as such.
    bytes[8..12].copy_from_slice(&(-1i32).to_le_bytes());
    let e = UnityMesh::from_bytes(&bytes, &o.ctx()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert!(
        e.to_string().contains("a non-negative count, found -1"),
        "{e}"
    );
}

/// The object bytes of `o` with `n` bytes at `at` replaced by `with`.
fn splice(bytes: &[u8], at: usize, n: usize, with: &[u8]) -> Vec<u8> {
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&bytes[at + n..]);
    out
}

/// The offset of m_MeshUsageFlags in a 2022.1+ object whose collision arrays are empty: counted
/// back from the end over m_StreamData, m_MeshMetrics, the two empty arrays and m_CookingOptions.
fn usage_flags_offset(bytes: &[u8], path_len: usize) -> usize {
    let stream = 8 + 4 + 4 + path_len + (4 - path_len % 4) % 4;
    bytes.len() - stream - 8 - 4 - 4 - 4 - 4
}

#[test]
fn unity_6000_2_appends_the_lod_info_and_6000_6_replaces_the_usage_flags() {
    meshspec_tests::shared_or_return!();
    let o = obj("2023.1.0a16", "Lame");
    let m = o.mesh();
    assert!(m
        .baked_convex_collision_mesh
        .as_ref()
        .unwrap()
        .data
        .is_empty());
    assert!(m
        .baked_triangle_collision_mesh
        .as_ref()
        .unwrap()
        .data
        .is_empty());
    let path_len = m.stream_data.as_ref().unwrap().path.value.len();
    let usage_at = usage_flags_offset(&o.bytes, path_len);
    assert_eq!(&o.bytes[usage_at..usage_at + 8], &[0, 0, 0, 0, 30, 0, 0, 0]);

    // 6000.2: the same object followed by m_MeshLodInfo (slope, bias, level count, then per
    // submesh its levels), here one level of the one submesh.
    let lod_bytes: Vec<u8> = [
        0.5f32.to_le_bytes(),
        1.0f32.to_le_bytes(),
        1i32.to_le_bytes(),
        1i32.to_le_bytes(),
        1i32.to_le_bytes(),
        0u32.to_le_bytes(),
        1116u32.to_le_bytes(),
    ]
    .concat();
    let v6002 = [o.bytes.clone(), lod_bytes].concat();
    let ctx = Context::new().with_unity_version("6000.2.0f1").unwrap();
    let m2 = UnityMesh::from_bytes(&v6002, &ctx).unwrap();
    assert_eq!(
        m2.mesh_lod_info,
        Some(MeshLodInfo {
            lod_slope: 0.5,
            lod_bias: 1.0,
            num_levels: 1,
            num_sub_meshes: 1,
            sub_meshes: vec![MeshLodSubMesh {
                num_levels: 1,
                levels: vec![MeshLodRange {
                    index_start: 0,
                    index_count: 1116
                }],
            }],
        })
    );
    assert_eq!(m2.mesh_usage_flags, Some(0));
    assert_eq!(m2.to_bytes(&ctx).unwrap(), v6002);
    // The 2023.1 object alone is too short for 6000.2.
    assert!(UnityMesh::from_bytes(&o.bytes, &ctx).is_err());

    // 6000.6: m_MeshUsageFlags is gone; after m_CookingOptions come two bools and 2 bytes of
    // padding.
    let without_usage = splice(&v6002, usage_at, 4, &[]);
    let v6006 = splice(&without_usage, usage_at + 4, 0, &[1, 0, 0, 0]);
    assert_eq!(v6006.len(), v6002.len());
    let ctx6 = Context::new().with_unity_version("6000.6.0f1").unwrap();
    let m6 = UnityMesh::from_bytes(&v6006, &ctx6).unwrap();
    assert_eq!(m6.mesh_usage_flags, None);
    assert_eq!(m6.cooking_options, Some(30));
    assert_eq!(m6.pre_bake_convex_collision_mesh, Some(1));
    assert_eq!(m6.pre_bake_triangle_collision_mesh, Some(0));
    assert_eq!(m6.pad_pre_bake.as_deref(), Some(&[0u8, 0][..]));
    assert_eq!(m6.mesh_lod_info, m2.mesh_lod_info);
    assert_eq!(m6.to_bytes(&ctx6).unwrap(), v6006);
    // Before 6000.6 the same bytes mean something else: the reader ends elsewhere or refuses.
    if let Ok(other) = UnityMesh::from_bytes(&v6006, &ctx) {
        assert_ne!(other.cooking_options, Some(30));
    }
}

#[test]
fn older_layouts_drop_the_fields_their_editors_did_not_have() {
    meshspec_tests::shared_or_return!();
    // A 2019.4 object as 2018.3/2018.4 wrote it: no m_BonesAABB, no m_VariableBoneCountWeights
    // (two empty arrays, 8 bytes, right after m_RootBoneNameHash).
    let o = obj("2019.4.0f1", "Lame");
    let m = o.mesh();
    assert!(m.bones_aabb.as_ref().unwrap().items.is_empty());
    assert!(m
        .variable_bone_count_weights
        .as_ref()
        .unwrap()
        .data
        .is_empty());
    let name = 4 + 4; // "Lame"
    let subs = 4 + 48 * m.sub_meshes.len();
    let shapes = 16;
    let root_hash_end = name + subs + shapes + 4 + 4 + 4;
    assert_eq!(&o.bytes[root_hash_end..root_hash_end + 8], &[0; 8]);
    let v2018 = splice(&o.bytes, root_hash_end, 8, &[]);
    let ctx = Context::new().with_unity_version("2018.4.0f1").unwrap();
    let m18 = UnityMesh::from_bytes(&v2018, &ctx).unwrap();
    assert_eq!(m18.bones_aabb, None);
    assert_eq!(m18.variable_bone_count_weights, None);
    // The channel table's bytes are read as the 2017 numbering's entries.
    let table18: Vec<(u8, u8, u8, u8)> = m18
        .vertex_data
        .as_ref()
        .unwrap()
        .channels_2017
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| (c.stream, c.offset, c.format.0, c.dimension))
        .collect();
    let table19: Vec<(u8, u8, u8, u8)> = m
        .vertex_data
        .as_ref()
        .unwrap()
        .channels
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| (c.stream, c.offset, c.format.0, c.dimension))
        .collect();
    assert_eq!(table18, table19);
    assert_eq!(m18.vertex_data.as_ref().unwrap().channels, None);
    assert_eq!(m18.stream_data, m.stream_data);
    assert_eq!(m18.to_bytes(&ctx).unwrap(), v2018);
    // Float (0) and Float16 (1) are numbered alike in 2017 and 2019: the same geometry, with
    // a note that the table is the public readers'.
    let entry = find("unity-mesh").unwrap();
    let mut ctx_in = ctx.clone();
    ctx_in.input = Some(o.path.clone());
    let old = entry.decode(&v2018, &ctx_in).unwrap();
    let mut ctx19 = o.ctx();
    ctx19.input = Some(o.path.clone());
    let new = entry.decode(&o.bytes, &ctx19).unwrap();
    assert_eq!(old.scene.meshes[0].positions, new.scene.meshes[0].positions);
    assert_eq!(old.scene.meshes[0].normals, new.scene.meshes[0].normals);
    assert!(old
        .verdict
        .notes
        .iter()
        .any(|n| n.contains("numbered otherwise than in the documents")));
    assert!(!new
        .verdict
        .notes
        .iter()
        .any(|n| n.contains("numbered otherwise")));

    // 2018.2 has no m_StreamData (this object's vertices then have to be inline). The empty
    // vertex data breaks the sourced rule of the era (a warning) and cannot be decoded (an
    // error); from 2019.1 the same is the documents' proven relation.
    let sd_len = 4 + 4 + 4 + 87 + 1;
    let v2018_2 = v2018[..v2018.len() - sd_len].to_vec();
    let ctx = Context::new().with_unity_version("2018.2.0f1").unwrap();
    let m182 = UnityMesh::from_bytes(&v2018_2, &ctx).unwrap();
    assert_eq!(m182.stream_data, None);
    let v = entry.judge(&v2018_2, &ctx);
    let rules: Vec<(Option<&str>, Severity)> = v
        .findings
        .iter()
        .map(|e| (e.relation_id(), e.severity))
        .collect();
    assert_eq!(
        rules,
        [
            (Some("older_vertex_layout_fills_data"), Severity::Warning),
            (Some("older_vertex_layout_fills_data"), Severity::Error)
        ]
    );
    let mut m19 = o.mesh();
    m19.stream_data.as_mut().unwrap().len_data = 0;
    let e = o.judge(&m19).first_failure().unwrap().clone();
    assert_eq!(e.relation_id(), Some("vertex_layout_fills_data"));
}

/// A corpus object by version and name.
fn obj(version: &str, name: &str) -> Obj {
    corpus()
        .into_iter()
        .find(|o| o.version == version && o.file_name().starts_with(&format!("{name}.")))
        .unwrap()
}

/// Every finding of the verdict on `m` (written in place of `o`), one line each.
fn finding_lines(o: &Obj, m: &UnityMesh) -> Vec<String> {
    o.judge(m).findings.iter().map(|e| e.to_string()).collect()
}

/// Where every field of `m` (written with `o`'s version) lies.
fn located(o: &Obj, m: &UnityMesh) -> meshspec_formats::generated::unity_mesh::UnityMeshPos {
    let ctx = o.ctx();
    let b = m.to_bytes(&ctx).unwrap();
    UnityMesh::read::<true>(&b, &ctx).unwrap().pos.unwrap()
}

#[test]
fn broken_relations_are_reported_with_where_and_what() {
    meshspec_tests::shared_or_return!();
    // An inline mesh: the Robot's lower arm in 2022.1 (16-bit indices, 3 streams).
    let o = obj("2022.1.20f1", "Robot_A_LowerArm_Left_LOD03");
    let good = o.mesh();
    assert!(finding_lines(&o, &good).is_empty());
    let at = located(&o, &good);

    // Vertex data one byte short of the layout (the relation and what decoding needs), and
    // one byte over (the relation alone).
    let mut m = good.clone();
    let data = good.vertex_data.as_ref().unwrap().data.data.clone();
    let n = data.len();
    m.vertex_data.as_mut().unwrap().data = make::bytes(data[..n - 1].to_vec());
    let lines = finding_lines(&o, &m);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0],
        format!(
            "0x{:X} unity_mesh.vertex_data.data.len_data: expected the vertex data to end where the last stream ends: {n} bytes for 1518 vertices (3 streams; the last, stream 2: BlendIndices) (relation `vertex_layout_fills_data`), found {} bytes",
            at.vertex_data.as_ref().unwrap().data.len_data.start,
            n - 1
        )
    );
    assert!(lines[1].contains("to decode it"), "{lines:?}");
    m.vertex_data.as_mut().unwrap().data = make::bytes([&data[..], &[0]].concat());
    assert_eq!(finding_lines(&o, &m).len(), 1);

    // A channel with a format outside the 12.
    let mut m = good.clone();
    m.vertex_data.as_mut().unwrap().channels.as_mut().unwrap()[1]
        .format
        .0 = 12;
    let lines = finding_lines(&o, &m);
    assert!(
        lines[0].starts_with(&format!(
            "0x{:X} unity_mesh.vertex_data.channels[1].format: expected one of the 12 vertex formats (0 to 11)",
            at.vertex_data.as_ref().unwrap().channels.as_ref().unwrap().get(1).format.start
        )),
        "{lines:?}"
    );

    // An index buffer too short for the last submesh: its count runs past.
    let mut m = good.clone();
    let ix = good.index_buffer.indices.u16_indices.clone().unwrap();
    m.index_buffer = make::indices16(&ix[..ix.len() - 3]);
    let lines = finding_lines(&o, &m);
    assert!(
        lines.iter().any(|l| l.contains("unity_mesh.sub_meshes[")
            && l.contains("index_count: expected")
            && l.contains("(relation `submesh_within_index_buffer`)")),
        "{lines:?}"
    );

    // An index past the vertex count, at its own offset, and baseVertex pushing valid ones
    // past it.
    let mut m = good.clone();
    let vc = m.vertex_data.as_ref().unwrap().vertex_count;
    m.index_buffer.indices.u16_indices.as_mut().unwrap()[1] = vc as u16;
    let lines = finding_lines(&o, &m);
    assert_eq!(
        lines.len(),
        2,
        "the relation and what decoding needs: {lines:?}"
    );
    assert_eq!(
        lines[0],
        format!(
            "0x{:X} unity_mesh.index_buffer.indices.u16_indices[1]: expected index + baseVertex (0) below the vertex count {vc} (submesh 0, index 1) (relation `indices_name_vertices`), found {vc} ({vc} + baseVertex 0; 1 such indices in the submesh)",
            at.index_buffer.indices.u16_indices.as_ref().unwrap().get(1).start
        )
    );
    let mut m = good.clone();
    m.sub_meshes[0].base_vertex = Some(vc);
    let lines = finding_lines(&o, &m);
    assert!(lines.iter().any(|l| l.contains("baseVertex")), "{lines:?}");
    // An odd-length 16-bit index buffer.
    let mut m = good.clone();
    m.index_buffer.indices.rest = vec![0];
    m.index_buffer.len_data += 1;
    m.index_buffer.pad = vec![0; (4 - m.index_buffer.len_data as usize % 4) % 4];
    let lines = finding_lines(&o, &m);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("index_buffer_whole_indices")),
        "{lines:?}"
    );
    // Bone name hashes that are neither absent nor one per bind pose: at the count.
    let arm = obj("2021.3.0f1", "Robot_A_LowerArm_Right_LOD03");
    let mut bones = arm.mesh();
    assert_eq!(bones.bind_poses.as_ref().unwrap().len(), 2);
    bones.bone_name_hashes.as_mut().unwrap().push(7);
    let at = located(&arm, &bones).num_bone_name_hashes.unwrap().start;
    assert_eq!(
        finding_lines(&arm, &bones),
        vec![format!(
            "0x{at:X} unity_mesh.num_bone_name_hashes: expected none or one bone name hash per bind pose (2) (relation `bone_data_per_bind_pose`), found 3"
        )]
    );
    // The offset is where the count is: the bytes there are the stored count, 2.
    let at = located(&arm, &arm.mesh())
        .num_bone_name_hashes
        .unwrap()
        .start as usize;
    assert_eq!(&arm.bytes[at..at + 4], &2i32.to_le_bytes());
    // The verdict refuses the short index buffer; the written file still reads back.
    let bytes = m.to_bytes(&o.ctx()).unwrap();
    assert_eq!(UnityMesh::from_bytes(&bytes, &o.ctx()).unwrap(), m);
    let mut short = good.clone();
    short.index_buffer = make::indices16(&ix[..ix.len() - 3]);
    assert!(!o.judge(&short).passes());
}

#[test]
fn streamed_meshes_state_their_layout_against_the_streamed_size() {
    meshspec_tests::shared_or_return!();
    let o = obj("2021.3.0f1", "Garde");
    let mut m = o.mesh();
    assert!(finding_lines(&o, &m).is_empty());
    m.stream_data.as_mut().unwrap().len_data -= 16;
    let lines = finding_lines(&o, &m);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains(&format!(
            "0x{:X} unity_mesh.stream_data.len_data: expected the streamed range to end where the last stream ends: 19128 bytes for 797 vertices",
            located(&o, &m).stream_data.unwrap().len_data.start
        )),
        "{}",
        lines[0]
    );
    let mut m = o.mesh();
    m.vertex_data.as_mut().unwrap().data = make::bytes(vec![0; 16]);
    let lines = finding_lines(&o, &m);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("stream_data_replaces_inline_data")),
        "{lines:?}"
    );
}

#[test]
fn padding_is_kept_verbatim() {
    meshspec_tests::shared_or_return!();
    // Unity writes zeros, but a reader must not lose other bytes: they are data.
    let o = obj("2020.3.0f1", "Manche");
    let ctx = o.ctx();
    let mut bytes = o.bytes.clone();
    let path_len = o.mesh().stream_data.unwrap().path.value.len();
    assert_eq!(path_len % 4, 3);
    let last = bytes.len() - 1;
    assert_eq!(bytes[last], 0);
    bytes[last] = 0xAB;
    let m = UnityMesh::from_bytes(&bytes, &ctx).unwrap();
    assert_eq!(m.stream_data.as_ref().unwrap().path.pad, vec![0xAB]);
    assert_eq!(m.to_bytes(&ctx).unwrap(), bytes);
}

#[test]
fn the_layout_needs_the_editor_version() {
    meshspec_tests::shared_or_return!();
    let o = obj("2021.3.0f1", "Lame");
    let e = UnityMesh::from_bytes(&o.bytes, &Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(input): expected a value for `unity_version` (this layout needs it), found none given"
    );
}

#[test]
fn every_object_decodes_through_the_layout_entry_in_gltf_frame() {
    meshspec_tests::shared_or_return!();
    // The adapter hands the raw fields (and the streamed range, found beside the input) to the
    // decoder; the result must match UnityPy's decoded positions mirrored in x, and its
    // triangle count per submesh (UnityPy ignores baseVertex, which is 0 throughout).
    let entry = find("unity-mesh").unwrap();
    for o in corpus() {
        let w = format!("{}/{}", o.version, o.file_name());
        let scene = entry
            .scene(&o.bytes, &o.ctx())
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        assert_eq!(scene.meshes.len(), 1);
        let mesh = &scene.meshes[0];
        mesh.validate().unwrap();
        let u = &o.unitypy["unitypy_decoded"];
        let up = u["positions"].as_array().unwrap();
        assert_eq!(mesh.positions.len(), up.len(), "{w}");
        for (k, (p, q)) in mesh.positions.iter().zip(up).enumerate().step_by(37) {
            let q: Vec<f32> = q
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect();
            assert_eq!(*p, [-q[0], q[1], q[2]], "{w}: vertex {k}");
        }
        let tris = u["triangles_per_submesh"].as_array().unwrap();
        assert_eq!(mesh.primitives.len(), tris.len(), "{w}");
        for (p, t) in mesh.primitives.iter().zip(tris) {
            assert_eq!(p.indices.len(), 3 * t.as_array().unwrap().len(), "{w}");
        }
        assert_eq!(
            mesh.skin.is_some(),
            o.unitypy["bind_pose_count"].as_u64().unwrap() > 0,
            "{w}"
        );
    }
}

#[test]
fn a_streamed_mesh_without_its_resource_file_cannot_decode_and_says_why() {
    meshspec_tests::shared_or_return!();
    let o = obj("2021.3.0f1", "Pommeau");
    let ctx = Context::new().with_unity_version("2021.3.0f1").unwrap();
    let entry = find("unity-mesh").unwrap();
    // check: the range is not checked, and the verdict says so (a warning naming --ress).
    let v = entry.judge(&o.bytes, &ctx);
    assert_eq!(
        v.findings.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["(input): expected a check of the streamed vertex data (8496 bytes at offset 2820816 of `CAB-5d40f7cad7c871cf2ad2af19ac542994.resS`), found the mesh was not read from a file, so `CAB-5d40f7cad7c871cf2ad2af19ac542994.resS` cannot be looked for beside it; give --ress FILE"]
    );
    assert_eq!(v.findings[0].severity, Severity::Warning);
    // export: nothing to decode from.
    let e = entry.scene(&o.bytes, &ctx).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unity_mesh.stream_data: expected the resource file `CAB-5d40f7cad7c871cf2ad2af19ac542994.resS` that holds the vertex data, found the mesh was not read from a file, so `CAB-5d40f7cad7c871cf2ad2af19ac542994.resS` cannot be looked for beside it; give --ress FILE"
    );
}

#[test]
fn the_fuzz_property_holds_on_every_object_with_its_version_chosen_by_the_first_byte() {
    meshspec_tests::shared_or_return!();
    // What the generated fuzz target does: the first byte picks the editor version.
    let versions: [(&str, i128); 5] = [
        ("2019.4.0f1", 20190400),
        ("2020.3.0f1", 20200300),
        ("2021.3.0f1", 20210300),
        ("2022.1.20f1", 20220120),
        ("2023.1.0a16", 20230100),
    ];
    let values: Vec<i128> = versions.iter().map(|v| v.1).collect();
    for o in corpus() {
        let pick = versions.iter().position(|v| v.0 == o.version).unwrap() as u8;
        let roundtrip = |first: u8| {
            meshspec_formats::fuzzing::roundtrip_with_params::<UnityMesh>(
                &[&[first][..], &o.bytes].concat(),
                &[("unity_version", &values)],
            )
        };
        roundtrip(pick);
        // 5 more picks the same version again; the wrong version is refused without panicking.
        roundtrip(pick + 5);
        roundtrip((pick + 1) % 5);
    }
}

#[test]
fn non_finite_floats_survive_a_dump_and_a_build() {
    meshspec_tests::shared_or_return!();
    // Found by the fuzz target: a NaN in m_MeshMetrics (then a list under `if`, which the dump
    // wrote as null) did not build back. Every float of the layout must carry NaN and the
    // infinities through the dump's text.
    let o = obj("2023.1.0a16", "Lame");
    let ctx = o.ctx();
    let mut m = o.mesh();
    m.mesh_metrics_0 = Some(f32::NAN);
    m.mesh_metrics_1 = Some(f32::NEG_INFINITY);
    m.local_aabb.center.x = f32::INFINITY;
    m.sub_meshes[0].local_aabb.extent.y = f32::NAN;
    let bytes = m.to_bytes(&ctx).unwrap();
    let entry = find("unity-mesh").unwrap();
    let dump = entry.dump(&bytes, &ctx).unwrap();
    let text = serde_json::to_string(&dump).unwrap();
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(entry.build(&back, &ctx).unwrap().bytes, bytes);
    // And the fuzz property as a whole, on these bytes.
    meshspec_formats::fuzzing::roundtrip_with_params::<UnityMesh>(
        &[&[0u8][..], &bytes].concat(),
        &[("unity_version", &[20230100])],
    );
}

// ---------------------------------------------------------------------------------------------
// The inputs of ../shared/findings/robustness/ that meshspec mishandled, each a regression test
// (read from ../shared; one loud line when that is not there).

/// A finding's bytes, or a return from the calling test after a loud line when ../shared
/// (named by the test) or the finding is missing.
macro_rules! finding {
    ($file:expr) => {
        std::fs::read(meshspec_tests::finding_or_return!($file)).unwrap()
    };
}

/// The context a finding is read with: its version, and the resource file the README names.
fn finding_ctx(version: &str, ress: bool) -> Context {
    let mut ctx = Context::new().with_unity_version(version).unwrap();
    if ress {
        ctx.resource = Some(
            meshes_dir()
                .join(version)
                .join("CAB-5d40f7cad7c871cf2ad2af19ac542994.resS"),
        );
    }
    ctx
}

/// The verdict's one refusal of a finding, which export gives too, with its offset inside the
/// input, at the field `path` (whose recorded position it is).
fn refused_at(
    bytes: &[u8],
    ctx: &Context,
    path: &str,
    field_at: impl Fn(&meshspec_formats::generated::unity_mesh::UnityMeshPos) -> u64,
) -> meshspec_formats::Error {
    let entry = find("unity-mesh").unwrap();
    let v = entry.judge(bytes, ctx);
    let e = v.first_failure().expect("refused").clone();
    assert_eq!(e.path_string(), path, "{e}");
    let pos = UnityMesh::read::<true>(bytes, ctx).unwrap().pos.unwrap();
    assert_eq!(e.offset, Some(field_at(&pos)), "{e}");
    assert!(
        e.offset.unwrap() < bytes.len() as u64,
        "inside the input: {e}"
    );
    assert_eq!(e.resource, None);
    assert_eq!(
        entry.decode(bytes, ctx).unwrap_err(),
        e,
        "export refuses the same"
    );
    e
}

#[test]
fn finding_unity_firstbyte_offset_is_refused_at_the_first_byte() {
    // 2,412 bytes whose first submesh starts at byte 0xFFFFFFFF of the index buffer: the error
    // used to name 0x10000006F, inside the index buffer's bytes as if they went that far.
    let b = finding!("unity-firstbyte-offset.mesh");
    let ctx = finding_ctx("2020.3.0f1", true);
    let e = refused_at(&b, &ctx, "unity_mesh.sub_meshes[0].first_byte", |p| {
        p.sub_meshes.items[0].first_byte.start
    });
    assert_eq!(e.relation_id(), Some("submesh_within_index_buffer"));
    assert_eq!(e.found, "4294967295");
}

#[test]
fn finding_unity_indexcount_offset_is_refused_at_the_submesh() {
    // A first byte raised to 16,384 in a 1,920-byte index buffer (the finding's name says the
    // index count: the old error named indexCount at an offset past the input).
    let b = finding!("unity-indexcount-offset.mesh");
    let ctx = finding_ctx("2019.4.0f1", true);
    let e = refused_at(&b, &ctx, "unity_mesh.sub_meshes[0].first_byte", |p| {
        p.sub_meshes.items[0].first_byte.start
    });
    assert_eq!(e.relation_id(), Some("submesh_within_index_buffer"));
    assert!(
        e.expected.contains("from byte 16384 inside the 1920 bytes"),
        "{e}"
    );
}

#[test]
fn finding_unity_datasize_offset_is_refused_at_the_streamed_size() {
    // TexCoord0 dropped from the channel table: the layout asks 3,780 bytes of a 4,536-byte
    // streamed range. The error used to sit inside the .resS without naming it.
    let b = finding!("unity-datasize-offset.mesh");
    let ctx = finding_ctx("2019.4.0f1", true);
    let e = refused_at(&b, &ctx, "unity_mesh.stream_data.len_data", |p| {
        p.stream_data.as_ref().unwrap().len_data.start
    });
    assert_eq!(e.relation_id(), Some("vertex_layout_fills_data"));
    assert!(e.expected.contains("3780 bytes for 189 vertices"), "{e}");
    assert_eq!(e.found, "4536 bytes");
}

#[test]
fn finding_unity_stream_offset_past_ress_is_refused_by_check_as_by_export() {
    // check said ok while export refused.
    let b = finding!("unity-stream-offset-past-ress.mesh");
    let ctx = finding_ctx("2020.3.0f1", true);
    let e = refused_at(&b, &ctx, "unity_mesh.stream_data.ofs_data_u8", |p| {
        p.stream_data.as_ref().unwrap().ofs_data_u8.unwrap().start
    });
    assert_eq!(e.kind, ErrorKind::Count);
    assert!(e.found.starts_with("offset 4294967295 + size 4536"), "{e}");
    // Without the resource file the range cannot be checked, and the verdict says so.
    let v = unity_synth::entry().judge(&b, &finding_ctx("2020.3.0f1", false));
    assert!(v
        .warnings()
        .any(|w| w.kind == ErrorKind::Unchecked && w.found.contains("--ress")));
}

#[test]
fn finding_unity_topology_131072_is_refused_by_check_as_by_export() {
    // check said ok while export refused.
    let b = finding!("unity-topology-131072.mesh");
    let ctx = finding_ctx("2022.1.20f1", false);
    let e = refused_at(&b, &ctx, "unity_mesh.sub_meshes[0].topology", |p| {
        p.sub_meshes.items[0].topology.unwrap().start
    });
    assert_eq!(
        (e.kind, e.found.as_str()),
        (ErrorKind::Unsupported, "131072")
    );
}

// ---------------------------------------------------------------------------------------------
// Every relation of the spec, broken one at a time in a mesh made here: check, build and export
// each name it with its id, the offset of the field it is at and the field's spec path.

mod broken {
    use super::unity_synth::*;
    use meshspec_formats::context::Context;
    use meshspec_formats::generated::unity_mesh::{
        BlendShapeVertex, MeshBlendShape, MeshBlendShapeChannel, StreamingInfo, UnityMesh,
        UnityMeshPos, Vector3f,
    };
    use meshspec_formats::rt::{ErrorKind, Root, Severity};
    use meshspec_formats::unity::decode::name_hash;
    use meshspec_formats::unity::make;

    /// One relation broken: the mesh, the context it is read with, and where the violation is.
    pub struct Broken {
        pub rule: &'static str,
        pub mesh: UnityMesh,
        pub ctx: Context,
        pub path: String,
        pub at: fn(&UnityMeshPos) -> u64,
    }

    /// Three vertices along x, one triangle.
    pub fn triangle() -> UnityMesh {
        let mut m = mesh(
            "triangle",
            3,
            table(&[(0, ch(0, 0, 0, 3))]),
            line_positions(3),
        );
        indices16(&mut m, &[0, 1, 2]);
        submeshes(&mut m, vec![submesh(0, 3, 0, 0, 0, 3)]);
        m
    }

    /// Where word `i` of m_VariableBoneCountWeights lies.
    fn word_at(p: &UnityMeshPos, i: usize) -> u64 {
        p.variable_bone_count_weights
            .as_ref()
            .unwrap()
            .data
            .get(i)
            .start
    }

    fn words(m: &mut UnityMesh, words: Vec<u32>) {
        let w = m.variable_bone_count_weights.as_mut().unwrap();
        w.num_data = words.len() as i32;
        w.data = words;
    }

    /// The triangle skinned by m_VariableBoneCountWeights alone: vertex 0 two influences
    /// (35,535 and 30,000 of 65,535), the others one each.
    pub fn variable() -> UnityMesh {
        let mut m = triangle();
        bind_poses(&mut m, &[identity(), identity()]);
        words(
            &mut m,
            vec![
                4,
                6,
                7,
                8,
                35535 << 16,
                1 | (30000 << 16),
                65535 << 16,
                1 | (65535 << 16),
            ],
        );
        m
    }

    /// The triangle with one blend shape of one frame of one entry.
    pub fn shaped() -> UnityMesh {
        let mut m = triangle();
        let v = Vector3f {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        };
        m.shapes.as_mut().unwrap().vertices = vec![BlendShapeVertex {
            vertex: v.clone(),
            normal: v.clone(),
            tangent: v,
            index: 2,
        }];
        m.shapes.as_mut().unwrap().shapes = vec![MeshBlendShape {
            first_vertex: 0,
            vertex_count: 1,
            has_normals: 0,
            has_tangents: 0,
            pad: vec![0, 0],
        }];
        m.shapes.as_mut().unwrap().channels = vec![MeshBlendShapeChannel {
            name: make::string("lift"),
            name_hash: name_hash("lift"),
            frame_index: 0,
            frame_count: 1,
        }];
        m.shapes.as_mut().unwrap().full_weights = vec![100.0];
        m
    }

    /// The triangle with its vertex bytes streamed from a resource file written beside the
    /// input (16 bytes into it), and the context that finds it.
    pub fn streamed(dir: &std::path::Path) -> (UnityMesh, Context) {
        let mut m = triangle();
        let data = m.vertex_data.as_ref().unwrap().data.data.clone();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("CAB-t.resS"), [&[7u8; 16][..], &data].concat()).unwrap();
        m.vertex_data.as_mut().unwrap().data = make::bytes(vec![]);
        m.stream_data = Some(StreamingInfo {
            ofs_data_u4: None,
            ofs_data_u8: Some(16),
            len_data: data.len() as u32,
            path: make::string("archive:/CAB-t/CAB-t.resS"),
        });
        let mut ctx = ctx();
        ctx.input = Some(dir.join("triangle.mesh"));
        (m, ctx)
    }

    pub fn all() -> Vec<Broken> {
        let case = |rule, mesh, path: &str, at| Broken {
            rule,
            mesh,
            ctx: ctx(),
            path: path.to_string(),
            at,
        };
        let mut out = vec![];
        let mut m = triangle();
        m.vertex_data.as_mut().unwrap().data =
            make::bytes([&line_positions(3)[..], &[0; 4]].concat());
        out.push(case(
            "vertex_layout_fills_data",
            m,
            "unity_mesh.vertex_data.data.len_data",
            |p| p.vertex_data.as_ref().unwrap().data.len_data.start,
        ));
        // A folder of its own per call: tests run side by side.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = meshspec_tests::tools::scratch_dir(&format!("broken-{call}"));
        let (mut m, sctx) = streamed(&dir);
        assert!(
            entry()
                .judge(&bytes_with(&m, &sctx), &sctx)
                .findings
                .is_empty(),
            "the streamed triangle is sound"
        );
        m.vertex_data.as_mut().unwrap().data = make::bytes(vec![0; 16]);
        out.push(Broken {
            ctx: sctx,
            ..case(
                "stream_data_replaces_inline_data",
                m,
                "unity_mesh.vertex_data.data.len_data",
                |p| p.vertex_data.as_ref().unwrap().data.len_data.start,
            )
        });
        let mut m = triangle();
        m.index_buffer = make::index_bytes(2, vec![0, 0, 1, 0, 2, 0, 0]);
        out.push(case(
            "index_buffer_whole_indices",
            m,
            "unity_mesh.index_buffer.indices.rest",
            |p| p.index_buffer.indices.rest.start,
        ));
        let mut m = triangle();
        m.sub_meshes[0].index_count = 6;
        out.push(case(
            "submesh_within_index_buffer",
            m,
            "unity_mesh.sub_meshes[0].index_count",
            |p| p.sub_meshes.items[0].index_count.start,
        ));
        let mut m = triangle();
        indices16(&mut m, &[0, 3, 2]);
        out.push(case(
            "indices_name_vertices",
            m,
            "unity_mesh.index_buffer.indices.u16_indices[1]",
            |p| {
                p.index_buffer
                    .indices
                    .u16_indices
                    .as_ref()
                    .unwrap()
                    .get(1)
                    .start
            },
        ));
        let mut m = triangle();
        m.sub_meshes[0].first_vertex = 1;
        out.push(case(
            "submesh_vertex_range",
            m,
            "unity_mesh.sub_meshes[0].vertex_count",
            |p| p.sub_meshes.items[0].vertex_count.start,
        ));
        let mut m = triangle();
        bind_poses(&mut m, &[identity(), identity()]);
        m.bone_name_hashes = Some(vec![1, 2, 3]);
        out.push(case(
            "bone_data_per_bind_pose",
            m,
            "unity_mesh.num_bone_name_hashes",
            |p| p.num_bone_name_hashes.unwrap().start,
        ));
        let mut data = line_positions(3);
        data.resize(48, 0);
        data.extend(f32_bytes(&[1.0, 1.0, 1.0]));
        let mut m = mesh(
            "weights alone",
            3,
            table(&[(0, ch(0, 0, 0, 3)), (12, ch(1, 0, 0, 1))]),
            data,
        );
        indices16(&mut m, &[0, 1, 2]);
        submeshes(&mut m, vec![submesh(0, 3, 0, 0, 0, 3)]);
        bind_poses(&mut m, &[identity()]);
        out.push(case(
            "blend_channels_form_a_skin",
            m,
            "unity_mesh.vertex_data.channels[12]",
            |p| {
                p.vertex_data
                    .as_ref()
                    .unwrap()
                    .channels
                    .as_ref()
                    .unwrap()
                    .get(12)
                    ._span
                    .start
            },
        ));
        let mut m = variable();
        m.variable_bone_count_weights.as_mut().unwrap().data[0] = 3;
        out.push(case(
            "variable_weights_offsets",
            m,
            "unity_mesh.variable_bone_count_weights.data[0]",
            |p| word_at(p, 0),
        ));
        let mut m = variable();
        m.variable_bone_count_weights
            .as_mut()
            .unwrap()
            .data
            .swap(4, 5);
        out.push(case(
            "variable_weights_sorted",
            m,
            "unity_mesh.variable_bone_count_weights.data[5]",
            |p| word_at(p, 5),
        ));
        let mut m = variable();
        m.variable_bone_count_weights.as_mut().unwrap().data[7] = 1 | (60000 << 16);
        out.push(case(
            "variable_weights_sum_to_one",
            m,
            "unity_mesh.variable_bone_count_weights.data[7]",
            |p| word_at(p, 7),
        ));
        let mut m = shaped();
        m.shapes.as_mut().unwrap().channels[0].frame_count = 2;
        out.push(case(
            "shape_arrays_agree",
            m,
            "unity_mesh.shapes.channels[0].frame_count",
            |p| {
                p.shapes.as_ref().unwrap().channels.items[0]
                    .frame_count
                    .start
            },
        ));
        let mut m = shaped();
        m.shapes.as_mut().unwrap().channels[0].name_hash ^= 1;
        out.push(case(
            "shape_name_hash",
            m,
            "unity_mesh.shapes.channels[0].name_hash",
            |p| p.shapes.as_ref().unwrap().channels.items[0].name_hash.start,
        ));
        // The older eras' rules, each on a triangle of its era.
        let era = |v: &str| Context::new().with_unity_version(v).unwrap();
        let number = |v: &str| meshspec_formats::context::unity_version(v).unwrap() as u32;
        let mut m = make::triangle("t", number("2017.4.0f1"));
        m.vertex_data.as_mut().unwrap().data =
            make::bytes([&line_positions(3)[..], &[0; 4]].concat());
        out.push(Broken {
            ctx: era("2017.4.0f1"),
            ..case(
                "older_vertex_layout_fills_data",
                m,
                "unity_mesh.vertex_data.data.len_data",
                |p| p.vertex_data.as_ref().unwrap().data.len_data.start,
            )
        });
        let mut m = make::triangle("t", number("4.7.2f1"));
        m.vertex_data.as_mut().unwrap().streams.as_mut().unwrap()[0].offset = 4;
        out.push(Broken {
            ctx: era("4.7.2f1"),
            ..case(
                "stored_streams_hold_channels",
                m,
                "unity_mesh.vertex_data.streams[0].offset",
                |p| {
                    p.vertex_data
                        .as_ref()
                        .unwrap()
                        .streams
                        .as_ref()
                        .unwrap()
                        .get(0)
                        .offset
                        .start
                },
            )
        });
        let mut m = make::triangle("t", number("2017.4.0f1"));
        let skin = m.skin.as_mut().unwrap();
        skin.items = vec![make::influences([1.0, 0.0, 0.0, 0.0], [0; 4]); 2];
        skin.num_items = 2;
        out.push(Broken {
            ctx: era("2017.4.0f1"),
            ..case("skin_per_vertex", m, "unity_mesh.skin.num_items", |p| {
                p.skin.as_ref().unwrap().num_items.start
            })
        });
        // Before 3.5: two normals for three positions.
        let mut m = make::triangle("t", number("3.4.2f3"));
        let up = [0.0, 0.0, -1.0];
        make::arrays(
            &mut m,
            &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            &[up, up],
            &[],
            &[],
        );
        out.push(Broken {
            ctx: era("3.4.2f3"),
            ..case("arrays_per_vertex", m, "unity_mesh.num_normals", |p| {
                p.num_normals.unwrap().start
            })
        });
        out
    }

    /// The finding of `rule` among `findings`: its line, severity and place.
    pub fn of(rule: &str, findings: &[meshspec_formats::Error]) -> Option<meshspec_formats::Error> {
        findings
            .iter()
            .find(|e| e.relation_id() == Some(rule) && e.kind == ErrorKind::Relation)
            .cloned()
    }

    pub fn severity(rule: &str) -> Severity {
        UnityMesh::RELATIONS
            .iter()
            .find(|r| r.id == rule)
            .map(|r| r.severity)
            .unwrap()
    }

    pub fn position(b: &[u8], ctx: &Context) -> UnityMeshPos {
        UnityMesh::read::<true>(b, ctx).unwrap().pos.unwrap()
    }
}

#[test]
fn every_relation_broken_is_named_with_its_offset_and_path_by_check_build_and_export() {
    let entry = find("unity-mesh").unwrap();
    let cases = broken::all();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.rule).collect();
    ids.sort();
    let mut spec: Vec<&str> = UnityMesh::RELATIONS.iter().map(|r| r.id).collect();
    spec.sort();
    assert_eq!(ids, spec, "one case per relation of the spec");
    for c in &cases {
        let bytes = unity_synth::bytes_with(&c.mesh, &c.ctx);
        let at = (c.at)(&broken::position(&bytes, &c.ctx));
        let severity = broken::severity(c.rule);
        // check
        let v = entry.judge(&bytes, &c.ctx);
        let f = broken::of(c.rule, &v.findings)
            .unwrap_or_else(|| panic!("{}: {:?}", c.rule, unity_synth::lines(&v)));
        assert_eq!(
            (f.offset, f.path_string(), f.severity),
            (Some(at), c.path.clone(), severity),
            "{}: {f}",
            c.rule
        );
        // build: the dump of the bytes builds them again, with the same finding on them.
        let dump = entry.dump(&bytes, &c.ctx).unwrap();
        let built = entry.build(&dump, &c.ctx).unwrap();
        assert_eq!(built.bytes, bytes, "{}", c.rule);
        assert_eq!(
            broken::of(c.rule, &built.verdict.findings).map(|e| e.to_string()),
            Some(f.to_string()),
            "{}",
            c.rule
        );
        assert_eq!(built.verdict.passes(), v.passes(), "{}", c.rule);
        // export: refused with the relation (at the same place) when it refuses; otherwise the
        // decoded mesh's verdict carries it as a warning.
        match entry.decode(&bytes, &c.ctx) {
            Err(e) => {
                assert_eq!(
                    (e.relation_id(), e.offset, e.path_string()),
                    (Some(c.rule), Some(at), c.path.clone()),
                    "{}: {e}",
                    c.rule
                );
                assert!(!v.passes());
            }
            Ok(d) => {
                assert_eq!(
                    severity,
                    Severity::Warning,
                    "{}: an error relation exported",
                    c.rule
                );
                assert_eq!(
                    broken::of(c.rule, &d.verdict.findings).map(|e| e.to_string()),
                    Some(f.to_string())
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Positions: the byte range the reader records for every field holds exactly the bytes the
// writer writes for it.

/// Reads `bytes` located and writes the value it holds located: every field's recorded range
/// holds exactly the bytes the writer wrote for it
/// ([`meshspec_tests::positions_hold_the_bytes`]), and the leaf fields tile the object (no byte
/// left out, none in two fields). Returns how many leaf fields were compared.
fn positions_agree(what: &str, bytes: &[u8], ctx: &Context) -> usize {
    use meshspec_formats::rt::{Path, Walk};
    meshspec_tests::positions_hold_the_bytes::<UnityMesh>(what, bytes, ctx, &[]);
    let pos = UnityMesh::read::<true>(bytes, ctx).unwrap().pos.unwrap();
    let mut leaves = vec![];
    pos.walk(&mut Path::root(UnityMesh::ROOT), &mut |p, s, _, leaf| {
        if leaf {
            leaves.push((p.to_string(), s));
        }
    });
    let mut tiles: Vec<_> = leaves.iter().filter(|(_, s)| s.end > s.start).collect();
    tiles.sort_by_key(|(_, s)| s.start);
    let mut end = 0;
    for (p, s) in tiles {
        assert_eq!(
            s.start, end,
            "{what}: {p} starts at {}, after a field ending at {end}",
            s.start
        );
        end = s.end;
    }
    assert_eq!(
        end,
        bytes.len() as u64,
        "{what}: the fields end with the object"
    );
    leaves.len()
}

#[test]
fn every_field_of_every_object_lies_where_the_writer_writes_it() {
    meshspec_tests::shared_or_return!();
    let mut fields = 0;
    for o in corpus() {
        fields += positions_agree(
            &format!("{}/{}", o.version, o.file_name()),
            &o.bytes,
            &o.ctx(),
        );
    }
    // The made meshes hold what the corpus does not: blend shapes, variable weights, packed
    // vectors.
    for c in broken::all() {
        fields += positions_agree(c.rule, &unity_synth::bytes_with(&c.mesh, &c.ctx), &c.ctx);
    }
    assert!(fields > 35 * 100, "{fields} fields compared");
}

#[test]
fn check_refuses_exactly_what_export_refuses_on_mutants_of_every_object() {
    meshspec_tests::shared_or_return!();
    // Bytes changed at random (the resource file beside each object, as Unity would find it):
    // whatever the verdict passes, export decodes into a consistent mesh; whatever it refuses,
    // export refuses with the verdict's first failure. The one exception is a check that could
    // not run (a resource file renamed away), which the verdict reports as such.
    let entry = find("unity-mesh").unwrap();
    let mut rng = meshspec_formats::sws::build::Rng(0x2545_F491_4F6C_DD1D);
    let mut next = move || rng.u64();
    let (mut read, mut passed) = (0, 0);
    for o in corpus() {
        let ctx = o.ctx();
        for _ in 0..24 {
            let mut b = o.bytes.clone();
            for _ in 0..1 + next() % 3 {
                let at = (next() % b.len() as u64) as usize;
                b[at] = match next() % 3 {
                    0 => next() as u8,
                    1 => b[at].wrapping_add(1),
                    _ => 0xFF,
                };
            }
            let v = entry.judge(&b, &ctx);
            if v.refused.is_some() {
                continue;
            }
            read += 1;
            let unchecked = v.findings.iter().any(|f| f.kind == ErrorKind::Unchecked);
            match entry.decode(&b, &ctx) {
                // A resource file that is not there (the mutant renamed it): check says it did
                // not look and how to let it, export that it cannot decode.
                Err(e) if unchecked && v.passes() => {
                    assert!(e.to_string().contains("--ress"), "{e}")
                }
                Ok(d) => {
                    assert!(v.passes(), "{}: exported what check refuses", o.file_name());
                    passed += 1;
                    for m in &d.scene.meshes {
                        m.validate().unwrap();
                    }
                }
                Err(e) => assert_eq!(
                    v.first_failure(),
                    Some(&e),
                    "{}: export refused what check passes",
                    o.file_name()
                ),
            }
        }
    }
    assert!(read > 200 && passed > 100, "{read} read, {passed} passed");
}
