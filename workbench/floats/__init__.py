"""Float32 spec equivalence: a PyTorch program is the specification, a CUDA kernel the candidate.

Data flow: ``spec.capture_spec`` (torch.export -> IR) and ``cuda.parse_kernel`` (clang AST -> accesses)
meet in ``check.check`` (element functions, case split, exhaustive sweep over 2**32 inputs for unary
kernels, gmpy2 confirmation of every witness) next to ``gate.gate`` (bounds, alignment and write overlap
for every thread of the launch); ``lean`` writes the result as Lean text; ``corpus.check_all`` builds the
verdict table of ``data/floats/corpus``. Nothing here imports torch until a spec is captured.
"""

from __future__ import annotations

from workbench.floats.check import Target, Verdict, Witness, check
from workbench.floats.cuda import Kernel, parse_kernel
from workbench.floats.gate import Safety, gate

__all__ = ["Kernel", "Safety", "Target", "Verdict", "Witness", "check", "gate", "parse_kernel", "capture_spec"]


def capture_spec(path):
    """SPEC.py -> Spec; see :func:`workbench.floats.spec.capture_spec` (imports torch)."""
    from workbench.floats.spec import capture_spec as _capture

    return _capture(path)
