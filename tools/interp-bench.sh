#!/usr/bin/env bash
# The spec read at run time beside its baselines, whole processes in paired rounds (tools/pairs.py):
# `cat` of the helix (the least a process that reads the file costs), `meshspec check` with the
# generated reader, `meshspec check` with spec/meshbin.ksy interpreted (a copy with one comment
# added, so it is not the project's own spec byte for byte and the generated code is not used),
# and Kaitai's Python parser compiled from the same spec reading the same file.
# Needs: tools/setup.sh (Kaitai's compiler from npm, kaitaistruct in .venv) and a release build.
# Usage: tools/interp-bench.sh [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-20}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
helix="$root/corpus/meshbin/helix.meshbin"
(cd "$root" && cargo build -q --release -p meshspec-cli)
node -e "
const ksc = require('$root/tools/node_modules/kaitai-struct-compiler');
const yaml = require('$root/tools/node_modules/js-yaml');
const fs = require('fs');
(async () => {
  const files = await ksc.compile('python', yaml.load(fs.readFileSync('$root/spec/meshbin.ksy', 'utf8')), null, false);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync('$out/' + name, text);
})();"
cat > "$out/parse.py" <<'PY'
import sys
from kaitaistruct import KaitaiStream, BytesIO
import meshbin
m = meshbin.Meshbin(KaitaiStream(BytesIO(open(sys.argv[1], "rb").read())))
assert len(m.vertices) > 0
PY
{ cat "$root/spec/meshbin.ksy"; echo "# a copy: read by the interpreter"; } > "$out/meshbin.ksy"
"$root/target/release/meshspec" check "$out/meshbin.ksy" "$helix" >/dev/null
python="$root/.venv/bin/python"
[ -x "$python" ] || python=python3
python3 "$root/tools/pairs.py" "$rounds" \
  "cat $helix" \
  "$root/target/release/meshspec check meshbin $helix" \
  "$root/target/release/meshspec check $out/meshbin.ksy $helix" \
  "PYTHONPATH=$out $python $out/parse.py $helix"
