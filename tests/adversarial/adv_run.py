"""Run one adversarial case: materialise the edited record, load it as a user would, check both modes."""

from __future__ import annotations

import tempfile
from pathlib import Path

from adv_records import materialise

from workbench.capture.record import load
from workbench.errors import WorkbenchError

MODES = ("strict", "observable")


def outcome(rel, edit, directory: Path | None = None):
    """``("input-error", message)`` or ``((strict verdict, observable verdict), record, verdicts)``."""
    from workbench.check.api import check_kernel

    d = Path(directory or tempfile.mkdtemp())
    path = materialise(rel, edit, d)
    try:
        rec = load(path)
        vs = {m: check_kernel(rec, m, counterexample=False) for m in MODES}
    except WorkbenchError as exc:
        return "input-error", str(exc), None
    return tuple(vs[m].verdict for m in MODES), rec, vs
