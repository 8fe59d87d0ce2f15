"""Reading a JSON file a user named: one place for the ways that goes wrong (missing, malformed, ambiguous,
hostile), each raised as the caller's own error class with the path, the position and what to do.

A key repeated in one object is ambiguous (Python's json keeps the last, other readers the first), so it is an
error naming the key, never resolved silently (:func:`loads_strict`).

Limits (hostile input never gets past this door, issue 23): nesting deeper than :data:`MAX_DEPTH` (Python's
parser recurses, so 100k ``[`` would end in a ``RecursionError``), integers longer than :data:`MAX_DIGITS`
digits (a 5000-digit integer makes ``int()`` raise, and big numbers only slow every later stage), and the
non-JSON constants ``NaN``/``Infinity`` or a number that overflows a double are :class:`JSONLimitError`, a
``json.JSONDecodeError`` with the position, so every caller's "not valid JSON (line, column)" message covers
them. Every workbench file nests at most 8 levels and its largest integer has 20 digits."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError

MAX_DEPTH = 64
MAX_DIGITS = 100
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


class DuplicateKey(ValueError):
    """A key that appears twice in one JSON object."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


class JSONLimitError(json.JSONDecodeError):
    """Text that is JSON (or nearly) but beyond what the workbench reads: too deep, too long a number, NaN."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(k)
        out[k] = v
    return out


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before Python's recursive parser sees it (brackets inside strings
    do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    blank = _STRING.sub(lambda m: " " * len(m.group()), text)  # same offsets, strings emptied
    for m in _BRACKET.finditer(blank):
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise JSONLimitError(f"nested deeper than {MAX_DEPTH} levels (workbench files nest at most 8)",
                                 text, m.start())


def loads_strict(text: str) -> Any:
    """``json.loads`` that raises :class:`DuplicateKey` for a key repeated in one object and
    :class:`JSONLimitError` for input beyond the limits above."""
    _check_depth(text)

    def integer(s: str) -> int:
        if len(s.lstrip("-")) > MAX_DIGITS:
            raise JSONLimitError(f"an integer of {len(s.lstrip('-'))} digits (at most {MAX_DIGITS})", text,
                                 max(text.find(s[:MAX_DIGITS]), 0))
        return int(s)

    def number(s: str) -> float:
        v = float(s)
        if not math.isfinite(v) or len(s) > MAX_DIGITS + 10:
            raise JSONLimitError(f"the number {s[:30]}{'...' if len(s) > 30 else ''} is not a finite double of at "
                                 f"most {MAX_DIGITS} digits", text, max(text.find(s[:MAX_DIGITS]), 0))
        return v

    def constant(s: str):
        raise JSONLimitError(f"{s} is not JSON (no NaN or Infinity in workbench files)", text, max(text.find(s), 0))

    try:
        return json.loads(text, object_pairs_hook=_unique, parse_int=integer, parse_float=number,
                          parse_constant=constant)
    except RecursionError:  # a structure the depth scan above let through and Python still could not parse
        raise JSONLimitError("nested too deeply for Python's JSON parser", text, 0) from None


def loads(text: str) -> Any:
    """:func:`loads_strict` for readers that handle only ``json.JSONDecodeError``: a repeated key is one too."""
    try:
        return loads_strict(text)
    except DuplicateKey as exc:
        raise JSONLimitError(f"key {exc.key!r} appears twice in one object (JSON readers disagree on which one "
                             "wins); keep one", text, max(text.find(f'"{exc.key}"'), 0)) from None


def read_json(path: str | Path, error: type[WorkbenchError], what: str, fix: str) -> Any:
    """Parse ``path``; raise ``error`` naming ``what`` it should be and the ``fix`` when it is missing, not
    valid JSON, beyond the limits, or has a key twice in one object."""
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
