meta:
  id: unity_serialized
  title: Unity serialized file (format versions 5 to 22) - the objects of a scene, an .assets file or a bundle's CAB
  application: Unity 3.0 to 6000.x (players' level and .assets files, and the CAB files inside asset bundles); the test corpus is 2019.4 to 2023.1, and 3.4.2 real files were read
  file-extension: assets
  license: CC0-1.0
  endian: be
  -layout: unity-serialized
doc: |
  A SerializedFile: a header, the metadata (the editor version, the target platform, the types
  of the objects with their type trees, the table of objects, the scripts, the external files
  and the managed reference types), and the objects' bytes.

  The header is big endian. Its endianness byte chooses the byte order of the metadata (and of
  the objects): 0 little endian, as every player on today's platforms writes, 1 big endian. From
  format version 22 the sizes and the data offset are 64-bit, in a second part of the header,
  and the first part's sizes are zero. Before format 9 (Unity 3.4 and older) the header is
  16 bytes, the objects follow it, and the metadata is at the end of the file, its first byte
  the endianness (`old_data`, `old_endianness`, `old_metadata`).

  Each object is a byte range of the data (`byte_start` from the data offset, `byte_size`), read
  through its type's type tree when the file carries them, or by a fixed layout of the editor
  version (the `unity-mesh` layout for a Mesh). The object bytes are kept here as one block,
  and cut, checked and read by `formats/src/unity/files/serialized.rs` and `typetree.rs`.
doc-ref:
  - UnityPy 1.25.4, UnityPy/files/SerializedFile.py, UnityPy/files/ObjectReader.py, UnityPy/helpers/TypeTreeNode.py
  - AssetStudio, AssetStudio/SerializedFile.cs, SerializedFileFormatVersion.cs, TypeTree.cs
-confidence: observed
-evidence: the CAB files of the five corpus bundles (format 21 and 22) and the player's level0 (22), read and written back byte for byte
-relations:
  - id: len_metadata_is_metadata
    doc: The metadata ends exactly where the header's metadata size says (the reader refuses otherwise; stated for the table).
    -confidence: observed
    -evidence: every corpus file
  - id: objects_inside_data
    doc: |
      Every object's range (byte_start from the data offset, byte_size bytes) lies inside the
      data, and no two objects overlap.
    -confidence: observed
    -evidence: every object of the corpus files
  - id: len_file_is_file_size
    doc: The header's file size equals the size of the file (the serialized file's node, inside a bundle).
    -confidence: observed
    -evidence: every corpus file
  - id: type_tree_names_resolve
    doc: |
      Every type tree node's type and field names resolve - an offset with the top bit set names
      one of Unity's common strings (the enum common_string), any other offset starts a
      NUL-terminated name inside the tree's string buffer.
    -confidence: observed
    -evidence: every node of every corpus type tree
  - id: type_ids_name_types
    doc: |
      From format 16, every object's type_id is an index into the types; before, it is a class
      id that one of the types has.
    -confidence: sourced
    -evidence: UnityPy's ObjectReader; every object of the corpus files
