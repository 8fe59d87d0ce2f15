"""Structure checks of the shipped instances, without Lean (issue 18): no Safe hypothesis in the final
theorem, every side_k cited by kernel_safe, premises exactly the captured ones, kernel term bound to the
certificate's hash. Each check is also shown to fail on a mutated file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench.check.certificate  # noqa: E402,F401 - an import error fails, never skips

from workbench import kir  # noqa: E402
from workbench.capture.record import load as load_record  # noqa: E402
from workbench.lean.adapter import from_certificate, record_path  # noqa: E402
from workbench.lean.emit import module_name  # noqa: E402
from workbench.lean.paths import INSTANCES  # noqa: E402
from workbench.lean.structure import check_structure, declarations, expected_kernel_text  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
CERTS = sorted((GOLDEN / "certificates").glob("*.json"))
SHIPPED = {p.stem: p for p in INSTANCES.glob("*.lean")}


def _bound(cert: Path):
    """The certificate's instance, its kernel bound by the IR hash (skip if the capture moved on)."""
    data = json.loads(cert.read_text())
    rec = load_record(record_path(data["program"], data["kernel"]))
    if kir.canonical_hash(kir.parse(rec)) != data["ir_hash"]:
        pytest.skip(f"{cert.name}: the captured kernel no longer has the certificate's hash (re-run scripts/lean-regen.sh)")
    return from_certificate(data, cert.name, record=rec, verify_hash=True)


def _shipped(inst) -> str:
    path = SHIPPED.get(module_name(inst))
    if path is None:
        listed = (INSTANCES.parent / "Instances.lean").read_text()
        assert f"{inst.program}/{inst.kernel}" in listed, f"{inst.kernel}: no instance and not listed as refused"
        pytest.skip(f"{inst.program}/{inst.kernel} has no instance (listed in Instances.lean)")
    return path.read_text()


@pytest.mark.parametrize("cert", CERTS, ids=lambda p: p.stem)
def test_lean_shipped_instance_structure(cert):
    inst = _bound(cert)
    text = _shipped(inst)
    assert check_structure(text, inst, expected_kernel_text(inst)) == []


def test_lean_every_stored_certificate_has_a_shipped_instance():
    """Every stored certificate's instance is shipped (the corpus table, test_lean_corpus_table.py, says which
    captured kernels have no certificate or no Lean counterpart, and why), so each ends in a `narrowing_exact`
    without a `Safe` hypothesis (checked above)."""
    for cert in CERTS:
        data = json.loads(cert.read_text())
        assert any(f"kernel hash: `{data['ir_hash']}`" in p.read_text() for p in SHIPPED.values()), cert.stem
    fixtures = sorted([*(GOLDEN / "reduction" / "certificates").glob("*.json"),
                       *(GOLDEN / "zoo" / "certificates").glob("*.json")])  # shipped as well
    assert len(SHIPPED) == len(CERTS) + len(fixtures) and len(CERTS) >= 63


@pytest.fixture(scope="module")
def tile():
    cert = next(p for p in CERTS if p.stem.startswith("tile__"))
    inst = _bound(cert)
    return inst, _shipped(inst), expected_kernel_text(inst)


def test_lean_structure_catches_an_unused_side_condition(tile):
    inst, text, kernel = tile
    safe = declarations(text)["kernel_safe"]
    mutated = text.replace(safe, safe.replace("side_1 ", "side_0 "))
    assert any("`side_1` is not used by `kernel_safe`" in p for p in check_structure(mutated, inst, kernel))


def test_lean_structure_catches_a_safe_hypothesis(tile):
    inst, text, kernel = tile
    mutated = text.replace("(hs : SizesAt s27 s77 L) :\n    kernel.observe",
                           "(hs : SizesAt s27 s77 L) (h : kernel.Safe L) :\n    kernel.observe")
    assert mutated != text
    problems = check_structure(mutated, inst, kernel)
    assert any("takes a `Safe` hypothesis" in p for p in problems)
    assert any("extra hypotheses ['h']" in p for p in problems)


