"""Corpus instances: every stored certificate of a certified corpus kernel emits its golden Lean file."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
import sympy

import workbench.check.certificate  # noqa: E402,F401 - an import error fails, never skips

from workbench.capture.record import load as load_record  # noqa: E402
from workbench.lean.adapter import from_certificate, instance_from_file, record_path  # noqa: E402
from workbench.lean.emit import emit_instance, module_name  # noqa: E402
from workbench.lean.errors import InstanceError  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
CERTS = sorted((GOLDEN / "certificates").glob("*.json"))


def _instance(cert_path: Path):
    data = json.loads(cert_path.read_text())
    rec = load_record(record_path(data["program"], data["kernel"]))
    # The stored certificate is a fixture: bind it to the capture without re-checking the IR hash, so this
    # test follows the emitter (and kir's parse), not the checker's evolution.
    return from_certificate(data, cert_path.name, record=rec, verify_hash=False)


@pytest.mark.parametrize("cert", CERTS, ids=lambda p: p.stem)
def test_lean_corpus_instance_matches_golden(cert):
    inst = _instance(cert)
    text = emit_instance(inst)
    path = GOLDEN / "corpus" / f"{module_name(inst)}.lean"
    if os.environ.get("WORKBENCH_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs: review the diff; regenerate with scripts/lean-regen.sh"
    assert "Lean check: NOT RUN" in text and "theorem kernel_safe" in text


def _pixel_shuffle(kernel: str):
    return _instance(next(p for p in CERTS if p.stem == f"pixel_shuffle_like__{kernel}"))


def test_lean_product_with_a_literal_quotient_uses_the_pinned_symbol():
    """`2 * x1 * (ks0 // 2)`: the quotient's interval is the guards' atom `aux_a0` (= floor(s27/2)), not
    `s27 / 2`, through `Quot.literal`, whose premises `2 * aux_a0 ≤ s27` and `s27 < (aux_a0 + 1) * 2` are
    side conditions; the product then has the symbolic point rule."""
    text = emit_instance(_pixel_shuffle("triton_poi_fused__unsafe_view_clone_transpose_view_1"))
    assert "Bounded kernel.sizeArgs L e1 (aux_a0) (aux_a0) :=" in text
    assert "(Quot.literal 2 (aux_a0) (aux_a0) (by decide) (by have := side_8 " in text
    assert "0 ≤ s27 - 2 * aux_a0 := by" in text and "0 ≤ 2 * aux_a0 + 1 - s27 := by" in text
    assert "(2 * (aux_a0 * s77) - 2 * aux_a0) :=\n        (Bounded.mul_point_right b10 b11" in text
    assert "/ 2)" not in text.split("theorem kernel_safe")[1]


def test_lean_product_with_an_unpinned_floor_is_refused_by_name():
    """Without the guards that pin `aux_a0` to `floor(s27/2)`, the quotient keeps `s27 / 2` (`Quot.const`)
    and the product has no rule: refused by name, never emitted with a guess."""
    from workbench.errors import WorkbenchError

    inst = _pixel_shuffle("triton_poi_fused__unsafe_view_clone_transpose_view_1")
    aux = sympy.Symbol("aux_a0", integer=True)
    kept = tuple(g for g in inst.guards if aux not in g.free_symbols and sympy.Symbol("aux_a0") not in g.free_symbols)
    assert len(kept) < len(inst.guards)
    with pytest.raises(WorkbenchError, match=r"product of \(\.mul \(\.mul \(\.weak 2\).* involves a floor"):
        emit_instance(dataclasses.replace(inst, guards=kept))


def test_lean_corpus_covers_nested_cat_add_and_tile():
    names = {p.stem.split("__")[0] for p in CERTS}
    assert {"nested_cat_add", "tile"} <= names
    assert len(CERTS) >= 30


def test_lean_certificate_refusals(tmp_path):
    data = json.loads(next(p for p in CERTS if p.stem.startswith("tile__")).read_text())
    with pytest.raises(InstanceError, match="IR hash is .* the certificate was issued for deadbeef"):
        from_certificate({**data, "ir_hash": "deadbeef"}, "tile.json")
    with pytest.raises(InstanceError, match="is not certified \\(refused: made up\\)"):
        from_certificate({**data, "verdict": "refused", "reason": "made up"}, "tile.json")
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({**data, "premises": {}}))
    with pytest.raises(InstanceError, match="missing or has a malformed field"):
        instance_from_file(bad)


def test_lean_certificate_file_dispatch(tmp_path):
    src = next(p for p in CERTS if p.stem.startswith("tile__"))
    inst = instance_from_file(src)
    assert inst.source == "certificate workbench.certificate/1"
    assert inst.hash == json.loads(src.read_text())["ir_hash"]
