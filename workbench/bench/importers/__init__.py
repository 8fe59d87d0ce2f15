"""Import run records written by other harnesses into the workbench's run-record format.

Stage: bench (import). One small adapter per foreign format (:data:`ADAPTERS`); each knows how to recognise
its format, convert a record losslessly (every triple, order, block, per-shape time and telemetry value kept,
the source's own summary kept verbatim beside ours) and convert back (:meth:`Adapter.export`, which the tests
use to prove nothing was dropped). Unknown or inconsistent fields are input errors naming the field; nothing
is silently dropped or guessed.

Provenance (repository, path, commit, who measured) is not in most foreign records: it comes from a
``SOURCES.tsv`` beside the record (columns ``file repo path commit``) or from the command line.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path
from typing import Any

from workbench.bench.importers.base import Adapter, ImportFormatError, Source  # noqa: F401  (re-exported)
from workbench.errors import UsageError


def _adapters() -> dict[str, Adapter]:
    from workbench.bench.importers import veritile_confirm

    return {a.name: a for a in (veritile_confirm.ADAPTER,)}


ADAPTERS = _adapters()


def detect(raw: Any, where: str) -> Adapter:
    hits = [a for a in ADAPTERS.values() if a.matches(raw)]
    if len(hits) != 1:
        known = "; ".join(f"{a.name}: {a.description}" for a in ADAPTERS.values())
        raise ImportFormatError(
            f"{where}: {'no' if not hits else 'more than one'} import format recognises this record; known formats: "
            f"{known}. Pass --format NAME, or add an adapter under workbench/bench/importers/"
        )
    return hits[0]


def source_from_tsv(record_path: Path, measured_by: str, label: str) -> Source | None:
    """The row of ``SOURCES.tsv`` next to the record naming its file, if there is one."""
    tsv = record_path.parent / "SOURCES.tsv"
    if not tsv.is_file():
        return None
    with tsv.open(newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row.get("file") == record_path.name:
                missing = [k for k in ("repo", "path", "commit") if not row.get(k)]
                if missing:
                    raise ImportFormatError(f"{tsv}: the row for {record_path.name} lacks {missing}")
                return Source(row["repo"], row["path"], row["commit"], measured_by, label)
    return None


def import_record(path: str | Path, fmt: str | None = None, repository: str | None = None,
                  source_path: str | None = None, commit: str | None = None, measured_by: str | None = None,
                  label: str | None = None) -> tuple[dict[str, Any], Adapter]:
    """Read a foreign record and return the workbench run record and the adapter used."""
    from workbench.jsonfile import read_json

    path = Path(path)
    raw = read_json(path, ImportFormatError, "foreign run record", "pass the JSON record the other harness wrote")
    if fmt is not None and fmt not in ADAPTERS:
        raise UsageError(f"--format {fmt!r} is unknown; known formats: {', '.join(ADAPTERS)}")
    adapter = ADAPTERS[fmt] if fmt else detect(raw, str(path))
    if fmt and not adapter.matches(raw):
        raise ImportFormatError(f"{path}: the record is not in format {fmt!r} ({adapter.description})")
    by = measured_by or "the report's authors"
    lab = label or "report 1's L4 data, measured by the report's authors"
    src = source_from_tsv(path, by, lab)
    if repository or source_path or commit:
        if not (repository and source_path and commit):
            raise UsageError("--repo, --source-path and --commit go together: give all three or none")
        src = Source(repository, source_path, commit, by, lab)
    if src is None:
        raise UsageError(
            f"{path}: no provenance: no SOURCES.tsv row names {path.name}; pass --repo OWNER/NAME "
            "--source-path PATH --commit SHA (where the record can be fetched again)"
        )
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    return adapter.convert(raw, src, str(path), sha), adapter
