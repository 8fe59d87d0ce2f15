"""`workbench zoo oracle` (issue 24, "the oracle agrees on every certified kernel, backward ones included"): the
checker table built from the zoo's recorded verdicts, the oracle over one small model's certified kernels, and a
kernel certified although its narrowed text is wrong (a hand-edited record, as tests/oracle/test_oracle_controls.py
edits them) reported as a disagreement, not hidden.

The oracle runs in interpreter worker processes (one per model run: a Triton import each), about 10 s a run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.contract import Verdict
from workbench.errors import InputError
from workbench.zoo import oracle
from workbench.zoo.runner import load_results, training_dir

ROOT = Path(__file__).resolve().parents[2]
ZOO = ROOT / "data" / "zoo"


def _table(step: oracle.Step, model: str, unnarrowed: bool = False) -> oracle.ModelTable:
    return oracle.build_table(ZOO, step, load_results(step.results_dir(ZOO))[model], unnarrowed)


def _record(step: oracle.Step, model: str, stem: str) -> dict:
    return json.loads((step.results_dir(ZOO) / "records" / model / f"{stem}.json").read_text())


def test_the_table_lists_each_certified_kernel_with_its_records_size_arguments():
    for model in ("groupnorm_silu", "sdpa"):
        t = _table(oracle.Step.INFERENCE, model)
        result = load_results(ZOO)[model]
        assert t.doc["schema"] == "workbench.check_results/1" and "no checker ran" in t.doc["source"]
        certified = [k for k in result.kernels if Verdict.CERTIFIED in (k.strict, k.observable)]
        assert t.kernels == len(result.kernels) and t.uncertified == len(result.kernels) - len(certified)
        listed = {row["kernel"] for row in t.doc["kernels"]}
        skipped = {s.kernel for s in t.skipped}
        assert listed | skipped == {k.name for k in certified} and not listed & skipped
        for row in t.doc["kernels"]:
            args = sorted(a["name"] for a in _record(oracle.Step.INFERENCE, model, row["kernel"])["size_args"])
            assert args, row  # a kernel without a size argument is not run by default
            for mode in ("strict", "observable"):
                assert row[mode]["narrowable_size_args"] == (args if row[mode]["verdict"] == "certified" else [])
        assert {s.why for s in t.skipped} == {oracle.NotRun.NOTHING_NARROWED}
        # --unnarrowed lists those too (narrowing nothing)
        assert {r["kernel"] for r in _table(oracle.Step.INFERENCE, model, True).doc["kernels"]} == listed | skipped


def test_backward_kernels_are_read_from_their_own_records():
    from workbench.capture.record import file_stem, load

    t = _table(oracle.Step.TRAINING, "squeezenet1_0", unnarrowed=True)
    # squeezenet's step has a forward and a backward kernel named triton_poi_fused_max_pool2d_with_indices_22
    name = "triton_poi_fused_max_pool2d_with_indices_22"
    rows = {r["kernel"] for r in t.doc["kernels"]}
    assert {name, f"{name}__backward"} <= rows and not t.skipped
    for stem, phase in ((name, "forward"), (f"{name}__backward", "backward")):
        k = load(training_dir(ZOO) / "records" / "squeezenet1_0" / f"{stem}.json")
        assert (k.phase, file_stem(k)) == (phase, oracle.record_stem(k.name, k.phase))
        assert t.outcomes[stem].phase == phase


def test_a_record_that_is_not_the_results_kernel_is_an_input_error(tmp_path):
    zoo = _fake_zoo(tmp_path, edit=None)
    path = next((zoo / "records" / "conv_bn_relu").glob("*.json"))
    path.write_text(json.dumps(dict(json.loads(path.read_text()), graph=1)))
    with pytest.raises(InputError, match=r"\(program, kernel, graph, phase\).*re-run `workbench zoo run"):
        oracle.build_table(zoo, oracle.Step.INFERENCE, load_results(zoo)["conv_bn_relu"])


def test_the_driver_imports_neither_the_checker_nor_the_kernel_ir():
    code = (
        "import sys; from pathlib import Path\n"
        "from workbench.zoo import oracle\n"
        "from workbench.oracle.corpus import targets\n"
        f"zoo = Path({str(ZOO)!r})\n"
        "t = oracle.build_table(zoo, oracle.Step.TRAINING, oracle.results_of(zoo, oracle.Step.TRAINING)['gpt2'])\n"
        "import json, tempfile\n"
        "f = tempfile.NamedTemporaryFile('w', suffix='.json', delete=False); json.dump(t.doc, f); f.close()\n"
        "assert targets(f.name, zoo / 'train' / 'records')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[:2] in (['workbench', 'check'], ['workbench', 'kir']))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_the_oracle_agrees_on_a_small_models_certified_kernels_and_resumes(tmp_path, capsys):
    from workbench.cli import main

    assert main(["zoo", "oracle", "--models", "groupnorm_silu", "--write", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "[1/1] inference groupnorm_silu: 2 run, 2 agreeing, 0 disagreeing" in err
    doc = json.loads((tmp_path / "oracle.json").read_text())
    assert doc["schema"] == "workbench.zoo_oracle/1" and doc["verdict"] == "ok"
    part = doc["inference"]["models"]["groupnorm_silu"]
    assert part["status"] == "run" and part["counts"]["agreeing"] == 2 and part["counts"]["active_lanes"] > 0
    assert part["counts"]["not_run_nothing_narrowed"] == 1  # triton_per_fused_native_group_norm_1: no size argument
    assert doc["inference"]["models"]["resnet18"] == {"status": "not run"}
    per_model = json.loads((tmp_path / "oracle" / "inference" / "groupnorm_silu.json").read_text())
    assert {k["kernel"]: k["verdict"] for k in per_model["kernels"]} == {
        "triton_red_fused_native_group_norm_0": "ok", "triton_poi_fused_native_group_norm_silu_2": "ok"}
    assert (tmp_path / "oracle" / "inference" / "groupnorm_silu.table.json").is_file()
    md = (tmp_path / "oracle.md").read_text()
    assert "| groupnorm_silu | 3 | 3 | 2 | 2 | **0** |" in md
    # --resume keeps a finished model whose table is unchanged (no oracle run)
    assert main(["zoo", "oracle", "--models", "groupnorm_silu", "--write", str(tmp_path), "--resume"]) == 0
    assert "[resumed]" in capsys.readouterr().err


def _fake_zoo(tmp_path: Path, edit: tuple[str, str] | None) -> Path:
    """conv_bn_relu's inference result and record, the record's source optionally hand-edited (its verdicts
    still say certified in both modes)."""
    zoo = tmp_path / "zoo"
    (zoo / "models").mkdir(parents=True)
    shutil.copy(ZOO / "models" / "conv_bn_relu.json", zoo / "models")
    shutil.copytree(ZOO / "records" / "conv_bn_relu", zoo / "records" / "conv_bn_relu")
    if edit is not None:
        [path] = (zoo / "records" / "conv_bn_relu").glob("*.json")
        d = json.loads(path.read_text())
        assert edit[0] in d["source"]
        path.write_text(json.dumps(dict(d, source=d["source"].replace(*edit))))
    return zoo


def test_a_certified_kernel_whose_narrowed_text_is_wrong_is_reported_as_a_disagreement(tmp_path, capsys):
    from workbench.cli import main

    # an extra product of size arguments in an address: ks0*ks0 wraps in int32 once ks0 > 46340 (ks0 is H*W)
    load = "tmp1 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')"
    zoo = _fake_zoo(tmp_path, (load, "tmp1 = tl.load(in_ptr0 + (x1 + ks0*ks0), xmask, eviction_policy='evict_last')"))
    assert main(["zoo", "oracle", "--out", str(zoo)]) == 1
    assert "1 run, 0 agreeing, 1 disagreeing" in capsys.readouterr().err
    doc = json.loads((zoo / "oracle.json").read_text())
    assert doc["verdict"] == "not-equivalent"
    m = doc["inference"]["models"]["conv_bn_relu"]
    assert m["counts"]["disagreeing"] == 1 and m["counts"]["disagreements"] > 0
    [bad] = m["not_agreeing"]
    assert bad["kernel"] == "triton_poi_fused__native_batch_norm_legit_no_training_convolution_relu_0"
    assert bad["verdict"] == "not-equivalent" and "load" in bad["reason"] and "address" in bad["reason"]
    md = (zoo / "oracle.md").read_text()
    assert "**not-equivalent**" in md and bad["kernel"] in md
    # the zoo's verdicts change (rechecked: refused) -> the oracle's result is stale, not counted
    result = json.loads((zoo / "models" / "conv_bn_relu.json").read_text())
    result["kernels"][0].update(strict="refused", observable="refused")
    (zoo / "models" / "conv_bn_relu.json").write_text(json.dumps(result))
    assert oracle.summary(zoo, zoo)["inference"]["models"]["conv_bn_relu"]["status"] == "stale"


def test_a_float_scalar_argument_of_the_cpu_backend_is_passed_as_data_and_agrees(tmp_path):
    """albert's training step: the CPU backend passes a layer-norm backward's constant operand as a kernel
    argument (``in_ptr0: 'fp32'``); the oracle called that out of its class until it passed float scalars as
    data (``launch.DATA_SCALAR``, the same value in both kernels)."""
    import ast
    import random

    from workbench.oracle import reduction
    from workbench.oracle.corpus import targets
    from workbench.oracle.launch import DATA_SCALAR, plan
    from workbench.oracle.run import check
    from workbench.oracle.shapes import search
    from workbench.oracle.source import read

    t = _table(oracle.Step.TRAINING, "albert")
    path = tmp_path / "albert.table.json"
    path.write_text(json.dumps(t.doc))
    stem = "triton_per_fused_add_expand_native_layer_norm_backward_select_backward_2__backward"
    [target] = [x for x in targets(path, training_dir(ZOO) / "records") if Path(x.record.path).stem == stem]
    rec = target.record
    assert dict(rec.signature)["in_ptr0"] == "fp32"
    text = read(rec.source, rec.name, "albert")
    shape = search(rec, 0)[0]
    pointers = tuple(p for p in text.params if dict(text.signature).get(p, "").startswith("*"))
    red = reduction.facts(ast.parse(text.function.lstrip()).body[0])
    launch = plan(rec, shape.as_dict(), 0, random.Random(0), text.params, text.constexprs, pointers, None, red)
    assert launch.data == (("in_ptr0", DATA_SCALAR),) and launch.to_job()["data"] == {"in_ptr0": DATA_SCALAR}
    [result] = check([target], progress=False)
    assert result.verdict == Verdict.OK and result.lanes > 0, result.reason


def test_the_shipped_oracle_summary_is_the_report_of_the_shipped_results():
    """``data/zoo/oracle.{json,md}`` are the summary of ``data/zoo/oracle/<step>/<model>.json``, every captured
    model's result is there and ran the table the zoo's verdicts give now (none stale), and no kernel
    disagrees. A recheck that moves a verdict fails here until `workbench zoo oracle [--training] --resume`
    reruns the models it moved."""
    doc = json.loads((ZOO / "oracle.json").read_text())
    again = oracle.summary(ZOO, ZOO)
    stale = [(s, n) for s in ("inference", "training") for n, m in again[s]["models"].items()
             if m["status"] not in ("run", "capture failed")]
    assert not stale, f"{stale}: rerun `workbench zoo oracle [--training] --resume` (docs/zoo.md)"
    assert again == doc, "data/zoo/oracle.json is stale: rerun `workbench zoo oracle --resume`"
    assert (ZOO / "oracle.md").read_text() == oracle.markdown(doc)
    for step in ("inference", "training"):
        t = doc[step]["totals"]
        assert t["disagreeing"] == 0 and t["run"] == t["agreeing"] > 0, (step, t)
        assert t["certified"] == t["run"] + t["not_run_nothing_narrowed"] + t["not_run_no_record"], (step, t)


def test_a_recheck_that_certifies_a_kernel_without_size_arguments_refreshes_counts_without_a_rerun(tmp_path):
    """A kernel with nothing to narrow newly certified (or refused) by a recheck changes no kernel the oracle
    runs: the table is the same, the finished result is kept, and the counts of certified and not-run kernels
    follow the zoo's verdicts."""
    zoo = tmp_path / "zoo"
    (zoo / "models").mkdir(parents=True)
    shutil.copy(ZOO / "models" / "layernorm_mlp.json", zoo / "models")  # two certified kernels, no size argument
    shutil.copytree(ZOO / "records" / "layernorm_mlp", zoo / "records" / "layernorm_mlp")
    oracle.run(zoo, zoo, oracle.Step.INFERENCE)
    first = oracle.summary(zoo, zoo)["inference"]["models"]["layernorm_mlp"]
    assert first["status"] == "run" and first["counts"]["certified"] == 2 and first["counts"]["run"] == 0
    result = json.loads((zoo / "models" / "layernorm_mlp.json").read_text())
    result["kernels"][0].update(strict="refused", observable="refused")
    (zoo / "models" / "layernorm_mlp.json").write_text(json.dumps(result))
    again = oracle.summary(zoo, zoo)["inference"]["models"]["layernorm_mlp"]
    assert again["status"] == "run" and again["counts"]["certified"] == 1
    assert again["counts"]["not_run_nothing_narrowed"] == 1 and again["counts"]["not_certified"] == 1
    seen = []
    oracle.run(zoo, zoo, oracle.Step.INFERENCE, resume=True, on_done=lambda n, d, reused: seen.append((reused, d)))
    [(reused, doc)] = seen
    assert reused and doc["counts"]["certified"] == 1 and len(doc["not_run"]) == 1
    assert json.loads((zoo / "oracle" / "inference" / "layernorm_mlp.json").read_text()) == doc


def test_the_default_output_is_the_workspace_not_the_checkout(tmp_path, monkeypatch, capsys):
    """Reading the shipped zoo writes nothing into the checkout: without --write (and --out) the summary and
    the per-model results go to the workspace's zoo/ folder; --json prints the summary it wrote."""
    from workbench.cli import main

    shipped = ROOT / "data" / "zoo" / "oracle.json"
    before = shipped.read_bytes()
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "ws"))
    assert main(["zoo", "oracle", "--models", "layernorm_mlp", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.zoo_oracle/1" and doc["verdict"] == "ok"
    assert doc == json.loads((tmp_path / "ws" / "zoo" / "oracle.json").read_text())
    assert (tmp_path / "ws" / "zoo" / "oracle" / "inference" / "layernorm_mlp.json").is_file()
    assert shipped.read_bytes() == before
