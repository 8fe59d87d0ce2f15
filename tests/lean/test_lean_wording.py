"""Say only what was checked (issue 26): no text about the Lean side calls a statement proved, since no Lean
ran where this was written. Lean theorems are "stated; a proof is written; not checked by Lean here"; the
Python checker's side conditions are "discharged by the checker (exact / z3)"."""

from __future__ import annotations

import re
from pathlib import Path

import workbench.lean
from workbench.lean.paths import PROJECT, REPO

WORD = re.compile(r"\bprov(?:ed|en)\b", re.I)
# README sentences that use the word only to deny it.
README_ALLOWED = ("calls a statement proved unless Lean checked it", "Trusted, not proved",
                  "`proved` as the status of a side condition it discharged")


def _hits(path: Path) -> list[str]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        # `status != "proved"` compares the checker's own status value (workbench.check's vocabulary).
        if WORD.search(line.replace('"proved"', "")):
            out.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:120]}")
    return out


def test_no_lean_text_says_proved():
    files = [*sorted(PROJECT.rglob("*.lean")), PROJECT / "lakefile.toml", REPO / "docs" / "lean.md",
             *sorted(Path(workbench.lean.__file__).parent.glob("*.py")), REPO / "scripts" / "lean-check.sh",
             REPO / "scripts" / "lean-regen.sh"]
    hits = [h for f in files if f.exists() for h in _hits(f)]
    assert hits == []


def test_readme_uses_the_word_only_to_deny_it():
    lines = [line for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines() if WORD.search(line)]
    bad = [line for line in lines if not any(a in line for a in README_ALLOWED)]
    assert bad == []
    assert any(README_ALLOWED[0] in line for line in lines), "the README's statement about Lean is missing"


def test_the_grep_finds_the_word(tmp_path):
    f = tmp_path / "x.lean"
    f.write_text("-- all 3 side conditions Proved.\n-- status != \"proved\"\n")
    assert WORD.search("all 3 side conditions Proved.") and not WORD.search('status != ""')


def test_instances_use_the_agreed_phrases():
    text = (PROJECT / "Instances" / "NestedCatAdd_PoiFusedAddCat0.lean").read_text()
    assert "side conditions discharged by the checker (exact / z3)" in text
    assert "Stated; a proof is written; not checked by Lean here." in text
    for f in sorted((PROJECT / "Narrowing").glob("*.lean")):
        assert "Status: stated; a proof is written; not checked by Lean here" in f.read_text(), f
