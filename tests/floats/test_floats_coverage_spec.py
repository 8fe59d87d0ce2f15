"""The tensor spec of KernelBench problems: static input reading, capture, and each evaluator against torch.

The evaluators in ``tensorspec.TENSOR_OPS`` are written from each op's documented definition; here they are
compared with torch (float64, CPU) on small modules that exercise the parameters KernelBench uses (groups,
dilation, stride, padding, output_padding, ceil_mode, count_include_pad), and on real problem files.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from workbench.floats.errors import SpecLoadError
from workbench.floats.problem_inputs import InputKind, read_inputs, shrunk
from workbench.floats.tensorspec import TENSOR_OPS, Family, capture, cross_check

from workbench.floats.coverage import LEVEL1

needs_level1 = pytest.mark.skipif(not LEVEL1.is_dir(), reason="KernelBench level 1 is not at ../shared/kernelbench")


def _problem(n: int):
    return next(LEVEL1.glob(f"{n}_*.py"))


@needs_level1
def test_inputs_are_read_statically_with_their_structure():
    sym = read_inputs(_problem(13)).inputs
    assert [i.structure for i in sym] == [("symmetric",), ("symmetric",)]
    ce = read_inputs(_problem(95)).inputs
    assert ce[1].kind is InputKind.INT and ce[1].shape == (32768,) and (ce[1].low, ce[1].high) == (0, 4096)
    scal = read_inputs(_problem(5)).inputs
    assert scal[1].kind is InputKind.NUMBER and scal[1].value == 3.14
    kl = read_inputs(_problem(98)).inputs
    assert kl[0].structure == ("softmax(dim=-1)",)
    pool = read_inputs(_problem(41))
    assert pool.init_args == (8, 1, 4, 3, False)


@needs_level1
def test_shrinking_keeps_the_constants_the_model_reads():
    p = read_inputs(_problem(47))  # reduce_dim is read by get_init_inputs, the sizes are not
    small = shrunk(p, 12)
    assert small.inputs[0].shape == (12, 12, 12) and small.init_args == p.init_args
    conv = shrunk(read_inputs(_problem(63)), 12)  # in_channels is an init argument: kept
    assert conv.inputs[0].shape[1] == read_inputs(_problem(63)).inputs[0].shape[1]


def test_a_bad_get_inputs_is_refused_with_its_line(tmp_path):
    p = tmp_path / "1_X.py"
    p.write_text("import torch\nclass Model:\n    pass\n\ndef get_inputs():\n    return [load_my_data()]\n")
    with pytest.raises(SpecLoadError, match=r"`load_my_data\(\)` at 1_X.py:6 is not a form the static reader takes"):
        read_inputs(p)


@needs_level1
@pytest.mark.parametrize("n, families", [(23, ("softmax",)), (47, ("reduction",)), (75, ("conv",)),
                                         (97, ("attention",)), (92, ("elementwise", "scan"))])
def test_capture_on_the_meta_device(n, families):
    spec = capture(_problem(n))
    assert tuple(f.value for f in spec.families) == families


@needs_level1
@pytest.mark.parametrize("n", [43, 72, 95, 99])  # 3-D max pool, grouped strided transposed 3-D conv, two losses
def test_evaluator_agrees_with_the_reference_model(n):
    xc = cross_check(_problem(n))
    assert xc is not None and xc.agrees, xc


def _torch64(fn, *xs):
    with torch.no_grad():
        return fn(*[torch.from_numpy(x) for x in xs]).numpy()


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, dilation=2, groups=2), dict(stride=1, padding=0),
                                dict(stride=3, padding=2, dilation=1, groups=4)])
def test_conv2d_matches_torch(kw):
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((2, 4, 9, 11)), rng.standard_normal((8, 4 // kw.get("groups", 1), 3, 2)), \
        rng.standard_normal(8)
    ev = TENSOR_OPS["aten.conv2d.default"].evaluate
    got = ev(x, w, b, kw.get("stride", 1), kw.get("padding", 0), kw.get("dilation", 1), kw.get("groups", 1))
    want = _torch64(lambda a, c, d: torch.nn.functional.conv2d(a, c, d, **kw), x, w, b)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, output_padding=1, groups=2, dilation=2),
                                dict(stride=3, padding=0, output_padding=2, groups=1, dilation=1)])
def test_conv_transpose1d_matches_torch(kw):
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((2, 4, 7)), rng.standard_normal((4, 3, 3))
    ev = TENSOR_OPS["aten.conv_transpose1d.default"].evaluate
    got = ev(x, w, None, kw["stride"], kw["padding"], kw["output_padding"], kw["groups"], kw["dilation"])
    want = _torch64(lambda a, c: torch.nn.functional.conv_transpose1d(a, c, None, **kw), x, w)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("count_include_pad", [False, True])
def test_avg_pool2d_matches_torch(ceil_mode, count_include_pad):
    x = np.random.default_rng(3).standard_normal((2, 3, 10, 9))
    got = TENSOR_OPS["aten.avg_pool2d.default"].evaluate(x, [3, 3], [2, 2], [1, 1], ceil_mode, count_include_pad)
    want = _torch64(lambda a: torch.nn.functional.avg_pool2d(a, 3, 2, 1, ceil_mode, count_include_pad), x)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_max_pool1d_matches_torch(ceil_mode):
    x = np.random.default_rng(4).standard_normal((2, 3, 20))
    got = TENSOR_OPS["aten.max_pool1d.default"].evaluate(x, [4], [3], [2], [2], ceil_mode)
    want = _torch64(lambda a: torch.nn.functional.max_pool1d(a, 4, 3, 2, 2, ceil_mode), x)
    np.testing.assert_allclose(got, want)


def test_every_op_has_a_family_and_a_definition():
    for name, op in TENSOR_OPS.items():
        assert isinstance(op.family, Family) and op.doc, name
