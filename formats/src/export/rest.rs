//! The rest pose of a skin: each joint node carries the transform whose product with the
//! joint's inverse bind matrix is the identity, so that the skinned mesh at rest is the mesh as
//! stored (glTF skins a vertex with `Σ w · world(joint) · inverseBind`).
//!
//! glTF nodes carry translation, rotation and scale; the inverse of a bind matrix is such a
//! transform unless it shears. Matrices are column-major, as glTF stores them; arithmetic is in
//! f64.

/// A column-major 4×4 matrix.
pub type Mat4 = [f64; 16];

/// A joint's local transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trs {
    /// Translation.
    pub translation: [f64; 3],
    /// Unit quaternion (x, y, z, w).
    pub rotation: [f64; 4],
    /// Scale (one axis negative for a mirroring transform).
    pub scale: [f64; 3],
}

impl Trs {
    /// The identity transform.
    pub const IDENTITY: Trs = Trs {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };

    /// The matrix `T · R · S`, as glTF composes a node's transform.
    pub fn matrix(&self) -> Mat4 {
        let [x, y, z, w] = self.rotation;
        let r = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + z * w),
                2.0 * (x * z - y * w),
            ],
            [
                2.0 * (x * y - z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + x * w),
            ],
            [
                2.0 * (x * z + y * w),
                2.0 * (y * z - x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        let mut m = [0.0; 16];
        for c in 0..3 {
            for row in 0..3 {
                m[c * 4 + row] = r[c][row] * self.scale[c];
            }
        }
        m[12..15].copy_from_slice(&self.translation);
        m[15] = 1.0;
        m
    }

    /// The transform with every value rounded to f32 (what a .glb stores), read back.
    pub fn as_stored(&self) -> Trs {
        let r = |v: f64| f64::from(v as f32);
        Trs {
            translation: self.translation.map(r),
            rotation: self.rotation.map(r),
            scale: self.scale.map(r),
        }
    }
}

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

/// The matrix of f32 values as f64.
pub fn widen(m: &[f32; 16]) -> Mat4 {
    m.map(f64::from)
}

/// The largest absolute value.
fn norm(m: &Mat4) -> f64 {
    m.iter().fold(0.0, |a, &x| a.max(x.abs()))
}

