#!/usr/bin/env python3
"""Hand-assembles Riders Republic mesh resource bodies (layout `rr-mesh`) and parts of them, byte
by byte from the tables of ../shared/seeds/003_e48eefb5d612aa86.txt (section "Riders Republic"),
with nothing but Python's struct module: independent of meshspec's spec, generator and writer, so a
spec and a writer that agree with each other but not with the document are caught.

Also writes bad/: copies of good bodies with exactly one relation of spec/rr_mesh.ksy violated (or
one field the reader refuses), each named for what it breaks.

No real RR file is available; every vertex byte here is made up (the document does not give the
vertex record layouts, so any bytes of the right length are a valid stream).

Run from anywhere: python3 corpus/rr/make.py. The output is deterministic.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# The vertex format table: kind byte and stream strides.
FORMATS = {
    "static16": (11, (16, 0, 0)),
    "static24": (2, (24, 0, 0)),
    "static28": (3, (28, 0, 0)),
    "split12": (0, (12, 12, 8)),
    "split24": (1, (24, 12, 8)),
    "split12x8": (0, (12, 12, 16)),  # split12 with eight influences
}

COMPILED_MARKER = 0xFC9E1595
RANGED_CLASS = 0xC351EE43
MESHDATA_CLASS = 0x0645ABB5
RANGE_CLASS = 0x07B19A87
PRIMITIVE_MARKER = 0xA57387EF
DESCRIPTOR_MARKER = 0x0B1D34C1
GROUP_CLASS = 0x9F1640AF


def u8(v):
    return struct.pack("<B", v)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def f32(*vs):
    return struct.pack("<%df" % len(vs), *vs)


def u24(v):
    return struct.pack("<I", v)[:3]


def lp(data):
    """A length-prefixed stream: a u32 byte length (our reading of "length-prefixed"), then the bytes."""
    return u32(len(data)) + data


def vertex_bytes(n, stride, seed):
    """n made-up records of `stride` bytes."""
    return bytes(((seed * 131 + i * 7 + (i // max(stride, 1)) * 13) & 0xFF) for i in range(n * stride))


class Part:
    def __init__(self, num_vertices, triangles, material, centre=(0.0, 0.0, 0.0), half=(1.0, 1.0, 1.0)):
        self.num_vertices = num_vertices
        self.triangles = triangles  # corner triples relative to the part's first vertex
        self.material = material
        self.centre = centre
        self.half = half


def header(bones, managed=1, mask=0, generated=0, stride=0, culling=100.0, after_bones=None):
    """The body's first 61 + 81 n bytes; returns them and M."""
    out = u8(managed) + u8(mask) + u8(generated) + u8(stride) + f32(culling) + bytes(8)
    assert len(out) == 16
    out += u32(len(bones))
    assert len(out) == 20
    for b in bones:
        assert len(b) == 81
        out += b
    # Our reading: the 41 undescribed bytes follow the bone records.
    out += after_bones if after_bones is not None else bytes(41)
    m = 61 + 81 * len(bones)
    assert len(out) == m
    return out, m


def compiled_prefix(selector, cls):
    out = u32(COMPILED_MARKER) + u8(selector) + bytes(8) + u32(cls)
    assert len(out) == 17
    return out


def descriptor(vertex_count, material, last, quantization=0.5, platform_version=31):
    out = u32(DESCRIPTOR_MARKER) + bytes(4) + u8(0) + u16(vertex_count % 65536) + u8(0) + u64(material)
    assert len(out) == 0x14
    # The last descriptor's final bytes: PlatformVersion 31 and QuantizationFactor; others zero.
    out += (u32(platform_version) + f32(quantization)) if last else bytes(8)
    assert len(out) == 28
    return out


def group(reference, handle):
    # Our reading: the class at offset 0; the identities at 8 and 17 are the document's.
    out = u32(GROUP_CLASS) + bytes(4) + u64(reference) + u8(0) + u64(handle) + bytes(6)
    assert len(out) == 31
    return out


def material_list(descs, groups, first_bool=0, category=7):
    out = u32(len(descs)) + bytes(8) + b"".join(descs)
    out += u32(len(groups)) + bytes(6) + b"".join(groups)
    trailer = u8(first_bool) + bytes(15) + u32(category)
    assert len(trailer) == 20
    return out + trailer


