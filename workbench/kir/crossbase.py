"""What the cross-checks share: shapes, lanes, reports, index data and the interpreter worker.

Stage: kir. The pointwise cross-check (:mod:`workbench.kir.crosscheck`), the reduction cross-check
(:mod:`workbench.kir.redcross`), whole-kernel runs (:mod:`workbench.kir.wholerun`) and the generated-kernel
differential (:mod:`workbench.kir.differential`) all sample shapes that respect the recorded guards (plus the
one past the int32 guard), pick lanes at block, row and segment boundaries, fill index tensors within every
premise and run Triton's interpreter in one subprocess (``workbench.kir.interp``). Those pieces live here, a
layer below every driver, so no driver imports another (``crosscheck`` <-> ``redcross`` was a circle).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from workbench.errors import WorkbenchError
from workbench.kir.errors import EvaluationError
from workbench.kir.evaluator import Lane, launch
from workbench.kir.modes import NARROW, WIDE, Mode
from workbench.kir.nodes import Kernel
from workbench.kir.types import IntType


INT32_MAX = (1 << 31) - 1
MODES: tuple[Mode, ...] = (WIDE, NARROW)
CONTROL = Mode(size_args=8)


class CrosscheckError(WorkbenchError):
    """The interpreter subprocess failed (its stderr tail is in the message)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    kernel: str
    mode: str
    sizes: tuple[tuple[str, int], ...]
    lane: Lane
    access: str  # "load 3" / "store 0"
    evaluator: tuple
    interpreter: tuple


@dataclass(slots=True)
class KernelReport:
    program: str
    kernel: str
    status: str  # "compared" | "refused: <construct>"
    lanes: int = 0
    lanes_by_mode: dict[str, int] = field(default_factory=dict)
    mismatches: list[Mismatch] = field(default_factory=list)
    undefined: int = 0
    shapes: list[tuple[str, tuple[tuple[str, int], ...], int]] = field(default_factory=list)  # (label, sizes, numel)


@dataclass(frozen=True, slots=True)
class _Case:
    label: str
    sizes: tuple[tuple[str, int], ...]
    mode: Mode
    blocks: tuple[tuple[str, int], ...]
    lanes: tuple[Lane, ...]


# -- shapes --------------------------------------------------------------------------------------------------


def _guards_hold(guards: Sequence, values: dict[str, int]) -> bool:
    import sympy

    for g in guards:
        sub = {s: sympy.Integer(values[str(s)]) for s in g.free_symbols if str(s) in values}
        try:
            v = g.xreplace(sub)
            if v is sympy.false or v == False:  # noqa: E712 - sympy booleans
                return False
            if v is not sympy.true and v != True:  # noqa: E712
                v = bool(v.simplify())
                if not v:
                    return False
        except (TypeError, ZeroDivisionError):
            return False
    return True


def _numel(ck, values: dict[str, int]) -> int:
    from workbench.kir.evaluator import _eval_expr

    out = 1
    for n in ck.numels:
        if n.expr:
            out *= max(1, _eval_expr(n.expr, tuple(sorted(values.items()))))
    return out


