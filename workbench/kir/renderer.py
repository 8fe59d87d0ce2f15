"""Renderer: IR -> readable Triton-like text that :func:`~workbench.kir.parser` reads back.

Stage: kir. One line per operation (``tN = ...  # type``) in a deterministic order (children first, loads
then stores), leaves inline (parameters, literals, ``tl.program_id``, ``tl.arange``). Implicit conversions
are not written (re-parsing re-derives them), explicit ``.to(...)`` casts are. Parameters carry their
declared types as string annotations and the docstring carries the grid and the size expressions, so
``parse(render(k))`` has the same canonical hash as ``k``. Used by the KernelView widget and golden files.

Reduction kernels render as one straight-line listing (values at one (x, r) lane and one step): ``r0_offset``
is the step, an accumulator appears under its name, and ``# carry`` lines give each accumulator's value before
its loop and after one step. That text is for reading: it is not re-parsed (the loops are not written).
"""

from __future__ import annotations

from workbench.kir.build import IMPLICIT
from workbench.kir.nodes import Kernel, Node, dead_divisions, walk
from workbench.kir.ops import BINARY_SYMBOL, Op
from workbench.kir.types import TL_NAME, IntType

_PAYLOAD_BINARY = {op.name.lower(): sym for op, sym in BINARY_SYMBOL.items()}
_GRID_NAME = {"1d": "Grid1D", "2d": "Grid2DWithYZOverflow"}


def render(kernel: Kernel) -> str:
    params = []
    for p in kernel.params:
        params.append(f"{p.name} : tl.constexpr" if p.type is None else f"{p.name}: '{p.type}'")
    out = [f"def {kernel.name}({', '.join(params)}):"]
    doc = [f"grid: {_GRID_NAME[kernel.grid]}"]
    doc += [f"{p.name} = {p.expr}" for p in kernel.params if p.expr is not None]
    red = kernel.reduction
    if red is not None:
        numel = red.numel if red.numel is not None else f"{red.static_numel} (fixed)"
        block = red.block if red.static_block is None else f"{red.block} = {red.static_block} (fixed)"
        doc.append(f"reduction: extent {numel}, block {block}, loops {red.loops} (listing at one (x, r) lane "
                   "and one step; not re-parseable)")
    out.append('    """' + "\n    ".join(doc) + '\n    """')
    names: dict[int, str] = {}
    body: list[str] = []

    def ref(n: Node) -> str:
        if id(n) in names:
            return names[id(n)]
        return _inline(n, kernel, ref)

    for n in walk(*kernel.roots()):
        if n.op is Op.STORE:
            offset, value, mask = n.args
            m = "" if _is_true(mask) else f", {ref(mask)}"
            body.append(f"tl.store({n.attr} + ({ref(offset)}), {ref(value)}{m})")
            continue
        if n.op is Op.ASSUME:
            body.append(_device_assert(n, ref))
            names[id(n)] = ref(n.args[0])  # the asserted name stands for the assumed value from here on
            continue
        if _is_inline(n):
            continue
        name = f"t{len(names)}"
        body.append(f"{name} = {_expression(n, kernel, ref)}  # {n.type}")
        names[id(n)] = name
    for n in walk(*dead_divisions(kernel)):  # divisions no access uses still execute and are hashed (kir.canon)
        if id(n) in names or _is_inline(n):
            continue
        name = f"t{len(names)}"
        body.append(f"{name} = {_expression(n, kernel, ref)}  # {n.type} (unused; it executes)")
        names[id(n)] = name
    for c in kernel.carries:
        body.append(f"# carry {c.name} (loop {c.loop}, line {c.line}): before the loop {ref(c.init)}; "
                    f"after a step {ref(c.update)}")
    out += ["    " + line for line in body]
    return "\n".join(out) + "\n"


def _device_assert(n: Node, ref) -> str:
    """``tl.device_assert`` in Inductor's form (``TritonKernel.indirect_assert``), read back by kir.indirect."""
    has_lo, has_hi = n.attr
    v = ref(n.args[0])
    rest = list(n.args[2:])
    parts = []
    if has_lo:
        parts.append(f"({ref(rest.pop(0))} <= {v})")
    if has_hi:
        parts.append(f"({v} < {ref(rest.pop(0))})")
    cond = " & ".join(parts)
    if not _is_true(n.args[1]):
        cond = f"({cond}) | ~({ref(n.args[1])})"
    return f'tl.device_assert({cond}, "index out of bounds")'


def _is_true(n: Node) -> bool:
    return n.op is Op.CONST and n.type == IntType(1) and n.attr == (1, False)


def _is_inline(n: Node) -> bool:
    return n.op in (Op.CONST, Op.FCONST, Op.ARG, Op.CONSTEXPR, Op.PROGRAM_ID, Op.NUM_PROGRAMS, Op.ARANGE,
                    Op.UNDEF, Op.ROFFSET, Op.ACC) or (n.op is Op.CAST and n.attr == IMPLICIT) or (n.op is Op.PAYLOAD and n.attr == "to_i1")


