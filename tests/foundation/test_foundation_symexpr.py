"""The restricted parser for symbolic text: agrees with sympy on every shipped record, refuses code."""

import glob
import json

import pytest
import sympy

from workbench.paths import KERNELS
from workbench.symexpr import SymbolicTextError, parse_any, parse_expr, parse_relation


def _texts():
    for f in sorted(glob.glob(str(KERNELS / "*" / "*.json"))):
        d = json.load(open(f))
        yield from d.get("guards", [])
        yield from (a["expr"] for a in d["size_args"])
        yield from (a["expr"] for a in d["numels"])
        yield from d.get("replacements", {}).values()


def test_agrees_with_sympy_on_every_shipped_fact():
    n = 0
    for t in _texts():
        # sympify is used here, in a test, on the project's own shipped data, as the reference.
        ref = sympy.sympify(t, locals={"Max": sympy.Max, "Min": sympy.Min, "Mod": sympy.Mod})
        assert parse_any(t) == ref, t
        n += 1
    assert n > 100


@pytest.mark.parametrize(
    "text, match",
    [
        ("__import__('os').system('touch /tmp/pwned')", "unexpected character"),
        ("s0.__class__", "unexpected character '.'"),
        ("lambda: 1", "unexpected character ':'"),
        ("s0 ** s1", "exponent must be an integer literal"),
        ("s0 ** 100000", "exponent 100000 is outside"),
        ("1 +", "end of text"),
        ("Foo(1)", "'Foo' is not a function"),
        ("s0 // 0", "by the literal 0"),
        ("(" * 400 + "s0" + ")" * 400, "nested deeper"),
        ("-" * 500 + "1", "nested deeper"),
        ("Mod(s0)", "Mod takes 2 argument"),
        ("True", "not a shape symbol"),
        ("s0 s1", "after a complete expression"),
    ],
)
def test_refuses_with_position(text, match):
    with pytest.raises(SymbolicTextError, match=match):
        parse_any(text, where="record x.json, guard 0")


def test_where_is_named():
    with pytest.raises(SymbolicTextError, match=r"^record k.json, guard 3: cannot read"):
        parse_any("os.system", where="record k.json, guard 3")


def test_expr_and_relation_are_distinguished():
    assert parse_expr("2*s0 + s1") == 2 * sympy.Symbol("s0") + sympy.Symbol("s1")
    assert parse_relation("s0*s1 <= 2147483647") == sympy.Le(sympy.Symbol("s0") * sympy.Symbol("s1"), 2147483647)
    with pytest.raises(SymbolicTextError, match="found a comparison"):
        parse_expr("s0 <= 3")
    with pytest.raises(SymbolicTextError, match="found an expression"):
        parse_relation("s0 + 3")


def test_semantics_of_division_forms():
    s = sympy.Symbol("s0")
    assert parse_expr("s0 // 2") == sympy.floor(s / 2)
    assert parse_expr("FloorDiv(s0, 2)") == sympy.floor(s / 2)
    assert parse_expr("CeilDiv(s0, 2)") == sympy.ceiling(s / 2)
    assert parse_expr("s0 % 3") == sympy.Mod(s, 3)
    assert parse_expr("Max(s0/2, 3)") == sympy.Max(s / 2, 3)


def test_bare_symbol_is_an_expression_not_a_relation():
    # sympy.Symbol subclasses Boolean: the kind check must not rely on that class
    assert parse_expr("s12") == sympy.Symbol("s12")
    with pytest.raises(SymbolicTextError, match="found an expression"):
        parse_relation("s12")
