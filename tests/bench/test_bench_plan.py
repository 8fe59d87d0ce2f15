"""Plans: validation with clear errors, a stable hash, and a balanced, deterministic order schedule."""

from __future__ import annotations

import collections
import copy
import json

import pytest

from workbench.bench import plan as P

PLAN = "data/plans/nested_cat_add-confirm.json"


def _raw():
    return json.loads(open(PLAN).read())


def _write(tmp_path, raw, name="plan.json"):
    p = tmp_path / name
    p.write_text(json.dumps(raw) if not isinstance(raw, str) else raw)
    return p


def test_committed_plan_is_report_1s_design():
    plan, _ = P.load(PLAN)
    assert plan.variants == ("B0", "N", "N1")
    assert (plan.decision.wide, plan.decision.narrow) == ("N", "N1")
    assert (plan.decision.median_at_least, plan.decision.ci_lower_at_least,
            plan.decision.per_shape_ci_lower_at_least) == (1.03, 1.0, 0.97)
    assert plan.decision.resamples == 10_000
    assert len(plan.gpu.sequence) == 14 and len(plan.gpu.small) == 10
    assert (plan.gpu.calls_sequence, plan.gpu.calls_small) == (20, 50)
    assert plan.gpu.processes * plan.gpu.rounds_per_process == 24
    assert plan.gpu.warmup_s >= 2.0


def test_hash_is_canonical_and_changes_with_content(tmp_path):
    raw = _raw()
    a = P.parse(raw).sha256
    reordered = dict(reversed(list(raw.items())))
    assert P.parse(reordered).sha256 == a
    changed = copy.deepcopy(raw)
    changed["decision"]["median_at_least"] = 1.02
    assert P.parse(changed).sha256 != a


def test_schedule_runs_every_order_equally_often_in_every_process():
    plan, _ = P.load(PLAN)
    sched = P.schedule(plan, dry_run=False)
    assert len(sched) == 2
    for rounds in sched:
        counts = collections.Counter(rounds)
        assert len(counts) == 6 and set(counts.values()) == {2}
    assert sched == P.schedule(plan, dry_run=False)  # a pure function of the plan
    assert sched[0] != sched[1]  # shuffled per process


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda r: r.update(schema="workbench.bench.plan/0"), "schema is 'workbench.bench.plan/0'"),
        (lambda r: r.pop("decision"), "missing field 'decision'"),
        (lambda r: r["gpu"].update(rounds_per_process=5), "rounds_per_process = 5 is not a multiple of the 6 orders"),
        (lambda r: r.update(variants=["B0", "N7"]), "'variants' must be two or more distinct names"),
        (lambda r: r["decision"].update(narrow="D"), "decision compares 'D', which is not among the variants"),
        (lambda r: r["gpu"].update(xblock=1000), "xblock = 1000 must be a power of two"),
        (lambda r: r["gpu"].update(calls_small="50"), "field 'gpu.calls_small' must be int, got '50'"),
        (lambda r: r["dry_run"]["small"].append({"rows": 0}), "dry_run.small\\[2\\] must map dimension names to sizes >= 1"),
        (lambda r: r.update(order_scheme="random"), "order_scheme 'random' is not supported"),
        (lambda r: r.update(kernel={"from": "thin air"}), "'kernel' must be"),
    ],
)
def test_malformed_plans_are_refused_by_field(tmp_path, edit, message):
    raw = _raw()
    edit(raw)
    with pytest.raises(P.PlanError, match=message):
        P.load(_write(tmp_path, raw))


def test_broken_json_and_missing_file(tmp_path):
    with pytest.raises(P.PlanError, match="is not valid JSON \\(line 1"):
        P.load(_write(tmp_path, "{not json"))
    with pytest.raises(P.PlanError, match="does not exist"):
        P.load(tmp_path / "nope.json")
