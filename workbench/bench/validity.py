"""Validity checks of a run record, computed before any ratio is read.

Stage: bench (report). A ratio from a run that compiled during a measured block, that ran some order of the
variants more often than another, or whose variants disagreed with eager is not evidence; each check below
is a pure function of the record and says what it looked at. Works for the workbench's own records (per-block
flags) and for imported ones (per-process counts, per-block summaries).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    passed: bool | None  # None: the record holds no evidence either way
    detail: str


def bitwise(rec: Mapping[str, Any]) -> Check:
    cs = rec["correctness"]
    bad = [f"{c['variant']}@{c['shape']} (process {c['process']})" for c in cs if not c["bitwise_equal"]]
    after = [b for b in rec["blocks"] if b.get("outputs_bitwise_equal") is False]
    n_after = sum(1 for b in rec["blocks"] if b.get("outputs_bitwise_equal") is not None)
    detail = f"{len(cs) - len(bad)}/{len(cs)} variant x shape x process checks equal to eager"
    detail += f"; after-block re-checks: {n_after - len(after)}/{n_after}" if n_after else "; no after-block re-check recorded"
    return Check("bitwise equal to eager", not bad and not after, detail + (f"; differs: {bad[:5]}" if bad else ""))


def no_compiles(rec: Mapping[str, Any]) -> Check:
    per_block = [b.get("compiled_during_block") for b in rec["blocks"]]
    if any(v is not None for v in per_block):
        n = sum(1 for v in per_block if v)
        return Check("no compilation during measured blocks", n == 0, f"{n} of {len(per_block)} blocks compiled")
    procs = rec.get("processes") or []
    counts = [p.get("compiles_during_measurement") for p in procs]
    if counts and all(isinstance(c, int) for c in counts):
        return Check("no compilation during measured blocks", sum(counts) == 0,
                     f"compiles during measurement per process: {counts}")
    return Check("no compilation during measured blocks", None, "not recorded (the interpreter compiles nothing)")


def balanced_orders(rec: Mapping[str, Any]) -> Check:
    """Every order of the variants occurs equally often in every process (one count per round)."""
    rounds: dict[tuple[int, int], tuple[str, ...]] = {}
    for b in rec["blocks"]:
        rounds[(b["process"], b["round"])] = tuple(b["order"])
    by_proc: dict[int, Counter] = {}
    for (p, _), order in rounds.items():
        by_proc.setdefault(p, Counter())[order] += 1
    variants = list(rec["variants"])
    import math

    n_orders = math.factorial(len(variants))
    ok = all(len(c) == n_orders and len(set(c.values())) == 1 for c in by_proc.values())
    detail = "; ".join(f"process {p}: {len(c)} orders x {sorted(set(c.values()))}" for p, c in sorted(by_proc.items()))
    return Check(f"balanced orders (all {n_orders} orders equally often per process)", ok, detail)


def complete_rounds(rec: Mapping[str, Any]) -> Check:
    rounds: dict[tuple[int, int], set[str]] = {}
    for b in rec["blocks"]:
        rounds.setdefault((b["process"], b["round"]), set()).add(b["variant"])
    want = set(rec["variants"])
    missing = [k for k, v in rounds.items() if v != want]
    return Check("every round has a block of every variant", not missing,
                 f"{len(rounds) - len(missing)}/{len(rounds)} rounds complete")


def checks(rec: Mapping[str, Any]) -> tuple[Check, ...]:
    return (bitwise(rec), no_compiles(rec), balanced_orders(rec), complete_rounds(rec))


def position_means(rec: Mapping[str, Any], field: str) -> dict[str, dict[int, float]]:
    """Mean sequence time per variant by its position in the round (0 = ran first): a variant that is
    faster whenever it runs later shows a position effect."""
    acc: dict[str, dict[int, list[float]]] = {}
    for b in rec["blocks"]:
        v = b.get(field)
        if v is not None:
            acc.setdefault(b["variant"], {}).setdefault(b["position"], []).append(float(v))
    return {n: {p: sum(xs) / len(xs) for p, xs in sorted(d.items())} for n, d in acc.items()}


def telemetry_by_variant(rec: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Median over blocks of the per-block SM clock and power summaries, and the mean share of samples at
    the software power cap (imported records: per-block summaries)."""
    import statistics

    out: dict[str, dict[str, float]] = {}
    for n in rec["variants"]:
        ts = [b["telemetry_summary"] for b in rec["blocks"] if b["variant"] == n and b.get("telemetry_summary")]
        if ts:
            out[n] = {"sm_clock_mhz": statistics.median(t["sm_median"] for t in ts),
                      "power_w": statistics.median(t["power_w_median"] for t in ts),
                      "power_cap_share": sum(t["reason_fraction"]["sw_power_cap"] for t in ts) / len(ts),
                      "blocks": len(ts)}
    return out
