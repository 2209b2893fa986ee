//! Every corpus file: good files pass their verdict, are read exactly, written back byte for
//! byte and rebuilt from their dumps with the same verdict; bad files break their rule (refused,
//! or warned about when the rule is one the documents do not call proven). Dumps and verdicts
//! are snapshots, so a spec change shows up as a reviewable diff (`cargo insta review`).

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
        let v = entry.judge(&bytes, &ctx);
        assert!(
            v.passes(),
            "{}: refused: {:?}",
            s.path.display(),
            v.errors().map(|e| e.to_string()).collect::<Vec<_>>()
        );
        let dump = entry.dump(&bytes, &ctx).unwrap();
        let text = serde_json::to_string(&dump).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        let built = entry
            .build(&back, &ctx)
            .unwrap_or_else(|e| panic!("{}: build: {e}", s.path.display()));
        assert!(
            built.bytes == bytes,
            "{}: dump -> build differs",
            s.path.display()
        );
        // The built file gets the verdict the file itself gets, and nothing was recomputed.
        assert!(built.verdict.passes(), "{}", s.path.display());
        assert!(built.overrides.is_empty(), "{}", s.path.display());
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
        let v = entry.judge(&bytes, &ctx);
        assert!(
            v.refused.is_some() || !v.findings.is_empty(),
            "{}: a bad file breaks no rule",
            s.path.display()
        );
        let lines: Vec<String> = v
            .refused
            .iter()
            .map(|e| e.to_string())
            .chain(v.findings.iter().map(|e| format!("{}: {e}", e.severity)))
            .collect();
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
            let v = entry.judge(&bytes[..n], &ctx);
            match &v.refused {
                Some(e) => assert!(
                    e.offset.is_some_and(|o| o <= n as u64),
                    "{} cut at {n}: offset outside the input: {e}",
                    s.path.display()
                ),
                None => {
                    // A prefix can only be a valid file if the layout ends in an open run; its
                    // dump builds the same bytes with the same verdict.
                    let again = entry
                        .dump(&bytes[..n], &ctx)
                        .and_then(|d| entry.build(&d, &ctx))
                        .unwrap();
                    assert_eq!(again.bytes, &bytes[..n]);
                    assert_eq!(again.verdict.passes(), v.passes());
                }
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        if let Some(e) = &entry.judge(&longer, &ctx).refused {
            assert!(e.offset.is_some(), "{e}");
        }
    }
}

#[test]
fn every_byte_of_every_corpus_file_belongs_to_a_field() {
    for s in samples().iter().filter(|s| !s.bad) {
        let entry = find(&s.layout).unwrap();
        let ctx = context_for(&s.layout);
        let bytes = std::fs::read(&s.path).unwrap();
        let fields = entry.fields(&bytes, &ctx).unwrap();
        let mut covered = vec![false; bytes.len()];
        for f in fields.iter().filter(|f| f.leaf) {
            assert!(
                f.span.end <= bytes.len() as u64,
                "{}: {} lies past the end",
                s.path.display(),
                f.path
            );
            for b in &mut covered[f.span.range()] {
                *b = true;
            }
        }
        let gaps: Vec<usize> = (0..bytes.len()).filter(|&i| !covered[i]).take(5).collect();
        assert!(
            gaps.is_empty(),
            "{}: bytes no field accounts for, from {:?}",
            s.path.display(),
            gaps
        );
        // The whole file is the root's, and every field lies inside its parent's bytes.
        let top = fields.iter().map(|f| f.span.end).max().unwrap_or(0);
        assert_eq!(top, bytes.len() as u64, "{}", s.path.display());
    }
}
