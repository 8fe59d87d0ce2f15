"""Canonical hash: renaming keeps it, semantic changes change it; render -> parse keeps it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from workbench.capture import load
from workbench.kir import canonical_hash, parse, render
from workbench.kir.table import readable

ROOT = Path(__file__).resolve().parents[2]
RECORDS = readable(sorted((ROOT / "data" / "kernels").glob("*/*.json")))  # refused ones: test_kir_corpus_classes
NESTED = ROOT / "data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.json"


def variant(ck, old: str, new: str, count: int = 1):
    assert old in ck.source, old
    return dataclasses.replace(ck, source=ck.source.replace(old, new, count))


def test_renaming_temporaries_keeps_the_hash():
    ck = load(NESTED)
    renamed = dataclasses.replace(ck, source=re.sub(r"\btmp(\d+)\b", r"value_\1", ck.source))
    renamed = dataclasses.replace(renamed, source=re.sub(r"\bx(\d)\b", r"idx\1", renamed.source))
    assert canonical_hash(parse(renamed)) == canonical_hash(parse(ck))


def test_renaming_shape_symbols_keeps_the_hash():
    ck = load(NESTED)
    mapping = {"s12": "s99", "s48": "s3", "s85": "s40", "s66": "s1"}

    def ren(text: str) -> str:
        return re.sub(r"\bs\d+\b", lambda m: mapping.get(m.group(0), m.group(0)), text)

    sizes = tuple(dataclasses.replace(a, expr=ren(a.expr)) for a in ck.size_args)
    numels = tuple(dataclasses.replace(n, expr=ren(n.expr)) for n in ck.numels)
    other = dataclasses.replace(ck, size_args=sizes, numels=numels)
    assert canonical_hash(parse(other)) == canonical_hash(parse(ck))


SEMANTIC = [
    ("tmp17 = tl.load(in_ptr0 + (ks1*x1 + (x0))", "tmp17 = tl.load(in_ptr0 + (ks1*x1 + ks2 + (x0))"),  # extra size use
    ("tmp0 = (x0).to(tl.int32)", "tmp0 = (x0).to(tl.int64)"),  # changed cast
    ("tl.store(out_ptr0 + (x2)", "tl.store(out_ptr0 + (x2 + 1)"),  # changed index
    ("x1 = xindex // ks0", "x1 = xindex // ks1"),  # changed divisor
    ("tmp33 = tl.full(tmp32.shape, 0.0, tmp32.dtype)", "tmp33 = tl.full(tmp32.shape, 1.0, tmp32.dtype)"),  # constant
    ("tmp5 = (ks1 + ks2 + ks3).to(tl.int64)", "tmp5 = (ks1 + ks2 + ks3 + 1).to(tl.int64)"),  # segment bound
    ("xmask = xindex < xnumel", "xmask = xindex <= xnumel"),  # changed mask
]


@pytest.mark.parametrize("old,new", SEMANTIC, ids=[s[1][:30] for s in SEMANTIC])
def test_semantic_changes_change_the_hash(old, new):
    ck = load(NESTED)
    assert canonical_hash(parse(variant(ck, old, new))) != canonical_hash(parse(ck))


def test_dead_code_does_not_change_the_hash():
    ck = load(NESTED)  # tmp2 = tmp0 >= tmp1 is never used: Inductor emits dead bounds checks
    other = variant(ck, "tmp1 = tl.full([1], 0, tl.int64)", "tmp1 = tl.full([1], 1, tl.int64)")
    assert canonical_hash(parse(other)) == canonical_hash(parse(ck))


def test_changed_size_expression_changes_the_hash_with_facts_only():
    ck = load(NESTED)
    sizes = (dataclasses.replace(ck.size_args[0], expr="2*s12 + 2*s48 + 3*s85"),) + ck.size_args[1:]
    other = dataclasses.replace(ck, size_args=sizes)
    assert canonical_hash(parse(other)) != canonical_hash(parse(ck))
    assert canonical_hash(parse(other), facts=False) == canonical_hash(parse(ck), facts=False)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_render_then_parse_keeps_the_hash(path):
    k = parse(load(path))
    text = render(k)
    if k.reduction is not None:  # a reduction's listing is for reading, not re-parsed (kir/renderer.py)
        assert render(parse(load(path))) == text  # deterministic
        return
    assert canonical_hash(parse(text)) == canonical_hash(k)
    assert render(parse(text)) == text  # deterministic


def test_render_accepts_a_record_for_the_kernel_view():
    text = render(load(NESTED))
    assert text.startswith("def triton_poi_fused_add_cat_0(") and "tl.store(out_ptr0" in text


def test_render_golden_tile():
    got = render(parse(load(ROOT / "data/kernels/tile/triton_poi_fused_repeat_0.json")))
    golden = Path(__file__).with_name("golden_kir_tile.txt")
    assert got == golden.read_text()


@pytest.mark.parametrize("seed", range(3))
def test_random_shape_symbol_renaming_keeps_the_hash_on_the_corpus(seed):
    import random

    rng = random.Random(seed)
    for path in RECORDS[seed::3]:
        ck = load(path)
        syms = sorted({s.name for s in ck.symbols})
        fresh = rng.sample(range(100, 999), len(syms))
        mapping = {s: f"s{n}" for s, n in zip(syms, fresh)}

        def ren(text: str) -> str:
            return re.sub(r"\bs\d+\b", lambda m: mapping.get(m.group(0), m.group(0)), text)

        other = dataclasses.replace(
            ck,
            size_args=tuple(dataclasses.replace(a, expr=ren(a.expr)) for a in ck.size_args),
            numels=tuple(dataclasses.replace(n, expr=ren(n.expr)) for n in ck.numels),
        )
        assert canonical_hash(parse(other)) == canonical_hash(parse(ck)), path


def test_generated_kernels_render_and_parse_back_to_the_same_hash():
    import random

    from workbench.errors import WorkbenchError
    from workbench.kir.differential import random_kernel

    rng = random.Random(3)
    checked = 0
    for _ in range(150):
        text = random_kernel(rng)
        try:
            k = parse(text)
        except WorkbenchError:
            continue
        again = parse(render(k))
        assert canonical_hash(again) == canonical_hash(k), text
        checked += 1
    assert checked > 60
