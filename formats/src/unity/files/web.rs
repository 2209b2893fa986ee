//! UnityWeb and UnityRaw bundles (Unity 2.x to 5.x): the spec reads the header and keeps the
//! payload (`spec/unity_web.ksy`); this module decompresses the payload (LZMA in the `.lzma`
//! form for UnityWeb, stored for UnityRaw), reads its directory, and makes a [`Bundle`] of it,
//! which every command opens as it opens a UnityFS one. Every size is checked against the
//! input and the [`Limits`] before anything is allocated.
//!
//! As for UnityFS, [`unpack`] is the one pass: the verdict reports what it finds, and
//! [`open`] refuses a bundle on its first error.

use super::bundle::{
    self, breach, breach_of, data_error, size_u32, unreadable, Bundle, Container, Repacked,
    Unbound, Unpacked,
};
use super::compress::{compress, decompress_into, Limits, Method};
use super::{serialized, Located};
use crate::context::Context;
use crate::generated::unity_web::{
    Container as Kind, FileEntry, FileEntryPlace, Header, HeaderPlace, LevelPlace, Payload,
    PayloadPlace, PayloadPos, PayloadRef, UnityWeb, UnityWebPlace, UnityWebPos, UnityWebRef,
};
use crate::rt::{Error, ErrorKind, Place, Root};

/// Where errors in the decompressed payload are said to be.
pub const PAYLOAD_PLACE: &str = "(payload, decompressed)";
/// The decompressed payload, as errors at the stored one name it.
const PAYLOAD_NAME: &str = "decompressed payload";

/// Whether `bytes` start like a UnityWeb or UnityRaw bundle (the spec's signature, then one
/// of the two kinds).
pub fn is_web(bytes: &[u8]) -> bool {
    let at = Header::OFFSET_KIND as usize;
    UnityWeb::claims(bytes)
        && [Kind::UNITY_WEB, Kind::UNITY_RAW]
            .iter()
            .any(|k| bytes.get(at..at + 4) == Some(&k.0.to_be_bytes()[..]))
}

/// A UnityWeb or UnityRaw bundle's header and directory, and where its payload lies.
#[derive(Debug, Clone)]
pub struct WebParts {
    /// The header.
    pub header: Header,
    /// The directory of the decompressed payload (offsets from the payload's start).
    pub files: Vec<FileEntry>,
    /// Where the payload starts in the file.
    pub payload_at: u64,
}

/// The smallest multiple of 4 at least `n`.
fn round_up_4(n: u64) -> u64 {
    n.div_ceil(4) * 4
}

