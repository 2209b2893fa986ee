//! The relation pass of the RR layouts: every relation `spec/rr_mesh.ksy` states that its `-check`
//! expressions cannot say (those are the generated checks pass's), each violation at the place
//! the reader recorded for the field it names, with the relation's own severity; and the checks
//! the topology decoder needs, as findings of the same verdict.
//!
//! Relations that only make sense when others hold are checked only then, so that one broken
//! rule is reported once, at its cause: the index bounds of a range need the ranges to partition
//! the buffers and the vertex count the streams give; PrimitiveDescData index counts need the
//! range boundaries; the declared vertex counts need the extents of ranges and objects.

use super::topology::{inline_extents, ranged_extents, strides3, vertex_count, Extent, Indices};
use crate::generated::rr_mesh::*;
use crate::rt::{Error, ErrorKind, Place, Rule, Span, Strided};
use crate::verdict::Judge;

/// Violations of one relation listed before the rest are counted in one more finding: a body
/// with a million misplaced indices must not cost a million findings.
const LIMIT: usize = 1000;

/// The relations the topology decoder rests on: where the parts are, how many vertices the
/// streams hold, and indices inside their parts. When one does not hold, a decoder finding
/// (an error whatever the relation's severity) says the topology cannot be decoded.
const NEEDED: &[&Rule] = &[
    RangedLayout::REL_FIRST_RANGE_AT_ZERO,
    RangedLayout::REL_RANGES_PARTITION_BUFFERS,
    RangedLayout::REL_STREAM_LENGTHS,
    RangedLayout::REL_INDICES_RELATIVE_TO_VERTEX_BASE,
    InlineLayout::REL_OBJECTS_TILE_BUFFERS,
    InlineLayout::REL_STREAM_LENGTHS,
    InlineLayout::REL_INDICES_ABSOLUTE,
];

