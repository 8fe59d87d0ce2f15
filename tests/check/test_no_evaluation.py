"""No file content is ever evaluated (issue 11, STYLE 17): a grep of the whole ``workbench`` package for
``eval(``, ``exec(``, ``sympify(`` and ``pickle``.

Allowed, each because it provably never sees file text:
* ``.eval(`` as a *method* (z3's ``model.eval(term)`` evaluates a solver term the checker built);
* ``ast.literal_eval(`` (reads Python literals only; never runs code);
* the restricted parser ``workbench/symexpr.py``, whose docstring mentions ``sympify`` to say it replaces it.

There are no known exceptions: every site in the package is a failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "workbench"

PATTERNS = {
    "eval(": re.compile(r"(?<![\w.])eval\("),
    "exec(": re.compile(r"(?<![\w.])exec\("),
    "sympify(": re.compile(r"\bsympify\("),
    "pickle": re.compile(r"\b(c?pickle|dill|marshal)\b"),
}
ALLOWED_FILES = {"symexpr.py"}  # the restricted parser (its docstring names what it replaces)

# Every branch that had a site has merged: nothing is expected anywhere (an entry here would be a regression).
KNOWN_ELSEWHERE: tuple[str, ...] = ()


def _sites(path: Path) -> list[str]:
    out = []
    for i, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("#", 1)[0]
        for what, pat in PATTERNS.items():
            if pat.search(code):
                out.append(f"{path.relative_to(PACKAGE)}:{i}: {what}  {line.strip()[:80]}")
    return out


def _all_sites() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        if path.name in ALLOWED_FILES:
            continue
        sites = _sites(path)
        if sites:
            found[rel] = sites
    return found


def test_no_eval_exec_sympify_or_pickle_in_the_package():
    found = {k: v for k, v in _all_sites().items() if k not in KNOWN_ELSEWHERE}
    assert not found, "file content may be evaluated:\n" + "\n".join(s for v in found.values() for s in v)


def test_the_grep_finds_what_it_looks_for(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("import sympy\nx = sympy.sympify(text)\ny = eval(s)\nimport pickle\nm.eval(t)  # z3\n")
    global PACKAGE
    old, PACKAGE = PACKAGE, tmp_path
    try:
        got = _sites(bad)
    finally:
        PACKAGE = old
    assert [s.split(": ")[1].split()[0] for s in got] == ["sympify(", "eval(", "pickle"]
