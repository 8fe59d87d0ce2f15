"""The corpus verdict table against the committed ``data/floats/verdicts.{json,md}`` (made by
``workbench floats check --all --out data/floats`` with the 2**32 sweeps, or ``--no-sweep`` for a sampled table,
which says so); the known-wrong kernels carry the right bits, and NOTES' mismatch counts when the table is
exhaustive.

What CI re-decides (bounded: the full regeneration sweeps every unary function over 2**32 inputs and took
13 min on 2 loaded cores):
- ``FULL``: a fixed, representative set of programs (ReLU's ten kernels incl. NaN-aware, grid-stride and
  float4; leaky ReLU's literal and macro forms; abs, neg, hardtanh; scale-shift with fma on/off; hardsigmoid's
  division) is regenerated exactly as the committed table was, with the 2**32 sweeps, and must equal it row for
  row (status, summary, safety, functions, first witness, counts).
- every other program is re-decided with the case split only (no sweeps) and must agree with the committed
  row: "not equivalent" with the same first witness, "equivalent"/"no counterexample" as "no counterexample"
  (a committed "not equivalent" only the sweep found may read "no counterexample"; an n-ary "equivalent" by
  identity is the same row), the same safety verdict,
  the same element functions, "undecided"/"not elementwise" the same.
The full regeneration, compared with ``git diff``, is the developer command
``workbench floats check --all --out data/floats``."""

from __future__ import annotations

import json
import re
from pathlib import Path


from workbench.cli import main
from workbench.floats.corpus import check_all, corpus_entries, write_table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data/floats"
FULL = frozenset({"relu", "leaky_relu", "abs", "neg", "hardtanh", "scale_shift", "hardsigmoid"})
REST = frozenset(sp.parent.name for sp, _ in corpus_entries(DATA / "corpus")) - FULL


EXHAUSTIVE = json.loads((DATA / "verdicts.json").read_text())["exhaustive"]


def _regenerate(out: Path):
    """FULL as the committed table was made: every kernel, both targets; with sweeps (when the committed table
    has them) every "equivalent" is backed by its 2**32 sweep and refuted kernels are not swept again. REST:
    the case split only."""
    verdicts = check_all(DATA / "corpus", progress=False, count_mismatches=False, exhaustive=EXHAUSTIVE,
                         programs=FULL)
    quick = check_all(DATA / "corpus", progress=False, exhaustive=False, programs=REST)
    jp, mp = write_table(verdicts, out)
    return verdicts, jp, mp, quick


def test_corpus_table(tmp_path: Path) -> None:
    """One test (not a module fixture) so that the regeneration runs once."""
    table = _regenerate(tmp_path / "table")
    committed = _rows(json.loads((DATA / "verdicts.json").read_text()))
    _agrees_with_the_committed_one(table, committed)
    _case_split_agrees_with_the_committed_one(table[3], committed)
    _is_deterministic(table, tmp_path / "again")
    _committed_table_has_notes_counts(committed)
    everything = (table[0] + table[3],)
    _known_wrong_kernels_get_counterexamples_with_the_right_bits(everything)
    _equivalent_only_with_an_exhaustive_sweep(everything)
    _fma_targets_and_the_safety_gate(everything)
    assert len({(v.spec, v.kernel) for v in everything[0]}) >= 60
    assert len({k[0] for k in committed}) == len(FULL | REST) and FULL < {k[0] for k in committed}


def _rows(doc: dict) -> dict:
    return {(v["spec"], v["cuda_function"], v["target"]): v for v in doc["verdicts"]}


def _agrees_with_the_committed_one(table, committed) -> None:
    jp = table[1]
    fresh = _rows(json.loads(jp.read_text()))
    assert fresh.keys() == {k for k in committed if k[0] in FULL}
    for key, v in fresh.items():
        c = committed[key]
        assert (v["status"], _head(v["summary"]), v["safety"], v["functions"]) == (
            c["status"], _head(c["summary"]), c["safety"], c["functions"]), key
        assert v["witnesses"][:1] == c["witnesses"][:1], key
        if v["mismatches"] is not None:
            assert v["mismatches"] == c["mismatches"], key


def _case_split_agrees_with_the_committed_one(quick, committed) -> None:
    fresh = {(v["spec"], v["cuda_function"], v["target"]): v for v in (q.as_dict() for q in quick)}
    assert fresh.keys() == {k for k in committed if k[0] in REST}
    for key, v in fresh.items():
        c = committed[key]
        assert (v["safety"], v["functions"]) == (c["safety"], c["functions"]), key
        match v["status"]:
            case "not equivalent":
                assert c["status"] == "not equivalent" and v["witnesses"][:1] == c["witnesses"][:1], key
            case "no counterexample":
                assert c["status"] in ("equivalent", "no counterexample") or (
                    c["status"] == "not equivalent" and c["exhaustive"]), key
            case "equivalent":  # by identity (n-ary): no sweep involved, so the committed row says the same
                assert not v["exhaustive"] and (c["status"], c["summary"]) == (v["status"], v["summary"]), key
            case "undecided" | "not elementwise":
                assert (v["status"], _head(v["summary"])) == (c["status"], _head(c["summary"])), key
            case other:
                raise AssertionError(f"{key}: a case-split run cannot say {other!r}")


