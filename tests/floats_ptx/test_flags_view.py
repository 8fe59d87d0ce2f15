"""FlagsView logic without a browser: renders rows it is given; reads the committed table; asks its runner."""

from __future__ import annotations

import json

from workbench.widgets.flags_view import FlagsView, committed_rows, rows_html

ROWS = [
    {"flags": "default", "status": "not equivalent", "mismatches": 12345, "exhaustive": True, "safe": True,
     "witness": {"text": "input 0x3F800000 (1.0): kernel 0x3F19999A, spec 0x3F199999"}, "undecided": []},
    {"flags": "--fmad=false", "status": "equivalent", "mismatches": 0, "exhaustive": True, "safe": True,
     "witness": None, "undecided": []},
    {"flags": "-use_fast_math", "status": "undecided", "mismatches": None, "exhaustive": False, "safe": False,
     "witness": None, "undecided": ["ex2.approx.ftz.f32 (PTX line 58)"]},
]


def test_rows_render_status_count_witness_and_safety():
    h = rows_html(ROWS)
    assert "12,345 of 2**32" in h and "0x3F19999A" in h and "all 2**32 checked: 0" in h
    assert "ex2.approx.ftz.f32" in h and "(unsafe)" in h and h.count("<tr>") == 4


def test_for_kernel_prefers_the_committed_table_and_recompute_calls_the_runner(tmp_path):
    table = tmp_path / "flags.json"
    table.write_text(json.dumps({"kernels": [{"path": "data/floats/corpus/x/k.cu", "rows": ROWS[:1]}]}))
    calls = []
    view = FlagsView.for_kernel("data/floats/corpus/x/spec.py", "data/floats/corpus/x/k.cu", table=table,
                                runner=lambda: calls.append(1) or ROWS)
    assert calls == [] and "committed table" in view.header.value and "12,345" in view.table.value
    view.recompute()
    assert calls == [1] and "undecided" in view.table.value and "computed" in view.header.value
    assert committed_rows("elsewhere/k2.cu", table) is None


def test_for_kernel_runs_when_the_table_lacks_the_kernel(tmp_path):
    view = FlagsView.for_kernel("s.py", "k.cu", table=tmp_path / "none.json", runner=lambda: ROWS[1:2])
    assert "equivalent" in view.table.value and not view.run.disabled
    assert "not run yet" in FlagsView("t").table.value


def test_the_committed_table_is_found_through_the_package_from_any_directory(tmp_path, monkeypatch):
    """Notebook 03 runs from notebooks/: the default table is the checkout's, not the current directory's."""
    from workbench.floats.corpus import CORPUS

    monkeypatch.chdir(tmp_path)
    view = FlagsView.for_kernel(CORPUS / "scale_shift/spec.py", CORPUS / "scale_shift/mul_add.cu",
                                runner=lambda: (_ for _ in ()).throw(AssertionError("must not recompute")))
    assert "committed table" in view.header.value
    assert [r["flags"] for r in view.rows] == ["default", "--fmad=false", "--ftz=true", "-use_fast_math"]
    exhaustive = json.loads((CORPUS.parent / "flags.json").read_text())["exhaustive"]
    status = {r["flags"]: r["status"] for r in view.rows}
    assert status["--fmad=false"] == ("equivalent" if exhaustive else "no counterexample")  # two roundings
    assert status["default"] == "not equivalent"  # nvcc contracts v * 0.1f + 0.5f into one fma
