"""Cross-check: the evaluator against Triton's own interpreter, lane by lane, wide and narrowed.

Stage: kir. For every captured kernel the IR reads, :func:`crosscheck` picks shapes (small, medium, numel
just under the int32 guard, and one past it where int32 index arithmetic wraps), lanes at block, row and
segment boundaries plus random ones, and compares every load's and store's address and mask computed by
:func:`~workbench.kir.evaluate` with what Triton's interpreter computes for the same program, in both the
declared mode (size arguments int64) and the narrowed mode (size arguments int32). The interpreter runs in
one subprocess (``workbench.kir.interp``, ``TRITON_INTERPRET=1``) with loads and stores intercepted, so no
memory is touched. :func:`whole_kernel_runs` runs kernels on small real tensors and compares the output
with eager PyTorch bit for bit.

Sampling is deterministic (``seed``). Shapes respect the kernel's recorded guards except the "past the
guard" shape, which deliberately violates the int32 numel guard to exercise wraparound.
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
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.kir.errors import EvaluationError, UndefinedBehaviour
from workbench.kir.evaluator import NARROW, WIDE, Lane, Mode, evaluate, launch
from workbench.kir.nodes import Kernel
from workbench.kir.parser import parse

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


def crosscheck(records: Sequence, lanes: int = 300, seed: int = 0, control: bool = False) -> list[KernelReport]:
    """Compare evaluator and interpreter on ``records`` (captured kernels); one interpreter subprocess.

    ``control=True`` is the negative control: the interpreter runs the declared kernel while the evaluator
    runs one whose size arguments are 8-bit, so any shape with a size above 127 must show mismatches
    (proves the comparison bites)."""
    from workbench.kir.errors import KernelSourceError, RefusedConstruct

    reports: list[KernelReport] = []
    work = []
    reductions: list = []
    for ck in records:
        try:
            k = parse(ck)
        except (RefusedConstruct, KernelSourceError) as exc:
            reports.append(KernelReport(ck.program, ck.name, f"refused: {getattr(exc, 'construct', exc)}"))
            continue
        if k.reduction is not None:  # per (x, r) lane and per step: workbench.kir.redcross
            reductions.append((k, ck))
            continue
        cases = plan(k, ck, lanes, seed)
        rep = KernelReport(ck.program, ck.name, "compared")
        seen = set()
        for c in cases:
            if c.label not in seen:
                seen.add(c.label)
                rep.shapes.append((c.label, c.sizes, _numel(ck, dict(c.sizes))))
        reports.append(rep)
        work.append((k, ck, cases, rep))
    if reductions:
        from workbench.kir.redcross import crosscheck_reductions

        reports += crosscheck_reductions(reductions, lanes=max(8, lanes // 8), seed=seed, control=control)
    if not work:
        return reports
    if control:
        work = [(k, ck, [c for c in cases if c.mode == WIDE], rep) for k, ck, cases, rep in work]
    from workbench import progress

    with progress.phase(f"crosscheck: {len(work)} kernels under Triton's interpreter"):
        results = _run_worker({"mode": "offsets", "kernels": [_job_kernel(k, ck, cases) for k, ck, cases, _ in work]})
    for (k, ck, cases, rep), kres in progress.track(list(zip(work, results)), desc="compare", unit="kernel"):
        if isinstance(kres, dict):
            rep.mismatches.append(Mismatch(k.name, "-", (), Lane((0, 0, 0), ()), "interpreter error", (), (kres["error"],)))
            continue
        bases = _bases(k)
        elem = {p.name: max(1, p.type.element.bits // 8) for p in k.params if p.kind == "pointer"}  # type: ignore[union-attr]
        for c, cres in zip(cases, kres):
            ln = launch(k, dict(c.sizes), dict(c.blocks))
            groups: dict[tuple[int, int, int], list[Lane]] = {}
            for lane in c.lanes:
                groups.setdefault(lane.program_id, []).append(lane)
            for (pid, lanes_), accesses in zip(sorted(groups.items()), cres):
                for li, lane in enumerate(lanes_):
                    try:
                        r = evaluate(k, ln, lane, CONTROL if control else c.mode)
                    except UndefinedBehaviour:
                        rep.undefined += 1
                        continue
                    ev = [("load", a) for a in r.loads] + [("store", a) for a in r.stores]
                    rep.lanes += 1
                    rep.lanes_by_mode[c.mode.name] = rep.lanes_by_mode.get(c.mode.name, 0) + 1
                    if len(ev) != len(accesses):
                        rep.mismatches.append(Mismatch(k.name, c.mode.name, c.sizes, lane, "access count",
                                                       (len(ev),), (len(accesses),)))
                        continue
                    for j, ((kind, a), (ikind, addrs, masks)) in enumerate(zip(ev, accesses)):
                        addr = addrs[li]
                        want = (bases[a.pointer] + elem[a.pointer] * a.offset) % (1 << 64)
                        got = (bases[a.pointer] + addr[1] * elem[a.pointer] + addr[2]) % (1 << 64)
                        same_ptr = addr[0] == a.pointer
                        if kind != ikind or want != got or masks[li] != a.mask or not (same_ptr or want == got):
                            rep.mismatches.append(Mismatch(
                                k.name, c.mode.name, c.sizes, lane, f"{kind} {j}",
                                (a.pointer, a.offset, a.mask), (addr[0], addr[1], masks[li])))
    return reports


def records_for(names: Sequence[str] | None, data_dir: Path | None = None) -> list:
    """Captured kernel records for program or kernel names (all under ``data/kernels`` when ``names`` is empty)."""
    from workbench.capture import load
    from workbench.errors import UsageError
    from workbench.paths import KERNELS

    root = Path(data_dir) if data_dir is not None else KERNELS
    paths = sorted(root.glob("*/*.json"))
    if not names:
        return [load(p) for p in paths]
    out = []
    for name in names:
        hit = [p for p in paths if p.parent.name == name or p.stem == name]
        if not hit:
            raise UsageError(f"no captured kernel or program named {name!r} under {root}; run `workbench capture {name}`")
        out.extend(load(p) for p in hit)
    return out


# -- whole-kernel runs on real tensors -----------------------------------------------------------------------


@dataclass(slots=True)
class WholeRun:
    program: str
    kernel: str
    status: str  # "equal" | "DIFFERENT" | "skipped: <reason>"
    elements: int = 0
    differing: int = 0


_TORCH_DTYPE = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32", "fp64": "float64"}


def whole_kernel_runs(records: Sequence, seed: int = 0, round_bf16: bool = True) -> list[WholeRun]:
    """Run each single-kernel program's kernel under the interpreter on small real tensors (the program's
    example sizes) and compare the output with eager PyTorch bit for bit. The interpreter's fp32 -> bf16
    conversion is made round-to-nearest-even, as the GPU does (the interpreter of triton 3.7.1 truncates).
    Kernel pointer ``in_ptrN`` is taken to be the program's input ``N`` (Inductor's order for these
    programs); a program whose kernel does not fit that pattern is skipped with the reason.
    ``round_bf16=False`` keeps the interpreter's truncation (a control: bf16 sums then differ from eager)."""
    import re

    import torch

    from workbench.programs import resolve

    runs: list[WholeRun] = []
    jobs: list[tuple[WholeRun, dict, "torch.Tensor"]] = []
    per_program: dict[str, int] = {}
    for ck in records:
        per_program[ck.program] = per_program.get(ck.program, 0) + 1
    for ck in records:
        run = WholeRun(ck.program, ck.name, "")
        runs.append(run)
        if per_program[ck.program] != 1:
            run.status = "skipped: program has several kernels (intermediate buffers)"
            continue
        try:
            k = parse(ck)
            prog = resolve(ck.program)
        except WorkbenchError as exc:
            run.status = f"skipped: {exc}"
            continue
        gen = torch.Generator().manual_seed(seed)
        inputs = []
        for spec in prog.inputs:
            shape = spec.concrete(prog.example)
            dt = getattr(torch, spec.dtype)
            inputs.append((torch.randn(shape, generator=gen) * 4).to(dt) if dt.is_floating_point else torch.randint(0, 9, shape, generator=gen).to(dt))
        with torch.no_grad():
            eager = prog.fn(*inputs)
        if not isinstance(eager, torch.Tensor):
            run.status = "skipped: program returns several tensors"
            continue
        sizes: dict[str, int] = {}
        for s in ck.symbols:
            for src in s.sources:
                m = re.search(r"\.size\((\d+)\) \(input (\d+)\)", src)
                if m:
                    sizes[s.name] = int(inputs[int(m.group(2))].shape[int(m.group(1))])
                    break
        if len(sizes) != len(ck.symbols):
            run.status = "skipped: a shape symbol is not an input size"
            continue
        ptrs = [p for p in k.params if p.kind == "pointer"]
        ins = [p for p in ptrs if p.name.startswith("in_ptr")]
        outs = [p for p in ptrs if p.name.startswith("out_ptr")]
        if len(ins) != len(inputs) or len(outs) != 1:
            run.status = f"skipped: {len(ins)} input pointers for {len(inputs)} inputs"
            continue
        buffers = {}
        for p in ins:
            t = inputs[int(p.name[len("in_ptr"):])].contiguous()
            if _TORCH_DTYPE.get(str(p.type.element)) != str(t.dtype).removeprefix("torch."):  # type: ignore[union-attr]
                run.status = f"skipped: {p.name} is {p.type} but input is {t.dtype}"
                break
            buffers[p.name] = [str(t.dtype).removeprefix("torch."), t.view(torch.uint8).numpy().tobytes().hex(), t.numel()]
        if run.status:
            continue
        out_dtype = _TORCH_DTYPE[str(outs[0].type.element)]  # type: ignore[union-attr]
        buffers[outs[0].name] = [out_dtype, (b"\0" * (eager.numel() * eager.element_size())).hex(), eager.numel()]
        ln = launch(k, sizes)
        scalars = {p.name: [ln.arg(p.name), p.type.bits] for p in k.params if p.kind in ("size", "numel", "scalar")}  # type: ignore[union-attr]
        job = {"name": ck.name, "jit_source": ck.jit_source, "order": [p.name for p in k.params],
               "buffers": buffers, "scalars": scalars, "constexprs": dict(ln.blocks), "grid": list(ln.grid),
               "outputs": [outs[0].name]}
        jobs.append((run, job, eager))
    if not jobs:
        return runs
    results = _run_worker({"mode": "whole", "round_bf16": round_bf16, "kernels": [j for _, j, _ in jobs]})
    for (run, job, eager), res in zip(jobs, results):
        raw = bytearray(bytes.fromhex(res[job["outputs"][0]]))
        flat = torch.frombuffer(raw, dtype=eager.dtype)
        run.elements = eager.numel()
        candidates = [eager.contiguous().reshape(-1)]
        if not eager.is_contiguous():
            candidates.append(torch.as_strided(flat, eager.shape, eager.stride()).contiguous().reshape(-1))
        best = None
        for i, want in enumerate(candidates):
            got = flat if i == 0 else torch.as_strided(flat, eager.shape, eager.stride()).contiguous().reshape(-1)
            ref = want if i == 0 else eager.contiguous().reshape(-1)
            diff = int((got.view(torch.int16 if eager.element_size() == 2 else torch.int32) !=
                        ref.view(torch.int16 if eager.element_size() == 2 else torch.int32)).sum())
            best = diff if best is None else min(best, diff)
        run.differing = best or 0
        run.status = "equal" if run.differing == 0 else "DIFFERENT"
    return runs


