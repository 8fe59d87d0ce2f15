"""The adapter interface every importer implements, and its error: a layer below the adapters.

Stage: bench (import). :mod:`workbench.bench.importers` lists the adapters; each adapter module
(``veritile_confirm``) imports these types from here, never from the package that lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.errors import InputError


class ImportFormatError(InputError):
    """A foreign record has a field the adapter does not know, lacks one it needs, or contradicts itself."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where a foreign record came from: enough to fetch the exact file again."""

    repository: str
    path: str
    commit: str
    measured_by: str
    label: str


@dataclass(frozen=True, slots=True)
class Adapter:
    name: str
    description: str
    matches: Callable[[Any], bool]
    convert: Callable[[Any, Source, str, str], dict[str, Any]]  # (raw, source, where, sha256) -> run record
    export: Callable[[Mapping[str, Any]], dict[str, Any]]  # run record -> the foreign record, byte-for-byte JSON
