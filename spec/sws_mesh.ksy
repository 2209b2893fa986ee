meta:
  id: sws_mesh
  title: Shaun White Skateboarding Mesh object body (PC data forges)
  application: Shaun White Skateboarding (PC), the Mesh objects of its 33 data forges
  license: CC0-1.0
  endian: le
  -layout: sws-mesh
doc: |
  The body of one Mesh object, from its managed byte to its last material id. A drawable mesh
  carries its compiled form inline: the vertex streams, the 16-bit index buffer, the draw ranges,
  the bone palettes and the material ids are all inside this body. 221 of the 16,149 meshes also
  keep the SubMeshes they were compiled from (the mesh as authored), between the SubMesh count
  and the bone count.

  The document gives the body's offsets for a mesh without SubMeshes and says that SubMeshes,
  stored at 18, move every later offset by their length. The `-offset` of each later field is
  therefore the document's expression plus `submeshes._sizeof`, the number of bytes the
  SubMeshes took (0 when there are none), so the document's numbers stay readable as written.
doc-ref: ../shared/seeds/003_e48eefb5d612aa86.txt (section "Shaun White Skateboarding")
-confidence: proven
-evidence: a strict reading reads all 16,149 meshes of the install to their exact end
-relations:
  - id: data_length
    doc: |
      The data length L is the length of what Data holds (48 + V(s + 1) + I + 24(A + B) + 40A
      bytes). Data is read as a part of exactly L bytes that the compiled mesh must fill, so the
      reader itself refuses a file that breaks this (at `data`), even with `--relations warn`:
      every later offset depends on L.
    -confidence: proven
    -evidence: all 16,149 meshes of the install
  - id: one_material_per_range
    doc: The material count m equals the first partition's range count A (range i draws material i).
    -confidence: proven
    -evidence: every mesh of the install
    -at: num_materials
    -check: num_materials == data.num_ranges_a
  - id: palette_bones_exist
    doc: Every bone byte of every palette is below the mesh's bone count.
    -confidence: inferred
    -evidence: the palette's bones row (Inferred) says they are all below the bone count
  - id: palettes_empty_without_bones
    doc: On a mesh without bones, every palette's entry count is 0.
    -confidence: proven
    -evidence: the palette's entry count row (Proven), 0 on meshes without bones
  - id: submesh_vertices_sum
    doc: |
      On a mesh with SubMeshes, their vertex counts (the lengths of their position runs) add up
      to the compiled mesh's vertex count, V / stride, with nothing left over.
    -confidence: proven
    -evidence: all 349 SubMeshes of the 221 meshes
  - id: extra_streams_are_morph_channels
    doc: |
      The compiled mesh's extra stream count s is the most MorphChannels any of the mesh's
      SubMeshes holds (0 on a mesh without SubMeshes).
    -confidence: proven
    -evidence: 0 on every mesh without SubMeshes; 0 to 3 on the 221 with SubMeshes
  - id: submesh_material_listed
    doc: The material id of every SubMesh (and of its copy) is one of the mesh's material ids.
    -confidence: proven
    -evidence: every SubMesh, copies counted (698)
  - id: submesh_matches_its_range
    doc: |
      Each SubMesh corresponds to a first-partition range of its own (no two SubMeshes share
      one): the range drawn with the SubMesh's material (range i draws material i), holding the
      same triangles, so its triangle count is the SubMesh's t. Not just any material of the
      mesh: the one of the SubMesh's own range.
    -confidence: proven
    -evidence: all 349 SubMeshes of the 221 meshes (the range holds the SubMesh's positions bit for bit and the same triangles)
  - id: submeshes_census
    doc: A mesh holds at most 5 SubMeshes.
    -confidence: proven
    -evidence: 0 on 15,928 meshes, 1 to 5 on 221
    -severity: warning
    -severity-reason: a census range (1 to 5 on the 221 meshes that have SubMeshes), not a limit the documents give
    -at: num_submeshes
    -check: num_submeshes <= 5
seq:
  - id: managed
    type: u1
    valid: 1
    -offset: 0x0
    -orig-id: managed
    -confidence: proven
    -evidence: 1 on every mesh
    doc: The managed-object byte that starts every object body.
  - id: id
    type: u4
    -offset: 0x1
    -orig-id: id
    -confidence: proven
    -evidence: a strict reading of all 16,149 meshes of the install
    doc: The object's id in its entry's directory.
  - id: class
    type: u4
    valid: '0x415D9568'
    -offset: 0x5
    -orig-id: class
    -confidence: proven
    -evidence: every mesh
    doc: The class, the CRC-32 of "Mesh".
  - id: category
    type: u4
    -offset: 0x9
    -orig-id: Category
    -confidence: observed
    doc: An enumeration; the document does not list its values, so the number is kept as stored.
  - id: generated
    type: u1
    -offset: 0xD
    -orig-id: Generated
    -confidence: observed
    doc: A byte the document names Generated; its values are not described.
  - id: num_submeshes
    type: u4
    -offset: 0xE
    -orig-id: SubMeshes count s
    -confidence: proven
    -evidence: 0 on 15,928 meshes; 1 to 5 on 221
    doc: How many SubMeshes follow, each behind an inline pointer tag.
  - id: submeshes
    type: inline_submesh
    repeat: expr
    repeat-expr: num_submeshes
    -offset: 0x12
    -confidence: proven
    -evidence: all 349 SubMeshes of the 221 meshes
    doc: |
      The mesh as authored, before compiling: each a pointer tag 0 and a SubMesh object, stored
      at 18 when the count is not 0. Described in the SubMesh count's row, not a row of its own.
  - id: num_bones
    type: u4
    -offset: 0x12 + submeshes._sizeof
    -orig-id: Bones count n
    -confidence: proven
    -evidence: a strict reading of all 16,149 meshes of the install
    doc: How many MeshBones follow.
  - id: bones
    type: mesh_bone
    repeat: expr
    repeat-expr: num_bones
    -offset: 0x16 + submeshes._sizeof
    -orig-id: bones
    -confidence: proven
    -evidence: a strict reading of all 16,149 meshes of the install
    doc: The bones, 76 bytes each.
  - id: unknown_after_bones
    size: 11
    -offset: 22 + 76 * num_bones + submeshes._sizeof
    -orig-id: unknown
    -confidence: unknown
    -evidence: on every mesh a byte 0 (14,199 meshes) or 1 (1,950), a byte 1, then nine zeros
    doc: Eleven bytes whose meaning is not established, kept as stored.
  - id: compiled_mesh_class
    type: u4
    valid: '0xFC9E1595'
    -offset: 33 + 76 * num_bones + submeshes._sizeof
    -orig-id: CompiledMesh class
    -confidence: proven
    -evidence: every mesh
    doc: The class of the inline compiled mesh, the CRC-32 of "CompiledMesh".
  - id: len_data
    type: u4
    -offset: 37 + 76 * num_bones + submeshes._sizeof
    -orig-id: Data length L
    -confidence: proven
    -evidence: a strict reading of all 16,149 meshes of the install
    doc: The length of Data in bytes.
  - id: data
    type: compiled_mesh
    size: len_data
    -offset: 41 + 76 * num_bones + submeshes._sizeof
    -orig-id: Data
    -confidence: proven
    -evidence: a strict reading of all 16,149 meshes of the install
    doc: The compiled buffers (the CompiledMesh data, below), exactly L bytes.
  - id: platform_version
    type: u4
    valid: 16
    -offset: 41 + 76 * num_bones + len_data + submeshes._sizeof
    -orig-id: PlatformVersion
    -confidence: proven
    -evidence: 16 on every mesh
    doc: Always 16.
  - id: sdk_version
    type: u4
    valid: 32
    -offset: 45 + 76 * num_bones + len_data + submeshes._sizeof
    -orig-id: SDKVersion
    -confidence: proven
    -evidence: 32 on every mesh
    doc: Always 32.
  - id: num_materials
    type: u4
    -offset: 49 + 76 * num_bones + len_data + submeshes._sizeof
    -orig-id: material count m
    -confidence: proven
    -evidence: equals the range count A on every mesh
    doc: How many material ids follow.
  - id: material_ids
    type: u4
    repeat: expr
    repeat-expr: num_materials
    -offset: 53 + 76 * num_bones + len_data + submeshes._sizeof
    -orig-id: material ids
    -confidence: observed
    doc: The bare ids of the material objects; material i is drawn by first-partition range i.
types:
  inline_submesh:
    doc: One entry of the mesh's SubMesh list - an inline pointer tag and the SubMesh it points at.
    -confidence: proven
    seq:
      - id: tag
        type: u1
        valid: 0
        -confidence: proven
        -evidence: every SubMesh of the 221 meshes
        doc: The pointer tag, 0 (the object follows inline) on every entry.
      - id: submesh
        type: submesh
        -confidence: proven
        doc: The SubMesh.
  mesh_bone:
    -layout: sws-mesh-bone
    doc: |
      One MeshBone, inline in the mesh body - 76 bytes: its id, its class, a name hash and a
      4 x 4 matrix.
    -confidence: proven
    seq:
      - id: id
        type: u4
        -offset: 0x0
        -orig-id: id
        -confidence: proven
        -evidence: every bone of the 16,149 meshes
        doc: The bone object's id.
      - id: class
        type: u4
        valid: '0x9EF0E7A1'
        -offset: 0x4
        -orig-id: class
        -confidence: proven
        -evidence: every bone
        doc: The class, the CRC-32 of "MeshBone".
      - id: name_hash
        type: u4
        -offset: 0x8
        -orig-id: bone name
        -confidence: inferred
        -evidence: consecutive bones of one mesh differ in it
        doc: A hash, read as the bone's name.
      - id: matrix
        type: f4
        repeat: expr
        repeat-expr: 16
        -offset: 0xC
        -orig-id: matrix
        -confidence: unknown
        doc: |
          A 4 x 4 matrix of 16 floats, in stored order. Which space it maps (bind pose, inverse
          bind pose, parent-relative) and whether it is stored by rows or by columns are not
          established.
  compiled_mesh:
    -layout: sws-compiled-mesh
    doc: |
      The CompiledMesh data, the Data of a Mesh body - a 48-byte header, the vertex streams, the
      16-bit indices, the draw ranges of two partitions of the indices and the bone palettes.
      Offsets are from the start of Data. The compiled vertex format that `flags` selects is
      not in the documents: the streams are kept as raw vertices of `stride` bytes.
    -confidence: proven
    -evidence: every relation below holds on all 16,149 meshes
    -relations:
      - id: stride_all_streams
        doc: The word at 0x10 is stride x (s + 1).
        -confidence: proven
        -evidence: all 16,149 meshes
        -at: stride_all_streams
        -check: stride_all_streams == stride * (num_extra_streams + 1)
      - id: len_all_streams
        doc: The word at 0x14 is V x (s + 1), the bytes of all the streams.
        -confidence: proven
        -evidence: all 16,149 meshes
        -at: len_all_streams
        -check: len_all_streams == len_vertex_stream * (num_extra_streams + 1)
      - id: total_adds_up
        doc: The total is V x (s + 1) + I + 24 x (A + B).
        -confidence: proven
        -evidence: all 16,149 meshes
        -at: total
        -check: total == len_vertex_stream * (num_extra_streams + 1) + len_indices + 24 * (num_ranges_a + num_ranges_b)
      - id: ranges_partition_indices
        doc: |
          The first A ranges partition the index buffer, and so do the B ranges: in each
          partition the ranges' indices (3 per triangle from the first index) lie inside the
          buffer, do not overlap, and their triangles add up to the index count.
        -confidence: proven
        -evidence: every mesh of the install
      - id: range_vertices_in_stream
        doc: |
          Every range's vertices (first vertex to first vertex + vertex count) lie inside the
          vertex stream of V / stride vertices.
        -confidence: proven
        -evidence: every mesh of the install
      - id: palette_vertex_count
        doc: Each palette's vertex count equals the vertex count of its first-partition range.
        -confidence: proven
        -evidence: all 34,517 palettes
      - id: second_partition_not_larger
        doc: The second partition has at most as many ranges as the first (B <= A).
        -confidence: proven
        -evidence: as many on 10,344 meshes and fewer on 5,805, every mesh of the install
        -at: num_ranges_b
        -check: num_ranges_b <= num_ranges_a
    seq:
      - id: version
        type: u4
        valid: 16
        -offset: 0x0
        -orig-id: version
        -confidence: proven
        -evidence: 16 on every mesh
        doc: Always 16.
      - id: num_extra_streams
        type: u4
        -offset: 0x4
        -orig-id: extra stream count s
        -confidence: proven
        -evidence: 0 on every mesh without SubMeshes; 0 to 3 on meshes with SubMeshes
        doc: |
          How many vertex streams follow the base stream: the morph targets (the most
          MorphChannels any SubMesh of the mesh holds).
      - id: stride
        type: u4
        -offset: 0x8
        -orig-id: stride
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: Bytes per vertex, the vertex stride the game binds.
      - id: len_vertex_stream
        type: u4
        -offset: 0xC
        -orig-id: vertex bytes V
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The bytes of one stream, the size of the game's vertex buffer.
      - id: stride_all_streams
        type: u4
        -derive: stride * (num_extra_streams + 1)
        -offset: 0x10
        -orig-id: stride x (s + 1)
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The stride times the number of streams.
      - id: len_all_streams
        type: u4
        -derive: len_vertex_stream * (num_extra_streams + 1)
        -offset: 0x14
        -orig-id: V x (s + 1)
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The bytes of all the streams.
      - id: len_indices
        type: u4
        -offset: 0x18
        -orig-id: index bytes I
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The bytes of the index buffer, the size of the game's index buffer.
      - id: unknown_0x1c
        type: u4
        -offset: 0x1C
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on every mesh
        doc: A word whose meaning is not established, kept as stored.
      - id: flags
        type: u4
        -offset: 0x20
        -orig-id: flags
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: |
          Selects the vertex elements. The vertex formats it selects are not in the documents,
          so no element of a compiled vertex is decoded.
      - id: num_ranges_a
        type: u4
        -offset: 0x24
        -orig-id: range count A
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The number of first-partition ranges (one per material).
      - id: num_ranges_b
        type: u4
        -offset: 0x28
        -orig-id: range count B
        -confidence: proven
        -evidence: as many as A on 10,344 meshes, fewer on 5,805 (often one range over all the indices)
        doc: The number of second-partition ranges.
      - id: total
        type: u4
        -derive: len_vertex_stream * (num_extra_streams + 1) + len_indices + 24 * (num_ranges_a + num_ranges_b)
        -offset: 0x2C
        -orig-id: total
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: V x (s + 1) + I + 24 x (A + B), the bytes from the streams to the end of the ranges.
      - id: vertex_streams
        type: vertex_stream(stride)
        size: len_vertex_stream
        repeat: expr
        repeat-expr: num_extra_streams + 1
        -offset: 0x30
        -orig-id: vertex streams
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: |
          s + 1 streams of V bytes. Stream 0 is the base mesh, uploaded unchanged as the vertex
          buffer; each further stream is a whole vertex array of the same layout (a morph
          target, stream k + 1 being morph channel k of the SubMeshes).
      - id: indices
        type: index_buffer
        size: len_indices
        -offset: 48 + len_vertex_stream * (num_extra_streams + 1)
        -orig-id: indices
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The index buffer (I bytes of u16), uploaded unchanged as a 16-bit index buffer.
      - id: ranges_a
        type: draw_range
        repeat: expr
        repeat-expr: num_ranges_a
        -offset: 48 + len_vertex_stream * (num_extra_streams + 1) + len_indices
        -orig-id: ranges
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: |
          The first A of the document's A + B ranges: the first partition, range i drawing the
          mesh's material i. The document's one row of A + B ranges ("A first-partition ranges,
          then B second-partition ranges") is kept as two lists, so that both counts are
          recomputed from the ranges on writing.
      - id: ranges_b
        type: draw_range
        repeat: expr
        repeat-expr: num_ranges_b
        -offset: 48 + len_vertex_stream * (num_extra_streams + 1) + len_indices + 24 * num_ranges_a
        -orig-id: ranges
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: The last B of the document's A + B ranges, the second partition of the same indices.
      - id: palettes
        type: palette_block(num_ranges_a)
        size: 40 * num_ranges_a
        -offset: 48 + len_vertex_stream * (num_extra_streams + 1) + len_indices + 24 * (num_ranges_a + num_ranges_b)
        -orig-id: palettes
        -confidence: proven
        -evidence: all 16,149 meshes of the install
        doc: |
          40 bytes per first-partition range, starting with one palette per range. The document
          places them at total + 48; the offset is written with total's definition so that a
          stored total that disagrees is reported by the relation pass rather than refused by
          the reader.
  vertex_stream:
    doc: One vertex stream - V bytes of vertices, `stride` bytes each.
    -confidence: proven
    params:
      - id: stride
        type: u4
        doc: the compiled mesh's stride
    seq:
      - id: vertices
        size: stride
        repeat: eos
        -confidence: unknown
        doc: |
          Each vertex's bytes as stored. The vertex format behind `flags` is not in the
          documents, so no element layout is given; a stream whose length is not a whole number
          of vertices cannot be read.
  index_buffer:
    doc: The index buffer - u16 vertex indices to the end of its I bytes.
    -confidence: proven
    seq:
      - id: items
        type: u2
        repeat: eos
        -confidence: proven
        doc: The vertex indices, three per triangle (the ranges are triangle lists).
  draw_range:
    doc: |
      One draw range - 24 bytes, the arguments of one DrawIndexedPrimitive call (a triangle
      list with a base vertex of 0).
    -confidence: proven
    seq:
      - id: primitive_type
        type: u4
        valid: 4
        -offset: 0x0
        -orig-id: primitive type
        -confidence: proven
        -evidence: 4 on every range
        doc: The primitive type, 4 (a triangle list).
      - id: first_vertex
        type: u4
        -offset: 0x4
        -orig-id: first vertex
        -confidence: observed
        -evidence: every draw of a level-02 mesh on the traced route
        doc: The draw's MinIndex, the lowest vertex the range uses.
      - id: vertex_count
        type: u4
        -offset: 0x8
        -orig-id: vertex count
        -confidence: observed
        -evidence: every draw of a level-02 mesh on the traced route
        doc: The draw's NumVertices.
      - id: first_index
        type: u4
        -offset: 0xC
        -orig-id: first index
        -confidence: observed
        -evidence: every draw of a level-02 mesh on the traced route
        doc: The draw's StartIndex, counted in indices.
      - id: triangle_count
        type: u4
        -offset: 0x10
        -orig-id: triangle count
        -confidence: observed
        -evidence: every draw of a level-02 mesh on the traced route
        doc: The draw's PrimitiveCount.
      - id: unknown_0x14
        type: u4
        -offset: 0x14
        -orig-id: unknown
        -confidence: unknown
        -evidence: values vary without pattern; not passed to the draw
        doc: A word whose meaning is not established, kept as stored.
  palette_block:
    doc: |
      The palettes, 40 bytes per first-partition range. The document says the palettes lie back
      to back from the start of the block, one per first-partition range, and that the bytes
      after them, up to 40 per range, follow no established layout: the palettes are packed one
      after another (7 + n bytes each) and all the block's remaining bytes are kept, as stored,
      after the last palette.
    -confidence: proven
    params:
      - id: num_palettes
        type: u4
        doc: the first partition's range count A
    seq:
      - id: palettes
        type: palette
        repeat: expr
        repeat-expr: num_palettes
        -confidence: proven
        -evidence: all 34,517 palettes
        doc: One palette per first-partition range, palette i for range i.
      - id: rest
        size-eos: true
        -confidence: unknown
        -evidence: in the meshes examined they look like left-over index and vertex values
        doc: The block's bytes after the palettes, kept as stored.
  palette:
    doc: One bone palette - a 7-byte head and the bones the range's vertices blend between.
    -confidence: proven
    seq:
      - id: marker
        type: u1
        valid: 3
        -offset: 0x0
        -orig-id: marker
        -confidence: proven
        -evidence: 3 on all 34,517 palettes
        doc: Always 3.
      - id: version
        type: u1
        valid: 1
        -offset: 0x1
        -orig-id: version
        -confidence: proven
        -evidence: 1 on all palettes
        doc: Always 1.
      - id: num_bones
        type: u1
        valid:
          max: 32
        -offset: 0x2
        -orig-id: entry count n
        -confidence: proven
        -evidence: 0 on meshes without bones; at most 32
        -severity: warning
        -severity-reason: a census range (at most 32 on all 34,517 palettes), not a limit the documents give
        doc: How many bone bytes follow (0 on a mesh without bones, relation `palettes_empty_without_bones`).
      - id: unknown_0x3
        type: u2
        -offset: 0x3
        -orig-id: unknown
        -confidence: unknown
        -evidence: the range's position on 25,532 of 34,517 palettes, another value on the rest
        doc: A value whose meaning is not established, kept as stored.
      - id: vertex_count
        type: u2
        -offset: 0x5
        -orig-id: vertex count
        -confidence: proven
        -evidence: equal to the range's vertex count on every palette
        doc: The vertex count of the palette's range.
      - id: bones
        type: u1
        repeat: expr
        repeat-expr: num_bones
        -offset: 0x7
        -orig-id: bones
        -confidence: inferred
        -evidence: all below the bone count
        doc: Indices into the mesh's bones; the range's blend indices index this list.
  submesh:
    -layout: sws-submesh
    doc: |
      One SubMesh, the mesh as authored before compiling - one material's triangles with
      full-precision normals, every UV channel and the morph targets of that part, followed by
      an inline copy of itself that adds tangents and binormals and drops the morph targets.
      Offsets are from its managed byte; every run is a u32 count and its elements, so a run
      moves everything after it, and the document gives offsets only up to the second run. n is
      the vertex count (the positions' count), t the triangle count.
    -confidence: proven
    -evidence: all 349 SubMeshes of the 221 meshes
    -relations:
      - id: whole_triangles
        doc: The index run holds 3t indices, a triangle list.
        -confidence: proven
        -evidence: all 698 SubMeshes, copies counted
      - id: indices_name_vertices
        doc: Every index of the index run is below the vertex count n.
        -confidence: inferred
        -evidence: the SubMesh's triangles are those of its compiled range, on all 349 SubMeshes
        -reading: |
          Derived, not stated: the document says the SubMesh's triangles are those of its range
          and its positions (n of them) are the range's, and takes an index to name one of them.
      - id: runs_match_vertex_count
        doc: |
          Every per-vertex run holds n values, or none where the table allows none: normals and
          the last run of vertex words always n; source vertices, tangents, binormals, colours
          and the first two runs of vertex words n or none; in each UV channel, the UVs n and
          the source n or none; in each MorphChannel, the positions, normals and UVs n.
        -confidence: observed
        -evidence: the sizes of the SubMesh, UVChannel and MorphChannel tables (4 + 12n, 4 + 4n or 4, 4 + 8n)
      - id: runs_match_triangle_count
        doc: The face words and the face bytes hold t values each, one per triangle.
        -confidence: observed
        -evidence: the sizes of the SubMesh table (4 + 4t, 4 + t)
      - id: has_morphs_flag
        doc: The has-morphs byte is 1 when the SubMesh holds morph channels and 0 when it holds none.
        -confidence: proven
        -evidence: every SubMesh (698, copies counted)
        -at: has_morphs
        -check: 'has_morphs == (morph_channels.items.size > 0 ? 1 : 0)'
      - id: one_copy_each
        doc: |
          A SubMesh of the mesh's list points at an inline copy (tag 0), and the copy points at
          nothing (tag 3).
        -confidence: observed
        -evidence: every original and every copy of the 221 meshes
      - id: no_morphs_on_copy
        doc: The copy (the SubMesh the pointer holds) has no morph channels.
        -confidence: proven
        -evidence: the morph channels row, only on the original, never on the copy (all 349 SubMeshes)
      - id: copy_like_original
        doc: |
          The copy has the original's indices, positions and material id and as many UV
          channels; it adds n tangents and n binormals and has no source vertices.
        -confidence: observed
        -evidence: the copy row and the source vertices, tangents and binormals rows, on every SubMesh of the 221 meshes
      - id: uv_channels_census
        doc: A SubMesh holds 1 to 3 UV channels.
        -confidence: proven
        -evidence: 1 to 3 UVChannels on every SubMesh
        -severity: warning
        -severity-reason: a census range (1 to 3 on every SubMesh), not a limit the documents give
      - id: morph_channels_census
        doc: A SubMesh holds at most 3 morph channels.
        -confidence: proven
        -evidence: 0 to 3 MorphChannels on every SubMesh
        -severity: warning
        -severity-reason: a census range (0 to 3 on every SubMesh), not a limit the documents give
    seq:
      - id: managed
        type: u1
        valid: 1
        -offset: 0x0
        -orig-id: managed
        -confidence: proven
        -evidence: 1 on every SubMesh
        doc: The managed-object byte.
      - id: id
        type: u4
        -offset: 0x1
        -orig-id: id
        -confidence: proven
        -evidence: all 349 SubMeshes of the 221 meshes
        doc: The object's id.
      - id: class
        type: u4
        valid: '0x5755DE7F'
        -offset: 0x5
        -orig-id: class
        -confidence: proven
        -evidence: every SubMesh
        doc: The class, the CRC-32 of "SubMesh".
      - id: unknown_0x9
        type: u4
        -offset: 0x9
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on every SubMesh
        doc: |
          A word whose meaning is not established, kept as stored. The class has a TriangleType
          enumeration (TriangleStrip, TriangleList) and the indices are a triangle list, but this
          word is not established to be it.
      - id: indices
        type: u16_run
        -offset: 0xD
        -orig-id: indices
        -confidence: proven
        -evidence: all 349 SubMeshes of the 221 meshes
        doc: 3t vertex indices, a triangle list - the triangles of the SubMesh's compiled range.
      - id: source_vertices
        type: u32_run
        -offset: 17 + 2 * indices.items.size
        -orig-id: source vertices
        -confidence: observed
        doc: |
          n values, or none on the copy. Vertices with equal values have equal positions, as if
          each named the authored vertex it was split from. The document's offset 17 + 6t is
          written with the run's own count (3t indices of 2 bytes).
      - id: unknown_after_source
        type: u4
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on every SubMesh
        doc: A word whose meaning is not established, kept as stored.
      - id: face_words
        type: u32_run
        -orig-id: face words
        -confidence: unknown
        doc: t values, one per triangle - bit masks such as 1, 2, 4 and 8 (smoothing groups are a candidate, not established).
      - id: face_bytes
        type: u8_run
        -orig-id: face bytes
        -confidence: unknown
        -evidence: 3 on most triangles, 0 to 7 in all
        doc: t values, one per triangle, meaning not established.
      - id: positions
        type: float3_run
        -orig-id: positions
        -confidence: proven
        -evidence: equal bit for bit to the compiled range's positions on all 349 SubMeshes
        doc: The n vertex positions; their count is the SubMesh's vertex count n.
      - id: normals
        type: float3_run
        -orig-id: normals
        -confidence: observed
        -evidence: the compiled UBYTE4 normal is within one step of (n + 1) x 127 on 346 of the 349 SubMeshes
        doc: n unit normals.
      - id: tangents
        type: float3_run
        -orig-id: tangents
        -confidence: observed
        -evidence: n unit vectors perpendicular to the normals on every copy, none on every original
        doc: n tangents on the copy, none on the original.
      - id: binormals
        type: float3_run
        -orig-id: binormals
        -confidence: observed
        -evidence: n unit vectors perpendicular to the normals on every copy, none on every original
        doc: n binormals on the copy, none on the original.
      - id: colours
        type: u32_run
        -orig-id: colours
        -confidence: observed
        -evidence: present on 372 of the 698 SubMeshes (copies counted); on all 186 originals that hold it equal to the compiled vertices' COLOR0
        doc: n D3DCOLOR values (0xAARRGGBB, stored as the bytes B, G, R, A), or none.
      - id: vertex_words_a
        type: u32_run
        -orig-id: vertex words
        -confidence: unknown
        -evidence: present on 16 of the 698 SubMeshes (8 originals and their copies)
        doc: n values or none, meaning not established.
      - id: vertex_words_b
        type: u32_run
        -orig-id: vertex words
        -confidence: unknown
        -evidence: present on 26 of the 698 SubMeshes, all originals
        doc: n values or none, meaning not established.
      - id: empty_run_a
        type: u4
        valid: 0
        -orig-id: empty run
        -confidence: unknown
        -evidence: 0 on every SubMesh
        -severity: error
        -severity-reason: the run's elements' size is not known, so a SubMesh with another count cannot be read past it
        doc: |
          A run count that is 0 on every SubMesh. Its elements' size is not known, so a SubMesh
          with any other count cannot be read past it.
      - id: vertex_words_c
        type: u32_run
        -orig-id: vertex words
        -confidence: unknown
        -evidence: n values on all 698 SubMeshes, colour-like (such as 0xFF000000)
        doc: n values, meaning not established.
      - id: empty_run_b
        type: u4
        valid: 0
        -orig-id: empty run
        -confidence: unknown
        -evidence: 0 on every SubMesh
        -severity: error
        -severity-reason: the run's elements' size is not known, so a SubMesh with another count cannot be read past it
        doc: A run count that is 0 on every SubMesh; its elements' size is not known.
      - id: empty_run_c
        type: u4
        valid: 0
        -orig-id: empty run
        -confidence: unknown
        -evidence: 0 on every SubMesh
        -severity: error
        -severity-reason: the run's elements' size is not known, so a SubMesh with another count cannot be read past it
        doc: A run count that is 0 on every SubMesh; its elements' size is not known.
      - id: uv_channels
        type: uv_channel_run
        -orig-id: UV channels
        -confidence: proven
        -evidence: 1 to 3 UVChannels on every SubMesh
        doc: |
          The UV channels (1 to 3, relation `uv_channels_census`); the first is the compiled
          vertices' TEXCOORD0, and the compiled data keeps no further UV of a morph mesh.
      - id: unknown_after_uv_channels
        type: u4
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on every SubMesh
        doc: A word whose meaning is not established, kept as stored.
      - id: morph_channels
        type: morph_channel_run
        -orig-id: morph channels
        -confidence: proven
        -evidence: 0 to 3 MorphChannels, only on originals, never on copies
        doc: |
          The morph targets of this part (0 to 3, relation `morph_channels_census`; none on the
          copy, relation `no_morphs_on_copy`); channel k is morph stream k + 1 of the compiled
          mesh.
      - id: has_morphs
        type: u1
        -derive: 'morph_channels.items.size > 0 ? 1 : 0'
        -orig-id: has morphs
        -confidence: proven
        -evidence: every SubMesh
        doc: 1 when there are morph channels, else 0.
      - id: material_id
        type: u4
        -orig-id: material id
        -confidence: proven
        -evidence: every SubMesh
        doc: |
          The material id that the mesh's material list gives the SubMesh's range (relation
          `submesh_matches_its_range`).
      - id: unknown_ones
        size: 2
        -orig-id: unknown
        -confidence: unknown
        -evidence: 1 and 1 on every SubMesh
        doc: Two bytes whose meaning is not established, kept as stored.
      - id: copy
        type: submesh_pointer
        -orig-id: copy
        -confidence: observed
        -evidence: every SubMesh of the 221 meshes
        doc: |
          A pointer: tag 0 and an inline SubMesh on every original, tag 3 (none) on every copy.
          The copy has the same indices, positions and material, as many UV channels, tangents
          and binormals added, and no source vertices and no morph channels.
      - id: unknown_last
        type: u4
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on 580 of 698 SubMeshes, hash-like values on the rest
        doc: A word whose meaning is not established, kept as stored.
  submesh_pointer:
    doc: An inline object pointer - a tag, and the SubMesh itself when the tag is 0.
    -confidence: observed
    seq:
      - id: tag
        type: u1
        valid:
          any-of: [0, 3]
        -confidence: observed
        -evidence: 0 on every original, 3 on every copy
        doc: 0 when a SubMesh follows inline, 3 when the pointer is empty.
      - id: submesh
        type: submesh
        if: tag == 0
        -confidence: observed
        doc: The copy, present when the tag is 0.
  uv_channel:
    -layout: sws-uv-channel
    doc: One UVChannel, inline in a SubMesh's run of UV channels - its UVs and a source run.
    -confidence: proven
    seq:
      - id: id
        type: u4
        -offset: 0x0
        -orig-id: id
        -confidence: unknown
        -evidence: 0 on every channel
        doc: The object's id slot, kept as stored.
      - id: class
        type: u4
        valid: '0xBDAD8273'
        -offset: 0x4
        -orig-id: class
        -confidence: proven
        -evidence: every channel
        doc: The class, the CRC-32 of "UVChannel".
      - id: unknown_0x8
        type: u4
        -offset: 0x8
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on every channel
        doc: |
          A word whose meaning is not established, kept as stored (the class has a UVType
          enumeration, UV_Lightmap, UV_Layer, UV_Normal, but this word is not established to be it).
      - id: unknown_0xc
        type: u1
        -offset: 0xC
        -orig-id: unknown
        -confidence: unknown
        -evidence: 0 on 750 of the 934 channels, other values on the rest
        doc: A byte whose meaning is not established, kept as stored.
      - id: uvs
        type: float2_run
        -offset: 0xD
        -orig-id: UVs
        -confidence: proven
        -evidence: the first channel's equal the compiled TEXCOORD0 bit for bit on 347 of 349 SubMeshes
        doc: n texture coordinates (u, v).
      - id: source
        type: u32_run
        -offset: 17 + 8 * uvs.items.size
        -orig-id: source
        -confidence: unknown
        doc: n values, or none on the copy's channels; meaning not established.
  morph_channel:
    -layout: sws-morph-channel
    doc: |
      One MorphChannel, inline in a SubMesh's run of morph channels - a morph target's absolute
      positions, its normals and its UVs.
    -confidence: proven
    -relations:
      - id: id_not_zero
        doc: The MorphChannel's id is not 0.
        -confidence: proven
        -evidence: the id row, not 0 on any of the 375 channels
        -at: id
        -check: id != 0
    seq:
      - id: id
        type: u4
        -offset: 0x0
        -orig-id: id
        -confidence: proven
        -evidence: not 0 on any channel
        doc: The object's id, never 0 (relation `id_not_zero`).
      - id: class
        type: u4
        valid: '0xE70C5754'
        -offset: 0x4
        -orig-id: class
        -confidence: proven
        -evidence: every channel
        doc: The class, the CRC-32 of "MorphChannel".
      - id: unknown_0x8
        type: u4
        -offset: 0x8
        -orig-id: unknown
        -confidence: unknown
        -evidence: hash-like values
        doc: A word whose meaning is not established, kept as stored.
      - id: positions
        type: float3_run
        -offset: 0xC
        -orig-id: positions
        -confidence: observed
        -evidence: equal bit for bit to compiled stream k + 1 on 369 of 375 channels
        doc: The morph target's absolute positions, one per vertex of the SubMesh.
      - id: normals
        type: float3_run
        -offset: 16 + 12 * positions.items.size
        -orig-id: normals
        -confidence: observed
        doc: The morph target's normals.
      - id: uvs
        type: float2_run
        -offset: 20 + 12 * positions.items.size + 12 * normals.items.size
        -orig-id: UVs
        -confidence: observed
        -evidence: equal to the SubMesh's first UV channel on 293 of 375 channels
        doc: |
          The morph target's UVs. The document's offset 20 + 24n assumes n positions and n
          normals; it is written with the two runs' own counts.
  u8_run:
    doc: A run of u8 - a u32 count and that many bytes.
    seq:
      - id: num_items
        type: u4
        doc: How many values follow.
      - id: items
        type: u1
        repeat: expr
        repeat-expr: num_items
        doc: The values.
  u16_run:
    doc: A run of u16 - a u32 count and that many values.
    seq:
      - id: num_items
        type: u4
        doc: How many values follow.
      - id: items
        type: u2
        repeat: expr
        repeat-expr: num_items
        doc: The values.
  u32_run:
    doc: A run of u32 - a u32 count and that many values.
    seq:
      - id: num_items
        type: u4
        doc: How many values follow.
      - id: items
        type: u4
        repeat: expr
        repeat-expr: num_items
        doc: The values.
  float2_run:
    doc: A run of float2 - a u32 count and that many pairs of f32.
    seq:
      - id: num_items
        type: u4
        doc: How many values follow.
      - id: items
        type: float2
        repeat: expr
        repeat-expr: num_items
        doc: The values.
  float3_run:
    doc: A run of float3 - a u32 count and that many triples of f32.
    seq:
      - id: num_items
        type: u4
        doc: How many values follow.
      - id: items
        type: float3
        repeat: expr
        repeat-expr: num_items
        doc: The values.
  uv_channel_run:
    doc: A run of UVChannels - a u32 count and that many UVChannel objects.
    seq:
      - id: num_items
        type: u4
        doc: How many channels follow.
      - id: items
        type: uv_channel
        repeat: expr
        repeat-expr: num_items
        doc: The channels.
  morph_channel_run:
    doc: A run of MorphChannels - a u32 count and that many MorphChannel objects.
    seq:
      - id: num_items
        type: u4
        doc: How many channels follow.
      - id: items
        type: morph_channel
        repeat: expr
        repeat-expr: num_items
        doc: The channels.
  float2:
    doc: Two f32.
    seq:
      - id: u
        type: f4
        doc: The first value.
      - id: v
        type: f4
        doc: The second value.
  float3:
    doc: Three f32.
    seq:
      - id: x
        type: f4
        doc: The first value.
      - id: y
        type: f4
        doc: The second value.
      - id: z
        type: f4
        doc: The third value.