seq:
  - id: header
    type: header
    -orig-id: SerializedFileHeader
    -confidence: observed
    -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
    doc: Sizes, the format version, the data offset and the byte order.
  - id: metadata
    type: metadata(header.version, header.endianness)
    size: 'header.version >= 22 ? header.wide.len_metadata : header.len_metadata'
    if: header.version >= 9
    -orig-id: (metadata)
    -confidence: observed
    -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
    doc: The types, objects, scripts, externals and reference types, in the byte order the header gives.
  - id: pad_data
    size: '(header.version >= 22 ? header.wide.ofs_data : header.ofs_data) - _io.pos'
    if: header.version >= 9
    -orig-id: (up to dataOffset)
    -confidence: observed
    -evidence: 3 bytes of zeros in the corpus (the data offset is a multiple of 16)
    doc: The bytes between the metadata and the data offset, kept verbatim.
  - id: data
    size-eos: true
    if: header.version >= 9
    -orig-id: (object data)
    -confidence: observed
    -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
    doc: |
      The objects, each at its byte_start from here (Unity pads between them to multiples of
      8), to the end of the file.
  - id: old_data
    size: header.len_file - header.len_metadata - _io.pos
    if: header.version < 9
    -orig-id: (object data)
    -confidence: observed
    -evidence: the Unity 3.3.0f3, 3.3.0f4 and 3.4.2f3 player files of public Web Player and standalone builds (format 8), objects from offset 16; UnityPy 1.25.4 and AssetStudio read the metadata at file size - metadata size
    doc: |
      Formats 5 to 8: the objects, from the end of the 16-byte header to where the metadata
      starts at the end of the file (the header's file size less its metadata size). Each
      object's byte_start counts from the header's data offset, which is 0 in these formats:
      from the file's start, the first object at 16.
  - id: old_endianness
    type: u1
    valid:
      any-of: [0, 1]
    if: header.version < 9
    -orig-id: m_Endianess
    -confidence: observed
    -evidence: 0 in the 3.3 and 3.4 player and editor files (format 8); UnityPy 1.25.4 and AssetStudio read it as the metadata's first byte before format 9
    doc: Formats 5 to 8, the byte order of the metadata and the objects (0 little endian, 1 big endian), the first byte of the metadata.
  - id: old_metadata
    type: metadata(header.version, old_endianness)
    size: header.len_metadata - 1
    if: header.version < 9
    -orig-id: (metadata)
    -confidence: observed
    -evidence: the 3.3 and 3.4 player files (no types, or nested type trees in Web Player files) and 3.4 editor files of format 8, read to their end; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
    doc: Formats 5 to 8, the metadata after its byte-order byte, to the end of the file.
types:
  header:
    doc: The header (big endian), 16 bytes before format 9, 20 from format 9, 48 from format 22.
    -confidence: observed
    seq:
      - id: len_metadata
        type: u4
        -orig-id: m_MetadataSize
        -confidence: observed
        -evidence: 0 in format 22 files, whose size is in `wide`
        doc: The metadata's size (before format 22).
      - id: len_file
        type: u4
        -orig-id: m_FileSize
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The file's size (before format 22).
      - id: version
        type: u4
        valid:
          min: 5
          max: 22
        -orig-id: m_Version
        -confidence: observed
        -evidence: 21 (2019.4) and 22 (2020.3 and later) in the corpus, 8 in 3.4.2f3 player and editor files; AssetStudio's SerializedFileFormatVersion names 5 (Unity 1.2) to 22 (2020.1), 8 for 3.0 to 3.4 and 9 for 3.5
        doc: The format version (5 to 22 here; before 9 the header ends here and the metadata is at the end of the file).
      - id: ofs_data
        type: u4
        -orig-id: m_DataOffset
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: Where the objects' data starts, from the start of the file (before format 22).
      - id: endianness
        type: u1
        valid:
          any-of: [0, 1]
        if: version >= 9
        -orig-id: m_Endianess
        -confidence: observed
        -evidence: 0 in every corpus file
        doc: The byte order of the metadata and the objects - 0 little endian, 1 big endian.
      - id: reserved
        size: 3
        if: version >= 9
        -orig-id: m_Reserved
        -confidence: observed
        -evidence: zeros in every corpus file
        doc: Reserved, kept verbatim.
      - id: wide
        type: header_wide
        if: version >= 22
        -orig-id: (format 22 header)
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: From format 22, the sizes and the data offset as 64-bit values.
  header_wide:
    doc: The second part of a format 22 header.
    -confidence: observed
    seq:
      - id: len_metadata
        type: u4
        -orig-id: m_MetadataSize
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The metadata's size.
      - id: len_file
        type: u8
        -orig-id: m_FileSize
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The file's size.
      - id: ofs_data
        type: u8
        -orig-id: m_DataOffset
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: Where the objects' data starts, from the start of the file.
      - id: unknown_0x28
        type: u8
        -orig-id: (unknown)
        -confidence: unknown
        -evidence: 0 in every corpus file; UnityPy reads it as unknown
        doc: Eight bytes whose meaning no source gives; kept as read.
  metadata:
    doc: The metadata, in the byte order the header's endianness gives.
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness (0 little, 1 big).
    seq:
      - id: unity_version
        type: strz
        encoding: UTF-8
        if: format_version >= 7
        -orig-id: m_UnityVersion
        -confidence: observed
        -evidence: the editor version in every corpus file (2019.4.0f1 ...)
        doc: The editor version that wrote the file; it chooses the fixed layouts of objects read without a type tree.
      - id: target_platform
        type: s4
        enum: build_target
        if: format_version >= 8
        -orig-id: m_TargetPlatform
        -confidence: observed
        -evidence: 19 (StandaloneWindows64) in the bundles, 2 in level0
        doc: The platform the file was built for (BuildTarget).
      - id: enable_type_tree
        type: u1
        if: format_version >= 13
        -orig-id: m_EnableTypeTree
        -confidence: observed
        -evidence: 1 in every corpus file
        doc: Whether the types carry their type trees (from format 13; always before).
      - id: num_types
        type: s4
        -orig-id: typeCount
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many types follow.
      - id: types
        type: 'serialized_type(format_version, big_endian, 0, format_version >= 13 ? enable_type_tree : 1)'
        repeat: expr
        repeat-expr: num_types
        -orig-id: m_Types
        -confidence: observed
        -evidence: 17 in each bundle's CAB, 10 in level0
        doc: The classes of the file's objects, each with its type tree when the file has them.
      - id: big_id_enabled
        type: s4
        if: format_version >= 7 and format_version < 14
        -orig-id: bigIDEnabled
        -confidence: sourced
        -evidence: UnityPy and AssetStudio (format 7 to 13); 0 in the 3.4.2f3 format 8 files read
        doc: Formats 7 to 13, whether path ids are 64-bit.
      - id: num_objects
        type: s4
        -orig-id: objectCount
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many objects follow.
      - id: objects
        type: 'object_info(format_version, big_endian, format_version >= 7 and format_version < 14 ? big_id_enabled : 0)'
        repeat: expr
        repeat-expr: num_objects
        -orig-id: m_Objects
        -confidence: observed
        -evidence: 138 objects in each bundle's CAB, 94 in level0; ids, classes and sizes match Unity's dumps and UnityPy
        doc: The objects - path id, byte range and type.
      - id: num_script_types
        type: s4
        if: format_version >= 11
        -orig-id: scriptCount
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many script references follow (from format 11).
      - id: script_types
        type: script_type(format_version, big_endian)
        repeat: expr
        repeat-expr: num_script_types
        if: format_version >= 11
        -orig-id: m_ScriptTypes
        -confidence: observed
        -evidence: 1 in each bundle's CAB
        doc: The MonoScripts the file's MonoBehaviours use (LocalSerializedObjectIdentifier).
      - id: num_externals
        type: s4
        -orig-id: externalsCount
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many external files follow.
      - id: externals
        type: external(format_version, big_endian)
        repeat: expr
        repeat-expr: num_externals
        -orig-id: m_Externals
        -confidence: observed
        -evidence: 3 in each bundle's CAB (unity default resources, unity_builtin_extra, another bundle's CAB); matching Unity's dumps
        doc: The other files that the objects' references (m_FileID 1, 2, ...) name.
      - id: num_ref_types
        type: s4
        if: format_version >= 20
        -orig-id: refTypeCount
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many managed reference types follow (from format 20).
      - id: ref_types
        type: 'serialized_type(format_version, big_endian, 1, format_version >= 13 ? enable_type_tree : 1)'
        repeat: expr
        repeat-expr: num_ref_types
        if: format_version >= 20
        -orig-id: m_RefTypes
        -confidence: observed
        -evidence: 2 in the 2020.3 and later bundles' CABs (Apple, Orange)
        doc: The classes of [SerializeReference] values, with their type trees.
      - id: user_information
        type: strz
        encoding: UTF-8
        -orig-id: userInformation
        -confidence: observed
        -evidence: empty in every corpus file
        doc: Free text, empty in the files seen.
  serialized_type:
    doc: One type of the file (SerializedType) - a class id, hashes, and its type tree.
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
      - id: is_ref_type
        type: u1
        doc: 1 for a managed reference type (m_RefTypes), 0 for an object type.
      - id: has_type_tree
        type: u1
        doc: Whether the file carries type trees.
    seq:
      - id: class_id
        type: s4
        enum: unity_class
        -orig-id: classID
        -confidence: observed
        -evidence: the class ids Unity's dumps print for every corpus object
        doc: The Unity class (43 Mesh, 1 GameObject, ...; -1 for a reference type).
      - id: is_stripped_type
        type: u1
        if: format_version >= 16
        -orig-id: m_IsStrippedType
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: A bool (kept as the byte read).
      - id: script_type_index
        type: s2
        if: format_version >= 17
        -orig-id: m_ScriptTypeIndex
        -confidence: observed
        -evidence: 0 for the MonoBehaviour type, -1 elsewhere
        doc: For a script's type, its index in script_types; -1 otherwise.
      - id: script_id
        size: 16
        if: 'format_version >= 13 and ((is_ref_type != 0 and (format_version >= 17 ? script_type_index : -1) >= 0) or (format_version < 16 and class_id.to_i < 0) or (format_version >= 16 and class_id == unity_class::mono_behaviour))'
        -orig-id: m_ScriptID
        -confidence: sourced
        -evidence: UnityPy's SerializedType; present for the corpus MonoBehaviour type and reference types
        doc: The hash of a script's type (Hash128), for MonoBehaviours and reference types.
      - id: old_type_hash
        size: 16
        if: format_version >= 13
        -orig-id: m_OldTypeHash
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: A hash of the type tree (Hash128); kept verbatim.
      - id: type_tree
        type: type_tree(format_version, big_endian)
        if: has_type_tree != 0 and (format_version >= 12 or format_version == 10)
        -orig-id: m_Type (blob)
        -confidence: observed
        -evidence: every corpus type
        doc: The type tree as a blob (node table and string buffer), formats 10 and 12 on.
      - id: old_type_tree
        type: old_type_tree_node(format_version, big_endian)
        if: has_type_tree != 0 and format_version < 12 and format_version != 10
        -orig-id: m_Type (recursive)
        -confidence: sourced
        -evidence: UnityPy's TypeTreeNode.parse, AssetStudio's TypeTreeBlobRead counterpart; no such file in the corpus
        doc: The type tree as nested nodes, formats 9 and 11.
      - id: num_type_dependencies
        type: s4
        if: has_type_tree != 0 and format_version >= 21 and is_ref_type == 0
        -orig-id: m_TypeDependencies.size
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many type dependencies follow (from format 21).
      - id: type_dependencies
        type: s4
        repeat: expr
        repeat-expr: num_type_dependencies
        if: has_type_tree != 0 and format_version >= 21 and is_ref_type == 0
        -orig-id: m_TypeDependencies
        -confidence: observed
        -evidence: empty in the corpus except the MonoBehaviour type
        doc: Indices of the reference types this type's values may hold.
      - id: class_name
        type: strz
        encoding: UTF-8
        if: has_type_tree != 0 and format_version >= 21 and is_ref_type != 0
        -orig-id: m_KlassName
        -confidence: observed
        -evidence: SerializeReferencePolymorphismExample/Apple in the corpus
        doc: A reference type's class name.
      - id: namespace
        type: strz
        encoding: UTF-8
        if: has_type_tree != 0 and format_version >= 21 and is_ref_type != 0
        -orig-id: m_NameSpace
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: A reference type's namespace.
      - id: assembly_name
        type: strz
        encoding: UTF-8
        if: has_type_tree != 0 and format_version >= 21 and is_ref_type != 0
        -orig-id: m_AsmName
        -confidence: observed
        -evidence: Assembly-CSharp in the corpus
        doc: A reference type's assembly.
  type_tree:
    doc: |
      A type tree as a blob (TypeTree, formats 10 and 12 on) - its nodes in depth-first order,
      each naming its type and field by an offset into the string buffer, or into Unity's common
      strings when the offset's top bit is set.
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
    seq:
      - id: num_nodes
        type: s4
        -orig-id: numberOfNodes
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: How many nodes follow.
      - id: len_string_buffer
        type: s4
        -orig-id: stringBufferSize
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The size of the string buffer.
      - id: nodes
        type: type_tree_node(format_version, big_endian)
        repeat: expr
        repeat-expr: num_nodes
        -orig-id: m_Nodes
        -confidence: observed
        -evidence: 24 bytes each before format 19, 32 from 19; the Mesh type of the corpus has 236 nodes
        doc: The nodes, depth first; a node's level says how deep it is (0 for the root).
      - id: string_buffer
        size: len_string_buffer
        -orig-id: m_StringBuffer
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The type and field names that are not common strings, each ended by a NUL.
  type_tree_node:
    doc: One node of a type tree blob (TypeTreeNode), 24 bytes, 32 from format 19.
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
    seq:
      - id: node_version
        type: u2
        -orig-id: m_Version
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The version of the field's type.
      - id: level
        type: u1
        -orig-id: m_Level
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The node's depth (0 for the root).
      - id: type_flags
        type: u1
        -orig-id: m_TypeFlags
        -confidence: observed
        -evidence: 1 for Array nodes in the corpus
        doc: Bit 0 - the node is an array (its children are its size and its element).
      - id: ofs_type
        type: u4
        enum: common_string
        -orig-id: m_TypeStrOffset
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The type's name - an offset into the string buffer, or with the top bit set into the common strings.
      - id: ofs_name
        type: u4
        enum: common_string
        -orig-id: m_NameStrOffset
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The field's name, as ofs_type.
      - id: byte_size
        type: s4
        -orig-id: m_ByteSize
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The value's size in bytes, -1 when it varies.
      - id: index
        type: s4
        -orig-id: m_Index
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The node's index in the tree.
      - id: meta_flag
        type: s4
        -orig-id: m_MetaFlag
        -confidence: observed
        -evidence: 0x4000 on the fields after which the corpus objects are padded to 4 bytes
        doc: Flags; 0x4000 (kAlignBytes) - the value is followed by padding to a multiple of 4 bytes from the object's start.
      - id: ref_type_hash
        type: u8
        if: format_version >= 19
        -orig-id: m_RefTypeHash
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: For a managed reference field, the hash of its type (from format 19).
  old_type_tree_node:
    doc: One node of a type tree in the nested form of formats 9 and 11, with its children.
    -confidence: sourced
    -evidence: UnityPy's TypeTreeNode.parse and AssetStudio's TypeTree reader; no such file in the corpus
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
    seq:
      - id: type_name
        type: strz
        encoding: UTF-8
        -orig-id: m_Type
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The type's name.
      - id: name
        type: strz
        encoding: UTF-8
        -orig-id: m_Name
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The field's name.
      - id: byte_size
        type: s4
        -orig-id: m_ByteSize
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The value's size in bytes, -1 when it varies.
      - id: index
        type: s4
        -orig-id: m_Index
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The node's index in the tree.
      - id: type_flags
        type: s4
        -orig-id: m_TypeFlags (m_IsArray)
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: 1 for an array.
      - id: node_version
        type: s4
        -orig-id: m_Version
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The version of the field's type.
      - id: meta_flag
        type: s4
        -orig-id: m_MetaFlag
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: Flags, as in the blob form (0x4000 align).
      - id: num_children
        type: s4
        -orig-id: childrenCount
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: How many child nodes follow.
      - id: children
        type: old_type_tree_node(format_version, big_endian)
        repeat: expr
        repeat-expr: num_children
        -orig-id: m_Children
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The child nodes.
  object_info:
    doc: One entry of the object table (ObjectInfo).
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
      - id: big_id
        type: s4
        doc: Before format 14, bigIDEnabled (non-zero for 64-bit path ids).
    seq:
      - id: pad
        size: (4 - _io.pos % 4) % 4
        if: format_version >= 14
        -orig-id: (AlignStream(4))
        -confidence: observed
        -evidence: zeros in the corpus. Counted from the metadata's start, which is at 20 or 48 in the file, so the same as from the file's start, as Unity counts
        doc: Padding to a multiple of 4 bytes before the entry, from format 14; kept verbatim.
      - id: path_id_s4
        type: s4
        if: format_version < 14 and big_id == 0
        -orig-id: m_PathID
        -confidence: sourced
        -evidence: UnityPy's ObjectReader; no such file in the corpus
        doc: The object's id in the file, 32-bit (before format 14 without big ids).
      - id: path_id
        type: s8
        if: format_version >= 14 or big_id != 0
        -orig-id: m_PathID
        -confidence: observed
        -evidence: the ids Unity's dumps print for every corpus object
        doc: The object's id in the file; references (PPtr) name objects by it.
      - id: byte_start_u4
        type: u4
        if: format_version < 22
        -orig-id: byteStart
        -confidence: observed
        -evidence: the 2019.4 bundle (format 21)
        doc: Where the object starts, from the data offset (before format 22).
      - id: byte_start_u8
        type: u8
        if: format_version >= 22
        -orig-id: byteStart
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: Where the object starts, from the data offset (from format 22).
      - id: byte_size
        type: u4
        -orig-id: byteSize
        -confidence: observed
        -evidence: equal to the size of every .mesh file UnityPy extracted
        doc: The object's size in bytes.
      - id: type_id
        type: s4
        -orig-id: typeID
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: From format 16 an index into the types; before, the class id.
      - id: class_id
        type: u2
        if: format_version < 16
        -orig-id: classID
        -confidence: sourced
        -evidence: UnityPy's ObjectReader; no such file in the corpus
        doc: The object's class id (before format 16).
      - id: is_destroyed
        type: u2
        if: format_version < 11
        -orig-id: isDestroyed
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: Before format 11, whether the object was destroyed.
      - id: script_type_index
        type: s2
        if: format_version >= 11 and format_version < 17
        -orig-id: scriptTypeIndex
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: Formats 11 to 16, the index of the object's script in script_types, or -1.
      - id: stripped
        type: u1
        if: format_version == 15 or format_version == 16
        -orig-id: stripped
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: Formats 15 and 16, whether the object was stripped.
  script_type:
    doc: A reference to a MonoScript (LocalSerializedObjectIdentifier).
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
    seq:
      - id: local_serialized_file_index
        type: s4
        -orig-id: localSerializedFileIndex
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The file (0 this one, 1 the first external, ...).
      - id: pad
        size: (4 - _io.pos % 4) % 4
        if: format_version >= 14
        -orig-id: (AlignStream(4))
        -confidence: sourced
        -evidence: UnityPy; the corpus entries need none
        doc: Padding to a multiple of 4 bytes, kept verbatim.
      - id: local_identifier_in_file_s4
        type: s4
        if: format_version < 14
        -orig-id: localIdentifierInFile
        -confidence: sourced
        -evidence: UnityPy 1.25.4 (SerializedFile.py, ObjectReader.py, TypeTreeNode.py) and AssetStudio; no such file in the corpus
        doc: The script's path id (before format 14).
      - id: local_identifier_in_file
        type: s8
        if: format_version >= 14
        -orig-id: localIdentifierInFile
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: The script's path id.
  external:
    doc: Another file the objects refer to (FileIdentifier).
    -confidence: observed
    meta:
      endian:
        switch-on: big_endian
        cases:
          0: le
          1: be
    params:
      - id: format_version
        type: u4
        doc: The header's format version.
      - id: big_endian
        type: u1
        doc: The header's endianness.
    seq:
      - id: temp_empty
        type: strz
        encoding: UTF-8
        if: format_version >= 6
        -orig-id: tempEmpty
        -confidence: observed
        -evidence: empty in the corpus
        doc: Text that is empty in the files seen.
      - id: guid
        size: 16
        -orig-id: guid
        -confidence: observed
        -evidence: the GUIDs Unity's dumps print
        doc: The file's GUID.
      - id: file_type
        type: s4
        -orig-id: type
        -confidence: observed
        -evidence: the CAB files of the five corpus bundles and level0; UnityPy 1.25.4 (SerializedFile.py) reads it the same way
        doc: 0 non-asset, 1 cached asset, 2 serialized asset, 3 meta asset.
      - id: path
        type: strz
        encoding: UTF-8
        -orig-id: pathName
        -confidence: observed
        -evidence: Library/unity default resources, archive:/CAB-.../CAB-... in the corpus
        doc: The file's path.
