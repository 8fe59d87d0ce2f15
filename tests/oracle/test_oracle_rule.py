"""The oracle runs what the rule runs (issue 23): the module texts ``workbench.rule.compiled`` hands Inductor,
for every certified corpus kernel in strict, observable and partial mode, executed under Triton's interpreter
against the emitted text. Integer loads return values over the whole int64 range, so a payload division
computed in the wrong width disagrees.

The texts are produced here (this test may import the rule) and handed to the oracle as a
``workbench.rule-texts/1`` file, the way ``workbench rule texts --out FILE`` and ``workbench oracle --texts
FILE`` pass them: the oracle package itself still imports nothing of the checker, the IR or the rule
(tests/oracle/test_oracle_independence.py)."""

from __future__ import annotations

import json

import pytest

from workbench.capture import load
from workbench.check.table import corpus_records
from workbench.contract import Verdict
from workbench.oracle.corpus import text_targets
from workbench.oracle.run import check
from workbench.oracle.source import narrow
from workbench.paths import KERNELS
from workbench.rule.compiled import rule_texts


@pytest.fixture(scope="module")
def texts(tmp_path_factory):
    doc = rule_texts(corpus_records(KERNELS))
    path = tmp_path_factory.mktemp("texts") / "texts.json"
    path.write_text(json.dumps(doc))
    return doc, path


def test_every_certified_kernel_and_mode_has_a_validated_text(texts):
    doc, _ = texts
    assert doc["refused"] == []
    modes = {m: sum(t["mode"] == m for t in doc["texts"]) for m in ("strict", "observable", "partial")}
    assert modes["strict"] >= 55 and modes["observable"] >= 58 and modes["partial"] >= 60, modes
    ints = {t["program"] for t in doc["texts"] if t["program"].startswith("int_") and t["mode"] == "partial"}
    assert ints == {"int_div_trunc", "int_div_floor", "int_fmod", "int_remainder", "int_div_sum", "int_gather_div"}


def test_the_rules_n_text_is_the_text_the_oracle_has_always_run(texts):
    """For N modes the rule's text is byte for byte the oracle's own narrowing of the record (which
    tests/oracle/test_oracle_corpus.py runs for every certified kernel), so that run is a run of the rule's text."""
    doc, _ = texts
    for t in doc["texts"]:
        if t["mode"] == "partial":
            continue
        rec = load(KERNELS / t["program"] / f"{t['kernel']}.json")
        assert t["text"] == narrow(rec.source, rec.name, tuple(t["narrowed"])), (t["program"], t["mode"])


@pytest.mark.slow
def test_p_as_the_rule_compiles_it_agrees_with_the_emitted_kernel(texts):
    """Every partial text that differs from the emitted one (P rewrote some site), and every integer-data
    program's, under the interpreter against the emitted kernel: 0 disagreements on active lanes."""
    doc, path = texts
    targets = [t for t in text_targets(path)
               if t.text != t.record.source or t.record.program.startswith("int_")]
    rewritten = [t for t in targets if t.text != t.record.source]
    assert len(rewritten) >= 15, len(rewritten)
    results = check(targets, progress=False)
    bad = [(r.program, r.kernel, r.verdict, r.reason[:200]) for r in results if r.verdict != Verdict.OK]
    assert not bad, bad[:3]
    assert sum(r.disagreements for r in results) == 0 and all(r.lanes > 1000 for r in results)


def test_the_oracle_sees_p_rewriting_a_payload_division(tmp_path):
    """The control: the P an earlier rule compiled for int_div_trunc (its payload ``tmp0 // tmp2`` on int64 data
    rewritten to int32) disagrees under the oracle, because loads now return int64 values beyond int32."""
    rec = load(KERNELS / "int_div_trunc" / "triton_poi_fused_div_0.json")
    wrong = rec.source.replace("tmp3 = tmp0 // tmp2", "tmp3 = (tmp0.to(tl.int32) // tmp2.to(tl.int32)).to(tl.int64)")
    assert wrong != rec.source
    doc = {"schema": "workbench.rule-texts/1", "refused": [], "texts": [
        {"program": rec.program, "kernel": rec.name, "mode": "partial", "narrowed": [], "text": wrong}]}
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(doc))
    (r,) = check(text_targets(path), progress=False)
    assert r.verdict == Verdict.NOT_EQUIVALENT, r.reason
    assert r.disagreements > 0
