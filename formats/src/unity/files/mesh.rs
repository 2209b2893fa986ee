//! Mesh objects of game files.
