"""Safety gate and elementwise shape of a parsed kernel under its launch configuration (stage: floats).

``gate`` enumerates every thread of the launch for each element count ``n`` in ``GATE_SIZES`` (all of
1..1024, so every residue modulo any vector width up to 1024 occurs, plus a few large counts) and evaluates
each access's guard and index exactly (C integer semantics, vectorized over threads). It reports:

- out of bounds: a load or store that happens (its guard holds) at an index outside ``[0, n)``;
- misaligned: a float4/float2 access whose first element is not a multiple of its width;
- overlap: two different threads that store the same element (a write-write race);
- missing: an element of the output that no thread writes.

The first three make a kernel **unsafe** (``Safety.safe`` is False); a missing element alone is a different
bug, reported as **output not fully written** (``Safety.complete`` is False): no access is out of bounds and
no two threads race, but the result holds whatever the buffer held before (``empty_like``'s garbage).

Shared memory and barriers (issue 25 item 4) are outside this one-thread-per-element model: kernels whose
threads share data are interpreted thread by thread by the block level, whose gate is ``block_safety``
(``workbench.floats.block.check_safety``): races between barriers, barriers under divergent control flow,
out-of-bounds shared indices and uninitialised shared reads, each with threads, address and line, decided
per launched configuration at the shapes it names (docs/floats-block.md).

The claim is bounded by what was enumerated: "safe for every n in 1..1024 and {...}", never for all n.
``element_functions`` shows that each store writes ``out[i] = f(in0[i], in1[i], ...)`` (every load of the
stored value reads the stored element's index) and returns the distinct ``f`` as IR over ARG nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from workbench.floats.cuda import Access, Kernel
from workbench.floats.errors import CudaUnsupportedError
from workbench.floats.evaluate import evaluate, evaluate_all
from workbench.floats.ir import Node, Op, arg, substitute, walk

def block_safety(reference, answer, options=None):
    """The gate for kernels that share data between threads: ``workbench.floats.block.check_safety``."""
    from workbench.floats.block import BlockOptions, check_safety

    return check_safety(reference, answer, options or BlockOptions())


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
    unmodelled: tuple[int, ...] = ()  # sizes left out: more grid-stride trips than the frontend unrolled
    complete: bool = True  # every output element is written by some thread (False: "output not fully written")

    def summary(self) -> str:
        if self.safe and self.complete:
            return f"safe: every store in bounds, aligned and written by one thread, for {self.checked}"
        bad = self.failing_sizes
        resid = sorted({n % 4 for n in bad})
        extra = f"; fails for {len(bad)} of the checked sizes (n mod 4 in {resid})" if bad else ""
        if self.safe:
            return ("output not fully written (no access out of bounds, misaligned or racing): " +
                    "; ".join(f.describe() for f in self.findings) + extra)
        return "unsafe: " + "; ".join(f.describe() for f in self.findings) + extra


def findings_safety(findings: tuple[Finding, ...], failing: tuple[int, ...], checked: str,
                    unmodelled: tuple[int, ...] = ()) -> Safety:
    """The gate's result from its findings: "missing" makes the output incomplete, every other kind unsafe."""
    return Safety(safe=not any(f.kind != "missing" for f in findings), findings=findings, failing_sizes=failing,
                  checked=checked, unmodelled=unmodelled, complete=not any(f.kind == "missing" for f in findings))


