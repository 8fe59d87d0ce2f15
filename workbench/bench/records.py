"""Run records: one versioned JSON file per run, holding the frozen plan, its hash and every raw sample.

Stage: bench (records). Schema :data:`SCHEMA`. A record is raw data: it is written once by the harness and
never edited (``data/runs/``). Fields:

``schema``, ``mode`` ("gpu" | "dry-run"), ``timing_claims`` (False for a dry run), ``note``,
``plan`` (the plan JSON as it was), ``plan_sha256`` (hashed before the run), ``plan_path``,
``started_at``/``finished_at`` (Unix seconds), ``environment`` (per process: device, driver, torch, triton,
CUDA runtime, clocks), ``kernel`` (name, origin, source hash, signature), ``variants`` (name -> function name,
source digest, scalar types), ``correctness`` (variant x shape x process -> bitwise equal to eager),
``blocks`` (one per process x round x variant: order, position, warm-up, ``sequence_ms``,
``sequence_calls_ms``, ``small_calls_ms``, ``compiled_during_block``, ``outputs_bitwise_equal``),
``telemetry`` (per process: available, reason, samples).

:func:`load` refuses another schema version and a record whose embedded plan no longer hashes to
``plan_sha256``; :func:`check_plan_file` refuses one whose plan file changed since the run.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from workbench.bench import plan as plan_mod
from workbench.bench.plan import Plan, PlanChangedError
from workbench.errors import InputError

SCHEMA = "workbench.bench.run/1"

DRY_RUN_NOTE = (
    "DRY RUN under Triton's interpreter (TRITON_INTERPRET=1) on CPU at tiny shapes: correctness only. "
    "No timer ran; nothing in this record is a timing measurement and no speed claim can be made from it."
)


class RecordError(InputError):
    """A run record is malformed, of another schema version, or its plan changed."""


def assemble(plan: Plan, raw_plan: dict[str, Any], plan_path: str, parts: list[dict[str, Any]], dry_run: bool,
             started: float, finished: float) -> dict[str, Any]:
    parts = sorted(parts, key=lambda p: p["process"])
    return {
        "schema": SCHEMA,
        "mode": "dry-run" if dry_run else "gpu",
        "timing_claims": not dry_run,
        "note": DRY_RUN_NOTE if dry_run else "GPU run: CUDA-event timings of the plan's blocks.",
        "plan": raw_plan,
        "plan_sha256": plan.sha256,
        "plan_path": plan_path,
        "started_at": started,
        "finished_at": finished,
        "environment": [dict(p["environment"], process=p["process"]) for p in parts],
        "kernel": parts[0]["kernel"],
        "variants": parts[0]["variants"],
        "correctness": [c for p in parts for c in p["correctness"]],
        "blocks": [b for p in parts for b in p["blocks"]],
        "telemetry": [dict(p["telemetry"], process=p["process"]) for p in parts],
    }


def write(record: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(record, fh, indent=1, allow_nan=False)  # key order kept: shape keys follow the plan
            fh.write("\n")
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; records are shared data
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


_REQUIRED = ("mode", "timing_claims", "plan", "plan_sha256", "environment", "kernel", "variants", "correctness",
             "blocks", "telemetry")


def load(path: str | Path) -> tuple[dict[str, Any], Plan]:
    """Read and verify a record; returns it and its (re-parsed) plan."""
    from workbench.jsonfile import read_json

    rec = read_json(path, RecordError, "run record", "make one with `workbench bench run PLAN.json --out RUN.json`")
    return verify(rec, where=str(path)), rec


def verify(rec: Any, where: str = "<record>") -> Plan:
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a run record is a JSON object, got {type(rec).__name__}")
    if rec.get("schema") != SCHEMA:
        raise RecordError(
            f"{where}: record schema is {rec.get('schema')!r}; this workbench reads {SCHEMA!r}. "
            "Re-run the plan with this version, or read it with the version that wrote it"
        )
    missing = [k for k in _REQUIRED if k not in rec]
    if missing:
        raise RecordError(f"{where}: record lacks fields {missing}; it was not written by `workbench bench run`")
    if plan_mod.digest(rec["plan"]) != rec["plan_sha256"]:
        raise PlanChangedError(
            f"{where}: the plan stored in the record hashes to {plan_mod.digest(rec['plan'])[:12]}..., not the "
            f"pre-registered {rec['plan_sha256'][:12]}...; the record was edited after the run and cannot be reported"
        )
    return plan_mod.parse(rec["plan"], where=f"{where} (plan)")


def check_plan_file(rec: dict[str, Any], plan_path: str | Path | None = None) -> str:
    """Compare the plan file (given, or the record's ``plan_path`` when it exists) with the registered hash.
    Returns a one-line status; raises :class:`PlanChangedError` when the file changed."""
    p = Path(plan_path) if plan_path else (Path(rec["plan_path"]) if rec.get("plan_path") else None)
    shown = p
    if p is not None and not p.is_absolute() and not p.is_file():
        from workbench.paths import ROOT  # a relative plan path is relative to the checkout (notebooks run elsewhere)

        p = ROOT / p
    if p is None or not p.is_file():
        return "plan file not present here; the plan embedded in the record matches its registered hash"
    _, raw = plan_mod.load(p)
    now = plan_mod.digest(raw)
    if now != rec["plan_sha256"]:
        raise PlanChangedError(
            f"plan {str(shown)!r} now hashes to {now[:12]}..., but the run registered {rec['plan_sha256'][:12]}...; "
            "the plan changed after the run. Report against the plan embedded in the record by restoring the file, "
            "or register a new plan and run it again"
        )
    return f"plan file {shown} matches the registered hash ({now[:12]}...)"
