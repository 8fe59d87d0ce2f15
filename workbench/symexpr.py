"""Symbolic text from files, parsed — never evaluated.

Kernel records, certificates and plans carry Inductor's symbolic facts as text (``s27*s77 <= 2147483647``,
``Ne(s27, Max(1, (s27//2)))``). ``sympy.sympify`` would run that text as Python, so a record whose guard is
``__import__('os').system(...)`` would execute a command. This module is the only way the workbench turns
such text into sympy objects: a tokenizer and a recursive-descent parser for a small grammar, building sympy
nodes directly.

Grammar (precedence low to high)::

    relation := sum (('<=' | '<' | '>=' | '>' | '==' | '!=') sum)?
    sum      := term (('+' | '-') term)*
    term     := unary (('*' | '/' | '//' | '%') unary)*
    unary    := '-' unary | '+' unary | power
    power    := atom ('**' unary-integer-literal)?        # exponent: an integer literal in [-8, 64]
    atom     := INTEGER | NAME | FUNC '(' args ')' | '(' relation ')'

``FUNC`` is one of :data:`FUNCTIONS`; a name that is a function but is not called, or a call of anything
else, is an input error. Symbols are plain ``sympy.Symbol(name)`` (no assumptions), as ``sympify`` made them,
so expressions compare equal to those the rest of the workbench builds. ``a // b`` is ``floor(a / b)`` and
``a % b`` is ``Mod(a, b)``, again as ``sympify`` read them (Python's floor semantics; Inductor's sizes are
non-negative).
"""

from __future__ import annotations

import re
from functools import lru_cache

import sympy

from workbench.errors import InputError

MAX_TEXT = 20_000  # characters: a guard longer than this is not something Inductor printed
MAX_DEPTH = 60  # nesting depth: each level costs ~6 Python frames; keeps far from the recursion limit
MAX_EXPONENT = 64

_TOKEN = re.compile(
    r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\*\*|//|<=|>=|==|!=|[-+*/%<>(),]))"
)


def _floordiv(a, b):
    return sympy.floor(a / b)


def _ceildiv(a, b):
    return sympy.ceiling(a / b)


# The functions symbolic text may call, with their arity and their sympy meaning. Inductor prints
# FloorDiv/CeilDiv/ModularIndexing-free forms in records; FloorDiv and CeilDiv are accepted for hand-written
# records and for Inductor versions that print them.
FUNCTIONS: dict[str, tuple[int | None, object]] = {
    "Min": (None, sympy.Min),
    "Max": (None, sympy.Max),
    "floor": (1, sympy.floor),
    "ceiling": (1, sympy.ceiling),
    "Abs": (1, sympy.Abs),
    "Mod": (2, sympy.Mod),
    "FloorDiv": (2, _floordiv),
    "CeilDiv": (2, _ceildiv),
    "Eq": (2, sympy.Eq),
    "Ne": (2, sympy.Ne),
}

_RELATIONS = {
    "<=": sympy.Le,
    "<": sympy.Lt,
    ">=": sympy.Ge,
    ">": sympy.Gt,
    "==": sympy.Eq,
    "!=": sympy.Ne,
}


class SymbolicTextError(InputError):
    """Symbolic text in a file is outside the grammar; carries the text, the offset and where it came from."""

    def __init__(self, text: str, offset: int, problem: str, where: str):
        self.text, self.offset, self.problem, self.where = text, offset, problem, where
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(
            f"{where}: cannot read symbolic text {shown!r} at character {offset}: {problem}; symbolic facts may "
            f"use integers, shape symbols, + - * / // % ** (small integer exponent), parentheses, "
            f"{', '.join(sorted(FUNCTIONS))} and comparisons — re-capture the kernel or fix the file by hand"
        )


