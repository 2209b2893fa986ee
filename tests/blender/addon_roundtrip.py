"""Headless check of the meshspec add-on (run by cli/tests/blender.rs):

    blender -b --factory-startup --python tests/blender/addon_roundtrip.py -- REPO MESHSPEC OUT_DIR ZIP

Installs the add-on from ZIP (what blender/build.sh packs) into OUT_DIR's scripts folder (set
BLENDER_USER_SCRIPTS to it: nothing outside OUT_DIR is touched), enables it with meshspec's
path in its preferences, then imports a Unity mesh and a .meshbin through the add-on's operators, moves a vertex, writes each
back into a copy of its file and checks the copy with the command line. Exits non-zero on the
first failed assertion.
"""
import hashlib
import json
import os
import subprocess
import sys
import traceback

import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Blender 3.4's glTF importer, with numpy 1.24 or later

import bpy


def main():
    args = sys.argv[sys.argv.index("--") + 1 :]
    repo, meshspec, out, zip_path = args[:4]
    # A real bundle and a mesh of it, when the shared corpus is there.
    real = args[4:6]
    import addon_utils

    bpy.ops.preferences.addon_install(filepath=zip_path)
    addon_utils.enable("meshspec_blender", default_set=True)
    bpy.context.preferences.addons["meshspec_blender"].preferences.meshspec_path = meshspec

    def positions(path, *sel):
        """The positions meshspec exports (as OBJ `v` lines), rounded."""
        obj = os.path.join(out, "positions.obj")
        subprocess.run([meshspec, *sel, "-o", obj], check=True, capture_output=True)
        with open(obj) as f:
            return sorted(
                tuple(round(float(x), 4) for x in l.split()[1:4]) for l in f if l.startswith("v ")
            )

    def sha(p):
        with open(p, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    # A Unity mesh (Arm, path id 101, of the LZ4 bundle), every field recorded on the object.
    src = os.path.join(repo, "corpus", "unity", "lz4.unity-bundle")
    before = sha(src)
    assert bpy.ops.import_scene.meshspec(filepath=src, path_id="101") == {"FINISHED"}
    objs = [o for o in bpy.data.objects if o.get("meshspec_source") == src]
    assert len(objs) == 1, objs
    o = objs[0]
    assert o["meshspec_layout"] == "game" and o["meshspec_path_id"] == "101", dict(o)
    # The armature as Blender holds it (the test compares it with UnityPy's reading of the
    # game's Transforms): each bone's name, parent and head at rest, in glTF's frame.
    arm = [m.object for m in o.modifiers if m.type == "ARMATURE" and m.object]
    assert len(arm) == 1, arm
    bones = [
        [b.name, b.parent.name if b.parent else None, [b.head_local[0], b.head_local[2], -b.head_local[1]]]
        for b in arm[0].data.bones
    ]
    print("meshspec armature: " + json.dumps(bones))
    # Written back with no edit: the same file, byte for byte.
    bpy.context.view_layer.objects.active = o
    same = os.path.join(out, "unedited.unity-bundle")
    assert bpy.ops.export_scene.meshspec(filepath=same) == {"FINISHED"}
    assert sha(same) == before, "an unedited round trip changed the file"
    o.data.vertices[0].co.x += 0.5
    bpy.context.view_layer.objects.active = o
    edited = os.path.join(out, "edited.unity-bundle")
    assert bpy.ops.export_scene.meshspec(filepath=edited) == {"FINISHED"}
    subprocess.run([meshspec, "unity", "check", edited], check=True, capture_output=True)
    old = positions(src, "unity", "export", src, "--path-id", "101")
    new = positions(edited, "unity", "export", edited, "--path-id", "101")
    assert len(old) == len(new), (len(old), len(new))
    moved = [p for p in new if p not in old]
    assert moved, "no vertex moved"
    for p in moved:
        assert any(abs(abs(p[0] - q[0]) - 0.5) < 1e-3 and p[1:] == q[1:] for q in old), p
    # Never over the original.
    try:
        r = bpy.ops.export_scene.meshspec(filepath=src)
    except RuntimeError:
        r = {"CANCELLED"}
    assert r == {"CANCELLED"}, r
    assert sha(src) == before, "the original changed"

    # A mesh with blend shapes (Face, path id 102): unedited, the same bytes; then one shape
    # key's vertex raised 0.25 (Blender's z is glTF's y, Unity's y).
    assert bpy.ops.import_scene.meshspec(filepath=src, path_id="102") == {"FINISHED"}
    face = [o for o in bpy.data.objects if o.get("meshspec_source") == src and o.get("meshspec_path_id") == "102"][0]
    bpy.context.view_layer.objects.active = face
    same = os.path.join(out, "face-unedited.unity-bundle")
    assert bpy.ops.export_scene.meshspec(filepath=same) == {"FINISHED"}
    assert sha(same) == before, "an unedited round trip of blend shapes changed the file"
    keys = face.data.shape_keys.key_blocks
    basis, smile = keys[0], keys["Smile"]
    raised = [i for i, (b, k) in enumerate(zip(basis.data, smile.data)) if (k.co - b.co).length > 1e-6]
    assert len(raised) == 1, raised
    smile.data[raised[0]].co.z += 0.25
    bpy.context.view_layer.objects.active = face
    assert bpy.ops.export_scene.meshspec(filepath=os.path.join(out, "face-edited.unity-bundle")) == {"FINISHED"}

    # A bare Mesh object (Arm, extracted into a folder named after its version): unedited, the
    # same bytes; with a vertex moved, a different object that passes check. (Blender names
    # its mesh `Arm (unity-mesh).001`, the bundle's Arm being there: the name stays Arm.)
    bare_dir = os.path.join(out, "2022.3.10f1")
    os.makedirs(bare_dir, exist_ok=True)
    bare = os.path.join(bare_dir, "arm.mesh")
    subprocess.run([meshspec, "unity", "extract", src, "--path-id", "101", "-o", bare], check=True, capture_output=True)
    assert bpy.ops.import_scene.meshspec(filepath=bare, layout="unity-mesh", unity_version="2022.3.10f1") == {"FINISHED"}
    ob = [o for o in bpy.data.objects if o.get("meshspec_source") == bare][0]
    bpy.context.view_layer.objects.active = ob
    back = os.path.join(bare_dir, "arm-unedited.mesh")
    assert bpy.ops.export_scene.meshspec(filepath=back) == {"FINISHED"}
    assert sha(back) == sha(bare), "an unedited bare object changed"
    ob.data.vertices[0].co.x += 0.5
    bpy.context.view_layer.objects.active = ob
    moved = os.path.join(bare_dir, "arm-moved.mesh")
    assert bpy.ops.export_scene.meshspec(filepath=moved) == {"FINISHED"}
    assert sha(moved) != sha(bare)
    subprocess.run([meshspec, "check", "unity-mesh", moved, "--unity-version", "auto"], check=True, capture_output=True)

    if real:
        # A real game's bundle (Unity 2021.3, LZMA): a skinned body of five submeshes whose
        # vertices Blender regroups; unedited it comes back byte for byte, then one vertex moved.
        bundle, name = real
        real_before = sha(bundle)
        assert bpy.ops.import_scene.meshspec(filepath=bundle, mesh=name) == {"FINISHED"}
        body = [o for o in bpy.data.objects if o.get("meshspec_source") == bundle][0]
        bpy.context.view_layer.objects.active = body
        same = os.path.join(out, "real-unedited.unity-bundle")
        assert bpy.ops.export_scene.meshspec(filepath=same) == {"FINISHED"}
        assert sha(same) == real_before, "an unedited round trip of the real bundle changed it"
        body.data.vertices[0].co.x += 0.5
        bpy.context.view_layer.objects.active = body
        assert bpy.ops.export_scene.meshspec(filepath=os.path.join(out, "real-edited.unity-bundle")) == {"FINISHED"}
        print("meshspec real path id: " + body["meshspec_path_id"])

    # A .meshbin (no winding recorded: the Direct3D build's).
    cube = os.path.join(repo, "corpus", "meshbin", "cube.meshbin")
    assert bpy.ops.import_scene.meshspec(filepath=cube, winding="d3d") == {"FINISHED"}
    o = [o for o in bpy.data.objects if o.get("meshspec_source") == cube][0]
    bpy.context.view_layer.objects.active = o
    back = os.path.join(out, "cube.meshbin")
    assert bpy.ops.export_scene.meshspec(filepath=back) == {"FINISHED"}
    subprocess.run([meshspec, "check", "meshbin", back], check=True, capture_output=True)
    n = lambda p: len(positions(p, "export", "meshbin", p, "--winding", "d3d"))
    assert n(back) == n(cube), (n(back), n(cube))
    print("meshspec add-on round trip: ok")


try:
    main()
except Exception:
    traceback.print_exc()
    sys.exit(1)
