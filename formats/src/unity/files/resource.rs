//! Streamed data: the byte ranges of resource files (`.resS`) that objects name.
