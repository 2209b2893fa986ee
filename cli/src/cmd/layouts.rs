//! `meshspec layouts`: every layout id with its description.

use crate::fail::Fail;
use crate::report::JSON_VERSION;
use crate::term;
use crate::usage::needs_unity_version;
use meshspec_formats::layouts::LAYOUTS;
use serde_json::json;
use std::process::ExitCode;

/// `[flag]` when it is `needed`, else `[]`.
fn needs(needed: bool, flag: &'static str) -> Vec<&'static str> {
    needed.then_some(flag).into_iter().collect()
}

pub fn run(as_json: bool) -> Result<ExitCode, Fail> {
    if as_json {
        let list: Vec<_> = LAYOUTS
            .iter()
            .map(|e| {
                json!({
                    "id": e.id,
                    "description": e.description,
                    "spec": e.spec,
                    // The options reading a file of `e` needs, and those decoding or building
                    // its geometry needs besides.
                    "reading_needs": needs(needs_unity_version(e), "--unity-version"),
                    "geometry_needs": needs(e.needs_winding(), "--winding"),
                })
            })
            .collect();
        term::out_json(&json!({
            "version": JSON_VERSION,
            "command": "layouts",
            "layouts": list,
        }))?;
    } else {
        let width = LAYOUTS.iter().map(|e| e.id.len()).max().unwrap_or(0);
        let text: String = LAYOUTS
            .iter()
            .map(|e| format!("{:width$}  {}\n", e.id, e.description))
            .collect();
        term::out_bytes(text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}
