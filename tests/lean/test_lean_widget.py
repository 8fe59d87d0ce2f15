"""GoalStepper logic without a browser: stepping with a fake server, and the no-Lean and crash states."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lean_helpers import fake_project, server  # noqa: E402

from workbench.lean.paths import PROJECT  # noqa: E402
from workbench.widgets.goal_stepper import GoalStepper, GoalStepperModel, render_html  # noqa: E402


def test_lean_widget_steps_forward_and_back(tmp_path):
    proj = fake_project(tmp_path / "p")
    m = GoalStepperModel(proj / "Demo.lean", project=proj, server_command=server("happy"), timeout=10)
    try:
        assert m.theorems == ("demo", "bad")
        v = m.current()
        assert (v.theorem, v.index, v.count) == ("demo", 0, 2)
        assert v.before.goals[0].hypotheses == ("a : Int", "h : 1 ≤ a")
        m.forward()
        assert m.current().after.status == "complete"
        m.forward()  # stays on the last step
        assert m.index == 1
        m.back()
        m.back()
        assert m.index == 0
        m.select("bad")
        v = m.current()
        assert [d.message for d in v.diagnostics] == ["declaration uses 'sorry'"]
        assert "Goals come from the language server" in v.lean_status
        html = render_html(v)
        assert "Step 1 of 1" in html and "declaration uses" in html and "⊢ 0 ≤ b * b" in html
    finally:
        m.close()


def test_lean_widget_without_lean_says_so_and_does_not_raise(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    widget = GoalStepper(PROJECT / "Narrowing" / "Int.lean")
    assert widget.model.theorems[:2] == ("Size32.fits32", "wrap32_eq_self_of_fits32")
    banner = widget.banner.value  # the install banner: once, above the steps (issue 27)
    assert "Lean is not installed here" in banner and "elan" in banner
    assert "nothing here was checked by Lean" in banner
    assert "`" not in banner and "<code>curl https://elan.lean-lang.org" in banner  # no literal backticks
    assert "no tactic steps" in widget.view.value  # Size32.fits32 is a term-mode proof
    widget.choice.value = "Ty.wrap_eq_self_of_fits32"
    assert widget.model.steps[0].text == "cases t with"
    assert "Step 1 of 5" in widget.view.value and "goals unavailable" in widget.view.value
    assert "<b>Before:</b> <i>goals unavailable (Lean is not installed, see above)</i>" in widget.view.value
    widget.next.click()
    assert widget.model.index == 1 and "Step 2 of 5" in widget.view.value
    assert "elan" not in widget.view.value and widget.banner.value == banner  # not repeated per step
    widget.prev.click()
    assert widget.model.index == 0


def test_lean_widget_server_crash_becomes_a_message(tmp_path):
    proj = fake_project(tmp_path / "p")
    m = GoalStepperModel(proj / "Demo.lean", project=proj, server_command=server("crash"), timeout=10)
    try:
        v = m.current()
        assert v.before is None and "Lean failed at step 1 of demo" in v.message
        assert "INTERNAL PANIC" in v.message
        m.forward()
        assert m.current().before is None  # still no raise
    finally:
        m.close()


def test_lean_widget_slow_server_times_out_into_a_message(tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_LEAN_DELAY", "5")
    proj = fake_project(tmp_path / "p")
    m = GoalStepperModel(proj / "Demo.lean", project=proj, server_command=server("slow"), timeout=0.5)
    try:
        v = m.current()
        assert v.before is None
        assert "timed out after 0.5 s and was cancelled" in v.message
    finally:
        m.close()


def test_lean_widget_statement_disabled_ends_and_side_condition_note(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    widget = GoalStepper(PROJECT / "Instances" / "Tile_PoiFusedRepeat0.lean")
    model = widget.model
    assert "side_0" in model.theorems and "kernel_safe" in model.theorems and model.theorems[-1] == "narrowing_exact"
    widget.choice.value = "narrowing_exact"
    assert "Statement" in widget.view.value and "(hL : LaneOK L)" in widget.view.value
    assert "Safe" not in model.statement()
    widget.choice.value = "kernel_safe"
    assert widget.prev.disabled and not widget.next.disabled  # first step: back is disabled
    for _ in range(len(model.steps)):
        widget.next.click()
    assert model.index == len(model.steps) - 1 and widget.next.disabled and not widget.prev.disabled
    note = model.side_condition_note()
    sides = [t for t in model.theorems if t.startswith("side_")]
    assert f"states {len(sides)} `side_k` theorems" in note and "all cited by `kernel_safe`" in note
    assert "<code>side_k</code>" in widget.note.value and "`" not in widget.note.value


def test_lean_widget_reads_the_checkers_count_in_the_new_wording(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    note = GoalStepper(PROJECT / "Instances" / "Tile_PoiFusedRepeat0.lean").model.side_condition_note()
    assert "discharged 17 side conditions" in note or "17 side conditions discharged" in note
