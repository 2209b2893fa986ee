//! Reads geometry (glTF 2.0, Wavefront OBJ) into the common model.
