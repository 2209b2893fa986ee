#!/bin/sh
# Packs the add-on as the zip Blender installs (Edit > Preferences > Add-ons > Install...):
#   blender/build.sh [OUT.zip]      (default: target/meshspec_blender.zip)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/target/meshspec_blender.zip}
mkdir -p "$(dirname "$out")"
python3 - "$root/blender" "$out" <<'PY'
import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for d, _, files in os.walk(os.path.join(src, "meshspec_blender")):
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(d, f)
                z.write(p, os.path.relpath(p, src))
PY
echo "$out"
