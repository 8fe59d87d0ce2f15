"""The CLI end to end, in-process (``workbench.cli.main``) and once as a real console script."""

import json
import subprocess
import sys
from pathlib import Path

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "nested_cat_add " in out and "rotary " in out


def test_capture_then_show(tmp_path, capsys):
    assert main(["capture", "nested_cat_add", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ks0 : i64  = 2*s" in out and "<= 2147483647   <- int32 indexing guard" in out
    (path,) = tmp_path.glob("*.json")
    assert json.loads(path.read_text())["program"] == "nested_cat_add"
    assert main(["show", str(path), "--source"]) == 0
    shown = capsys.readouterr().out
    assert "xnumel : i32" in shown and "@triton.jit" in shown


def test_errors_are_one_line_with_exit_code_2(capsys):
    assert main(["capture", "no_such_program"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("workbench: error: unknown program 'no_such_program'")
    assert main(["show", "/nonexistent.json"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["capture"]) == 2
    assert "name a program" in capsys.readouterr().err


def test_console_script_demo():
    exe = Path(sys.executable).with_name("workbench")
    proc = subprocess.run([str(exe), "demo"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ks0 : i64  = 2*s" in proc.stdout
    assert "int32 indexing guard" in proc.stdout
    # every later stage ran: IR, both check modes, the rule binding, the Lean text (not checked here)
    assert "tl.store(out_ptr0" in proc.stdout
    assert "triton_poi_fused_add_cat_0 [observable]: CERTIFIED" in proc.stdout
    assert "BOUND to nested_cat_add/triton_poi_fused_add_cat_0" in proc.stdout
    assert "as compiled with the rule on: ks0: i32, ks1: i32, ks2: i32, ks3: i32" in proc.stdout
    assert "Lean check: NOT RUN" in proc.stdout or "Lean checked" in proc.stdout
