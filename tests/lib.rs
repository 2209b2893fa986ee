//! Helpers shared by the integration tests: where the repository, its corpus and the shared
//! Unity files are, and how dumps are shortened for snapshots.

use std::path::{Path, PathBuf};

pub mod tools;
pub mod unity_fixtures;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A file of the repository's Unity corpus (`corpus/unity/NAME`).
pub fn unity_corpus(name: &str) -> PathBuf {
    root().join("corpus/unity").join(name)
}

/// The bytes of a file of the repository's Unity corpus.
pub fn unity_corpus_bytes(name: &str) -> Vec<u8> {
    std::fs::read(unity_corpus(name)).unwrap()
}

/// The verdict of layout `id` on `bytes`, read with no parameter.
pub fn verdict(id: &str, bytes: &[u8]) -> meshspec_formats::verdict::Verdict {
    let ctx = meshspec_formats::context::Context::new();
    meshspec_formats::find(id).unwrap().judge(bytes, &ctx)
}

/// One corpus file.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The family folder (`meshbin`, `sws`).
    pub family: String,
    /// The file.
    pub path: PathBuf,
    /// The layout id: the file's extension.
    pub layout: String,
    /// Whether the file is in a `bad/` folder and must be refused.
    pub bad: bool,
}

impl Sample {
    /// A name for snapshots: `family__bad__file`.
    pub fn snapshot_name(&self) -> String {
        let file = self.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if self.bad {
            format!("{}__bad__{file}", self.family)
        } else {
            format!("{}__{file}", self.family)
        }
    }
}

/// The paths in `dir` that `keep` accepts, sorted.
pub fn sorted_paths(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| keep(p))
        .collect();
    out.sort();
    out
}

/// The files of the version folders of the shared corpus's Unity meshes whose names end with
/// `suffix`, by version then name: (version, file).
pub fn unity_mesh_files(shared: &Path, suffix: &str) -> Vec<(String, PathBuf)> {
    let dir = shared.join("corpus/unity/meshes");
    let mut out = vec![];
    for v in sorted_paths(&dir, Path::is_dir) {
        let version = v.file_name().unwrap().to_string_lossy().into_owned();
        for f in sorted_paths(&v, |p| p.to_string_lossy().ends_with(suffix)) {
            out.push((version.clone(), f));
        }
    }
    out
}

/// Every corpus file whose extension names a layout, in path order.
pub fn samples() -> Vec<Sample> {
    let mut out = vec![];
    for fam in sorted_paths(&root().join("corpus"), Path::is_dir) {
        let family = fam.file_name().unwrap().to_string_lossy().to_string();
        for (dir, bad) in [(fam.clone(), false), (fam.join("bad"), true)] {
            if !dir.is_dir() {
                continue;
            }
            for path in sorted_paths(&dir, Path::is_file) {
                let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
                    continue;
                };
                if meshspec_formats::find(ext).is_some() {
                    out.push(Sample {
                        family: family.clone(),
                        layout: ext.to_string(),
                        path,
                        bad,
                    });
                }
            }
        }
    }
    out
}

/// The shared folder beside the checkout (`../shared`), there or not.
pub fn shared_dir() -> PathBuf {
    root().join("..").join("shared")
}

/// The shared folder beside the checkout (`../shared`), or `None` after one loud line on
/// standard error (past the test harness's capture) naming the test that skips its shared part.
/// Tests over it run whenever it is there; `.ci/run` refuses to run without it, so CI always
/// runs them.
pub fn shared_or_skip(test: &str) -> Option<PathBuf> {
    use std::io::Write as _;
    let p = shared_dir();
    if p.join("corpus").is_dir() {
        return Some(p);
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {} (the shared corpus beside the checkout) is missing; its inputs are not tested",
        p.display()
    );
    None
}

/// The name of the function this is called in (a test's name, as the harness prints it).
#[macro_export]
macro_rules! test_name {
    () => {
        $crate::enclosing_fn({
            fn f() {}
            std::any::type_name_of_val(&f)
        })
    };
}

/// The last segment of the path of the function an item named `f` is declared in, given the
/// item's type name.
pub fn enclosing_fn(f: &'static str) -> &'static str {
    let f = f.strip_suffix("::f").unwrap_or(f);
    f.rsplit("::").next().unwrap_or(f)
}

/// The shared folder, or a return from the calling test after [`shared_or_skip`]'s loud line
/// naming the test (the function it is called in, unless a name is given).
#[macro_export]
macro_rules! shared_or_return {
    () => {
        $crate::shared_or_return!($crate::test_name!())
    };
    ($test:expr) => {
        match $crate::shared_or_skip($test) {
            Some(p) => p,
            None => return,
        }
    };
}

/// A findings input in `../shared/findings/robustness/`, or `None` (said loudly).
pub fn finding(test: &str, file: &str) -> Option<PathBuf> {
    use std::io::Write as _;
    let p = shared_or_skip(test)?.join("findings/robustness").join(file);
    if p.is_file() {
        Some(p)
    } else {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: {} is missing",
            p.display()
        );
        None
    }
}

