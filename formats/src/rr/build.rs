//! Builds RR mesh bodies from parts: the project's own writer for the layouts of
//! `spec/rr_mesh.ksy`, used for the larger corpus files and the tests.
//!
//! It writes what the document establishes: ranges partitioning the buffers from index and
//! vertex 0 with indices relative to each range's vertex base, or objects tiling the buffers in
//! record order with absolute indices; one PrimitiveDescData record, one descriptor and one group
//! per part, with the counts and identities the relations ask for. The stored values whose meaning
//! is unknown get the values the document's censuses saw (Version 2, ClusterCount 1 in a range
//! record, MeshPrimitive Type 1, PlatformVersion 31, zeros elsewhere).
//!
//! One choice is ours, not the document's: the ranged form's MeshData holds one MeshPrimitive
//! record per range, repeating the range's vertex interval, first index and triangle count (the
//! document does not say what those records hold in that form).
//!
//! The result is checked against every relation before it is returned, so a built body always
//! passes `check`.

use super::topology::Form;
use crate::context::Context;
use crate::generated::rr_mesh::*;
use crate::reading;
use crate::rt::{Error, ErrorKind, Result, Root};

/// The 16 header bytes the document names (the eight unitemised bytes are written as zero).
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// ManagedObject.
    pub managed_object: u8,
    /// DescriptorMask.
    pub descriptor_mask: u8,
    /// Generated.
    pub generated: u8,
    /// VertexStride.
    pub vertex_stride: u8,
    /// MaxCullingDistance.
    pub max_culling_distance: f32,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            managed_object: 1,
            descriptor_mask: 0,
            generated: 0,
            vertex_stride: 0,
            max_culling_distance: 100.0,
        }
    }
}

/// One range (ranged form) or object (inline form).
#[derive(Debug, Clone, PartialEq)]
pub struct PartSpec {
    /// The part's vertices (its interval of the shared streams).
    pub num_vertices: u32,
    /// Its triangles, indices relative to the part's first vertex.
    pub triangles: Vec<[u32; 3]>,
    /// Its Material identity.
    pub material: u64,
    /// Its bounds' centre (the ranged form's PrimitiveDescData).
    pub centre: [f32; 3],
    /// Its bounds' half extent.
    pub half_extent: [f32; 3],
}

/// A whole body to build.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySpec {
    /// Ranged or inline.
    pub form: Form,
    /// The header.
    pub header: Header,
    /// Bone records, 81 bytes each (kept as bytes: their fields are not in the document).
    pub bones: Vec<Vec<u8>>,
    /// The vertex format.
    pub vertex_format: VertexFormat,
    /// Bytes per vertex of the primary, position and skin streams.
    pub strides: [u32; 3],
    /// NbBonesPerVertex.
    pub bones_per_vertex: u8,
    /// The primary, position and skin streams: the stride times the total vertex count each.
    pub streams: [Vec<u8>; 3],
    /// The parts, in buffer order.
    pub parts: Vec<PartSpec>,
    /// The whole mesh's bounds' centre.
    pub centre: [f32; 3],
    /// The whole mesh's bounds' half extent.
    pub half_extent: [f32; 3],
    /// The last descriptor's QuantizationFactor.
    pub quantization_factor: f32,
    /// UserCategory.
    pub user_category: u32,
    /// Ranged form: keep CPU-side copies of the primary and index streams in the final runs
    /// (and set the trailer's first bool).
    pub cpu_copies: bool,
    /// Inline form: u32 indices (otherwise u16).
    pub wide_indices: bool,
}

fn refuse(expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::unplaced(ErrorKind::Input, expected, found).rooted("rr::build")
}