def _shapes(ck, rng: random.Random) -> list[tuple[str, dict[str, int]]]:
    from workbench.kir.evaluator import _parse_size

    syms = [s.name for s in ck.symbols]
    lower = {s.name: max(1, s.lower or 1) for s in ck.symbols}
    # A guard on symbols this kernel does not have (another kernel's of the same graph) constrains nothing
    # here; kept, it could never be decided and no shape would be drawn.
    guards = [g for g in (_parse_size(g) for g in ck.guards) if {str(x) for x in g.free_symbols} <= set(syms)]

    def draw(hi: int) -> dict[str, int]:
        for _ in range(400):
            v = {s: rng.randint(lower[s], max(lower[s], hi)) for s in syms}
            if _guards_hold(guards, v):
                return v
        for hi2 in range(2, 64):  # deterministic fallback: small even/odd values
            v = {s: max(lower[s], hi2 + (i % 2)) for i, s in enumerate(syms)}
            if _guards_hold(guards, v):
                return v
        raise EvaluationError(f"{ck.name}: no shape satisfies the guards {ck.guards}")

    small = draw(9)
    medium = draw(300)
    near = dict(draw(40))
    numel_syms = [s for s in syms if any(s in (n.expr or "") for n in ck.numels)] or syms
    pick = rng.choice(numel_syms)
    base = near[pick]
    lo, hi = 1, (1 << 31) // max(1, base)
    while lo < hi:  # largest multiple of ``pick``'s value with the guards holding (they bound numel by 2**31-1);
        mid = (lo + hi + 1) // 2  # multiples keep divisibility guards such as "s is even" true
        trial = dict(near, **{pick: base * mid})
        if _guards_hold(guards, trial) and _numel(ck, trial) <= INT32_MAX:
            lo = mid
        else:
            hi = mid - 1
    near[pick] = base * lo
    past = dict(near)
    past[pick] = near[pick] * 2
    return [("small", small), ("medium", medium), ("near 2**31-1", near), ("past the guard", past)]


# -- lanes ---------------------------------------------------------------------------------------------------


