"""Reading a JSON file a user named: one place for the ways that goes wrong (missing, malformed, ambiguous),
each raised as the caller's own error class with the path, the position and what to do.

A key repeated in one object is ambiguous (Python's json keeps the last, other readers the first), so it is an
error naming the key, never resolved silently (:func:`loads_strict`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError


class DuplicateKey(ValueError):
    """A key that appears twice in one JSON object."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(k)
        out[k] = v
    return out


def loads_strict(text: str) -> Any:
    """``json.loads`` that raises :class:`DuplicateKey` for a key repeated in one object."""
    return json.loads(text, object_pairs_hook=_unique)


def read_json(path: str | Path, error: type[WorkbenchError], what: str, fix: str) -> Any:
    """Parse ``path``; raise ``error`` naming ``what`` it should be and the ``fix`` when it is missing, not
    valid JSON, or has a key twice in one object."""
    path = Path(path)
    if not path.is_file():
        raise error(f"{what} {str(path)!r} does not exist; {fix}")
    try:
        return loads_strict(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise error(f"{str(path)!r} is not text (not UTF-8 at byte {exc.start}: {exc.reason}), so not a JSON file; "
                    f"{fix}") from None
    except json.JSONDecodeError as exc:
        raise error(
            f"{str(path)!r} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); {fix}"
        ) from None
    except DuplicateKey as exc:
        raise error(
            f"{str(path)!r}: key {exc.key!r} appears twice in one object (JSON readers disagree on which one "
            f"wins); keep one; {fix}"
        ) from None
