"""Concrete counterexamples: a shape, a lane and both kernels' values for a rejected side condition.

Stage: check. Given a shape (symbol values satisfying every captured guard, usually from z3), the lane is
found with z3 over the lane indices with the shape fixed (so size arguments are constants and ``//``/``%``
are by constants: linear integer arithmetic). The subexpression is then evaluated at that lane in the wide
and in the narrowed kernel with Triton's wraparound semantics (re-typed by ``kir.instantiate``), and the two
kernels' accesses are compared with ``kir.evaluate``: a counterexample reports the values whether or not an
access differs, and ``disagree`` says what differs when something observable does.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench import kir
from workbench.check.checker import Analysis, Widths, retype
from workbench.check.sidecond import Reason
from workbench.kir import Node, Op


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A concrete witness for a rejected side condition."""

    condition: str  # side-condition key
    subexpression: str
    lane_class: str
    shape: tuple[tuple[str, int], ...]
    lane: tuple[tuple[str, int], ...]  # ("xindex", v), ("yindex", v)
    wide: int | None
    narrowed: int | None
    exact: int | None
    disagree: str  # how the kernels' observable behaviour differs at this lane ("" if it does not)

    def to_json(self) -> dict:
        return {
            "condition": self.condition,
            "subexpression": self.subexpression,
            "lane_class": self.lane_class,
            "shape": dict(self.shape),
            "lane": dict(self.lane),
            "wide_value": self.wide,
            "narrowed_value": self.narrowed,
            "exact_value": self.exact,
            "kernels_disagree": self.disagree,
        }

    def text(self) -> str:
        shape = ", ".join(f"{k}={v}" for k, v in self.shape)
        lane = ", ".join(f"{k}={v}" for k, v in self.lane)
        out = (f"at shape ({shape}), lane {lane or '(any)'}: {self.subexpression} is {self.wide} in the wide "
               f"kernel and {self.narrowed} in the narrowed kernel")
        if self.disagree:
            out += f"; observable difference: {self.disagree}"
        return out


def _lane_vars(analysis: Analysis, ctx):
    import z3

    vars_ = {}
    for atom in analysis.range_atoms:
        axis = "y" if _uses_axis(atom.args[0], "YBLOCK") else "x"
        vars_[id(atom.args[0])] = (f"{axis}index", z3.Int(f"{axis}index", ctx))
    # Reduction kernels: the r lane (r0_base, a position in R0_BLOCK) and the step (r0_offset).
    for n in analysis.nodes:
        if n.op is Op.ROFFSET:
            vars_[id(n)] = ("r0_offset", z3.Int("r0_offset", ctx))
        elif n.op is Op.ARANGE and n.attr == (0, "R0_BLOCK"):
            vars_[id(n)] = ("r0_base", z3.Int("r0_base", ctx))
    return vars_


def _uses_axis(n: Node, block: str) -> bool:
    if n.op in (Op.ARANGE,) and n.attr[1] == block:
        return True
    return any(_uses_axis(a, block) for a in n.args)


def _z3(n: Node, analysis: Analysis, args: dict[str, int], lanes, memo, ctx):
    import z3

    if id(n) in memo:
        return memo[id(n)]
    a = n.args
    if id(n) in lanes:
        out = lanes[id(n)][1]
    else:
        sub = [_z3(x, analysis, args, lanes, memo, ctx) for x in a]
        if any(v is None for v in sub):
            out = None
        else:
            match n.op:
                case Op.CONST:
                    out = z3.IntVal(n.attr[0], ctx)
                case Op.ARG:
                    out = z3.IntVal(args[n.attr], ctx) if n.attr in args else None
                case Op.ADD:
                    out = sub[0] + sub[1]
                case Op.SUB:
                    out = sub[0] - sub[1]
                case Op.MUL:
                    out = sub[0] * sub[1]
                case Op.NEG:
                    out = -sub[0]
                case Op.ABS:
                    out = z3.If(sub[0] >= 0, sub[0], -sub[0])
                case Op.FLOORDIV | Op.MOD:
                    x, d = sub
                    q = z3.If(x >= 0, x / d, -((-x) / d))  # truncation toward zero, divisor > 0
                    out = q if n.op is Op.FLOORDIV else x - q * d
                case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                    f = {Op.LT: lambda p, q: p < q, Op.LE: lambda p, q: p <= q, Op.GT: lambda p, q: p > q,
                         Op.GE: lambda p, q: p >= q, Op.EQ: lambda p, q: p == q, Op.NE: lambda p, q: p != q}[n.op]
                    out = z3.If(f(sub[0], sub[1]), 1, 0)
                case Op.AND:
                    out = sub[0] * sub[1] if (n.type.bits == 1) else None
                case Op.OR:
                    out = z3.If(sub[0] + sub[1] > 0, 1, 0) if (n.type.bits == 1) else None
                case Op.CAST | Op.BROADCAST:
                    out = sub[0]
                case Op.WHERE:
                    out = z3.If(sub[0] != 0, sub[1], sub[2])
                case _:
                    out = None
    memo[id(n)] = out
    return out


