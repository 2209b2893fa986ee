"""Malformed input: the bad corpus and random mutations of every shipped file raise
meshspec.Error (a ValueError with an offset where the bytes have one), never a crash."""

import random

import pytest

import meshspec
from conftest import ROOT, corpus_files

FILES = corpus_files()
BAD = [(l, p) for l, p in FILES if p.parent.name == "bad"]
OPTS = {"meshbin": {"winding": "d3d"}}


def _every_function(layout, data):
    """Each function on `data`: what it raised (meshspec.Error only), or None."""
    raised = []
    v = meshspec.check(layout, data)
    assert isinstance(v.ok, bool)
    for f in (meshspec.dump, meshspec.explain, lambda l, d: meshspec.meshes(l, d, **OPTS.get(l, {}))):
        try:
            f(layout, data)
        except meshspec.Error as e:
            assert isinstance(e, ValueError) and str(e)
            raised.append(e)
    return v, raised


@pytest.mark.parametrize("layout,path", BAD, ids=[str(p) for _, p in BAD])
def test_the_bad_corpus_is_refused_with_an_offset(layout, path):
    v, raised = _every_function(layout, (ROOT / path).read_bytes())
    failing = [f for f in v.findings if f["severity"] == "error"]
    if not v.ok:
        assert failing and all(f["offset"] is not None or f["path"] for f in failing)
        # meshes decodes only what passes: refused with the verdict's first error.
        try:
            meshspec.meshes(layout, ROOT / path, **OPTS.get(layout, {}))
            raise AssertionError("meshes decoded a file that fails check")
        except meshspec.Error as e:
            assert e.offset is not None or e.path is not None
        except ValueError:
            pass  # a layout without geometry


def test_random_mutations_raise_meshspec_errors_never_crash():
    rng = random.Random(27)
    small = [(l, p) for l, p in FILES if (ROOT / p).stat().st_size < 64 * 1024]
    with_offset = 0
    refusals = 0
    for _ in range(400):
        layout, path = rng.choice(small)
        data = bytearray((ROOT / path).read_bytes())
        kind = rng.randrange(3)
        if kind == 0 and len(data) > 1:
            data = data[: rng.randrange(len(data))]
        elif kind == 1 and data:
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        else:
            at = rng.randrange(len(data) + 1)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        try:
            _, raised = _every_function(layout, bytes(data))
        except ValueError as e:
            # a usage mistake would be a bug of this test
            assert isinstance(e, meshspec.Error), e
            raise
        refusals += len(raised)
        with_offset += sum(e.offset is not None for e in raised)
    assert refusals > 100
    # Structure errors name where they are in the bytes.
    assert with_offset > refusals // 2, (with_offset, refusals)


def test_errors_carry_the_message_keys():
    with pytest.raises(meshspec.Error) as e:
        meshspec.dump("meshbin", b"\x05\x00\x03\x00")
    err = e.value
    assert isinstance(err, ValueError)
    assert err.offset == 4 and err.path.startswith("meshbin.")
    assert err.expected and err.found and err.finding["text"] == str(err)


def test_usage_mistakes_are_plain_value_errors():
    with pytest.raises(ValueError, match="unknown layout"):
        meshspec.check("no-such-layout", b"")
    with pytest.raises(ValueError, match="unity_version"):
        meshspec.check("unity-mesh", b"")
    with pytest.raises(TypeError):
        meshspec.check("meshbin", b"", colour="red")
    with pytest.raises(TypeError):
        meshspec.check("meshbin", 12)
    with pytest.raises(meshspec.Error, match="readable file"):
        meshspec.check("meshbin", "/no/such/file.meshbin")


def test_ctrl_c_stops_a_long_survey():
    import math
    import os
    import signal
    import threading
    import time

    from conftest import shared_or_skip
    shared = shared_or_skip().parent
    started = time.monotonic()
    meshspec.survey(shared)
    once = time.monotonic() - started
    # The shared folder as many times over as takes a second or more, whatever the machine's
    # speed, so that the interrupt at 0.3 s comes while the survey runs.
    paths = [shared] * max(1, math.ceil(1.0 / max(once, 0.01)))
    whole = once * len(paths)
    # Python's own Ctrl-C handler, even when this process was started with SIGINT ignored (as a
    # shell's background job is).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            meshspec.survey(paths)
    finally:
        signal.signal(signal.SIGINT, before)
    # It stops between files, well before the folders are read.
    assert time.monotonic() - started < max(0.3 + whole / 2, 0.9), whole
