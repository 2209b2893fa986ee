//! Any bytes read as any layout (the first byte picks it, the next ones its parameters) by its
//! generated code and by the interpreter of its spec (`spec/*.ksy` loaded at run time): the
//! same verdict, walk, census, dump, write-back and build, and the same build of the dump
//! edited where the last byte says.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    meshspec_formats::fuzzing::interp::interp_equal(data);
});