def materials_for(parts, vertex_counts=None, first_bool=0):
    counts = vertex_counts or [p.num_vertices for p in parts]
    descs = [descriptor(c, p.material, i + 1 == len(parts)) for i, (p, c) in enumerate(zip(parts, counts))]
    groups = [group(p.material, p.material) for p in parts]
    return material_list(descs, groups, first_bool)


def primitive(vertex_base, num_vertices, first_index, triangles):
    out = u64(0) + u32(PRIMITIVE_MARKER) + u32(vertex_base) + u32(0) + u32(num_vertices)
    out += u32(first_index) + u32(triangles) + u32(1)
    assert len(out) == 36
    return out


def mesh_data_fields(width, kind, strides, bones_per_vertex, records):
    out = u8(width) + u8(kind) + bytes(strides) + u8(bones_per_vertex) + u32(len(records))
    assert len(out) == 10
    return out + b"".join(records)


def ranged(fmt, parts, bones=(), centre=(0.0, 1.0, 0.0), half=(1.0, 1.0, 1.0), cpu_copies=False,
           bones_per_vertex=None, t=None):
    """A ranged body. `t` holds tamperings for the bad files (each key one change)."""
    t = t or {}
    kind, table = FORMATS[fmt]
    strides = t.get("strides", table)  # the header's strides; MeshData keeps the table's
    total_v = sum(p.num_vertices for p in parts)
    head, m = header(list(bones))
    out = bytearray(head)
    out += compiled_prefix(0, t.get("class", RANGED_CLASS))
    assert len(out) == m + 17
    out += u32(2) + u8(kind)
    assert len(out) == m + 22
    out += b"".join(u32(s) for s in strides)
    assert len(out) == m + 34
    out += u32(0)
    assert len(out) == m + 38
    out += f32(*centre)
    assert len(out) == m + 50
    out += f32(*half)
    assert len(out) == m + 62
    out += u8(0)
    assert len(out) == m + 63
    out += u32(len(parts))
    out += bytes(8)
    assert len(out) == m + 75  # the first range
    firsts, bases, indices = [], [], []
    for p in parts:
        firsts.append(len(indices))
        bases.append(sum(q.num_vertices for q in parts[: len(bases)]))
        for tri in p.triangles:
            indices += list(tri)  # relative to the range's vertex base
    firsts = t.get("firsts", firsts)
    bases = t.get("bases", bases)
    for i in t.get("absolute_in", []):  # write range i's indices as absolute (wrong for ranged)
        lo = firsts[i]
        hi = firsts[i + 1] if i + 1 < len(parts) else len(indices)
        for k in range(lo, hi):
            indices[k] += bases[i]
    for i, p in enumerate(parts):
        out += u32(RANGE_CLASS) + u8(1) + bytes(3) + u32(firsts[i]) + u32(bases[i])
        if i + 1 < len(parts):
            out += bytes(8)
    primary = vertex_bytes(total_v, strides[0], 1)
    positions = vertex_bytes(total_v, strides[1], 2)
    skin = vertex_bytes(total_v - t.get("skin_short", 0), strides[2], 3)
    index_bytes = b"".join(u16(i) for i in indices)
    out += lp(primary) + lp(positions) + lp(skin) + lp(index_bytes)
    descs = []
    for i, p in enumerate(parts):
        c, h = (centre, half) if len(parts) == 1 else (p.centre, p.half)
        c = t.get("desc_centre", {}).get(i, c)
        count = t.get("desc_count", {}).get(i, 3 * len(p.triangles))
        first = t.get("desc_first", {}).get(i, firsts[i])
        rec = f32(*c) + f32(*h) + u8(1) + u24(count) + u32(first)
        assert len(rec) == 32
        descs.append(rec)
    descs = descs[: t.get("n_descs", len(descs))]
    out += lp(b"".join(descs))
    out += lp(b"") + lp(b"")  # the two further streams
    # MeshData (our reading: with its marker), one MeshPrimitive per range (our writer's choice).
    records = [primitive(bases[i], p.num_vertices, firsts[i], len(p.triangles)) for i, p in enumerate(parts)]
    bpv = bones_per_vertex if bones_per_vertex is not None else (8 if table[2] == 16 else 4)
    out += u32(MESHDATA_CLASS) + mesh_data_fields(0, kind, table, bpv, records)
    cpu_v = primary if cpu_copies else b""
    cpu_i = index_bytes if cpu_copies else b""
    cpu_v = t.get("cpu_vertices", cpu_v)
    out += lp(cpu_v) + lp(t.get("cpu_positions", b"")) + lp(b"") + lp(cpu_i)
    counts = [t.get("desc_vertex_count", {}).get(i, p.num_vertices) for i, p in enumerate(parts)]
    n_mat = t.get("n_materials", len(parts))
    n_groups = t.get("n_groups", n_mat)
    pv = t.get("platform_version", 31)
    descs = [descriptor(counts[i], parts[i].material, i + 1 == n_mat, platform_version=pv) for i in range(n_mat)]
    groups = [group(parts[i].material, t.get("handle", {}).get(i, parts[i].material)) for i in range(n_groups)]
    flag = t.get("flag", 1 if cpu_copies else 0)
    out += material_list(descs, groups, flag)
    return bytes(out), m


