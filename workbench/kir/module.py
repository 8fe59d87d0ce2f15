"""The kernel's module is the unit: only Inductor's own preamble may stand beside the kernel.

Stage: kir (input validation, before any term is built). Input: the whole module text of a captured kernel
(``CapturedKernel.source``: what Inductor's launcher imports) and the kernel's name and declared signature.
Output: nothing, or a refusal by name.

Why: what runs is the module, not the function. A top-level line that rebinds a helper
(``triton_helpers.div_floor_integer = ...``), shadows ``tl`` or re-imports a name changes what the kernel's
text means while leaving the function's text (and so its IR hash) unchanged. kir models the names of
Inductor's preamble as the pinned library defines them (torch 2.13.0's ``torch/_inductor/runtime``), so the
module may hold exactly:

* the preamble the pinned version writes (``gen_common_triton_imports`` in ``torch/_inductor/codegen/triton.py``):
  import statements each of whose names is bound to exactly its preamble target (``tl`` to
  ``triton.language``, ``tl_math`` to ``triton_helpers.math``, ...; checked per name on the syntax tree, so
  any spelling of the same binding passes and any other binding does not), and
  ``triton_helpers.set_driver_to_gpu()`` (``set_driver_to_cpu()`` on Inductor's Triton CPU route);
* a module docstring;
* the kernel ``def`` (bare, in a hand-written or generated record), or decorated by ``@triton.jit`` last,
  optionally preceded by one
  ``@triton_heuristics.<heuristic>(...)`` call with keyword arguments that are data only (literals,
  ``__file__``, the hints' enum members, ``DeviceProperties(...)``; no ``**``, no other call), whose
  ``triton_meta`` signature must equal the record's declared signature, whose ``constants`` must be empty,
  whose ``tt.divisibility`` hints on integer arguments must follow from their expressions, and whose
  ``inductor_meta`` grid type must be the record's;
* other ``@triton.jit`` functions (a scan's combine helper), decorated by exactly ``@triton.jit``.

No encoding declaration (the text read here must be the text Python decodes), and parameter annotations are
``tl.constexpr`` or type strings only (they run when the ``def`` does). Anything else — another statement, a
rebinding, a re-import, a function of another shape — is refused by name (:class:`~workbench.kir.errors.RefusedConstruct`, so the checker says out of class). Inside the functions,
a preamble name may not be bound (as a parameter, an assignment target, a loop variable or an import): kir reads
``tl.load`` as Triton's load only while ``tl`` is Triton's.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping

from workbench.kir.errors import KernelSourceError, RefusedConstruct

__all__ = ["PREAMBLE_NAMES", "check_module"]

# What each name of Inductor's preamble is bound to (torch 2.13.0, codegen/triton.py gen_common_triton_imports):
# an import statement is preamble when every name it binds is one of these, bound to exactly this target,
# whatever the spelling (``from triton import language as tl`` binds the same ``tl``) and however many of
# them one statement binds.
_CANONICAL = {
    "triton": "triton",
    "tl": "triton.language",
    "tlx": "triton.language.extra.tlx",
    "triton_helpers": "torch._inductor.runtime.triton_helpers",
    "triton_heuristics": "torch._inductor.runtime.triton_heuristics",
    "libdevice": "torch._inductor.runtime.triton_helpers.libdevice",
    "tl_math": "torch._inductor.runtime.triton_helpers.math",
    "AutotuneHint": "torch._inductor.runtime.hints.AutotuneHint",
    "ReductionHint": "torch._inductor.runtime.hints.ReductionHint",
    "TileHint": "torch._inductor.runtime.hints.TileHint",
    "DeviceProperties": "torch._inductor.runtime.hints.DeviceProperties",
}
# The preamble's one call: which Triton driver Inductor's runtime selects.
_PREAMBLE_CALLS = frozenset(ast.dump(s) for s in ast.parse(
    "triton_helpers.set_driver_to_gpu()\ntriton_helpers.set_driver_to_cpu()\n").body)


def _is_preamble(s: ast.stmt) -> bool:
    if isinstance(s, ast.Expr):
        return ast.dump(s) in _PREAMBLE_CALLS
    if isinstance(s, ast.Import):
        bound = [(a.asname, a.name) if a.asname else (a.name.split(".")[0], a.name.split(".")[0]) for a in s.names]
    elif isinstance(s, ast.ImportFrom) and s.level == 0 and s.module:
        bound = [(a.asname or a.name, f"{s.module}.{a.name}") for a in s.names if a.name != "*"]
        if len(bound) != len(s.names):
            return False
    else:
        return False
    return all(_CANONICAL.get(name) == target for name, target in bound)


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


def check_module(source: str, kernel: str, signature: Mapping[str, str] | None = None, *, record: bool = True,
                 grid_type: str | None = None, exprs: Mapping[str, str] | None = None) -> None:
    """Refuse a module that holds anything beside Inductor's preamble and ``@triton.jit`` functions (see the
    module docstring); ``signature``: the record's declared types, compared with the heuristics decorator's.
    ``record=False`` (kernel text typed by hand or rendered by kir, with its types in annotations): the
    statements and rebinding rules apply, the decorators are not required."""
    _no_encoding_declaration(source, kernel)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except SyntaxError as exc:
        raise KernelSourceError(kernel, exc.lineno, f"not valid Python ({exc.msg})") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise KernelSourceError(kernel, None, f"not parseable ({type(exc).__name__})") from None
    if not record and not any(isinstance(s, ast.FunctionDef) for s in tree.body):
        return  # text without a def: the parser names what is missing
    found = False
    for i, s in enumerate(tree.body):
        if _is_preamble(s):
            continue
        if i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue  # a module docstring
        if isinstance(s, ast.FunctionDef):
            if s.name in PREAMBLE_NAMES:
                raise _refuse(kernel, s, f"a function named {s.name!r} shadows the preamble's {s.name}")
            if s.name == kernel:
                found = True
                if record:
                    _kernel_decorators(s, kernel, signature, grid_type, exprs or {})
            elif record and not (len(s.decorator_list) == 1 and _is_attr(s.decorator_list[0], "triton", "jit")):
                raise _refuse(kernel, s, f"function {s.name!r} beside the kernel is not a plain @triton.jit helper")
            _no_rebinding(s, kernel)
            _plain_annotations(s, kernel)
            continue
        raise _refuse(kernel, s, "a module-level statement beside the kernel")
    if record and not found and any(isinstance(s, ast.FunctionDef) for s in tree.body):
        names = [s.name for s in tree.body if isinstance(s, ast.FunctionDef)]
        raise KernelSourceError(kernel, None, f"the module defines {names}, not the kernel {kernel!r}")


def _refuse(kernel: str, s: ast.AST, what: str) -> RefusedConstruct:
    text = ast.unparse(s).splitlines()[0] if not isinstance(s, ast.FunctionDef) else f"def {s.name}"
    return RefusedConstruct(kernel, None, what, f"module line {getattr(s, 'lineno', '?')}: "
                            f"`{text[:80]}`", _FIX)


def _kernel_decorators(fn: ast.FunctionDef, kernel: str, signature: Mapping[str, str] | None,
                       grid_type: str | None, exprs: Mapping[str, str]) -> None:
    """The heuristics decorator is data: every argument a literal (or one of the few names Inductor writes,
    :func:`_is_data`), so importing the module runs nothing but Inductor's own decorator; the facts it hands
    Triton are the record's: the compiled signature, no constant-specialised argument, the grid type, and
    divisibility hints only where the argument's expression is a multiple (red team red6)."""
    decs = fn.decorator_list
    if not decs:
        return  # a hand-written or generated record: the bare function, typed by the record's signature
    if not _is_attr(decs[-1], "triton", "jit"):
        raise _refuse(kernel, fn, "the kernel is not decorated by @triton.jit last")
    if len(decs) > 2:
        raise _refuse(kernel, fn, f"the kernel has {len(decs)} decorators (Inductor writes a heuristics call and @triton.jit)")
    if len(decs) == 1:
        return
    h = decs[0]
    if not (isinstance(h, ast.Call) and _is_attr(h.func, "triton_heuristics") and h.func.attr in HEURISTICS
            and not h.args):
        raise _refuse(kernel, fn, f"decorator `{ast.unparse(h)[:60]}` is not a triton_heuristics call Inductor writes")
    for kw in h.keywords:
        if kw.arg is None or not _is_data(kw.value):
            raise _refuse(kernel, fn, "a decorator argument that is not data (it would run when the module is "
                          f"imported): `{(('**' if kw.arg is None else kw.arg + '=') + ast.unparse(kw.value))[:70]}`")
    kws = {kw.arg: kw.value for kw in h.keywords}
    if signature is None or set(signature) != {a.arg for a in fn.args.args}:
        return  # a record whose signature names other parameters: the parser refuses it by name
    meta = _literal_dict(kws.get("triton_meta"), kernel, "triton_meta")
    if meta is not None:
        if "signature" in meta:
            declared = _literal(meta["signature"], kernel, "triton_meta's signature")
            if not isinstance(declared, dict) or {str(a): str(b) for a, b in declared.items()} != dict(signature):
                raise KernelSourceError(
                    kernel, None,
                    f"the decorator compiles the kernel with signature {declared}, the record declares "
                    f"{dict(signature)}; the record's types must be the ones Triton compiles with (re-capture it)")
        constants = _literal(meta["constants"], kernel, "triton_meta's constants") if "constants" in meta else {}
        scalars = [a for a in (constants if isinstance(constants, dict) else {"?": 0}) if signature.get(a) != "constexpr"]
        if scalars:  # a constexpr (a one-row kernel's xnumel) is compile-time anyway; anything else is specialised
            raise _refuse(kernel, fn, f"triton_meta constants {ast.unparse(meta['constants'])[:60]} (they specialise "
                          f"the non-constexpr arguments {scalars} at compile time, which the record does not model)")
        if "configs" in meta:
            _divisibility(_literal(meta["configs"], kernel, "triton_meta's configs"), fn, kernel, signature, exprs)
    imeta = _literal_dict(kws.get("inductor_meta"), kernel, "inductor_meta")
    if imeta is not None and grid_type and "grid_type" in imeta:
        declared = _literal(imeta["grid_type"], kernel, "inductor_meta's grid_type")
        if declared != grid_type:
            raise _refuse(kernel, fn, f"a launch grid {declared!r} in the decorator where the record declares "
                          f"{grid_type!r}")


