"""Report 1's kernel variants (B0, N, N1, D) built from emitted source: each runs under Triton's interpreter
bitwise equal to eager; the transformations change exactly what they claim; the host-side constants of the
division helper are exact over the whole int32 numerator range."""

from __future__ import annotations

import ast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.bench import fixture, harness
from workbench.errors import UsageError
from workbench.programs import get
from workbench.rule import variants as V


@pytest.fixture(autouse=True)
def _interpret(monkeypatch):
    # triton.jit reads TRITON_INTERPRET when it decorates, so setting it here is enough.
    monkeypatch.setenv("TRITON_INTERPRET", "1")


def _run(kernel, name, shape, xblock=32):
    import torch

    program = get(kernel.program)
    ins = harness._inputs(program, tuple(shape.items()), "cpu", 3, interpreted=True)
    ref = program.fn(*ins)
    var = V.build(kernel, name)
    tensors, sizes, xnumel = harness.bind(kernel, program, ins, var.params)
    out = torch.full_like(ref, float("nan"))
    V.launch(var, V.load(var), {**tensors, "out_ptr0": out}, sizes, xnumel, xblock)
    return out, ref


SHAPES = [{"rows": 7, "q": 11, "k": 5, "v": 3}, {"rows": 3, "q": 9, "k": 4, "v": 6}, {"rows": 2, "q": 2, "k": 2, "v": 2}]


@pytest.mark.parametrize("name", list(V.VARIANTS))
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s.values())))
def test_variant_equals_eager_under_interpreter(name, shape):
    if name == "P":  # P is built from a partial certificate; the hand-written stand-in has none
        with pytest.raises(V.VariantError, match="only for certified kernels"):
            V.build(fixture.kernel(), name)
        return
    out, ref = _run(fixture.kernel(), name, shape)
    assert harness.bitwise_equal(out, ref)


@pytest.mark.slow
def test_variants_of_the_captured_kernel_equal_eager():
    from workbench.capture import capture

    kernel = capture("nested_cat_add", device="cuda")[0]
    for name in V.VARIANTS:
        for shape in SHAPES[:2]:
            out, ref = _run(kernel, name, shape, xblock=64)
            assert harness.bitwise_equal(out, ref), (name, shape)


def _body(source: str) -> str:
    return source[source.index("):\n") + 3 :]


def test_b0_keeps_body_and_signature():
    k = fixture.kernel()
    v = V.build(k, "B0")
    assert _body(fixture.SOURCE) in v.source
    assert v.types == {"ks0": "i64", "ks1": "i64", "ks2": "i64", "ks3": "i64", "xnumel": "i32"}
    assert "ks0: 'i64'" in v.source and "do_not_specialize=" in v.source


def test_n1_changes_only_the_size_argument_types():
    k = fixture.kernel()
    b0, n1 = V.build(k, "B0"), V.build(k, "N1")
    assert _body(fixture.SOURCE) in n1.source
    assert n1.types == {**b0.types, "ks0": "i32", "ks1": "i32", "ks2": "i32", "ks3": "i32"}
    a, b = b0.source.splitlines(), n1.source.splitlines()
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    assert len(differing) == 1 and b[differing[0]].startswith("def triton_poi_fused_cat_0_N1(")
    assert n1.fn_name != b0.fn_name  # distinct functions in one process


def test_guarded_n_keeps_the_original_body_as_fallback():
    v = V.build(fixture.kernel(), "N")
    assert v.types["ks0"] == "i64"  # signature unchanged
    then_part, else_part = v.source.split("\n    else:\n")
    assert "ks0_n = ks0.to(tl.int32)" in then_part
    assert "(ks0 >= 0) & (ks0 <= 2147483647)" in then_part
    original = "".join("    " + ln + "\n" for ln in _body(fixture.SOURCE).splitlines())
    assert else_part == original
    ast.parse(v.source)


