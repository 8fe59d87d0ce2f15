"""The device_assert premise in the certificate and the rule (issue 13): the four captured indirect kernels'
certificates state which value, which bounds (in the shape symbols) and which mask each assert assumes; the
rule binds a live compilation only when its premises are the certified ones up to renaming of the shape
symbols, shows them, and refuses a live kernel whose assert bound is on another symbol or weaker (even
when handed the certified IR hash), a certificate whose stated premise differs, and malformed premise
fields on load."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

from workbench.capture.record import load
from workbench.check.api import check_kernel
from workbench.check.certificate import AssertPremise, Certificate
from workbench.check.errors import CertificateError
from workbench.paths import KERNELS
from workbench.rule import best_binding, bind, live_ir_hash
from workbench.rule.mutants import assert_mutants, live_records, premise_mutants
from workbench.rule.store import certified_from

INDIRECT = {"embedding": "triton_poi_fused_embedding_0", "gather_last": "triton_poi_fused_gather_0",
            "index_select": "triton_poi_fused_index_select_0", "index_tensor": "triton_poi_fused_index_0"}


@pytest.fixture(scope="module")
def certs():
    out = {p: certified_from(load(KERNELS / p / f"{k}.json")) for p, k in INDIRECT.items()}
    assert all(c is not None and c.asserts for c in out.values()), out
    return out


@pytest.fixture(scope="module")
def live(certs):
    """Each indirect program compiled again; its kernel as the rule sees it at definition time."""
    out = {}
    for prog, cert in certs.items():
        got = [r for r in live_records(prog) if r.source_hash == cert.record.source_hash]
        assert got, f"{prog}: the live compilation did not define {cert.record.name}"
        out[prog] = got[0]
    return out


def test_certificate_states_the_premise_in_shape_symbols():
    rec = load(KERNELS / "embedding" / "triton_poi_fused_embedding_0.json")
    cert = check_kernel(rec, "observable", smt=False, counterexample=False).certificate
    (a,) = cert.premises.asserts
    ks1 = next(s.expr for s in rec.size_args if s.name == "ks1")
    assert (a.name, a.lower, a.upper, a.where, a.line) == ("tmp0", "0", ks1, "xmask", 9)
    assert a.value.endswith("load:i64[in_ptr0](#7,#9,#10)") and a.mask.endswith("lt:i1(#4,#5)")
    assert Certificate.loads(cert.dumps()).premises.asserts == (a,)  # round trip, validated on load
    assert f"in the shape symbols: 0 <= tmp0 < {ks1}" in cert.reason  # shown in the verdict


def test_kernels_without_an_assert_state_none():
    rec = load(KERNELS / "roll_last" / "triton_poi_fused_roll_0.json")  # its assert bounds no loaded value
    assert check_kernel(rec, "observable", smt=False, counterexample=False).certificate.premises.asserts == ()


def test_live_compilations_bind_and_show_the_premise(certs, live):
    for prog, cert in certs.items():
        b = best_binding([cert], live[prog])
        assert b.bound, b.explain()
        shown = [m for m in b.matched if m.startswith("device_assert premises (assumed about the inputs, not checked)")]
        assert len(shown) == 1 and "<" in shown[0], b.matched
        assert "device_assert premises" in b.explain()


def test_assert_mutants_of_the_live_kernel_are_refused(certs, live):
    """A bound on another size argument and a doubled bound: refused by the premise comparison when the rule is
    handed the certified IR hash, and at the body when it hashes the live kernel itself."""
    tried = 0
    for prog, cert in certs.items():
        mutants = list(assert_mutants(live[prog]))
        assert {w.split(": ")[1].split(" ")[0] for w, _ in mutants} == {"bound"} and len(mutants) >= 2
        assert any("instead of" in w for w, _ in mutants) and any("weakened" in w for w, _ in mutants)
        for what, mutant in mutants:
            b = bind(cert, mutant, cert.ir_hash)
            assert not b.bound and "device_assert premise at line" in b.failed, (prog, what, b.failed)
            assert "is not the certified" in b.failed
            real = best_binding([cert], mutant, live_ir_hash(mutant))
            assert not real.bound and "body" in real.failed, (prog, what)
            tried += 1
    assert tried >= 8
    # the generic mutant list includes them, so the whole-corpus binding test refuses them too
    cert = certs["embedding"]
    assert sum("device_assert" in w for w, _ in premise_mutants(cert, live["embedding"])) == 2


def _with_asserts(cert, **change):
    (a,) = cert.asserts
    return dataclasses.replace(cert, asserts=(dataclasses.replace(a, **change),))


def test_a_certificate_stating_another_premise_does_not_bind(certs, live):
    cert, rec = certs["embedding"], live["embedding"]
    (a,) = cert.asserts
    other = next(s.name for s in rec.symbols if s.name != a.upper)
    cases = {
        "another symbol": _with_asserts(cert, upper=other),
        "a weaker bound": _with_asserts(cert, upper=f"2*{a.upper}"),
        "another lower bound": _with_asserts(cert, lower="-1"),
        "no lower bound": _with_asserts(cert, lower=None),
        "another mask": _with_asserts(cert, mask="true", where=""),
        "another value": _with_asserts(cert, value=a.value.replace("in_ptr0", "in_ptr1")),
        "no premise": dataclasses.replace(cert, asserts=()),
    }
    for what, c in cases.items():
        b = bind(c, rec, c.ir_hash)
        assert not b.bound and "device_assert premise" in b.failed, (what, b.failed)


def _renamed(rec, ren):
    """``rec`` with its shape symbols renamed (a live compilation that numbered them differently)."""
    subs = {sympy.Symbol(a): sympy.Symbol(b) for a, b in ren.items()}

    def r(text):
        from workbench.symexpr import parse_any

        return str(parse_any(text, where="test").xreplace(subs))

    return dataclasses.replace(
        rec, size_args=tuple(dataclasses.replace(a, expr=r(a.expr)) for a in rec.size_args),
        numels=tuple(dataclasses.replace(n, expr=r(n.expr)) for n in rec.numels),
        symbols=tuple(dataclasses.replace(s, name=ren.get(s.name, s.name)) for s in rec.symbols),
        guards=tuple(r(g) for g in rec.guards))


def test_premises_are_compared_up_to_renaming(certs, live):
    cert, rec = certs["gather_last"], live["gather_last"]
    ren = {s.name: f"s{900 + i}" for i, s in enumerate(rec.symbols)}
    renamed = _renamed(rec, ren)
    b = bind(cert, renamed, cert.ir_hash)
    assert b.bound, b.explain()
    (a,) = cert.asserts
    assert f"< {ren[a.upper]}" in next(m for m in b.matched if m.startswith("device_assert"))


@pytest.mark.parametrize("edit,match", [
    (lambda a: {k: v for k, v in a.items() if k != "mask"}, "has the fields"),
    (lambda a: {**a, "extra": 1}, "has the fields"),
    (lambda a: {**a, "lower": None, "upper": None}, "states no bound"),
    (lambda a: {**a, "upper": "__import__('os').system('touch PWNED')"}, "not an expression in the shape symbols"),
    (lambda a: {**a, "upper": "s36 < 3"}, "is a comparison"),
    (lambda a: {**a, "upper": 7}, "must be an expression"),
    (lambda a: {**a, "line": "9"}, "line must be a line number"),
    (lambda a: {**a, "value": ""}, "non-empty"),
])
def test_premise_fields_are_validated_on_load(edit, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a premise text that ran as code would leave a file here
    rec = load(KERNELS / "embedding" / "triton_poi_fused_embedding_0.json")
    data = json.loads(check_kernel(rec, "observable", smt=False, counterexample=False).certificate.dumps())
    data["premises"]["asserts"] = [edit(data["premises"]["asserts"][0])]
    with pytest.raises(CertificateError, match=match):
        Certificate.from_json(data)
    assert not (tmp_path / "PWNED").exists()
    with pytest.raises(CertificateError, match="must be a list"):
        Certificate.from_json({**data, "premises": {**data["premises"], "asserts": {"a": 1}}})


def test_premise_text():
    a = AssertPremise("tmp0", "v", "0", "s36", "m", "xmask", 9)
    assert a.text() == "0 <= tmp0 < s36 where xmask (device_assert at line 9)"
    assert AssertPremise("t", "v", None, "kernel:x", "true", "", 3).text() == "t < x (device_assert at line 3)"


def test_the_checker_refuses_a_certificate_stating_another_premise():
    from workbench import kir
    from workbench.check.api import check_certificate
    from workbench.check.premises import premises_of

    rec = load(KERNELS / "embedding" / "triton_poi_fused_embedding_0.json")
    cert = check_kernel(rec, "observable", smt=False, counterexample=False).certificate
    k = kir.parse(rec)
    check_certificate(k, premises_of(rec), cert, smt=False)  # its own premise: re-checked
    (a,) = cert.premises.asserts
    for other in ((dataclasses.replace(a, upper="2*" + a.upper),), ()):
        wrong = dataclasses.replace(cert, premises=dataclasses.replace(cert.premises, asserts=other))
        with pytest.raises(CertificateError, match="states the device_assert premises"):
            check_certificate(k, premises_of(rec), wrong, smt=False)
