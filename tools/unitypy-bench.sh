#!/usr/bin/env bash
# meshspec beside UnityPy on the same Unity bundles: open each bundle, find every Mesh and decode
# it (UnityPy: obj.read() and MeshHandler.process(); meshspec: GameFiles::mesh and ::scene, which
# also names joints and materials from the renderers). Prints each tool's median pass and the
# ratio. Needs: pip install UnityPy==1.25.4 (PYTHON names the interpreter, python3 by default).
# Usage: tools/unitypy-bench.sh [FILE...]   (default: the five bundles of ../shared/corpus/unity)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
runs="${RUNS:-7}"
if [ "$#" -eq 0 ]; then
  set -- "$root"/../shared/corpus/unity/bundles/*/assetbundle
fi
unitypy=$("$python" - "$runs" "$@" <<'PY'
import sys, time
import UnityPy
from UnityPy.helpers.MeshHelper import MeshHandler
runs, files = int(sys.argv[1]), sys.argv[2:]
def one_pass():
    n = 0
    for f in files:
        env = UnityPy.load(f)
        for obj in env.objects:
            if obj.type.name == "Mesh":
                h = MeshHandler(obj.read())
                h.process()
                n += 1
    return n
times = []
for _ in range(runs):
    t = time.perf_counter()
    n = one_pass()
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print(f"{times[len(times) // 2]:.1f} {n}")
PY
)
read -r unitypy_ms unitypy_meshes <<<"$unitypy"
echo "UnityPy $(python3 -c 'import UnityPy; print(UnityPy.__version__)' 2>/dev/null || "$python" -c 'import UnityPy; print(UnityPy.__version__)'): $# files, $unitypy_meshes meshes decoded: median $unitypy_ms ms of $runs passes"
cargo build --quiet --release -p meshspec-formats --example unity_pass --manifest-path "$root/Cargo.toml"
bin="$root/target/release/examples/unity_pass"
for mode in "" "--threads"; do
  line=$("$bin" --runs "$runs" $mode "$@")
  echo "$line"
  ms=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$line")
  "$python" -c "print(f'  ratio: UnityPy takes {float($unitypy_ms) / float($ms):.1f} times as long')"
done
