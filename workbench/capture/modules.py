"""Capture of programs that own ``nn.Module`` objects: where their weights go during capture.

Stage: capture. A program's modules are either built by the program (``Program.build``, called under
``torch.device("meta")``: parameters and buffers are meta tensors, no memory is allocated, so a 7B-parameter
config costs nothing) or found at module level in the program's file (real CPU tensors the user made).
Either way, while capture runs, every parameter, buffer and plain tensor attribute is replaced by a tensor
on the capture device made by ``place`` (on the fake CUDA device: a FakeTensor of the same shape, stride and
dtype, never filled; on a real device: uninitialised memory for meta tensors, a copy otherwise) and put back
on exit, also on error. Shared tensors (tied embeddings) stay shared. Parameters are placed with
``requires_grad=False`` for the inference graph (capture runs under ``torch.no_grad()``), and floating ones
with ``requires_grad=True`` for a training step (``backward=True``).

Limits: values never matter for code generation, so nothing checks them; a module whose ``forward``
branches on a weight's *value* would trace with garbage (real devices) or fail (fake device).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any


def modules_of(program) -> list[Any]:
    """The ``nn.Module`` objects a program's function can reach: module-level globals of its file and
    closure cells (ordered by name, for determinism)."""
    import torch.nn as nn

    fn = program.fn
    found: dict[int, tuple[str, nn.Module]] = {}
    for name, value in sorted(getattr(fn, "__globals__", {}).items()):
        if isinstance(value, nn.Module):
            found.setdefault(id(value), (name, value))
    for i, cell in enumerate(getattr(fn, "__closure__", None) or ()):
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, nn.Module):
            found.setdefault(id(value), (f"<closure {i}>", value))
    return [m for _, m in sorted(found.values(), key=lambda kv: kv[0])]


@contextlib.contextmanager
def placed(roots: list[Any], place: Callable[[Any], Any], grad: bool = False) -> Iterator[int]:
    """Replace every tensor the modules hold by ``place(tensor)``; yields how many were placed. Parameters
    require grad only for a training step (``grad=True``: capture with ``backward=True``)."""
    import torch
    import torch.nn as nn

    saved: list[tuple[dict, str, Any]] = []
    memo: dict[int, Any] = {}

    def moved(t):
        got = memo.get(id(t))
        if got is None:
            got = memo[id(t)] = place(t)
        return got

    try:
        for root in roots:
            for mod in root.modules():
                for name, t in list(mod._parameters.items()):
                    if t is None:
                        continue
                    saved.append((mod._parameters, name, t))
                    key = ("param", id(t))
                    if key not in memo:
                        memo[key] = nn.Parameter(moved(t), requires_grad=grad and t.is_floating_point())
                    mod._parameters[name] = memo[key]
                for name, t in list(mod._buffers.items()):
                    if t is None:
                        continue
                    saved.append((mod._buffers, name, t))
                    mod._buffers[name] = moved(t)
                attrs = vars(mod)
                for name, t in list(attrs.items()):
                    if isinstance(t, torch.Tensor) and not name.startswith("_"):
                        saved.append((attrs, name, t))
                        attrs[name] = moved(t)
        yield len(saved)
    finally:
        for store, name, t in reversed(saved):
            store[name] = t


def fake_placer(mode) -> Callable[[Any], Any]:
    """Tensors -> FakeTensors on ``cuda:0`` in ``mode`` (same shape, stride, dtype; no storage)."""
    import torch

    def place(t):
        with mode:
            return torch.empty_strided(tuple(t.shape), tuple(t.stride()), dtype=t.dtype, device="cuda")

    return place


def device_placer(device: str) -> Callable[[Any], Any]:
    """Tensors -> real tensors on ``device``: uninitialised memory for meta tensors, a copy otherwise."""
    import torch

    def place(t):
        if t.is_meta:
            return torch.empty_strided(tuple(t.shape), tuple(t.stride()), dtype=t.dtype, device=device)
        return t.detach().to(device)

    return place
