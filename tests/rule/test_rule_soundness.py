"""The rule's soundness fixes (issue 11, class 9), on records alone (no live compilation):
(a) guards a z3 proof used are recorded and required; (b) the binding cache is keyed by content;
(c) live declared types are compared, the narrowed arguments included; (d) a binding says which mode's
certificate bound, and a store holds one mode."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.capture import load
from workbench.paths import KERNELS
from workbench.rule import best_binding, bind
from workbench.rule.store import certified_from

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"
ROTARY = KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"


@pytest.fixture(scope="module")
def tile_bounded():
    """tile with per-symbol guards only: the element count's bound needs a product, which only z3 proves."""
    rec = dataclasses.replace(load(TILE), guards=("s27 <= 1000", "s77 <= 1000"))
    cert = certified_from(rec, "observable")
    assert cert is not None
    return rec, cert


def test_z3_proved_conditions_record_their_guards(tile_bounded):
    rec, cert = tile_bounded
    assert set(cert.guards_used) == {"s27 <= 1000", "s77 <= 1000"}
    assert bind(cert, rec, cert.ir_hash).bound
    for g in rec.guards:
        live = dataclasses.replace(rec, guards=tuple(x for x in rec.guards if x != g))
        b = bind(cert, live, cert.ir_hash)
        assert not b.bound and g in b.failed


def test_binding_cache_is_keyed_by_content(tile_bounded):
    rec, cert = tile_bounded
    twin = dataclasses.replace(cert)
    assert twin is not cert and twin.content_hash == cert.content_hash
    weaker = dataclasses.replace(cert, guards_used=())
    assert weaker.content_hash != cert.content_hash
    live = dataclasses.replace(rec, guards=("s27 <= 1000",))
    assert best_binding([weaker], live).bound  # a certificate that needs no guard binds ...
    assert not best_binding([cert], live).bound  # ... the one that needs both does not, whatever was cached


@pytest.mark.parametrize("declared", ["i32", "i16", "i8", "u32"])
def test_live_declared_type_of_a_narrowed_argument_is_compared(declared):
    rec = load(TILE)
    cert = certified_from(rec, "observable")
    live = dataclasses.replace(rec, signature={**rec.signature, "ks0": declared})
    b = bind(cert, live, cert.ir_hash)
    assert not b.bound and "signature" in b.failed and declared in b.failed


def test_binding_names_the_mode_and_a_store_holds_one_mode():
    rec = load(ROTARY)
    assert certified_from(rec, "strict") is None  # strict refuses rotary: nothing to bind
    cert = certified_from(rec, "observable")
    b = bind(cert, rec, cert.ir_hash)
    assert b.bound and b.mode == "observable"
    assert "[observable certificate]" in b.explain()
    from workbench.rule.store import load as load_store

    strict = load_store(mode="strict")
    assert all(c.mode == "strict" for c in strict)
    assert "rotary" not in {c.record.program for c in strict}
