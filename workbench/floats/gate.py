"""Safety gate and elementwise shape of a parsed kernel under its launch configuration (stage: floats).

``gate`` enumerates every thread of the launch for each element count ``n`` in ``GATE_SIZES`` (all of
1..1024, so every residue modulo any vector width up to 1024 occurs, plus a few large counts) and evaluates
each access's guard and index exactly (C integer semantics, vectorized over threads). It reports:

- out of bounds: a load or store that happens (its guard holds) at an index outside ``[0, n)``;
- misaligned: a float4/float2 access whose first element is not a multiple of its width;
- overlap: two different threads that store the same element (a write-write race);
- missing: an element of the output that no thread writes.

The claim is bounded by what was enumerated: "safe for every n in 1..1024 and {...}", never for all n.
``element_functions`` shows that each store writes ``out[i] = f(in0[i], in1[i], ...)`` (every load of the
stored value reads the stored element's index) and returns the distinct ``f`` as IR over ARG nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.floats.cuda import Access, Kernel
from workbench.floats.errors import CudaUnsupportedError
from workbench.floats.evaluate import evaluate, evaluate_all
from workbench.floats.ir import Node, Op, Ty, arg, substitute, walk

GATE_SIZES = tuple(range(1, 1025)) + (4093, 4094, 4095, 4096, 4097, 65535, 65536, 65537, (1 << 20) + 3)
SHAPE_SIZES = tuple(range(1, 130)) + (1023, 1024, 1025, 4097)


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # "out of bounds" | "misaligned" | "overlap" | "missing"
    n: int
    thread: int
    array: str
    index: int
    line: int
    other_thread: int | None = None
    access: str = "store"

    def describe(self) -> str:
        match self.kind:
            case "overlap":
                return (f"overlap: threads {self.other_thread} and {self.thread} both store {self.array}[{self.index}] "
                        f"when n = {self.n} (line {self.line})")
            case "out of bounds":
                return (f"out of bounds: thread {self.thread} {self.access}s {self.array}[{self.index}] "
                        f"when n = {self.n} (line {self.line})")
            case "misaligned":
                return (f"misaligned: thread {self.thread} makes a vector {self.access} at {self.array}[{self.index}] "
                        f"when n = {self.n} (line {self.line})")
            case "missing":
                return f"missing: no thread writes {self.array}[{self.index}] when n = {self.n}"
        raise AssertionError(self.kind)


@dataclass(frozen=True, slots=True)
class Safety:
    safe: bool
    findings: tuple[Finding, ...]  # the first finding of each kind, smallest n first
    failing_sizes: tuple[int, ...]  # every checked n with a finding
    checked: str

    def summary(self) -> str:
        if self.safe:
            return f"safe: every store in bounds, aligned and written by one thread, for {self.checked}"
        bad = self.failing_sizes
        resid = sorted({n % 4 for n in bad})
        extra = f"; fails for {len(bad)} of the checked sizes (n mod 4 in {resid})" if bad else ""
        return "unsafe: " + "; ".join(f.describe() for f in self.findings) + extra


def thread_env(kernel: Kernel, n: int) -> dict:
    grid, block = kernel.launch.sizes(n)
    t = np.arange(grid * block, dtype=np.int64)
    env = {"threadIdx.x": t % block, "blockIdx.x": t // block, "blockDim.x": np.int64(block),
           "gridDim.x": np.int64(grid), "n": np.int64(n), "__tid": t}
    for axis in ("y", "z"):
        env[f"threadIdx.{axis}"] = np.int64(0)
        env[f"blockIdx.{axis}"] = np.int64(0)
        env[f"blockDim.{axis}"] = np.int64(1)
        env[f"gridDim.{axis}"] = np.int64(1)
    return env


def _mask_index(a: Access, env: dict, nthreads: int):
    mask = np.broadcast_to(np.asarray(evaluate(a.guard, env), dtype=bool), (nthreads,))
    idx = np.broadcast_to(np.asarray(evaluate(a.index, env), dtype=np.int64), (nthreads,))
    return mask, idx


def gate(kernel: Kernel, sizes: tuple[int, ...] = GATE_SIZES) -> Safety:
    first: dict[str, Finding] = {}
    failing: list[int] = []
    for n in sizes:
        env = thread_env(kernel, n)
        tid = env["__tid"]
        found = _check_size(kernel, n, env, tid)
        if found:
            failing.append(n)
            for f in found:
                first.setdefault(f.kind, f)
    order = ("overlap", "out of bounds", "misaligned", "missing")
    findings = tuple(sorted(first.values(), key=lambda f: order.index(f.kind)))
    small = [s for s in sizes if s <= 1024]
    checked = f"n = {min(small)}..{max(small)} and n in {{{', '.join(str(s) for s in sizes if s > 1024)}}}"
    return Safety(safe=not findings, findings=findings, failing_sizes=tuple(failing), checked=checked)


def _check_size(kernel: Kernel, n: int, env: dict, tid) -> list[Finding]:
    out: list[Finding] = []
    nt = len(tid)
    writes_idx, writes_tid, writes_line = [], [], []
    vals = evaluate_all([x for a in kernel.accesses for x in (a.guard, a.index)], env)
    for k, a in enumerate(kernel.accesses):
        mask = np.broadcast_to(np.asarray(vals[2 * k], dtype=bool), (nt,))
        if not mask.any():
            continue
        idx = np.broadcast_to(np.asarray(vals[2 * k + 1], dtype=np.int64), (nt,))
        oob = mask & ((idx < 0) | (idx >= n))
        if oob.any():
            j = int(np.flatnonzero(oob)[0])
            out.append(Finding("out of bounds", n, int(tid[j]), a.array, int(idx[j]), a.line, access=a.kind))
        if a.align is not None:
            base = np.broadcast_to(np.asarray(evaluate(a.align, env), dtype=np.int64), (nt,))
            mis = mask & (base % a.width != 0)
            if mis.any():
                j = int(np.flatnonzero(mis)[0])
                out.append(Finding("misaligned", n, int(tid[j]), a.array, int(base[j]), a.line, access=a.kind))
        if a.kind == "store":
            writes_idx.append(idx[mask])
            writes_tid.append(tid[mask])
            writes_line.append(np.full(int(mask.sum()), a.line))
    if writes_idx:
        idx = np.concatenate(writes_idx)
        th = np.concatenate(writes_tid)
        ln = np.concatenate(writes_line)
        order = np.lexsort((th, idx))
        idx, th, ln = idx[order], th[order], ln[order]
        clash = (idx[1:] == idx[:-1]) & (th[1:] != th[:-1])
        if clash.any():
            j = int(np.flatnonzero(clash)[0])
            out.append(Finding("overlap", n, int(th[j + 1]), kernel.output, int(idx[j]), int(ln[j + 1]),
                               other_thread=int(th[j])))
        inb = idx[(idx >= 0) & (idx < n)]
        covered = np.zeros(n, dtype=bool)
        covered[inb] = True
    else:
        covered = np.zeros(n, dtype=bool)
    if not covered.all():
        e = int(np.flatnonzero(~covered)[0])
        out.append(Finding("missing", n, -1, kernel.output, e, kernel.line))
    return out


@dataclass(frozen=True, slots=True)
class Shape:
    """How the kernel's stores relate to the spec: elementwise with these distinct scalar functions, or not."""

    elementwise: bool
    functions: tuple[Node, ...]
    lines: tuple[tuple[int, ...], ...]  # source lines of the stores computing each function
    problem: str = ""


