//! .meshbin beyond the shared corpus tests: decoding, windings, the builder and export.
