//! Opened game files.
/// Placeholder.
pub struct GameFiles;
/// Placeholder.
pub struct ObjectRef;
