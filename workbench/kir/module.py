"""The kernel's module is the unit: only Inductor's own preamble may stand beside the kernel.

Stage: kir (input validation, before any term is built). Input: the whole module text of a captured kernel
(``CapturedKernel.source``: what Inductor's launcher imports) and the kernel's name and declared signature.
Output: nothing, or a refusal by name.

Why: what runs is the module, not the function. A top-level line that rebinds a helper
(``triton_helpers.div_floor_integer = ...``), shadows ``tl`` or re-imports a name changes what the kernel's
text means while leaving the function's text (and so its IR hash) unchanged. kir models the names of
Inductor's preamble as the pinned library defines them (torch 2.13.0's ``torch/_inductor/runtime``), so the
module may hold exactly:

* the preamble statements the pinned version writes (``gen_common_triton_imports`` in
  ``torch/_inductor/codegen/triton.py``: ``import triton``, ``import triton.language as tl``, the
  ``triton_helpers``/``triton_heuristics``/``libdevice``/``tl_math``/hints imports and
  ``triton_helpers.set_driver_to_gpu()``, or ``set_driver_to_cpu()`` on Inductor's Triton CPU route), compared as
  syntax trees, not as text patterns;
* a module docstring;
* the kernel ``def``, decorated by ``@triton.jit`` last, optionally preceded by one
  ``@triton_heuristics.<heuristic>(...)`` call with keyword arguments only; where that call carries
  ``triton_meta={'signature': {...}}`` (the types Triton compiles with), it must equal the record's declared
  signature;
* other ``@triton.jit`` functions (a scan's combine helper), decorated by exactly ``@triton.jit``.

Anything else — another statement, a rebinding, a re-import, a function of another shape — is refused by
name (:class:`~workbench.kir.errors.RefusedConstruct`, so the checker says out of class). Inside the functions,
a preamble name may not be bound (as a parameter, an assignment target, a loop variable or an import): kir reads
``tl.load`` as Triton's load only while ``tl`` is Triton's.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping

from workbench.kir.errors import KernelSourceError, RefusedConstruct

__all__ = ["PREAMBLE_NAMES", "check_module"]

# The statements of Inductor's preamble (torch 2.13.0, codegen/triton.py gen_common_triton_imports and the
# kernel module header), as syntax trees.
_PREAMBLE_TEXT = """\
import triton
import triton.language as tl
import triton.language.extra.tlx as tlx
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()
triton_helpers.set_driver_to_cpu()
"""
_PREAMBLE = frozenset(ast.dump(s) for s in ast.parse(_PREAMBLE_TEXT).body)

# Names the preamble binds (and ``math``, which kir reads as a payload module): never rebound inside a kernel.
PREAMBLE_NAMES = frozenset({
    "triton", "tl", "tlx", "triton_helpers", "triton_heuristics", "libdevice", "tl_math", "math",
    "AutotuneHint", "ReductionHint", "TileHint", "DeviceProperties",
})

# triton_heuristics decorators Inductor 2.13.0 writes (codegen/triton.py _get_heuristic, split scan, foreach,
# templates).
HEURISTICS = frozenset({
    "pointwise", "reduction", "persistent_reduction", "cooperative_reduction", "fixed_config", "split_scan",
    "template", "foreach",
})

_FIX = "re-capture the kernel with `workbench capture`; only Inductor's own preamble may stand beside the kernel"


def _is_attr(e: ast.expr, base: str, attr: str | None = None) -> bool:
    return isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == base and (
        attr is None or e.attr == attr)


def check_module(source: str, kernel: str, signature: Mapping[str, str] | None = None, *, record: bool = True) -> None:
    """Refuse a module that holds anything beside Inductor's preamble and ``@triton.jit`` functions (see the
    module docstring); ``signature``: the record's declared types, compared with the heuristics decorator's.
    ``record=False`` (kernel text typed by hand or rendered by kir, with its types in annotations): the
    statements and rebinding rules apply, the decorators are not required."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except SyntaxError as exc:
        raise KernelSourceError(kernel, exc.lineno, f"not valid Python ({exc.msg})") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise KernelSourceError(kernel, None, f"not parseable ({type(exc).__name__})") from None
    found = False
    for i, s in enumerate(tree.body):
        if ast.dump(s) in _PREAMBLE:
            continue
        if i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue  # a module docstring
        if isinstance(s, ast.FunctionDef):
            if s.name in PREAMBLE_NAMES:
                raise _refuse(kernel, s, f"a function named {s.name!r} shadows the preamble's {s.name}")
            if s.name == kernel:
                found = True
                if record:
                    _kernel_decorators(s, kernel, signature)
            elif record and not (len(s.decorator_list) == 1 and _is_attr(s.decorator_list[0], "triton", "jit")):
                raise _refuse(kernel, s, f"function {s.name!r} beside the kernel is not a plain @triton.jit helper")
            _no_rebinding(s, kernel)
            continue
        raise _refuse(kernel, s, "a module-level statement beside the kernel")
    if record and not found and any(isinstance(s, ast.FunctionDef) for s in tree.body):
        names = [s.name for s in tree.body if isinstance(s, ast.FunctionDef)]
        raise KernelSourceError(kernel, None, f"the module defines {names}, not the kernel {kernel!r}")


