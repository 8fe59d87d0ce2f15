"""The KernelBench level-1 coverage table (``workbench floats coverage``): counts, golden text, verdicts.

- the headline counts in ``data/floats/coverage.json`` are recomputed from its rows;
- ``coverage.md`` is ``render(coverage.json)`` byte for byte, and one problem's rows are rebuilt by the
  command's own code and compared with the committed JSON (the table is what its command writes);
- no deliberately wrong answer is called equivalent, and a wrong answer checked here gets "not equivalent"
  (a test that fails if the checker stopped telling the two apart);
- bad input: one line naming value, place and fix, exit 2, no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.floats import coverage

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "floats"
LEVEL1 = coverage.LEVEL1
ANSWERS = DATA / "kernelbench-answers"

needs_level1 = pytest.mark.skipif(not LEVEL1.is_dir(), reason="KernelBench level 1 is not at ../shared/kernelbench")


@pytest.fixture(scope="module")
def table() -> dict:
    return json.loads((DATA / "coverage.json").read_text())


def test_counts_are_recomputed_from_the_rows(table):
    assert table["schema"] == coverage.SCHEMA
    assert table["counts"] == coverage.counts(table["problems"])
    assert [r["number"] for r in table["problems"]] == list(range(1, 101))


def test_issue_targets_as_the_table_states_them(table):
    c = table["counts"]
    assert c["spec_expressed"] >= 80  # issue 25 item 5: spec semantics for >= 80 problems
    assert c["spec_cross_checked"] >= 80
    # every problem whose spec was captured names its families; every refused one says why
    for r in table["problems"]:
        assert r["spec"]["families"] if r["spec"]["expressed"] else r["spec"]["reason"]


def test_markdown_is_rendered_from_the_json_byte_for_byte(table):
    assert (DATA / "coverage.md").read_text() == coverage.render(table)


def test_no_wrong_answer_is_called_equivalent(table):
    wrong = [a for r in table["problems"] for a in r["answers"] if a["intent"] != "correct"]
    assert wrong
    assert not [a["file"] for a in wrong if a["verdict"] == "equivalent"]
    assert not [a["file"] for a in wrong if a.get("reals") == "equivalent over the reals"]


def test_every_answer_in_the_corpus_is_in_the_table(table):
    listed = {a["file"] for r in table["problems"] for a in r["answers"]}
    assert listed == {p.name for p in ANSWERS.glob("*.py")}


@needs_level1
def test_a_wrong_answer_gets_not_equivalent_with_a_witness():
    """The missed last element of a sum: not equivalent over the reals, with the output element named."""
    ref = next(LEVEL1.glob("47_*.py"))
    row = coverage.answer_row(ref, coverage.AnswerFile(ANSWERS / "47_Sum_reduction__wrong_missed_last.py", 47,
                                                       "wrong: x"), elementwise=False)
    if row["verdict"] == "spec only":
        pytest.skip(row["text"])
    assert row["verdict"] == "not-equivalent"
    assert row["reals"] == "not equivalent over the reals"
    assert "output element" in row["text"]


@needs_level1
def test_the_command_rebuilds_committed_rows(table):
    """Problems 22 (tanh: undecided, no sweep) and 12 (spec only or block): the command's rows equal the JSON."""
    built = coverage.build(LEVEL1, ANSWERS, only={22, 37})
    committed = {r["number"]: r for r in table["problems"]}
    for r in built["problems"]:
        assert json.dumps(r, sort_keys=True) == json.dumps(committed[r["number"]], sort_keys=True)


def test_spec_refusal_names_op_and_line(tmp_path):
    p = tmp_path / "1_Sort.py"
    p.write_text("import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
                 "        return torch.sort(x, dim=1)[0]\n\nN = 8\n\ndef get_inputs():\n    return [torch.rand(N, N)]\n\n"
                 "def get_init_inputs():\n    return []\n")
    row = coverage.spec_row(p)
    assert not row["expressed"]
    assert "aten.sort" in row["reason"] and "1_Sort.py:6" in row["reason"] and "add an entry" in row["reason"]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "workbench"), "floats", "coverage", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("args, fragment", [
    (("--level1", "/nonexistent/level1"), "--level1 '/nonexistent/level1' is not a folder"),
    (("--only", "19,x"), "--only '19,x' is not a comma-separated list of problem numbers"),
    (("--answers", "/nonexistent/answers"), "--answers '/nonexistent/answers' is not a folder"),
])
def test_bad_input_is_one_line_exit_2(args, fragment, tmp_path):
    if "--level1" not in args:  # a level1 folder that exists: the default (../shared beside the checkout) may not
        (tmp_path / "1_Problem.py").write_text("")
        args = (*args, "--level1", str(tmp_path))
    r = _cli(*args, "--out", "/tmp/workbench-coverage-never-written")
    assert r.returncode == 2, r.stderr
    assert fragment in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_an_answer_without_intent_is_refused_by_name(tmp_path):
    (tmp_path / "19_x.py").write_text("import torch\n")
    with pytest.raises(coverage.FloatsUsageError, match=r"19_x.py:1 has no `# intent: correct`"):
        coverage.answer_files(tmp_path)


@needs_level1
def test_a_block_check_past_its_time_is_killed_and_recorded():
    if coverage.block_level_available() is not None:
        pytest.skip("no block level in this tree")
    ref = next(LEVEL1.glob("47_*.py"))
    row = coverage._block(ref, ANSWERS / "47_Sum_reduction__loop.py", timeout_s=0.2)
    assert row["verdict"] == "timeout" and "within 0 s" in row["text"]
