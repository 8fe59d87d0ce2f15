"""Run a parsed PTX kernel for many threads at once and record what it reads and writes (stage: floats/ptx).

Lanes are threads: ``run`` takes a list of launches (element count ``n``, grid, block) and executes every
thread of every launch together, one numpy lane per thread. Integer registers hold per-lane bit patterns
(``semantics.apply`` with the lane arrays). A value loaded from global memory is symbolic: a ``Sym`` whose
``Expr`` names the input array (``Expr.arg``) and whose ``loads`` remember, per lane, which element was read.
Float instructions on symbolic operands build ``Expr`` nodes (the element function, evaluated later over
every float input); integer instructions on lanes are evaluated at once.

Control flow: a guarded instruction (``@%p`` / ``@!%p``, branches included) splits the current path by
lanes where ``%p`` is per-lane; paths never re-merge, so a grid-stride loop costs one path per distinct trip
count. A guard that depends on loaded data (a float comparison) splits the path on a condition; both halves
keep every lane (their stores carry the condition). Each path is capped at ``MAX_STEPS`` instructions.

Memory: pointer parameter ``j`` points at ``(j + 1) << 36`` (far apart, 256-byte aligned, as cudaMalloc's);
integer parameters hold ``n``. A ``.f32`` parameter (the source's ``float alpha``) is a universally quantified
input like a loaded element: ``ld.param.f32`` gives a ``Sym`` naming parameter ``j`` with no per-lane element
(one value for the whole launch), so it joins the element function as an argument. Every
``ld.global``/``st.global`` becomes an ``Access`` (array, per-lane byte offset, width, mask, line). Refused by
name: other scalar parameters besides pointers, ``.f32`` scalars and one count, shared/local memory, atomics,
barriers, shuffles, calls, data-dependent addresses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from workbench.floats.ptx.parse import Instr, Kind, Operand, PtxKernel, PtxUnsupportedError
from workbench.floats.ptx.semantics import DTYPE, TYPES, Op, apply, decode

MAX_STEPS = 20_000
STRIDE = 36  # pointer j is (j + 1) << STRIDE
_PASS = frozenset({"cvta"})  # address-space conversion: identity on our flat addresses
_REFUSED = {"atom": "atomics", "red": "atomics", "bar": "barriers", "barrier": "barriers", "shfl": "warp shuffles",
            "vote": "warp votes", "call": "calls (nvcc did not inline a device function)", "membar": "fences",
            "fence": "fences", "trap": "trap", "exit": "exit", "brkpt": "brkpt", "ld.shared": "shared memory",
            "st.shared": "shared memory", "ld.local": "local memory", "st.local": "local memory", "tex": "textures"}


@dataclass(frozen=True, slots=True)
class Expr:
    """A PTX data-flow node over the loaded inputs: ``kind`` is "arg" (input ``value``), "const" (bits
    ``value`` of type ``ty``) or "op" (``op`` applied to ``args``; ``text`` and ``line`` name the instruction)."""

    kind: str
    ty: str
    value: int = 0
    op: Op | None = None
    args: tuple["Expr", ...] = ()
    text: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)

    def __repr__(self) -> str:
        match self.kind:
            case "arg":
                return f"x{self.value}"
            case "const":
                return f"0x{self.value:X}" if self.ty != "pred" else str(bool(self.value))
            case _:
                return f"{self.text.split()[0]}({', '.join(map(repr, self.args))})"


@dataclass(frozen=True, slots=True)
class Sym:
    expr: Expr
    loads: tuple[tuple[int, np.ndarray], ...]  # (array, per-lane element index) of every load feeding expr


@dataclass(frozen=True, slots=True)
class Launch:
    n: int
    grid: int
    block: int


@dataclass(frozen=True, slots=True)
class Access:
    kind: str  # "load" | "store"
    array: int  # pointer parameter number
    offset: np.ndarray  # per-lane byte offset into the array
    width: int  # bytes per element (4)
    count: int  # elements (1, 2, 4 for vectors)
    mask: np.ndarray  # lanes that perform it
    line: int
    values: tuple = ()  # stores: per component, Sym | np.ndarray
    conds: tuple[Expr, ...] = ()  # data conditions of the path (each must hold)


@dataclass(slots=True)
class Lanes:
    n: np.ndarray
    tid: np.ndarray
    ntid: np.ndarray
    ctaid: np.ndarray
    nctaid: np.ndarray
    thread: np.ndarray  # global thread number within its launch
    launch: np.ndarray  # launch number


def lanes_for(launches: list[Launch]) -> Lanes:
    cols = {k: [] for k in ("n", "tid", "ntid", "ctaid", "nctaid", "thread", "launch")}
    for li, l in enumerate(launches):
        t = np.arange(l.grid * l.block, dtype=np.int64)
        cols["n"].append(np.full(t.size, l.n))
        cols["tid"].append(t % l.block)
        cols["ntid"].append(np.full(t.size, l.block))
        cols["ctaid"].append(t // l.block)
        cols["nctaid"].append(np.full(t.size, l.grid))
        cols["thread"].append(t)
        cols["launch"].append(np.full(t.size, li))
    return Lanes(**{k: np.concatenate(v) for k, v in cols.items()})


@dataclass(slots=True)
class _Path:
    pc: int
    regs: dict
    mask: np.ndarray
    conds: tuple[Expr, ...] = ()
    steps: int = 0


class _Run:
    def __init__(self, k: PtxKernel, lanes: Lanes, symbolic: bool):
        self.k, self.lanes, self.symbolic = k, lanes, symbolic
        self.accesses: list[Access] = []
        self.params = {p.name: i for i, p in enumerate(k.params)}
        self.count_params = [p.name for p in k.params if p.ty not in ("u64", "b64", "f32")]
        if len(self.count_params) > 1 or any(p.ty.startswith("f") and p.ty != "f32" for p in k.params):
            raise PtxUnsupportedError(
                f"kernel {k.name} takes parameters {[p.ty for p in k.params]}; the PTX level supports pointer "
                "parameters, f32 scalars and one integer element count")
        self.decoded: dict[int, Op] = {}

    def refuse(self, ins: Instr, what: str):
        raise PtxUnsupportedError(f"PTX line {ins.line} of {self.k.name}: {what} ({ins.text.strip()}) is not "
                                  "modelled by the PTX level; keep the kernel elementwise over global memory")

    # ------------------------------------------------------------------ operand reading
    def read(self, p: _Path, o: Operand, ty: str):
        w = TYPES.get(ty, 32)
        dt = DTYPE[w]
        match o.kind:
            case Kind.REG:
                if o.text not in p.regs:
                    raise PtxUnsupportedError(f"register {o.text} read before it is written in {self.k.name}")
                return p.regs[o.text]
            case Kind.SPECIAL:
                name, dim = o.text[1:].split(".")
                if dim != "x":
                    return np.zeros(1, dt)[0] if name in ("tid", "ctaid") else np.ones(1, dt)[0]
                return getattr(self.lanes, name).astype(dt)
            case Kind.INT:
                return np.array(o.value & ((1 << w) - 1) if w > 1 else bool(o.value), dt)[()]
            case Kind.F32 | Kind.F64:
                return np.array(o.value, dt)[()]
        raise PtxUnsupportedError(f"operand {o.text} cannot be read as a value")

    def as_expr(self, v, ty: str, p: _Path) -> Expr:
        if isinstance(v, Sym):
            return v.expr
        a = np.asarray(v)
        if a.ndim and a.size:
            live = a[p.mask] if a.shape == p.mask.shape else a
            if live.size and not (live == live.flat[0]).all():
                raise PtxUnsupportedError(f"a thread-dependent value meets loaded data in {self.k.name}; "
                                          "only elementwise kernels are modelled")
            a = live.flat[0] if live.size else a.flat[0]
        return Expr("const", ty, int(a))

    # ------------------------------------------------------------------ execution
    def run(self) -> list[Access]:
        n0 = len(self.lanes.n)
        work = [_Path(0, {}, np.ones(n0, bool))]
        while work:
            p = work.pop()
            while p is not None:
                p = self.step(p, work)
        return self.accesses

    def step(self, p: _Path, work: list) -> _Path | None:
        if p.pc >= len(self.k.body):
            return None
        p.steps += 1
        if p.steps > MAX_STEPS:
            raise PtxUnsupportedError(f"{self.k.name}: a path ran {MAX_STEPS} instructions without returning "
                                      "(a loop whose trip count does not shrink?)")
        ins = self.k.body[p.pc]
        if ins.guard:
            g = p.regs.get(ins.guard)
            if g is None:
                raise PtxUnsupportedError(f"predicate {ins.guard} read before it is written (PTX line {ins.line})")
            if isinstance(g, Sym):
                c = g.expr if not ins.guard_negated else Expr("op", "pred", op=Op("not", "pred"), args=(g.expr,),
                                                              text="not.pred", line=ins.line)
                nc = Expr("op", "pred", op=Op("not", "pred"), args=(c,), text="not.pred", line=ins.line)
                work.append(_Path(p.pc + 1, dict(p.regs), p.mask, p.conds + (nc,), p.steps))
                p = _Path(p.pc, p.regs, p.mask, p.conds + (c,), p.steps)
            else:
                gv = np.broadcast_to(np.asarray(g, bool), p.mask.shape)
                take = p.mask & (~gv if ins.guard_negated else gv)
                skip = p.mask & ~take
                if not take.any():
                    p.pc += 1
                    return p
                if skip.any():
                    work.append(_Path(p.pc + 1, dict(p.regs), skip, p.conds, p.steps))
                p.mask = take
        return self.execute(p, ins)

    def execute(self, p: _Path, ins: Instr) -> _Path | None:
        name = ins.opcode
        key = ".".join((name,) + ins.mods[:1])
        if name in _REFUSED or key in _REFUSED:
            self.refuse(ins, _REFUSED.get(key) or _REFUSED[name])
        match name:
            case "ret":
                return None
            case "bra":
                p.pc = self.k.label_index(ins.operands[0].text)
                return p
            case "ld":
                self.load(p, ins)
            case "st":
                self.store(p, ins)
            case _ if name in _PASS:
                p.regs[ins.operands[0].text] = self.read(p, ins.operands[1], "u64")
            case _:
                self.compute(p, ins)
        p.pc += 1
        return p

    def op_of(self, ins: Instr) -> Op:
        op = self.decoded.get(ins.line)
        if op is None:
            op = self.decoded[ins.line] = decode(ins.mnemonic, ins.line)
        return op

    def compute(self, p: _Path, ins: Instr) -> None:
        op = self.op_of(ins)
        dst, srcs = ins.operands[0], ins.operands[1:]
        if dst.kind is not Kind.REG:
            self.refuse(ins, "a destination that is not a register")
        src_ty = op.src or op.ty
        tys = [src_ty] * len(srcs)
        match op.name:
            case "selp":
                tys[-1] = "pred"
            case "setp":
                if op.bool_op:
                    tys[-1] = "pred"
            case "mad" if op.part == "wide":
                tys[-1] = {"s32": "s64", "u32": "u64"}[op.ty]
            case "shl" | "shr":
                tys[-1] = "u32"
        vals = [self.read(p, o, t) for o, t in zip(srcs, tys)]
        if op.name == "setp" and len(ins.operands) > 1 and "|" in ins.operands[0].text:
            self.refuse(ins, "setp with two destinations")
        syms = [v for v in vals if isinstance(v, Sym)]
        if syms:
            out_ty = "pred" if op.name == "setp" else op.ty
            loads = tuple(ld for s in syms for ld in s.loads)
            e = Expr("op", out_ty, op=op, args=tuple(self.as_expr(v, t, p) for v, t in zip(vals, tys)),
                     text=ins.mnemonic, line=ins.line)
            p.regs[dst.text] = Sym(e, loads)
            return
        if op.implementation_defined:  # not data: still implementation-defined; keep it symbolic and named
            e = Expr("op", op.ty, op=op, args=tuple(self.as_expr(v, t, p) for v, t in zip(vals, tys)),
                     text=ins.mnemonic, line=ins.line)
            p.regs[dst.text] = Sym(e, ())
            return
        p.regs[dst.text] = apply(op, vals)

    def address(self, p: _Path, ins: Instr, o: Operand):
        if o.kind is not Kind.ADDR:
            self.refuse(ins, "an address that is not [reg+offset]")
        if o.base in self.params:
            return ("param", o.base, o.value)
        base = p.regs.get(o.base)
        if base is None:
            self.refuse(ins, f"an address in {o.base}, which is not a register holding a pointer")
        if isinstance(base, Sym):
            self.refuse(ins, "an address computed from loaded data")
        addr = np.broadcast_to(np.asarray(base, np.uint64).astype(np.int64), p.mask.shape) + o.value
        j = np.rint(addr / float(1 << STRIDE)).astype(np.int64) - 1
        live = j[p.mask]
        if live.size == 0:
            return None
        if not (live == live[0]).all() or live[0] < 0 or live[0] >= len(self.k.params):
            self.refuse(ins, "an address that is not inside one pointer parameter's array for every thread")
        arr = int(live[0])
        return ("global", arr, addr - ((arr + 1) << STRIDE))

    def load(self, p: _Path, ins: Instr) -> None:
        space = ins.mods[0] if ins.mods else ""
        dst = ins.operands[0]
        if space == "param":
            _, name, off = self.address(p, ins, ins.operands[1])
            param = self.k.params[self.params[name]]
            if off:
                self.refuse(ins, "a parameter read at an offset")
            if param.ty in ("u64", "b64"):
                p.regs[dst.text] = np.uint64((self.params[name] + 1) << STRIDE)
            elif param.ty == "f32":  # a float scalar argument: a symbolic input, the same for every lane
                p.regs[dst.text] = Sym(Expr("arg", "f32", self.params[name]), ())
            else:
                p.regs[dst.text] = self.lanes.n.astype(DTYPE[TYPES[param.ty]])
            return
        if space != "global":
            self.refuse(ins, f"ld.{space}")
        a = self.address(p, ins, ins.operands[1])
        if a is None:
            return
        _, arr, off = a
        ty = ins.mods[-1]
        if TYPES.get(ty) != 32:
            self.refuse(ins, f"a {ty} load (only 32-bit elements are modelled)")
        items = dst.items if dst.kind is Kind.VEC else (dst,)
        self.accesses.append(Access("load", arr, off, 4, len(items), p.mask.copy(), ins.line, (), p.conds))
        for c, reg in enumerate(items):
            idx = (off + 4 * c) // 4
            p.regs[reg.text] = Sym(Expr("arg", ty, arr), ((arr, idx),))

    def store(self, p: _Path, ins: Instr) -> None:
        if not ins.mods or ins.mods[0] != "global":
            self.refuse(ins, f"st.{ins.mods[0] if ins.mods else ''}")
        a = self.address(p, ins, ins.operands[0])
        if a is None:
            return
        _, arr, off = a
        ty = ins.mods[-1]
        if TYPES.get(ty) != 32:
            self.refuse(ins, f"a {ty} store (only 32-bit elements are modelled)")
        src = ins.operands[1]
        items = src.items if src.kind is Kind.VEC else (src,)
        vals = tuple(self.read(p, o, ty) for o in items)
        self.accesses.append(Access("store", arr, off, 4, len(items), p.mask.copy(), ins.line, vals, p.conds))


def run(kernel: PtxKernel, launches: list[Launch]) -> tuple[Lanes, list[Access]]:
    lanes = lanes_for(launches)
    return lanes, _Run(kernel, lanes, True).run()
