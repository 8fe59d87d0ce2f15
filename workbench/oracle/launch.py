"""Launches: argument values, block sizes, the grid, and which program ids run.

Stage: oracle. The grid is computed here from the record's grid type as Inductor's launcher computes it
(``torch/_inductor/runtime/triton_heuristics.py``: ``Grid1D``, ``Grid2D``, ``Grid2DWithYZOverflow`` which
folds y blocks beyond 65535 into z), independently of the checker. Program ids are chosen where narrowing
could break: the first and last programs (the last block is partial when numel is not a multiple of the
block), the ones holding index 2**30 and 2**31-1 when launched, the ones that straddle multiples of each
size argument near the start and the end of the range (row and segment boundaries), the middle, and a few
seeded random ones. For 2-D grids the same choice is made per axis (y counted as the linear block index
``pid1 + pid2 * num_programs(1)``) and their pairs run (4 x 5, rebalanced when one axis has fewer blocks).

Reduction kernels (:mod:`workbench.oracle.reduction`) launch on Inductor's reduction grid (``Grid1D`` over
x blocks, ``ceil(xnumel / XBLOCK)`` programs) with ``(XBLOCK, R0_BLOCK)`` chosen per shape there, and
:data:`~workbench.oracle.reduction.PIDS_REDUCTION` programs chosen as for a 1-D launch (each runs whole loops).

Limits: other grid types are out of class by name; block sizes are fixed choices per shape (Inductor's
autotuner would pick among similar powers of two).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from workbench.oracle import reduction
from workbench.oracle.corpus import Record

MAX_Y_GRID = 65535  # CUDA's grid y limit, as Inductor's get_max_y_grid()
BLOCKS_1D = ({"XBLOCK": 1024}, {"XBLOCK": 256}, {"XBLOCK": 512}, {"XBLOCK": 128})
BLOCKS_2D = ({"YBLOCK": 32, "XBLOCK": 32}, {"YBLOCK": 64, "XBLOCK": 16}, {"YBLOCK": 16, "XBLOCK": 64},
             {"YBLOCK": 8, "XBLOCK": 128})
PIDS_1D = 10
PIDS_PER_AXIS_2D = (4, 5)  # x ids, y ids
PIDS_2D = 20  # programs per 2-D launch when both axes have enough blocks
# A float scalar parameter is data, not a size: Inductor's Triton CPU backend passes a constant operand as one
# (albert's layer-norm backward, ``in_ptr0: 'fp32'``). Both kernels get this value (exact in every float type,
# of either sign's magnitude away from 0 and 1, so it shows in the stored bits).
FLOAT_SCALARS = frozenset({"fp16", "bf16", "fp32", "fp64"})
DATA_SCALAR = -1.375


class OutOfClass(Exception):
    """The record's launch is not one the oracle models (the message names what)."""


class SkipShape(Exception):
    """This shape cannot be run within the oracle's budget (the message says why); other shapes still run."""


