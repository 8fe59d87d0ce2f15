"""Symbolic text from files, parsed — never evaluated.

Kernel records, certificates and plans carry Inductor's symbolic facts as text (``s27*s77 <= 2147483647``,
``Ne(s27, Max(1, (s27//2)))``, ``(s54 >= 1) & (s65 >= 1)``). ``sympy.sympify`` would run that text as Python,
so a record whose guard is ``__import__('os').system(...)`` would execute a command. This module is the only
way the workbench turns such text into sympy objects: a tokenizer and a recursive-descent parser for a small
grammar, building sympy nodes directly.

Grammar (precedence low to high)::

    boolean  := conj ('|' conj)*
    conj     := neg ('&' neg)*
    neg      := '~' neg | relation
    relation := sum (('<=' | '<' | '>=' | '>' | '==' | '!=') sum)?
    sum      := term (('+' | '-') term)*
    term     := unary (('*' | '/' | '//' | '%') unary)*
    unary    := '-' unary | '+' unary | power
    power    := atom ('**' unary-integer-literal)?        # exponent: an integer literal in [-8, 64]
    atom     := INTEGER | DECIMAL | NAME | FUNC '(' boolean (',' boolean)* ')' | '(' boolean ')'

What Inductor writes (torch 2.13.0). Records hold ``str()`` of Inductor's sympy objects: sympy's printer for
``And``/``Or``/``Not`` (``&``, ``|``, ``~``), relations (``<=``, ``<``, ``>=``, ``>``, ``Eq``, ``Ne``), ``Max``,
``Min``, ``Mod``, ``floor``, ``ceiling``, and each ``torch.utils._sympy.functions`` class by its own printer:
``FloorDiv``/``CleanDiv`` as ``(a//b)``, ``CeilDiv`` expanded, ``Identity`` as parentheses, every other one
as a call (``ModularIndexing(a, b, c)``, ``PythonMod``, ``TruncToInt(1.5*ToFloat(s0))``, ...). Every such call
is in :data:`FUNCTIONS`: with its exact meaning when it has one in integers (``ModularIndexing(a, b, c)`` is
``Mod(floor(a/b), c)``), otherwise as an *uninterpreted* application (:class:`InductorFunction`) that keeps its
name and arguments; an uninterpreted application evaluates on numbers where Python's meaning is fixed
(``ToFloat``, ``TruncToInt``, true division) and is an unknown value to the checker. Decimal literals
(``0.7``) are IEEE doubles (``sympy.Float`` of Python's ``float``): what Dynamo evaluates.
:func:`float_outside_integers` says whether a fact compares float values (the checker drops those guards:
dropping a premise is always sound).

Limits (hostile input never gets past this door): text length, nesting depth, integer literals of at most
:data:`MAX_DIGITS` digits, constants of at most :data:`MAX_BITS` bits (a power tower is refused before it is
computed), exponents in [-8, 64], powers of degree at most :data:`MAX_DEGREE`, and an expansion estimate of
at most :data:`MAX_TERMS` terms. Division, remainder or a negative power by something that is zero
(``Mod(s, 0)``, ``CeilDiv(s, s - s)``, ``(s - s)**-1``) and every arithmetic error sympy raises are a
:class:`SymbolicTextError` naming the text, the character and the fix — never a traceback.

Over ~450 lines on purpose: the front door for every symbolic fact is one grammar — tokenizer, recursive
descent, the table of Inductor's functions and the limits — and keeping them in one file keeps the list of what
is accepted (and refused) in one place to review.

Symbols are plain ``sympy.Symbol(name)`` (no assumptions), as ``sympify`` made them, so expressions compare
equal to those the rest of the workbench builds. ``a // b`` is ``floor(a / b)`` and ``a % b`` is
``Mod(a, b)``, again as ``sympify`` read them (Python's floor semantics; Inductor's sizes are non-negative).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import sympy

from workbench.errors import InputError

MAX_TEXT = 20_000  # characters: a guard longer than this is not something Inductor printed
MAX_DEPTH = 60  # nesting depth: each level costs ~6 Python frames; keeps far from the recursion limit
MAX_EXPONENT = 64
MAX_DIGITS = 40  # of an integer literal (Inductor's constants are at most 2**63: 19 digits)
MAX_BITS = 512  # of any constant the text builds (products, powers): 2**64-sized guards need ~130
MAX_DEGREE = 64  # of a power once folded ((s**8)**8 is s**64; (s**64)**64 is refused)
MAX_TERMS = 100_000  # terms the text would have once expanded (a product of sums multiplies their sizes)

_TOKEN = re.compile(
    r"\s*(?:(?P<float>\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)|(?P<int>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|//|<=|>=|==|!=|[-+*/%<>(),&|~]))"
)

_BAD = (sympy.S.ComplexInfinity, sympy.S.NaN, sympy.S.Infinity, sympy.S.NegativeInfinity)


# -- Inductor's functions without a sympy counterpart -------------------------------------------------------


class InductorFunction(sympy.Function):
    """An application of a ``torch.utils._sympy.functions`` class that the workbench does not give an integer
    meaning to: it keeps its name and arguments, prints as Inductor printed it, and is an unknown value to
    the checker (premises make it an opaque atom). Subclasses evaluate on numbers where Python fixes the
    value; ``float_valued`` says whether the value is a float."""

    float_valued = False


def _num(x) -> bool:
    return isinstance(x, sympy.Number) and x.is_finite


class ToFloat(InductorFunction):
    float_valued = True

    @classmethod
    def eval(cls, x):
        if _num(x):
            return sympy.Float(float(x))


class TruncToInt(InductorFunction):
    @classmethod
    def eval(cls, x):
        if _num(x):
            return sympy.Integer(int(x))  # int() truncates toward zero, as math.trunc


class IntTrueDiv(InductorFunction):
    float_valued = True  # int / int in Python is a float

    @classmethod
    def eval(cls, a, b):
        if _num(a) and _num(b) and not b.is_zero:
            return sympy.Float(float(a) / float(b))


class FloatTrueDiv(IntTrueDiv):
    pass


def _opaque(name: str, floats: bool = False) -> type[InductorFunction]:
    return type(name, (InductorFunction,), {"float_valued": floats})


def _floordiv(a, b):
    return sympy.floor(a / b)


def _ceildiv(a, b):
    return sympy.ceiling(a / b)


def _modular_indexing(a, b, c):
    return sympy.Mod(sympy.floor(a / b), c)


def _pow_by_natural(a, b):
    if b.is_Integer and 0 <= int(b) <= MAX_EXPONENT:
        return a ** b
    return _OPAQUE["PowByNatural"](a, b)


_OPAQUE: dict[str, type[InductorFunction]] = {
    "ToFloat": ToFloat, "TruncToInt": TruncToInt, "IntTrueDiv": IntTrueDiv, "FloatTrueDiv": FloatTrueDiv,
    **{n: _opaque(n) for n in ("RoundToInt", "Where", "IsNonOverlappingAndDenseIndicator", "PowByNatural",
                               "LShift", "RShift", "BitwiseFn_bitwise_and", "BitwiseFn_bitwise_or",
                               "BitwiseFn_bitwise_xor")},
    **{n: _opaque(n, floats=True) for n in ("RoundDecimal", "FloatPow", "TruncToFloat")},
    **{f"OpaqueUnaryFn_{n}": _opaque(f"OpaqueUnaryFn_{n}", floats=True) for n in (
        "sqrt", "cos", "cosh", "sin", "sinh", "tan", "tanh", "asin", "acos", "atan", "exp", "log", "asinh",
        "log2")},
}

# The functions symbolic text may call: name -> (arity (None: one or more), builder, argument positions that
# are divisors). Inductor prints FloorDiv as ``(a//b)`` and CeilDiv expanded; their names are accepted for
# hand-written records. The uninterpreted ones keep Inductor's name (see InductorFunction).
FUNCTIONS: dict[str, tuple[int | None, object, tuple[int, ...]]] = {
    "Min": (None, sympy.Min, ()),
    "Max": (None, sympy.Max, ()),
    "floor": (1, sympy.floor, ()),
    "ceiling": (1, sympy.ceiling, ()),
    "FloorToInt": (1, sympy.floor, ()),
    "CeilToInt": (1, sympy.ceiling, ()),
    "Abs": (1, sympy.Abs, ()),
    "Mod": (2, sympy.Mod, (1,)),
    "PythonMod": (2, sympy.Mod, (1,)),  # sympy's Mod is Python's (the divisor's sign)
    "FloorDiv": (2, _floordiv, (1,)),
    "CleanDiv": (2, _floordiv, (1,)),
    "CeilDiv": (2, _ceildiv, (1,)),
    "ModularIndexing": (3, _modular_indexing, (1, 2)),
    "PowByNatural": (2, _pow_by_natural, ()),
    "Eq": (2, sympy.Eq, ()),
    "Ne": (2, sympy.Ne, ()),
    **{n: ({"IntTrueDiv": 2, "FloatTrueDiv": 2, "Where": 3, "IsNonOverlappingAndDenseIndicator": None,
            "LShift": 2, "RShift": 2, "FloatPow": 2, "RoundDecimal": 2}.get(n, 2 if n.startswith("Bitwise") else 1),
           cls, (1,) if n in ("IntTrueDiv", "FloatTrueDiv") else ())
       for n, cls in _OPAQUE.items() if n != "PowByNatural"},
}

_RELATIONS = {
    "<=": sympy.Le,
    "<": sympy.Lt,
    ">=": sympy.Ge,
    ">": sympy.Gt,
    "==": sympy.Eq,
    "!=": sympy.Ne,
}

_BOOLEAN = (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanAtom, sympy.logic.boolalg.BooleanFunction)


def is_boolean(e) -> bool:
    """``e`` is a comparison or a logical combination of them (not ``isinstance(e, Boolean)``: a sympy
    ``Symbol`` is also a ``Boolean``)."""
    return isinstance(e, _BOOLEAN)


class SymbolicTextError(InputError):
    """Symbolic text in a file is outside the grammar; carries the text, the offset and where it came from."""

    def __init__(self, text: str, offset: int, problem: str, where: str):
        self.text, self.offset, self.problem, self.where = text, offset, problem, where
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(
            f"{where}: cannot read symbolic text {shown!r} at character {offset}: {problem}; symbolic facts may "
            f"use integers, decimals, shape symbols, + - * / // % ** (small integer exponent), parentheses, "
            f"comparisons joined by & | ~, and Inductor's functions (Max, Min, Mod, floor, Eq, Ne, ...) — "
            f"re-capture the kernel or fix the file by hand"
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


def _bits(x) -> int:
    """Bits of a rational constant (numerator or denominator, whichever is longer)."""
    if isinstance(x, sympy.Rational):
        return max(abs(int(x.p)).bit_length(), int(x.q).bit_length())
    return 0


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

    def build(self, what: str, off: int, fn, *args):
        """``fn(*args)``; every error sympy raises while building (a division by zero, a comparison of
        comparisons, a value that is not a number) is this text's input error, naming ``what``."""
        try:
            out = fn(*args)
        except (ArithmeticError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            self.fail(f"{what} is not meaningful here ({type(exc).__name__}: {exc})", off)
        return out

    def defined(self, value, what: str, off: int):
        """Refuse a value that is undefined (a division by zero folded to ``zoo``/``nan``) or infinite."""
        if value in _BAD or (isinstance(value, sympy.Basic) and value.has(*_BAD)):
            self.fail(f"{what} is undefined (a division by zero or an infinite value)", off)
        if _bits(value) > MAX_BITS:
            self.fail(f"{what} builds a constant of more than {MAX_BITS} bits", off)
        return value

    def nonzero(self, divisor, what: str, off: int):
        if getattr(divisor, "is_zero", False):
            self.fail(f"{what} divides by zero", off)

    def expression(self, value, op: str, off: int):
        if is_boolean(value):
            self.fail(f"{op!r} needs a number, found a comparison", off)
        return value

    def boolean_operand(self, value, op: str, off: int):
        if not is_boolean(value):
            self.fail(f"{op!r} joins comparisons, found the expression {str(value)[:60]!r}", off)
        return value

    def boolean(self):
        self.enter()
        left = self.conj()
        while self.peek() == ("op", "|", self.peek()[2]):
            off = self.take()[2]
            right = self.conj()
            left = self.build("'|'", off, sympy.Or, self.boolean_operand(left, "|", off),
                              self.boolean_operand(right, "|", off))
        self.depth -= 1
        return left

    def conj(self):
        left = self.neg()
        while self.peek() == ("op", "&", self.peek()[2]):
            off = self.take()[2]
            right = self.neg()
            left = self.build("'&'", off, sympy.And, self.boolean_operand(left, "&", off),
                              self.boolean_operand(right, "&", off))
        return left

    def neg(self):
        if self.peek()[:2] == ("op", "~"):
            off = self.take()[2]
            self.enter()
            inner = self.neg()
            self.depth -= 1
            return self.build("'~'", off, sympy.Not, self.boolean_operand(inner, "~", off))  # '~' negates one
        return self.relation()

    def relation(self):
        left = self.sum()
        kind, value, off = self.peek()
        if kind == "op" and value in _RELATIONS:
            self.take()
            right = self.sum()
            left = self.build(f"{value!r}", off, _RELATIONS[value], self.expression(left, value, off),
                              self.expression(right, value, off))
        return left

    def sum(self):
        acc = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in ("+", "-"):
            op, off = self.take()[1], self.toks[self.i - 1][2]
            rhs = self.term()
            a, b = self.expression(acc, op, off), self.expression(rhs, op, off)
            acc = self.build(f"{op!r}", off, (lambda x, y: x + y) if op == "+" else (lambda x, y: x - y), a, b)
            self.defined(acc, f"{op!r}", off)
        return acc

    def term(self):
        acc = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/", "//", "%"):
            op, off = self.take()[1], self.toks[self.i - 1][2]
            rhs = self.unary()
            a, b = self.expression(acc, op, off), self.expression(rhs, op, off)
            if op == "*":
                acc = self.build("'*'", off, lambda x, y: x * y, a, b)
            else:
                if b == 0:
                    self.fail("division or remainder by the literal 0", off)
                self.nonzero(b, f"{op!r}", off)
                fn = (lambda x, y: x / y) if op == "/" else _floordiv if op == "//" else sympy.Mod
                acc = self.build(f"{op!r}", off, fn, a, b)
            self.defined(acc, f"{op!r}", off)
        return acc

    def unary(self):
        kind, value, off = self.peek()
        if kind == "op" and value in ("-", "+"):
            self.take()
            self.enter()
            inner = self.expression(self.unary(), value, off)
            self.depth -= 1
            return self.build(f"unary {value!r}", off, lambda x: -x, inner) if value == "-" else inner
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek()[1] == "**":
            off = self.take()[2]
            sign = 1
            if self.peek()[1] == "-":
                self.take()
                sign = -1
            kind, value, eoff = self.take()
            if kind != "int":
                self.fail("an exponent must be an integer literal", eoff)
            if len(value) > 3:
                self.fail(f"exponent {value[:20]} is outside [-8, {MAX_EXPONENT}]", eoff)
            exp = sign * int(value)
            if not -8 <= exp <= MAX_EXPONENT:
                self.fail(f"exponent {exp} is outside [-8, {MAX_EXPONENT}]", eoff)
            return self.pow(self.expression(base, "**", off), exp, off)
        return base

    def pow(self, base, exp: int, off: int):
        if exp < 0:
            self.nonzero(base, "a negative power", off)
        if _bits(base) * abs(exp) > MAX_BITS:
            self.fail(f"power builds a constant of more than {MAX_BITS} bits (a power tower)", off)
        if _degree(base) * abs(exp) > MAX_DEGREE:
            self.fail(f"power has degree {_degree(base) * abs(exp)} (powers of powers multiply their exponents); "
                      f"at most {MAX_DEGREE}", off)
        return self.defined(self.build("'**'", off, lambda x: x ** exp, base), "'**'", off)

    def atom(self):
        kind, value, off = self.take()
        if kind == "int":
            if len(value) > MAX_DIGITS:
                self.fail(f"integer literal longer than {MAX_DIGITS} digits", off)
            return sympy.Integer(int(value))
        if kind == "float":
            if len(value) > MAX_DIGITS:
                self.fail(f"decimal literal longer than {MAX_DIGITS} characters", off)
            f = float(value)
            if not math.isfinite(f):
                self.fail(f"decimal literal {value} is not a finite double", off)
            return sympy.Float(f)
        if kind == "name":
            if value in FUNCTIONS:
                return self.call(value, off)
            if self.peek()[1] == "(":
                self.fail(f"{value!r} is not a function symbolic text may call", off)
            if value in ("True", "False", "None", "nan", "oo", "zoo", "I", "E", "pi"):
                self.fail(f"{value!r} is not a shape symbol", off)
            return sympy.Symbol(value)
        if value == "(":
            inner = self.boolean()
            self.take(")")
            return inner
        self.fail(f"unexpected {value or 'end of text'!r}", off)

    def call(self, name: str, off: int):
        arity, fn, divisors = FUNCTIONS[name]
        self.take("(")
        args = [self.boolean()]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.boolean())
        self.take(")")
        if arity is not None and len(args) != arity:
            self.fail(f"{name} takes {arity} argument(s), got {len(args)}", off)
        for i, a in enumerate(args):
            if is_boolean(a) and not (name == "Where" and i == 0):
                self.fail(f"argument {i + 1} of {name} is a comparison, where a number is expected", off)
        if name == "Where" and not is_boolean(args[0]):
            self.fail("the first argument of Where is a condition", off)
        for i in divisors:
            self.nonzero(args[i], f"{name}(...)", off)
        if name == "PowByNatural" and args[1].is_Integer and 0 <= int(args[1]) <= MAX_EXPONENT:
            return self.pow(args[0], int(args[1]), off)
        return self.defined(self.build(f"{name}(...)", off, fn, *args), f"{name}(...)", off)