/// What decoding needs that a violation of `rule` denies, in the user's words.
fn needed_for(rule: &'static Rule) -> &'static str {
    if rule == RangedLayout::REL_FIRST_RANGE_AT_ZERO
        || rule == RangedLayout::REL_RANGES_PARTITION_BUFFERS
    {
        "ranges that partition the index and vertex buffers from index and vertex 0"
    } else if rule == InlineLayout::REL_OBJECTS_TILE_BUFFERS {
        "objects that tile the index and vertex buffers from index and vertex 0"
    } else if rule == RangedLayout::REL_INDICES_RELATIVE_TO_VERTEX_BASE {
        "every index naming a vertex of its own range"
    } else if rule == InlineLayout::REL_INDICES_ABSOLUTE {
        "every index naming a vertex of its own object"
    } else {
        "vertex streams of one record per vertex (the vertex count comes from them)"
    }
}

struct Tally {
    rule: &'static Rule,
    count: usize,
    /// The first violation: where the decoder finding goes.
    first: Error,
    /// The first violation past the limit, which the summary names.
    unlisted: Option<Error>,
}

/// The findings of the pass, on their way into the verdict: at most [`LIMIT`] per relation,
/// and the first violation of each.
pub(crate) struct Report<'j, 'c> {
    j: &'j mut Judge<'c>,
    tallies: Vec<Tally>,
}

impl<'j, 'c> Report<'j, 'c> {
    /// Runs `pass` with a report into `j`, then [`Report::finish`]es it.
    pub(crate) fn run(j: &'j mut Judge<'c>, pass: impl FnOnce(&mut Self)) {
        let mut report = Report {
            j,
            tallies: Vec::new(),
        };
        pass(&mut report);
        report.finish();
    }

    /// A violation of `rule`; `e` makes its finding (only when it is listed or first unlisted).
    fn add(&mut self, rule: &'static Rule, e: impl FnOnce(&'static Rule) -> Error) {
        match self.tallies.iter_mut().find(|t| t.rule == rule) {
            None => {
                let first = e(rule);
                self.j.push(first.clone());
                self.tallies.push(Tally {
                    rule,
                    count: 1,
                    first,
                    unlisted: None,
                });
            }
            Some(t) => {
                t.count += 1;
                if t.count <= LIMIT {
                    self.j.push(e(rule));
                } else if t.unlisted.is_none() {
                    t.unlisted = Some(e(rule));
                }
            }
        }
    }

    /// Whether `rule` was violated.
    fn violated(&self, rule: &'static Rule) -> bool {
        self.tallies.iter().any(|t| t.rule == rule)
    }

    /// A check the decoder makes that is not a relation (an index width it cannot read).
    fn decoder(&mut self, e: Error) {
        self.j.push(e);
    }

    /// Pushes what is left: the counts past the limit, and a decoder finding for each violated
    /// relation decoding rests on.
    fn finish(self) {
        for t in &self.tallies {
            if let Some(mut e) = t.unlisted.clone() {
                e.expected = "the relation to hold".into();
                e.found = format!("{} more violations (not listed)", t.count - LIMIT);
                self.j.push(e);
            }
        }
        for t in self.tallies.iter().filter(|t| NEEDED.contains(&t.rule)) {
            let offset = t.first.offset.unwrap_or(0);
            let mut e = Error::new(
                ErrorKind::Unsupported,
                offset,
                format!("{}, to decode the index topology", needed_for(t.rule)),
                "the relation broken here, so the index topology cannot be decoded",
            )
            .placed(offset, &t.first.path());
            // The relation it rests on, typed: the decoder finding is an error whatever the
            // relation's own severity, and `--relations warn` does not make it one.
            e.rule = Some(t.rule);
            self.j.push(e);
        }
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

fn is_split(f: VertexFormat) -> bool {
    f == VertexFormat::SPLIT12 || f == VertexFormat::SPLIT24
}

fn show3(s: [u32; 3]) -> String {
    format!("{}, {}, {}", s[0], s[1], s[2])
}

fn format_name(f: VertexFormat) -> String {
    f.name()
        .map_or_else(|| format!("format {}", f.0), str::to_string)
}

fn check_format_strides(
    rep: &mut Report,
    rule: &'static Rule,
    format: VertexFormat,
    strides: [u32; 3],
    at: &Place<'_, Strided<Span>>,
) {
    let Some(table) = table_strides(format) else {
        return;
    };
    if !table.contains(&strides) {
        let want: Vec<String> = table.iter().map(|t| show3(*t)).collect();
        rep.add(rule, |r| {
            at.violates(
                r,
                format!("strides {} ({})", want.join(" or "), format_name(format)),
                show3(strides),
            )
        });
    }
}

/// The three vertex streams' length prefixes.
struct Streams<'p> {
    lens: [usize; 3],
    at: [Place<'p, Span>; 3],
}

fn check_stream_lengths(
    rep: &mut Report,
    rule: &'static Rule,
    strides: [u32; 3],
    s: &Streams<'_>,
) -> Option<u64> {
    let v = vertex_count(s.lens[0], strides[0]);
    if v.is_none() {
        let expected = if strides[0] == 0 {
            "0 (the primary stride is 0)".to_string()
        } else {
            format!("a multiple of the primary stride {}", strides[0])
        };
        rep.add(rule, |r| {
            s.at[0].violates(r, expected, s.lens[0].to_string())
        });
    }
    for ((&len, stride), place) in s.lens.iter().zip(strides).zip(&s.at).skip(1) {
        let len = len as u64;
        let stride = u64::from(stride);
        if stride == 0 {
            if len != 0 {
                rep.add(rule, |r| {
                    place.violates(r, "0 (the stream's stride is 0)", len.to_string())
                });
            }
        } else if let Some(v) = v {
            if len != stride * v {
                rep.add(rule, |r| {
                    place.violates(
                        r,
                        format!("{} ({v} vertices of {stride} bytes)", stride * v),
                        len.to_string(),
                    )
                });
            }
        }
    }
    v
}

fn float3_bits(v: &Float3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn show_float3(v: &Float3) -> String {
    format!("({}, {}, {})", v.x, v.y, v.z)
}

/// The relations of the compiled mesh's form (its own, the selector agreeing with the class, is
/// the spec's check).
pub(crate) fn compiled(c: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>, rep: &mut Report) {
    let body = at.body();
    match (&c.body, body.get()) {
        (CompiledMeshBodyRef::RangedLayout(r), CompiledMeshBodyPos::RangedLayout(p)) => {
            ranged(r, &body.case(p), rep)
        }
        (CompiledMeshBodyRef::InlineLayout(l), CompiledMeshBodyPos::InlineLayout(p)) => {
            inline(l, &body.case(p), rep)
        }
        // The reader records the case it read: a view and positions of different cases are
        // not made by it.
        _ => {}
    }
}

/// The ranged form's relations.
fn ranged(r: &RangedLayoutRef<'_>, at: &Place<'_, RangedLayoutPos>, rep: &mut Report) {
    type R = RangedLayout;
    let strides = strides3(r.strides.iter());
    let rule = if is_split(r.vertex_format) {
        R::REL_FORMAT_STRIDES
    } else {
        R::REL_STATIC_FORMAT_STRIDES
    };
    check_format_strides(rep, rule, r.vertex_format, strides, &at.strides());
    let streams = Streams {
        lens: [r.primary.len(), r.positions.len(), r.skin.len()],
        at: [at.len_primary(), at.len_positions(), at.len_skin()],
    };
    let vcount = check_stream_lengths(rep, R::REL_STREAM_LENGTHS, strides, &streams);

    // The ranged form's indices are u16 (its index data is read with width 0).
    let indices = Indices::of(&r.indices);
    let icount = indices.map_or(0, |i| i.len() as u64);
    let n = r.ranges.len();
    let ranges = at.ranges();

    // The ranges: the first at zero, then each where the one before ends.
    /// The place of a range's first index (`true`) or its vertex base.
    fn field<'p>(p: &'p Place<'_, RangeRecordPos>, first: bool) -> Place<'p, Span> {
        if first {
            p.first_index()
        } else {
            p.vertex_base()
        }
    }
    if let Some(first) = r.ranges.first() {
        let place = ranges.at(0);
        for (is_first, v) in [(true, first.first_index), (false, first.vertex_base)] {
            if v != 0 {
                rep.add(R::REL_FIRST_RANGE_AT_ZERO, |rule| {
                    field(&place, is_first).violates(rule, "0", v.to_string())
                });
            }
        }
    } else if icount > 0 || vcount.is_some_and(|v| v > 0) {
        rep.add(R::REL_RANGES_PARTITION_BUFFERS, |rule| {
            at.num_ranges().violates(
                rule,
                "at least one range over the buffers",
                format!("0 ranges over {icount} indices"),
            )
        });
    }
    for (i, rr) in r.ranges.iter().enumerate() {
        // Places are made only for what is reported.
        let place = || ranges.at(i);
        if i > 0 {
            let prev = &r.ranges[i - 1];
            for (is_first, now, before) in [
                (true, rr.first_index, prev.first_index),
                (false, rr.vertex_base, prev.vertex_base),
            ] {
                if now < before {
                    rep.add(R::REL_RANGES_PARTITION_BUFFERS, |rule| {
                        field(&place(), is_first).violates(
                            rule,
                            format!("at least {before} (where range {} begins)", i - 1),
                            now.to_string(),
                        )
                    });
                }
            }
        }
        if u64::from(rr.first_index) > icount {
            rep.add(R::REL_RANGES_PARTITION_BUFFERS, |rule| {
                place().first_index().violates(
                    rule,
                    format!("at most the index count {icount}"),
                    rr.first_index.to_string(),
                )
            });
        }
        if let Some(v) = vcount.filter(|&v| u64::from(rr.vertex_base) > v) {
            rep.add(R::REL_RANGES_PARTITION_BUFFERS, |rule| {
                place().vertex_base().violates(
                    rule,
                    format!("at most the vertex count {v}"),
                    rr.vertex_base.to_string(),
                )
            });
        }
    }

    // PrimitiveDescData: each with its range's first index (one per range is the spec's check).
    let descs = &r.primitive_descs.records;
    let block = at.primitive_descs();
    let records = block.records();
    for (i, (d, rr)) in descs.iter().zip(&r.ranges).enumerate() {
        if d.first_index != rr.first_index {
            rep.add(R::REL_PRIMITIVE_DESC_FIRST_INDEX, |rule| {
                records.at(i).first_index().violates(
                    rule,
                    format!("{} (range {i}'s first index)", rr.first_index),
                    d.first_index.to_string(),
                )
            });
        }
    }
    if let ([d], [_]) = (descs.as_slice(), r.ranges.as_slice()) {
        let record = records.at(0);
        for (name, place, mine, header) in [
            ("centre", record.centre(), &d.centre, &r.centre),
            (
                "half_extent",
                record.half_extent(),
                &d.half_extent,
                &r.half_extent,
            ),
        ] {
            if float3_bits(mine) != float3_bits(header) {
                rep.add(R::REL_SINGLE_RANGE_BOUNDS, |rule| {
                    place.violates(
                        rule,
                        format!("the header's {name} {}", show_float3(header)),
                        show_float3(mine),
                    )
                });
            }
        }
    }

    // Extents, when the ranges partition the buffers.
    let partitioned =
        !rep.violated(R::REL_FIRST_RANGE_AT_ZERO) && !rep.violated(R::REL_RANGES_PARTITION_BUFFERS);
    if partitioned {
        // Index counts only need the index boundaries.
        for (i, d) in descs.iter().enumerate().take(n) {
            let start = u64::from(r.ranges[i].first_index);
            let end = r
                .ranges
                .get(i + 1)
                .map_or(icount, |x| u64::from(x.first_index));
            let span = end - start;
            if !span.is_multiple_of(3) {
                rep.add(R::REL_PRIMITIVE_DESC_INDEX_COUNT, |rule| {
                    records.at(i).num_indices().violates(
                        rule,
                        format!("three times range {i}'s triangle count, but the range holds {span} indices (not whole triangles)"),
                        d.num_indices.to_string(),
                    )
                });
            } else if u64::from(d.num_indices) != span {
                rep.add(R::REL_PRIMITIVE_DESC_INDEX_COUNT, |rule| {
                    records.at(i).num_indices().violates(
                        rule,
                        format!("{span} (three times range {i}'s {} triangles)", span / 3),
                        d.num_indices.to_string(),
                    )
                });
            }
        }
    }
    let extents = match vcount {
        Some(v) if partitioned => Some(ranged_extents(r, v, icount)),
        _ => None,
    };
    if let (Some(ext), Some(indices)) = (&extents, indices) {
        let index_data = at.indices();
        let list = index_data.u16_indices();
        extent_indices(
            rep,
            R::REL_INDICES_RELATIVE_TO_VERTEX_BASE,
            (ext, indices),
            (&index_data, list.some()),
            |e, ix| ix >= e.vertices.1 - e.vertices.0,
            |i, e| {
                let count = e.vertices.1 - e.vertices.0;
                format!(
                    "below {count} (range {i} has vertices {}..{}; its indices are relative to its vertex base {})",
                    e.vertices.0, e.vertices.1, e.vertices.0
                )
            },
        );
    }

    // The material list: one descriptor per range, with its vertex count and final bytes.
    let mats = &r.materials;
    let mats_at = at.materials();
    if mats.descriptors.len() != n {
        rep.add(R::REL_DESCRIPTOR_PER_RANGE, |rule| {
            mats_at.num_descriptors().violates(
                rule,
                format!("{n} (one per range)"),
                mats.descriptors.len().to_string(),
            )
        });
    }
    if let Some(ext) = &extents {
        descriptor_counts(
            rep,
            R::REL_DESCRIPTOR_VERTEX_COUNT,
            mats,
            &mats_at,
            ext,
            "range",
        );
    }
    let descriptors = mats_at.descriptors();
    for (i, d) in mats.descriptors.iter().enumerate() {
        if let Some(v) = d.platform_version.filter(|&v| v != 31) {
            rep.add(R::REL_DESCRIPTOR_FINAL_BYTES, |rule| {
                let place = descriptors.at(i);
                let pv = place.platform_version();
                let expected = "31 (PlatformVersion, on the last descriptor of the ranged form)";
                match pv.some() {
                    Some(p) => p.violates(rule, expected, v.to_string()),
                    None => place.violates(rule, expected, v.to_string()),
                }
            });
        }
        if let Some(b) = d.final_bytes.filter(|b| b.iter().any(|&x| x != 0)) {
            rep.add(R::REL_DESCRIPTOR_FINAL_BYTES, |rule| {
                let place = descriptors.at(i);
                let fb = place.final_bytes();
                let expected = "eight zero bytes (on every descriptor but the last)";
                let found = hex(b);
                match fb.some() {
                    Some(p) => p.violates(rule, expected, found),
                    None => place.violates(rule, expected, found),
                }
            });
        }
    }

    final_runs(r, at, rep);

    // The parts' own relations.
    mesh_data(&r.mesh_data, &at.mesh_data(), rep);
    material_list(mats, &mats_at, rep);
}

/// Reports under `rule` each index in the run of an extent of `ext` that `outside` finds
/// naming no vertex of the extent (`expected`, given the extent's number, says what it should
/// name): at its place in the list of indices, else at the whole index data.
fn extent_indices(
    rep: &mut Report,
    rule: &'static Rule,
    (ext, indices): (&[Extent], Indices<'_>),
    (index_data, list): (&Place<'_, IndexDataPos>, Option<Place<'_, Strided<Span>>>),
    outside: impl Fn(&Extent, u64) -> bool,
    expected: impl Fn(usize, &Extent) -> String,
) {
    for (i, e) in ext.iter().enumerate() {
        for (k, ix) in indices.range(e.indices.0, e.indices.1) {
            if outside(e, u64::from(ix)) {
                rep.add(rule, |rule| {
                    let expected = expected(i, e);
                    match &list {
                        Some(l) => l.at(k).violates(rule, expected, ix.to_string()),
                        None => index_data.violates(rule, expected, ix.to_string()),
                    }
                });
            }
        }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}

/// The four final runs: empty in a split mesh, the middle two empty, the first and last
/// copies of the primary and index streams (both or neither), and the trailer's flag.
fn final_runs(r: &RangedLayoutRef<'_>, at: &Place<'_, RangedLayoutPos>, rep: &mut Report) {
    type R = RangedLayout;
    let runs = [
        (r.cpu_vertices, at.len_cpu_vertices()),
        (r.cpu_positions, at.len_cpu_positions()),
        (r.cpu_skin, at.len_cpu_skin()),
        (r.cpu_indices, at.len_cpu_indices()),
    ];
    if is_split(r.vertex_format) {
        for (run, place) in runs.iter().filter(|(run, _)| !run.is_empty()) {
            rep.add(R::REL_FINAL_RUNS_EMPTY_WHEN_SPLIT, |rule| {
                place.violates(
                    rule,
                    format!(
                        "0 (the final runs of a split mesh, {}, are empty)",
                        format_name(r.vertex_format)
                    ),
                    run.len().to_string(),
                )
            });
        }
    }
    for (run, place) in &runs[1..3] {
        if !run.is_empty() {
            rep.add(R::REL_MIDDLE_RUNS_EMPTY, |rule| {
                place.violates(rule, "0 (an empty run)", run.len().to_string())
            });
        }
    }
    let filled_v = !r.cpu_vertices.is_empty();
    let filled_i = !r.cpu_indices.is_empty();
    if filled_v != filled_i {
        let (place, other) = if filled_v {
            (&runs[3].1, "VertexBufferDataStatic")
        } else {
            (&runs[0].1, "IndexBufferData")
        };
        rep.add(R::REL_CPU_RUNS_COPY_BUFFERS, |rule| {
            place.violates(rule, format!("a filled run, as {other} is filled"), "0")
        });
    }
    let index_bytes: &[u8] = match (r.indices.u16_indices, r.indices.u32_indices) {
        (Some(v), _) => v.bytes(),
        (None, Some(v)) => v.bytes(),
        _ => r.indices.other_width.unwrap_or_default(),
    };
    for (filled, run, copy_of, place, what) in [
        (
            filled_v,
            r.cpu_vertices,
            r.primary,
            at.cpu_vertices(),
            "the primary stream",
        ),
        (
            filled_i,
            r.cpu_indices,
            index_bytes,
            at.cpu_indices(),
            "the index stream",
        ),
    ] {
        if filled && run != copy_of {
            let first = run
                .iter()
                .zip(copy_of)
                .position(|(a, b)| a != b)
                .unwrap_or(run.len().min(copy_of.len()));
            rep.add(R::REL_CPU_RUNS_COPY_BUFFERS, |rule| {
                place.violates(
                    rule,
                    format!("a copy of {what} ({} bytes)", copy_of.len()),
                    format!("{} bytes, differing from byte {first}", run.len()),
                )
            });
        }
    }
    let filled = filled_v || filled_i;
    if let Some(flag) = r.materials.trailer.mesh_bools.get(0) {
        if (flag == 1) != filled {
            rep.add(R::REL_CPU_RUNS_FLAG, |rule| {
                at.materials().trailer().mesh_bools().at(0).violates(
                    rule,
                    if filled {
                        "1 (the final runs are filled)"
                    } else {
                        "0 (the final runs are empty)"
                    },
                    flag.to_string(),
                )
            });
        }
    }
}

fn descriptor_counts(
    rep: &mut Report,
    rule: &'static Rule,
    mats: &MaterialListRef<'_>,
    at: &Place<'_, MaterialListPos>,
    ext: &[Extent],
    what: &str,
) {
    let descriptors = at.descriptors();
    for (i, (d, e)) in mats.descriptors.iter().zip(ext).enumerate() {
        let count = e.vertices.1 - e.vertices.0;
        let want = count % 65_536;
        if u64::from(d.vertex_count) != want {
            rep.add(rule, |r| {
                descriptors.at(i).vertex_count().violates(
                    r,
                    format!("{want} ({what} {i}'s {count} vertices in the buffers, modulo 65,536; the buffers win)"),
                    d.vertex_count.to_string(),
                )
            });
        }
    }
}

/// The material list's relations.
pub(crate) fn material_list(
    m: &MaterialListRef<'_>,
    at: &Place<'_, MaterialListPos>,
    rep: &mut Report,
) {
    type M = MaterialList;
    let groups = at.groups();
    for (i, (g, d)) in m.groups.iter().zip(&m.descriptors).enumerate() {
        for (v, reference) in [(g.object_reference, true), (g.object_handle, false)] {
            if v != d.material {
                rep.add(M::REL_GROUP_IDENTITIES, |r| {
                    let place = groups.at(i);
                    let field = if reference {
                        place.object_reference()
                    } else {
                        place.object_handle()
                    };
                    field.violates(
                        r,
                        format!("0x{:016X} (descriptor {i}'s Material)", d.material),
                        format!("0x{v:016X}"),
                    )
                });
            }
        }
    }
}

/// MeshData's relations.
pub(crate) fn mesh_data(d: &MeshDataRef<'_>, at: &Place<'_, MeshDataPos>, rep: &mut Report) {
    type D = MeshData;
    let strides = strides3(d.strides.iter());
    check_format_strides(
        rep,
        D::REL_FORMAT_STRIDES,
        d.vertex_format,
        strides,
        &at.strides(),
    );
    let want = match (d.vertex_format, strides[2]) {
        (f, 8) if is_split(f) => Some((4, "a four-influence split mesh (skin stride 8)")),
        (f, 16) if is_split(f) => Some((8, "an eight-influence split mesh (skin stride 16)")),
        (VertexFormat::STATIC24, _) => Some((4, "a static24 mesh")),
        _ => None,
    };
    if let Some((n, what)) = want.filter(|&(n, _)| d.bones_per_vertex != n) {
        rep.add(D::REL_BONES_PER_VERTEX, |r| {
            at.bones_per_vertex().violates(
                r,
                format!("{n} ({what})"),
                d.bones_per_vertex.to_string(),
            )
        });
    }
}

/// The inline form's relations.
fn inline(l: &InlineLayoutRef<'_>, at: &Place<'_, InlineLayoutPos>, rep: &mut Report) {
    type L = InlineLayout;
    let md = &l.mesh_data;
    let md_at = at.mesh_data();
    let objects = &md.objects;
    let obj_at = md_at.objects();
    let k = objects.len();
    let strides = strides3(md.strides.iter());
    let streams = Streams {
        lens: [l.primary.len(), l.positions.len(), l.skin.len()],
        at: [at.len_primary(), at.len_positions(), at.len_skin()],
    };
    let vcount = check_stream_lengths(rep, L::REL_STREAM_LENGTHS, strides, &streams);
    let indices = Indices::of(&l.indices);
    if indices.is_none() {
        // The reader keeps the bytes of a width selector the document does not give; the
        // relations over indices cannot be checked, and the topology cannot be decoded.
        rep.decoder(md_at.index_width().error(
            ErrorKind::Unsupported,
            "an index width selector of 0 (u16) or 1 (u32), to decode the indices",
            md.index_width.to_string(),
        ));
    }
    let icount = indices.map(|v| v.len() as u64);

    /// The place of an object's start (`start`) or count, of its vertices or its indices.
    fn field<'p>(
        p: &'p Place<'_, MeshPrimitivePos>,
        vertices: bool,
        start: bool,
    ) -> Place<'p, Span> {
        match (vertices, start) {
            (true, true) => p.vertex_base(),
            (true, false) => p.num_vertices(),
            (false, true) => p.first_index(),
            (false, false) => p.num_triangles(),
        }
    }
    // Tiling: each object where the one before ends, all but the last within the buffers.
    let (mut next_v, mut next_i) = (0u64, 0u64);
    for (j, o) in objects.iter().enumerate() {
        // Places are made only for what is reported.
        let place = || obj_at.at(j);
        for (vertices, start, next, one) in [
            (true, o.vertex_base, next_v, "vertex"),
            (false, o.first_index, next_i, "index"),
        ] {
            if u64::from(start) != next {
                rep.add(L::REL_OBJECTS_TILE_BUFFERS, |r| {
                    field(&place(), vertices, true).violates(
                        r,
                        if j == 0 {
                            format!("0 (the first object begins at {one} 0)")
                        } else {
                            format!("{next} (where object {} ends)", j - 1)
                        },
                        start.to_string(),
                    )
                });
            }
        }
        next_v = u64::from(o.vertex_base) + u64::from(o.num_vertices);
        next_i = u64::from(o.first_index) + 3 * u64::from(o.num_triangles);
        // The last object's own counts may be stale (the buffers win): its start must lie
        // within the buffers, every other object's end.
        let last = j + 1 == k;
        let (v_end, i_end) = if last {
            (u64::from(o.vertex_base), u64::from(o.first_index))
        } else {
            (next_v, next_i)
        };
        for (vertices, end, count, (one, many)) in [
            (true, v_end, vcount, ("vertex", "vertices")),
            (false, i_end, icount, ("index", "indices")),
        ] {
            if let Some(n) = count.filter(|&n| end > n) {
                rep.add(L::REL_OBJECTS_TILE_BUFFERS, |r| {
                    field(&place(), vertices, last).violates(
                        r,
                        format!("an object within the {n} {many} of the buffer"),
                        format!("one reaching {one} {end}"),
                    )
                });
            }
        }
    }
    if k == 0 && (icount.is_some_and(|n| n > 0) || vcount.is_some_and(|v| v > 0)) {
        rep.add(L::REL_OBJECTS_TILE_BUFFERS, |r| {
            md_at.num_objects().violates(
                r,
                "objects over the buffers",
                format!(
                    "0 objects over {} vertices and {} indices",
                    vcount.unwrap_or(0),
                    icount.unwrap_or(0)
                ),
            )
        });
    }
    if let Some(n) = icount.filter(|n| n % 3 != 0) {
        rep.add(L::REL_OBJECTS_TILE_BUFFERS, |r| {
            at.len_indices().violates(
                r,
                "an index buffer of whole triangles (a multiple of 3 indices)",
                format!("{n} indices"),
            )
        });
    }

    let extents = match (vcount, icount) {
        (Some(v), Some(n)) if !rep.violated(L::REL_OBJECTS_TILE_BUFFERS) => {
            Some(inline_extents(l, v, n))
        }
        _ => None,
    };
    let last = k.checked_sub(1).and_then(|j| objects.get(j));
    if let (Some(ext), Some(last)) = (&extents, last) {
        let place = obj_at.at(k - 1);
        let e = ext[k - 1];
        let declared_v = u64::from(last.vertex_base) + u64::from(last.num_vertices);
        let declared_i = u64::from(last.first_index) + 3 * u64::from(last.num_triangles);
        if declared_v != e.vertices.1 {
            rep.add(L::REL_DECLARED_COUNTS_MATCH_BUFFERS, |r| {
                place.num_vertices().violates(
                    r,
                    format!(
                        "{} (the buffers hold {} vertices; they win)",
                        e.vertices.1 - e.vertices.0,
                        e.vertices.1
                    ),
                    last.num_vertices.to_string(),
                )
            });
        }
        if declared_i != e.indices.1 {
            let tris = (e.indices.1 - e.indices.0) / 3;
            rep.add(L::REL_DECLARED_COUNTS_MATCH_BUFFERS, |r| {
                place.num_triangles().violates(
                    r,
                    format!(
                        "{tris} (the buffers hold {} indices; they win)",
                        e.indices.1
                    ),
                    last.num_triangles.to_string(),
                )
            });
        }
    }
    if let (Some(ext), Some(indices)) = (&extents, indices) {
        let index_data = at.indices();
        let (u16s, u32s) = (index_data.u16_indices(), index_data.u32_indices());
        extent_indices(
            rep,
            L::REL_INDICES_ABSOLUTE,
            (ext, indices),
            (&index_data, u16s.some().or(u32s.some())),
            |e, ix| ix < e.vertices.0 || ix >= e.vertices.1,
            |j, e| {
                let (first, end) = e.vertices;
                format!("a vertex of object {j}, {first}..{end} (indices are absolute, not relative to the vertex base)")
            },
        );
    }

    let mats = &l.materials;
    let mats_at = at.materials();
    if mats.descriptors.len() != k {
        rep.add(L::REL_DESCRIPTOR_PER_OBJECT, |r| {
            mats_at.num_descriptors().violates(
                r,
                format!("{k} (one per object)"),
                mats.descriptors.len().to_string(),
            )
        });
    }
    if let Some(ext) = &extents {
        descriptor_counts(
            rep,
            L::REL_DESCRIPTOR_VERTEX_COUNT,
            mats,
            &mats_at,
            ext,
            "object",
        );
    }
    mesh_data(md, &md_at, rep);
    material_list(mats, &mats_at, rep);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_needed_relation_is_a_relation_of_the_spec() {
        for r in NEEDED {
            assert!(<RrMesh as crate::rt::Root>::RULES.contains(r), "{}", r.id);
            assert!(!needed_for(r).is_empty());
        }
    }

    #[test]
    fn the_table_splits_into_the_split_and_static_rows() {
        for f in [VertexFormat::SPLIT12, VertexFormat::SPLIT24] {
            assert!(is_split(f) && table_strides(f).is_some());
        }
        for f in [
            VertexFormat::STATIC16,
            VertexFormat::STATIC24,
            VertexFormat::STATIC28,
        ] {
            assert!(!is_split(f) && table_strides(f).is_some());
        }
        assert_eq!(
            table_strides(VertexFormat::SPLIT12).map(<[_]>::len),
            Some(2)
        );
        assert!(table_strides(VertexFormat(7)).is_none());
    }
}
