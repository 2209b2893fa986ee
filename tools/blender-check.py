# Imports .glb files headless in Blender, as a user would open them, and compares what Blender
# builds with what the file holds: vertex and face counts, and for a skinned mesh the bounding box
# with its armature applied (the skin at rest) against the bounding box of the mesh as stored.
#
#   blender -b --factory-startup --python-exit-code 1 --python tools/blender-check.py -- FILE.glb...
#
# Prints one Markdown table row per mesh (size: the stored mesh's bounding box diagonal); exits 1 if any count differs or a skinned mesh moves by
# more than 1e-4 of its size at rest. Blender 3.4's glTF importer needs numpy (Debian's
# python3-numpy); with numpy 1.24 or later it still uses `numpy.bool`, so the alias is set first.

import json
import struct
import sys

import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402

TOLERANCE = 1e-4


def glb_counts(path):
    """Per glTF mesh name: (vertices Blender should build, triangles), read from the file.

    Blender's importer keeps, per primitive, the vertices its indices use (a vertex used by two
    primitives is made twice), and makes a face of each triangle.
    """
    data = open(path, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + json_len])
    bin_at = 20 + json_len + 8
    sizes = {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4)}
    out = {}
    for mesh in doc.get("meshes", []):
        verts = faces = 0
        for prim in mesh["primitives"]:
            acc = doc["accessors"][prim["indices"]]
            view = doc["bufferViews"][acc["bufferView"]]
            fmt, size = sizes[acc["componentType"]]
            start = bin_at + view.get("byteOffset", 0) + acc.get("byteOffset", 0)
            idx = struct.unpack_from("<%d%s" % (acc["count"], fmt), data, start)
            verts += len(set(idx))
            if prim.get("mode", 4) == 4:
                faces += len(idx) // 3
        out[mesh.get("name", "")] = (verts, faces)
    return out


def bbox(points):
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    return lo, hi


def check(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    expected = glb_counts(path)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    rows = []
    for obj in bpy.context.scene.objects:
        if obj.type != "MESH":
            continue
        mesh_name = obj.data.name
        want = expected.get(mesh_name)
        if want is None:
            # Blender cuts names to 63 bytes and may append .001 to a name it has seen.
            base = mesh_name.rsplit(".", 1)[0] if mesh_name[-4:-3] == "." else mesh_name
            want = next(
                (v for k, v in expected.items() if k.startswith(base) or mesh_name.startswith(k)),
                (None, None),
            )
        verts, faces = len(obj.data.vertices), len(obj.data.polygons)
        rest = [obj.matrix_world @ v.co for v in obj.data.vertices]
        skinned = any(m.type == "ARMATURE" for m in obj.modifiers)
        moved = 0.0
        size = 0.0
        if rest:
            lo, hi = bbox(rest)
            size = sum((hi[k] - lo[k]) ** 2 for k in range(3)) ** 0.5
        if skinned and rest:
            evaluated = obj.evaluated_get(depsgraph)
            me = evaluated.to_mesh()
            posed = [obj.matrix_world @ v.co for v in me.vertices]
            evaluated.to_mesh_clear()
            plo, phi = bbox(posed)
            moved = max(max(abs(plo[k] - lo[k]), abs(phi[k] - hi[k])) for k in range(3))
            moved = moved / size if size > 0 else moved
        ok = (verts, faces) == want and moved <= TOLERANCE
        rows.append((obj.name, want, verts, faces, skinned, size, moved, ok))
    return rows


def text(s):
    """A name from a file on one table row: control characters escaped, `|` too."""
    return s.encode("unicode_escape").decode("ascii").replace("|", "\\|")


def main():
    files = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    print("| file | mesh | glTF vertices / faces | Blender vertices / faces | skinned | size | skinned box vs rest box | ok |")
    print("|---|---|---|---|---|---|---|---|")
    failed = 0
    for path in files:
        try:
            rows = check(path)
        except Exception as e:  # the importer's own failure is a result too
            print("| %s | - | - | import failed: %s | - | - | - | no |" % (path.rsplit("/", 1)[-1], e))
            failed += 1
            continue
        for name, want, verts, faces, skinned, size, moved, ok in rows:
            print(
                "| %s | %s | %s / %s | %d / %d | %s | %.4g | %s | %s |"
                % (
                    text(path.rsplit("/", 1)[-1]),
                    text(name),
                    want[0],
                    want[1],
                    verts,
                    faces,
                    "yes" if skinned else "no",
                    size,
                    ("%.2e of size" % moved) if skinned else "-",
                    "yes" if ok else "NO",
                )
            )
            failed += 0 if ok else 1
    print("%d files, %d problems" % (len(files), failed))
    sys.exit(1 if failed else 0)


main()