def _degree(e) -> int:
    """The degree ``e`` would have once expanded (an upper bound, from the tree alone: never expands)."""
    if isinstance(e, sympy.Symbol):
        return 1
    if not isinstance(e, sympy.Basic) or e.is_Number or not e.args:
        return 0
    if e.is_Pow and e.exp.is_Integer:
        return _degree(e.base) * abs(int(e.exp))
    if e.is_Mul:
        return sum(_degree(a) for a in e.args)
    if e.is_Add:
        return max(_degree(a) for a in e.args)
    return 1  # an atom for polynomial purposes (floor, Max, ...): its arguments are expanded on their own


def _terms(e, memo: dict) -> int:
    """How many terms ``e`` has once expanded, capped above :data:`MAX_TERMS` (an upper bound; atoms such as
    ``floor(...)`` count as one, their arguments are measured on their own by :func:`_largest_expansion`)."""
    got = memo.get(e)
    if got is not None:
        return got
    cap = MAX_TERMS + 1
    if e.is_Add:
        n = min(cap, sum(_terms(a, memo) for a in e.args))
    elif e.is_Mul:
        n = 1
        for a in e.args:
            n = min(cap, n * _terms(a, memo))
    elif e.is_Pow and e.exp.is_Integer and int(e.exp) > 0:
        b = _terms(e.base, memo)
        n = cap if b > 1 and int(e.exp) * math.log2(b) > math.log2(cap) else min(cap, b ** int(e.exp))
    else:
        n = 1
    memo[e] = n
    return n


