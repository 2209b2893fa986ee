"""meshspec: game mesh layouts from one declarative spec, in Python.

The same readers, verdicts, decoders and census as the ``meshspec`` command line (the Rust
library, bound with PyO3): no second implementation. Data arguments take ``bytes``,
``bytearray``, ``memoryview`` or a path; options are keyword arguments with the command line's
names (``winding``, ``unity_version``, ``ress``, ``skin_weights``, ``strict``, ``relations``).
Bad input raises :class:`Error` (a ``ValueError``) with the offset, field path, relation,
expected and found; a usage mistake (an unknown layout, a missing option) raises a plain
``ValueError`` or ``TypeError``.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union
import os

from . import _native
from ._errors import Error, Refused

__all__ = [
    "Error", "Refused", "Verdict", "Mesh", "Primitive", "Skin", "MorphTarget",
    "layouts", "check", "dump", "build", "meshes", "explain", "survey", "unity",
]

Data = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]


class Verdict:
    """The one verdict on an input: ``ok`` (it passes), every finding (dicts with the keys of
    ``meshspec check --json``'s messages: severity, offset, resource, path, relation, expected,
    found, text) and the notes' text."""

    __slots__ = ("ok", "findings", "notes")

    def __init__(self, ok: bool, findings: List[Dict[str, Any]], notes: List[str]):
        self.ok = ok
        self.findings = findings
        self.notes = notes

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"Verdict(ok={self.ok!r}, findings={self.findings!r}, notes={self.notes!r})"


@dataclass(frozen=True)
class Primitive:
    """One primitive: ``indices`` (numpy uint32), ``mode`` (glTF's: 0 points, 1 lines, 3 line
    strip, 4 triangles) and ``material`` (its name, or None)."""

    indices: Any
    mode: int
    material: Optional[str]


@dataclass(frozen=True)
class Skin:
    """A skin: ``joints`` (uint16, (n, 4)), ``weights`` (float32, (n, 4), summing to 1 as
    exported), ``inverse_bind_matrices`` (float32, (joints, 16), column-major as glTF stores
    them) and ``joint_names``."""

    joints: Any
    weights: Any
    inverse_bind_matrices: Any
    joint_names: List[str]


@dataclass(frozen=True)
class MorphTarget:
    """A morph target: displacements of positions (and normals) per vertex."""

    name: str
    positions: Any
    normals: Any
    default_weight: float


@dataclass(frozen=True)
class Mesh:
    """One mesh in glTF's frame, as ``meshspec export`` writes it (normals of unit length,
    colours clamped, weights summing to 1): numpy arrays, made once from the decoded model.

    ``positions`` float32 (n, 3); ``normals`` (n, 3), ``tangents`` (n, 4) and ``colors``
    ((n, 4): uint8 or float32) or None; ``uvs`` one float32 (n, 2) array per texture
    coordinate set; ``primitives``; ``materials`` (names); ``skin`` or None; ``notes`` (what
    preparing the mesh changed)."""

    name: str
    layout: str
    positions: Any
    normals: Any
    tangents: Any
    colors: Any
    uvs: List[Any]
    primitives: List[Primitive]
    materials: List[str]
    skin: Optional[Skin]
    morph_targets: List[MorphTarget] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)


def _mesh(d: Dict[str, Any]) -> Mesh:
    prims = [Primitive(**p) for p in d.pop("primitives")]
    skin = d.pop("skin")
    morphs = [MorphTarget(**t) for t in d.pop("morph_targets")]
    return Mesh(primitives=prims, skin=Skin(**skin) if skin else None, morph_targets=morphs, **d)


def layouts() -> List[Dict[str, Any]]:
    """Every layout: ``id``, ``description``, ``spec`` (its .ksy), ``params`` (the values it
    needs, ``unity_version``) and ``needs_winding`` (whether geometry needs ``winding``)."""
    return _native.layouts()


def check(layout: str, data: Data, **opts: Any) -> Verdict:
    """The verdict ``meshspec check LAYOUT FILE --json --all`` gives: structure, field checks,
    relations and the decoder's checks, each at its severity. Options: ``unity_version``,
    ``ress``, ``relations`` ('error' or 'warn'), ``strict``."""
    return Verdict(*_native.check(layout, data, **opts))


def dump(layout: str, data: Data, **opts: Any) -> Dict[str, Any]:
    """Every field of the input: ``meshspec dump``'s ``data`` as Python values (raw bytes as
    ``bytes``, non-finite floats as the dump's words). Needs only the structure to read.
    Option: ``unity_version``."""
    return _native.dump(layout, data, **opts)


def build(layout: str, dump: Dict[str, Any], **opts: Any) -> bytes:
    """The bytes of a (possibly edited) dump (what :func:`dump` returns, or a whole
    ``meshspec dump --json`` document), counts and sizes recomputed; raises :class:`Refused`
    with the findings when the bytes do not pass ``check``, as ``meshspec build`` refuses.
    Options: ``unity_version``, ``relations``, ``strict``."""
    return _native.build(layout, dump, **opts)


def meshes(layout: str, data: Data, *, non_finite: str = "refuse", **opts: Any) -> List[Mesh]:
    """The geometry ``meshspec export`` writes, as numpy arrays: every mesh of an input that
    passes its verdict (else :class:`Error`). Options: ``winding`` ('d3d' or 'gl', for layouts
    whose files do not record it), ``unity_version``, ``ress``, ``skin_weights`` (1, 2, 4 or
    'all'), ``relations``, ``strict``; ``non_finite='zero'`` writes 0 for values that are not
    finite instead of refusing."""
    return [_mesh(d) for d in _native.meshes(layout, data, non_finite=non_finite, **opts)]


def explain(layout: str, data: Data, *, at: Optional[int] = None, field: Optional[str] = None,
            depth: Optional[int] = None, **opts: Any) -> List[Dict[str, Any]]:
    """Every byte attributed to a field, as ``meshspec explain`` shows it with every element
    of every list: dicts with ``offset``, ``size``, ``path`` (spec ids), ``type`` (as the spec
    writes it), ``value`` (leaves: the text explain shows; None otherwise) and ``confidence``.
    ``at``, ``field`` and ``depth`` select as ``--at``, ``--field`` and ``--depth`` do."""
    return _native.explain(layout, data, at=at, field=field, depth=depth, **opts)


def survey(paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]], *,
           layout: Optional[str] = None, ext: Optional[str] = None,
           unity_version: Optional[str] = None, relations: Optional[str] = None,
           strict: bool = False, jobs: Optional[int] = None, cap: Optional[int] = None) -> Dict[str, Any]:
    """The census ``meshspec survey --json`` prints (the same dict), on every core (or
    ``jobs`` threads). Ctrl-C (KeyboardInterrupt) stops it between files."""
    return _native.survey(paths, layout=layout, ext=ext, unity_version=unity_version,
                          relations=relations, strict=strict, jobs=jobs, cap=cap)


from . import unity  # noqa: E402  (uses the names above)
