"""Red team ``red3``: hand-edited records the checker certifies although narrowing is unsafe.

Each finding's record lives in ``tests/adversarial/red3/<id>/`` with a README giving the edit, the checker's verdict and the
independent oracle's witness. These tests assert the *correct* behaviour (the checker must not certify the
record in the listed modes), so they fail on a checker that still has the hole. ``test_oracle_*`` confirms
with ``workbench.oracle`` (Triton's interpreter, shares no code with the checker) that narrowing really is
unsafe (slow-ish: a few seconds each).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent / "red3"

FINDINGS = {
    "red3-tuple-helper-float-output-int-arith": ("strict", "observable"),
    "red3-scan-combine-not-low-bits": ("strict", "observable"),
    "red3-scan-float-output-int-combine": ("observable",),
    "red3-reduce-welford-float-output-int-weight": ("observable",),
}


def _record(fid):
    (path,) = sorted((ROOT / fid).glob("*.json"))
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("fid", sorted(FINDINGS))
def test_finding_not_certified(fid):
    from workbench.capture import load
    from workbench.check.api import check_kernel

    path, _ = _record(fid)
    rec = load(path)
    for mode in FINDINGS[fid]:
        v = check_kernel(rec, mode, counterexample=False)
        assert not v.certified, f"{fid} [{mode}]: certified although the oracle shows W != N"


@pytest.mark.parametrize("fid", sorted(FINDINGS))
def test_oracle_confirms(fid):
    pytest.importorskip("triton")
    from workbench.oracle.corpus import Target, parse_record
    from workbench.oracle.run import check

    path, d = _record(fid)
    rec = parse_record(d, str(path))
    (got,) = check([Target(rec, ("observable",), tuple(a["name"] for a in d["size_args"]))], progress=False)
    assert str(got.verdict).endswith("not-equivalent") or "not-equivalent" in str(got.verdict), got.reason


def test_the_same_integer_scan_with_an_add_combine_keeps_the_low_bits_law():
    """Control for red3-scan-combine-not-low-bits: with the plain add combine (``return tmp0``, Inductor's
    cumsum) the retyped integer scan stored into int32 keeps the low-bits law: certified in both modes, and the
    oracle agrees (so the fix refuses by the combine's arithmetic, not every retyped scan)."""
    from dataclasses import replace

    from workbench.capture import load
    from workbench.capture.record import source_hash
    from workbench.check.api import check_kernel
    from workbench.oracle.corpus import Target, parse_record
    from workbench.oracle.run import check

    path, d = _record("red3-scan-combine-not-low-bits")
    clamp = "    tmp1 = tl.where(tmp0 < 0, 0, tmp0)\n    return tmp1\n"
    assert clamp in d["source"]
    d = dict(d, source=d["source"].replace(clamp, "    return tmp0\n"))
    rec = load(path)
    rec = replace(rec, source=d["source"], source_hash=source_hash(d["source"], rec.name))
    for mode in ("strict", "observable"):
        assert check_kernel(rec, mode, counterexample=False).certified, mode
    d["source_hash"] = rec.source_hash
    (got,) = check([Target(parse_record(d, "add-combine control"), ("observable",), ("ks0",))], progress=False)
    assert got.verdict.value == "ok" and got.disagreements == 0, got.reason
