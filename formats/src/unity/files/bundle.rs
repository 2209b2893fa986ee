//! UnityFS asset bundles: the spec reads the header and keeps the compressed parts
//! (`spec/unity_bundle.ksy`); this module finds the blocks info, decompresses it and the
//! storage blocks, and cuts the data into the bundle's files, checking every size first.
//!
//! [`unpack`] is the one pass: the verdict reports what it finds, and [`Bundle::open`]
//! refuses a bundle on its first error. A relation the spec states that does not hold is
//! reported at its rule's severity; when the bundle's files cannot be read because of it (a
//! blocks info or a block that does not decompress, a directory range outside the data), a
//! decoder finding (an error) at the same place says so too.

use super::compress::{self, decompress_into, stored_size, Limits, Method};
use super::{Located, Shared};
use crate::context::{Context, HeldBytes};
use crate::generated::unity_bundle::{
    BlocksInfo, BlocksInfoPlace, BlocksInfoPos, BlocksInfoRef, Header, HeaderPlace, NodePlace,
    UnityBundle, UnityBundlePlace, UnityBundlePos, UnityBundleRef,
};
use crate::rt::{Error, ErrorKind, Path, Place, Root, Rule, Severity};
use rayon::prelude::*;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// The error path's root of the bundle file.
pub const ROOT: &str = "unity_bundle";
/// Where errors in the decompressed blocks info are said to be.
pub const INFO_PLACE: &str = "(blocks info, decompressed)";
/// The decompressed blocks info, as errors at the compressed one name it.
const INFO_NAME: &str = "decompressed blocks info";

/// The signature a UnityFS bundle starts with.
pub const SIGNATURE: &[u8] = b"UnityFS\0";

/// Whether `bytes` start like a bundle: UnityFS, UnityWeb or UnityRaw.
pub fn is_bundle(bytes: &[u8]) -> bool {
    bytes.starts_with(SIGNATURE) || super::web::is_web(bytes)
}

/// The layout id of the bundle `bytes` start like (`unity-bundle`, `unity-web`), if any.
pub fn layout_of(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(SIGNATURE) {
        Some(<UnityBundle as Root>::ID)
    } else if super::web::is_web(bytes) {
        Some(<crate::generated::unity_web::UnityWeb as Root>::ID)
    } else {
        None
    }
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
    /// How many bytes it holds ([`Bundle::node_bytes`] brings them).
    pub len: u64,
}

/// An opened bundle: its container's header and directory, and the decompressed data the
/// directory cuts into files. UnityFS and the older UnityWeb and UnityRaw bundles differ only
/// up to here; everything after (the files, their bytes, writing one back) is shared.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The container and where its parts lie.
    pub container: Container,
    /// The data (a UnityFS bundle's blocks, joined; a UnityWeb or UnityRaw bundle's payload,
    /// its directory included): [`Bundle::data`], or a file of it at a time.
    data: Data,
    /// What the verdict warns about (relations that do not hold and that reading does not
    /// need).
    pub warnings: Vec<Error>,
}

/// A bundle's data, whole in memory or brought a file at a time.
#[derive(Debug, Clone)]
enum Data {
    /// Stored blocks (the file's bytes, shared), or blocks decompressed when it was opened.
    Whole(Shared),
    /// LZ4 blocks: every one decompressed when the bundle was opened (the verdict checks
    /// them all) but not kept; a file of them is decompressed again when it is asked for,
    /// so the resource files no mesh streams from (textures, sounds: most of a bundle)
    /// never take memory.
    Lz4(Arc<Lz4Data>),
}

/// The LZ4 blocks of a bundle, in the file they were read from.
#[derive(Debug)]
struct Lz4Data {
    file: Shared,
    blocks: Vec<Block>,
    /// The field path of the blocks (for errors: a block that decompressed when the bundle
    /// opened fails later only if the file changed under its memory map).
    blocks_path: Path,
    /// The size of the data.
    len: usize,
    /// Per directory entry, its bytes once asked for.
    nodes: Vec<OnceLock<Shared>>,
    /// Per directory entry not kept whole, its first [`HEAD`] bytes (or all it has).
    heads: Vec<Vec<u8>>,
}

impl Lz4Data {
    /// The bytes of `range` of the data (inside it), decompressed from the blocks it overlaps.
    fn range(&self, range: Range<usize>) -> crate::rt::Result<Vec<u8>> {
        let mut parts = lz4_parts(
            &self.blocks,
            &self.file,
            std::slice::from_ref(&range),
            false,
        )
        .map_err(|(i, e)| e.placed(self.blocks[i].file_at, &self.blocks_path.index(i)))?;
        Ok(parts.pop().unwrap_or_default())
    }
}

/// A block to decompress (its index), and the pieces of kept buffers it fills, each with where
/// it starts in the block.
type Job<'a> = (usize, Vec<(usize, &'a mut [u8])>);

