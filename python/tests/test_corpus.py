"""Every function on the shipped corpus, against the command line built from the same library."""

import collections
import pathlib

import numpy as np
import pytest

import meshspec
from conftest import ROOT, CORPUS, cli, cli_json, corpus_files, hexed, read_glb, same_values

FILES = corpus_files()
BY_LAYOUT = collections.defaultdict(list)
for _layout, _path in FILES:
    BY_LAYOUT[_layout].append(_path)


def test_layouts_are_the_command_lines():
    doc, _ = cli_json("layouts", "--json")
    mine = meshspec.layouts()
    assert [l["id"] for l in mine] == [l["id"] for l in doc["layouts"]]
    assert [l["description"] for l in mine] == [l["description"] for l in doc["layouts"]]
    assert {l["id"] for l in mine if l["needs_winding"]} == {
        l["id"] for l in doc["layouts"] if "--winding" in l["geometry_needs"]}


@pytest.mark.parametrize("layout", sorted(BY_LAYOUT))
def test_check_findings_equal_check_json(layout):
    files = BY_LAYOUT[layout]
    doc, _ = cli_json("check", layout, *files, "--json", "--all")
    assert len(doc["files"]) == len(files)
    for path, theirs in zip(files, doc["files"]):
        v = meshspec.check(layout, ROOT / path)
        assert v.ok == theirs["ok"], path
        # The CLI names files as given; the finding about a whole file names it too.
        assert v.findings == theirs["findings"], path
        assert v.notes == [n["text"] for n in theirs["notes"]], path
        # Bytes and a path give the same verdict (resources beside the file aside).
        if layout not in ("unity-serialized",):
            assert meshspec.check(layout, (ROOT / path).read_bytes()).findings == v.findings or \
                any(f["resource"] for f in v.findings), path


@pytest.mark.parametrize("layout,path", FILES, ids=[str(p) for _, p in FILES])
def test_dump_equals_dump_json_and_builds_back(layout, path, tmp_path):
    out, code = cli("dump", layout, path)
    if code != 0:
        with pytest.raises(meshspec.Error) as e:
            meshspec.dump(layout, ROOT / path)
        assert e.value.offset is not None or e.value.path is not None
        return
    theirs = __import__("json").loads(out)["data"]
    mine = meshspec.dump(layout, ROOT / path)
    same_values(hexed(mine), theirs)
    data = (ROOT / path).read_bytes()
    # bytes, bytearray and memoryview read the same
    assert meshspec.dump(layout, bytearray(data)) == mine
    assert meshspec.dump(layout, memoryview(data)) == mine
    if meshspec.check(layout, data).ok:
        assert meshspec.build(layout, mine) == data, path
    # What the command line's build does with its own dump, build does with this one: the
    # same bytes, or the same refusal.
    (tmp_path / "d.json").write_bytes(out)
    _, code = cli("build", layout, tmp_path / "d.json", "-o", tmp_path / "out")
    if code == 0:
        assert meshspec.build(layout, mine) == (tmp_path / "out").read_bytes(), path
    else:
        with pytest.raises(meshspec.Error) as e:
            meshspec.build(layout, mine)
        if isinstance(e.value, meshspec.Refused):
            assert e.value.findings and all(isinstance(f, dict) for f in e.value.findings)
            assert e.value.severity == "error" and e.value.expected


def test_build_takes_the_command_lines_whole_dump_and_edits():
    path = "corpus/sws/hand-plain.sws-mesh"
    whole, _ = cli_json("dump", "sws-mesh", path)
    data = (ROOT / path).read_bytes()
    assert meshspec.build("sws-mesh", whole) == data
    d = meshspec.dump("sws-mesh", data)
    d["unknown_after_bones"] = b"\xff" + d["unknown_after_bones"][1:]
    edited = meshspec.build("sws-mesh", d)
    assert len(edited) == len(data) and edited != data
    assert meshspec.dump("sws-mesh", edited)["unknown_after_bones"][0] == 0xFF


def _glb_of(tmp_path, *args):
    out = tmp_path / "x.glb"
    _, code = cli("export", *args, "-o", out)
    return read_glb(out) if code == 0 else None


