"""Every test session gets its own workspace: ``WORKBENCH_HOME`` points at a fresh temporary folder, so what a
developer (or an earlier run) left in the default workspace (``~/.local/share/kernel-proof-workbench``) never
decides a test, and no test writes there. A test that needs another workspace sets its own."""

from __future__ import annotations

import os
import textwrap

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("workspace")
    before = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(root)
    yield root
    if before is None:
        os.environ.pop("WORKBENCH_HOME", None)
    else:
        os.environ["WORKBENCH_HOME"] = before


@pytest.fixture
def program_file(tmp_path):
    """Write a user program file ``NAME.py`` (``program()``/``model()`` and ``example_inputs()``, indented text
    dedented) under the test's folder; returns a writer ``(name, body) -> path``."""

    def write(name: str, body: str) -> str:
        f = tmp_path / f"{name}.py"
        f.write_text(textwrap.dedent(body))
        return str(f)

    return write
