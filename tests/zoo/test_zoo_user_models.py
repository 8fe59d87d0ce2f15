"""Your own models in the zoo (issue 24, item 5): ``zoo run --models FILE.py[,NAME...]`` runs user model files
(the ``model()`` and ``program()`` forms of docs/capture.md) like registered models: a child process per model,
results under ``file-<stem>``, resume, the same table."""

import json
import textwrap

import pytest

from workbench.cli import main
from workbench.errors import UsageError
from workbench.zoo.runner import entries, model_key

MLP = textwrap.dedent("""
    import torch, torch.nn as nn
    def model():
        return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
    def example_inputs():
        return (torch.randn(3, 7, 16),)
    def dynamic_dims():
        return ((0, 1),)
""")

PROGRAM = textwrap.dedent("""
    import torch
    def program(x):
        return torch.relu(x) * 2
    def example_inputs():
        return (torch.randn(5, 6),)
""")


def test_entries_take_files_and_names_and_refuse_what_they_cannot_run(tmp_path):
    f = tmp_path / "mlp.py"
    f.write_text(MLP)
    got = entries([str(f), "groupnorm_silu"])
    assert got == [str(f.resolve()), "groupnorm_silu"] and [model_key(e) for e in got] == ["file-mlp", "groupnorm_silu"]
    with pytest.raises(UsageError, match="model file .*nope.py' does not exist"):
        entries([str(tmp_path / "nope.py")])
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "mlp.py").write_text(MLP)
    with pytest.raises(UsageError, match="file-mlp named twice"):
        entries([str(f), str(tmp_path / "b" / "mlp.py")])
    with pytest.raises(UsageError, match="unknown zoo model"):
        entries(["no_such_model"])


def test_zoo_run_captures_and_checks_user_files_and_resumes(tmp_path, capsys):
    mlp, prog = tmp_path / "mlp.py", tmp_path / "relu2.py"
    mlp.write_text(MLP)
    prog.write_text(PROGRAM)
    out = tmp_path / "zoo"
    argv = ["zoo", "run", "--models", f"{mlp},{prog}", "--out", str(out), "--no-smt"]
    assert main(argv) == 0, capsys.readouterr().err
    doc = json.loads((out / "zoo.json").read_text())
    rows = {m["model"]: m for m in doc["models"]}
    assert set(rows) == {"file-mlp", "file-relu2"}
    assert all(r["source"] == "user file" and r["kernels"] >= 1 and not r["error"] for r in rows.values()), rows
    assert list((out / "records" / "file-mlp").glob("*.json"))
    capsys.readouterr()
    assert main(argv) == 0  # resume: both finished, nothing captured again
    assert "skipped 2 finished" in capsys.readouterr().out
