//! The relations the document states for SWS meshes that the spec's expressions cannot say
//! (sums, maxima and matchings over lists, lists compared in step, members of a field's value,
//! whether a SubMesh is a copy), judged on the view the reader made and reported at the places
//! it recorded: every violation (not only the first), each at the offset and spec path of the
//! field the relation names, at the severity the spec gives its rule. The relations the spec
//! states with `-check` are the generated checks pass's.
//!
//! The checks of a part (a CompiledMesh, a SubMesh) take the part's own place, so the same code
//! judges the part inside a Mesh body and on its own.

use crate::generated::sws_mesh::{
    CompiledMesh, CompiledMeshPlace, CompiledMeshPos, CompiledMeshRef, DrawRange, DrawRangePlace,
    DrawRangePos, Float2RunPlace, Float3RunPlace, Float3RunRef, InlineSubmeshPlace,
    MorphChannelPlace, MorphChannelRunPlace, PaletteBlockPlace, PalettePlace, Submesh,
    SubmeshPlace, SubmeshPointerPlace, SubmeshPos, SubmeshRef, SwsMesh, SwsMeshPlace, SwsMeshPos,
    SwsMeshRef, U16RunPlace, U32RunPlace, U8RunPlace, UvChannelPlace, UvChannelRunPlace,
};
use crate::rt::{Blocks, ErrorKind, Place, Span, Strided};
use crate::verdict::Judge;
use std::collections::{HashMap, HashSet};

/// The UV channels a SubMesh holds in the census (relation `uv_channels_census`).
const UV_CHANNELS: std::ops::RangeInclusive<usize> = 1..=3;
/// The most morph channels a SubMesh holds in the census (relation `morph_channels_census`).
const MOST_MORPH_CHANNELS: usize = 3;

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The number of vertices in one compiled stream (stream 0, when there is one).
pub fn vertex_count(c: &CompiledMeshRef<'_>) -> usize {
    c.vertex_streams.first().map_or(0, |s| s.vertices.len())
}

/// The copy a SubMesh's pointer holds, with its place, when it holds one.
pub fn with_copy<R>(
    s: &SubmeshRef<'_>,
    at: &Place<'_, SubmeshPos>,
    f: impl FnOnce(&SubmeshRef<'_>, &Place<'_, SubmeshPos>) -> R,
) -> Option<R> {
    let copy = s.copy.submesh.as_deref()?;
    let pointer = at.copy();
    let pointer = pointer.unboxed();
    let held = pointer.submesh();
    let place = held.some()?;
    Some(f(copy, &place.unboxed()))
}

/// The relations of a CompiledMesh.
pub fn compiled(c: &CompiledMeshRef<'_>, at: &Place<'_, CompiledMeshPos>, j: &mut Judge<'_>) {
    let n_indices = c.indices.items.len() as u64;
    let n_vertices = vertex_count(c) as u64;
    for (list, ranges, place) in [
        ("ranges_a", &c.ranges_a, at.ranges_a()),
        ("ranges_b", &c.ranges_b, at.ranges_b()),
    ] {
        partition(j, list, ranges, &place, n_indices);
        for (k, r) in ranges.iter().enumerate() {
            let end = u64::from(r.first_vertex) + u64::from(r.vertex_count);
            if end > n_vertices {
                j.push(place.at(k).vertex_count().violates(
                    CompiledMesh::REL_RANGE_VERTICES_IN_STREAM,
                    format!(
                        "first vertex + vertex count at most {n_vertices} (the vertices of a stream)"
                    ),
                    format!("{} + {} = {end}", r.first_vertex, r.vertex_count),
                ));
            }
        }
    }
    let block = at.palettes();
    let palettes = block.palettes();
    for (i, (p, r)) in c
        .palettes
        .palettes
        .iter()
        .zip(c.ranges_a.iter())
        .enumerate()
    {
        if u32::from(p.vertex_count) != r.vertex_count {
            j.push(palettes.at(i).vertex_count().violates(
                CompiledMesh::REL_PALETTE_VERTEX_COUNT,
                format!("{} (the vertex count of ranges_a[{i}])", r.vertex_count),
                p.vertex_count.to_string(),
            ));
        }
    }
}

