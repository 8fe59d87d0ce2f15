"""Indirect indexing in the IR (issue 13): tl.device_assert read as a premise, loads through loaded indices,
tl.where-wrapped indices, bare literal assignments; evaluation with index data; the interpreter cross-check."""

from __future__ import annotations

from dataclasses import replace

import pytest

from workbench import kir
from workbench.capture.record import jit_function_text, load
from workbench.kir import Op, indirect
from workbench.paths import KERNELS

EMBEDDING = KERNELS / "embedding" / "triton_poi_fused_embedding_0.json"
INDEX = KERNELS / "index_tensor" / "triton_poi_fused_index_0.json"
ASSERT = 'tl.device_assert(((0 <= tmp0) & (tmp0 < ks1)) | ~(xmask), "index out of bounds: 0 <= tmp0 < ks1")'


def edited(path, old: str, new: str):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new)))


def test_the_captured_embedding_kernel_binds_its_index_to_an_assumption():
    k = kir.parse(load(EMBEDDING))
    assumes = [n for n in k.nodes() if n.op is Op.ASSUME]
    assert len(assumes) == 1
    a = assumes[0]
    assert a.args[0].op is Op.LOAD and a.args[0].type == kir.i64  # the index keeps its element type
    assert not a.payload  # an index term, so ks0 * tmp0 is integer arithmetic the checker bounds
    offsets = [ld.args[0] for ld in k.loads]
    assert any(a in kir.walk(o) for o in offsets)
    (p,) = indirect.premises(k)
    assert p.text == "assumes 0 <= tmp0 < ks1 where xmask from device_assert at line 9"


def test_the_index_product_is_int64_in_both_kernels():
    # Triton's promotion: an int64 loaded index times a size argument is int64 whether ks0 is i64 or i32.
    k = kir.parse(load(EMBEDDING))
    n = kir.instantiate(k, kir.NARROW)
    muls = [x for x in n.nodes() if x.op is Op.MUL and any(a.op is Op.ASSUME for a in x.args)]
    assert muls and all(m.type == kir.i64 for m in muls)


def test_the_where_wrapped_index_is_assumed_after_the_wrap():
    k = kir.parse(load(INDEX))
    (a,) = [n for n in k.nodes() if n.op is Op.ASSUME]
    assert a.args[0].op is Op.WHERE  # tmp4 = tl.where(tmp0 < 0, tmp0 + ks1, tmp0)
    assert indirect.premises(k)[0].text.startswith("assumes 0 <= tmp4 < ks1 where xmask")


@pytest.mark.parametrize("path", [EMBEDDING, INDEX])
def test_render_reparses_to_the_same_hash(path):
    k = kir.parse(load(path))
    text = kir.render(k)
    assert "tl.device_assert(" in text
    assert kir.canonical_hash(kir.parse(text)) == kir.canonical_hash(k)


def test_a_load_through_an_index_without_an_assert_is_refused_by_name():
    rec = edited(EMBEDDING, ASSERT, "pass")
    with pytest.raises(kir.RefusedConstruct, match="indirect indexing.*no tl.device_assert"):
        kir.parse(rec)


def test_an_assert_after_the_use_does_not_dominate_it():
    rec = load(EMBEDDING)
    body = jit_function_text(rec.source, rec.name)
    lines = body.splitlines()
    i = next(j for j, x in enumerate(lines) if "device_assert" in x)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]  # the use first, then the assert
    rec = replace(rec, source=rec.source.replace(body, "\n".join(lines) + "\n"))
    with pytest.raises(kir.RefusedConstruct, match="indirect indexing"):
        kir.parse(rec)


@pytest.mark.parametrize("cond,match", [
    ("(tmp0 <= ks1)", "indirect indexing"),  # bounds ks1, not tmp0: dropped, so the use has no premise
    ("((0 <= tmp0) & (x0 < ks1))", "device assert"),  # two different values
    ("((0 <= tmp0) & (tmp0 < tmp0))", "depends on loaded data"),
    ("((0 <= tmpX) & (tmpX < ks1))", "not a value assigned"),
])
def test_asserts_outside_the_premise_forms_are_refused(cond, match):
    rec = edited(EMBEDDING, ASSERT, f'tl.device_assert({cond} | ~(xmask), "msg")')
    with pytest.raises(kir.RefusedConstruct, match=match):
        kir.parse(rec)


def test_the_evaluator_needs_data_for_an_address_through_an_index():
    k = kir.parse(load(EMBEDDING))
    ln = kir.launch(k, {"s36": 9, "s85": 7, "s95": 5})
    with pytest.raises(kir.EvaluationError, match="pass data="):
        kir.evaluate(k, ln, kir.Lane.x(0, 3))
    r = kir.evaluate(k, ln, kir.Lane.x(0, 10), data=lambda p, o: 4)
    # xindex 10: x1 = 10 // 7 = 1 (the index's own address), x0 = 3; the table row 4: 3 + 7*4
    assert (r.loads[0].offset, r.loads[1].offset) == (1, 31)


