#!/usr/bin/env python3
"""The meshes of Unity files as UnityPy 1.25.4 decodes them: a second opinion that
tests/unity_real.rs compares meshspec with, run by the test itself.

    python3 tools/unitypy-meshes.py FILE...

Prints one JSON object: per file, whether UnityPy opens it (and why not), and per Mesh object
its path id, the serialized file it is in, its name, whether UnityPy decodes it, its vertex count, its positions (x, y, z per
vertex, in Unity's frame) and per submesh its triangles (as UnityPy's MeshHandler gives them).
"""
import json
import sys

import UnityPy
from UnityPy.helpers.MeshHelper import MeshHandler


def meshes(path):
    try:
        env = UnityPy.load(path)
    except Exception as e:  # noqa: BLE001 - a second opinion, not the truth
        return {"opened": False, "error": repr(e)[:200], "meshes": []}
    out = []
    for obj in env.objects:
        if obj.type.name != "Mesh":
            continue
        rec = {"path_id": obj.path_id, "file": obj.assets_file.name, "name": None, "decoded": False}
        try:
            m = obj.read()
            rec["name"] = m.m_Name
            h = MeshHandler(m)
            h.process()
            positions = [list(v)[:3] for v in (h.m_Vertices or [])]
            rec["vertex_count"] = len(positions)
            rec["positions"] = [x for p in positions for x in p]
            rec["triangles"] = [[list(t) for t in sub] for sub in h.get_triangles()]
            rec["decoded"] = len(positions) > 0
        except Exception as e:  # noqa: BLE001
            rec["error"] = repr(e)[:200]
        out.append(rec)
    return {"opened": True, "meshes": out}


if __name__ == "__main__":
    print(json.dumps({p: meshes(p) for p in sys.argv[1:]}))