/// Decompresses the LZ4 `blocks` of `source` that the ranges `keep` of the data need (in
/// order, not overlapping), into one buffer per range; with `every`, the other blocks too
/// (checked, not kept). Blocks decompress on their own, so on every core: a block wholly
/// inside one range in place, any other through a buffer of its core's that is used again
/// (kept in the cache, and no page of the data faulted in for it). The first block that
/// fails, and why.
fn lz4_parts(
    blocks: &[Block],
    source: &[u8],
    keep: &[Range<usize>],
    every: bool,
) -> Result<Vec<Vec<u8>>, (usize, Error)> {
    let mut out: Vec<Vec<u8>> = keep.iter().map(|r| vec![0u8; r.len()]).collect();
    // Per block, the pieces of the kept buffers it fills and where each starts in the block.
    let mut jobs: Vec<Job<'_>> = vec![];
    let mut rests: Vec<(&Range<usize>, &mut [u8])> = keep
        .iter()
        .zip(out.iter_mut().map(Vec::as_mut_slice))
        .collect();
    for (i, b) in blocks.iter().enumerate() {
        let end = b.data_at + b.size;
        let mut pieces = vec![];
        for (r, rest) in rests.iter_mut() {
            let (from, to) = (r.start.max(b.data_at), r.end.min(end));
            if from < to {
                let (piece, after) = std::mem::take(rest).split_at_mut(to - from);
                *rest = after;
                pieces.push((from - b.data_at, piece));
            }
        }
        if every || !pieces.is_empty() {
            jobs.push((i, pieces));
        }
    }
    let one = |scratch: &mut Vec<u8>, (i, mut pieces): Job<'_>| {
        let b = &blocks[i];
        let input = &source[b.input.clone()];
        if let [(0, whole)] = pieces.as_mut_slice() {
            if whole.len() == b.size {
                return compress::lz4_to(input, b.file_at, whole).map_err(|e| (i, e));
            }
        }
        if scratch.len() < b.size {
            scratch.resize(b.size, 0);
        }
        compress::lz4_to(input, b.file_at, &mut scratch[..b.size]).map_err(|e| (i, e))?;
        for (skip, piece) in pieces {
            piece.copy_from_slice(&scratch[skip..skip + piece.len()]);
        }
        Ok(())
    };
    // A block or two (a mesh's streamed range, a file's head) on this thread: handing them
    // to the pool and waiting for it costs more than decompressing them.
    let done: Vec<Result<(), (usize, Error)>> = if jobs.len() <= 2 {
        let mut scratch = vec![];
        jobs.into_iter().map(|j| one(&mut scratch, j)).collect()
    } else {
        jobs.into_par_iter().map_init(Vec::new, one).collect()
    };
    done.into_iter().collect::<Result<(), _>>()?;
    Ok(out)
}

/// A file of a bundle with LZ4 blocks, as a held resource: a range asked for is decompressed
/// from the blocks it overlaps (a streamed mesh reads its own range, not the whole file).
struct Lz4Node {
    data: Arc<Lz4Data>,
    range: Range<usize>,
}

impl HeldBytes for Lz4Node {
    fn size(&self) -> u64 {
        self.range.len() as u64
    }

    fn range(&self, r: Range<usize>) -> crate::rt::Result<Cow<'_, [u8]>> {
        let from = self.range.start + r.start;
        self.data.range(from..from + r.len()).map(Cow::Owned)
    }
}

/// A bundle as the verdict unpacked it, before it holds the file's bytes: a bundle whose
/// blocks are all stored keeps where they lie in the file, and [`Unbound::bind`] shares them
/// (copying 4 MB of stored blocks into fresh memory was most of `unity list`'s time).
pub struct Unbound {
    pub(super) container: Container,
    pub(super) data: Payload,
    pub(super) warnings: Vec<Error>,
}

/// An unbound bundle's data.
pub(super) enum Payload {
    /// Decompressed.
    Unpacked(Vec<u8>),
    /// Stored: these bytes of the file.
    InFile(Range<usize>),
    /// LZ4 blocks of the file, checked, and what was kept of the files as they were: the
    /// serialized files whole (read whatever the command), the others' heads; per file, its
    /// directory index, the bytes and whether they are the whole file.
    Lz4 {
        blocks: Vec<Block>,
        kept: Vec<(usize, Vec<u8>, bool)>,
        /// The field path of the blocks, for an error in one decompressed later.
        path: Path,
    },
}

impl Unbound {
    /// The bundle over `file`, the bytes it was unpacked from.
    pub fn bind(self, file: &Shared) -> Bundle {
        let files = self.container.count();
        Bundle {
            container: self.container,
            data: match self.data {
                Payload::Unpacked(v) => Data::Whole(Shared::new(v)),
                Payload::InFile(r) => Data::Whole(file.slice(r)),
                Payload::Lz4 { blocks, kept, path } => {
                    let nodes: Vec<OnceLock<Shared>> =
                        (0..files).map(|_| OnceLock::new()).collect();
                    let mut heads = vec![vec![]; files];
                    for (i, bytes, whole) in kept {
                        match (nodes.get(i), heads.get_mut(i)) {
                            (Some(n), _) if whole => {
                                let _ = n.set(Shared::new(bytes));
                            }
                            (_, Some(h)) => *h = bytes,
                            _ => {}
                        }
                    }
                    Data::Lz4(Arc::new(Lz4Data {
                        file: file.clone(),
                        len: blocks.last().map_or(0, |b| b.data_at + b.size),
                        blocks,
                        blocks_path: path,
                        nodes,
                        heads,
                    }))
                }
            },
            warnings: self.warnings,
        }
    }
}

/// The header and directory of a bundle, by its container.
#[derive(Debug, Clone)]
pub enum Container {
    /// A UnityFS bundle (`unity-bundle`).
    Fs(FsParts),
    /// A UnityWeb or UnityRaw bundle (`unity-web`).
    Web(super::web::WebParts),
}

impl Container {
    /// How many files the directory lists.
    fn count(&self) -> usize {
        match self {
            Container::Fs(p) => p.blocks_info.nodes.len(),
            Container::Web(p) => p.files.len(),
        }
    }
}

