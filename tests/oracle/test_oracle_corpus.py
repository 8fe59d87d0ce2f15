"""The oracle over every kernel the shipped checker table certifies (pointwise, indirect and reductions): 0
disagreements on active lanes, and the shipped ``data/oracle/results.json`` describes the same kernels
(regenerate it when the table changes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.contract import Verdict
from workbench.oracle.corpus import targets
from workbench.oracle.run import _Planned, _prepare, check
from workbench.oracle.symbolic import slack

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data" / "oracle" / "results.json"
REGENERATE = "regenerate with `workbench oracle --all --write data/oracle` and commit the result"


def _key(program: str, kernel: str, narrowed, modes) -> tuple:
    return (program, kernel, tuple(narrowed), tuple(modes))


def test_planning_is_deterministic_and_covers_the_boundaries():
    ts = targets()  # pointwise, indirect and reduction kernels alike
    first = [_prepare(i, t, None, 0) for i, t in enumerate(ts)]
    again = [_prepare(i, t, None, 0) for i, t in enumerate(ts)]
    assert all(isinstance(p, _Planned) for p in first)
    assert [(p.shapes, p.launches) for p in first] == [(p.shapes, p.launches) for p in again]
    for p in first:
        labels = [s.label for s in p.shapes]
        assert labels[0] in ("lower bounds", "checker counterexample (strict)"), labels
        assert any(lab.startswith(("max ", "tight ", "checker counterexample")) for lab in labels), labels
        for launch in p.launches:  # first and last program of every launch run
            xs = {pid[0] for pid in launch.pids}
            assert 0 in xs and launch.grid[0] - 1 in xs


@pytest.mark.slow
def test_every_certified_kernel_agrees_on_every_active_lane():
    ts = targets()
    assert len(ts) >= 57
    results = check(ts, progress=False)
    bad = [(r.program, r.kernel, r.verdict, r.reason) for r in results if r.verdict != Verdict.OK]
    assert not bad, bad[:3]
    assert sum(r.disagreements for r in results) == 0
    assert all(r.lanes > 1000 and len(r.shapes) >= 5 for r in results), [(r.kernel, r.lanes) for r in results]
    near = [max(s.numel for s in r.shapes) for r in results]
    assert min(near) > 2**29, "every kernel is tried at a numel near the int32 guard"
    reductions = [r for r in results if any(s.reduction for s in r.shapes)]
    looped = [r for r in reductions if any(s.loop != "none" for s in r.shapes)]
    persistent = [r for r in reductions if r not in looped]  # the whole row in one block: no steps to run
    assert len(looped) >= 9 and all(sum(s.steps_run for s in r.shapes) > 50 for r in looped)
    records = {(t.record.program, t.record.name): t.record for t in ts}

    def near_the_guard(r, s) -> bool:  # numel past 2**30, or some inequality guard within 2**30 of its bound
        rec, values = records[(r.program, r.kernel)], dict(s.values)
        slacks = [f.number(values) for g in rec.guards if (f := slack(g.text, "test")) is not None]
        return s.numel > 2**30 or any(v < 2**30 for v in slacks)

    assert all(any(s.loop == "full" and near_the_guard(r, s) for s in r.shapes) for r in looped), \
        "every looped reduction runs its full loops at some shape near the int32 guard"
    assert persistent and all(any(s.numel > 2**30 for s in r.shapes) for r in persistent)
    indirect = [r for r in results if sum(s.asserts for s in r.shapes)]
    assert len(indirect) >= 5 and all(s.outside_premise == 0 for r in indirect for s in r.shapes)

    shipped = json.loads(SHIPPED.read_text())
    assert shipped["schema"] == "workbench.oracle/1" and shipped["verdict"] == "ok", REGENERATE
    assert shipped["summary"]["disagreements"] == 0
    want = sorted(_key(r.program, r.kernel, r.narrowed, r.modes) for r in results)
    have = sorted(_key(k["program"], k["kernel"], k["narrowed"], k["checker_modes"]) for k in shipped["kernels"])
    assert have == want, f"data/oracle/results.json is stale for the checker table; {REGENERATE}"
