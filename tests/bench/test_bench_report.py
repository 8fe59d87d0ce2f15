"""Records and reports: versioned schema, refusal of changed plans, tables and figures from a record."""

from __future__ import annotations

import json
import shutil

import pytest

from workbench.bench import fixture, records, report
from workbench.bench.plan import PlanChangedError

PLAN = "data/plans/nested_cat_add-confirm.json"


def _synthetic(tmp_path, plan_path=PLAN, **kw):
    rec = fixture.synthetic_record(str(plan_path), **kw)
    return records.write(rec, tmp_path / "run.json"), rec


def test_report_writes_tables_figures_and_the_verdict(tmp_path):
    path, _ = _synthetic(tmp_path)
    r = report.report(path, tmp_path / "figures")
    assert r.verdict is not None and r.verdict.adopt
    names = sorted(p.name for p in r.figures)
    assert names == [f"bench-nested_cat_add-confirm-gpu-{s}.png" for s in ("correctness", "ratios", "sequence", "telemetry")]
    assert all(p.stat().st_size > 1000 for p in r.figures)
    assert "**ADOPT** N1 over N" in r.text
    assert "| N/N1 | median | 95% CI | n |" in r.text and "| B0/N1 | median" in r.text
    assert "Telemetry absent: synthetic record" in r.text
    assert "SYNTHETIC record" in r.text
    # deterministic text
    assert report.report(path, tmp_path / "figures2").text == r.text


def test_report_of_a_record_from_another_schema_version_is_refused(tmp_path):
    path, rec = _synthetic(tmp_path)
    rec["schema"] = "workbench.bench.run/0"
    path.write_text(json.dumps(rec))
    with pytest.raises(records.RecordError, match="record schema is 'workbench.bench.run/0'; this workbench reads"):
        report.report(path, tmp_path / "f")


def test_a_record_whose_embedded_plan_was_edited_is_refused(tmp_path):
    path, rec = _synthetic(tmp_path)
    rec["plan"]["decision"]["per_shape_ci_lower_at_least"] = 0.9
    path.write_text(json.dumps(rec))
    with pytest.raises(PlanChangedError, match="hashes to .* not the pre-registered"):
        report.report(path, tmp_path / "f")


def test_a_record_whose_plan_file_changed_is_refused(tmp_path):
    plan = tmp_path / "plan.json"
    shutil.copy(PLAN, plan)
    path, _ = _synthetic(tmp_path, plan)
    assert "matches the registered hash" in report.report(path, tmp_path / "f").text
    raw = json.loads(plan.read_text())
    raw["decision"]["median_at_least"] = 1.01
    plan.write_text(json.dumps(raw))
    with pytest.raises(PlanChangedError, match="the plan changed after the run"):
        report.report(path, tmp_path / "f")


def test_malformed_records(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    with pytest.raises(records.RecordError, match="is not valid JSON"):
        records.load(bad)
    bad.write_text(json.dumps({"schema": records.SCHEMA}))
    with pytest.raises(records.RecordError, match="record lacks fields"):
        records.load(bad)
    with pytest.raises(records.RecordError, match="does not exist"):
        records.load(tmp_path / "none.json")


def test_cli_report_exit_codes(tmp_path, capsys):
    from workbench.cli import main

    path, rec = _synthetic(tmp_path)
    assert main(["bench", "report", str(path), "--out", str(tmp_path / "figs")]) == 0
    assert "wrote" in capsys.readouterr().out
    rec["schema"] = "other/9"
    path.write_text(json.dumps(rec))
    assert main(["bench", "report", str(path), "--out", str(tmp_path / "figs")]) == 2
    assert "workbench: error:" in capsys.readouterr().err


def test_telemetry_figure_with_samples(tmp_path):
    from workbench.bench import figures

    rec = fixture.synthetic_record(PLAN)
    t0 = rec["blocks"][0]["t_start"]
    rec["telemetry"][0]["samples"] = [
        {"t": t0 + 0.1 * i, "power_w": 70.0 + i % 3, "power_limit_w": 72.0, "sm_clock_mhz": 1500 - i}
        for i in range(200)
    ]
    rec["telemetry"][0]["available"] = True
    p = figures.telemetry(rec, tmp_path / "t.png")
    assert p.stat().st_size > 5000


def test_runs_in_sorts_records_by_kind(tmp_path):
    records.write(fixture.synthetic_record(PLAN), tmp_path / "a.json")
    dry = fixture.synthetic_record(PLAN)
    dry.pop("synthetic")
    dry["mode"], dry["timing_claims"] = "dry-run", False
    records.write(dry, tmp_path / "b.json")
    (tmp_path / "c.json").write_text("{}")
    runs = report.runs_in(tmp_path)
    assert {k: [p.name for p in v] for k, v in runs.items()} == {
        "gpu": [], "dry-run": ["b.json"], "synthetic": ["a.json"], "invalid": ["c.json"]}
