#!/usr/bin/env bash
# A gallery spec meshspec has never had (Kaitai's media/stl.ksy, ../shared/kaitai) on a
# 25,000-triangle binary STL, whole processes in paired rounds (tools/pairs.py): `cat` of the
# file, `meshspec check stl.ksy FILE` (the spec interpreted at run time) and Kaitai's Python
# parser compiled from the same spec. The generated reader of the same spec and Kaitai's Rust
# parser are in-process, in `cd bench && cargo bench -- peers-gallery-stl`.
# Needs: tools/setup.sh (Kaitai's compiler from npm, kaitaistruct in .venv), ../shared, a
# release build. Usage: tools/gallery-bench.sh [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-20}"
spec="$root/../shared/kaitai/gallery/media/stl.ksy"
[ -f "$spec" ] || { echo "error: $spec is missing (../shared beside the checkout)" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd "$root" && cargo build -q --release -p meshspec-cli)
node -e "
const ksc = require('$root/tools/node_modules/kaitai-struct-compiler');
const yaml = require('$root/tools/node_modules/js-yaml');
const fs = require('fs');
(async () => {
  const files = await ksc.compile('python', yaml.load(fs.readFileSync('$spec', 'utf8')), null, false);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync('$out/' + name, text);
})();"
python3 - "$out/helix.stl" <<'PY'
import math, struct, sys
n = 25000
with open(sys.argv[1], "wb") as f:
    f.write(b" " * 80 + struct.pack("<I", n))
    p = lambda k, up: (math.cos(k * 0.01), math.sin(k * 0.01), k * 0.001 + up)
    for i in range(n):
        a, c = p(i // 2, 0.0), p(i // 2 + 1, 0.0)
        tri = (a, c, p(i // 2, 1.0)) if i % 2 == 0 else (c, p(i // 2 + 1, 1.0), p(i // 2, 1.0))
        f.write(struct.pack("<12fH", a[0], a[1], 0.0, *tri[0], *tri[1], *tri[2], 0))
PY
cat > "$out/parse.py" <<'PY'
import sys
from kaitaistruct import KaitaiStream, BytesIO
import stl
m = stl.Stl(KaitaiStream(BytesIO(open(sys.argv[1], "rb").read())))
assert len(m.triangles) == 25000
PY
file="$out/helix.stl"
"$root/target/release/meshspec" check "$spec" "$file" >/dev/null
python="$root/.venv/bin/python"
[ -x "$python" ] || python=python3
python3 "$root/tools/pairs.py" "$rounds" \
  "cat $file" \
  "$root/target/release/meshspec check $spec $file" \
  "PYTHONPATH=$out $python $out/parse.py $file"