/// One partition of the index buffer: every range inside it, none overlapping, the triangles
/// adding up to the index count.
fn partition(
    j: &mut Judge<'_>,
    list: &str,
    ranges: &Blocks<'_, DrawRange>,
    at: &Place<'_, Strided<DrawRangePos>>,
    n_indices: u64,
) {
    let rel = CompiledMesh::REL_RANGES_PARTITION_INDICES;
    let mut spans = vec![];
    let mut triangles: u64 = 0;
    for (k, r) in ranges.iter().enumerate() {
        let start = u64::from(r.first_index);
        let end = start + 3 * u64::from(r.triangle_count);
        triangles += u64::from(r.triangle_count);
        if end > n_indices {
            j.push(at.at(k).triangle_count().violates(
                rel,
                format!(
                    "indices inside the buffer of {n_indices} (first index + 3 x triangle count)"
                ),
                format!("{start} + 3 x {} = {end}", r.triangle_count),
            ));
        } else if end > start {
            spans.push((start, end, k));
        }
    }
    spans.sort_unstable();
    for w in spans.windows(2) {
        let ((_, prev_end, pk), (start, _, k)) = (w[0], w[1]);
        if start < prev_end {
            j.push(at.at(k).first_index().violates(
                rel,
                format!(
                    "a first index at or after {prev_end}, where {list}[{pk}] ends (no overlap)"
                ),
                start.to_string(),
            ));
        }
    }
    if 3 * triangles != n_indices {
        j.push(at.violates(
            rel,
            format!(
                "triangles adding up to the index count ({n_indices} indices, {} triangles)",
                n_indices / 3
            ),
            format!("{triangles} triangles ({} indices)", 3 * triangles),
        ));
    }
}

/// A per-vertex run of `count` values whose count is at `at`: `n` of them, or none where
/// `may_be_empty`.
fn run(j: &mut Judge<'_>, at: &Place<'_, Span>, count: usize, n: usize, may_be_empty: bool) {
    if count == n || (may_be_empty && count == 0) {
        return;
    }
    let values = plural(n, "value", "values");
    j.push(at.violates(
        Submesh::REL_RUNS_MATCH_VERTEX_COUNT,
        if may_be_empty {
            format!("{values} (one per vertex) or none")
        } else {
            format!("{values} (one per vertex)")
        },
        count.to_string(),
    ));
}

