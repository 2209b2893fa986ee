//! The relation pass of the RR layouts: every relation `spec/rr_mesh.ksy` states, each violation
//! with its byte offset and the field path as the spec names it.
//!
//! Relations that only make sense when others hold are checked only then, so that one broken
//! rule is reported once, at its cause: the index bounds of a range need the ranges to partition
//! the buffers and the vertex count the streams give; PrimitiveDescData index counts need the
//! range boundaries; the warning-only vertex counts need the extents of ranges and objects.
//!
//! The same pass finds each range's (or object's) extent in the buffers, which the decoder
//! ([`super::topology`]) uses once the relations it depends on hold.

use crate::generated::rr_mesh::*;
use crate::rt::Error;
use crate::rt::Rule;

/// Violations of one relation beyond this many are summed up in one more line.
const LIMIT: usize = 16;

/// One step of a field path, outermost first.
#[derive(Debug, Clone, Copy)]
pub(crate) enum P {
    F(&'static str),
    I(usize),
}

fn with_path(mut e: Error, path: &[P]) -> Error {
    for p in path.iter().rev() {
        e = match *p {
            P::F(n) => e.in_field(n),
            P::I(i) => e.at_index(i),
        };
    }
    e
}

/// What the pass found: relation violations (with their relation id) and warnings.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub errors: Vec<(&'static Rule, Error)>,
    pub warnings: Vec<Error>,
    suppressed: Vec<(&'static Rule, u64, Vec<P>, usize, bool)>,
}

impl Findings {
    fn push(
        &mut self,
        warning: bool,
        id: &'static Rule,
        offset: u64,
        path: &[P],
        expected: String,
        found: String,
    ) {
        let listed = if warning {
            self.warnings.iter().filter(|e| e.rule == Some(id)).count()
        } else {
            self.errors.iter().filter(|(i, _)| *i == id).count()
        };
        if listed >= LIMIT {
            match self
                .suppressed
                .iter_mut()
                .find(|s| s.0 == id && s.4 == warning)
            {
                Some(s) => s.3 += 1,
                None => self
                    .suppressed
                    .push((id, offset, path.to_vec(), 1, warning)),
            }
            return;
        }
        let e = with_path(Error::relation(id, offset, expected, found), path);
        if warning {
            self.warnings.push(e);
        } else {
            self.errors.push((id, e));
        }
    }

    pub(crate) fn error(
        &mut self,
        id: &'static Rule,
        offset: u64,
        path: &[P],
        expected: impl Into<String>,
        found: impl Into<String>,
    ) {
        self.push(false, id, offset, path, expected.into(), found.into());
    }

    pub(crate) fn warn(
        &mut self,
        id: &'static Rule,
        offset: u64,
        path: &[P],
        expected: impl Into<String>,
        found: impl Into<String>,
    ) {
        self.push(true, id, offset, path, expected.into(), found.into());
    }

    /// Whether relation `id` was violated.
    pub(crate) fn violated(&self, id: &'static Rule) -> bool {
        self.errors.iter().any(|(i, _)| *i == id)
    }

    /// Adds the findings of a part that starts at `base`, under `path`.
    pub(crate) fn nest(&mut self, inner: Findings, base: u64, path: &[P]) {
        let inner = inner.finished();
        for (id, e) in inner.errors {
            self.errors.push((id, with_path(e.shifted(base), path)));
        }
        for e in inner.warnings {
            self.warnings.push(with_path(e.shifted(base), path));
        }
    }

    /// The findings with the violations past the limit summed up, one line per relation.
    pub(crate) fn finished(mut self) -> Findings {
        for (id, offset, path, n, warning) in std::mem::take(&mut self.suppressed) {
            let e = with_path(
                Error::relation(
                    id,
                    offset,
                    "the relation to hold",
                    format!("{n} more violations (not listed)"),
                ),
                &path,
            );
            if warning {
                self.warnings.push(e);
            } else {
                self.errors.push((id, e));
            }
        }
        self
    }
}

/// The byte size of an index stream.
pub(crate) fn index_bytes(d: &IndexData) -> u64 {
    d.u16_indices.as_ref().map_or(0, |v| 2 * v.len() as u64)
        + d.u32_indices.as_ref().map_or(0, |v| 4 * v.len() as u64)
        + d.other_width.as_ref().map_or(0, |v| v.len() as u64)
}

/// The indices of a stream, widened, when its width is one the document gives.
pub(crate) fn index_values(d: &IndexData) -> Option<Vec<u32>> {
    match (&d.u16_indices, &d.u32_indices) {
        (Some(v), None) => Some(v.iter().map(|&i| u32::from(i)).collect()),
        (None, Some(v)) => Some(v.clone()),
        _ => None,
    }
}

/// The name of the list of an index stream, for paths.
fn index_list_name(d: &IndexData) -> &'static str {
    if d.u32_indices.is_some() {
        "u32_indices"
    } else {
        "u16_indices"
    }
}

