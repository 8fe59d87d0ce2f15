"""The shipped zoo (``data/zoo``, issue 24 items 4 and 8): every default model has an inference result and a
training step's result; every kept record loads (its hash is checked on load) and is one of its result's
kernels; ``zoo.json``/``zoo.md`` are the report of exactly those results; a model that did not capture names
the library's own error (or that it ran out of time); and ``zoo recheck`` over a fixed subset of models
reproduces the shipped verdicts.

The subset keeps this test's CI cost small (the checker over all shipped records takes minutes on 2 cores);
the whole set is rechecked by ``workbench zoo recheck --out COPY`` on a copy of ``data/zoo`` (docs/zoo.md,
"Rechecking the shipped zoo"). A checker change that moves a verdict fails here until the shipped zoo is
rechecked on purpose and the diff reviewed."""

import json
import re
import shutil
from pathlib import Path

import pytest

from workbench.zoo import registry, report
from workbench.zoo.runner import load_results, records_path, training_dir

ROOT = Path(__file__).resolve().parents[2]
ZOO = ROOT / "data" / "zoo"
# Rechecked in CI: inference and training steps of models from the three sources (refusals and out-of-class
# kernels among them), chosen by name for small check times in the shipped results (about 30 s of checking
# under a load average of 8): 9 models, 78 inference and 230 training kernels.
RECHECKED = ("bert", "conv_bn_relu", "distilbert", "embedding_layernorm", "mistral", "qwen2", "sdpa", "vit_b_16",
             "whisper_encoder")


def _all() -> dict:
    return {ZOO: load_results(ZOO), training_dir(ZOO): load_results(training_dir(ZOO))}


def test_every_default_model_is_shipped_with_an_inference_and_a_training_result():
    got = _all()
    for name in registry.names():
        assert name in got[ZOO], f"{name}: no inference result in {ZOO / 'models'}"
        assert name in got[training_dir(ZOO)], f"{name}: no training step in {training_dir(ZOO) / 'models'}"
    assert len(registry.names()) >= 30


def test_a_model_that_did_not_capture_names_the_library_error_not_ours():
    for where, results in _all().items():
        for r in results.values():
            if r.error:  # the owner's exception type is in the message (torch / Inductor / the model's code),
                # or the capture ran out of time (the child is killed; nothing failed)
                named = set(re.findall(r"\b(\w+(?:Error|Exception))\b", r.error)) - {"CaptureError", "WorkbenchError"}
                assert named or re.search(r"took longer than \d+ s; the child was killed", r.error), \
                    (where.name, r.name, r.error)
                assert not records_path(where, r.name).is_dir(), r.name


def test_kept_records_are_their_results_kernels():
    from workbench.capture.record import load_dir

    n = 0
    for where, results in _all().items():
        for name, r in results.items():
            if r.error:
                continue
            kept = load_dir(records_path(where, name))  # validated on load: schema and source hash
            assert sorted(k.name for k in kept) == sorted(k.name for k in r.kernels), (where, name)
            assert {getattr(k, "phase", "forward") for k in kept} == {k.phase for k in r.kernels}, (where, name)
            n += len(kept)
    assert n > 500


def test_the_shipped_table_is_the_report_of_the_shipped_results():
    doc = json.loads((ZOO / "zoo.json").read_text())
    got = _all()
    rebuilt = report.build(got[ZOO], doc["config"], training=got[training_dir(ZOO)])
    assert rebuilt == doc, "data/zoo/zoo.json is stale: run `workbench zoo recheck --out data/zoo`"
    assert (ZOO / "zoo.md").read_text() == report.markdown(doc)


@pytest.mark.slow
def test_recheck_reproduces_the_shipped_verdicts_on_a_fixed_subset(tmp_path, capsys):
    from workbench.cli import main

    copy = tmp_path / "zoo"
    for where in (ZOO, training_dir(ZOO)):
        dest = copy / where.relative_to(ZOO)
        (dest / "models").mkdir(parents=True)
        for name in RECHECKED:
            shutil.copy(where / "models" / f"{name}.json", dest / "models")
            if records_path(where, name).is_dir():
                shutil.copytree(records_path(where, name), records_path(dest, name))
    shutil.copy(ZOO / "zoo.json", copy)
    assert main(["zoo", "recheck", "--out", str(copy)]) in (0, 1)
    assert f"rechecked {2 * len(RECHECKED)} models" in capsys.readouterr().out
    shipped = _all()
    for where in (ZOO, training_dir(ZOO)):
        again = load_results(copy / where.relative_to(ZOO))
        for name in RECHECKED:
            before = [(k.name, k.phase, k.strict, k.observable, k.counterexample, k.out_of_class)
                      for k in shipped[where][name].kernels]
            after = [(k.name, k.phase, k.strict, k.observable, k.counterexample, k.out_of_class)
                     for k in again[name].kernels]
            assert after == before, f"{name} ({where.name}): the checker's verdicts moved; recheck data/zoo on purpose"