_DATA_NAMES = frozenset({"__file__"})
_DATA_ENUMS = frozenset({"ReductionHint", "TileHint", "AutotuneHint"})
_DATA_CALLS = frozenset({"DeviceProperties", "set"})


def _is_data(e: ast.expr) -> bool:
    """A literal, or built only from literals, ``__file__``, the hints' enum members and ``DeviceProperties(...)``
    / ``set()`` with data arguments: what Inductor's decorator arguments are made of. No ``**`` and no other
    call, so nothing runs at import but the decorator itself."""
    match e:
        case ast.Constant():
            return True
        case ast.UnaryOp(op=ast.USub() | ast.UAdd(), operand=ast.Constant()):
            return True
        case ast.Dict(keys=keys, values=values):
            return all(k is not None and _is_data(k) for k in keys) and all(_is_data(v) for v in values)
        case ast.List(elts=elts) | ast.Tuple(elts=elts) | ast.Set(elts=elts):
            return all(not isinstance(x, ast.Starred) and _is_data(x) for x in elts)
        case ast.Name(id=name):
            return name in _DATA_NAMES
        case ast.Attribute(value=ast.Name(id=enum), attr=_):
            return enum in _DATA_ENUMS
        case ast.Call(func=ast.Name(id=fname), args=args, keywords=keywords):
            return fname in _DATA_CALLS and all(not isinstance(a, ast.Starred) and _is_data(a) for a in args) and \
                all(k.arg is not None and _is_data(k.value) for k in keywords)
    return False