/// A UnityFS bundle's header and decompressed blocks info, and where each part lies.
#[derive(Debug, Clone)]
pub struct FsParts {
    /// The header.
    pub header: Header,
    /// The decompressed blocks info.
    pub blocks_info: BlocksInfo,
    /// Where the compressed blocks info starts in the file.
    pub blocks_info_at: u64,
    /// Where the first storage block starts in the file.
    pub blocks_at: u64,
    /// Per storage block, where it starts in the file and in the data.
    pub block_offsets: Vec<(u64, u64)>,
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

/// A problem found in one place (`place`: the file inside the bundle, or empty), said twice:
/// the relation the spec states, at its severity, and the decoder's finding (an error) that
/// reading the bundle's files needs it.
pub(super) fn breach(
    out: &mut Vec<Located>,
    place: &str,
    rule: &'static Rule,
    offset: u64,
    path: &Path,
    expected: String,
    found: String,
) {
    out.push(Located::new(
        place,
        Error::relation(rule, 0, expected.clone(), found.clone()).placed(offset, path),
    ));
    out.push(Located::new(
        place,
        Error::new(ErrorKind::Unsupported, 0, expected, found).placed(offset, path),
    ));
}

/// A decompressed part (at `place`) that its layout does not read, said twice: the relation
/// `rule` that says it reads, at its severity, and the reader's error, where reading stops.
pub(super) fn unreadable(out: &mut Vec<Located>, place: &str, rule: &'static Rule, e: Error) {
    let mut relation = e.clone();
    relation.kind = ErrorKind::Relation;
    relation.rule = Some(rule);
    relation.severity = rule.severity;
    out.push(Located::new(place, relation));
    out.push(Located::new(place, e));
}

/// [`breach`] of an error found while reading (a decompressor's, a reader's), at its offset.
pub(super) fn breach_of(
    out: &mut Vec<Located>,
    place: &str,
    rule: &'static Rule,
    e: &Error,
    path: &Path,
) {
    let offset = e.offset.unwrap_or(0);
    breach(
        out,
        place,
        rule,
        offset,
        path,
        e.expected.clone(),
        e.found.clone(),
    );
}

/// What unpacking a bundle found ([`unpack_located`], and the UnityWeb one).
/// The error for a bundle none of whose files (`names`, in directory order) is a serialized
/// file of a format read here: the objects are in serialized files, so listing such a bundle
/// would say nothing about what it holds. Unplaced: the caller says where.
pub(super) fn no_serialized_file(names: &[&str]) -> Error {
    let count = names.len();
    let mut shown: Vec<String> = names
        .iter()
        .take(8)
        .map(|n| format!("`{}`", n.escape_debug()))
        .collect();
    if count > 8 {
        shown.push(format!("and {} more", count - 8));
    }
    Error::unplaced(
        ErrorKind::Unsupported,
        "a bundle holding a serialized file of format 5 to 22 (where its objects are)",
        match count {
            0 => "no file".to_string(),
            n => format!("{n} files, none of them one: {}", shown.join(", ")),
        },
    )
}

pub(super) struct Unpacked {
    pub(super) bundle: Option<Unbound>,
    pub(super) findings: Vec<Located>,
    /// Where findings inside the decompressed part (the blocks info, the payload) are
    /// reported in the bundle: the compressed part's offset and field path, and its name.
    pub(super) inner_at: u64,
    pub(super) inner_path: Path,
    pub(super) inner_name: &'static str,
}

impl Unpacked {
    /// Every finding, each at its place in the bundle, and the bundle when it opens.
    pub(super) fn placed(self) -> (Option<Unbound>, Vec<Error>) {
        let findings = self
            .findings
            .iter()
            .map(|l| relocated(l, self.inner_at, &self.inner_path, self.inner_name))
            .collect();
        (self.bundle, findings)
    }

    /// The bundle, or the first error-severity finding (at its place: in the bundle, or in
    /// the decompressed part).
    pub(super) fn opened(mut self) -> Result<Unbound, Located> {
        if let Some(e) = self
            .findings
            .iter()
            .position(|l| l.error.severity == Severity::Error)
        {
            return Err(self.findings.swap_remove(e));
        }
        Ok(self.bundle.expect("a bundle without errors unpacks"))
    }

