//! Brings a mesh of the common model into what glTF and OBJ accept, changing nothing silently:
//! values that are not finite are refused or, when asked, written as 0; normals and tangents are
//! brought to unit length (scaled first, so that huge ones do not overflow); colours are clamped
//! to 0..1; skin weights are made to sum to 1 exactly as glTF-Validator adds them, a vertex with
//! no weight is bound rigidly; bind matrices glTF cannot carry become the identity. Every change
//! is a note.

use super::rest::{affine_inverse, widen};
use super::text::escape;
use super::{refuse, NonFinite};
use crate::rt::Result;
use crate::scene::{Colors, Mesh, Mode, Skin};

/// Normals and tangents whose length is this far from 1 are rescaled.
const UNIT_TOLERANCE: f32 = 1e-5;

/// `m` ready to write, with what was changed in `notes`.
pub(super) fn prepare(mut m: Mesh, policy: NonFinite, notes: &mut Vec<String>) -> Result<Mesh> {
    m.validate()?;
    // Notes are escaped as a whole when they are returned; errors are escaped here.
    let name = m.name.clone();
    let bad = m.non_finite();
    if !bad.is_empty() {
        let places: Vec<String> = bad.iter().map(|b| b.to_string()).collect();
        match policy {
            NonFinite::Refuse => {
                return Err(refuse(
                    "finite values (or --non-finite zero to write 0 instead)",
                    escape(&format!(
                        "non-finite values in mesh `{name}`: {}",
                        places.join(", ")
                    )),
                ))
            }
            NonFinite::Zero => {
                notes.push(format!(
                    "mesh `{name}`: non-finite values written as 0: {}",
                    places.join(", ")
                ));
                zero_non_finite(&mut m);
            }
        }
    }
    unit_normals(&mut m, &name, notes);
    unit_tangents(&mut m, &name, notes);
    if let Some(Colors::Float(c)) = &mut m.colors {
        let mut clamped = 0;
        for v in c.iter_mut() {
            if v.iter().any(|x| !(0.0..=1.0).contains(x)) {
                clamped += 1;
                *v = v.map(|x| x.clamp(0.0, 1.0));
            }
        }
        if clamped > 0 {
            notes.push(format!(
                "mesh `{name}`: {clamped} colours outside 0 to 1 clamped (glTF's colours are 0 to 1)"
            ));
        }
    }
    if m.skin
        .as_ref()
        .is_some_and(|s| s.inverse_bind_matrices.is_empty())
    {
        notes.push(format!("mesh `{name}`: skin left out: it has no joints"));
        m.skin = None;
    }
    if let Some(skin) = &mut m.skin {
        weights(skin, &name, notes);
        bind_matrices(skin, &name, notes);
    }
    drop_empty_primitives(&mut m, &name, notes);
    for (pi, p) in m.primitives.iter().enumerate() {
        let unit = match p.mode {
            Mode::Triangles => 3,
            Mode::Lines => 2,
            Mode::LineStrip | Mode::Points => 1,
        };
        if p.indices.len() % unit != 0 {
            return Err(refuse(
                format!(
                    "primitive {pi} of `{}` to hold whole {:?}",
                    escape(&name),
                    p.mode
                ),
                format!("{} indices", p.indices.len()),
            ));
        }
        if p.mode == Mode::LineStrip && p.indices.len() < 2 {
            return Err(refuse(
                format!("line strip {pi} of `{}` to have two indices", escape(&name)),
                p.indices.len().to_string(),
            ));
        }
    }
    Ok(m)
}

