"""Reduction kernels: what the oracle reads from their text, their block sizes, and which loop steps run.

Stage: oracle (parent and worker). Inductor's reductions come in two forms (``torch/_inductor/codegen/
triton.py``, torch 2.13): *looped* kernels (``triton_red_*``) walk the reduction axis in one or more loops
``for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`` over ``[XBLOCK, R0_BLOCK]`` tiles (online softmax has
three), *persistent* kernels (``triton_per_*``) hold the whole row in one tile (``R0_BLOCK >= r0_numel``,
usually fixed in the body: ``R0_BLOCK: tl.constexpr = 64``). Both launch on Inductor's reduction grid, x blocks
only: ``Grid1D``, ``ceil(xnumel / XBLOCK)`` programs.

**Block sizes.** Inductor's heuristics (``triton_heuristics.py``: ``_reduction_configs``,
``triton_config_reduction``, ``_persistent_reduction_configs``) pick, for looped kernels, ``R0_BLOCK`` a power
of two up to ``MAX_R0_BLOCK = 2048`` (1024 on Blackwell or for register-heavy kernels) with ``XBLOCK`` 1 or 2
for inner reductions, ``(64, 8)``-like tiles for outer ones and ``(64, 64)``, ``(8, 512)`` when autotuning; the
autotuner may then scale ``R0_BLOCK`` down. The oracle rotates over :data:`LOOPED_BLOCKS` per shape; when the
rotation's tile would not fit the step budget even with two programs it takes the largest legal ``R0_BLOCK`` (2048,
``XBLOCK`` 1). Persistent kernels keep a body-fixed ``R0_BLOCK`` (a parameter ``R0_BLOCK`` gets the next power of
two of ``r0_numel``, as ``triton_config_reduction`` sizes it) and rotate ``XBLOCK`` over Inductor's
``(1, 8, 32, 128)`` where ``XBLOCK * R0_BLOCK <= 4096`` (``MAX_PERSISTENT_BLOCK_NUMEL``).

**Steps.** The interpreter really runs each loop. A shape runs its loops in full when ``loops x steps x
programs`` fits :data:`STEP_BUDGET` with :data:`PIDS_REDUCTION` programs, or with fewer (down to
:data:`MIN_PIDS`: the first and the last program, which holds the largest indices). Otherwise (``r0_numel`` far
beyond what the interpreter affords, e.g. next to ``2**31``: a million steps per loop) the shape runs *sampled*
loops: the worker makes ``tl.range`` yield only chosen offsets — the first two, the middle, the last two (the
tail), the steps holding the r indices of :func:`marks` (``2**30``, ``LOOP_BOUND``'s ``2**31 - 2**20``,
size-argument multiples), and seeded random ones, :data:`SAMPLED_STEPS` in all — in *both* kernels alike. That
is a different program: accumulators then hold the combination of the sampled steps only, so a sampled run
compares the two kernels' addresses, masks and stored bits at real offsets from an accumulator state the real
loop never has; it tests the checker's induction step (each step agrees whenever the accumulators agree) at
those offsets, not the kernel's end-to-end output. Results say which shapes ran full loops and count steps run
and steps in the loops.

Limits: one reduction axis; the ``[XBLOCK, R0_BLOCK]`` layout (``xindex[:, None]``, ``r0_base[None, :]``) is
assumed when classifying masked lanes as below or past numel (``no_x_dim`` kernels get no such classification).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from workbench.oracle.body import LOOP, is_inductor_loop

LOOPED_BLOCKS = ((1, 1024), (8, 128), (64, 64), (2, 2048))  # (XBLOCK, R0_BLOCK), rotated over shapes
MAX_R0_BLOCK = 2048  # triton_heuristics._reduction_configs (sm < 10)
PERSISTENT_XBLOCKS = (1, 8, 32, 128)
MAX_PERSISTENT_BLOCK_NUMEL = 4096
MAX_PERSISTENT_TILE = 1 << 16  # the largest persistent tile the oracle runs (interpreter cost)
STEP_BUDGET = 2048  # loop steps one kernel text may run per shape, over its programs and loops, in full
SAMPLED_STEPS = 10  # steps a sampled loop runs
PIDS_REDUCTION = 6  # programs per reduction launch (at least 2, first and last, when full loops are long)
MIN_PIDS = 2


@dataclass(frozen=True, slots=True)
class Facts:
    """What a kernel's text says about its reduction (read from the jit function's AST)."""

    reduction: bool
    loops: int  # number of Inductor reduction loops (0: persistent)
    static: tuple[tuple[str, int], ...]  # names the body fixes to integer literals (``r0_numel = 64``, ``R0_BLOCK``)

    @property
    def persistent(self) -> bool:
        return self.reduction and self.loops == 0

    def fixed(self, name: str) -> int | None:
        return dict(self.static).get(name)


def facts(fn: ast.FunctionDef) -> Facts:
    """Reduction facts of the jit function ``fn`` (one that passed :func:`~workbench.oracle.body.check_body`)."""
    params = {a.arg for a in fn.args.args}
    loops = sum(1 for s in fn.body if is_inductor_loop(s))
    static = []
    for s in fn.body:
        target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else \
            s.target if isinstance(s, ast.AnnAssign) else None
        value = getattr(s, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and type(value.value) is int:
            static.append((target.id, value.value))
    reduction = loops > 0 or LOOP[1] in params or any(n == LOOP[2] for n, _ in static)
    return Facts(reduction, loops, tuple(static))


def loop_lines(fn: ast.FunctionDef) -> tuple[tuple[int, int], ...]:
    """(first, last) line of each reduction loop of ``fn``, in source order."""
    return tuple((s.lineno, s.end_lineno or s.lineno) for s in fn.body if is_inductor_loop(s))


def _next_pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def blocks(f: Facts, r0_numel: int, index: int, constexprs: tuple[str, ...]) -> tuple[dict[str, int], str, int] | str:
    """The constexpr block sizes of one launch (``index`` rotates them over shapes), whether its loops run in
    full (``"full"``), sampled or not at all (``"none"``: persistent), and how many programs run; a string
    alone is why the shape is skipped."""
    r0 = f.fixed(LOOP[1]) if f.fixed(LOOP[1]) is not None else r0_numel
    fixed_block = f.fixed(LOOP[2])
    if f.persistent:
        rb = fixed_block if fixed_block is not None else _next_pow2(max(1, r0))
        if rb < r0:
            return f"R0_BLOCK {rb} < r0_numel {r0} in a persistent kernel"
        if rb > MAX_PERSISTENT_TILE:
            return f"a persistent tile of R0_BLOCK {rb} > {MAX_PERSISTENT_TILE} (interpreter cost)"
        legal = [x for x in PERSISTENT_XBLOCKS if x == 1 or x * rb <= MAX_PERSISTENT_BLOCK_NUMEL]
        out = {"XBLOCK": legal[index % len(legal)]}
        if LOOP[2] in constexprs:
            out[LOOP[2]] = rb
        return out, "none", PIDS_REDUCTION
    xb, rb = LOOPED_BLOCKS[index % len(LOOPED_BLOCKS)]
    if fixed_block is not None:
        rb = fixed_block
    elif f.loops * -(-r0 // rb) * MIN_PIDS > STEP_BUDGET:
        xb, rb = 1, MAX_R0_BLOCK  # the largest legal R0_BLOCK: fewest steps
    out = {"XBLOCK": xb}
    if LOOP[2] in constexprs:
        out[LOOP[2]] = rb
    per_program = f.loops * -(-r0 // rb)
    if per_program * MIN_PIDS > STEP_BUDGET:
        return out, "sampled", PIDS_REDUCTION
    return out, "full", max(MIN_PIDS, min(PIDS_REDUCTION, STEP_BUDGET // max(1, per_program)))


def marks(r0_numel: int, sizes: list[int]) -> list[int]:
    """r indices whose steps a sampled loop runs: where int32 offsets are at risk (``2**30``, ``2**31-1``, the
    LOOP_BOUND edge ``2**31 - 2**20``) and next to multiples of each size argument (row boundaries)."""
    out = [1 << 30, (1 << 31) - (1 << 20) - 1, (1 << 31) - 1]
    for v in sorted(set(sizes)):
        if 0 < v < r0_numel:
            out += [v - 1, v, r0_numel - v, r0_numel - 1 - v]
    return [m for m in out if 0 <= m < r0_numel]


def chosen_steps(n: int, block: int, marks_: list[int], rng, sampled: bool) -> list[int]:
    """Step indices a loop of ``n`` steps runs: all of them, or (``sampled``) the chosen ones."""
    if not sampled or n <= SAMPLED_STEPS:
        return list(range(n))
    keep: list[int] = []
    for s in [0, 1, n // 2, n - 2, n - 1] + [m // block for m in marks_]:
        if 0 <= s < n and s not in keep:
            keep.append(s)
    keep = keep[:SAMPLED_STEPS]
    while len(keep) < SAMPLED_STEPS:
        s = rng.randrange(n)
        if s not in keep:
            keep.append(s)
    return sorted(keep)
