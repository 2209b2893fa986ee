//! `meshspec layouts [SPEC.ksy]`: every layout id with its description, or every type of a
//! spec file as the LAYOUT argument that names it.

use crate::fail::Fail;
use crate::report::JSON_VERSION;
use crate::term;
use crate::usage::needs_unity_version;
use meshspec_formats::layouts::{Entry, LAYOUTS};
use serde_json::json;
use std::process::ExitCode;

/// `[flag]` when it is `needed`, else `[]`.
fn needs(needed: bool, flag: &'static str) -> Vec<&'static str> {
    needed.then_some(flag).into_iter().collect()
}

pub fn run(spec: Option<&str>, as_json: bool) -> Result<ExitCode, Fail> {
    // Each layout with the argument that names it: its id, or a spec file's path and type.
    let listed: Vec<(String, &'static Entry)> = match spec {
        None => LAYOUTS.iter().map(|e| (e.id.to_string(), e)).collect(),
        Some(file) => {
            let entries = Entry::of_spec(file)
                .map_err(|e| Fail::Usage(vec![crate::usage::spec_problem(file, &e)]))?;
            entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| match i {
                    0 => (file.to_string(), e),
                    _ => (format!("{file}#{}", e.info.name), e),
                })
                .collect()
        }
    };
    if as_json {
        let list: Vec<_> = listed
            .iter()
            .map(|(arg, e)| {
                json!({
                    "id": arg,
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
        let width = listed.iter().map(|(a, _)| a.len()).max().unwrap_or(0);
        let text: String = listed
            .iter()
            .map(|(a, e)| {
                format!(
                    "{:width$}  {}\n",
                    crate::escape::text(a),
                    crate::escape::text(e.description)
                )
            })
            .collect();
        term::out_bytes(text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}
