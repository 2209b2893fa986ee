//! A synthetic install with known tallies, for the survey's tests and benchmark: thousands of
//! files across the families, written by the project's own writers (the generated types'
//! `to_bytes`), some broken on purpose, with files beside them that are no mesh at all.
//!
//! What it writes, and what a survey must find in it, is in [`Expected`]: per layout the files
//! tried, read, consumed exactly and passed, the files skipped, and the exact tallies of a few
//! fields whose values the generator chose.
//!
//! Templates for the SWS and Riders Republic files are the shipped corpus files (read with the
//! generated readers, changed, written back); their `bad/` files are copied as they are, each
//! breaking one relation. Unity meshes are added when `unity` names the shared corpus's
//! `meshes` folder (their bytes are never in the repository).

use super::value::Value;
use crate::generated::meshbin::{Meshbin, Vertex};
use crate::generated::rr_mesh::RrMesh;
use crate::generated::sws_mesh::SwsMesh;
use crate::rt::Root;
use crate::Context;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How a survey of a layout's files must come out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Files read as the layout.
    pub tried: u64,
    /// Whose structure read to its end.
    pub parsed: u64,
    /// Read to their exact end.
    pub consumed_exactly: u64,
    /// That passed.
    pub passed: u64,
}

/// What a survey of the install must find.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    /// Every file written.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Files no layout may count.
    pub skipped: u64,
    /// Per layout. (Unity's counts are those of its meshes, whose verdicts the generator does
    /// not choose: only `tried` is set.)
    pub layouts: BTreeMap<&'static str, Counts>,
    /// Exact tallies (value: how many) of chosen fields, by layout and field path.
    pub values: BTreeMap<(&'static str, &'static str), BTreeMap<Value, u64>>,
    /// Files broken on purpose, by layout and the relation they break (from the corpus's
    /// `bad/` files, named after it).
    pub broken: BTreeMap<(&'static str, String), u64>,
}

/// What to write.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The repository's `corpus/` folder (the templates).
    pub corpus: PathBuf,
    /// The shared corpus's Unity `meshes/` folder, if it is there.
    pub unity: Option<PathBuf>,
    /// How many of each kind of file: about 6 x `scale` files are written.
    pub scale: usize,
    /// How many large meshbins (65,000 vertices, 1.2 MB each) to add.
    pub large: usize,
}

type Io = std::io::Result<()>;

struct Writer<'a> {
    root: &'a Path,
    e: Expected,
}

impl Writer<'_> {
    fn write(&mut self, rel: &str, bytes: &[u8]) -> Io {
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, bytes)?;
        self.e.files += 1;
        self.e.bytes += bytes.len() as u64;
        Ok(())
    }

    fn count(&mut self, layout: &'static str, parsed: bool, exact: bool, passed: bool) {
        let c = self.e.layouts.entry(layout).or_default();
        c.tried += 1;
        c.parsed += u64::from(parsed);
        c.consumed_exactly += u64::from(exact);
        c.passed += u64::from(passed);
    }

    fn value(&mut self, layout: &'static str, field: &'static str, v: Value) {
        *self
            .e
            .values
            .entry((layout, field))
            .or_default()
            .entry(v)
            .or_insert(0) += 1;
    }
}

fn bad(e: crate::rt::Error) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// A meshbin of `nv` vertices and `nt` triangles (a fan), every index in range.
fn meshbin(nv: u16, nt: u16) -> Meshbin {
    let vertices = (0..nv)
        .map(|i| {
            let t = f32::from(i);
            Vertex {
                x: t.cos(),
                y: t.sin(),
                z: t * 0.01,
                r: (i % 256) as u8,
                g: 0,
                b: 255,
                a: 255,
            }
        })
        .collect();
    let indices = (0..nt)
        .flat_map(|t| [0, (t % (nv - 2)) + 1, (t % (nv - 2)) + 2])
        .collect::<Vec<u16>>();
    Meshbin {
        num_vertices: nv,
        num_indices: indices.len() as u16,
        vertices,
        indices,
    }
}