def _literal_dict(e: ast.expr | None, kernel: str, what: str) -> dict | None:
    if e is None:
        return None
    if not isinstance(e, ast.Dict) or not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in e.keys):
        raise KernelSourceError(kernel, None, f"the decorator's {what} is not a dict with string keys")
    return {k.value: v for k, v in zip(e.keys, e.values)}


def _literal(e: ast.expr, kernel: str, what: str):
    try:
        return ast.literal_eval(e)  # literals only: never evaluated as code
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise KernelSourceError(kernel, None, f"the decorator's {what} is not a literal") from None


def _divisibility(configs, fn: ast.FunctionDef, kernel: str, signature: Mapping[str, str],
                  exprs: Mapping[str, str]) -> None:
    """``triton_meta['configs']``: ``tt.divisibility`` hints Triton compiles with (it may assume them). On a
    pointer they are Inductor's alignment claims about its own buffers; on an integer argument the argument's
    expression must be a multiple of the claimed divisor for every value of the shape symbols, shown here by
    every coefficient of its expanded polynomial (floor divisions as atoms) being a multiple; else refused."""
    params = [a.arg for a in fn.args.args]
    if not isinstance(configs, list):
        raise KernelSourceError(kernel, None, "the decorator's triton_meta configs is not a list")
    for cfg in configs:
        if not isinstance(cfg, dict):
            raise KernelSourceError(kernel, None, "a triton_meta config is not a dict")
        for key, attrs in cfg.items():
            if not isinstance(key, tuple) or not all(isinstance(i, int) and 0 <= i < len(params) for i in key):
                raise KernelSourceError(kernel, None, f"triton_meta config key {key!r} names no parameter")
            for i in key:
                p = params[i]
                for attr in attrs if isinstance(attrs, list) else [attrs]:
                    if not (isinstance(attr, list) and len(attr) == 2 and attr[0] == "tt.divisibility"
                            and isinstance(attr[1], int) and attr[1] >= 1):
                        raise RefusedConstruct(kernel, None, "a compile-time attribute the IR does not model",
                                               f"{attr!r} on {p}", _FIX)
                    if str(signature.get(p, "")).startswith("*"):
                        continue
                    if not _multiple(exprs.get(p), attr[1]):
                        raise RefusedConstruct(kernel, None, "a divisibility hint the record does not show",
                                               f"{p} is claimed divisible by {attr[1]} but is {exprs.get(p)!r}", _FIX)


