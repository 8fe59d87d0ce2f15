"""Reading a JSON file a user named: one place for the two ways that goes wrong (missing, malformed), each
raised as the caller's own error class with the path, the position and what to do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError


def read_json(path: str | Path, error: type[WorkbenchError], what: str, fix: str) -> Any:
    """Parse ``path``; raise ``error`` naming ``what`` it should be and the ``fix`` when it is missing or
    not valid JSON."""
    path = Path(path)
    if not path.is_file():
        raise error(f"{what} {str(path)!r} does not exist; {fix}")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise error(
            f"{str(path)!r} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); {fix}"
        ) from None
