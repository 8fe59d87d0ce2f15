"""From a ``.cu`` file to PTX element functions and its PTX-level accesses (stage: floats/ptx).

``extract(cu, flags, arch)`` compiles with nvcc, parses the kernel's PTX and runs every thread of the
launches in ``SIZES`` (every n in 1..64 and the neighbours of 128, 256, 1024) at once (``execute.run``).
Each store must write ``out[k] = f(in0[k], in1[k], ...)``: every load feeding the stored value read the
stored element's index. The distinct ``f`` (``execute.Expr`` over ``arg`` j = the j-th input array in
parameter order) are the kernel's element functions at the PTX level. The launch comes from the ``.cu``
file's ``// launch: grid = ..., block = ...`` comment (default ``(n + 255) / 256`` blocks of 256), read with
the restricted expression parser, never evaluated as code.

Stores on data-dependent paths (a branch on a loaded value: paths never re-merge) are combined into one
``selp`` chain over the path conditions when the paths cover every input; otherwise refused by name.
Limits: a thread storing one element twice on a path without conditions is checked store by store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sympy

from workbench.errors import InputError
from workbench.floats.ptx.execute import Access, Expr, Lanes, Launch, Sym, run
from workbench.floats.ptx.nvcc import DEFAULT_ARCH, Flags, compile_ptx
from workbench.floats.ptx.parse import PtxKernel, PtxUnsupportedError, parse_ptx
from workbench.floats.ptx.semantics import Op
from workbench.symexpr import parse_expr

SIZES = tuple(range(1, 65)) + (127, 128, 129, 255, 256, 257, 1023, 1024, 1025)
_LAUNCH = re.compile(r"//\s*launch:\s*grid\s*=\s*([^,\n]+?)\s*,\s*block\s*=\s*([^\n]+?)\s*$", re.M)


@dataclass(frozen=True, slots=True)
class LaunchRule:
    grid: str = "(n + 255) / 256"
    block: str = "256"

    def at(self, n: int) -> Launch:
        def ev(text: str) -> int:
            e = parse_expr(text.replace("/", "//"), "launch comment")  # C division of non-negatives = floor
            if e.free_symbols - {sympy.Symbol("n")}:
                raise InputError(f"launch expression {text!r} may only use n; write e.g. grid = (n + 255) / 256")
            return int(e.subs(sympy.Symbol("n"), n))

        return Launch(n, ev(self.grid), ev(self.block))


def launch_rule(source: str) -> LaunchRule:
    m = _LAUNCH.search(source)
    return LaunchRule(m.group(1), m.group(2)) if m else LaunchRule()


@dataclass(frozen=True, slots=True)
class Extraction:
    kernel: PtxKernel
    ptx: str
    flags: Flags
    arch: str
    names: tuple[str, ...]  # source parameter names (or param_j), by PTX parameter number
    inputs: tuple[int, ...]  # pointer parameters read and f32 scalar parameters, in order: spec arguments 0, 1, ...
    output: int  # the pointer parameter written
    functions: tuple[Expr, ...]  # distinct element functions over arg 0..arity-1
    sites: tuple[str, ...]  # for each function: the PTX line(s) of the store(s) that write it
    problem: str  # non-empty: not elementwise, and why
    lanes: Lanes
    accesses: tuple[Access, ...]
    launches: tuple[Launch, ...]

    @property
    def elementwise(self) -> bool:
        return not self.problem


def source_names(source: str, kernel: str) -> list[str]:
    m = re.search(r"__global__\s+void\s+(\w+)\s*\(([^)]*)\)", source)
    if not m:
        return []
    return [re.findall(r"\w+", p)[-1] for p in m.group(2).split(",") if re.findall(r"\w+", p)]


def _rename(e: Expr, pos: dict[int, int], memo: dict) -> Expr:
    hit = memo.get(id(e))
    if hit is not None:
        return hit
    match e.kind:
        case "arg":
            out = Expr("arg", e.ty, pos[e.value])
        case "const":
            out = e
        case _:
            out = Expr("op", e.ty, op=e.op, args=tuple(_rename(a, pos, memo) for a in e.args), text=e.text,
                       line=e.line)
    memo[id(e)] = out
    return out


def extract(cu: str | Path, flags: Flags = Flags(), arch: str = DEFAULT_ARCH, ptx: str | None = None,
            sizes: tuple[int, ...] = SIZES) -> Extraction:
    cu = Path(cu)
    source = cu.read_text() if cu.is_file() else ""
    text = ptx if ptx is not None else compile_ptx(cu, flags, arch)
    if re.search(r"\.(?:b?f16(?:x2)?)\b", text):  # cuda_fp16.h/cuda_bf16.h inline asm: f16/bf16 instructions
        name = re.search(r"\.entry\s+(\w+)", text)
        raise PtxUnsupportedError(f"kernel {name.group(1) if name else cu.stem} computes on f16/bf16 data (half-precision "
                                  "PTX instructions); the PTX level models 32- and 64-bit floats only; use --level "
                                  "source for __half/__nv_bfloat16 kernels")
    k = parse_ptx(text)
    names = source_names(source, k.name)
    if len(names) != len(k.params):
        names = [f"param_{j}" for j in range(len(k.params))]
    rule = launch_rule(source)
    launches = tuple(rule.at(n) for n in sizes)
    lanes, accesses = run(k, list(launches))
    loads = sorted({a.array for a in accesses if a.kind == "load"})
    stored = sorted({a.array for a in accesses if a.kind == "store"})
    common = dict(kernel=k, ptx=text, flags=flags, arch=arch, names=tuple(names), lanes=lanes,
                  accesses=tuple(accesses), launches=launches)
    if len(stored) == 2:  # decided at the source level (one check per output); not modelled here yet
        raise PtxUnsupportedError(f"kernel {k.name} stores to two arrays ({names[stored[0]]}, {names[stored[1]]}); "
                                  "the PTX level models one output array; use --level source for two-output kernels")
    if len(stored) != 1:
        return Extraction(inputs=tuple(loads), output=stored[0] if stored else -1, functions=(), sites=(),
                          problem=f"the kernel stores to {len(stored)} arrays; one output array is modelled", **common)
    out = stored[0]
    # f32 scalar parameters nvcc kept (it drops the ld.param of an unused one) are inputs in parameter order,
    # as at the source level (``Kernel.inputs``)
    scalars = {j for j, prm in enumerate(k.params) if prm.ty == "f32" and re.search(rf"\[{re.escape(prm.name)}\]", text)}
    inputs = tuple(sorted({j for j in loads if j != out} | scalars))
    if out in loads:
        return Extraction(inputs=inputs, output=out, functions=(), sites=(),
                          problem=f"the kernel reads its output array {names[out]}", **common)
    pos = {j: i for i, j in enumerate(inputs)}
    memo: dict = {}
    fns: dict[Expr, list[int]] = {}
    groups: dict[tuple[bytes, bytes, int], list[tuple[Access, int]]] = {}
    for a in accesses:
        if a.kind != "store":
            continue
        for c, v in enumerate(a.values):
            idx = (a.offset + 4 * c) // 4
            if isinstance(v, Sym):
                for arr, lidx in v.loads:
                    bad = a.mask & (np.broadcast_to(lidx, a.mask.shape) != idx)
                    if bad.any():
                        i = int(np.flatnonzero(bad)[0])
                        return Extraction(
                            inputs=inputs, output=out, functions=(), sites=(), **common,
                            problem=(f"PTX line {a.line}: thread {int(lanes.thread[i])} stores {names[out]}"
                                     f"[{int(idx[i])}] from {names[arr]}[{int(np.broadcast_to(lidx, idx.shape)[i])}]"
                                     f" when n = {int(lanes.n[i])}: not elementwise"))
            else:
                live = np.broadcast_to(np.asarray(v), a.mask.shape)[a.mask]
                if not (live == live[0]).all():
                    return Extraction(inputs=inputs, output=out, functions=(), sites=(), **common,
                                      problem=f"PTX line {a.line}: the stored constant depends on the thread")
            if a.conds:  # stores on data-dependent paths: combined below, per (lanes, element) group
                key = (a.mask.tobytes(), np.broadcast_to(idx, a.mask.shape)[a.mask].tobytes(), 0)
                groups.setdefault(key, []).append((a, c))
                continue
            fns.setdefault(_value(v, pos, memo, a.mask), []).append(a.line)
    for events in groups.values():
        f = _combine(events, pos, memo, k.name)
        fns.setdefault(f, []).extend(a.line for a, _ in events)
    return Extraction(inputs=inputs, output=out, functions=tuple(fns), problem="",
                      sites=tuple(", ".join(str(x) for x in sorted(set(v))) for v in fns.values()), **common)


def _value(v, pos: dict, memo: dict, mask: np.ndarray) -> Expr:
    if isinstance(v, Sym):
        return _rename(v.expr, pos, memo)
    return Expr("const", "f32", int(np.broadcast_to(np.asarray(v), mask.shape)[mask][0]))


def _complete(conds: list[tuple[Expr, ...]]) -> bool:
    """Do these path conditions cover every input? They do when they are the leaves of the fork tree: all
    empty, or all split on one first condition c / not c, each side complete on the rest."""
    if conds == [()]:
        return True
    if not conds or any(not c for c in conds):
        return False
    first = conds[0][0]
    base = first.args[0] if first.kind == "op" and first.op.name == "not" else first

    def side(c: Expr) -> int:
        if c is base or c == base:
            return 1
        if c.kind == "op" and c.op.name == "not" and (c.args[0] is base or c.args[0] == base):
            return 0
        return -1

    sides = [side(c[0]) for c in conds]
    if -1 in sides:
        return False
    return (_complete([c[1:] for c, s in zip(conds, sides) if s == 1])
            and _complete([c[1:] for c, s in zip(conds, sides) if s == 0]))


def _combine(events: list[tuple[Access, int]], pos: dict, memo: dict, kernel: str) -> Expr:
    """One element function from the stores of complementary data-dependent paths:
    selp(c1, v1, selp(c2, v2, ...)) with the last path's value unconditional (the paths cover every input)."""
    last: dict[tuple, tuple[Access, int]] = {}
    for a, c in events:  # a path that stores one element twice: the later store wins
        last[tuple(id(x) for x in a.conds)] = (a, c)
    chosen = list(last.values())
    if not _complete([a.conds for a, _ in chosen]):
        raise PtxUnsupportedError(f"{kernel}: PTX line(s) {sorted({a.line for a, _ in chosen})} store an element "
                                  "on some data-dependent paths only; the PTX level needs every path to store it")
    f = _value(chosen[-1][0].values[chosen[-1][1]], pos, memo, chosen[-1][0].mask)
    for a, c in reversed(chosen[:-1]):
        cond = _rename(a.conds[0], pos, memo)
        for extra in a.conds[1:]:
            cond = Expr("op", "pred", op=Op("and", "pred"), args=(cond, _rename(extra, pos, memo)), text="and.pred",
                        line=a.line)
        f = Expr("op", "f32", op=Op("selp", "f32"), args=(_value(a.values[c], pos, memo, a.mask), f, cond),
                 text="selp.f32", line=a.line)
    return f
