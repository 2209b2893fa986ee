"""Unity game files: bundles, serialized files and folders of them (a player build)."""

from typing import Any, Dict, List, Optional, Sequence, Union
import os

from . import _native

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


class GameFiles:
    """Game files opened together (references between them resolve, streamed data is found in
    any of them). ``objects``: ``meshspec unity list --json``'s rows (file, serialized,
    path_id, class_id, class, name, byte_size, offset); ``failed``: the files under a folder
    that could not be opened, as findings."""

    def __init__(self, native: Any):
        self._g = native

    @property
    def objects(self) -> List[Dict[str, Any]]:
        return self._g.objects()

    @property
    def failed(self) -> List[Dict[str, Any]]:
        return self._g.failed()

    def meshes(self, name: Optional[str] = None, path_id: Optional[int] = None, *,
               non_finite: str = "refuse", **opts: Any) -> list:
        """The Mesh objects ``name`` (m_Name) or ``path_id`` select, every Mesh without either,
        decoded on every core as ``meshspec export unity-mesh FILE --all`` decodes them
        (:class:`meshspec.Mesh`; the first that does not pass its verdict raises
        :class:`meshspec.Error`). Options: ``ress``, ``skin_weights``, ``relations``,
        ``strict``."""
        return self._g.meshes(name=name, path_id=path_id, non_finite=non_finite, **opts)


def open(paths: Paths, *, unity_version: Optional[str] = None) -> GameFiles:  # noqa: A001
    """Opens bundles, serialized files or folders of them. ``unity_version`` reads files whose
    version string is not a version (a stripped build's 0.0.0); a file's own version wins."""
    return GameFiles(_native.unity_open(paths, unity_version=unity_version))
