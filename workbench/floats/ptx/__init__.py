"""The PTX level of the float checker: decide a kernel on the PTX nvcc emits (stage: floats/ptx).

Data flow: ``nvcc.compile_ptx`` (the user's flags) -> ``parse.parse_ptx`` -> ``execute.run`` (every thread
of the enumerated launches, loads symbolic) -> ``extract.extract`` (element functions) -> ``gate.gate``
(bounds, alignment, overlap on PTX addresses) and ``check.check_ptx`` (the source level's case split and
exhaustive unary sweep, over ``semantics`` = the PTX ISA's bit-exact rules). ``xval`` compares the source
level's model with the PTX; ``flags`` runs the flag-set experiment. Nothing here imports torch; nvcc is
needed only to compile (``NvccNotFoundError`` otherwise). See docs/floats_ptx.md.
"""

from workbench.floats.ptx.check import PtxVerdict, check_ptx
from workbench.floats.ptx.nvcc import FLAG_SETS, Flags, NvccNotFoundError, parse_flags

__all__ = ["FLAG_SETS", "Flags", "NvccNotFoundError", "PtxVerdict", "check_ptx", "parse_flags"]