def _eval(n: Node, args: dict[str, int], lane_vals: dict[int, int], memo: dict[int, int | None]):
    """Value of an instantiated node with wraparound after every operation (kir's semantics)."""
    if id(n) in memo:
        return memo[id(n)]
    sub = [_eval(x, args, lane_vals, memo) for x in n.args]
    t = n.type
    out = None
    if id(n) in lane_vals:
        out = lane_vals[id(n)]
    elif isinstance(t, kir.IntType) and not any(v is None for v in sub) and not n.payload:
        match n.op:
            case Op.CONST:
                out = n.attr[0]
            case Op.ARG:
                out = t.wrap(args[n.attr])
            case Op.ADD:
                out = t.wrap(sub[0] + sub[1])
            case Op.SUB:
                out = t.wrap(sub[0] - sub[1])
            case Op.MUL:
                out = t.wrap(sub[0] * sub[1])
            case Op.NEG:
                out = t.wrap(-sub[0])
            case Op.ABS:
                out = t.wrap(abs(sub[0]))
            case Op.FLOORDIV:
                out = None if sub[1] == 0 else t.wrap(kir.truncdiv(sub[0], sub[1]))
            case Op.MOD:
                out = None if sub[1] == 0 else t.wrap(kir.truncmod(sub[0], sub[1]))
            case Op.LT:
                out = int(sub[0] < sub[1])
            case Op.LE:
                out = int(sub[0] <= sub[1])
            case Op.GT:
                out = int(sub[0] > sub[1])
            case Op.GE:
                out = int(sub[0] >= sub[1])
            case Op.EQ:
                out = int(sub[0] == sub[1])
            case Op.NE:
                out = int(sub[0] != sub[1])
            case Op.AND:
                out = t.wrap(sub[0] & sub[1])
            case Op.OR:
                out = t.wrap(sub[0] | sub[1])
            case Op.CAST:
                out = t.wrap(sub[0]) if t.bits > 1 else int(sub[0] != 0)
            case Op.BROADCAST:
                out = sub[0]
            case Op.WHERE:
                out = sub[1] if sub[0] else sub[2]
    memo[id(n)] = out
    return out


def witness(record, k: kir.Kernel, premises, analysis: Analysis, sc, shape: dict[str, int], widths: Widths):
    """A :class:`Counterexample` for side condition ``sc`` at ``shape``, or None."""
    import z3

    if sc.reason in (Reason.LOOP_BOUND, Reason.LAUNCH_BOUND):
        return None  # a fact about r0_numel / ynumel alone (its node is built for the condition, in neither kernel)
    n, c = analysis.where[sc.key]
    ln = kir.launch(k, shape)
    args = dict(ln.args)
    half = 2 ** (widths.int32 - 1)
    if sc.reason is Reason.SIZE_ARG_FITS:
        name = n.attr
        exact = args[name]
        narrowed = kir.IntType(widths.int32).wrap(exact)
        # Passing the argument is already inexact; any lane (here the first) shows what follows from it.
        return Counterexample(sc.key, sc.origin.subexpression, "every lane", tuple(sorted(shape.items())),
                              (), exact, narrowed, exact, _disagreement(k, ln, {"xindex": 0}, widths))
    from workbench.check.discharge import SMT_RLIMIT

    ctx = z3.Context()  # a fresh context and a resource limit: the same answer whatever ran before or the load
    lanes = _lane_vars(analysis, ctx)
    solver = z3.Solver(ctx=ctx)
    solver.set("rlimit", SMT_RLIMIT)
    memo: dict = {}
    for _, (name, v) in lanes.items():
        solver.add(v >= 0)
        solver.add(v <= half - 1)
    red = k.reduction
    if red is not None:  # the step and the r lane range over the loop's values, never beyond
        rb = ln.block(red.block)
        numel = args[red.numel] if red.numel is not None else red.static_numel
        for _, (name, v) in lanes.items():
            if name == "r0_base":
                solver.add(v <= rb - 1)
            elif name == "r0_offset":
                solver.add(v <= numel - 1, v % rb == 0)
    for key, pol in c:
        atom = analysis.by_key[key]
        e = _z3(atom, analysis, args, lanes, memo, ctx)
        if e is None:
            return None
        solver.add(e == (1 if pol else 0))
    val = _z3(n, analysis, args, lanes, memo, ctx)
    if val is None:
        return None
    if sc.reason is Reason.DIVISOR:
        solver.add(val <= 0)
    elif sc.origin.bound == "upper":
        bits = widths.int32 if sc.reason is Reason.FITS_INT32 else (analysis.N[id(n)].type.bits)
        solver.add(val > kir.IntType(bits).max)
    else:
        bits = widths.int32 if sc.reason is Reason.FITS_INT32 else (analysis.N[id(n)].type.bits)
        solver.add(val < kir.IntType(bits).min)
    if solver.check() != z3.sat:
        return None
    m = solver.model()
    lane = {name: m.eval(v, model_completion=True).as_long() for _, (name, v) in lanes.items()}
    lane_vals = {i: lane[name] for i, (name, _) in lanes.items()}
    exact = m.eval(val, model_completion=True).as_long()
    wide = _value(k, widths.wide, n, args, lane_vals)
    narrow = _value(k, widths.narrow, n, args, lane_vals)
    return Counterexample(sc.key, sc.origin.subexpression, sc.origin.lane_class, tuple(sorted(shape.items())),
                          tuple(sorted(lane.items())), wide, narrow, exact, _disagreement(k, ln, lane, widths))