def inline(fmt, parts, bones=(), wide=False, bones_per_vertex=4, declared=None, stale_descriptor=None, t=None):
    """An inline body: MeshData at M+13 (its marker is the layout class)."""
    t = t or {}
    kind, strides = FORMATS[fmt]
    strides = t.get("strides", strides)
    total_v = sum(p.num_vertices for p in parts)
    head, m = header(list(bones), mask=t.get("mask", 16), culling=660.0)
    out = bytearray(head)
    out += compiled_prefix(3, MESHDATA_CLASS)
    assert out[m + 13 : m + 17] == u32(MESHDATA_CLASS)  # MeshData directly at M+13
    records, indices = [], []
    base = 0
    for i, p in enumerate(parts):
        first = len(indices)
        nv, nt = p.num_vertices, len(p.triangles)
        if declared and i in declared:  # stale declared counts (the GFX_WireFrame_Wall_01_LOD0 case)
            nv, nt = declared[i]
        vb = t.get("bases", {}).get(i, base)
        records.append(primitive(vb, nv, first, nt))
        for tri in p.triangles:
            shift = 0 if i in t.get("relative_in", []) else base  # indices are absolute
            indices += [c + shift for c in tri]
        base += p.num_vertices
    out += mesh_data_fields(1 if wide else 0, kind, strides, bones_per_vertex, records)
    primary = vertex_bytes(total_v, strides[0], 4)
    positions = t.get("positions", vertex_bytes(total_v, strides[1], 5))
    skin = vertex_bytes(total_v, strides[2], 6)
    index_bytes = b"".join((u32(i) if wide else u16(i)) for i in indices)
    out += lp(primary) + lp(positions) + lp(skin) + lp(index_bytes)
    counts = [p.num_vertices for p in parts]
    if stale_descriptor:
        for i, c in stale_descriptor.items():
            counts[i] = c
    n_mat = t.get("n_materials", len(parts))
    descs = [descriptor(counts[i], parts[i].material, i + 1 == n_mat) for i in range(n_mat)]
    groups = [group(parts[i].material, parts[i].material) for i in range(n_mat)]
    out += material_list(descs, groups, 0)
    return bytes(out), m


def write(name, data):
    path = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def bone(i):
    return bytes(((i * 29 + k * 3) & 0xFF) for k in range(81))


# A quad (4 vertices, 2 triangles) and a triangle, as parts.
QUAD = [(0, 1, 2), (2, 1, 3)]
MAT_A = 0x1122334455667788
MAT_B = 0x0102030405060708
MAT_C = 0xA0B0C0D0E0F00010

# --- Good bodies ------------------------------------------------------------------------------

# 1. split12, no bones, one range: the smallest ranged body.
quad, quad_m = ranged("split12", [Part(4, QUAD, MAT_A)])
write("quad-split12.rr-mesh", quad)

# 2. split24, two bones, two ranges (a quad then a triangle); the second range's indices are
#    relative to its vertex base 4.
two, two_m = ranged(
    "split24",
    [Part(4, QUAD, MAT_A, (0, 0, 0), (1, 1, 0)), Part(3, [(0, 1, 2)], MAT_B, (2, 0, 0), (0.5, 0.5, 0))],
    bones=[bone(0), bone(1)],
    centre=(1.0, 0.0, 0.0),
    half=(2.0, 1.0, 0.0),
)
write("two-ranges-split24.rr-mesh", two)

# 3. static16 with its CPU-side copies in the first and last final runs (trailer bool 1).
cpu, _ = ranged("static16", [Part(4, QUAD, MAT_C)], cpu_copies=True)
write("static16-cpu-copies.rr-mesh", cpu)

