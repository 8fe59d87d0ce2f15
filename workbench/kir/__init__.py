"""Kernel IR: Inductor's emitted Triton kernels as typed integer terms, evaluated lane by lane.

Stage: kir (after ``capture``, before ``check``). Public API (stable; see ``docs/kir.md``):

* :func:`parse` (kernel record or text -> :class:`Kernel`), refusing by name with :class:`RefusedConstruct`;
* :class:`Op` and its law-commented groups (``workbench.kir.ops``), :class:`Node`/:func:`node`, types;
* :func:`evaluate` (kernel, sizes, :class:`Lane`, :class:`Mode`) -> :class:`LaneResult`; :func:`launch`,
  :func:`instantiate` (re-typed kernel for a mode), :data:`WIDE`, :data:`NARROW`;
* :func:`canonical_hash` / :func:`canonical_text`; :func:`render` (IR as Triton-like text that parses back).
"""

from __future__ import annotations

from workbench.kir.errors import EvaluationError, KernelSourceError, RefusedConstruct, UndefinedBehaviour
from workbench.kir.evaluator import Access, Lane, LaneResult, Launch, Term, evaluate, launch, truncdiv, truncmod
from workbench.kir.instantiate import instantiate
from workbench.kir.modes import NARROW, WIDE, Mode
from workbench.kir.nodes import Binding, Kernel, Node, Param, node, walk
from workbench.kir.ops import Op
from workbench.kir.parser import parse
from workbench.kir.types import FloatType, IntType, PtrType, Type, i1, i8, i16, i32, i64

__all__ = [
    "Access", "Binding", "EvaluationError", "FloatType", "IntType", "Kernel", "KernelSourceError", "Lane",
    "LaneResult", "Launch", "Mode", "NARROW", "Node", "Op", "Param", "PtrType", "RefusedConstruct", "Term",
    "Type", "UndefinedBehaviour", "WIDE", "canonical_hash", "canonical_text", "evaluate", "i1", "i8", "i16",
    "i32", "i64", "instantiate", "launch", "node", "parse", "render", "truncdiv", "truncmod", "walk",
]


def canonical_text(kernel):  # noqa: D103 - documented in workbench.kir.canon
    from workbench.kir.canon import canonical_text as f

    return f(kernel)


def canonical_hash(kernel, facts: bool = True) -> str:  # noqa: D103
    from workbench.kir.canon import canonical_hash as f

    return f(kernel, facts=facts)


def render(kernel) -> str:
    """The IR as readable, re-parseable text (a ``Kernel`` or a captured kernel record; records are parsed).

    Raises :class:`RefusedConstruct` / :class:`KernelSourceError` for records the IR cannot read; the
    KernelView widget shows that message instead."""
    from workbench.kir.renderer import render as f

    return f(kernel if isinstance(kernel, Kernel) else parse(kernel))