    /// The warnings of a bundle that opens, each at its place in the bundle.
    pub(super) fn warnings(&self) -> Vec<Error> {
        self.findings
            .iter()
            .map(|l| relocated(l, self.inner_at, &self.inner_path, self.inner_name))
            .collect()
    }
}

/// Decompresses and cuts a bundle the spec has read, reporting every problem: each error
/// where it is (in the bundle, or in the decompressed blocks info).
fn unpack_located(
    view: &UnityBundleRef<'_>,
    at: &Place<'_, UnityBundlePos>,
    limits: &Limits,
) -> Unpacked {
    let mut out = Unpacked {
        bundle: None,
        findings: vec![],
        inner_at: at.span().start,
        inner_path: at.field_path().clone(),
        inner_name: INFO_NAME,
    };
    let f = &mut out.findings;
    let h = &view.header;
    let total = at.span().end;
    if h.len_file != total as i64 {
        f.push(Located::from(at.header().len_file().violates(
            UnityBundle::REL_LEN_FILE_IS_FILE_SIZE,
            format!("the file's size, {total} bytes"),
            h.len_file.to_string(),
        )));
    }
    let flags = h.flags;
    if flags & FLAGS_ENCRYPTION != 0
        || (flags & FLAG_PADDING_AT_START != 0 && old_flag_meaning(h.unity_revision))
    {
        f.push(Located::from(at.header().flags().error(
            ErrorKind::Unsupported,
            "an unencrypted bundle (flags without 0x400 and 0x1000, or 0x200 before 2020.3.34, 2021.3.2 and 2022.1.1)",
            format!("flags 0x{flags:X} in a bundle of {}", h.unity_revision.escape_debug()),
        )));
        return out;
    }
    let len_info = u64::from(h.len_blocks_info_compressed);
    let p = at.get();
    // The compressed blocks info and the storage blocks, and where each starts.
    let (compressed, storage, info_at, blocks_at, info_path, blocks_path) =
        match (view.blocks_info, view.blocks, view.blocks_and_blocks_info) {
            (Some(info), Some(blocks), _) => {
                let info_at = p.blocks_info.map_or(0, |s| s.start);
                let blocks_at = p.blocks.map_or(0, |s| s.start);
                (
                    info,
                    blocks,
                    info_at,
                    blocks_at,
                    at.blocks_info().field_path().clone(),
                    at.blocks().field_path().clone(),
                )
            }
            (_, _, Some(both)) => {
                let place = at.blocks_and_blocks_info();
                let start = place.span().start;
                if (both.len() as u64) < len_info {
                    breach(
                        f,
                        "",
                        UnityBundle::REL_BLOCKS_INFO_AT_END_FITS,
                        start,
                        place.field_path(),
                        format!(
                        "at least {len_info} bytes after the header (the compressed blocks info)"
                    ),
                        format!("{} bytes", both.len()),
                    );
                    return out;
                }
                let (blocks, info) = both.split_at(both.len() - len_info as usize);
                let path = place.field_path().clone();
                (
                    info,
                    blocks,
                    start + blocks.len() as u64,
                    start,
                    path.clone(),
                    path,
                )
            }
            // The spec reads exactly one of the two forms.
            _ => {
                f.push(Located::from(at.error(
                    ErrorKind::Inconsistent,
                    "the storage blocks",
                    "none",
                )));
                return out;
            }
        };
    out.inner_at = info_at;
    out.inner_path = info_path.clone();

    // The blocks info, decompressed into a buffer of its declared size.
    let method = Method::of_flags(flags);
    let want = u64::from(h.len_blocks_info);
    let info_limits = Limits {
        max_data: limits.max_data.min(1 << 30),
    };
    let mut info_bytes = Vec::new();
    if let Err(e) = decompress_into(
        method,
        compressed,
        want,
        info_at,
        &info_limits,
        &mut info_bytes,
    ) {
        if data_error(method, want, &info_limits) {
            breach_of(
                f,
                "",
                UnityBundle::REL_BLOCKS_INFO_DECOMPRESSES,
                &e,
                &info_path,
            );
        } else {
            f.push(Located::from(e.placed(info_at, &info_path)));
        }
        return out;
    }
    let parsed = match BlocksInfo::read::<true>(&info_bytes, &Context::new()) {
        Ok(p) => p,
        Err(e) => {
            unreadable(f, INFO_PLACE, UnityBundle::REL_BLOCKS_INFO_DECOMPRESSES, e);
            return out;
        }
    };
    let info_pos = parsed.pos.unwrap_or_default();
    let info_place = Place::root(&info_pos, BlocksInfo::ROOT);
    let info = &parsed.value;
    f.extend(
        parsed
            .warnings
            .into_iter()
            .map(|w| Located::new(INFO_PLACE, w)),
    );
    f.extend(
        info_findings(info, &info_place)
            .into_iter()
            .map(|e| Located::new(INFO_PLACE, e)),
    );

    // Every block's compressed bytes must be there, and the whole data within the limit,
    // before any block is decompressed.
    let need: u64 = info
        .blocks
        .iter()
        .map(|b| u64::from(b.len_compressed))
        .sum();
    let total_out: u64 = info
        .blocks
        .iter()
        .map(|b| u64::from(b.len_uncompressed))
        .sum();
    if need > storage.len() as u64 {
        breach(
            f,
            "",
            UnityBundle::REL_BLOCKS_DECOMPRESS,
            blocks_at,
            &blocks_path,
            format!(
                "storage blocks that fit the {} bytes after the blocks info",
                storage.len()
            ),
            format!("{need} compressed bytes in {} blocks", info.blocks.len()),
        );
        return out;
    }
    if total_out > limits.max_data {
        f.push(Located::new(
            INFO_PLACE,
            info_place.blocks().error(
                ErrorKind::Count,
                format!(
                    "at most {} decompressed bytes (the reader's limit)",
                    limits.max_data
                ),
                format!("{total_out} bytes in {} blocks", info.blocks.len()),
            ),
        ));
        return out;
    }
    // Stored blocks lie one after another in the file: all stored, the data is those bytes.
    let stored = info
        .blocks
        .iter()
        .all(|b| Method::of_flags(u32::from(b.flags)) == Method::Stored);
    // Where each block's bytes are in the file, and where its data goes.
    let mut blocks = Vec::with_capacity(info.blocks.len());
    let mut block_offsets = Vec::with_capacity(info.blocks.len());
    let (mut from, mut to) = (0usize, 0usize);
    for b in info.blocks.iter() {
        let len = b.len_compressed as usize;
        let file_at = blocks_at + from as u64;
        block_offsets.push((file_at, if stored { from } else { to } as u64));
        blocks.push(Block {
            method: Method::of_flags(u32::from(b.flags)),
            input: from..from + len,
            file_at,
            data_at: to,
            size: b.len_uncompressed as usize,
        });
        from += len;
        to += b.len_uncompressed as usize;
    }
    let lz4 = !stored
        && blocks
            .iter()
            .all(|b| matches!(b.method, Method::Lz4 | Method::Lz4Hc));
    let mut data = vec![];
    // What an LZ4 bundle keeps of its files as their blocks are checked.
    let mut kept = vec![];
    let failed = if stored {
        blocks.iter().enumerate().find_map(|(i, b)| {
            let e = stored_size(&storage[b.input.clone()], b.size as u64, b.file_at).err()?;
            Some((i, e))
        })
    } else if lz4 {
        let files = kept_ranges(info, total_out);
        let ranges: Vec<Range<usize>> = files.iter().map(|(_, r, _)| r.clone()).collect();
        // Each block within what its bytes can expand to before anything is sized by it.
        let too_big = blocks.iter().enumerate().find_map(|(i, b)| {
            let e =
                compress::lz4_fits(&storage[b.input.clone()], b.size as u64, b.file_at).err()?;
            Some((i, e))
        });
        too_big.or_else(|| match lz4_parts(&blocks, storage, &ranges, true) {
            Ok(bytes) => {
                kept = files
                    .iter()
                    .zip(bytes)
                    .map(|((i, _, whole), b)| (*i, b, *whole))
                    .collect();
                None
            }
            Err(e) => Some(e),
        })
    } else {
        // The whole data at once (its size is within the limit, checked above): growing it
        // block by block moved what was decompressed before at each step.
        data.reserve_exact(total_out as usize);
        blocks.iter().enumerate().find_map(|(i, b)| {
            let input = &storage[b.input.clone()];
            let e = decompress_into(b.method, input, b.size as u64, b.file_at, limits, &mut data)
                .err()?;
            Some((i, e))
        })
    };
    if let Some((i, e)) = failed {
        let b = &blocks[i];
        let path = blocks_path.index(i);
        if data_error(b.method, b.size as u64, limits) {
            breach_of(f, "", UnityBundle::REL_BLOCKS_DECOMPRESS, &e, &path);
        } else {
            f.push(Located::from(e.placed(b.file_at, &path)));
        }
        return out;
    }
    if f.iter().any(|l| l.error.severity == Severity::Error) {
        return out;
    }
    let warnings = out.warnings();
    // `storage` is the file's from `blocks_at`, and `from` of it are the blocks.
    let in_file = |r: &Range<usize>| blocks_at as usize + r.start..blocks_at as usize + r.end;
    let data = if stored {
        Payload::InFile(in_file(&(0..from)))
    } else if lz4 {
        for b in &mut blocks {
            b.input = in_file(&b.input);
        }
        Payload::Lz4 {
            blocks,
            kept,
            path: blocks_path,
        }
    } else {
        Payload::Unpacked(data)
    };
    out.bundle = Some(Unbound {
        container: Container::Fs(FsParts {
            header: view.header.own(),
            blocks_info: info.own(),
            blocks_info_at: info_at,
            blocks_at,
            block_offsets,
        }),
        data,
        warnings,
    });
    out
}

/// A storage block: how it is compressed, its bytes (in the storage while the bundle is
/// unpacked, in the file after), where they start in the file (for errors), where the bytes
/// it decompresses to go in the data, and how many they are.
#[derive(Debug)]
pub(super) struct Block {
    method: Method,
    input: Range<usize>,
    file_at: u64,
    data_at: usize,
    size: usize,
}

/// How many bytes of each other file are kept when a bundle of LZ4 blocks opens: what tells a
/// serialized file without the flag that says so.
const HEAD: usize = super::serialized::LOOKS_AT;

/// What of the data a bundle of LZ4 blocks keeps as it checks them, per directory entry: the
/// serialized files (flag 4) whole, the head of every other file (and whether it is the
/// whole file); in order, each inside the `total` bytes of the data and after the one before
/// (a directory that says otherwise is refused by its relation; nothing is kept ahead for it).
fn kept_ranges(info: &BlocksInfoRef<'_>, total: u64) -> Vec<(usize, Range<usize>, bool)> {
    let mut out: Vec<(usize, Range<usize>, bool)> = info
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.ofs_data >= 0 && n.len_data > 0)
        .filter(|(_, n)| (n.ofs_data as u64).saturating_add(n.len_data as u64) <= total)
        .map(|(i, n)| {
            let (at, len) = (n.ofs_data as usize, n.len_data as usize);
            let whole = n.flags & 4 != 0;
            (i, at..at + if whole { len } else { len.min(HEAD) }, whole)
        })
        .collect();
    out.sort_by_key(|(_, r, _)| r.start);
    let mut end = 0;
    out.retain(|(_, r, _)| {
        let fits = r.start >= end;
        end = end.max(r.end);
        fits
    });
    out
}

