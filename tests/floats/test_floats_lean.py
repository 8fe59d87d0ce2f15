"""Lean text is deterministic and matches the reviewed golden files (text only: no Lean toolchain here).

Regenerate on purpose with ``WB_UPDATE_GOLDEN=1 pytest tests/floats/test_floats_lean.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.floats.check import Target, check
from workbench.floats.cli import lean_text
from workbench.floats.cuda import parse_kernel
from workbench.floats.spec import capture_spec

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data/floats/corpus"
GOLDEN = Path(__file__).parent / "golden"
CASES = [  # (program, kernel, fma) -> golden file
    ("relu", "ternary", True),
    ("leaky_relu", "float_literal", True),
    ("leaky_relu", "double_literal", True),
    ("scale_shift", "mul_add", True),
    ("minimum", "fminf", True),
    ("sigmoid", "expf", True),
]


def _text(prog: str, kernel: str, fma: bool) -> str:
    spec = capture_spec(CORPUS / prog / "spec.py")
    k = parse_kernel(CORPUS / prog / f"{kernel}.cu")
    v = check(spec, k, Target(fma=fma), exhaustive=False, progress=False, random_cases=1 << 12)
    return lean_text(spec, k, v)


@pytest.mark.parametrize(("prog", "kernel", "fma"), CASES, ids=lambda x: str(x))
def test_lean_text_matches_golden(prog: str, kernel: str, fma: bool) -> None:
    text = _text(prog, kernel, fma)
    path = GOLDEN / f"{prog}_{kernel}.lean"
    if os.environ.get("WB_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()
    assert "proved" not in text.lower().replace("not been checked", "")


def test_counterexample_statement_is_closed_and_decidable() -> None:
    text = (GOLDEN / "relu_ternary.lean").read_text()
    assert "theorem relu_kernel_ne_spec_at_7FC00000 :" in text
    assert ("(kernel (Float32.ofBits 0x7FC00000)).toBits ≠ (spec (Float32.ofBits 0x7FC00000)).toBits := by decide"
            in text)
    assert "(kernel (Float32.ofBits 0x7FC00000)).toBits = 0x00000000 ∧ (spec (Float32.ofBits 0x7FC00000)).isNaN = true" in text


def test_method_has_the_spec_as_postcondition() -> None:
    text = (GOLDEN / "leaky_relu_float_literal.lean").read_text()
    assert "method leaky_relu_kernel (x_ : Array Float32) (mut out : Array Float32) (n : Nat)" in text
    assert "ensures ∀ i < out.size, out[i]! = spec x_[i]!" in text
    assert "prove_correct leaky_relu_kernel by loom_solve" in text
    assert "Text only: this file has not been checked by Lean." in text
