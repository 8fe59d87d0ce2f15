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


def random_term(rng, leaves: list, ops: str, max_leaves: int = 5):
    """A random term over ``leaves`` with binary ``ops`` (a string of ``+-*/%``, ``/`` for ``//``) and at most
    ``max_leaves`` leaves, drawn from a seeded ``random.Random``: the deterministic twin of the Hypothesis
    strategies, for tests that must count how many random kernels were safe (so they cannot pass vacuously)."""
    apply = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
             "/": lambda a, b: a // b, "%": lambda a, b: a % b}

    def build(n: int):
        if n == 1:
            return rng.choice(leaves)
        k = rng.randint(1, n - 1)
        return apply[rng.choice(ops)](build(k), build(n - k))

    return build(rng.randint(1, max_leaves))


def random_big(rng, ranges: list[tuple[int, int]]) -> int:
    """One of the Hypothesis ``BIG`` alternatives: a range chosen uniformly, then a value in it."""
    lo, hi = rng.choice(ranges)
    return rng.randint(lo, hi)
