//! Writes the common model as glTF 2.0 (binary .glb) or Wavefront OBJ.
