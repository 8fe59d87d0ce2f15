"""The :class:`Program` artefact and the registry it is registered in: the bottom of the programs layer.

Stage: programs. Everything here is data and a dictionary: the corpus modules (``corpus``, ``integer``,
``reductions``) and the zoo import this module to describe and register programs, and
:mod:`workbench.programs` (the package) looks names up, loads the corpus and reads program files on top of
it, so no module of the layer imports one above it (issue 27: no import circle).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.errors import UsageError

Dim = str | int  # a named dynamic dimension, or a fixed size


@dataclass(frozen=True, slots=True)
class InputSpec:
    """One tensor input: its shape over named dimensions and its dtype name (``torch.<dtype>``)."""

    shape: tuple[Dim, ...]
    dtype: str = "bfloat16"

    def concrete(self, sizes: Mapping[str, int]) -> tuple[int, ...]:
        try:
            return tuple(d if isinstance(d, int) else int(sizes[d]) for d in self.shape)
        except KeyError as exc:
            raise UsageError(
                f"shape {self.shape} needs a size for dimension {exc.args[0]!r}; given {dict(sizes)}"
            ) from None


@dataclass(frozen=True, slots=True)
class Program:
    """A torch function to compile, with how to build its inputs.

    ``dynamic``: for each input, the tuple of dimension indices that are dynamic; ``None`` means all
    dimensions of all inputs (``torch.compile(dynamic=True)``; for programs that own modules, every input
    dimension is marked ``maybe_mark_dynamic`` instead, so parameters stay static).
    ``build``: constructs the ``nn.Module`` that ``fn`` calls as ``fn(module, *inputs)``; capture calls it
    under ``torch.device("meta")`` (no weight is ever allocated) and moves parameters and buffers to the
    capture device as fake tensors.
    """

    name: str
    fn: Callable[..., Any]
    inputs: tuple[InputSpec, ...]
    example: Mapping[str, int]
    shapes: Mapping[str, tuple[Mapping[str, int], ...]] = field(default_factory=dict)
    dynamic: tuple[tuple[int, ...], ...] | None = None
    description: str = ""
    origin: str = "registry"
    example_fn: Callable[[], tuple[Any, ...]] | None = None
    build: Callable[[], Any] | None = None
    # For a training step (capture ``backward=True``): the scalar the step differentiates, from the program's
    # output (a file's ``loss(output)``); None sums every floating output.
    loss: Callable[[Any], Any] | None = None

    def make_inputs(self, sizes: Mapping[str, int] | None = None, device: str = "cpu", seed: int = 0):
        """Random inputs at ``sizes`` (default: the example sizes), deterministic for a seed."""
        import torch

        if self.example_fn is not None:
            if sizes is not None:
                raise UsageError(
                    f"program {self.name!r} comes from {self.origin} and only has example_inputs(); "
                    "it cannot be instantiated at other sizes"
                )
            return tuple(t.to(device) for t in self.example_fn())
        sizes = self.example if sizes is None else sizes
        gen = torch.Generator().manual_seed(seed)
        out = []
        for spec in self.inputs:
            dtype = getattr(torch, spec.dtype)
            shape = spec.concrete(sizes)
            if dtype.is_floating_point:
                t = torch.randn(shape, generator=gen, dtype=torch.float32).to(dtype)
            else:
                t = torch.randint(0, 7, shape, generator=gen, dtype=dtype)
            out.append(t.to(device))
        return tuple(out)

    def example_inputs(self, device: str = "cpu"):
        return self.make_inputs(None, device=device)

    def shape_sequence(self, name: str) -> tuple[Mapping[str, int], ...]:
        if name not in self.shapes:
            raise UsageError(
                f"program {self.name!r} has no shape sequence {name!r}; it has {sorted(self.shapes)}"
            )
        return self.shapes[name]


_REGISTRY: dict[str, Program] = {}


def register(program: Program) -> Program:
    if program.name in _REGISTRY:
        raise UsageError(f"program {program.name!r} is registered twice")
    _REGISTRY[program.name] = program
    return program


def call_module(module, *inputs):
    """The function a ``build`` program compiles: the module applied to the inputs."""
    return module(*inputs)
