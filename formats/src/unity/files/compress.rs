//! Decompressing what a bundle holds (a UnityFS bundle's blocks info and storage blocks:
//! stored, LZMA, LZ4 or LZ4HC, as the low six bits of their flags say; a UnityWeb bundle's
//! payload: LZMA in the `.lzma` form).
//!
//! Every declared size is checked before anything is allocated: against the caller's
//! [`Limits`], and for LZ4 against the most its format can expand the input. Output grows as
//! it is produced, so a block that lies about its size costs at most what it really holds.

use crate::rt::pod::Pod;
use crate::rt::{Error, ErrorKind, Result};

/// How much a reader may decompress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one bundle's data (all its blocks, decompressed) may take.
    pub max_data: u64,
}

impl Default for Limits {
    /// 4 GiB: every size a bundle's 32-bit block sizes and 64-bit node sizes describe in
    /// practice, while a fuzz target or a test sets less.
    fn default() -> Self {
        Limits { max_data: 4 << 30 }
    }
}

/// The compression of a block (`flags & 0x3F`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// 0: stored as is.
    Stored,
    /// 1: LZMA, a 5-byte properties header then the raw stream.
    Lzma,
    /// 2: an LZ4 block.
    Lz4,
    /// 3: an LZ4 block made by the high-compression encoder (read the same way).
    Lz4Hc,
    /// The `.lzma` ("LZMA alone") form of a UnityWeb payload: the 5 properties bytes, a 64-bit
    /// little-endian decompressed size (-1 when not known), then the raw stream. Never from
    /// flags.
    LzmaAlone,
    /// Anything else (4 is LZHAM, which no well-kept crate reads).
    Other(u32),
}

impl Method {
    /// The method of a header's or a block's flags.
    pub fn of_flags(flags: u32) -> Method {
        match flags & 0x3F {
            0 => Method::Stored,
            1 => Method::Lzma,
            2 => Method::Lz4,
            3 => Method::Lz4Hc,
            n => Method::Other(n),
        }
    }

    /// The method's name, for messages.
    pub fn name(self) -> String {
        match self {
            Method::Stored => "stored".into(),
            Method::Lzma => "LZMA".into(),
            Method::Lz4 => "LZ4".into(),
            Method::Lz4Hc => "LZ4HC".into(),
            Method::LzmaAlone => "LZMA (.lzma)".into(),
            Method::Other(4) => "LZHAM (4)".into(),
            Method::Other(n) => format!("compression {n}"),
        }
    }
}

/// The most an LZ4 block of `n` bytes can decompress to: each byte of a match's length
/// extension adds at most 255 bytes of output.
fn lz4_bound(n: u64) -> u64 {
    n.saturating_mul(255).saturating_add(24)
}

/// A stored block holds its declared size (what decompressing it checks, for a reader that
/// borrows stored blocks instead of copying them).
pub fn stored_size(input: &[u8], size: u64, offset: u64) -> Result<()> {
    if input.len() as u64 != size {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("{size} stored bytes (the declared size)"),
            format!("{} bytes", input.len()),
        ));
    }
    Ok(())
}

/// Decompresses `input` (which starts at `offset` in its file, for errors) into exactly `size`
/// bytes, appending them to `out`.
pub fn decompress_into(
    method: Method,
    input: &[u8],
    size: u64,
    offset: u64,
    limits: &Limits,
    out: &mut Vec<u8>,
) -> Result<()> {
    let room = limits.max_data.saturating_sub(out.len() as u64);
    if size > room {
        return Err(Error::new(
            ErrorKind::Count,
            offset,
            format!(
                "at most {} decompressed bytes (the reader's limit)",
                limits.max_data
            ),
            format!("{size} more bytes declared"),
        ));
    }
    let start = out.len();
    match method {
        Method::Stored => {
            stored_size(input, size, offset)?;
            out.extend_from_slice(input);
        }
        Method::Lz4 | Method::Lz4Hc => {
            // Within the input's bound first, so that the buffer is never sized by the
            // declared size alone.
            lz4_fits(input, size, offset)?;
            out.resize(start + size as usize, 0);
            if let Err(e) = lz4_to(input, offset, &mut out[start..]) {
                out.truncate(start);
                return Err(e);
            }
        }
        Method::Lzma | Method::LzmaAlone => {
            // Nothing of a block that fails is kept.
            let r = lzma_parts(method, input, size, offset)
                .and_then(|(props, stream)| lzma(props, stream, size, offset, limits, out));
            if let Err(e) = r {
                out.truncate(start);
                return Err(e);
            }
        }
        Method::Other(_) => {
            return Err(Error::new(
                ErrorKind::Unsupported,
                offset,
                "stored, LZMA, LZ4 or LZ4HC data",
                method.name(),
            ))
        }
    }
    Ok(())
}

