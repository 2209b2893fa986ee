#!/usr/bin/env bash
# The "another tool" baseline for formats/benches/meshbin.rs: Kaitai Struct's own Python parser,
# compiled from the same spec/meshbin.ksy, reading the same helix. Prints the median of 7 runs.
# Needs: npm ci --prefix tools; pip install kaitaistruct==0.11
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mktemp -d)"
node -e "
const ksc = require('$root/tools/node_modules/kaitai-struct-compiler');
const yaml = require('$root/tools/node_modules/js-yaml');
const fs = require('fs');
(async () => {
  const files = await ksc.compile('python', yaml.load(fs.readFileSync('$root/spec/meshbin.ksy', 'utf8')), null, false);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync('$out/' + name, text);
})();"
cd "$out"
python3 - "$root/corpus/meshbin/helix.meshbin" <<'PY'
import sys, timeit
from kaitaistruct import KaitaiStream, BytesIO
import meshbin
data = open(sys.argv[1], 'rb').read()
def run():
    m = meshbin.Meshbin(KaitaiStream(BytesIO(data)))
    assert len(m.vertices) == 65508
times = sorted(timeit.repeat(run, number=1, repeat=7))
print(f"kaitai python, helix.meshbin ({len(data)} bytes): median {times[3] * 1000:.1f} ms")
PY
