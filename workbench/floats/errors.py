"""Errors raised by the floats stage; each derives from a class in ``workbench.errors``.

Messages name the value, the place (file and line) and what to do instead.
"""

from __future__ import annotations

from workbench.errors import InputError, UnsupportedError, UsageError


class SpecLoadError(InputError):
    """SPEC.py is missing, does not define ``program(x, ...)``, or torch.export could not capture it."""


class SpecOpUnsupportedError(UnsupportedError):
    """The captured PyTorch graph uses an ATen op without a float32 rule in the spec IR."""

    def __init__(self, message: str, op: str = "", line: int | None = None):
        super().__init__(message)
        self.op = op
        self.line = line


class CudaParseError(InputError):
    """The .cu file does not parse (clang reported an error) or holds no ``__global__`` kernel."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


class CudaUnsupportedError(UnsupportedError):
    """The kernel uses a construct the CUDA frontend refuses by name (launch, atomic, shuffle, goto, ...)."""

    def __init__(self, message: str, construct: str = "", line: int | None = None):
        super().__init__(message)
        self.construct = construct
        self.line = line


class FloatsUnsupportedError(UnsupportedError):
    """An operation exists in the IR but has no bit-exact model here (double fma, an opaque call)."""


class FloatsUsageError(UsageError):
    """A command-line or API argument is wrong (bad flag value, spec/kernel arity mismatch)."""
