meta:
  id: unity_bundle
  title: Unity asset bundle (UnityFS), the container of a bundle's serialized and resource files
  application: Unity 5.3 to 6000.x asset bundles (format versions 6 to 8); the test corpus is 2019.4 to 2023.1
  file-extension: bundle
  license: CC0-1.0
  endian: be
  -layout: unity-bundle
doc: |
  A UnityFS asset bundle: a header, the blocks info (a table of storage blocks and a directory
  of the files the bundle holds), and the storage blocks. Every number is big endian.

  The blocks info is compressed as the header's flags say (stored, LZMA, LZ4 or LZ4HC) and
  lies right after the header or at the very end of the file. Its decompressed bytes are the
  layout `unity-bundle-blocks-info`. The storage blocks follow one another; each is compressed
  on its own, as its entry in the blocks info says, and their decompressed bytes, joined, are
  the bundle's data, which the directory cuts into files (a serialized file `CAB-...`, its
  resource file `CAB-....resS`, ...). Decompression and the cutting are in
  `formats/src/unity/files/bundle.rs`; every declared size is checked before anything is
  allocated.

  From format version 7 the header is padded to a multiple of 16 bytes; from Unity 2020.3.34,
  2021.3.2 and 2022.1.1 a flag (0x200) asks for padding to 16 before the storage blocks too,
  so that the files inside start on aligned boundaries. Before those versions Unity's Chinese
  releases used the same bit for their encryption, which is refused here.
doc-ref:
  - UnityPy 1.25.4, UnityPy/files/BundleFile.py (read_fs) and UnityPy/enums/BundleFile.py
  - AssetStudio, AssetStudio/BundleFile.cs
  - AssetRipper, Source/AssetRipper.IO.Files/BundleFiles/ (BundleFlags.cs, FileStream/)
-confidence: observed
-evidence: the five bundles of the shared corpus (format 6 from 2019.4.0, 7 from 2020.3.0, 8 from 2022.1.20), read and written back byte for byte
-relations:
  - id: len_file_is_file_size
    doc: |
      The header's size equals the size of the whole file. AssetRipper notes bundles where it
      is the size of the decompressed data instead, so a disagreement is only reported.
    -severity: warning
    -confidence: observed
    -evidence: all five corpus bundles; AssetRipper's FileStreamBundleHeader.Size remark
  - id: blocks_info_at_end_fits
    doc: |
      When the blocks info is at the end (flag 0x80), the bytes after the header and its
      padding hold at least the compressed blocks info.
    -confidence: sourced
    -evidence: UnityPy (read_fs reads the last len_blocks_info_compressed bytes of the file)
  - id: blocks_info_decompresses
    doc: |
      The compressed blocks info decompresses, by the header's compression, to exactly
      len_blocks_info bytes, which read as `unity-bundle-blocks-info` to their end.
    -confidence: observed
    -evidence: all five corpus bundles (LZ4HC)
  - id: blocks_decompress
    doc: |
      The storage blocks take exactly their compressed sizes, one after another, from where
      the blocks follow the header (and its paddings), and each decompresses to exactly its
      uncompressed size; the directory's ranges lie in the joined data.
    -confidence: observed
    -evidence: all five corpus bundles (one LZMA block each)