/// Whether a decompression error is about the data (a relation: the bytes do not decompress
/// to their declared size) rather than about this reader (an unsupported method, the limit).
pub(super) fn data_error(method: Method, size: u64, limits: &Limits) -> bool {
    !matches!(method, Method::Other(_)) && size <= limits.max_data
}

/// A finding inside a decompressed part (`name`: the blocks info, the payload), said at the
/// compressed part of the bundle (at `at`, `path`) with the inner place in its expectation;
/// others as they are.
pub(super) fn relocated(l: &Located, at: u64, path: &Path, name: &str) -> Error {
    let inner = &*l.error;
    if l.place.is_empty() {
        return inner.clone();
    }
    let mut e = inner.clone();
    e.expected = format!(
        "{} (at 0x{:X} {} of the {name})",
        inner.expected,
        inner.offset.unwrap_or(0),
        inner.path_string()
    );
    e.placed(at, path)
}

/// Every finding of a bundle the spec has read (the verdict's `unity-bundle` part), each at
/// its place in the bundle, and the bundle when it opens.
pub fn unpack(
    view: &UnityBundleRef<'_>,
    at: &Place<'_, UnityBundlePos>,
    limits: &Limits,
) -> (Option<Unbound>, Vec<Error>) {
    unpack_located(view, at, limits).placed()
}

impl Bundle {
    /// Reads a whole bundle file (UnityFS, UnityWeb or UnityRaw, by its signature): the spec,
    /// then the directory and the data. Refused on the first error (in the bundle, or in its
    /// decompressed blocks info or payload); warnings are kept.
    /// A bundle whose blocks are stored shares the bytes; from a slice they are copied first.
    pub fn open(bytes: impl Into<Shared>, limits: &Limits) -> Result<Bundle, Located> {
        let bytes: Shared = bytes.into();
        if super::web::is_web(&bytes) {
            return Ok(super::web::open(&bytes, limits)?.bind(&bytes));
        }
        let parsed = UnityBundle::read::<true>(&bytes, &Context::new()).map_err(Located::from)?;
        let pos = parsed.pos.unwrap_or_default();
        let at = Place::root(&pos, ROOT);
        let mut b = unpack_located(&parsed.value, &at, limits).opened()?;
        b.warnings.extend(parsed.warnings);
        Ok(b.bind(&bytes))
    }

