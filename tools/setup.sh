#!/usr/bin/env bash
# Installs everything the tests read with, so that `cargo test --workspace` and the Python
# package's tests run whole on a fresh machine (tools/test.sh runs this first):
#   - Kaitai's compiler and Khronos' glTF-Validator (npm, into tools/node_modules);
#   - .venv/, the checkout's own Python: tools/requirements.txt and the meshspec package built
#     from python/ (a release build of the extension, a few minutes the first time);
#   - Debian's blender, python3-numpy (its glTF importer) and chromium, through apt-get when
#     run as root; otherwise one line says what to install, and the tests that use them fail.
# Run it again at any time: what is there already is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

npm ci --prefix tools --no-audit --no-fund

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r tools/requirements.txt
.venv/bin/python -m pip install --quiet --disable-pip-version-check ./python

missing=()
command -v blender >/dev/null || missing+=(blender)
dpkg -s python3-numpy >/dev/null 2>&1 || missing+=(python3-numpy)
command -v chromium >/dev/null || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "!!! not installed: ${missing[*]} (as root: apt-get install ${missing[*]}); the tests of the Blender add-on and of explain --html fail until they are" >&2
  fi
fi
