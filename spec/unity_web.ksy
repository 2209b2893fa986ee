meta:
  id: unity_web
  title: Unity Web Player and raw asset bundles (UnityWeb, UnityRaw), the containers of Unity 2.x to 5.x
  application: Unity 2.x to 5.x asset bundles and Web Player files (.unity3d), format versions 1 to 5; the real file of the shared corpus is 4.1.2 (format 3)
  file-extension: unity3d
  license: CC0-1.0
  endian: be
  -layout: unity-web
doc: |
  The asset bundle of Unity before UnityFS: a header (the signature `UnityWeb` or `UnityRaw`,
  versions, sizes and a table of "levels"), then the payload. A UnityWeb payload is one LZMA
  stream in the `.lzma` ("LZMA alone") form - 5 property bytes, a 64-bit little-endian
  decompressed size that may be -1, then the stream; a UnityRaw payload is stored. Every number
  of the header is big endian.

  The decompressed payload is the layout `unity-web-payload`: a directory of the files the
  bundle holds (a Web Player's `mainData`, `sharedassets0.assets`, its assemblies; a bundle's
  `CAB-...`), padded to 4 bytes, then the files' bytes, at offsets counted from the payload's
  start. Decompression and the cutting are in `formats/src/unity/files/web.rs`; every declared
  size is checked before anything is allocated.

  The levels are the points a Web Player could start from while the file was still
  downloading; every reader here (UnityPy, AssetStudio, AssetRipper) takes the last level's
  sizes as the whole payload's. Format 6 UnityWeb and UnityRaw files (Unity 5.x) have the
  UnityFS layout after the versions and are refused here at `header.version`.
doc-ref:
  - UnityPy 1.25.4, UnityPy/files/BundleFile.py (read_web_raw) and UnityPy/helpers/CompressionHelper.py (decompress_lzma)
  - AssetStudio, AssetStudio/BundleFile.cs (ReadHeaderAndBlocksInfo, ReadBlocksAndDirectory)
  - AssetRipper, Source/AssetRipper.IO.Files/BundleFiles/RawWeb/ (RawWebBundleHeader.cs, RawWebBundleFile.cs, RawWebNode.cs, BundleScene.cs) and BundleVersion.cs