fn f3(v: [f32; 3]) -> Float3 {
    Float3 {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

fn materials(spec: &BodySpec, vertex_counts: &[u64], cpu: bool) -> MaterialList {
    let n = spec.parts.len();
    MaterialList {
        num_descriptors: n as u32,
        unknown_after_count: vec![0; 8],
        descriptors: spec
            .parts
            .iter()
            .zip(vertex_counts)
            .enumerate()
            .map(|(i, (p, &count))| {
                let last = i + 1 == n;
                MaterialDescriptor {
                    marker: 0x0B1D_34C1,
                    unknown_0x4: vec![0; 4],
                    unknown_0x8: 0,
                    vertex_count: (count % 65_536) as u16,
                    unknown_0xb: 0,
                    material: p.material,
                    platform_version: last.then_some(31),
                    quantization_factor: last.then_some(spec.quantization_factor),
                    final_bytes: (!last).then(|| vec![0; 8]),
                }
            })
            .collect(),
        num_groups: n as u32,
        unknown_after_group_count: vec![0; 6],
        groups: spec
            .parts
            .iter()
            .map(|p| MaterialGroup {
                marker: 0x9F16_40AF,
                unknown_0x4: vec![0; 4],
                object_reference: p.material,
                unknown_0x10: 0,
                object_handle: p.material,
                unknown_0x19: vec![0; 6],
            })
            .collect(),
        trailer: MaterialTrailer {
            mesh_bools: (0..16).map(|i| u8::from(i == 0 && cpu)).collect(),
            user_category: spec.user_category,
        },
    }
}

/// Builds a body. Refuses parts whose indices leave them, streams of the wrong length, and
/// indices that do not fit the form's index width.
pub fn body(spec: &BodySpec) -> Result<RrMesh> {
    if let Some(i) = spec.bones.iter().position(|b| b.len() != 81) {
        return Err(refuse(
            "bone records of 81 bytes",
            format!("bone {i} of {} bytes", spec.bones[i].len()),
        ));
    }
    let total: u64 = spec.parts.iter().map(|p| u64::from(p.num_vertices)).sum();
    for (k, (stream, &stride)) in spec.streams.iter().zip(&spec.strides).enumerate() {
        if stream.len() as u64 != u64::from(stride) * total {
            return Err(refuse(
                format!(
                    "stream {k} of {} bytes ({total} vertices of {stride})",
                    u64::from(stride) * total
                ),
                format!("{} bytes", stream.len()),
            ));
        }
    }
    // Indices per part: relative (ranged) or absolute (inline).
    let mut indices: Vec<u32> = vec![];
    let mut firsts = vec![];
    let mut bases = vec![];
    let mut base = 0u64;
    for (pi, p) in spec.parts.iter().enumerate() {
        firsts.push(indices.len() as u64);
        bases.push(base);
        for t in &p.triangles {
            for &ix in t {
                if ix >= p.num_vertices {
                    return Err(refuse(
                        format!("indices of part {pi} below its {} vertices", p.num_vertices),
                        ix.to_string(),
                    ));
                }
                let v = match spec.form {
                    Form::Ranged => u64::from(ix),
                    Form::Inline => base + u64::from(ix),
                };
                let max = match spec.form {
                    Form::Inline if spec.wide_indices => u64::from(u32::MAX),
                    _ => u64::from(u16::MAX),
                };
                if v > max {
                    return Err(refuse(
                        format!("indices that fit the index width (at most {max})"),
                        format!("index {v} in part {pi}"),
                    ));
                }
                indices.push(v as u32);
            }
        }
        base += u64::from(p.num_vertices);
    }
    let fit = |v: u64, what: &str| {
        u32::try_from(v).map_err(|_| refuse(format!("a {what} that fits 32 bits"), v.to_string()))
    };
    let counts: Vec<u64> = spec
        .parts
        .iter()
        .map(|p| u64::from(p.num_vertices))
        .collect();
    let [primary, positions, skin] = spec.streams.clone();
    let mut objects = vec![];
    for (i, p) in spec.parts.iter().enumerate() {
        objects.push(MeshPrimitive {
            unknown_0x0: 0,
            marker: 0xA573_87EF,
            vertex_base: fit(bases[i], "vertex base")?,
            unknown_0x10: 0,
            num_vertices: p.num_vertices,
            first_index: fit(firsts[i], "first index")?,
            num_triangles: fit(p.triangles.len() as u64, "triangle count")?,
            unknown_0x20: 1,
        });
    }
    let strides8: Vec<u8> = spec
        .strides
        .iter()
        .map(|&s| {
            u8::try_from(s).map_err(|_| refuse("MeshData strides that fit a byte", s.to_string()))
        })
        .collect::<Result<_>>()?;
    let mesh_data = MeshData {
        index_width: u8::from(spec.form == Form::Inline && spec.wide_indices),
        vertex_format: spec.vertex_format,
        strides: strides8,
        bones_per_vertex: spec.bones_per_vertex,
        num_objects: objects.len() as u32,
        objects,
    };
    let (selector, class, body) = match spec.form {
        Form::Ranged => {
            let n = spec.parts.len();
            let u16s: Vec<u16> = indices.iter().map(|&i| i as u16).collect();
            let index_bytes: Vec<u8> = u16s.iter().flat_map(|i| i.to_le_bytes()).collect();
            let cpu = spec.cpu_copies;
            let ranged = RangedLayout {
                unknown_0x0: 2,
                vertex_format: spec.vertex_format,
                strides: spec.strides.to_vec(),
                unknown_0x11: 0,
                centre: f3(spec.centre),
                half_extent: f3(spec.half_extent),
                unknown_0x2d: 0,
                num_ranges: n as u32,
                unknown_0x32: vec![0; 8],
                ranges: (0..n)
                    .map(|i| {
                        Ok(RangeRecord {
                            marker: 0x07B1_9A87,
                            unknown_0x4: 1,
                            unknown_0x5: vec![0; 3],
                            first_index: fit(firsts[i], "first index")?,
                            vertex_base: fit(bases[i], "vertex base")?,
                            unknown_0x10: (i + 1 < n).then(|| vec![0; 8]),
                        })
                    })
                    .collect::<Result<_>>()?,
                len_primary: 0,
                primary: primary.clone(),
                len_positions: 0,
                positions,
                len_skin: 0,
                skin,
                len_indices: 0,
                indices: IndexData {
                    u16_indices: Some(u16s),
                    u32_indices: None,
                    other_width: None,
                },
                len_primitive_descs: 0,
                primitive_descs: PrimitiveDescBlock {
                    records: spec
                        .parts
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            // A single range's bounds are the mesh's (as the document saw them).
                            let (c, h) = if n == 1 {
                                (spec.centre, spec.half_extent)
                            } else {
                                (p.centre, p.half_extent)
                            };
                            Ok(PrimitiveDesc {
                                centre: f3(c),
                                half_extent: f3(h),
                                primitive_type: 1,
                                num_indices: fit(3 * p.triangles.len() as u64, "index count")?,
                                first_index: fit(firsts[i], "first index")?,
                            })
                        })
                        .collect::<Result<_>>()?,
                },
                len_further_a: 0,
                further_a: vec![],
                len_further_b: 0,
                further_b: vec![],
                mesh_data_marker: 0x0645_ABB5,
                mesh_data,
                len_cpu_vertices: 0,
                cpu_vertices: if cpu { primary } else { vec![] },
                len_cpu_positions: 0,
                cpu_positions: vec![],
                len_cpu_skin: 0,
                cpu_skin: vec![],
                len_cpu_indices: 0,
                cpu_indices: if cpu { index_bytes } else { vec![] },
                materials: materials(spec, &counts, cpu),
            };
            (
                LayoutSelector::RANGED,
                LayoutClass::CLUSTERED_MESH_DATA,
                CompiledMeshBody::RangedLayout(ranged),
            )
        }
        Form::Inline => {
            let wide = spec.wide_indices;
            let inline = InlineLayout {
                mesh_data,
                len_primary: 0,
                primary,
                len_positions: 0,
                positions,
                len_skin: 0,
                skin,
                len_indices: 0,
                indices: IndexData {
                    u16_indices: (!wide).then(|| indices.iter().map(|&i| i as u16).collect()),
                    u32_indices: wide.then(|| indices.clone()),
                    other_width: None,
                },
                materials: materials(spec, &counts, false),
            };
            (
                LayoutSelector::INLINE,
                LayoutClass::MESH_DATA,
                CompiledMeshBody::InlineLayout(inline),
            )
        }
    };
    let mesh = RrMesh {
        managed_object: spec.header.managed_object,
        descriptor_mask: spec.header.descriptor_mask,
        generated: spec.header.generated,
        vertex_stride: spec.header.vertex_stride,
        max_culling_distance: spec.header.max_culling_distance,
        unknown_0x8: vec![0; 8],
        num_bones: spec.bones.len() as u32,
        bones: spec.bones.clone(),
        unknown_after_bones: vec![0; 41],
        compiled: CompiledMesh {
            marker: 0xFC9E_1595,
            layout_selector: selector,
            stored_prefix: vec![0; 8],
            layout_class: class,
            body,
        },
    };
    let ctx = Context::new();
    let bytes = mesh.to_bytes(&ctx)?;
    // The verdict on what was written: every relation, warnings included, must hold.
    let v = reading::judge::<RrMesh>(&bytes, &ctx);
    if let Some(e) = v.refused.iter().chain(&v.findings).next() {
        return Err(refuse("a body whose relations hold", e.to_string()));
    }
    // Read back what is written, so counts and lengths hold their written values.
    RrMesh::from_bytes(&bytes, &ctx)
}