def _head(summary: str) -> str:
    """The summary without the mismatch count (only a counting run has it) and the spec-device note."""
    return re.sub(r" \(spec: PyTorch on \w+\)", "", summary).split(";")[0]


def _is_deterministic(table, out: Path) -> None:
    verdicts, jp, mp, _ = table
    jp2, mp2 = write_table(verdicts, out)
    assert (jp2.read_text(), mp2.read_text()) == (jp.read_text(), mp.read_text())


def _committed_table_has_notes_counts(committed) -> None:
    # spec device cuda: relu is isnan(x) ? x : fmaxf(x, 0), so -0.0 -> +0.0 like the kernel and only the
    # 2 * (2**23 - 1) NaNs differ (NOTES' 16,777,215 adds -0.0: torch.relu on the CPU; test_floats_check)
    relu = committed[("relu", "ternary (relu_kernel)", "fma=on ftz=off")]
    fmax = committed[("relu", "fmaxf (relu_fmaxf)", "fma=on ftz=off")]
    leaky = committed[("leaky_relu", "double_literal (leaky_relu_double)", "fma=on ftz=off")]
    assert relu["spec_device"] == "cuda"
    if EXHAUSTIVE:
        assert relu["mismatches"] == fmax["mismatches"] == 16_777_214 and leaky["mismatches"] == 555_549_760
    else:  # a sampled table counts nothing and claims nothing exhaustive
        assert relu["mismatches"] is fmax["mismatches"] is leaky["mismatches"] is None
        assert all(r["status"] == "not equivalent" and r["witnesses"] for r in (relu, fmax, leaky))


def _v(table, spec: str, kernel: str, target: str = "fma=on ftz=off"):
    (v,) = [v for v in table[0] if v.spec == spec and v.kernel.split(" ")[0] == kernel and v.target.label == target]
    return v


def _known_wrong_kernels_get_counterexamples_with_the_right_bits(table) -> None:
    relu = _v(table, "relu", "ternary")
    assert relu.status == "not equivalent"
    pairs = {(w.inputs[0], w.kernel, w.spec) for w in relu.witnesses}
    assert (0x7FC00000, 0x0, 0x7FC00000) in pairs and not any(p[0] == 0x80000000 for p in pairs)
    assert _v(table, "relu", "fmaxf").witnesses[0].kernel == 0
    leaky = _v(table, "leaky_relu", "double_literal")
    assert leaky.status == "not equivalent"
    assert all(abs(w.kernel - w.spec) == 1 for w in leaky.witnesses)


def _equivalent_only_with_an_exhaustive_sweep(table) -> None:
    for v in table[0]:
        if v.status == "equivalent" and v.exhaustive:
            assert v.mismatches == 0 and v.cases == 2**32, (v.spec, v.kernel)
        elif v.status == "equivalent":  # n-ary, the spec's expression node for node (check.py)
            assert "node for node" in v.summary and not v.target.ftz, (v.spec, v.kernel)
    best = "equivalent" if EXHAUSTIVE else "no counterexample"
    for spec, kernel in [("relu", "nan_aware"), ("leaky_relu", "float_literal"), ("leaky_relu", "report_form"),
                         ("abs", "fabsf"), ("hardtanh", "ternary"), ("neg", "unary_minus")]:
        assert _v(table, spec, kernel).status == best, (spec, kernel)
    assert _v(table, "add", "plus").status == "equivalent"  # a + b is ATen's add node for node
    assert _v(table, "minimum", "nan_aware").status == "not equivalent"  # cuda: fminf(+0, -0) is -0
    assert _v(table, "sigmoid", "expf").status == "undecided"


def _fma_targets_and_the_safety_gate(table) -> None:
    assert _v(table, "scale_shift", "mul_add", "fma=on ftz=off").status == "not equivalent"
    assert _v(table, "scale_shift", "mul_add", "fma=off ftz=off").status == (
        "equivalent" if EXHAUSTIVE else "no counterexample")
    assert not _v(table, "relu", "vec4_overrun").safety.safe
    assert any(f.kind == "overlap" for f in _v(table, "relu", "vec4_overlap").safety.findings)
    assert _v(table, "relu", "vec4_tail").safety.safe
    assert _v(table, "add", "vec4_no_tail").verdict.value == "unsafe"
    assert _v(table, "relu", "grid_stride").safety.unmodelled  # 64 blocks: large n needs > 8 unrolled trips


def test_cli_checks_an_nary_kernel_as_json(capsys) -> None:
    rc = main(["floats", "check", str(DATA / "corpus/minimum/spec.py"), str(DATA / "corpus/minimum/fminf.cu"),
               "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["status"] == "not equivalent" and out["verdict"] == "not-equivalent"
    assert out["witnesses"][0]["inputs"] == ["0x7FC00000", "0x00000000"]


def test_cli_reports_bad_input_with_exit_code_2(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(const float* x, float* out, int n) { do { n = n - 1; } while (n); }\n")
    rc = main(["floats", "check", str(DATA / "corpus/relu/spec.py"), str(bad), "--no-progress"])
    assert rc == 2
    assert "do-while loop at bad.cu:1" in capsys.readouterr().err


def test_cli_refuses_all_with_files(capsys) -> None:
    rc = main(["floats", "check", "--all", str(DATA / "corpus/relu/spec.py")])
    assert rc == 2 and "--all checks the whole corpus" in capsys.readouterr().err