def _refuse(kernel: str, s: ast.AST, what: str) -> RefusedConstruct:
    text = ast.unparse(s).splitlines()[0] if not isinstance(s, ast.FunctionDef) else f"def {s.name}"
    return RefusedConstruct(kernel, None, what, f"module line {getattr(s, 'lineno', '?')}: "
                            f"`{text[:80]}`", _FIX)


def _kernel_decorators(fn: ast.FunctionDef, kernel: str, signature: Mapping[str, str] | None) -> None:
    decs = fn.decorator_list
    if not decs or not _is_attr(decs[-1], "triton", "jit"):
        raise _refuse(kernel, fn, "the kernel is not decorated by @triton.jit last")
    if len(decs) > 2:
        raise _refuse(kernel, fn, f"the kernel has {len(decs)} decorators (Inductor writes a heuristics call and @triton.jit)")
    if len(decs) == 1:
        return
    h = decs[0]
    if not (isinstance(h, ast.Call) and _is_attr(h.func, "triton_heuristics") and h.func.attr in HEURISTICS
            and not h.args):
        raise _refuse(kernel, fn, f"decorator `{ast.unparse(h)[:60]}` is not a triton_heuristics call Inductor writes")
    if signature is None:
        return
    for kw in h.keywords:
        if kw.arg != "triton_meta" or not isinstance(kw.value, ast.Dict):
            continue
        for k, v in zip(kw.value.keys, kw.value.values):
            if isinstance(k, ast.Constant) and k.value == "signature":
                try:
                    declared = ast.literal_eval(v)  # literals only: never evaluated as code
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    raise KernelSourceError(kernel, None, "the decorator's triton_meta signature is not a "
                                            "literal dict") from None
                if not isinstance(declared, dict) or {str(a): str(b) for a, b in declared.items()} != dict(signature):
                    raise KernelSourceError(
                        kernel, None,
                        f"the decorator compiles the kernel with signature {declared}, the record declares "
                        f"{dict(signature)}; the record's types must be the ones Triton compiles with "
                        "(re-capture the kernel)")


def _no_rebinding(fn: ast.FunctionDef, kernel: str) -> None:
    bound = [a.arg for a in fn.args.args + fn.args.posonlyargs + fn.args.kwonlyargs if a.arg in PREAMBLE_NAMES]
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id in PREAMBLE_NAMES:
            bound.append(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound.extend(a.asname or a.name.split(".")[0] for a in n.names)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            bound.extend(n.names)
    if bound:
        raise RefusedConstruct(kernel, None, "a preamble name rebound inside a function",
                               f"module line {fn.lineno}: {fn.name} binds {sorted(set(bound))}", _FIX)
