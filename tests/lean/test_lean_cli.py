"""``workbench lean ...`` through the real dispatcher."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lean_helpers import fake_project, server  # noqa: E402

from workbench.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_lean_cli_emit_hand_built_by_name(tmp_path, capsys):
    assert main(["lean", "emit", "tile", "--hand-built", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Tile_PoiFusedRepeat0.lean (14 side conditions, cited by kernel_safe)" in out
    assert "Lean check: not run" in out
    assert (tmp_path / "Tile_PoiFusedRepeat0.lean").read_text() == (Path(__file__).parent / "golden" / "hand_built" / "Tile_PoiFusedRepeat0.lean").read_text()


def test_lean_cli_emit_from_instance_json(tmp_path, capsys):
    import json

    from workbench.lean.hand_built import tile

    src = tmp_path / "tile.json"
    src.write_text(json.dumps(tile().to_json()))
    assert main(["lean", "emit", str(src), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "Tile_PoiFusedRepeat0.lean").exists()


def test_lean_cli_emit_captured_kernel_json_into_the_workspace(tmp_path, capsys):
    import json

    kernel = REPO / "data" / "kernels" / "tile" / "triton_poi_fused_repeat_0.json"
    if not kernel.exists():
        import pytest

        pytest.skip(f"{kernel} not captured in this checkout")
    assert main(["lean", "emit", str(kernel), "--workspace", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.lean_emit/1" and doc["verdict"] == "ok" and doc["lean_checked"] is False
    row = doc["instances"][0]
    assert row["module"] == "Tile_PoiFusedRepeat0" and row["side_conditions"] == 14
    assert (tmp_path / "lean" / "Instances" / "Tile_PoiFusedRepeat0.lean").exists()


def test_lean_cli_emit_never_writes_into_the_checkout(capsys):
    assert main(["lean", "emit", "tile", "--hand-built", "--out", str(REPO / "lean" / "Instances")]) == 2
    assert "read-only at run time" in capsys.readouterr().err


def test_lean_cli_emit_unknown(capsys):
    assert main(["lean", "emit", "no_such_kernel"]) == 2
    assert "neither a file nor a captured program" in capsys.readouterr().err
    assert main(["lean", "emit", "no_such_kernel", "--hand-built"]) == 2
    assert "no Lean instance named 'no_such_kernel'" in capsys.readouterr().err


def test_lean_cli_emit_program_through_the_checker(tmp_path, capsys):
    if not (REPO / "data" / "kernels" / "tile").is_dir():
        import pytest

        pytest.skip("data/kernels/tile not captured in this checkout")
    assert main(["lean", "emit", "tile", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Tile_PoiFusedRepeat0.lean" in out and "cited by kernel_safe" in out
    text = (tmp_path / "Tile_PoiFusedRepeat0.lean").read_text()
    assert "source: certificate workbench.certificate/1" in text
    assert "Issued by workbench.check" in text and "Lean check: NOT RUN" in text


def test_lean_cli_goals_with_fake_server(tmp_path, capsys):
    proj = fake_project(tmp_path / "p")
    cmd = shlex.join(server("happy"))
    code = main(["lean", "goals", str(proj / "Demo.lean"), "--project", str(proj), "--server", cmd, "--timeout", "10"])
    out = capsys.readouterr().out
    assert code == 0
    assert "step 1 (line 2): have m0 : 0 ≤ a - 1 := by omega" in out
    assert "⊢ 0 ≤ a" in out and "after: no goals" in out
    assert "Demo.lean:6:3: warning: declaration uses 'sorry'" in out
    code = main(["lean", "goals", str(proj / "Demo.lean"), "--project", str(proj), "--server", cmd, "--line", "2"])
    out = capsys.readouterr().out
    assert "Demo.lean:2: have m0" in out and "m0 : 0 ≤ a - 1" in out


def test_lean_cli_goals_without_lean_lists_steps(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    code = main(["lean", "goals", str(REPO / "lean" / "Narrowing" / "Int.lean"), "--theorem", "wrap32_eq_self_of_fits32"])
    captured = capsys.readouterr()
    assert code == 2
    assert re.search(r"step 3 \(line \d+\): omega", captured.out)
    assert "Lean is not installed here" in captured.err and "elan" in captured.err


def test_lean_cli_check_and_status_without_lean(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["lean", "check"]) == 2
    assert "`lake` was not found on PATH (workbench lean check)" in capsys.readouterr().err


def test_lean_cli_status_without_lean_exits_2(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["lean", "status"]) == 2  # docs/cli.md: exit 2 when Lean is not installed
    captured = capsys.readouterr()
    assert "nothing here was checked by Lean" in captured.out
    assert captured.err.count("\n") == 1 and "Lean is not installed here" in captured.err and "elan" in captured.err


def test_lean_cli_emit_into_the_workspace_makes_a_lake_project_goals_can_use(tmp_path, monkeypatch, capsys):
    """Issue 27: `lean emit` writes <ws>/lean/Instances/X.lean and `lean goals` on that file works: the
    workspace's lean/ is a Lake project using the checkout's Narrowing library (nothing written into it)."""
    ws = tmp_path / "ws"
    assert main(["lean", "emit", "tile", "--hand-built", "--workspace", str(ws)]) == 0
    out = capsys.readouterr().out
    project = ws / "lean"
    emitted = project / "Instances" / "Tile_PoiFusedRepeat0.lean"
    assert emitted.is_file() and f"Lake project {project}" in out and "workbench lean goals" in out
    assert (project / "lakefile.toml").is_file()
    assert (project / "lean-toolchain").read_text() == (REPO / "lean" / "lean-toolchain").read_text()
    assert (project / "Narrowing").resolve() == (REPO / "lean" / "Narrowing").resolve()
    assert (project / "Narrowing" / "Int.lean").is_file()
    assert (project / "Instances.lean").read_text() == "import Instances.Tile_PoiFusedRepeat0\n"
    assert "\nimport Narrowing.Interval\n" in emitted.read_text()  # resolved by the linked library
    monkeypatch.setenv("PATH", "/nonexistent")  # without Lean: the steps are listed, the file is accepted
    code = main(["lean", "goals", str(emitted)])
    captured = capsys.readouterr()
    assert code == 2 and "outside the Lean project" not in captured.err, captured.err
    assert "Instances/Tile_PoiFusedRepeat0.lean: Lean goals unavailable" in captured.out
    assert "Lean is not installed here" in captured.err


def test_lean_cli_goals_finds_the_workspace_project_with_a_server(tmp_path, capsys):
    from workbench.workspace import lean_project

    project = lean_project(tmp_path / "ws")
    (project / "Instances" / "Demo.lean").write_text((fake_project(tmp_path / "p") / "Demo.lean").read_text())
    code = main(["lean", "goals", str(project / "Instances" / "Demo.lean"), "--server",
                 shlex.join(server("happy")), "--timeout", "10", "--theorem", "demo"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "step 1 (line 2): have m0 : 0 ≤ a - 1 := by omega" in out
