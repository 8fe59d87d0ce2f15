"""Parser: every captured kernel parses; unsupported constructs are refused by name, kernel and line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from workbench.capture import load
from workbench.errors import InputError, UnsupportedError, VersionMismatchError, WorkbenchError
from workbench.kir import Op, RefusedConstruct, i1, i32, i64, parse, walk
from workbench.kir.errors import KernelSourceError
from workbench.kir.table import readable

ROOT = Path(__file__).resolve().parents[2]
ALL_RECORDS = sorted((ROOT / "data" / "kernels").glob("*/*.json"))
RECORDS = readable(ALL_RECORDS)  # the others are refused by name: tests/kir/test_kir_corpus_classes.py

HEAD = "def k(in_ptr0: '*fp32', out_ptr0: '*fp32', ks0: 'i64', xnumel: 'i32', XBLOCK: tl.constexpr):\n"
PRE = (
    "    xoffset = tl.program_id(0) * XBLOCK\n"
    "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
    "    xmask = xindex < xnumel\n"
)
POST = "    tl.store(out_ptr0 + (xindex), tmp0, xmask)\n"


def kernel(body: str) -> str:
    return HEAD + PRE + body + POST


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_captured_kernel_parses(path):
    k = parse(load(path))
    assert k.stores and all(s.op is Op.STORE for s in k.stores)
    for n in (*k.loads, *k.stores):
        offset, mask = n.args[0], (n.args[2] if n.op is Op.STORE else n.args[1])
        assert not offset.payload and not mask.payload and mask.type == i1


def test_nested_cat_types_follow_triton_promotion():
    k = parse(load(ROOT / "data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.json"))
    by_name = {b.name: b.node for b in k.bindings}
    assert by_name["xindex"].type == i32  # program_id * XBLOCK + arange: int32
    assert by_name["x0"].type == i64  # int32 % int64 -> int64
    assert by_name["tmp0"].type == i32 and by_name["tmp2"].type == i1  # int32 >= tl.full(int64)... -> i1
    assert by_name["tmp2"].args[0].type == i64  # the comparison runs in int64 (strong tl.full constant)
    assert len(k.loads) == 8 and k.grid == "1d"


def test_weak_literal_takes_the_tensor_type_and_strong_constant_promotes():
    k = parse(kernel("    a = xindex + 1\n    b = xindex + tl.full([1], 1, tl.int64)\n    tmp0 = tl.load(in_ptr0 + (a + b), xmask)\n"))
    by = {x.name: x.node for x in k.bindings}
    assert by["a"].type == i32 and by["b"].type == i64


def test_bool_times_literal_is_int32_like_slice_step():
    k = parse(kernel("    w = (1) * ((1) >= (ks0)) + (ks0) * ((ks0) > (1))\n    tmp0 = tl.load(in_ptr0 + (w), xmask)\n"))
    w = {x.name: x.node for x in k.bindings}["w"]
    assert w.type == i64 and w.args[0].type == i64 and w.args[0].op is Op.CAST  # i32 * i1 -> i32, then + i64


def test_two_d_kernel_is_supported():
    k = parse(load(ROOT / "data/kernels/movedim/triton_poi_fused_clone_permute_0.json"))
    assert k.grid == "2d" and dict(k.blocks) == {"XBLOCK": "x", "YBLOCK": "y"}
    ops = {n.op for n in walk(*k.loads, *k.stores)}
    assert Op.NUM_PROGRAMS in ops


REFUSALS = [
    ("    for i in range(3):\n        pass\n    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n", "loop", 5),
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n    tl.atomic_add(out_ptr0 + (xindex), tmp0, xmask)\n", "atomic", 6),
    ("    tmp0 = tl.sum(tl.load(in_ptr0 + (xindex), xmask), 0)\n", "reduction", 5),
    ("    x0 = xindex\n    tmp0 = tl.load(in_ptr0 + (x0), xmask)\n    x0 = xindex + 1\n", "name reassigned after use", 7),
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n    xmask = xindex < 3\n", "name reassigned after use", 6),
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask).reshape([XBLOCK])\n", "attribute call outside the supported set", 5),
    ("    t = tl.load(in_ptr0 + (xindex), xmask).to(tl.int64)\n    tmp0 = tl.load(in_ptr0 + (t), xmask)\n", "indirect indexing", 6),
    # an assert on loaded data outside Inductor's forms (an index-only assert is dropped: test_kir_indirect)
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n    tl.device_assert(tmp0 != 3, 'oops')\n", "device assert", 6),
    ("    tmp0 = tl.inline_asm_elementwise('mov', '=r', [xindex], dtype=tl.int32, is_pure=True, pack=1)\n", "inline asm", 5),
    ("    t = libdevice.floor((xindex).to(tl.float32) / 3.0).to(tl.int32)\n    tmp0 = tl.load(in_ptr0 + (t), xmask)\n", "libdevice outside payload position", 6),
    ("    tmp0 = helper(tl.load(in_ptr0 + (xindex), xmask))\n", "unknown helper", 5),
    ("    if xindex < 3:\n        pass\n    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n", "control flow", 5),
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask) if True else 0\n", "conditional expression", 5),
    ("    tmp0 = tl.load(in_ptr0 + (xindex << 1), xmask)\n", "operator <<", 5),
    ("    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n    tmp1 = triton_helpers.maximum(xindex, ks0)\n", "libdevice outside payload position", 6),
    ("    t = (xindex).to(tl.uint32)\n    tmp0 = tl.load(in_ptr0 + (t), xmask)\n", "unsupported dtype", 5),
]


@pytest.mark.parametrize("body,construct,line", REFUSALS, ids=[r[1] + f"@{r[2]}" for r in REFUSALS])
def test_refusals_name_kernel_line_and_construct(body, construct, line):
    with pytest.raises(RefusedConstruct, match=rf"^k, line {line}: {construct} is not supported") as err:
        parse(kernel(body))
    assert err.value.kernel == "k" and err.value.line == line and err.value.construct == construct
    assert isinstance(err.value, UnsupportedError)


def test_bad_inputs_give_workbench_errors():
    with pytest.raises(KernelSourceError, match="line 1: not valid Python"):
        parse("def k(:\n")
    with pytest.raises(KernelSourceError, match="no kernel `def` found"):
        parse("x = 1\n")
    with pytest.raises(KernelSourceError, match="no type"):
        parse("def k(a):\n    pass\n")
    with pytest.raises(RefusedConstruct, match="kernel without a store"):
        parse(HEAD + PRE)
    with pytest.raises(InputError, match="not parse a int"):
        parse(3)  # type: ignore[arg-type]


def test_kernel_from_another_torch_version_is_named():
    ck = load(RECORDS[0])
    old = dataclasses.replace(ck, torch_version="2.5.1")
    with pytest.raises(VersionMismatchError, match=r"torch 2\.5\.1 .* re-capture it"):
        parse(old)
    parse(old, check_versions=False)
    renamed = dataclasses.replace(ck, signature={**ck.signature, "extra": "i64"})
    with pytest.raises(KernelSourceError, match="do not match the signature"):
        parse(renamed)


def test_truncated_source_is_an_input_error():
    ck = load(ROOT / "data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.json")
    text = ck.jit_source
    with pytest.raises(WorkbenchError):
        parse(text[: len(text) // 2] + "(", signature=ck.signature, name=ck.name)


def test_docs_table_is_current():
    from workbench.kir.table import BEGIN, END, corpus_table

    docs = (ROOT / "docs" / "kir.md").read_text()
    assert corpus_table([load(p) for p in ALL_RECORDS]) in docs, "regenerate with `python -m workbench.kir.table`"
    del BEGIN, END
