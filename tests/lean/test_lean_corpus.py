"""Corpus instances: every stored certificate of a certified corpus kernel emits its golden Lean file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("workbench.check.certificate")

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


# Certified kernels the Lean derivation has no rule for yet (listed in lean/Instances.lean with the reason).
NOT_EMITTED = {
    "pixel_shuffle_like__triton_poi_fused__unsafe_view_clone_transpose_view_1": "involves a floor",
    "pixel_shuffle_like__triton_poi_fused_clone_transpose_view_0": "involves a floor",
}


@pytest.mark.parametrize("cert", CERTS, ids=lambda p: p.stem)
def test_lean_corpus_instance_matches_golden(cert):
    from workbench.errors import WorkbenchError

    inst = _instance(cert)
    if cert.stem in NOT_EMITTED:
        with pytest.raises(WorkbenchError, match=NOT_EMITTED[cert.stem]):
            emit_instance(inst)
        return
    text = emit_instance(inst)
    path = GOLDEN / "corpus" / f"{module_name(inst)}.lean"
    if os.environ.get("WORKBENCH_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs: review the diff; regenerate with scripts/lean-regen.sh"
    assert "Lean check: NOT RUN" in text and "theorem kernel_safe" in text


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
