//! `meshspec explain --html`: one self-contained page, tested in a real headless browser
//! (Debian's `chromium`): a field selected by a click has its bytes highlighted, and a byte
//! clicked selects its field (`tools/setup.sh` installs chromium).

mod common;
use common::*;

const BONED: &str = "corpus/sws/hand-boned.sws-mesh";

/// The page `meshspec explain LAYOUT FILE --html` writes, in a fresh folder for `test`.
fn page(test: &str, layout: &str, file: &str) -> std::path::PathBuf {
    let out = scratch_dir(test).join("page.html");
    exits(
        &["explain", layout, file, "--html", out.to_str().unwrap()],
        0,
    );
    out
}

#[test]
fn the_page_is_self_contained() {
    let p = page("html-alone", "sws-mesh", BONED);
    let html = std::fs::read_to_string(p).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for needle in ["http://", "https://", " src=", "<link", "@import", "url("] {
        assert!(!html.contains(needle), "the page reaches out: {needle}");
    }
    assert!(html.contains("Content-Security-Policy"));
    assert!(html.contains("Every byte belongs to a field (515 bytes)."));
    // A 2 MB-class mesh: a page of bounded size, not every byte.
    let p = page("html-large", "meshbin", "corpus/meshbin/helix.meshbin");
    let size = std::fs::metadata(p).unwrap().len();
    assert!(size < 4 << 20, "{size} bytes");
}

/// The page's DOM after loading it at `fragment` in headless chromium.
fn dom(browser: &str, page: &std::path::Path, fragment: &str, test: &str) -> String {
    let profile = scratch_dir(&format!("{test}-profile"));
    let url = format!("file://{}#{fragment}", page.display());
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// The byte offsets the DOM shows highlighted.
fn highlighted(dom: &str) -> Vec<u64> {
    dom.split("<span class=\"")
        .filter_map(|s| {
            let (class, rest) = s.split_once('"')?;
            if !class.split(' ').any(|c| c == "hl") {
                return None;
            }
            let id = rest.split_once("id=\"b")?.1.split_once('"')?.0;
            id.parse().ok()
        })
        .collect()
}

#[test]
fn clicking_a_field_highlights_its_bytes_and_a_byte_its_field() {
    let browser = meshspec_tests::tools::chromium();
    let p = page("html-click", "sws-mesh", BONED);
    // The second bone's class (0x66, 4 bytes), selected through its node's click handler.
    let d = dom(
        browser,
        &p,
        "field=sws_mesh.bones[1].class",
        "html-click-field",
    );
    assert_eq!(highlighted(&d), [0x66, 0x67, 0x68, 0x69]);
    assert!(
        d.contains("sws_mesh.bones[1].class: bytes 0x66 to 0x6A"),
        "the page does not say what is selected"
    );
    assert!(d.contains("class=\"node sel\""), "no node selected");
    // The other way round: a click on byte 0xC3, inside the compiled mesh's `version`
    // (0xC1 to 0xC5), selects that field and highlights all of its bytes.
    let d = dom(browser, &p, "byte=195", "html-click-byte");
    assert_eq!(highlighted(&d), [0xC1, 0xC2, 0xC3, 0xC4]);
    assert!(d.contains("sws_mesh.data.version: bytes 0xC1 to 0xC5"));
}