enums:
  unity_class:
    -1:
      id: unknown_type
      -orig-id: UnknownType
    0:
      id: object
      -orig-id: Object
    1:
      id: game_object
      -orig-id: GameObject
    2:
      id: component
      -orig-id: Component
    3:
      id: level_game_manager
      -orig-id: LevelGameManager
    4:
      id: transform
      -orig-id: Transform
    5:
      id: time_manager
      -orig-id: TimeManager
    6:
      id: global_game_manager
      -orig-id: GlobalGameManager
    8:
      id: behaviour
      -orig-id: Behaviour
    9:
      id: game_manager
      -orig-id: GameManager
    11:
      id: audio_manager
      -orig-id: AudioManager
    12:
      id: particle_animator
      -orig-id: ParticleAnimator
    13:
      id: input_manager
      -orig-id: InputManager
    15:
      id: ellipsoid_particle_emitter
      -orig-id: EllipsoidParticleEmitter
    17:
      id: pipeline
      -orig-id: Pipeline
    18:
      id: editor_extension
      -orig-id: EditorExtension
    19:
      id: physics2_d_settings
      -orig-id: Physics2DSettings
    20:
      id: camera
      -orig-id: Camera
    21:
      id: material
      -orig-id: Material
    23:
      id: mesh_renderer
      -orig-id: MeshRenderer
    25:
      id: renderer
      -orig-id: Renderer
    26:
      id: particle_renderer
      -orig-id: ParticleRenderer
    27:
      id: texture
      -orig-id: Texture
    28:
      id: texture2_d
      -orig-id: Texture2D
    29:
      id: occlusion_culling_settings
      -orig-id: OcclusionCullingSettings
    30:
      id: graphics_settings
      -orig-id: GraphicsSettings
    33:
      id: mesh_filter
      -orig-id: MeshFilter
    41:
      id: occlusion_portal
      -orig-id: OcclusionPortal
    43:
      id: mesh
      -orig-id: Mesh
    45:
      id: skybox
      -orig-id: Skybox
    47:
      id: quality_settings
      -orig-id: QualitySettings
    48:
      id: shader
      -orig-id: Shader
    49:
      id: text_asset
      -orig-id: TextAsset
    50:
      id: rigidbody2_d
      -orig-id: Rigidbody2D
    51:
      id: physics2_d_manager
      -orig-id: Physics2DManager
    53:
      id: collider2_d
      -orig-id: Collider2D
    54:
      id: rigidbody
      -orig-id: Rigidbody
    55:
      id: physics_manager
      -orig-id: PhysicsManager
    56:
      id: collider
      -orig-id: Collider
    57:
      id: joint
      -orig-id: Joint
    58:
      id: circle_collider2_d
      -orig-id: CircleCollider2D
    59:
      id: hinge_joint
      -orig-id: HingeJoint
    60:
      id: polygon_collider2_d
      -orig-id: PolygonCollider2D
    61:
      id: box_collider2_d
      -orig-id: BoxCollider2D
    62:
      id: physics_material2_d
      -orig-id: PhysicsMaterial2D
    64:
      id: mesh_collider
      -orig-id: MeshCollider
    65:
      id: box_collider
      -orig-id: BoxCollider
    66:
      id: composite_collider2_d
      -orig-id: CompositeCollider2D
    68:
      id: edge_collider2_d
      -orig-id: EdgeCollider2D
    70:
      id: capsule_collider2_d
      -orig-id: CapsuleCollider2D
    72:
      id: compute_shader
      -orig-id: ComputeShader
    74:
      id: animation_clip
      -orig-id: AnimationClip
    75:
      id: constant_force
      -orig-id: ConstantForce
    76:
      id: world_particle_collider
      -orig-id: WorldParticleCollider
    78:
      id: tag_manager
      -orig-id: TagManager
    81:
      id: audio_listener
      -orig-id: AudioListener
    82:
      id: audio_source
      -orig-id: AudioSource
    83:
      id: audio_clip
      -orig-id: AudioClip
    84:
      id: render_texture
      -orig-id: RenderTexture
    86:
      id: custom_render_texture
      -orig-id: CustomRenderTexture
    87:
      id: mesh_particle_emitter
      -orig-id: MeshParticleEmitter
    88:
      id: particle_emitter
      -orig-id: ParticleEmitter
    89:
      id: cubemap
      -orig-id: Cubemap
    90:
      id: avatar
      -orig-id: Avatar
    91:
      id: animator_controller
      -orig-id: AnimatorController
    92:
      id: gui_layer
      -orig-id: GUILayer
    93:
      id: runtime_animator_controller
      -orig-id: RuntimeAnimatorController
    94:
      id: script_mapper
      -orig-id: ScriptMapper
    95:
      id: animator
      -orig-id: Animator
    96:
      id: trail_renderer
      -orig-id: TrailRenderer
    98:
      id: delayed_call_manager
      -orig-id: DelayedCallManager
    102:
      id: text_mesh
      -orig-id: TextMesh
    104:
      id: render_settings
      -orig-id: RenderSettings
    108:
      id: light
      -orig-id: Light
    109:
      id: cg_program
      -orig-id: CGProgram
    110:
      id: base_animation_track
      -orig-id: BaseAnimationTrack
    111:
      id: animation
      -orig-id: Animation
    114:
      id: mono_behaviour
      -orig-id: MonoBehaviour
    115:
      id: mono_script
      -orig-id: MonoScript
    116:
      id: mono_manager
      -orig-id: MonoManager
    117:
      id: texture3_d
      -orig-id: Texture3D
    118:
      id: new_animation_track
      -orig-id: NewAnimationTrack
    119:
      id: projector
      -orig-id: Projector
    120:
      id: line_renderer
      -orig-id: LineRenderer
    121:
      id: flare
      -orig-id: Flare
    122:
      id: halo
      -orig-id: Halo
    123:
      id: lens_flare
      -orig-id: LensFlare
    124:
      id: flare_layer
      -orig-id: FlareLayer
    125:
      id: halo_layer
      -orig-id: HaloLayer
    126:
      id: nav_mesh_project_settings
      -orig-id: NavMeshProjectSettings
    127:
      id: halo_manager
      -orig-id: HaloManager
    128:
      id: font
      -orig-id: Font
    129:
      id: player_settings
      -orig-id: PlayerSettings
    130:
      id: named_object
      -orig-id: NamedObject
    131:
      id: gui_texture
      -orig-id: GUITexture
    132:
      id: gui_text
      -orig-id: GUIText
    133:
      id: gui_element
      -orig-id: GUIElement
    134:
      id: physic_material
      -orig-id: PhysicMaterial
    135:
      id: sphere_collider
      -orig-id: SphereCollider
    136:
      id: capsule_collider
      -orig-id: CapsuleCollider
    137:
      id: skinned_mesh_renderer
      -orig-id: SkinnedMeshRenderer
    138:
      id: fixed_joint
      -orig-id: FixedJoint
    140:
      id: raycast_collider
      -orig-id: RaycastCollider
    141:
      id: build_settings
      -orig-id: BuildSettings
    142:
      id: asset_bundle
      -orig-id: AssetBundle
    143:
      id: character_controller
      -orig-id: CharacterController
    144:
      id: character_joint
      -orig-id: CharacterJoint
    145:
      id: spring_joint
      -orig-id: SpringJoint
    146:
      id: wheel_collider
      -orig-id: WheelCollider
    147:
      id: resource_manager
      -orig-id: ResourceManager
    148:
      id: network_view
      -orig-id: NetworkView
    149:
      id: network_manager
      -orig-id: NetworkManager
    150:
      id: preload_data
      -orig-id: PreloadData
    152:
      id: movie_texture
      -orig-id: MovieTexture
    153:
      id: configurable_joint
      -orig-id: ConfigurableJoint
    154:
      id: terrain_collider
      -orig-id: TerrainCollider
    155:
      id: master_server_interface
      -orig-id: MasterServerInterface
    156:
      id: terrain_data
      -orig-id: TerrainData
    157:
      id: lightmap_settings
      -orig-id: LightmapSettings
    158:
      id: web_cam_texture
      -orig-id: WebCamTexture
    159:
      id: editor_settings
      -orig-id: EditorSettings
    160:
      id: interactive_cloth
      -orig-id: InteractiveCloth
    161:
      id: cloth_renderer
      -orig-id: ClothRenderer
    162:
      id: editor_user_settings
      -orig-id: EditorUserSettings
    163:
      id: skinned_cloth
      -orig-id: SkinnedCloth
    164:
      id: audio_reverb_filter
      -orig-id: AudioReverbFilter
    165:
      id: audio_high_pass_filter
      -orig-id: AudioHighPassFilter
    166:
      id: audio_chorus_filter
      -orig-id: AudioChorusFilter
    167:
      id: audio_reverb_zone
      -orig-id: AudioReverbZone
    168:
      id: audio_echo_filter
      -orig-id: AudioEchoFilter
    169:
      id: audio_low_pass_filter
      -orig-id: AudioLowPassFilter
    170:
      id: audio_distortion_filter
      -orig-id: AudioDistortionFilter
    171:
      id: sparse_texture
      -orig-id: SparseTexture
    180:
      id: audio_behaviour
      -orig-id: AudioBehaviour
    181:
      id: audio_filter
      -orig-id: AudioFilter
    182:
      id: wind_zone
      -orig-id: WindZone
    183:
      id: cloth
      -orig-id: Cloth
    184:
      id: substance_archive
      -orig-id: SubstanceArchive
    185:
      id: procedural_material
      -orig-id: ProceduralMaterial
    186:
      id: procedural_texture
      -orig-id: ProceduralTexture
    187:
      id: texture2_d_array
      -orig-id: Texture2DArray
    188:
      id: cubemap_array
      -orig-id: CubemapArray
    191:
      id: off_mesh_link
      -orig-id: OffMeshLink
    192:
      id: occlusion_area
      -orig-id: OcclusionArea
    193:
      id: tree
      -orig-id: Tree
    194:
      id: nav_mesh_obsolete
      -orig-id: NavMeshObsolete
    195:
      id: nav_mesh_agent
      -orig-id: NavMeshAgent
    196:
      id: nav_mesh_settings
      -orig-id: NavMeshSettings
    197:
      id: light_probes_legacy
      -orig-id: LightProbesLegacy
    198:
      id: particle_system
      -orig-id: ParticleSystem
    199:
      id: particle_system_renderer
      -orig-id: ParticleSystemRenderer
    200:
      id: shader_variant_collection
      -orig-id: ShaderVariantCollection
    205:
      id: lod_group
      -orig-id: LODGroup
    206:
      id: blend_tree
      -orig-id: BlendTree
    207:
      id: motion
      -orig-id: Motion
    208:
      id: nav_mesh_obstacle
      -orig-id: NavMeshObstacle
    210:
      id: sorting_group
      -orig-id: SortingGroup
    212:
      id: sprite_renderer
      -orig-id: SpriteRenderer
    213:
      id: sprite
      -orig-id: Sprite
    214:
      id: cached_sprite_atlas
      -orig-id: CachedSpriteAtlas
    215:
      id: reflection_probe
      -orig-id: ReflectionProbe
    216:
      id: reflection_probes
      -orig-id: ReflectionProbes
    218:
      id: terrain
      -orig-id: Terrain
    220:
      id: light_probe_group
      -orig-id: LightProbeGroup
    221:
      id: animator_override_controller
      -orig-id: AnimatorOverrideController
    222:
      id: canvas_renderer
      -orig-id: CanvasRenderer
    223:
      id: canvas
      -orig-id: Canvas
    224:
      id: rect_transform
      -orig-id: RectTransform
    225:
      id: canvas_group
      -orig-id: CanvasGroup
    226:
      id: billboard_asset
      -orig-id: BillboardAsset
    227:
      id: billboard_renderer
      -orig-id: BillboardRenderer
    228:
      id: speed_tree_wind_asset
      -orig-id: SpeedTreeWindAsset
    229:
      id: anchored_joint2_d
      -orig-id: AnchoredJoint2D
    230:
      id: joint2_d
      -orig-id: Joint2D
    231:
      id: spring_joint2_d
      -orig-id: SpringJoint2D
    232:
      id: distance_joint2_d
      -orig-id: DistanceJoint2D
    233:
      id: hinge_joint2_d
      -orig-id: HingeJoint2D
    234:
      id: slider_joint2_d
      -orig-id: SliderJoint2D
    235:
      id: wheel_joint2_d
      -orig-id: WheelJoint2D
    236:
      id: cluster_input_manager
      -orig-id: ClusterInputManager
    237:
      id: base_video_texture
      -orig-id: BaseVideoTexture
    238:
      id: nav_mesh_data
      -orig-id: NavMeshData
    240:
      id: audio_mixer
      -orig-id: AudioMixer
    241:
      id: audio_mixer_controller
      -orig-id: AudioMixerController
    243:
      id: audio_mixer_group_controller
      -orig-id: AudioMixerGroupController
    244:
      id: audio_mixer_effect_controller
      -orig-id: AudioMixerEffectController
    245:
      id: audio_mixer_snapshot_controller
      -orig-id: AudioMixerSnapshotController
    246:
      id: physics_update_behaviour2_d
      -orig-id: PhysicsUpdateBehaviour2D
    247:
      id: constant_force2_d
      -orig-id: ConstantForce2D
    248:
      id: effector2_d
      -orig-id: Effector2D
    249:
      id: area_effector2_d
      -orig-id: AreaEffector2D
    250:
      id: point_effector2_d
      -orig-id: PointEffector2D
    251:
      id: platform_effector2_d
      -orig-id: PlatformEffector2D
    252:
      id: surface_effector2_d
      -orig-id: SurfaceEffector2D
    253:
      id: buoyancy_effector2_d
      -orig-id: BuoyancyEffector2D
    254:
      id: relative_joint2_d
      -orig-id: RelativeJoint2D
    255:
      id: fixed_joint2_d
      -orig-id: FixedJoint2D
    256:
      id: friction_joint2_d
      -orig-id: FrictionJoint2D
    257:
      id: target_joint2_d
      -orig-id: TargetJoint2D
    258:
      id: light_probes
      -orig-id: LightProbes
    259:
      id: light_probe_proxy_volume
      -orig-id: LightProbeProxyVolume
    271:
      id: sample_clip
      -orig-id: SampleClip
    272:
      id: audio_mixer_snapshot
      -orig-id: AudioMixerSnapshot
    273:
      id: audio_mixer_group
      -orig-id: AudioMixerGroup
    280:
      id: n_screen_bridge
      -orig-id: NScreenBridge
    290:
      id: asset_bundle_manifest
      -orig-id: AssetBundleManifest
    292:
      id: unity_ads_manager
      -orig-id: UnityAdsManager
    300:
      id: runtime_initialize_on_load_manager
      -orig-id: RuntimeInitializeOnLoadManager
    301:
      id: cloud_web_services_manager
      -orig-id: CloudWebServicesManager
    303:
      id: unity_analytics_manager
      -orig-id: UnityAnalyticsManager
    304:
      id: crash_report_manager
      -orig-id: CrashReportManager
    305:
      id: performance_reporting_manager
      -orig-id: PerformanceReportingManager
    310:
      id: unity_connect_settings
      -orig-id: UnityConnectSettings
    319:
      id: avatar_mask
      -orig-id: AvatarMask
    320:
      id: playable_director
      -orig-id: PlayableDirector
    328:
      id: video_player
      -orig-id: VideoPlayer
    329:
      id: video_clip
      -orig-id: VideoClip
    330:
      id: particle_system_force_field
      -orig-id: ParticleSystemForceField
    331:
      id: sprite_mask
      -orig-id: SpriteMask
    362:
      id: world_anchor
      -orig-id: WorldAnchor
    363:
      id: occlusion_culling_data
      -orig-id: OcclusionCullingData
    1000:
      id: smallest_editor_class_id
      -orig-id: SmallestEditorClassID
    1001:
      id: prefab_instance
      -orig-id: PrefabInstance
    1002:
      id: editor_extension_impl
      -orig-id: EditorExtensionImpl
    1003:
      id: asset_importer
      -orig-id: AssetImporter
    1004:
      id: asset_database_v1
      -orig-id: AssetDatabaseV1
    1005:
      id: mesh3_ds_importer
      -orig-id: Mesh3DSImporter
    1006:
      id: texture_importer
      -orig-id: TextureImporter
    1007:
      id: shader_importer
      -orig-id: ShaderImporter
    1008:
      id: compute_shader_importer
      -orig-id: ComputeShaderImporter
    1020:
      id: audio_importer
      -orig-id: AudioImporter
    1026:
      id: hierarchy_state
      -orig-id: HierarchyState
    1027:
      id: guid_serializer
      -orig-id: GUIDSerializer
    1028:
      id: asset_meta_data
      -orig-id: AssetMetaData
    1029:
      id: default_asset
      -orig-id: DefaultAsset
    1030:
      id: default_importer
      -orig-id: DefaultImporter
    1031:
      id: text_script_importer
      -orig-id: TextScriptImporter
    1032:
      id: scene_asset
      -orig-id: SceneAsset
    1034:
      id: native_format_importer
      -orig-id: NativeFormatImporter
    1035:
      id: mono_importer
      -orig-id: MonoImporter
    1037:
      id: asset_server_cache
      -orig-id: AssetServerCache
    1038:
      id: library_asset_importer
      -orig-id: LibraryAssetImporter
    1040:
      id: model_importer
      -orig-id: ModelImporter
    1041:
      id: fbx_importer
      -orig-id: FBXImporter
    1042:
      id: true_type_font_importer
      -orig-id: TrueTypeFontImporter
    1044:
      id: movie_importer
      -orig-id: MovieImporter
    1045:
      id: editor_build_settings
      -orig-id: EditorBuildSettings
    1046:
      id: dds_importer
      -orig-id: DDSImporter
    1048:
      id: inspector_expanded_state
      -orig-id: InspectorExpandedState
    1049:
      id: annotation_manager
      -orig-id: AnnotationManager
    1050:
      id: plugin_importer
      -orig-id: PluginImporter
    1051:
      id: editor_user_build_settings
      -orig-id: EditorUserBuildSettings
    1052:
      id: pvr_importer
      -orig-id: PVRImporter
    1053:
      id: astc_importer
      -orig-id: ASTCImporter
    1054:
      id: ktx_importer
      -orig-id: KTXImporter
    1055:
      id: ihv_image_format_importer
      -orig-id: IHVImageFormatImporter
    1101:
      id: animator_state_transition
      -orig-id: AnimatorStateTransition
    1102:
      id: animator_state
      -orig-id: AnimatorState
    1105:
      id: human_template
      -orig-id: HumanTemplate
    1107:
      id: animator_state_machine
      -orig-id: AnimatorStateMachine
    1108:
      id: preview_animation_clip
      -orig-id: PreviewAnimationClip
    1109:
      id: animator_transition
      -orig-id: AnimatorTransition
    1110:
      id: speed_tree_importer
      -orig-id: SpeedTreeImporter
    1111:
      id: animator_transition_base
      -orig-id: AnimatorTransitionBase
    1112:
      id: substance_importer
      -orig-id: SubstanceImporter
    1113:
      id: lightmap_parameters
      -orig-id: LightmapParameters
    1120:
      id: lighting_data_asset
      -orig-id: LightingDataAsset
    1121:
      id: gis_raster
      -orig-id: GISRaster
    1122:
      id: gis_raster_importer
      -orig-id: GISRasterImporter
    1123:
      id: cad_importer
      -orig-id: CadImporter
    1124:
      id: sketch_up_importer
      -orig-id: SketchUpImporter
    1125:
      id: build_report
      -orig-id: BuildReport
    1126:
      id: packed_assets
      -orig-id: PackedAssets
    1127:
      id: video_clip_importer
      -orig-id: VideoClipImporter
    2000:
      id: activation_log_component
      -orig-id: ActivationLogComponent
    100000:
      id: int
      -orig-id: int
    100001:
      id: bool
      -orig-id: bool
    100002:
      id: float
      -orig-id: float
    100003:
      id: mono_object
      -orig-id: MonoObject
    100004:
      id: collision
      -orig-id: Collision
    100005:
      id: vector3f
      -orig-id: Vector3f
    100006:
      id: root_motion_data
      -orig-id: RootMotionData
    100007:
      id: collision2_d
      -orig-id: Collision2D
    100008:
      id: audio_mixer_live_update_float
      -orig-id: AudioMixerLiveUpdateFloat
    100009:
      id: audio_mixer_live_update_bool
      -orig-id: AudioMixerLiveUpdateBool
    100010:
      id: polygon2_d
      -orig-id: Polygon2D
    100011:
      id: void
      -orig-id: void
    19719996:
      id: tilemap_collider2_d
      -orig-id: TilemapCollider2D
    41386430:
      id: asset_importer_log
      -orig-id: AssetImporterLog
    73398921:
      id: vfx_renderer
      -orig-id: VFXRenderer
    76251197:
      id: serializable_managed_ref_test_class
      -orig-id: SerializableManagedRefTestClass
    156049354:
      id: grid
      -orig-id: Grid
    156483287:
      id: scenes_using_assets
      -orig-id: ScenesUsingAssets
    171741748:
      id: articulation_body
      -orig-id: ArticulationBody
    181963792:
      id: preset
      -orig-id: Preset
    277625683:
      id: empty_object
      -orig-id: EmptyObject
    285090594:
      id: i_constraint
      -orig-id: IConstraint
    293259124:
      id: test_object_with_special_layout_one
      -orig-id: TestObjectWithSpecialLayoutOne
    294290339:
      id: assembly_definition_reference_importer
      -orig-id: AssemblyDefinitionReferenceImporter
    334799969:
      id: sibling_derived
      -orig-id: SiblingDerived
    342846651:
      id: test_object_with_serialized_map_string_non_aligned_struct
      -orig-id: TestObjectWithSerializedMapStringNonAlignedStruct
    367388927:
      id: sub_derived
      -orig-id: SubDerived
    369655926:
      id: asset_import_in_progress_proxy
      -orig-id: AssetImportInProgressProxy
    382020655:
      id: plugin_build_info
      -orig-id: PluginBuildInfo
    426301858:
      id: editor_project_access
      -orig-id: EditorProjectAccess
    468431735:
      id: prefab_importer
      -orig-id: PrefabImporter
    478637458:
      id: test_object_with_serialized_array
      -orig-id: TestObjectWithSerializedArray
    478637459:
      id: test_object_with_serialized_animation_curve
      -orig-id: TestObjectWithSerializedAnimationCurve
    483693784:
      id: tilemap_renderer
      -orig-id: TilemapRenderer
    488575907:
      id: scriptable_camera
      -orig-id: ScriptableCamera
    612988286:
      id: sprite_atlas_asset
      -orig-id: SpriteAtlasAsset
    638013454:
      id: sprite_atlas_database
      -orig-id: SpriteAtlasDatabase
    641289076:
      id: audio_build_info
      -orig-id: AudioBuildInfo
    644342135:
      id: cached_sprite_atlas_runtime_data
      -orig-id: CachedSpriteAtlasRuntimeData
    646504946:
      id: renderer_fake
      -orig-id: RendererFake
    662584278:
      id: assembly_definition_reference_asset
      -orig-id: AssemblyDefinitionReferenceAsset
    668709126:
      id: built_asset_bundle_info_set
      -orig-id: BuiltAssetBundleInfoSet
    687078895:
      id: sprite_atlas
      -orig-id: SpriteAtlas
    747330370:
      id: ray_tracing_shader_importer
      -orig-id: RayTracingShaderImporter
    825902497:
      id: ray_tracing_shader
      -orig-id: RayTracingShader
    850595691:
      id: lighting_settings
      -orig-id: LightingSettings
    877146078:
      id: platform_module_setup
      -orig-id: PlatformModuleSetup
    890905787:
      id: version_control_settings
      -orig-id: VersionControlSettings
    895512359:
      id: aim_constraint
      -orig-id: AimConstraint
    937362698:
      id: vfx_manager
      -orig-id: VFXManager
    994735392:
      id: visual_effect_subgraph
      -orig-id: VisualEffectSubgraph
    994735403:
      id: visual_effect_subgraph_operator
      -orig-id: VisualEffectSubgraphOperator
    994735404:
      id: visual_effect_subgraph_block
      -orig-id: VisualEffectSubgraphBlock
    1027052791:
      id: localization_importer
      -orig-id: LocalizationImporter
    1091556383:
      id: derived
      -orig-id: Derived
    1111377672:
      id: property_modifications_target_test_object
      -orig-id: PropertyModificationsTargetTestObject
    1114811875:
      id: references_artifact_generator
      -orig-id: ReferencesArtifactGenerator
    1152215463:
      id: assembly_definition_asset
      -orig-id: AssemblyDefinitionAsset
    1154873562:
      id: scene_visibility_state
      -orig-id: SceneVisibilityState
    1183024399:
      id: look_at_constraint
      -orig-id: LookAtConstraint
    1210832254:
      id: sprite_atlas_importer
      -orig-id: SpriteAtlasImporter
    1223240404:
      id: multi_artifact_test_importer
      -orig-id: MultiArtifactTestImporter
    1268269756:
      id: game_object_recorder
      -orig-id: GameObjectRecorder
    1325145578:
      id: lighting_data_asset_parent
      -orig-id: LightingDataAssetParent
    1386491679:
      id: preset_manager
      -orig-id: PresetManager
    1392443030:
      id: test_object_with_special_layout_two
      -orig-id: TestObjectWithSpecialLayoutTwo
    1403656975:
      id: streaming_manager
      -orig-id: StreamingManager
    1480428607:
      id: lower_res_blit_texture
      -orig-id: LowerResBlitTexture
    1542919678:
      id: streaming_controller
      -orig-id: StreamingController
    1571458007:
      id: render_pass_attachment
      -orig-id: RenderPassAttachment
    1628831178:
      id: test_object_vector_pair_string_bool
      -orig-id: TestObjectVectorPairStringBool
    1742807556:
      id: grid_layout
      -orig-id: GridLayout
    1766753193:
      id: assembly_definition_importer
      -orig-id: AssemblyDefinitionImporter
    1773428102:
      id: parent_constraint
      -orig-id: ParentConstraint
    1803986026:
      id: fake_component
      -orig-id: FakeComponent
    1818360608:
      id: position_constraint
      -orig-id: PositionConstraint
    1818360609:
      id: rotation_constraint
      -orig-id: RotationConstraint
    1818360610:
      id: scale_constraint
      -orig-id: ScaleConstraint
    1839735485:
      id: tilemap
      -orig-id: Tilemap
    1896753125:
      id: package_manifest
      -orig-id: PackageManifest
    1896753126:
      id: package_manifest_importer
      -orig-id: PackageManifestImporter
    1953259897:
      id: terrain_layer
      -orig-id: TerrainLayer
    1971053207:
      id: sprite_shape_renderer
      -orig-id: SpriteShapeRenderer
    1977754360:
      id: native_object_type
      -orig-id: NativeObjectType
    1981279845:
      id: test_object_with_serialized_map_string_bool
      -orig-id: TestObjectWithSerializedMapStringBool
    1995898324:
      id: serializable_managed_host
      -orig-id: SerializableManagedHost
    2058629509:
      id: visual_effect_asset
      -orig-id: VisualEffectAsset
    2058629510:
      id: visual_effect_importer
      -orig-id: VisualEffectImporter
    2058629511:
      id: visual_effect_resource
      -orig-id: VisualEffectResource
    2059678085:
      id: visual_effect_object
      -orig-id: VisualEffectObject
    2083052967:
      id: visual_effect
      -orig-id: VisualEffect
    2083778819:
      id: localization_asset
      -orig-id: LocalizationAsset
    2089858483:
      id: scripted_importer
      -orig-id: ScriptedImporter
  build_target:
    -2:
      id: no_target
      -orig-id: NoTarget
    1:
      id: dashboard_widget
      -orig-id: DashboardWidget
    2:
      id: standalone_osx
      -orig-id: StandaloneOSX
    3:
      id: standalone_osxppc
      -orig-id: StandaloneOSXPPC
    4:
      id: standalone_osx_intel
      -orig-id: StandaloneOSXIntel
    5:
      id: standalone_windows
      -orig-id: StandaloneWindows
    6:
      id: web_player
      -orig-id: WebPlayer
    7:
      id: web_player_streamed
      -orig-id: WebPlayerStreamed
    8:
      id: wii
      -orig-id: Wii
    9:
      id: i_os
      -orig-id: iOS
    10:
      id: ps3
      -orig-id: PS3
    11:
      id: xbox360
      -orig-id: XBOX360
    13:
      id: android
      -orig-id: Android
    14:
      id: standalone_gles_emu
      -orig-id: StandaloneGLESEmu
    16:
      id: na_cl
      -orig-id: NaCl
    17:
      id: standalone_linux
      -orig-id: StandaloneLinux
    18:
      id: flash_player
      -orig-id: FlashPlayer
    19:
      id: standalone_windows64
      -orig-id: StandaloneWindows64
    20:
      id: web_gl
      -orig-id: WebGL
    21:
      id: wsa_player
      -orig-id: WSAPlayer
    24:
      id: standalone_linux64
      -orig-id: StandaloneLinux64
    25:
      id: standalone_linux_universal
      -orig-id: StandaloneLinuxUniversal
    26:
      id: wp8_player
      -orig-id: WP8Player
    27:
      id: standalone_osx_intel64
      -orig-id: StandaloneOSXIntel64
    28:
      id: black_berry
      -orig-id: BlackBerry
    29:
      id: tizen
      -orig-id: Tizen
    30:
      id: psp2
      -orig-id: PSP2
    31:
      id: ps4
      -orig-id: PS4
    32:
      id: psm
      -orig-id: PSM
    33:
      id: xbox_one
      -orig-id: XboxOne
    34:
      id: samsung_tv
      -orig-id: SamsungTV
    35:
      id: n3_ds
      -orig-id: N3DS
    36:
      id: wii_u
      -orig-id: WiiU
    37:
      id: tv_os
      -orig-id: tvOS
    38:
      id: switch
      -orig-id: Switch
    3716:
      id: unknown_platform
      -orig-id: UnknownPlatform
  common_string:
    0x80000000:
      id: aabb
      -orig-id: AABB
    0x80000005:
      id: animation_clip
      -orig-id: AnimationClip
    0x80000013:
      id: animation_curve
      -orig-id: AnimationCurve
    0x80000022:
      id: animation_state
      -orig-id: AnimationState
    0x80000031:
      id: array
      -orig-id: Array
    0x80000037:
      id: base
      -orig-id: Base
    0x8000003C:
      id: bit_field
      -orig-id: BitField
    0x80000045:
      id: bitset
      -orig-id: bitset
    0x8000004C:
      id: bool
      -orig-id: bool
    0x80000051:
      id: char
      -orig-id: char
    0x80000056:
      id: color_rgba
      -orig-id: ColorRGBA
    0x80000060:
      id: component
      -orig-id: Component
    0x8000006A:
      id: data
      -orig-id: data
    0x8000006F:
      id: deque
      -orig-id: deque
    0x80000075:
      id: double
      -orig-id: double
    0x8000007C:
      id: dynamic_array
      -orig-id: dynamic_array
    0x8000008A:
      id: fast_property_name
      -orig-id: FastPropertyName
    0x8000009B:
      id: first
      -orig-id: first
    0x800000A1:
      id: float
      -orig-id: float
    0x800000A7:
      id: font
      -orig-id: Font
    0x800000AC:
      id: game_object
      -orig-id: GameObject
    0x800000B7:
      id: generic_mono
      -orig-id: "Generic Mono"
    0x800000C4:
      id: gradient_new
      -orig-id: GradientNEW
    0x800000D0:
      id: guid
      -orig-id: GUID
    0x800000D5:
      id: gui_style
      -orig-id: GUIStyle
    0x800000DE:
      id: int
      -orig-id: int
    0x800000E2:
      id: list
      -orig-id: list
    0x800000E7:
      id: long_long
      -orig-id: "long long"
    0x800000F1:
      id: map
      -orig-id: map
    0x800000F5:
      id: matrix4x4f
      -orig-id: Matrix4x4f
    0x80000100:
      id: md_four
      -orig-id: MdFour
    0x80000107:
      id: mono_behaviour
      -orig-id: MonoBehaviour
    0x80000115:
      id: mono_script
      -orig-id: MonoScript
    0x80000120:
      id: m_byte_size
      -orig-id: m_ByteSize
    0x8000012B:
      id: m_curve
      -orig-id: m_Curve
    0x80000133:
      id: m_editor_class_identifier
      -orig-id: m_EditorClassIdentifier
    0x8000014B:
      id: m_editor_hide_flags
      -orig-id: m_EditorHideFlags
    0x8000015D:
      id: m_enabled
      -orig-id: m_Enabled
    0x80000167:
      id: m_extension_ptr
      -orig-id: m_ExtensionPtr
    0x80000176:
      id: m_game_object
      -orig-id: m_GameObject
    0x80000183:
      id: m_index
      -orig-id: m_Index
    0x8000018B:
      id: m_is_array
      -orig-id: m_IsArray
    0x80000195:
      id: m_is_static
      -orig-id: m_IsStatic
    0x800001A0:
      id: m_meta_flag
      -orig-id: m_MetaFlag
    0x800001AB:
      id: m_name
      -orig-id: m_Name
    0x800001B2:
      id: m_object_hide_flags
      -orig-id: m_ObjectHideFlags
    0x800001C4:
      id: m_prefab_internal
      -orig-id: m_PrefabInternal
    0x800001D5:
      id: m_prefab_parent_object
      -orig-id: m_PrefabParentObject
    0x800001EA:
      id: m_script
      -orig-id: m_Script
    0x800001F3:
      id: m_static_editor_flags
      -orig-id: m_StaticEditorFlags
    0x80000207:
      id: m_type
      -orig-id: m_Type
    0x8000020E:
      id: m_version
      -orig-id: m_Version
    0x80000218:
      id: object
      -orig-id: Object
    0x8000021F:
      id: pair
      -orig-id: pair
    0x80000224:
      id: p_ptr_component
      -orig-id: "PPtr<Component>"
    0x80000234:
      id: p_ptr_game_object
      -orig-id: "PPtr<GameObject>"
    0x80000245:
      id: p_ptr_material
      -orig-id: "PPtr<Material>"
    0x80000254:
      id: p_ptr_mono_behaviour
      -orig-id: "PPtr<MonoBehaviour>"
    0x80000268:
      id: p_ptr_mono_script
      -orig-id: "PPtr<MonoScript>"
    0x80000279:
      id: p_ptr_object
      -orig-id: "PPtr<Object>"
    0x80000286:
      id: p_ptr_prefab
      -orig-id: "PPtr<Prefab>"
    0x80000293:
      id: p_ptr_sprite
      -orig-id: "PPtr<Sprite>"
    0x800002A0:
      id: p_ptr_text_asset
      -orig-id: "PPtr<TextAsset>"
    0x800002B0:
      id: p_ptr_texture
      -orig-id: "PPtr<Texture>"
    0x800002BE:
      id: p_ptr_texture2_d
      -orig-id: "PPtr<Texture2D>"
    0x800002CE:
      id: p_ptr_transform
      -orig-id: "PPtr<Transform>"
    0x800002DE:
      id: prefab
      -orig-id: Prefab
    0x800002E5:
      id: quaternionf
      -orig-id: Quaternionf
    0x800002F1:
      id: rectf
      -orig-id: Rectf
    0x800002F7:
      id: rect_int
      -orig-id: RectInt
    0x800002FF:
      id: rect_offset
      -orig-id: RectOffset
    0x8000030A:
      id: second
      -orig-id: second
    0x80000311:
      id: set
      -orig-id: set
    0x80000315:
      id: short
      -orig-id: short
    0x8000031B:
      id: size
      -orig-id: size
    0x80000320:
      id: s_int16
      -orig-id: SInt16
    0x80000327:
      id: s_int32
      -orig-id: SInt32
    0x8000032E:
      id: s_int64
      -orig-id: SInt64
    0x80000335:
      id: s_int8
      -orig-id: SInt8
    0x8000033B:
      id: staticvector
      -orig-id: staticvector
    0x80000348:
      id: string
      -orig-id: string
    0x8000034F:
      id: text_asset
      -orig-id: TextAsset
    0x80000359:
      id: text_mesh
      -orig-id: TextMesh
    0x80000362:
      id: texture
      -orig-id: Texture
    0x8000036A:
      id: texture2_d
      -orig-id: Texture2D
    0x80000374:
      id: transform
      -orig-id: Transform
    0x8000037E:
      id: typeless_data
      -orig-id: TypelessData
    0x8000038B:
      id: u_int16
      -orig-id: UInt16
    0x80000392:
      id: u_int32
      -orig-id: UInt32
    0x80000399:
      id: u_int64
      -orig-id: UInt64
    0x800003A0:
      id: u_int8
      -orig-id: UInt8
    0x800003A6:
      id: unsigned_int
      -orig-id: "unsigned int"
    0x800003B3:
      id: unsigned_long_long
      -orig-id: "unsigned long long"
    0x800003C6:
      id: unsigned_short
      -orig-id: "unsigned short"
    0x800003D5:
      id: vector
      -orig-id: vector
    0x800003DC:
      id: vector2f
      -orig-id: Vector2f
    0x800003E5:
      id: vector3f
      -orig-id: Vector3f
    0x800003EE:
      id: vector4f
      -orig-id: Vector4f
    0x800003F7:
      id: m_scripting_class_identifier
      -orig-id: m_ScriptingClassIdentifier
    0x80000412:
      id: gradient
      -orig-id: Gradient
    0x8000041B:
      id: type
      -orig-id: "Type*"
    0x80000421:
      id: int2_storage
      -orig-id: int2_storage
    0x8000042E:
      id: int3_storage
      -orig-id: int3_storage
    0x8000043B:
      id: bounds_int
      -orig-id: BoundsInt
    0x80000445:
      id: m_corresponding_source_object
      -orig-id: m_CorrespondingSourceObject
    0x80000461:
      id: m_prefab_instance
      -orig-id: m_PrefabInstance
    0x80000472:
      id: m_prefab_asset
      -orig-id: m_PrefabAsset
    0x80000480:
      id: file_size
      -orig-id: FileSize
    0x80000489:
      id: hash128
      -orig-id: Hash128
    0x80000491:
      id: rendering_layer_mask
      -orig-id: RenderingLayerMask
    0x800004A4:
      id: fixed_array
      -orig-id: fixed_array
    0x800004B0:
      id: entity_id
      -orig-id: EntityId
    0x800004B9:
      id: loadable_object_id
      -orig-id: LoadableObjectId
    0x800004CA:
      id: loadable_scene_id
      -orig-id: LoadableSceneId