/// Whether LZ4 `input` can hold `size` bytes at all.
pub fn lz4_fits(input: &[u8], size: u64, offset: u64) -> Result<()> {
    if size > lz4_bound(input.len() as u64) {
        return Err(Error::new(
            ErrorKind::Count,
            offset,
            format!(
                "at most {} bytes (the most {} LZ4 bytes can hold)",
                lz4_bound(input.len() as u64),
                input.len()
            ),
            format!("{size} bytes declared"),
        ));
    }
    Ok(())
}

/// Decompresses the LZ4 block `input` (at `offset` in its file, for errors) into all of `out`,
/// whose length is the declared size (which [`lz4_fits`] checked before `out` was made).
pub fn lz4_to(input: &[u8], offset: u64, out: &mut [u8]) -> Result<()> {
    let size = out.len();
    let n = lz4_flex::block::decompress_into(input, out).map_err(|e| {
        Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("an LZ4 block that decompresses to {size} bytes"),
            format!("corrupt data ({e})"),
        )
    })?;
    if n != size {
        return Err(Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("an LZ4 block that decompresses to {size} bytes"),
            format!("{n} bytes"),
        ));
    }
    Ok(())
}

/// The `.lzma` header's size field when the size is not known.
const LZMA_SIZE_UNKNOWN: u64 = u64::MAX;

/// The properties (5 bytes) and the raw stream of LZMA `input`: Unity's block form (one
/// properties byte and a 32-bit little-endian dictionary size, then the stream) or the
/// `.lzma` form, whose 64-bit size after the properties must be `size` or -1.
fn lzma_parts(method: Method, input: &[u8], size: u64, offset: u64) -> Result<(&[u8], &[u8])> {
    let head = if method == Method::LzmaAlone { 13 } else { 5 };
    if input.len() < head {
        return Err(Error::new(
            ErrorKind::Eof,
            offset,
            format!(
                "an LZMA header ({head} bytes: the properties{})",
                if head == 13 { " and the size" } else { "" }
            ),
            format!("{} bytes", input.len()),
        ));
    }
    if input[0] >= 9 * 5 * 5 {
        return Err(Error::new(
            ErrorKind::Invalid,
            offset,
            "LZMA properties below 225 (lc + 9 lp + 45 pb)",
            input[0].to_string(),
        ));
    }
    if head == 13 {
        let declared = u64::from_slice(&input[5..13], binrw::Endian::Little);
        if declared != size && declared != LZMA_SIZE_UNKNOWN {
            return Err(Error::new(
                ErrorKind::Inconsistent,
                offset + 5,
                format!("an .lzma header whose size is {size} (the declared size) or -1"),
                declared.to_string(),
            ));
        }
    }
    Ok((&input[..5], &input[head..]))
}

