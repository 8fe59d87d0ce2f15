"""Static checks of the Lake project that need no Lean: pins, headers, no `sorry`, IR correspondence,
and generated instances up to date with the emitter."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.lean.emit import index_text
from workbench.lean.instance import PayloadOp, TermOp
from workbench.lean.paths import PROJECT


def _lean_files():
    return sorted([*PROJECT.glob("*.lean"), *PROJECT.glob("Narrowing/*.lean"), *PROJECT.glob("Instances/*.lean")])


def test_lean_toolchain_pin_is_at_least_4_24():
    pin = (PROJECT / "lean-toolchain").read_text().strip()
    m = re.fullmatch(r"leanprover/lean4:v(\d+)\.(\d+)\.(\d+)", pin)
    assert m, pin
    assert (int(m.group(1)), int(m.group(2))) >= (4, 24)  # leanclient.aio's floor (MIN_LEAN_VERSION)


def test_lean_lakefile_builds_both_libraries_without_mathlib():
    text = (PROJECT / "lakefile.toml").read_text()
    assert 'name = "Narrowing"' in text and 'name = "Instances"' in text
    assert "mathlib" not in text.lower().replace("no mathlib", "")
    for f in _lean_files():
        assert "import Mathlib" not in f.read_text(), f


def test_lean_sources_have_headers_and_no_sorry():
    for f in _lean_files():
        text = f.read_text()
        assert "/-!\n# " in text, f"{f}: Mathlib-style header `/-! # Title` missing"
        if f.parent.name in ("Narrowing", "Instances"):
            assert "## Main" in text, f"{f}: header lacks a `## Main results`/`## Main definitions` section"
        code = re.sub(r"/-.*?-/", "", text, flags=re.S)
        code = re.sub(r"--.*", "", code)
        assert not re.search(r"\bsorry\b|\badmit\b|\bnative_decide\b", code), f"{f} uses sorry/admit/native_decide"


def test_lean_expr_constructors_match_term_ops():
    text = (PROJECT / "Narrowing" / "Expr.lean").read_text()
    block = text[text.index("inductive Expr where"):text.index("deriving Repr", text.index("inductive Expr where"))]
    ctors = set(re.findall(r"^\s*\| (\w+)", block, re.M))
    expected = {op.value for op in TermOp if op.value not in {"lt", "le", "gt", "ge", "eq", "ne"}} | {"cmp"}
    assert ctors == expected
    cmps = re.findall(r"^\s*\| (\w+)$", text[text.index("inductive Cmp where"):text.index("deriving", text.index("inductive Cmp where"))], re.M)
    assert set(cmps) == {"lt", "le", "gt", "ge", "eq", "ne"}
    kernel = (PROJECT / "Narrowing" / "Kernel.lean").read_text()
    pblock = kernel[kernel.index("inductive Payload where"):kernel.index("/-- `tl.store")]
    # Pointwise payloads have every payload op but the reduction ones (accumulators, row reductions, scans) ...
    assert set(re.findall(r"^\s*\| (\w+)", pblock, re.M)) == {op.value for op in PayloadOp} - {"acc", "reduce", "scan"}
    # ... and reduction kernels' payloads (Narrowing/Reduction.lean) have them all.
    red = (PROJECT / "Narrowing" / "Reduction.lean").read_text()
    rblock = red[red.index("inductive RPayload where"):red.index("/-- The value of a payload")]
    assert set(re.findall(r"^\s*\| (\w+)", rblock, re.M)) == {op.value for op in PayloadOp}


def test_lean_generated_instances_are_current():
    """lean/Instances holds exactly the corpus goldens and the certified zoo test kernels' goldens (reductions,
    and the newer constructs' kernels in tests/lean/data/zoo; emitted from the stored certificates; hand-built
    instances are not shipped), and its index imports exactly them: what scripts/lean-regen.sh writes is what
    is shipped."""
    from workbench.lean.emit import module_name
    from workbench.lean.hand_built import REDUCTIONS

    golden = Path(__file__).parent / "golden"
    hand = {f"{module_name(make())}.lean" for make in REDUCTIONS.values()}
    have = {p.name: p.read_text() for p in (PROJECT / "Instances").glob("*.lean")}
    want = {p.name: p.read_text() for p in (*golden.glob("corpus/*.lean"), *golden.glob("reduction/*.lean"),
                                            *golden.glob("zoo/*.lean"))
            if p.name not in hand}
    assert sorted(have) == sorted(want), "lean/Instances differs from tests/lean/golden/corpus: see docs/lean.md, Regenerating"
    for name in want:
        assert have[name] == want[name], f"lean/Instances/{name} is stale: see docs/lean.md, Regenerating"
    index = (PROJECT / "Instances.lean").read_text()
    assert index.startswith(index_text(sorted(p[:-5] for p in want)).split("/-!")[0])
    assert index.count("import Instances.") == len(want)


def test_lean_library_names_state_conclusions():
    text = "".join(f.read_text() for f in PROJECT.glob("Narrowing/*.lean"))
    names = re.findall(r"^theorem (\S+)", text, re.M)
    assert "Kernel.narrowing_exact_of_safe" in names
    # Interval rules are named after the node or the rule they state (`Bounded.floordiv`, `Quot.exact`); facts
    # about `iabs` after what they conclude (`iabs_nonneg`, `iabs_le`: Mathlib's `natAbs_nonneg` style).
    rules = ("Bounded.", "WrapOK.", "Quot.", "Rem.", "shift_mul", "iabs_")
    for n in names:
        # `T.of_h` concludes `T` from `h` (Mathlib's convention: `StepLaneOK.of_row`, `AllOf.of_mem`).
        assert "_of_" in n or "_eq_" in n or ".of_" in n or n.endswith(("fits32", "wrap_eq")) or n.startswith(rules), n


def test_lean_audited_theorems_are_declared():
    """`workbench lean check` audits the axioms of these theorems by name: each is declared in the library."""
    from workbench.lean.check import GENERIC_THEOREMS

    text = "".join(f.read_text() for f in PROJECT.glob("Narrowing/*.lean"))
    names = set(re.findall(r"^theorem (\S+)", text, re.M))
    for full in GENERIC_THEOREMS:
        assert full.removeprefix("Narrowing.") in names, full