def test_division_helper_replaces_xindex_divisions_and_adds_host_constants():
    v = V.build(fixture.kernel(), "D")
    assert "xindex // ks0" not in v.source and "xindex % ks0" not in v.source
    assert [h.name for h in v.host_args] == ["ks0_mul", "ks0_shift"]
    assert v.params[-2:] == ("ks0_mul", "ks0_shift")
    m, s = V.magic(2 * (11 + 5 + 3))
    assert V.host_args(v, {"ks0": 38}, xnumel=7 * 38, xblock=32) == {"ks0_mul": m, "ks0_shift": s}


def test_division_helper_refuses_a_kernel_without_division():
    k = fixture.kernel()
    src = fixture.SOURCE.replace("(xindex % ks0)", "xindex").replace("xindex // ks0", "xindex")
    k2 = type(k)(**{**{f: getattr(k, f) for f in k.__dataclass_fields__}, "source": src})
    with pytest.raises(V.VariantError, match="no `xindex // ks`.*division helper does not apply"):
        V.build(k2, "D")


def test_unknown_variant_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown variant 'N2'; known variants: B0, N, N1, D"):
        V.build(fixture.kernel(), "N2")


def test_n1_refuses_sizes_that_do_not_fit_int32():
    v = V.build(fixture.kernel(), "N1")
    with pytest.raises(UsageError, match="ks1 = 2147483648 does not fit int32"):
        V.host_args(v, {"ks0": 4, "ks1": 2**31, "ks2": 1, "ks3": 1}, 8, 32)


def test_division_helper_refuses_grids_beyond_int32():
    v = V.build(fixture.kernel(), "D")
    with pytest.raises(UsageError, match="exact only below 2\\*\\*31"):
        V.host_args(v, {"ks0": 4}, xnumel=2**31 + 5, xblock=1024)


def test_interpreter_scalars_are_typed_int64():
    import triton.language as tl

    assert V.scalar_value(5, "i32", interpret=True) == 5
    assert V.scalar_value(5, "i64", interpret=False) == 5
    t = V.scalar_value(5, "i64", interpret=True)
    assert t.dtype == tl.int64
    with pytest.raises(UsageError, match="declared i32 but does not fit"):
        V.scalar_value(2**31, "i32", interpret=True)


@pytest.mark.parametrize("d", [1, 2, 3, 7, 38, 1000, 2**16 + 1, 2**30, 2**30 + 1, 2**31 - 1])
def test_magic_is_exact_at_the_edges(d):
    m, s = V.magic(d)
    assert m <= 2**32
    n = np.array([0, 1, d - 1, d, d + 1, 2**31 - 2, 2**31 - 1] + list(range(0, 2**31, 2**31 // 997)), dtype=np.int64)
    n = n[n >= 0]
    assert np.array_equal((n * m) >> s, n // d)  # n*m < 2**63: exact in int64


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**31 - 1), st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=64))
def test_magic_matches_floor_division(d, ns):
    m, s = V.magic(d)
    n = np.array(ns, dtype=np.int64)
    assert np.array_equal((n * m) >> s, n // d)


def test_magic_rejects_divisors_outside_int32():
    with pytest.raises(UsageError, match="divisor 0 is outside"):
        V.magic(0)


def test_scan_and_one_row_kernels_build_variants_that_load():
    """A scan's combine helper travels with the variant; a constexpr ``xnumel`` the body fixes stays in place."""
    from workbench.capture import load as load_rec
    from workbench.paths import KERNELS
    from workbench.rule import variants as VV

    scan = VV.build(load_rec(KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"), "N1")
    assert "def _triton_helper_fn_add0(arg0_0, arg1_0):" in scan.source and "ks0: 'i32'" in scan.source
    VV.load(scan)
    one = VV.build(load_rec(KERNELS / "cross_entropy" / "triton_red_fused__log_softmax_nll_loss_forward_1.json"), "N1")
    assert "ks0: 'i32', xnumel: tl.constexpr, r0_numel: 'i32', XBLOCK: tl.constexpr" in one.source
    VV.load(one)
