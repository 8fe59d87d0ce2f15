"""Premises from captured facts: guards as facts, floor atoms with their definitions, unused guards listed."""

from workbench.capture import load
from workbench.check.premises import premises_of
from workbench.paths import KERNELS


def test_floor_size_expression_becomes_an_atom_with_definitions():
    p = premises_of(load(KERNELS / "chunk_add" / "triton_poi_fused_add_split_0.json"))
    ks0 = p.size_value("ks0")
    (atom,) = [a for a in p.atoms if a.name in {s for s in ks0.symbols()}]
    assert atom.kind == "floor" and atom.denominator == 2
    defs = [f for f in p.facts if f.name.startswith(f"def:{atom.name}:")]
    assert len(defs) == 2
    # its lower bound follows from s27 >= 3: floor((3+1)/2) = 2
    assert p.lower_map[atom.name] == 2


def test_inequality_guards_are_facts_and_ne_guards_are_listed_unused():
    p = premises_of(load(KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"))
    assert any(f.origin == "s27*s77 <= 2147483647" for f in p.facts)
    assert any(u.startswith("Ne(") for u in p.unused_guards)