def _axis_candidates(n: int, block: int, gridn: int, sizes: Iterable[int], rng: random.Random, want: int) -> list[int]:
    limit = max(1, gridn * block)
    cands = {0, 1, block - 1, block, block + 1, n - 1, n, n + 1, limit - 1, limit - block}
    vals = sorted({v for v in sizes if 0 < v < limit})
    prefix = 0
    for v in vals:
        prefix += v
        cands.add(prefix)
    for v in vals + [prefix]:
        if v <= 0:
            continue
        for m in (1, 2, max(1, n // v - 1), max(1, n // v), rng.randint(1, max(1, n // v))):
            for d in (-1, 0, 1):
                cands.add(m * v + d)
        row = rng.randint(0, max(0, n // max(1, v)))
        for w in vals:
            for d in (-1, 0, 1):
                cands.add(row * v + w + d)
    out = sorted(c for c in cands if 0 <= c < limit)
    while len(out) < want * 2:
        out.append(rng.randrange(limit))
    return out


MAX_PROGRAMS = 12  # programs run per case: the interpreter computes whole blocks, so lanes share programs


def _pick_programs(cands: list[int], block: int, rng: random.Random, count: int) -> list[int]:
    pids = sorted({c // block for c in cands})
    keep = {pids[0], pids[-1]}
    rest = [p for p in pids if p not in keep]
    keep |= set(rng.sample(rest, min(len(rest), max(0, count - 2))))
    return sorted(keep)


def _fill(chosen: set, limit: int, draw, want: int) -> None:
    tries = 0
    while len(chosen) < min(want, limit) and tries < want * 20:
        chosen.add(draw())
        tries += 1


def _lanes(k: Kernel, ln, rng: random.Random, want: int) -> tuple[Lane, ...]:
    """Lanes at block, row and segment boundaries (and random ones), grouped into a few programs."""
    args = dict(ln.args)
    blocks = dict(ln.blocks)
    sizes = [v for name, v in args.items() if name.startswith("ks")]
    xb = blocks.get("XBLOCK", 1)
    xs = _axis_candidates(args.get("xnumel", 1), xb, ln.grid[0], sizes, rng, want)
    if k.grid == "1d":
        pids = _pick_programs(xs, xb, rng, MAX_PROGRAMS)
        pid_set = set(pids)
        chosen = {x for x in xs if x // xb in pid_set}
        if len(chosen) > want:
            chosen = set(rng.sample(sorted(chosen), want)) | {x for x in xs[:4] + xs[-4:] if x // xb in pid_set}
        _fill(chosen, len(pids) * xb, lambda: rng.choice(pids) * xb + rng.randrange(xb), want)
        return tuple(Lane((x // xb, 0, 0), (("XBLOCK", x % xb),), ln.grid) for x in sorted(chosen))
    yb = blocks.get("YBLOCK", 1)
    gy = max(1, ln.grid[1])
    ys = _axis_candidates(args.get("ynumel", 1), yb, gy * max(1, ln.grid[2]), sizes, rng, want)
    xp = _pick_programs(xs, xb, rng, 4)
    yp = _pick_programs(ys, yb, rng, 3)
    xin = [x for x in xs if x // xb in set(xp)]
    yin = [y for y in ys if y // yb in set(yp)]
    pairs = {(rng.choice(xin), rng.choice(yin)) for _ in range(want)} | {(xin[0], yin[0]), (xin[-1], yin[-1])}
    _fill(pairs, len(xp) * xb * len(yp) * yb,
          lambda: (rng.choice(xp) * xb + rng.randrange(xb), rng.choice(yp) * yb + rng.randrange(yb)), want)
    lanes = []
    for x, y in sorted(pairs):
        yblock = y // yb
        lanes.append(Lane((x // xb, yblock % gy, yblock // gy), (("XBLOCK", x % xb), ("YBLOCK", y % yb)), ln.grid))
    return tuple(lanes)


def plan(k: Kernel, ck, lanes: int = 300, seed: int = 0) -> list[_Case]:
    """The cases compared for one kernel: 4 shapes x 2 modes, lanes split so each mode gets >= ``lanes``."""
    rng = random.Random(f"{seed}:{k.program}:{k.name}")
    per_shape = math.ceil(lanes / 4) + 2
    block_choices = [{"XBLOCK": 64}, {"XBLOCK": 128}, {"XBLOCK": 1024}, {"XBLOCK": 256}] if k.grid == "1d" else [
        {"XBLOCK": 16, "YBLOCK": 16}, {"XBLOCK": 32, "YBLOCK": 8}, {"XBLOCK": 64, "YBLOCK": 64}, {"XBLOCK": 8, "YBLOCK": 32}]
    cases = []
    owed = 0  # lanes a small shape could not supply are asked of the next shapes
    shapes = _shapes(ck, rng)
    for i, ((label, sizes), blocks) in enumerate(zip(shapes, block_choices)):
        ln = launch(k, sizes, blocks)
        chosen = _lanes(k, ln, rng, per_shape + owed)
        owed = max(0, per_shape + owed - len(chosen))
        for mode in MODES:
            cases.append(_Case(label, tuple(sorted(sizes.items())), mode, tuple(sorted(blocks.items())), chosen))
    return cases


# -- running -------------------------------------------------------------------------------------------------


def _bases(k: Kernel) -> dict[str, int]:
    return {p.name: (i + 1) << 44 for i, p in enumerate(p for p in k.params if p.kind == "pointer")}


def _job_kernel(k: Kernel, ck, cases: list[_Case]) -> dict:
    jcases = []
    for c in cases:
        ln = launch(k, dict(c.sizes), dict(c.blocks))
        scalars = {}
        for p in k.params:
            if p.kind in ("pointer", "constexpr"):
                continue
            bits = c.mode.param_type(p).bits  # type: ignore[union-attr]
            scalars[p.name] = [ln.arg(p.name), bits]
        groups: dict[tuple[int, int, int], list[list[int]]] = {}
        for lane in c.lanes:
            pos = [lane.pos("YBLOCK"), lane.pos("XBLOCK")] if k.grid == "2d" else [lane.pos("XBLOCK")]
            groups.setdefault(lane.program_id, []).append(pos)
        jcases.append({
            "data": {p: list(v) for p, v in index_data(k, ln).items()},
            "scalars": scalars,
            "constexprs": dict(c.blocks),
            "grid": list(ln.grid),
            "pids": [[list(pid), pos] for pid, pos in sorted(groups.items())],
        })
    return {
        "name": k.name,
        "jit_source": ck.jit_source,
        "pointers": [[p.name, str(p.type)] for p in k.params if p.kind == "pointer"],
        "cases": jcases,
    }


def index_data(k: Kernel, ln) -> dict[str, tuple[int, int]]:
    """The index tensors' contents for a launch, *in range* of every device_assert premise: per integer
    pointer whose load feeds an asserted index, ``(lo, span)`` with values ``lo + (offset*7 + 3) mod span``.
    ``span`` is the smallest asserted upper bound (a size argument or a literal); an index wrapped by
    ``tl.where`` (negative indices count from the end) gets values in ``[-span, span)``, so both branches run."""
    from workbench.kir.nodes import walk
    from workbench.kir.ops import Op

    args = dict(ln.args)
    spans: dict[str, tuple[bool, int]] = {}  # pointer -> (some use is the load itself, smallest bound)
    for n in walk(*k.loads, *k.stores):
        if n.op is not Op.ASSUME or not n.attr[1]:
            continue
        span = _uniform_value(n.args[-1], args)
        if not span or span < 1:
            continue
        direct = n.args[0].op is Op.LOAD
        for ld in walk(n.args[0]):
            if ld.op is Op.LOAD and isinstance(ld.type, IntType):
                d0, s0 = spans.get(ld.attr, (False, span))
                spans[ld.attr] = (d0 or direct, min(s0, span))
    return {p: (0, span) if direct else (-span, 2 * span) for p, (direct, span) in sorted(spans.items())}


def _uniform_value(n, args: dict[str, int]) -> int | None:
    """The value of a bound built from size arguments and literals (``ks1``, ``2*ks1``), else None."""
    from workbench.kir.ops import Op

    match n.op:
        case Op.ARG:
            return args.get(n.attr)
        case Op.CONST:
            return n.attr[0]
        case Op.CAST | Op.BROADCAST:
            return _uniform_value(n.args[0], args)
        case Op.ADD | Op.SUB | Op.MUL:
            x, y = (_uniform_value(a, args) for a in n.args)
            if x is None or y is None:
                return None
            return x + y if n.op is Op.ADD else x - y if n.op is Op.SUB else x * y
    return None


def data_function(spec: dict[str, tuple[int, int]]):
    """The evaluator's view of :func:`index_data` (the same formula the interpreter worker uses)."""
    if not spec:
        return None

    def data(pointer: str, offset: int) -> int:
        lo, span = spec.get(pointer, (0, 1))
        return lo + (offset * 7 + 3) % span

    return data


def element_sizes(k: Kernel) -> dict[str, int]:
    """Bytes per element of each pointer parameter (at least 1: an int1 is stored as a byte)."""
    return {p.name: max(1, p.type.element.bits // 8) for p in k.params if p.kind == "pointer"}  # type: ignore[union-attr]


def by_program(lanes: Sequence[Lane]) -> list[tuple[tuple[int, int, int], list[Lane]]]:
    """A case's lanes grouped by program id, in the order the worker runs the programs."""
    groups: dict[tuple[int, int, int], list[Lane]] = {}
    for lane in lanes:
        groups.setdefault(lane.program_id, []).append(lane)
    return sorted(groups.items())


def _run_worker(job: dict, timeout: float = 1800) -> list:
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONWARNINGS="ignore")
    proc = subprocess.run(
        [sys.executable, "-m", "workbench.kir.interp"], input=json.dumps(job), capture_output=True, text=True,
        env=env, timeout=timeout,
    )
    if proc.returncode != 0:
        raise CrosscheckError(
            f"Triton interpreter worker failed (exit {proc.returncode}): {proc.stderr[-2000:]}; "
            "run `python -m workbench.kir.interp` with TRITON_INTERPRET=1 to reproduce"
        )
    return json.loads(proc.stdout)
