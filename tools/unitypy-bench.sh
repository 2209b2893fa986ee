#!/usr/bin/env bash
# meshspec beside UnityPy on the same Unity bundles: open each bundle, find every Mesh and decode
# it (UnityPy: obj.read() and MeshHandler.process(); meshspec: GameFiles::mesh and ::scene, which
# also names joints and materials from the renderers). Prints each tool's median pass and the
# ratio. Needs: pip install UnityPy==1.25.4 (PYTHON names the interpreter, python3 by default).
# The floor both share: decompressing the bundles (liblzma in both, through Python's lzma module in
# UnityPy), timed alone for each; the rest is each tool's own work.
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
import struct
from UnityPy.helpers import CompressionHelper
def decompress_pass():
    # The blocks info and every block decompressed with UnityPy's own helpers (the header
    # parsed here, as UnityPy's read_fs does), nothing else.
    for f in files:
        d = open(f, "rb").read()
        p = d.index(b"\0") + 1
        version = struct.unpack(">I", d[p:p + 4])[0]
        p = d.index(b"\0", d.index(b"\0", p + 4) + 1) + 1
        _, csize, usize, flags = struct.unpack(">qIII", d[p:p + 20])
        p += 20
        if version >= 7:
            p = (p + 15) // 16 * 16
        if flags & 0x80:
            info, blocks_at = d[len(d) - csize:], p
        else:
            info, blocks_at = d[p:p + csize], p + csize
        comp = {0: lambda b, n: b, 1: lambda b, n: CompressionHelper.decompress_lzma(b),
                2: CompressionHelper.decompress_lz4, 3: CompressionHelper.decompress_lz4}
        info = comp[flags & 0x3F](info, usize)
        if flags & 0x200:
            blocks_at = (blocks_at + 15) // 16 * 16
        (n,) = struct.unpack(">i", info[16:20])
        for k in range(n):
            un, cn, fl = struct.unpack(">IIH", info[20 + 10 * k:30 + 10 * k])
            comp[fl & 0x3F](d[blocks_at:blocks_at + cn], un)
            blocks_at += cn
def median(fn):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[len(times) // 2], out
ms, n = median(one_pass)
floor, _ = median(decompress_pass)
print(f"{ms:.1f} {n} {floor:.1f}")
PY
)
read -r unitypy_ms unitypy_meshes unitypy_floor <<<"$unitypy"
version=$("$python" -c 'import UnityPy; print(UnityPy.__version__)')
echo "UnityPy $version: $# files, $unitypy_meshes meshes decoded: median $unitypy_ms ms of $runs passes"
echo "UnityPy $version, opening the bundles only (decompression): median $unitypy_floor ms"
cargo build --quiet --release -p meshspec-formats --example unity_pass --manifest-path "$root/Cargo.toml"
bin="$root/target/release/examples/unity_pass"
floor_line=$("$bin" --runs "$runs" --decompress-only "$@")
echo "$floor_line"
floor=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$floor_line")
for mode in "" "--threads"; do
  line=$("$bin" --runs "$runs" $mode "$@")
  echo "$line"
  ms=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$line")
  "$python" -c "
u, m, uf, f = float($unitypy_ms), float($ms), float($unitypy_floor), float($floor)
beyond = m - f
if beyond > 0.02 * m:
    print(f'  ratio: UnityPy takes {u / m:.1f} times as long; beyond decompressing, {(u - uf) / beyond:.0f} times')
else:
    # Two medians of separate runs cannot resolve work this small: the criterion benchmark
    # (formats/benches/unity_files.rs, \"files open\") times it alone.
    print(f'  ratio: UnityPy takes {u / m:.1f} times as long; beyond decompressing, UnityPy spends {u - uf:.0f} ms and meshspec less than the noise of its decompression ({abs(beyond):.1f} ms); cargo bench --bench unity_files times that part alone')"
done
