meta:
  id: rr_mesh
  title: Riders Republic mesh resource body (header, bones, compiled ranged or inline mesh, materials)
  application: Riders Republic (Ubisoft), PC data
  file-extension: rr-mesh
  license: CC0-1.0
  endian: le
  bit-endian: le
  -layout: rr-mesh
doc: |
  The body of one Mesh resource of Riders Republic, starting after the resource's identity and
  type header (which the document does not describe, so it is not part of this layout). A
  16-byte header and a bone count are followed by 81-byte bone records, 41 bytes the document
  does not describe, and the compiled mesh, whose marker sits at M = 61 + 81 x bone count.

  The compiled mesh has one of two forms, chosen by the selector byte after its marker: ranged
  (draw ranges over shared vertex and index streams, indices relative to each range's first
  vertex) or inline (MeshData with one MeshPrimitive record per object over shared buffers,
  indices absolute). Both end with the material list.

  Two readings (choices the document leaves open, each stated on its fields as `-reading`):
  the widths of DescriptorMask, Generated and VertexStride, and where the bone records sit
  between the bone count and M.

  The bone records' fields, the vertex record layouts of the streams and the meaning of the
  stored words marked unknown are in a part of the source ("vertex formats") that is not in
  the document: they are kept as bytes and written back unchanged.
