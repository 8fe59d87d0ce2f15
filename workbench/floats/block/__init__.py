"""The block level: KernelBench answers whose threads share data (reductions, softmax, norms, matmuls).

Stage: floats. ``check_block(reference, answer, options) -> BlockVerdict`` reads a KernelBench problem file
and a ``ModelNew`` answer (inline CUDA), interprets the answer's host wrapper and kernel exactly at small
concrete sizes taken from the problem's shapes (every thread of every block, barriers as lockstep phases,
warp shuffles as exchanges among 32 lanes, atomics serialised in thread order), and gives three results:

- over the reals (sympy): each output element of kernel and spec as an expression of the input elements;
- over float32 under named semantics: equal bits only where ATen's order is provably the kernel's, otherwise
  a witness confirmed by exact evaluation of both sides (the reference Model run on the CPU for spec device
  cpu), or "not shown equivalent" after N trials;
- shared-memory safety: races between barriers, divergent barriers, out-of-bounds shared indices,
  uninitialised shared reads (plus global bounds and unwritten outputs), each with a thread-level witness.

Modules: ``verdict`` (the frozen result types), ``lower`` (clang's AST -> a small tree), ``machine`` (the
block interpreter), ``domains`` (real and float32 arithmetic), ``spec`` (the reference as real expressions
and as CPU runs), ``decide`` (the two decisions and the API). See docs/floats-block.md.
"""

from __future__ import annotations

from pathlib import Path

from workbench.floats.block.verdict import (BlockOptions, BlockSafety, BlockVerdict, FloatStatus, FloatVerdict,
                                            FloatWitness, Hazard, HazardKind, RealStatus, RealVerdict, RealWitness)


def check_block(reference: str | Path, answer: str | Path, options: BlockOptions = BlockOptions()) -> BlockVerdict:
    """Check a KernelBench ANSWER.py (``ModelNew`` with inline CUDA) against REFERENCE.py (``Model``): both
    semantic levels and shared-memory safety. Raises a ``WorkbenchError`` subclass on bad input (its message
    names the value, the place and the fix)."""
    from workbench.floats.block.decide import check_block as run

    return run(Path(reference), Path(answer), options)


__all__ = ["BlockOptions", "BlockSafety", "BlockVerdict", "FloatStatus", "FloatVerdict", "FloatWitness", "Hazard",
           "HazardKind", "RealStatus", "RealVerdict", "RealWitness", "check_block"]