def _multiple(expr: str | None, n: int) -> bool:
    if expr is None:
        return False
    import sympy

    from workbench.errors import InputError
    from workbench.symexpr import parse_expr

    try:
        e = sympy.expand(parse_expr(expr, "divisibility hint"))
    except InputError:
        return False
    gens = sorted(e.free_symbols | set(e.atoms(sympy.Function)), key=str)
    try:
        coeffs = sympy.Poly(e, *gens).coeffs() if gens else [e]
    except sympy.PolynomialError:
        return False
    return all(c.is_Integer and int(c) % n == 0 for c in coeffs)


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


_ENCODING = __import__("re").compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _no_encoding_declaration(source: str, kernel: str) -> None:
    """A PEP 263 encoding declaration in the first two lines makes Python decode the *file* with another codec
    than the one this text was read with, so the validated text and the text that runs could differ (red team
    red6: a Shift_JIS cookie turned part of a string literal into a statement). Inductor never writes one."""
    for line in source.splitlines()[:2]:
        if _ENCODING.match(line):
            raise RefusedConstruct(kernel, None, "an encoding declaration", f"`{line.strip()[:60]}`", _FIX)


def _plain_annotations(fn: ast.FunctionDef, kernel: str) -> None:
    """Parameter annotations are evaluated when the ``def`` runs: only ``tl.constexpr`` or a type string."""
    args = fn.args.args + fn.args.posonlyargs + fn.args.kwonlyargs
    bad = [a.arg for a in args if a.annotation is not None and not (
        _is_attr(a.annotation, "tl", "constexpr") or (isinstance(a.annotation, ast.Constant)
                                                       and isinstance(a.annotation.value, str)))]
    if bad or fn.returns is not None:
        raise RefusedConstruct(kernel, None, "an annotation that is code",
                               f"module line {fn.lineno}: {fn.name}'s {', '.join(bad) or 'return'} annotation", _FIX)
