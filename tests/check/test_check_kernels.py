"""The checker on corpus kernels: rotary (observable only), tile, the nested-cat kernel under the report's
premises and its weakened variants, certificates that cannot assert a bound."""

import json
from dataclasses import replace

import pytest

from workbench import kir
from workbench.capture import load
from workbench.check import variants as V
from workbench.check.api import check_certificate, check_kernel
from workbench.check.certificate import Certificate
from workbench.check.checker import retype
from workbench.check.errors import CertificateError
from workbench.check.premises import premises_of
from workbench.check.sidecond import Status
from workbench.paths import KERNELS

ROTARY = KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"
TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"
NESTED = KERNELS / "nested_cat_add" / "triton_poi_fused_add_cat_0.json"
NESTED7 = KERNELS / "nested_cat_add_distinct" / "triton_poi_fused_add_cat_0.json"


def test_retype_pairs_nodes_with_kir_instantiate():
    k = kir.parse(load(NESTED))
    memo = retype(k, kir.NARROW)
    inst = kir.instantiate(k, kir.NARROW)
    assert tuple(memo[id(x)] for x in k.loads) == inst.loads
    assert tuple(memo[id(x)] for x in k.stores) == inst.stores


def test_rotary_is_certified_only_in_observable_mode():
    rec = load(ROTARY)
    obs = check_kernel(rec, "observable")
    assert obs.certified and obs.narrowable == ("ks0",)
    # one load needs its own mask: the certificate records the choice
    assert "mask" in dict(obs.certificate.choices).values()
    strict = check_kernel(rec, "strict")
    assert strict.verdict == "refused"
    cex = strict.counterexample
    assert cex is not None and cex.wide == 2**31 and cex.narrowed == -(2**31)
    assert "(ks0 // 2)" in cex.subexpression
    shape = dict(cex.shape)
    assert shape["s27"] * shape["s77"] <= 2**31 - 1  # a shape Inductor compiles for
    assert cex.disagree == ""  # the load is masked off there: nothing observable differs


def test_tile_side_condition_uses_the_guard_on_2ab():
    v = check_kernel(load(TILE), "observable")
    assert v.certified
    used = v.certificate.premises.guards_used
    assert "2*s27*s77 <= 2147483647" in used or "s27*s77 <= 2147483647" in used
    assert all(d.prover in ("exact", "z3") for d in v.discharged)


def test_nested_cat_certified_in_observable_mode_with_the_reports_premises():
    rec = V.report_premises(load(NESTED))
    assert rec.guards == ("2*s12*s66 + 2*s48*s66 + 2*s66*s85 <= 2147483647",)
    v = check_kernel(rec, "observable")
    assert v.certified, v.reason
    p = v.certificate.premises
    assert dict(p.lower_bounds) == {"s12": 1, "s48": 1, "s66": 1, "s85": 1}
    assert p.guards_used == rec.guards and p.index_dtype == "tl.int32"
    assert v.narrowable == ("ks0", "ks1", "ks2", "ks3")


def test_without_the_total_width_relation_the_sum_overflows_and_kernels_disagree():
    rec = V.without_total_width(V.at_least_one(load(NESTED)))
    v = check_kernel(rec, "observable")
    assert v.verdict == "refused"
    cex = v.counterexample
    assert cex is not None, v.reason
    shape = dict(cex.shape)
    widths = [shape["s12"], shape["s48"], shape["s85"]]
    assert all(w <= 2**31 - 1 for w in widths) and sum(widths) > 2**31 - 1  # each fits, the sum does not
    assert cex.wide != cex.narrowed and cex.disagree  # and the kernels do disagree
    assert "ks1 + ks2" in cex.subexpression


@pytest.mark.parametrize("variant", ["numel guard dropped", "numel guard weakened to 2**32", "lower bound of s66 = 0",
                                     "index dtype int64"])
def test_weakened_premises_are_refused(variant):
    rec = V.weakened(V.report_premises(load(NESTED)))[variant]
    v = check_kernel(rec, "observable")
    assert not v.certified
    if variant != "index dtype int64":
        assert v.counterexample is not None, v.reason
        assert v.counterexample.wide != v.counterexample.narrowed
    else:
        assert v.verdict == "out-of-class" and "int64" in v.reason


def test_seven_argument_kernel_certified():
    v = check_kernel(load(NESTED7), "observable", counterexample=False)
    assert v.certified and len(v.narrowable) == 7


def test_certificate_round_trips_and_is_rechecked():
    rec = load(TILE)
    v = check_kernel(rec, "observable")
    cert = Certificate.loads(v.certificate.dumps())
    assert cert == v.certificate
    json.dumps(cert.to_json())
    k = kir.parse(rec)
    discharged, _ = check_certificate(k, premises_of(rec), cert)
    assert all(d.status is Status.PROVED for d in discharged)


def test_certificate_cannot_assert_a_bound():
    rec = load(TILE)
    v = check_kernel(rec, "observable")
    k = kir.parse(rec)
    # Choosing the numerator rule for x1 = xindex // ks0 loses the quotient bound: the recomputed
    # conditions fail; the certificate has no way to state the bound itself.
    choices = tuple((key, "numerator" if val == "exact" else val) for key, val in v.certificate.choices)
    bad = replace(v.certificate, choices=choices)
    discharged, _ = check_certificate(k, premises_of(rec), bad, smt=False)
    assert any(d.status is not Status.PROVED for d in discharged)
    # multipliers naming a fact with a negative weight do not help either
    mults = tuple((key, (("guard:0", "-1"),)) for key, _ in v.certificate.multipliers)
    discharged, _ = check_certificate(k, premises_of(rec), replace(v.certificate, multipliers=mults), smt=False)
    assert any(d.status is not Status.PROVED for d in discharged)


def test_certificate_for_another_kernel_or_missing_choice_is_refused():
    rec = load(TILE)
    v = check_kernel(rec, "observable")
    other = kir.parse(load(ROTARY))
    with pytest.raises(CertificateError, match="does not match kernel"):
        check_certificate(other, premises_of(load(ROTARY)), v.certificate)
    with pytest.raises(CertificateError, match="no quotient choice|no remainder choice|no access choice|no and choice"):
        check_certificate(kir.parse(rec), premises_of(rec), replace(v.certificate, choices=()))
