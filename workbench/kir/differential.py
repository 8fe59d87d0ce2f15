"""Differential test of the integer semantics: generated pointwise kernels (:func:`random_kernel`) through the
evaluator and Triton's interpreter at argument values near the int32/int64 limits.

Stage: kir (tests). Shares the cross-check's job format and worker (:mod:`workbench.kir.crosscheck`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from workbench.errors import WorkbenchError
from workbench.kir.crossbase import Mismatch, _bases, _Case, _job_kernel, _run_worker, by_program, element_sizes
from workbench.kir.errors import UndefinedBehaviour
from workbench.kir.evaluator import Lane, evaluate, launch
from workbench.kir.modes import WIDE
from workbench.kir.parser import parse


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
        elem = element_sizes(k)
        for c, cres in zip(cases, kres):
            ln = launch(k, dict(c.sizes), dict(c.blocks))
            ln = type(ln)(ln.args, ln.blocks, (2**27, 1, 1))
            for (pid, lanes_), accesses in zip(by_program(c.lanes), cres):
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
                        if a.offset is None:  # masked off, through a masked-off index: only the mask is compared
                            if kind != ikind or masks[li] != a.mask:
                                mismatches.append(Mismatch(k.name, c.mode.name, c.sizes, lane, f"{kind} {j}",
                                                               (a.pointer, None, a.mask), (addr[0], addr[1], masks[li])))
                            continue
                        want = (bases[a.pointer] + elem[a.pointer] * a.offset) % (1 << 64)
                        got = (bases[addr[0]] + addr[1] * elem[addr[0]] + addr[2]) % (1 << 64)
                        if want != got or masks[li] != a.mask or kind != ikind:
                            mismatches.append(Mismatch(k.name, "declared", c.sizes, lane, f"{kind} {j}",
                                                       (a.pointer, a.offset, a.mask), tuple(addr) + (masks[li],)))
    return len(work), compared, mismatches, undefined
