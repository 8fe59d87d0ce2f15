"""The Lean model against the team's IR evaluator: every corpus kernel that ``workbench.kir`` parses is
converted to Lean terms, and the Python mirror of ``Narrowing.Expr.eval`` must give the same load and store
offsets and masks as ``workbench.kir.evaluate``, wide and narrowed, at sampled shapes and lanes (including
shapes whose sizes overflow int32, where the two modes differ). Lanes are random and boundary ones (first and
last program along every axis of the launched grid, first and last position in every block); 2-D kernels
(``Grid2DWithYZOverflow``) are compared at (x, y) lanes with all three program ids and ``num_programs``."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from workbench import kir  # noqa: E402 - an import error fails, never skips
import workbench.capture.record as record  # noqa: E402

from workbench.errors import WorkbenchError  # noqa: E402
from workbench.lean.from_kir import kernel_terms  # noqa: E402
from workbench.lean.hand_built import nested_cat_add, tile  # noqa: E402
from workbench.kir.indirect import is_indirect  # noqa: E402
from workbench.lean.instance import assumes_in  # noqa: E402
from workbench.lean.model import NARROW, WIDE, Lane, evaluate  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data" / "kernels"
PROGRAMS = sorted(p.name for p in DATA.iterdir() if p.is_dir()) if DATA.exists() else []


def _parsed(program):
    out = []
    for rec in record.load_dir(DATA / program):
        try:
            k = kir.parse(rec)
        except WorkbenchError:
            continue  # refused by the IR (its own tests cover why)
        out.append((rec, k))
    return out


def _size_sets(rec, rng):
    syms = [(s.name, max(1, s.lower or 1)) for s in rec.symbols]
    yield {n: lo for n, lo in syms}
    yield {n: rng.randint(lo, lo + 50) for n, lo in syms}
    yield {n: rng.choice([lo, 3, 70_000, 2**31 - 3, 2**32 + 5]) for n, lo in syms}


def _lanes(k, ln, values, rng, count):
    """Pairs (kir lane, model lane) for one launch: ``count`` random lanes, then the boundary ones."""
    blocks = dict(ln.blocks)
    names = ("XBLOCK", "YBLOCK") if k.grid == "2d" else ("XBLOCK",)
    sizes = tuple(blocks[b] for b in names)
    axes = 3 if k.grid == "2d" else 1
    grid = tuple(ln.grid[:axes])
    picks = []
    for _ in range(count):
        picks.append((tuple(rng.randrange(max(1, min(g, 2**21))) for g in grid), tuple(rng.randrange(b) for b in sizes)))
    for corner in range(2 ** (axes + len(sizes))):  # first/last program per axis x first/last position per block
        bits = [(corner >> i) & 1 for i in range(axes + len(sizes))]
        pid = tuple(max(0, g - 1) if bit else 0 for g, bit in zip(grid, bits[:axes]))
        pos = tuple(b - 1 if bit else 0 for b, bit in zip(sizes, bits[axes:]))
        picks.append((pid, pos))
    for pid, pos in picks:
        if k.grid == "2d":
            klane = kir.Lane(pid, tuple(zip(names, pos)), ln.grid)
            yield klane, Lane.xy(pid, ln.grid, pos, sizes, values)
        else:
            yield kir.Lane.x(pid[0], pos[0], ln.grid[0]), Lane.x(pid[0], pos[0], sizes[0], values, ln.grid[0])


INDIRECT: dict[str, int] = {}  # kernel -> active loads compared whose address goes through an asserted index


def _contents(seed: int):
    """Index tensors' contents for indirect kernels (``kir.evaluate``'s ``data``): small indices, negative ones
    (``index_select`` wraps them by the table size) and a few far out of any bound (Lean's mirror and kir
    evaluate the value unchecked; the device_assert premise is the theorem's business, not eval's)."""
    def data(pointer: str, offset: int) -> int:
        h = (offset * 2654435761 + seed * 97 + len(pointer)) % 1009
        return h - 300 if h < 1000 else 2**40 + h
    return data


def _compare(k, terms, sizes, rng, lanes=12):
    ln = kir.launch(k, sizes)
    args = dict(ln.args)
    values = tuple(args[n] for n in terms.scalars)
    data = _contents(rng.randrange(1000))
    compared = 0
    for klane, lane in _lanes(k, ln, values, rng, lanes):
        lane = dataclasses.replace(lane, mem=lambda p, a: data(terms.pointers[p], a))
        for mode, kmode in ((WIDE, kir.WIDE), (NARROW, kir.NARROW)):
            try:
                res = kir.evaluate(k, ln, klane, kmode, data=data)
            except WorkbenchError:
                continue  # undefined behaviour (a divisor wrapped to 0): Lean's tdiv is total, kir refuses
            memo: dict = {}
            for ld, acc in zip(terms.loads, res.loads):
                assert bool(evaluate(mode, lane, ld.mask, memo)) == acc.mask, (k.name, mode, sizes, lane)
                if acc.offset is not None:  # None: masked off, through a masked-off (unspecified) index
                    assert evaluate(mode, lane, ld.offset, memo) == acc.offset, (k.name, mode, sizes, lane)
                    INDIRECT[k.name] = INDIRECT.get(k.name, 0) + bool(acc.mask and assumes_in([ld.offset]))
            st = res.store
            assert bool(evaluate(mode, lane, terms.store.mask, memo)) == st.mask, (k.name, mode, sizes, lane)
            assert evaluate(mode, lane, terms.store.offset, memo) == st.offset, (k.name, mode, sizes, lane)
            compared += 1
    return compared


@pytest.mark.parametrize("program", PROGRAMS)
def test_lean_terms_from_kir_agree_with_kir_evaluator(program):
    rng = random.Random(f"lean-{program}")
    compared = 0
    converted = 0
    for rec, k in _parsed(program):
        if k.reduction is not None:  # lanes here have no r position or step: test_lean_reduction_kir.py compares them
            continue
        try:
            terms = kernel_terms(k)
        except WorkbenchError as exc:
            assert "not modelled" in str(exc) or "no Lean counterpart" in str(exc) or "stores" in str(exc), exc
            continue
        converted += 1
        for sizes in _size_sets(rec, rng):
            compared += _compare(k, terms, sizes, rng)
    if converted == 0:
        pytest.skip(f"{program}: no pointwise kernel both parsed by workbench.kir and inside the Lean model (one store); "
                    "reductions are compared per step in test_lean_reduction_kir.py")
    assert compared > 0
    for rec, k in _parsed(program):
        if k.reduction is None and is_indirect(k):  # addresses through loaded indices were compared
            assert INDIRECT.get(k.name, 0) > 0, k.name


@pytest.mark.parametrize("make,program", [(nested_cat_add, "nested_cat_add"), (tile, "tile")])
def test_lean_hand_built_terms_match_kir_terms(make, program):
    """The hand transcriptions agree with the parser's terms on every load and the store, both widths."""
    inst = make()
    (rec, k), = _parsed(program)
    terms = kernel_terms(k)
    assert len(terms.loads) == len(inst.loads)
    assert [ld.ptr for ld in terms.loads] == [ld.ptr for ld in inst.loads]
    rng = random.Random(program)
    for sizes in _size_sets(rec, rng):
        ln = kir.launch(k, sizes)
        values = tuple(dict(ln.args)[n] for n in terms.scalars)
        for _ in range(40):
            lane = Lane.x(rng.randrange(max(1, min(ln.grid[0], 2**21))), rng.randrange(1024), 1024, values)
            for mode in (WIDE, NARROW):
                m1, m2 = {}, {}
                for a, b in zip(inst.loads, terms.loads):
                    assert evaluate(mode, lane, a.mask, m1) == evaluate(mode, lane, b.mask, m2)
                    assert evaluate(mode, lane, a.offset, m1) == evaluate(mode, lane, b.offset, m2)
                assert evaluate(mode, lane, inst.store.offset, m1) == evaluate(mode, lane, terms.store.offset, m2)


