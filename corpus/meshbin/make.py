#!/usr/bin/env python3
"""Makes the .meshbin corpus with nothing but Python's struct module, independently of meshspec's
own writer, so a spec and a generator that agree with each other but not with the document are
caught by the round-trip and decode tests.

Run from anywhere: python3 corpus/meshbin/make.py. The output is deterministic.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def meshbin(vertices, triangles, winding):
    """vertices: [(x, y, z, (r, g, b, a))]; triangles: counter-clockwise (OpenGL) corner triples.
    winding 'd3d' swaps the second and third index of every triangle, as MeshBuilder does."""
    indices = []
    for a, b, c in triangles:
        indices += [a, c, b] if winding == "d3d" else [a, b, c]
    assert len(vertices) <= 65535 and len(indices) <= 65535
    out = struct.pack("<HH", len(vertices), len(indices))
    for x, y, z, rgba in vertices:
        out += struct.pack("<fff4B", x, y, z, *rgba)
    out += struct.pack("<%dH" % len(indices), *indices)
    assert len(out) == 4 + 16 * len(vertices) + 2 * len(indices)
    return out


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# The floor of the document: 4 vertices, 2 triangles. Bytes 0-19 (counts and the first vertex)
# and 68-79 (the indices 0, 2, 1, 2, 3, 1 of the Direct3D build) are the document's; the other
# three vertices are the remaining corners of the same 8 x 8 plane in the same colour, placed so
# that the source triangles (0, 1, 2) and (2, 1, 3) face +y counter-clockwise.
GREEN = (51, 115, 64, 255)
floor_v = [(-4.0, 0.0, 4.0, GREEN), (4.0, 0.0, 4.0, GREEN), (-4.0, 0.0, -4.0, GREEN), (4.0, 0.0, -4.0, GREEN)]
floor_t = [(0, 1, 2), (2, 1, 3)]
floor = meshbin(floor_v, floor_t, "d3d")
assert floor[:4] == bytes([4, 0, 6, 0])
assert floor[4:20] == bytes.fromhex("000080c0" "00000000" "00008040" "337340ff")
assert floor[68:80] == struct.pack("<6H", 0, 2, 1, 2, 3, 1)
write("floor.meshbin", floor)
write("floor-gl.meshbin", meshbin(floor_v, floor_t, "gl"))

# A unit cube with one colour per face: 24 vertices (4 per face, so each face keeps its colour)
# and 12 triangles, counter-clockwise seen from outside.
cube_v, cube_t = [], []
faces = [  # (normal axis, sign, colour)
    (0, 1, (255, 0, 0, 255)), (0, -1, (0, 255, 255, 255)),
    (1, 1, (0, 255, 0, 255)), (1, -1, (255, 0, 255, 255)),
    (2, 1, (0, 0, 255, 255)), (2, -1, (255, 255, 0, 255)),
]
for axis, sign, colour in faces:
    u, v = (axis + 1) % 3, (axis + 2) % 3
    base = len(cube_v)
    for du, dv in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        p = [0.0, 0.0, 0.0]
        p[axis] = 0.5 * sign
        p[u] = 0.5 * du
        p[v] = 0.5 * dv
        cube_v.append((p[0], p[1], p[2], colour))
    # (u, v, axis) is right-handed, so corners in (u, v) order run counter-clockwise seen from +axis.
    quad = [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    cube_t += quad if sign > 0 else [(a, c, b) for a, b, c in quad]
write("cube.meshbin", meshbin(cube_v, cube_t, "d3d"))
write("cube-gl.meshbin", meshbin(cube_v, cube_t, "gl"))

# The document's size benchmark: a helix tube of 5 coils x 109 subdivisions per coil x 20 sides,
# closed by two 20-gon caps fanned into 18 triangles each: 5 * 109 * 20 * 2 + 2 * 18 = 21,836
# triangles. Like the document's exporter it gives every triangle corner its own vertex, so
# there are 65,508 vertices and 65,508 indices.
COILS, SUBDIV, SIDES = 5, 109, 20
R, TUBE, PITCH = 2.0, 0.3, 1.0


def centre(s):
    a = 2 * math.pi * s
    return (R * math.cos(a), PITCH * s, R * math.sin(a))


def ring(i):
    s = i / SUBDIV
    c = centre(s)
    a = 2 * math.pi * s
    t = (-R * 2 * math.pi * math.sin(a), PITCH, R * 2 * math.pi * math.cos(a))
    tl = math.sqrt(sum(x * x for x in t))
    t = tuple(x / tl for x in t)
    n = (-math.cos(a), 0.0, -math.sin(a))  # towards the axis, perpendicular to t
    b = (t[1] * n[2] - t[2] * n[1], t[2] * n[0] - t[0] * n[2], t[0] * n[1] - t[1] * n[0])
    pts = []
    for k in range(SIDES):
        th = 2 * math.pi * k / SIDES
        pts.append(tuple(c[j] + TUBE * (math.cos(th) * n[j] + math.sin(th) * b[j]) for j in range(3)))
    return pts, c


def colour(i):
    f = i / (COILS * SUBDIV)
    return (int(255 * f), 64, int(255 * (1 - f)), 255)


hv, ht = [], []


def tri(p0, p1, p2, col):
    base = len(hv)
    for p in (p0, p1, p2):
        hv.append((p[0], p[1], p[2], col))
    ht.append((base, base + 1, base + 2))


rings = [ring(i) for i in range(COILS * SUBDIV + 1)]
for i in range(COILS * SUBDIV):
    a, _ = rings[i]
    b, _ = rings[i + 1]
    col = colour(i)
    for k in range(SIDES):
        k2 = (k + 1) % SIDES
        # Outward faces: the ring runs from n (inward) through b, so this order faces outward.
        tri(a[k], a[k2], b[k], col)
        tri(b[k], a[k2], b[k2], col)
for (pts, _), flip in ((rings[0], True), (rings[-1], False)):
    for k in range(1, SIDES - 1):
        if flip:
            tri(pts[0], pts[k + 1], pts[k], (255, 255, 255, 255))
        else:
            tri(pts[0], pts[k], pts[k + 1], (255, 255, 255, 255))
assert len(ht) == 21836 and len(hv) == 65508
helix = meshbin(hv, ht, "d3d")
assert len(helix) == 1179148
write("helix.meshbin", helix)
write("helix-gl.meshbin", meshbin(hv, ht, "gl"))
print("wrote floor, cube and helix in both windings to", HERE)
