//! UnityFS asset bundles: the spec reads the header and keeps the compressed parts
//! (`spec/unity_bundle.ksy`); this module finds the blocks info, decompresses it and the
//! storage blocks, and cuts the data into the bundle's files, checking every size first.

use super::adapter;
use super::compress::{decompress_into, Limits, Method};
use super::Located;
use crate::generated::unity_bundle::{BlocksInfo, UnityBundle};
use crate::rt::{Error, ErrorKind};

/// The error path's root of the bundle file.
pub const ROOT: &str = "unity_bundle";
/// The error path's root of the decompressed blocks info.
pub const INFO_ROOT: &str = "blocks_info";
/// Where errors in the decompressed blocks info are said to be.
pub const INFO_PLACE: &str = "(blocks info, decompressed)";

/// The signature a bundle starts with.
pub const SIGNATURE: &[u8] = b"UnityFS\0";

/// Whether `bytes` start like a UnityFS bundle.
pub fn is_bundle(bytes: &[u8]) -> bool {
    bytes.starts_with(SIGNATURE)
}

/// Header flag: the blocks info is at the end of the file.
pub const FLAG_BLOCKS_INFO_AT_END: u32 = 0x80;
/// Header flag: padding to 16 before the storage blocks (2020.3.34, 2021.3.2, 2022.1.1 on).
pub const FLAG_PADDING_AT_START: u32 = 0x200;
/// Header flags Unity's Chinese releases use for encryption (0x200 before the versions above).
pub const FLAGS_ENCRYPTION: u32 = 0x400 | 0x1000;

/// One file of the bundle.
#[derive(Debug, Clone, Copy)]
pub struct NodeFile<'a> {
    /// Its index in the directory.
    pub index: usize,
    /// Its name (`CAB-...`, `CAB-....resS`).
    pub path: &'a str,
    /// Its flags (4: a serialized file).
    pub flags: u32,
    /// Where it starts in the decompressed data.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// An opened bundle: what the spec read, the decompressed blocks info and data, and where
/// each part lies.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The file as the spec reads it.
    pub file: UnityBundle,
    /// The decompressed blocks info.
    pub blocks_info: BlocksInfo,
    /// Where the compressed blocks info starts in the file.
    pub blocks_info_at: u64,
    /// Where the first storage block starts in the file.
    pub blocks_at: u64,
    /// Per storage block, where it starts in the file and in the data.
    pub block_offsets: Vec<(u64, u64)>,
    /// The decompressed data (every block, joined).
    pub data: Vec<u8>,
}

fn at(e: Error) -> Located {
    Located::new("", e.rooted(ROOT))
}

/// Whether a bundle of `revision` uses flag 0x200 for encryption rather than padding
/// (AssetRipper's and UnityPy's cut-offs: 2020.3.34, 2021.3.2, 2022.1.1). An unreadable
/// revision counts as new.
fn old_flag_meaning(revision: &str) -> bool {
    match crate::context::unity_version(revision) {
        Ok(v) => {
            v < 20200334 || (20210000..20210302).contains(&v) || (20220000..20220101).contains(&v)
        }
        Err(_) => false,
    }
}

impl Bundle {
    /// Reads a whole bundle file: the spec, then the blocks info and the data.
    pub fn open(bytes: &[u8], limits: &Limits) -> Result<Bundle, Located> {
        let file = adapter::read_bundle(bytes).map_err(|e| Located::new("", e))?;
        Bundle::from_file(file, bytes.len() as u64, limits)
    }

    /// The offsets of the parts the spec read (header, padding, compressed blocks info).
    fn layout(file: &UnityBundle, total: u64) -> (u64, u64) {
        let header = adapter::size_of(&file.header, ());
        let after_header = header + file.pad_header.as_ref().map_or(0, |p| p.len() as u64);
        match &file.blocks_info {
            Some(info) => {
                let info_end = after_header + info.len() as u64;
                let pad = file.pad_blocks_info.as_ref().map_or(0, |p| p.len() as u64);
                (after_header, info_end + pad)
            }
            None => {
                let pad = file.pad_blocks_info.as_ref().map_or(0, |p| p.len() as u64);
                let info_at =
                    total.saturating_sub(u64::from(file.header.len_blocks_info_compressed));
                (info_at, after_header + pad)
            }
        }
    }

