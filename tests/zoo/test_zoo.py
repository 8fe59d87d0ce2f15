"""The zoo: registry, torchvision on the CPU torch, the report, one model end to end, failure isolation,
resuming, the Dask path (a LocalCluster of 2 worker processes), and a 7B-dimension model on the meta device.

Only 2-3 small models are captured here (each capture is seconds); the full zoo run is not a test."""

import json
import shutil

import pytest

from workbench.contract import Verdict
from workbench.zoo import registry, report
from workbench.zoo.runner import KernelOutcome, ModelResult, load_results, out_of_class_reason, run_model, run_zoo

needs_zoo = pytest.mark.skipif(
    any(__import__("importlib").util.find_spec(m) is None for m in ("torchvision", "transformers", "distributed")),
    reason="the zoo extra is not installed (`pip install -e .[zoo]`)",
)
SMALL = ["layernorm_mlp", "conv_bn_relu"]


def test_registry_has_twelve_models_from_three_sources_all_dynamic():
    names = registry.names()
    assert len(names) >= 12 and len(set(names)) == len(names)
    assert {registry.get(n).source for n in names} == set(registry.Source)
    for n in registry.names(all_models=True):
        m = registry.get(n)
        assert len(m.dynamic) == len(m.inputs) and all(m.dynamic), n
        p = m.program()
        assert p.build is m.build and p.dynamic == m.dynamic
        for spec in m.inputs:  # dynamic dims have distinct example sizes >= 2 (no duck sizing, no 0/1)
            sizes = [p.example[d] for d in spec.shape if isinstance(d, str)]
            assert all(s >= 2 for s in sizes) and len(set(sizes)) == len(sizes), n
    assert "llama_7b_dims" not in names and "llama_7b_dims" in registry.names(all_models=True)


def test_the_wider_zoo_has_thirty_models_and_convolutional_ones_train_with_the_batch_dynamic():
    """Issue 24 item 8: at least 30 default models (CNN families, a shifted-window vision transformer, decoders
    with GQA / MQA and sliding windows). A training step (zoo_train:NAME) keeps only the batch dynamic where
    Inductor's convolution backward lowering would specialize the spatial dims; other models keep their dims."""
    from workbench.programs import resolve

    names = registry.names()
    assert len(names) >= 30
    for n in ("qwen2", "mistral", "swin_t", "vit_b_16", "mobilenet_v2", "regnet_y_400mf", "shufflenet_v2_x0_5",
              "squeezenet1_0", "mnasnet0_5"):
        assert n in names, n
    assert "densenet121" in registry.names(all_models=True)
    assert resolve("zoo_train:resnet18").dynamic == ((0,),) and resolve("zoo:resnet18").dynamic == ((0, 2, 3),)
    assert resolve("zoo_train:gpt2").dynamic == resolve("zoo:gpt2").dynamic == ((0, 1),)


def test_unknown_model_names_the_value_and_the_zoo():
    from workbench.errors import UsageError

    with pytest.raises(UsageError, match=r"unknown zoo model 'resnet19'; the zoo has .*resnet18"):
        registry.get("resnet19")
    with pytest.raises(UsageError, match="unknown zoo model 'nope'"):
        run_zoo(["nope"], __import__("pathlib").Path("/nonexistent-never-created"))


@needs_zoo
def test_torchvision_imports_on_the_cpu_torch_and_builds_on_meta():
    import torch

    from workbench.zoo.torchvision_ops import SCHEMAS, ensure_importable

    tv = ensure_importable()
    assert tv.__version__.startswith("0.28.0")
    for schema in SCHEMAS:
        assert hasattr(torch.ops.torchvision, schema.split("(")[0]), schema
    with torch.device("meta"):
        m = tv.models.resnet18(weights=None)
    assert sum(p.numel() for p in m.parameters()) == 11_689_512 and all(p.is_meta for p in m.parameters())


def test_out_of_class_reasons_are_the_constructs_the_ir_refuses():
    msg = "triton_per_fused_0, line 3: reduction is not supported by the kernel IR (reduction block parameter r0_numel); x"
    assert out_of_class_reason(msg, "tl.int32") == "reduction"
    assert out_of_class_reason("index dtype tl.int64: Inductor already indexes in 64 bits", "tl.int64") == "int64 indexing"
    # other reasons: one category across kernels (no kernel name, no line)
    seed = ("triton_poi_fused_native_dropout_0: size argument load_seed_offset is declared 'i32'; only size "
            "arguments declared i64 are narrowing candidates")
    assert out_of_class_reason(seed, "tl.int32") == "size argument load_seed_offset is declared 'i32'"
    dead = "triton_poi_fused_1: an integer // or % whose value no load or store uses (line 9); it still executes"
    assert out_of_class_reason(dead, "tl.int32") == "an integer // or % whose value no load or store uses"


