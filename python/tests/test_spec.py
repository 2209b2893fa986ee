"""A spec file read at run time (meshspec.Spec, or a spec path wherever a layout id goes): the
same verdicts, dumps, builds, explanations and census as the command line gives with the same
spec, and the unity_editor option for bare objects of the editor's files."""

import json
import shutil

import pytest

import meshspec
from conftest import CORPUS, ROOT, cli, cli_json, hexed, same_values

CHUNKY = """meta:
  id: chunky
  title: A chunked container
  endian: le
-relations:
  - id: few_chunks
    doc: A file holds at most 4 chunks.
    -confidence: observed
    -at: num_chunks
    -check: num_chunks <= 4
seq:
  - id: magic
    contents: CHNK
  - id: num_chunks
    type: u2
  - id: chunks
    type: chunk
    repeat: expr
    repeat-expr: num_chunks
types:
  chunk:
    seq:
      - id: tag
        type: str
        size: 4
        encoding: ASCII
      - id: len_body
        type: u4
      - id: body
        size: len_body
"""


def chunky(*chunks):
    b = bytearray(b"CHNK") + len(chunks).to_bytes(2, "little")
    for tag, body in chunks:
        b += tag.encode() + len(body).to_bytes(4, "little") + body
    return bytes(b)


@pytest.fixture
def spec(tmp_path):
    p = tmp_path / "chunky.ksy"
    p.write_text(CHUNKY)
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "a.chunky").write_bytes(chunky(("HEAD", b"abc"), ("DATA", b"0123")))
    (tmp_path / "files" / "b.chunky").write_bytes(chunky(*[("X   ", b"")] * 5))
    return p


def test_a_spec_reads_as_the_command_line_reads_it(spec):
    s = meshspec.Spec(spec)
    assert s.types == [str(spec), f"{spec}#chunk"]
    a = spec.parent / "files" / "a.chunky"
    assert s.check(a).ok
    d = s.dump(a)
    assert d["chunks"][1]["body"] == b"0123"
    out, _ = cli("dump", str(spec), str(a))
    same_values(hexed(d), json.loads(out)["data"])
    assert s.build(d) == a.read_bytes()
    rows = s.explain(a)
    leaves = [r for r in rows if r["value"] is not None or r["type"] in ("bytes",)]
    top = [r for r in rows if r["path"].count(".") == 1 and "[" not in r["path"]]
    assert sum(r["size"] for r in top) == a.stat().st_size
    assert any(r["path"] == "chunky.chunks[1].len_body" for r in leaves)
    # The relation the spec states: a warning, which strict makes fail.
    b = spec.parent / "files" / "b.chunky"
    v = s.check(b)
    assert v.ok and [f["relation"] for f in v.findings] == ["few_chunks"]
    assert not s.check(b, strict=True).ok
    # The census, as `survey --layout SPEC --json` gives it.
    doc, _ = cli_json("survey", "--layout", str(spec), str(spec.parent / "files"), "--json")
    assert s.survey(spec.parent / "files", jobs=1) == doc
    # A spec path goes wherever a layout id goes.
    assert meshspec.check(f"{spec}#chunk", chunky(("HEAD", b"abc"))[6:]).ok


def test_a_broken_file_is_refused_at_its_offset_and_field(spec):
    with pytest.raises(meshspec.Error) as e:
        meshspec.Spec(spec).dump(chunky(("HEAD", b"abc"))[:-1])
    assert e.value.path == "chunky.chunks[0].body" and e.value.offset == 0xE


def test_a_bad_spec_says_its_file_line_and_column(tmp_path):
    p = tmp_path / "chunky.ksy"
    p.write_text(CHUNKY.replace("    repeat-expr:", "    repeat-exp:"))
    with pytest.raises(ValueError, match=rf"^{p}:19:5: chunky.chunks: key `repeat-exp` is not in the subset"):
        meshspec.Spec(p)
    with pytest.raises(ValueError, match=r"cannot be read"):
        meshspec.Spec(tmp_path / "none.ksy")
    p.write_text(CHUNKY)
    with pytest.raises(ValueError, match=r"no type `nope`"):
        meshspec.Spec(p, "nope")


def test_the_projects_own_spec_reads_as_its_layout(tmp_path):
    copy = tmp_path / "meshbin.ksy"
    shutil.copy(ROOT / "spec" / "meshbin.ksy", copy)
    bad = bytearray((CORPUS / "meshbin" / "cube.meshbin").read_bytes())
    bad[4 + 16 * 24] = 200
    by_id = meshspec.check("meshbin", bytes(bad))
    by_spec = meshspec.Spec(copy).check(bytes(bad))
    assert not by_id.ok and by_spec.findings == by_id.findings


def test_a_bare_object_of_an_editors_file_takes_unity_editor(tmp_path):
    out = tmp_path / "face.mesh"
    cli("unity", "extract", "corpus/unity/editor.unity-serialized", "--path-id", "102", "-o", str(out),
        ok_codes=(0,))
    v = "2022.3.10f1"
    assert meshspec.check("unity-mesh", out, unity_version=v, unity_editor=True).ok
    assert not meshspec.check("unity-mesh", out, unity_version=v).ok
    m = meshspec.meshes("unity-mesh", out, unity_version=v, unity_editor=True)
    assert m[0].name == "Face"
