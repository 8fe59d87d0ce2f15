"""Red team ``red4``: hand-edited records the checker certifies although narrowing is unsafe.

Each finding's record lives in ``tests/adversarial/red4/<id>/`` (built on the red4 branch from a captured record) with a
README giving the edit, the checker's verdict and the independent oracle's witness. These tests assert the
*correct* behaviour (the checker must not certify the record in the listed modes), so they fail on a checker
that still has the hole. ``test_oracle_confirms`` shows with ``workbench.oracle`` (Triton's interpreter, no
code shared with the checker) that narrowing really is unsafe (a few seconds each).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent / "red4"

FINDINGS = {
    "red4-cast-to-int1-of-retyped-payload": ("strict", "observable"),
    "red4-sum-of-bool-is-uint32": ("strict", "observable"),
    "red4-sum-of-bool-where-unsigned": ("strict", "observable"),
    "red4-acc-init-retyped-payload": ("strict", "observable"),
    "red4-yz-overflow-extra-y-blocks": ("strict", "observable"),
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
    assert "not-equivalent" in str(got.verdict), got.reason
