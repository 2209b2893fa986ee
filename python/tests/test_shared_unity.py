"""The real Unity files of ../shared (the demo project in five editor versions): bare Mesh
objects and the bundles, against the command line."""

import json
import pathlib

import numpy as np
import pytest

import meshspec
from conftest import ROOT, cli, cli_json, hexed, read_glb, same_values, shared_or_skip


def _meshes():
    shared = shared_or_skip()
    return sorted(shared.glob("meshes/*/*.mesh"))


def test_bare_meshes_dump_check_build_and_decode_as_the_command_line(tmp_path):
    files = _meshes()
    assert files
    for f in files:
        out, code = cli("dump", "unity-mesh", f, "--unity-version", "auto")
        assert code == 0, f
        mine = meshspec.dump("unity-mesh", f, unity_version="auto")
        same_values(hexed(mine), json.loads(out)["data"])
        doc, _ = cli_json("check", "unity-mesh", f, "--unity-version", "auto", "--json", "--all")
        v = meshspec.check("unity-mesh", f, unity_version="auto")
        assert v.findings == doc["files"][0]["findings"] and v.ok == doc["files"][0]["ok"], f
        version = f.parent.name
        assert meshspec.build("unity-mesh", mine, unity_version=version) == f.read_bytes()
        glb = tmp_path / "m.glb"
        _, code = cli("export", "unity-mesh", f, "--unity-version", "auto", "-o", glb)
        if code != 0:
            with pytest.raises(meshspec.Error):
                meshspec.meshes("unity-mesh", f, unity_version="auto")
            continue
        g = read_glb(glb)
        m = meshspec.meshes("unity-mesh", f, unity_version="auto")
        for mesh, gm in zip(m, g):
            prims = [p for p in mesh.primitives if len(p.indices)]
            for p, gp in zip(prims, gm["primitives"]):
                assert np.array_equal(mesh.positions, gp["positions"])
                assert np.array_equal(p.indices, gp["indices"])


def test_bundles_open_and_decode_every_mesh_as_the_command_line(tmp_path):
    shared = shared_or_skip()
    bundles = sorted(shared.glob("bundles/*/assetbundle"))
    assert len(bundles) == 5
    for b in bundles:
        listed, _ = cli_json("unity", "list", b, "--json")
        g = meshspec.unity.open(b)
        assert [o["path_id"] for o in g.objects] == [o["path_id"] for o in listed]
        meshes = g.meshes()
        assert len(meshes) == sum(o["class"] == "Mesh" for o in listed)
        for o in (o for o in listed if o["class"] == "Mesh"):
            out = tmp_path / f"{o['path_id']}.glb"
            _, code = cli("export", "unity-mesh", b, "--path-id", o["path_id"], "-o", out)
            assert code == 0
            (mine,) = g.meshes(path_id=o["path_id"])
            assert mine.name == o["name"]
            (gm,) = read_glb(out)
            for p, gp in zip([p for p in mine.primitives if len(p.indices)], gm["primitives"]):
                assert np.array_equal(mine.positions, gp["positions"])
                assert np.array_equal(p.indices, gp["indices"])
            if mine.skin is not None:
                assert mine.skin.weights.shape == (len(mine.positions), 4)
