"""Prove what runs (issue 23): the text the rule compiles is produced from the certificate's own list and
validated against it; the module around the kernel is part of what is checked; every division executes.

Each test here failed on the tree before the fix, on real Inductor output or a one-line mutant of it:
payload divisions on int64 data rewritten to int32 by P (stored 1000 where eager stores 858994459), a
module-level rebinding certified, a divisor that wraps to 0 in N inside a dead branch certified, sites claimed
that P's text never computed."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from workbench import kir, programs
from workbench.capture import load
from workbench.capture.integration import cpu_interpreter
from workbench.check.api import check_kernel
from workbench.paths import DATA, KERNELS
from workbench.rule import load_store, narrowing
from workbench.rule.compiled import CompileRefused, compiled_module, compiled_record
from workbench.rule.partial import PartialError, candidate_sites, partial_kernel, text_sites, validate

INTEGER = ["int_div_trunc", "int_div_floor", "int_fmod", "int_remainder", "int_div_sum", "int_gather_div"]
TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"
DIV = KERNELS / "int_div_trunc" / "triton_poi_fused_div_0.json"


def _mutant(rec, old, new):
    assert old in rec.source, old
    return dataclasses.replace(rec, source=rec.source.replace(old, new, 1))


# -- 1. one source of truth: P's text is the certificate's sites, validated ---------------------------------


def test_payload_division_is_no_site_and_p_leaves_it_wide():
    rec = load(DIV)
    v = check_kernel(rec, "partial", counterexample=False)
    assert v.certified and v.certificate.narrowed == ()
    text = compiled_module(rec, "partial", ())
    assert "tmp3 = tmp0 // tmp2" in text and "int32" not in text.split("def ")[1]


@pytest.mark.parametrize("path", sorted(KERNELS.glob("*/*.json")), ids=lambda p: f"{p.parent.name}/{p.stem[-16:]}")
def test_every_certified_corpus_kernel_compiles_the_certified_text_in_every_mode(path):
    """For every corpus kernel and mode the checker certifies, the rule's text validates, and P's text
    computes exactly the certified sites in int32: the certificate's count is the compiled text's count."""
    rec = load(path)
    for mode in ("strict", "observable", "partial"):
        v = check_kernel(rec, mode, smt=False, counterexample=False)
        if not v.certified:
            continue
        narrow = tuple(v.certificate.narrowed)
        compiled = compiled_record(rec, mode, narrow)
        k = kir.parse(compiled)
        if mode == "partial":
            w = kir.parse(rec)
            # every site the certificate names is an int32 division cast back in the compiled IR, and no other
            # int64 division of W changed width
            assert set(narrow) <= set(text_sites(rec))
            divs = lambda kk: sorted(str(n.type) for n in kir.walk(*kk.roots()) if n.op in (kir.Op.FLOORDIV, kir.Op.MOD))
            assert divs(k).count("i64") == divs(w).count("i64") - len(narrow), (mode, narrow)
        else:
            assert {a: compiled.signature[a] for a in narrow} == {a: "i32" for a in narrow}


def test_sites_a_helper_computes_are_not_claimed():
    """``triton_helpers.div_floor_integer`` expands to // and % nodes with no text of their own: the certificate
    names none of them and P's text rewrites none."""
    rec = load(DATA / "zoo" / "records" / "efficientnet_b0" / "triton_red_fused_convolution_mean_silu_14.json")
    k = kir.parse(rec)
    assert len(candidate_sites(k)) == 4 and text_sites(rec) == ()
    v = check_kernel(rec, "partial", counterexample=False)
    assert v.certified and v.certificate.narrowed == ()
    assert compiled_module(rec, "partial", ()) == rec.source


def test_a_certificate_naming_more_sites_than_the_analysis_checked_is_rejected():
    from workbench.check.api import check_certificate, premises_for
    from workbench.check.errors import CertificateError

    rec = load(DATA / "zoo" / "records" / "efficientnet_b0" / "triton_red_fused_convolution_mean_silu_14.json")
    v = check_kernel(rec, "partial", counterexample=False)
    forged = dataclasses.replace(v.certificate, narrowed=("n3",))
    with pytest.raises(CertificateError, match="n3"):
        check_certificate(kir.parse(rec), premises_for(rec), forged)


def test_translation_validation_refuses_a_text_that_is_not_the_certified_p():
    rec = load(TILE)
    sites = tuple(check_kernel(rec, "partial", counterexample=False).certificate.narrowed)
    good = compiled_record(rec, "partial", sites)
    validate(rec, sites, good)
    # one site fewer in the text than certified, or a wrong cast: both refused by IR comparison
    worse = dataclasses.replace(good, source=good.source.replace("(xindex.to(tl.int32) // ks0.to(tl.int32)).to(tl.int64)",
                                                                 "xindex // ks0"))
    assert worse.source != good.source
    with pytest.raises(PartialError, match="translation validation"):
        validate(rec, sites, worse)
    with pytest.raises(PartialError, match="not int64"):
        partial_kernel(kir.parse(rec), ("n0",))


