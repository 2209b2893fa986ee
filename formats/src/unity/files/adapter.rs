//! The one place this module calls the generated readers and writers.

use crate::context::Context;
use crate::generated::unity_bundle::{BlocksInfo, UnityBundle};
use crate::generated::unity_mesh::UnityMesh;
use crate::generated::unity_serialized::UnitySerialized;
use crate::rt::{Codec, Result, Root};

/// A whole bundle file: its header and raw (compressed) parts.
pub fn read_bundle(bytes: &[u8]) -> Result<UnityBundle> {
    UnityBundle::from_bytes(bytes, &Context::new())
}

/// The bytes of a bundle.
pub fn write_bundle(b: &UnityBundle) -> Result<Vec<u8>> {
    b.to_bytes(&Context::new())
}

/// A decompressed blocks info.
pub fn read_blocks_info(bytes: &[u8]) -> Result<BlocksInfo> {
    BlocksInfo::from_bytes(bytes, &Context::new())
}

/// The bytes of a blocks info (before compression).
pub fn write_blocks_info(b: &BlocksInfo) -> Result<Vec<u8>> {
    b.to_bytes(&Context::new())
}

/// A whole serialized file.
pub fn read_serialized(bytes: &[u8]) -> Result<UnitySerialized> {
    UnitySerialized::from_bytes(bytes, &Context::new())
}

/// The bytes of a serialized file.
pub fn write_serialized(s: &UnitySerialized) -> Result<Vec<u8>> {
    s.to_bytes(&Context::new())
}

/// A Mesh object by the fixed layout of `unity_version` (major x 10,000 + minor x 100 +
/// patch).
pub fn read_mesh(bytes: &[u8], unity_version: u32) -> Result<UnityMesh> {
    UnityMesh::from_bytes(
        bytes,
        &Context::new().with_param("unity_version", i128::from(unity_version)),
    )
}

/// The bytes of a Mesh object by the fixed layout of `unity_version`.
pub fn write_mesh(m: &UnityMesh, unity_version: u32) -> Result<Vec<u8>> {
    m.to_bytes(&Context::new().with_param("unity_version", i128::from(unity_version)))
}

/// The bytes a value of a generated type takes, learnt by writing it.
pub fn size_of<T: Codec>(v: &T, args: T::Args) -> u64 {
    let mut out = crate::rt::Output::default();
    v.write_out::<false>(&mut out, args)
        .map(|_| out.pos())
        .unwrap_or(0)
}
