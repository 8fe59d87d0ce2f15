"""`make lean-check` (scripts/lean-check.sh -> workbench/lean/filecheck.py) with a scripted `lake`: the library
files, then each instance, are built on their own; one broken file fails only what imports it; the table
lists built / failed with the first error / skipped, seconds and axioms; without `lake`, one line, exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from workbench.lean import filecheck
from workbench.lean.paths import PROJECT, REPO

FAKE_LAKE = r'''#!{python}
import os, re, sys
args = sys.argv[1:]
fail = os.environ.get("FAKE_LAKE_FAIL", "")
sorry = os.environ.get("FAKE_LAKE_SORRY", "")
if args[:1] == ["build"]:
    if args[1] == fail:
        print(f"✖ [3/9] Building {{args[1]}}")
        print(f"error: ./{{args[1].replace('.', '/')}}.lean:12:4: unknown identifier 'Int.sub_nonneg'")
        print("error: Lean exited with code 1")
        sys.exit(1)
    sys.exit(0)
if args[:3] == ["env", "lean", "--version"]:
    print("Lean (version 4.24.0, scripted lake for tests)")
    sys.exit(0)
if args[:2] == ["env", "lean"]:
    for name in re.findall(r"^#print axioms (\S+)", open(args[2]).read(), re.M):
        extra = ", sorryAx" if sorry and name.startswith(sorry) else ""
        print(f"'{{name}}' depends on axioms: [propext{{extra}}]")
    sys.exit(0)
sys.exit(2)
'''


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "lean"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(".lake"))
    return project


def _fake_lake(tmp_path: Path) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    lake = bin_dir / "lake"
    lake.write_text(FAKE_LAKE.format(python=sys.executable))
    lake.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def test_library_modules_come_in_import_order():
    order = filecheck.library_modules()
    assert order.index("Narrowing.Int") < order.index("Narrowing.Expr") < order.index("Narrowing.Kernel")
    assert order.index("Narrowing.Interval") < order.index("Narrowing.Quotient")
    assert order.index("Narrowing.Reduction") < order.index("Narrowing.ReductionLanes")
    assert set(order) == {f"Narrowing.{p.stem}" for p in (PROJECT / "Narrowing").glob("*.lean")}


def test_one_broken_library_file_fails_only_what_imports_it(tmp_path):
    project = _project(tmp_path)
    env = {**_fake_lake(tmp_path), "FAKE_LAKE_FAIL": "Narrowing.Reduction",
           "FAKE_LAKE_SORRY": "Instances.Stack_PoiFusedStack0"}
    res = subprocess.run(["bash", str(REPO / "scripts" / "lean-check.sh"), str(project)], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 1, res.stderr
    table = (project / ".lake" / "lean-check.md").read_text()
    assert table in res.stdout
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines() if line.startswith("| `")}
    assert "failed" in rows["Narrowing.Reduction"] and "unknown identifier 'Int.sub_nonneg'" in rows["Narrowing.Reduction"]
    assert "skipped" in rows["Narrowing.ReductionLanes"] and "skipped" in rows["Narrowing"]
    # A reduction instance imports Narrowing.Reduction: skipped; a pointwise one does not: built.
    assert "skipped" in rows["Instances.SumLast_RedFusedSum0"]
    assert "| built | " in rows["Instances.NestedCatAdd_PoiFusedAddCat0"] and "propext" in rows["Instances.NestedCatAdd_PoiFusedAddCat0"]
    assert "NON-STANDARD AXIOM" in rows["Instances.Stack_PoiFusedStack0"] and "sorryAx" in rows["Instances.Stack_PoiFusedStack0"]
    assert len(rows) == len(filecheck.library_modules()) + 1 + len(list((PROJECT / "Instances").glob("*.lean")))


def test_every_file_built_exits_zero(tmp_path):
    project = _project(tmp_path)
    res = subprocess.run(["bash", str(REPO / "scripts" / "lean-check.sh"), str(project)], env=_fake_lake(tmp_path),
                         cwd=REPO, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-2000:]
    assert "files built; " in res.stdout and "failed" not in res.stdout.split("|---|")[1]


def test_without_lake_one_line_and_exit_2(tmp_path):
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "lake").exists())
    env = {**os.environ, "PATH": path}  # every folder but one with a `lake`
    res = subprocess.run([shutil.which("bash"), str(REPO / "scripts" / "lean-check.sh")], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Lean is not installed here" in lines[0] and "nothing was checked" in lines[0]
    assert "Traceback" not in res.stderr


def test_a_folder_without_a_lakefile_is_one_line_and_exit_2(tmp_path):
    res = subprocess.run(["bash", str(REPO / "scripts" / "lean-check.sh"), str(tmp_path)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and "lakefile.toml" in res.stderr


def test_first_error_is_the_first_error_line():
    out = "✖ [2/5] Building X\ntrace: ...\nerror: ./X.lean:3:1: type mismatch\nerror: Lean exited with code 1\n"
    assert filecheck.first_error(out) == "error: ./X.lean:3:1: type mismatch"
