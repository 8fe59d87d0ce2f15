"""The one output contract every command follows: a JSON object with a ``schema`` and a ``verdict``, and one
exit-code rule.

Vocabulary (``Verdict``), shared by every stage so that a script reading any command's ``--json`` needs one
table. Each command documents which of them it can produce (docs/cli.md). Exit codes:

* 0 — every verdict in the output is accepted (:data:`ACCEPTED`), or the command only reports (``show``, ``list``);
* 1 — some verdict was not accepted (refused, not equivalent, unsafe, undecided, ...);
* 2 — usage or input error: one line on stderr naming the value, the place and the fix (``WorkbenchError``).

Overall verdicts order by severity (:data:`SEVERITY`): an unsafe kernel is unsafe whatever its semantic
result, an error anywhere makes the whole run an error.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Any, Iterable, TextIO


class Verdict(StrEnum):
    CERTIFIED = "certified"  # checker: narrowing is exact under the captured facts
    BOUND = "bound"  # rule: a certificate binds this live compilation
    EQUIVALENT = "equivalent"  # floats: bit-exact on every input (exhaustive or by case split)
    OK = "ok"  # a command that produces an artefact (capture, emit, import) and succeeded
    NO_COUNTEREXAMPLE = "no-counterexample"  # floats: sampled, none found: NOT a proof
    UNDECIDED = "undecided"  # the method cannot decide (unmodelled op, solver unknown)
    OUT_OF_CLASS = "out-of-class"  # the kernel uses a construct the checker does not model
    UNBOUND = "unbound"  # rule: no certificate binds; the kernel stays wide
    REFUSED = "refused"  # checker: cannot show safety (with a counterexample when one exists)
    NOT_EQUIVALENT = "not-equivalent"  # floats: a witness input separates the two
    UNSAFE = "unsafe"  # safety gate: out of bounds, misaligned or overlapping access
    NOT_FULLY_WRITTEN = "output-not-fully-written"  # floats gate: some output element no thread writes (no race, no OOB)
    ERROR = "error"  # an item failed with an input error inside a batch run


ACCEPTED = frozenset({Verdict.CERTIFIED, Verdict.BOUND, Verdict.EQUIVALENT, Verdict.OK})

# Worst first: the overall verdict of several is the first of these that occurs.
SEVERITY = (
    Verdict.ERROR,
    Verdict.UNSAFE,
    Verdict.NOT_FULLY_WRITTEN,
    Verdict.NOT_EQUIVALENT,
    Verdict.REFUSED,
    Verdict.UNBOUND,
    Verdict.OUT_OF_CLASS,
    Verdict.UNDECIDED,
    Verdict.NO_COUNTEREXAMPLE,
    Verdict.OK,
    Verdict.EQUIVALENT,
    Verdict.BOUND,
    Verdict.CERTIFIED,
)


def overall(verdicts: Iterable[Verdict | str]) -> Verdict:
    """The worst of several verdicts (``OK`` for none)."""
    seen = {Verdict(v) for v in verdicts}
    for v in SEVERITY:
        if v in seen:
            return v
    return Verdict.OK


def exit_code(verdict: Verdict | str) -> int:
    """0 when accepted, 1 otherwise (input errors never reach here: they raise and exit 2)."""
    return 0 if Verdict(verdict) in ACCEPTED else 1


def document(kind: str, version: int, verdict: Verdict | str, **payload: Any) -> dict[str, Any]:
    """A JSON-ready object: ``{"schema": "workbench.<kind>/<version>", "verdict": ..., **payload}``."""
    if "schema" in payload or "verdict" in payload:
        raise ValueError("payload may not set schema or verdict")
    return {"schema": f"workbench.{kind}/{version}", "verdict": Verdict(verdict).value, **payload}


def with_verdict(doc: dict[str, Any], verdict: Verdict | str) -> dict[str, Any]:
    """A document that already names its schema (a table also written to a file) with the contract's
    top-level verdict added: what such a command's ``--json`` prints."""
    kind, version = doc["schema"].removeprefix("workbench.").split("/")
    return document(kind, int(version), verdict, **{k: v for k, v in doc.items() if k != "schema"})


def emit(doc: dict[str, Any], stream: TextIO | None = None) -> int:
    """Print ``doc`` as JSON (sorted keys, deterministic) and return its exit code."""
    out = stream or sys.stdout
    json.dump(doc, out, indent=2, sort_keys=True, default=str)
    out.write("\n")
    return exit_code(doc["verdict"])
