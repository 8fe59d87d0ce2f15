"""The output contract: one vocabulary, schema + verdict, exit codes, severity order."""

import io
import json

import pytest

from workbench.contract import ACCEPTED, SEVERITY, Verdict, document, emit, exit_code, overall
from workbench.errors import UsageError
from workbench.workspace import workspace


def test_every_verdict_has_a_severity():
    assert set(SEVERITY) == set(Verdict)


def test_overall_orders_safety_first():
    assert overall(["equivalent", "unsafe", "not-equivalent"]) is Verdict.UNSAFE
    assert overall(["certified", "refused"]) is Verdict.REFUSED
    assert overall(["certified", "certified"]) is Verdict.CERTIFIED
    assert overall([]) is Verdict.OK


def test_exit_codes():
    for v in Verdict:
        assert exit_code(v) == (0 if v in ACCEPTED else 1)


def test_document_and_emit():
    doc = document("check", 2, Verdict.REFUSED, kernels=[])
    assert doc["schema"] == "workbench.check/2" and doc["verdict"] == "refused"
    buf = io.StringIO()
    assert emit(doc, buf) == 1
    assert json.loads(buf.getvalue()) == doc
    with pytest.raises(ValueError):
        document("x", 1, "ok", schema="y")


def test_workspace_resolution(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    assert workspace() == (tmp_path / "home").resolve()
    assert workspace(tmp_path / "explicit") == (tmp_path / "explicit").resolve()
    from workbench.paths import DATA

    with pytest.raises(UsageError, match="read-only at run time"):
        workspace(DATA / "kernels")