/// [`finding`] for the calling test, or a return from it (said loudly).
#[macro_export]
macro_rules! finding_or_return {
    ($file:expr) => {
        match $crate::finding($crate::test_name!(), $file) {
            Some(p) => p,
            None => return,
        }
    };
}

/// Runs one of the Node tools in `tools/` (`gltf-validate.mjs`, `ksc-check.mjs`) over `args`:
/// whether it succeeded, and what it printed. Fails loudly when the tools are not installed.
pub fn node_tool(script: &str, package: &str, args: &[PathBuf]) -> (bool, String) {
    let tools = root().join("tools");
    assert!(
        tools.join("node_modules").join(package).is_dir(),
        "MISSING: tools/node_modules/{package}; run `npm ci --prefix tools` (node and npm are needed)"
    );
    let out = std::process::Command::new("node")
        .arg(tools.join(script))
        .args(args)
        .output()
        .expect("node runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

/// Runs Khronos' glTF-Validator over `files`: what it printed, asserting every file passed with
/// no error.
pub fn validate_gltf(files: &[PathBuf]) -> String {
    let (ok, text) = node_tool("gltf-validate.mjs", "gltf-validator", files);
    assert!(ok, "glTF-Validator found errors:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        files.len(),
        "{text}"
    );
    text
}

/// A dump shortened for a snapshot: long arrays keep their first 8 and last 2 elements and say
/// how many were left out; long hex strings keep 64 digits and say how many bytes they hold.
pub fn elide(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Array(a) if a.len() > 12 => {
            let mut out: Vec<Value> = a[..8].iter().map(elide).collect();
            out.push(Value::String(format!("… {} more …", a.len() - 10)));
            out.extend(a[a.len() - 2..].iter().map(elide));
            Value::Array(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(elide).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), elide(v))).collect()),
        Value::String(s) if s.len() > 96 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Value::String(format!("{}… ({} bytes)", &s[..64], s.len() / 2))
        }
        other => other.clone(),
    }
}

/// Reads `bytes` located as `T`, writes the value located, and checks the two against each
/// other and against the bytes: the writer records the reader's positions; every field lies
/// inside its parent; the leaf fields cover the input from its first byte to its last; every
/// field holds exactly the bytes the writer writes there, but for `derived` fields (values the
/// writer recomputes, which a bad file may store otherwise). Returns how many fields it saw.
pub fn positions_hold_the_bytes<T: meshspec_formats::rt::Root>(
    name: &str,
    bytes: &[u8],
    ctx: &meshspec_formats::Context,
    derived: &[&str],
) -> usize {
    use meshspec_formats::rt::{Path, Span, Walk};
    let read = T::read::<true>(bytes, ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
    let pos = read.pos.expect("read located");
    let (out, written) = T::own(&read.value).write::<true>(ctx).unwrap();
    assert!(
        written.as_ref() == Some(&pos),
        "{name}: the writer's positions differ from the reader's"
    );
    assert_eq!(out.len(), bytes.len(), "{name}");
    let mut fields: Vec<(String, Span, bool, usize)> = vec![];
    pos.walk(&mut Path::root(T::ROOT), &mut |p, span, _info, leaf| {
        fields.push((p.to_string(), span, leaf, p.segs().len()));
    });
    // Every field lies inside the nearest field above it.
    let mut stack: Vec<(usize, Span)> = vec![(0, Span::new(0, bytes.len() as u64))];
    for (p, s, _, depth) in &fields {
        while stack.last().is_some_and(|(d, _)| d >= depth) {
            stack.pop();
        }
        let parent = stack.last().map(|x| x.1).unwrap();
        assert!(
            s.start >= parent.start && s.end <= parent.end,
            "{name}: {p} {s:?} lies outside its parent {parent:?}"
        );
        stack.push((*depth, *s));
    }
    // The leaves cover the input, in order (bit fields share their group's bytes).
    let mut next = 0;
    for (p, s, _, _) in fields.iter().filter(|f| f.2) {
        assert!(
            s.start <= next,
            "{name}: bytes before {p} belong to no field"
        );
        next = next.max(s.end);
    }
    assert_eq!(
        next,
        bytes.len() as u64,
        "{name}: bytes at the end belong to no field"
    );
    // Every field holds what the writer writes for it (checked at the leaves: a field that
    // holds a recomputed one differs where it does).
    for (p, s, _, _) in fields.iter().filter(|f| f.2) {
        if out[s.range()] != bytes[s.range()] {
            let field = p.rsplit('.').next().unwrap_or("");
            let field = field.split('[').next().unwrap_or(field);
            assert!(derived.contains(&field), "{name}: {p} holds other bytes");
        }
    }
    fields.len()
}

/// The SHA-256 of `b`, in lowercase hex (as Python's `hashlib` prints it).
pub fn sha256_hex(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// The decoded scene of the Unity object `r` of `g`, as export reads it.
pub fn unity_scene(
    g: &meshspec_formats::unity::files::game::GameFiles,
    r: meshspec_formats::unity::files::ObjectRef,
) -> meshspec_formats::scene::Scene {
    let ctx = meshspec_formats::context::Context::new();
    g.input(r, &ctx).unwrap().decode().unwrap().scene
}
