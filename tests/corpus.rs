//! Every corpus file: good files are read exactly, written back byte for byte and rebuilt from
//! their dumps; bad files are refused. Dumps and refusals are snapshots, so a spec change shows
//! up as a reviewable diff (`cargo insta review`).

use meshspec_formats::context::Context;
use meshspec_formats::find;
use meshspec_tests::{elide, samples};

fn context_for(layout: &str) -> Context {
    // Layouts whose bytes do not say everything get what their corpus README states.
    match layout {
        "meshbin" => Context::new().with_winding(meshspec_formats::Winding::D3d),
        _ => Context::new(),
    }
}

#[test]
fn every_good_file_round_trips_and_its_dump_is_a_snapshot() {
    let mut n = 0;
    for s in samples().iter().filter(|s| !s.bad) {
        let entry = find(&s.layout).unwrap();
        let ctx = context_for(&s.layout);
        let bytes = std::fs::read(&s.path).unwrap();
        let checked = entry
            .check(&bytes, &ctx)
            .unwrap_or_else(|e| panic!("{}: {e}", s.path.display()));
        assert!(
            checked.relations.is_empty(),
            "{}: relations do not hold: {:?}",
            s.path.display(),
            checked
                .relations
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
        );
        let dump = entry.dump(&bytes, &ctx).unwrap();
        let text = serde_json::to_string(&dump).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        let built = entry
            .build(&back, &ctx)
            .unwrap_or_else(|e| panic!("{}: build: {e}", s.path.display()));
        assert!(
            built == bytes,
            "{}: dump -> build differs",
            s.path.display()
        );
        insta::assert_json_snapshot!(s.snapshot_name(), elide(&dump));
        n += 1;
    }
    // The corpus must not shrink without anyone noticing.
    assert!(n >= 6, "only {n} good corpus files");
}

#[test]
fn every_bad_file_is_refused_and_how_is_a_snapshot() {
    for s in samples().iter().filter(|s| s.bad) {
        let entry = find(&s.layout).unwrap();
        let ctx = context_for(&s.layout);
        let bytes = std::fs::read(&s.path).unwrap();
        let lines: Vec<String> = match entry.check(&bytes, &ctx) {
            Err(e) => vec![e.to_string()],
            Ok(c) => {
                assert!(
                    !c.relations.is_empty(),
                    "{}: a bad file was accepted",
                    s.path.display()
                );
                c.relations.iter().map(|e| e.to_string()).collect()
            }
        };
        insta::assert_snapshot!(s.snapshot_name(), lines.join("\n"));
    }
}

#[test]
fn truncated_and_extended_files_are_refused_without_panicking() {
    for s in samples().iter().filter(|s| !s.bad) {
        let bytes = std::fs::read(&s.path).unwrap();
        if bytes.len() > 4096 {
            continue; // the small files cover every field; large ones only repeat them
        }
        let entry = find(&s.layout).unwrap();
        let ctx = context_for(&s.layout);
        for n in 0..bytes.len() {
            match entry.check(&bytes[..n], &ctx) {
                Err(e) => assert!(
                    e.offset.is_some_and(|o| o <= n as u64),
                    "{} cut at {n}: offset outside the input: {e}",
                    s.path.display()
                ),
                Ok(_) => {
                    // A prefix can only be a valid file if the layout ends in an open run.
                    let again = entry
                        .dump(&bytes[..n], &ctx)
                        .and_then(|d| entry.build(&d, &ctx));
                    assert_eq!(again.unwrap(), &bytes[..n]);
                }
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        if let Err(e) = entry.check(&longer, &ctx) {
            assert!(e.offset.is_some(), "{e}");
        }
    }
}