    /// Opens a bundle that the spec has read (`total` is the file's length).
    pub fn from_file(file: UnityBundle, total: u64, limits: &Limits) -> Result<Bundle, Located> {
        let h = &file.header;
        let flags = h.flags;
        if flags & FLAGS_ENCRYPTION != 0
            || (flags & FLAG_PADDING_AT_START != 0 && old_flag_meaning(&h.unity_revision))
        {
            return Err(at(Error::new(
                ErrorKind::Unsupported,
                adapter::size_of(h, ()) - 4,
                "an unencrypted bundle (flags without 0x400 and 0x1000, or 0x200 before 2020.3.34, 2021.3.2 and 2022.1.1)",
                format!("flags 0x{flags:X} in a bundle of {}", h.unity_revision),
            )
            .in_field("flags")
            .in_field("header")));
        }
        let (info_at, blocks_at) = Self::layout(&file, total);
        let len_info = u64::from(h.len_blocks_info_compressed);
        let (compressed, storage): (&[u8], &[u8]) = match (
            &file.blocks_info,
            &file.blocks,
            &file.blocks_and_blocks_info,
        ) {
            (Some(info), Some(blocks), _) => (info, blocks),
            (_, _, Some(both)) => {
                if (both.len() as u64) < len_info {
                    return Err(at(Error::relation(
                        UnityBundle::REL_BLOCKS_INFO_AT_END_FITS,
                        blocks_at,
                        format!("at least {len_info} bytes after the header (the compressed blocks info)"),
                        format!("{} bytes", both.len()),
                    )
                    .in_field("blocks_and_blocks_info")));
                }
                let (blocks, info) = both.split_at(both.len() - len_info as usize);
                (info, blocks)
            }
            // The spec reads exactly one of the two forms.
            _ => {
                return Err(at(Error::new(
                    ErrorKind::Inconsistent,
                    blocks_at,
                    "the storage blocks",
                    "none",
                )))
            }
        };
        // The blocks info: decompressed into a buffer of its declared size.
        let mut info_bytes = Vec::new();
        let info_limits = Limits {
            max_data: limits.max_data.min(1 << 30),
        };
        decompress_into(
            Method::of_flags(flags),
            compressed,
            u64::from(h.len_blocks_info),
            info_at,
            &info_limits,
            &mut info_bytes,
        )
        .map_err(|e| {
            at(e.in_field(if file.blocks_info.is_some() {
                "blocks_info"
            } else {
                "blocks_and_blocks_info"
            }))
        })?;
        let blocks_info =
            adapter::read_blocks_info(&info_bytes).map_err(|e| Located::new(INFO_PLACE, e))?;
        // Every block's compressed bytes must be there, and the whole data within the limit,
        // before any block is decompressed.
        let mut need = 0u64;
        let mut total_out = 0u64;
        for b in &blocks_info.blocks {
            need += u64::from(b.len_compressed);
            total_out += u64::from(b.len_uncompressed);
        }
        if need > storage.len() as u64 {
            return Err(Located::new(
                INFO_PLACE,
                Error::new(
                    ErrorKind::Count,
                    20,
                    format!(
                        "storage blocks that fit the {} bytes after the blocks info",
                        storage.len()
                    ),
                    format!(
                        "{need} compressed bytes in {} blocks",
                        blocks_info.blocks.len()
                    ),
                )
                .in_field("blocks")
                .rooted(INFO_ROOT),
            ));
        }
        if total_out > limits.max_data {
            return Err(Located::new(
                INFO_PLACE,
                Error::new(
                    ErrorKind::Count,
                    20,
                    format!(
                        "at most {} decompressed bytes (the reader's limit)",
                        limits.max_data
                    ),
                    format!("{total_out} bytes in {} blocks", blocks_info.blocks.len()),
                )
                .in_field("blocks")
                .rooted(INFO_ROOT),
            ));
        }
        let mut data = Vec::new();
        let mut block_offsets = Vec::with_capacity(blocks_info.blocks.len());
        let mut from = 0usize;
        for (i, b) in blocks_info.blocks.iter().enumerate() {
            let len = b.len_compressed as usize;
            let file_at = blocks_at + from as u64;
            block_offsets.push((file_at, data.len() as u64));
            decompress_into(
                Method::of_flags(u32::from(b.flags)),
                &storage[from..from + len],
                u64::from(b.len_uncompressed),
                file_at,
                limits,
                &mut data,
            )
            .map_err(|e| {
                at(e.at_index(i).in_field(if file.blocks.is_some() {
                    "blocks"
                } else {
                    "blocks_and_blocks_info"
                }))
            })?;
            from += len;
        }
        let bundle = Bundle {
            file,
            blocks_info,
            blocks_info_at: info_at,
            blocks_at,
            block_offsets,
            data,
        };
        if let Some(e) = bundle.node_errors().into_iter().next() {
            return Err(Located::new(INFO_PLACE, e));
        }
        Ok(bundle)
    }

