"""Red team ``red5``: hand-edited records the checker certifies although narrowing is unsafe.

Each finding's record lives in ``tests/adversarial/red5/<id>/`` (branch red5) with a README (edit, verdicts, oracle
witness). ``test_finding_not_certified`` asserts the correct behaviour (fails on the current checker);
``test_oracle_confirms`` shows with ``workbench.oracle`` (Triton's interpreter) that narrowing is unsafe.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent / "red5"

FINDINGS = {
    "red5-ynumel-literal-launch-extent": ("strict", "observable"),
    "red5-xnumel-literal-grid1d": ("strict", "observable"),
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