    /// Directory entry `index`: its path, flags, offset and size (inside the data: checked
    /// when the bundle was opened).
    fn entry(&self, index: usize) -> (&str, u32, usize, usize) {
        match &self.container {
            Container::Fs(p) => {
                let n = &p.blocks_info.nodes[index];
                (&n.path, n.flags, n.ofs_data as usize, n.len_data as usize)
            }
            Container::Web(p) => {
                let f = &p.files[index];
                (&f.path, 0, f.ofs_data as usize, f.len_data as usize)
            }
        }
    }

    /// The bundle's files, in directory order.
    pub fn nodes(&self) -> impl Iterator<Item = NodeFile<'_>> {
        (0..self.container.count()).map(|index| {
            let (path, flags, from, len) = self.entry(index);
            NodeFile {
                index,
                path,
                flags,
                offset: from as u64,
                len: len as u64,
            }
        })
    }

    /// The whole data (decompressed now, for a bundle of LZ4 blocks).
    pub fn data(&self) -> Result<Shared, Located> {
        match &self.data {
            Data::Whole(d) => Ok(d.clone()),
            Data::Lz4(d) => d.range(0..d.len).map(Shared::new).map_err(Located::from),
        }
    }

    /// The bytes of node `index`, shared with the bundle (decompressed the first time they
    /// are asked for, for a bundle of LZ4 blocks).
    pub fn node_bytes(&self, index: usize) -> Result<Shared, Located> {
        let (_, _, from, len) = self.entry(index);
        match &self.data {
            Data::Whole(d) => Ok(d.slice(from..from + len)),
            Data::Lz4(d) => {
                if let Some(b) = d.nodes[index].get() {
                    return Ok(b.clone());
                }
                let bytes = Shared::new(d.range(from..from + len).map_err(Located::from)?);
                Ok(d.nodes[index].get_or_init(|| bytes).clone())
            }
        }
    }

    /// How many bytes of the data the bundle holds in memory: all of them, but for a bundle of
    /// LZ4 blocks, whose files are decompressed when they are asked for, those asked for so
    /// far.
    pub fn resident(&self) -> u64 {
        match &self.data {
            Data::Whole(d) => d.len() as u64,
            Data::Lz4(d) => d
                .nodes
                .iter()
                .filter_map(OnceLock::get)
                .map(|b| b.len() as u64)
                .sum(),
        }
    }

    /// The first `n` bytes of node `index` (all of them when it holds fewer), to tell what
    /// it is without decompressing the rest.
    pub fn node_head(&self, index: usize, n: usize) -> Result<Cow<'_, [u8]>, Located> {
        let (_, _, from, len) = self.entry(index);
        let range = from..from + len.min(n);
        match &self.data {
            Data::Whole(d) => Ok(Cow::Borrowed(&d[range])),
            Data::Lz4(d) => match (d.nodes[index].get(), &d.heads[index]) {
                (Some(b), _) => Ok(Cow::Borrowed(&b[..range.len()])),
                (None, h) if h.len() >= range.len() => Ok(Cow::Borrowed(&h[..range.len()])),
                (None, _) => d.range(range).map(Cow::Owned).map_err(Located::from),
            },
        }
    }

    /// Node `index` as a resource file held for the objects that stream from it: for a
    /// bundle of LZ4 blocks, each range read is decompressed on its own.
    pub fn node_held(&self, index: usize) -> Arc<dyn HeldBytes> {
        let (_, _, from, len) = self.entry(index);
        match &self.data {
            Data::Whole(d) => Arc::new(d.slice(from..from + len)),
            Data::Lz4(d) => match d.nodes[index].get() {
                Some(b) => Arc::new(b.clone()),
                None => Arc::new(Lz4Node {
                    data: Arc::clone(d),
                    range: from..from + len,
                }),
            },
        }
    }

    /// The file named `name` (compared with the last part of the node's path).
    pub fn node(&self, name: &str) -> Option<NodeFile<'_>> {
        self.nodes()
            .find(|n| n.path == name || n.path.rsplit('/').next() == Some(name))
    }

    /// The editor version that built the bundle, as written.
    pub fn revision(&self) -> &str {
        match &self.container {
            Container::Fs(p) => &p.header.unity_revision,
            Container::Web(p) => &p.header.unity_revision,
        }
    }

    /// The layout id of the bundle's container (`unity-bundle`, `unity-web`).
    pub fn layout(&self) -> &'static str {
        match &self.container {
            Container::Fs(_) => <UnityBundle as Root>::ID,
            Container::Web(_) => <crate::generated::unity_web::UnityWeb as Root>::ID,
        }
    }

    /// Where errors inside the decompressed directory are said to be.
    pub fn inner_place(&self) -> &'static str {
        match &self.container {
            Container::Fs(_) => INFO_PLACE,
            Container::Web(_) => super::web::PAYLOAD_PLACE,
        }
    }

    /// The UnityFS parts, for a UnityFS bundle.
    pub fn fs(&self) -> Option<&FsParts> {
        match &self.container {
            Container::Fs(p) => Some(p),
            Container::Web(_) => None,
        }
    }

    /// The UnityWeb or UnityRaw parts, for such a bundle.
    pub fn web(&self) -> Option<&super::web::WebParts> {
        match &self.container {
            Container::Web(p) => Some(p),
            Container::Fs(_) => None,
        }
    }
}