# 4. inline, static24, two objects sharing u16 buffers, absolute indices.
inl, inl_m = inline("static24", [Part(4, QUAD, MAT_A), Part(3, [(0, 1, 2)], MAT_B)])
write("inline-two-objects.rr-mesh", inl)

# 5. inline, three objects, u32 indices, one bone.
inl3, _ = inline(
    "static24",
    [Part(3, [(0, 1, 2)], MAT_A), Part(4, QUAD, MAT_B), Part(5, [(0, 1, 2), (2, 3, 4)], MAT_C)],
    bones=[bone(7)],
    wide=True,
)
write("inline-three-objects-u32.rr-mesh", inl3)

# 6. One object whose record and descriptor declare more vertices and triangles than the buffers
#    hold (a miniature of GFX_WireFrame_Wall_01_LOD0): the buffers win; check warns, never fails.
stale, _ = inline(
    "static24", [Part(4, QUAD, MAT_A)], declared={0: (9, 5)}, stale_descriptor={0: 9}
)
write("inline-stale-counts.rr-mesh", stale)

# Parts, cut out of the bodies above: the compiled mesh from M, MeshData after its marker (up to
# the end of its object records) and a material list.
write("quad-split12.rr-compiled-mesh", quad[quad_m:])
md_start = inl_m + 17
md_len = 10 + 36 * 2
write("inline-two-objects.rr-mesh-data", inl[md_start : md_start + md_len])
descs = [descriptor(4, MAT_A, False), descriptor(3, MAT_B, True)]
write("two-ranges.rr-material-list", material_list(descs, [group(MAT_A, MAT_A), group(MAT_B, MAT_B)]))
assert two.endswith(material_list(descs, [group(MAT_A, MAT_A), group(MAT_B, MAT_B)]))

# --- Bad bodies: one relation (or one field) each ---------------------------------------------

TWO = [Part(4, QUAD, MAT_A), Part(3, [(0, 1, 2)], MAT_B)]


def bad(name, data):
    write(os.path.join("bad", name), data)


