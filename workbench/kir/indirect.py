"""Indirect indexing: ``tl.device_assert`` on a loaded index, read as a premise about the kernel's inputs.

Stage: kir. Inductor indexes through a tensor of indices (embedding, ``index_select``, ``gather``, ``roll``)
by loading the index and using it in a later address, and it guards each such use with
``tl.device_assert(cond, "index out of bounds: ...")`` (``TritonKernel.indirect_assert``), where ``cond`` is

* ``(lo <= v) & (v < hi)``, ``lo <= v`` or ``v < hi``, for ``v`` the name of the loaded (or
  ``tl.where``-wrapped) index, and
* ``(that) | ~(mask)`` when the use is masked (``xmask``): the bound is claimed on the lanes where ``mask``
  holds.

Triton compiles ``tl.device_assert`` away unless the kernel is built in debug mode, so the assertion does
not *check* anything at run time: an out-of-range index already makes the wide kernel read out of bounds.
The IR therefore reads it as a **premise about the inputs** ("the caller passes indices in range"), and
binds the asserted name to an :data:`~workbench.kir.ops.Op.ASSUME` node ``(value, mask, lo?, hi?)`` whose
value is ``value``. Every later use of the name (the assert dominates it: straight-line code, later
statement) sees the ASSUME node; uses written before the assert keep the raw load, which stays payload and
is refused as indirect indexing. The checker bounds an ASSUME node only on lane classes that imply its
``mask`` (``workbench.check``), and never from a certificate.

Limits: the bound operands must be index terms (no loaded data); only the three forms above, with an
optional ``| ~(mask)``; an assert on loaded data written as anything but a bare name is refused by name. An
assert on a value that is not data (``roll`` asserts ``(x0 + k) % ks0 < ks0``, a pure index expression)
bounds nothing the interval analysis needs and is dropped (dropping a premise is sound).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from workbench.kir.nodes import Binding, Node, walk
from workbench.kir.ops import Op

_ASSERT_FIX = ("Inductor's form is ((lo <= v) & (v < hi)) | ~(mask) with v a name; rewrite the assert so, "
               "or declare the input's range")


@dataclass(frozen=True, slots=True)
class Premise:
    """One device_assert read as a premise: ``text`` as the verdict prints it and the source ``line``."""

    name: str
    text: str
    line: int


def is_device_assert(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and f.attr == "device_assert" and isinstance(f.value, ast.Name) \
        and f.value.id == "tl"


def device_assert(parser: Any, call: ast.Call) -> None:
    """Read ``tl.device_assert(cond, msg)`` (``parser`` is the kir parser; see the module docstring) and
    rebind the asserted name to its ASSUME node."""
    if not call.args or len(call.args) > 2 or call.keywords:
        raise parser.refuse("device assert", ast.unparse(call)[:60], _ASSERT_FIX)
    cond = call.args[0]
    mask_ast = None
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitOr) and isinstance(cond.right, ast.UnaryOp) \
            and isinstance(cond.right.op, ast.Invert):
        cond, mask_ast = cond.left, cond.right.operand
    lower_ast, upper_ast, v_ast = _bounds(parser, cond)
    if isinstance(v_ast, ast.Name) and v_ast.id in parser.env:
        name, value = v_ast.id, parser._value(parser.env[v_ast.id])
    elif isinstance(v_ast, ast.Name) and v_ast.id not in parser.params:
        raise parser.refuse("device assert", f"{v_ast.id} is not a value assigned before the assert", _ASSERT_FIX)
    else:
        name, value = "", parser._value(parser._expr(v_ast))
    if not value.payload:
        # An index term (roll asserts ``(x0 + k) % ks0 < ks0``): nothing loaded to bound; the interval analysis
        # bounds it itself. The premise is dropped, which is sound (it can only cost a certificate).
        return
    if not name:
        raise parser.refuse("device assert", f"on loaded data written as {ast.unparse(v_ast)[:40]}", _ASSERT_FIX)
    parts = {}
    for what, e in (("lower bound", lower_ast), ("upper bound", upper_ast), ("mask", mask_ast)):
        if e is None:
            continue
        n = parser._value(parser._expr(e))
        if n.payload:
            raise parser.refuse("device assert", f"its {what} {ast.unparse(e)} depends on loaded data",
                                "only bounds built from sizes, constants and lane indices are premises")
        parts[what] = n
    mask = parts.get("mask") or parser.b.true()
    line = parser.b.line or 0
    lower, upper = parts.get("lower bound"), parts.get("upper bound")
    if lower is not None:
        lower = _resolved(parser, lower, value)
    if upper is not None:
        upper = _resolved(parser, upper, value)
    got = parser.b.assume(value, mask, lower, upper)
    parser.env[name] = got
    parser.bindings.append(Binding(name, line, got))


def _resolved(parser: Any, bound: Node, value: Node) -> Node:
    # The comparison ``lo <= v`` runs in the promoted type: a weak literal bound takes v's type (rule 0).
    from workbench.kir.build import is_weak

    return parser.b.resolve(bound, value.type) if is_weak(bound) and bound.op is Op.CONST else bound


def _bounds(parser: Any, cond: ast.expr) -> tuple[ast.expr | None, ast.expr | None, ast.expr]:
    """``(lo <= v) & (v < hi)`` / ``lo <= v`` / ``v < hi`` -> (lo, hi, v)."""
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitAnd):
        lo, _, v1 = _bounds(parser, cond.left)
        _, hi, v2 = _bounds(parser, cond.right)
        if lo is None or hi is None or ast.dump(v1) != ast.dump(v2):
            raise parser.refuse("device assert", ast.unparse(cond)[:60], _ASSERT_FIX)
        return lo, hi, v1
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1:
        left, op, right = cond.left, cond.ops[0], cond.comparators[0]
        if isinstance(op, ast.LtE):
            return left, None, right
        if isinstance(op, ast.Lt):
            return None, right, left
    raise parser.refuse("device assert", ast.unparse(cond)[:60], _ASSERT_FIX)


def premises(kernel: Any) -> tuple[Premise, ...]:
    """The device_assert premises of a parsed kernel, in source order (for verdicts and reports)."""
    out = []
    names = {id(b.node): b.name for b in kernel.bindings}
    lines = {id(b.node): b.line for b in kernel.bindings}
    for n in walk(*kernel.loads, *kernel.stores):
        if n.op is not Op.ASSUME:
            continue
        has_lo, has_hi = n.attr
        line = lines.get(id(n), 0)
        v = names.get(id(n), "v")
        rest = list(n.args[2:])
        lo = _text(rest.pop(0), names) if has_lo else None
        hi = _text(rest.pop(0), names) if has_hi else None
        bound = f"{lo} <= {v} < {hi}" if lo and hi else f"{lo} <= {v}" if lo else f"{v} < {hi}"
        mask = n.args[1]
        where = "" if mask.op is Op.CONST else f" where {_text(mask, names)}"
        out.append(Premise(v, f"assumes {bound}{where} from device_assert at line {line}", line))
    return tuple(sorted(out, key=lambda p: (p.line, p.name)))


def _text(n: Node, names: dict[int, str]) -> str:
    if id(n) in names:
        return names[id(n)]
    match n.op:
        case Op.CONST:
            return str(n.attr[0])
        case Op.ARG | Op.CONSTEXPR:
            return str(n.attr)
        case Op.CAST | Op.BROADCAST:
            return _text(n.args[0], names)
    from workbench.kir.ops import BINARY_SYMBOL

    if n.op in BINARY_SYMBOL:
        return f"({_text(n.args[0], names)} {BINARY_SYMBOL[n.op]} {_text(n.args[1], names)})"
    return n.op.name.lower()


def is_indirect(kernel: Any) -> bool:
    """Whether some access's offset goes through an asserted loaded index."""
    return any(n.op is Op.ASSUME for n in walk(*kernel.loads, *kernel.stores))
