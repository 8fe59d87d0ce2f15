"""One exception hierarchy for the whole workbench.

Every failure a user can cause (bad input, missing tool, unsupported construct) raises a subclass of
``WorkbenchError``. Messages name the value, the place and the fix; callers that need to act on a failure
read the typed attributes rather than parsing the message. Packages define their own subclasses next to
the code that raises them, always deriving from one of the classes here.
"""

from __future__ import annotations


class WorkbenchError(Exception):
    """Base class of every error the workbench raises on purpose."""


class UsageError(WorkbenchError):
    """A caller asked for something that does not exist or cannot be combined (unknown name, bad flag)."""


class InputError(WorkbenchError):
    """A file or value given to the workbench is malformed (broken JSON, missing function, bad plan)."""


class UnsupportedError(WorkbenchError):
    """The input is well formed but uses a construct the workbench does not model; it refuses by name."""


class ToolMissingError(WorkbenchError):
    """An external tool (Lean, lake, a GPU, a browser) is not available; the message says how to get it."""


class VersionMismatchError(WorkbenchError):
    """An installed package differs from the version a private-API hook was written against."""


class CaptureError(WorkbenchError):
    """Capturing a program's Inductor kernels failed (graph break, no Triton kernel, hook failure)."""
