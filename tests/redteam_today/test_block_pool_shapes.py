"""RED TEAM (2026-12-06, fe2a7c9 floats/block pools): wrong KernelBench answers called "equivalent over the reals".

Not a spec-rule error (the pool rules agree with torch here): a gap in the shapes the block level decides at
(``decide.choose_shapes``). Every pooled extent becomes ``window - 2*padding + 3*stride`` (main shape) and
``window - 2*padding + stride`` (tiny shape), so

* distinct pooled extents of the problem collapse to one value: problem 46 pools a 128 x 128 x 256 input, both
  decided shapes are cubes (7x7x7, 3x3x3), and an answer that takes the output width from the input *height*
  (wrong at the problem's own shape: width 64 instead of 128) is equivalent there;
* ``L + 2p - window`` is always a multiple of the stride, so floor and ceil mode give the same output extent:
  problem 43's answer with a ceil-mode output extent (63 instead of 62 at the problem's 128) is equivalent there.

Both are caught (reals: not equivalent, output shapes differ) at 2x3x7x7x9 and 2x3x12x11x11 (``--shapes``), so
the failure is the shape choice, not a rule and not "only at larger shapes". Fixed in ``decide.choose_shapes``:
decided extents are one-to-one with the problem's (``_distinct``) and a pooled extent is one element off its
stride; the tests assert the correct outcome.
"""

from pathlib import Path

import pytest

from workbench.paths import KERNELBENCH_LEVEL1 as LEVEL1

DATA = Path(__file__).parent / "data"


def _available() -> str | None:
    if not LEVEL1.is_dir():
        return "KernelBench level 1 is not at ../shared/kernelbench"
    from workbench.floats.coverage import block_level_available
    return block_level_available()


needs_block = pytest.mark.skipif(_available() is not None, reason=str(_available()))


def _reals(problem: str, answer: str):
    from workbench.floats.block import BlockOptions, RealStatus, check_block
    v = check_block(next(LEVEL1.glob(f"{problem}_*.py")), DATA / answer,
                    BlockOptions(spec_device="cpu", fma=True, ftz=False, trials=20))
    return v.reals, RealStatus


@needs_block
def test_width_from_height_answer_is_not_equivalent():
    reals, status = _reals("46", "46_AvgPool3D__wrong_width_from_height.py")
    assert reals.status is not status.EQUIVALENT, reals.text


@needs_block
def test_ceil_mode_output_answer_is_not_equivalent():
    reals, status = _reals("43", "43_MaxPool3D__wrong_ceil_output.py")
    assert reals.status is not status.EQUIVALENT, reals.text


@needs_block
@pytest.mark.parametrize("problem, block", [("43", True), ("46", True), ("45", True), ("19", False)])
def test_cli_routes_pools_to_the_block_level(problem, block):
    """`floats check REFERENCE ANSWER` used a name list that missed nn.MaxPool3d/AvgPool3d, so the elementwise
    reader refused pool problems (exit 2); the spec's families decide now, as the coverage table routes."""
    from workbench.floats.block import wants_block

    answer = DATA / "46_AvgPool3D__wrong_width_from_height.py"  # no shared memory: the reference decides
    assert wants_block(next(LEVEL1.glob(f"{problem}_*.py")), answer) is block
