"""From a ``.cu`` file to PTX element functions and its PTX-level accesses (stage: floats/ptx).

``extract(cu, flags, arch)`` compiles with nvcc, parses the kernel's PTX and runs every thread of the
launches in ``SIZES`` (every n in 1..64 and the neighbours of 128, 256, 1024) at once (``execute.run``).
Each store must write ``out[k] = f(in0[k], in1[k], ...)``: every load feeding the stored value read the
stored element's index. The distinct ``f`` (``execute.Expr`` over ``arg`` j = the j-th input array in
parameter order) are the kernel's element functions at the PTX level. The launch comes from the ``.cu``
file's ``// launch: grid = ..., block = ...`` comment (default ``(n + 255) / 256`` blocks of 256), read with
the restricted expression parser, never evaluated as code.

Limits: stores under a data-dependent branch are refused (nvcc emitted ``selp`` for every corpus kernel);
a thread storing one element twice is checked store by store.
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
    inputs: tuple[int, ...]  # pointer parameters read, in order: spec arguments 0, 1, ...
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
    if len(stored) != 1:
        return Extraction(inputs=tuple(loads), output=stored[0] if stored else -1, functions=(), sites=(),
                          problem=f"the kernel stores to {len(stored)} arrays; one output array is modelled", **common)
    out = stored[0]
    inputs = tuple(j for j in loads if j != out)
    if out in loads:
        return Extraction(inputs=inputs, output=out, functions=(), sites=(),
                          problem=f"the kernel reads its output array {names[out]}", **common)
    pos = {j: i for i, j in enumerate(inputs)}
    memo: dict = {}
    fns: dict[Expr, list[int]] = {}
    for a in accesses:
        if a.kind != "store":
            continue
        if a.conds:
            raise PtxUnsupportedError(f"PTX line {a.line} of {k.name}: a store under a data-dependent branch is "
                                      "not modelled by the PTX level")
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
                e = _rename(v.expr, pos, memo)
            else:
                live = np.broadcast_to(np.asarray(v), a.mask.shape)[a.mask]
                if not (live == live[0]).all():
                    return Extraction(inputs=inputs, output=out, functions=(), sites=(), **common,
                                      problem=f"PTX line {a.line}: the stored constant depends on the thread")
                e = Expr("const", "f32", int(live[0]))
            fns.setdefault(e, []).append(a.line)
    return Extraction(inputs=inputs, output=out, functions=tuple(fns), problem="",
                      sites=tuple(", ".join(str(x) for x in sorted(set(v))) for v in fns.values()), **common)
