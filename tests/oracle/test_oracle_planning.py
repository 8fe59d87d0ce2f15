"""Kernel text, narrowed text, boundary shapes and launches — everything the oracle decides before Triton runs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.oracle.corpus import load_record, parse_record
from workbench.oracle.launch import OutOfClass, plan
from workbench.oracle.shapes import numel, saturate, search, valid
from workbench.oracle.source import NotTritonLanguage, OracleInputError, narrow, read

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "data" / "kernels"
ROTARY = KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"
BROADCAST = KERNELS / "broadcast_add" / "triton_poi_fused_add_0.json"
PIXEL = KERNELS / "pixel_shuffle_like" / "triton_poi_fused_clone_transpose_view_0.json"
MOVEDIM = KERNELS / "movedim" / "triton_poi_fused_clone_permute_0.json"

TOY = """import triton
import triton.language as tl

@triton.jit
def k(out_ptr0: '*fp32', ks0: 'i64', ks1: 'i32', xnumel: 'i32', XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    tl.store(out_ptr0 + xindex * ks0, xindex.to(tl.float32), xindex < xnumel)
"""


def _data(path: Path) -> dict:
    return json.loads(path.read_text())


# -- kernel text --------------------------------------------------------------------------------------------


def test_signature_is_read_from_triton_meta_and_narrowing_edits_only_those_literals():
    d = _data(ROTARY)
    wide = read(d["source"], d["name"])
    assert dict(wide.signature)["ks0"] == "i64" and dict(wide.signature)["xnumel"] == "i32"
    assert wide.constexprs == ("XBLOCK",)
    text = narrow(d["source"], d["name"], ("ks0",))
    assert dict(read(text, d["name"]).signature)["ks0"] == "i32"
    diff = [(a, b) for a, b in zip(d["source"].splitlines(), text.splitlines()) if a != b]
    assert len(diff) == 1 and diff[0][0].replace("'ks0': 'i64'", "'ks0': 'i32'") == diff[0][1]
    assert read(text, d["name"]).function == wide.function  # the body is untouched


def test_annotations_are_a_signature_too_and_are_narrowed():
    text = narrow(TOY, "k", ("ks0",))
    assert dict(read(text, "k").signature) == {"out_ptr0": "*fp32", "ks0": "i32", "ks1": "i32", "xnumel": "i32"}


@pytest.mark.parametrize("args, match", [
    (("ks1",), "declared 'i32', not 'i64'"),
    (("nope",), "declares no type"),
])
def test_only_i64_size_arguments_can_be_narrowed(args, match):
    with pytest.raises(OracleInputError, match=match):
        narrow(TOY, "k", args)


@pytest.mark.parametrize("edit, match", [
    (lambda s: s + "\n@triton.jit\ndef other(x):\n    pass\n", "exactly one @triton.jit function"),
    (lambda s: s.replace("def k(", "def j("), "the @triton.jit function is 'j'"),
    (lambda s: s + "\ndef k(x):\n    pass\n", "defined 2 times"),
    (lambda s: s.replace("ks0: 'i64'", "ks0"), "no declared type"),
    (lambda s: s.replace("XBLOCK: tl.constexpr):", "XBLOCK: tl.constexpr):\n  x = ("), "not Python"),
])
def test_which_function_is_the_kernel_is_never_guessed(edit, match):
    with pytest.raises(OracleInputError, match=match):
        read(edit(TOY), "k")


BODY = "    tl.store(out_ptr0 + xindex * ks0, xindex.to(tl.float32), xindex < xnumel)\n"


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace(BODY, BODY + "    x = __import__('os')\n"), "the name '__import__'"),
    (lambda s: s.replace(BODY, BODY + "    f = open('/tmp/oracle-escape', 'w')\n"), "the name 'open'"),
    (lambda s: s.replace(BODY, BODY + "    c = xindex.__class__\n"), "the attribute '__class__'"),
    (lambda s: s.replace(BODY, BODY + "    m = tl.core.os\n"), "tl.core.os"),
    (lambda s: s.replace(BODY, BODY + "    import os\n"), "a Import statement"),
    (lambda s: s.replace(BODY, BODY + "    for i in tl.range(3):\n        pass\n"), "a loop other than Inductor's"),
    (lambda s: s.replace(BODY, BODY + "    g = (lambda: 0)\n"), "a Lambda expression"),
    (lambda s: s.replace(BODY, BODY + "    y = xindex.item()\n"), "the method or attribute 'item'"),
    (lambda s: s.replace("XBLOCK: tl.constexpr)", "XBLOCK: tl.constexpr = print('x'))"), "defaults"),
    (lambda s: s.replace("ks1: 'i32'", "ks1: print('x')"), "annotation of 'ks1'"),
    (lambda s: s.replace(BODY, "    y = later + 1\n" + BODY), "the name 'later'"),
])
def test_only_triton_language_bodies_are_ever_run(edit, match):
    text = edit(TOY)
    assert text != TOY
    with pytest.raises(NotTritonLanguage, match=match):
        read(text, "k")


def test_conflicting_declarations_are_an_input_error():
    d = _data(BROADCAST)
    src = d["source"].replace("ks0, xnumel,", "ks0: 'i32', xnumel,")
    with pytest.raises(OracleInputError, match="declarations must agree"):
        read(src, d["name"])


# -- shapes -------------------------------------------------------------------------------------------------


def test_every_shape_satisfies_every_guard_and_the_boundaries_are_reached():
    rec = load_record(BROADCAST)
    shapes = search(rec)
    labels = [s.label for s in shapes]
    assert labels[0] == "lower bounds" and shapes[0].as_dict() == {"s27": 2, "s77": 2}
    assert all(valid(rec, s.as_dict()) for s in shapes)
    top = dict(next(s for s in shapes if s.label == "max s27").values)
    assert top == {"s27": 1073741823, "s77": 2} and numel(rec, top) == 2**31 - 2  # 2**31-1 is prime
    assert not valid(rec, dict(top, s27=top["s27"] + 1))
    assert any(lab.startswith("random") for lab in labels)


def test_saturation_respects_parity_guards():
    rec = load_record(PIXEL)  # Eq(s27, 2*((s27//2))): s27 even
    for s in search(rec):
        assert s.as_dict()["s27"] % 2 == 0 and valid(rec, s.as_dict())
    top = saturate(rec, {"s27": 4, "s77": 2}, "s27")
    assert top is not None and top["s27"] == 1073741822


def test_a_guard_tight_at_the_lower_bounds_is_not_pushed_away():
    rec = load_record(ROTARY)
    assert search(rec)[0].as_dict() == {"s27": 4, "s77": 2}  # s27 = 2, 3 violate Ne(...) guards


def test_unsatisfiable_guards_give_no_shape():
    d = _data(BROADCAST)
    d["guards"] = d["guards"] + ["s27 < 2"]
    assert search(parse_record(d, "test")) == []


# -- launches -----------------------------------------------------------------------------------------------


def test_1d_programs_include_first_last_and_witness_lanes():
    rec = load_record(ROTARY)
    shape = {"s27": 1073741823, "s77": 2}
    launch = plan(rec, shape, 0, random.Random(0), ("in_ptr0", "in_ptr1", "in_ptr2", "out_ptr0", "ks0", "xnumel",
                                                    "XBLOCK"), ("XBLOCK",), ("in_ptr0", "in_ptr1", "in_ptr2",
                                                                             "out_ptr0"), {"xindex": 1610612737})
    gx = -(-(2 * 1073741823) // 1024)
    assert launch.grid == (gx, 1, 1) and dict(launch.constexprs) == {"XBLOCK": 1024}
    xs = [p[0] for p in launch.pids]
    assert 0 in xs and gx - 1 in xs and 1610612737 // 1024 in xs and len(xs) <= 10
    assert dict(launch.scalars) == {"ks0": 1073741823, "xnumel": 2147483646}


def test_2d_grid_folds_y_beyond_65535_into_z_like_inductor():
    rec = load_record(MOVEDIM)  # xnumel = s77, ynumel = s27*s53
    params = ("in_ptr0", "out_ptr0", "ks0", "ks1", "ks2", "ynumel", "xnumel", "YBLOCK", "XBLOCK")
    launch = plan(rec, {"s27": 2, "s53": 2**24, "s77": 3}, 0, random.Random(0), params, ("YBLOCK", "XBLOCK"),
                  ("in_ptr0", "out_ptr0"))
    y_raw = -(-(2 * 2**24) // 32)
    y_div = -(-y_raw // 65535)
    assert launch.grid == (1, -(-y_raw // y_div), y_div) and y_div > 1
    assert all(p[1] < launch.grid[1] and p[2] < launch.grid[2] for p in launch.pids)
    assert any(p[2] > 0 for p in launch.pids)  # some program in the folded z dimension runs


def test_unknown_grid_type_is_out_of_class_by_name():
    d = _data(BROADCAST)
    d["grid_type"] = "CooperativeReductionGrid"
    with pytest.raises(OutOfClass, match="CooperativeReductionGrid"):
        plan(parse_record(d, "t"), {"s27": 2, "s77": 2}, 0, random.Random(0),
             ("in_ptr0", "in_ptr1", "out_ptr0", "ks0", "xnumel", "XBLOCK"), ("XBLOCK",),
             ("in_ptr0", "in_ptr1", "out_ptr0"))


# -- a property of the search on synthetic records ----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(c=st.integers(1, 7), lo_s=st.integers(0, 5), lo_t=st.integers(1, 5), parity=st.booleans(),
       bound=st.integers(10, 2**31 - 1))
def test_search_returns_only_valid_shapes_and_saturation_is_maximal(c, lo_s, lo_t, parity, bound):
    guards = [f"{c}*s*t <= {bound}"] + (["Eq(s, 2*((s//2)))"] if parity else [])
    d = {"program": "p", "name": "k", "source": "", "grid_type": "Grid1D", "signature": {}, "replacements": {},
         "symbols": [{"name": "s", "lower": lo_s, "upper": None}, {"name": "t", "lower": lo_t, "upper": None}],
         "guards": guards, "numels": [{"name": "xnumel", "expr": f"{c}*s*t", "type": "i32"}],
         "size_args": [{"name": "ks0", "expr": "s", "type": "i64"}]}
    rec = parse_record(d, "synthetic")
    shapes = search(rec)
    for shape in shapes:
        assert valid(rec, shape.as_dict())
    top = next((s.as_dict() for s in shapes if s.label == "max s"), None)
    if top is not None:  # nothing larger (within the parity step) is valid
        step = 2 if parity else 1
        assert not valid(rec, dict(top, s=top["s"] + step))
        assert c * (top["s"] + step) * top["t"] > bound
