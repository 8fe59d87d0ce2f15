"""CUDA frontend: clang's AST of an elementwise kernel -> guarded accesses in the float IR (stage: floats).

``parse_kernel`` parses a ``.cu`` file with PyPI ``libclang`` and a stub header (``stub.py``) and executes
the ``__global__`` kernel symbolically for one generic thread (``statements.py``, ``expressions.py``):
integer variables become index expressions over ``threadIdx/blockIdx/blockDim/gridDim`` and the element
count, float variables become IR expressions over loads and scalar parameters. The translation is
deterministic; what it does not model it refuses by name, with the line: kernel launches, atomics, warp
shuffles and votes, barriers and shared memory, goto, while/do loops, break/continue, pointer escapes,
bitwise integer operators, calls to anything unlisted. Transcendentals and approximate intrinsics (expf,
tanhf, rsqrtf, __fdividef, ...) are accepted as OPAQUE nodes, named in every verdict.

Modules: ``stub`` (what clang sees, call tables), ``literals`` (exact literal rounding), ``launch`` (the
``// launch:`` comment, parsed, never evaluated), ``model`` (Kernel, Access), ``expressions`` and
``statements`` (one method per cursor kind), ``parse`` (the entry point).
"""

from __future__ import annotations

from workbench.floats.cuda.launch import Launch, parse_launch
from workbench.floats.cuda.literals import round_fraction, round_literal
from workbench.floats.cuda.model import Access, Kernel
from workbench.floats.cuda.parse import parse_kernel
from workbench.floats.cuda.stub import STUB

__all__ = ["Access", "Kernel", "Launch", "STUB", "parse_kernel", "parse_launch", "round_fraction", "round_literal"]
