"""Theorems and tactic positions of a Lean file, read from its text (stage: prove; pure, no Lean).

The language server answers ``$/lean/plainGoal`` at a position: at the first character of a tactic it
shows the goals before that tactic, at the end of the tactic the goals after it. This module finds those
positions without Lean: a theorem's tactic block is the indented block after its ``by``; each line is a
step (a ``·`` bullet's content starts after the bullet), and a line whose brackets are still open continues
onto the next lines. It is a reader of layout, not a Lean parser: a ``calc`` block or a tactic written on
several lines without open brackets counts one step per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DECL_RE = re.compile(r"^(\s*)(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*(theorem|lemma|example)\b\s*([^\s(:{\[⦃]*)")
OPEN, CLOSE = "([{⟨⦃", ")]}⟩⦄"


@dataclass(frozen=True, slots=True)
class TacticStep:
    """One tactic of a proof; lines and columns are 0-based (LSP), columns in code points."""

    theorem: str
    index: int
    line: int
    col: int
    end_line: int
    end_col: int
    text: str


def theorems(text: str) -> tuple[str, ...]:
    """Names of the theorems (and ``example``s, as ``example@LINE``) in file order."""
    out = []
    for i, line in enumerate(text.splitlines()):
        m = DECL_RE.match(line)
        if m:
            out.append(m.group(3) or f"example@{i + 1}")
    return tuple(out)


def _strip_comment(line: str) -> str:
    idx = line.find("--")
    return line if idx < 0 else line[:idx]


def _balance(s: str) -> int:
    return sum(s.count(c) for c in OPEN) - sum(s.count(c) for c in CLOSE)


def tactic_steps(text: str, theorem: str) -> tuple[TacticStep, ...]:
    """The tactic steps of ``theorem``; empty for a term-mode proof. Unknown names raise ``KeyError``."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        m = DECL_RE.match(line)
        if m and (m.group(3) or f"example@{i + 1}") == theorem:
            start, indent = i, len(m.group(1))
            break
    if start is None:
        raise KeyError(theorem)
    # The block ends at the next line indented no deeper than the declaration (the next command).
    end = len(lines)
    for j in range(start + 1, len(lines)):
        s = lines[j]
        if s.strip() and (len(s) - len(s.lstrip())) <= indent and not s.lstrip().startswith(("--", "|")):
            end = j
            break
    # Find `by` that opens the tactic block (outside comments).
    by_line = by_col = None
    for j in range(start, end):
        code = _strip_comment(lines[j])
        m = re.search(r"(?:^|[\s(])by(?:\s|$)", code)
        if m and ":=" in "".join(_strip_comment(x) for x in lines[start:j + 1]):
            by_line, by_col = j, m.end()
            break
    if by_line is None:
        return ()
    steps: list[TacticStep] = []
    pending: list[int] = []  # line indices of the current multi-line step

    def flush() -> None:
        if not pending:
            return
        first, last = pending[0], pending[-1]
        raw = lines[first]
        col = len(raw) - len(raw.lstrip()) if first != by_line else by_col + (len(raw[by_col:]) - len(raw[by_col:].lstrip()))
        if raw[col:].startswith("·"):
            col += 1
            col += len(raw[col:]) - len(raw[col:].lstrip())
        end_text = _strip_comment(lines[last]).rstrip()
        body = "\n".join([_strip_comment(raw)[col:].rstrip()] + [_strip_comment(lines[k]).rstrip() for k in pending[1:]])
        steps.append(TacticStep(theorem, len(steps), first, col, last, len(end_text), body.strip()))
        pending.clear()

    depth = 0
    for j in range(by_line, end):
        code = _strip_comment(lines[j]) if j != by_line else _strip_comment(lines[j])[by_col:]
        if not code.strip():
            continue
        if not pending:
            pending.append(j)
            depth = _balance(code)
        else:
            pending.append(j)
            depth += _balance(code)
        if depth <= 0:
            flush()
            depth = 0
    flush()
    return tuple(steps)
