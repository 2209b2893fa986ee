import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import unity as unity

Data = Union[bytes, bytearray, memoryview, str, os.PathLike[str]]
Paths = Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]

class Error(ValueError):
    finding: Dict[str, Any]
    offset: Optional[int]
    path: Optional[str]
    relation: Optional[str]
    expected: Optional[str]
    found: Optional[str]
    severity: Optional[str]
    resource: Optional[str]
    def __init__(self, message: str, finding: Dict[str, Any], findings: Optional[List[Dict[str, Any]]] = ...) -> None: ...

class Refused(Error):
    findings: List[Dict[str, Any]]

class Verdict:
    ok: bool
    findings: List[Dict[str, Any]]
    notes: List[str]
    def __bool__(self) -> bool: ...

class Primitive:
    indices: npt.NDArray[np.uint32]
    mode: int
    material: Optional[str]

class Skin:
    joints: npt.NDArray[np.uint16]
    weights: npt.NDArray[np.float32]
    inverse_bind_matrices: npt.NDArray[np.float32]
    joint_names: List[str]

class MorphTarget:
    name: str
    positions: npt.NDArray[np.float32]
    normals: Optional[npt.NDArray[np.float32]]
    default_weight: float

class Mesh:
    name: str
    layout: str
    positions: npt.NDArray[np.float32]
    normals: Optional[npt.NDArray[np.float32]]
    tangents: Optional[npt.NDArray[np.float32]]
    colors: Optional[npt.NDArray[Any]]
    uvs: List[npt.NDArray[np.float32]]
    primitives: List[Primitive]
    materials: List[str]
    skin: Optional[Skin]
    morph_targets: List[MorphTarget]
    notes: List[str]

def layouts(spec: Optional[Union[str, os.PathLike[str]]] = ...) -> List[Dict[str, Any]]: ...
def check(layout: str, data: Data, *, winding: Optional[str] = ..., unity_version: Optional[str] = ...,
          ress: Optional[Union[str, os.PathLike[str]]] = ..., skin_weights: Optional[Union[int, str]] = ...,
          strict: bool = ..., relations: Optional[str] = ...) -> Verdict: ...
def dump(layout: str, data: Data, *, unity_version: Optional[str] = ..., **opts: Any) -> Dict[str, Any]: ...
def build(layout: str, dump: Dict[str, Any], *, unity_version: Optional[str] = ..., strict: bool = ...,
          relations: Optional[str] = ..., **opts: Any) -> bytes: ...
def meshes(layout: str, data: Data, *, non_finite: str = ..., winding: Optional[str] = ...,
           unity_version: Optional[str] = ..., ress: Optional[Union[str, os.PathLike[str]]] = ...,
           skin_weights: Optional[Union[int, str]] = ..., strict: bool = ...,
           relations: Optional[str] = ...) -> List[Mesh]: ...
def explain(layout: str, data: Data, *, at: Optional[int] = ..., field: Optional[str] = ...,
            depth: Optional[int] = ..., **opts: Any) -> List[Dict[str, Any]]: ...
def survey(paths: Paths, *, layout: Optional[str] = ..., ext: Optional[str] = ...,
           unity_version: Optional[str] = ..., relations: Optional[str] = ..., strict: bool = ...,
           jobs: Optional[int] = ..., cap: Optional[int] = ...) -> Dict[str, Any]: ...

class Spec:
    path: str
    layout: str
    types: List[str]
    def __init__(self, path: Union[str, os.PathLike[str]], type: Optional[str] = ...) -> None: ...
    def check(self, data: Data, **opts: Any) -> Verdict: ...
    def dump(self, data: Data, **opts: Any) -> Dict[str, Any]: ...
    def build(self, dump: Dict[str, Any], **opts: Any) -> bytes: ...
    def explain(self, data: Data, **opts: Any) -> List[Dict[str, Any]]: ...
    def survey(self, paths: Paths, **opts: Any) -> Dict[str, Any]: ...