def _tokens(text: str, where: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            bad = pos + (len(text[pos:]) - len(text[pos:].lstrip()))
            raise SymbolicTextError(text, bad, f"unexpected character {text[bad]!r}", where)
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    out.append(("end", "", n))
    return out


class _Parser:
    def __init__(self, text: str, where: str):
        self.text, self.where = text, where
        self.toks = _tokens(text, where)
        self.i = 0
        self.depth = 0

    def fail(self, problem: str, offset: int | None = None):
        raise SymbolicTextError(self.text, self.toks[self.i][2] if offset is None else offset, problem, self.where)

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            self.fail(f"expected {value!r}, found {tok[1] or 'the end of the text'!r}")
        self.i += 1
        return tok

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"nested deeper than {MAX_DEPTH} levels")

    def relation(self):
        self.enter()
        left = self.sum()
        kind, value, _ = self.peek()
        if kind == "op" and value in _RELATIONS:
            self.take()
            right = self.sum()
            left = _RELATIONS[value](left, right)
        self.depth -= 1
        return left

    def sum(self):
        acc = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in "+-" and self.peek()[1] != "":
            op = self.take()[1]
            rhs = self.term()
            acc = acc + rhs if op == "+" else acc - rhs
        return acc

    def term(self):
        acc = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/", "//", "%"):
            op, off = self.take()[1], self.toks[self.i - 1][2]
            rhs = self.unary()
            if op == "*":
                acc = acc * rhs
            else:
                if rhs == 0:
                    self.fail("division or remainder by the literal 0", off)
                acc = acc / rhs if op == "/" else _floordiv(acc, rhs) if op == "//" else sympy.Mod(acc, rhs)
        return acc

    def unary(self):
        kind, value, _ = self.peek()
        if kind == "op" and value in ("-", "+"):
            self.take()
            self.enter()
            inner = self.unary()
            self.depth -= 1
            return -inner if value == "-" else inner
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek()[1] == "**":
            self.take()
            sign = 1
            if self.peek()[1] == "-":
                self.take()
                sign = -1
            kind, value, off = self.take()
            if kind != "int":
                self.fail("an exponent must be an integer literal", off)
            exp = sign * int(value)
            if not -8 <= exp <= MAX_EXPONENT:
                self.fail(f"exponent {exp} is outside [-8, {MAX_EXPONENT}]", off)
            return base**exp
        return base

    def atom(self):
        kind, value, off = self.take()
        if kind == "int":
            if len(value) > 40:
                self.fail("integer literal longer than 40 digits", off)
            return sympy.Integer(int(value))
        if kind == "name":
            if value in FUNCTIONS:
                arity, fn = FUNCTIONS[value]
                self.take("(")
                args = [self.relation()]
                while self.peek()[1] == ",":
                    self.take()
                    args.append(self.relation())
                self.take(")")
                if arity is not None and len(args) != arity:
                    self.fail(f"{value} takes {arity} argument(s), got {len(args)}", off)
                if value in ("Min", "Max") and not args:
                    self.fail(f"{value} needs at least one argument", off)
                try:
                    return fn(*args)  # type: ignore[operator]
                except (TypeError, ValueError) as exc:
                    self.fail(f"{value}(...) is not meaningful here ({exc})", off)
            if self.peek()[1] == "(":
                self.fail(f"{value!r} is not a function symbolic text may call", off)
            if value in ("True", "False", "None", "nan", "oo", "zoo", "I", "E", "pi"):
                self.fail(f"{value!r} is not a shape symbol", off)
            return sympy.Symbol(value)
        if value == "(":
            inner = self.relation()
            self.take(")")
            return inner
        self.fail(f"unexpected {value or 'end of text'!r}", off)


@lru_cache(maxsize=8192)
def _parse(text: str, where: str):
    if not isinstance(text, str):
        raise SymbolicTextError(repr(text), 0, f"expected text, got {type(text).__name__}", where)
    if len(text) > MAX_TEXT:
        raise SymbolicTextError(text, MAX_TEXT, f"longer than {MAX_TEXT} characters", where)
    p = _Parser(text, where)
    out = p.relation()
    if p.peek()[0] != "end":
        p.fail(f"unexpected {p.peek()[1]!r} after a complete expression")
    return out


def parse_expr(text: str, where: str = "symbolic fact") -> sympy.Expr:
    """Parse an integer-valued expression (a size, a numel, a replacement); a comparison is an input error."""
    out = _parse(text, where)
    # not ``isinstance(out, Boolean)``: sympy.Symbol subclasses Boolean, so a bare symbol ("s12") would be refused
    if isinstance(out, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanAtom,
                        sympy.logic.boolalg.BooleanFunction)):
        raise SymbolicTextError(text, 0, "expected an expression, found a comparison", where)
    return out


def parse_relation(text: str, where: str = "guard"):
    """Parse a guard: a comparison, ``Eq``/``Ne``, or a literal that sympy folds to true/false."""
    out = _parse(text, where)
    if not isinstance(out, (sympy.logic.boolalg.Boolean, sympy.core.relational.Relational)):
        raise SymbolicTextError(text, 0, "expected a comparison, found an expression", where)
    return out


def parse_any(text: str, where: str = "symbolic fact"):
    """Parse either form (callers that accept both, such as a generic fact reader)."""
    return _parse(text, where)
