//! `meshspec export LAYOUT FILE -o OUT.glb|OUT.obj`: the geometry through the common model.

use super::Written;
use crate::args::{
    EveryMesh, GameSelect, InputOpt, Json, NonFiniteArg, QuietOpt, RessOpt, SkinWeightsArg,
    UnityEditorOpt, UnityOpt, WindingOpt,
};
use crate::fail::Fail;
use crate::input;
use crate::output::{self, Target};
use crate::usage::{Given, Usage};
use meshspec_formats::context::SkinWeights;
use meshspec_formats::export::{self, NonFinite};
use std::path::PathBuf;
use std::process::ExitCode;

/// `meshspec export`.
#[derive(clap::Args)]
pub struct Args {
    /// The layout id.
    pub layout: String,
    /// The file to export.
    pub file: PathBuf,
    /// The .glb or .obj to write.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// What to do with values that are not finite.
    #[arg(long, value_enum, default_value = "refuse")]
    pub non_finite: NonFiniteArg,
    /// With a .obj output: also write the material library OUT.mtl beside it (replacing a
    /// file of that name) and name its materials with `usemtl`.
    #[arg(long)]
    pub mtl: bool,
    /// Which skin influences to draw (unity-mesh; Unity's QualitySettings.skinWeights): up
    /// to 1, 2 or 4 per vertex from the blend channels, or all of them
    /// (m_VariableBoneCountWeights when the mesh has it).
    #[arg(long, value_enum, default_value = "4", value_name = "N")]
    pub skin_weights: SkinWeightsArg,
    #[command(flatten)]
    pub winding: WindingOpt,
    #[command(flatten)]
    pub unity: UnityOpt,
    #[command(flatten)]
    pub editor: UnityEditorOpt,
    #[command(flatten)]
    pub ress: RessOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub quiet: QuietOpt,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub game: GameSelect,
    #[command(flatten)]
    pub every: EveryMesh,
}

#[derive(Clone, Copy)]
pub enum Kind {
    Glb,
    Obj,
}

/// The format OUT's extension names.
pub fn kind(out: &std::path::Path) -> Option<Kind> {
    match out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("glb") => Some(Kind::Glb),
        Some("obj") => Some(Kind::Obj),
        _ => None,
    }
}

/// The bytes of `scene` in the format `kind` names (an OBJ with the material library `mtl`,
/// when given).
pub fn encode(
    scene: meshspec_formats::scene::Scene,
    kind: Kind,
    non_finite: NonFiniteArg,
    mtl: Option<&std::path::Path>,
) -> Result<export::Exported, Fail> {
    let policy = match non_finite {
        NonFiniteArg::Refuse => NonFinite::Refuse,
        NonFiniteArg::Zero => NonFinite::Zero,
    };
    Ok(match (kind, mtl) {
        (Kind::Glb, _) => export::glb(scene, policy)?,
        (Kind::Obj, Some(path)) => {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            export::obj_with_mtl(scene, policy, name)?
        }
        (Kind::Obj, None) => export::obj(scene, policy)?,
    })
}

/// The library's skin weights for `--skin-weights`.
pub fn skin_weights(a: SkinWeightsArg) -> SkinWeights {
    match a {
        SkinWeightsArg::One => SkinWeights::One,
        SkinWeightsArg::Two => SkinWeights::Two,
        SkinWeightsArg::Four => SkinWeights::Four,
        SkinWeightsArg::All => SkinWeights::All,
    }
}

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let entry = u.layout(&a.layout);
    u.files(std::slice::from_ref(&a.file), None);
    crate::cmd::unity::not_a_game_file(&mut u, &a.layout, &a.game, a.every.all);
    let given = Given {
        unity_version: a.unity.unity_version,
        unity_editor: a.editor.unity_editor,
        ress: a.ress.ress,
        winding: a.winding.winding,
        ..Given::default()
    };
    let mut ctx = u.context(entry, &given, Some(&a.file));
    ctx.skin_weights = skin_weights(a.skin_weights);
    u.winding(entry, &given);
    let kind = kind(&a.output);
    if kind.is_none() {
        u.problem(format!(
            "-o {}: export writes glTF (.glb) or Wavefront OBJ (.obj), chosen by the extension",
            a.output.display()
        ));
    }
    if a.mtl && !matches!(kind, Some(Kind::Obj)) {
        u.problem(
            "--mtl goes with a .obj output (it writes the material library beside it)".into(),
        );
    }
    let target = Target::of(Some(&a.output));
    u.output(&target, true);
    let mtl_path = a.output.with_extension("mtl");
    let mtl_target = Target::of(Some(&mtl_path));
    if a.mtl {
        u.output(&mtl_target, false);
    }
    u.finish()?;
    let (entry, kind) = (entry.expect("usage checked"), kind.expect("usage checked"));

    let w = Written {
        command: "export",
        layout: entry.id,
        input: &a.file,
        output: &target,
        json: a.json.json,
        quiet: a.quiet.quiet,
    };
    let exported = (|| {
        let bytes = input::read(&a.file, a.input.max_input_size)?;
        let decoded = entry.decode(&bytes, &ctx).map_err(|e| {
            let mut e = Some(e);
            crate::cmd::unity::bare_hint(entry, &bytes, &ctx, &mut e);
            e.expect("still an error")
        })?;
        // The verdict passed; what it warns about is worth saying before the notes.
        let v = crate::report::Verdict::of(&decoded.verdict);
        if !a.json.json {
            for f in &v.findings {
                crate::term::err(f.severity, &f.line());
            }
        }
        let mut scene = decoded.scene;
        let stem = a
            .file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("mesh")
            .to_string();
        scene.label(entry.id, &stem);
        encode(scene, kind, a.non_finite, a.mtl.then_some(&mtl_path))
    })();
    written(&w, exported, &mtl_path)
}

/// Writes an export (and its material library to `mtl_path`, when it has one), or reports why
/// there is none.
pub fn written(
    w: &super::Written,
    exported: Result<export::Exported, Fail>,
    mtl_path: &std::path::Path,
) -> Result<ExitCode, Fail> {
    match exported {
        Ok(mut out) => {
            let mut written = output::write(w.output, &out.bytes);
            if let (Ok(()), Some(m)) = (&written, &out.mtl) {
                written = output::write(&Target::of(Some(mtl_path)), m);
                out.notes.push(format!(
                    "materials written to {}",
                    export::escape(&mtl_path.display().to_string())
                ));
            }
            w.notes(&out.notes);
            w.end(&out.notes, written)
        }
        Err(e) => w.end(&[], Err(e)),
    }
}