def test_a_literal_the_text_cannot_narrow_is_refused_not_compiled():
    rec = _mutant(load(TILE), "x1 = xindex // ks0", "x1 = (xindex + ks0) // 4294967296")
    with pytest.raises(CompileRefused, match="4294967296"):
        compiled_module(rec, "partial", candidate_sites(kir.parse(rec)))


def test_a_bool_literal_site_keeps_its_literal_and_the_text_runs(tmp_path):
    """``True // ks0`` (red team of issue 23: an earlier P wrote ``True.to(tl.int32)``, which does not run): the
    site is certified, P keeps the Python literal, the text validates, and Triton's interpreter runs it in
    agreement with the emitted kernel (the oracle, on the very text the rule compiles)."""
    import json

    from workbench.capture.record import save, source_hash
    from workbench.oracle.corpus import text_targets
    from workbench.oracle.run import check

    rec = load(TILE)
    src = rec.source.replace("x2 = xindex\n", "x2 = xindex + (True // ks0)\n", 1)
    rec = dataclasses.replace(rec, source=src, source_hash=source_hash(src, rec.name))
    v = check_kernel(rec, "partial", counterexample=False)
    assert v.certified and len(v.certificate.narrowed) == 4, v.reason
    text = compiled_module(rec, "partial", tuple(v.certificate.narrowed))
    assert "x2 = xindex + (True // ks0.to(tl.int32)).to(tl.int64)" in text
    save(rec, tmp_path / rec.program)
    doc = {"schema": "workbench.rule-texts/1", "refused": [], "texts": [
        {"program": rec.program, "kernel": rec.name, "mode": "partial", "narrowed": list(v.certificate.narrowed),
         "text": text}]}
    (tmp_path / "texts.json").write_text(json.dumps(doc))
    (r,) = check(text_targets(tmp_path / "texts.json", tmp_path), progress=False)
    assert r.verdict == "ok" and r.disagreements == 0 and r.lanes > 1000, r.reason


# -- 2. the module is the unit ----------------------------------------------------------------------------

MODULE_MUTANTS = {
    "helper rebound": ("triton_helpers.set_driver_to_gpu()\n",
                       "triton_helpers.set_driver_to_gpu()\ntriton_helpers.div_floor_integer = lambda a, b: 0\n"),
    "tl rebound": ("triton_helpers.set_driver_to_gpu()\n", "triton_helpers.set_driver_to_gpu()\ntl = triton\n"),
    "re-import as tl": ("import triton.language as tl\n", "import triton.language as tl\nimport numpy as tl\n"),
    "int64 rebound": ("triton_helpers.set_driver_to_gpu()\n",
                      "triton_helpers.set_driver_to_gpu()\ntl.int64 = tl.int32\n"),
    "shadowed in the body": ("    xoffset = ", "    tl = triton.language\n    xoffset = "),
    "extra decorator": ("@triton.jit\n", "@triton.jit\n@staticmethod\n"),
}


@pytest.mark.parametrize("name", sorted(MODULE_MUTANTS))
def test_a_module_level_rebinding_is_never_certified(name):
    old, new = MODULE_MUTANTS[name]
    from workbench.errors import InputError

    rec = _mutant(load(TILE), old, new)
    for mode in ("strict", "observable", "partial"):
        try:  # an input error (the record's own validation) or a verdict that is not certified
            v = check_kernel(rec, mode, smt=False, counterexample=False)
        except InputError:
            continue
        assert v.verdict == "out-of-class" and not v.certified, (mode, v.reason)
    with pytest.raises((kir.RefusedConstruct, InputError)):
        kir.parse(rec)


def test_the_decorators_signature_must_be_the_records():
    rec = load(TILE)
    bad = _mutant(rec, "'ks0': 'i64'", "'ks0': 'i32'")
    with pytest.raises(kir.KernelSourceError, match="signature"):
        kir.parse(bad)


def test_the_cpu_route_preamble_is_inductors_own():
    rec = _mutant(load(TILE), "triton_helpers.set_driver_to_gpu()", "triton_helpers.set_driver_to_cpu()")
    kir.parse(rec)


# -- 3. every division executes -----------------------------------------------------------------------------


def test_a_payload_division_in_a_dead_branch_needs_its_divisor_in_both_widths():
    """``tl.where(ks0 < 2, tmp0 // (ks0*ks0), tmp0)``: the branch is dead, but the division executes, and in N
    ``ks0*ks0`` wraps to 0 at ks0 = 65536."""
    rec = _mutant(load(DIV), "tmp3 = tmp0 // tmp2", "tmp3 = tl.where(ks0 < 2, tmp0 // (ks0*ks0), tmp0)")
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode, counterexample=False)
        assert not v.certified, (mode, v.reason)


