"""Every test session gets its own workspace: ``WORKBENCH_HOME`` points at a fresh temporary folder, so what a
developer (or an earlier run) left in the default workspace (``~/.local/share/kernel-proof-workbench``) never
decides a test, and no test writes there. A test that needs another workspace sets its own.

The capture cache is off (``WORKBENCH_CAPTURE_CACHE=off``): a test that captures a zoo model captures it, so a
comparison of two captures never compares one with itself. tests/foundation/test_capture_cache.py turns it on
in a folder of its own."""

from __future__ import annotations

import os
import textwrap

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("workspace")
    saved = {name: os.environ.get(name) for name in ("WORKBENCH_HOME", "WORKBENCH_CAPTURE_CACHE")}
    os.environ["WORKBENCH_HOME"] = str(root)
    os.environ["WORKBENCH_CAPTURE_CACHE"] = "off"
    yield root
    for name, before in saved.items():
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@pytest.fixture
def program_file(tmp_path):
    """Write a user program file ``NAME.py`` (``program()``/``model()`` and ``example_inputs()``, indented text
    dedented) under the test's folder; returns a writer ``(name, body) -> path``."""

    def write(name: str, body: str) -> str:
        f = tmp_path / f"{name}.py"
        f.write_text(textwrap.dedent(body))
        return str(f)

    return write
