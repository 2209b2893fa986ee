//! Mesh objects (class 43) of game files.
//!
//! A Mesh is read by the generated `unity-mesh` reader with its file's editor version: the spec
//! is the one reading of its bytes, and decoding works on that reading. Where the file carries
//! type trees, the object is also read through its type tree and the fixed layout checked
//! against it ([`check_fixed_layout`]): both must read the object to its end, and every
//! top-level field must end where the type tree says, so a version whose layout the spec gets
//! wrong is refused rather than misread.

use super::typetree::{Trees, Value};
use crate::context::Context;
use crate::generated::unity_mesh::{UnityMesh, UnityMeshPos};
use crate::rt::{Codec, Error, ErrorKind, Result, Root, Span, Spanned};

/// The class id of Mesh.
pub const MESH: i32 = 43;

/// The top-level fields of a Mesh as the fixed layout read them (`pos`, the positions its
/// reader recorded): each field's name in Unity's type trees (the spec's `-orig-id`) and where
/// it ends in the object. Padding the spec keeps as a field of its own belongs to the field
/// before it, as in a type tree; a count belongs to its list.
pub fn layout_fields(pos: &UnityMeshPos) -> Vec<(&'static str, u64)> {
    let list = |count: Span, items: Span| count.end.max(items.end);
    let opt_list = |count: Option<Span>, items: Option<Span>| {
        count.map(|c| items.map_or(c.end, |i| list(c, i)))
    };
    // The padding after the one-byte fields (before 5.0) belongs to the last of them.
    let padded = |end: u64| pos.pad_flags.map_or(end, |p| p.end.max(end));
    let mut out = vec![("m_Name", pos.name._span.end)];
    let mut opt = |name: &'static str, end: Option<u64>| {
        if let Some(e) = end {
            out.push((name, e));
        }
    };
    opt(
        "m_SubMeshes",
        Some(list(pos.num_sub_meshes, pos.sub_meshes.span())),
    );
    opt(
        "m_Shapes",
        opt_list(
            pos.num_legacy_shapes,
            pos.legacy_shapes.as_ref().map(|l| l.span()),
        )
        .map(|e| pos.pad_legacy_shapes.map_or(e, |p| p.end.max(e))),
    );
    opt(
        "m_ShapeVertices",
        opt_list(
            pos.num_shape_vertices,
            pos.shape_vertices.as_ref().map(|l| l.span()),
        ),
    );
    opt("m_Shapes", pos.shapes.as_ref().map(|p| p._span.end));
    opt(
        "m_BindPose",
        opt_list(
            pos.num_bind_poses,
            pos.bind_poses.as_ref().map(|l| l.span()),
        ),
    );
    opt(
        "m_BoneNameHashes",
        opt_list(
            pos.num_bone_name_hashes,
            pos.bone_name_hashes.as_ref().map(|l| l.span()),
        ),
    );
    opt("m_RootBoneNameHash", pos.root_bone_name_hash.map(|s| s.end));
    opt("m_BonesAABB", pos.bones_aabb.as_ref().map(|p| p._span.end));
    opt(
        "m_VariableBoneCountWeights",
        pos.variable_bone_count_weights
            .as_ref()
            .map(|p| p._span.end),
    );
    let last_byte_field = pos.keep_indices.is_none();
    opt(
        "m_MeshCompression",
        Some(if last_byte_field {
            padded(pos.mesh_compression.end)
        } else {
            pos.mesh_compression.end
        }),
    );
    opt("m_StreamCompression", pos.stream_compression.map(|s| s.end));
    opt("m_IsReadable", pos.is_readable.map(|s| s.end));
    opt("m_KeepVertices", pos.keep_vertices.map(|s| s.end));
    opt("m_KeepIndices", pos.keep_indices.map(|s| padded(s.end)));
    opt("m_IndexFormat", pos.index_format.map(|s| s.end));
    opt("m_IndexBuffer", Some(pos.index_buffer._span.end));
    opt("m_Skin", pos.skin.as_ref().map(|p| p._span.end));
    opt(
        "m_BindPose",
        opt_list(
            pos.num_bind_poses_after_skin,
            pos.bind_poses_after_skin.as_ref().map(|l| l.span()),
        ),
    );
    opt("m_VertexData", Some(pos.vertex_data._span.end));
    opt("m_CompressedMesh", Some(pos.compressed_mesh._span.end));
    opt("m_LocalAABB", Some(pos.local_aabb._span.end));
    opt("m_MeshUsageFlags", pos.mesh_usage_flags.map(|s| s.end));
    opt("m_CookingOptions", pos.cooking_options.map(|s| s.end));
    opt(
        "m_PreBakeConvexCollisionMesh",
        pos.pre_bake_convex_collision_mesh.map(|s| s.end),
    );
    opt(
        "m_PreBakeTriangleCollisionMesh",
        pos.pre_bake_triangle_collision_mesh
            .map(|s| pos.pad_pre_bake.map_or(s.end, |p| p.end)),
    );
    opt(
        "m_BakedConvexCollisionMesh",
        pos.baked_convex_collision_mesh
            .as_ref()
            .map(|p| p._span.end),
    );
    opt(
        "m_BakedTriangleCollisionMesh",
        pos.baked_triangle_collision_mesh
            .as_ref()
            .map(|p| p._span.end),
    );
    opt("m_MeshMetrics[0]", pos.mesh_metrics_0.map(|s| s.end));
    opt("m_MeshMetrics[1]", pos.mesh_metrics_1.map(|s| s.end));
    opt(
        "m_StreamData",
        pos.stream_data.as_ref().map(|p| p._span.end),
    );
    opt(
        "m_MeshLodInfo",
        pos.mesh_lod_info.as_ref().map(|p| p._span.end),
    );
    out
}

