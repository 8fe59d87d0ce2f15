"""``workbench oracle``: the output contract (schema, verdict, exit codes 0/1/2) and the written files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[2]
BROADCAST = ROOT / "data" / "kernels" / "broadcast_add" / "triton_poi_fused_add_0.json"


def _table_with_edited_kernel(tmp: Path) -> Path:
    """A checker table certifying one kernel whose text was edited to add a size product to an address."""
    d = json.loads(BROADCAST.read_text())
    d["source"] = d["source"].replace("tl.load(in_ptr1 + (x0)", "tl.load(in_ptr1 + (x0 + ks0*ks0)")
    (tmp / "kernels" / "broadcast_add").mkdir(parents=True)
    (tmp / "kernels" / "broadcast_add" / f"{d['name']}.json").write_text(json.dumps(d))
    entry = {"verdict": "certified", "narrowable_size_args": ["ks0"], "counterexample": None}
    table = {"schema": "workbench.check_results/1", "summary": {}, "kernels": [
        {"program": "broadcast_add", "kernel": d["name"], "strict": entry, "observable": entry}]}
    (tmp / "results.json").write_text(json.dumps(table))
    return tmp / "results.json"


@pytest.mark.parametrize("argv, match", [
    (["oracle"], "or pass --all"),
    (["oracle", "--all", "rotary"], "not both"),
    (["oracle", "no_such_kernel"], "no kernel certified in the checker table is named 'no_such_kernel'"),
    (["oracle", "--all", "--table", "/nonexistent/results.json"], "checker table '/nonexistent/results.json' does "
                                                                  "not exist"),
    (["oracle", "rotary", "--jobs", "0"], "--jobs 0"),
])
def test_usage_and_input_errors_exit_2_with_one_line(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("workbench: error:") and match in err and "\n" not in err


def test_json_document_and_written_files(tmp_path, capsys):
    assert main(["oracle", "tile_rows", "--json", "--write", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.oracle/1" and doc["verdict"] == "ok"
    assert doc["checker_table"] == "data/check/results.json"
    (k,) = doc["kernels"]
    assert k["program"] == "tile_rows" and k["narrowed"] == ["ks0", "ks1"] and k["disagreements"] == 0
    assert doc["summary"]["active_lanes"] == k["active_lanes"] > 0
    assert json.loads((tmp_path / "results.json").read_text()) == doc
    md = (tmp_path / "results.md").read_text()
    assert "| tile_rows | `triton_poi_fused_repeat_0` | ks0, ks1 |" in md and "**0 disagreements**" in md


def test_a_disagreement_exits_1_and_names_the_witness(tmp_path, capsys):
    table = _table_with_edited_kernel(tmp_path)
    assert main(["oracle", "--all", "--table", str(table), "--kernels", str(tmp_path / "kernels")]) == 1
    out = capsys.readouterr().out
    assert "NOT-EQUIVALENT" in out and "load 1 address" in out and "program" in out


def test_a_dead_worker_is_one_clear_error_not_a_hang(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys, "executable", "/bin/false")  # the worker process exits 1 without a word
    assert main(["oracle", "tile_rows"]) == 2
    err = capsys.readouterr().err.strip()
    assert "an interpreter worker exited with [1] after 0 of 1 kernels" in err and "\n" not in err


def test_a_table_whose_certificate_disagrees_with_its_row_is_an_input_error(tmp_path, capsys):
    table = _table_with_edited_kernel(tmp_path)
    doc = json.loads(table.read_text())
    doc["kernels"][0]["strict"]["certificate"] = {"narrowed": ["ks0", "ks1"]}
    table.write_text(json.dumps(doc))
    assert main(["oracle", "--all", "--table", str(table), "--kernels", str(tmp_path / "kernels")]) == 2
    err = capsys.readouterr().err
    assert "narrows ['ks0'] but its certificate narrows ['ks0', 'ks1']" in err


def test_records_elsewhere_run_in_the_modes_the_checker_certifies(tmp_path):
    import subprocess
    import sys

    record = ROOT / "tests" / "kir" / "data" / "reduction" / "triton_per_fused_native_group_norm_1.json"
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "oracle-records.py"), str(tmp_path), str(record),
                          "--", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    table = json.loads((tmp_path / "results.json").read_text())
    (row,) = table["kernels"]  # what `workbench check` said, kept
    modes = [m for m in ("strict", "observable") if row[m]["verdict"] == "certified"]
    assert "observable" in modes  # the group-norm reduction is certified at least there
    assert f"groupnorm_silu/triton_per_fused_native_group_norm_1: certified {', '.join(modes)}" in out.stderr
    doc = json.loads(out.stdout)
    (k,) = doc["kernels"]
    assert k["checker_modes"] == modes and k["verdict"] == "ok" and k["narrowed"] == []


def test_the_outside_draw_reports_lanes_outside_the_premise(capsys):
    assert main(["oracle", "embedding", "--index-draw", "outside", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "ok" and doc["summary"]["outside_premise"] > 0 and doc["summary"]["disagreements"] == 0


@pytest.mark.parametrize("name", ["triton_poi_fused_add_copy__0.json",  # xnumel constexpr, fixed to 1
                                  "triton_per_fused__native_batch_norm_legit_functional_copy__8.json"])
def test_training_step_kernels_with_extents_fixed_in_the_body_run(tmp_path, name):
    """A training step's num_batches_tracked += 1 declares xnumel constexpr and fixes it in its body; the
    oracle used to fail on it (KeyError 'xnumel'). Both kernels the checker now certifies run, agreeing."""
    import subprocess
    import sys

    record = ROOT / "tests" / "check" / "data" / "issue24" / name
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "oracle-records.py"), str(tmp_path), str(record),
                          "--", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    (k,) = json.loads(out.stdout)["kernels"]
    assert k["verdict"] == "ok" and k["checker_modes"] == ["strict", "observable"], k