/// LZMA with properties `props` (5 bytes) and the raw `stream`, whose decompressed size the
/// caller knows.
fn lzma(
    props: &[u8],
    stream: &[u8],
    size: u64,
    offset: u64,
    limits: &Limits,
    out: &mut Vec<u8>,
) -> Result<()> {
    use liblzma::stream::{Action, Status, Stream};
    // liblzma's .lzma reader takes the properties followed by the size; the 13-byte header is
    // rebuilt (with the size known, whatever the input's says) rather than the stream copied.
    let mut header = [0u8; 13];
    header[..5].copy_from_slice(props);
    header[5..].copy_from_slice(&size.to_le_bytes());
    // The decoder's memory (its dictionary) is bounded too; it never needs more than the
    // output it writes.
    let memlimit = (size.min(limits.max_data) + (16 << 20)).min(u64::MAX >> 1);
    let mut s = Stream::new_lzma_decoder(memlimit)
        .map_err(|e| Error::new(ErrorKind::Io, offset, "an LZMA decoder", e.to_string()))?;
    let start = out.len();
    let corrupt = |got: usize, e: String| {
        Error::new(
            ErrorKind::Inconsistent,
            offset,
            format!("LZMA data that decompresses to {size} bytes"),
            format!("{e} after {got} bytes"),
        )
    };
    // The header first, then the stream; the output grows at most by what is produced,
    // reserved ahead only as far as the input could plausibly expand.
    // (liblzma consumes nothing when the output has no room at all, so give it some.)
    let mut out_header = Vec::with_capacity(16);
    s.process_vec(&header, &mut out_header, Action::Run)
        .map_err(|e| corrupt(0, e.to_string()))?;
    if s.total_in() != header.len() as u64 || !out_header.is_empty() {
        return Err(corrupt(0, "an LZMA header it does not take".into()));
    }
    let mut data = stream;
    let goal = start + size as usize;
    let plausible = data.len().saturating_mul(32).saturating_add(1 << 16);
    out.reserve((size as usize).min(plausible));
    loop {
        if out.len() == out.capacity() {
            out.reserve((goal - out.len()).clamp(1, 1 << 24));
        }
        let before_in = s.total_in();
        let status = s
            .process_vec(data, out, Action::Finish)
            .map_err(|e| corrupt(out.len() - start, e.to_string()))?;
        let used = (s.total_in() - before_in) as usize;
        data = &data[used.min(data.len())..];
        if out.len() > goal {
            return Err(corrupt(out.len() - start, "more data".into()));
        }
        match status {
            Status::StreamEnd => break,
            _ if out.len() == goal => break,
            _ if used == 0 && out.len() < out.capacity() => {
                return Err(corrupt(out.len() - start, "the end of the data".into()))
            }
            _ => {}
        }
    }
    if out.len() != goal {
        let got = out.len() - start;
        out.truncate(start);
        return Err(corrupt(got, "the end of the stream".into()));
    }
    Ok(())
}

/// Compresses `data` by `method`, the way a bundle's block, blocks info or payload is written
/// back.
/// LZ4 and LZ4HC are both written by `lz4_flex`'s one block compressor (an LZ4 block any LZ4
/// reader decodes; Unity's LZ4HC encoder makes other, smaller bytes). LZMA takes the 5-byte
/// properties header of `like` (the block it replaces: lc, lp, pb and dictionary size), else
/// liblzma's preset 6 ones, and writes the raw stream after it as Unity does (the `.lzma` form
/// puts the size between them, or -1 where `like` did); liblzma's bytes are not Unity's
/// either, and their stream ends with an end marker, which a reader that knows the size
/// does not reach. No compressor here reproduces Unity's bytes: a bundle written back
/// re-uses the original bytes of every block whose content did not change.
pub fn compress(method: Method, data: &[u8], like: Option<&[u8]>) -> Result<Vec<u8>> {
    match method {
        Method::Stored => Ok(data.to_vec()),
        Method::Lz4 | Method::Lz4Hc => Ok(lz4_flex::block::compress(data)),
        Method::Lzma => lzma_compress(data, like.and_then(|b| b.get(..5))),
        Method::LzmaAlone => {
            // The size as the payload replaced wrote it: known, or -1.
            let unknown = like
                .and_then(|b| b.get(5..13))
                .is_some_and(|s| s.iter().all(|&b| b == 0xFF));
            let size = if unknown {
                LZMA_SIZE_UNKNOWN
            } else {
                data.len() as u64
            };
            let mut out = lzma_compress(data, like.and_then(|b| b.get(..5)))?;
            out.splice(5..5, size.to_le_bytes());
            Ok(out)
        }
        Method::Other(_) => Err(Error::unplaced(
            ErrorKind::Unsupported,
            "stored, LZMA, LZ4 or LZ4HC data to write",
            method.name(),
        )),
    }
}