def _model(name, kernels, error=""):
    return ModelResult(name, "torch.nn", error, tuple(kernels), 1 if not error else 0, (), ("x.size(0)",), 2.0, 1.0)


def _k(name, strict, observable, ooc="", cex=False):
    return KernelOutcome(name, 0, "tl.int32", ooc != "reduction", ooc, strict, observable, cex, "", 0.1)


def test_report_counts_shares_and_verdict():
    results = {
        "a": _model("a", [_k("k0", "certified", "certified"), _k("k1", "refused", "certified"),
                          _k("k2", "out-of-class", "out-of-class", "reduction")]),
        "b": _model("b", [_k("k3", "refused", "refused", cex=True), _k("k4", "refused", "refused")]),
    }
    doc = report.build(results, {"device": "fake-cuda:L4"})
    assert doc["schema"] == "workbench.zoo/1" and doc["verdict"] == Verdict.OK
    t = doc["totals"]
    assert (t["kernels"], t["in_class"], t["strict"], t["observable"]) == (5, 4, 1, 2)
    assert (t["refused_cex"], t["refused_no_cex"], t["out_of_class"]) == (1, 1, {"reduction": 1})
    assert t["share_in_class"] == 0.8 and t["share_observable"] == 0.4
    md = report.markdown(doc)
    assert "in class 4/5 (80.0%)" in md and "| reduction | 1 |" in md
    assert md.index("| a |") < md.index("| b |")
    # a model that failed to capture makes the run's verdict an error, and its row says why
    results["c"] = _model("c", [], error="CaptureError: boom")
    doc = report.build(results, {})
    assert doc["verdict"] == Verdict.ERROR and "capture failed: CaptureError: boom" in report.markdown(doc)


def test_report_counts_a_kernel_listed_twice_once():
    twice = _model("a", [_k("k0", "certified", "certified"), _k("k0", "certified", "certified"),
                         _k("k1", "out-of-class", "out-of-class", "reduction")])
    doc = report.build({"a": twice}, {})
    assert doc["totals"]["kernels"] == 2 and [k["name"] for k in doc["models"][0]["kernels_detail"]] == ["k0", "k1"]


def test_a_failing_model_is_recorded_not_raised():
    d = run_model("layernorm_mlp", device="tpu")
    r = ModelResult.from_json(d, "test")
    assert r.error.startswith("CaptureError: unknown capture device 'tpu'") and r.kernels == ()


@pytest.fixture(scope="module")
def dask_run(tmp_path_factory):
    """Two small models on a LocalCluster of 2 worker processes (the CI test of the Dask path)."""
    if any(__import__("importlib").util.find_spec(m) is None for m in ("distributed", "transformers")):
        pytest.skip("the zoo extra is not installed (`pip install -e .[zoo]`)")
    from dask.distributed import LocalCluster

    out = tmp_path_factory.mktemp("zoo")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        results = run_zoo(SMALL, out, scheduler=cluster.scheduler_address)
    return out, results


def test_dask_path_captures_and_checks_both_models(dask_run):
    out, results = dask_run
    assert sorted(results) == sorted(SMALL)
    for name in SMALL:
        r = results[name]
        assert not r.error and r.kernels and r.graphs == 1, r.error
        assert r.dynamic_dims  # batch and sequence (or spatial) were symbolic
        for k in r.kernels:
            assert k.strict in ("certified", "refused", "out-of-class") and k.observable in ("certified", "refused", "out-of-class")
            assert (k.out_of_class != "") == (k.observable == "out-of-class")
        assert (out / "models" / f"{name}.json").is_file()
    # a pointwise kernel of real models reaches the checker: the fused bias+GELU of the MLP is in class
    assert any(k.observable != "out-of-class" for k in results["layernorm_mlp"].kernels)


def test_rerun_skips_finished_models_and_the_cli_writes_the_table(dask_run, tmp_path, capsys):
    from workbench.cli import main

    out, _ = dask_run
    copy = tmp_path / "zoo"
    shutil.copytree(out, copy)

    def must_not_run(*a, **k):
        raise AssertionError("a finished model was run again")

    assert sorted(run_zoo(SMALL, copy, task=must_not_run)) == sorted(SMALL)
    code = main(["zoo", "run", "--models", ",".join(SMALL), "--out", str(copy)])
    printed = capsys.readouterr().out
    doc = json.loads((copy / "zoo.json").read_text())
    assert doc["schema"] == "workbench.zoo/1" and code == (0 if doc["verdict"] == "ok" else 1)
    assert "skipped 2 finished" in printed and "wrote" in printed
    assert sorted(m["model"] for m in doc["models"]) == sorted(SMALL)
    assert "Share of real kernels the checker reaches" in (copy / "zoo.md").read_text()
    assert load_results(copy).keys() == set(SMALL)


