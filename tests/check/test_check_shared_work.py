"""Work the kernels of one graph share is done once (issue 24, speed), and sharing it never changes an answer:
guards are parsed once per text, and a shape z3 found for one kernel's premises is tried first on the next."""

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.capture import load, load_dir
from workbench.check import discharge
from workbench.check.api import clear_caches
from workbench.check.discharge import contradiction
from workbench.check.premises import premises_of
from workbench.errors import InputError
from workbench.paths import ROOT

CONVNEXT = ROOT / "data" / "zoo" / "records" / "convnext_tiny"


def _records(n: int):
    return sorted(load_dir(Path(CONVNEXT)), key=lambda r: r.name)[:n]


@pytest.fixture(autouse=True)
def _cold():
    clear_caches()
    yield
    clear_caches()


def test_a_kept_shape_gives_the_answer_a_search_gives(monkeypatch):
    records = _records(6)
    searched = []
    real = discharge.smt_check

    def counting(p, premises, rlimit=discharge.SMT_RLIMIT, extra=()):
        if not extra:
            searched.append(premises.kernel)
        return real(p, premises, rlimit=rlimit, extra=extra)

    monkeypatch.setattr(discharge, "smt_check", counting)
    shared = [contradiction(premises_of(r)) for r in records]
    assert len(searched) < len(records)  # the graph's later kernels reuse a shape: no search
    alone = []
    for r in records:
        clear_caches()
        alone.append(contradiction(premises_of(r)))
    assert shared == alone == [""] * len(records)


def test_a_kept_shape_never_hides_a_contradiction():
    rec = _records(1)[0]
    assert contradiction(premises_of(rec)) == ""
    assert discharge._SHAPES  # a shape is kept
    sym = rec.symbols[0].name
    bad = replace(rec, guards=(*rec.guards, f"{sym} <= 1", f"{sym} >= 3"))
    assert f"{sym} <= 1" in contradiction(premises_of(bad)) or f"{sym} >= 3" in contradiction(premises_of(bad))


def test_a_kept_shape_outside_a_new_guard_falls_back_to_the_search():
    rec = _records(1)[0]
    contradiction(premises_of(rec))
    sym = rec.symbols[0].name
    kept = discharge._SHAPES[0][sym]
    narrower = replace(rec, guards=(*rec.guards, f"{sym} >= {kept + 7}"))  # the kept shape breaks it
    assert contradiction(premises_of(narrower)) == ""
    assert discharge._SHAPES[0][sym] >= kept + 7  # z3 searched and kept its new shape


def test_a_bad_guard_names_its_own_kernel_each_time():
    a, b = _records(2)
    for rec in (a, b):
        bad = replace(rec, guards=(*rec.guards, "s0 <= __import__('os')"))
        with pytest.raises(InputError, match=rec.name):
            premises_of(bad)