# -- differential check of integer semantics on generated kernels ---------------------------------------------


@dataclass(frozen=True, slots=True)
class _Text:
    """A generated kernel in the shape ``_job_kernel`` reads from a captured record."""

    jit_source: str


def random_kernel(rng: random.Random, statements: int = 6) -> str:
    """A random pointwise kernel mixing int32/int64 arguments, weak literals, strong ``tl.full`` constants,
    casts, ``+ - * // %``, comparisons, ``& |`` and ``tl.where``; the store's offset and mask use the results.
    Divisors are made odd (``| 1``) so no lane divides by zero."""
    names = ["xindex", "ks0", "ks1", "ks2"]
    ints = list(names)
    bools = ["xmask"]
    lines = []

    def leaf() -> str:
        r = rng.random()
        if r < 0.55:
            return rng.choice(ints)
        if r < 0.8:
            return str(rng.choice([0, 1, 2, 3, 7, -1, -5, 255, 65535]))
        dt = rng.choice(["tl.int32", "tl.int64"])
        return f"tl.full([1], {rng.choice([0, 1, -1, 3, 2**31 - 1, -(2**31)])}, {dt})"

    def expr(depth: int) -> str:
        if depth <= 0 or rng.random() < 0.25:
            return leaf()
        kind = rng.randrange(9)
        a, b = expr(depth - 1), expr(depth - 1)
        if kind < 3:
            return f"({a} {rng.choice(['+', '-', '*'])} {b})"
        if kind == 3:
            return f"({a} {rng.choice(['//', '%'])} (({b}) | 1))"
        if kind == 4:
            return f"({a}).to({rng.choice(['tl.int32', 'tl.int64'])})"
        if kind == 5:
            return f"({a} {rng.choice(['&', '|'])} {b})"
        if kind == 6:
            c = rng.choice(bools)
            return f"tl.where({c}, {a}, {b})"
        if kind == 7:
            return f"(-{a})"
        return f"tl.broadcast_to({a}, [XBLOCK])" if a in ints and a != "xindex" else a

    for i in range(statements):
        if rng.random() < 0.3:
            lhs, rhs = expr(2), expr(2)
            if lhs.lstrip("-").isdigit() and rhs.lstrip("-").isdigit():
                rhs = "xindex"
            lines.append(f"    c{i} = {lhs} {rng.choice(['<', '<=', '>', '>=', '==', '!='])} {rhs}")
            bools.append(f"c{i}")
        else:
            e = expr(3)
            if e.lstrip("-").isdigit() or e.startswith("tl.full"):
                e = f"({e} + xindex)"
            lines.append(f"    v{i} = {e}")
            ints.append(f"v{i}")
    offset = next((v for v in reversed(ints) if v.startswith("v")), "xindex")
    mask = " & ".join(sorted(set(rng.sample(bools, min(2, len(bools))))))
    return (
        "def gen(out_ptr0: '*fp32', in_ptr0: '*i16', ks0: 'i64', ks1: 'i32', ks2: 'i64', xnumel: 'i32', XBLOCK : tl.constexpr):\n"
        "    xoffset = tl.program_id(0) * XBLOCK\n"
        "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
        "    xmask = xindex < xnumel\n"
        + "\n".join(lines) + "\n"
        f"    tmp0 = tl.load(in_ptr0 + ({ints[-1]} + xindex), {bools[-1]})\n"
        f"    tl.store(out_ptr0 + ({offset} + xindex), tl.full([XBLOCK], 0.0, tl.float32), {mask} & xmask)\n"
    )