-confidence: observed
-evidence: "gimballock/Web Player.unity3d of the shared corpus (Unity 4.1.2f1, UnityWeb format 3, one level, LZMA, four files); UnityPy 1.25.4, AssetStudio and AssetRipper read it the same way"
-relations:
  - id: len_file_is_file_size
    doc: From format 2, `header.len_file` (the complete file size) equals the size of the whole file.
    -confidence: observed
    -evidence: 63,714 in the real file, its size; UnityPy and AssetStudio read it and do not use it
  - id: header_padded_to_4
    doc: |
      `header.len_header` is the end of the header's fields rounded up to a multiple of 4 (so
      `pad_header` is 0 to 3 bytes). UnityPy and AssetStudio jump to `len_header` whatever it
      is, as the spec does; AssetRipper aligns to 4 and refuses a file where that is not
      `len_header`.
    -confidence: sourced
    -evidence: AssetRipper (RawWebBundleHeader.Read aligns, RawWebBundleFile.Read compares); 60 after 59 bytes of fields in the real file
  - id: levels_grow
    doc: |
      Each level's sizes are at least those of the level before: every level counts from the
      payload's start, the last one being the whole payload.
    -confidence: inferred
    -reading: the sources read only the last level (UnityPy skips the others, AssetStudio and AssetRipper keep only the last), so that each level counts from the payload's start rather than from the level before is a reading
    -evidence: one level in the real file
  - id: payload_is_last_level
    doc: |
      There is at least one level, and the payload (the bytes from `header.len_header` to the
      end of the file) is the last level's `len_compressed` bytes. Reading needs those bytes;
      bytes after them are kept, and only reported.
    -confidence: observed
    -evidence: 63,654 bytes after a 60-byte header in the real file; UnityPy reads len_compressed bytes at len_header
  - id: payload_decompresses
    doc: |
      A UnityWeb payload is an LZMA stream of the `.lzma` form whose 64-bit size, when it is not
      -1, is the last level's `len_uncompressed`, and which decompresses to exactly that many
      bytes; a UnityRaw payload is stored, its `len_compressed` equal to its
      `len_uncompressed`. The decompressed bytes read as `unity-web-payload` to their end.
    -confidence: observed
    -evidence: the real file (UnityWeb, 259,988 bytes, the size written in the stream's header); UnityRaw as UnityPy, AssetStudio and AssetRipper read it (in place, no decompression)
  - id: len_directory_is_directory_size
    doc: |
      From format 3, `header.len_directory` is the bytes the decompressed payload's directory
      takes with its padding to 4 (where the files' data starts).
    -confidence: sourced
    -evidence: AssetRipper (RawWebBundleFile.ReadMetadata compares it with the directory it read, aligned to 4); 124 in the real file, where the first file starts
seq:
  - id: header
    type: header
    -orig-id: Header
    -confidence: observed
    -evidence: the real file; UnityPy 1.25.4 (read_web_raw), AssetStudio and AssetRipper read it the same way
    doc: The signature, versions, sizes and levels.
  - id: pad_header
    size: header.len_header - _io.pos
    -orig-id: (reader.Position = headerSize)
    -confidence: observed
    -evidence: one zero byte in the real file (59 bytes of fields, a header of 60); UnityPy and AssetStudio jump to header.len_header
    doc: |
      The bytes between the header's fields and `header.len_header` (alignment to 4, see the
      relation header_padded_to_4), kept verbatim.
  - id: payload
    size-eos: true
    -orig-id: (LZMA stream or stored data)
    -confidence: observed
    -evidence: an LZMA stream of the .lzma form in the real file
    doc: |
      The payload, the rest of the file: for UnityWeb an LZMA stream with its 13-byte `.lzma`
      header, for UnityRaw the data as is. Decompressed, it is `unity-web-payload`.
types:
  header:
    doc: The bundle header (UnityWeb or UnityRaw, format 1 to 5).
    -confidence: observed
    seq:
      - id: signature
        contents: Unity
        -orig-id: signature
        -confidence: observed
        -severity: error
        -severity-reason: a magic - without it the bytes are not a Unity bundle, and a constant is not kept to be written back
        -evidence: the real file; UnityPy, AssetStudio and AssetRipper tell the containers apart by this text
        doc: |
          The first five bytes of the signature text, `Unity`, which UnityFS shares
          (`unity-bundle`).
      - id: kind
        type: u4
        enum: container
        valid:
          any-of: [container::unity_web, container::unity_raw]
        -orig-id: signature
        -confidence: observed
        -severity: error
        -severity-reason: a magic - the rest of the signature says whether the payload is compressed, and another value (UnityFS, UnityArchive) is another layout
        -evidence: UnityWeb in the real file; UnityRaw as UnityPy, AssetStudio and AssetRipper name it
        doc: |
          The rest of the signature text and the NUL that ends it: `Web` (UnityWeb, an LZMA
          payload) or `Raw` (UnityRaw, stored). Read as one 32-bit number so that the spec can
          check its two values (the spec language has no text constants).
      - id: version
        type: u4
        valid:
          min: 1
          max: 5
        -orig-id: version
        -confidence: sourced
        -severity: error
        -severity-reason: a structural necessity - UnityWeb and UnityRaw files of format 6 have the UnityFS layout after the versions (UnityPy and AssetStudio read them by read_fs), which this layout does not read
        -evidence: 3 in the real file; AssetRipper's BundleVersion names 1 (2.5 and before), 2 (2.6 to 3.4), 3 (3.5 to 4.x), 4 and 5 (5.2 alphas), 6 (5.2 on, the UnityFS form)
        doc: The format version.
      - id: unity_version
        type: strz
        encoding: UTF-8
        -orig-id: version_player (unityVersion)
        -confidence: observed
        -evidence: 3.x.x in the real file
        doc: The version of the bundle format's player (`3.x.x`).
      - id: unity_revision
        type: strz
        encoding: UTF-8
        -orig-id: version_engine (unityRevision)
        -confidence: observed
        -evidence: 4.1.2f1 in the real file
        doc: The editor version that built the bundle (`4.1.2f1`).
      - id: hash
        size: 16
        if: version >= 4
        -orig-id: Hash (Hash128)
        -confidence: sourced
        -evidence: UnityPy, AssetStudio and AssetRipper (from format 4); none in the corpus
        doc: A hash of the bundle, from format 4; kept verbatim.
      - id: crc
        type: u4
        if: version >= 4
        -orig-id: crc
        -confidence: sourced
        -evidence: UnityPy, AssetStudio and AssetRipper (from format 4); none in the corpus
        doc: A CRC of the bundle, from format 4; kept verbatim.
      - id: minimum_streamed_bytes
        type: u4
        -orig-id: minimumStreamedBytes
        -confidence: observed
        -evidence: 63,714, the file's size, in the real file; AssetRipper says it equals the file's size for a bundle that is not streamed
        doc: How many bytes a Web Player had to download before it could start streaming.
      - id: len_header
        type: u4
        -orig-id: headerSize
        -confidence: observed
        -evidence: 60 in the real file; UnityPy and AssetStudio jump to it to read the payload
        doc: The header's size, padding included; the payload starts there.
      - id: num_levels_before_streaming
        type: u4
        -orig-id: numberOfLevelsToDownloadBeforeStreaming
        -confidence: observed
        -evidence: 1 in the real file; unused by every reader
        doc: How many levels a Web Player downloaded before it started.
      - id: num_levels
        type: s4
        -orig-id: levelCount
        -confidence: observed
        -evidence: 1 in the real file; UnityPy, AssetStudio and AssetRipper read it as a signed 32-bit count
        doc: How many levels follow.
      - id: levels
        type: level
        repeat: expr
        repeat-expr: num_levels
        -orig-id: (levels; AssetRipper's Scenes)
        -confidence: observed
        -evidence: one level in the real file
        doc: The levels, the last one the whole payload (see the relations payload_is_last_level and levels_grow).
      - id: len_file
        type: u4
        if: version >= 2
        -orig-id: completeFileSize
        -confidence: observed
        -evidence: 63,714, the file's size, in the real file; from format 2 as UnityPy, AssetStudio and AssetRipper read it
        doc: The size of the whole file, from format 2.
      - id: len_directory
        type: u4
        if: version >= 3
        -orig-id: fileInfoHeaderSize (AssetRipper's UncompressedBlocksInfoSize)
        -confidence: observed
        -evidence: 124 in the real file, the directory with its padding; from format 3 as UnityPy, AssetStudio and AssetRipper read it
        doc: The bytes the decompressed payload's directory takes, padding included, from format 3.
    instances:
      compressed:
        value: kind == container::unity_web
        doc: Whether the payload is LZMA-compressed (UnityWeb) rather than stored (UnityRaw).
  level:
    doc: One level (LZMA chunk info; AssetRipper's BundleScene), 8 bytes.
    -confidence: observed
    seq:
      - id: len_compressed
        type: u4
        -orig-id: compressedSize
        -confidence: observed
        -evidence: 63,654 in the real file, the payload's size
        doc: The payload's bytes up to the end of this level, as stored.
      - id: len_uncompressed
        type: u4
        -orig-id: uncompressedSize
        -confidence: observed
        -evidence: 259,988 in the real file, the decompressed payload's size
        doc: The same, decompressed.
  payload:
    -layout: unity-web-payload
    doc: |
      The decompressed payload of a UnityWeb or UnityRaw bundle - the directory of its files,
      then their bytes. Big endian like the header.
    -confidence: observed
    -evidence: the real file's payload (four files), read and written back byte for byte
    -relations:
      - id: files_inside_data
        doc: |
          Every file's range (ofs_data, len_data) lies inside the payload and after the
          directory (its count and entries).
        -confidence: observed
        -evidence: the four files of the real file, the first at 124, the last ending at the payload's end
    seq:
      - id: num_files
        type: s4
        -orig-id: nodesCount
        -confidence: observed
        -evidence: 4 in the real file; UnityPy, AssetStudio and AssetRipper read it as a signed 32-bit count
        doc: How many files the directory lists.
      - id: files
        type: file_entry
        repeat: expr
        repeat-expr: num_files
        -orig-id: m_DirectoryInfo
        -confidence: observed
        -evidence: two assemblies, sharedassets0.assets and mainData in the real file
        doc: The files of the bundle, as ranges of the payload.
      - id: pad_directory
        size: (4 - _io.pos % 4) % 4
        -orig-id: (reader.AlignStream())
        -confidence: sourced
        -evidence: AssetRipper (RawWebBundleFile.ReadMetadata aligns to 4); three zero bytes in the real file
        doc: Padding to a multiple of 4 bytes from the payload's start, kept verbatim.
      - id: data
        size-eos: true
        -orig-id: (the files' data)
        -confidence: observed
        -evidence: the real file, files at offsets 124 to 187,540
        doc: |
          The files' bytes (and whatever lies between them, kept verbatim); the directory's
          offsets count from the payload's start, not from here.
  file_entry:
    doc: One file of the bundle (AssetRipper's RawWebNode).
    -confidence: observed
    seq:
      - id: path
        type: strz
        encoding: UTF-8
        -orig-id: path
        -confidence: observed
        -evidence: mainData, sharedassets0.assets, Assembly-CSharp.dll ... in the real file
        doc: The file's name inside the bundle.
      - id: ofs_data
        type: u4
        -orig-id: offset
        -confidence: observed
        -evidence: the real file; UnityPy and AssetStudio read it unsigned, AssetRipper signed
        doc: Where the file starts, from the payload's start.
      - id: len_data
        type: u4
        -orig-id: size
        -confidence: observed
        -evidence: the real file; UnityPy and AssetStudio read it unsigned, AssetRipper signed
        doc: The file's size.
enums:
  container:
    0x57656200:
      id: unity_web
      -orig-id: UnityWeb
      -confidence: observed
      -evidence: the real file
      doc: "`Web` and the NUL: UnityWeb, the payload LZMA-compressed."
    0x52617700:
      id: unity_raw
      -orig-id: UnityRaw
      -confidence: sourced
      -evidence: UnityPy, AssetStudio and AssetRipper; no UnityRaw file in the corpus (the synthetic corpus/unity/raw.unity-web)
      doc: "`Raw` and the NUL: UnityRaw, the payload stored."
