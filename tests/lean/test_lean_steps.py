"""Tactic positions read from Lean text (no Lean needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.lean.paths import PROJECT
from workbench.lean.steps import tactic_steps, theorems

SRC = """/-! header -/
theorem a (x : Int) : x = x := by
  rfl

theorem b (h : p ∧ q) : q ∧ p := by
  obtain ⟨hp, hq⟩ := h
  refine ⟨hq,
    hp⟩   -- a continuation, not a new step

theorem c : True := trivial

@[simp] theorem d (n : Nat) : n + 0 = n := by simp

example : 1 = 1 := by
  by_cases h : True
  · rfl
  · rfl
"""


def test_lean_theorems_in_order():
    assert theorems(SRC) == ("a", "b", "c", "d", "example@14")


def test_lean_steps_positions():
    a = tactic_steps(SRC, "a")
    assert [(s.line, s.col, s.end_col, s.text) for s in a] == [(2, 2, 5, "rfl")]
    b = tactic_steps(SRC, "b")
    assert [s.text.splitlines()[0] for s in b] == ["obtain ⟨hp, hq⟩ := h", "refine ⟨hq,"]
    assert (b[1].line, b[1].end_line, b[1].end_col) == (6, 7, 7)
    assert tactic_steps(SRC, "c") == ()
    d = tactic_steps(SRC, "d")
    assert [(s.line, s.col, s.text) for s in d] == [(11, 46, "simp")]
    ex = tactic_steps(SRC, "example@14")
    assert [(s.col, s.text) for s in ex] == [(2, "by_cases h : True"), (4, "rfl"), (4, "rfl")]


def test_lean_steps_unknown_theorem():
    with pytest.raises(KeyError):
        tactic_steps(SRC, "zzz")


@pytest.mark.parametrize("path", sorted((PROJECT / "Narrowing").glob("*.lean")), ids=lambda p: p.name)
def test_lean_steps_cover_library_proofs(path: Path):
    text = path.read_text()
    for name in theorems(text):
        for s in tactic_steps(text, name):
            line = text.splitlines()[s.line]
            assert line[s.col:].strip(), (name, s)
            assert s.end_col <= len(text.splitlines()[s.end_line])
