"""The set-up files agree with each other: requirements.txt, environment.yml, pyproject, .ci/run, README."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _requirements():
    return {ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines() if ln.strip() and not ln.startswith("#")}


def _conda_pip():
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "- pip:")
    return {ln.strip()[2:] for ln in lines[start + 1 :] if ln.strip().startswith("- ")}


def test_environment_yml_lists_the_same_pinned_dependencies():
    assert _conda_pip() == _requirements()


def test_capture_pins_are_in_requirements():
    from workbench.capture.hooks import PINNED

    reqs = _requirements()
    assert f"torch=={PINNED['torch']}" in reqs and f"triton=={PINNED['triton']}" in reqs


def test_design_card_packages_are_pinned():
    names = {re.split("==", r)[0] for r in _requirements()}
    assert {"jupyterlab", "ipywidgets", "torch", "triton", "matplotlib", "sympy", "leanclient"} <= names


def test_console_script_and_ci_call_the_readme_test_command():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["scripts"]["workbench"] == "workbench.cli:main"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci
    readme = (ROOT / "README.md").read_text()
    first_screen = "\n".join(readme.splitlines()[:40])
    assert "make test" in first_screen and "make demo" in first_screen


def test_layout_of_the_design_card():
    for p in ["environment.yml", "notebooks", "workbench", "lean", "data", "figures", "README.md", "benchmarks", "tests"]:
        assert (ROOT / p).exists(), p