def test_a_payload_division_by_data_cannot_be_shown_safe():
    from workbench.check.sidecond import Reason

    rec = _mutant(load(DIV), "tmp3 = tmp0 // tmp2", "tmp3 = tmp0 // tmp0")
    v = check_kernel(rec, "partial", counterexample=False)
    assert not v.certified and Reason.DIVISOR in {d.condition.reason for d in v.failed()}, v.reason


def test_an_unused_division_is_seen_hashed_and_refused():
    rec = load(TILE)
    dead = _mutant(rec, "    x2 = xindex\n", "    x2 = xindex\n    tmp99 = xindex // (ks0 - ks0)\n")
    assert kir.canonical_hash(kir.parse(dead), facts=False) != kir.canonical_hash(kir.parse(rec), facts=False)
    for mode in ("strict", "observable", "partial"):
        v = check_kernel(dead, mode, counterexample=False)
        assert v.verdict == "out-of-class" and "no load or store uses" in v.reason, v.reason


# -- 4/5. end to end: the rule in every mode around torch.compile, bitwise equal to eager ------------------


def _integer_inputs(p, sizes, seed):
    """The program's inputs with int64 data beyond int32 (and negative), indices for the gather kept valid."""
    gen = torch.Generator().manual_seed(seed)
    ins = list(p.make_inputs(sizes, seed=seed))
    for i, t in enumerate(ins):
        if t.dtype == torch.int64:
            if p.name == "int_gather_div":
                ins[i] = torch.randint(0, 3 * ins[0].shape[0], t.shape, generator=gen, dtype=torch.int64)
            else:
                ins[i] = torch.randint(-(2**40), 2**40, t.shape, generator=gen, dtype=torch.int64)
                ins[i].view(-1)[0] = 4294972296  # the value the red team stored wrongly
    return tuple(ins)


SIZES = {"int_div_sum": [{"r": 3, "c": 5, "m": 7}, {"r": 4, "c": 9, "m": 1000}],
         "int_gather_div": [{"rows": 5, "d": 3, "n": 4}, {"rows": 7, "d": 2, "n": 9}]}


# Inductor's Triton-CPU route for this looped int64 sum does not run under triton 3.7.1's interpreter ("Cannot
# call @triton.jit'd outside of the scope of a kernel"), with or without the rule (tested below); its kernel is
# run by the oracle instead (tests/oracle/test_oracle_rule.py), which executes the kernel function itself.
NOT_UNDER_THE_INTERPRETER = {"int_div_sum"}


def test_the_programs_excluded_end_to_end_fail_without_the_rule_too():
    from triton.runtime.errors import InterpreterError

    for name in sorted(NOT_UNDER_THE_INTERPRETER):
        p = programs.get(name)
        torch._dynamo.reset()
        with cpu_interpreter(), pytest.raises(InterpreterError, match="outside of the scope of a kernel"):
            torch.compile(p.fn, dynamic=True)(*p.make_inputs())
        torch._dynamo.reset()


@pytest.mark.parametrize("mode", ["strict", "observable", "partial"])
@pytest.mark.parametrize("name", [n for n in INTEGER if n not in NOT_UNDER_THE_INTERPRETER])
def test_the_rule_in_every_mode_matches_eager_on_integer_data(name, mode):
    p = programs.get(name)
    store = load_store(KERNELS, mode)
    sizes = SIZES.get(name, [{"n": 5, "m": 1000}, {"n": 37, "m": 3}])
    torch._dynamo.reset()
    with cpu_interpreter(), narrowing(store, mode=mode) as decisions:
        f = torch.compile(p.fn, dynamic=True)
        for i, sz in enumerate(sizes):
            ins = _integer_inputs(p, sz, seed=i)
            out, ref = f(*ins), p.fn(*ins)
            assert out.dtype == ref.dtype and torch.equal(out, ref), (sz, out[:4], ref[:4])
    torch._dynamo.reset()
    assert decisions.bindings
    for b in decisions.bindings:
        if b.bound:
            assert b.mode == mode


# -- the command ----------------------------------------------------------------------------------------------


def test_rule_texts_command_follows_the_contract(tmp_path, capsys):
    import json

    import shutil

    from workbench.cli import main

    kernels = tmp_path / "kernels"
    shutil.copytree(KERNELS / "int_div_trunc", kernels / "int_div_trunc")
    out = tmp_path / "texts.json"
    assert main(["rule", "texts", "--kernels", str(kernels), "--out", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.rule-texts-summary/1" and doc["verdict"] == "ok"
    assert doc["texts"] == {"strict": 0, "observable": 0, "partial": 1} and doc["refused"] == []
    written = json.loads(out.read_text())
    assert written["schema"] == "workbench.rule-texts/1" and written["texts"][0]["mode"] == "partial"
    assert main(["rule", "texts", "--kernels", str(tmp_path / "none"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "no kernel records" in err and "\n" not in err
