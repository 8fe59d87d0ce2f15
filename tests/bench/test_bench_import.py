"""Importing report 1's L4 record: lossless (converted back byte-for-byte JSON), provenance kept, and every
unknown, missing or inconsistent field refused with the field named."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.bench import importers, records
from workbench.bench.importers import ImportFormatError, veritile_confirm
from workbench.errors import UsageError

RUN = Path("data/runs/report1-l4-confirm.json")
SHARED = Path("/work/shared/reference-runs/report1-l4/narrow_confirm.json")
SOURCES = "file\trepo\tpath\tcommit\tchars\nnarrow_confirm.json\tscasella/veritile-narrow-cat\tbench/x.json\tabc123\t1\n"


@pytest.fixture(scope="module")
def run() -> dict:
    return json.loads(RUN.read_text())


@pytest.fixture()
def foreign(run, tmp_path) -> Path:
    """The foreign record, rebuilt from the committed import (so the tests need nothing outside the repo)."""
    p = tmp_path / "narrow_confirm.json"
    p.write_text(json.dumps(veritile_confirm.export(run)))
    (tmp_path / "SOURCES.tsv").write_text(SOURCES)
    return p


def _edit(path: Path, fn) -> Path:
    raw = json.loads(path.read_text())
    fn(raw)
    path.write_text(json.dumps(raw))
    return path


def test_committed_record_is_the_import_of_the_published_file(run):
    if not SHARED.is_file():
        pytest.skip(f"{SHARED} not present on this machine")
    assert hashlib.sha256(SHARED.read_bytes()).hexdigest() == run["provenance"]["source_sha256"]
    again, adapter = importers.import_record(SHARED)
    assert again == run
    assert json.dumps(adapter.export(again)) == json.dumps(json.loads(SHARED.read_text()))  # key order too


def test_round_trip_is_lossless(run, foreign):
    converted, adapter = importers.import_record(foreign)
    assert adapter.name == "veritile-narrow-confirm"
    assert json.dumps(adapter.export(converted)) == foreign.read_text()
    keep = lambda r: {k: v for k, v in r.items() if k not in ("provenance", "kernel", "note")}  # noqa: E731
    assert keep(converted) == keep(run)


def test_every_triple_block_and_shape_time_is_kept(run):
    assert len(run["blocks"]) == 72 and len({(b["process"], b["round"]) for b in run["blocks"]}) == 24
    b = run["blocks"][0]
    assert (b["process"], b["round"], b["order"], b["variant"], b["position"]) == (0, 0, ["N", "B0", "N1"], "N", 0)
    assert b["sequence_wall_s"] == 0.4898141370000033 and len(b["sequence_per_call_us"]) == 14
    assert b["sequence_per_call_us"]["2048xissue"] == 277.7087926864624
    assert b["telemetry_summary"]["sm_median"] == 1155.0 and b["telemetry_summary"]["reason_fraction"]["sw_power_cap"] == 1.0
    assert len(run["correctness"]) == 2 * 3 * 17


def test_provenance_names_source_and_measurer(run):
    p = run["provenance"]
    assert p["repository"] == "scasella/veritile-narrow-cat"
    assert p["path"] == "bench/tritonbench_g/add_example/launch_evidence/narrow_confirm.json"
    assert p["commit"] == "8976d70c0c87f6d09462643d70bc636ce52a968a"
    assert p["measured_by"] == "the report's authors" and "report 1's L4 data" in p["label"]
    assert p["source_top_level"]["gpu_name"] == "NVIDIA L4" and p["source_top_level"]["triton"] == "3.8.0"
    plan = records.verify(run)
    assert plan.kernel_spec == {"from": "imported"} and plan.gpu.xblock is None and plan.l2_flush is None


@pytest.mark.parametrize("edit, match", [
    (lambda r: r["processes"][0]["triples"][3]["blocks"]["N1"].update(extra=1), r"triples\[3\].blocks.N1: unknown field 'extra'"),
    (lambda r: r["processes"][1]["triples"][0]["blocks"]["B0"].pop("T_s"), r"processes\[1\].triples\[0\].blocks.B0: missing field 'T_s'"),
    (lambda r: r.update(operator="me"), r"unknown field 'operator'"),
    (lambda r: r["processes"][0]["triples"][0]["blocks"]["N"]["telemetry"].update(fan=3), r"blocks.N.telemetry: unknown field 'fan'"),
    (lambda r: r["processes"][0]["triples"][0].update(order=["N", "N", "B0"]), r"order \['N', 'N', 'B0'\] is not a permutation"),
    (lambda r: r["processes"][0]["triples"][0]["blocks"]["N"]["seq_us"].pop(), r"seq_us has 13 values for 14"),
    (lambda r: r["processes"][0]["triples"][0]["blocks"]["N"].update(variant="B0"), r"variant is 'B0', filed under 'N'"),
    (lambda r: r["analysis"].update(triples=23), r"analysis.triples is 23 but the record holds 24"),
    (lambda r: r["processes"][0]["bitwise"].pop("N1:2048xissue"), r"bitwise does not cover exactly"),
    (lambda r: r["processes"][0]["triples"][0]["blocks"]["N"].update(T_s=-1), r"blocks.N.T_s: expected a positive number"),
])
def test_unknown_missing_or_inconsistent_fields_are_input_errors(foreign, edit, match):
    _edit(foreign, edit)
    with pytest.raises(ImportFormatError, match=match):
        importers.import_record(foreign)


def test_unrecognised_format_and_missing_provenance(foreign, tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"kind": "something else"}))
    with pytest.raises(ImportFormatError, match="no import format recognises this record; known formats: veritile-narrow-confirm"):
        importers.import_record(other)
    (tmp_path / "SOURCES.tsv").unlink()
    with pytest.raises(UsageError, match="no provenance: no SOURCES.tsv row names narrow_confirm.json; pass --repo"):
        importers.import_record(foreign)
    r, _ = importers.import_record(foreign, repository="o/r", source_path="p.json", commit="c0ffee")
    assert (r["provenance"]["repository"], r["provenance"]["commit"]) == ("o/r", "c0ffee")


def test_cli_import_json_contract(foreign, tmp_path):
    out = tmp_path / "run.json"
    p = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "import", str(foreign), "--out", str(out), "--json"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["schema"] == "workbench.bench.import/1" and doc["verdict"] == "ok" and doc["blocks"] == 72
    records.load(out)
    bad = _edit(foreign, lambda r: r.update(operator="me"))
    p = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "import", str(bad), "--out", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "unknown field 'operator'" in p.stderr and "Traceback" not in p.stderr
