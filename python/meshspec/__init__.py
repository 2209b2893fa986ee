"""meshspec: game mesh layouts from one declarative spec, in Python.

The same readers, verdicts, decoders and census as the ``meshspec`` command line (the Rust
library, bound with PyO3): no second implementation. Data arguments take ``bytes``,
``bytearray``, ``memoryview`` or a path; options are keyword arguments with the command line's
names (``winding``, ``unity_version``, ``unity_editor``, ``ress``, ``skin_weights``, ``strict``,
``relations``). Wherever a function takes a layout id it also takes a spec file read at run
time (``"my/format.ksy"``, ``"my/format.ksy#header"``), as :class:`Spec` does.
Bad input raises :class:`Error` (a ``ValueError``) with the offset, field path, relation,
expected and found; a usage mistake (an unknown layout, a missing option) raises a plain
``ValueError`` or ``TypeError``.
"""

from typing import Any, Dict, List, Optional, Sequence, Union
import os

from . import _native
from ._errors import Error, Refused

__all__ = [
    "Error", "Refused", "Verdict", "Mesh", "Primitive", "Skin", "MorphTarget",
    "layouts", "check", "dump", "build", "meshes", "explain", "survey", "unity", "Spec",
]

Data = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]


# The verdict is the native module's class (a check makes no Python frame of its own).
Verdict = _native.Verdict


# The mesh and its parts are the native module's classes, made in Rust from the decoded model.
Mesh = _native.Mesh
Primitive = _native.Primitive
Skin = _native.Skin
MorphTarget = _native.MorphTarget


def layouts(spec: Optional[Union[str, "os.PathLike[str]"]] = None) -> List[Dict[str, Any]]:
    """Every layout: ``id``, ``description``, ``spec`` (its .ksy), ``params`` (the values it
    needs, ``unity_version``) and ``needs_winding`` (whether geometry needs ``winding``). With
    ``spec``, every type of that spec file, each ``id`` the layout argument that names it."""
    return _native.layouts(spec)


# `check` is the native function itself (its docstring is there): a call over many small
# files pays for no Python frame.
check = _native.check


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
    return _native.meshes(layout, data, non_finite=non_finite, **opts)


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


class Spec:
    """A spec file (``.ksy``) read at run time: the same readings, verdicts, dumps, builds and
    census as a layout id gives, with no rebuild (``meshspec check FILE.ksy ...``). A spec that
    is one of the project's own, byte for byte, reads as its layout; any other is interpreted.
    ``type`` takes one of its types instead of its root. A spec that does not load raises
    ``ValueError`` with its file, line and column."""

    def __init__(self, path: Union[str, "os.PathLike[str]"], type: Optional[str] = None) -> None:
        self.path = os.fspath(path)
        self.layout = self.path if type is None else f"{self.path}#{type}"
        # Loads (and checks) the spec now: its types, each a layout argument.
        self.types = [l["id"] for l in _native.layouts(self.path)]
        if self.layout not in self.types:
            raise ValueError(f"{self.path}: no type `{type}` (its types: {', '.join(self.types)})")

    def __repr__(self) -> str:
        return f"Spec({self.layout!r})"

    def check(self, data: Data, **opts: Any) -> Verdict:
        """:func:`check` with this spec."""
        return check(self.layout, data, **opts)

    def dump(self, data: Data, **opts: Any) -> Dict[str, Any]:
        """:func:`dump` with this spec."""
        return dump(self.layout, data, **opts)

    def build(self, dump: Dict[str, Any], **opts: Any) -> bytes:
        """:func:`build` with this spec."""
        return build(self.layout, dump, **opts)

    def explain(self, data: Data, **opts: Any) -> List[Dict[str, Any]]:
        """:func:`explain` with this spec."""
        return explain(self.layout, data, **opts)

    def survey(self, paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
               **opts: Any) -> Dict[str, Any]:
        """:func:`survey` of ``paths``, every file read with this spec."""
        return survey(paths, layout=self.layout, **opts)


from . import unity  # noqa: E402  (uses the names above)