fn zero_non_finite(m: &mut Mesh) {
    fn z<const N: usize>(v: &mut [[f32; N]]) {
        for c in v.iter_mut().flatten() {
            if !c.is_finite() {
                *c = 0.0;
            }
        }
    }
    z(&mut m.positions);
    if let Some(v) = &mut m.normals {
        z(v);
    }
    if let Some(v) = &mut m.tangents {
        z(v);
    }
    if let Some(Colors::Float(v)) = &mut m.colors {
        z(v);
    }
    for uv in &mut m.uvs {
        z(uv);
    }
    if let Some(s) = &mut m.skin {
        z(&mut s.weights);
        z(&mut s.inverse_bind_matrices);
    }
    for t in &mut m.morph_targets {
        z(&mut t.positions);
        if let Some(v) = &mut t.normals {
            z(v);
        }
        if let Some(v) = &mut t.tangents {
            z(v);
        }
        if !t.default_weight.is_finite() {
            t.default_weight = 0.0;
        }
    }
}

/// `v` at unit length, or `None` for a zero vector. Scaled by its largest component first, so
/// that squaring neither overflows (components above about 1.8e19) nor underflows.
pub(super) fn unit(v: [f32; 3]) -> Option<[f32; 3]> {
    let big = v.iter().fold(0.0f32, |a, x| a.max(x.abs()));
    if big == 0.0 || !big.is_finite() {
        return None;
    }
    let s = v.map(|x| f64::from(x) / f64::from(big));
    let len = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
    Some(s.map(|x| (x / len) as f32))
}

fn is_unit(v: &[f32]) -> bool {
    // In single precision first: a squared length within 1e-5 of 1 puts the length within
    // about 5e-6 of 1 whatever the rounding, so only vectors near the bound need the double
    // sum below (the answer is the same, most normals are done in fewer steps).
    let sq: f32 = v.iter().map(|x| x * x).sum();
    if (sq - 1.0).abs() <= UNIT_TOLERANCE {
        return true;
    }
    let len = v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    (len - 1.0).abs() <= f64::from(UNIT_TOLERANCE)
}

/// Replaces each of `items` that `rescaled` finds not of unit length (`Some`) by its rescaling
/// (`Some(Some(_))`, left as is when of zero length): how many it replaced, and the first of
/// zero length.
fn rescale<T>(
    items: &mut [T],
    rescaled: impl Fn(&T) -> Option<Option<T>>,
) -> (usize, Option<usize>) {
    let (mut fixed, mut zero) = (0, None);
    for (i, x) in items.iter_mut().enumerate() {
        match rescaled(x) {
            Some(Some(u)) => {
                *x = u;
                fixed += 1;
            }
            Some(None) => {
                zero.get_or_insert(i);
            }
            None => {}
        }
    }
    (fixed, zero)
}

fn unit_normals(m: &mut Mesh, name: &str, notes: &mut Vec<String>) {
    let Some(normals) = &mut m.normals else {
        return;
    };
    let (fixed, zero) = rescale(normals, |n| (!is_unit(n)).then(|| unit(*n)));
    if let Some(first) = zero {
        notes.push(format!(
            "mesh `{name}`: normals left out: some have zero length (the first at vertex {first}), which glTF cannot carry"
        ));
        m.normals = None;
        for t in &mut m.morph_targets {
            t.normals = None;
        }
    } else if fixed > 0 {
        notes.push(format!(
            "mesh `{name}`: {fixed} normals rescaled to unit length"
        ));
    }
}

fn unit_tangents(m: &mut Mesh, name: &str, notes: &mut Vec<String>) {
    if m.tangents.is_some() && m.normals.is_none() {
        notes.push(format!(
            "mesh `{name}`: tangents left out: glTF needs normals with them"
        ));
        m.tangents = None;
    }
    let Some(tangents) = &mut m.tangents else {
        return;
    };
    let (fixed, zero) = rescale(tangents, |t| {
        let w = if t[3] < 0.0 { -1.0 } else { 1.0 };
        let done = is_unit(&t[..3]) && t[3] == w;
        (!done).then(|| unit([t[0], t[1], t[2]]).map(|[x, y, z]| [x, y, z, w]))
    });
    if let Some(first) = zero {
        notes.push(format!(
            "mesh `{name}`: tangents left out: some have zero length (the first at vertex {first})"
        ));
        m.tangents = None;
        for t in &mut m.morph_targets {
            t.tangents = None;
        }
    } else if fixed > 0 {
        notes.push(format!(
            "mesh `{name}`: {fixed} tangents rescaled to unit length with w = ±1"
        ));
    }
}

