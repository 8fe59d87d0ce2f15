"""Errors of the check stage, each deriving from one of :mod:`workbench.errors`' classes."""

from __future__ import annotations

from workbench.errors import InputError, UnsupportedError, UsageError


class FactError(InputError):
    """A captured symbolic fact (size expression, guard) cannot be parsed."""


class CertificateError(InputError):
    """A certificate does not fit the kernel it is checked against (wrong hash, unknown node, bad choice).

    ``field`` names the offending part so a caller (the compiler rule) can report which premise differs."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


class OutOfClassError(UnsupportedError):
    """The kernel is outside the class the checker models (int64 index dtype, reduction, unknown op)."""


class KernelNotFoundError(UsageError):
    """``workbench check NAME`` named no program, file or record."""
