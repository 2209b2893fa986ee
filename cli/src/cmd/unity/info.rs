//! `meshspec info unity-mesh GAMEFILE --mesh NAME|--path-id N`: the one screen `info` gives a
//! bare object, for one object of a game file (offsets in its serialized file).

use super::{given_version, label, needs_one, one, open_one, refused, user_context};
use crate::cmd::info::{parsed, show, Args, Screen};
use crate::fail::Fail;
use crate::report::Verdict;
use crate::usage::Usage;
use std::process::ExitCode;

pub fn run(a: Args) -> Result<ExitCode, Fail> {
    let mut u = Usage::default();
    let version = given_version(&mut u, a.unity.unity_version.as_deref());
    super::bare_only(&mut u, a.editor.unity_editor);
    let sel = needs_one(&mut u, &a.game, "info");
    let user = user_context(&mut u, &a.ress, Some(a.relations));
    u.finish()?;
    let sel = sel.expect("usage checked");

    let g = open_one(&a.file, a.input.max_input_size, version)?;
    let r = one(&g, &sel)?;
    let input = g.input(r, &user).map_err(|e| refused(&e))?;
    // One reading when it decodes; the verdict alone when it does not.
    let (verdict, geometry) = match input.decode() {
        Ok(d) => (d.verdict, Some(Ok(d.scene))),
        Err(e) => {
            let v = input.judge();
            let geometry = parsed(&Verdict::of(&v)).then(|| Err(*e.error));
            (v, geometry)
        }
    };
    show(
        &a,
        &Screen {
            name: label(&g, r),
            layout: meshspec_formats::find(input.layout)
                .expect("an object's layout is in the table"),
            size: input.bytes.len() as u64,
            verdict: &verdict,
            geometry,
        },
    )
}
