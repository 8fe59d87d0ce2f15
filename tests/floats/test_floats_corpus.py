"""The corpus verdict table, regenerated in CI with its exhaustive 2**32 sweeps, must equal the committed
``data/floats/verdicts.{json,md}``; the known-wrong kernels carry NOTES' mismatch counts and the right bits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.floats.corpus import check_all, write_table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data/floats"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    out = tmp_path_factory.mktemp("verdicts")
    verdicts = check_all(DATA / "corpus", progress=False)
    jp, mp = write_table(verdicts, out)
    return {(v["spec"], v["kernel"].split(" ")[0], v["target"]): v for v in json.loads(jp.read_text())["verdicts"]}, jp, mp


def _v(table, spec: str, kernel: str, target: str = "fma=on ftz=off") -> dict:
    return table[0][(spec, kernel, target)]


def test_regenerated_table_equals_the_committed_one(table) -> None:
    _, jp, mp = table
    assert jp.read_text() == (DATA / "verdicts.json").read_text()
    assert mp.read_text() == (DATA / "verdicts.md").read_text()


def test_known_wrong_kernels_have_notes_counts_and_bits(table) -> None:
    relu = _v(table, "relu", "ternary")
    assert relu["status"] == "not equivalent" and relu["exhaustive"]
    assert relu["mismatches"] == 16_777_215  # every NaN plus -0.0 (NOTES)
    pairs = {(w["inputs"][0], w["kernel"], w["spec"]) for w in relu["witnesses"]}
    assert {("0x7FC00000", "0x00000000", "0x7FC00000"), ("0x80000000", "0x00000000", "0x80000000")} <= pairs
    fmaxf = _v(table, "relu", "fmaxf")
    assert fmaxf["status"] == "not equivalent" and fmaxf["mismatches"] == 16_777_215
    leaky = _v(table, "leaky_relu", "double_literal")
    assert leaky["status"] == "not equivalent" and leaky["mismatches"] == 555_549_760  # NOTES
    for w in leaky["witnesses"]:
        assert abs(int(w["kernel"], 16) - int(w["spec"], 16)) == 1


def test_equivalent_only_with_an_exhaustive_sweep(table) -> None:
    for (spec, kernel, target), v in table[0].items():
        if v["status"] == "equivalent":
            assert v["exhaustive"] and v["mismatches"] == 0 and v["cases"] == 2**32, (spec, kernel, target)
    for spec, kernel in [("relu", "lt_zero"), ("leaky_relu", "float_literal"), ("leaky_relu", "report_form"),
                         ("abs", "fabsf"), ("hardtanh", "ternary"), ("neg", "unary_minus")]:
        assert _v(table, spec, kernel)["status"] == "equivalent", (spec, kernel)
    assert _v(table, "minimum", "nan_aware")["status"] == "no counterexample"
    assert _v(table, "sigmoid", "expf")["status"] == "undecided"


def test_fma_targets_and_the_safety_gate_in_the_table(table) -> None:
    assert _v(table, "scale_shift", "mul_add", "fma=on ftz=off")["status"] == "not equivalent"
    assert _v(table, "scale_shift", "mul_add", "fma=off ftz=off")["status"] == "equivalent"
    assert not _v(table, "relu", "vec4_overrun")["safety"]["safe"]
    assert any(f.startswith("overlap") for f in _v(table, "relu", "vec4_overlap")["safety"]["findings"])
    assert _v(table, "relu", "vec4_tail")["safety"]["safe"]


def test_cli_checks_an_nary_kernel_as_json(capsys) -> None:
    rc = main(["floats", "check", str(DATA / "corpus/minimum/spec.py"), str(DATA / "corpus/minimum/fminf.cu"),
               "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["status"] == "not equivalent"
    assert out["witnesses"][0]["inputs"] == ["0x7FC00000", "0x00000000"]


def test_cli_reports_bad_input_with_exit_code_2(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(const float* x, float* out, int n) { while (n) { n = n - 1; } }\n")
    rc = main(["floats", "check", str(DATA / "corpus/relu/spec.py"), str(bad), "--no-progress"])
    assert rc == 2
    assert "while loop (unbounded) at bad.cu:1" in capsys.readouterr().err


def test_cli_refuses_all_with_files(capsys) -> None:
    rc = main(["floats", "check", "--all", str(DATA / "corpus/relu/spec.py")])
    assert rc == 2 and "--all checks the whole corpus" in capsys.readouterr().err
