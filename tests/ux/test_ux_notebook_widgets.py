"""Notebook 03's widgets are live, without a browser: SpecView.for_pair re-checks through the package when a
toggle changes, a view without a checker says it is read-only; FlagsView shows a busy line while its runner
works, one error line when the runner fails, and why its button is disabled when nvcc is missing."""

from __future__ import annotations

import pytest

from workbench.floats.ptx import nvcc
from workbench.widgets.flags_view import FlagsView
from workbench.widgets.spec_view import SpecView

ROWS = [{"flags": "default", "status": "not equivalent", "mismatches": None, "exhaustive": False, "safe": True,
         "witness": {"text": "input 0x3F800000 (1.0): kernel 0x3F19999A, spec 0x3F199999"}, "undecided": []}]


def test_for_pair_checks_through_the_package_and_toggles_recheck():
    from workbench.floats import capture_spec, parse_kernel
    from workbench.floats.corpus import CORPUS

    spec, kernel = capture_spec(CORPUS / "relu/spec.py"), parse_kernel(CORPUS / "relu/ternary.cu")
    view = SpecView.for_pair(spec, kernel)  # no verdict given: it checks once (case split)
    assert view.verdict["verdict"] == "not-equivalent" and "0x7FC00000" in view.result.value
    assert not view.run.disabled and not view.device.disabled and "read-only" not in view.status.value
    assert view.witness_lines() == (6,)  # the ternary store
    view.device.value = "cpu"
    assert "stale" in view.result.value
    view.run.click()
    assert "stale" not in view.result.value and view.verdict["spec_device"] == "cpu"
    assert "PyTorch on cpu" in view.result.value


def test_a_view_without_checker_says_it_is_read_only():
    view = SpecView("s", "k", {"verdict": "equivalent", "summary": "ok"})
    assert view.run.disabled and "read-only" in view.status.value


def test_flags_view_busy_line_while_the_runner_works():
    seen = []

    def runner():
        seen.append((view.run.disabled, "recomputing" in view.status.value))
        return ROWS

    view = FlagsView("t", [], runner, computed="computed by case split")
    view.run.click()
    assert seen == [(True, True)]
    assert not view.run.disabled and view.status.value == "" and "computed by case split" in view.header.value


def test_flags_view_runner_error_is_one_line_and_keeps_the_rows():
    def runner():
        raise nvcc.NvccCompileError("nvcc failed on k.cu: error: expected a ';'")

    view = FlagsView("t", ROWS, runner, source="committed table")
    view.recompute()
    assert "recompute failed: nvcc failed on k.cu" in view.status.value
    assert "0x3F19999A" in view.table.value and "committed table" in view.header.value and not view.run.disabled


def test_flags_view_without_nvcc_disables_recompute_and_says_why(monkeypatch, tmp_path):
    def missing():
        raise nvcc.NvccNotFoundError("nvcc was not found (tried PATH)")

    monkeypatch.setattr(nvcc, "find_nvcc", missing)
    view = FlagsView.for_kernel("s.py", "k.cu", table=tmp_path / "none.json")  # no table: it would run
    assert view.run.disabled and "recompute needs nvcc: nvcc was not found" in view.status.value
    assert "class='unavailable'" in view.status.value and "not run yet" in view.table.value


@pytest.mark.parametrize("exhaustive, label", [(True, "(computed)"), (False, "case split")])
def test_flags_view_labels_a_recomputation_by_its_mode(exhaustive, label, tmp_path):
    view = FlagsView.for_kernel("s.py", "k.cu", table=tmp_path / "none.json", runner=lambda: ROWS,
                                exhaustive=exhaustive)
    assert label in view.header.value
