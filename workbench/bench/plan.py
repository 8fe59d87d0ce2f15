"""Pre-registered timing plans: what will be measured and how it will be judged, fixed before any data exists.

Stage: bench (plan). A plan is a JSON file (schema :data:`SCHEMA`) naming the program, the kernel variants, the
shapes, the calls per shape, the number of processes and rounds, the order scheme, the warm-up, the L2 flush
and the decision rule. :func:`load` validates it and computes its SHA-256 over a canonical serialization
(sorted keys, no whitespace); the run record stores that hash and the report refuses a record whose plan no
longer hashes the same (:class:`PlanChangedError`).

Order scheme ``all_orders``: every permutation of the variants appears equally often in every process, so a
variant's position in a round (first block warm, last block hot) cannot favour it. Rounds are then shuffled
with the plan's seed; the schedule is a pure function of the plan.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from workbench.errors import InputError

SCHEMA = "workbench.bench.plan/1"

Shape = tuple[tuple[str, int | str], ...]  # (dimension, size) in the program's order; ("family", label) imported


class PlanError(InputError):
    """The plan file is malformed; the message names the field and what it must be."""


class PlanChangedError(InputError):
    """A record's plan no longer hashes to the value stored before the run."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Adopt ``narrow`` over ``wide`` iff median(wide/narrow) >= median_at_least, the CI's lower bound >=
    ci_lower_at_least, and every small shape's CI lower bound >= per_shape_ci_lower_at_least."""

    wide: str
    narrow: str
    median_at_least: float
    ci_lower_at_least: float
    per_shape_ci_lower_at_least: float
    confidence: float
    resamples: int
    seed: int


@dataclass(frozen=True, slots=True)
class Stage:
    """The shapes and counts of one mode (the GPU run, or the dry run's tiny version of it)."""

    sequence: tuple[Shape, ...]
    small: tuple[Shape, ...]
    calls_sequence: int
    calls_small: int
    processes: int
    rounds_per_process: int
    warmup_s: float
    xblock: int | None  # None: chosen by the launcher and not recorded (imported records only)


@dataclass(frozen=True, slots=True)
class Plan:
    name: str
    program: str
    kernel: tuple[tuple[str, str], ...]  # ("from", "capture"|"fixture"|"file") [+ ("path", ...)]
    variants: tuple[str, ...]
    comparisons: tuple[tuple[str, str], ...]  # (wide, narrow) pairs reported; the decision's pair first
    order_scheme: str
    l2_flush: bool | None  # None: not recorded (imported)
    l2_flush_mib: int
    telemetry_interval_s: float | None
    seed: int
    gpu: Stage
    dry_run: Stage | None  # None: an imported record's plan has no dry run
    decision: Decision
    sha256: str

    def stage(self, dry_run: bool) -> Stage:
        if dry_run and self.dry_run is None:
            raise PlanError(f"plan {self.name!r} describes an imported record and has no dry run")
        return self.dry_run if dry_run else self.gpu

    @property
    def kernel_spec(self) -> dict[str, str]:
        return dict(self.kernel)


def canonical(raw: Mapping[str, Any]) -> str:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(raw: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(raw).encode()).hexdigest()


def shape_key(shape: Shape) -> str:
    """``rows=2048,q=2048,...``; an imported shape named by rows and a family label keeps its source's key,
    ``2048xissue``, so tables can be read against the source's."""
    if len(shape) == 2 and shape[0][0] == "rows" and shape[1][0] == "family":
        return f"{shape[0][1]}x{shape[1][1]}"
    return ",".join(f"{k}={v}" for k, v in shape)


def load(path: str | Path) -> tuple[Plan, dict[str, Any]]:
    """Read, validate and hash a plan file; returns the plan and the raw JSON it was parsed from."""
    from workbench.jsonfile import read_json

    raw = read_json(path, PlanError, "plan", "see data/plans/ for an example")
    return parse(raw, where=str(path)), raw


