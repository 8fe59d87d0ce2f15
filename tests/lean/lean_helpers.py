"""Shared helpers of the Lean stage's tests (not a test module): a fake Lake project and server commands."""

from __future__ import annotations

import sys
from pathlib import Path

FAKE_SERVER = Path(__file__).resolve().parent / "fake_lean_server.py"

DEMO = """theorem demo (a : Int) (h : 1 ≤ a) : 0 ≤ a := by
  have m0 : 0 ≤ a - 1 := by omega
  omega

theorem bad (b : Int) : 0 ≤ b * b := by
  sorry
"""


def fake_project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.24.0\n")
    (root / "lakefile.toml").write_text('name = "fake"\n')
    (root / "Demo.lean").write_text(DEMO)
    return root


def server(scenario: str) -> list[str]:
    return [sys.executable, str(FAKE_SERVER), scenario]
