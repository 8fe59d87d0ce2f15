"""LeanSession against a scripted fake language server: happy path, slow elaboration, crash, malformed."""

from __future__ import annotations

import json
import sys
import time

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from lean_helpers import fake_project, server  # noqa: E402

from workbench.lean.errors import (  # noqa: E402
    FileOutsideProjectError,
    LeanNotInstalledError,
    LeanProtocolError,
    LeanRequestTimeoutError,
    LeanServerCrashedError,
)
from workbench.lean.session import LeanSession  # noqa: E402


@pytest.fixture
def project(tmp_path):
    return fake_project(tmp_path / "proj")


def test_lean_session_happy_path_steps_goals_diagnostics(project):
    with LeanSession(project, server_command=server("happy"), timeout=10) as s:
        assert s.theorems("Demo.lean") == ("demo", "bad")
        steps = s.step_goals("Demo.lean", "demo")
        assert [sg.step.text for sg in steps] == ["have m0 : 0 ≤ a - 1 := by omega", "omega"]
        first = steps[0]
        assert first.before.status == "goals"
        assert first.before.goals[0].hypotheses == ("a : Int", "h : 1 ≤ a")
        assert first.before.goals[0].target == "0 ≤ a"
        assert "m0 : 0 ≤ a - 1" in first.after.goals[0].hypotheses
        assert steps[1].after.status == "complete"
        assert s.goal("Demo.lean", 0, 0).status == "no_goal"
        diags = s.diagnostics("Demo.lean")
        assert [(d.line, d.kind, d.message) for d in diags] == [(5, "warning", "declaration uses 'sorry'")]
        assert s.term_goal("Demo.lean", 1, 4) == "⊢ Int"
    assert not s.running


def test_lean_session_slow_elaboration_within_timeout(project, monkeypatch):
    monkeypatch.setenv("FAKE_LEAN_DELAY", "1.0")
    with LeanSession(project, server_command=server("slow"), timeout=20) as s:
        assert s.goal("Demo.lean", 1, 2).status == "goals"


def test_lean_session_slow_elaboration_times_out_and_cancels(project, monkeypatch, tmp_path):
    log = tmp_path / "received.jsonl"
    monkeypatch.setenv("FAKE_LEAN_DELAY", "5")
    monkeypatch.setenv("FAKE_LEAN_LOG", str(log))
    with LeanSession(project, server_command=server("slow"), timeout=0.5) as s:
        with pytest.raises(LeanRequestTimeoutError, match=r"timed out after 0.5 s and was cancelled.*larger timeout") as info:
            s.goal("Demo.lean", 1, 2)
        assert info.value.path == "Demo.lean"
        # The cancellation is a notification; give the server a moment to read it before it is stopped.
        deadline = time.monotonic() + 5
        while "$/cancelRequest" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
    methods = [json.loads(line)["method"] for line in log.read_text().splitlines()]
    assert "textDocument/waitForDiagnostics" in methods
    assert "$/cancelRequest" in methods


def test_lean_session_crash_mid_request_reports_stderr_tail(project):
    with LeanSession(project, server_command=server("crash"), timeout=10) as s:
        with pytest.raises(LeanServerCrashedError, match=r"plainGoal on Demo.lean.*closed the connection") as info:
            s.goal("Demo.lean", 1, 2)
        assert "INTERNAL PANIC: simulated worker crash" in info.value.stderr_tail
        assert "INTERNAL PANIC" in str(info.value)
        # The session stays dead and says so, rather than hanging.
        with pytest.raises(LeanServerCrashedError, match="closed the connection"):
            s.diagnostics("Demo.lean")


def test_lean_session_malformed_message_is_a_protocol_error(project):
    with LeanSession(project, server_command=server("malformed"), timeout=10) as s:
        with pytest.raises(LeanProtocolError, match=r"Malformed JSON from server"):
            s.goal("Demo.lean", 1, 2)


def test_lean_session_file_outside_project(project, tmp_path):
    outside = tmp_path / "Elsewhere.lean"
    outside.write_text("theorem x : True := trivial\n")
    s = LeanSession(project, server_command=server("happy"))
    with pytest.raises(FileOutsideProjectError, match=r"Elsewhere.lean is outside the Lean project .*proj"):
        s.relpath(outside)
    with pytest.raises(FileOutsideProjectError, match="outside the Lean project"):
        s.relpath("../Elsewhere.lean")


def test_lean_session_not_installed_names_elan(project, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(LeanNotInstalledError, match=r"`lake` was not found on PATH.*elan"):
        LeanSession(project).start()
    with pytest.raises(LeanNotInstalledError, match=r"`no-such-lean-server` was not found"):
        LeanSession(project, server_command=["no-such-lean-server"]).start()


def test_lean_session_refuses_non_lake_folder(tmp_path):
    from workbench.errors import UsageError

    with pytest.raises(UsageError, match="is not a Lake project"):
        LeanSession(tmp_path, server_command=server("happy")).start()


def test_lean_session_did_change_refreshes_diagnostics(project):
    with LeanSession(project, server_command=server("happy"), timeout=10) as s:
        assert [d.kind for d in s.diagnostics("Demo.lean")] == ["warning"]
        s.update("Demo.lean", "theorem e (x : Int) : x = x := by\n  exact ERROR\n")
        diags = s.diagnostics("Demo.lean")
        assert [(d.line, d.kind, d.message) for d in diags] == [(1, "error", "unknown identifier 'ERROR'")]
        assert (project / "Demo.lean").read_text().startswith("theorem demo")  # disk untouched