/// Decompresses and cuts a bundle the spec has read, reporting every problem: each error
/// where it is (in the bundle, or in the decompressed payload).
fn unpack_located(
    view: &UnityWebRef<'_>,
    at: &Place<'_, UnityWebPos>,
    limits: &Limits,
) -> Unpacked {
    let payload_place = at.payload();
    let payload_at = payload_place.span().start;
    let mut out = Unpacked {
        bundle: None,
        findings: vec![],
        inner_at: payload_at,
        inner_path: payload_place.field_path().clone(),
        inner_name: PAYLOAD_NAME,
    };
    let f = &mut out.findings;
    let h = &view.header;
    let hp = at.header();
    let total = at.span().end;
    if let (Some(len), Some(p)) = (h.len_file, hp.len_file().some()) {
        if u64::from(len) != total {
            f.push(Located::from(p.violates(
                UnityWeb::REL_LEN_FILE_IS_FILE_SIZE,
                format!("the file's size, {total} bytes"),
                len.to_string(),
            )));
        }
    }
    let fields_end = hp.span().end;
    if u64::from(h.len_header) != round_up_4(fields_end) {
        f.push(Located::from(hp.len_header().violates(
            UnityWeb::REL_HEADER_PADDED_TO_4,
            format!(
                "{} (the header's {fields_end} bytes of fields, rounded up to a multiple of 4)",
                round_up_4(fields_end)
            ),
            h.len_header.to_string(),
        )));
    }
    let levels = hp.levels();
    for i in 1..h.levels.len() {
        let (a, b) = (h.levels.get(i - 1), h.levels.get(i));
        if let (Some(a), Some(b)) = (a, b) {
            if b.len_compressed < a.len_compressed || b.len_uncompressed < a.len_uncompressed {
                f.push(Located::from(levels.at(i).violates(
                    UnityWeb::REL_LEVELS_GROW,
                    format!(
                        "sizes of at least those of level {} ({} and {} bytes)",
                        i - 1,
                        a.len_compressed,
                        a.len_uncompressed
                    ),
                    format!("{} and {} bytes", b.len_compressed, b.len_uncompressed),
                )));
            }
        }
    }
    let Some(last) = h.levels.len().checked_sub(1).and_then(|i| h.levels.get(i)) else {
        breach(
            f,
            "",
            UnityWeb::REL_PAYLOAD_IS_LAST_LEVEL,
            hp.num_levels().span().start,
            hp.num_levels().field_path(),
            "at least one level (the last one sizes the payload)".into(),
            "none".into(),
        );
        return out;
    };
    let last_at = levels.at(h.levels.len() - 1);
    let stored = u64::from(last.len_compressed);
    let payload = view.payload;
    let have = payload.len() as u64;
    if have < stored {
        breach(
            f,
            "",
            UnityWeb::REL_PAYLOAD_IS_LAST_LEVEL,
            payload_at,
            payload_place.field_path(),
            format!("the last level's {stored} bytes after the header"),
            format!("{have} bytes"),
        );
        return out;
    }
    if have > stored {
        f.push(Located::from(payload_place.violates(
            UnityWeb::REL_PAYLOAD_IS_LAST_LEVEL,
            format!("the last level's {stored} bytes after the header"),
            format!("{have} bytes (the {} after them are kept)", have - stored),
        )));
    }
    let size = u64::from(last.len_uncompressed);
    if size > limits.max_data {
        f.push(Located::from(last_at.len_uncompressed().error(
            ErrorKind::Count,
            format!(
                "at most {} decompressed bytes (the reader's limit)",
                limits.max_data
            ),
            format!("{size} bytes"),
        )));
        return out;
    }
    let method = if h.compressed() {
        Method::LzmaAlone
    } else {
        Method::Stored
    };
    let mut data = Vec::new();
    if let Err(e) = decompress_into(
        method,
        &payload[..stored as usize],
        size,
        payload_at,
        limits,
        &mut data,
    ) {
        if data_error(method, size, limits) {
            breach_of(
                f,
                "",
                UnityWeb::REL_PAYLOAD_DECOMPRESSES,
                &e,
                payload_place.field_path(),
            );
        } else {
            f.push(Located::from(
                e.placed(payload_at, payload_place.field_path()),
            ));
        }
        return out;
    }
    let parsed = match Payload::read::<true>(&data, &Context::new()) {
        Ok(p) => p,
        Err(e) => {
            unreadable(f, PAYLOAD_PLACE, UnityWeb::REL_PAYLOAD_DECOMPRESSES, e);
            return out;
        }
    };
    let pos = parsed.pos.unwrap_or_default();
    let inner = Place::root(&pos, <Payload as Root>::ROOT);
    f.extend(
        parsed
            .warnings
            .into_iter()
            .map(|w| Located::new(PAYLOAD_PLACE, w)),
    );
    f.extend(
        payload_findings(&parsed.value, &inner)
            .into_iter()
            .map(|e| Located::new(PAYLOAD_PLACE, e)),
    );
    let data_start = inner.data().span().start;
    if let (Some(len), Some(p)) = (h.len_directory, hp.len_directory().some()) {
        if u64::from(len) != data_start {
            f.push(Located::from(p.violates(
                UnityWeb::REL_LEN_DIRECTORY_IS_DIRECTORY_SIZE,
                format!("{data_start} (the decompressed payload's directory and its padding)"),
                len.to_string(),
            )));
        }
    }
    if f.iter()
        .any(|l| l.error.severity == crate::rt::Severity::Error)
    {
        return out;
    }
    // The objects are in the serialized files: a bundle without one is refused here, so
    // that no command lists it as empty.
    let entries = &parsed.value.files;
    let holds_serialized = entries.iter().any(|e| {
        let at = e.ofs_data as usize;
        let head = at..at.saturating_add((e.len_data as usize).min(serialized::LOOKS_AT));
        data.get(head).is_some_and(serialized::looks_serialized)
    });
    if !holds_serialized {
        let at = inner.files();
        f.push(Located::new(
            PAYLOAD_PLACE,
            bundle::no_serialized_file(&entries.iter().map(|e| e.path).collect::<Vec<_>>())
                .placed(at.span().start, at.field_path()),
        ));
        return out;
    }
    let files = entries.iter().map(|e| e.own()).collect();
    let warnings = out.warnings();
    out.bundle = Some(Unbound {
        container: Container::Web(WebParts {
            header: h.own(),
            files,
            payload_at,
        }),
        data: bundle::Payload::Unpacked(data),
        warnings,
    });
    out
}

