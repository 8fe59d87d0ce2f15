"""The z3 round of the check (``api._smt_pass``): constant families, the stop at the first refutation, and
quick refutations only (no more proofs sought) once z3 leaves a condition undecided.

Claims ``q + K >= 0`` that differ only in ``K`` are ordered (a proof for ``K`` proves every larger constant, a
refuting shape for ``K`` refutes every smaller one), and once z3 refutes a condition the kernel is refused, so
the others are not asked. Neither may change which kernels are certified; both are checked here against z3
asked directly (an oracle that does not go through the pass), on resnet18's max-pool kernel, whose strict
check asks z3 about families of addresses at offsets -1, 0 and +1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.capture import load
from workbench.check import api
from workbench.check.discharge import smt_check
from workbench.check.premises import premises_of
from workbench.check.sidecond import Status

POOL1 = Path(__file__).parent / "data" / "uniform" / \
    "triton_poi_fused__native_batch_norm_legit_no_training_max_pool2d_with_indices_relu_1.json"  # resnet18


@pytest.fixture(scope="module")
def strict():
    api.clear_caches()
    asked = []
    real = api.smt_check

    def counting(p, premises, **kw):
        r = real(p, premises, **kw)
        asked.append((p, r.status))
        return r

    real_refute = api.smt_refute

    def quick(p, premises, **kw):
        r = real_refute(p, premises, **kw)
        asked.append((p, "quick refutation" if r is not None else "no quick refutation"))
        return r

    api.smt_check, api.smt_refute = counting, quick
    try:
        rec = load(POOL1)
        v = api.check_kernel(rec, "strict")
    finally:
        api.smt_check, api.smt_refute = real, real_refute
    return rec, v, asked


def test_the_refusal_stands_with_its_counterexample(strict):
    rec, v, asked = strict
    assert v.verdict == "refused"
    assert v.counterexample is not None, v.reason
    refuted = [d for d in v.discharged if d.status is Status.REFUTED]
    assert refuted and all(d.model for d in refuted)


def test_no_query_after_the_first_refutation(strict):
    _, v, asked = strict
    statuses = [s for _, s in asked]
    found = [i for i, s in enumerate(statuses) if s in ("refuted", "quick refutation")]
    assert found
    # the check itself stops at its first refutation (the counterexample search may re-ask cached claims)
    first = found[0]
    assert len({p for p, _ in asked}) == len({p for p, _ in asked[:first + 1]})
    skipped = [d for d in v.discharged if "z3 not asked: the kernel is refused already" in d.detail]
    assert skipped and all(d.status is Status.UNKNOWN for d in skipped)


def test_family_inferences_agree_with_z3_asked_directly(strict):
    """Each status the pass inferred from another constant is what z3 says when asked itself (or z3 cannot
    settle it): an inferred proof is never refuted, an inferred refutation is never proved. Reversing either
    inequality of the pass would infer a refutation for a larger constant, which z3 proves here."""
    rec, v, _ = strict
    premises = premises_of(rec)
    inferred = [d for d in v.discharged if "the same polynomial with constant" in d.detail
                or "refutes it too" in d.detail]
    assert any(d.status is Status.REFUTED for d in inferred)
    for d in inferred:
        direct = smt_check(d.condition.claim, premises)
        if d.status is Status.PROVED:
            assert direct.status != "refuted", d.detail
        else:
            assert direct.status != "proved", d.detail
            # the inherited shape refutes this claim too (the claim is false at some lane of that shape)
            assert d.model


def test_certified_set_unchanged_in_observable_mode():
    api.clear_caches()
    v = api.check_kernel(load(POOL1), "observable")
    assert v.verdict == "certified"
    assert all(d.status is Status.PROVED for d in v.discharged)


def test_no_proof_is_sought_once_z3_leaves_a_condition_undecided(strict):
    """The first condition z3 cannot decide refuses the kernel; after it, only quick refutation attempts."""
    _, v, asked = strict
    statuses = [s for _, s in asked]
    assert "unknown" in statuses
    after = statuses[statuses.index("unknown") + 1:]
    assert after and set(after) <= {"quick refutation", "no quick refutation", "unknown"}
    assert "proved" not in after and "refuted" not in after


def test_a_quick_refutation_is_a_shape_z3_confirms(strict):
    """The refuting shape holds every guard and breaks the claim under smt_check's own assertions, with every
    shape symbol fixed (an oracle outside the pass: z3 asked directly)."""
    from workbench.check.discharge import guards_hold
    from workbench.check.poly import Poly

    rec, v, _ = strict
    premises = premises_of(rec)
    refuted = [d for d in v.discharged if d.status is Status.REFUTED and "refutes it too" not in d.detail]
    assert refuted
    for d in refuted:
        shape = dict(d.model)
        fixed = tuple(q for s, x in shape.items() for q in (Poly.sym(s) - x, Poly.const(x) - Poly.sym(s)))
        assert smt_check(d.condition.claim, premises, extra=fixed).status == "refuted"
        assert guards_hold(premises, shape)[0]
