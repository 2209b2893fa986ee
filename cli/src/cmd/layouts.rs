//! `meshspec layouts`: every layout id with its description.

use crate::fail::Fail;
use crate::report::JSON_VERSION;
use crate::term;
use meshspec_formats::layouts::LAYOUTS;
use meshspec_formats::Entry;
use serde_json::json;
use std::process::ExitCode;

/// The options reading a file of `e` needs.
fn reading_needs(e: &Entry) -> Vec<&'static str> {
    if crate::usage::needs_unity_version(e) {
        vec!["--unity-version"]
    } else {
        vec![]
    }
}

/// The options decoding or building `e`'s geometry needs besides.
fn geometry_needs(e: &Entry) -> Vec<&'static str> {
    if e.needs_winding() {
        vec!["--winding"]
    } else {
        vec![]
    }
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
                    "reading_needs": reading_needs(e),
                    "geometry_needs": geometry_needs(e),
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
