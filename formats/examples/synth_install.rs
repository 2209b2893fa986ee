//! Writes the synthetic install the survey's tests and benchmark use (`survey::synth`: about
//! 1,600 files across the families, some broken on purpose, two 1.2 MB meshes, Unity's meshes
//! when the shared corpus is beside the checkout) into an empty folder:
//! `cargo run --release -p meshspec-formats --example synth_install DIR`.

use meshspec_formats::survey::synth::{self, Plan};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: synth_install DIR");
        return ExitCode::FAILURE;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let unity = repo.join("../shared/corpus/unity/meshes");
    let plan = Plan {
        corpus: repo.join("corpus"),
        unity: unity.is_dir().then_some(unity),
        scale: 400,
        large: 2,
    };
    match synth::write(&dir, &plan) {
        Ok(e) => {
            println!("{} files, {} bytes", e.files, e.bytes);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