def _largest_expansion(e) -> int:
    memo: dict = {}
    return max((_terms(x, memo) for x in sympy.preorder_traversal(e) if isinstance(x, sympy.Expr)), default=1)


@lru_cache(maxsize=8192)
def _parse(text: str, where: str):
    if not isinstance(text, str):
        raise SymbolicTextError(repr(text)[:120], 0, f"expected text, got {type(text).__name__}", where)
    if len(text) > MAX_TEXT:
        raise SymbolicTextError(text, MAX_TEXT, f"longer than {MAX_TEXT} characters", where)
    p = _Parser(text, where)
    try:
        out = p.boolean()
        if p.peek()[0] != "end":
            p.fail(f"unexpected {p.peek()[1]!r} after a complete expression")
        if _largest_expansion(out) > MAX_TERMS:
            p.fail(f"expands to more than {MAX_TERMS} terms (a product of sums multiplies their sizes)", 0)
    except RecursionError:  # sympy's own recursion on a pathological tree the limits above did not catch
        raise SymbolicTextError(text, 0, "nested too deeply for sympy", where) from None
    return out


def parse_expr(text: str, where: str = "symbolic fact") -> sympy.Expr:
    """Parse an integer-valued expression (a size, a numel, a replacement); a comparison is an input error."""
    out = _parse(text, where)
    if is_boolean(out):
        raise SymbolicTextError(text, 0, "expected an expression, found a comparison", where)
    return out


