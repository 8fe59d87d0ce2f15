"""Exit codes and JSON documents of ``check``, ``ir``, ``crosscheck`` and ``rule`` (issue 11, class 10):
0 accepted, 1 a verdict not accepted, 2 an input or usage error in one line, never a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "adversarial"))

from adv_records import TILE, materialise, signature, src  # noqa: E402

from workbench.cli import main  # noqa: E402


def _one_line_error(capsys, *needles):
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("workbench: error:") and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def test_binary_file_is_an_input_error(tmp_path, capsys):
    bad = tmp_path / "k.json"
    bad.write_bytes(bytes(range(256)) * 4)
    assert main(["check", str(bad)]) == 2
    _one_line_error(capsys, str(bad), "not text")


def test_missing_size_argument_is_an_input_error(tmp_path, capsys):
    path = materialise(TILE, lambda d: {**d, "size_args": [a for a in d["size_args"] if a["name"] != "ks1"]}, tmp_path)
    assert main(["check", str(path)]) == 2
    _one_line_error(capsys, "ks1", "re-capture")


def test_record_text_outside_the_grammar_is_an_input_error(tmp_path, capsys):
    def edit(d):
        d["guards"] = d["guards"] + ["__import__('os').system('true')"]
        return d

    path = materialise(TILE, edit, tmp_path)
    assert main(["check", str(path), "--mode", "strict"]) == 2
    _one_line_error(capsys, "__import__", "guard")


def test_program_whose_example_inputs_raise(tmp_path, capsys):
    prog = tmp_path / "prog.py"
    prog.write_text("def program(x):\n    return x + 1\n\ndef example_inputs():\n    raise RuntimeError('boom')\n")
    assert main(["check", str(prog)]) == 2
    _one_line_error(capsys, "RuntimeError: boom")


def test_check_json_is_a_contract_document_and_refusal_exits_1(tmp_path, capsys):
    path = materialise(TILE, src("x2 = xindex", "x2 = 2*xindex"), tmp_path)
    assert main(["check", str(path), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.check/1" and doc["verdict"] == "refused"
    assert [v["mode"] for v in doc["verdicts"]] == ["strict", "observable"]


def test_out_of_class_exits_1(tmp_path, capsys):
    path = materialise(TILE, signature("ks1", "i16"), tmp_path)
    assert main(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "out-of-class"
    # the IR models an i16 scalar exactly; a loop it refuses by name
    loop = materialise(TILE, src("    tmp0 = tl.load", "    for i in range(2):\n        pass\n    tmp0 = tl.load"),
                       tmp_path / "loop")
    assert main(["ir", str(loop)]) == 1
    assert "OUT-OF-CLASS" in capsys.readouterr().out
    assert main(["ir", str(loop), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.ir/1" and doc["verdict"] == "out-of-class" and "loop" in doc["reason"]


def test_ir_json_ok(capsys):
    from workbench.paths import KERNELS

    assert main(["ir", str(KERNELS / TILE), "--json", "--canonical"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.ir/1" and doc["verdict"] == "ok" and len(doc["hash"]) == 64


@pytest.mark.parametrize("argv", [["crosscheck", "--lanes", "0"], ["rule"], ["check"]])
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