/// The findings of `unity-bundle-blocks-info` on its own: every directory range must lie
/// within the data the blocks decompress to (a relation, and what cutting the bundle's files
/// needs).
pub fn info_findings(info: &BlocksInfoRef<'_>, at: &Place<'_, BlocksInfoPos>) -> Vec<Error> {
    let total: u64 = info
        .blocks
        .iter()
        .map(|b| u64::from(b.len_uncompressed))
        .sum();
    let mut out = vec![];
    let nodes = at.nodes();
    for (i, n) in info.nodes.iter().enumerate() {
        let ok = n.ofs_data >= 0
            && n.len_data >= 0
            && (n.ofs_data as u64)
                .checked_add(n.len_data as u64)
                .is_some_and(|end| end <= total);
        if !ok {
            let here = nodes.at(i);
            let expected = format!("a range inside the {total} bytes the blocks decompress to");
            let found = format!("offset {} and size {}", n.ofs_data, n.len_data);
            out.push(here.ofs_data().violates(
                BlocksInfo::REL_NODES_INSIDE_DATA,
                expected.clone(),
                found.clone(),
            ));
            out.push(
                here.ofs_data()
                    .error(ErrorKind::Unsupported, expected, found),
            );
        }
    }
    out
}

/// Files of a bundle keep their offsets modulo this when one before them changes size (Unity
/// aligns a bundle's files to 16 from 2020.3.34, 2021.3.2 and 2022.1.1).
const NODE_ALIGN: i64 = 16;

/// How [`write`] wrote a bundle back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Repacked {
    /// Storage blocks whose original compressed bytes were kept (their content is unchanged).
    pub blocks_kept: usize,
    /// Storage blocks compressed anew, by the compression their flags say.
    pub blocks_compressed: usize,
    /// Whether the blocks info's original compressed bytes were kept.
    pub info_kept: bool,
}

/// The smallest multiple of `align` at least `n` (`n` may be negative).
fn round_up(n: i64, align: i64) -> i64 {
    n.div_euclid(align) * align + if n.rem_euclid(align) == 0 { 0 } else { align }
}

/// The bundle `original` (opened as `b`) written back with the files `replaced` (directory
/// index, new bytes) in place of theirs, as its container says: [`write_fs`] for UnityFS,
/// [`super::web::write`] for UnityWeb and UnityRaw. With nothing replaced the output is the
/// input, byte for byte.
pub fn write(
    original: &[u8],
    b: &Bundle,
    replaced: &[(usize, Vec<u8>)],
) -> Result<(Vec<u8>, Repacked), Located> {
    match &b.container {
        Container::Fs(p) => write_fs(original, b, p, replaced),
        Container::Web(p) => super::web::write(original, b, p, replaced),
    }
}

/// The data of bundle `b` with the files `replaced` (directory index, new bytes) in place of
/// theirs: every file in directory-offset order, the bytes between them kept (each file after
/// a changed one moved by a multiple of 16, the gap zeros when it had to change), and per
/// directory entry its new offset and size. With nothing replaced, the data as it was.
pub(super) fn relayout(b: &Bundle, replaced: &[(usize, Vec<u8>)]) -> Result<Relaid, Located> {
    let old_data = b.data()?;
    let old_data: &[u8] = &old_data;
    let mut ranges: Vec<(u64, u64)> = b.nodes().map(|n| (n.offset, n.len)).collect();
    let mut order: Vec<usize> = (0..ranges.len()).collect();
    order.sort_by_key(|&i| ranges[i]);
    let mut data = Vec::with_capacity(old_data.len());
    let (mut cursor, mut shift) = (0usize, 0i64);
    for &i in &order {
        // Checked when the bundle was opened.
        let (ofs, len) = (ranges[i].0 as usize, ranges[i].1 as usize);
        if ofs < cursor {
            if replaced.is_empty() {
                continue;
            }
            let (path, ..) = b.entry(i);
            return Err(Located::new(
                b.inner_place(),
                unsupported_at(
                    "files that do not overlap, to write a changed one back",
                    format!(
                        "`{}` starting inside the file before it",
                        path.escape_debug()
                    ),
                ),
            ));
        }
        let new_ofs = (ofs as i64 + shift) as usize;
        if data.len() + (ofs - cursor) == new_ofs {
            data.extend_from_slice(&old_data[cursor..ofs]);
        } else {
            data.resize(new_ofs, 0);
        }
        let bytes = replaced
            .iter()
            .find(|(k, _)| *k == i)
            .map_or(&old_data[ofs..ofs + len], |(_, v)| v.as_slice());
        data.extend_from_slice(bytes);
        cursor = ofs + len;
        shift += round_up(bytes.len() as i64 - len as i64, NODE_ALIGN);
        ranges[i] = (new_ofs as u64, bytes.len() as u64);
    }
    data.extend_from_slice(&old_data[cursor.min(old_data.len())..]);
    Ok(Relaid { data, ranges })
}

/// What [`relayout`] makes: the new data, and per directory entry its offset and size in it.
pub(super) struct Relaid {
    pub(super) data: Vec<u8>,
    pub(super) ranges: Vec<(u64, u64)>,
}