seq:
  - id: header
    type: header
    -orig-id: Header
    -confidence: observed
    -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
    doc: The signature, versions, sizes and flags.
  - id: pad_header
    size: (16 - _io.pos % 16) % 16
    if: header.version >= 7
    -orig-id: (AlignStream(16))
    -confidence: observed
    -evidence: format 7 and 8 corpus bundles (3 bytes of zeros after a 29-byte header); UnityPy, AssetStudio and AssetRipper align from format 7
    doc: |
      Padding to a multiple of 16 bytes from the start of the file, from format version 7;
      kept verbatim (zeros in the corpus). UnityPy also aligns 2019.4.15 and later bundles that
      say format 6, which is not done here.
  - id: blocks_info
    size: header.len_blocks_info_compressed
    if: (header.flags & 0x80) == 0
    -orig-id: BlocksInfo (compressed)
    -confidence: observed
    -evidence: LZ4HC in every corpus bundle
    doc: |
      The compressed blocks info, when it follows the header (flag 0x80 clear); compression
      by `header.flags & 0x3F`, to `header.len_blocks_info` bytes.
  - id: pad_blocks_info
    size: (16 - _io.pos % 16) % 16
    if: (header.flags & 0x200) != 0
    -orig-id: (BlockInfoNeedPaddingAtStart)
    -confidence: observed
    -evidence: the 2022.1 and 2023.1 corpus bundles (3 bytes of zeros); sourced from AssetRipper's BundleFlags (2020.3.34f1, 2021.3.2f1, 2022.1.1f1)
    doc: Padding to a multiple of 16 bytes before the storage blocks (flag 0x200), kept verbatim.
  - id: blocks
    size-eos: true
    if: (header.flags & 0x80) == 0
    -orig-id: (storage blocks)
    -confidence: observed
    -evidence: one LZMA block per corpus bundle
    doc: |
      The storage blocks, one after another, each as long as its compressed size in the
      blocks info (the rest of the file).
  - id: blocks_and_blocks_info
    size-eos: true
    if: (header.flags & 0x80) != 0
    -orig-id: (storage blocks, then BlocksInfo)
    -confidence: sourced
    -evidence: UnityPy and AssetRipper (flag 0x80, kArchiveBlocksInfoAtTheEnd); no corpus bundle
    doc: |
      When the blocks info is at the end (flag 0x80): the storage blocks, then the compressed
      blocks info, which is the last `header.len_blocks_info_compressed` bytes of the file.
