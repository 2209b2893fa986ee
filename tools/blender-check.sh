#!/bin/sh
# Exports every corpus file with geometry (the repository's corpus and, when it is beside the
# checkout, the shared Unity meshes) as .glb with the meshspec command line, then imports each
# headless in Blender (tools/blender-check.py) and prints the comparison table.
#
#   tools/blender-check.sh [OUT_DIR]       # needs `blender` (Debian: blender, python3-numpy)
#
# Exports go to OUT_DIR (default: a new temporary folder); nothing else is written.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v blender >/dev/null 2>&1; then
    echo "blender is not installed (Debian: apt-get install blender python3-numpy); nothing checked" >&2
    exit 0
fi
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/meshspec-blender.XXXXXX")}
mkdir -p "$out"
cargo build -q -p meshspec-cli --manifest-path "$root/Cargo.toml"
meshspec="$root/target/debug/meshspec"

for f in "$root"/corpus/*/*.*; do
    case "$f" in */README.md | */make.py) continue ;; esac
    layout=${f##*.}
    family=$(basename "$(dirname "$f")")
    name="$family-$(basename "$f")"
    # Layouts whose geometry is not established refuse to export and say why: skipped here.
    "$meshspec" export "$layout" "$f" -o "$out/$name.glb" --winding d3d 2>/dev/null || true
done
unity="$root/../shared/corpus/unity/meshes"
if [ -d "$unity" ]; then
    for f in "$unity"/*/*.mesh; do
        version=$(basename "$(dirname "$f")")
        "$meshspec" export unity-mesh "$f" --unity-version auto -o "$out/unity-$version-$(basename "$f" .mesh).glb" 2>/dev/null
    done
else
    echo "SKIPPED the shared Unity meshes: $unity is missing" >&2
fi
# The export findings (tests/regressions/ and ../shared/findings/robustness/), non-finite
# values written as 0.
for f in "$root"/tests/regressions/*.sws-*; do
    "$meshspec" export "${f##*.}" "$f" --non-finite zero -o "$out/finding-$(basename "$f").glb" 2>/dev/null
done
findings="$root/../shared/findings/robustness"
if [ -d "$findings" ]; then
    for spec in unity-bindpose-nan:2022.1.20f1 unity-normal-huge:2022.1.20f1 \
        unity-zero-weights:2023.1.0a16 unity-name-newline:2021.3.0f1; do
        name=${spec%%:*}
        version=${spec#*:}
        "$meshspec" export unity-mesh "$findings/$name.mesh" --unity-version "$version" \
            --ress "$unity/$version/CAB-5d40f7cad7c871cf2ad2af19ac542994.resS" \
            --non-finite zero -o "$out/finding-$name.glb" 2>/dev/null
    done
fi

rc=0
blender -b --factory-startup --python-exit-code 1 --python "$root/tools/blender-check.py" \
    -- "$out"/*.glb >"$out/blender.log" 2>&1 || rc=$?
# Blender's importer chatters on the same output: keep the table and its summary.
grep -E '^\||^[0-9]+ files, ' "$out/blender.log"
[ "$rc" = 0 ] || echo "blender exited $rc (its whole output: $out/blender.log)" >&2
exit "$rc"
