"""Variant P in a timing plan: the plan, the in-process harness, the bundle and its standalone runner all
accept it, and a dry run (Triton's interpreter, CPU) finds P bitwise equal to eager at every tiny shape.
Timing P needs a GPU; nothing here times anything."""

from __future__ import annotations

import json
import tarfile

from workbench.bench import harness, pack, records
from workbench.bench import plan as P

PLAN = "data/plans/nested_cat_add-confirm.json"


def _plan_with_p(tmp_path, kernel_from: str = "file"):
    # P is built from the kernel's partial certificate: the captured record (the hand-written fixture has none)
    raw = json.loads(open(PLAN).read())
    raw["name"] = "nested_cat_add-partial"
    raw["kernel"] = {"from": kernel_from}
    if kernel_from == "file":
        raw["kernel"]["path"] = "data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.json"
    raw["variants"] = ["B0", "P", "N1"]
    raw["comparisons"] = [["B0", "P"], ["B0", "N1"]]
    raw["decision"]["wide"] = "B0"
    raw["decision"]["narrow"] = "P"
    raw["dry_run"].update({"processes": 1, "rounds_per_process": 6})
    p = tmp_path / "plan.json"
    p.write_text(json.dumps(raw))
    return p


def test_the_harness_dry_runs_p_beside_b0_and_n1(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    path = _plan_with_p(tmp_path)
    assert P.load(path)[0].variants == ("B0", "P", "N1")
    rec = harness.run(path, tmp_path / "run.json", dry_run=True)
    assert rec["mode"] == "dry-run" and rec["timing_claims"] is False
    checked = {c["variant"] for c in rec["correctness"]}
    assert checked == {"B0", "P", "N1"} and all(c["bitwise_equal"] for c in rec["correctness"])
    import itertools

    orders = {b["round"]: tuple(b["order"]) for b in rec["blocks"]}
    assert sorted(orders.values()) == sorted(itertools.permutations(("B0", "P", "N1")))  # each order once
    assert all(b["outputs_bitwise_equal"] for b in rec["blocks"]) and {b["variant"] for b in rec["blocks"]} == {
        "B0", "P", "N1"}


def test_pack_ships_p_and_its_runner_dry_runs_it(tmp_path):
    import os
    import subprocess
    import sys

    out = pack.pack(_plan_with_p(tmp_path, "capture"), tmp_path / "b.tar.gz")
    with tarfile.open(out) as tar:
        tar.extractall(tmp_path / "u", filter="data")
    folder = tmp_path / "u" / "bundle"
    source = (folder / "variants" / "P.py").read_text()
    assert ".to(tl.int32) // ks" in source or ".to(tl.int32) % ks" in source
    m = json.loads((folder / "manifest.json").read_text())
    assert list(m["variants"]) == ["B0", "P", "N1"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRITON_INTERPRET")}
    blocked = ("import runpy, sys; sys.modules['workbench'] = None; sys.argv = ['runner.py'] + sys.argv[1:]; "
               "runpy.run_path('runner.py', run_name='__main__')")
    p = subprocess.run([sys.executable, "-c", blocked, "--out", str(tmp_path / "dry.json"), "--dry-run"],
                       cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    _, rec = records.load(tmp_path / "dry.json")
    assert {c["variant"] for c in rec["correctness"]} == {"B0", "P", "N1"}
    assert all(c["bitwise_equal"] for c in rec["correctness"])