def _value(k, mode, n, args, lane_vals_orig):
    memo_map = retype(k, mode)
    target = memo_map[id(n)]
    lane_vals = {id(memo_map[i]) if i in memo_map else i: v for i, v in lane_vals_orig.items()}
    ptypes = {p.name: mode.param_type(p) for p in k.params}
    wrapped = {name: (ptypes[name].wrap(v) if isinstance(ptypes.get(name), kir.IntType) else v) for name, v in args.items()}
    return _eval(target, wrapped, lane_vals, {})


def _disagreement(k, ln, lane: dict[str, int], widths: Widths) -> str:
    """Compare the two kernels' accesses at the lane; a text naming the first difference, or ''."""
    x = lane.get("xindex", 0)
    y = lane.get("yindex", 0)
    blocks = dict(ln.blocks)
    if k.grid == "2d":
        bx, by = blocks["XBLOCK"], blocks["YBLOCK"]
        py = y // by
        ny = max(ln.grid[1], 1)
        kl = kir.Lane((x // bx, py % ny, py // ny), (("XBLOCK", x % bx), ("YBLOCK", y % by)), (ln.grid[0], ny, max(ln.grid[2], 1)))
    elif k.reduction is not None:
        bx = blocks["XBLOCK"]
        kl = kir.Lane((x // bx, 0, 0), (("XBLOCK", x % bx), (k.reduction.block, lane.get("r0_base", 0))),
                      (max(ln.grid[0], 1), 1, 1), step=lane.get("r0_offset", 0))
    else:
        bx = blocks["XBLOCK"]
        kl = kir.Lane((x // bx, 0, 0), (("XBLOCK", x % bx),), (max(ln.grid[0], 1), 1, 1))
    try:
        rw = kir.evaluate(k, ln, kl, widths.wide)
    except kir.EvaluationError as exc:
        return f"the wide kernel is undefined here ({exc})"
    try:
        rn = kir.evaluate(k, ln, kl, widths.narrow)
    except kir.EvaluationError as exc:
        return f"the narrowed kernel is undefined here ({exc})"
    for a, b in zip(rw.loads + rw.stores, rn.loads + rn.stores):
        if a.mask != b.mask:
            return (f"{a.kind} of {a.pointer} (line {a.line}) is {'performed' if a.mask else 'masked off'} in the wide "
                    f"kernel but {'performed' if b.mask else 'masked off'} in the narrowed one")
        if a.mask and a.offset != b.offset:
            return f"{a.kind} of {a.pointer} (line {a.line}) at offset {a.offset} (wide) vs {b.offset} (narrowed)"
        if a.kind == "store" and a.mask and a.value != b.value:
            return f"store to {a.pointer} writes {_short(a.value)} (wide) vs {_short(b.value)} (narrowed)"
    return ""


def _short(term) -> str:
    text = repr(term)
    return text if len(text) < 120 else text[:117] + "..."
