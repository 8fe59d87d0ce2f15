"""Launch configuration of a kernel: ``// launch: grid = EXPR, block = EXPR`` in the source (stage: floats).

The expressions are integer arithmetic in the element count ``n``: integers, ``n``, ``+ - * / %`` (C
semantics: division truncates toward zero), parentheses, ``min(a, b)`` and ``max(a, b)``. They are parsed
by the small recursive-descent parser below into a tree and evaluated on integers; file text is never
evaluated as Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.floats.errors import CudaParseError

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)\b|(min|max)\b|([-+*/%(),]))")


@dataclass(frozen=True, slots=True)
class IntExpr:
    """``op`` is "int" (value), "n", "neg", one of + - * / %, or min/max; ``args`` are sub-expressions."""

    op: str
    args: tuple["IntExpr", ...] = ()
    value: int = 0

    def value_at(self, n: int) -> int:
        match self.op:
            case "int":
                return self.value
            case "n":
                return n
            case "neg":
                return -self.args[0].value_at(n)
            case "+" | "-" | "*" | "/" | "%" | "min" | "max":
                a, b = (x.value_at(n) for x in self.args)
                return _binary(self.op, a, b)
        raise AssertionError(self.op)


def _binary(op: str, a: int, b: int) -> int:
    match op:
        case "+":
            return a + b
        case "-":
            return a - b
        case "*":
            return a * b
        case "/" | "%":
            if b == 0:
                raise CudaParseError("launch expression divides by zero; fix the `// launch:` comment")
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C11 6.5.5p6: truncation
            return q if op == "/" else a - q * b
        case "min":
            return min(a, b)
        case "max":
            return max(a, b)
    raise AssertionError(op)


def parse_int_expr(text: str) -> IntExpr:
    """Parse ``text``; raise CudaParseError naming the offending position."""
    toks: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise CudaParseError(f"launch expression {text!r}: unexpected {text[pos:].strip()[:10]!r} at column "
                                 f"{pos + 1}; use n, integers, + - * / %, parentheses, min(a, b), max(a, b)")
        kind = "int" if m.group(1) else "n" if m.group(2) else "fn" if m.group(3) else "op"
        toks.append((kind, m.group(m.lastindex)))
        pos = m.end()
    parser = _Parser(toks, text)
    e = parser.sum()
    if parser.i != len(toks):
        raise CudaParseError(f"launch expression {text!r}: unexpected {toks[parser.i][1]!r}; fix the `// launch:` comment")
    return e


class _Parser:
    def __init__(self, toks: list[tuple[str, str]], text: str):
        self.toks, self.text, self.i = toks, text, 0

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[str, str]:
        if self.i >= len(self.toks) or (want is not None and self.toks[self.i][1] != want):
            raise CudaParseError(f"launch expression {self.text!r} is incomplete (expected {want or 'a term'}); "
                                 "fix the `// launch:` comment")
        self.i += 1
        return self.toks[self.i - 1]

    def sum(self) -> IntExpr:
        e = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            e = IntExpr(op, (e, self.product()))
        return e

    def product(self) -> IntExpr:
        e = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()[1]
            e = IntExpr(op, (e, self.unary()))
        return e

    def unary(self) -> IntExpr:
        if self.peek() == "-":
            self.take()
            return IntExpr("neg", (self.unary(),))
        if self.peek() == "+":
            self.take()
            return self.unary()
        kind, text = self.take()
        match kind:
            case "int":
                return IntExpr("int", value=int(text))
            case "n":
                return IntExpr("n")
            case "fn":
                self.take("(")
                a = self.sum()
                self.take(",")
                b = self.sum()
                self.take(")")
                return IntExpr(text, (a, b))
            case "op" if text == "(":
                e = self.sum()
                self.take(")")
                return e
        raise CudaParseError(f"launch expression {self.text!r}: unexpected {text!r}; fix the `// launch:` comment")


@dataclass(frozen=True, slots=True)
class Launch:
    """Launch configuration as integer expressions in the element count ``n`` (C integer division)."""

    grid: str = "(n + 255) / 256"
    block: str = "256"

    def sizes(self, n: int, empty_grid: bool = False) -> tuple[int, int]:
        """(grid, block) at n. ``empty_grid``: a grid of 0 blocks is returned as 0 (CUDA refuses the launch,
        cudaErrorInvalidConfiguration, so no thread runs and no element is written) instead of an error."""
        g, b = parse_int_expr(self.grid).value_at(n), parse_int_expr(self.block).value_at(n)
        if empty_grid and g == 0 and b >= 1:
            return 0, b
        if g < 1 or b < 1:
            raise CudaParseError(f"launch grid = {self.grid}, block = {self.block} gives {g} x {b} threads for "
                                 f"n = {n}; both must be at least 1")
        return g, b


def parse_launch(source: str) -> Launch:
    m = re.search(r"//\s*launch:\s*grid\s*=\s*(.+?)\s*,\s*block\s*=\s*([^\n]+?)\s*$", source, re.M)
    if not m:
        return Launch()
    launch = Launch(grid=m.group(1), block=m.group(2))
    parse_int_expr(launch.grid)
    parse_int_expr(launch.block)
    return launch
