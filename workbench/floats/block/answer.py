"""Block level, reading ANSWER.py: the CUDA string and forward's call, statically (stage: floats).

ANSWER.py is parsed with ``ast``, never run: the ``load_inline`` call's ``cuda_sources`` (a string literal or
a module-level string constant, padded so that its lines are ANSWER.py's lines) and ``ModelNew.forward``'s one
``return self.<ext>.<fn>(...)``. Unlike the elementwise reader (``kernelbench.read_answer``), an argument may
also be an attribute set in ``ModelNew.__init__`` from one of its parameters (``self.dim = dim``: bound to
``get_init_inputs()`` by position) or from a literal, and an integer literal: reduction answers pass the
dimension they reduce.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from workbench.floats.errors import CudaParseError, CudaUnsupportedError, FloatsUsageError
from workbench.floats.kernelbench import _kwarg, _load_inline


@dataclass(frozen=True, slots=True)
class EntryCall:
    path: str
    cuda: str  # padded: line k of this text is line k of ANSWER.py
    entry: str  # the host function forward calls
    args: tuple  # ("input", k) for forward's k-th tensor parameter, ("value", v) for a number
    line: int


def _where(path: str, node) -> str:
    return f"{Path(path).name}:{getattr(node, 'lineno', '?')}"


def read_entry(path: str | Path, init_args: tuple) -> EntryCall:
    p = Path(path)
    if not p.is_file():
        raise FloatsUsageError(f"answer file {str(p)!r} does not exist; pass a KernelBench ANSWER.py with ModelNew")
    text = p.read_text()
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise CudaParseError(f"{p.name}:{exc.lineno} is not valid Python ({exc.msg}); fix the answer file") from None
    strings = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
                isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            strings[node.targets[0].id] = (node.value.value, node.value.lineno)
    ext, call = _load_inline(tree, str(p))
    part = _kwarg(call, "cuda_sources", 2)
    if isinstance(part, (ast.List, ast.Tuple)) and len(part.elts) == 1:
        part = part.elts[0]
    if isinstance(part, ast.Name) and part.id in strings:
        source, line = strings[part.id]
    elif isinstance(part, ast.Constant) and isinstance(part.value, str):
        source, line = part.value, part.lineno
    else:
        raise CudaUnsupportedError(f"cuda_sources at {_where(str(p), call)} is not one string literal or the name of "
                                   "one assigned at module level; put the CUDA code in one string",
                                   construct="cuda_sources")
    cuda = "\n" * (line - 1) + source
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    if cls is None:
        raise CudaParseError(f"{p.name} defines no class ModelNew; a KernelBench answer defines "
                             "`class ModelNew(nn.Module)`")
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    fwd = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
    if fwd is None:
        raise CudaParseError(f"class ModelNew at {_where(str(p), cls)} has no forward")
    attrs: dict[str, object] = {}
    owners = {ext}
    if init is not None:
        iparams = [a.arg for a in init.args.args[1:]]
        defaults = dict(zip(iparams[len(iparams) - len(init.args.defaults):], init.args.defaults))
        for st in ast.walk(init):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) \
                    and isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == "self":
                name, v = st.targets[0].attr, st.value
                if isinstance(v, ast.Name) and v.id == ext:
                    owners.add("self." + name)
                elif isinstance(v, ast.Name) and v.id in iparams:
                    k = iparams.index(v.id)
                    if k < len(init_args):
                        attrs[name] = init_args[k]
                    elif v.id in defaults and isinstance(defaults[v.id], ast.Constant):
                        attrs[name] = defaults[v.id].value
                elif isinstance(v, ast.Constant) and isinstance(v.value, (int, float)):
                    attrs[name] = v.value
    params = [a.arg for a in fwd.args.args[1:]]
    body = [s for s in fwd.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    fix = "write forward as one `return self.<ext>.<function>(x, ..., self.dim)` (the block level reads it, never runs it)"
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        raise CudaUnsupportedError(f"ModelNew.forward at {_where(str(p), fwd)} is not one `return ext.fn(...)`; {fix}",
                                   construct="forward", line=fwd.lineno)
    c = body[0].value
    f = c.func
    if not isinstance(f, ast.Attribute) or ast.unparse(f.value) not in owners:
        raise CudaUnsupportedError(f"ModelNew.forward at {_where(str(p), c)} calls `{ast.unparse(f)}`, not a function "
                                   f"of the load_inline extension `{ext}`; {fix}", construct="forward", line=c.lineno)
    args = []
    for a in c.args:
        while isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr in ("contiguous", "cuda") \
                and not a.args:
            a = a.func.value
        if isinstance(a, ast.Name) and a.id in params:
            args.append(("input", params.index(a.id)))
        elif isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self" and a.attr in attrs:
            args.append(("value", attrs[a.attr]))
        elif isinstance(a, ast.Constant) and isinstance(a.value, (int, float)) and not isinstance(a.value, bool):
            args.append(("value", a.value))
        else:
            raise CudaUnsupportedError(f"argument `{ast.unparse(a)}` at {_where(str(p), c)} is neither a parameter of "
                                       f"forward, nor an attribute __init__ sets from its arguments, nor a number; "
                                       f"{fix}", construct="forward", line=c.lineno)
    return EntryCall(str(p), cuda, f.attr, tuple(args), fwd.lineno)


__all__ = ["EntryCall", "read_entry"]