# compiled_mesh.selector_matches_class: ranged selector with the MeshData class.
bad("selector-class.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], t={"class": MESHDATA_CLASS})[0])
# ranged_layout.format_strides: split12 with a 12-byte skin stride.
bad("format-strides.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], t={"strides": (12, 12, 12)})[0])
# ranged_layout.static_format_strides: static16 with a 20-byte primary stride.
bad("static-format-strides.rr-mesh", ranged("static16", [Part(4, QUAD, MAT_C)], t={"strides": (20, 0, 0)})[0])
# ranged_layout.first_range_at_zero: the only range starts at vertex 1.
bad("first-range-vertex.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], t={"bases": [1]})[0])
# ranged_layout.ranges_partition_buffers: the second range starts past the 7 vertices.
bad("range-past-vertices.rr-mesh", ranged("split12", TWO, t={"bases": [0, 8]})[0])
# ranged_layout.indices_relative_to_vertex_base: the second range's indices written absolute.
bad("absolute-ranged-indices.rr-mesh", ranged("split12", TWO, t={"absolute_in": [1]})[0])
# ranged_layout.stream_lengths: the skin stream one record short.
bad("skin-short.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], t={"skin_short": 1})[0])
# ranged_layout.primitive_desc_per_range: two ranges, one PrimitiveDescData record.
bad("one-desc-two-ranges.rr-mesh", ranged("split12", TWO, t={"n_descs": 1})[0])
# ranged_layout.primitive_desc_index_count: the first record counts 9 indices for 6.
bad("desc-index-count.rr-mesh", ranged("split12", TWO, t={"desc_count": {0: 9}})[0])
# ranged_layout.primitive_desc_first_index: the second record starts at index 3, not 6.
bad("desc-first-index.rr-mesh", ranged("split12", TWO, t={"desc_first": {1: 3}})[0])
# ranged_layout.single_range_bounds: a single range whose centre is not the header's.
bad("desc-centre.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], t={"desc_centre": {0: (5.0, 0.0, 0.0)}})[0])
# ranged_layout.descriptor_per_range: two ranges, one descriptor (and one group).
bad("one-descriptor-two-ranges.rr-mesh", ranged("split12", TWO, t={"n_materials": 1})[0])
# ranged_layout.middle_runs_empty: VertexBufferDataDynamic holds bytes.
bad("middle-run.rr-mesh", ranged("static16", [Part(4, QUAD, MAT_C)], t={"cpu_positions": b"\x01\x02"})[0])
# ranged_layout.cpu_runs_copy_buffers: the first final run differs from the primary stream.
bad("cpu-copy-differs.rr-mesh", ranged("static16", [Part(4, QUAD, MAT_C)], cpu_copies=True, t={"cpu_vertices": bytes(64)})[0])
# ranged_layout.cpu_runs_flag: filled final runs with the trailer's first bool 0.
bad("cpu-flag.rr-mesh", ranged("static16", [Part(4, QUAD, MAT_C)], cpu_copies=True, t={"flag": 0})[0])
# ranged_layout.final_runs_empty_when_split: a split12 body with (exact) copies in its final runs.
bad("split-final-runs.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], cpu_copies=True)[0])
# ranged_layout.descriptor_final_bytes: the last descriptor's PlatformVersion is 30.
bad("descriptor-final-bytes.rr-mesh", ranged("split12", TWO, t={"platform_version": 30})[0])
# ranged_layout.descriptor_vertex_count: the first descriptor declares 5 vertices for a range of 4.
bad("descriptor-vertex-count.rr-mesh", ranged("split12", TWO, t={"desc_vertex_count": {0: 5}})[0])
# mesh_data.bones_per_vertex (inside a ranged body): eight bones per vertex with an 8-byte skin stride.
bad("bones-per-vertex.rr-mesh", ranged("split12", [Part(4, QUAD, MAT_A)], bones_per_vertex=8)[0])
# material_list.groups_per_descriptor: two descriptors, one group.
bad("one-group.rr-mesh", ranged("split12", TWO, t={"n_groups": 1})[0])
# material_list.group_identities: the second group's ObjectHandle is not its descriptor's Material.
bad("group-identity.rr-mesh", ranged("split12", TWO, t={"handle": {1: MAT_C}})[0])
# inline_layout.objects_tile_buffers: the second object starts at vertex 5, not 4.
bad("object-gap.rr-mesh", inline("static24", TWO, t={"bases": {1: 5}})[0])
# inline_layout.indices_absolute: the second object's indices written relative to its base.
bad("relative-inline-indices.rr-mesh", inline("static24", TWO, t={"relative_in": [1]})[0])
# inline_layout.stream_lengths: a position blob with a stride of 0.
bad("inline-positions.rr-mesh", inline("static24", TWO, t={"positions": bytes(24)})[0])
# inline_layout.descriptor_per_object: two objects, one descriptor.
bad("inline-one-descriptor.rr-mesh", inline("static24", TWO, t={"n_materials": 1})[0])
# inline_layout.descriptor_vertex_count: the first descriptor declares 5 vertices for an object of 4.
bad("inline-descriptor-vertex-count.rr-mesh", inline("static24", TWO, stale_descriptor={0: 5})[0])
# inline_layout.declared_counts_match_buffers: the last object's record declares 5 vertices and 2
# triangles over buffers that give it 3 and 1.
bad("inline-declared-counts.rr-mesh", inline("static24", TWO, declared={1: (5, 2)})[0])
# mesh_data.format_strides (inline): static24 with a 28-byte stride.
bad("inline-format-strides.rr-mesh", inline("static24", TWO, t={"strides": (28, 0, 0)})[0])

# Refused by the reader: a bone count far past the input, an unknown selector, a wrong range
# class, an index stream of an odd number of bytes.
b = bytearray(quad)
struct.pack_into("<I", b, 16, 0xD7D74102)
bad("bone-count.rr-mesh", bytes(b))
b = bytearray(quad)
b[quad_m + 4] = 5
bad("selector.rr-mesh", bytes(b))
b = bytearray(quad)
struct.pack_into("<I", b, quad_m + 75, 0x07B19A88)
bad("range-class.rr-mesh", bytes(b))
# The index stream's length prefix one more than its 12 bytes: the u16 indices then end halfway.
off = quad_m + 75 + 16  # after the single range record
for stride in FORMATS["split12"][1]:
    off += 4 + stride * 4
assert struct.unpack_from("<I", quad, off)[0] == 12
b = bytearray(quad)
struct.pack_into("<I", b, off, 13)
bad("odd-index-bytes.rr-mesh", bytes(b))

# The material list on its own, with a group identity that does not repeat its descriptor's.
bad("group-identity.rr-material-list", material_list(descs, [group(MAT_A, MAT_A), group(MAT_C, MAT_B)]))
