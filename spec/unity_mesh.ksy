meta:
  id: unity_mesh
  title: Unity serialized Mesh object (class 43), read without a type tree
  application: Unity 3.0 to 6000.x (players, web players and asset bundles); the test corpus is 2019.4 to 2023.1, the shared real files 4.1 to 2023.1, and 3.4.2 real files were read
  license: CC0-1.0
  endian: le
  -layout: unity-mesh
doc: |
  The bytes Unity writes for one Mesh object (class id 43) inside a SerializedFile or an asset
  bundle, for a release (player) build, little endian. Without the type tree that may or may not
  travel with the file, the field order is fixed per editor version; the version comes from the
  user (`--unity-version 2021.3.0f1`, the parameter `unity_version` = major x 10,000 + minor x 100
  + patch).

  Unity's serializer writes every vector as a 32-bit element count followed by the elements;
  strings are a 32-bit byte count and the bytes. After a byte array, a string, a group of
  single-byte fields, or a struct whose type-tree node asks for it, the stream is padded to a
  multiple of 4 bytes counted from the object's start. The padding bytes are kept verbatim
  here (the `pad` fields): Unity writes zeros, but nothing checks that.

  The vertices live either in the vertex data (channels laid out over interleaved streams,
  inside the object or streamed from a resource file that m_StreamData names), or in
  m_CompressedMesh (bit-packed quantised values). Everything stays raw here; the decoders in
  `formats/src/unity/` give the bytes their meaning.

  Version cut-offs are from Unity's type trees: the release type tree of every editor from
  3.4 to 6000.7 as the editors dump it (AssetRipper/TypeTreeDumps, `StructsDump/release`),
  which changes the Mesh layout at 3.5, 4.0, 4.1, 4.3, 5.0, 2017.3, 2018.1, 2018.2, 2018.3,
  2019.1, 2020.1, 2022.1, 6000.2 and 6000.6 (and nowhere else; 5.0 to 2017.2 differ only in
  type names and flags that move no byte). For 2019.4 to 2023.1 they are checked against the
  35 Mesh objects of the shared corpus and Unity's own text dumps of three of its bundles, and
  for 4.1 to 2023.1 against the embedded type trees of the shared real files
  (`corpus/unity-real`). Alpha releases before the first alpha that has a change (for example
  6000.6.0a1 to a4) cannot be told apart by the version number this layout takes, and are read
  with the newer layout.

  Before 3.5 (3.0 to 3.4) a Mesh has no vertex data: m_Use16BitIndices says the index size,
  and the positions, normals, tangents, two texture coordinate sets and colours are separate
  arrays (`vertices`, `normals`, `tangents`, `uv`, `uv1`, `colors`), followed by a collision
  mesh's indices; the layout is the release type tree that 3.3.0f4 and 3.4.2f3 Web Player
  files carry (the same fields), and for 3.0 to 3.2 the public readers' (which read 2.6 to 3.4
  alike).

  Three eras of vertex data: from 5.0 the streams are computed from the channel table (each
  starts on a 16-byte boundary after the one before); in 4.x the vertex data stores its
  streams (`streams`: a channel mask, an offset and a stride each) beside the channel table;
  in 3.5 to 3.x it stores four streams and no channel table, the channels being implied by
  each stream's channel mask. The channel table's format byte is numbered three ways: the
  documents' twelve formats from 2019.1 (`channel_info`), thirteen from 2017.1 to 2018.4
  (`channel_info_2017`) and five before 2017.1 (`channel_info_legacy`); the shader channels
  the table's entries stand for are in the enums `shader_channel` (2018.1 on),
  `shader_channel_5` (5.0 to 2017.4) and `shader_channel_4` (3.5 to 4.x).

  An object the editor saved for itself (`unity_editor`: its file's target platform is
  NoTarget) keeps the fields a player build leaves out: m_ObjectHideFlags and the prefab
  links before m_Name, and m_MeshOptimized (to 2018.4) or m_MeshOptimizationFlags (from
  2019.1) after m_MeshMetrics. The editor's type trees (AssetRipper/TypeTreeDumps,
  `StructsDump/editor`, 3.5 to 6000.7) differ from the release ones in these fields and
  nowhere else in a Mesh, nested types included, beside align flags that move no byte.
doc-ref:
  - ../shared/seeds/000_c094f0215049ec03.txt (Meshes)
  - ../shared/seeds/002_c6acc9c1ed2073f9.txt (Skinning and blend shapes)
  - ../shared/corpus/unity/unity-dumps/2021.3.0f1.txt (the (ClassID 43) Mesh objects)