def _dtype(t) -> str:
    return f"tl.{TL_NAME[t]}"


def _float_text(text: str) -> str:
    return f"float('{text}')" if text in ("inf", "-inf", "nan") else text


def _inline(n: Node, kernel: Kernel, ref) -> str:
    match n.op:
        case Op.CONST:
            value, weak = n.attr
            if weak and n.type == IntType(1):
                return str(bool(value))  # a weak int1 constant is a Python bool literal (kind bool < int)
            if weak:
                return f"({value})" if value < 0 else str(value)
            return f"tl.full([1], {value}, {_dtype(n.type)})"
        case Op.FCONST:
            text, weak = n.attr
            return _float_text(text) if weak else f"tl.full([1], {_float_text(text)}, {_dtype(n.type)})"
        case Op.ARG | Op.CONSTEXPR:
            return n.attr
        case Op.PROGRAM_ID:
            return f"tl.program_id({n.attr})"
        case Op.NUM_PROGRAMS:
            return f"tl.num_programs({n.attr})"
        case Op.ROFFSET:
            return "r0_offset"
        case Op.ACC:
            return n.attr[0]
        case Op.ARANGE if kernel.reduction is not None:
            start, block = n.attr
            return f"tl.arange({start}, {block})" + ("[None, :]" if block == "R0_BLOCK" else "[:, None]")
        case Op.ARANGE:
            start, block = n.attr
            sub = "[:]" if kernel.grid == "1d" else ("[None, :]" if block == "XBLOCK" else "[:, None]")
            return f"tl.arange({start}, {block}){sub}"
        case Op.UNDEF:
            raise AssertionError("UNDEF is written as a missing other=")
        case Op.CAST:
            return ref(n.args[0])  # implicit: re-derived by promotion
        case Op.PAYLOAD:
            return ref(n.args[0])  # to_i1: tl.where's own condition conversion
    raise AssertionError(n.op)


def _expression(n: Node, kernel: Kernel, ref) -> str:
    a = n.args
    match n.op:
        case Op.ADD | Op.SUB | Op.MUL | Op.FLOORDIV | Op.MOD | Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE | Op.AND | Op.OR:
            return f"{ref(a[0])} {BINARY_SYMBOL[n.op]} {ref(a[1])}"
        case Op.NEG:
            return f"-{ref(a[0])}"
        case Op.ABS:
            return f"tl_math.abs({ref(a[0])})"
        case Op.CAST:
            return f"({ref(a[0])}).to({_dtype(n.type)})"
        case Op.BROADCAST:
            block = "XBLOCK, R0_BLOCK" if kernel.reduction is not None else "XBLOCK" if kernel.grid == "1d" else "YBLOCK, XBLOCK"
            return f"tl.broadcast_to({ref(a[0])}, [{block}])"
        case Op.WHERE:
            return f"tl.where({ref(a[0])}, {ref(a[1])}, {ref(a[2])})"
        case Op.LOAD:
            offset, mask, other = a
            text = f"tl.load({n.attr} + ({ref(offset)})"
            if not _is_true(mask):
                text += f", {ref(mask)}"
                if other.op is not Op.UNDEF:
                    text += f", other={ref(other)}"
            return text + ")"
        case Op.REDUCE:
            fn, k = n.attr
            return f"{fn}({', '.join(ref(x) for x in a)}, 1)[{k}][:, None]"
        case Op.SCAN:
            fn, text, k = n.attr
            return f"tl.associative_scan(({', '.join(ref(x) for x in a)},), 1, {fn})[{k}]  # {fn}{text}"
        case Op.PAYLOAD if isinstance(n.attr, tuple):
            fn, k = n.attr
            return f"{fn}({', '.join(ref(x) for x in a)})[{k}]"
        case Op.PAYLOAD:
            name = n.attr
            if name in _PAYLOAD_BINARY:
                return f"{ref(a[0])} {_PAYLOAD_BINARY[name]} {ref(a[1])}"
            if name == "truediv":
                return f"{ref(a[0])} / {ref(a[1])}"
            if name == "neg":
                return f"-{ref(a[0])}"
            if name == "invert":
                return f"~{ref(a[0])}"
            if name == "to":
                return f"({ref(a[0])}).to({_dtype(n.type)})"
            return f"{name}({', '.join(ref(x) for x in a)})"
        case Op.CONST | Op.FCONST | Op.ARG | Op.CONSTEXPR | Op.PROGRAM_ID | Op.NUM_PROGRAMS | Op.ARANGE | Op.UNDEF | Op.STORE | Op.ROFFSET | Op.ACC:
            raise AssertionError(f"{n.op} is written inline")
        case Op.ASSUME:
            raise AssertionError("ASSUME is written as a tl.device_assert statement")
    raise AssertionError(f"no rendering for {n.op}")

