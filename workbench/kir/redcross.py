"""Cross-check of reduction kernels: the evaluator against Triton's interpreter, per (x, r) lane and per step.

Stage: kir. The companion of :mod:`workbench.kir.crosscheck` for kernels with a ``Kernel.reduction``. The
interpreter runs each chosen program once (every loop step included) with loads and stores intercepted
(``workbench.kir.interp``); its accesses come back in execution order. The evaluator's expected order is the
source order of the accesses, each access of loop ``l`` repeated once per step (``r0_offset = 0, R0_BLOCK,
...``) and evaluated at that step. Compared at every chosen (x lane, r lane): the access kind, pointer,
element offset and mask, in the declared and in the narrowed mode.

Shapes: the crosscheck's own (small, medium, numel near 2**31-1, past the guard), with ``R0_BLOCK`` chosen so
that a loop runs at most :data:`MAX_STEPS` steps and a tile has at most :data:`MAX_TILE` elements; a shape
that cannot meet both is skipped (named in the report). Persistent kernels fixing ``R0_BLOCK`` keep it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from workbench.kir.crossbase import (CONTROL, MODES, KernelReport, Mismatch, _bases, by_program, element_sizes, _numel, _run_worker, _shapes,
                                      data_function, index_data)
from workbench.kir.errors import EvaluationError, UndefinedBehaviour
from workbench.kir.evaluator import Lane, Launch, evaluate, launch
from workbench.kir.nodes import Kernel

MAX_STEPS = 48
MAX_TILE = 1 << 15
R_POSITIONS = 4  # r lanes compared per x lane (0, the last, and random ones)


def _blocks(k: Kernel, r_numel: int, xblocks: int) -> dict[str, int] | None:
    red = k.reduction
    assert red is not None
    if red.static_block is not None:
        rb = red.static_block
    elif red.persistent:
        rb = 1
        while rb < r_numel:
            rb *= 2
    else:
        rb = 4
        while -(-r_numel // rb) > MAX_STEPS:
            rb *= 2
    if rb > MAX_TILE:
        return None
    xb = max(1, min(xblocks, MAX_TILE // rb))
    out = {"XBLOCK": xb}
    if red.static_block is None:
        out[red.block] = rb
    return out


def _steps(k: Kernel, ln: Launch) -> list[int]:
    red = k.reduction
    if red is None or red.persistent:
        return [0]
    numel = ln.arg(red.numel) if red.numel is not None else red.static_numel
    rb = ln.block(red.block)
    return list(range(0, max(0, numel), rb))


def expected(k: Kernel, ln: Launch, lane: Lane, mode) -> list[tuple[str, str, int, bool, int]]:
    """The accesses of ``lane`` in execution order: (kind, pointer, offset, mask, step). Index tensors hold
    the crosscheck's in-range contents (:func:`~workbench.kir.crosscheck.index_data`), as in the worker."""
    steps = _steps(k, ln)
    data = data_function(index_data(k, ln))
    accesses = sorted(
        [(line, 0, i, "load", loop) for i, (line, loop) in enumerate(zip(k.load_lines, k.load_loops))]
        + [(line, 1, i, "store", loop) for i, (line, loop) in enumerate(zip(k.store_lines, k.store_loops))]
    )
    at_step = {}
    data = data_function(index_data(k, ln))  # index tensors in range of every premise (as the worker fills them)
    for s in steps or [0]:
        lane_s = Lane(lane.program_id, lane.position, lane.num_programs, step=s)
        at_step[s] = evaluate(k, ln, lane_s, mode, data=data)
    out = []
    i = 0
    while i < len(accesses):
        loop = accesses[i][4]
        j = i
        while j < len(accesses) and accesses[j][4] == loop and (loop != 0 or j == i):
            j += 1
        group = accesses[i:j]
        for s in (steps if loop else [steps[0] if steps else 0]):
            r = at_step.get(s) or at_step[next(iter(at_step))]
            for _line, _o, idx, kind, _loop in group:
                a = r.loads[idx] if kind == "load" else r.stores[idx]
                out.append((kind, a.pointer, a.offset, a.mask, s))
        i = j
    return out


