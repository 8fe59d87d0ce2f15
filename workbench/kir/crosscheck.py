"""Cross-check: the evaluator against Triton's own interpreter, lane by lane, wide and narrowed.

Stage: kir. For every captured kernel the IR reads, :func:`crosscheck` picks shapes (small, medium, numel
just under the int32 guard, and one past it where int32 index arithmetic wraps), lanes at block, row and
segment boundaries plus random ones, and compares every load's and store's address and mask computed by
:func:`~workbench.kir.evaluate` with what Triton's interpreter computes for the same program, in both the
declared mode (size arguments int64) and the narrowed mode (size arguments int32). The interpreter runs in
one subprocess (``workbench.kir.interp``, ``TRITON_INTERPRET=1``) with loads and stores intercepted, so no
memory is touched. :func:`workbench.kir.wholerun.whole_kernel_runs` runs kernels on small real tensors and compares the
output with eager PyTorch bit for bit; :mod:`workbench.kir.differential` checks the integer semantics on
generated kernels.

Shapes, lanes, reports and the interpreter worker are :mod:`workbench.kir.crossbase`'s (shared with the
reduction cross-check, :mod:`workbench.kir.redcross`). Sampling is deterministic (``seed``). Shapes respect the kernel's recorded guards except the "past the
guard" shape, which deliberately violates the int32 numel guard to exercise wraparound.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.kir.crossbase import (  # noqa: F401  (re-exported: callers import them from here)
    CONTROL,
    INT32_MAX,
    MAX_PROGRAMS,
    MODES,
    CrosscheckError,
    KernelReport,
    Mismatch,
    _bases,
    _Case,
    _job_kernel,
    _lanes,
    _numel,
    _run_worker,
    _shapes,
    _uniform_value,
    by_program,
    data_function,
    element_sizes,
    index_data,
    plan,
)
from workbench.kir.errors import UndefinedBehaviour
from workbench.kir.evaluator import Lane, evaluate, launch
from workbench.kir.modes import WIDE
from workbench.kir.parser import parse


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
        elem = element_sizes(k)
        for c, cres in zip(cases, kres):
            ln = launch(k, dict(c.sizes), dict(c.blocks))
            for (pid, lanes_), accesses in zip(by_program(c.lanes), cres):
                for li, lane in enumerate(lanes_):
                    try:
                        r = evaluate(k, ln, lane, CONTROL if control else c.mode, data=data_function(index_data(k, ln)))
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
                        if a.offset is None:  # masked off, through a masked-off index: only the mask is compared
                            if kind != ikind or masks[li] != a.mask:
                                rep.mismatches.append(Mismatch(k.name, c.mode.name, c.sizes, lane, f"{kind} {j}",
                                                               (a.pointer, None, a.mask), (addr[0], addr[1], masks[li])))
                            continue
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
