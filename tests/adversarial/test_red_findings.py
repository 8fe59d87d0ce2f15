"""Red teams red3, red4 and red5 (issue 13, final session): hand-edited records the checker once certified
although narrowing is unsafe.

Each finding's record lives in ``tests/adversarial/<round>/<id>/`` with a README (edit, verdicts before the fix,
the oracle's witness); each round's README names the root cause and the rule that fixed it. These tests assert
the correct behaviour: each finding is not certified in the modes it was (they failed before the fixes), and
``workbench.oracle`` (Triton's interpreter, wide vs narrowed, no code shared with the checker) still shows each
one unsafe, so the refusals are needed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BOTH = ("strict", "observable")

FINDINGS = {
    ("red3", "red3-tuple-helper-float-output-int-arith"): BOTH,
    ("red3", "red3-scan-combine-not-low-bits"): BOTH,
    ("red3", "red3-scan-float-output-int-combine"): ("observable",),
    ("red3", "red3-reduce-welford-float-output-int-weight"): ("observable",),
    ("red4", "red4-cast-to-int1-of-retyped-payload"): BOTH,
    ("red4", "red4-sum-of-bool-is-uint32"): BOTH,
    ("red4", "red4-sum-of-bool-where-unsigned"): BOTH,
    ("red4", "red4-acc-init-retyped-payload"): BOTH,
    ("red4", "red4-yz-overflow-extra-y-blocks"): BOTH,
    ("red5", "red5-ynumel-literal-launch-extent"): BOTH,
    ("red5", "red5-xnumel-literal-grid1d"): BOTH,
}
IDS = [fid for _, fid in sorted(FINDINGS)]


def _record(round_: str, fid: str):
    (path,) = sorted((HERE / round_ / fid).glob("*.json"))
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("key", sorted(FINDINGS), ids=IDS)
def test_finding_not_certified(key):
    from workbench.capture import load
    from workbench.check.api import check_kernel

    path, _ = _record(*key)
    rec = load(path)
    for mode in FINDINGS[key]:
        v = check_kernel(rec, mode, counterexample=False)
        assert not v.certified, f"{key[1]} [{mode}]: certified although the oracle shows W != N"


@pytest.mark.parametrize("key", sorted(FINDINGS), ids=IDS)
def test_oracle_confirms(key):
    pytest.importorskip("triton")
    from workbench.oracle.corpus import Target, parse_record
    from workbench.oracle.run import check

    path, d = _record(*key)
    rec = parse_record(d, str(path))
    (got,) = check([Target(rec, ("observable",), tuple(a["name"] for a in d["size_args"]))], progress=False)
    assert got.verdict.value == "not-equivalent" and got.disagreements > 0, got.reason


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

    path, d = _record("red3", "red3-scan-combine-not-low-bits")
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
