"""meshspec in Blender: import a mesh from a game file (or a bare object) and write it back.

Both operators call the `meshspec` command line (found on PATH, at the path in the add-on's
preferences, or in the MESHSPEC environment variable) and go through the same commands a user
runs in a terminal: `unity export` / `export` to glTF for the import, and `import --like` plus
`unity replace` (or `import` for a .meshbin) for the way back. Nothing is decoded or encoded here:
the command line is the one reader and writer, and its error and note lines are shown in
Blender's report.
"""

bl_info = {
    "name": "meshspec",
    "author": "meshspec",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > meshspec",
    "description": "Import game meshes through meshspec and write edited ones back into a copy of their file",
    "category": "Import-Export",
}

import json
import os
import shutil
import subprocess
import tempfile

import bpy
from bpy.props import EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

# Where an imported object came from, kept on the object (custom properties survive a save).
SOURCE = "meshspec_source"
LAYOUT = "meshspec_layout"
PATH_ID = "meshspec_path_id"
WINDING = "meshspec_winding"
GAME = "game"


def meshspec_command(context=None):
    """The meshspec executable: the add-on's preference, then MESHSPEC, then PATH."""
    path = ""
    if context is not None:
        addon = context.preferences.addons.get(__name__)
        if addon is not None:
            path = addon.preferences.meshspec_path
    path = path or os.environ.get("MESHSPEC", "") or shutil.which("meshspec") or ""
    if not path:
        raise MeshspecError(["meshspec was not found: set its path in the add-on's preferences or put it on PATH"])
    return path


class MeshspecError(Exception):
    """A meshspec command that failed, with the lines it printed."""

    def __init__(self, lines):
        super().__init__("\n".join(lines))
        self.lines = lines


def run(context, args):
    """Runs meshspec with `args`; its standard output, and its stderr lines (notes, warnings)."""
    exe = meshspec_command(context)
    p = subprocess.run([exe, "--color", "never", *args], capture_output=True, text=True)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 0:
        raise MeshspecError(lines or [f"meshspec {args[0]} failed with exit code {p.returncode}"])
    return p.stdout, lines


def report_lines(op, lines):
    for l in lines:
        kind = {"error": "ERROR", "warning": "WARNING"}.get(l.split(":", 1)[0], "INFO")
        op.report({kind}, l)


def is_game_file(context, path):
    """Whether meshspec opens `path` as a Unity game file (a bundle, a serialized file)."""
    try:
        run(context, ["unity", "list", path, "--class", "Mesh", "--json"])
        return True
    except MeshspecError:
        return False


def game_meshes(context, path):
    """The Mesh objects of a game file: (path id, name)."""
    out, _ = run(context, ["unity", "list", path, "--class", "Mesh", "--json"])
    return [(o["path_id"], o.get("name") or "") for o in json.loads(out) if o.get("class_id") == 43]


# The point attribute that carries each vertex's place in the exported file (plus one) through
# Blender; its exporter writes it as the glTF attribute `_MESHSPEC_VERTEX`, from which
# `meshspec import` puts the vertices back in the file's order.
VERTEX_IDS = "meshspec_vertex"


def glb_places(glb):
    """Per glTF mesh, the file's vertex behind each vertex Blender 3.4's importer makes: each
    primitive's vertices in turn, the ones its indices use, in increasing order (the importer's
    own rule, with vertices not merged). Only the index lists are read."""
    import struct
    import numpy as np

    with open(glb, "rb") as f:
        data = f.read()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20 : 20 + json_len])
    bin_at = 20 + json_len + 8
    sizes = {5121: (np.uint8, 1), 5123: (np.uint16, 2), 5125: (np.uint32, 4)}

    def indices(a):
        acc = doc["accessors"][a]
        view = doc["bufferViews"][acc["bufferView"]]
        dtype, _ = sizes[acc["componentType"]]
        at = bin_at + view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        return np.frombuffer(data, dtype=dtype, count=acc["count"], offset=at).astype(np.int64)

    out = []
    for mesh in doc.get("meshes", []):
        places = []
        for prim in mesh["primitives"]:
            if "indices" in prim:
                used = np.unique(indices(prim["indices"]))
            else:
                used = np.arange(doc["accessors"][prim["attributes"]["POSITION"]]["count"])
            places.append(used)
        out.append(np.concatenate(places) if places else np.zeros(0, dtype=np.int64))
    return out