/// The relations of one SubMesh and of the copy it holds. `original` says whether it is a
/// SubMesh of the mesh's list (or one read on its own), whose pointer holds its copy, or that
/// copy.
pub fn submesh(s: &SubmeshRef<'_>, at: &Place<'_, SubmeshPos>, original: bool, j: &mut Judge<'_>) {
    let n = s.positions.items.len();
    let n_idx = s.indices.items.len();
    let t = n_idx / 3;
    let indices = at.indices();
    if !n_idx.is_multiple_of(3) {
        j.push(indices.num_items().violates(
            Submesh::REL_WHOLE_TRIANGLES,
            "a multiple of 3 (three indices per triangle)",
            n_idx.to_string(),
        ));
    }
    // The common case (every index in range) is one pass; only bad indices are walked again.
    if s.indices.items.iter().any(|ix| usize::from(ix) >= n) {
        let items = indices.items();
        let rule = Submesh::REL_INDICES_NAME_VERTICES;
        let bad = j.indices_below(rule, &s.indices.items, &items, n);
        // The relation is a reading (a warning); that the indices name vertices is what
        // decoding the original's triangles rests on.
        if original {
            j.push(indices.error(
                ErrorKind::Unsupported,
                format!("every index below the vertex count {n}, to decode the triangles"),
                format!(
                    "{} no vertex",
                    plural(bad, "index that names", "indices that name")
                ),
            ));
        }
    }
    // Every per-vertex run: n values, or none where the table allows none.
    for (place, count, may_be_empty) in [
        (
            at.source_vertices().num_items(),
            s.source_vertices.items.len(),
            true,
        ),
        (at.normals().num_items(), s.normals.items.len(), false),
        (at.tangents().num_items(), s.tangents.items.len(), true),
        (at.binormals().num_items(), s.binormals.items.len(), true),
        (at.colours().num_items(), s.colours.items.len(), true),
        (
            at.vertex_words_a().num_items(),
            s.vertex_words_a.items.len(),
            true,
        ),
        (
            at.vertex_words_b().num_items(),
            s.vertex_words_b.items.len(),
            true,
        ),
        (
            at.vertex_words_c().num_items(),
            s.vertex_words_c.items.len(),
            false,
        ),
    ] {
        run(j, &place, count, n, may_be_empty);
    }
    let uv = at.uv_channels();
    let uv_items = uv.items();
    for (k, c) in s.uv_channels.items.iter().enumerate() {
        let ch = uv_items.at(k);
        run(j, &ch.uvs().num_items(), c.uvs.items.len(), n, false);
        run(j, &ch.source().num_items(), c.source.items.len(), n, true);
    }
    let morph = at.morph_channels();
    let morph_items = morph.items();
    for (k, c) in s.morph_channels.items.iter().enumerate() {
        let ch = morph_items.at(k);
        for (place, count) in [
            (ch.positions().num_items(), c.positions.items.len()),
            (ch.normals().num_items(), c.normals.items.len()),
            (ch.uvs().num_items(), c.uvs.items.len()),
        ] {
            run(j, &place, count, n, false);
        }
    }
    for (place, count) in [
        (at.face_words().num_items(), s.face_words.items.len()),
        (at.face_bytes().num_items(), s.face_bytes.items.len()),
    ] {
        if count != t {
            j.push(place.violates(
                Submesh::REL_RUNS_MATCH_TRIANGLE_COUNT,
                format!("{} (one per triangle)", plural(t, "value", "values")),
                count.to_string(),
            ));
        }
    }
    let n_morphs = s.morph_channels.items.len();
    if !original && n_morphs > 0 {
        j.push(morph.num_items().violates(
            Submesh::REL_NO_MORPHS_ON_COPY,
            "0 (a copy holds no morph channels)",
            n_morphs.to_string(),
        ));
    }
    let n_uv = s.uv_channels.items.len();
    if !UV_CHANNELS.contains(&n_uv) {
        j.push(uv.num_items().violates(
            Submesh::REL_UV_CHANNELS_CENSUS,
            format!(
                "{} to {} UV channels (the census of every SubMesh)",
                UV_CHANNELS.start(),
                UV_CHANNELS.end()
            ),
            n_uv.to_string(),
        ));
    }
    if n_morphs > MOST_MORPH_CHANNELS {
        j.push(morph.num_items().violates(
            Submesh::REL_MORPH_CHANNELS_CENSUS,
            format!("at most {MOST_MORPH_CHANNELS} morph channels (the census of every SubMesh)"),
            n_morphs.to_string(),
        ));
    }
    let pointer = at.copy();
    let pointer = pointer.unboxed();
    let tag = s.copy.tag;
    if original && tag != 0 {
        j.push(pointer.tag().violates(
            Submesh::REL_ONE_COPY_EACH,
            "0 (an original points at its inline copy)",
            tag.to_string(),
        ));
    } else if !original && tag != 3 {
        j.push(pointer.tag().violates(
            Submesh::REL_ONE_COPY_EACH,
            "3 (a copy points at nothing)",
            tag.to_string(),
        ));
    }
    with_copy(s, at, |copy, cat| {
        if original {
            copy_like_original(s, copy, cat, j);
        }
        submesh(copy, cat, false, j);
    });
}

/// The first position at which two lists differ, or where the shorter ends.
fn first_difference<T: PartialEq>(
    a: impl Iterator<Item = T>,
    b: impl Iterator<Item = T>,
) -> Option<usize> {
    let mut a = a.fuse();
    let mut b = b.fuse();
    let mut k = 0;
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if x == y => k += 1,
            _ => return Some(k),
        }
    }
}

