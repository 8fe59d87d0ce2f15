"""Honest shares (issue 24, item 7): the zoo table gives the certified shares over all kernels and, separately,
over the kernels with something to narrow (at least one int64 size argument)."""

from dataclasses import replace

from workbench.zoo import report
from workbench.zoo.runner import KernelOutcome, ModelResult


def _k(name, strict, observable, wide):
    return KernelOutcome(name, 0, "tl.int32", True, "", strict, observable, False, "", 0.1, "", wide)


def _model(name, kernels):
    return ModelResult(name, "torch.nn", "", tuple(kernels), 1, (), ("x.size(0)",), 2.0, 1.0)


def test_shares_over_all_kernels_and_over_kernels_with_something_to_narrow():
    results = {
        # k0, k1 take only int32 size arguments: certified without narrowing anything
        "a": _model("a", [_k("k0", "certified", "certified", 0), _k("k1", "certified", "certified", 0),
                          _k("k2", "refused", "certified", 2)]),
        "b": _model("b", [_k("k3", "refused", "refused", 1)]),
    }
    doc = report.build(results, {})
    t = doc["totals"]
    assert (t["kernels"], t["strict"], t["observable"]) == (4, 2, 3)
    assert (t["narrowable"], t["narrowable_strict"], t["narrowable_observable"]) == (2, 0, 1)
    assert t["share_narrowable_strict"] == 0.0 and t["share_narrowable_observable"] == 0.5
    md = report.markdown(doc)
    assert "certified strict 2 (50.0%), observable 3 (75.0%)" in md
    assert ("**Over kernels with something to narrow** (at least one int64 size argument): 2 of 4; certified "
            "strict 0 (0.0%), observable 1 (50.0%).") in md
    assert "| 1 (0, 1) |" in md and "| 1 (0, 0) |" in md  # a: k2 (refused strict, certified observable); b: k3
    rows = {m["model"]: m for m in doc["models"]}
    assert (rows["a"]["narrowable"], rows["b"]["narrowable"]) == (1, 1)


def test_results_recorded_before_the_count_say_so_rather_than_guess():
    old = _model("a", [replace(_k("k0", "certified", "certified", 0), wide_size_args=None)])
    doc = report.build({"a": old}, {})
    assert doc["totals"]["narrowable"] is None and doc["totals"]["share_narrowable_strict"] is None
    assert "not known for results recorded before the count; run `workbench zoo recheck`" in report.markdown(doc)


def test_training_steps_get_forward_and_backward_columns():
    """A model's training step (its own result, kept under DIR/train/) fills the inference row's training
    columns and gets a table of its own; a failed training capture says so in both."""
    fwd = _k("k0", "certified", "certified", 1)
    bwd = [replace(_k("b0", "certified", "certified", 1), graph=1, phase="backward"),
           replace(_k("b1", "refused", "certified", 2), graph=1, phase="backward")]
    step = _model("a", [fwd, *bwd])
    failed = ModelResult("b", "torch.nn", "CaptureError: Inductor's LoweringException: boom", (), 0, (), (), 3.0, 0.0)
    doc = report.build({"a": _model("a", [fwd]), "b": _model("b", [fwd])}, {"training_device": "cpu"},
                       training={"a": step, "b": failed})
    t, tt = doc["totals"], doc["training"]["totals"]
    assert (t["kernels"], t["backward"]) == (2, 0)
    assert (tt["models"], tt["models_captured"], tt["kernels"]) == (2, 1, 3)
    assert (tt["backward"], tt["backward_strict"], tt["backward_observable"]) == (2, 1, 2)
    assert (tt["narrowable"], tt["narrowable_strict"], tt["narrowable_observable"]) == (3, 2, 3)
    assert doc["verdict"] == "error"  # a training step that did not capture is a failed model of the run
    md = report.markdown(doc)
    assert ("**Training steps:** forward 1 kernels (certified strict 1, observable 1); backward 2 kernels "
            "(certified strict 1, observable 2). With at least one int64 size argument: forward 1 (certified strict "
            "1, observable 1), backward 2 (certified strict 1, observable 2).") in md
    assert (tt["backward_narrowable"], tt["backward_narrowable_strict"]) == (2, 1)
    assert "| a | torch.nn | 1 (0) | 1 | 1 | 0 | 1 | 1 | 1 (1, 1) | 1 (1, 1) | 2 (1, 2) |" in md
    assert "| b | torch.nn | 1 (0) | 1 | 1 | 0 | 1 | 1 | 1 (1, 1) | capture failed | capture failed |" in md
    assert "capture failed: CaptureError: Inductor's LoweringException: boom" in md
    assert "1 of 2 models captured a training step" in md
    no_steps = report.markdown(report.build({"a": _model("a", [fwd])}, {}))
    assert "Training steps" not in no_steps and "| 1 (1, 1) | - | - |" in no_steps


def test_zoo_run_backward_captures_training_steps(tmp_path, capsys):
    import json
    import textwrap

    from workbench.cli import main

    f = tmp_path / "mlp.py"
    f.write_text(textwrap.dedent("""
        import torch, torch.nn as nn
        def model():
            return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
        def example_inputs():
            return (torch.randn(3, 7, 16),)
    """))
    out = tmp_path / "zoo"
    assert main(["zoo", "run", "--models", str(f), "--backward", "--out", str(out), "--no-smt"]) == 0
    doc = json.loads((out / "zoo.json").read_text())
    assert doc["models"] == []  # no inference run in this directory: the training step is a result of its own
    (m,) = doc["training"]["models"]
    assert m["backward"] >= 1 and m["kernels"] > m["backward"], m
    assert {k["phase"] for k in m["kernels_detail"]} == {"forward", "backward"}
    assert (out / "train" / "models" / "file-mlp.json").is_file() and (out / "train" / "records" / "file-mlp").is_dir()
    assert "training_device" in doc["config"]
