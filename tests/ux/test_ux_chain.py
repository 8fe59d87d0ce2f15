"""The whole chain on a user's program in a temporary directory: capture -> check -> rule -> lean emit, all
through the real dispatcher and each with ``--json`` checked against the output contract (the contract test
counts on this file for these four commands), with every output in the workspace and the checkout left
untouched; and ``check --all`` writes its table into the workspace, not into ``data/check``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[2]

# Named like the registered `tile` program on purpose: it must not land in data/kernels/tile.
PROGRAM = '''"""cat then scale: a body the shipped corpus does not have."""
import torch


def program(x, y):
    return torch.cat([x, y], dim=1) * 3


def example_inputs():
    return (torch.randn(5, 7), torch.randn(5, 11))
'''


def _status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def _tree(folder: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in folder.rglob("*")}


def test_chain_in_a_temporary_directory(tmp_path, monkeypatch, capsys, contract):
    from workbench.paths import DATA, KERNELS

    before, shipped = _status(), _tree(DATA)
    user = tmp_path / "mine"
    user.mkdir()
    (user / "tile.py").write_text(PROGRAM)
    ws = tmp_path / "ws"
    monkeypatch.chdir(user)
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "elsewhere"))  # --workspace wins over the environment

    # capture FILE.py -> records in the workspace, in a folder of its own
    code = main(["capture", "tile.py", "--workspace", str(ws), "--json"])
    doc = contract("capture", code, capsys.readouterr().out)
    assert doc["schema"] == "workbench.capture/1" and doc["verdict"] == "ok"
    folder = Path(doc["folder"])
    assert folder == ws / "kernels" / "file-tile"
    (kernel,) = doc["kernels"]
    assert kernel["program"] == "tile" and len(kernel["id"]) == 12
    assert not (KERNELS / "tile" / f"{kernel['kernel']}.json").exists()
    assert not (tmp_path / "elsewhere" / "kernels" / "file-tile").exists()

    # show / ir accept the folder, the file and (for shipped programs) a name
    assert main(["show", str(folder), "--workspace", str(ws)]) == 0
    assert f"id       {kernel['id']}" in capsys.readouterr().out
    assert main(["ir", kernel["path"], "--workspace", str(ws)]) == 0
    assert "tl.store(out_ptr0" in capsys.readouterr().out

    # check DIR -> a certificate in the workspace
    assert main(["check", str(folder), "--mode", "observable", "--workspace", str(ws)]) == 0
    out = capsys.readouterr().out
    assert "CERTIFIED" in out
    code = main(["check", str(folder), "--mode", "observable", "--workspace", str(ws), "--json"])
    doc = contract("check", code, capsys.readouterr().out)
    assert doc["verdict"] == "certified" and [v["verdict"] for v in doc["verdicts"]] == ["certified"]
    cert_path = ws / "certificates" / "file-tile" / f"{kernel['kernel']}.observable.json"
    cert = json.loads(cert_path.read_text())
    assert cert["schema"] == "workbench.certificate/1" and cert["verdict"] == "certified"

    # rule: the workspace's certificate binds the live compilation; without the workspace nothing binds
    from workbench.capture.record import load
    from workbench.resolve import certificate_store
    from workbench.rule import best_binding

    record = load(kernel["path"])
    assert best_binding(certificate_store(ws), record).bound
    empty = best_binding(certificate_store(tmp_path / "empty"), record)
    assert not empty.bound and "no certificate in the store" in empty.explain()
    code = main(["rule", "show", "tile.py", "--workspace", str(ws), "--json"])
    doc = contract("rule show", code, capsys.readouterr().out)
    (b,) = doc["bindings"]
    assert doc["verdict"] == b["verdict"] == "bound" and b["certificate"] == f"tile/{kernel['kernel']}"
    assert set(doc["size_args_as_compiled"][b["kernel"]].values()) == {"i32"}  # the rule took effect

    # lean emit CERT.json and KERNEL.json -> the same instance text
    assert main(["lean", "emit", str(cert_path), "--out", str(ws / "lean" / "a"), "--workspace", str(ws)]) == 0
    capsys.readouterr()
    code = main(["lean", "emit", kernel["path"], "--out", str(ws / "lean" / "b"), "--workspace", str(ws), "--json"])
    contract("lean emit", code, capsys.readouterr().out)
    (a,) = (ws / "lean" / "a").glob("*.lean")
    (b,) = (ws / "lean" / "b").glob("*.lean")
    assert a.read_text() == b.read_text() and "Issued by workbench.check" in a.read_text()

    assert _status() == before, "the chain wrote into the checkout"
    assert _tree(DATA) == shipped, "the chain touched the shipped data/"


def test_check_all_writes_its_table_into_the_workspace(tmp_path, monkeypatch, capsys, contract):
    """The corpus table command's default output is the workspace; ``--out data/check`` is only ever given
    on purpose (the developer command). The corpus is cut to one program here to keep the test fast."""
    from workbench.capture.record import load
    from workbench.check import table
    from workbench.paths import DATA, KERNELS

    monkeypatch.setattr(table, "corpus_records", lambda: [load(p) for p in sorted((KERNELS / "tile").glob("*.json"))])
    before, shipped = _status(), _tree(DATA / "check")
    ws = tmp_path / "ws"
    code = main(["check", "--all", "--no-smt", "--workspace", str(ws), "--json"])
    doc = contract("check", code, capsys.readouterr().out)
    assert Path(doc["results"]) == ws / "check" / "results.json" and Path(doc["markdown"]).is_file()
    written = json.loads((ws / "check" / "results.json").read_text())
    assert written["summary"]["kernels"] == doc["summary"]["kernels"] == 1
    assert [k["program"] for k in written["kernels"]] == ["tile"]
    assert _tree(DATA / "check") == shipped and _status() == before


def test_workspace_inside_the_shipped_data_is_refused(capsys):
    from workbench.paths import KERNELS

    assert main(["show", "tile", "--workspace", str(KERNELS / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "read-only at run time" in err


@pytest.mark.parametrize("target, message", [
    ("no_such_program", "no captured program 'no_such_program'"),
    ("./missing.json", "does not exist"),
    ("nested_cat_add_distinct/x", "is not a folder, a .json or a .py file"),
])
def test_show_names_what_it_could_not_resolve(tmp_path, target, message, capsys):
    assert main(["show", target, "--workspace", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_floats_flags_all_writes_into_the_workspace(tmp_path, monkeypatch, capsys):
    """`floats flags --all` (a table command) defaults to the workspace's floats/ and finds the shipped corpus
    through the package from any directory; the sweep itself is replaced here (it takes minutes)."""
    from workbench.floats.corpus import CORPUS
    from workbench.floats.ptx import flags

    seen = {}

    def fake(corpus, out, *a, **kw):
        seen.update(corpus=corpus, out=out)
        return out / "flags.json", out / "flags.md"

    monkeypatch.setattr(flags, "run_corpus", fake)
    monkeypatch.chdir(tmp_path)
    assert main(["floats", "flags", "--all", "--quick", "--workspace", str(tmp_path / "ws")]) == 0
    assert seen == {"corpus": CORPUS, "out": tmp_path / "ws" / "floats"}
    assert str(tmp_path / "ws" / "floats" / "flags.json") in capsys.readouterr().out
