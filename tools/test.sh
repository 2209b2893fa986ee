#!/usr/bin/env bash
# The test command (README): installs what the tests read with (tools/setup.sh), then runs every
# test: the workspace's, and the Python package's against the command line the workspace built.
# Tests over ../shared (the real-file corpus beside the checkout) say SKIPPED, loudly, when it is
# missing; no other test skips.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cargo test --workspace
.venv/bin/python -m pytest python/tests -q
