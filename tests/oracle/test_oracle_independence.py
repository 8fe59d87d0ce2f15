"""The oracle shares no code with the checker or the kernel IR: checked on the import graph, statically and at
run time (in fresh subprocesses, the worker's included)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "workbench" / "oracle"
FORBIDDEN = ("workbench.kir", "workbench.check", "workbench.capture", "workbench.rule")
ALLOWED_WORKBENCH = {"workbench", "workbench.errors", "workbench.contract", "workbench.jsonfile", "workbench.paths",
                     "workbench.symexpr", "workbench.oracle"}


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_no_oracle_module_imports_outside_the_shared_foundation():
    for path in sorted(PACKAGE.glob("*.py")):
        for name in _imports(path):
            if name.startswith("workbench"):
                assert name in ALLOWED_WORKBENCH or name.startswith("workbench.oracle."), (path.name, name)


def _loaded(code: str, env: dict[str, str] | None = None) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})))
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_and_planning_loads_no_checker_module():
    code = (
        "import sys, json\n"
        "import workbench.oracle, workbench.oracle.cli, workbench.oracle.report, workbench.oracle.worker\n"
        "from workbench.oracle.corpus import targets\n"
        "from workbench.oracle.run import _prepare\n"
        "ts = targets()\n"
        "plans = [_prepare(i, t, None, 0) for i, t in enumerate(ts)]\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('workbench'))))\n"
    )
    loaded = _loaded(code)
    assert "workbench.oracle.shapes" in loaded and "workbench.oracle.worker" in loaded
    assert not [m for m in loaded if m.startswith(FORBIDDEN)], loaded


def test_the_interpreter_worker_loads_no_checker_module():
    # The worker's own modules plus Triton's interpreter, as the worker process has them.
    code = (
        "import sys, json\n"
        "import triton, triton.runtime.interpreter\n"
        "import workbench.oracle.worker as w, workbench.oracle.program, workbench.oracle.vectorized\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('workbench'))))\n"
    )
    loaded = _loaded(code, {"TRITON_INTERPRET": "1"})
    assert not [m for m in loaded if m.startswith(FORBIDDEN)], loaded
    assert not [m for m in loaded if m.startswith("torch")], "the worker must not need torch for plain kernels"