doc-ref: ../shared/seeds/003_e48eefb5d612aa86.txt (section "Riders Republic")
-confidence: observed
-evidence: RR, 85,577 Mesh headers
seq:
  - id: managed_object
    type: u1
    -offset: 0
    -orig-id: ManagedObject
    -confidence: observed
    -evidence: 85,577 Mesh headers
    doc: The ManagedObject byte, first of the registry's Mesh fields.
  - id: descriptor_mask
    type: u1
    -offset: 1
    -orig-id: DescriptorMask
    -confidence: inferred
    -reading: |
      The 16 header bytes are the registry's fields in its order, but the document gives sizes
      only to the ManagedObject byte, MaxCullingDistance (f32) and the final eight bytes: the
      three fields between them share bytes 1 to 3, read as one byte each.
    -evidence: 85,577 Mesh headers
    doc: |
      DescriptorMask (registry name). Seen values: 0, 1, 2, 8, 16, 17, 18, 32, 64 and 128.
      Its width is a reading.
  - id: generated
    type: u1
    -offset: 2
    -orig-id: Generated
    -confidence: inferred
    -reading: |
      The 16 header bytes are the registry's fields in its order, but the document gives sizes
      only to the ManagedObject byte, MaxCullingDistance (f32) and the final eight bytes: the
      three fields between them share bytes 1 to 3, read as one byte each.
    -evidence: 85,577 Mesh headers
    doc: Generated (registry name). Its width is a reading.
  - id: vertex_stride
    type: u1
    -offset: 3
    -orig-id: VertexStride
    -confidence: inferred
    -reading: |
      The 16 header bytes are the registry's fields in its order, but the document gives sizes
      only to the ManagedObject byte, MaxCullingDistance (f32) and the final eight bytes: the
      three fields between them share bytes 1 to 3, read as one byte each.
    -evidence: 85,577 Mesh headers
    doc: VertexStride (registry name). Its width is a reading.
  - id: max_culling_distance
    type: f4
    -offset: 4
    -orig-id: MaxCullingDistance
    -confidence: observed
    -evidence: 85,577 Mesh headers
    doc: MaxCullingDistance (registry name); seen values include 0, 100, 660, 820 and 2,580.
  - id: unknown_0x8
    size: 8
    -offset: 8
    -orig-id: eight bytes
    -confidence: unknown
    -evidence: zero on 85,577 Mesh headers
    doc: Eight bytes the registry's field list does not itemise; zero on every header seen.
  - id: num_bones
    type: u4
    -offset: 16
    -orig-id: boneCount
    -confidence: proven
    -evidence: all RR mesh headers
    doc: The number of 81-byte bone records; it places the compiled marker at 61 + 81 x boneCount.
  - id: bones
    size: 81
    repeat: expr
    repeat-expr: num_bones
    -offset: 20
    -orig-id: 81-byte bone record
    -confidence: inferred
    -evidence: RR (81-byte MeshBone records before M, observed)
    -reading: |
      The document places the 81-byte bone records before M but not where between the bone
      count (ending at 20) and M; 41 bytes are left over. The records are read as directly
      following the count (as the bones follow their count in the document's other engine).
    doc: |
      One MeshBone per bone, 81 bytes each, kept as bytes: the document refers their fields to a
      section it does not include.
  - id: unknown_after_bones
    size: 41
    -offset: 20 + 81 * num_bones
    -confidence: unknown
    -reading: The 41 bytes the bone records leave before M are read as following the records.
    doc: |
      The 41 bytes between the bone records and the compiled marker that the document does not
      describe. Kept verbatim.
  - id: compiled
    type: compiled_mesh
    -offset: 61 + 81 * num_bones
    -orig-id: CompiledMesh marker
    -confidence: proven
    -evidence: all RR mesh headers (the marker at M = 61 + 81 x boneCount)
    doc: The compiled mesh, from its marker at M.
types:
  compiled_mesh:
    -layout: rr-compiled-mesh
    doc: |
      A compiled mesh, from its marker at M to the end of its material list. Offsets here are
      from M: the marker, the layout selector, eight stored bytes, the layout class, then the
      ranged or inline form. The
      registry names the ranged class ClusteredMeshData, the compiled mesh's pointer; the inline
      form stores that pointer as null, so the selector byte is the pointer's tag, and the word
      at M+13 is then the class of the MeshData that follows.
    -confidence: observed
    -evidence: RR
    -relations:
      - id: selector_matches_class
        doc: |
          The selector and the class agree: selector 0 (ranged) with class 0xC351EE43, selector 3
          (inline) with class 0x0645ABB5 (MeshData).
        -confidence: observed
        -evidence: RR (the layout selection table)
        -at: layout_class
        -check: 'layout_class == (layout_selector == layout_selector::ranged ? layout_class::clustered_mesh_data : layout_class::mesh_data)'
    seq:
      - id: marker
        type: u4
        valid: '0xFC9E1595'
        -offset: 0x0
        -orig-id: CompiledMesh marker
        -confidence: proven
        -evidence: |
          the document's sentence "The compiled marker is at M = 61 + 81 x boneCount ... Proven ·
          RR · all mesh headers"; its table row says Observed. Where a row and a sentence give one
          fact two strengths, the stronger governs (spec/README.md)
        doc: The CompiledMesh marker; any other value at M contradicts a proven statement and is refused.
      - id: layout_selector
        type: u1
        enum: layout_selector
        -offset: 0x4
        -orig-id: layout selector
        -confidence: observed
        doc: 0 for the ranged form, 3 for the inline form (the tag of a null ClusteredMeshData pointer).
      - id: stored_prefix
        size: 8
        -offset: 0x5
        -orig-id: stored prefix
        -confidence: unknown
        -evidence: zero in the split and inline multi-mesh census
        doc: Eight stored bytes before the layout class.
      - id: layout_class
        type: u4
        enum: layout_class
        -offset: 0xD
        -orig-id: layout class
        -confidence: observed
        doc: 0xC351EE43 (ClusteredMeshData) for the ranged form; 0x0645ABB5 (MeshData's marker) for the inline form.
      - id: body
        type:
          switch-on: layout_selector
          cases:
            'layout_selector::ranged': ranged_layout
            'layout_selector::inline': inline_layout
        -offset: 17
        -confidence: proven
        -evidence: 29,174 split meshes (ranged, from M+17); 1,170 multi-mesh bodies (inline, MeshData from M+13)
        doc: The form the selector chooses, from M+17.
  ranged_layout:
    doc: |
      The ranged form, from M+17: header words, one record per draw range, the four vertex and
      index streams, one PrimitiveDescData record per range, two further streams, MeshData and its
      primitive records, four final runs and the material list.

      Two readings, stated on their fields: the width of the length prefixes (`len_*`) and where
      the MeshData marker sits in this form.
    -confidence: proven
    -evidence: 29,174 split meshes
    -relations:
      - id: format_strides
        doc: |
          The stream strides of a split format are those of the vertex format table: split12 (0)
          12, 12, 8, or 12, 12, 16 with eight influences; split24 (1) 24, 12, 8.
        -confidence: proven
        -evidence: all split12 and split24 meshes, all 58 eight-influence meshes
      - id: static_format_strides
        doc: |
          The stream strides of a static format are those of the vertex format table: static16
          (11) 16, 0, 0; static24 (2) 24, 0, 0; static28 (3) 28, 0, 0.
        -confidence: observed
        -evidence: the table's static rows (Observed · RR)
      - id: first_range_at_zero
        doc: The first range begins at index 0 and vertex 0.
        -confidence: proven
        -evidence: 29,174 split meshes
      - id: ranges_partition_buffers
        doc: |
          Successive range boundaries partition the buffers: each range begins where the one
          before it ends (first indices and vertex bases never decrease), no range begins past the
          end of the index or vertex buffer, and the last range runs to both ends.
        -confidence: proven
        -evidence: 29,174 split meshes
      - id: indices_relative_to_vertex_base
        doc: |
          Indices are u16 relative to their range's vertex base (proven): each one plus the base
          names a vertex of that range, below the next range's base, or the vertex count for the
          last.
        -confidence: inferred
        -evidence: relative indices on 29,174 split meshes (Proven)
        -reading: |
          The document says the indices are relative to the range's vertex base and that the
          ranges partition the buffers, not that a range's indices stay inside its own vertices:
          the upper bound is a reading.
      - id: stream_lengths
        doc: |
          Each vertex stream holds one record of its stride per vertex: the primary stream's
          length is a multiple of its stride, and the position and skin streams hold as many
          records; a stream whose stride is 0 (a static mesh's position and skin streams) is empty.
        -confidence: inferred
        -evidence: split census (12-byte position and 8- or 16-byte skin records; a static mesh's position and skin streams empty, Proven)
        -reading: |
          The document gives the record sizes and the strides, not that every stream holds one
          record per vertex: a stride is read as the bytes of one vertex's record in its stream,
          and a length as bytes (the length-prefix reading).
      - id: primitive_desc_per_range
        doc: PrimitiveDescData holds 32 bytes per range.
        -confidence: proven
        -evidence: 29,174 split bodies
        -at: len_primitive_descs
        -check: len_primitive_descs == 32 * num_ranges
      - id: primitive_desc_index_count
        doc: |
          A PrimitiveDescData record's index count is three times its range's triangle count: the
          number of indices of the range, which is whole triangles.
        -confidence: observed
        -evidence: 5,205 of 5,205 checked records
      - id: primitive_desc_first_index
        doc: A PrimitiveDescData record's first index equals its range's first index.
        -confidence: observed
        -evidence: 2,617 of 2,617 checked records
      - id: single_range_bounds
        doc: In a single-range mesh, the PrimitiveDescData centre and half extent equal the header's.
        -confidence: observed
        -evidence: all 1,820 checked single-range meshes
      - id: descriptor_per_range
        doc: The material list has one descriptor per range.
        -confidence: proven
        -evidence: split census
      - id: descriptor_vertex_count
        doc: |
          A descriptor's vertex count is its range's vertex count modulo 65,536. It can be stale
          (GFX_WireFrame_Wall_01_LOD0 declares 8,845 vertices, its buffers hold 2,490): the
          buffers, not the declared count, describe the mesh.
        -confidence: observed
        -evidence: RR; the stale GFX_WireFrame_Wall_01_LOD0
        -severity: warning
      - id: middle_runs_empty
        doc: The middle two final runs (VertexBufferDataDynamic, VertexBufferDataIndexWeight) are empty.
        -confidence: observed
        -evidence: all 83,800 ranged bodies
      - id: cpu_runs_copy_buffers
        doc: |
          A filled first or last final run is a copy of the mesh's buffer: VertexBufferDataStatic
          of the primary stream, IndexBufferData of the index stream; both are filled or both empty.
        -confidence: inferred
        -evidence: some static meshes carry copies (observed); first and last filled on 2,160 bodies
        -reading: |
          The document says some static meshes carry copies of their vertex and index buffers in
          these runs, not that every filled run is one: read as a copy wherever a run is filled.
      - id: cpu_runs_flag
        doc: The trailer's first bool is 1 exactly when the first and last final runs are filled.
        -confidence: observed
        -evidence: 2,160 meshes with filled CPU-side runs
      - id: final_runs_empty_when_split
        doc: In a split mesh (vertex format split12 or split24) all four final runs are empty.
        -confidence: proven
        -evidence: 29,174 split bodies
      - id: descriptor_final_bytes
        doc: |
          In the ranged form, the last descriptor's final bytes are PlatformVersion 31 and
          QuantizationFactor (the position scale), and every other descriptor's final bytes are
          zero.
        -confidence: observed
        -evidence: the last split descriptor (descriptor table); PlatformVersion 31 on all 83,800 ranged bodies (registry)
    seq:
      - id: unknown_0x0
        type: u4
        -offset: 0x0
        -orig-id: stored word
        -confidence: unknown
        -evidence: 2 throughout the split census
        doc: A stored word; the registry's Version (2).
      - id: vertex_format
        type: u1
        enum: vertex_format
        -offset: 0x4
        -orig-id: vertex format
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: The vertex format (registry VertexFormat); see the vertex_format enum.
      - id: strides
        type: u4
        repeat: expr
        repeat-expr: 3
        -offset: 0x5
        -orig-id: stream strides
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: Bytes per vertex of the primary, position and skin streams (registry's three strides).
      - id: unknown_0x11
        type: u4
        -offset: 0x11
        -orig-id: stored word
        -confidence: unknown
        -evidence: 0 throughout the split census
        doc: A stored word; the registry's ClusterCount (0).
      - id: centre
        type: float3
        -offset: 0x15
        -orig-id: centre
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: The centre of the mesh's bounds (registry Center).
      - id: half_extent
        type: float3
        -offset: 0x21
        -orig-id: half extent
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: Half the size of the mesh's bounds along each axis (registry HalfExtend).
      - id: unknown_0x2d
        type: u1
        -offset: 0x2D
        -orig-id: stored byte
        -confidence: unknown
        -evidence: 0 throughout the split census
        doc: A stored byte; the registry's IsFixedClusterSize (0).
      - id: num_ranges
        type: u4
        -offset: 0x2E
        -orig-id: range count
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: The number of draw ranges (registry DrawPrims count).
      - id: unknown_0x32
        size: 8
        -offset: 0x32
        -orig-id: stored words
        -confidence: unknown
        -evidence: two zero u32 values throughout the split census
        doc: Eight stored bytes before the first range (at M+75).
      - id: ranges
        type: 'range_record(_index + 1 < num_ranges ? 1 : 0)'
        repeat: expr
        repeat-expr: num_ranges
        -offset: 0x3A
        -orig-id: range records
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: One record per draw range (ClusteredPrimitiveInfo); all but the last carry eight more bytes.
      - id: len_primary
        type: u4
        -orig-id: primary attributes (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the primary attribute stream.
      - id: primary
        size: len_primary
        -orig-id: primary attributes
        -confidence: proven
        -evidence: split census
        doc: |
          The primary vertex attributes (registry VertexDataStatic), one record of the first
          stride per vertex. The record layout is not in the document: kept as bytes.
      - id: len_positions
        type: u4
        -orig-id: positions (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the position stream; 0 in a static mesh.
      - id: positions
        size: len_positions
        -orig-id: positions
        -confidence: proven
        -evidence: split census
        doc: |
          The positions (registry VertexDataDynamic), 12-byte records in the split formats. Their
          encoding is not in the document: kept as bytes.
      - id: len_skin
        type: u4
        -orig-id: skin (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the skin stream; 0 in a static mesh.
      - id: skin
        size: len_skin
        -orig-id: skin
        -confidence: proven
        -evidence: split census
        doc: |
          The skin influences (registry VertexDataIndexWeight), 8-byte records (16 with eight
          influences). Their encoding is not in the document: kept as bytes.
      - id: len_indices
        type: u4
        -orig-id: indices (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the index stream.
      - id: indices
        type: index_data(0)
        size: len_indices
        -orig-id: indices
        -confidence: proven
        -evidence: 29,174 split meshes
        doc: The u16 indices (registry IndexData), relative to each range's vertex base.
      - id: len_primitive_descs
        type: u4
        -orig-id: PrimitiveDescData (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the PrimitiveDescData block.
      - id: primitive_descs
        type: primitive_desc_block
        size: len_primitive_descs
        -orig-id: PrimitiveDescData
        -confidence: proven
        -evidence: 29,174 split bodies
        doc: One 32-byte PrimitiveDescData record per range.
      - id: len_further_a
        type: u4
        -orig-id: two more length-prefixed streams (first length)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the first of the two further streams.
      - id: further_a
        size: len_further_a
        -orig-id: two more length-prefixed streams (first)
        -confidence: unknown
        doc: The first further stream; its content is not described.
      - id: len_further_b
        type: u4
        -orig-id: two more length-prefixed streams (second length)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the second further stream.
      - id: further_b
        size: len_further_b
        -orig-id: two more length-prefixed streams (second)
        -confidence: unknown
        doc: The second further stream; its content is not described.
      - id: mesh_data_marker
        type: u4
        valid: '0x0645ABB5'
        -orig-id: MeshData marker 0x0645ABB5
        -confidence: inferred
        -evidence: MeshData follows the two further streams on 29,174 split bodies (Proven); the MeshData table starts after its marker
        -reading: |
          The document lists MeshData after the two further streams and says the MeshData table
          starts immediately after its marker 0x0645ABB5, but not that this form stores the
          marker there: read as the marker, right after the second further stream.
        doc: The MeshData marker.
      - id: mesh_data
        type: mesh_data
        -orig-id: MeshData
        -confidence: proven
        -evidence: 29,174 split bodies
        doc: MeshData and its primitive records.
      - id: len_cpu_vertices
        type: u4
        -orig-id: VertexBufferDataStatic (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the first final run.
      - id: cpu_vertices
        size: len_cpu_vertices
        -orig-id: VertexBufferDataStatic
        -confidence: observed
        -evidence: empty in every split mesh; filled on 2,160 of 83,800 ranged bodies
        doc: The first final run (registry VertexBufferDataStatic); some static meshes keep a copy of their primary stream here.
      - id: len_cpu_positions
        type: u4
        -orig-id: VertexBufferDataDynamic (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the second final run.
      - id: cpu_positions
        size: len_cpu_positions
        -orig-id: VertexBufferDataDynamic
        -confidence: observed
        -evidence: empty on all 83,800 ranged bodies
        doc: The second final run (registry VertexBufferDataDynamic).
      - id: len_cpu_skin
        type: u4
        -orig-id: VertexBufferDataIndexWeight (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the third final run.
      - id: cpu_skin
        size: len_cpu_skin
        -orig-id: VertexBufferDataIndexWeight
        -confidence: observed
        -evidence: empty on all 83,800 ranged bodies
        doc: The third final run (registry VertexBufferDataIndexWeight).
      - id: len_cpu_indices
        type: u4
        -orig-id: IndexBufferData (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the fourth final run.
      - id: cpu_indices
        size: len_cpu_indices
        -orig-id: IndexBufferData
        -confidence: observed
        -evidence: empty in every split mesh; filled on 2,160 of 83,800 ranged bodies
        doc: The fourth final run (registry IndexBufferData); some static meshes keep a copy of their index stream here.
      - id: materials
        type: material_list
        -orig-id: material list
        -confidence: proven
        -evidence: split census
        doc: The material list, one descriptor and one group per range.
  range_record:
    doc: |
      One draw range (registry ClusteredPrimitiveInfo): where its indices and its vertices begin.
      Its extent runs to where the next range begins, or to the buffers' ends for the last.
    -confidence: proven
    -evidence: 29,174 split meshes
    params:
      - id: has_tail
        type: u1
        doc: 1 for every record but the last, which lacks the eight further bytes.
    seq:
      - id: marker
        type: u4
        valid: '0x07B19A87'
        -offset: 0x0
        -orig-id: range class
        -confidence: proven
        doc: The range class.
      - id: unknown_0x4
        type: u1
        -offset: 0x4
        -orig-id: stored byte
        -confidence: unknown
        -evidence: 1 in the split census
        doc: A stored byte; the registry's ClusterCount (1).
      - id: unknown_0x5
        size: 3
        -offset: 0x5
        -orig-id: stored bytes
        -confidence: unknown
        -evidence: zero in the split census
        doc: Three stored bytes.
      - id: first_index
        type: u4
        -offset: 0x8
        -orig-id: first index
        -confidence: proven
        doc: The range's first index in the index stream (registry IndexStart).
      - id: vertex_base
        type: u4
        -offset: 0xC
        -orig-id: vertex base
        -confidence: proven
        doc: The range's first vertex, which its indices are relative to (registry VertexStart).
      - id: unknown_0x10
        size: 8
        if: has_tail != 0
        -offset: 0x10
        -orig-id: another eight bytes
        -confidence: unknown
        doc: Eight further bytes, on every record but the last.
  index_data:
    doc: |
      An index stream: u16 indices when the width selector is 0, u32 when it is 1; for any other
      selector the bytes are kept as they are (and cannot be decoded).
    params:
      - id: index_width
        type: u1
        doc: The MeshData index width selector (0 for the ranged form, whose indices are u16).
    seq:
      - id: u16_indices
        type: u2
        repeat: eos
        if: index_width == 0
        -confidence: proven
        doc: The indices, when they are u16.
      - id: u32_indices
        type: u4
        repeat: eos
        if: index_width == 1
        -confidence: observed
        doc: The indices, when they are u32.
      - id: other_width
        size-eos: true
        if: index_width > 1
        -confidence: unknown
        doc: The stream's bytes, for a width selector the document does not give.
  primitive_desc_block:
    doc: The PrimitiveDescData block's content.
    seq:
      - id: records
        type: primitive_desc
        repeat: eos
        -confidence: proven
        doc: One 32-byte record per range, in range order.
  primitive_desc:
    doc: One PrimitiveDescData record (field names from the runtime class registry).
    -confidence: observed
    seq:
      - id: centre
        type: float3
        -offset: 0x0
        -orig-id: centre
        -confidence: observed
        -evidence: equals the compiled header's centre on all 1,820 checked single-range meshes
        doc: The centre of the range's bounds.
      - id: half_extent
        type: float3
        -offset: 0xC
        -orig-id: half extent
        -confidence: observed
        -evidence: equals the compiled header's half extent on the same 1,820
        doc: The half extent of the range's bounds.
      - id: primitive_type
        type: u1
        -offset: 0x18
        -orig-id: primitive type
        -confidence: observed
        -evidence: 1 in the checked records
        doc: The primitive type.
      - id: num_indices
        type: b24
        -offset: 0x19
        -orig-id: index count
        -confidence: observed
        -evidence: three times the range's triangle count on 5,205 of 5,205 checked
        doc: The range's index count, a 24-bit little-endian value.
      - id: first_index
        type: u4
        -offset: 0x1C
        -orig-id: first index
        -confidence: observed
        -evidence: equals the range's first index on 2,617 of 2,617 checked
        doc: The range's first index.
  inline_layout:
    doc: |
      The inline form, from M+17 (the MeshData marker, 0x0645ABB5, is the layout class at M+13):
      MeshData with its object records, then the primary, position, skin and index blobs, then
      the material list. One object is a special case of this grammar.

      The width of the blobs' length prefixes (`len_*`) is a reading, stated on those fields.
    -confidence: proven
    -evidence: 1,170 multi-mesh bodies, each consumed exactly
    -relations:
      - id: objects_tile_buffers
        doc: |
          Object vertex and index intervals tile the shared buffers in record order: the first
          object begins at vertex 0 and index 0, each later one where the one before it ends, and
          every object but the last ends within the buffers (the last one's end is the warning
          `declared_counts_match_buffers`).
        -confidence: proven
        -evidence: 1,170 multi-mesh bodies
      - id: indices_absolute
        doc: |
          Indices are absolute, adding the vertex base is wrong (proven): each index of an object
          names a vertex of that object's interval.
        -confidence: inferred
        -evidence: absolute indices on 1,170 multi-mesh bodies (Proven)
        -reading: |
          The document says the indices are absolute, not that an object's indices stay inside
          its own vertex interval: the bound is a reading of the registry's MinIndex and
          NumVertices, the vertex range of a draw.
      - id: stream_lengths
        doc: |
          Each blob holds one record of its stride per vertex: the primary blob's length is a
          multiple of its stride, the position and skin blobs hold as many records, and a blob
          whose stride is 0 is empty.
        -confidence: inferred
        -evidence: 1,170 multi-mesh bodies (24-byte vertices, empty position and skin blobs, Proven)
        -reading: |
          As for the ranged form: a stride is read as the bytes of one vertex's record in its
          blob, and a length as bytes.
      - id: descriptor_per_object
        doc: The material list has one descriptor per object.
        -confidence: proven
        -evidence: inline multi-mesh census
      - id: descriptor_vertex_count
        doc: |
          A descriptor's vertex count is its object's vertex count (as the buffers give it)
          modulo 65,536; it can be stale, and the buffers win.
        -confidence: observed
        -evidence: RR; two sampled inline meshes of 72,260 and 93,906 vertices
        -severity: warning
      - id: declared_counts_match_buffers
        doc: |
          The last object's declared vertex and triangle counts reach exactly to the buffers'
          ends. They can be stale (GFX_WireFrame_Wall_01_LOD0 declares 8,845 vertices and 5,593
          triangles over buffers of 2,490 vertices and 1,992 triangles): the buffers win, and
          the last object is decoded to the buffers' ends.
        -confidence: observed
        -evidence: GFX_WireFrame_Wall_01_LOD0
        -severity: warning
    seq:
      - id: mesh_data
        type: mesh_data
        -offset: 0
        -orig-id: MeshData
        -confidence: proven
        -evidence: 1,170 multi-mesh bodies
        doc: MeshData (its declaration, count and every object record).
      - id: len_primary
        type: u4
        -orig-id: primary (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the primary blob.
      - id: primary
        size: len_primary
        -orig-id: primary
        -confidence: proven
        doc: The shared primary vertex records (24 bytes each in the census). Layout not in the document; kept as bytes.
      - id: len_positions
        type: u4
        -orig-id: position (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the position blob.
      - id: positions
        size: len_positions
        -orig-id: position
        -confidence: proven
        -evidence: empty in all 1,170 multi-mesh bodies
        doc: The shared position records. Encoding not in the document; kept as bytes.
      - id: len_skin
        type: u4
        -orig-id: skin (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the skin blob.
      - id: skin
        size: len_skin
        -orig-id: skin
        -confidence: proven
        -evidence: empty in all 1,170 multi-mesh bodies
        doc: The shared skin records. Encoding not in the document; kept as bytes.
      - id: len_indices
        type: u4
        -orig-id: index (length prefix)
        -confidence: inferred
        -reading: |
          The document calls the streams and runs "length-prefixed" without the prefix's width or
          unit: read as a u32 length in bytes.
        doc: Bytes of the index blob.
      - id: indices
        type: index_data(mesh_data.index_width)
        size: len_indices
        -orig-id: index
        -confidence: proven
        -evidence: 1,170 multi-mesh bodies
        doc: The shared indices, absolute (not relative to an object's vertex base).
      - id: materials
        type: material_list
        -orig-id: material list
        -confidence: proven
        -evidence: inline multi-mesh census
        doc: The material list, one descriptor and one group per object.
  mesh_data:
    -layout: rr-mesh-data
    doc: |
      MeshData, from just after its marker 0x0645ABB5, with its MeshPrimitive records. The
      object count counts the records.
    -confidence: observed
    -relations:
      - id: format_strides
        doc: |
          The strides are those of the vertex format table for a known format (as for the
          ranged header).
        -confidence: observed
        -evidence: RR
      - id: bones_per_vertex
        doc: |
          NbBonesPerVertex is 4 in static24 and four-influence split meshes (skin stride 8) and 8
          in eight-influence split meshes (skin stride 16).
        -confidence: observed
        -evidence: RR
    seq:
      - id: index_width
        type: u1
        -offset: 0x0
        -orig-id: index width selector
        -confidence: observed
        doc: 0 means u16 indices, 1 means u32.
      - id: vertex_format
        type: u1
        enum: vertex_format
        -offset: 0x1
        -orig-id: vertex format
        -confidence: observed
        doc: The vertex format; see the vertex_format enum.
      - id: strides
        type: u1
        repeat: expr
        repeat-expr: 3
        -offset: 0x2
        -orig-id: stream strides
        -confidence: observed
        doc: Bytes per vertex of the primary, position and skin streams.
      - id: bones_per_vertex
        type: u1
        -offset: 0x5
        -orig-id: NbBonesPerVertex
        -confidence: observed
        doc: NbBonesPerVertex (registry name); 4 in static24 and four-influence split meshes, 8 in eight-influence split meshes.
      - id: num_objects
        type: u4
        -offset: 0x6
        -orig-id: object count
        -confidence: observed
        doc: The number of MeshPrimitive records that follow.
      - id: objects
        type: mesh_primitive
        repeat: expr
        repeat-expr: num_objects
        -offset: 0xA
        -orig-id: object records
        -confidence: proven
        -evidence: 1,170 multi-mesh bodies
        doc: One MeshPrimitive record per object, in buffer order.
  mesh_primitive:
    doc: |
      One object of an inline mesh (registry MeshPrimitive: MinIndex, IsUsingDepthOnlyBuffers,
      NumVertices, StartIndex, PrimitiveCount, Type), 36 bytes.
    -confidence: proven
    -evidence: 2,732 multi-mesh object records
    seq:
      - id: unknown_0x0
        type: u8
        -offset: 0x0
        -orig-id: stored identity
        -confidence: unknown
        -evidence: zero in all 2,732 multi-mesh object records
        doc: A stored identity.
      - id: marker
        type: u4
        valid: '0xA57387EF'
        -offset: 0x8
        -orig-id: MeshPrimitive marker
        -confidence: proven
        doc: The MeshPrimitive marker.
      - id: vertex_base
        type: u4
        -offset: 0xC
        -orig-id: vertex base
        -confidence: proven
        doc: The object's first vertex in the shared buffer (registry MinIndex).
      - id: unknown_0x10
        type: u4
        -offset: 0x10
        -orig-id: stored word
        -confidence: unknown
        -evidence: zero in all 2,732 records
        doc: A stored word; the registry's IsUsingDepthOnlyBuffers (0).
      - id: num_vertices
        type: u4
        -offset: 0x14
        -orig-id: vertex count
        -confidence: proven
        doc: The object's vertex count (registry NumVertices); can be stale (see the warnings).
      - id: first_index
        type: u4
        -offset: 0x18
        -orig-id: first index
        -confidence: proven
        doc: The object's first index in the shared index buffer (registry StartIndex).
      - id: num_triangles
        type: u4
        -offset: 0x1C
        -orig-id: triangle count
        -confidence: proven
        doc: The object's triangle count (registry PrimitiveCount); three indices each.
      - id: unknown_0x20
        type: u4
        -offset: 0x20
        -orig-id: stored word
        -confidence: unknown
        -evidence: 1 in all 2,732 records
        doc: A stored word; the registry's Type (1). That it is a material slot is not established.
  material_list:
    -layout: rr-material-list
    doc: |
      The material list that ends both forms. It holds a count, eight bytes, one 28-byte
      descriptor per range (or object), a second count, six bytes, one 31-byte group per range
      and a 20-byte trailer.
    -confidence: proven
    -evidence: split and inline multi-mesh censuses
    -relations:
      - id: groups_per_descriptor
        doc: There is one group per descriptor (both are one per range).
        -confidence: proven
        -evidence: split and inline multi-mesh censuses
        -at: num_groups
        -check: num_groups == num_descriptors
      - id: group_identities
        doc: |
          Each group's two identities (ObjectReference at 8 and ObjectHandle at 17) repeat its
          descriptor's Material identity.
        -confidence: proven
        -evidence: split and inline multi-mesh censuses; all 127,219 groups
    seq:
      - id: num_descriptors
        type: u4
        -orig-id: u32 count
        -confidence: proven
        doc: The number of descriptors.
      - id: unknown_after_count
        size: 8
        -orig-id: eight bytes
        -confidence: unknown
        doc: Eight bytes after the count.
      - id: descriptors
        type: 'material_descriptor(_index + 1 == num_descriptors ? 1 : 0)'
        repeat: expr
        repeat-expr: num_descriptors
        -orig-id: 28-byte descriptor
        -confidence: proven
        doc: One descriptor per range (registry MeshInstancingData).
      - id: num_groups
        type: u4
        -orig-id: another u32 count
        -confidence: proven
        doc: The number of groups.
      - id: unknown_after_group_count
        size: 6
        -orig-id: six bytes
        -confidence: unknown
        doc: Six bytes after the second count.
      - id: groups
        type: material_group
        repeat: expr
        repeat-expr: num_groups
        -orig-id: 31-byte group
        -confidence: proven
        doc: One group per range (registry DynamicReference).
      - id: trailer
        type: material_trailer
        -orig-id: 20-byte trailer
        -confidence: proven
        doc: The trailer.
  material_descriptor:
    doc: One material descriptor (registry MeshInstancingData), 28 bytes.
    -confidence: proven
    params:
      - id: is_last
        type: u1
        doc: 1 for the list's last descriptor, whose final bytes hold PlatformVersion and QuantizationFactor.
    seq:
      - id: marker
        type: u4
        valid: '0x0B1D34C1'
        -offset: 0x0
        -orig-id: descriptor marker
        -confidence: proven
        doc: The descriptor marker.
      - id: unknown_0x4
        size: 4
        -offset: 0x4
        -orig-id: stored bytes
        -confidence: unknown
        -evidence: not interpreted
        doc: Four stored bytes.
      - id: unknown_0x8
        type: u1
        -offset: 0x8
        -orig-id: stored byte
        -confidence: unknown
        -evidence: 0 in the measured layouts
        doc: A stored byte.
      - id: vertex_count
        type: u2
        -offset: 0x9
        -orig-id: vertex count modulo 65536
        -confidence: observed
        -evidence: RR; stale on GFX_WireFrame_Wall_01_LOD0
        doc: The range's vertex count modulo 65,536 (not a limit on the mesh's vertices); may be stale.
      - id: unknown_0xb
        type: u1
        -offset: 0xB
        -orig-id: stored byte
        -confidence: unknown
        -evidence: 0 in the measured layouts
        doc: A stored byte.
      - id: material
        type: u8
        -offset: 0xC
        -orig-id: Material identity
        -confidence: proven
        doc: The identity of the range's Material.
      - id: platform_version
        type: u4
        if: is_last != 0
        -offset: 0x14
        -orig-id: final bytes (PlatformVersion)
        -confidence: inferred
        -evidence: 31 on all 83,800 ranged bodies (observed; relation `descriptor_final_bytes`)
        -reading: |
          The document gives PlatformVersion and QuantizationFactor for the last descriptor of
          the ranged (split) form only; the inline form's last descriptor is read with the same
          two fields, whose values there are not described.
        doc: On the last descriptor, PlatformVersion (registry name), 31 in the ranged form.
      - id: quantization_factor
        type: f4
        if: is_last != 0
        -orig-id: final bytes (QuantizationFactor)
        -confidence: inferred
        -evidence: all 83,800 ranged bodies (observed)
        -reading: As for `platform_version`, in the inline form.
        doc: On the last descriptor, QuantizationFactor (registry name), the position scale in the ranged form.
      - id: final_bytes
        size: 8
        if: is_last == 0
        -orig-id: final bytes
        -confidence: observed
        -evidence: zero on every descriptor but the last
        doc: On every other descriptor, eight bytes (zero in the census).
  material_group:
    doc: |
      One 31-byte group (registry DynamicReference), whose ObjectReference and ObjectHandle
      repeat the descriptor's Material identity. Where the class sits is a reading (see
      `marker`); the other bytes the document does not attribute are kept verbatim.
    -confidence: observed
    -evidence: all 127,219 groups
    seq:
      - id: marker
        type: u4
        valid: '0x9F1640AF'
        -offset: 0x0
        -orig-id: DynamicReference 0x9F1640AF
        -confidence: inferred
        -evidence: DynamicReference 0x9F1640AF on all 127,219 groups (observed)
        -reading: |
          The document gives the class 0x9F1640AF and the identities at offsets 8 and 17, not
          where the class sits: read at offset 0, where the other RR records keep theirs.
        doc: The DynamicReference class.
      - id: unknown_0x4
        size: 4
        -offset: 0x4
        -confidence: unknown
        -reading: The four bytes between the class (read at 0) and ObjectReference at 8.
        doc: Four bytes the document does not attribute.
      - id: object_reference
        type: u8
        -offset: 0x8
        -orig-id: ObjectReference
        -confidence: proven
        -evidence: equal to the descriptor's Material on all 127,219 groups
        doc: ObjectReference (registry name), the descriptor's Material identity again.
      - id: unknown_0x10
        type: u1
        -offset: 0x10
        -confidence: unknown
        doc: A byte the document does not attribute.
      - id: object_handle
        type: u8
        -offset: 0x11
        -orig-id: ObjectHandle
        -confidence: proven
        -evidence: equal to the descriptor's Material on all 127,219 groups
        doc: ObjectHandle (registry name), the descriptor's Material identity again.
      - id: unknown_0x19
        size: 6
        -offset: 0x19
        -orig-id: six bytes remain unattributed
        -confidence: unknown
        doc: Six bytes the registry does not attribute.
  material_trailer:
    doc: The material list's 20-byte trailer.
    -confidence: observed
    seq:
      - id: mesh_bools
        type: u1
        repeat: expr
        repeat-expr: 16
        -offset: 0
        -orig-id: Sixteen Mesh bool bytes
        -confidence: observed
        -evidence: the first is 1 on exactly the 2,160 meshes with filled CPU-side runs
        doc: |
          Sixteen bool bytes of the Mesh; their names are not established. The first fits a flag
          such as Dynamic (inferred): 1 exactly when the final runs are filled.
      - id: user_category
        type: u4
        -offset: 16
        -orig-id: UserCategory
        -confidence: observed
        doc: UserCategory (registry name).
  float3:
    doc: Three f32 values (x, y, z).
    seq:
      - id: x
        type: f4
        doc: x.
      - id: y
        type: f4
        doc: y.
      - id: z
        type: f4
        doc: z.
enums:
  layout_selector:
    0:
      id: ranged
      doc: The ranged form (a ClusteredMeshData follows).
      -orig-id: 0 ranged
      -confidence: observed
    3:
      id: inline
      doc: The inline form (the ClusteredMeshData pointer is null; MeshData follows).
      -orig-id: 3 inline
      -confidence: observed
  layout_class:
    0xC351EE43:
      id: clustered_mesh_data
      doc: ClusteredMeshData, the class of the ranged form.
      -orig-id: 0xC351EE43 ranged
      -confidence: observed
    0x0645ABB5:
      id: mesh_data
      doc: MeshData, the class at M+13 in the inline form.
      -orig-id: 0x0645ABB5 MeshData for inline
      -confidence: observed
  vertex_format:
    0:
      id: split12
      doc: split12 (strides 12, 12, 8), or split12 with eight influences (12, 12, 16).
      -orig-id: split12; split12 with eight influences
      -confidence: proven
      -evidence: all split12 meshes; all 58 eight-influence meshes
    1:
      id: split24
      doc: split24 (strides 24, 12, 8).
      -orig-id: split24
      -confidence: proven
      -evidence: all split24 meshes
    2:
      id: static24
      doc: static24 (stride 24).
      -orig-id: static24
      -confidence: observed
      -evidence: RR
    3:
      id: static28
      doc: static28 (stride 28).
      -orig-id: static28
      -confidence: observed
      -evidence: RR
    11:
      id: static16
      doc: static16 (stride 16).
      -orig-id: static16
      -confidence: observed
      -evidence: RR