def thread_env(kernel: Kernel, sizes) -> dict:
    """One row per (n, thread) for every n in ``sizes``: the launch's index variables as int64 arrays."""
    ns, ts, blocks, grids = [], [], [], []
    for n in (sizes if isinstance(sizes, (tuple, list)) else (sizes,)):
        grid, block = kernel.launch.sizes(n, empty_grid=True)  # 0 blocks: no thread runs (a failed launch)
        k = grid * block
        ns.append(np.full(k, n, dtype=np.int64))
        ts.append(np.arange(k, dtype=np.int64))
        blocks.append(np.full(k, block, dtype=np.int64))
        grids.append(np.full(k, grid, dtype=np.int64))
    n, t, b, g = (np.concatenate(x) for x in (ns, ts, blocks, grids))
    env = {"threadIdx.x": t % b, "blockIdx.x": t // b, "blockDim.x": b, "gridDim.x": g, "n": n, "__tid": t}
    for axis in ("y", "z"):
        env[f"threadIdx.{axis}"] = np.int64(0)
        env[f"blockIdx.{axis}"] = np.int64(0)
        env[f"blockDim.{axis}"] = np.int64(1)
        env[f"gridDim.{axis}"] = np.int64(1)
    return env


def _mask_index(a: Access, env: dict, rows: int):
    mask = np.broadcast_to(np.asarray(evaluate(a.guard, env), dtype=bool), (rows,))
    idx = np.broadcast_to(np.asarray(evaluate(a.index, env), dtype=np.int64), (rows,))
    return mask, idx


def _batches(sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Small sizes together (one vectorized pass), each large size alone (bounded memory)."""
    small = tuple(n for n in sizes if n <= 4096)
    return ([small] if small else []) + [(n,) for n in sizes if n > 4096]


def unrolled_sizes(kernel: Kernel, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split ``sizes`` into those where every grid-stride loop ends within its unrolled trips (the model is
    complete there) and those where some thread would run more trips (not modelled: excluded from claims)."""
    trips = [a for a in kernel.accesses if a.kind == "trip"]
    if not trips:
        return tuple(sizes), ()
    over: set[int] = set()
    for batch in _batches(tuple(sizes)):
        env = thread_env(kernel, batch)
        rows = len(env["__tid"])
        for a in trips:
            mask = np.broadcast_to(np.asarray(evaluate(a.guard, env), dtype=bool), (rows,))
            over |= {int(x) for x in np.unique(env["n"][mask])}
    return tuple(n for n in sizes if n not in over), tuple(n for n in sizes if n in over)


def gate(kernel: Kernel, sizes: tuple[int, ...] = GATE_SIZES, advance=None) -> Safety:
    """``advance(k)``, when given, is told each time k more sizes are checked (progress on a terminal)."""
    if len(kernel.outputs) > 1:  # one gate per output array (overlap and missing elements are per array)
        parts = [gate(kernel.only(o), sizes, advance) for o in kernel.outputs]
        findings = tuple(dict.fromkeys(f for p in parts for f in p.findings))
        return Safety(safe=all(p.safe for p in parts), findings=findings,
                      failing_sizes=tuple(sorted({n for p in parts for n in p.failing_sizes})),
                      checked=parts[0].checked, unmodelled=parts[0].unmodelled,
                      complete=all(p.complete for p in parts))
    first: dict[str, Finding] = {}
    failing: set[int] = set()
    sizes, unmodelled = unrolled_sizes(kernel, tuple(sizes))
    if not sizes:
        return Safety(safe=False, findings=(), failing_sizes=(), checked="no size: every checked n needs more "
                      "grid-stride trips than are unrolled", unmodelled=unmodelled)
    if advance is not None and unmodelled:
        advance(len(unmodelled))
    for batch in _batches(tuple(sizes)):
        for f in _check_sizes(kernel, batch):
            failing.add(f.n)
            if f.kind not in first or f.n < first[f.kind].n:
                first[f.kind] = f
        if advance is not None:
            advance(len(batch))
    order = ("overlap", "out of bounds", "misaligned", "missing")
    findings = tuple(sorted(first.values(), key=lambda f: order.index(f.kind)))
    small = [s for s in sizes if s <= 1024]
    large = [s for s in sizes if s > 1024]
    checked = f"n = {min(small)}..{max(small)}" if small else ""
    if len(small) != (max(small) - min(small) + 1 if small else 0):
        checked = f"{len(small)} sizes in n = {min(small)}..{max(small)}"
    if large:
        checked += (" and " if checked else "") + f"n in {{{', '.join(str(s) for s in large)}}}"
    if unmodelled:
        checked += (f" (not checked: {len(unmodelled)} sizes from n = {min(unmodelled)} on, where a thread runs "
                    "more grid-stride trips than are unrolled)")
    return findings_safety(findings, tuple(sorted(failing)), checked, unmodelled)


def _first_per_n(kind: str, mask, nrow, tid, idx, line: int, array: str, access: str, other=None) -> list[Finding]:
    """The first offending row of each n (rows are ordered by n, then thread)."""
    rows = np.flatnonzero(mask)
    if not len(rows):
        return []
    _, firsts = np.unique(nrow[rows], return_index=True)
    out = []
    for j in rows[firsts]:
        out.append(Finding(kind, int(nrow[j]), int(tid[j]), array, int(idx[j]), line,
                           other_thread=None if other is None else int(other[j]), access=access))
    return out


def _check_sizes(kernel: Kernel, sizes: tuple[int, ...]) -> list[Finding]:
    env = thread_env(kernel, sizes)
    tid, nrow = env["__tid"], env["n"]
    rows = len(tid)
    out: list[Finding] = []
    memory = kernel.memory
    nodes = [x for a in memory for x in (a.guard, a.index, a.align if a.align is not None else a.index)]
    vals = evaluate_all(nodes, env)
    w_n, w_idx, w_tid, w_line = [], [], [], []
    for k, a in enumerate(memory):
        mask = np.broadcast_to(np.asarray(vals[3 * k], dtype=bool), (rows,))
        if not mask.any():
            continue
        idx = np.broadcast_to(np.asarray(vals[3 * k + 1], dtype=np.int64), (rows,))
        out += _first_per_n("out of bounds", mask & ((idx < 0) | (idx >= nrow)), nrow, tid, idx, a.line, a.array,
                            a.kind)
        if a.align is not None:
            base = np.broadcast_to(np.asarray(vals[3 * k + 2], dtype=np.int64), (rows,))
            out += _first_per_n("misaligned", mask & (base % a.width != 0), nrow, tid, base, a.line, a.array, a.kind)
        if a.kind == "store":
            w_n.append(nrow[mask])
            w_idx.append(idx[mask])
            w_tid.append(tid[mask])
            w_line.append(np.full(int(mask.sum()), a.line))
    if w_idx:
        n_, idx, th, ln = (np.concatenate(x) for x in (w_n, w_idx, w_tid, w_line))
        # sort by (n, element): equal elements of one n become adjacent; within such a run any two
        # different adjacent threads reveal a write-write overlap (stable sort keeps thread order)
        key = (n_ << 34) + (idx + (1 << 33))
        order = np.argsort(key, kind="stable")
        n_, idx, th, ln, key = n_[order], idx[order], th[order], ln[order], key[order]
        same_elem = key[1:] == key[:-1]
        clash = same_elem & (th[1:] != th[:-1])
        out += _first_per_n("overlap", np.concatenate([[False], clash]), n_, th, idx, 0, kernel.output, "store",
                            other=np.concatenate([[0], th[:-1]]))
        out = [replace(f, line=int(ln[np.flatnonzero((n_ == f.n) & (idx == f.index) & (th == f.thread))[0]]),
                       thread=max(f.thread, f.other_thread), other_thread=min(f.thread, f.other_thread))
               if f.kind == "overlap" else f for f in out]
        inb = (idx >= 0) & (idx < n_)
        distinct = inb & np.concatenate([[True], ~same_elem])
        covered = np.bincount(n_[distinct], minlength=max(sizes) + 1)
    else:
        covered = np.zeros(max(sizes) + 1, dtype=np.int64)
    for n in sizes:
        if covered[n] != n:
            written = np.zeros(n, dtype=bool)
            if w_idx:
                sel = inb & (n_ == n)
                written[idx[sel]] = True
            e = int(np.flatnonzero(~written)[0])
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
        bad = [x for x in walk(a.value) if _index_leaf(x)]
        if bad and not _only_inside_loads(a.value):
            raise CudaUnsupportedError(
                f"the value stored at {kernel.path.split('/')[-1]}:{a.line} depends on `{bad[0].name}`, not only on "
                "loaded elements; an elementwise kernel computes out[i] from in[i] alone", construct="index-dependent value",
                line=a.line)
    for batch in _batches(tuple(sizes)):
        env = thread_env(kernel, batch)
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
                    problems.append(f"line {a.line}: thread {int(env['__tid'][j])} stores {a.array}[{int(sidx[j])}] "
                                    f"from {ld.name}[{int(lidx[j])}] when n = {int(env['n'][j])}")
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
        f = substitute(a.value, lambda x, args: arg(kernel.inputs.index(x.name), x.ty)
                       if x.op is Op.LOAD or (x.op is Op.PARAM and x.ty.is_float) else None)
        if f in funcs:
            i = funcs.index(f)
            if a.line not in lines[i]:
                lines[i].append(a.line)
        else:
            funcs.append(f)
            lines.append([a.line])
    return Shape(True, tuple(funcs), tuple(tuple(sorted(x)) for x in lines))


def _index_leaf(n: Node) -> bool:
    """A thread index or the element count (a float PARAM is a scalar input, not an index)."""
    return n.op is Op.THREAD or (n.op is Op.PARAM and not n.ty.is_float)


def _only_inside_loads(value: Node) -> bool:
    """True when every THREAD/PARAM node of ``value`` sits inside a LOAD's index."""
    def visit(n: Node) -> bool:
        if n.op is Op.LOAD:
            return True
        if _index_leaf(n):
            return False
        return all(visit(a) for a in n.args)

    return visit(value)


__all__ = ["GATE_SIZES", "Finding", "Safety", "Shape", "gate", "element_functions", "findings_safety", "thread_env"]
