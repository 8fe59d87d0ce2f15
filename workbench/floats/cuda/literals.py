"""Literals of a CUDA source: exact text -> value of the literal's type, rounded once (stage: floats).

Literals are rounded exactly once from their decimal text, through the exact rational (never via
``np.float32(str)``: double rounding turns FLT_MAX's literal into inf, NOTES). A literal written inside a
macro (``#define SLOPE 0.01f``) is read from its spelling location: the first token of the literal cursor.
"""

from __future__ import annotations

import re
from fractions import Fraction

from workbench.floats.ir import Ty

_FLOAT = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFlL]?|0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][+-]?\d+[fFlL]?")
_INT = re.compile(r"(?:0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)[uUlL]*")


def literal_text(cursor, kind: str) -> str | None:
    """The literal's own token (the first token at its spelling location), or None when it is not one."""
    tok = next(iter(cursor.get_tokens()), None)
    if tok is None:
        return None
    text = tok.spelling
    pattern = _FLOAT if kind == "float" else _INT
    return text if pattern.fullmatch(text) else None


def int_value(text: str) -> int:
    t = text.rstrip("uUlL")
    if len(t) > 1 and t.startswith("0") and t[1] not in "xXbB":
        return int(t, 8)  # C: a leading 0 is octal
    return int(t, 0)


def round_literal(text: str, ty: Ty) -> float:
    """Exact decimal/hex literal -> nearest value of ``ty`` (ties to even), from the exact rational."""
    t = text.rstrip("fFlL")
    if t.lower().startswith("0x"):
        q = Fraction(float.fromhex(t))  # hex literals with <= 53 significant bits are exact doubles
    else:
        q = Fraction(t)
    return round_fraction(q, ty)


def round_fraction(q: Fraction, ty: Ty) -> float:
    """The value of ``ty`` nearest to the exact rational ``q`` (IEEE 754 roundTiesToEven, with subnormals)."""
    p, emin, emax = (24, -126, 127) if ty is Ty.F32 else (53, -1022, 1023)
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scaled = q / Fraction(2) ** (e - (p - 1))
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    value = Fraction(m) * Fraction(2) ** (e - (p - 1))
    if value >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(value)
