"""Paired statistics over run records: pure numpy, explicit seeds, no clocks.

Stage: bench (statistics). The unit of evidence is a *round*: one block of every variant in one process, run
back to back in a pre-registered order. For a pair (wide, narrow) each round gives one paired ratio
``t_wide / t_narrow`` (above 1: narrow is faster), for the whole sequence (``sequence_ms``) or for one shape
(the median of that block's calls at the shape). Summaries are the **median of paired ratios** (never a ratio
of medians) with a **percentile bootstrap** confidence interval: resample the rounds with replacement
``resamples`` times (``numpy.random.default_rng(seed).integers(0, n, (resamples, n))``, the same draw as
``scipy.stats.bootstrap``), take the median of each resample, and read the ``(1-c)/2`` and ``(1+c)/2``
percentiles (Efron & Tibshirani 1993, ch. 13).

The decision rule is the plan's, written before the data existed (:class:`workbench.bench.plan.Decision`).
Sensitivity slices (by process, by which variant of the pair ran first) are reported beside it, never used
to change it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.bench.plan import Decision, Plan
from workbench.errors import InputError


class NoTimingsError(InputError):
    """The record holds no timings (a dry run) or not the variants asked for."""


@dataclass(frozen=True, slots=True)
class Summary:
    median: float
    lo: float
    hi: float
    n: int


@dataclass(frozen=True, slots=True)
class Criterion:
    text: str
    value: float
    threshold: float
    passed: bool


@dataclass(frozen=True, slots=True)
class Verdict:
    wide: str
    narrow: str
    adopt: bool
    criteria: tuple[Criterion, ...]


@dataclass(frozen=True, slots=True)
class Comparison:
    wide: str
    narrow: str
    sequence: Summary | None
    shapes: tuple[tuple[str, Summary], ...]  # small shapes, in plan order
    by_process: tuple[tuple[int, Summary], ...]
    by_first: tuple[tuple[str, Summary], ...]  # "wide first" / "narrow first"
    by_order: tuple[tuple[str, Summary], ...] = ()  # each full order of the round, e.g. "N>B0>N1"


def bootstrap_ci(x: Sequence[float] | np.ndarray, statistic: Callable[..., Any] = np.median, resamples: int = 10_000,
                 confidence: float = 0.95, seed: int = 0) -> tuple[float, float]:
    """Percentile-bootstrap interval of ``statistic`` over the 1-D sample ``x``."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size < 2:
        raise InputError(f"bootstrap needs a 1-D sample of at least 2 values, got shape {x.shape}")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, (resamples, x.size))
    theta = statistic(x[idx], axis=-1)
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.percentile(theta, [100 * alpha, 100 * (1 - alpha)])
    return float(lo), float(hi)


def summarize(x: Sequence[float] | np.ndarray, resamples: int, confidence: float, seed: int) -> Summary:
    x = np.asarray(x, dtype=float)
    if x.size == 1:
        return Summary(float(x[0]), float("nan"), float("nan"), 1)
    lo, hi = bootstrap_ci(x, np.median, resamples, confidence, seed)
    return Summary(float(np.median(x)), lo, hi, int(x.size))


def _block_time(block: Mapping[str, Any], what: str, sequence_field: str = "sequence_ms") -> float | None:
    """The block's time for ``what`` ("sequence" or a shape key): the record's sequence field, else the median
    of the block's calls at the shape, else (imported records) the source's per-call mean at the shape."""
    if what == "sequence":
        return block.get(sequence_field)
    calls = block.get("small_calls_ms", {}).get(what)
    if calls is None:
        calls = block.get("sequence_calls_ms", {}).get(what)
    if calls is None:  # imported: one per-call mean per shape (CUDA events in the source), no per-call list
        mean = block.get("small_per_call_us", {}).get(what, block.get("sequence_per_call_us", {}).get(what))
        return None if mean is None else float(mean)
    if not calls or any(c is None for c in calls):
        return None
    return float(np.median(calls))


def paired(record: Mapping[str, Any], wide: str, narrow: str, what: str = "sequence") -> list[dict[str, Any]]:
    """One entry per round holding both variants: process, round, who ran first, and the ratio."""
    field = record.get("sequence_field", "sequence_ms")
    rounds: dict[tuple[int, int], dict[str, Any]] = {}
    for b in record["blocks"]:
        rounds.setdefault((b["process"], b["round"]), {})[b["variant"]] = b
    out = []
    for (p, r), blocks in sorted(rounds.items()):
        if wide not in blocks or narrow not in blocks:
            continue
        tw, tn = _block_time(blocks[wide], what, field), _block_time(blocks[narrow], what, field)
        if tw is None or tn is None:
            continue
        first = "wide first" if blocks[wide]["position"] < blocks[narrow]["position"] else "narrow first"
        order = ">".join(blocks[wide]["order"])
        out.append({"process": p, "round": r, "first": first, "order": order, "wide_ms": tw, "narrow_ms": tn,
                    "ratio": tw / tn})
    return out


def ratios(record: Mapping[str, Any], wide: str, narrow: str, what: str = "sequence") -> np.ndarray:
    return np.array([e["ratio"] for e in paired(record, wide, narrow, what)], dtype=float)


def compare(record: Mapping[str, Any], plan: Plan, wide: str, narrow: str) -> Comparison:
    if not record.get("timing_claims"):
        raise NoTimingsError(
            f"record of mode {record.get('mode')!r} holds no timings (a dry run checks correctness only); "
            "run the plan on a CUDA machine for statistics"
        )
    d = plan.decision
    st = plan.gpu
    seq = paired(record, wide, narrow, "sequence") if st.sequence else []
    if st.sequence and not seq:
        raise NoTimingsError(f"record has no round with both {wide!r} and {narrow!r} timed")
    s = lambda xs: summarize([e["ratio"] for e in xs], d.resamples, d.confidence, d.seed)  # noqa: E731
    from workbench.bench.plan import shape_key

    shapes = tuple((shape_key(sh), s(paired(record, wide, narrow, shape_key(sh)))) for sh in st.small)
    by_process = tuple((p, s([e for e in seq if e["process"] == p])) for p in sorted({e["process"] for e in seq}))
    by_first = tuple((f, s([e for e in seq if e["first"] == f])) for f in ("wide first", "narrow first")
                     if any(e["first"] == f for e in seq))
    by_order = tuple((o, s([e for e in seq if e["order"] == o])) for o in sorted({e["order"] for e in seq}))
    return Comparison(wide, narrow, s(seq) if seq else None, shapes, by_process, by_first, by_order)


def decide(comparison: Comparison, decision: Decision) -> Verdict:
    """Apply the pre-registered rule; every criterion is reported, passed or not."""
    crit = []
    if comparison.sequence is not None:
        crit.append(Criterion(f"median paired ratio {decision.wide}/{decision.narrow} over the sequence",
                              comparison.sequence.median, decision.median_at_least,
                              comparison.sequence.median >= decision.median_at_least))
        crit.append(Criterion(f"{decision.confidence:.0%} CI lower bound over the sequence", comparison.sequence.lo,
                              decision.ci_lower_at_least, comparison.sequence.lo >= decision.ci_lower_at_least))
    for key, sm in comparison.shapes:
        crit.append(Criterion(f"CI lower bound at small shape {key}", sm.lo, decision.per_shape_ci_lower_at_least,
                              bool(sm.lo >= decision.per_shape_ci_lower_at_least)))
    return Verdict(decision.wide, decision.narrow, bool(crit) and all(c.passed for c in crit), tuple(crit))