fn index_width_bytes(d: &IndexData) -> u64 {
    if d.u32_indices.is_some() {
        4
    } else {
        2
    }
}

/// The strides the vertex format table gives for a format, when it names the format.
pub fn table_strides(format: VertexFormat) -> Option<&'static [[u32; 3]]> {
    Some(match format {
        VertexFormat::STATIC16 => &[[16, 0, 0]],
        VertexFormat::STATIC24 => &[[24, 0, 0]],
        VertexFormat::STATIC28 => &[[28, 0, 0]],
        VertexFormat::SPLIT12 => &[[12, 12, 8], [12, 12, 16]],
        VertexFormat::SPLIT24 => &[[24, 12, 8]],
        _ => return None,
    })
}

fn show3(s: [u32; 3]) -> String {
    format!("{}, {}, {}", s[0], s[1], s[2])
}

fn format_name(f: VertexFormat) -> String {
    f.name()
        .map_or_else(|| format!("format {}", f.0), str::to_string)
}

fn strides3<T: Copy + Into<u32>>(v: &[T]) -> Option<[u32; 3]> {
    match v {
        [a, b, c] => Some([(*a).into(), (*b).into(), (*c).into()]),
        _ => None,
    }
}

fn check_format_strides(
    f: &mut Findings,
    id: &'static Rule,
    format: VertexFormat,
    strides: &[u32],
    offset: u64,
) {
    let (Some(table), Some(s)) = (table_strides(format), strides3(strides)) else {
        return;
    };
    if !table.contains(&s) {
        let want: Vec<String> = table.iter().map(|t| show3(*t)).collect();
        f.error(
            id,
            offset,
            &[P::F("strides")],
            format!("strides {} ({})", want.join(" or "), format_name(format)),
            show3(s),
        );
    }
}

/// The vertex count of the streams, from the primary stream and its stride, when they agree.
fn vertex_count(len: usize, stride: u32) -> Option<u64> {
    let len = len as u64;
    match stride {
        0 if len == 0 => Some(0),
        0 => None,
        s => (len % u64::from(s) == 0).then(|| len / u64::from(s)),
    }
}

/// Where the length prefixes of the three vertex streams are, relative to their type.
struct StreamOffsets {
    len: [u64; 3],
}

fn check_stream_lengths(
    f: &mut Findings,
    id: &'static Rule,
    strides: [u32; 3],
    lens: [usize; 3],
    at: &StreamOffsets,
) -> Option<u64> {
    const NAMES: [&str; 3] = ["len_primary", "len_positions", "len_skin"];
    let v = vertex_count(lens[0], strides[0]);
    if v.is_none() {
        let expected = if strides[0] == 0 {
            "0 (the primary stride is 0)".to_string()
        } else {
            format!("a multiple of the primary stride {}", strides[0])
        };
        f.error(
            id,
            at.len[0],
            &[P::F(NAMES[0])],
            expected,
            lens[0].to_string(),
        );
    }
    for k in 1..3 {
        let len = lens[k] as u64;
        let stride = u64::from(strides[k]);
        if stride == 0 {
            if len != 0 {
                f.error(
                    id,
                    at.len[k],
                    &[P::F(NAMES[k])],
                    "0 (the stream's stride is 0)",
                    len.to_string(),
                );
            }
        } else if let Some(v) = v {
            if len != stride * v {
                f.error(
                    id,
                    at.len[k],
                    &[P::F(NAMES[k])],
                    format!("{} ({v} vertices of {stride} bytes)", stride * v),
                    len.to_string(),
                );
            }
        }
    }
    v
}

/// Where one part (a range or an object) lies in the shared buffers: vertices and indices,
/// each from its first to one past its last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    pub vertices: (u64, u64),
    pub indices: (u64, u64),
}

/// What a form's pass found, and the parts' extents when the relations they rest on hold.
pub(crate) struct Analysis {
    pub findings: Findings,
    pub extents: Option<Vec<Extent>>,
    pub vertex_count: Option<u64>,
}

/// Offsets (relative to the ranged form's start) of the fields the relations name.
struct RangedMap {
    range: Vec<u64>,
    streams: StreamOffsets,
    indices: u64,
    len_primitive_descs: u64,
    primitive_descs: u64,
    mesh_data: u64,
    len_cpu: [u64; 4],
    cpu_vertices: u64,
    cpu_indices: u64,
    materials: u64,
}

