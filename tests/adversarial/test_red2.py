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
SEARCHED = [c for c in RED2_FINDINGS if c.oracle is None]


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
