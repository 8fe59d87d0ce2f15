"""The harness: dry runs end to end (plan -> run -> record -> report) under Triton's interpreter, binding
kernel parameters to inputs, and clear refusals (no GPU for a real run, unbindable kernels)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from workbench.bench import fixture, harness, records, report
from workbench.bench import plan as P
from workbench.errors import ToolMissingError

PLAN = "data/plans/nested_cat_add-confirm.json"


def _small_plan(tmp_path, **dry):
    raw = json.loads(open(PLAN).read())
    raw["kernel"] = {"from": "fixture"}
    raw["variants"] = ["B0", "N1"]
    raw["decision"]["wide"] = "B0"
    raw["comparisons"] = []
    raw["dry_run"].update({"processes": 1, "rounds_per_process": 4, **dry})
    p = tmp_path / "plan.json"
    p.write_text(json.dumps(raw))
    return p


def test_dry_run_in_process_end_to_end(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    plan_path = _small_plan(tmp_path)
    rec = harness.run(plan_path, tmp_path / "run.json", dry_run=True)
    assert rec["mode"] == "dry-run" and rec["timing_claims"] is False
    assert "no speed claim" in rec["note"]
    assert rec["plan_sha256"] == P.load(plan_path)[0].sha256
    assert len(rec["blocks"]) == 4 * 2
    assert [b["order"] for b in rec["blocks"]].count(["B0", "N1"]) == 4  # each order in 2 of 4 rounds
    assert all(c["bitwise_equal"] for c in rec["correctness"]) and len(rec["correctness"]) == 2 * 4
    assert all(b["outputs_bitwise_equal"] and b["sequence_ms"] is None for b in rec["blocks"])
    assert rec["kernel"]["origin"].startswith("fixture")
    assert rec["telemetry"][0]["available"] is False
    r = report.report(tmp_path / "run.json", tmp_path / "figures")
    assert r.verdict is None and "correctness only" in r.text and "| rows=7,q=11,k=5,v=3 | equal | equal |" in r.text
    assert [p.name for p in r.figures] == ["bench-nested_cat_add-confirm-dry-run-correctness.png"]


def test_real_run_without_cuda_is_refused_before_anything_runs(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present here")
    with pytest.raises(ToolMissingError, match="no CUDA device: a real timing run needs one.*--dry-run"):
        harness.run(_small_plan(tmp_path), tmp_path / "run.json")
    assert not (tmp_path / "run.json").exists()


def test_dry_run_outside_the_interpreter_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    plan, _ = P.load(_small_plan(tmp_path))
    with pytest.raises(Exception, match="TRITON_INTERPRET=1"):
        harness.run_process(plan, 0, dry_run=True)


def test_symbol_values_come_from_input_dimensions_not_examples():
    from workbench.programs import get

    prog = get("nested_cat_add")
    ins = prog.make_inputs({"rows": 4, "q": 6, "k": 3, "v": 2})
    k = fixture.kernel()
    assert harness.symbol_values(k, prog, ins) == {"s0": 4, "s1": 6, "s2": 3, "s3": 2}
    tensors, sizes, xnumel = harness.bind(k, prog, ins, fixture.kernel().signature)
    assert sizes == {"ks0": 22, "ks1": 6, "ks2": 3, "ks3": 2, "xnumel": 88} and xnumel == 88
    assert [tensors[f"in_ptr{i}"] is ins[i] for i in range(8)] == [True] * 8


def test_a_symbol_without_a_usable_source_is_refused():
    from workbench.capture.record import ShapeSymbol
    from workbench.programs import get

    k = fixture.kernel()
    k = type(k)(**{**{f: getattr(k, f) for f in k.__dataclass_fields__},
                   "symbols": k.symbols[:3] + (ShapeSymbol("s3", 2, None, ("somewhere else",)),)})
    prog = get("nested_cat_add")
    with pytest.raises(harness.BindingError, match="shape symbol s3 has no source naming an input dimension"):
        harness.symbol_values(k, prog, prog.example_inputs())


def test_bitwise_equal_distinguishes_signed_zero():
    import torch

    a = torch.zeros(3, dtype=torch.bfloat16)
    assert harness.bitwise_equal(a, a.clone())
    assert not harness.bitwise_equal(a, -a)
    assert not harness.bitwise_equal(a, a.float())


def test_telemetry_without_nvml_says_why():
    t = harness.Telemetry(0.1)
    if t.available:
        pytest.skip("NVML is usable here")
    t.start()
    out = t.stop()
    assert out["available"] is False and out["samples"] == [] and "NVML unavailable" in out["reason"]


@pytest.mark.slow
def test_cli_dry_run_of_the_committed_plan_end_to_end(tmp_path):
    """The CI path: the committed plan, a live capture (fake CUDA without a GPU), two worker processes."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    run = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "run", PLAN, "--out",
                          str(tmp_path / "run.json"), "--dry-run"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "24/24 variant-shape checks bitwise equal to eager" in run.stdout
    plan, rec = records.load(tmp_path / "run.json")
    assert rec["kernel"]["origin"].startswith("capture") and len(rec["environment"]) == 2
    rep = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "report", str(tmp_path / "run.json"),
                          "--out", str(tmp_path / "figures")], capture_output=True, text=True, env=env)
    assert rep.returncode == 0, rep.stderr[-3000:]
    assert (tmp_path / "figures" / "bench-nested_cat_add-confirm-dry-run.md").is_file()


