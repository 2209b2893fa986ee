"""The exceptions meshspec raises (made by the native module from the library's findings)."""

from typing import Any, Dict, List, Optional


class Error(ValueError):
    """Input meshspec refuses: the finding's line as the message, its keys as attributes.

    ``offset`` (byte offset in the input, or in ``resource`` when that is set), ``path`` (the
    field path in the spec's ids), ``relation`` (the id of the violated relation), ``expected``,
    ``found``, ``severity``, ``resource``; ``finding`` is the whole dict, with the keys of the
    command line's ``--json`` messages.
    """

    def __init__(self, message: str, finding: Dict[str, Any], findings: Optional[List[Dict[str, Any]]] = None):
        super().__init__(message)
        self.finding = finding
        self.offset: Optional[int] = finding.get("offset")
        self.path: Optional[str] = finding.get("path")
        self.relation: Optional[str] = finding.get("relation")
        self.expected: Optional[str] = finding.get("expected")
        self.found: Optional[str] = finding.get("found")
        self.severity: Optional[str] = finding.get("severity")
        self.resource: Optional[str] = finding.get("resource")


class Refused(Error):
    """``build`` made bytes that do not pass ``check`` (as the command line's build refuses):
    ``findings`` lists every finding; the attributes are the first error's."""

    def __init__(self, message: str, finding: Dict[str, Any], findings: Optional[List[Dict[str, Any]]] = None):
        super().__init__(message, finding)
        self.findings: List[Dict[str, Any]] = list(findings or [])
