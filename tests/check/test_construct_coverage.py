"""The construct coverage table in docs/check.md is computed, not typed: it must equal
``tests/check/construct_coverage.py``'s output (regenerate with ``PYTHONPATH=. python
tests/check/construct_coverage.py --write``), every test it names must exist, the records it says a test runs
must be the test's own, and a construct may lack a column only as a gap listed with its reason."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import construct_coverage as cc  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def coverage():
    return cc.coverage()


def test_the_docs_table_is_the_computed_one(coverage):
    assert cc.docs_section() == cc.render(coverage), "stale table: run PYTHONPATH=. python tests/check/construct_coverage.py --write"


def test_every_construct_is_covered_or_a_listed_gap(coverage):
    for name, row in coverage.items():
        empty = [col for col, got in row.items() if not got]
        if name in cc.GAPS:
            assert empty, f"{name} is listed as a gap but every column is covered: drop it from GAPS"
        else:
            assert not empty, f"{name}: no {empty} (add a test, or list the gap with its reason)"


def _functions(path: Path) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.FunctionDef)}


def _cases(test: str) -> set[str]:
    """The parameter ids a parametrised test of the registry can take."""
    if "test_redteam_record" in test:
        sys.path.insert(0, str(ROOT / "tests" / "adversarial" / "redteam"))
        from redteam_cases import ALL

        return {c.id for c in ALL}
    if "test_indirect_mutant" in test:
        return {c[0] for c in cc._module("adversarial/test_indirect_mutants.py").CASES}
    if "test_construct_mutants" in test:
        return {m[0] for m in cc._module("check/test_construct_mutants.py").MUTANTS}
    raise AssertionError(f"no case table known for {test}")


def test_every_named_test_exists():
    named = [t for t, _, _ in cc.mutants()] + list(cc.INTERPRETER) + [cc.MODEL, cc.MODEL_PROBES]
    for test in named:
        module, _, func = test.partition("::")
        path = ROOT / "tests" / module
        name, _, case = func.partition("[")
        assert path.exists() and name in _functions(path), test
        if case:
            assert case[:-1] in _cases(test), test


def test_the_interpreter_tests_run_the_records_named():
    for test, records in cc.INTERPRETER.items():
        if records == "corpus":
            continue
        text = (ROOT / "tests" / test.partition("::")[0]).read_text()
        for p in records:
            assert p.exists() and (p.stem in text or p.parent.name in text), (test, p)


def test_every_aim_names_one_construct():
    for test, _, aims in cc.mutants():
        for a in aims:
            cc.construct_of(a)  # raises for an unknown or ambiguous name
