"""Checks that need a real Lean toolchain (`lake` on PATH); skipped with the reason where it is absent."""

from __future__ import annotations

import shutil

import pytest

from workbench.lean.paths import PROJECT

pytestmark = [pytest.mark.lean, pytest.mark.slow]

NO_LAKE = "Lean is not installed (no `lake` on PATH): the Lake project was NOT built or checked here; install elan (see docs/lean.md)"


@pytest.fixture(autouse=True)
def _need_lake():
    if shutil.which("lake") is None:
        pytest.skip(NO_LAKE)


def test_lean_real_project_builds_with_standard_axioms_only():
    from workbench.lean.check import check_project

    report = check_project(PROJECT)
    bad = [t for t in report.theorems if not t.ok]
    assert not bad, "\n".join(report.lines())


def test_lean_real_session_goals_of_a_library_proof():
    from workbench.lean.session import LeanSession

    with LeanSession(PROJECT, timeout=600) as s:
        steps = s.step_goals("Narrowing/Int.lean", "wrap32_eq_self_of_fits32")
        assert steps[0].before.status == "goals"
        assert steps[-1].after.status == "complete"
        assert not [d for d in s.diagnostics("Narrowing/Int.lean") if d.severity == 1]


def test_lean_real_instance_final_theorems_are_checked():
    """Where Lean exists: every shipped instance's narrowing_exact (no Safe hypothesis) is among the audited
    theorems and uses only the standard axioms."""
    from workbench.lean.check import check_project

    report = check_project(PROJECT)
    audited = {t.name: t for t in report.theorems}
    finals = [n for n in audited if n.endswith(".narrowing_exact")]
    assert len(finals) == len(list((PROJECT / "Instances").glob("*.lean")))
    assert all(audited[n].ok for n in finals)
