//! Vertex order restored after an editor's round trip.
//!
//! An editor does not keep a file's vertex order: Blender's glTF importer makes each
//! primitive's vertices anew and its exporter writes them grouped by material, in an order of
//! its own, with a vertex two primitives share written twice. When the glTF it writes carries
//! `_MESHSPEC_VERTEX` (each vertex's place in the file meshspec exported, plus one; the add-on
//! records it), the vertices are put back in that order: copies of one vertex whose values
//! agree (within what the round trip changes) become one again, vertices the editor added
//! (0, or a place already taken by a vertex that differs) come after the originals, and
//! the primitives' indices follow. Nothing is dropped: a vertex that cannot be merged stays.

use crate::scene::{Colors, Mesh};
use std::collections::BTreeMap;

/// The largest place a float attribute carries exactly (2^24).
const MOST: f32 = 16_777_216.0;

/// `a` and `b` within `tol` (relative above 1), component by component.
fn near(a: &[f32], b: &[f32], tol: f32) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x - y).abs() <= tol * x.abs().max(y.abs()).max(1.0))
}

/// Whether vertices `a` and `b` of `m` are one vertex written twice: joints equal; positions,
/// texture coordinates, colours, weights and morph target positions within 1e-6 (relative
/// above 1); normals within 5e-3 (an editor's custom normals are lossy: Blender's keep about a
/// third of a degree). Tangents are not compared: an editor makes them anew from the rest.
fn same_vertex(m: &Mesh, a: usize, b: usize) -> bool {
    let opt = |v: &Option<Vec<[f32; 3]>>, tol| v.as_ref().is_none_or(|v| near(&v[a], &v[b], tol));
    near(&m.positions[a], &m.positions[b], 1e-6)
        && opt(&m.normals, 5e-3)
        && m.uvs.iter().all(|u| near(&u[a], &u[b], 1e-6))
        && match &m.colors {
            Some(Colors::Float(c)) => near(&c[a], &c[b], 1e-6),
            Some(Colors::Rgba8(c)) => c[a] == c[b],
            None => true,
        }
        && m.skin
            .as_ref()
            .is_none_or(|s| s.joints[a] == s.joints[b] && near(&s.weights[a], &s.weights[b], 1e-6))
        && m.morph_targets
            .iter()
            .all(|t| near(&t.positions[a], &t.positions[b], 1e-6) && opt(&t.normals, 5e-3))
}

/// The elements of `v` in the order `order` gives (old indices).
fn pick<T: Copy>(v: &[T], order: &[usize]) -> Vec<T> {
    order.iter().map(|&k| v[k]).collect()
}

/// Puts `m`'s vertices back in the order `ids` records (one per vertex; see the module). Ids
/// that are not whole places (or not one per vertex) are ignored, with a note.
pub fn restore(m: &mut Mesh, ids: &[f32], notes: &mut Vec<String>) {
    let n = m.positions.len();
    if ids.len() != n
        || ids
            .iter()
            .any(|&x| !(0.0..=MOST).contains(&x) || x.fract() != 0.0)
    {
        notes.push(format!(
            "mesh `{}`: _MESHSPEC_VERTEX ignored: not one whole place (0 to 2^24) per vertex",
            m.name
        ));
        return;
    }
    // Per place, the vertices that claim it, in the file's order.
    let mut claims: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut added = vec![];
    for (v, &id) in ids.iter().enumerate() {
        match id as u32 {
            0 => added.push(v),
            place => claims.entry(place).or_default().push(v),
        }
    }
    // The new order: one vertex per place, then the copies that differ, then the added.
    let mut order = Vec::with_capacity(n);
    let mut at = vec![usize::MAX; n];
    let (mut merged, mut split) = (0usize, vec![]);
    for vs in claims.values() {
        let first = vs[0];
        at[first] = order.len();
        order.push(first);
        for &v in &vs[1..] {
            if same_vertex(m, first, v) {
                at[v] = at[first];
                merged += 1;
            } else {
                split.push(v);
            }
        }
    }
    for &v in split.iter().chain(&added) {
        at[v] = order.len();
        order.push(v);
    }
    let in_order = merged == 0 && order.iter().enumerate().all(|(k, &v)| k == v);
    if in_order {
        return;
    }
    m.positions = pick(&m.positions, &order);
    if let Some(v) = &mut m.normals {
        *v = pick(v, &order);
    }
    if let Some(v) = &mut m.tangents {
        *v = pick(v, &order);
    }
    match &mut m.colors {
        Some(Colors::Float(c)) => *c = pick(c, &order),
        Some(Colors::Rgba8(c)) => *c = pick(c, &order),
        None => {}
    }
    for u in &mut m.uvs {
        *u = pick(u, &order);
    }
    if let Some(s) = &mut m.skin {
        s.joints = pick(&s.joints, &order);
        s.weights = pick(&s.weights, &order);
    }
    for t in &mut m.morph_targets {
        t.positions = pick(&t.positions, &order);
        if let Some(v) = &mut t.normals {
            *v = pick(v, &order);
        }
        if let Some(v) = &mut t.tangents {
            *v = pick(v, &order);
        }
    }
    for p in &mut m.primitives {
        for i in &mut p.indices {
            *i = at[*i as usize] as u32;
        }
    }
    notes.push(format!(
        "mesh `{}`: vertex order restored from _MESHSPEC_VERTEX ({} vertices; {merged} copies of one vertex merged, {} vertices the editor added or changed apart after the originals)",
        m.name,
        order.len(),
        split.len() + added.len()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Mode, Primitive};

    fn mesh(positions: Vec<[f32; 3]>, indices: Vec<u32>) -> Mesh {
        Mesh {
            name: "m".into(),
            positions,
            primitives: vec![Primitive {
                mode: Mode::Triangles,
                indices,
                material: None,
            }],
            ..Mesh::default()
        }
    }

    #[test]
    fn copies_merge_and_added_vertices_follow() {
        // As an editor writes it: places 3, 1, 2, 1 (a copy of 1), then an added vertex.
        let p = |x: f32| [x, 0.0, 0.0];
        let mut m = mesh(
            vec![p(3.0), p(1.0), p(2.0), p(1.0), p(9.0)],
            vec![0, 1, 2, 3, 2, 4],
        );
        let mut notes = vec![];
        restore(&mut m, &[3.0, 1.0, 2.0, 1.0, 0.0], &mut notes);
        assert_eq!(m.positions, vec![p(1.0), p(2.0), p(3.0), p(9.0)]);
        assert_eq!(m.primitives[0].indices, vec![2, 0, 1, 0, 1, 3]);
        assert!(
            notes[0].contains("1 copies of one vertex merged"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_copy_that_differs_stays_and_bad_ids_are_ignored() {
        let mut m = mesh(vec![[0.0; 3], [1.0, 0.0, 0.0]], vec![0, 1, 1]);
        let mut notes = vec![];
        restore(&mut m, &[1.0, 1.0], &mut notes);
        assert_eq!(m.positions.len(), 2, "a moved copy is not merged");
        let mut m = mesh(vec![[0.0; 3]], vec![0, 0, 0]);
        restore(&mut m, &[1.5], &mut notes);
        assert!(notes.last().unwrap().contains("ignored"));
        // Already in order: nothing said.
        let mut notes = vec![];
        let mut m = mesh(vec![[0.0; 3], [1.0; 3]], vec![0, 1, 1]);
        restore(&mut m, &[1.0, 2.0], &mut notes);
        assert!(notes.is_empty());
    }
}
