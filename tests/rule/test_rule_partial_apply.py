"""The rule applies variant P exactly like the N modes: a partial certificate binds a live compilation by
body hash and premises (plus P's own: the sites to rewrite are the certified ones), every weakened premise is
refused, and what Inductor then compiles is P's text: under Triton's interpreter it is bitwise equal to
eager."""

import dataclasses

import pytest
import torch

from workbench import kir, programs
from workbench.capture import capture
from workbench.capture.integration import cpu_interpreter
from workbench.check.api import check_kernel
from workbench.paths import KERNELS
from workbench.rule import best_binding, bind, load_store, narrowing
from workbench.rule.mutants import live_records, premise_mutants
from workbench.rule.partial import partial_body, partial_sites, rewrite_module, site_keys


@pytest.fixture(scope="module")
def store():
    s = load_store(KERNELS, "partial")
    assert len(s) >= 20 and {c.mode for c in s} == {"partial"}
    return s


@pytest.fixture(scope="module")
def tile(store):
    (cert,) = [c for c in store if c.record.program == "tile"]
    (live,) = live_records("tile")
    return cert, live


def test_the_rules_site_keys_are_the_checkers(store):
    """A partial certificate names P's sites by node key; the rule's definition gives the same keys."""
    for cert in store:
        assert site_keys(kir.parse(cert.record)) == cert.narrow, cert.record.name
    rotary = [p for p in sorted(KERNELS.glob("rotary/*.json"))][:1]
    for p in rotary:  # the keys are the certificate's own, not merely a re-derivation of the store's
        from workbench.capture import load

        rec = load(p)
        v = check_kernel(rec, "partial", counterexample=False)
        assert v.certificate.narrowed == site_keys(kir.parse(rec))


def test_a_p_certificate_binds_its_live_compilation(store, tile):
    cert, live = tile
    b = best_binding(store, live)
    assert b.bound and b.mode == "partial", b.explain()
    assert b.narrow == cert.narrow == ("n8", "n10", "n11")
    assert "P's sites n8, n10, n11: written in the live text as certified" in b.explain()
    assert "computes 3 int64 // and % sites in int32" in b.explain()


def test_every_weakened_premise_is_refused_for_p(tile):
    cert, live = tile
    mutants = list(premise_mutants(cert, live))
    assert len(mutants) >= 3 and sum(w.startswith("drop guard") for w, _ in mutants) == len(cert.guards_used) >= 1
    for what, mutant in mutants:
        b = bind(cert, mutant, cert.ir_hash)
        assert not b.bound and b.failed, f"{what} still bound"


def test_a_certificate_naming_a_site_the_live_text_does_not_write_is_refused(tile):
    cert, live = tile
    other = dataclasses.replace(cert, narrow=cert.narrow + ("n3",))  # n3 is no // or % of the text
    b = bind(other, live, cert.ir_hash)
    assert not b.bound and "P's sites" in b.failed and "n3" in b.failed
    # a certificate naming fewer sites binds: P then computes exactly those in int32, the rest stays wide
    fewer = dataclasses.replace(cert, narrow=cert.narrow[:-1])
    assert bind(fewer, live, cert.ir_hash).bound


def test_an_n_certificate_does_not_apply_p_and_p_keeps_the_signature(store, tile):
    cert, live = tile
    obs = [c for c in load_store(KERNELS, "observable") if c.record.program == "tile"]
    assert obs and all(c.mode == "observable" for c in obs)
    with narrowing(store + obs, mode="partial") as decisions:  # a mixed store: only P's certificate is used
        (k,) = capture("tile")
    (b,) = decisions.bindings
    assert b.bound and b.mode == "partial"
    # what Inductor compiled is P: the rewritten body, size arguments still i64, every // and % in int32
    assert k.signature["ks0"] == "i64" and k.signature["ks1"] == "i64"
    assert "x1 = (xindex.to(tl.int32) // ks0.to(tl.int32)).to(tl.int64)" in k.jit_source
    assert partial_body(live) in k.jit_source
    assert sorted(t.bits for t in partial_sites(k).values()) == [32, 32, 32]


def cert_sites(rec):
    return tuple(check_kernel(rec, "partial", counterexample=False).certificate.narrowed)


def test_rewrite_module_keeps_everything_outside_the_body(tile):
    _, live = tile
    out = rewrite_module(live.source, live, cert_sites(live))
    head = live.source[: live.source.index("xoffset")]
    assert out.startswith(head) and "triton_meta={'signature'" in out
    assert out.count("\n") != 0 and ".to(tl.int32) % ks1.to(tl.int32)" in out


def test_p_applied_by_the_rule_runs_bitwise_equal_to_eager(store):
    p = programs.get("tile")
    torch._dynamo.reset()
    with cpu_interpreter(), narrowing(store, mode="partial") as decisions:
        f = torch.compile(p.fn, dynamic=True)
        for sz in p.shape_sequence("tiny"):
            ins = p.make_inputs(sz, seed=sum(sz.values()))
            out, ref = f(*ins), p.fn(*ins)
            assert out.dtype == ref.dtype and torch.equal(out, ref), sz
    torch._dynamo.reset()
    assert decisions.bindings and all(b.bound and b.mode == "partial" for b in decisions.bindings)


def test_rule_show_partial_cli(capsys):
    import json

    from workbench.cli import main

    assert main(["rule", "show", "tile", "--mode", "partial", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.rule-show/1" and doc["verdict"] == "bound" and doc["mode"] == "partial"
    (b,) = doc["bindings"]
    assert b["mode"] == "partial" and b["narrowed"] == ["n8", "n10", "n11"]
    (sites,) = doc["sites_as_compiled"].values()
    assert sites == {"int32": 3, "int64": 0, "payload": 0}
    (sig,) = doc["size_args_as_compiled"].values()
    assert set(sig.values()) == {"i64"}