def parse(raw: Any, where: str = "<plan>") -> Plan:
    if not isinstance(raw, dict):
        raise PlanError(f"{where}: a plan is a JSON object, got {type(raw).__name__}")
    if raw.get("schema") != SCHEMA:
        raise PlanError(f"{where}: schema is {raw.get('schema')!r}; this workbench reads {SCHEMA!r}")

    def get(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], ctx: str = "") -> Any:
        if key not in d:
            raise PlanError(f"{where}: missing field {ctx + key!r}")
        v = d[key]
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise PlanError(f"{where}: field {ctx + key!r} must be {name}, got {v!r}")
        return v

    variants = tuple(get(raw, "variants", list))
    from workbench.rule.variants import VARIANTS

    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or len(variants) < 2 or len(set(variants)) != len(variants):
        raise PlanError(
            f"{where}: 'variants' must be two or more distinct names from {list(VARIANTS)}; got {list(variants)}"
        )
    dec = get(raw, "decision", dict)
    decision = Decision(
        wide=get(dec, "wide", str, "decision."),
        narrow=get(dec, "narrow", str, "decision."),
        median_at_least=get(dec, "median_at_least", float, "decision."),
        ci_lower_at_least=get(dec, "ci_lower_at_least", float, "decision."),
        per_shape_ci_lower_at_least=get(dec, "per_shape_ci_lower_at_least", float, "decision."),
        confidence=get(dec, "confidence", float, "decision."),
        resamples=get(dec, "resamples", int, "decision."),
        seed=get(dec, "seed", int, "decision."),
    )
    for v in (decision.wide, decision.narrow):
        if v not in variants:
            raise PlanError(f"{where}: decision compares {v!r}, which is not among the variants {list(variants)}")
    if not 0 < decision.confidence < 1 or decision.resamples < 100:
        raise PlanError(f"{where}: decision needs 0 < confidence < 1 and resamples >= 100")
    comparisons = [(decision.wide, decision.narrow)]
    for pair in raw.get("comparisons", []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in variants for p in pair)):
            raise PlanError(f"{where}: each comparison is [wide, narrow] with names from {list(variants)}; got {pair!r}")
        if tuple(pair) not in comparisons:
            comparisons.append(tuple(pair))
    order_scheme = get(raw, "order_scheme", str)
    if order_scheme != "all_orders":
        raise PlanError(f"{where}: order_scheme {order_scheme!r} is not supported; use 'all_orders'")
    kernel = get(raw, "kernel", dict)
    if kernel.get("from") not in ("capture", "fixture", "file", "imported") or (
            kernel["from"] == "file" and "path" not in kernel):
        raise PlanError(
            f"{where}: 'kernel' must be {{\"from\": \"capture\"}}, {{\"from\": \"fixture\"}} or "
            f"{{\"from\": \"file\", \"path\": ...}}; got {kernel!r}"
        )
    # A plan describing an imported record (``bench import``) was not written by the workbench and cannot be
    # run: it may leave unrecorded settings null and name shapes by the source's family labels.
    imported = kernel["from"] == "imported"
    n_orders = len(list(itertools.permutations(variants)))

    def stage(d: Mapping[str, Any], ctx: str) -> Stage:
        def shapes(key: str) -> tuple[Shape, ...]:
            seq = get(d, key, list, ctx)
            out = []
            for i, s in enumerate(seq):
                if not isinstance(s, dict) or not s or not all(
                    (isinstance(v, int) and not isinstance(v, bool) and v >= 1)
                    or (imported and k == "family" and isinstance(v, str) and v) for k, v in s.items()
                ):
                    raise PlanError(f"{where}: {ctx}{key}[{i}] must map dimension names to sizes >= 1; got {s!r}")
                out.append(tuple((str(k), v if isinstance(v, str) else int(v)) for k, v in s.items()))
            return tuple(out)

        st = Stage(
            sequence=shapes("sequence"),
            small=shapes("small"),
            calls_sequence=get(d, "calls_sequence", int, ctx),
            calls_small=get(d, "calls_small", int, ctx),
            processes=get(d, "processes", int, ctx),
            rounds_per_process=get(d, "rounds_per_process", int, ctx),
            warmup_s=get(d, "warmup_s", float, ctx),
            xblock=None if imported and d.get("xblock", 0) is None else get(d, "xblock", int, ctx),
        )
        if not st.sequence and not st.small:
            raise PlanError(f"{where}: {ctx}sequence and {ctx}small are both empty; nothing would be measured")
        if min(st.calls_sequence, st.calls_small, st.processes, st.rounds_per_process) < 1:
            raise PlanError(f"{where}: {ctx}calls_*, processes and rounds_per_process must be >= 1")
        if st.rounds_per_process % n_orders:
            raise PlanError(
                f"{where}: {ctx}rounds_per_process = {st.rounds_per_process} is not a multiple of the "
                f"{n_orders} orders of {len(variants)} variants; 'all_orders' runs each order equally often"
            )
        if st.xblock is not None and (st.xblock < 1 or st.xblock & (st.xblock - 1)):
            raise PlanError(f"{where}: {ctx}xblock = {st.xblock} must be a power of two (tl.arange needs one)")
        return st

    return Plan(
        name=get(raw, "name", str),
        program=get(raw, "program", str),
        kernel=tuple(sorted((str(k), str(v)) for k, v in kernel.items())),
        variants=variants,
        comparisons=tuple(comparisons),
        order_scheme=order_scheme,
        l2_flush=None if imported and raw.get("l2_flush", 0) is None else get(raw, "l2_flush", bool),
        l2_flush_mib=int(raw.get("l2_flush_mib", 256)),
        telemetry_interval_s=(None if imported and raw.get("telemetry_interval_s", 0) is None
                              else get(raw, "telemetry_interval_s", float)),
        seed=get(raw, "seed", int),
        gpu=stage(get(raw, "gpu", dict), "gpu."),
        dry_run=(None if imported and raw.get("dry_run", 0) is None
                 else stage(get(raw, "dry_run", dict), "dry_run.")),
        decision=decision,
        sha256=digest(raw),
    )


def schedule(plan: Plan, dry_run: bool) -> list[list[tuple[str, ...]]]:
    """For each process, its rounds: each round is an order of the variants. Every order occurs
    ``rounds_per_process / n!`` times in every process; rounds are shuffled with ``seed + process``."""
    st = plan.stage(dry_run)
    orders = list(itertools.permutations(plan.variants))
    out = []
    for p in range(st.processes):
        rounds = orders * (st.rounds_per_process // len(orders))
        perm = np.random.default_rng(plan.seed + p).permutation(len(rounds))
        out.append([rounds[i] for i in perm])
    return out