/// Every finding of a UnityWeb or UnityRaw bundle the spec has read (the verdict's
/// `unity-web` part), each at its place in the bundle, and the bundle when it opens.
pub fn unpack(
    view: &UnityWebRef<'_>,
    at: &Place<'_, UnityWebPos>,
    limits: &Limits,
) -> (Option<Unbound>, Vec<Error>) {
    unpack_located(view, at, limits).placed()
}

/// Reads a whole UnityWeb or UnityRaw file: the spec, then the payload and its directory.
/// Refused on the first error (in the bundle, or in its decompressed payload); warnings are
/// kept.
pub fn open(bytes: &[u8], limits: &Limits) -> Result<Unbound, Located> {
    let parsed = UnityWeb::read::<true>(bytes, &Context::new()).map_err(Located::from)?;
    let pos = parsed.pos.unwrap_or_default();
    let at = Place::root(&pos, <UnityWeb as Root>::ROOT);
    let mut b = unpack_located(&parsed.value, &at, limits).opened()?;
    b.warnings.extend(parsed.warnings);
    Ok(b)
}

/// The findings of `unity-web-payload` on its own: every file's range must lie inside the
/// payload, after the directory (a relation; that it lies inside is what cutting the files
/// needs).
pub fn payload_findings(p: &PayloadRef<'_>, at: &Place<'_, PayloadPos>) -> Vec<Error> {
    let total = at.span().end;
    let directory_end = at.pad_directory().span().start;
    let mut out = vec![];
    let files = at.files();
    for (i, e) in p.files.iter().enumerate() {
        let (ofs, len) = (u64::from(e.ofs_data), u64::from(e.len_data));
        let inside = ofs + len <= total;
        if inside && ofs >= directory_end {
            continue;
        }
        let here = files.at(i);
        let expected = format!(
            "a range after the directory's {directory_end} bytes, inside the {total} bytes of the payload"
        );
        let found = format!("offset {ofs} and size {len}");
        out.push(here.ofs_data().violates(
            Payload::REL_FILES_INSIDE_DATA,
            expected.clone(),
            found.clone(),
        ));
        if !inside {
            out.push(
                here.ofs_data()
                    .error(ErrorKind::Unsupported, expected, found),
            );
        }
    }
    out
}