/// A UnityFS bundle written back: the data ([`relayout`]) is cut into blocks of the input's
/// sizes (one block if the input had one; a longer tail in blocks of the largest size, the
/// last block's flags), each compressed as its flags say, re-using the input's bytes for every
/// block whose content did not change. The blocks info (kept as it was when unchanged, else
/// compressed by the header's method) and the header's sizes are written by the generated
/// writers; the uncompressed data hash is kept as read (zeros in every bundle seen).
fn write_fs(
    original: &[u8],
    b: &Bundle,
    fs: &FsParts,
    replaced: &[(usize, Vec<u8>)],
) -> Result<(Vec<u8>, Repacked), Located> {
    use super::compress::compress;
    let ctx = Context::new();
    let parsed = UnityBundle::read::<true>(original, &ctx).map_err(Located::from)?;
    let pos = parsed.pos.unwrap_or_default();
    let mut bundle = parsed.value.own();
    let mut info = fs.blocks_info.clone();
    let mut report = Repacked::default();
    let old_data = b.data()?;
    let old_data: &[u8] = &old_data;
    let Relaid { data, ranges } = relayout(b, replaced)?;
    for (n, (ofs, len)) in info.nodes.iter_mut().zip(ranges) {
        n.ofs_data = ofs as i64;
        n.len_data = len as i64;
    }

    // The blocks: the input's sizes, its bytes where the content is the same.
    let old_blocks = &fs.blocks_info.blocks;
    let largest = old_blocks
        .iter()
        .map(|s| s.len_uncompressed as usize)
        .max()
        .unwrap_or(0);
    let mut sizes = vec![];
    let mut rest = data.len();
    for (i, s) in old_blocks.iter().enumerate() {
        let last = i + 1 == old_blocks.len();
        let want = match (old_blocks.len(), last) {
            (1, _) => rest,
            (_, true) => (s.len_uncompressed as usize).max(largest),
            _ => s.len_uncompressed as usize,
        };
        let take = want.min(rest);
        if take == 0 && !(sizes.is_empty() && last) {
            break;
        }
        sizes.push((take, s.flags));
        rest -= take;
    }
    let tail_flags = old_blocks.last().map_or(0, |s| s.flags);
    while rest > 0 {
        // (A bundle without blocks gets Unity's LZ4 block size, 128 KiB.)
        let take = rest.min(if largest == 0 { 1 << 17 } else { largest });
        sizes.push((take, tail_flags));
        rest -= take;
    }
    let mut storage = vec![];
    let mut blocks = vec![];
    let mut at = 0usize;
    for (i, &(size, flags)) in sizes.iter().enumerate() {
        let chunk = &data[at..at + size];
        let old = old_blocks.get(i).zip(fs.block_offsets.get(i));
        let same = old.filter(|(s, &(_, data_at))| {
            s.len_uncompressed as usize == size
                && s.flags == flags
                && data_at as usize == at
                && old_data.get(at..at + size) == Some(chunk)
        });
        let packed = match (same, old) {
            (Some((s, &(file_at, _))), _) => {
                report.blocks_kept += 1;
                let from = file_at as usize;
                original[from..from + s.len_compressed as usize].to_vec()
            }
            (None, like) => {
                report.blocks_compressed += 1;
                let like = like.map(|(s, &(file_at, _))| {
                    let from = file_at as usize;
                    &original[from..from + s.len_compressed as usize]
                });
                compress(Method::of_flags(u32::from(flags)), chunk, like)
                    .map_err(|e| Located::new(format!("(storage block {i})"), e))?
            }
        };
        blocks.push(crate::generated::unity_bundle::StorageBlock {
            len_uncompressed: size_u32(size, "a storage block")?,
            len_compressed: size_u32(packed.len(), "a compressed storage block")?,
            flags,
        });
        storage.extend_from_slice(&packed);
        at += size;
    }
    info.blocks = blocks;

    // The blocks info: kept when unchanged, else compressed as the header says.
    let old_info = fs.blocks_info.to_bytes(&ctx).map_err(Located::from)?;
    let info_bytes = info.to_bytes(&ctx).map_err(Located::from)?;
    let len_info_compressed = bundle.header.len_blocks_info_compressed as usize;
    let old_packed: Vec<u8> = match (&bundle.blocks_info, &bundle.blocks_and_blocks_info) {
        (Some(i), _) => i.clone(),
        (None, Some(both)) => both[both.len() - len_info_compressed..].to_vec(),
        (None, None) => vec![],
    };
    let packed_info = if info_bytes == old_info {
        report.info_kept = true;
        old_packed.clone()
    } else {
        compress(
            Method::of_flags(bundle.header.flags),
            &info_bytes,
            Some(&old_packed),
        )
        .map_err(|e| Located::new(INFO_PLACE, e))?
    };
    bundle.header.len_blocks_info = size_u32(info_bytes.len(), "the blocks info")?;
    bundle.header.len_blocks_info_compressed =
        size_u32(packed_info.len(), "the compressed blocks info")?;
    if let (Some(pad), Some(span)) = (&mut bundle.pad_blocks_info, pos.pad_blocks_info) {
        // The padding to 16 starts where the blocks info now ends.
        let start = span.start as i64
            - old_packed.len() as i64 * i64::from(bundle.blocks_info.is_some())
            + packed_info.len() as i64 * i64::from(bundle.blocks_info.is_some());
        let len = round_up(start, 16) - start;
        if pad.len() as i64 != len {
            *pad = vec![0; len as usize];
        }
    }
    if bundle.blocks_info.is_some() {
        bundle.blocks_info = Some(packed_info);
        bundle.blocks = Some(storage);
    } else {
        storage.extend_from_slice(&packed_info);
        bundle.blocks_and_blocks_info = Some(storage);
    }
    let mut out = bundle.to_bytes(&ctx).map_err(Located::from)?;
    if bundle.header.len_file == original.len() as i64 && out.len() != original.len() {
        bundle.header.len_file = out.len() as i64;
        out = bundle.to_bytes(&ctx).map_err(Located::from)?;
    }
    Ok((out, report))
}

fn unsupported_at(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Unsupported, expected, found)
}

/// A size a 32-bit field of the bundle holds.
pub(super) fn size_u32(
    n: impl TryInto<u32> + std::fmt::Display + Copy,
    what: &str,
) -> Result<u32, Located> {
    n.try_into().map_err(|_| {
        Located::from(Error::unplaced(
            ErrorKind::Count,
            format!("{what} of at most 4 GiB (its size is 32-bit)"),
            format!("{n} bytes"),
        ))
    })
}