/// The inverse of an affine matrix (last row 0, 0, 0, 1), or `None` when it is not affine,
/// not finite or (nearly) singular.
pub fn affine_inverse(m: &Mat4) -> Option<Mat4> {
    if !m.iter().all(|x| x.is_finite()) || [m[3], m[7], m[11], m[15]] != [0.0, 0.0, 0.0, 1.0] {
        return None;
    }
    let a = |r: usize, c: usize| m[c * 4 + r];
    let cof =
        |r0: usize, r1: usize, c0: usize, c1: usize| a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
    // The 3×3 part's adjugate (transposed cofactors) and determinant.
    let adj = [
        [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
        [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
        [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
    ];
    let det = a(0, 0) * adj[0][0] + a(0, 1) * adj[1][0] + a(0, 2) * adj[2][0];
    let scale = (0..3)
        .flat_map(|c| (0..3).map(move |r| (r, c)))
        .fold(0.0f64, |s, (r, c)| s.max(a(r, c).abs()));
    // `m` is finite, so `det` is: the test below cannot meet a NaN.
    if scale == 0.0 || det.abs() <= 1e-12 * scale * scale * scale {
        return None;
    }
    let mut out = [0.0; 16];
    for r in 0..3 {
        for c in 0..3 {
            out[c * 4 + r] = adj[r][c] / det;
        }
    }
    for r in 0..3 {
        out[12 + r] = -(0..3).map(|k| out[k * 4 + r] * m[12 + k]).sum::<f64>();
    }
    out[15] = 1.0;
    Some(out)
}

/// The translation, rotation and scale nearest to an affine matrix, and how far their product
/// is from it (the largest difference, relative to the matrix's largest value): 0 up to
/// rounding for a matrix without shear.
pub fn decompose(m: &Mat4) -> (Trs, f64) {
    let col = |c: usize| [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
    let len = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let mut scale = [len(col(0)), len(col(1)), len(col(2))];
    let (c0, c1, c2) = (col(0), col(1), col(2));
    let det = c0[0] * (c1[1] * c2[2] - c1[2] * c2[1]) - c1[0] * (c0[1] * c2[2] - c0[2] * c2[1])
        + c2[0] * (c0[1] * c1[2] - c0[2] * c1[1]);
    if det < 0.0 {
        // A mirror: the scale takes the sign, so that what is left is a rotation.
        scale[0] = -scale[0];
    }
    let mut r = [[0.0; 3]; 3];
    for (c, rc) in r.iter_mut().enumerate() {
        let v = col(c);
        for k in 0..3 {
            rc[k] = if scale[c] != 0.0 {
                v[k] / scale[c]
            } else {
                0.0
            };
        }
    }
    let rotation = quaternion(&r);
    let trs = Trs {
        translation: [m[12], m[13], m[14]],
        rotation,
        scale,
    };
    let back = trs.matrix();
    let diff = back
        .iter()
        .zip(m)
        .fold(0.0f64, |d, (a, b)| d.max((a - b).abs()));
    let n = norm(m);
    (trs, if n > 0.0 { diff / n } else { diff })
}

/// The unit quaternion (x, y, z, w) of a rotation given by its columns (Shepperd's method:
/// from the largest of the four diagonal combinations, so no division is by a small number).
fn quaternion(r: &[[f64; 3]; 3]) -> [f64; 4] {
    // r[c][row]: element (row, c).
    let m = |row: usize, c: usize| r[c][row];
    let trace = m(0, 0) + m(1, 1) + m(2, 2);
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [
            (m(2, 1) - m(1, 2)) / s,
            (m(0, 2) - m(2, 0)) / s,
            (m(1, 0) - m(0, 1)) / s,
            0.25 * s,
        ]
    } else if m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2) {
        let s = (1.0 + m(0, 0) - m(1, 1) - m(2, 2)).max(0.0).sqrt() * 2.0;
        [
            0.25 * s,
            (m(0, 1) + m(1, 0)) / s,
            (m(0, 2) + m(2, 0)) / s,
            (m(2, 1) - m(1, 2)) / s,
        ]
    } else if m(1, 1) > m(2, 2) {
        let s = (1.0 + m(1, 1) - m(0, 0) - m(2, 2)).max(0.0).sqrt() * 2.0;
        [
            (m(0, 1) + m(1, 0)) / s,
            0.25 * s,
            (m(1, 2) + m(2, 1)) / s,
            (m(0, 2) - m(2, 0)) / s,
        ]
    } else {
        let s = (1.0 + m(2, 2) - m(0, 0) - m(1, 1)).max(0.0).sqrt() * 2.0;
        [
            (m(0, 2) + m(2, 0)) / s,
            (m(1, 2) + m(2, 1)) / s,
            0.25 * s,
            (m(1, 0) - m(0, 1)) / s,
        ]
    };
    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    if n == 0.0 || !n.is_finite() {
        return [0.0, 0.0, 0.0, 1.0];
    }
    // One sign for the same rotation, so the output does not flip between near matrices.
    let s = if q[3] < 0.0 { -1.0 } else { 1.0 };
    q.map(|x| s * x / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Mat4, b: &Mat4, tol: f64) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    const I: Mat4 = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];

    #[test]
    fn a_rigid_transform_decomposes_and_inverts() {
        let t = Trs {
            translation: [2.0, -3.0, 0.5],
            rotation: {
                let (s, c) = (0.3f64.sin(), 0.3f64.cos());
                let n = (1.0f64 + 4.0 + 9.0).sqrt();
                [s * 1.0 / n, s * 2.0 / n, s * 3.0 / n, c]
            },
            scale: [-0.01, 0.01, 0.01],
        };
        let m = t.matrix();
        let (back, err) = decompose(&m);
        assert!(err < 1e-12, "{err}");
        assert!(close(&back.matrix(), &m, 1e-12));
        let inv = affine_inverse(&m).unwrap();
        assert!(close(&mul(&m, &inv), &I, 1e-12));
        let (j, err) = decompose(&inv);
        assert!(err < 1e-12, "{err}");
        assert!(close(&mul(&j.matrix(), &m), &I, 1e-12));
    }

    #[test]
    fn shear_and_singular_matrices_are_found() {
        let mut shear = I;
        shear[4] = 0.5; // x gains 0.5 y
        assert!(decompose(&shear).1 > 0.1);
        let mut flat = I;
        flat[10] = 0.0;
        assert!(affine_inverse(&flat).is_none());
        let mut projective = I;
        projective[3] = 0.1;
        assert!(affine_inverse(&projective).is_none());
        let mut nan = I;
        nan[0] = f64::NAN;
        assert!(affine_inverse(&nan).is_none());
    }
}