/// The UnityWeb or UnityRaw bundle `original` (opened as `b`) written back with the files
/// `replaced` (directory index, new bytes) in place of theirs. The payload is the directory
/// with the new offsets and sizes, its padding kept, and the files laid out as for UnityFS
/// ([`bundle::relayout`]); it is compressed anew for UnityWeb (LZMA in the `.lzma` form, the
/// input's properties and the size as the input wrote it, known or -1) and stored for
/// UnityRaw. The header's level, complete file size and (where it was the file's size)
/// minimum streamed bytes are updated through the generated writer; bytes after the payload
/// are kept. A bundle of several levels is refused when its payload changes: a Web Player
/// streamed each level from a point of the one stream that a new stream does not keep. With
/// nothing changed the output is the input, byte for byte.
pub fn write(
    original: &[u8],
    b: &Bundle,
    parts: &WebParts,
    replaced: &[(usize, Vec<u8>)],
) -> Result<(Vec<u8>, Repacked), Located> {
    let ctx = Context::new();
    let bundle::Relaid { data, ranges } = bundle::relayout(b, replaced)?;
    let old_data = b.data()?;
    if data[..] == old_data[..] {
        return Ok((
            original.to_vec(),
            Repacked {
                blocks_kept: 1,
                blocks_compressed: 0,
                info_kept: true,
            },
        ));
    }
    let mut web = UnityWeb::read::<false>(original, &ctx)
        .map_err(Located::from)?
        .value
        .own();
    let levels = web.header.levels.len();
    if levels != 1 {
        return Err(Located::from(Error::unplaced(
            ErrorKind::Unsupported,
            "a bundle of one level, to write a changed payload back (each level of a streamed Web Player file is a point in the one LZMA stream)",
            format!("{levels} levels"),
        )));
    }
    // The payload: the old directory's padding, the new entries, the new data after them.
    let old =
        Payload::read::<false>(&old_data, &ctx).map_err(|e| Located::new(PAYLOAD_PLACE, e))?;
    let data_start = old_data.len() - old.value.data.len();
    if let Some(e) = parts
        .files
        .iter()
        .find(|e| (e.ofs_data as usize) < data_start)
    {
        return Err(Located::new(
            PAYLOAD_PLACE,
            Error::unplaced(
                ErrorKind::Unsupported,
                format!(
                    "files after the directory's {data_start} bytes, to write a changed one back"
                ),
                format!("`{}` at offset {}", e.path.escape_debug(), e.ofs_data),
            ),
        ));
    }
    let mut payload = old.value.own();
    payload.data = data[data_start.min(data.len())..].to_vec();
    for (e, (ofs, len)) in payload.files.iter_mut().zip(ranges) {
        e.ofs_data = size_u32(ofs, "a file's offset in the payload")?;
        e.len_data = size_u32(len, "a file")?;
    }
    let plain = payload
        .to_bytes(&ctx)
        .map_err(|e| Located::new(PAYLOAD_PLACE, e))?;
    let old_stored = parts.header.levels[0].len_compressed as usize;
    let old_payload = &web.payload;
    let (stream, rest) = old_payload.split_at(old_stored.min(old_payload.len()));
    let method = if web.header.compressed() {
        Method::LzmaAlone
    } else {
        Method::Stored
    };
    let mut packed = compress(method, &plain, Some(stream)).map_err(Located::from)?;
    let level = &mut web.header.levels[0];
    level.len_compressed = size_u32(packed.len(), "the stored payload")?;
    level.len_uncompressed = size_u32(plain.len(), "the payload")?;
    packed.extend_from_slice(rest);
    let new_len = original.len() as u64 - old_payload.len() as u64 + packed.len() as u64;
    let new_len = size_u32(new_len, "the bundle")?;
    web.payload = packed;
    if let Some(len) = web
        .header
        .len_file
        .as_mut()
        .filter(|l| **l as usize == original.len())
    {
        *len = new_len;
    }
    if web.header.minimum_streamed_bytes as usize == original.len() {
        web.header.minimum_streamed_bytes = new_len;
    }
    let out = web.to_bytes(&ctx).map_err(Located::from)?;
    Ok((
        out,
        Repacked {
            blocks_kept: 0,
            blocks_compressed: 1,
            info_kept: false,
        },
    ))
}