def test_the_evaluator_computes_the_wrap_on_concrete_data():
    k = kir.parse(load(INDEX))
    ln = kir.launch(k, {"ks0": 3, "ks1": 11, "xnumel": 15})
    r = kir.evaluate(k, ln, kir.Lane.x(0, 0), data=lambda p, o: -1)
    assert r.loads[1].offset == 3 * (11 - 1)  # x[-1] is the last of the 11 rows of width 3
    r = kir.evaluate(k, ln, kir.Lane.x(0, 4), data=lambda p, o: 2)
    assert r.loads[1].offset == 1 + 3 * 2  # lane 4: column 1 of row 2


def test_a_bare_literal_is_a_strong_int32_scalar():
    text = '''
def k(in_ptr0: '*fp32', out_ptr0: '*fp32', ks0: 'i64', ynumel: 'i32', XBLOCK: tl.constexpr, YBLOCK: tl.constexpr):
    xnumel = 192
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[None, :]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex + 192*yindex), xmask & ymask)
    tl.store(out_ptr0 + (yindex + ks0*xindex), tmp0, xmask & ymask)
'''
    k = kir.parse(text)
    (b,) = [x for x in k.bindings if x.name == "xnumel"]
    assert b.node.op is Op.CONST and b.node.attr == (192, False) and b.node.type == kir.i32
    ln = kir.launch(k, {"ks0": 5, "ynumel": 5}, {"XBLOCK": 64, "YBLOCK": 8})
    assert ln.arg("xnumel") == 192 and ln.grid[0] == 3


def test_an_unsigned_bare_literal_is_refused():
    text = '''
def k(out_ptr0: '*i64', xnumel: 'i32', XBLOCK: tl.constexpr):
    big = 3000000000
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    tl.store(out_ptr0 + (xindex), big + xindex, xindex < xnumel)
'''
    with pytest.raises(kir.RefusedConstruct, match="unsigned integer literal"):
        kir.parse(text)


@pytest.mark.slow
def test_the_interpreter_agrees_through_loaded_indices():
    """Triton's interpreter with index tensors in range of every premise (negative ones for the wrap):
    every address, wide and narrowed, at 4 shapes including one past the int32 guard."""
    from workbench.kir.crosscheck import crosscheck

    reports = crosscheck([load(EMBEDDING), load(INDEX)], lanes=80)
    for r in reports:
        assert r.status == "compared"
        assert r.lanes >= 160 and not r.mismatches, r.mismatches[:3]


STATIC = KERNELS / "transpose_static" / "triton_poi_fused_clone_t_0.json"


def test_a_static_extent_written_over_the_numel_parameter_is_the_launch_extent():
    """Inductor's ``ynumel = 6`` (a Grid2D kernel with a static y extent) rebinds the parameter before any use."""
    rec = load(STATIC)
    assert "    ynumel = 6\n" in rec.jit_source and rec.grid_type == "Grid2D"
    k = kir.parse(rec)
    (b,) = [x for x in k.bindings if x.name == "ynumel"]
    assert b.node.attr == (6, False) and b.node.type == kir.i32
    ln = kir.launch(k, {"s77": 9}, {"XBLOCK": 4, "YBLOCK": 4})
    assert ln.arg("ynumel") == 6 and ln.grid == (3, 2, 1)


def test_a_numel_parameter_rebound_after_its_use_is_refused():
    rec = load(STATIC)
    body = jit_function_text(rec.source, rec.name)
    moved = body.replace("    ynumel = 6\n", "").replace("    ymask = yindex < ynumel\n",
                                                          "    ymask = yindex < ynumel\n    ynumel = 6\n")
    with pytest.raises(kir.RefusedConstruct, match="name reassigned after use"):
        kir.parse(replace(rec, source=rec.source.replace(body, moved)))


def test_grid2d_reading_program_id_2_is_refused():
    rec = load(STATIC)
    body = jit_function_text(rec.source, rec.name)
    bad = body.replace("tl.program_id(1) * YBLOCK", "(tl.program_id(1) + tl.program_id(2)) * YBLOCK")
    with pytest.raises(kir.RefusedConstruct, match="Grid2D launches no z programs"):
        kir.parse(replace(rec, source=rec.source.replace(body, bad)))


@pytest.mark.slow
def test_the_interpreter_agrees_on_the_static_extent():
    from workbench.kir.crosscheck import crosscheck

    (r,) = crosscheck([load(STATIC)], lanes=80)
    assert r.status == "compared" and r.lanes >= 160 and not r.mismatches, r.mismatches[:3]