def test_recheck_runs_the_checker_over_kept_records_without_capturing(dask_run, tmp_path, capsys, monkeypatch):
    """The run kept each model's records (written by the Dask workers); `zoo recheck` re-checks them with no
    capture and reproduces the run's verdicts; a tampered record is caught by the record's own validation."""
    from workbench.cli import main
    from workbench.zoo import runner

    out, results = dask_run
    copy = tmp_path / "zoo"
    shutil.copytree(out, copy)
    for name in SMALL:
        kept = sorted(p.stem for p in (copy / "records" / name).glob("*.json"))
        assert kept == sorted(k.name for k in results[name].kernels), name

    def no_capture(*a, **k):
        raise AssertionError("recheck must not capture")

    import importlib

    monkeypatch.setattr(importlib.import_module("workbench.capture.isolated"), "capture_isolated", no_capture)
    assert main(["zoo", "recheck", "--out", str(copy)]) in (0, 1)
    printed = capsys.readouterr().out
    assert "rechecked 2 models" in printed and "wrote" in printed
    again = runner.load_results(copy)
    for name in SMALL:
        assert [(k.name, k.strict, k.observable) for k in again[name].kernels] == \
               [(k.name, k.strict, k.observable) for k in results[name].kernels]
        assert again[name].capture_seconds == results[name].capture_seconds
    # a record whose source was edited after capture is an input error (exit 2), not a silent verdict
    rec = next((copy / "records" / SMALL[0]).glob("*.json"))
    data = json.loads(rec.read_text())
    data["source"] = data["source"].replace(", xmask)", ", xmask & (xindex < 0))", 1)
    rec.write_text(json.dumps(data))
    assert main(["zoo", "recheck", "--out", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "edited after capture" in err and "re-capture it" in err and "Traceback" not in err
    assert main(["zoo", "recheck", "--out", str(tmp_path / "empty")]) == 2
    assert "no finished zoo run there" in capsys.readouterr().err


def test_cli_refuses_bad_arguments(capsys):
    from workbench.cli import main

    assert main(["zoo", "run", "--models", "nope", "--out", "/tmp/never-used-zoo"]) == 2
    assert "unknown zoo model 'nope'" in capsys.readouterr().err


@needs_zoo
@pytest.mark.slow
def test_llama_at_7b_dimensions_captures_without_allocating_weights():
    """Llama-2-7B's layer dimensions (2 of 32 layers, 0.67B parameters: 2.7 GB as float32) capture in a child
    whose peak memory stays far below the weights' size: they live on the meta device, then as fake tensors."""
    import json
    import subprocess
    import sys

    # RUSAGE_CHILDREN of this (pytest) process would include every child an earlier test spawned (sweep
    # workers, oracle workers): measure from a fresh process whose only child is the capture.
    code = ("import json, resource\n"
            "import workbench.zoo.registry\n"  # registers zoo: (programs never imports the zoo)
            "from workbench.capture.isolated import capture_isolated\n"
            "cap = capture_isolated('zoo:llama_7b_dims')\n"
            "print(json.dumps({'peak': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,\n"
            "                  'kernels': len(cap.kernels), 'dynamic': list(cap.dynamic_dims)}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["kernels"] and got["peak"] < 2.0 * 2**30, got["peak"]
    assert any("inputs[0].size(1)" in d for d in got["dynamic"])


def test_check_errors_are_recorded_per_kernel_never_fatal(monkeypatch):
    """A kernel whose check raises (a WorkbenchError, or a checker bug) is recorded; the other kernels go on."""
    from workbench import check
    from workbench.capture import load_dir
    from workbench.errors import InputError
    from workbench.paths import KERNELS
    from workbench.zoo.runner import check_one

    (record,) = load_dir(KERNELS / "cat2")[:1]
    real = check.check_kernel
    assert check_one(record).observable in ("certified", "refused")

    def broken(rec, mode, **kw):
        if mode == "strict":
            raise InputError("bad fact")
        raise KeyError("_a1")

    monkeypatch.setattr(check, "check_kernel", broken)
    got = check_one(record)
    assert (got.strict, got.observable) == ("error", "error")
    assert got.reason.startswith("internal checker error: KeyError")
    monkeypatch.setattr(check, "check_kernel", real)
