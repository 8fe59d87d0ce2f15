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

import re
from pathlib import Path

from workbench.floats.block.verdict import (BlockOptions, BlockSafety, BlockVerdict, FloatStatus, FloatVerdict,
                                            FloatWitness, Hazard, HazardKind, RealStatus, RealVerdict, RealWitness)


def check_block(reference: str | Path, answer: str | Path, options: BlockOptions = BlockOptions()) -> BlockVerdict:
    """Check a KernelBench ANSWER.py (``ModelNew`` with inline CUDA) against REFERENCE.py (``Model``): both
    semantic levels and shared-memory safety. Raises a ``WorkbenchError`` subclass on bad input (its message
    names the value, the place and the fix)."""
    from workbench.floats.block.decide import check_block as run

    return run(Path(reference), Path(answer), options)


# What sends ``floats check REFERENCE.py ANSWER.py`` to the block level: threads that share data in the
# answer's CUDA, or a reference whose forward reduces, normalises or multiplies matrices.
_SHARING = re.compile(r"\b(__shared__|__syncthreads|__syncwarp|__shfl_\w*sync|atomic(Add|Sub|Max|Min|Exch|CAS))\b")
_REDUCING = re.compile(r"(\b(sum|mean|amax|amin|max|min|softmax|log_softmax|matmul|mm|bmm|mv|einsum|norm|layer_norm|"
                       r"rms_norm|LayerNorm|RMSNorm|var|std|logsumexp|prod|cumsum|cumprod)\s*\()|([\w)\]]\s*@\s*[\w(])")


def check_safety(reference: str | Path, answer: str | Path, options: BlockOptions = BlockOptions()) -> BlockSafety:
    """Only the shared-memory safety of the answer (races, divergent barriers, bounds, uninitialised shared
    reads, unwritten outputs), by exact interpretation of every thread at the shapes ``check_block`` would
    decide at (or ``options.shapes``)."""
    from workbench.floats.block.decide import check_safety as run

    return run(Path(reference), Path(answer), options)


def wants_block(reference: str | Path, answer: str | Path) -> bool:
    """True when the pair belongs to the block level rather than the elementwise check: the answer's text
    names shared memory, a barrier, a shuffle or an atomic, or REFERENCE.py's ``forward`` calls a reduction,
    a normalisation or a matrix product (read as text, never run); failing those, when the reference's tensor
    spec (``tensorspec.capture``: the Model exported on the meta device, as the coverage table routes) has a
    family other than elementwise -- a name list alone missed ``nn.MaxPool3d`` (red team, 2026-12-06)."""
    import ast

    ans = Path(answer).read_text()
    if _SHARING.search(ans):
        return True
    try:
        tree = ast.parse(Path(reference).read_text())
    except (OSError, SyntaxError):
        return False
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name == "Model":
            for f in cls.body:
                if isinstance(f, ast.FunctionDef) and f.name in ("forward", "__init__") and \
                        _REDUCING.search(ast.get_source_segment(Path(reference).read_text(), f) or ""):
                    return True
    if not any(isinstance(c, ast.FunctionDef) and c.name == "get_inputs" for c in tree.body):
        return False  # not a KernelBench problem file (a scalar SPEC.py of the elementwise checker)
    from workbench.errors import WorkbenchError
    from workbench.floats.tensorspec import capture

    try:
        spec = capture(reference)
    except WorkbenchError:
        return False  # the elementwise route names what it cannot read
    return not spec.elementwise


__all__ = ["BlockOptions", "BlockSafety", "BlockVerdict", "FloatStatus", "FloatVerdict", "FloatWitness", "Hazard",
           "HazardKind", "RealStatus", "RealVerdict", "RealWitness", "check_block", "check_safety", "wants_block"]
