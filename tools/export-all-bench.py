"""`meshspec unity export FILE --all` (the whole process) beside UnityPy loading the same file,
decoding every Mesh and writing each as OBJ (`Mesh.export()`, UnityPy's own writer), in
paired rounds: each round runs both, one after the other, so a change in the machine's load
hits both; the ratio is the median of the rounds' ratios (with the quartiles).

Usage: python3 tools/export-all-bench.py MESHSPEC FILE... [--rounds N]
       python3 tools/export-all-bench.py --repack BUNDLE OUT_DIR   (OUT_DIR/stored.bundle and
       OUT_DIR/lz4.bundle: BUNDLE's files written again by UnityPy without compression and in
       LZ4 blocks, the two forms the measurements in docs/performance.md use)
Needs UnityPy (pip install UnityPy==1.25.4).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import UnityPy


def unitypy_pass(path, out):
    env = UnityPy.load(path)
    n = 0
    for obj in env.objects:
        if obj.type.name != "Mesh":
            continue
        mesh = obj.read()
        with open(os.path.join(out, f"{obj.path_id}.obj"), "w") as f:
            f.write(mesh.export())
        n += 1
    return n


def meshspec_pass(exe, path, out):
    subprocess.run(
        [exe, "unity", "export", path, "--all", "-o", out, "-q"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def repack(bundle, out):
    os.makedirs(out, exist_ok=True)
    for packer, name in (("none", "stored.bundle"), ("lz4", "lz4.bundle")):
        env = UnityPy.load(bundle)
        with open(os.path.join(out, name), "wb") as f:
            f.write(env.file.save(packer=packer))


def main():
    args = sys.argv[1:]
    if args[:1] == ["--repack"]:
        repack(args[1], args[2])
        return
    rounds = 15
    if "--rounds" in args:
        k = args.index("--rounds")
        rounds = int(args[k + 1])
        del args[k : k + 2]
    exe, files = args[0], args[1:]
    for path in files:
        ratios, ours, theirs = [], [], []
        for _ in range(rounds):
            a, b = tempfile.mkdtemp(), tempfile.mkdtemp()
            t = time.perf_counter()
            meshspec_pass(exe, path, a)
            m = time.perf_counter() - t
            t = time.perf_counter()
            n = unitypy_pass(path, b)
            u = time.perf_counter() - t
            shutil.rmtree(a)
            shutil.rmtree(b)
            ours.append(m)
            theirs.append(u)
            ratios.append(u / m)
        q = statistics.quantiles(ratios, n=4)
        print(
            f"{os.path.basename(path)} ({os.path.getsize(path)} bytes, {n} meshes): meshspec "
            f"{statistics.median(ours) * 1e3:.1f} ms (whole process), UnityPy "
            f"{statistics.median(theirs) * 1e3:.1f} ms (in process): {statistics.median(ratios):.1f}x "
            f"(quartiles {q[0]:.1f}-{q[2]:.1f}x, {rounds} paired rounds)"
        )


if __name__ == "__main__":
    main()