    /// Where node `i`'s entry starts in the decompressed blocks info.
    fn node_offset(&self, i: usize) -> u64 {
        let mut at = 16 + 4 + 10 * self.blocks_info.blocks.len() as u64 + 4;
        for n in &self.blocks_info.nodes[..i] {
            at += 20 + n.path.len() as u64 + 1;
        }
        at
    }

    /// Every directory entry whose range does not lie inside the data.
    fn node_errors(&self) -> Vec<Error> {
        let len = self.data.len() as u64;
        let mut out = vec![];
        for (i, n) in self.blocks_info.nodes.iter().enumerate() {
            let ok = n.ofs_data >= 0
                && n.len_data >= 0
                && (n.ofs_data as u64)
                    .checked_add(n.len_data as u64)
                    .is_some_and(|end| end <= len);
            if !ok {
                out.push(
                    Error::new(
                        ErrorKind::Count,
                        self.node_offset(i),
                        format!("a range inside the {len} bytes of decompressed data"),
                        format!("offset {} and size {}", n.ofs_data, n.len_data),
                    )
                    .in_field("ofs_data")
                    .at_index(i)
                    .in_field("nodes")
                    .rooted(INFO_ROOT),
                );
            }
        }
        out
    }

    /// The bundle's files, in directory order.
    pub fn nodes(&self) -> impl Iterator<Item = NodeFile<'_>> {
        self.blocks_info.nodes.iter().enumerate().map(|(index, n)| {
            // Checked when the bundle was opened.
            let from = n.ofs_data as usize;
            let to = from + n.len_data as usize;
            NodeFile {
                index,
                path: &n.path,
                flags: n.flags,
                offset: n.ofs_data as u64,
                bytes: &self.data[from..to],
            }
        })
    }

    /// The file named `name` (compared with the last part of the node's path).
    pub fn node(&self, name: &str) -> Option<NodeFile<'_>> {
        self.nodes()
            .find(|n| n.path == name || n.path.rsplit('/').next() == Some(name))
    }

    /// The editor version that built the bundle, as written.
    pub fn revision(&self) -> &str {
        &self.file.header.unity_revision
    }
}

/// The relations of `unity-bundle` that hold for the whole file: its size, and that the blocks
/// info and the blocks decompress and the directory's ranges lie in the data.
pub fn relations(file: &UnityBundle, total: u64) -> Vec<Error> {
    let limits = Limits::for_input(total);
    match Bundle::from_file(file.clone(), total, &limits) {
        Ok(_) => vec![],
        Err(l) => vec![l.flatten()],
    }
}

/// The warning-only relations of `unity-bundle`.
pub fn warnings(file: &UnityBundle, total: u64) -> Vec<Error> {
    let h = &file.header;
    if h.len_file != total as i64 {
        let at = 4 + 4 + h.unity_version.len() as u64 + 1 + h.unity_revision.len() as u64 + 1;
        return vec![Error::relation(
            UnityBundle::REL_LEN_FILE_IS_FILE_SIZE,
            at,
            format!("the file's size, {total} bytes"),
            h.len_file.to_string(),
        )
        .in_field("len_file")
        .in_field("header")
        .rooted(ROOT)];
    }
    vec![]
}

/// The relations of `unity-bundle-blocks-info` on its own: the directory's ranges lie within
/// the data the blocks decompress to.
pub fn info_relations(info: &BlocksInfo) -> Vec<Error> {
    let total: u64 = info
        .blocks
        .iter()
        .map(|b| u64::from(b.len_uncompressed))
        .sum();
    let mut out = vec![];
    let mut at = 16 + 4 + 10 * info.blocks.len() as u64 + 4;
    for (i, n) in info.nodes.iter().enumerate() {
        let ok = n.ofs_data >= 0
            && n.len_data >= 0
            && (n.ofs_data as u64)
                .checked_add(n.len_data as u64)
                .is_some_and(|end| end <= total);
        if !ok {
            out.push(
                Error::relation(
                    BlocksInfo::REL_NODES_INSIDE_DATA,
                    at,
                    format!("a range inside the {total} bytes the blocks decompress to"),
                    format!("offset {} and size {}", n.ofs_data, n.len_data),
                )
                .in_field("ofs_data")
                .at_index(i)
                .in_field("nodes")
                .rooted(INFO_ROOT),
            );
        }
        at += 20 + n.path.len() as u64 + 1;
    }
    out
}