def _same_geometry(mine, glb):
    with_geometry = [m for m in mine if len(m.positions) and any(len(p.indices) for p in m.primitives)]
    assert len(with_geometry) == len(glb)
    for m, g in zip(with_geometry, glb):
        assert g["name"].startswith(m.name)
        prims = [p for p in m.primitives if len(p.indices)]
        assert len(prims) == len(g["primitives"])
        for p, gp in zip(prims, g["primitives"]):
            assert m.positions.dtype == np.float32 and m.positions.shape[1] == 3
            assert np.array_equal(m.positions, gp["positions"])
            assert p.indices.dtype == np.uint32
            assert np.array_equal(p.indices, gp["indices"])
            assert p.mode == gp["mode"]


GEOMETRY = [(l, p) for l, p in FILES if l in ("meshbin", "sws-mesh", "sws-submesh", "rr-mesh", "rr-compiled-mesh")]


@pytest.mark.parametrize("layout,path", GEOMETRY, ids=[str(p) for _, p in GEOMETRY])
def test_meshes_equal_the_exported_gltf(layout, path, tmp_path):
    opts = {"winding": "d3d"} if layout == "meshbin" else {}
    flags = ["--winding", "d3d"] if opts else []
    glb = _glb_of(tmp_path, layout, path, *flags)
    if glb is None:
        with pytest.raises(meshspec.Error):
            meshspec.meshes(layout, ROOT / path, **opts)
        return
    _same_geometry(meshspec.meshes(layout, ROOT / path, **opts), glb)


def test_meshes_need_the_winding_the_file_does_not_record():
    with pytest.raises(ValueError, match="winding"):
        meshspec.meshes("meshbin", CORPUS / "meshbin" / "cube.meshbin")


GAME = sorted(p.relative_to(ROOT) for p in (CORPUS / "unity").glob("*.unity-*")
              if p.suffix in (".unity-bundle", ".unity-serialized", ".unity-web"))


@pytest.mark.parametrize("path", GAME, ids=[str(p) for p in GAME])
def test_game_files_list_and_meshes_equal_the_command_line(path, tmp_path):
    listed, code = cli_json("unity", "list", path, "--json")
    try:
        g = meshspec.unity.open(ROOT / path)
    except meshspec.Error:
        assert code == 1
        return
    mine = g.objects
    assert [(o["path_id"], o["class"], o["name"], o["byte_size"]) for o in mine] == \
        [(o["path_id"], o["class"], o["name"], o["byte_size"]) for o in listed]
    for o in (o for o in listed if o["class"] == "Mesh"):
        glb = _glb_of(tmp_path, "unity-mesh", path, "--path-id", o["path_id"])
        if glb is None:
            with pytest.raises(meshspec.Error):
                g.meshes(path_id=o["path_id"])
            continue
        _same_geometry(g.meshes(path_id=o["path_id"]), glb)


def test_survey_is_the_command_lines_document():
    doc, _ = cli_json("survey", "corpus", "--json")
    assert meshspec.survey("corpus") == doc if False else True  # paths are relative to cwd
    import os
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        mine = meshspec.survey("corpus")
    finally:
        os.chdir(here)
    assert mine == doc


SMALL = [(l, p) for l, p in FILES if (ROOT / p).stat().st_size < 4096]


@pytest.mark.parametrize("layout,path", SMALL, ids=[str(p) for _, p in SMALL])
def test_explain_attributes_the_bytes_as_explain_does(layout, path):
    out, code = cli("explain", layout, path, "--elements", "100000000")
    try:
        rows = meshspec.explain(layout, ROOT / path)
    except meshspec.Error:
        assert code == 1
        return
    size = (ROOT / path).stat().st_size
    assert rows and all(0 <= r["offset"] and r["offset"] + r["size"] <= size for r in rows)
    lines = collections.defaultdict(list)
    for line in out.decode().splitlines():
        if line.strip().startswith("0x"):
            lines[line.split()[0]].append(line)
    # Every row is a row the command line prints, at the same offset, with the same value.
    for r in rows:
        # An element's line names its type; a field's its name.
        name = r["type"] if r["path"].endswith("]") else r["path"].rsplit(".", 1)[-1]
        at = lines[f"0x{r['offset']:X}"]
        # (Columns are cut to their width: a prefix is compared.)
        value = (r["value"] or "")[:6]
        assert any(name[:6] in l and value in l for l in at), (r, at)


def test_the_readmes_example_runs_as_written(monkeypatch, capsys):
    """The Python block of the README's page on the package, run from the repository's root:
    a newcomer's first five lines must work as printed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    example = next(b for b in blocks if "import meshspec" in b)
    monkeypatch.chdir(ROOT)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    # The Blade's positions are (n, 3) and its first triangles are printed.
    assert printed.startswith("("), printed
    assert ", 3)" in printed.split(")")[0] + ")", printed
