meta:
  id: meshbin
  title: MeshBuilder built binary mesh (.meshbin)
  application: MeshBuilder, the asset build of a GAMES 6320 (Game Engineering II) game engine
  file-extension: meshbin
  license: CC0-1.0
  endian: le
  -layout: meshbin
doc: |
  A mesh as MeshBuilder writes it at build time and the game loads with no parsing: the vertex
  count, the index count, the vertex array and the index array, back to back with no header,
  padding or trailer. The file is exactly 4 + 16 x vertex count + 2 x index count bytes, and the
  game refuses any other length.

  Direct3D and OpenGL builds differ only in the index order inside each triangle: the source
  lists triangles counter-clockwise (OpenGL), and the Direct3D build swaps the second and third
  index of every triangle so that front faces are clockwise. Nothing in the file says which
  build made it.
doc-ref: ../shared/seeds/004_b8f48b0545508c51.txt (sections 3, 6, 7 and 8)
-relations:
  - id: indices_name_vertices
    doc: |
      Every index is below the vertex count: MeshBuilder refuses to build a mesh whose triangle
      names a vertex that does not exist ("Triangle 3 refers to a vertex that doesn't exist
      (every index must be an integer from 0 to 3)", for a mesh of 4 vertices).
    -confidence: sourced
    -evidence: MeshBuilder's build-time validation
    -each: indices
    -check: _ < num_vertices
  - id: whole_triangles
    doc: The index count is a multiple of three, since MeshBuilder writes triangle lists.
    -confidence: sourced
    -evidence: the document's files and its helix (21,836 triangles, 65,508 indices)
    -at: num_indices
    -check: num_indices % 3 == 0
seq:
  - id: num_vertices
    type: u2
    -offset: 0
    -orig-id: number of vertices
    -confidence: sourced
    -evidence: the floor's hex view and the game's loader; at most 65,535 since the count became a uint16_t
    doc: How many vertices the vertex array holds.
  - id: num_indices
    type: u2
    -offset: 2
    -orig-id: number of indices
    -confidence: sourced
    -evidence: the floor's hex view and the game's loader
    doc: |
      How many u16 indices the index array holds: three per triangle in the files MeshBuilder
      writes (a triangle list). The loader does not check that it is a multiple of three.
  - id: vertices
    type: vertex
    repeat: expr
    repeat-expr: num_vertices
    -offset: 4
    -orig-id: vertex array
    -confidence: sourced
    -evidence: sVertex_mesh, 16 bytes each, the same on both platforms
    doc: The vertices, 16 bytes each, as the GPU takes them.
  - id: indices
    type: u2
    repeat: expr
    repeat-expr: num_indices
    -offset: 4 + 16 * num_vertices
    -orig-id: index array
    -confidence: sourced
    -evidence: the floor's indices 0, 2, 1 and 2, 3, 1 in the Direct3D build
    doc: |
      Vertex indices, three per triangle. In a Direct3D build each triangle is clockwise (the
      source's second and third index swapped); in an OpenGL build counter-clockwise.
types:
  vertex:
    doc: One vertex (sVertex_mesh) - a position and an RGBA colour.
    -confidence: sourced
    seq:
      - id: x
        type: f4
        -offset: 0
        -orig-id: position (first float)
        -confidence: sourced
        doc: Position x.
      - id: y
        type: f4
        -offset: 4
        -orig-id: position (second float)
        -confidence: sourced
        doc: Position y.
      - id: z
        type: f4
        -offset: 8
        -orig-id: position (third float)
        -confidence: sourced
        doc: Position z.
      - id: r
        type: u1
        -offset: 12
        -orig-id: color (first byte)
        -confidence: sourced
        -evidence: the floor's first vertex 33 73 40 FF = (51, 115, 64, 255), a dark green
        doc: Red, 0 to 255.
      - id: g
        type: u1
        -offset: 13
        -orig-id: color (second byte)
        -confidence: sourced
        doc: Green, 0 to 255.
      - id: b
        type: u1
        -offset: 14
        -orig-id: color (third byte)
        -confidence: sourced
        doc: Blue, 0 to 255.
      - id: a
        type: u1
        -offset: 15
        -orig-id: color (fourth byte)
        -confidence: sourced
        doc: Alpha, 0 to 255 (255 in every vertex the document shows).