@dataclass(frozen=True, slots=True)
class Launch:
    scalars: tuple[tuple[str, int], ...]  # every non-constexpr, non-pointer argument's value
    constexprs: tuple[tuple[str, int], ...]
    grid: tuple[int, int, int]
    pids: tuple[tuple[int, int, int], ...]
    # reductions: the tile and the effective numels (body-fixed values win), whether loops run in full
    reduction: tuple[tuple[str, int], ...] = ()  # XBLOCK, R0_BLOCK, xnumel, r0_numel
    loop: str = "none"  # "none" (no loop), "full" or "sampled"
    marks: tuple[int, ...] = ()  # r indices whose steps a sampled loop runs
    data: tuple[tuple[str, float], ...] = ()  # float scalar arguments (FLOAT_SCALARS): the same in both kernels

    def to_job(self) -> dict:
        return {"scalars": dict(self.scalars), "constexprs": dict(self.constexprs), "grid": list(self.grid),
                "pids": [list(p) for p in self.pids], "reduction": dict(self.reduction) or None,
                "marks": list(self.marks), "sampled": self.loop == "sampled", "data": dict(self.data)}


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _axis(n: int, block: int, blocks: int, sizes: list[int], rng: random.Random, count: int,
          must: tuple[int, ...] = ()) -> list[int]:
    """Block indices along one axis of ``blocks`` launched blocks covering ``n`` elements, by priority
    (the blocks holding the element indices ``must`` first)."""
    first = [i // block for i in must] + [0, blocks - 1, 1, blocks - 2, (n - 1) // block]
    marks = [(1 << 30) // block, ((1 << 31) - 1) // block, blocks // 2]
    for v in sorted(set(sizes)):
        if 0 < v < n:
            marks += [(v - 1) // block, v // block, (n - v) // block, (n - 1 - v) // block]
    out: list[int] = []
    for p in first + marks:
        if 0 <= p < blocks and p not in out:
            out.append(p)
    keep = out[: max(min(count, 2), count - 2)]  # by priority; two random ones when there is room
    rest = [p for p in out if p not in keep]
    keep += rng.sample(rest, min(len(rest), count - len(keep)))
    while len(keep) < min(count, blocks):
        p = rng.randrange(blocks)
        if p not in keep:
            keep.append(p)
    return sorted(keep)


def _reduction(rec: Record, red: reduction.Facts, numels: dict[str, int], sizes: list[int], index: int,
               rng: random.Random, constexpr_names: tuple[str, ...], xs_must: tuple[int, ...]):
    if rec.grid_type != "Grid1D":
        raise OutOfClass(f"reduction kernel with grid type {rec.grid_type!r}: the oracle runs Inductor's 1-D "
                         "reduction grid (Grid1D) only")
    xn = red.fixed("xnumel") if red.fixed("xnumel") is not None else numels.get("xnumel")
    r0 = red.fixed("r0_numel") if red.fixed("r0_numel") is not None else numels.get("r0_numel")
    if xn is None or r0 is None:
        raise OutOfClass(f"reduction kernel without xnumel/r0_numel among the record's numels {sorted(numels)}")
    choice = reduction.blocks(red, r0, index, constexpr_names)
    if isinstance(choice, str):
        raise SkipShape(choice)
    blocks, loop, count = choice
    xb = blocks["XBLOCK"]
    rb = blocks.get("R0_BLOCK", red.fixed("R0_BLOCK"))
    if rb is None:
        raise OutOfClass("reduction kernel whose R0_BLOCK is neither a parameter nor fixed in the body")
    gx = _cdiv(xn, xb)
    pids = tuple((x, 0, 0) for x in _axis(xn, xb, gx, sizes, rng, count, xs_must))
    marks = tuple(reduction.marks(r0, sizes)) if loop == "sampled" else ()
    tile = (("R0_BLOCK", rb), ("XBLOCK", xb), ("r0_numel", r0), ("xnumel", xn))
    return blocks, (gx, 1, 1), pids, tile, loop, marks


def plan(rec: Record, values: dict[str, int], index: int, rng: random.Random,
         param_names: tuple[str, ...], constexpr_names: tuple[str, ...], pointer_names: tuple[str, ...],
         lanes: dict[str, int] | None = None, red: reduction.Facts | None = None) -> Launch:
    """The launch of ``rec`` at shape ``values``; ``index`` picks the block sizes (they rotate over shapes);
    ``lanes`` (``{"xindex": i}``) names element indices whose programs must run; ``red``: the kernel's
    reduction facts (read from its text), when it is a reduction."""
    lanes = lanes or {}
    xs_must = tuple(v for k, v in lanes.items() if k == "xindex")
    ys_must = tuple(v for k, v in lanes.items() if k == "yindex")
    numels = {name: f.value(values) for name, f in rec.numels}
    sizes = {name: f.value(values) for name, f in rec.size_args}
    scalars = {**sizes, **numels}
    declared = dict(rec.signature)
    data = tuple((p, DATA_SCALAR) for p in param_names if p not in constexpr_names and p not in pointer_names
                 and p not in scalars and declared.get(p) in FLOAT_SCALARS)
    missing = [p for p in param_names if p not in constexpr_names and p not in pointer_names and p not in scalars
               and p not in dict(data)]
    if missing:
        raise OutOfClass(f"parameters {missing} are neither pointers, size arguments nor numels of the record")
    size_values = [abs(v) for v in sizes.values()]
    tile: tuple = ()
    loop, marks = "none", ()
    if red is not None and red.reduction:
        blocks, grid, pids, tile, loop, marks = _reduction(rec, red, numels, size_values, index, rng,
                                                           constexpr_names, xs_must)
        return replace(_finish(rec, values, param_names, constexpr_names, pointer_names, scalars, blocks, grid,
                               pids, tile, loop, marks), data=data)
    match rec.grid_type:
        case "Grid1D":
            blocks = BLOCKS_1D[index % len(BLOCKS_1D)]
            xb = blocks["XBLOCK"]
            # the launcher sizes the grid from the record's xnumel (the argument it passes); only a one-row
            # kernel that declares xnumel constexpr, absent from the record's numels, takes its body's literal
            # (``xnumel = 1``). A body literal that differs from the argument is a kernel the launch runs past
            # its literal (red5-xnumel-literal-grid1d), so the argument must win.
            n = numels.get("xnumel")
            if n is None and red is not None:
                n = red.fixed("xnumel")
            if n is None:
                raise OutOfClass(f"pointwise kernel without xnumel among the record's numels {sorted(numels)} "
                                 "or fixed in its body")
            scalars.setdefault("xnumel", n)
            gx = _cdiv(n, xb)
            grid = (gx, 1, 1)
            pids = tuple((x, 0, 0) for x in _axis(n, xb, gx, size_values, rng, PIDS_1D, xs_must))
        case "Grid2D" | "Grid2DWithYZOverflow":
            blocks = BLOCKS_2D[index % len(BLOCKS_2D)]
            xb, yb = blocks["XBLOCK"], blocks["YBLOCK"]
            nx, ny = numels["xnumel"], numels["ynumel"]
            gx, y_raw = _cdiv(nx, xb), _cdiv(ny, yb)
            if rec.grid_type == "Grid2D":
                gy, gz = y_raw, 1
            else:
                y_div = _cdiv(y_raw, MAX_Y_GRID)
                gy, gz = (0 if y_div == 0 else _cdiv(y_raw, y_div)), y_div
            grid = (gx, gy, gz)
            # 4 x 5 programs; an axis with fewer blocks than its share hands the rest to the other axis
            nx_ids = min(PIDS_PER_AXIS_2D[0], gx)
            ny_ids = min(max(PIDS_PER_AXIS_2D[1], PIDS_2D // nx_ids), gy * gz)
            nx_ids = min(max(nx_ids, PIDS_2D // max(1, ny_ids)), gx)
            xs = _axis(nx, xb, gx, size_values, rng, nx_ids, xs_must)
            ys = _axis(ny, yb, gy * gz, size_values, rng, ny_ids, ys_must)
            pids = tuple((x, y % gy, y // gy) for x in xs for y in ys)
        case other:
            raise OutOfClass(f"grid type {other!r} is not modelled by the oracle (Grid1D, Grid2D, "
                             "Grid2DWithYZOverflow are)")
    return replace(_finish(rec, values, param_names, constexpr_names, pointer_names, scalars, blocks, grid, pids,
                           tile, loop, marks), data=data)


def _finish(rec, values, param_names, constexpr_names, pointer_names, scalars, blocks, grid, pids, tile, loop,
            marks) -> Launch:
    # a numel declared constexpr (a one-row kernel's ``xnumel``, fixed again in its body) is passed its value,
    # as Inductor's launcher passes it
    blocks = {**blocks, **{c: scalars[c] for c in constexpr_names if c not in blocks and c in scalars}}
    unknown = [c for c in constexpr_names if c not in blocks]
    if unknown:
        raise OutOfClass(f"constexpr parameters {unknown} have no value the oracle knows (only XBLOCK, YBLOCK, "
                         "R0_BLOCK)")
    if 0 in grid:
        raise OutOfClass(f"the launch grid {grid} is empty at {values}")
    constexprs = tuple(sorted((c, blocks[c]) for c in constexpr_names))
    wanted = {p for p in param_names if p not in constexpr_names and p not in pointer_names}
    return Launch(tuple(sorted((k, v) for k, v in scalars.items() if k in wanted)), constexprs, grid, pids,
                  tile, loop, marks)