/// Relation `copy_like_original`: the copy `copy` (at `at`) of the original `s`.
fn copy_like_original(
    s: &SubmeshRef<'_>,
    copy: &SubmeshRef<'_>,
    at: &Place<'_, SubmeshPos>,
    j: &mut Judge<'_>,
) {
    let rel = Submesh::REL_COPY_LIKE_ORIGINAL;
    let n = s.positions.items.len();
    let (ours, theirs) = (&s.indices.items, &copy.indices.items);
    if ours.len() != theirs.len() {
        j.push(at.indices().num_items().violates(
            rel,
            format!("{} (the original's index count)", ours.len()),
            theirs.len().to_string(),
        ));
    } else if let Some(k) = first_difference(ours.iter(), theirs.iter()) {
        j.push(at.indices().items().at(k).violates(
            rel,
            format!("{} (the original's index {k})", ours.get(k).unwrap_or(0)),
            theirs.get(k).unwrap_or(0).to_string(),
        ));
    }
    // Positions are compared bit for bit: the stored bytes.
    let (ours, theirs) = (s.positions.items.bytes(), copy.positions.items.bytes());
    if ours.len() != theirs.len() {
        j.push(at.positions().num_items().violates(
            rel,
            format!("{n} (the original's vertex count)"),
            copy.positions.items.len().to_string(),
        ));
    } else if let Some(k) = first_difference(ours.chunks(12), theirs.chunks(12)) {
        let p = |v: &Float3RunRef<'_>| {
            v.items
                .get(k)
                .map(|f| format!("({}, {}, {})", f.x, f.y, f.z))
                .unwrap_or_default()
        };
        j.push(at.positions().items().at(k).violates(
            rel,
            format!(
                "{} (the original's position {k}, bit for bit)",
                p(&s.positions)
            ),
            p(&copy.positions),
        ));
    }
    if copy.material_id != s.material_id {
        j.push(at.material_id().violates(
            rel,
            format!("{} (the original's material id)", s.material_id),
            copy.material_id.to_string(),
        ));
    }
    let (ours, theirs) = (s.uv_channels.items.len(), copy.uv_channels.items.len());
    if ours != theirs {
        j.push(at.uv_channels().num_items().violates(
            rel,
            format!("{ours} (as many UV channels as the original)"),
            theirs.to_string(),
        ));
    }
    for (place, count, what) in [
        (
            at.tangents().num_items(),
            copy.tangents.items.len(),
            "tangents",
        ),
        (
            at.binormals().num_items(),
            copy.binormals.items.len(),
            "binormals",
        ),
    ] {
        if count != n {
            j.push(place.violates(
                rel,
                format!("{n} {what} (one per vertex of the original)"),
                count.to_string(),
            ));
        }
    }
    let sources = copy.source_vertices.items.len();
    if sources != 0 {
        j.push(at.source_vertices().num_items().violates(
            rel,
            "0 (a copy has no source vertices)",
            sources.to_string(),
        ));
    }
}

/// The first-partition range each SubMesh of the mesh corresponds to (relation
/// `submesh_matches_its_range`): range i draws material i, so a SubMesh's range is one drawn
/// with its material, the k-th such range for the k-th SubMesh with that material (no two
/// share one). `None` where there is no such range left.
pub fn submesh_ranges(m: &SwsMeshRef<'_>) -> Vec<Option<usize>> {
    let a = m.data.ranges_a.len();
    let mut drawn_with: HashMap<u32, Vec<usize>> = HashMap::new();
    for (r, id) in m.material_ids.iter().take(a).enumerate() {
        drawn_with.entry(id).or_default().push(r);
    }
    let mut taken: HashMap<u32, usize> = HashMap::new();
    m.submeshes
        .iter()
        .map(|e| {
            let id = e.submesh.material_id;
            let k = taken.entry(id).or_default();
            let range = drawn_with.get(&id).and_then(|rs| rs.get(*k)).copied();
            *k += 1;
            range
        })
        .collect()
}