/// The sum glTF-Validator computes for a vertex's weights: the distinct joints of non-zero
/// weight, in order, each added in double precision and rounded to single.
pub(super) fn validator_sum(joints: &[u16; 4], weights: &[f32; 4]) -> (f32, usize) {
    // (Called for every vertex: the joints seen are kept on the stack.)
    let mut seen = [0u16; 4];
    let mut n = 0;
    let mut sum = 0.0f32;
    for (&j, &w) in joints.iter().zip(weights) {
        if w != 0.0 && !seen[..n].contains(&j) {
            seen[n] = j;
            n += 1;
            if w > 0.0 {
                sum = (f64::from(sum) + f64::from(w)) as f32;
            }
        }
    }
    (sum, n)
}

/// Whether the validator accepts the sum: exactly 1 for one or two influences, within 1/255
/// per two more.
pub(super) fn sum_accepted(sum: f32, influences: usize) -> bool {
    const STEP: f64 = 0.003_921_6;
    let threshold = STEP * ((influences + 1) >> 1).saturating_sub(1) as f64;
    (f64::from(sum) - 1.0).abs() <= threshold
}

/// Scales `w` to sum to 1 as the validator adds them; the heaviest weight takes the rounding.
fn normalize(j: &[u16; 4], w: &mut [f32; 4]) {
    let total: f64 = w.iter().map(|&x| f64::from(x)).sum();
    // (Dividing by exactly 1 changes nothing: most vertices skip it.)
    if total != 1.0 {
        for x in w.iter_mut() {
            *x = (f64::from(*x) / total) as f32;
        }
    }
    let (sum, n) = validator_sum(j, w);
    if sum_accepted(sum, n) {
        return;
    }
    let Some(h) = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])) else {
        return;
    };
    let others: f64 = (0..4).filter(|&k| k != h).map(|k| f64::from(w[k])).sum();
    w[h] = (1.0 - others) as f32;
    // Rounding may still leave the sum one step off: nudge the heaviest weight by ulps.
    for _ in 0..4 {
        let (sum, n) = validator_sum(j, w);
        if sum_accepted(sum, n) {
            return;
        }
        w[h] = if sum > 1.0 {
            f32::from_bits(w[h].to_bits() - 1)
        } else {
            f32::from_bits(w[h].to_bits() + 1)
        };
    }
}

/// Makes every vertex's influences what glTF accepts: no negative weights, each joint once,
/// joint 0 where the weight is 0, and weights summing to 1; a vertex with no weight is bound
/// with weight 1 to its first joint slot (it stays where it is stored at rest).
fn weights(s: &mut Skin, name: &str, notes: &mut Vec<String>) {
    let (mut negative, mut merged, mut rigid) = (0, 0, vec![]);
    let joints = s.inverse_bind_matrices.len();
    for (v, (j, w)) in s.joints.iter_mut().zip(s.weights.iter_mut()).enumerate() {
        for x in w.iter_mut() {
            if *x < 0.0 {
                *x = 0.0;
                negative += 1;
            }
        }
        for a in 0..4 {
            for b in a + 1..4 {
                if w[a] != 0.0 && w[b] != 0.0 && j[a] == j[b] {
                    w[a] += w[b];
                    w[b] = 0.0;
                    merged += 1;
                }
            }
        }
        if w.iter().all(|&x| x == 0.0) {
            if usize::from(j[0]) >= joints {
                j[0] = 0;
            }
            rigid.push((v, j[0]));
            *w = [1.0, 0.0, 0.0, 0.0];
        }
        for k in 0..4 {
            if w[k] == 0.0 {
                j[k] = 0;
            }
        }
        normalize(j, w);
    }
    if negative > 0 {
        notes.push(format!(
            "mesh `{name}`: {negative} negative skin weights written as 0 (glTF's weights are not negative)"
        ));
    }
    if merged > 0 {
        notes.push(format!(
            "mesh `{name}`: {merged} influences naming a joint a vertex already has were added to it (glTF names each joint once per vertex)"
        ));
    }
    if let Some(&(first, joint)) = rigid.first() {
        let joint_name = s
            .joint_names
            .get(usize::from(joint))
            .cloned()
            .unwrap_or_default();
        let same = rigid.iter().all(|&(_, j)| j == joint);
        let to = if same {
            format!("joint {joint} `{joint_name}`")
        } else {
            "the joint of its first slot".to_string()
        };
        notes.push(format!(
            "mesh `{name}`: {} vertices have no influence of non-zero weight (the first is vertex {first}); glTF needs weights that sum to 1, so each is bound with weight 1 to {to}, which leaves it where it is stored at rest",
            rigid.len()
        ));
    }
}