fn ranged_map(r: &RangedLayout) -> RangedMap {
    let mut p: u64 = RangedLayout::OFFSET_RANGES;
    let n = r.ranges.len();
    let mut range = Vec::with_capacity(n);
    for i in 0..n {
        range.push(p);
        // Every record but the last has eight more bytes after its vertex base.
        p += RangeRecord::OFFSET_UNKNOWN_0X10 + if i + 1 < n { 8 } else { 0 };
    }
    let stream = |len: usize, p: &mut u64| {
        let at = *p;
        *p += 4 + len as u64;
        at
    };
    let l0 = stream(r.primary.len(), &mut p);
    let l1 = stream(r.positions.len(), &mut p);
    let l2 = stream(r.skin.len(), &mut p);
    let indices = p + 4;
    p += 4 + index_bytes(&r.indices);
    let len_primitive_descs = p;
    let primitive_descs = p + 4;
    p += 4 + PrimitiveDesc::FIXED_SIZE * r.primitive_descs.records.len() as u64;
    p += 4 + r.further_a.len() as u64;
    p += 4 + r.further_b.len() as u64;
    let mesh_data = p + 4;
    p +=
        4 + MeshData::OFFSET_OBJECTS + MeshPrimitive::FIXED_SIZE * r.mesh_data.objects.len() as u64;
    let mut len_cpu = [0u64; 4];
    let runs = [
        r.cpu_vertices.len(),
        r.cpu_positions.len(),
        r.cpu_skin.len(),
        r.cpu_indices.len(),
    ];
    for (k, len) in runs.into_iter().enumerate() {
        len_cpu[k] = p;
        p += 4 + len as u64;
    }
    RangedMap {
        range,
        streams: StreamOffsets { len: [l0, l1, l2] },
        indices,
        len_primitive_descs,
        primitive_descs,
        mesh_data,
        cpu_vertices: len_cpu[0] + 4,
        cpu_indices: len_cpu[3] + 4,
        len_cpu,
        materials: p,
    }
}