/// Every SubMesh of the mesh with its place, copies included (a copy after its original).
fn each_submesh(
    s: &SubmeshRef<'_>,
    at: &Place<'_, SubmeshPos>,
    f: &mut dyn FnMut(&SubmeshRef<'_>, &Place<'_, SubmeshPos>),
) {
    f(s, at);
    with_copy(s, at, |copy, cat| each_submesh(copy, cat, f));
}

/// The relations of a whole Mesh body.
pub fn mesh(m: &SwsMeshRef<'_>, at: &Place<'_, SwsMeshPos>, j: &mut Judge<'_>) {
    let c = &m.data;
    let data = at.data();
    let a = c.ranges_a.len();
    let n_bones = m.bones.len();
    let block = data.palettes();
    let palettes = block.palettes();
    for (i, p) in c.palettes.palettes.iter().enumerate() {
        let place = palettes.at(i);
        if n_bones == 0 && p.num_bones != 0 {
            j.push(place.num_bones().violates(
                SwsMesh::REL_PALETTES_EMPTY_WITHOUT_BONES,
                "0 (the mesh has no bones)",
                p.num_bones.to_string(),
            ));
        }
        let bones = place.bones();
        for (k, b) in p.bones.iter().enumerate() {
            if usize::from(b) >= n_bones {
                j.push(bones.at(k).violates(
                    SwsMesh::REL_PALETTE_BONES_EXIST,
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
            let terms: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            j.push(at.submeshes().violates(
                SwsMesh::REL_SUBMESH_VERTICES_SUM,
                format!(
                    "SubMesh vertex counts adding up to {want} (the compiled mesh's V / stride)"
                ),
                format!("{sum} ({})", terms.join(" + ")),
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
        j.push(data.num_extra_streams().violates(
            SwsMesh::REL_EXTRA_STREAMS_ARE_MORPH_CHANNELS,
            format!("{most} (the most MorphChannels of any SubMesh)"),
            c.num_extra_streams.to_string(),
        ));
    }
    let listed: HashSet<u32> = m.material_ids.iter().collect();
    let entries = at.submeshes();
    for (i, e) in m.submeshes.iter().enumerate() {
        let entry = entries.at(i);
        each_submesh(&e.submesh, &entry.submesh(), &mut |s, place| {
            if !listed.contains(&s.material_id) {
                j.push(place.material_id().violates(
                    SwsMesh::REL_SUBMESH_MATERIAL_LISTED,
                    "one of the mesh's material ids",
                    s.material_id.to_string(),
                ));
            }
        });
    }
    let ranges = data.ranges_a();
    for (i, (e, range)) in m.submeshes.iter().zip(submesh_ranges(m)).enumerate() {
        let s = &e.submesh;
        let t = s.indices.items.len() / 3;
        match range {
            Some(r) => {
                let count = c.ranges_a.get(r).map_or(0, |r| r.triangle_count);
                if u64::from(count) != t as u64 {
                    j.push(ranges.at(r).triangle_count().violates(
                        SwsMesh::REL_SUBMESH_MATCHES_ITS_RANGE,
                        format!(
                            "{t} (the triangles of submeshes[{i}], drawn with material {})",
                            s.material_id
                        ),
                        count.to_string(),
                    ));
                }
            }
            // A material the list does not hold is relation `submesh_material_listed`'s.
            None if listed.contains(&s.material_id) => {
                j.push(entries.at(i).submesh().material_id().violates(
                    SwsMesh::REL_SUBMESH_MATCHES_ITS_RANGE,
                    format!(
                        "the material of a first-partition range of its own (range i draws material i, for i below A = {a})"
                    ),
                    format!(
                        "{}, whose ranges earlier SubMeshes have taken or which no range draws",
                        s.material_id
                    ),
                ));
            }
            None => {}
        }
    }
    for (i, e) in m.submeshes.iter().enumerate() {
        let entry = entries.at(i);
        submesh(&e.submesh, &entry.submesh(), true, j);
    }
    compiled(c, &data, j);
}
