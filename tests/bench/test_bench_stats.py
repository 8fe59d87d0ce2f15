"""Statistics: the percentile bootstrap matches scipy.stats.bootstrap on synthetic data; paired ratios,
per-shape summaries, slices and the pre-registered decision behave as written."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from workbench.bench import fixture, records, stats
from workbench.errors import InputError

PLAN = "data/plans/nested_cat_add-confirm.json"


@pytest.mark.parametrize("seed", [0, 1, 20260926])
@pytest.mark.parametrize("n", [8, 24, 101])
def test_bootstrap_matches_scipy_percentile(seed, n):
    x = np.random.default_rng(seed + 1000).lognormal(0.1, 0.05, n)
    ours = stats.bootstrap_ci(x, np.median, 10_000, 0.95, seed)
    ref = scipy.stats.bootstrap((x,), np.median, n_resamples=10_000, confidence_level=0.95, method="percentile",
                                rng=np.random.default_rng(seed), vectorized=True)
    assert ours == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=1e-12)


def test_bootstrap_matches_scipy_for_the_mean_too():
    x = np.random.default_rng(5).normal(1.0, 0.2, 30)
    ours = stats.bootstrap_ci(x, np.mean, 10_000, 0.90, 7)
    ref = scipy.stats.bootstrap((x,), np.mean, n_resamples=10_000, confidence_level=0.90, method="percentile",
                                rng=np.random.default_rng(7))
    assert ours == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=1e-12)


def test_bootstrap_needs_two_values():
    with pytest.raises(InputError, match="at least 2 values"):
        stats.bootstrap_ci([1.0])


def test_paired_ratios_are_per_round_not_ratios_of_medians():
    ab, ba = ["A", "B"], ["B", "A"]
    rec = {"timing_claims": True, "blocks": [
        {"process": 0, "round": 0, "variant": "A", "position": 0, "order": ab, "sequence_ms": 10.0},
        {"process": 0, "round": 0, "variant": "B", "position": 1, "order": ab, "sequence_ms": 5.0},
        {"process": 0, "round": 1, "variant": "A", "position": 1, "order": ba, "sequence_ms": 30.0},
        {"process": 0, "round": 1, "variant": "B", "position": 0, "order": ba, "sequence_ms": 20.0},
        {"process": 1, "round": 0, "variant": "A", "position": 0, "order": ab, "sequence_ms": 12.0},
        {"process": 1, "round": 0, "variant": "B", "position": 1, "order": ab, "sequence_ms": 12.0},
    ]}
    p = stats.paired(rec, "A", "B")
    assert [e["ratio"] for e in p] == [2.0, 1.5, 1.0]
    assert [e["first"] for e in p] == ["wide first", "narrow first", "wide first"]
    assert np.median(stats.ratios(rec, "A", "B")) == 1.5


def test_synthetic_effect_is_recovered_and_adopted():
    rec = fixture.synthetic_record(PLAN, effect=1.08, noise=0.01, seed=3)
    plan = records.verify(rec)
    c = stats.compare(rec, plan, "N", "N1")
    assert c.sequence.n == 24 and c.sequence.lo <= 1.08 <= c.sequence.hi * 1.002
    assert len(c.shapes) == 10 and all(s.lo > 1.05 for _, s in c.shapes)
    assert [p for p, _ in c.by_process] == [0, 1] and all(s.n == 12 for _, s in c.by_process)
    assert {f for f, _ in c.by_first} == {"wide first", "narrow first"}
    assert len(c.by_order) == 6 and all(s.n == 4 for _, s in c.by_order)  # each order twice per process
    v = stats.decide(c, plan.decision)
    assert v.adopt and all(cr.passed for cr in v.criteria) and len(v.criteria) == 12


def test_one_regressing_small_shape_blocks_adoption():
    plan = records.verify(fixture.synthetic_record(PLAN))
    key = "rows=3000,q=1000,k=120,v=136"  # the shape where report 1's first rule failed
    rec = fixture.synthetic_record(PLAN, effect=1.08, noise=0.01, seed=4, shape_effects={key: 0.95})
    v = stats.decide(stats.compare(rec, plan, "N", "N1"), plan.decision)
    failed = [cr.text for cr in v.criteria if not cr.passed]
    assert not v.adopt and failed == [f"CI lower bound at small shape {key}"]


def test_no_effect_is_not_adopted():
    rec = fixture.synthetic_record(PLAN, effect=1.0, noise=0.02, seed=5)
    plan = records.verify(rec)
    v = stats.decide(stats.compare(rec, plan, "N", "N1"), plan.decision)
    assert not v.adopt and not v.criteria[0].passed


def test_dry_run_records_have_no_statistics():
    rec = fixture.synthetic_record(PLAN)
    rec["timing_claims"], rec["mode"] = False, "dry-run"
    with pytest.raises(stats.NoTimingsError, match="holds no timings"):
        stats.compare(rec, records.verify(rec), "N", "N1")
