"""Lane-by-lane comparison and fake memory (pure numpy; no Triton)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.oracle.compare import compare
from workbench.oracle.memory import Access, Kind, as_bits, bases, load_bits, locate

B = 8


def _load(addr, mask):
    return Access(Kind.LOAD, "fp32", np.asarray(addr, dtype=np.uint64), np.asarray(mask, dtype=bool), None)


def _store(addr, mask, bits):
    return Access(Kind.STORE, "fp32", np.asarray(addr, dtype=np.uint64), np.asarray(mask, dtype=bool),
                  np.asarray(bits, dtype=np.uint32))


BASE = np.uint64(1 << 56)
ADDR = BASE + 4 * np.arange(B, dtype=np.uint64)
MASK = np.arange(B) < 6  # two inactive lanes at the end


def test_identical_traces_agree_and_are_counted():
    trace = [_load(ADDR, MASK), _store(ADDR, MASK, np.arange(B))]
    c = compare(trace, list(trace), (B,))
    assert (c.lanes, c.active_lanes, c.accesses, c.disagreement_count) == (B, 6, 12, 0)


def test_an_address_difference_on_an_active_lane_is_a_disagreement():
    other = ADDR.copy()
    other[3] += np.uint64(4)
    c = compare([_load(ADDR, MASK)], [_load(other, MASK)], (B,))
    assert c.disagreement_count == 1
    d = c.disagreements[0]
    assert (d.access, d.what, d.lane) == ("load 0", "address", (3,))
    assert d.wide[0] != d.narrowed[0] and d.wide[1] and d.narrowed[1]


def test_differences_on_lanes_inactive_in_both_are_only_counted():
    other = ADDR.copy()
    other[7] = np.uint64(2**63)  # rotary-like: a wild offset where the mask is false
    c = compare([_load(ADDR, MASK)], [_load(other, MASK)], (B,))
    assert c.disagreement_count == 0 and c.inactive_differences == 1


def test_masked_differences_below_numel_are_kept_apart_for_strict_mode():
    other = ADDR.copy()
    other[6] = np.uint64(2**63)  # masked, below numel
    other[7] = np.uint64(2**62)  # masked, past numel
    in_range = np.arange(B) < 7
    c = compare([_load(ADDR, MASK)], [_load(other, MASK)], (B,), in_range)
    assert (c.disagreement_count, c.inactive_differences, c.masked_differences) == (0, 2, 1)
    assert [(d.what, d.lane) for d in c.masked] == [("masked address", (6,))]


def test_a_lane_active_in_only_one_kernel_is_a_disagreement():
    narrowed_mask = MASK.copy()
    narrowed_mask[0] = False
    c = compare([_load(ADDR, MASK)], [_load(ADDR, narrowed_mask)], (B,))
    assert [(d.what, d.lane) for d in c.disagreements] == [("mask", (0,))]


def test_stored_bits_are_compared_where_the_address_agrees():
    bits = np.arange(B)
    other = bits.copy()
    other[2] = 99
    c = compare([_store(ADDR, MASK, bits)], [_store(ADDR, MASK, other)], (B,))
    assert [(d.what, d.lane, d.wide[2], d.narrowed[2]) for d in c.disagreements] == [("value", (2,), 2, 99)]


def test_a_different_access_sequence_is_a_disagreement():
    c = compare([_load(ADDR, MASK)], [_load(ADDR, MASK), _load(ADDR, MASK)], (B,))
    assert c.disagreement_count == 1 and c.disagreements[0].what == "count"


def test_2d_lanes_are_reported_as_y_x():
    shape = (2, 4)
    addr = ADDR.reshape(shape)
    other = addr.copy()
    other[1, 2] += np.uint64(4)
    c = compare([_load(addr, np.ones(shape, bool))], [_load(other, np.ones(shape, bool))], shape)
    assert c.disagreements[0].lane == (1, 2)


@pytest.mark.parametrize("element, dtype", [("fp32", np.float32), ("bf16", np.uint16), ("fp16", np.float16),
                                            ("fp64", np.float64), ("i32", np.int32), ("i1", bool)])
def test_load_values_are_a_deterministic_function_of_the_address(element, dtype):
    addr = BASE + np.arange(4096, dtype=np.uint64)
    v = load_bits(addr, element)
    assert v.dtype == np.dtype(dtype) and np.array_equal(v, load_bits(addr.copy(), element))
    if element.startswith("fp"):
        assert np.isfinite(v.astype(np.float64)).all()
    distinct = len(np.unique(as_bits(v, element)))
    assert distinct > {"i1": 1, "bf16": 1500}.get(element, 3000)  # neighbouring addresses get different values


def test_bases_are_far_apart_and_addresses_decode_to_pointer_and_offset():
    where = bases(["in_ptr0", "in_ptr1", "out_ptr0"])
    assert locate(where["in_ptr1"] + 4 * 1000, where) == ("in_ptr1", 4000)
    assert locate((where["in_ptr0"] - 8) % 2**64, where) == ("in_ptr0", -8)
    assert locate(where["in_ptr0"] + 2**60, where) is None  # too far from every base to name one