def element_functions(kernel: Kernel, sizes: tuple[int, ...] = SHAPE_SIZES) -> Shape:
    problems: list[str] = []
    for a in kernel.stores:
        bad = [x for x in walk(a.value) if x.op in (Op.THREAD, Op.PARAM)]
        if bad and not _only_inside_loads(a.value):
            raise CudaUnsupportedError(
                f"the value stored at {kernel.path.split('/')[-1]}:{a.line} depends on `{bad[0].name}`, not only on "
                "loaded elements; an elementwise kernel computes out[i] from in[i] alone", construct="index-dependent value",
                line=a.line)
    for n in sizes:
        env = thread_env(kernel, n)
        nt = len(env["__tid"])
        for a in kernel.stores:
            mask, sidx = _mask_index(a, env, nt)
            if not mask.any():
                continue
            for ld in (x for x in walk(a.value) if x.op is Op.LOAD):
                lidx = np.broadcast_to(np.asarray(evaluate(ld.args[0], env), dtype=np.int64), (nt,))
                diff = mask & (lidx != sidx)
                if diff.any():
                    j = int(np.flatnonzero(diff)[0])
                    problems.append(f"line {a.line}: thread {j} stores {a.array}[{int(sidx[j])}] from "
                                    f"{ld.name}[{int(lidx[j])}] when n = {n}")
                    break
            if problems:
                break
        if problems:
            break
    if problems:
        return Shape(False, (), (), "not elementwise: " + problems[0])
    funcs: list[Node] = []
    lines: list[list[int]] = []
    for a in kernel.stores:
        f = substitute(a.value, lambda x, args: arg(kernel.inputs.index(x.name)) if x.op is Op.LOAD else None)
        if f in funcs:
            i = funcs.index(f)
            if a.line not in lines[i]:
                lines[i].append(a.line)
        else:
            funcs.append(f)
            lines.append([a.line])
    return Shape(True, tuple(funcs), tuple(tuple(sorted(x)) for x in lines))


def _only_inside_loads(value: Node) -> bool:
    """True when every THREAD/PARAM node of ``value`` sits inside a LOAD's index."""
    def visit(n: Node) -> bool:
        if n.op is Op.LOAD:
            return True
        if n.op in (Op.THREAD, Op.PARAM):
            return False
        return all(visit(a) for a in n.args)

    return visit(value)


__all__ = ["GATE_SIZES", "Finding", "Safety", "Shape", "gate", "element_functions", "thread_env", "Ty"]
