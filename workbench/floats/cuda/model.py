"""What the CUDA frontend produces: a kernel as guarded loads and stores in the float IR (stage: floats).

A ``Kernel`` is the list of memory ``Access``es one generic thread makes (index and guard as integer IR over
``threadIdx/blockIdx/blockDim/gridDim`` and ``n``; a stored value as float IR over loads and scalar
parameters) plus the launch. ``Ptr``, ``Vec`` and ``State`` are the frontend's symbolic values while it
walks the kernel body.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.floats.cuda.launch import Launch
from workbench.floats.ir import Node, Op, Ty, const, walk


@dataclass(frozen=True, slots=True)
class Access:
    kind: str  # "load", "store", or "trip": a loop condition that must never hold (unrolled trips exhausted)
    array: str
    index: Node  # element index (in floats) into `array`
    guard: Node  # BOOL over thread indices and n: the access happens iff it holds
    line: int
    value: Node | None = None  # stored value (stores only)
    align: Node | None = None  # for a vector access: its first element index, which must be a multiple of width
    width: int = 1


@dataclass(frozen=True, slots=True)
class Kernel:
    name: str
    path: str
    source: str
    line: int
    inputs: tuple[str, ...]  # spec arguments x0, x1, ...: read-only arrays and float scalars, in parameter order
    output: str
    count: str  # the integer parameter holding the element count
    accesses: tuple[Access, ...]
    launch: Launch
    params: tuple[str, ...]
    scalars: tuple[str, ...] = ()  # float scalar parameters (universally quantified inputs)
    outputs: tuple[str, ...] = ()  # every written array, in parameter order, when there are two

    def only(self, out: str) -> "Kernel":
        """The kernel as seen by one output array: every load, the stores to ``out`` only."""
        from dataclasses import replace

        return replace(self, output=out, outputs=(),
                       accesses=tuple(a for a in self.accesses if a.kind != "store" or a.array == out))

    @property
    def stores(self) -> tuple[Access, ...]:
        return tuple(a for a in self.accesses if a.kind == "store")

    @property
    def memory(self) -> tuple[Access, ...]:
        return tuple(a for a in self.accesses if a.kind in ("load", "store"))

    @property
    def opaque(self) -> tuple[str, ...]:
        names = set()
        for a in self.stores:
            names |= {n.name for n in walk(a.value) if n.op is Op.OPAQUE}
        return tuple(sorted(names))


@dataclass(frozen=True, slots=True)
class Ptr:
    array: str
    offset: Node  # in floats
    width: int = 1  # 1: float*, 2: float2*, 4: float4*
    const: bool = False
    elem: Ty = Ty.F32  # element type: F32, or F16/BF16 for __half*/__nv_bfloat16*


@dataclass(frozen=True, slots=True)
class Vec:
    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str  # threadIdx, blockIdx, blockDim, gridDim


@dataclass(slots=True)
class State:
    guard: Node
    env: dict
    accesses: list = field(default_factory=list)


TRUE = const(True, Ty.BOOL)
FIELDS = {"x": 0, "y": 1, "z": 2, "w": 3}
