"""Hand-edited kernel records, built from real captured ones by a table of edits (a red-teamer's kit).

Each edit takes the record's JSON (a dict) and returns the edited JSON; :func:`materialise` writes it to a
directory the way a user would hand it to ``workbench check`` (``<name>.json``), recomputing ``source_hash``
unless the edit is about the hash itself, so that every other edit reaches the checker."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

from workbench.capture.record import jit_function_text, source_hash
from workbench.paths import KERNELS

Edit = Callable[[dict], dict]

TILE = "tile/triton_poi_fused_repeat_0.json"
NESTED = "nested_cat_add/triton_poi_fused_add_cat_0.json"
ROTARY = "rotary/triton_poi_fused_add_cat_mul_neg_slice_0.json"
FLIP = "flip_last/triton_poi_fused_flip_0.json"
BCAST = "broadcast_add/triton_poi_fused_add_0.json"
MOVEDIM = "movedim/triton_poi_fused_clone_permute_0.json"


def base(rel: str) -> dict:
    return json.loads((KERNELS / rel).read_text())


def body(d: dict) -> str:
    return jit_function_text(d["source"], d["name"])


def src(old: str, new: str, count: int = 1) -> Edit:
    """Replace text inside the kernel's jit function (the edit must apply: a stale table fails loudly)."""

    def edit(d: dict) -> dict:
        b = body(d)
        assert old in b, f"edit {old!r} does not apply to {d['program']}/{d['name']}"
        d["source"] = d["source"].replace(b, b.replace(old, new, count))
        return d

    return edit


def module(old: str, new: str) -> Edit:
    """Replace text anywhere in the kernel's module (decorators, other definitions)."""

    def edit(d: dict) -> dict:
        assert old in d["source"], f"edit {old!r} does not apply to {d['program']}/{d['name']}"
        d["source"] = d["source"].replace(old, new, 1)
        return d

    return edit


def field(**changes) -> Edit:
    def edit(d: dict) -> dict:
        d.update(copy.deepcopy(changes))
        return d

    return edit


def size(name: str, expr: str | None = None, type_: str | None = None) -> Edit:
    def edit(d: dict) -> dict:
        for a in d["size_args"] + d["numels"]:
            if a["name"] == name:
                if expr is not None:
                    a["expr"] = expr
                if type_ is not None:
                    a["type"] = type_
                return d
        raise AssertionError(f"no size argument {name}")

    return edit


def signature(name: str, type_: str, *, meta: bool = True, record: bool = True, sizes: bool = True) -> Edit:
    """Declare parameter ``name`` as ``type_``: in the record's signature, the source's triton_meta and the
    size-argument list (each optional, to build disagreements)."""

    def edit(d: dict) -> dict:
        old = d["signature"][name]
        if record:
            d["signature"][name] = type_
        if meta:
            needle = f"'{name}': '{old}'"
            assert needle in d["source"], needle
            d["source"] = d["source"].replace(needle, f"'{name}': '{type_}'", 1)
        if sizes:
            for a in d["size_args"] + d["numels"]:
                if a["name"] == name:
                    a["type"] = type_
        return d

    return edit


def symbol(name: str, **changes) -> Edit:
    def edit(d: dict) -> dict:
        for s in d["symbols"]:
            if s["name"] == name:
                s.update(changes)
                return d
        raise AssertionError(f"no symbol {name}")

    return edit


def guards(fn: Callable[[list[str]], list[str]]) -> Edit:
    def edit(d: dict) -> dict:
        d["guards"] = fn(list(d["guards"]))
        return d

    return edit


def rename_symbol(old: str, new: str) -> Edit:
    """Rename a shape symbol everywhere in the record's facts (not in the kernel text, which has none)."""
    import re

    pat = re.compile(rf"\b{re.escape(old)}\b")

    def edit(d: dict) -> dict:
        for a in d["size_args"] + d["numels"]:
            a["expr"] = pat.sub(new, a["expr"])
        d["guards"] = [pat.sub(new, g) for g in d["guards"]]
        for s in d["symbols"]:
            if s["name"] == old:
                s["name"] = new
        return d

    return edit


def chain(*edits: Edit) -> Edit:
    def edit(d: dict) -> dict:
        for e in edits:
            d = e(d)
        return d

    return edit


def keep_hash(e: Edit) -> Edit:
    """Mark an edit whose result keeps the stale ``source_hash`` (the hash check is what it aims at)."""
    e.keep_hash = True  # type: ignore[attr-defined]
    return e


def materialise(rel: str, edit: Edit, directory: Path) -> Path:
    d = edit(base(rel))
    if not getattr(edit, "keep_hash", False):
        try:
            d["source_hash"] = source_hash(d["source"], d["name"])
        except Exception:  # noqa: BLE001 - an edit that breaks the module is caught by the loader instead
            pass
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{d['name']}.json"
    path.write_text(json.dumps(d, indent=1, sort_keys=True))
    return path
