"""Reading a JSON file a user named: one place for the two ways that goes wrong (missing, malformed), each
raised as the caller's own error class with the path, the position and what to do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError


class DuplicateKeyError(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are unique: json.loads keeps the last of two equal keys silently."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKeyError(k)
        out[k] = v
    return out


def read_json(path: str | Path, error: type[WorkbenchError], what: str, fix: str) -> Any:
    """Parse ``path``; raise ``error`` naming ``what`` it should be and the ``fix`` when it is missing or
    not valid JSON."""
    path = Path(path)
    if not path.is_file():
        raise error(f"{what} {str(path)!r} does not exist; {fix}")
    try:
        return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicate_keys)
    except UnicodeDecodeError as exc:
        raise error(f"{str(path)!r} is not text (not UTF-8 at byte {exc.start}: {exc.reason}), so not a JSON file; "
                    f"{fix}") from None
    except DuplicateKeyError as exc:
        raise error(f"{str(path)!r} has the key {exc.key!r} twice in one object; a record is read once, "
                    f"so remove one of them; {fix}") from None
    except json.JSONDecodeError as exc:
        raise error(
            f"{str(path)!r} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); {fix}"
        ) from None