def record_places(objs, glb):
    """Gives each imported mesh the `meshspec_vertex` attribute (a vertex's place plus one),
    when its vertex count is the one the rule above predicts (else nothing is recorded, and
    meshspec matches vertices by their order)."""
    places = glb_places(glb)
    meshes = [o for o in objs if o.type == "MESH"]
    for o, p in zip(meshes, places):
        if len(o.data.vertices) != len(p) or VERTEX_IDS in o.data.attributes:
            continue
        attr = o.data.attributes.new(VERTEX_IDS, "INT", "POINT")
        attr.data.foreach_set("value", [int(x) + 1 for x in p])


def import_glb(glb):
    """Imports a .glb; the objects it added."""
    before = set(bpy.data.objects)
    # Bones keep the joints' own axes (the importer's "Blender" heuristic), so the armature
    # exports back with the game's bind poses; the other heuristics turn each bone towards
    # its child, and the bind matrices written back would then differ from the game's.
    bpy.ops.import_scene.gltf(filepath=glb, bone_heuristic="BLENDER")
    objs = [o for o in bpy.data.objects if o not in before]
    record_places(objs, glb)
    return objs


def layout_of(path, given):
    if given:
        return given
    ext = os.path.splitext(path)[1].lstrip(".")
    return ext


class MeshspecPreferences(bpy.types.AddonPreferences):
    bl_idname = __name__

    meshspec_path: StringProperty(
        name="meshspec",
        description="The meshspec command line (empty: the one on PATH)",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context):
        self.layout.prop(self, "meshspec_path")


WINDINGS = [("", "As recorded", "The file records its winding"), ("d3d", "Direct3D", ""), ("gl", "OpenGL", "")]


class Reported:
    """An operator whose failures are meshspec's lines in Blender's report."""

    def execute(self, context):
        try:
            return self.run(context)
        except MeshspecError as e:
            report_lines(self, e.lines)
            return {"CANCELLED"}


class IMPORT_SCENE_OT_meshspec(Reported, bpy.types.Operator, ImportHelper):
    """Import a mesh meshspec reads (a Unity game file, a bare object, a .meshbin, an SWS body)"""

    bl_idname = "import_scene.meshspec"
    bl_label = "Import with meshspec"
    bl_options = {"REGISTER", "UNDO"}

    mesh: StringProperty(name="Mesh", description="The mesh's name (empty: every mesh)", default="")
    path_id: StringProperty(name="Path id", description="A Unity object's path id", default="")
    layout: StringProperty(name="Layout", description="The layout id of a bare object (empty: the file's extension)", default="")
    unity_version: StringProperty(name="Unity version", description="For a bare Unity Mesh object", default="")
    winding: EnumProperty(name="Winding", items=WINDINGS, default="")

    def run(self, context):
        path = bpy.path.abspath(self.filepath)
        tmp = tempfile.mkdtemp(prefix="meshspec-blender-")
        try:
            imported = []
            if is_game_file(context, path):
                chosen = game_meshes(context, path)
                if self.path_id:
                    chosen = [(i, n) for i, n in chosen if str(i) == self.path_id]
                elif self.mesh:
                    chosen = [(i, n) for i, n in chosen if n == self.mesh]
                if not chosen:
                    raise MeshspecError([f"error: no Mesh of {path} is the one asked for"])
                for pid, _ in chosen:
                    glb = os.path.join(tmp, f"{pid}.glb")
                    _, lines = run(context, ["unity", "export", path, "--path-id", str(pid), "-o", glb])
                    report_lines(self, lines)
                    objs = import_glb(glb)
                    self.mark(objs, path, GAME, str(pid), "")
                    imported += objs
            else:
                layout = layout_of(path, self.layout)
                glb = os.path.join(tmp, "mesh.glb")
                args = ["export", layout, path, "-o", glb]
                if self.mesh:
                    args += ["--mesh", self.mesh]
                if self.unity_version:
                    args += ["--unity-version", self.unity_version]
                if self.winding:
                    args += ["--winding", self.winding]
                _, lines = run(context, args)
                report_lines(self, lines)
                objs = import_glb(glb)
                self.mark(objs, path, layout, "", self.winding)
                imported += objs
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.report({"INFO"}, f"imported {sum(o.type == 'MESH' for o in imported)} mesh objects from {path}")
        return {"FINISHED"}

    def mark(self, objs, path, layout, path_id, winding):
        for o in objs:
            if o.type != "MESH":
                continue
            o[SOURCE] = path
            o[LAYOUT] = layout
            o[PATH_ID] = path_id
            o[WINDING] = winding