/// Bind matrices glTF cannot carry (not affine, or singular: a zeroed non-finite one, say)
/// become the identity, so the joint's rest transform is the identity too and the mesh at rest
/// is unchanged.
fn bind_matrices(s: &mut Skin, name: &str, notes: &mut Vec<String>) {
    const IDENTITY: [f32; 16] = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let mut replaced = vec![];
    for (i, ibm) in s.inverse_bind_matrices.iter_mut().enumerate() {
        if affine_inverse(&widen(ibm)).is_none() {
            *ibm = IDENTITY;
            replaced.push(i);
        }
    }
    if let Some(&first) = replaced.first() {
        let joint_name = s.joint_names.get(first).cloned().unwrap_or_default();
        notes.push(format!(
            "mesh `{name}`: {} inverse bind matrices are not invertible affine matrices (the first is joint {first} `{joint_name}`), which glTF cannot carry: written as the identity, with the joint at the origin, so the mesh at rest is unchanged",
            replaced.len()
        ));
    }
}

/// Primitives with no indices draw nothing and glTF refuses empty accessors: they are left
/// out, and the source ranges of those that stay follow their new index.
fn drop_empty_primitives(m: &mut Mesh, name: &str, notes: &mut Vec<String>) {
    let kept: Vec<Option<usize>> = {
        let mut next = 0;
        m.primitives
            .iter()
            .map(|p| {
                (!p.indices.is_empty()).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let dropped = kept.iter().filter(|k| k.is_none()).count();
    if dropped == 0 {
        return;
    }
    m.primitives.retain(|p| !p.indices.is_empty());
    m.origin.ranges.retain_mut(|r| match r.primitive {
        Some(p) => match kept.get(p).copied().flatten() {
            Some(new) => {
                r.primitive = Some(new);
                true
            }
            None => false,
        },
        None => true,
    });
    notes.push(format!(
        "mesh `{name}`: {dropped} primitives without indices left out (they draw nothing)"
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_vectors_normalise_without_overflow() {
        let u = unit([3e37, 0.0, 4e37]).unwrap();
        assert!(
            (u[0] - 0.6).abs() < 1e-6 && (u[2] - 0.8).abs() < 1e-6,
            "{u:?}"
        );
        let u = unit([1e-44, 0.0, 0.0]).unwrap();
        assert_eq!(u, [1.0, 0.0, 0.0]);
        assert_eq!(unit([0.0; 3]), None);
    }

    #[test]
    fn weights_sum_to_one_as_the_validator_adds_them() {
        let j = [0, 1, 2, 3];
        for w in [
            [0.1f32, 0.2, 0.0, 0.0],
            [1.0 / 3.0, 1.0 / 3.0, 0.0, 0.0],
            [0.7, 0.2, 0.05, 0.05],
            [3.0, 0.0, 0.0, 0.0],
            [1e-30, 2e-30, 0.0, 0.0],
        ] {
            let mut w = w;
            normalize(&j, &mut w);
            let (sum, n) = validator_sum(&j, &w);
            assert!(sum_accepted(sum, n), "{w:?}: {sum}");
        }
    }
}
