#!/usr/bin/env python3
"""Assembles small Shaun White Skateboarding Mesh bodies byte by byte from the document's tables
(../shared/seeds/003_e48eefb5d612aa86.txt, section "Shaun White Skateboarding"), with nothing but
Python's struct module: independently of meshspec's spec, generator and writer, so that a spec and
a generator that agree with each other but not with the document are caught.

Every offset the document gives is asserted on the bytes written here. The compiled vertex format
is not in the documents: compiled vertices are filler bytes of the stated stride.

Also writes corpus/sws/bad/: for each relation the document states, a body that breaks only that
relation.

Run from anywhere: python3 corpus/sws/make.py. The output is deterministic.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad")

MESH_CLASS = 0x415D9568
BONE_CLASS = 0x9EF0E7A1
COMPILED_CLASS = 0xFC9E1595
SUBMESH_CLASS = 0x5755DE7F
UV_CLASS = 0xBDAD8273
MORPH_CLASS = 0xE70C5754


def u8(v):
    return struct.pack("<B", v)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def f32s(vals):
    return struct.pack("<%df" % len(vals), *vals)


# --- runs: "every run is a u32 count and its elements" ------------------------------------------

def run_u8(vals):
    return u32(len(vals)) + bytes(vals)


def run_u16(vals):
    return u32(len(vals)) + b"".join(u16(v) for v in vals)


def run_u32(vals):
    return u32(len(vals)) + b"".join(u32(v) for v in vals)


def run_f3(vecs):
    return u32(len(vecs)) + b"".join(f32s(v) for v in vecs)


def run_f2(vecs):
    return u32(len(vecs)) + b"".join(f32s(v) for v in vecs)


# --- MeshBone: 76 bytes ----------------------------------------------------------------------------

def bone(bone_id, name_hash, matrix):
    assert len(matrix) == 16
    b = u32(bone_id) + u32(BONE_CLASS) + u32(name_hash) + f32s(matrix)
    assert len(b) == 76
    assert b[4:8] == u32(BONE_CLASS) and b[0xC:0x10] == f32s(matrix[:1])
    return b


# --- UVChannel ---------------------------------------------------------------------------------------

def uv_channel(uvs, source, unknown_c=0):
    n = len(uvs)
    b = u32(0) + u32(UV_CLASS) + u32(0) + u8(unknown_c) + run_f2(uvs)
    assert b[0xD:0x11] == u32(n)
    assert len(b) == 17 + 8 * n  # the source run's offset
    return b + run_u32(source)


# --- MorphChannel ------------------------------------------------------------------------------------

def morph_channel(chan_id, hashlike, positions, normals, uvs):
    n = len(positions)
    b = u32(chan_id) + u32(MORPH_CLASS) + u32(hashlike)
    assert len(b) == 0xC
    b += run_f3(positions)
    assert len(b) == 16 + 12 * n
    b += run_f3(normals)
    assert len(b) == 20 + 24 * n
    b += run_f2(uvs)
    return b


# --- SubMesh -----------------------------------------------------------------------------------------

def submesh(sm, copy):
    """sm: a dict of the SubMesh's runs; copy: None for a copy (tag 3), else the copy's dict."""
    t = len(sm["indices"]) // 3
    n = len(sm["positions"])
    b = u8(1) + u32(sm["id"]) + u32(SUBMESH_CLASS) + u32(sm.get("unknown_0x9", 0))
    assert len(b) == 0xD
    b += run_u16(sm["indices"])
    assert len(b) == 17 + 2 * len(sm["indices"])
    if len(sm["indices"]) % 3 == 0:
        assert len(b) == 17 + 6 * t  # the document's offset of the source vertices
    b += run_u32(sm["source"])
    b += u32(0)  # unknown, 0 on every SubMesh
    b += run_u32(sm["face_words"])
    b += run_u8(sm["face_bytes"])
    b += run_f3(sm["positions"])
    b += run_f3(sm["normals"])
    b += run_f3(sm["tangents"])
    b += run_f3(sm["binormals"])
    b += run_u32(sm["colours"])
    b += run_u32(sm.get("words_a", []))
    b += run_u32(sm.get("words_b", []))
    b += u32(0)  # empty run
    b += run_u32(sm["words_c"])
    b += u32(0) + u32(0)  # two empty runs
    b += u32(len(sm["uv_channels"])) + b"".join(sm["uv_channels"])
    b += u32(0)  # unknown
    b += u32(len(sm["morph_channels"])) + b"".join(sm["morph_channels"])
    b += u8(sm.get("has_morphs", 1 if sm["morph_channels"] else 0))
    b += u32(sm["material"])
    b += bytes([1, 1])
    if copy is None:
        b += u8(sm.get("copy_tag", 3))
    else:
        b += u8(0) + submesh(copy, None)
    b += u32(sm.get("last", 0))
    return b


# --- CompiledMesh data ------------------------------------------------------------------------------

def draw_range(first_vertex, vertex_count, first_index, triangles, unknown=0):
    return u32(4) + u32(first_vertex) + u32(vertex_count) + u32(first_index) + u32(triangles) + u32(unknown)


def palette(bones_, vertex_count, unknown=0):
    assert len(bones_) <= 32
    return u8(3) + u8(1) + u8(len(bones_)) + u16(unknown) + u16(vertex_count) + bytes(bones_)


def compiled(streams, stride, indices, ranges_a, ranges_b, palettes, flags, fill=0xCD, over=None):
    """streams: [bytes of V each]; ranges: [(first vertex, count, first index, triangles)];
    palettes: [bytes], packed from the start of the 40 x A block, the rest filled with `fill`.
    `over` replaces header words by offset, to break a relation on purpose."""
    s = len(streams) - 1
    V = len(streams[0])
    assert all(len(x) == V for x in streams) and V % stride == 0
    I = 2 * len(indices)
    A, B = len(ranges_a), len(ranges_b)
    total = V * (s + 1) + I + 24 * (A + B)
    head = [16, s, stride, V, stride * (s + 1), V * (s + 1), I, 0, flags, A, B, total]
    for off, val in (over or {}).items():
        head[off // 4] = val
    b = b"".join(u32(w) for w in head)
    assert len(b) == 0x30
    b += b"".join(streams)
    assert len(b) == 48 + V * (s + 1)
    b += b"".join(u16(i) for i in indices)
    assert len(b) == 48 + V * (s + 1) + I
    b += b"".join(draw_range(*r) for r in ranges_a + ranges_b)
    assert len(b) == total + 48
    block = b"".join(palettes)
    assert len(block) <= 40 * A
    block += bytes([fill]) * (40 * A - len(block))
    return b + block


def filler(vertices, stride, seed):
    """Compiled vertices: their format is not in the documents, so only deterministic filler."""
    return bytes(((seed * 131 + i * 7) % 251) for i in range(vertices * stride))


# --- Mesh body ---------------------------------------------------------------------------------------

def mesh(mesh_id, submeshes, bones_, data, materials, category=2, generated=0, unknown0=0, data_len=None):
    n = len(bones_)
    b = u8(1) + u32(mesh_id) + u32(MESH_CLASS) + u32(category) + u8(generated) + u32(len(submeshes))
    assert len(b) == 0x12
    shift = 0
    for sm in submeshes:
        b += u8(0) + sm  # pointer tag 0 (inline) and the SubMesh
        shift += 1 + len(sm)
    assert len(b) == 0x12 + shift
    b += u32(n)
    assert len(b) == 0x16 + shift
    b += b"".join(bones_)
    assert len(b) == 22 + 76 * n + shift
    b += bytes([unknown0, 1]) + bytes(9)
    assert len(b) == 33 + 76 * n + shift
    b += u32(COMPILED_CLASS)
    assert len(b) == 37 + 76 * n + shift
    L = len(data)
    b += u32(L if data_len is None else data_len)
    assert len(b) == 41 + 76 * n + shift
    b += data
    assert len(b) == 41 + 76 * n + L + shift
    b += u32(16)
    assert len(b) == 45 + 76 * n + L + shift
    b += u32(32)
    assert len(b) == 49 + 76 * n + L + shift
    b += u32(len(materials))
    assert len(b) == 53 + 76 * n + L + shift
    b += b"".join(u32(m) for m in materials)
    return b


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


# --- 1. plain: no SubMeshes, no bones; one range in each partition ----------------------------------
# A quad (4 vertices of an 8-byte stride, 2 triangles).

def plain(over=None, ranges_a=None, ranges_b=None, materials=(0x0001_0203,), pal=None, **kw):
    stride = 8
    indices = [0, 1, 2, 2, 1, 3]
    ra = ranges_a or [(0, 4, 0, 2, 0x1234)]
    rb = ranges_b or [(0, 4, 0, 2, 0x5678)]
    pals = pal or [palette([], 4, 0)]
    data = compiled([filler(4, stride, 1)], stride, indices, ra, rb, pals, flags=0x0000_0103, over=over)
    return mesh(0x1001, [], [], data, list(materials), **kw)


write(os.path.join(HERE, "hand-plain.sws-mesh"), plain())

# --- 2. boned: two bones; two first-partition ranges, one second-partition range -------------------

IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
MOVED = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, -2, 3, 1]


def boned(pal_bones=((0, 1), (1,)), pal_counts=(4, 3), materials=(7, 9), ranges_b=None, **kw):
    stride = 12
    # 7 vertices: range 0 uses 0-3 (two triangles), range 1 uses 4-6 (one triangle).
    indices = [0, 1, 2, 2, 1, 3, 4, 5, 6]
    ra = [(0, 4, 0, 2, 11), (4, 3, 6, 1, 22)]
    rb = ranges_b or [(0, 7, 0, 3, 33)]
    pals = [palette(list(pal_bones[0]), pal_counts[0], 0), palette(list(pal_bones[1]), pal_counts[1], 1)]
    data = compiled([filler(7, stride, 2)], stride, indices, ra, rb, pals, flags=0x0000_2113)
    bones_ = [bone(0x2001, 0xA1B2C3D4, IDENTITY), bone(0x2002, 0x0BADF00D, MOVED)]
    return mesh(0x2000, [], bones_, data, list(materials), unknown0=1, **kw)


write(os.path.join(HERE, "hand-boned.sws-mesh"), boned())

# --- 3. authored: one SubMesh (a triangle with a copy), one UV channel, one morph channel -----------

TRI_POS = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]
TRI_NRM = [(0.0, 0.0, 1.0)] * 3
TRI_UV = [(0.0, 1.0), (1.0, 1.0), (0.0, 0.0)]
# Red, green and blue as D3DCOLOR 0xAARRGGBB (stored B, G, R, A).
TRI_COL = [0xFFFF0000, 0xFF00FF00, 0xFF0000FF]
MORPHED = [(0.0, 0.0, 0.5), (1.0, 0.0, 0.5), (0.0, 1.0, 0.5)]


def tri_submesh(material=77, morphs=1, **over):
    original = {
        "id": 0x3101,
        "indices": [0, 1, 2],
        "source": [10, 11, 12],
        "face_words": [1],
        "face_bytes": [3],
        "positions": TRI_POS,
        "normals": TRI_NRM,
        "tangents": [],
        "binormals": [],
        "colours": TRI_COL,
        "words_c": [0xFF000000] * 3,
        "uv_channels": [uv_channel(TRI_UV, [10, 11, 12])],
        "morph_channels": [morph_channel(0x3201 + k, 0xDEADBEEF, MORPHED, TRI_NRM, TRI_UV) for k in range(morphs)],
        "material": material,
        "last": 0,
    }
    copy = dict(original)
    copy.update(
        {
            "id": 0x3102,
            "source": [],
            "tangents": [(1.0, 0.0, 0.0)] * 3,
            "binormals": [(0.0, 1.0, 0.0)] * 3,
            "uv_channels": [uv_channel(TRI_UV, [])],
            "morph_channels": [],
            "last": 0x5EED5EED,
        }
    )
    copy_over = over.pop("copy_over", {})
    original.update(over)
    copy.update(copy_over)
    return original, copy


def authored(material=77, materials=(77,), morphs=1, streams=None, sm_over=None, copy_override=False,
             indices=(0, 1, 2), triangles=1):
    stride = 16
    o, c = tri_submesh(material, morphs, **(sm_over or {}))
    sm = submesh(o, None if copy_override else c)
    n_streams = 1 + morphs if streams is None else streams
    data = compiled(
        [filler(3, stride, 3 + k) for k in range(n_streams)],
        stride,
        list(indices),
        [(0, 3, 0, triangles, 5)],
        [(0, 3, 0, triangles, 6)],
        [palette([], 3, 0)],
        flags=0x0001_0157,
    )
    return mesh(0x3000, [sm], [], data, list(materials))


def authored_many(k):
    """k triangle SubMeshes without morph channels, SubMesh i drawn with material 100 + i by
    first-partition range i (3 compiled vertices and one triangle each); one second-partition
    range over every index."""
    stride = 16
    parts = []
    for i in range(k):
        o, c = tri_submesh(material=100 + i, morphs=0)
        parts.append(submesh(o, c))
    data = compiled(
        [filler(3 * k, stride, 5)],
        stride,
        [3 * i + v for i in range(k) for v in (0, 1, 2)],
        [(3 * i, 3, 3 * i, 1, i) for i in range(k)],
        [(0, 3 * k, 0, k, 0)],
        [palette([], 3, 0) for _ in range(k)],
        flags=0x0001_0157,
    )
    return mesh(0x3500, parts, [], data, [100 + i for i in range(k)])


write(os.path.join(HERE, "hand-authored.sws-mesh"), authored())

# The same SubMesh on its own (layout sws-submesh, from its managed byte) and its parts.
o, c = tri_submesh()
write(os.path.join(HERE, "hand-triangle.sws-submesh"), submesh(o, c))
write(os.path.join(HERE, "hand-triangle.sws-uv-channel"), uv_channel(TRI_UV, [10, 11, 12], unknown_c=2))
write(os.path.join(HERE, "hand-triangle.sws-morph-channel"), morph_channel(0x3201, 0xDEADBEEF, MORPHED, TRI_NRM, TRI_UV))
write(os.path.join(HERE, "hand-moved.sws-mesh-bone"), bone(0x2002, 0x0BADF00D, MOVED))
# The boned mesh's Data on its own (layout sws-compiled-mesh).
b = boned()
L = struct.unpack_from("<I", b, 37 + 76 * 2)[0]
write(os.path.join(HERE, "hand-boned.sws-compiled-mesh"), b[41 + 76 * 2 : 41 + 76 * 2 + L])

# --- bad/: each breaks exactly one relation ----------------------------------------------------------


def authored_four():
    """The authored mesh with 4 compiled vertices where its SubMesh has 3 (the range still lies
    inside the stream)."""
    stride = 16
    o, c = tri_submesh()
    data = compiled(
        [filler(4, stride, 3), filler(4, stride, 4)],
        stride,
        [0, 1, 2],
        [(0, 3, 0, 1, 5)],
        [(0, 3, 0, 1, 6)],
        [palette([], 3, 0)],
        flags=0x0001_0157,
    )
    return mesh(0x3000, [submesh(o, c)], [], data, [77])


def data_too_long():
    """The plain mesh with L one word too long: Data swallows the PlatformVersion."""
    good = plain()
    L = struct.unpack_from("<I", good, 37)[0]
    return good[:37] + u32(L + 4) + good[41:]


bad = {
    # Mesh relations.
    "data-length": data_too_long(),
    "one-material-per-range": plain(materials=(1, 2)),
    "palette-bones-exist": boned(pal_bones=((0, 2), (1,))),
    # A palette that names bone 0 of a mesh without bones (which names a bone that does not
    # exist, too: `palette_bones_exist` cannot hold where this one breaks).
    "palettes-empty-without-bones": plain(pal=[palette([0], 4, 0)]),
    # The SubMesh's one triangle, drawn by a range of two (the compiled buffer holds the
    # triangle twice, so both partitions still cover it).
    "submesh-matches-its-range": authored(indices=(0, 1, 2, 0, 2, 1), triangles=2),
    "submeshes-census": authored_many(6),
    "submesh-vertices-sum": authored_four(),
    "extra-streams-are-morph-channels": authored(morphs=1, streams=3),
    # Both the SubMesh and its copy name material 77; the list holds 78.
    "submesh-material-listed": authored(material=77, materials=(78,)),
    # CompiledMesh relations: stored header words that disagree with their definition.
    "stride-all-streams": plain(over={0x10: 9}),
    "len-all-streams": plain(over={0x14: 31}),
    "total-adds-up": plain(over={0x2C: 999}),
    # The second partition: two ranges (as many as the first) that both cover triangle 1 (the
    # triangles still add up to the index count).
    "ranges-partition-indices": boned(ranges_b=[(0, 7, 0, 2, 33), (0, 7, 3, 1, 34)]),
    # A first-partition range of 5 vertices over a stream of 4 (its palette says 5 too).
    "range-vertices-in-stream": plain(ranges_a=[(0, 5, 0, 2, 0x1234)], pal=[palette([], 5, 0)]),
    "palette-vertex-count": plain(pal=[palette([], 3, 0)]),
    # Two second-partition ranges (one triangle each) for one first-partition range.
    "second-partition-not-larger": plain(ranges_b=[(0, 4, 0, 1, 1), (0, 4, 3, 1, 2)]),
    # SubMesh relations. A copy keeps the original's indices (relation copy_like_original),
    # so a change to the indices is made to both.
    "whole-triangles": authored(sm_over={"indices": [0, 1, 2, 0], "copy_over": {"indices": [0, 1, 2, 0]}}),
    "indices-name-vertices": authored(sm_over={"indices": [0, 1, 3], "copy_over": {"indices": [0, 1, 3]}}),
    "runs-match-vertex-count": authored(sm_over={"normals": TRI_NRM[:2], "copy_over": {"normals": TRI_NRM}}),
    "runs-match-triangle-count": authored(sm_over={"face_bytes": [3, 3], "copy_over": {"face_bytes": [3]}}),
    "has-morphs-flag": authored(sm_over={"has_morphs": 0}),
    # An original whose copy pointer is empty (tag 3).
    "one-copy-each": authored(copy_override=True),
    # The copy holds a MorphChannel (and says so in its has-morphs byte).
    "no-morphs-on-copy": authored(
        sm_over={"copy_over": {"morph_channels": [morph_channel(0x3301, 0xDEADBEEF, MORPHED, TRI_NRM, TRI_UV)]}}
    ),
    # The copy keeps the original's source vertices.
    "copy-like-original": authored(sm_over={"copy_over": {"source": [10, 11, 12]}}),
    "uv-channels-census": authored(
        sm_over={
            "uv_channels": [uv_channel(TRI_UV, [10, 11, 12])] * 4,
            "copy_over": {"uv_channels": [uv_channel(TRI_UV, [])] * 4},
        }
    ),
    "morph-channels-census": authored(morphs=4),
    # MorphChannel relations.
    "id-not-zero": authored(sm_over={"morph_channels": [morph_channel(0, 0xDEADBEEF, MORPHED, TRI_NRM, TRI_UV)]}),
}

for name, data in bad.items():
    write(os.path.join(BAD, name + ".sws-mesh"), data)