def crosscheck_reductions(pairs: Sequence[tuple[Kernel, object]], lanes: int = 40, seed: int = 0,
                          control: bool = False) -> list[KernelReport]:
    """Compare evaluator and interpreter on parsed reduction kernels ``(kernel, record)``. ``control=True``:
    the interpreter runs the declared kernel, the evaluator one with 8-bit size arguments (must mismatch)."""
    reports, work = [], []
    for k, ck in pairs:
        rng = random.Random(f"{seed}:{k.program}:{k.name}:red")
        rep = KernelReport(k.program, k.name, "compared")
        cases = []
        try:
            shapes = _shapes(ck, rng) if k.grid == "1d" else []
        except EvaluationError as exc:
            rep.status = f"skipped: {exc}"
            shapes = []
        if k.grid != "1d":
            rep.status = "skipped: 2-D reduction grid (the cross-check runs 1-D x grids)"
        elif _float_index(k):
            rep.status = ("skipped: an index computed through float payload (the evaluator keeps floats "
                          "symbolic, and the offsets worker replaces libdevice calls by their first operand)")
            shapes = []
        for label, sizes in shapes:
            try:
                ln0 = launch(k, sizes, {b: 4 for b, _ in k.blocks})
                r_numel = ln0.arg("r0_numel") if k.reduction.numel else k.reduction.static_numel
                blocks = _blocks(k, r_numel, 8)
                if blocks is None:
                    rep.shapes.append((f"{label} (skipped: r0_numel {r_numel} needs a tile over {MAX_TILE})", tuple(sorted(sizes.items())), 0))
                    continue
                ln = launch(k, sizes, blocks)
            except EvaluationError as exc:
                rep.shapes.append((f"{label} (skipped: {exc})", tuple(sorted(sizes.items())), 0))
                continue
            if -(-max(0, r_numel) // ln.block(k.reduction.block)) > MAX_STEPS:
                rep.shapes.append((f"{label} (skipped: more than {MAX_STEPS} steps)", tuple(sorted(sizes.items())), 0))
                continue
            rep.shapes.append((label, tuple(sorted(sizes.items())), _numel(ck, sizes)))
            xb, rb = ln.block("XBLOCK"), ln.block(k.reduction.block)
            gx = ln.grid[0]
            pids = sorted({0, gx - 1, rng.randrange(gx)})
            chosen = []
            for pid in pids:
                for i in sorted({0, xb - 1, rng.randrange(xb)}):
                    for r in sorted({0, rb - 1, *(rng.randrange(rb) for _ in range(R_POSITIONS - 2))}):
                        chosen.append(Lane((pid, 0, 0), (("XBLOCK", i), (k.reduction.block, r)), ln.grid))
            chosen = chosen[: max(lanes, 8)]
            for mode in (MODES[:1] if control else MODES):
                cases.append((label, sizes, ln, mode, chosen))
        reports.append(rep)
        if cases:
            work.append((k, ck, cases, rep))
    if not work:
        return reports
    job = {"mode": "offsets", "kernels": [_job(k, ck, cases) for k, ck, cases, _ in work]}
    results = _run_worker(job)
    for (k, ck, cases, rep), kres in zip(work, results):
        if isinstance(kres, dict):
            rep.mismatches.append(Mismatch(k.name, "-", (), Lane((0, 0, 0), ()), "interpreter error", (), (kres["error"],)))
            continue
        bases = _bases(k)
        elem = element_sizes(k)
        for (label, sizes, ln, mode, chosen), cres in zip(cases, kres):
            for (_pid, lanes_), accesses in zip(by_program(chosen), cres):
                for li, lane in enumerate(lanes_):
                    try:
                        ev = expected(k, ln, lane, CONTROL if control else mode)
                    except UndefinedBehaviour:
                        rep.undefined += 1
                        continue
                    rep.lanes += 1
                    rep.lanes_by_mode[mode.name] = rep.lanes_by_mode.get(mode.name, 0) + 1
                    srt = tuple(sorted(sizes.items()))
                    if len(ev) != len(accesses):
                        rep.mismatches.append(Mismatch(k.name, mode.name, srt, lane, "access count", (len(ev),), (len(accesses),)))
                        continue
                    for j, ((kind, ptr, off, mask, step), (ikind, addrs, masks)) in enumerate(zip(ev, accesses)):
                        addr = addrs[li]
                        # a masked-off access whose offset goes through a masked-off index has no address
                        # (kir.Access.offset None): only its kind, pointer and mask are compared
                        want = None if off is None else (bases[ptr] + elem[ptr] * off) % (1 << 64)
                        got = None if off is None else (bases[ptr] + addr[1] * elem[ptr] + addr[2]) % (1 << 64)
                        if kind != ikind or want != got or masks[li] != mask or addr[0] != ptr:
                            rep.mismatches.append(Mismatch(k.name, mode.name, srt, Lane(lane.program_id, lane.position, lane.num_programs, step),
                                                           f"{kind} {j} (r0_offset {step})", (ptr, off, mask), (addr[0], addr[1], masks[li])))
    return reports


def _float_index(k: Kernel) -> bool:
    """An access's offset or mask computed through float payload (t5's bucketed relative positions:
    ``log`` of an index, converted back to int): neither side of this cross-check computes it."""
    from workbench.kir.ops import Op
    from workbench.kir.types import FloatType

    for acc in (*k.loads, *k.stores):
        stack, seen = [acc.args[0], acc.args[2] if acc.op is Op.STORE else acc.args[1]], set()
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if isinstance(n.type, FloatType):
                return True
            if n.op is not Op.LOAD:  # a loaded index is data (index_data gives it); its address is its own access
                stack.extend(n.args)
    return False


def _job(k: Kernel, ck, cases) -> dict:
    constexpr_params = {p.name for p in k.params if p.kind == "constexpr"}
    jcases = []
    for _label, _sizes, ln, mode, chosen in cases:
        scalars = {p.name: [ln.arg(p.name), mode.param_type(p).bits] for p in k.params  # type: ignore[union-attr]
                   if p.kind not in ("pointer", "constexpr")}
        groups: dict[tuple[int, int, int], list[list[int]]] = {}
        for lane in chosen:
            groups.setdefault(lane.program_id, []).append([lane.pos("XBLOCK"), lane.pos(k.reduction.block)])
        jcases.append({
            "data": {p: list(v) for p, v in index_data(k, ln).items()},
            "scalars": scalars,
            # blocks, and a constexpr element count (``xnumel = 1`` kernels take it as a constexpr)
            "constexprs": {**{b: v for b, v in ln.blocks if b in constexpr_params},
                           **{n: v for n, v in ln.args if n in constexpr_params}},
            "grid": list(ln.grid),
            "pids": [[list(pid), pos] for pid, pos in sorted(groups.items())],
        })
    return {
        "name": k.name,
        "jit_source": ck.jit_source,
        "helpers": [text for _, text in getattr(ck, "helper_sources", ())],
        "pointers": [[p.name, str(p.type)] for p in k.params if p.kind == "pointer"],
        "cases": jcases,
    }
