"""`bench pack`: a deterministic bundle whose runner needs no workbench; unpacked in a temporary folder, its
runner's dry run (Triton interpreter, CPU) checks every variant against eager and writes a record that
`bench report` reads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile

import pytest

from workbench.bench import pack, records, report

PLAN = "data/plans/nested_cat_add-confirm.json"
# Run the runner as a remote host would: no PYTHONPATH, and `import workbench` made to fail.
BLOCKED = ("import runpy, sys; sys.modules['workbench'] = None; sys.argv = ['runner.py'] + sys.argv[1:]; "
           "runpy.run_path('runner.py', run_name='__main__')")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    d = tmp_path_factory.mktemp("pack")
    out = pack.pack(PLAN, d / "b.tar.gz")
    with tarfile.open(out) as tar:
        tar.extractall(d / "unpacked", filter="data")
    return out, d / "unpacked" / "bundle"


def _runner(folder, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRITON_INTERPRET")}
    return subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


def test_bundle_is_complete_and_deterministic(bundle, tmp_path):
    out, folder = bundle
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "README.md", "manifest.json", "plan.json", "program.py", "requirements.txt", "runner.py",
        "variants/B0.py", "variants/N.py", "variants/N1.py"]
    assert pack.pack(PLAN, tmp_path / "again.tar.gz").read_bytes() == out.read_bytes()
    m = json.loads((folder / "manifest.json").read_text())
    raw = json.loads(open(PLAN).read())
    assert m["plan"] == raw and m["plan_sha256"] == records.plan_mod.digest(raw)
    b = m["stages"]["gpu"]["bindings"]["rows=2048,q=2048,k=256,v=256"]
    assert b["params"]["ks0"] == {"value": 2 * (2048 + 256 + 256)} and b["params"]["in_ptr3"] == {"input": 3}
    assert b["xnumel"] == 2048 * 2 * (2048 + 256 + 256) and b["params"]["out_ptr0"] == {"output": 0}
    assert "torch==2.13.0" in (folder / "requirements.txt").read_text()
    readme = (folder / "README.md").read_text()
    assert "ssh gpu-host" in readme and "hosted GPU service" in readme
    assert "import workbench" not in (folder / "runner.py").read_text().replace("the workbench", "")


def test_runner_dry_run_without_the_workbench(bundle, tmp_path):
    _, folder = bundle
    p = _runner(folder, "--out", str(tmp_path / "dry.json"), "--dry-run")
    assert p.returncode == 0, p.stderr[-2000:]
    assert "12/12 checks bitwise equal to eager" in p.stdout
    plan, rec = records.load(tmp_path / "dry.json")
    assert rec["mode"] == "dry-run" and not rec["timing_claims"] and plan.name == "nested_cat_add-confirm"
    assert all(c["bitwise_equal"] for c in rec["correctness"]) and len(rec["blocks"]) == 3
    assert all(b["sequence_ms"] is None and b["outputs_bitwise_equal"] for b in rec["blocks"])
    r = report.report(tmp_path / "dry.json", tmp_path / "fig")
    assert r.verdict is None and "nothing in this record is a timing measurement" in r.text


def test_runner_refuses_a_tampered_bundle_and_a_missing_gpu(bundle, tmp_path):
    _, folder = bundle
    copy = tmp_path / "b"
    subprocess.run(["cp", "-r", str(folder), str(copy)], check=True)
    p = _runner(copy, "--out", str(tmp_path / "x.json"))
    assert p.returncode != 0 and "no CUDA device" in p.stderr
    (copy / "variants" / "N1.py").write_text((copy / "variants" / "N1.py").read_text() + "\n# edited\n")
    p = _runner(copy, "--out", str(tmp_path / "x.json"), "--dry-run")
    assert p.returncode != 0 and "variants/N1.py changed since packing" in p.stderr