/// Unity's LZMA: the properties byte and the 32-bit dictionary size, then the raw stream (the
/// `.lzma` header's 64-bit size left out).
fn lzma_compress(data: &[u8], props: Option<&[u8]>) -> Result<Vec<u8>> {
    use liblzma::stream::{Action, LzmaOptions, Status, Stream};
    let fail = |e: liblzma::stream::Error| {
        Error::unplaced(ErrorKind::Io, "an LZMA encoder", e.to_string())
    };
    let mut opts = LzmaOptions::new_preset(6).map_err(fail)?;
    if let Some(p) = props {
        let (byte, dict) = (
            u32::from(p[0]),
            u32::from_slice(&p[1..5], binrw::Endian::Little),
        );
        if byte >= 9 * 5 * 5 {
            return Err(Error::unplaced(
                ErrorKind::Invalid,
                "LZMA properties below 225 (lc + 9 lp + 45 pb)",
                byte.to_string(),
            ));
        }
        opts.literal_context_bits(byte % 9)
            .literal_position_bits(byte / 9 % 5)
            .position_bits(byte / 45)
            // liblzma takes dictionaries of 4 KiB and more.
            .dict_size(dict.max(4096));
    }
    let mut s = Stream::new_lzma_encoder(&opts).map_err(fail)?;
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    let mut rest = data;
    loop {
        if out.len() == out.capacity() {
            out.reserve(out.capacity().max(4096));
        }
        let before = s.total_in();
        let status = s
            .process_vec(rest, &mut out, Action::Finish)
            .map_err(fail)?;
        rest = &rest[(s.total_in() - before) as usize..];
        if status == Status::StreamEnd {
            break;
        }
    }
    if out.len() < 13 {
        return Err(Error::unplaced(
            ErrorKind::Io,
            "an LZMA stream with its 13-byte header",
            format!("{} bytes", out.len()),
        ));
    }
    let mut unity = out[..5].to_vec();
    if let Some(p) = props.filter(|p| u32::from_slice(&p[1..5], binrw::Endian::Little) >= 4096) {
        // The dictionary size as the block said it (liblzma's header rounds it up).
        unity[1..5].copy_from_slice(&p[1..5]);
    }
    unity.extend_from_slice(&out[13..]);
    Ok(unity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lzma_compress(data: &[u8]) -> Vec<u8> {
        use liblzma::stream::{Action, LzmaOptions, Stream};
        let opts = LzmaOptions::new_preset(6).unwrap();
        let mut s = Stream::new_lzma_encoder(&opts).unwrap();
        let mut out = Vec::with_capacity(data.len() + 64);
        s.process_vec(data, &mut out, Action::Finish).unwrap();
        // Unity keeps the properties and the dictionary size, not the size field.
        let mut unity = out[..5].to_vec();
        unity.extend_from_slice(&out[13..]);
        unity
    }

    #[test]
    fn every_method_decompresses_to_the_declared_size() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let l = Limits::default();
        for (m, packed) in [
            (Method::Stored, data.clone()),
            (Method::Lz4, lz4_flex::block::compress(&data)),
            (Method::Lz4Hc, lz4_flex::block::compress(&data)),
            (Method::Lzma, lzma_compress(&data)),
        ] {
            let mut out = vec![9];
            decompress_into(m, &packed, data.len() as u64, 0, &l, &mut out).unwrap();
            assert_eq!(out[1..], data[..], "{m:?}");
        }
    }

    #[test]
    fn sizes_that_lie_and_corrupt_data_are_refused_before_allocating() {
        let data = vec![7u8; 1000];
        let l = Limits { max_data: 1 << 20 };
        let lz4 = lz4_flex::block::compress(&data);
        // Past what LZ4 can expand these bytes to: refused without decompressing.
        let e = decompress_into(Method::Lz4, &lz4, 1 << 19, 100, &l, &mut vec![]).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Count, Some(100)));
        // Past the limit.
        let e = decompress_into(
            Method::Lzma,
            &[0x5D, 0, 0, 1, 0],
            2 << 20,
            0,
            &l,
            &mut vec![],
        )
        .unwrap_err();
        assert!(e.expected.contains("the reader's limit"), "{e}");
        // Shorter than declared.
        let e = decompress_into(Method::Lz4, &lz4, 1001, 0, &l, &mut vec![]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent);
        let xz = lzma_compress(&data);
        let mut out = vec![];
        let e = decompress_into(Method::Lzma, &xz, 1001, 0, &l, &mut out).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent, "{e}");
        assert!(out.is_empty());
        // Corrupt.
        let mut bad = xz.clone();
        for b in &mut bad[6..] {
            *b ^= 0x5A;
        }
        assert!(decompress_into(Method::Lzma, &bad, 1000, 0, &l, &mut vec![]).is_err());
        let e = decompress_into(Method::Lz4, &[0xF0, 1], 300, 0, &l, &mut vec![]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent);
        // LZHAM and unknown methods.
        let e = decompress_into(Method::Other(4), &[], 0, 0, &l, &mut vec![]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert_eq!(e.found, "LZHAM (4)");
        // Stored data must be exactly its size.
        let e = decompress_into(Method::Stored, &[1, 2], 3, 0, &l, &mut vec![]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Inconsistent);
    }
}
