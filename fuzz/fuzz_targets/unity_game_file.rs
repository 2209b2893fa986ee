//! Any bytes opened as a Unity game file (a bundle or a serialized file), as
//! `meshspec unity list` and `export --all` would: the bundle decompressed and cut, each
//! serialized file's type trees built, every object listed and read through its type tree, and
//! every Mesh read and decoded. Nothing may panic, errors must carry their offsets, and memory
//! stays within the limit the input's size sets (libFuzzer's default -rss_limit_mb).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    meshspec_formats::fuzzing::game_file(data);
});
