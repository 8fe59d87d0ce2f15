"""Red team ``red2``: the independent oracle confirms every finding and agrees with every certified probe.

The verdicts themselves are asserted by ``test_redteam.py`` (the cases are part of its table); here each
finding's committed record (those without a fixed oracle lane) runs through ``workbench.oracle`` (Triton's interpreter on the record's own text,
size arguments typed int64 vs int32, its own shape search over shapes that satisfy every guard, sharing no code
with ``workbench.kir``/``workbench.check``): a finding must be ``not-equivalent`` there (the narrowing the
checker certified before its fix is unsafe), and a certified probe must be ``ok``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "redteam"))

from redteam_cases import RED2_FINDINGS, RED2_PROBES, directory  # noqa: E402

pytest.importorskip("triton")


def _oracle(case, modes=("observable",)):
    from workbench.oracle.corpus import Target, parse_record
    from workbench.oracle.run import check

    (path,) = sorted(directory(case).glob("*.json"))
    d = json.loads(path.read_text())
    rec = parse_record(d, str(path))
    [got] = check([Target(rec, modes, tuple(a["name"] for a in d["size_args"]))], progress=False)
    return got


# Findings with a fixed lane (``case.oracle``) are confirmed by ``test_redteam.py::test_oracle_confirms_findings``
# (the red-team interpreter oracle at that lane and block size: the workbench oracle's block rotation
# includes tiles Triton refuses for them); the others here, by the workbench oracle's own shape search.
# red2-dead-branch-divisor-zero-in-n differs in no access or stored value (the interpreter's integer division by
# zero returns 0): its evidence is the narrowed kernel's LLVM IR (test below).
LLVM_IR = {"red2-dead-branch-divisor-zero-in-n"}
SEARCHED = [c for c in RED2_FINDINGS if c.oracle is None and c.id not in LLVM_IR]


@pytest.mark.parametrize("case", SEARCHED, ids=[c.id for c in SEARCHED])
def test_the_oracle_confirms_each_finding(case):
    got = _oracle(case)
    assert got.verdict.value == "not-equivalent", (case.id, got.verdict, got.findings[:2])
    assert got.disagreements > 0


CERTIFIED_PROBES = [c for c in RED2_PROBES if c.expect == ("certified", "certified") and c.oracle is None]


@pytest.mark.parametrize("case", CERTIFIED_PROBES, ids=[c.id for c in CERTIFIED_PROBES])
def test_the_oracle_agrees_with_each_certified_probe(case):
    got = _oracle(case, ("strict", "observable"))
    assert got.verdict.value == "ok", (case.id, got.verdict, got.findings[:2])


def test_the_dead_branch_division_is_by_zero_in_the_narrowed_llvm_ir(tmp_path):
    """red2-dead-branch-divisor-zero-in-n: Triton compiles both branches of tl.where; in the narrowed kernel the
    divisor ks0*ks0 is an i32 product (0 at ks0 = 65536, which the guard s27 <= 100000 admits) feeding an
    unconditional sdiv: undefined in LLVM, while the wide kernel divides by 2**32 in i64."""
    import importlib.util
    import re

    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, compile

    from workbench.capture.record import jit_function_text

    case = next(c for c in RED2_FINDINGS if c.id == "red2-dead-branch-divisor-zero-in-n")
    (path,) = sorted(directory(case).glob("*.json"))
    d = json.loads(path.read_text())
    mod = tmp_path / "kernel_text.py"
    mod.write_text("import triton\nimport triton.language as tl\n\n@triton.jit\n" + jit_function_text(d["source"], d["name"]))
    spec = importlib.util.spec_from_file_location("kernel_text", mod)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    fn = getattr(m, d["name"])
    ir = {}
    for width in ("i64", "i32"):
        sig = {k: (width if k == "ks0" else v) for k, v in d["signature"].items()}
        ir[width] = compile(ASTSource(fn, sig, constexprs={"XBLOCK": 128}), target=GPUTarget("cuda", 89, 32)).asm["llir"]
    for width, bits in (("i64", 64), ("i32", 32)):
        prod = re.search(rf"(%\w+) = mul i{bits} (%\w+), \2", ir[width])
        assert prod, ir[width][:2000]
        assert re.search(rf"= sdiv i{bits} %\w+, {prod.group(1)}\b", ir[width]), (width, ir[width][:2000])
    assert (65536 * 65536) % 2**32 == 0 and 65536 <= 100000 and 65536 * 65536 == 2**32


def test_the_oracle_reads_guards_over_non_integer_atoms_and_shows_the_refusal_was_needed():
    """probe/red2-nonint-max-strict-guard (refused in both modes): its guard ``Max(1, s27/3) < 715827883`` has a
    fractional slack, which the oracle's shape search once rejected as an input error. It now ranks shapes by the
    exact fraction and finds the shape the guard admits where ks0 = s27 = 2**31 leaves int32: not-equivalent,
    so refusing was needed. The floor probe with the guard one lower stays ``ok``."""
    nonint = next(c for c in RED2_PROBES if c.id == "probe/red2-nonint-max-strict-guard")
    assert nonint.expect == ("refused", "refused")
    got = _oracle(nonint)
    assert got.verdict.value == "not-equivalent" and got.disagreements > 0, (got.verdict, got.reason)
    assert any(dict(s.values)["s27"] == 2**31 for s in got.shapes)
    floor = next(c for c in RED2_PROBES if c.id == "probe/red2-floor-of-integer-max")
    assert _oracle(floor).verdict.value == "ok"