class _HostTimer:
    """Stands in for CUDA events so the timed path runs on the CPU: an 'event' is a perf_counter reading."""

    def event(self):
        import time

        return time.perf_counter()

    def sync(self):
        pass

    @staticmethod
    def ms(a, b):
        return (b - a) * 1e3


def test_timed_code_path_runs_on_cpu_with_a_host_timer(tmp_path, monkeypatch):
    """Not a timing: exercises the GPU path's loop (warm-up, per-call events, flush, record fields, stats)."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    raw = json.loads(_small_plan(tmp_path).read_text())
    raw["l2_flush"], raw["l2_flush_mib"] = True, 1
    raw["gpu"] = dict(raw["dry_run"], warmup_s=0.01, calls_sequence=2, calls_small=3, rounds_per_process=2)
    (tmp_path / "plan.json").write_text(json.dumps(raw))
    plan, _ = P.load(tmp_path / "plan.json")
    part = harness.run_process(plan, 0, dry_run=False, device="cpu", timer=_HostTimer())
    b = part["blocks"][0]
    assert b["sequence_ms"] > 0 and b["sequence_host_issue_ms"] > 0 and b["warmup_passes"] >= 1
    assert [len(v) for v in b["sequence_calls_ms"].values()] == [2] * 4
    assert [len(v) for v in b["small_calls_ms"].values()] == [3] * 2
    assert all(c["bitwise_equal"] for c in part["correctness"])
    rec = records.assemble(plan, raw, str(tmp_path / "plan.json"), [part], False, 0.0, 1.0)
    from workbench.bench import stats

    c = stats.compare(rec, plan, "B0", "N1")
    assert c.sequence.n == 2 and len(c.shapes) == 2


def test_bind_parses_size_expressions_never_evaluates_them():
    import dataclasses

    from workbench.bench.pack import _Shaped
    from workbench.capture.record import load
    from workbench.programs import get
    from workbench.symexpr import SymbolicTextError

    k = load("data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.json")
    prog = get("nested_cat_add")
    sizes = {"rows": 5, "q": 11, "k": 7, "v": 3}
    ins = [_Shaped(s.concrete(sizes)) for s in prog.inputs]
    params = [p for p in k.signature if p != "XBLOCK"]
    _, scalars, xnumel = harness.bind(k, prog, ins, params)
    assert scalars["ks0"] == 2 * (11 + 7 + 3) and scalars["ks1"] == 11 and xnumel == 5 * 42  # "s12" alone parses
    evil = dataclasses.replace(k, size_args=(dataclasses.replace(k.size_args[0], expr="__import__('os').getcwd()"),))
    with pytest.raises(SymbolicTextError, match="kernel triton_poi_fused_add_cat_0 ks0"):
        harness.bind(evil, prog, ins, params)
