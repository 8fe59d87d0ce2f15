"""The committed flag table (data/floats/flags.json, PTX level) against the committed source-level table
(data/floats/verdicts.json): every corpus kernel is in it, and where both levels decided under the same
flags they agree. No nvcc needed: this reads the two committed files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FLAGS = json.loads(Path("data/floats/flags.json").read_text())
SOURCE = json.loads(Path("data/floats/verdicts.json").read_text())
CORPUS = Path("data/floats/corpus")
# flag set of the PTX table -> target of the source table
SAME_FLAGS = {"default": "fma=on ftz=off", "--fmad=false": "fma=off ftz=off"}
# a source verdict and the PTX verdicts that agree with it (case split: "no counterexample" is what an
# equivalent kernel gets without the sweep)
AGREES = {"equivalent": {"equivalent", "no counterexample"}, "not equivalent": {"not equivalent"},
          "no counterexample": {"no counterexample", "equivalent"}, "undecided": {"undecided"},
          "not elementwise": {"not elementwise"}}


def test_every_corpus_kernel_has_a_row_per_flag_set():
    have = {e["path"] for e in FLAGS["kernels"]}
    assert have == {p.as_posix() for p in sorted(CORPUS.glob("*/*.cu"))}
    for e in FLAGS["kernels"]:
        assert [r["flags"] for r in e["rows"]] == ["default", "--fmad=false", "--ftz=true", "-use_fast_math"]
        for r in e["rows"]:
            assert r["status"] != "not equivalent" or r["witness"], e["path"]


def test_both_tables_judge_against_the_same_spec_device():
    """The PTX table evaluates the spec through the same device-aware op table as the source table."""
    assert [FLAGS["spec_device"]] == SOURCE["spec_device"] == ["cuda"]


def _source_rows():
    out = {}
    for v in SOURCE["verdicts"]:
        out[(v["spec"], v["cuda_function"].split(" ")[0], v["target"])] = v
    return out


@pytest.mark.parametrize("label", list(SAME_FLAGS))
def test_both_levels_agree_where_both_decided(label):
    src = _source_rows()
    problems, compared, refused = [], 0, 0
    for e in FLAGS["kernels"]:
        v = src.get((e["program"], e["kernel"], SAME_FLAGS[label]))
        if v is None:
            continue
        r = next(r for r in e["rows"] if r["flags"] == label)
        if v["status"] == "undecided" or r["status"] == "undecided":
            continue  # the source level cannot evaluate expf & co.; the PTX level names the approximation
        if r["status"] == "refused":  # the PTX level refuses half/bfloat16 data and two output arrays, by name
            text = (CORPUS / e["program"] / "spec.py").read_text()
            assert ("DTYPE" in text and "16" in r["summary"]) or ("two arrays" in r["summary"]), e
            refused += 1
            continue
        compared += 1
        if r["status"] not in AGREES[v["status"]] or r["safe"] != v["safety"]["safe"]:
            problems.append(f"{e['path']} {label}: source {v['status']} (safe={v['safety']['safe']}), "
                            f"PTX {r['status']} (safe={r['safe']})")
        if v["mismatches"] is not None and r["mismatches"] is not None:
            if v["mismatches"] != r["mismatches"]:
                problems.append(f"{e['path']} {label}: {v['mismatches']} vs {r['mismatches']} mismatches")
    assert compared >= 50 and not problems, "\n".join(problems) or f"{compared} compared, " \
        f"{refused} refused"
