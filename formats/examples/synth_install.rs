fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let unity = repo.join("../shared/corpus/unity/meshes");
    let plan = meshspec_formats::survey::synth::Plan {
        corpus: repo.join("corpus"),
        unity: unity.is_dir().then_some(unity),
        scale: 400,
        large: 2,
    };
    let e = meshspec_formats::survey::synth::write(&dir, &plan).unwrap();
    println!("{} files {} bytes", e.files, e.bytes);
}
