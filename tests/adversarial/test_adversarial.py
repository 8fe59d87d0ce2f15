"""Adversarial records (issue 11): hand-edited copies of real captured kernels, each with its expected outcome.

A red-teamer's edits aimed at the checker's own assumptions (``adv_cases.py``): Triton's literal typing, the
launch-index bound, side-condition identity, which function is the kernel, declared types, the auxiliary
namespace, record text that would run code, real expressions that used to crash, and the classic attacks.
Each case is written to a temporary directory and loaded as a user's file would be. A ``certified`` case must
also agree, wide against narrowed, on every lane of every shape of its small-width model.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from adv_cases import CASES_MIN, cases  # noqa: E402
from adv_run import outcome  # noqa: E402

from workbench.check.api import check_kernel  # noqa: E402
from workbench.check.checker import Widths  # noqa: E402
from workbench.check.soundness import agreement, shapes, small_record  # noqa: E402

ALL = cases()
BITS = 6
SMALL = Widths(BITS, 2 * BITS)


def test_the_table_is_large_and_covers_every_class():
    assert len(ALL) >= CASES_MIN
    groups = {cid.split("/")[0] for cid, *_ in ALL}
    assert {"lit", "launch", "identity", "function", "types", "names", "data", "expr", "classic"} <= groups
    outcomes = {e if isinstance(e, str) else e[1] for *_, e in ALL}
    assert outcomes == {"certified", "refused", "out-of-class", "input-error"}


@pytest.mark.parametrize("cid,rel,edit,expected", ALL, ids=[c[0] for c in ALL])
def test_adversarial_record(cid, rel, edit, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a record that ran code would leave its traces here
    got, info, verdicts = outcome(rel, edit, tmp_path)
    assert not any(p.name == "PWNED" for p in tmp_path.iterdir()), "record text was executed"
    if expected == "input-error":
        assert got == "input-error", f"{cid}: expected an input error, got {got}"
        # one line naming the place: the file, or the kernel and the fact
        assert str(tmp_path) in info or "triton_poi" in info, info
        assert "\n" not in info
        return
    want = expected if isinstance(expected, tuple) else (expected, expected)
    assert got == want, f"{cid}: expected {want}, got {got}: " + (
        info if isinstance(info, str) else " | ".join(v.reason[:300] for v in verdicts.values()))
    if "certified" in want:
        _small_model_agrees(cid, info)


def _small_model_agrees(cid, record):
    """The oracle for certified cases: the small-width model of the record, if certified there too, agrees
    on every lane of every enumerated shape (tail lanes included)."""
    small = small_record(record, BITS)
    if not any(check_kernel(small, m, widths=SMALL, smt=False, counterexample=False).certified
               for m in ("strict", "observable")):
        return
    sh, _ = shapes(small, BITS, limit=40)
    lanes, diff = agreement(small, SMALL, sh)
    assert diff is None, f"{cid}: certified but the small model disagrees: {diff}"


def test_no_file_was_created_in_the_checkout_by_a_record():
    assert not (Path(__file__).parents[2] / "PWNED").exists()
    assert not os.path.exists("PWNED")