def differential(count: int = 60, seed: int = 0, lanes: int = 32) -> tuple[int, int, list[Mismatch], int]:
    """Generated kernels (:func:`random_kernel`) through the evaluator and the interpreter at random
    argument values (including values near the int32/int64 limits). Returns (kernels, lanes compared,
    mismatches, lanes skipped as undefined)."""
    rng = random.Random(seed)
    work = []
    for i in range(count):
        text = random_kernel(rng).replace("def gen(", f"def gen{i}(")
        try:
            k = parse(text)
        except WorkbenchError:
            continue  # e.g. a literal out of range for its context: refused, and Triton refuses it too
        cases = []
        for _ in range(3):
            extremes = [0, 1, 2, 3, 2**31 - 1, 2**31, -(2**31), 2**40 + 3, 2**63 - 1, -(2**63), 12345678901]
            vals = {
                "ks0": rng.choice(extremes + [rng.randrange(-(2**63), 2**63)]),
                "ks1": rng.choice([0, 1, 7, 2**31 - 1, -(2**31), rng.randrange(-(2**31), 2**31)]),
                "ks2": rng.randrange(-(2**20), 2**20),
                "xnumel": rng.randrange(1, 200),
            }
            blocks = {"XBLOCK": 16}
            ln = launch(k, vals, blocks)
            pids = sorted({0, rng.randrange(64), rng.randrange(2**27)})
            chosen = [Lane((p, 0, 0), (("XBLOCK", rng.randrange(16)),), (2**27, 1, 1)) for p in pids for _ in range(lanes // 3)]
            cases.append(_Case("generated", tuple(sorted(vals.items())), WIDE, tuple(sorted(blocks.items())), tuple(chosen)))
            del ln
        work.append((k, cases))
    jobs = []
    for k, cases in work:
        job = _job_kernel(k, _Text(k.source), cases)
        for jc in job["cases"]:
            jc["grid"] = [2**27, 1, 1]
        jobs.append(job)
    results = _run_worker({"mode": "offsets", "kernels": jobs})
    compared, undefined, mismatches = 0, 0, []
    for (k, cases), kres in zip(work, results):
        if isinstance(kres, dict):
            mismatches.append(Mismatch(k.name, "declared", (), Lane((0, 0, 0), ()), "interpreter error", (), (kres["error"],)))
            continue
        bases = _bases(k)
        elem = {p.name: max(1, p.type.element.bits // 8) for p in k.params if p.kind == "pointer"}  # type: ignore[union-attr]
        for c, cres in zip(cases, kres):
            ln = launch(k, dict(c.sizes), dict(c.blocks))
            ln = type(ln)(ln.args, ln.blocks, (2**27, 1, 1))
            groups: dict[tuple[int, int, int], list[Lane]] = {}
            for lane in c.lanes:
                groups.setdefault(lane.program_id, []).append(lane)
            for (pid, lanes_), accesses in zip(sorted(groups.items()), cres):
                for li, lane in enumerate(lanes_):
                    try:
                        r = evaluate(k, ln, lane, c.mode)
                    except UndefinedBehaviour:
                        undefined += 1
                        continue
                    compared += 1
                    ev = [("load", a) for a in r.loads] + [("store", a) for a in r.stores]
                    for j, ((kind, a), (ikind, addrs, masks)) in enumerate(zip(ev, accesses)):
                        addr = addrs[li]
                        want = (bases[a.pointer] + elem[a.pointer] * a.offset) % (1 << 64)
                        got = (bases[addr[0]] + addr[1] * elem[addr[0]] + addr[2]) % (1 << 64)
                        if want != got or masks[li] != a.mask or kind != ikind:
                            mismatches.append(Mismatch(k.name, "declared", c.sizes, lane, f"{kind} {j}",
                                                       (a.pointer, a.offset, a.mask), tuple(addr) + (masks[li],)))
    return len(work), compared, mismatches, undefined
