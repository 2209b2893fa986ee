"""What the tests share: the repository's corpus, the command line built from the same
library (the second opinion every test compares with), the shared folder's real Unity files,
and a reader of the .glb files the command line exports."""

import json
import os
import pathlib
import struct
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
SHARED = ROOT.parent / "shared" / "corpus" / "unity"
LAYOUT_IDS = None


def cli_binary() -> pathlib.Path:
    exe = ROOT / "target" / "debug" / "meshspec"
    if not exe.exists():
        subprocess.run(["cargo", "build", "-q", "-p", "meshspec-cli"], cwd=ROOT, check=True)
    return exe


def cli(*args, ok_codes=(0, 1)):
    """Runs the command line from the repository's root; its standard output and exit code."""
    p = subprocess.run([str(cli_binary()), *map(str, args)], cwd=ROOT, capture_output=True)
    assert p.returncode in ok_codes, (args, p.returncode, p.stderr.decode())
    return p.stdout, p.returncode


def cli_json(*args, ok_codes=(0, 1)):
    out, code = cli(*args, ok_codes=ok_codes)
    return json.loads(out), code


def layout_ids():
    import meshspec
    return {l["id"] for l in meshspec.layouts()}


def corpus_files(bad=True):
    """(layout, path relative to the root) of every shipped file whose extension is a layout
    id, the bad samples included."""
    ids = layout_ids()
    out = []
    for p in sorted(CORPUS.rglob("*")):
        if not p.is_file():
            continue
        ext = p.name.split(".", 1)[1] if "." in p.name else ""
        if ext in ids and (bad or p.parent.name != "bad"):
            out.append((ext, p.relative_to(ROOT)))
    assert len(out) > 50, "the corpus is missing"
    return out


def shared_or_skip():
    if not SHARED.is_dir():
        print("\n!!! SKIPPED: ../shared/corpus/unity is missing: the real Unity files are not tested")
        pytest.skip("../shared/corpus/unity is missing")
    return SHARED


def hexed(v):
    """A Python dump as the JSON dump writes it: bytes as hex."""
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {k: hexed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [hexed(x) for x in v]
    return v


def same_values(a, b, at="data"):
    """Equal dumps: floats compared at float32 (the JSON text rounds them), everything else
    exactly."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), at
        assert np.float32(a) == np.float32(b) or a == b, (at, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), (at, list(a), list(b) if isinstance(b, dict) else b)
        for k in a:
            same_values(a[k], b[k], f"{at}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (at, len(a), b if not isinstance(b, list) else len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            same_values(x, y, f"{at}[{i}]")
    else:
        assert a == b and type(a) is type(b), (at, a, b)


_COMPONENTS = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32, 5126: np.float32, 5120: np.int8, 5122: np.int16}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(path):
    """The meshes of a .glb, parsed from its JSON and BIN chunks: per mesh its name and, per
    primitive, positions (n, 3) and indices."""
    data = pathlib.Path(path).read_bytes()
    magic, _, _ = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67
    jlen, _ = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + jlen])
    blen, _ = struct.unpack_from("<II", data, 20 + jlen)
    binary = data[28 + jlen:28 + jlen + blen]

    def accessor(i):
        a = doc["accessors"][i]
        v = doc["bufferViews"][a["bufferView"]]
        dt = np.dtype(_COMPONENTS[a["componentType"]])
        w = _WIDTH[a["type"]]
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        arr = np.frombuffer(binary, dtype=dt, count=a["count"] * w, offset=start)
        return arr.reshape(a["count"], w) if w > 1 else arr

    out = []
    for m in doc.get("meshes", []):
        prims = []
        for p in m["primitives"]:
            prims.append({
                "positions": accessor(p["attributes"]["POSITION"]),
                "indices": accessor(p["indices"]).astype(np.uint32),
                "mode": p.get("mode", 4),
            })
        out.append({"name": m.get("name"), "primitives": prims})
    return out