fn float3_bits(v: &Float3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn show_float3(v: &Float3) -> String {
    format!("({}, {}, {})", v.x, v.y, v.z)
}

/// The ranged form's relations (offsets relative to its start, paths from it).
pub(crate) fn ranged(r: &RangedLayout) -> Analysis {
    let mut f = Findings::default();
    let m = ranged_map(r);
    type R = RangedLayout;

    check_format_strides(
        &mut f,
        R::REL_FORMAT_STRIDES,
        r.vertex_format,
        &r.strides,
        RangedLayout::OFFSET_STRIDES,
    );
    let strides = strides3(&r.strides).unwrap_or([0; 3]);
    let lens = [r.primary.len(), r.positions.len(), r.skin.len()];
    let vcount = check_stream_lengths(&mut f, R::REL_STREAM_LENGTHS, strides, lens, &m.streams);

    let indices = index_values(&r.indices).unwrap_or_default();
    let icount = indices.len() as u64;
    let n = r.ranges.len();

    // The ranges: the first at zero, then each where the one before ends.
    if let Some(first) = r.ranges.first() {
        if first.first_index != 0 {
            f.error(
                R::REL_FIRST_RANGE_AT_ZERO,
                m.range[0] + RangeRecord::OFFSET_FIRST_INDEX,
                &[P::F("ranges"), P::I(0), P::F("first_index")],
                "0",
                first.first_index.to_string(),
            );
        }
        if first.vertex_base != 0 {
            f.error(
                R::REL_FIRST_RANGE_AT_ZERO,
                m.range[0] + RangeRecord::OFFSET_VERTEX_BASE,
                &[P::F("ranges"), P::I(0), P::F("vertex_base")],
                "0",
                first.vertex_base.to_string(),
            );
        }
    } else if icount > 0 || vcount.is_some_and(|v| v > 0) {
        f.error(
            R::REL_RANGES_PARTITION_BUFFERS,
            RangedLayout::OFFSET_NUM_RANGES,
            &[P::F("num_ranges")],
            "at least one range over the buffers",
            format!("0 ranges over {icount} indices"),
        );
    }
    for (i, rr) in r.ranges.iter().enumerate() {
        let path_fi = [P::F("ranges"), P::I(i), P::F("first_index")];
        let path_vb = [P::F("ranges"), P::I(i), P::F("vertex_base")];
        if i > 0 {
            let prev = &r.ranges[i - 1];
            if rr.first_index < prev.first_index {
                f.error(
                    R::REL_RANGES_PARTITION_BUFFERS,
                    m.range[i] + RangeRecord::OFFSET_FIRST_INDEX,
                    &path_fi,
                    format!(
                        "at least {} (where range {} begins)",
                        prev.first_index,
                        i - 1
                    ),
                    rr.first_index.to_string(),
                );
            }
            if rr.vertex_base < prev.vertex_base {
                f.error(
                    R::REL_RANGES_PARTITION_BUFFERS,
                    m.range[i] + RangeRecord::OFFSET_VERTEX_BASE,
                    &path_vb,
                    format!(
                        "at least {} (where range {} begins)",
                        prev.vertex_base,
                        i - 1
                    ),
                    rr.vertex_base.to_string(),
                );
            }
        }
        if u64::from(rr.first_index) > icount {
            f.error(
                R::REL_RANGES_PARTITION_BUFFERS,
                m.range[i] + RangeRecord::OFFSET_FIRST_INDEX,
                &path_fi,
                format!("at most the index count {icount}"),
                rr.first_index.to_string(),
            );
        }
        if let Some(v) = vcount {
            if u64::from(rr.vertex_base) > v {
                f.error(
                    R::REL_RANGES_PARTITION_BUFFERS,
                    m.range[i] + RangeRecord::OFFSET_VERTEX_BASE,
                    &path_vb,
                    format!("at most the vertex count {v}"),
                    rr.vertex_base.to_string(),
                );
            }
        }
    }

    // PrimitiveDescData: one per range, with the range's first index.
    let descs = &r.primitive_descs.records;
    if descs.len() != n {
        f.error(
            R::REL_PRIMITIVE_DESC_PER_RANGE,
            m.len_primitive_descs,
            &[P::F("len_primitive_descs")],
            format!(
                "{} ({n} records of {} bytes, one per range)",
                PrimitiveDesc::FIXED_SIZE * n as u64,
                PrimitiveDesc::FIXED_SIZE
            ),
            format!(
                "{} ({} records)",
                PrimitiveDesc::FIXED_SIZE * descs.len() as u64,
                descs.len()
            ),
        );
    }
    for (i, (d, rr)) in descs.iter().zip(&r.ranges).enumerate() {
        if d.first_index != rr.first_index {
            f.error(
                R::REL_PRIMITIVE_DESC_FIRST_INDEX,
                m.primitive_descs
                    + PrimitiveDesc::FIXED_SIZE * i as u64
                    + PrimitiveDesc::OFFSET_FIRST_INDEX,
                &[
                    P::F("primitive_descs"),
                    P::F("records"),
                    P::I(i),
                    P::F("first_index"),
                ],
                format!("{} (range {i}'s first index)", rr.first_index),
                d.first_index.to_string(),
            );
        }
    }
    if let ([d], [_]) = (descs.as_slice(), r.ranges.as_slice()) {
        for (name, at, mine, header) in [
            ("centre", PrimitiveDesc::OFFSET_CENTRE, &d.centre, &r.centre),
            (
                "half_extent",
                PrimitiveDesc::OFFSET_HALF_EXTENT,
                &d.half_extent,
                &r.half_extent,
            ),
        ] {
            if float3_bits(mine) != float3_bits(header) {
                f.error(
                    R::REL_SINGLE_RANGE_BOUNDS,
                    m.primitive_descs + at,
                    &[
                        P::F("primitive_descs"),
                        P::F("records"),
                        P::I(0),
                        P::F(name),
                    ],
                    format!("the header's {name} {}", show_float3(header)),
                    show_float3(mine),
                );
            }
        }
    }

    // Extents, when the ranges partition the buffers.
    let partitioned =
        !f.violated(R::REL_FIRST_RANGE_AT_ZERO) && !f.violated(R::REL_RANGES_PARTITION_BUFFERS);
    let extents: Option<Vec<Extent>> = match vcount {
        Some(v) if partitioned => Some(
            (0..n)
                .map(|i| {
                    let next = r.ranges.get(i + 1);
                    Extent {
                        vertices: (
                            u64::from(r.ranges[i].vertex_base),
                            next.map_or(v, |x| u64::from(x.vertex_base)),
                        ),
                        indices: (
                            u64::from(r.ranges[i].first_index),
                            next.map_or(icount, |x| u64::from(x.first_index)),
                        ),
                    }
                })
                .collect(),
        ),
        _ => None,
    };
    if partitioned {
        // Index counts only need the index boundaries.
        for (i, d) in descs.iter().enumerate().take(n) {
            let start = u64::from(r.ranges[i].first_index);
            let end = r
                .ranges
                .get(i + 1)
                .map_or(icount, |x| u64::from(x.first_index));
            let span = end - start;
            let at = m.primitive_descs
                + PrimitiveDesc::FIXED_SIZE * i as u64
                + PrimitiveDesc::OFFSET_NUM_INDICES;
            let path = [
                P::F("primitive_descs"),
                P::F("records"),
                P::I(i),
                P::F("num_indices"),
            ];
            if span % 3 != 0 {
                f.error(
                    R::REL_PRIMITIVE_DESC_INDEX_COUNT,
                    at,
                    &path,
                    format!("three times range {i}'s triangle count, but the range holds {span} indices (not whole triangles)"),
                    d.num_indices.to_string(),
                );
            } else if u64::from(d.num_indices) != span {
                f.error(
                    R::REL_PRIMITIVE_DESC_INDEX_COUNT,
                    at,
                    &path,
                    format!("{span} (three times range {i}'s {} triangles)", span / 3),
                    d.num_indices.to_string(),
                );
            }
        }
    }
    if let Some(ext) = &extents {
        for (i, e) in ext.iter().enumerate() {
            let count = e.vertices.1 - e.vertices.0;
            let (lo, hi) = e.indices;
            for k in lo..hi {
                let Some(&ix) = indices.get(k as usize) else {
                    break;
                };
                if u64::from(ix) >= count {
                    f.error(
                        R::REL_INDICES_RELATIVE_TO_VERTEX_BASE,
                        m.indices + 2 * k,
                        &[P::F("indices"), P::F("u16_indices"), P::I(k as usize)],
                        format!(
                            "below {count} (range {i} has vertices {}..{}; its indices are relative to its vertex base {})",
                            e.vertices.0, e.vertices.1, e.vertices.0
                        ),
                        ix.to_string(),
                    );
                }
            }
        }
    }

    // The material list: one descriptor per range, with its vertex count.
    let mats = &r.materials;
    if mats.descriptors.len() != n {
        f.error(
            R::REL_DESCRIPTOR_PER_RANGE,
            m.materials,
            &[P::F("materials"), P::F("num_descriptors")],
            format!("{n} (one per range)"),
            mats.descriptors.len().to_string(),
        );
    }
    if let Some(ext) = &extents {
        descriptor_counts(
            &mut f,
            R::REL_DESCRIPTOR_VERTEX_COUNT,
            mats,
            ext,
            m.materials,
            "range",
        );
    }

    // The final runs.
    for (k, name, run) in [
        (1usize, "len_cpu_positions", &r.cpu_positions),
        (2, "len_cpu_skin", &r.cpu_skin),
    ] {
        if !run.is_empty() {
            f.error(
                R::REL_MIDDLE_RUNS_EMPTY,
                m.len_cpu[k],
                &[P::F(name)],
                "0 (an empty run)",
                run.len().to_string(),
            );
        }
    }
    let index_bytes_le: Vec<u8> = match (&r.indices.u16_indices, &r.indices.u32_indices) {
        (Some(v), _) => v.iter().flat_map(|i| i.to_le_bytes()).collect(),
        (None, Some(v)) => v.iter().flat_map(|i| i.to_le_bytes()).collect(),
        _ => r.indices.other_width.clone().unwrap_or_default(),
    };
    let filled_v = !r.cpu_vertices.is_empty();
    let filled_i = !r.cpu_indices.is_empty();
    if filled_v != filled_i {
        let (k, name, other) = if filled_v {
            (3, "len_cpu_indices", "VertexBufferDataStatic")
        } else {
            (0, "len_cpu_vertices", "IndexBufferData")
        };
        f.error(
            R::REL_CPU_RUNS_COPY_BUFFERS,
            m.len_cpu[k],
            &[P::F(name)],
            format!("a filled run, as {other} is filled"),
            "0",
        );
    }
    for (filled, run, copy_of, at, name, what) in [
        (
            filled_v,
            &r.cpu_vertices,
            &r.primary,
            m.cpu_vertices,
            "cpu_vertices",
            "the primary stream",
        ),
        (
            filled_i,
            &r.cpu_indices,
            &index_bytes_le,
            m.cpu_indices,
            "cpu_indices",
            "the index stream",
        ),
    ] {
        if filled && run != copy_of {
            let first = run
                .iter()
                .zip(copy_of.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(run.len().min(copy_of.len()));
            f.error(
                R::REL_CPU_RUNS_COPY_BUFFERS,
                at,
                &[P::F(name)],
                format!("a copy of {what} ({} bytes)", copy_of.len()),
                format!("{} bytes, differing from byte {first}", run.len()),
            );
        }
    }
    let filled = filled_v || filled_i;
    if let Some(&flag) = mats.trailer.mesh_bools.first() {
        if (flag == 1) != filled {
            let at = m.materials + material_map(mats).trailer;
            f.error(
                R::REL_CPU_RUNS_FLAG,
                at,
                &[
                    P::F("materials"),
                    P::F("trailer"),
                    P::F("mesh_bools"),
                    P::I(0),
                ],
                if filled {
                    "1 (the final runs are filled)"
                } else {
                    "0 (the final runs are empty)"
                },
                flag.to_string(),
            );
        }
    }

    // The parts' own relations.
    f.nest(mesh_data(&r.mesh_data), m.mesh_data, &[P::F("mesh_data")]);
    f.nest(material_list(mats), m.materials, &[P::F("materials")]);
    Analysis {
        findings: f.finished(),
        extents,
        vertex_count: vcount,
    }
}

fn descriptor_counts(
    f: &mut Findings,
    id: &'static Rule,
    mats: &MaterialList,
    ext: &[Extent],
    base: u64,
    what: &str,
) {
    let map = material_map(mats);
    for (i, (d, e)) in mats.descriptors.iter().zip(ext).enumerate() {
        let count = e.vertices.1 - e.vertices.0;
        let want = count % 65_536;
        if u64::from(d.vertex_count) != want {
            f.warn(
                id,
                base + map.descriptors + DESCRIPTOR_SIZE * i as u64 + MaterialDescriptor::OFFSET_VERTEX_COUNT,
                &[P::F("materials"), P::F("descriptors"), P::I(i), P::F("vertex_count")],
                format!("{want} ({what} {i}'s {count} vertices in the buffers, modulo 65,536; the buffers win)"),
                d.vertex_count.to_string(),
            );
        }
    }
}

/// Offsets inside a material list.
struct MaterialMap {
    descriptors: u64,
    groups: u64,
    trailer: u64,
}

/// A material descriptor's size: the spec reads its last eight bytes two ways (the last
/// descriptor's PlatformVersion and QuantizationFactor), so the type has no fixed size of its own.
const DESCRIPTOR_SIZE: u64 = 28;
/// The group count and the six unattributed bytes between the descriptors and the groups.
const BEFORE_GROUPS: u64 = 4 + 6;

fn material_map(m: &MaterialList) -> MaterialMap {
    let descriptors = MaterialList::OFFSET_DESCRIPTORS;
    let groups = descriptors + DESCRIPTOR_SIZE * m.descriptors.len() as u64 + BEFORE_GROUPS;
    MaterialMap {
        descriptors,
        groups,
        trailer: groups + MaterialGroup::FIXED_SIZE * m.groups.len() as u64,
    }
}

/// The material list's relations.
pub(crate) fn material_list(m: &MaterialList) -> Findings {
    type M = MaterialList;
    let mut f = Findings::default();
    let map = material_map(m);
    if m.groups.len() != m.descriptors.len() {
        f.error(
            M::REL_GROUPS_PER_DESCRIPTOR,
            map.groups - BEFORE_GROUPS,
            &[P::F("num_groups")],
            format!("{} (one group per descriptor)", m.descriptors.len()),
            m.groups.len().to_string(),
        );
    }
    for (i, (g, d)) in m.groups.iter().zip(&m.descriptors).enumerate() {
        for (name, at, v) in [
            (
                "object_reference",
                MaterialGroup::OFFSET_OBJECT_REFERENCE,
                g.object_reference,
            ),
            (
                "object_handle",
                MaterialGroup::OFFSET_OBJECT_HANDLE,
                g.object_handle,
            ),
        ] {
            if v != d.material {
                f.error(
                    M::REL_GROUP_IDENTITIES,
                    map.groups + MaterialGroup::FIXED_SIZE * i as u64 + at,
                    &[P::F("groups"), P::I(i), P::F(name)],
                    format!("0x{:016X} (descriptor {i}'s Material)", d.material),
                    format!("0x{v:016X}"),
                );
            }
        }
    }
    f.finished()
}

/// MeshData's relations.
pub(crate) fn mesh_data(d: &MeshData) -> Findings {
    type D = MeshData;
    let mut f = Findings::default();
    let strides: Vec<u32> = d.strides.iter().map(|&s| u32::from(s)).collect();
    check_format_strides(
        &mut f,
        D::REL_FORMAT_STRIDES,
        d.vertex_format,
        &strides,
        D::OFFSET_STRIDES,
    );
    let want = match (d.vertex_format, strides.get(2)) {
        (VertexFormat::SPLIT12 | VertexFormat::SPLIT24, Some(8)) => {
            Some((4, "a four-influence split mesh (skin stride 8)"))
        }
        (VertexFormat::SPLIT12 | VertexFormat::SPLIT24, Some(16)) => {
            Some((8, "an eight-influence split mesh (skin stride 16)"))
        }
        (VertexFormat::STATIC24, _) => Some((4, "a static24 mesh")),
        _ => None,
    };
    if let Some((n, what)) = want {
        if d.bones_per_vertex != n {
            f.error(
                D::REL_BONES_PER_VERTEX,
                D::OFFSET_BONES_PER_VERTEX,
                &[P::F("bones_per_vertex")],
                format!("{n} ({what})"),
                d.bones_per_vertex.to_string(),
            );
        }
    }
    f.finished()
}

/// The inline form's relations (offsets relative to its start, paths from it).
pub(crate) fn inline(l: &InlineLayout) -> Analysis {
    type L = InlineLayout;
    let mut f = Findings::default();
    let md = &l.mesh_data;
    let objects = &md.objects;
    let k = objects.len();
    // Offsets.
    let mut p = MeshData::OFFSET_OBJECTS + MeshPrimitive::FIXED_SIZE * k as u64;
    let mut lens = [0u64; 3];
    for (slot, len) in lens
        .iter_mut()
        .zip([l.primary.len(), l.positions.len(), l.skin.len()])
    {
        *slot = p;
        p += 4 + len as u64;
    }
    let indices_at = p + 4;
    let materials_at = p + 4 + index_bytes(&l.indices);
    let streams = StreamOffsets { len: lens };

    let strides = strides3(&md.strides).unwrap_or([0; 3]);
    let vcount = check_stream_lengths(
        &mut f,
        L::REL_STREAM_LENGTHS,
        strides,
        [l.primary.len(), l.positions.len(), l.skin.len()],
        &streams,
    );
    let indices = index_values(&l.indices);
    // With a width selector the document does not give, the index count is not known and the
    // relations over indices are not checked (the decoder refuses such a body).
    let icount = indices.as_ref().map(|v| v.len() as u64);
    let obj_at = |j: usize, field: u64| {
        MeshData::OFFSET_OBJECTS + MeshPrimitive::FIXED_SIZE * j as u64 + field
    };
    let obj_path =
        |j: usize, name: &'static str| [P::F("mesh_data"), P::F("objects"), P::I(j), P::F(name)];

    // Tiling: each object where the one before ends, all but the last within the buffers.
    let (mut next_v, mut next_i) = (0u64, 0u64);
    for (j, o) in objects.iter().enumerate() {
        if u64::from(o.vertex_base) != next_v {
            f.error(
                L::REL_OBJECTS_TILE_BUFFERS,
                obj_at(j, MeshPrimitive::OFFSET_VERTEX_BASE),
                &obj_path(j, "vertex_base"),
                if j == 0 {
                    "0 (the first object begins at vertex 0)".to_string()
                } else {
                    format!("{next_v} (where object {} ends)", j - 1)
                },
                o.vertex_base.to_string(),
            );
        }
        if u64::from(o.first_index) != next_i {
            f.error(
                L::REL_OBJECTS_TILE_BUFFERS,
                obj_at(j, MeshPrimitive::OFFSET_FIRST_INDEX),
                &obj_path(j, "first_index"),
                if j == 0 {
                    "0 (the first object begins at index 0)".to_string()
                } else {
                    format!("{next_i} (where object {} ends)", j - 1)
                },
                o.first_index.to_string(),
            );
        }
        next_v = u64::from(o.vertex_base) + u64::from(o.num_vertices);
        next_i = u64::from(o.first_index) + 3 * u64::from(o.num_triangles);
        let last = j + 1 == k;
        let (v_end, i_end, v_name, i_name) = if last {
            (
                u64::from(o.vertex_base),
                u64::from(o.first_index),
                "vertex_base",
                "first_index",
            )
        } else {
            (next_v, next_i, "num_vertices", "num_triangles")
        };
        if let Some(v) = vcount {
            if v_end > v {
                f.error(
                    L::REL_OBJECTS_TILE_BUFFERS,
                    obj_at(
                        j,
                        if last {
                            MeshPrimitive::OFFSET_VERTEX_BASE
                        } else {
                            MeshPrimitive::OFFSET_NUM_VERTICES
                        },
                    ),
                    &obj_path(j, v_name),
                    format!("an object within the {v} vertices of the buffer"),
                    format!("one reaching vertex {v_end}"),
                );
            }
        }
        if let Some(icount) = icount.filter(|&n| i_end > n) {
            f.error(
                L::REL_OBJECTS_TILE_BUFFERS,
                obj_at(
                    j,
                    if last {
                        MeshPrimitive::OFFSET_FIRST_INDEX
                    } else {
                        MeshPrimitive::OFFSET_NUM_TRIANGLES
                    },
                ),
                &obj_path(j, i_name),
                format!("an object within the {icount} indices of the buffer"),
                format!("one reaching index {i_end}"),
            );
        }
    }
    if k == 0 && (icount.is_some_and(|n| n > 0) || vcount.is_some_and(|v| v > 0)) {
        f.error(
            L::REL_OBJECTS_TILE_BUFFERS,
            6,
            &[P::F("mesh_data"), P::F("num_objects")],
            "objects over the buffers",
            format!(
                "0 objects over {} vertices and {} indices",
                vcount.unwrap_or(0),
                icount.unwrap_or(0)
            ),
        );
    }
    if let Some(n) = icount.filter(|n| n % 3 != 0) {
        f.error(
            L::REL_OBJECTS_TILE_BUFFERS,
            p,
            &[P::F("len_indices")],
            "an index buffer of whole triangles (a multiple of 3 indices)",
            format!("{n} indices"),
        );
    }

    let extents: Option<Vec<Extent>> = match (vcount, icount) {
        (Some(v), Some(icount)) if !f.violated(L::REL_OBJECTS_TILE_BUFFERS) => Some(
            objects
                .iter()
                .enumerate()
                .map(|(j, o)| {
                    let last = j + 1 == k;
                    let vb = u64::from(o.vertex_base);
                    let fi = u64::from(o.first_index);
                    Extent {
                        vertices: (
                            vb,
                            if last {
                                v
                            } else {
                                vb + u64::from(o.num_vertices)
                            },
                        ),
                        indices: (
                            fi,
                            if last {
                                icount
                            } else {
                                fi + 3 * u64::from(o.num_triangles)
                            },
                        ),
                    }
                })
                .collect(),
        ),
        _ => None,
    };
    if let (Some(ext), Some(last)) = (&extents, objects.last()) {
        let j = k - 1;
        let e = ext[j];
        let declared_v = u64::from(last.vertex_base) + u64::from(last.num_vertices);
        let declared_i = u64::from(last.first_index) + 3 * u64::from(last.num_triangles);
        if declared_v != e.vertices.1 {
            f.warn(
                L::REL_DECLARED_COUNTS_MATCH_BUFFERS,
                obj_at(j, MeshPrimitive::OFFSET_NUM_VERTICES),
                &obj_path(j, "num_vertices"),
                format!(
                    "{} (the buffers hold {} vertices; they win)",
                    e.vertices.1 - e.vertices.0,
                    e.vertices.1
                ),
                last.num_vertices.to_string(),
            );
        }
        if declared_i != e.indices.1 {
            let tris = (e.indices.1 - e.indices.0) / 3;
            f.warn(
                L::REL_DECLARED_COUNTS_MATCH_BUFFERS,
                obj_at(j, MeshPrimitive::OFFSET_NUM_TRIANGLES),
                &obj_path(j, "num_triangles"),
                format!(
                    "{tris} (the buffers hold {} indices; they win)",
                    e.indices.1
                ),
                last.num_triangles.to_string(),
            );
        }
    }
    if let (Some(ext), Some(indices)) = (&extents, &indices) {
        let width = index_width_bytes(&l.indices);
        let list = index_list_name(&l.indices);
        for (j, e) in ext.iter().enumerate() {
            for kk in e.indices.0..e.indices.1 {
                let Some(&ix) = indices.get(kk as usize) else {
                    break;
                };
                let ix64 = u64::from(ix);
                if ix64 < e.vertices.0 || ix64 >= e.vertices.1 {
                    f.error(
                        L::REL_INDICES_ABSOLUTE,
                        indices_at + width * kk,
                        &[P::F("indices"), P::F(list), P::I(kk as usize)],
                        format!(
                            "a vertex of object {j}, {}..{} (indices are absolute, not relative to the vertex base)",
                            e.vertices.0, e.vertices.1
                        ),
                        ix.to_string(),
                    );
                }
            }
        }
    }

    let mats = &l.materials;
    if mats.descriptors.len() != k {
        f.error(
            L::REL_DESCRIPTOR_PER_OBJECT,
            materials_at,
            &[P::F("materials"), P::F("num_descriptors")],
            format!("{k} (one per object)"),
            mats.descriptors.len().to_string(),
        );
    }
    if let Some(ext) = &extents {
        descriptor_counts(
            &mut f,
            L::REL_DESCRIPTOR_VERTEX_COUNT,
            mats,
            ext,
            materials_at,
            "object",
        );
    }
    f.nest(mesh_data(md), 0, &[P::F("mesh_data")]);
    f.nest(material_list(mats), materials_at, &[P::F("materials")]);
    Analysis {
        findings: f.finished(),
        extents,
        vertex_count: vcount,
    }
}

/// The compiled mesh's relations (offsets relative to M, paths from the compiled mesh), and
/// its form's analysis.
pub(crate) fn compiled(c: &CompiledMesh) -> Analysis {
    type C = CompiledMesh;
    let mut f = Findings::default();
    let want = match c.layout_selector {
        LayoutSelector::RANGED => Some(LayoutClass::CLUSTERED_MESH_DATA),
        LayoutSelector::INLINE => Some(LayoutClass::MESH_DATA),
        _ => None,
    };
    if let Some(w) = want {
        if c.layout_class != w {
            f.error(
                C::REL_SELECTOR_MATCHES_CLASS,
                C::OFFSET_LAYOUT_CLASS,
                &[P::F("layout_class")],
                format!(
                    "0x{:08X} ({}, as the selector is {})",
                    w.0,
                    w.name().unwrap_or(""),
                    c.layout_selector.0
                ),
                format!("0x{:08X}", c.layout_class.0),
            );
        }
    }
    let inner = match &c.body {
        CompiledMeshBody::RangedLayout(r) => ranged(r),
        CompiledMeshBody::InlineLayout(l) => inline(l),
    };
    f.nest(inner.findings, C::OFFSET_BODY, &[P::F("body")]);
    Analysis {
        findings: f.finished(),
        extents: inner.extents,
        vertex_count: inner.vertex_count,
    }
}
