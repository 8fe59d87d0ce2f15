"""Where the Lean stage's files live: the Lake project and its generated instances."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = REPO / "lean"
INSTANCES = PROJECT / "Instances"
# Written only by `workbench lean check` on a machine where Lean ran (inside the ignored .lake folder).
CHECK_RECORD = PROJECT / ".lake" / "workbench-check.json"
