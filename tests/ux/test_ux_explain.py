"""workbench.explain and the two widgets that render it, without a browser: source and IR aligned with the
source's own names, guards de-duplicated with origin and use, side conditions folded, reduced, grouped and
linked to source lines, auxiliary atoms explained, the counterexample placed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench import explain
from workbench.capture import load
from workbench.check.api import check_kernel
from workbench.check.poly import Poly
from workbench.paths import KERNELS

ROTARY = KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"
PIXEL = sorted((KERNELS / "pixel_shuffle_like").glob("*.json"))[0]


def test_aligned_uses_source_names_line_for_line():
    rec = load(ROTARY)
    rows = explain.aligned(rec)
    assert [r.source for r in rows] == rec.jit_source.rstrip("\n").splitlines()
    by_name = {r.source.split("=")[0].strip(): r for r in rows if " = " in r.source}
    # the IR line of tmp10 names x0 and tmp8 as the source does (tmp6/tmp7/tmp9 are conversions of them)
    assert by_name["tmp10"].ir.startswith("tmp10 = x0 < tmp8")
    assert by_name["tmp2"].ir == "tmp2 = tmp0 * tmp1  # fp32"
    assert not any(" t1" in r.ir or r.ir.startswith("t0") for r in rows)  # no renderer numbering
    store = next(r for r in rows if "tl.store" in r.source)
    assert store.ir.startswith("tl.store(out_ptr0") and "tmp23" in store.ir
    assert rows[0].ir == ""  # the def line binds nothing


def test_guards_are_deduplicated_with_use_and_origin():
    rec = load(PIXEL)
    v = check_kernel(rec, "observable", counterexample=False)
    rows = explain.guards(rec, v.certificate)
    texts = [g.text for g in rows]
    assert len(texts) == len(set(texts)) < len(rec.guards)
    assert sum(g.count for g in rows) == len(rec.guards)
    used = {g.text for g in rows if g.use is explain.GuardUse.USED}
    assert used == set(v.certificate.premises.guards_used)
    numel = next(g for g in rows if g.text == "s27*s77 <= 2147483647")
    assert "int32 indexing guard on xnumel" in numel.origin
    ne = next(g for g in rows if g.text.startswith("Ne("))
    assert ne.use is explain.GuardUse.UNUSABLE and "not an inequality" in ne.detail
    assert all(g.use is not explain.GuardUse.USED for g in explain.guards(rec, None))


@pytest.mark.parametrize("poly, text", [
    (Poly({(("s27", 1),): Fraction(1, 2), (): Fraction(4294967295, 2)}), "s27 + 4294967295 >= 0"),
    (Poly({(("s", 1),): 4, (): -6}), "2*s - 3 >= 0"),
    (None, "no bound"),
])
def test_claims_are_reduced_to_a_positive_integer_multiple(poly, text):
    assert explain.reduce_claim(poly) == text


def test_side_conditions_fold_group_link_and_place_the_counterexample():
    rec = load(ROTARY)
    v = check_kernel(rec, "strict")
    rep = explain.side_conditions(v, rec)
    rows = [r for g in rep.groups for r in g.rows]
    assert rep.trivial > 0 and not any(r.claim.split(" >= ")[0].lstrip("-").isdigit() for r in rows)
    assert rep.trivial + sum(len(r.lane_class.split(" | ")) for r in rows) == rep.total == len(v.discharged)
    assert not any("/" in r.claim for r in rows)
    lines = rec.jit_source.splitlines()
    for g in rep.groups:
        if g.line:
            assert g.source == lines[g.line - 1].strip()
    assert sum(1 for g in rep.groups if g.line) > len(rep.groups) // 2  # most groups sit on a source line
    cex = dict(rep.counterexample)
    assert cex["lane"].startswith("xindex=") and "line 20: tmp11 = tl.load" in cex["subexpression"]
    refuted = [r for r in rows if r.status == "refuted"]
    assert refuted and all(r.prover == "z3" for r in refuted)


def test_auxiliary_atoms_are_explained():
    rec = load(PIXEL)
    v = check_kernel(rec, "strict", counterexample=False)
    rep = explain.side_conditions(v, rec)
    assert v.certified
    # certified: only atoms that appear in a shown row are explained, each with its meaning
    shown = " ".join(r.claim + r.facts for g in rep.groups for r in g.rows)
    for a in rep.atoms:
        assert a.name in shown and a.meaning
    refused = explain.side_conditions(check_kernel(load(ROTARY), "strict"), load(ROTARY))
    assert {a.name for a in refused.atoms} == {"_a0", "_a1"}
    assert "floor(s27/2)" in refused.atoms[0].stands_for and "quotient" in refused.atoms[0].meaning


def test_kernel_view_renders_the_explanation_and_follows_the_dropdown():
    from workbench.widgets.kernel_view import KernelView

    view = KernelView(program="pixel_shuffle_like")
    assert "wb-widget" in view._dom_classes
    assert "CERTIFIED" in view.header.value and "id " in view.header.value
    assert "tmp0 = tl.load" in view.source.value and "<th>kernel IR (source names)</th>" in view.source.value
    assert view.guards.value.count("wb-guard-used") == len(view.verdict.certificate.premises.guards_used)
    assert "&times;2" in view.guards.value  # a repeated guard shown once with its count
    before = view.source.value
    view.program.value = "rotary"
    assert view.source.value != before and "tmp17 = (ks0).to(tl.int32)" in view.source.value


def test_side_condition_view_renders_groups_and_counterexample():
    from workbench.widgets.side_condition_view import SideConditionView

    view = SideConditionView(program="rotary", mode="observable", smt=False)
    assert "CERTIFIED" in view.body.value and "trivial" in view.body.value
    view.mode.value = "strict"
    body = view.body.value
    assert "REFUSED" in body and "Counterexample" in body and "xindex=" in body
    assert "line 20" in body and "_a0" in body and "floor(s27/2)" in body
    assert "(1/2)" not in body and "<code>2147483648 &gt;= 0</code>" not in body  # reduced; trivial rows folded