def parse_relation(text: str, where: str = "guard"):
    """Parse a guard: a comparison, ``Eq``/``Ne``, a conjunction/disjunction/negation of them, or a literal
    that sympy folds to true/false."""
    out = _parse(text, where)
    if not is_boolean(out):
        raise SymbolicTextError(text, 0, "expected a comparison, found an expression", where)
    return out


def parse_any(text: str, where: str = "symbolic fact"):
    """Parse either form (callers that accept both, such as a generic fact reader)."""
    return _parse(text, where)


# Functions whose value is an integer whatever their argument (a float inside them does not make the
# enclosing fact a float comparison).
_INTEGER_VALUED = (sympy.floor, sympy.ceiling, sympy.Mod, TruncToInt)


def float_outside_integers(e) -> bool:
    """``e`` computes with float values outside every integer-valued application: a decimal literal or a
    float-valued Inductor function (``ToFloat(s0) > 2.5``) — a comparison of doubles, whose rounding the
    checker's exact arithmetic does not model. ``TruncToInt(1.5*ToFloat(s0)) <= 7`` compares integers."""
    if isinstance(e, sympy.Float):
        return True
    if isinstance(e, InductorFunction):
        if e.float_valued:
            return True
        return False  # an opaque integer (its arguments do not reach the comparison)
    if isinstance(e, _INTEGER_VALUED):
        return False
    return any(float_outside_integers(a) for a in getattr(e, "args", ()))
