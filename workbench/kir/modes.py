"""Widths of a kernel variant: the kernel as emitted (``WIDE``), narrowed (``NARROW``: size arguments int32), or
a small model of the pair (``Mode(int32=8, int64=16, size_args=8)``).

Stage: kir. Read by the instantiation (:mod:`workbench.kir.instantiate`) and the evaluator.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.kir.errors import EvaluationError
from workbench.kir.nodes import Param
from workbench.kir.types import IntType, PtrType, Type


@dataclass(frozen=True, slots=True)
class Mode:
    """Widths: ``int32``/``int64`` stand for Triton's int32/int64 (index dtype, program ids, ``tl.arange``,
    literals / the wide type); ``size_args`` is the width of the ``ks*`` size arguments (``None`` = as
    declared). ``Mode()`` is the kernel as emitted, ``Mode(size_args=32)`` the narrowed kernel, and e.g.
    ``Mode(int32=8, int64=16)`` vs ``Mode(int32=8, int64=16, size_args=8)`` a small model of the pair."""

    int32: int = 32
    int64: int = 64
    size_args: int | None = None

    def __post_init__(self) -> None:
        if not (2 <= self.int32 <= self.int64) or (self.size_args is not None and self.size_args < 2):
            raise EvaluationError(f"bad widths {self}: need 2 <= int32 <= int64 and size_args >= 2")

    @property
    def name(self) -> str:
        base = "" if (self.int32, self.int64) == (32, 64) else f"i{self.int32}/i{self.int64} "
        return base + ("declared" if self.size_args is None else f"size args i{self.size_args}")

    def map_type(self, t: Type) -> Type:
        if isinstance(t, IntType):
            return IntType(self.int64) if t.bits == 64 else IntType(self.int32) if t.bits == 32 else t
        if isinstance(t, PtrType):
            return PtrType(self.map_type(t.element))  # type: ignore[arg-type]
        return t

    def param_type(self, p: Param) -> Type | None:
        if p.type is None:
            return None
        if p.kind == "size" and self.size_args is not None:
            return IntType(self.size_args)
        return self.map_type(p.type)


WIDE = Mode()
NARROW = Mode(size_args=32)
