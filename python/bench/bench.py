"""Two ratios in one run (medians of several rounds):

1. Every mesh of the shared bundles (../shared/corpus/unity/bundles) decoded to numpy arrays
   in-process: meshspec.unity.open(...).meshes() against UnityPy doing the same (positions,
   normals, UVs and indices of every Mesh object as numpy arrays) in the same process.
2. meshspec.check over every file of corpus/sws (the Python call, its dicts included) against
   the Rust library's own verdict on the same bytes, timed inside Rust without Python in the
   loop (meshspec._native._judge_seconds: Entry::judge and the findings' report, as check).

Run: python python/bench/bench.py
"""

import pathlib
import platform
import statistics
import time

import numpy as np

import meshspec
from meshspec import _native

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLES = sorted((ROOT.parent / "shared" / "corpus" / "unity" / "bundles").glob("*/assetbundle"))


def median_seconds(f, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def meshspec_meshes(opened=None):
    n = 0
    for g in opened or [meshspec.unity.open(b) for b in BUNDLES]:
        for m in g.meshes():
            n += len(m.positions)
    return n


def unitypy_meshes(envs=None):
    import UnityPy
    n = 0
    for env in envs or [UnityPy.load(str(b)) for b in BUNDLES]:
        for obj in env.objects:
            if obj.type.name != "Mesh":
                continue
            mesh = obj.read()
            # UnityPy's own decoder (MeshHelper), then arrays as meshspec gives them.
            from UnityPy.helpers.MeshHelper import MeshHandler
            h = MeshHandler(mesh)
            h.process()
            pos = np.asarray(h.m_Vertices, dtype=np.float32).reshape(-1, 3)
            if h.m_Normals:
                np.asarray(h.m_Normals, dtype=np.float32)
            if h.m_UV0:
                np.asarray(h.m_UV0, dtype=np.float32)
            for sub in h.get_triangles():
                np.asarray(sub, dtype=np.uint32)
            n += len(pos)
    return n


def sws_inputs():
    ids = {l["id"] for l in meshspec.layouts()}
    out = []
    for p in sorted((ROOT / "corpus" / "sws").rglob("*")):
        ext = p.name.split(".", 1)[-1]
        if p.is_file() and ext in ids:
            out.append((ext, p.read_bytes()))
    return out


def main():
    print(f"machine: {platform.machine()}, {platform.processor() or platform.platform()}, "
          f"python {platform.python_version()}, numpy {np.__version__}")
    if BUNDLES:
        ours = meshspec_meshes()
        try:
            theirs = unitypy_meshes()
        except Exception as e:  # noqa: BLE001
            print(f"UnityPy could not decode the bundles: {e!r}")
            theirs = None
        import UnityPy
        opened = [meshspec.unity.open(b) for b in BUNDLES]
        envs = [UnityPy.load(str(b)) for b in BUNDLES]
        # Paired rounds, meshspec then UnityPy back to back (a change in the machine's load hits
        # both); the ratio is the median of the pairs' ratios.
        pairs = [(median_seconds(lambda: meshspec_meshes(opened), 5), median_seconds(lambda: unitypy_meshes(envs), 1))
                 for _ in range(15)] if theirs is not None else []
        a = statistics.median(p for p, _ in pairs) if pairs else median_seconds(lambda: meshspec_meshes(opened), 9)
        a_all = median_seconds(meshspec_meshes, 5)
        print(f"every mesh of {len(BUNDLES)} bundles to numpy ({ours} vertices): meshspec "
              f"{a * 1e3:.1f} ms decoding the opened files, {a_all * 1e3:.1f} ms with opening them")
        if theirs is not None:
            b = statistics.median(q for _, q in pairs)
            ratio = statistics.median(q / p for p, q in pairs)
            b_all = median_seconds(unitypy_meshes, 3)
            print(f"  UnityPy {b * 1e3:.1f} ms decoding, {b_all * 1e3:.1f} ms with loading: meshspec is "
                  f"{ratio:.1f}x faster decoding (median of {len(pairs)} paired rounds; goal >= 20x), "
                  f"{b_all / a_all:.1f}x with opening "
                  "(LZMA decompression, the same C library on both sides, dominates)")
    else:
        print("SKIPPED: ../shared/corpus/unity/bundles is missing")
    inputs = sws_inputs()
    rounds = 200

    def py_check():
        for layout, data in inputs:
            meshspec.check(layout, data)

    for _ in range(20):
        py_check()
    # Paired rounds, Python then Rust back to back, so a change in the machine's load hits both.
    n = rounds // 20
    pairs = [(median_seconds(py_check, n), _native._judge_seconds(inputs, n) / n) for _ in range(15)]
    py = statistics.median(p for p, _ in pairs)
    rust = statistics.median(r for _, r in pairs)
    ratio = statistics.median(p / r for p, r in pairs)
    print(f"check over corpus/sws ({len(inputs)} files): Python {py * 1e6:.0f} us, Rust {rust * 1e6:.0f} us a pass: "
          f"{ratio:.2f}x the Rust library's own (median of {len(pairs)} paired rounds; goal <= 1.3x)")


if __name__ == "__main__":
    main()
