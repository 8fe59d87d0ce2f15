"""Static checks of the Lake project that need no Lean: pins, headers, no `sorry`, IR correspondence,
and generated instances up to date with the emitter."""

from __future__ import annotations

import re

from workbench.lean.emit import emit_instance, index_text, module_name
from workbench.lean.hand_built import HAND_BUILT
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
    assert set(re.findall(r"^\s*\| (\w+)", pblock, re.M)) == {op.value for op in PayloadOp}


def test_lean_generated_instances_are_current():
    modules = []
    for name in sorted(HAND_BUILT):
        inst = HAND_BUILT[name]()
        path = PROJECT / "Instances" / f"{module_name(inst)}.lean"
        assert path.read_text() == emit_instance(inst), f"{path} is stale: run `workbench lean emit --all`"
        modules.append(module_name(inst))
    assert (PROJECT / "Instances.lean").read_text() == index_text(sorted(p.stem for p in (PROJECT / "Instances").glob("*.lean")))
    assert set(modules) <= {p.stem for p in (PROJECT / "Instances").glob("*.lean")}


def test_lean_library_names_state_conclusions():
    text = "".join(f.read_text() for f in PROJECT.glob("Narrowing/*.lean"))
    names = re.findall(r"^theorem (\S+)", text, re.M)
    assert "Kernel.narrowing_exact_of_safe" in names
    for n in names:
        assert "_of_" in n or "_eq_" in n or n.endswith(("fits32", "wrap_eq")), n