-confidence: observed
-evidence: all 35 Mesh objects of the shared corpus (2019.4.0f1 to 2023.1.0a16) read, consumed exactly and written back byte for byte; the Mesh objects of the shared real files (4.1.2 to 2023.1) read exactly, their fields ending where their type trees say
params:
  - id: unity_version
    type: u4
    -context: unity_version
    doc: The editor version that wrote the object, major x 10,000 + minor x 100 + patch (2021.3.0f1 is 20210300).
  - id: unity_editor
    type: u1
    -context: unity_editor
    -default: 0
    doc: 1 for an object the editor saved for itself (a model's import cache in Library/metadata, an .asset or scene saved in binary), whose serialized file's target platform is NoTarget (-2, `build_target` in unity_serialized.ksy) and which keeps the editor-only fields a player build leaves out; 0 (the default) for a player's or an asset bundle's object.
-relations:
  - id: vertex_layout_fills_data
    doc: |
      Each channel with a non-zero dimension names a stream; a stream's stride is the sum of its
      channels' sizes (component size x (dimension & 0xF)), the streams follow each other from the
      start of the vertex data, each starting on a 16-byte boundary, and the vertex data (inline,
      or the streamed range) ends exactly where the last stream ends. A channel sits at its stored
      offset in its stream; the documents do not say that the offsets follow the order of
      m_Channels, nor how many streams a mesh may have. The component sizes are the document's
      format table, which is the numbering from 2019.1: earlier editors number formats
      differently and the documents do not give their table, so the relation applies to files
      of 2019.1 and later.
    -confidence: proven
    -evidence: every one of SkateBIRD's 7,491 stored meshes, 45 of them with more than one stream (seed 000); all 35 corpus meshes
  - id: older_vertex_layout_fills_data
    doc: |
      From 5.0 to 2018.4, the rule of vertex_layout_fills_data with that era's format table
      (`channel_info_legacy` before 2017.1, `channel_info_2017` from 2017.1): each channel
      with a non-zero dimension names a stream, a stream's stride is the sum of its channels'
      sizes, the streams follow each other from the start of the vertex data on 16-byte
      boundaries, and the vertex data ends where the last stream ends. A colour channel of
      the format Color takes four bytes per vertex (see the enums).
    -confidence: sourced
    -evidence: UnityPy 1.25.4 (MeshHelper.get_streams) and AssetStudio (VertexData.GetStreams) compute the streams so; every 5.6 to 2018.4 Mesh of the shared real files
  - id: stored_streams_hold_channels
    doc: |
      Before 5.0 the vertex data stores its streams. Every channel with a non-zero dimension
      lies in a stream whose channel mask has the channel's bit, inside that stream's stride
      (offset + size at most the stride); every stream that holds a channel lies inside the
      vertex data (its offset plus stride x vertex count at most the data's length). In 3.5
      to 3.x, where there is no channel table, a stream's channels are the bits of its mask,
      one after another from offset 0 in the order of `shader_channel_4`, each of its fixed
      format, and they fill the stride.
    -confidence: sourced
    -evidence: UnityPy 1.25.4 (MeshHelper.process, get_channels, read_vertex_data) and AssetStudio (VertexData, GetChannels, ReadVertexData) read the stored streams so; the 4.1.2 Meshes of the shared real files
  - id: skin_per_vertex
    doc: |
      m_Skin (before 2018.2), when not empty, holds one entry per vertex: as many as
      m_VertexCount, or as the compressed mesh's positions.
    -confidence: sourced
    -evidence: UnityPy 1.25.4 and AssetStudio index m_Skin by vertex; the skinned 2018.1.6f1 Meshes of the shared real files
  - id: arrays_per_vertex
    doc: |
      Before 3.5, each of m_Normals, m_Tangents, m_UV, m_UV1 and m_Colors is empty or holds
      one entry per position of m_Vertices (the vertex count).
    -confidence: observed
    -evidence: every Mesh of the 3.3.0f4 and 3.4.2f3 Web Player and standalone files read; AssetStudio (Mesh.cs) and UnityPy index the arrays by vertex
  - id: stream_data_replaces_inline_data
    doc: |
      A mesh whose m_StreamData has a non-zero size keeps no vertex bytes inline (m_DataSize is
      empty), and names a resource file in m_StreamData.path.
    -confidence: observed
    -evidence: the 19 streamed meshes of the corpus
  - id: index_buffer_whole_indices
    doc: The index buffer holds whole indices, 2 bytes each for m_IndexFormat 0 and 4 bytes for 1.
    -confidence: observed
    -evidence: all 35 corpus meshes
  - id: submesh_within_index_buffer
    doc: |
      Every submesh's indices, indexCount indices from byte firstByte, lie inside the index
      buffer (or inside the packed m_Triangles of a compressed mesh).
    -confidence: observed
    -evidence: all 35 corpus meshes
  - id: indices_name_vertices
    doc: |
      Every index of a submesh, plus the submesh's baseVertex, names a vertex below
      m_VertexCount: Unity checks index values against the vertex count when a mesh's indices
      are set, unless told not to.
    -confidence: sourced
    -evidence: Unity scripting reference, Rendering.MeshUpdateFlags.DontValidateIndices; all 35 corpus meshes
  - id: submesh_vertex_range
    doc: A submesh's firstVertex + vertexCount is at most m_VertexCount.
    -confidence: observed
    -evidence: all 35 corpus meshes, including the Robot body's 5 submeshes with firstVertex above 0
  - id: bone_data_per_bind_pose
    doc: |
      m_BoneNameHashes, when not empty, holds one hash per bind pose; m_BonesAABB, when not
      empty, one box per bind pose.
    -confidence: observed
    -evidence: the 15 skinned corpus meshes (18 and 2 bind poses)
  - id: blend_channels_form_a_skin
    doc: |
      BlendWeight (channel 12) is Float, Float16, UNorm8 or UNorm16 and BlendIndices (13) UInt8,
      UInt16 or UInt32, each with at most four components (influences); a BlendWeight channel
      without BlendIndices is not a valid skin (BlendIndices alone is a rigid bind of weight 1).
    -confidence: observed
    -evidence: SkateBIRD, Sledding (seed 002)
  - id: variable_weights_offsets
    doc: |
      m_VariableBoneCountWeights, when not empty, starts with m_VertexCount + 1 start offsets
      (word indices into m_Data): the first is m_VertexCount + 1, the last is the length of
      m_Data, and none is smaller than the one before.
    -confidence: observed
    -evidence: Sledding Game (seed 002)
  - id: variable_weights_sorted
    doc: Each vertex's influences in m_VariableBoneCountWeights are sorted by descending weight.
    -confidence: observed
    -evidence: Sledding Game (seed 002)
  - id: variable_weights_sum_to_one
    doc: |
      Each vertex's weights in m_VariableBoneCountWeights (value / 65535) sum to 1, within the
      rounding of their 16-bit values (half of 1/65535 per influence).
    -confidence: observed
    -evidence: Sledding Game (seed 002)
  - id: shape_arrays_agree
    doc: |
      The four blend shape arrays agree: one fullWeights entry per frame (shapes), every
      channel's frames (frameIndex, frameCount) inside shapes, every frame's entries
      (firstVertex, vertexCount) inside vertices, and every entry's index below m_VertexCount.
    -confidence: inferred
    -evidence: the four arrays as seed 002 describes them (Observed · Sledding)
    -reading: |
      Derived, not stated: the document says what each array's first-and-count pairs and
      vertex indices refer to, not that they stay inside what they refer to.
  - id: shape_name_hash
    doc: A blend shape channel's nameHash is the CRC-32 of its name.
    -confidence: observed
    -evidence: Sledding Game (seed 002; animation curves name the shape by it)
seq:
  - id: object_hide_flags
    type: u4
    if: unity_editor != 0
    -orig-id: m_ObjectHideFlags
    -confidence: observed
    -evidence: first in the Mesh type tree of every editor file of the real Library/metadata folders checked (3.5.7 to 2019.2.18, 18 projects, 3,426 meshes), and of every editor type tree dump from 3.0 (AssetRipper/TypeTreeDumps, StructsDump/editor); absent from every release dump; AssetStudio (Classes/Object.cs) reads it when the file's platform is NoTarget
    doc: The object's HideFlags (Object.m_ObjectHideFlags), kept by the editor; first in an editor's object.
  - id: extension_ptr
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version < 30500
    -orig-id: m_ExtensionPtr
    -confidence: observed
    -evidence: the editor type trees of the real Library/metadata files of a 3.4.2f3 project (cjmarkham/Ball-game, 32 meshes) and the editor dumps of 3.0.0f5 to 3.4.x (AssetRipper/TypeTreeDumps, StructsDump/editor), where it is the only other field an editor's Mesh has before 3.5
    doc: Before 3.5, the object's editor extension (PPtr<EditorExtensionImpl>), where later editors keep the prefab links.
  - id: prefab_parent_object
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version >= 30500 and unity_version < 20180200
    -orig-id: m_PrefabParentObject
    -confidence: observed
    -evidence: the editor type trees of the real files of 3.5.7 to 2017.3.0 and the editor dumps of 3.5.0 to 2018.1.9 (renamed from 2018.2.0b1); AssetStudio (Classes/EditorExtension.cs)
    doc: Up to 2018.1, the object of the prefab this object is an instance of (EditorExtension), or none.
  - id: corresponding_source_object
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version >= 20180200
    -orig-id: m_CorrespondingSourceObject
    -confidence: observed
    -evidence: the editor type trees of the real files of 2018.2.14 to 2019.2.18 and the editor dumps from 2018.2.0b1 to 6000.7
    doc: From 2018.2, m_PrefabParentObject's bytes under its new name.
  - id: prefab_internal
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version >= 30500 and unity_version < 20180300
    -orig-id: m_PrefabInternal
    -confidence: observed
    -evidence: the editor type trees of the real files of 3.5.7 to 2018.2.14 and the editor dumps of 3.5.0 to 2018.2 (replaced from 2018.3.0b1); AssetStudio (Classes/EditorExtension.cs)
    doc: Up to 2018.2, the Prefab object this object belongs to, or none.
  - id: prefab_instance
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version >= 20180300
    -orig-id: m_PrefabInstance
    -confidence: observed
    -evidence: the editor type trees of the real files of 2018.3.0b11 to 2019.2.18 and the editor dumps from 2018.3.0b1 to 6000.7
    doc: From 2018.3, the PrefabInstance this object comes from, or none.
  - id: prefab_asset
    type: pptr(unity_version)
    if: unity_editor != 0 and unity_version >= 20180300
    -orig-id: m_PrefabAsset
    -confidence: observed
    -evidence: the editor type trees of the real files of 2018.3.0b11 to 2019.2.18 and the editor dumps from 2018.3.0b1 to 6000.7
    doc: From 2018.3, the prefab asset this object belongs to, or none.
  - id: name
    type: aligned_string
    -orig-id: m_Name
    -confidence: observed
    -evidence: every corpus object; Unity's dumps
    doc: The mesh's name (NamedObject.m_Name).
  - id: use_16bit_indices
    type: s4
    if: unity_version < 30500
    -orig-id: m_Use16BitIndices
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, non-zero when the index buffer holds 16-bit indices, 0 for 32-bit.
  - id: num_sub_meshes
    type: s4
    -orig-id: m_SubMeshes.Array.size
    -confidence: observed
    doc: How many submeshes follow.
  - id: sub_meshes
    type: sub_mesh(unity_version)
    repeat: expr
    repeat-expr: num_sub_meshes
    -orig-id: m_SubMeshes
    -confidence: observed
    -evidence: 1 to 5 per corpus mesh; values match Unity's dumps
    doc: |
      The submeshes: runs of the index buffer drawn with one material each (a renderer's
      material i draws submesh i).
  - id: num_legacy_shapes
    type: s4
    if: unity_version >= 40100 and unity_version < 40300
    -orig-id: m_Shapes.Array.size
    -confidence: sourced
    -evidence: type tree dumps of 4.1.0 to 4.2.2 (AssetRipper/TypeTreeDumps); AssetStudio's BlendShapeData before 4.3
    doc: In 4.1 and 4.2, how many blend shapes follow (each one frame, with its name).
  - id: legacy_shapes
    type: legacy_blend_shape
    repeat: expr
    repeat-expr: num_legacy_shapes
    if: unity_version >= 40100 and unity_version < 40300
    -orig-id: m_Shapes
    -confidence: sourced
    -evidence: type tree dumps of 4.1.0 to 4.2.2
    doc: |
      The blend shapes of 4.1 and 4.2 (MeshBlendShape with a name): each a run of
      `shape_vertices`. Not aligned between elements; the vector as a whole is.
  - id: pad_legacy_shapes
    size: (4 - _io.pos % 4) % 4
    if: unity_version >= 40100 and unity_version < 40300
    -orig-id: (alignment after m_Shapes)
    -confidence: sourced
    -evidence: the align flag on m_Shapes in the type tree dumps of 4.1.0 to 4.2.2
    doc: Padding to a 4-byte boundary after the shapes, kept verbatim.
  - id: num_shape_vertices
    type: s4
    if: unity_version >= 40100 and unity_version < 40300
    -orig-id: m_ShapeVertices.Array.size
    -confidence: sourced
    -evidence: type tree dumps of 4.1.0 to 4.2.2
    doc: In 4.1 and 4.2, how many shape vertices follow.
  - id: shape_vertices
    type: blend_shape_vertex
    repeat: expr
    repeat-expr: num_shape_vertices
    if: unity_version >= 40100 and unity_version < 40300
    -orig-id: m_ShapeVertices
    -confidence: sourced
    -evidence: type tree dumps of 4.1.0 to 4.2.2 (MeshBlendShapeVertex, 40 bytes)
    doc: The sparse deltas of every shape of 4.1 and 4.2, shape after shape.
  - id: shapes
    type: blend_shape_data
    if: unity_version >= 40300
    -orig-id: m_Shapes
    -confidence: observed
    -evidence: Sledding Game's meshes (seed 002); every corpus mesh has the four arrays empty; BlendShapeData from 4.3 (type tree dumps)
    doc: The blend shapes, in four arrays (BlendShapeData), from 4.3.
  - id: num_bind_poses
    type: s4
    if: unity_version >= 40300
    -orig-id: m_BindPose.Array.size
    -confidence: observed
    -evidence: here from 4.3 (type tree dumps); after m_Skin before
    doc: How many bind poses follow.
  - id: bind_poses
    type: matrix4x4f
    repeat: expr
    repeat-expr: num_bind_poses
    if: unity_version >= 40300
    -orig-id: m_BindPose
    -confidence: observed
    -evidence: 18 in the Robot body, 2 in each lower arm, 0 elsewhere (corpus, Unity's dumps)
    doc: |
      One matrix per bone, taking the renderer's local space to the bone's local space at bind
      time. Before 4.3 they follow m_Skin (`bind_poses_after_skin`).
  - id: num_bone_name_hashes
    type: s4
    if: unity_version >= 40300
    -orig-id: m_BoneNameHashes.Array.size
    -confidence: observed
    -evidence: present from 4.3 (type tree dumps)
    doc: How many bone name hashes follow.
  - id: bone_name_hashes
    type: u4
    repeat: expr
    repeat-expr: num_bone_name_hashes
    if: unity_version >= 40300
    -orig-id: m_BoneNameHashes
    -confidence: observed
    doc: Per bone, a hash of the bone's name (one per bind pose where present).
  - id: root_bone_name_hash
    type: u4
    if: unity_version >= 40300
    -orig-id: m_RootBoneNameHash
    -confidence: observed
    -evidence: present from 4.3 (type tree dumps)
    doc: The hash of the root bone's name, 0 for a mesh without bones.
  - id: bones_aabb
    type: min_max_aabb_vector
    if: unity_version >= 20190100
    -orig-id: m_BonesAABB
    -confidence: observed
    -evidence: present from 2019.1 (type trees); 18 boxes in the Robot body
    doc: Per bone, the box its influenced vertices occupy in the bone's space.
  - id: variable_bone_count_weights
    type: variable_bone_count_weights
    if: unity_version >= 20190100
    -orig-id: m_VariableBoneCountWeights
    -confidence: observed
    -evidence: present from 2019.1 (type trees); Sledding Game's toad (seed 002); empty in every corpus mesh
    doc: |
      Every influence of every vertex, for meshes imported with more than four influences per
      vertex (u32 words: start offsets, then bone and weight per influence).
  - id: mesh_compression
    type: u1
    enum: mesh_compression
    -orig-id: m_MeshCompression
    -confidence: observed
    -evidence: 0 in every corpus mesh
    doc: |
      The import setting for vertex compression (see the enum). The documents do not tie it to
      m_CompressedMesh; readers such as UnityPy take a non-zero value to mean the vertices are
      there.
  - id: stream_compression
    type: u1
    if: unity_version >= 40000 and unity_version < 50000
    -orig-id: m_StreamCompression
    -confidence: sourced
    -evidence: type tree dumps of 4.0.0 to 4.7.2
    doc: In 4.x, an import setting whose meaning is not established here; kept as read.
  - id: is_readable
    type: u1
    if: unity_version >= 40000
    -orig-id: m_IsReadable
    -confidence: observed
    -evidence: present from 4.0 (type tree dumps)
    doc: A bool (0 or 1, kept as the byte read), whether scripts may read the mesh.
  - id: keep_vertices
    type: u1
    if: unity_version >= 40000
    -orig-id: m_KeepVertices
    -confidence: observed
    doc: A bool (kept as the byte read), whether the CPU copy of the vertices is kept.
  - id: keep_indices
    type: u1
    if: unity_version >= 40000
    -orig-id: m_KeepIndices
    -confidence: observed
    doc: |
      A bool (kept as the byte read), whether the CPU copy of the indices is kept. From 5.0
      the four one-byte fields end on a 4-byte boundary, so no padding follows.
  - id: pad_flags
    size: 3
    if: unity_version < 50000
    -orig-id: (alignment after m_KeepIndices)
    -confidence: sourced
    -evidence: the align flag on m_KeepIndices (five one-byte fields in 4.x) and on m_MeshCompression (one in 3.5 to 3.x) in the type tree dumps
    doc: Before 5.0, padding to a 4-byte boundary after the one-byte fields, kept verbatim.
  - id: index_format
    type: s4
    enum: index_format
    if: unity_version >= 20170300
    -orig-id: m_IndexFormat
    -confidence: observed
    -evidence: 0 in every corpus mesh; present from 2017.3 (type trees; a public reader reports 2017.3.0 files of compressed meshes written without it)
    doc: The size of an index, 0 for 16-bit and 1 for 32-bit; before 2017.3 indices are 16-bit.
  - id: index_buffer
    type: 'index_buffer(unity_version < 30500 ? (use_16bit_indices == 0 ? 4 : 2) : unity_version < 20170300 ? 2 : index_format.to_i == 0 ? 2 : index_format.to_i == 1 ? 4 : 0)'
    -orig-id: m_IndexBuffer
    -confidence: observed
    -evidence: every corpus mesh; lengths match Unity's dumps
    doc: |
      The indices of all submeshes, little endian, as the GPU takes them: 2 bytes each before
      2017.3 and for m_IndexFormat 0, 4 bytes for 1; before 3.5 as m_Use16BitIndices says.
  - id: num_vertices
    type: s4
    if: unity_version < 30500
    -orig-id: m_Vertices.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many positions follow (the vertex count).
  - id: vertices
    type: vector3f
    repeat: expr
    repeat-expr: num_vertices
    if: unity_version < 30500
    -orig-id: m_Vertices
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the positions, one per vertex (the vertex data of later versions).
  - id: skin
    type: bone_weights4_vector
    if: unity_version < 20180200
    -orig-id: m_Skin
    -confidence: observed
    -evidence: type tree dumps of 3.5 to 2018.1; the skinned 2018.1.6f1 Meshes of the shared real files
    doc: Before 2018.2, up to four influences per vertex, stored outside the vertex data.
  - id: num_bind_poses_after_skin
    type: s4
    if: unity_version < 40300
    -orig-id: m_BindPose.Array.size
    -confidence: sourced
    -evidence: type tree dumps of 3.5.0 to 4.2.2
    doc: Before 4.3, how many bind poses follow (here, after m_Skin).
  - id: bind_poses_after_skin
    type: matrix4x4f
    repeat: expr
    repeat-expr: num_bind_poses_after_skin
    if: unity_version < 40300
    -orig-id: m_BindPose
    -confidence: sourced
    -evidence: type tree dumps of 3.5.0 to 4.2.2
    doc: Before 4.3, the bind poses (as `bind_poses` from 4.3).
  - id: num_uv
    type: s4
    if: unity_version < 30500
    -orig-id: m_UV.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many first texture coordinates follow (none, or one per vertex).
  - id: uv
    type: vector2f
    repeat: expr
    repeat-expr: num_uv
    if: unity_version < 30500
    -orig-id: m_UV
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the first texture coordinates, one per vertex.
  - id: num_uv1
    type: s4
    if: unity_version < 30500
    -orig-id: m_UV1.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many second texture coordinates follow (none, or one per vertex).
  - id: uv1
    type: vector2f
    repeat: expr
    repeat-expr: num_uv1
    if: unity_version < 30500
    -orig-id: m_UV1
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the second texture coordinates, one per vertex.
  - id: num_tangents
    type: s4
    if: unity_version < 30500
    -orig-id: m_Tangents.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many tangents follow (none, or one per vertex).
  - id: tangents
    type: vector4f
    repeat: expr
    repeat-expr: num_tangents
    if: unity_version < 30500
    -orig-id: m_Tangents
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the tangents, w the sign of the bitangent.
  - id: num_normals
    type: s4
    if: unity_version < 30500
    -orig-id: m_Normals.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many normals follow (none, or one per vertex).
  - id: normals
    type: vector3f
    repeat: expr
    repeat-expr: num_normals
    if: unity_version < 30500
    -orig-id: m_Normals
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the normals, one per vertex.
  - id: vertex_data
    type: vertex_data(unity_version)
    if: unity_version >= 30500
    -orig-id: m_VertexData
    -confidence: observed
    doc: From 3.5, the vertex count, the channel table and (unless streamed) the vertex bytes.
  - id: compressed_mesh
    type: compressed_mesh(unity_version)
    -orig-id: m_CompressedMesh
    -confidence: observed
    -evidence: present in every object; every packed vector is empty in the corpus
    doc: The vertices and indices of a compressed mesh, as bit-packed vectors.
  - id: local_aabb
    type: aabb
    -orig-id: m_LocalAABB
    -confidence: observed
    doc: The box around all vertices, centre and half extent, in the mesh's space.
  - id: num_colors
    type: s4
    if: unity_version < 30500
    -orig-id: m_Colors.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many vertex colours follow (none, or one per vertex).
  - id: colors
    type: color_rgba32
    repeat: expr
    repeat-expr: num_colors
    if: unity_version < 30500
    -orig-id: m_Colors
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the vertex colours, one per vertex, 8 bits a component.
  - id: num_collision_triangles
    type: s4
    if: unity_version < 30500
    -orig-id: m_CollisionTriangles.Array.size
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, how many collision indices follow.
  - id: collision_triangles
    type: u4
    repeat: expr
    repeat-expr: num_collision_triangles
    if: unity_version < 30500
    -orig-id: m_CollisionTriangles
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order; for 3.0 to 3.2 AssetStudio (Mesh.cs) and UnityPy, which read 2.6 to 3.4 alike
    doc: Before 3.5, the collision indices, three a triangle (kept as read).
  - id: collision_vertex_count
    type: s4
    if: unity_version < 30500
    -orig-id: m_CollisionVertexCount
    -confidence: observed
    -evidence: the release type trees of the 3.3.0f4 and 3.4.2f3 Web Player files read (Mesh version 5, the same fields); AssetStudio (Mesh.cs, 3.4.2 and earlier) and UnityPy read the same order
    doc: Before 3.5, the vertex count of the collision mesh (kept as read).
  - id: mesh_usage_flags
    type: s4
    if: unity_version < 60000600
    -orig-id: m_MeshUsageFlags
    -confidence: observed
    -evidence: 0 in every corpus mesh; gone from 6000.6 (type trees, first at 6000.6.0a5)
    doc: Usage flags the build sets (meaning not established here); kept as read.
  - id: cooking_options
    type: s4
    if: unity_version >= 20220100
    -orig-id: m_CookingOptions
    -confidence: observed
    -evidence: 30 in every 2022.1 and 2023.1 corpus mesh (Unity's dumps); present from 2022.1 (type trees)
    doc: |
      Flags that Unity's naming ties to the physics cooking of a mesh collider built from this
      mesh (30 in the corpus); kept as read.
  - id: pre_bake_convex_collision_mesh
    type: u1
    if: unity_version >= 60000600
    -orig-id: m_PreBakeConvexCollisionMesh
    -confidence: sourced
    -evidence: type trees from 6000.6.0a5; no such file in the corpus
    doc: A bool (kept as the byte read), taking the place of m_MeshUsageFlags from 6000.6.
  - id: pre_bake_triangle_collision_mesh
    type: u1
    if: unity_version >= 60000600
    -orig-id: m_PreBakeTriangleCollisionMesh
    -confidence: sourced
    -evidence: type trees from 6000.6.0a5; no such file in the corpus
    doc: A bool (kept as the byte read).
  - id: pad_pre_bake
    size: 2
    if: unity_version >= 60000600
    -orig-id: (alignment after m_PreBakeTriangleCollisionMesh)
    -confidence: sourced
    -evidence: the type tree's align flag on m_PreBakeTriangleCollisionMesh
    doc: Padding to a 4-byte boundary after the two bools, kept verbatim.
  - id: baked_convex_collision_mesh
    type: aligned_bytes
    if: unity_version >= 50000
    -orig-id: m_BakedConvexCollisionMesh
    -confidence: observed
    -evidence: empty in every corpus mesh; present from 5.0 (type tree dumps)
    doc: A pre-cooked convex collision mesh for the physics engine (opaque bytes).
  - id: baked_triangle_collision_mesh
    type: aligned_bytes
    if: unity_version >= 50000
    -orig-id: m_BakedTriangleCollisionMesh
    -confidence: observed
    -evidence: empty in every corpus mesh; present from 5.0 (type tree dumps)
    doc: A pre-cooked triangle collision mesh for the physics engine (opaque bytes).
  - id: mesh_metrics_0
    type: f4
    if: unity_version >= 20180200
    -orig-id: m_MeshMetrics[0]
    -confidence: observed
    -evidence: 1 for the sword's parts in Unity's dumps; present from 2018.2 (type trees)
    doc: |
      The first of two floats the importer computes; their meaning is not established here, so
      they are kept as read. Unity's type tree lists the two as separate fields.
  - id: mesh_metrics_1
    type: f4
    if: unity_version >= 20180200
    -orig-id: m_MeshMetrics[1]
    -confidence: observed
    -evidence: 1 for the sword's parts in Unity's dumps; present from 2018.2 (type trees)
    doc: The second of the two floats; it ends on a 4-byte boundary, so no padding follows.
  - id: mesh_optimized
    type: u1
    if: unity_editor != 0 and unity_version >= 30500 and unity_version < 20190100
    -orig-id: m_MeshOptimized
    -confidence: observed
    -evidence: the last field of the editor type trees of the real files of 3.5.7 to 2018.2.14 (objects of an odd size), before m_StreamData in those of 2018.3.0b11 to 2018.4.18; the editor dumps of 3.5.0 to 2018.4 (the last field up to 2018.2), and in none of 3.0 to 3.4
    doc: |
      From 3.5 up to 2018.4, an editor's object only: a bool (kept as the byte read), whether the mesh
      was optimized on import. Up to 2018.2 it is the object's last byte, with no padding after
      it.
  - id: pad_mesh_optimized
    size: 3
    if: unity_editor != 0 and unity_version >= 20180300 and unity_version < 20190100
    -orig-id: (alignment after m_MeshOptimized)
    -confidence: observed
    -evidence: the align flag on m_MeshOptimized in the editor type trees of the real files of 2018.3.0b11 to 2018.4.18 and the editor dumps of 2018.3 and 2018.4
    doc: In 2018.3 and 2018.4, padding to a 4-byte boundary after m_MeshOptimized, kept verbatim.
  - id: mesh_optimization_flags
    type: s4
    if: unity_editor != 0 and unity_version >= 20190100
    -orig-id: m_MeshOptimizationFlags
    -confidence: observed
    -evidence: the editor type trees of the real files of 2019.2.6 and 2019.2.18 and the editor dumps from 2019.1.0a10 to 6000.7
    doc: From 2019.1, an editor's object only, in place of m_MeshOptimized; flags of the import's mesh optimization, kept as read.
  - id: stream_data
    type: streaming_info(unity_version)
    if: unity_version >= 20180300
    -orig-id: m_StreamData
    -confidence: observed
    -evidence: 19 corpus meshes stream their vertex data; offsets and sizes match Unity's dumps and the .vertexdata slices
    doc: |
      Where the vertex data is when it is not inline: a byte range of a resource file (.resS).
      Size 0 and an empty path mean the vertex data is inline.
  - id: mesh_lod_info
    type: mesh_lod_info
    if: unity_version >= 60000200
    -orig-id: m_MeshLodInfo
    -confidence: sourced
    -evidence: type trees from 6000.2.0a8; editor YAML of public projects; no such file in the corpus
    doc: The mesh's levels of detail, as index ranges per submesh.
types:
  aligned_string:
    doc: A Unity string - a byte count, UTF-8 bytes, padding to 4 bytes.
    -confidence: observed
    seq:
      - id: len_value
        type: s4
        -orig-id: Array.size
        -confidence: observed
        doc: The length in bytes.
      - id: value
        type: str
        size: len_value
        encoding: UTF-8
        -orig-id: Array.data
        -confidence: observed
        doc: The text.
      - id: pad
        size: (4 - len_value % 4) % 4
        -orig-id: (alignment)
        -confidence: observed
        -evidence: zeros in every corpus object
        doc: Padding to a 4-byte boundary, kept verbatim.
  index_buffer:
    doc: |
      m_IndexBuffer: a byte vector (a byte count, the bytes, padding to 4 bytes) whose bytes are
      the indices.
    -confidence: observed
    params:
      - id: index_size
        type: u1
        doc: The bytes of one index, 2 or 4; 0 for an m_IndexFormat the documents do not give.
    seq:
      - id: len_data
        type: s4
        -orig-id: Array.size
        -confidence: observed
        doc: The length in bytes.
      - id: indices
        type: index_run(index_size)
        size: len_data
        -orig-id: Array.data
        -confidence: observed
        doc: The indices.
      - id: pad
        size: (4 - len_data % 4) % 4
        -orig-id: (alignment)
        -confidence: observed
        -evidence: zeros in every corpus object
        doc: Padding to a 4-byte boundary, kept verbatim.
  index_run:
    doc: |
      The bytes of an index buffer as whole indices of the mesh's index size, and what is left
      after the last whole one.
    -confidence: observed
    params:
      - id: index_size
        type: u1
        doc: The bytes of one index, 2 or 4; 0 for an m_IndexFormat the documents do not give.
    seq:
      - id: u16_indices
        type: u2
        repeat: expr
        repeat-expr: _io.size / 2
        if: index_size == 2
        -orig-id: m_IndexBuffer (16-bit)
        -confidence: observed
        -evidence: all 35 corpus meshes
        doc: The indices, when they are 16-bit.
      - id: u32_indices
        type: u4
        repeat: expr
        repeat-expr: _io.size / 4
        if: index_size == 4
        -orig-id: m_IndexBuffer (32-bit)
        -confidence: sourced
        -evidence: Unity scripting reference (Rendering.IndexFormat.UInt32); seed 000 says indices are 16- or 32-bit (no corpus mesh has 32-bit ones)
        doc: The indices, when they are 32-bit.
      - id: rest
        size-eos: true
        valid:
          expr: index_size == 0 or _.size < index_size
        -orig-id: (after the last whole index)
        -confidence: unknown
        -severity: error
        -severity-reason: a structural necessity (the reading takes every whole index first, so a longer rest would read back as indices)
        doc: |
          The bytes after the last whole index: none in every corpus mesh (a buffer of whole
          indices, `index_buffer_whole_indices`), all of them for an index format the documents
          do not give. Kept verbatim.
  aligned_bytes:
    doc: A Unity byte vector - a byte count, the bytes, padding to 4 bytes.
    -confidence: observed
    seq:
      - id: len_data
        type: s4
        -orig-id: Array.size
        -confidence: observed
        doc: The length in bytes.
      - id: data
        size: len_data
        -orig-id: Array.data
        -confidence: observed
        doc: The bytes.
      - id: pad
        size: (4 - len_data % 4) % 4
        -orig-id: (alignment)
        -confidence: observed
        -evidence: zeros in every corpus object
        doc: Padding to a 4-byte boundary, kept verbatim.
  vector3f:
    doc: Three floats.
    -confidence: observed
    seq:
      - id: x
        type: f4
        -orig-id: x
        -confidence: observed
        doc: x.
      - id: y
        type: f4
        -orig-id: y
        -confidence: observed
        doc: y.
      - id: z
        type: f4
        -orig-id: z
        -confidence: observed
        doc: z.
  vector2f:
    doc: Two floats.
    -confidence: observed
    seq:
      - id: x
        type: f4
        -orig-id: x
        -confidence: observed
        doc: x.
      - id: y
        type: f4
        -orig-id: y
        -confidence: observed
        doc: y.
  vector4f:
    doc: Four floats.
    -confidence: observed
    seq:
      - id: x
        type: f4
        -orig-id: x
        -confidence: observed
        doc: x.
      - id: y
        type: f4
        -orig-id: y
        -confidence: observed
        doc: y.
      - id: z
        type: f4
        -orig-id: z
        -confidence: observed
        doc: z.
      - id: w
        type: f4
        -orig-id: w
        -confidence: observed
        doc: w.
  color_rgba32:
    doc: A colour of four 8-bit components (ColorRGBA, one 32-bit value in the type tree).
    -confidence: observed
    seq:
      - id: rgba
        type: u4
        -orig-id: rgba
        -confidence: observed
        -evidence: the 3.4.2f3 type tree (ColorRGBA version 2, one UInt32 rgba); AssetStudio reads its four bytes in the order r, g, b, a, each / 255
        doc: Red in the low byte (the first in the file), then green, blue and alpha.
  aabb:
    doc: An axis-aligned box as a centre and a half extent (AABB).
    -confidence: observed
    seq:
      - id: center
        type: vector3f
        -orig-id: m_Center
        -confidence: observed
        doc: The centre.
      - id: extent
        type: vector3f
        -orig-id: m_Extent
        -confidence: observed
        doc: Half the size along each axis.
  min_max_aabb:
    doc: An axis-aligned box as its two corners (MinMaxAABB).
    -confidence: observed
    seq:
      - id: min
        type: vector3f
        -orig-id: m_Min
        -confidence: observed
        doc: The smallest corner.
      - id: max
        type: vector3f
        -orig-id: m_Max
        -confidence: observed
        doc: The largest corner.
  min_max_aabb_vector:
    doc: A vector of MinMaxAABB.
    -confidence: observed
    seq:
      - id: num_items
        type: s4
        -orig-id: Array.size
        -confidence: observed
        doc: How many boxes follow.
      - id: items
        type: min_max_aabb
        repeat: expr
        repeat-expr: num_items
        -orig-id: Array.data
        -confidence: observed
        doc: The boxes.
  matrix4x4f:
    doc: A 4x4 float matrix, stored row-major (e00 e01 e02 e03 e10 ...) as seed 002 says of bind poses.
    -confidence: observed
    seq:
      - id: e
        type: f4
        repeat: expr
        repeat-expr: 16
        -orig-id: e00 .. e33
        -confidence: observed
        -evidence: seed 002 (bind poses are row-major); the type tree names them e00, e01, ... e33 in that order
        doc: The 16 elements, row by row.
  sub_mesh:
    doc: One submesh (SubMesh), 48 bytes from 2017.3, 44 from 4.0, 48 in 3.5 to 3.x.
    -confidence: observed
    params:
      - id: unity_version
        type: u4
        doc: The editor version (major x 10,000 + minor x 100 + patch).
    seq:
      - id: first_byte
        type: u4
        -orig-id: firstByte
        -confidence: observed
        -evidence: seed 000; Unity's dumps
        doc: Where the submesh's indices start, in bytes from the start of the index buffer.
      - id: index_count
        type: u4
        -orig-id: indexCount
        -confidence: observed
        doc: How many indices the submesh has (0 draws nothing).
      - id: topology
        type: s4
        enum: topology
        if: unity_version >= 40000
        -orig-id: topology
        -confidence: observed
        -evidence: seed 000's table; 0 in every corpus mesh; from 4.0 (type tree dumps)
        doc: |
          How the indices are joined. The documents list 0, 2, 3, 4 and 5 (see the topology enum);
          1 is a triangle strip by the public readers' reading, decoded with a note.
      - id: is_tri_strip
        type: u4
        if: unity_version < 40000
        -orig-id: isTriStrip
        -confidence: sourced
        -evidence: type tree dumps of 3.4.0 to 3.5.7; AssetStudio and UnityPy read it in place of topology
        doc: Before 4.0, non-zero when the indices are a triangle strip (else a triangle list).
      - id: triangle_count
        type: u4
        if: unity_version < 40000
        -orig-id: triangleCount
        -confidence: sourced
        -evidence: type tree dumps of 3.4.0 to 3.5.7
        doc: Before 4.0, the number of triangles the run draws (kept as read).
      - id: base_vertex
        type: u4
        if: unity_version >= 20170300
        -orig-id: baseVertex
        -confidence: observed
        -evidence: seed 000; 0 in every corpus mesh; present from 2017.3 (type trees)
        doc: Added to every index of the submesh before it names a vertex.
      - id: first_vertex
        type: u4
        -orig-id: firstVertex
        -confidence: observed
        doc: The first vertex the submesh uses.
      - id: vertex_count
        type: u4
        -orig-id: vertexCount
        -confidence: observed
        doc: How many vertices, from first_vertex, the submesh uses.
      - id: local_aabb
        type: aabb
        -orig-id: localAABB
        -confidence: observed
        doc: The box around the submesh's vertices.
  unaligned_string:
    doc: |
      A Unity string where it may start off a 4-byte boundary (inside a 4.1/4.2 blend shape) -
      a byte count, UTF-8 bytes, padding to the next multiple of 4 counted from the object's
      start.
    -confidence: sourced
    -evidence: the align flag on the string's Array node in the type tree dumps of 4.1.0 to 4.2.2
    seq:
      - id: len_value
        type: s4
        -orig-id: Array.size
        -confidence: sourced
        doc: The length in bytes.
      - id: value
        type: str
        size: len_value
        encoding: UTF-8
        -orig-id: Array.data
        -confidence: sourced
        doc: The text.
      - id: pad
        size: (4 - _io.pos % 4) % 4
        -orig-id: (alignment)
        -confidence: sourced
        -evidence: the Array node's align flag; Unity aligns the stream, not the string
        doc: Padding to a 4-byte boundary of the object, kept verbatim.
  legacy_blend_shape:
    doc: One blend shape of Unity 4.1 and 4.2 (MeshBlendShape with its name and bounds), one frame.
    -confidence: sourced
    -evidence: type tree dumps of 4.1.0 to 4.2.2; AssetStudio's MeshBlendShape before 4.3
    seq:
      - id: name
        type: unaligned_string
        -orig-id: name
        -confidence: sourced
        doc: The shape's name.
      - id: first_vertex
        type: u4
        -orig-id: firstVertex
        -confidence: sourced
        doc: The shape's first entry in `shape_vertices`.
      - id: vertex_count
        type: u4
        -orig-id: vertexCount
        -confidence: sourced
        doc: How many entries of `shape_vertices` the shape has.
      - id: aabb_min_delta
        type: vector3f
        -orig-id: aabbMinDelta
        -confidence: sourced
        doc: The smallest corner of the box around the position deltas (kept as read).
      - id: aabb_max_delta
        type: vector3f
        -orig-id: aabbMaxDelta
        -confidence: sourced
        doc: The largest corner of that box (kept as read).
      - id: has_normals
        type: u1
        -orig-id: hasNormals
        -confidence: sourced
        doc: A bool (kept as the byte read), whether the entries carry normal deltas.
      - id: has_tangents
        type: u1
        -orig-id: hasTangents
        -confidence: sourced
        doc: A bool (kept as the byte read); no padding follows inside the vector.
  blend_shape_data:
    doc: A mesh's blend shapes (BlendShapeData) in four flat arrays.
    -confidence: observed
    -evidence: seed 002 (Sledding Game)
    seq:
      - id: num_vertices
        type: s4
        -orig-id: vertices.Array.size
        -confidence: observed
        doc: How many shape vertices follow.
      - id: vertices
        type: blend_shape_vertex
        repeat: expr
        repeat-expr: num_vertices
        -orig-id: vertices
        -confidence: observed
        doc: The sparse deltas of every frame, frame after frame.
      - id: num_shapes
        type: s4
        -orig-id: shapes.Array.size
        -confidence: observed
        doc: How many frames follow.
      - id: shapes
        type: mesh_blend_shape
        repeat: expr
        repeat-expr: num_shapes
        -orig-id: shapes
        -confidence: observed
        doc: One entry per frame - its run of `vertices`.
      - id: num_channels
        type: s4
        -orig-id: channels.Array.size
        -confidence: observed
        doc: How many channels follow.
      - id: channels
        type: mesh_blend_shape_channel
        repeat: expr
        repeat-expr: num_channels
        -orig-id: channels
        -confidence: observed
        doc: The named blend shapes, each a run of frames.
      - id: num_full_weights
        type: s4
        -orig-id: fullWeights.Array.size
        -confidence: observed
        doc: How many frame weights follow.
      - id: full_weights
        type: f4
        repeat: expr
        repeat-expr: num_full_weights
        -orig-id: fullWeights
        -confidence: observed
        -evidence: seed 002 (0 to 100 for a full shape)
        doc: Per frame, the weight at which the frame applies fully.
  blend_shape_vertex:
    doc: One sparse blend shape delta (BlendShapeVertex), 40 bytes.
    -confidence: observed
    seq:
      - id: vertex
        type: vector3f
        -orig-id: vertex
        -confidence: observed
        doc: The position delta.
      - id: normal
        type: vector3f
        -orig-id: normal
        -confidence: observed
        doc: The normal delta.
      - id: tangent
        type: vector3f
        -orig-id: tangent
        -confidence: observed
        doc: The tangent delta (xyz).
      - id: index
        type: u4
        -orig-id: index
        -confidence: observed
        doc: The mesh vertex the delta applies to.
  mesh_blend_shape:
    doc: One blend shape frame (MeshBlendShape), 12 bytes with its padding.
    -confidence: observed
    seq:
      - id: first_vertex
        type: u4
        -orig-id: firstVertex
        -confidence: observed
        doc: The frame's first entry in `vertices`.
      - id: vertex_count
        type: u4
        -orig-id: vertexCount
        -confidence: observed
        doc: How many entries of `vertices` the frame has.
      - id: has_normals
        type: u1
        -orig-id: hasNormals
        -confidence: observed
        doc: A bool (kept as the byte read), whether the entries carry normal deltas.
      - id: has_tangents
        type: u1
        -orig-id: hasTangents
        -confidence: observed
        doc: A bool (kept as the byte read), whether the entries carry tangent deltas.
      - id: pad
        size: 2
        -orig-id: (alignment after hasTangents)
        -confidence: sourced
        -evidence: the type tree's align flag on hasTangents; no corpus mesh has blend shapes
        doc: Padding to a 4-byte boundary, kept verbatim.
  mesh_blend_shape_channel:
    doc: One named blend shape (MeshBlendShapeChannel).
    -confidence: observed
    seq:
      - id: name
        type: aligned_string
        -orig-id: name
        -confidence: observed
        doc: The blend shape's name.
      - id: name_hash
        type: u4
        -orig-id: nameHash
        -confidence: observed
        -evidence: seed 002 (the CRC-32 of the name, which animation curves use)
        doc: The CRC-32 of the name.
      - id: frame_index
        type: s4
        -orig-id: frameIndex
        -confidence: observed
        doc: The channel's first frame in `shapes` and `full_weights`.
      - id: frame_count
        type: s4
        -orig-id: frameCount
        -confidence: observed
        doc: How many frames the channel has.
  variable_bone_count_weights:
    doc: Every influence of every vertex (VariableBoneCountWeights).
    -confidence: observed
    -evidence: seed 002 (Sledding Game's toad)
    seq:
      - id: num_data
        type: s4
        -orig-id: m_Data.Array.size
        -confidence: observed
        doc: How many words follow.
      - id: data
        type: u4
        repeat: expr
        repeat-expr: num_data
        -orig-id: m_Data
        -confidence: observed
        -evidence: seed 002
        doc: |
          For nv vertices, nv + 1 start offsets (word indices into this list), then per influence a
          bone index in the low 16 bits and a weight (value / 65535) in the high 16 bits.
  bone_weights4:
    doc: Up to four influences of one vertex (BoneWeights4; BoneInfluence before 2017.1), 32 bytes.
    -confidence: observed
    -evidence: type tree dumps of 3.4 to 2018.1 (weight[0] .. weight[3], boneIndex[0] .. boneIndex[3]); the skinned 2018.1.6f1 Meshes of the shared real files
    seq:
      - id: weight_0
        type: f4
        -orig-id: weight[0]
        -confidence: observed
        doc: Influence 0's weight.
      - id: weight_1
        type: f4
        -orig-id: weight[1]
        -confidence: observed
        doc: Influence 1's weight.
      - id: weight_2
        type: f4
        -orig-id: weight[2]
        -confidence: observed
        doc: Influence 2's weight.
      - id: weight_3
        type: f4
        -orig-id: weight[3]
        -confidence: observed
        doc: Influence 3's weight.
      - id: bone_index_0
        type: s4
        -orig-id: boneIndex[0]
        -confidence: observed
        doc: Influence 0's bone slot (an index into the bind poses and the renderer's bones).
      - id: bone_index_1
        type: s4
        -orig-id: boneIndex[1]
        -confidence: observed
        doc: Influence 1's bone slot (an index into the bind poses and the renderer's bones).
      - id: bone_index_2
        type: s4
        -orig-id: boneIndex[2]
        -confidence: observed
        doc: Influence 2's bone slot (an index into the bind poses and the renderer's bones).
      - id: bone_index_3
        type: s4
        -orig-id: boneIndex[3]
        -confidence: observed
        doc: Influence 3's bone slot (an index into the bind poses and the renderer's bones).
  bone_weights4_vector:
    doc: A vector of BoneWeights4 (m_Skin, before 2018.2).
    -confidence: sourced
    seq:
      - id: num_items
        type: s4
        -orig-id: Array.size
        -confidence: sourced
        doc: How many vertices' influences follow.
      - id: items
        type: bone_weights4
        repeat: expr
        repeat-expr: num_items
        -orig-id: Array.data
        -confidence: sourced
        doc: One entry per vertex.
  channel_info:
    doc: One entry of the channel table (ChannelInfo), 4 bytes.
    -confidence: observed
    -evidence: seed 000; 14 entries in every corpus mesh, matching Unity's dumps
    seq:
      - id: stream
        type: u1
        -orig-id: stream
        -confidence: observed
        doc: The stream the channel lives in.
      - id: offset
        type: u1
        -orig-id: offset
        -confidence: observed
        doc: The channel's byte offset inside one vertex of its stream.
      - id: format
        type: u1
        enum: vertex_format
        -orig-id: format
        -confidence: observed
        -evidence: seed 000's table (the numbering from 2019.1; earlier editors number formats differently)
        doc: The component format.
      - id: dimension
        type: u1
        -orig-id: dimension
        -confidence: observed
        -evidence: 0x34 for the sword's Float16 normals (corpus, Unity's dumps)
        doc: |
          The component count in the low 4 bits (0 = channel absent); Unity sets high bits too,
          which are kept.
  channel_info_2017:
    doc: One entry of the channel table from 2017.1 to 2018.4 (ChannelInfo), 4 bytes.
    -confidence: observed
    -evidence: the 2017.1 to 2018.4 Meshes of the shared real files
    seq:
      - id: stream
        type: u1
        -orig-id: stream
        -confidence: observed
        doc: The stream the channel lives in.
      - id: offset
        type: u1
        -orig-id: offset
        -confidence: observed
        doc: The channel's byte offset inside one vertex of its stream.
      - id: format
        type: u1
        enum: vertex_format_2017
        -orig-id: format
        -confidence: sourced
        -evidence: the 2017 numbering (see the enum)
        doc: The component format, numbered as from 2017.1 to 2018.4.
      - id: dimension
        type: u1
        -orig-id: dimension
        -confidence: observed
        doc: The component count in the low 4 bits (0 = channel absent).
  channel_info_legacy:
    doc: One entry of the channel table from 4.0 to 5.6 (ChannelInfo), 4 bytes.
    -confidence: observed
    -evidence: the 4.1.2 and 5.6 Meshes of the shared real files
    seq:
      - id: stream
        type: u1
        -orig-id: stream
        -confidence: observed
        doc: The stream the channel lives in.
      - id: offset
        type: u1
        -orig-id: offset
        -confidence: observed
        doc: The channel's byte offset inside one vertex of its stream.
      - id: format
        type: u1
        enum: channel_format_legacy
        -orig-id: format
        -confidence: sourced
        -evidence: the numbering before 2017.1 (see the enum)
        doc: The component format, numbered as before 2017.1.
      - id: dimension
        type: u1
        -orig-id: dimension
        -confidence: observed
        doc: The component count in the low 4 bits (0 = channel absent).
  stream_info:
    doc: One stored stream of 4.x (StreamInfo), 12 bytes.
    -confidence: sourced
    -evidence: type tree dumps of 4.0.0 to 4.7.2
    seq:
      - id: channel_mask
        type: u4
        -orig-id: channelMask
        -confidence: sourced
        doc: One bit per entry of the channel table the stream holds.
      - id: offset
        type: u4
        -orig-id: offset
        -confidence: sourced
        doc: Where the stream's first vertex starts in the vertex data.
      - id: stride
        type: u1
        -orig-id: stride
        -confidence: sourced
        doc: Bytes per vertex of the stream.
      - id: divider_op
        type: u1
        -orig-id: dividerOp
        -confidence: sourced
        doc: Kept as read (meaning not established here).
      - id: frequency
        type: u2
        -orig-id: frequency
        -confidence: sourced
        doc: Kept as read (meaning not established here).
  stream_info_fixed:
    doc: One of the four stored streams of 3.5 to 3.x (StreamInfo), 16 bytes.
    -confidence: sourced
    -evidence: type tree dumps of 3.5.0 to 3.5.7
    seq:
      - id: channel_mask
        type: u4
        -orig-id: channelMask
        -confidence: sourced
        doc: One bit per shader channel (`shader_channel_4`) the stream holds.
      - id: offset
        type: u4
        -orig-id: offset
        -confidence: sourced
        doc: Where the stream's first vertex starts in the vertex data.
      - id: stride
        type: u4
        -orig-id: stride
        -confidence: sourced
        doc: Bytes per vertex of the stream.
      - id: align
        type: u4
        -orig-id: align
        -confidence: sourced
        doc: Kept as read (meaning not established here).
  vertex_data:
    doc: The vertex count, the channel table and the vertex bytes (VertexData).
    -confidence: observed
    params:
      - id: unity_version
        type: u4
        doc: The editor version (major x 10,000 + minor x 100 + patch).
    seq:
      - id: current_channels
        type: s4
        if: unity_version < 20180100
        -orig-id: m_CurrentChannels
        -confidence: observed
        -evidence: type tree dumps of 3.5 to 2017.4; the 4.1.2 to 2017.4 Meshes of the shared real files
        doc: Before 2018.1, a bit mask of the channels present.
      - id: vertex_count
        type: u4
        -orig-id: m_VertexCount
        -confidence: observed
        -evidence: every corpus mesh; matches Unity's dumps and UnityPy
        doc: The number of vertices.
      - id: streams_fixed
        type: stream_info_fixed
        repeat: expr
        repeat-expr: 4
        if: unity_version < 40000
        -orig-id: m_Streams[0] .. m_Streams[3]
        -confidence: sourced
        -evidence: type tree dumps of 3.5.0 to 3.5.7 (four StreamInfo of 16 bytes, no m_Channels)
        doc: In 3.5 to 3.x, the four streams; their channel masks imply the channels.
      - id: num_channels
        type: s4
        if: unity_version >= 40000
        -orig-id: m_Channels.Array.size
        -confidence: observed
        doc: How many channel entries follow (6 in 4.x, 8 from 5.0, 12 in 2018.1, 14 from 2018.2 in the real files).
      - id: channels
        type: channel_info
        repeat: expr
        repeat-expr: num_channels
        if: unity_version >= 20190100
        -orig-id: m_Channels
        -confidence: sourced
        -evidence: seed 000, Unity scripting reference (Vertex, Normal, Tangent, Color, TexCoord0 to 7, BlendWeight, BlendIndices); 14 in every corpus mesh
        doc: From 2019.1, the channels in the order of `shader_channel`, up to 14.
      - id: channels_2017
        type: channel_info_2017
        repeat: expr
        repeat-expr: num_channels
        if: unity_version >= 20170100 and unity_version < 20190100
        -orig-id: m_Channels
        -confidence: observed
        -evidence: the 2017.1 to 2018.4 Meshes of the shared real files; the order from UnityPy 1.25.4 and AssetStudio
        doc: |
          From 2017.1 to 2018.4, the channels with the 2017 format numbering: in the order of
          `shader_channel_5` before 2018.1, of `shader_channel` from 2018.1.
      - id: channels_legacy
        type: channel_info_legacy
        repeat: expr
        repeat-expr: num_channels
        if: unity_version >= 40000 and unity_version < 20170100
        -orig-id: m_Channels
        -confidence: observed
        -evidence: the 4.1.2 to 5.6 Meshes of the shared real files; the order from UnityPy 1.25.4 and AssetStudio
        doc: |
          From 4.0 to 5.6, the channels with the format numbering before 2017.1: in the order of
          `shader_channel_4` in 4.x, of `shader_channel_5` from 5.0.
      - id: num_streams
        type: s4
        if: unity_version >= 40000 and unity_version < 50000
        -orig-id: m_Streams.Array.size
        -confidence: sourced
        -evidence: type tree dumps of 4.0.0 to 4.7.2
        doc: In 4.x, how many streams follow.
      - id: streams
        type: stream_info
        repeat: expr
        repeat-expr: num_streams
        if: unity_version >= 40000 and unity_version < 50000
        -orig-id: m_Streams
        -confidence: sourced
        -evidence: type tree dumps of 4.0.0 to 4.7.2; the 4.1.2 Meshes of the shared real files
        doc: In 4.x, where each stream lies in the vertex data (from 5.0 they are computed).
      - id: data
        type: aligned_bytes
        -orig-id: m_DataSize
        -confidence: observed
        -evidence: empty for the 19 streamed corpus meshes; the whole layout for the others
        doc: The vertex bytes, streams one after another (empty when streamed).
  packed_float_vector:
    doc: A PackedBitVector of quantised floats - n items of `bit_size` bits, each start + item x range / (2^bits - 1).
    -confidence: sourced
    -evidence: seed 000 (Sourced · UnityPy; Sledding Game's 74 compressed meshes agree to the quantisation)
    seq:
      - id: num_items
        type: u4
        -orig-id: m_NumItems
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: How many items are packed.
      - id: range
        type: f4
        -orig-id: m_Range
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: The span from the first to the last quantisation step.
      - id: start
        type: f4
        -orig-id: m_Start
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: The value of item 0.
      - id: data
        type: aligned_bytes
        -orig-id: m_Data
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: The packed bits, little-endian bit order, items crossing byte boundaries.
      - id: bit_size
        type: u1
        -orig-id: m_BitSize
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: Bits per item.
      - id: pad
        size: 3
        -orig-id: (alignment after m_BitSize)
        -confidence: observed
        -evidence: the type tree's align flag; zeros in every corpus object
        doc: Padding to a 4-byte boundary, kept verbatim.
  packed_int_vector:
    doc: A PackedBitVector of integers - n items of `bit_size` bits.
    -confidence: sourced
    -evidence: seed 000 (Sourced · UnityPy)
    seq:
      - id: num_items
        type: u4
        -orig-id: m_NumItems
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: How many items are packed.
      - id: data
        type: aligned_bytes
        -orig-id: m_Data
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: The packed bits, little-endian bit order.
      - id: bit_size
        type: u1
        -orig-id: m_BitSize
        -confidence: sourced
        -evidence: seed 000 (Sourced · UnityPy)
        doc: Bits per item.
      - id: pad
        size: 3
        -orig-id: (alignment after m_BitSize)
        -confidence: observed
        -evidence: the type tree's align flag; zeros in every corpus object
        doc: Padding to a 4-byte boundary, kept verbatim.
  compressed_mesh:
    doc: A compressed mesh's vertices and indices (CompressedMesh).
    -confidence: observed
    -evidence: seed 000
    params:
      - id: unity_version
        type: u4
        doc: The editor version (major x 10,000 + minor x 100 + patch).
    seq:
      - id: vertices
        type: packed_float_vector
        -orig-id: m_Vertices
        -confidence: observed
        doc: Positions, 3 items per vertex.
      - id: uv
        type: packed_float_vector
        -orig-id: m_UV
        -confidence: observed
        doc: The texture coordinate sets m_UVInfo describes, concatenated.
      - id: bind_poses
        type: packed_float_vector
        if: unity_version < 50000
        -orig-id: m_BindPoses
        -confidence: sourced
        -evidence: type tree dumps of 3.5 to 4.7.2; AssetStudio and UnityPy unpack 16 items per bind pose
        doc: Before 5.0, the bind poses of a compressed mesh, 16 items per matrix.
      - id: normals
        type: packed_float_vector
        -orig-id: m_Normals
        -confidence: observed
        doc: Normal x and y, 2 items per vertex (z rebuilt from the sign).
      - id: tangents
        type: packed_float_vector
        -orig-id: m_Tangents
        -confidence: observed
        doc: Tangent x and y, 2 items per vertex.
      - id: weights
        type: packed_int_vector
        -orig-id: m_Weights
        -confidence: observed
        -evidence: empty in all 33 compressed meshes of four installs (seed 000)
        doc: |
          Bone weights, kept as packed bits. The readers the documents used do not decode them,
          and whether they decode as the other packed vectors do is open: none of the 33
          compressed meshes found is skinned. meshspec decodes them by an inferred reading
          (5-bit weights in 31sts, one bone slot each, a vertex ending at 31 or after three
          with a fourth implied) and says so in a note whenever a mesh has any.
      - id: normal_signs
        type: packed_int_vector
        -orig-id: m_NormalSigns
        -confidence: observed
        doc: One bit per normal, the sign of z.
      - id: tangent_signs
        type: packed_int_vector
        -orig-id: m_TangentSigns
        -confidence: observed
        doc: Two bits per tangent, the signs of z and w.
      - id: float_colors
        type: packed_float_vector
        if: unity_version >= 50000
        -orig-id: m_FloatColors
        -confidence: observed
        doc: Colours, 4 items per vertex.
      - id: bone_indices
        type: packed_int_vector
        -orig-id: m_BoneIndices
        -confidence: observed
        -evidence: empty in all 33 compressed meshes of four installs (seed 000)
        doc: Bone indices for m_Weights.
      - id: triangles
        type: packed_int_vector
        -orig-id: m_Triangles
        -confidence: observed
        doc: The indices of a compressed mesh.
      - id: colors
        type: packed_int_vector
        if: unity_version >= 30500 and unity_version < 50000
        -orig-id: m_Colors
        -confidence: sourced
        -evidence: type tree dumps of 3.5 to 4.7.2; UnityPy unpacks one 32-bit RGBA colour per item, red in the high byte
        doc: Before 5.0, the colours of a compressed mesh, one 32-bit item per vertex.
      - id: uv_info
        type: u4
        if: unity_version >= 50000
        -orig-id: m_UVInfo
        -confidence: observed
        doc: |
          A nibble per texture coordinate set: bit 2 set means present, the low two bits are the
          dimension minus 1.
  streaming_info:
    doc: A byte range of a resource file (StreamingInfo).
    -confidence: observed
    params:
      - id: unity_version
        type: u4
        doc: The editor version (major x 10,000 + minor x 100 + patch).
    seq:
      - id: ofs_data_u4
        type: u4
        if: unity_version < 20200100
        -orig-id: offset
        -confidence: observed
        -evidence: 2019.4 corpus meshes (4 bytes shorter than 2020.3's); unsigned int in the type trees before 2020.1
        doc: The range's start in the resource file, before 2020.1.
      - id: ofs_data_u8
        type: u8
        if: unity_version >= 20200100
        -orig-id: offset
        -confidence: observed
        -evidence: 2020.3 to 2023.1 corpus meshes; UInt64 in Unity's dumps and the type trees from 2020.1
        doc: The range's start in the resource file, from 2020.1.
      - id: len_data
        type: u4
        -orig-id: size
        -confidence: observed
        doc: The range's length in bytes (0 when nothing is streamed).
      - id: path
        type: aligned_string
        -orig-id: path
        -confidence: observed
        -evidence: archive:/CAB-.../CAB-....resS in every streamed corpus mesh
        doc: The resource file; in a bundle, an archive:/ path whose last part is the file's name.
  mesh_lod_info:
    doc: The mesh's levels of detail (MeshLodInfo), from 6000.2.
    -confidence: sourced
    -evidence: type trees from 6000.2.0a8; editor YAML of public projects
    seq:
      - id: lod_slope
        type: f4
        -orig-id: m_LodSelectionCurve.m_LodSlope
        -confidence: sourced
        doc: The slope of the level selection curve.
      - id: lod_bias
        type: f4
        -orig-id: m_LodSelectionCurve.m_LodBias
        -confidence: sourced
        doc: The bias of the level selection curve.
      - id: num_levels
        type: s4
        -orig-id: m_NumLevels
        -confidence: sourced
        doc: The number of levels (1 for a mesh without levels of detail).
      - id: num_sub_meshes
        type: s4
        -orig-id: m_SubMeshes.Array.size
        -confidence: sourced
        doc: How many submesh entries follow.
      - id: sub_meshes
        type: mesh_lod_sub_mesh
        repeat: expr
        repeat-expr: num_sub_meshes
        -orig-id: m_SubMeshes
        -confidence: sourced
        doc: Per submesh, its index range at each level.
  mesh_lod_sub_mesh:
    doc: One submesh's levels (MeshLodSubMesh).
    -confidence: sourced
    seq:
      - id: num_levels
        type: s4
        -orig-id: m_Levels.Array.size
        -confidence: sourced
        doc: How many levels follow.
      - id: levels
        type: mesh_lod_range
        repeat: expr
        repeat-expr: num_levels
        -orig-id: m_Levels
        -confidence: sourced
        doc: The index range of each level.
  mesh_lod_range:
    doc: One level's index range (MeshLodRange).
    -confidence: sourced
    seq:
      - id: index_start
        type: u4
        -orig-id: m_IndexStart
        -confidence: sourced
        doc: The first index, counted in indices.
      - id: index_count
        type: u4
        -orig-id: m_IndexCount
        -confidence: sourced
        doc: How many indices.
  pptr:
    doc: |
      A reference to an object (PPtr): the file it is in (0 this file, i the i-th entry of the
      serialized file's externals) and its path id there, 32-bit before 5.0.
    -confidence: observed
    params:
      - id: unity_version
        type: u4
        doc: The editor version (major x 10,000 + minor x 100 + patch).
    seq:
      - id: file_id
        type: s4
        -orig-id: m_FileID
        -confidence: observed
        -evidence: the PPtr fields of the editor type trees of the real files (3.5.7 to 2019.2.18)
        doc: The file the object is in (0 this one).
      - id: path_id_32
        type: s4
        if: unity_version < 50000
        -orig-id: m_PathID
        -confidence: observed
        -evidence: SInt32 m_PathID in the editor type trees of the real 3.5.7, 4.2.0 and 4.3.2 files; int in the editor dumps of 3.5 to 4.7
        doc: Before 5.0, the object's path id in that file, 32-bit.
      - id: path_id
        type: s8
        if: unity_version >= 50000
        -orig-id: m_PathID
        -confidence: observed
        -evidence: SInt64 m_PathID in the editor type trees of the real 5.2.0 to 2019.2.18 files and the editor dumps from 5.0
        doc: From 5.0, the object's path id in that file.
enums:
  topology:
    0:
      id: triangles
      -orig-id: Triangles
      -confidence: observed
    1:
      id: triangle_strip
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (MeshTopology.TriangleStrip, deprecated; MeshHelper.get_triangles) and AssetStudio (GfxPrimitiveType.TriangleStrip; Mesh.GetTriangles), which also read isTriStrip before 4.0 so; Unity's public MeshTopology has no 1
      doc: |
        Not in the documents' table, which lists 0, 2, 3, 4 and 5. The public readers decode it
        as a triangle strip - each index after the second makes a triangle with the two before
        it, every second one turned, those with a repeated index left out - and so does
        meshspec, with a note.
    2:
      id: quads
      -orig-id: Quads
      -confidence: observed
      doc: Four indices per quad.
    3:
      id: lines
      -orig-id: Lines
      -confidence: observed
    4:
      id: line_strip
      -orig-id: Line strip
      -confidence: observed
      doc: One segment per consecutive pair of indices.
    5:
      id: points
      -orig-id: Points
      -confidence: observed
  index_format:
    0:
      id: uint16
      -confidence: sourced
      -evidence: Unity scripting reference (Rendering.IndexFormat.UInt16); seed 000 says indices are 16- or 32-bit; 0 in every corpus mesh
      doc: 16-bit indices.
    1:
      id: uint32
      -confidence: sourced
      -evidence: Unity scripting reference (Rendering.IndexFormat.UInt32); seed 000 says indices are 16- or 32-bit
      doc: 32-bit indices.
  mesh_compression:
    0:
      id: off
      -confidence: sourced
      -evidence: Unity scripting reference (ModelImporterMeshCompression); 0 in every corpus mesh
    1:
      id: low
      -confidence: sourced
      -evidence: Unity scripting reference (ModelImporterMeshCompression)
    2:
      id: medium
      -confidence: sourced
      -evidence: Unity scripting reference (ModelImporterMeshCompression)
    3:
      id: high
      -confidence: sourced
      -evidence: Unity scripting reference (ModelImporterMeshCompression)
  vertex_format:
    0:
      id: float
      -orig-id: Float
      -confidence: observed
      doc: 4 bytes per component.
    1:
      id: float16
      -orig-id: Float16
      -confidence: observed
      doc: 2 bytes per component.
    2:
      id: unorm8
      -orig-id: UNorm8
      -confidence: observed
      doc: 1 byte per component.
    3:
      id: snorm8
      -orig-id: SNorm8
      -confidence: sourced
      -evidence: Unity scripting reference
      doc: 1 byte per component.
    4:
      id: unorm16
      -orig-id: UNorm16
      -confidence: observed
      doc: 2 bytes per component.
    5:
      id: snorm16
      -orig-id: SNorm16
      -confidence: observed
      doc: 2 bytes per component.
    6:
      id: uint8
      -orig-id: UInt8
      -confidence: observed
      doc: 1 byte per component.
    7:
      id: sint8
      -orig-id: SInt8
      -confidence: sourced
      -evidence: Unity scripting reference
      doc: 1 byte per component.
    8:
      id: uint16
      -orig-id: UInt16
      -confidence: observed
      doc: 2 bytes per component.
    9:
      id: sint16
      -orig-id: SInt16
      -confidence: sourced
      -evidence: Unity scripting reference
      doc: 2 bytes per component.
    10:
      id: uint32
      -orig-id: UInt32
      -confidence: observed
      doc: 4 bytes per component.
    11:
      id: sint32
      -orig-id: SInt32
      -confidence: sourced
      -evidence: Unity scripting reference
      doc: 4 bytes per component.
  vertex_format_2017:
    0:
      id: float
      -orig-id: kVertexFormatFloat
      -confidence: observed
      -evidence: UnityPy 1.25.4 (enums/VertexFormat.py, VertexFormat2017) and AssetStudio (MeshHelper.VertexFormat2017); positions and normals of every 2017.1 to 2018.4 Mesh of the shared real files
      doc: 4 bytes per component.
    1:
      id: float16
      -orig-id: kVertexFormatFloat16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 2 bytes per component.
    2:
      id: color
      -orig-id: kVertexFormatColor
      -confidence: inferred
      -evidence: UnityPy 1.25.4 and AssetStudio decode it as unsigned normalised bytes, four per colour channel
      -reading: |
        The readers decode it as UNorm8 and, in the colour channel before 2018.1, as four
        components whatever the stored dimension (1 or 4): a colour is four bytes, red, green,
        blue, alpha, each value / 255. Stream strides count those four bytes.
      doc: Unsigned normalised bytes (x / 255); a colour channel's RGBA in four bytes.
    3:
      id: unorm8
      -orig-id: kVertexFormatUNorm8
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 1 byte per component (x / 255).
    4:
      id: snorm8
      -orig-id: kVertexFormatSNorm8
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 1 byte per component (max(x / 127, -1)).
    5:
      id: unorm16
      -orig-id: kVertexFormatUNorm16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 2 bytes per component (x / 65535).
    6:
      id: snorm16
      -orig-id: kVertexFormatSNorm16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 2 bytes per component (max(x / 32767, -1)).
    7:
      id: uint8
      -orig-id: kVertexFormatUInt8
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 1 byte per component.
    8:
      id: sint8
      -orig-id: kVertexFormatSInt8
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 1 byte per component.
    9:
      id: uint16
      -orig-id: kVertexFormatUInt16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 2 bytes per component.
    10:
      id: sint16
      -orig-id: kVertexFormatSInt16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 2 bytes per component.
    11:
      id: uint32
      -orig-id: kVertexFormatUInt32
      -confidence: observed
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017); the BlendIndices of the skinned 2018.4.4f1 Meshes of the shared real files
      doc: 4 bytes per component.
    12:
      id: sint32
      -orig-id: kVertexFormatSInt32
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexFormat2017), AssetStudio (MeshHelper.VertexFormat2017)
      doc: 4 bytes per component.
  channel_format_legacy:
    0:
      id: float
      -orig-id: kChannelFormatFloat
      -confidence: observed
      -evidence: UnityPy 1.25.4 (enums/VertexFormat.py, VertexChannelFormat) and AssetStudio (MeshHelper.VertexChannelFormat); positions and normals of every 4.1.2 to 5.6 Mesh of the shared real files
      doc: 4 bytes per component.
    1:
      id: float16
      -orig-id: kChannelFormatFloat16
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexChannelFormat), AssetStudio (MeshHelper.VertexChannelFormat)
      doc: 2 bytes per component.
    2:
      id: color
      -orig-id: kChannelFormatColor
      -confidence: inferred
      -evidence: UnityPy 1.25.4 and AssetStudio decode it as unsigned normalised bytes, four per colour channel (AssetStudio - in 4.x a component of 4 bytes)
      -reading: |
        The readers decode it as UNorm8 and, in the colour channel, as four components
        whatever the stored dimension (1 in 4.x, where a component is the whole 4-byte
        colour): a colour is four bytes, red, green, blue, alpha, each value / 255. Stream
        strides count those four bytes.
      doc: Unsigned normalised bytes (x / 255); a colour channel's RGBA in four bytes.
    3:
      id: byte
      -orig-id: kChannelFormatByte
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexChannelFormat, struct type B), AssetStudio (mapped to UInt8)
      doc: 1 byte per component, an unsigned integer.
    4:
      id: uint32
      -orig-id: kChannelFormatUInt32
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (VertexChannelFormat), AssetStudio (MeshHelper.VertexChannelFormat, "in 5.x")
      doc: 4 bytes per component.
  shader_channel:
    0:
      id: vertex
      -orig-id: Vertex
      -confidence: sourced
      -evidence: seed 000; Unity scripting reference (Rendering.VertexAttribute); UnityPy 1.25.4 and AssetStudio from 2018.1
    1:
      id: normal
      -orig-id: Normal
      -confidence: sourced
    2:
      id: tangent
      -orig-id: Tangent
      -confidence: sourced
    3:
      id: color
      -orig-id: Color
      -confidence: sourced
    4:
      id: tex_coord0
      -orig-id: TexCoord0
      -confidence: sourced
    5:
      id: tex_coord1
      -orig-id: TexCoord1
      -confidence: sourced
    6:
      id: tex_coord2
      -orig-id: TexCoord2
      -confidence: sourced
    7:
      id: tex_coord3
      -orig-id: TexCoord3
      -confidence: sourced
    8:
      id: tex_coord4
      -orig-id: TexCoord4
      -confidence: sourced
    9:
      id: tex_coord5
      -orig-id: TexCoord5
      -confidence: sourced
    10:
      id: tex_coord6
      -orig-id: TexCoord6
      -confidence: sourced
    11:
      id: tex_coord7
      -orig-id: TexCoord7
      -confidence: sourced
    12:
      id: blend_weight
      -orig-id: BlendWeight
      -confidence: sourced
      -evidence: from 2018.2 (before, the skin is m_Skin and 2018.1's table has 12 entries)
    13:
      id: blend_indices
      -orig-id: BlendIndices
      -confidence: sourced
      -evidence: from 2018.2
  shader_channel_5:
    0:
      id: vertex
      -orig-id: kShaderChannelVertex
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (MeshHelper.assign_channel_vertex_data before 2018) and AssetStudio (Mesh.ReadVertexData before 2018), for 5.0 to 2017.4
    1:
      id: normal
      -orig-id: kShaderChannelNormal
      -confidence: sourced
    2:
      id: color
      -orig-id: kShaderChannelColor
      -confidence: sourced
    3:
      id: tex_coord0
      -orig-id: kShaderChannelTexCoord0
      -confidence: sourced
    4:
      id: tex_coord1
      -orig-id: kShaderChannelTexCoord1
      -confidence: sourced
    5:
      id: tex_coord2
      -orig-id: kShaderChannelTexCoord2
      -confidence: sourced
    6:
      id: tex_coord3
      -orig-id: kShaderChannelTexCoord3
      -confidence: sourced
    7:
      id: tangent
      -orig-id: kShaderChannelTangent
      -confidence: sourced
  shader_channel_4:
    0:
      id: vertex
      -orig-id: kShaderChannelVertex
      -confidence: sourced
      -evidence: UnityPy 1.25.4 (MeshHelper.get_channels and assign_channel_vertex_data before 5.0) and AssetStudio (VertexData.GetChannels, Mesh.ReadVertexData before 5.0), for 3.5 to 4.x
      doc: Implied format before 4.0 - Float x 3.
    1:
      id: normal
      -orig-id: kShaderChannelNormal
      -confidence: sourced
      doc: Implied format before 4.0 - Float x 3.
    2:
      id: color
      -orig-id: kShaderChannelColor
      -confidence: sourced
      doc: Implied format before 4.0 - Color (four bytes).
    3:
      id: tex_coord0
      -orig-id: kShaderChannelTexCoord0
      -confidence: sourced
      doc: Implied format before 4.0 - Float x 2.
    4:
      id: tex_coord1
      -orig-id: kShaderChannelTexCoord1
      -confidence: sourced
      doc: Implied format before 4.0 - Float x 2.
    5:
      id: tangent
      -orig-id: kShaderChannelTangent
      -confidence: sourced
      doc: Implied format before 4.0 - Float x 4.