types:
  header:
    doc: The bundle header (UnityFS).
    -confidence: observed
    seq:
      - id: signature
        contents: [UnityFS, 0]
        -orig-id: signature
        -confidence: observed
        -severity: error
        -severity-reason: a magic - without it the bytes are not a UnityFS bundle, and a constant is not kept to be written back
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The text UnityFS and a NUL. (UnityWeb, UnityRaw and UnityArchive are older containers, not read here.)
      - id: version
        type: u4
        valid:
          min: 6
          max: 8
        -orig-id: version
        -confidence: observed
        -evidence: 6, 7 and 8 in the corpus; AssetRipper's BundleVersion names 7 BF_LargeFilesSupport
        doc: The format version.
      - id: unity_version
        type: strz
        encoding: UTF-8
        -orig-id: unityVersion (version_player)
        -confidence: observed
        -evidence: 5.x.x in every corpus bundle
        doc: The version of the bundle format's player, written by Unity as 5.x.x.
      - id: unity_revision
        type: strz
        encoding: UTF-8
        -orig-id: unityRevision (version_engine)
        -confidence: observed
        -evidence: the editor version of each corpus bundle (2019.4.0f1 ...)
        doc: The editor version that built the bundle (2021.3.0f1).
      - id: len_file
        type: s8
        -orig-id: size
        -confidence: observed
        -evidence: the file's size in all five corpus bundles
        doc: The size of the bundle (see the relation len_file_is_file_size).
      - id: len_blocks_info_compressed
        type: u4
        -orig-id: compressedBlocksInfoSize
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The bytes the compressed blocks info takes in the file.
      - id: len_blocks_info
        type: u4
        -orig-id: uncompressedBlocksInfoSize
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The bytes of the blocks info once decompressed.
      - id: flags
        type: u4
        -orig-id: flags (ArchiveFlags)
        -confidence: sourced
        -evidence: 0x43 and 0x243 in the corpus; the bits as UnityPy, AssetStudio and AssetRipper name them
        doc: |
          Bits 0-5 the blocks info's compression (0 stored, 1 LZMA, 2 LZ4, 3 LZ4HC, 4 LZHAM);
          0x40 blocks info and directory combined; 0x80 blocks info at the end; 0x100 old web
          plugin compatibility; 0x200 padding before the storage blocks (from 2020.3.34,
          2021.3.2, 2022.1.1; encryption in older Chinese releases); 0x400 and 0x1000
          encryption in Chinese releases.
    instances:
      compression:
        value: flags & 0x3F
        doc: The blocks info's compression.
      blocks_info_at_end:
        value: (flags & 0x80) != 0
        doc: Whether the blocks info is the last bytes of the file.
  blocks_info:
    -layout: unity-bundle-blocks-info
    doc: |
      The decompressed blocks info of a UnityFS bundle - the storage blocks and the directory of
      the files they hold. Big endian like the header.
    -confidence: observed
    -evidence: the five corpus bundles (one block, three files each), read and written back byte for byte
    -relations:
      - id: nodes_inside_data
        doc: Every file's range (ofs_data, len_data) lies inside the data the blocks decompress to (the sum of their uncompressed sizes).
        -confidence: observed
        -evidence: all five corpus bundles
    seq:
      - id: uncompressed_data_hash
        size: 16
        -orig-id: uncompressedDataHash
        -confidence: observed
        -evidence: zeros in every corpus bundle
        doc: A hash of the decompressed data (Hash128); kept verbatim.
      - id: num_blocks
        type: s4
        -orig-id: blocksInfoCount
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: How many storage blocks follow.
      - id: blocks
        type: storage_block
        repeat: expr
        repeat-expr: num_blocks
        -orig-id: m_BlocksInfo
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The storage blocks, in file order.
      - id: num_nodes
        type: s4
        -orig-id: nodesCount
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: How many files the directory lists.
      - id: nodes
        type: node
        repeat: expr
        repeat-expr: num_nodes
        -orig-id: m_DirectoryInfo
        -confidence: observed
        -evidence: the serialized file, its .resS and a .resource in each corpus bundle
        doc: The files of the bundle, as ranges of the decompressed data.
      - id: pad
        size-eos: true
        -orig-id: (alignment to 4)
        -confidence: sourced
        -evidence: AssetRipper issue 1470 (blocks info padded to a multiple of 4 bytes); none in the corpus
        doc: Bytes after the directory (padding seen by AssetRipper), kept verbatim.
  storage_block:
    doc: One storage block (StorageBlock), 10 bytes.
    -confidence: observed
    seq:
      - id: len_uncompressed
        type: u4
        -orig-id: uncompressedSize
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The block's size once decompressed.
      - id: len_compressed
        type: u4
        -orig-id: compressedSize
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The block's size in the file.
      - id: flags
        type: u2
        -orig-id: flags (StorageBlockFlags)
        -confidence: sourced
        -evidence: 0x41 (LZMA, streamed) in every corpus bundle; AssetStudio and AssetRipper name the bits
        doc: Bits 0-5 the block's compression (as the header's); 0x40 streamed.
  node:
    doc: One file of the bundle (Node).
    -confidence: observed
    seq:
      - id: ofs_data
        type: s8
        -orig-id: offset
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: Where the file starts in the decompressed data.
      - id: len_data
        type: s8
        -orig-id: size
        -confidence: observed
        -evidence: the five corpus bundles; UnityPy 1.25.4 (read_fs) and AssetStudio read it the same way
        doc: The file's size.
      - id: flags
        type: u4
        -orig-id: flags (NodeFlags)
        -confidence: sourced
        -evidence: 4 for the serialized file and 0 for the .resS and .resource in the corpus; AssetRipper names 1 directory, 2 deleted, 4 serialized file
        doc: 1 directory, 2 deleted, 4 serialized file.
      - id: path
        type: strz
        encoding: UTF-8
        -orig-id: path
        -confidence: observed
        -evidence: CAB-<32 hex digits>, the same with .resS and .resource
        doc: The file's name inside the bundle.
