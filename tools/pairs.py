"""Whole-process times of commands run in turn, as paired rounds: each round runs every command
once, so a change in the machine's load hits all of them; each command's ratio is the median of
its rounds' ratios to the first command's (with the quartiles).

Usage: python3 tools/pairs.py ROUNDS "BASELINE COMMAND" "COMMAND" ...
e.g.   python3 tools/pairs.py 60 "cat b.bundle" "target/release/meshspec unity list b.bundle"
A command may start with NAME=VALUE words: they are set in its environment.
"""
import os
import statistics
import subprocess
import sys
import time


def run(words):
    env, argv = dict(os.environ), []
    for w in words:
        if not argv and "=" in w:
            k, v = w.split("=", 1)
            env[k] = v
        else:
            argv.append(w)
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - t


def main():
    rounds, commands = int(sys.argv[1]), [c.split() for c in sys.argv[2:]]
    times = [[] for _ in commands]
    for _ in range(rounds):
        for i, c in enumerate(commands):
            times[i].append(run(c))
    for c, ts in zip(commands, times):
        r = [a / b for a, b in zip(ts, times[0])]
        q = statistics.quantiles(r, n=4)
        print(f"{' '.join(c)}: median {statistics.median(ts) * 1000:.2f} ms, "
              f"{statistics.median(r):.2f}x the first (quartiles {q[0]:.2f}-{q[2]:.2f}x, {rounds} rounds)")


if __name__ == "__main__":
    main()
