"""The oracle can fail: unsafe narrowings (a shape outside the guards, hand-edited kernels) are reported as
disagreements with a witness, a safe one is not, and what the oracle cannot intercept is refused by name.

All kernels run in one interpreter worker (one Triton import) through a module-scoped fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.contract import Verdict
from workbench.oracle.corpus import Target, parse_record, select, targets
from workbench.oracle.run import check
from workbench.oracle.shapes import Shape, valid

ROOT = Path(__file__).resolve().parents[2]
BROADCAST = ROOT / "data" / "kernels" / "broadcast_add" / "triton_poi_fused_add_0.json"
LOAD1 = "tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')"
LOAD0 = "tmp0 = tl.load(in_ptr0 + (x2), xmask, eviction_policy='evict_last')"
STORE = "tl.store(out_ptr0 + (x2), tmp2, xmask)"

EDITS = {
    # an extra product of size arguments in an address: ks0*ks0 wraps in int32 once s27 > 46340
    "edited_product": (LOAD1, "tmp1 = tl.load(in_ptr1 + (x0 + ks0*ks0), xmask)"),
    # an index scaled and offset by a size argument: 2*xindex + ks0 crosses 2**31 in the last programs
    "edited_scaled_index": (LOAD0, "tmp0 = tl.load(in_ptr0 + (2*xindex + ks0), xmask)"),
    # addresses untouched; only the stored value depends on a product that wraps when narrowed
    "edited_value": (STORE, "tl.store(out_ptr0 + (x2), tmp2 + (ks0*ks0).to(tl.float32), xmask)"),
    # Python that is not Triton language in the body: refused before any process runs it
    "edited_escape": (STORE, STORE + "\n    tmp9 = __import__('os').system('touch ORACLE_ESCAPE_MARKER')"),
    # an atomic: a memory operation the oracle does not intercept (must be refused, never executed)
    "edited_atomic": (STORE, "tl.atomic_add(out_ptr0 + (x2), tmp2, xmask)"),
}


def _edited(program: str, old: str, new: str) -> Target:
    d = json.loads(BROADCAST.read_text())
    assert old in d["source"]
    d["source"] = d["source"].replace(old, new)
    d["program"] = program
    return Target(parse_record(d, f"hand-edited {program}"), ("observable",), ("ks0",))


@pytest.fixture(scope="module")
def results():
    corpus = select(targets(), ["cat2", "rotary", "tile_rows"])
    edited = [_edited(name, old, new) for name, (old, new) in EDITS.items()]
    d = json.loads(BROADCAST.read_text())
    d["signature"] = dict(d["signature"], ks0="i32")  # the record disagrees with its own source
    mismatched = Target(parse_record(dict(d, program="edited_signature"), "hand-edited signature"), ("strict",),
                        ("ks0",))
    outside = {"cat2/triton_poi_fused_cat_0": [Shape("outside the guards", (("s20", 3), ("s97", 2),
                                                                            ("s98", 2**31 + 5)))]}
    rotary = next(t for t in corpus if t.record.program == "rotary")
    # rotary as if its strict certificate existed (the checker refuses it): the strict claim must then fail
    strict_rotary = Target(parse_record(dict(json.loads(Path(rotary.record.path).read_text()),
                                             program="rotary_claimed_strict"), "rotary (claimed strict)"),
                           ("strict",), rotary.narrowed, rotary.witnesses)
    out = check(corpus + edited + [mismatched, strict_rotary], shapes=outside, progress=False)
    return {r.program: r for r in out}


def test_a_shape_outside_the_guards_makes_the_narrowed_kernel_disagree(results):
    r = results["cat2"]
    assert r.verdict == Verdict.NOT_EQUIVALENT and r.disagreements > 0
    f = r.findings[0]
    # ks1 = s98 = 2**31+5 does not fit int32 (reported first), and the narrowed kernel's segment test flips and
    # masks the load off
    assert f.values == (("s20", 3), ("s97", 2), ("s98", 2**31 + 5)) and f.pid == (0, 0, 0)
    args = {f.access: (f.wide, f.narrowed) for f in r.findings if f.access.startswith("argument")}
    assert args == {"argument ks0": (("ks0", 2**31 + 8), ("ks0", -(2**31) + 8)),
                    "argument ks1": (("ks1", 2**31 + 5), ("ks1", -(2**31) + 5))}
    f = next(f for f in r.findings if f.access.startswith("load"))
    assert f.what == "mask" and f.wide[2] is True and f.narrowed[2] is False
    assert "disagreement(s); first at shape" in r.reason


def test_an_extra_product_of_sizes_is_caught_at_shapes_inside_the_guards(results):
    r = results["edited_product"]
    assert r.verdict == Verdict.NOT_EQUIVALENT
    rec = json.loads(BROADCAST.read_text())
    f = r.findings[0]
    assert f.what == "address" and f.access == "load 1"
    s27 = dict(f.values)["s27"]
    assert s27 * s27 >= 2**31 and valid(parse_record(rec, "t"), dict(f.values))


def test_a_scaled_index_plus_a_size_is_caught_in_the_last_programs(results):
    r = results["edited_scaled_index"]
    assert r.verdict == Verdict.NOT_EQUIVALENT
    f = r.findings[0]
    assert f.what == "address" and f.access == "load 0" and f.wide[:2] != f.narrowed[:2]


def test_stored_values_witness_the_data_flow(results):
    r = results["edited_value"]
    assert r.verdict == Verdict.NOT_EQUIVALENT
    assert {f.what for f in r.findings} == {"value"}  # same addresses, different bits stored
    f = r.findings[0]
    assert f.wide[:3] == f.narrowed[:3] and f.wide[3] != f.narrowed[3]


def test_certified_kernels_agree_and_rotary_differs_only_on_inactive_lanes(results):
    for name in ("tile_rows", "rotary"):
        r = results[name]
        assert r.verdict == Verdict.OK and r.disagreements == 0 and r.lanes > 5000, r.reason
    rotary = results["rotary"]
    witness = next(s for s in rotary.shapes if s.label == "checker counterexample (strict)")
    assert dict(witness.values) == {"s27": 1073741823, "s77": 2}
    assert witness.masked_differences > 0 and witness.disagreements == 0  # masked lanes below numel differ
    strict_kernels = [r for r in results.values() if "strict" in r.modes and r.verdict == Verdict.OK]
    assert strict_kernels and all(s.masked_differences == 0 for r in strict_kernels for s in r.shapes)


def test_a_strict_claim_is_contradicted_by_a_masked_lane_below_numel(results):
    r = results["rotary_claimed_strict"]
    assert r.verdict == Verdict.NOT_EQUIVALENT
    f = next(f for f in r.findings if f.what == "masked address")
    assert f.wide[2] is False and f.narrowed[2] is False and f.wide[:2] != f.narrowed[:2]
    assert f.index[0] < 2 * 1073741823  # below numel: an active lane in strict mode's sense


def test_an_uninterceptable_memory_operation_is_out_of_class_by_name(results):
    r = results["edited_atomic"]
    assert r.verdict == Verdict.OUT_OF_CLASS and "atomic_rmw" in r.reason


def test_a_body_that_is_not_triton_language_is_refused_and_never_run(results, tmp_path):
    r = results["edited_escape"]
    assert r.verdict == Verdict.OUT_OF_CLASS and "Triton-language kernel bodies only" in r.reason
    assert not (ROOT / "ORACLE_ESCAPE_MARKER").exists() and not Path("ORACLE_ESCAPE_MARKER").exists()


def test_a_record_whose_signature_disagrees_with_its_source_is_an_error(results):
    r = results["edited_signature"]
    assert r.verdict == Verdict.ERROR and "differs from the source" in r.reason