def test_lean_structure_catches_changed_premises_and_kernel(tile):
    inst, text, kernel = tile
    weaker = text.replace("def Guards (s27 : Int) (s77 : Int) : Prop := 0 ≤ 2147483647 - 2 * (s27 * s77) ∧ ",
                          "def Guards (s27 : Int) (s77 : Int) : Prop := ")
    assert weaker != text
    assert any("`Guards` states" in p for p in check_structure(weaker, inst, kernel))
    lower = text.replace("Prop := 2 ≤ s27 ∧", "Prop := 1 ≤ s27 ∧")
    assert any("`Bounds` states" in p for p in check_structure(lower, inst, kernel))
    other = text.replace("(.mod (.mod e0 (.size 0 .i64)) (.size 1 .i64))", "(.mod e0 (.size 1 .i64))")
    assert other != text
    assert any("kernel term differs" in p for p in check_structure(other, inst, kernel))
    rehashed = text.replace(inst.hash, "0" * 64)
    assert any("kernel hash" in p for p in check_structure(rehashed, inst, kernel))
    assert any("`sorry`" in p for p in check_structure(text + "\ntheorem x : False := by sorry\n", inst, kernel))


@pytest.fixture(scope="module")
def embedding():
    cert = next(p for p in CERTS if p.stem.startswith("embedding__"))
    inst = _bound(cert)
    return inst, _shipped(inst), expected_kernel_text(inst)


def test_lean_structure_passes_an_indirect_instance(embedding):
    inst, text, kernel = embedding
    assert check_structure(text, inst, kernel) == []
    assert "def Asserts (L : Lane) : Prop := AssertHolds L (.load 0 .i64 e1 e2 none) e2 (.weak 0) (.size 1 .i64) " \
        "true true" in text


PREMISE = "AssertHolds L (.load 0 .i64 e1 e2 none) e2 (.weak 0) (.size 1 .i64) true true"


@pytest.mark.parametrize("what,old,new,problem", [
    # the premise dropped from the theorem (an unconditional claim the checker never made) ...
    ("hypothesis dropped", "(hs : SizesAt s36 s85 s95 L) (hA : Asserts L) :\n    kernel.observe",
     "(hs : SizesAt s36 s85 s95 L) :\n    kernel.observe", "premises are not exactly"),
    # ... or from `Asserts` (then kernel_safe would have to prove it: it cannot) ...
    ("premise dropped", "def Asserts (L : Lane) : Prop := " + PREMISE, "def Asserts (L : Lane) : Prop := True",
     "`Asserts` states"),
    # ... a bound weakened (a larger table than the assert states), or another symbol's size ...
    ("bound weakened", PREMISE, PREMISE.replace("(.size 1 .i64)", "(.mul (.weak 2) (.size 1 .i64))"), "`Asserts` states"),
    ("bound on another size", PREMISE, PREMISE.replace("(.size 1 .i64)", "(.size 0 .i64)"), "`Asserts` states"),
    ("lower bound unstated", PREMISE, PREMISE.replace("true true", "false true"), "`Asserts` states"),
    ("mask changed", PREMISE, PREMISE.replace(") e2 (.weak 0)", ") (.strong .i1 1) (.weak 0)"), "`Asserts` states"),
    # ... a stronger premise than the assert (False makes every theorem vacuous) ...
    ("premise strengthened", "def Asserts (L : Lane) : Prop := " + PREMISE,
     "def Asserts (L : Lane) : Prop := " + PREMISE + " ∧ False", "`Asserts` states"),
    # ... and a docstring that no longer says the premise is an assumption about the inputs.
    ("docstring", "(an assumption about the inputs: the asserts", "(the asserts", "docstring does not say"),
])
def test_lean_structure_catches_a_mutated_premise(embedding, what, old, new, problem):
    inst, text, kernel = embedding
    assert text.count(old) >= 1, what
    mutated = text.replace(old, new)
    assert any(problem in p for p in check_structure(mutated, inst, kernel)), what


def test_lean_structure_refuses_a_premise_on_a_kernel_without_asserts(tile):
    inst, text, kernel = tile
    mutated = text.replace("/-- The shape symbols' lower bounds", "def Asserts (L : Lane) : Prop := False\n\n"
                           "/-- The shape symbols' lower bounds")
    assert any("no device_assert premise" in p for p in check_structure(mutated, inst, kernel))