/// Writes the install under `root` (which should be empty) and says what a survey must find.
pub fn write(root: &Path, plan: &Plan) -> std::io::Result<Expected> {
    let ctx = Context::new();
    let mut w = Writer {
        root,
        e: Expected::default(),
    };
    let n = plan.scale;

    // MeshBuilder: 3 to 7 vertices, 1 to 4 triangles; then files broken on purpose.
    for i in 0..n {
        let (nv, nt) = (3 + (i % 5) as u16, 1 + (i % 4) as u16);
        let m = meshbin(nv, nt);
        let bytes = m.to_bytes(&ctx).map_err(bad)?;
        w.write(&format!("meshbin/{:02}/m{i:05}.meshbin", i / 100), &bytes)?;
        w.count("meshbin", true, true, true);
        w.value("meshbin", "num_vertices", Value::U(nv.into()));
        w.value("meshbin", "num_indices", Value::U(3 * u64::from(nt)));
    }
    for i in 0..plan.large {
        let m = meshbin(65_000, 21_000);
        let bytes = m.to_bytes(&ctx).map_err(bad)?;
        w.write(&format!("meshbin/large/l{i:03}.meshbin"), &bytes)?;
        w.count("meshbin", true, true, true);
        w.value("meshbin", "num_vertices", Value::U(65_000));
        w.value("meshbin", "num_indices", Value::U(63_000));
    }
    for i in 0..n / 10 {
        // An index naming a vertex that is not there: read, refused by a relation.
        let mut m = meshbin(4, 2);
        m.indices[1] = 4;
        let bytes = m.to_bytes(&ctx).map_err(bad)?;
        w.write(&format!("meshbin/broken/index{i:04}.meshbin"), &bytes)?;
        w.count("meshbin", true, true, false);
        w.value("meshbin", "num_vertices", Value::U(4));
        w.value("meshbin", "num_indices", Value::U(6));
        // One byte short: the index array does not fit.
        let mut bytes = meshbin(5, 3).to_bytes(&ctx).map_err(bad)?;
        bytes.pop();
        w.write(&format!("meshbin/broken/short{i:04}.meshbin"), &bytes)?;
        w.count("meshbin", false, false, false);
    }
    for i in 0..n / 25 {
        // A byte too many: the layout reads, but not to the end.
        let mut bytes = meshbin(3, 1).to_bytes(&ctx).map_err(bad)?;
        bytes.push(0);
        w.write(&format!("meshbin/broken/long{i:04}.meshbin"), &bytes)?;
        w.count("meshbin", true, false, false);
    }

    // Shaun White: the corpus's meshes with their category and generated flag chosen.
    let sws = plan.corpus.join("sws");
    let templates: Vec<SwsMesh> = ["hand-plain", "hand-boned", "built-skinned", "hand-authored"]
        .iter()
        .map(|t| {
            let b = std::fs::read(sws.join(format!("{t}.sws-mesh")))?;
            SwsMesh::from_bytes(&b, &ctx).map_err(bad)
        })
        .collect::<std::io::Result<_>>()?;
    for i in 0..n {
        let mut m = templates[i % templates.len()].clone();
        m.category = (i % 3) as u32;
        m.generated = (i % 2) as u8;
        let bytes = m.to_bytes(&ctx).map_err(bad)?;
        // Every tenth without a layout extension: recognised by its constants.
        let name = if i % 10 == 9 {
            format!("sws/forge{:02}/mesh{i:05}.bin", i / 100)
        } else {
            format!("sws/forge{:02}/mesh{i:05}.sws-mesh", i / 100)
        };
        w.write(&name, &bytes)?;
        w.count("sws-mesh", true, true, true);
        w.value("sws-mesh", "category", Value::U((i % 3) as u64));
        w.value("sws-mesh", "generated", Value::U((i % 2) as u64));
    }
    // The corpus's broken meshes, each breaking the relation it is named after.
    let mut bads: Vec<PathBuf> = std::fs::read_dir(sws.join("bad"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    bads.sort();
    for (k, b) in bads.iter().enumerate() {
        let bytes = std::fs::read(b)?;
        let stem = b.file_stem().map(|s| s.to_string_lossy().replace('-', "_"));
        let stem = stem.unwrap_or_default();
        for c in 0..(n / 50).max(1) {
            w.write(&format!("sws/bad/{k:02}-{c:03}.sws-mesh"), &bytes)?;
            let read = SwsMesh::from_bytes(&bytes, &ctx);
            // A relation the documents do not call proven is a warning, but what decoding
            // rests on (indices naming vertices) refuses the file all the same: whether it
            // passes is check's verdict.
            let passes = crate::reading::judge::<SwsMesh>(&bytes, &ctx).passes();
            w.count("sws-mesh", read.is_ok(), read.is_ok(), passes);
            if let Ok(m) = read {
                w.value("sws-mesh", "category", Value::U(m.category.into()));
                w.value("sws-mesh", "generated", Value::U(m.generated.into()));
            }
            *w.e.broken.entry(("sws-mesh", stem.clone())).or_insert(0) += 1;
        }
    }

    // Riders Republic: the corpus's resource bodies with a chosen culling distance.
    let rr = plan.corpus.join("rr");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&rr)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "rr-mesh"))
        .collect();
    names.sort();
    let templates: Vec<(RrMesh, bool)> = names
        .iter()
        .map(|p| {
            let b = std::fs::read(p)?;
            let m = RrMesh::from_bytes(&b, &ctx).map_err(bad)?;
            // (Some corpus files break a relation on purpose: they stay broken.)
            let passes = crate::find("rr-mesh").is_some_and(|e| e.judge(&b, &ctx).passes());
            Ok((m, passes))
        })
        .collect::<std::io::Result<_>>()?;
    for i in 0..n {
        let (m, passes) = &templates[i % templates.len()];
        let mut m = m.clone();
        m.max_culling_distance = (i % 4) as f32 * 50.0;
        let bytes = m.to_bytes(&ctx).map_err(bad)?;
        w.write(&format!("rr/{:02}/r{i:05}.rr-mesh", i / 100), &bytes)?;
        w.count("rr-mesh", true, true, *passes);
        w.value(
            "rr-mesh",
            "max_culling_distance",
            Value::F(f64::from(m.max_culling_distance)),
        );
    }

    // Files beside the meshes that are none: text, and bytes that a weak signature claims
    // (`16` at 0, sws-compiled-mesh's) but that read as nothing.
    for i in 0..(n / 20).max(1) {
        w.write(&format!("other/notes{i:03}.txt"), b"what the forge holds\n")?;
        let mut junk = vec![16u8, 0, 0, 0];
        junk.extend((0..200u32).map(|k| (k * 7 + i as u32) as u8));
        w.write(&format!("other/blob{i:03}.dat"), &junk)?;
        w.e.skipped += 2;
    }

    // Unity, from the shared corpus: every mesh under its version folder, named as the layout,
    // with its resource file beside it; and the folder's index.json.
    if let Some(dir) = plan.unity.as_deref().filter(|d| d.is_dir()) {
        let mut versions: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<Vec<_>>>()?
            .into_iter()
            .filter(|p| p.is_dir())
            .collect();
        versions.sort();
        for v in versions {
            let name = v.file_name().map(|s| s.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            let mut files: Vec<PathBuf> = std::fs::read_dir(&v)?
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<_>>()?;
            files.sort();
            for f in files {
                let file = f.file_name().map(|s| s.to_string_lossy().into_owned());
                let file = file.unwrap_or_default();
                if let Some(stem) = file.strip_suffix(".mesh") {
                    let bytes = std::fs::read(&f)?;
                    w.write(&format!("unity/{name}/{stem}.unity-mesh"), &bytes)?;
                    w.e.layouts.entry("unity-mesh").or_default().tried += 1;
                } else if file.ends_with(".resS") {
                    let bytes = std::fs::read(&f)?;
                    w.write(&format!("unity/{name}/{file}"), &bytes)?;
                    w.e.skipped += 1;
                }
            }
        }
        if let Ok(index) = std::fs::read(dir.join("index.json")) {
            w.write("unity/index.json", &index)?;
            w.e.skipped += 1;
        }
    }
    Ok(w.e)
}
