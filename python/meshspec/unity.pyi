import os
from typing import Any, Dict, List, Optional, Sequence, Union

from . import Mesh

Paths = Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]

class GameFiles:
    @property
    def objects(self) -> List[Dict[str, Any]]: ...
    @property
    def failed(self) -> List[Dict[str, Any]]: ...
    def meshes(self, name: Optional[str] = ..., path_id: Optional[int] = ..., *, non_finite: str = ...,
               ress: Optional[Union[str, os.PathLike[str]]] = ..., skin_weights: Optional[Union[int, str]] = ...,
               strict: bool = ..., relations: Optional[str] = ...) -> List[Mesh]: ...

def open(paths: Paths, *, unity_version: Optional[str] = ...) -> GameFiles: ...
