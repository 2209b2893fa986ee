//! The relations the document states for SWS meshes, checked on read values: every violation is
//! reported (not only the first), each with its byte offset and its path as the spec names it.
//!
//! The checks of a part (a CompiledMesh, a SubMesh) are written relative to the part; the caller
//! moves their offsets to the part's position and adds the part's path.

use super::offsets;
use crate::generated::sws_mesh::{CompiledMesh, DrawRange, Submesh, SwsMesh};
use crate::rt::Error;

/// A relation violation at `offset` inside a part, at path `steps` (outermost first) below it.
fn violation(
    rel: &'static crate::rt::Rule,
    offset: u64,
    steps: &[Step],
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    let mut e = Error::relation(rel, offset, expected, found);
    for s in steps.iter().rev() {
        e = match s {
            Step::F(name) => e.in_field(*name),
            Step::I(i) => e.at_index(*i),
        };
    }
    e
}

/// One step of a path below a part.
#[derive(Debug, Clone, Copy)]
enum Step {
    F(&'static str),
    I(usize),
}
use Step::{F, I};

/// Moves errors found inside a part to the part's place: `base` bytes in, below `steps`.
fn place(errors: Vec<Error>, base: u64, steps: &[Step]) -> impl Iterator<Item = Error> + '_ {
    errors.into_iter().map(move |mut e| {
        for s in steps.iter().rev() {
            e = match s {
                Step::F(name) => e.in_field(*name),
                Step::I(i) => e.at_index(*i),
            };
        }
        e.shifted(base)
    })
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn stored_vs(stored: u32, definition: u128) -> Option<String> {
    (u128::from(stored) != definition).then(|| stored.to_string())
}

/// The number of vertices in one stream (stream 0 when there is one).
pub fn vertex_count(c: &CompiledMesh) -> usize {
    c.vertex_streams.first().map_or(0, |s| s.vertices.len())
}

/// The relations of a CompiledMesh on its own, offsets from its first byte.
pub fn compiled(c: &CompiledMesh) -> Vec<Error> {
    let mut out = vec![];
    let at = offsets::compiled(c);
    let streams = u128::from(c.num_extra_streams) + 1;
    if let Some(found) = stored_vs(c.stride_all_streams, u128::from(c.stride) * streams) {
        out.push(violation(
            CompiledMesh::REL_STRIDE_ALL_STREAMS,
            CompiledMesh::OFFSET_STRIDE_ALL_STREAMS,
            &[F("stride_all_streams")],
            format!(
                "stride x (s + 1) = {} x {streams} = {}",
                c.stride,
                u128::from(c.stride) * streams
            ),
            found,
        ));
    }
    let all = u128::from(c.len_vertex_stream) * streams;
    if let Some(found) = stored_vs(c.len_all_streams, all) {
        out.push(violation(
            CompiledMesh::REL_LEN_ALL_STREAMS,
            CompiledMesh::OFFSET_LEN_ALL_STREAMS,
            &[F("len_all_streams")],
            format!("V x (s + 1) = {} x {streams} = {all}", c.len_vertex_stream),
            found,
        ));
    }
    let (a, b) = (c.ranges_a.len() as u128, c.ranges_b.len() as u128);
    let total = all + u128::from(c.len_indices) + u128::from(DrawRange::FIXED_SIZE) * (a + b);
    if let Some(found) = stored_vs(c.total, total) {
        out.push(violation(
            CompiledMesh::REL_TOTAL_ADDS_UP,
            CompiledMesh::OFFSET_TOTAL,
            &[F("total")],
            format!(
                "V(s + 1) + I + 24(A + B) = {all} + {} + 24 x {} = {total}",
                c.len_indices,
                a + b
            ),
            found,
        ));
    }
    let n_indices = c.indices.items.len() as u64;
    let n_vertices = vertex_count(c) as u64;
    for (list, ranges, base) in [
        ("ranges_a", &c.ranges_a, at.ranges_a),
        ("ranges_b", &c.ranges_b, at.ranges_b),
    ] {
        partition(&mut out, list, ranges, base, n_indices);
        for (j, r) in ranges.iter().enumerate() {
            let end = u64::from(r.first_vertex) + u64::from(r.vertex_count);
            if end > n_vertices {
                out.push(violation(
                    CompiledMesh::REL_RANGE_VERTICES_IN_STREAM,
                    base + DrawRange::FIXED_SIZE * j as u64 + DrawRange::OFFSET_VERTEX_COUNT,
                    &[F(list), I(j), F("vertex_count")],
                    format!(
                        "first vertex + vertex count at most {n_vertices} (the vertices of a stream)"
                    ),
                    format!("{} + {} = {end}", r.first_vertex, r.vertex_count),
                ));
            }
        }
    }
    let pal_at = offsets::palettes(&c.palettes);
    for (i, (p, r)) in c.palettes.palettes.iter().zip(&c.ranges_a).enumerate() {
        if u32::from(p.vertex_count) != r.vertex_count {
            out.push(violation(
                CompiledMesh::REL_PALETTE_VERTEX_COUNT,
                at.palettes + pal_at.get(i).copied().unwrap_or(0) + 5,
                &[F("palettes"), F("palettes"), I(i), F("vertex_count")],
                format!("{} (the vertex count of ranges_a[{i}])", r.vertex_count),
                p.vertex_count.to_string(),
            ));
        }
    }
    out
}

/// One partition of the index buffer: every range inside it, none overlapping, the triangles
/// adding up to the index count.
fn partition(
    out: &mut Vec<Error>,
    list: &'static str,
    ranges: &[DrawRange],
    base: u64,
    n_indices: u64,
) {
    let rel = CompiledMesh::REL_RANGES_PARTITION_INDICES;
    let mut spans = vec![];
    let mut triangles: u64 = 0;
    for (j, r) in ranges.iter().enumerate() {
        let start = u64::from(r.first_index);
        let end = start + 3 * u64::from(r.triangle_count);
        triangles += u64::from(r.triangle_count);
        if end > n_indices {
            out.push(violation(
                rel,
                base + DrawRange::FIXED_SIZE * j as u64 + DrawRange::OFFSET_TRIANGLE_COUNT,
                &[F(list), I(j), F("triangle_count")],
                format!(
                    "indices inside the buffer of {n_indices} (first index + 3 x triangle count)"
                ),
                format!("{start} + 3 x {} = {end}", r.triangle_count),
            ));
        } else if end > start {
            spans.push((start, end, j));
        }
    }
    spans.sort_unstable();
    for w in spans.windows(2) {
        let ((_, prev_end, pj), (start, _, j)) = (w[0], w[1]);
        if start < prev_end {
            out.push(violation(
                rel,
                base + DrawRange::FIXED_SIZE * j as u64 + DrawRange::OFFSET_FIRST_INDEX,
                &[F(list), I(j), F("first_index")],
                format!(
                    "a first index at or after {prev_end}, where {list}[{pj}] ends (no overlap)"
                ),
                start.to_string(),
            ));
        }
    }
    if 3 * triangles != n_indices {
        out.push(violation(
            rel,
            base,
            &[F(list)],
            format!(
                "triangles adding up to the index count ({n_indices} indices, {} triangles)",
                n_indices / 3
            ),
            format!("{triangles} triangles ({} indices)", 3 * triangles),
        ));
    }
}

/// The relations of one SubMesh, offsets from its managed byte. `original` says whether it is a
/// SubMesh of the mesh's list (whose copy pointer is tag 0) or a copy (tag 3).
pub fn submesh(s: &Submesh, original: bool) -> Vec<Error> {
    let mut out = vec![];
    let at = offsets::submesh(s);
    let n = s.positions.items.len();
    let n_idx = s.indices.items.len();
    let t = n_idx / 3;
    if n_idx % 3 != 0 {
        out.push(violation(
            Submesh::REL_WHOLE_TRIANGLES,
            at.indices,
            &[F("indices"), F("num_items")],
            "a multiple of 3 (three indices per triangle)",
            n_idx.to_string(),
        ));
    }
    for (k, &ix) in s.indices.items.iter().enumerate() {
        if usize::from(ix) >= n {
            out.push(violation(
                Submesh::REL_INDICES_NAME_VERTICES,
                at.indices + 4 + 2 * k as u64,
                &[F("indices"), F("items"), I(k)],
                format!("a vertex index below {n} (in triangle {})", k / 3),
                ix.to_string(),
            ));
        }
    }
    // Per-vertex runs: (field, its offset, its count, whether it may be empty).
    let rel = Submesh::REL_RUNS_MATCH_VERTEX_COUNT;
    let runs: [(&'static str, u64, usize, bool); 8] = [
        (
            "source_vertices",
            at.source_vertices,
            s.source_vertices.items.len(),
            true,
        ),
        ("normals", at.normals, s.normals.items.len(), false),
        ("tangents", at.tangents, s.tangents.items.len(), true),
        ("binormals", at.binormals, s.binormals.items.len(), true),
        ("colours", at.colours, s.colours.items.len(), true),
        (
            "vertex_words_a",
            at.vertex_words_a,
            s.vertex_words_a.items.len(),
            true,
        ),
        (
            "vertex_words_b",
            at.vertex_words_b,
            s.vertex_words_b.items.len(),
            true,
        ),
        (
            "vertex_words_c",
            at.vertex_words_c,
            s.vertex_words_c.items.len(),
            false,
        ),
    ];
    for (field, offset, count, may_be_empty) in runs {
        check_run(&mut out, rel, offset, &[F(field)], count, n, may_be_empty);
    }
    for (k, c) in s.uv_channels.items.iter().enumerate() {
        let base = at.uv_channel.get(k).copied().unwrap_or(at.uv_channels);
        let cat = offsets::uv_channel(c);
        let path = |f| [F("uv_channels"), F("items"), I(k), F(f)];
        check_run(
            &mut out,
            rel,
            base + cat.uvs,
            &path("uvs"),
            c.uvs.items.len(),
            n,
            false,
        );
        check_run(
            &mut out,
            rel,
            base + cat.source,
            &path("source"),
            c.source.items.len(),
            n,
            true,
        );
    }
    for (k, c) in s.morph_channels.items.iter().enumerate() {
        let base = at
            .morph_channel
            .get(k)
            .copied()
            .unwrap_or(at.morph_channels);
        let cat = offsets::morph_channel(c);
        let path = |f| [F("morph_channels"), F("items"), I(k), F(f)];
        for (f, off, count) in [
            ("positions", cat.positions, c.positions.items.len()),
            ("normals", cat.normals, c.normals.items.len()),
            ("uvs", cat.uvs, c.uvs.items.len()),
        ] {
            check_run(&mut out, rel, base + off, &path(f), count, n, false);
        }
    }
    let rel = Submesh::REL_RUNS_MATCH_TRIANGLE_COUNT;
    for (field, offset, count) in [
        ("face_words", at.face_words, s.face_words.items.len()),
        ("face_bytes", at.face_bytes, s.face_bytes.items.len()),
    ] {
        if count != t {
            out.push(violation(
                rel,
                offset,
                &[F(field), F("num_items")],
                format!("{} (one per triangle)", plural(t, "value", "values")),
                count.to_string(),
            ));
        }
    }
    let morphs = !s.morph_channels.items.is_empty();
    if s.has_morphs != u8::from(morphs) {
        out.push(violation(
            Submesh::REL_HAS_MORPHS_FLAG,
            at.has_morphs,
            &[F("has_morphs")],
            format!(
                "{} (the SubMesh holds {})",
                u8::from(morphs),
                plural(
                    s.morph_channels.items.len(),
                    "morph channel",
                    "morph channels"
                )
            ),
            s.has_morphs.to_string(),
        ));
    }
    let want = if original { 0 } else { 3 };
    if s.copy.tag != want {
        out.push(violation(
            Submesh::REL_ONE_COPY_EACH,
            at.copy,
            &[F("copy"), F("tag")],
            if original {
                "0 (an original points at its inline copy)"
            } else {
                "3 (a copy points at nothing)"
            },
            s.copy.tag.to_string(),
        ));
    }
    if let Some(copy) = &s.copy.submesh {
        out.extend(place(
            submesh(copy, false),
            at.copy_submesh,
            &[F("copy"), F("submesh")],
        ));
    }
    out
}

fn check_run(
    out: &mut Vec<Error>,
    rel: &'static crate::rt::Rule,
    offset: u64,
    path: &[Step],
    count: usize,
    n: usize,
    may_be_empty: bool,
) {
    if count == n || (may_be_empty && count == 0) {
        return;
    }
    let mut steps = path.to_vec();
    steps.push(F("num_items"));
    out.push(violation(
        rel,
        offset,
        &steps,
        if may_be_empty {
            format!("{} (one per vertex) or none", plural(n, "value", "values"))
        } else {
            format!("{} (one per vertex)", plural(n, "value", "values"))
        },
        count.to_string(),
    ));
}

/// Every SubMesh of the mesh, copies included, with its offset in the body and its path.
fn each_submesh<'a>(
    m: &'a SwsMesh,
    at: &offsets::MeshAt,
    mut f: impl FnMut(&'a Submesh, u64, Vec<Step>),
) {
    for (i, entry) in m.submeshes.iter().enumerate() {
        let mut s = &entry.submesh;
        let mut base = at.submesh.get(i).copied().unwrap_or(0);
        let mut path = vec![F("submeshes"), I(i), F("submesh")];
        loop {
            f(s, base, path.clone());
            let Some(copy) = &s.copy.submesh else { break };
            base += offsets::submesh(s).copy_submesh;
            path.extend([F("copy"), F("submesh")]);
            s = copy;
        }
    }
}

/// The relations of a whole Mesh body, offsets from its managed byte.
pub fn mesh(m: &SwsMesh) -> Vec<Error> {
    let mut out = vec![];
    let at = offsets::mesh(m);
    let c = &m.data;
    let cat = offsets::compiled(c);
    if m.material_ids.len() != c.ranges_a.len() {
        out.push(violation(
            SwsMesh::REL_ONE_MATERIAL_PER_RANGE,
            at.num_materials,
            &[F("num_materials")],
            format!("{} (the range count A)", c.ranges_a.len()),
            m.material_ids.len().to_string(),
        ));
    }
    let n_bones = m.bones.len();
    let pal_at = offsets::palettes(&c.palettes);
    for (i, p) in c.palettes.palettes.iter().enumerate() {
        for (k, &b) in p.bones.iter().enumerate() {
            if usize::from(b) >= n_bones {
                out.push(violation(
                    SwsMesh::REL_PALETTE_BONES_EXIST,
                    at.data + cat.palettes + pal_at.get(i).copied().unwrap_or(0) + 7 + k as u64,
                    &[
                        F("data"),
                        F("palettes"),
                        F("palettes"),
                        I(i),
                        F("bones"),
                        I(k),
                    ],
                    format!("a bone below the bone count {n_bones}"),
                    b.to_string(),
                ));
            }
        }
    }
    if !m.submeshes.is_empty() {
        let counts: Vec<usize> = m
            .submeshes
            .iter()
            .map(|s| s.submesh.positions.items.len())
            .collect();
        let sum: usize = counts.iter().sum();
        let want = vertex_count(c);
        if sum != want {
            out.push(violation(
                SwsMesh::REL_SUBMESH_VERTICES_SUM,
                SwsMesh::OFFSET_SUBMESHES,
                &[F("submeshes")],
                format!(
                    "SubMesh vertex counts adding up to {want} (the compiled mesh's V / stride)"
                ),
                format!(
                    "{sum} ({})",
                    counts
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" + ")
                ),
            ));
        }
    }
    let most = m
        .submeshes
        .iter()
        .map(|s| s.submesh.morph_channels.items.len())
        .max()
        .unwrap_or(0);
    if u128::from(c.num_extra_streams) != most as u128 {
        out.push(violation(
            SwsMesh::REL_EXTRA_STREAMS_ARE_MORPH_CHANNELS,
            at.data + 4,
            &[F("data"), F("num_extra_streams")],
            format!("{most} (the most MorphChannels of any SubMesh)"),
            c.num_extra_streams.to_string(),
        ));
    }
    each_submesh(m, &at, |s, base, path| {
        if !m.material_ids.contains(&s.material_id) {
            let mut steps = path.clone();
            steps.push(F("material_id"));
            out.push(violation(
                SwsMesh::REL_SUBMESH_MATERIAL_LISTED,
                base + offsets::submesh(s).material_id,
                &steps,
                "one of the mesh's material ids",
                s.material_id.to_string(),
            ));
        }
    });
    for (i, entry) in m.submeshes.iter().enumerate() {
        let base = at.submesh.get(i).copied().unwrap_or(0);
        out.extend(place(
            submesh(&entry.submesh, true),
            base,
            &[F("submeshes"), I(i), F("submesh")],
        ));
    }
    out.extend(place(compiled(c), at.data, &[F("data")]));
    out
}
