"""Red-team records (issue 11 follow-up): each asserts the CORRECT behaviour, so a test of a finding FAILS on
a checker that still has the hole; the probes the checker already handles pass (regressions).

The table, the records and the oracle's lanes are in ``tests/adversarial/redteam/redteam_cases.py``; every record
is a committed file under ``tests/adversarial/redteam/<id>/`` loaded as a user's would be. Soundness findings
were confirmed with ``redteam/oracle.py``, which runs the kernel's own text under Triton's interpreter (size
arguments as typed int64 vs int32 scalars; loads and stores intercepted) and shares no code with
``workbench.kir`` / ``workbench.check``; ``test_oracle_confirms_findings`` re-runs it (one subprocess).
Classes (see each case's ``klass`` and ``note``):

* int1 arithmetic treated as signed (``i1-sub-wraps``, ``i1-neg-wraps``): oracle-confirmed wrong CERTIFIED;
* integer arithmetic on loaded values with a narrowed argument (``int-payload-add``): oracle-confirmed;
* ``ks0.dtype`` baked as int64 into the narrowed model (``dtype-of-size-arg``, observable): oracle-confirmed;
* ``str.splitlines`` vs Python's line numbers (``splitlines-*``): the checked text loses the kernel's last
  line; oracle-confirmed on the text Python/Triton compile;
* Mod atoms: lower bound 0 for any divisor, z3's mod vs sympy's Mod (``mod-negative-divisor``,
  ``z3-mod-guard``): oracle-confirmed at shapes that satisfy every guard (Python's % = sympy's Mod);
* vacuous premises certified silently (``vacuous-*``); tracebacks (``ceiling-size-arg``, ``abs-size-arg``);
  duplicate JSON keys accepted silently (``duplicate-json-key``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "redteam"))

from redteam_cases import ALL, FINDINGS, INPUT_ERROR, NO_TRACEBACK, NOT_CERTIFIED, TIMELY, directory  # noqa: E402

from workbench.capture.record import load  # noqa: E402
from workbench.check.api import check_kernel  # noqa: E402
from workbench.errors import WorkbenchError  # noqa: E402

ROOT = Path(__file__).parents[2]
MODES = ("strict", "observable")
TIMELY_SECONDS = 4


def _path(case) -> Path:
    (p,) = sorted(directory(case).glob("*.json"))
    return p


def _outcome(case):
    """("input-error", msg) | ("verdicts", (strict, observable)); any other exception propagates."""
    try:
        rec = load(_path(case))
        return "verdicts", tuple(check_kernel(rec, m, counterexample=False).verdict for m in MODES)
    except WorkbenchError as exc:
        return INPUT_ERROR, str(exc)


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_redteam_record(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if case.expect == TIMELY:
        import signal

        def over(*_):
            raise TimeoutError

        old = signal.signal(signal.SIGALRM, over)
        signal.alarm(TIMELY_SECONDS)
        try:
            _outcome(case)
        except TimeoutError:
            pytest.fail(f"{case.id}: no answer within {TIMELY_SECONDS} s ({case.note})")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        return
    if case.expect == NO_TRACEBACK:
        try:
            _outcome(case)
        except WorkbenchError:
            pass
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{case.id}: traceback {type(exc).__name__}: {exc} ({case.note})")
        return
    kind, got = _outcome(case)
    if case.expect == INPUT_ERROR:
        assert kind == INPUT_ERROR, f"{case.id}: expected an input error, got {got} ({case.note})"
        assert "\n" not in got
        return
    if case.expect == NOT_CERTIFIED:
        assert kind == INPUT_ERROR or "certified" not in got, (
            f"{case.id}: printed CERTIFIED ({dict(zip(MODES, got))}) for a kernel whose wide and narrowed "
            f"versions disagree: {case.note}")
        return
    assert (kind, got) == ("verdicts", case.expect), f"{case.id}: got {got}, expected {case.expect}"


def test_records_are_reproducible():
    """The committed records are what the table builds (regenerate with redteam/materialise.py)."""
    for case in ALL:
        got = case.make()
        text = got if case.raw else json.dumps(got, indent=1, sort_keys=True) + "\n"
        assert _path(case).read_text() == text, f"{case.id}: stale record; run redteam/materialise.py"


def test_cli_exit_code_for_crashing_expression():
    """An input the checker cannot handle is a verdict (exit 0/1) or an input error (exit 2, one line), never
    a traceback (ks1 = ceiling(s27/2))."""
    case = next(c for c in FINDINGS if c.id == "ceiling-size-arg")
    r = subprocess.run([sys.executable, "-m", "workbench.cli", "check", str(_path(case))], capture_output=True,
                       text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert "Traceback" not in r.stderr, r.stderr[-600:]
    if r.returncode == 2:
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    else:
        assert r.returncode in (0, 1), r.returncode


def test_oracle_confirms_findings(tmp_path):
    """The independent oracle (Triton's interpreter on the module's own function text) shows W and N
    disagreeing on an active lane for every soundness finding, and agreeing on the certified probes."""
    pytest.importorskip("triton")
    pytest.importorskip("torch")
    cases = [c for c in ALL if c.oracle is not None]
    jobs = []
    for c in cases:
        d = json.loads(_path(c).read_text())
        text = d["source"]
        o = c.oracle
        jobs.append({"id": c.id, "name": d["name"], "signature": d["signature"], "args": o["args"],
                     # the function as Python and Triton read the module (cut by characters, not lines)
                     "source": "import triton\nimport triton.language as tl\n" + o.get("prelude", "") + "\n\n"
                               + text[text.index("@triton.jit"):],
                     "pid": [o["pid"], 0, 0], "nprog": [o["pid"] + 1, 1, 1], "blocks": {"XBLOCK": o["xblock"], **o.get("blocks", {})},
                     "fill": o.get("fill", {})})
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    r = subprocess.run([sys.executable, str(Path(__file__).parent / "redteam" / "oracle.py"),
                        str(tmp_path / "jobs.json")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    got = {x["id"]: x for x in map(json.loads, r.stdout.splitlines())}
    for c in cases:
        res = got[c.id]
        assert "error" not in res, f"{c.id}: {res['error']}"
        if c.oracle.get("agree"):
            assert res["disagree"] == [], f"{c.id}: {res['disagree'][:3]}"
        else:
            assert res["disagree"], f"{c.id}: the oracle found no disagreement at the documented lane"


def test_kernel_source_file_is_not_executed(tmp_path):
    """Records are data: capture writes each record's kernel source as ``<name>.py`` beside the JSON, and
    ``workbench check THAT.py`` imports it as a program (running its module-level code) before saying it is
    not one. The file here is tile's source plus one line that creates ``PWNED``. Correct: an input error
    (exit 2, one line) without executing the file (e.g. read program()/example_inputs() from the syntax
    tree first, or refuse a module with a @triton.jit kernel)."""
    src = Path(__file__).parent / "redteam" / "kernel-py-executed" / "triton_poi_fused_repeat_0.py"
    target = tmp_path / src.name
    target.write_text(src.read_text())
    r = subprocess.run([sys.executable, "-m", "workbench.cli", "check", str(target)], capture_output=True,
                       text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr[-400:])
    assert not (tmp_path / "PWNED").exists(), "the kernel record's source was executed"