class EXPORT_SCENE_OT_meshspec(Reported, bpy.types.Operator, ExportHelper):
    """Write the active imported mesh back into a copy of the file it came from"""

    bl_idname = "export_scene.meshspec"
    bl_label = "Export with meshspec"
    filename_ext = ""

    def run(self, context):
        obj = context.active_object
        if obj is None or SOURCE not in obj:
            raise MeshspecError(["error: the active object was not imported with meshspec (it records no source file)"])
        source = obj[SOURCE]
        out = bpy.path.abspath(self.filepath)
        if os.path.exists(out) and os.path.samefile(out, source):
            raise MeshspecError([f"error: {out} is the original: meshspec writes a copy, never over it"])
        layout = obj[LAYOUT]
        tmp = tempfile.mkdtemp(prefix="meshspec-blender-")
        try:
            glb = os.path.join(tmp, "edited.glb")
            for o in context.selected_objects:
                o.select_set(False)
            # The mesh with its armature, so its skin goes along.
            for o in [obj] + [m.object for m in obj.modifiers if m.type == "ARMATURE" and m.object]:
                o.select_set(True)
            # Tangents too (a layout with a Tangent channel needs them; one without leaves them
            # out), and the vertices' places (`_MESHSPEC_VERTEX`).
            bpy.ops.export_scene.gltf(
                filepath=glb, export_format="GLB", use_selection=True, export_tangents=True, export_attributes=True
            )
            lines = []
            if layout == GAME:
                made = os.path.join(tmp, "edited.mesh")
                _, l1 = run(context, ["import", "unity-mesh", glb, "--like", source, "--path-id", obj[PATH_ID], "-o", made])
                args = ["unity", "replace", source, "--path-id", obj[PATH_ID], "--object", made, "-o", out]
                vertex = os.path.join(tmp, "edited.vertexdata")
                if os.path.exists(vertex):
                    args += ["--ress", vertex]
                _, l2 = run(context, args)
                lines = l1 + l2
            elif layout == "unity-mesh":
                # A bare object: made like its original, whose version comes from the folder it
                # is in (meshspec says so when none is named after one); streamed vertex data
                # goes beside the copy as OUT.vertexdata.
                _, lines = run(context, ["import", "unity-mesh", glb, "--like", source, "-o", out])
            else:
                args = ["import", layout, glb, "-o", out]
                if obj.get(WINDING):
                    args += ["--winding", obj[WINDING]]
                _, lines = run(context, args)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        report_lines(self, lines)
        self.report({"INFO"}, f"wrote {out}")
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_meshspec.bl_idname, text="meshspec (game meshes)")


def menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_meshspec.bl_idname, text="meshspec (back into the game file)")


CLASSES = (MeshspecPreferences, IMPORT_SCENE_OT_meshspec, EXPORT_SCENE_OT_meshspec)


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