/// The context the fixed `unity-mesh` layout of `version` (major x 10,000 + minor x 100 +
/// patch) is read with.
pub fn context(version: u32) -> Context {
    Context::new().with_param("unity_version", i128::from(version))
}

/// A Mesh object read by the fixed layout of `version`, with where each field lies.
pub fn read_fixed(bytes: &[u8], version: u32) -> Result<(UnityMesh, UnityMeshPos)> {
    let p = UnityMesh::read::<true>(bytes, &context(version))?;
    Ok((UnityMesh::own(&p.value), p.pos.unwrap_or_default()))
}

/// Reads a Mesh's bytes by the fixed layout of `version` and checks it against the object's
/// type tree reading (`value`): the layout must read the object to its end and end every
/// top-level field where the type tree does. `offset` is the object's offset in its file.
pub fn check_fixed_layout(
    bytes: &[u8],
    version: u32,
    value: &Value,
    trees: &Trees,
    offset: u64,
) -> Result<UnityMesh> {
    let (mesh, pos) = read_fixed(bytes, version).map_err(|e| e.shifted(offset))?;
    let ours = layout_fields(&pos);
    let theirs: Vec<(&str, u64)> = value
        .fields(trees)
        .into_iter()
        .map(|(n, v)| (n, u64::from(v.end)))
        .collect();
    let shown = |v: u32| crate::unity::files::game::version_text(v);
    for k in 0..ours.len().max(theirs.len()) {
        let (o, t) = (ours.get(k), theirs.get(k));
        if o.map(|x| x.0) != t.map(|x| x.0) || o.map(|x| x.1) != t.map(|x| x.1) {
            let at = if k == 0 {
                0
            } else {
                theirs.get(k - 1).map_or(0, |x| x.1)
            };
            let name = t.or(o).map_or("(end)", |x| x.0);
            return Err(Error::new(
                ErrorKind::Inconsistent,
                offset + at,
                match t {
                    Some((n, end)) => {
                        format!("`{n}` ending at 0x{end:X}, as the object's type tree reads it")
                    }
                    None => "the end of the object, as its type tree reads it".into(),
                },
                match o {
                    Some((n, end)) => format!(
                        "`{n}` ending at 0x{end:X} in the fixed layout of {}",
                        shown(version)
                    ),
                    None => format!("the end of the fixed layout of {}", shown(version)),
                },
            )
            .in_field(name.to_string())
            .rooted("unity_mesh"));
        }
    }
    Ok(mesh)
}