@pytest.mark.parametrize("program", ["movedim", "permute_3d", "transpose_contig", "pixel_shuffle_like"])
def test_lean_terms_cover_2d_kernels(program):
    """The 2-D kernels convert (no refusal) and use both axes: program ids 0-2, num_programs(1), both blocks."""
    from workbench.lean.instance import TermOp

    two_d = [(rec, k) for rec, k in _parsed(program) if k.grid == "2d"]
    assert two_d, f"{program}: no 2-D kernel captured"
    for _rec, k in two_d:
        terms = kernel_terms(k)
        leaves = set()

        def visit(t):
            if t.op in (TermOp.PROGRAM_ID, TermOp.NUM_PROGRAMS, TermOp.ARANGE, TermOp.BLOCK):
                leaves.add((t.op, t.value))
            for a in t.args:
                visit(a)

        for ld in terms.loads:
            visit(ld.offset), visit(ld.mask)
        visit(terms.store.offset), visit(terms.store.mask)
        assert {(TermOp.PROGRAM_ID, 0), (TermOp.PROGRAM_ID, 1), (TermOp.PROGRAM_ID, 2), (TermOp.NUM_PROGRAMS, 1),
                (TermOp.ARANGE, 0), (TermOp.ARANGE, 1), (TermOp.BLOCK, 0), (TermOp.BLOCK, 1)} <= leaves, (k.name, leaves)


ZOO_POINTWISE = sorted((Path(__file__).parent / "data" / "zoo").glob("triton_poi_*.json"))


@pytest.mark.parametrize("path", ZOO_POINTWISE, ids=lambda p: p.stem[:40])
def test_lean_terms_of_zoo_pointwise_kernels_agree_with_kir_evaluator(path):
    """The zoo's pointwise kernels kept for the newer constructs (div_floor_integer's dead branches, `Max(1, e)`
    as comparisons, a floor by a size): their terms against kir's evaluator, wide and narrowed."""
    rec = record.load(path)
    k = kir.parse(rec)
    terms = kernel_terms(k)
    rng = random.Random(path.stem)
    compared = 0
    for sizes in _size_sets(rec, rng):
        compared += _compare(k, terms, sizes, rng)
    assert compared > 0
