#!/usr/bin/env python3
"""Lists every object of the shared corpus's Unity files as UnityPy 1.25.4 reads them (path id,
class id, byte size, and the name UnityPy peeks, one row per object), into
tests/data/unitypy-objects.json:
a second opinion that tests/unity_files.rs compares meshspec's listing with.

    pip install UnityPy==1.25.4
    python3 tools/unitypy-objects.py ../shared/corpus/unity > tests/data/unitypy-objects.json
"""
import json
import os
import sys

import UnityPy


def main(root):
    files = sorted(
        [os.path.join("bundles", v, "assetbundle") for v in os.listdir(os.path.join(root, "bundles"))]
        + [os.path.join("player", v, "level0") for v in os.listdir(os.path.join(root, "player"))]
    )
    out = {}
    for rel in files:
        env = UnityPy.load(os.path.join(root, rel))
        rows = []
        for obj in env.objects:
            try:
                name = obj.peek_name()
            except Exception:  # noqa: BLE001 - a second opinion, not the truth
                name = None
            rows.append([obj.path_id, obj.class_id, obj.byte_size, name])
        out[rel] = rows
    # One row per line: [path_id, class_id, byte_size, name].
    print("{")
    for i, rel in enumerate(sorted(out)):
        print(f"  {json.dumps(rel)}: [")
        rows = out[rel]
        for j, row in enumerate(rows):
            print("    " + json.dumps(row) + ("," if j + 1 < len(rows) else ""))
        print("  ]" + ("," if i + 1 < len(out) else ""))
    print("}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus/unity")
