"""A KernelBench problem's inputs, read without running the file (stage: floats, spec side).

``read_inputs(path)`` reads ``get_inputs()`` and ``get_init_inputs()`` of a KernelBench problem file with
``ast`` only: module-level constants (numbers and tuples of numbers, through ``kernelbench._number``'s
restricted arithmetic), ``torch.rand``/``randn``/``ones``/``zeros``(sizes, ``*shape_tuple``, ``(())``),
``torch.randint(low, high, shape)``, ``.float()``/``.bool()``/``.cuda()``, arithmetic of a tensor with a
number or a 0-d tensor (the shape of the larger operand), ``x.shape`` of an earlier local, and Python
numbers (``s = 3.14``). Nothing is evaluated; anything else is refused by name with its line.

``shrunk(problem, limit)`` is the same problem with every size constant that ``get_init_inputs`` does not
use replaced by ``limit`` (when larger): the small instance on which the tensor spec is cross-checked
against the reference ``Model`` run on the CPU (``tensorspec.cross_check``). Constants that configure the
model (channels, kernel sizes, the reduced dim, normalized shapes) are kept, so the small instance is the same
program on smaller tensors.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.floats.errors import SpecLoadError
from workbench.floats.pyread import number as _number, where as _where


class InputKind(enum.StrEnum):
    FLOAT = "float32"  # torch.rand / randn: uniform [0, 1) or standard normal
    INT = "int64"  # torch.randint(low, high, shape)
    BOOL = "bool"  # torch.randint(0, 2, shape).bool()
    NUMBER = "number"  # a Python float or int passed as is


@dataclass(frozen=True, slots=True)
class Input:
    kind: InputKind
    shape: tuple[int, ...] = ()
    low: float = 0.0  # value range: randint's [low, high), rand's [0, 1) scaled by `scale`
    high: float = 1.0
    normal: bool = False  # torch.randn
    value: float | None = None  # NUMBER inputs
    structure: tuple[str, ...] = ()  # what get_inputs imposes: "symmetric", "triu", "tril", "softmax(dim=-1)"

    def describe(self) -> str:
        if self.kind is InputKind.NUMBER:
            return f"number {self.value!r}"
        return f"{self.kind.value}[{', '.join(map(str, self.shape))}]"


@dataclass(frozen=True, slots=True)
class ProblemInputs:
    path: str
    inputs: tuple[Input, ...]
    init_args: tuple
    constants: tuple[tuple[str, object], ...]  # module-level constants as read (sorted by first assignment)
    init_names: frozenset[str]  # constants that get_init_inputs reads

    @property
    def elements(self) -> int:
        out = 0
        for i in self.inputs:
            n = 1
            for d in i.shape:
                n *= d
            out += n
        return out


def _constants(tree: ast.Module, path: str, override: dict | None = None) -> dict[str, object]:
    out: dict[str, object] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            try:
                if isinstance(n.value, ast.Constant) and (n.value.value is None or isinstance(n.value.value, bool)):
                    out[name] = n.value.value
                elif isinstance(n.value, (ast.Tuple, ast.List)):
                    out[name] = tuple(_number(e, out, path) for e in n.value.elts)
                else:
                    out[name] = _number(n.value, out, path)
            except (SpecLoadError, ZeroDivisionError):
                continue
            if override and name in override:
                out[name] = override[name]
    return out


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def read_inputs(path: str | Path, override: dict | None = None) -> ProblemInputs:
    p = Path(path)
    if not p.is_file():
        raise SpecLoadError(f"reference file {str(p)!r} does not exist; pass a KernelBench problem file")
    try:
        tree = ast.parse(p.read_text())
    except SyntaxError as exc:
        raise SpecLoadError(f"{p.name}:{exc.lineno} is not valid Python ({exc.msg}); fix the reference file") from None
    consts = _constants(tree, str(p), override)
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    if not any(isinstance(n, ast.ClassDef) and n.name == "Model" for n in tree.body) or "get_inputs" not in fns:
        raise SpecLoadError(f"{p.name} is not a KernelBench problem: it needs `class Model`, `get_inputs()` and "
                            "`get_init_inputs()`")
    local: dict[str, Input] = {}
    inputs: list[Input] = []
    for st in fns["get_inputs"].body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            local[st.targets[0].id] = _value(st.value, consts, local, str(p))
        elif isinstance(st, ast.Return) and isinstance(st.value, (ast.List, ast.Tuple)):
            inputs = [_value(e, consts, local, str(p)) for e in st.value.elts]
            break
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        else:
            raise SpecLoadError(f"statement `{ast.unparse(st)[:60]}` at {_where(str(p), st)} in get_inputs is not "
                                "an assignment or `return [...]`; the static reader takes those only")
    if not inputs:
        raise SpecLoadError(f"get_inputs at {_where(str(p), fns['get_inputs'])} does not end in `return [...]`; "
                            "return a list of inputs")
    init: tuple = ()
    init_names: set[str] = set()
    if "get_init_inputs" in fns:
        for st in fns["get_init_inputs"].body:
            if isinstance(st, ast.Return) and isinstance(st.value, (ast.List, ast.Tuple)):
                init = tuple(_init_value(e, consts, str(p)) for e in st.value.elts)
                init_names = _names(st.value)
    # a constant is a model constant when init reads it, directly or through another constant
    defs = {n.targets[0].id: n.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)}
    todo = list(init_names)
    while todo:
        name = todo.pop()
        for m in _names(defs.get(name, ast.Constant(0))) - init_names:
            init_names.add(m)
            todo.append(m)
    return ProblemInputs(str(p), tuple(inputs), init, tuple(consts.items()), frozenset(init_names))


def _init_value(e, consts: dict, path: str):
    """A get_init_inputs element: a number, a bool, None, a tuple of numbers, or a constant naming one."""
    match e:
        case ast.Constant(value=v) if v is None or isinstance(v, bool):
            return v
        case ast.Name(id=name) if name in consts and (consts[name] is None or isinstance(consts[name], (tuple, bool))):
            return consts[name]
        case ast.Tuple(elts=elts) | ast.List(elts=elts):
            return tuple(_number(x, consts, path) for x in elts)
    return _number(e, consts, path)


def _dims(args: list, consts: dict, local: dict, path: str) -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = list(args[0].elts)
    dims: list[int] = []
    for a in args:
        if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and isinstance(consts.get(a.value.id), tuple):
            dims.extend(consts[a.value.id])
        elif isinstance(a, ast.Attribute) and a.attr == "shape" and isinstance(a.value, ast.Name) and a.value.id in local:
            dims.extend(local[a.value.id].shape)
        else:
            dims.append(_number(a, consts, path))
    if not all(isinstance(d, int) and d >= 0 for d in dims):
        raise SpecLoadError(f"sizes {dims} at {_where(path, args[0] if args else None)} are not non-negative integers; "
                            "use integer constants")
    return tuple(dims)


def _value(e, consts: dict, local: dict, path: str) -> Input:
    """One element of get_inputs' list, read by form (never evaluated)."""
    match e:
        case ast.Name(id=name) if name in local:
            return local[name]
        case ast.Constant(value=v) if isinstance(v, (int, float)) and not isinstance(v, bool):
            return Input(InputKind.NUMBER, value=v)
        case ast.Call(func=ast.Attribute(value=inner, attr="cuda" | "contiguous" | "float" | "bool"), args=[]):
            x = _value(inner, consts, local, path)
            attr = e.func.attr
            if attr == "float" and x.kind is not InputKind.NUMBER:
                return replace(x, kind=InputKind.FLOAT)
            if attr == "bool" and x.kind is InputKind.INT:
                return replace(x, kind=InputKind.BOOL, low=0, high=2)
            return x
        case ast.Attribute(value=inner, attr="T"):
            x = _value(inner, consts, local, path)
            return replace(x, shape=x.shape[::-1], structure=())
        case ast.Call(func=ast.Attribute(value=ast.Name(id="torch"), attr="triu" | "tril" as which), args=[inner]):
            x = _value(inner, consts, local, path)
            return replace(x, structure=x.structure + (which,))
        case ast.Call(func=ast.Attribute(value=inner, attr="softmax"), args=[], keywords=[ast.keyword(arg="dim", value=d)]):
            x = _value(inner, consts, local, path)
            return replace(x, structure=x.structure + (f"softmax(dim={_number(d, consts, path)})",), low=0.0, high=1.0)
        case ast.BinOp(left=ast.BinOp(left=ast.Name(id=a), op=ast.Add(), right=ast.Attribute(value=ast.Name(id=b), attr="T")),
                       op=ast.Div(), right=ast.Constant(value=2)) if a == b and a in local:
            return replace(local[a], structure=local[a].structure + ("symmetric",))
        case ast.Call(func=ast.Attribute(value=ast.Name(id="torch"), attr="rand" | "randn" | "ones" | "zeros")):
            shape = _dims(list(e.args), consts, local, path)
            return Input(InputKind.FLOAT, shape, normal=e.func.attr == "randn")
        case ast.Call(func=ast.Attribute(value=ast.Name(id="torch"), attr="randint"), args=[lo, hi, shp]):
            low, high = _number(lo, consts, path), _number(hi, consts, path)
            return Input(InputKind.INT, _dims([shp], consts, local, path), low=low, high=high)
        case ast.BinOp(left=a, op=ast.Add() | ast.Sub() | ast.Mult() | ast.Div(), right=b):
            xs = [_value(a, consts, local, path) if not _is_number(a, consts) else Input(InputKind.NUMBER,
                                                                                        value=_number(a, consts, path)),
                  _value(b, consts, local, path) if not _is_number(b, consts) else Input(InputKind.NUMBER,
                                                                                        value=_number(b, consts, path))]
            tensors = [x for x in xs if x.kind is not InputKind.NUMBER]
            if not tensors:
                return Input(InputKind.NUMBER, value=_number(e, consts, path))
            big = max(tensors, key=lambda x: len(x.shape))
            lo, hi = _range(e.op, xs)
            return replace(big, kind=InputKind.FLOAT if big.kind is not InputKind.BOOL else big.kind, low=lo, high=hi)
    raise SpecLoadError(f"get_inputs element `{ast.unparse(e)[:60]}` at {_where(path, e)} is not a form the static "
                        "reader takes (torch.rand/randn/randint(...), .float(), arithmetic with numbers, a number); "
                        "write the input as one of those")


def _is_number(e, consts: dict) -> bool:
    try:
        _number(e, consts, "")
        return True
    except (SpecLoadError, ZeroDivisionError):
        return False


def _range(op, xs: list[Input]) -> tuple[float, float]:
    """The value range of a tensor expression, interval arithmetic over both operands' ranges."""
    (a0, a1), (b0, b1) = [((x.value, x.value) if x.kind is InputKind.NUMBER else
                           (x.low, x.high - 1 if x.kind is InputKind.INT else x.high)) for x in xs]
    match op:
        case ast.Add():
            return a0 + b0, a1 + b1
        case ast.Sub():
            return a0 - b1, a1 - b0
        case ast.Mult():
            c = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
            return min(c), max(c)
    return -1e30, 1e30


def shrunk(problem: ProblemInputs, limit: int) -> ProblemInputs:
    """The problem with every size constant that the model does not read set to at most ``limit``."""
    override = {}
    for name, v in problem.constants:
        if name in problem.init_names:
            continue
        if isinstance(v, int) and v > limit:
            override[name] = limit
        elif isinstance(v, tuple) and all(isinstance(d, int) for d in v) and any(d > limit for d in v):
            override[name] = tuple(min(d, limit) for d in v)
    return read_inputs(problem.path, override)


__all__ = ["Input", "InputKind", "ProblemInputs", "read_inputs", "shrunk"]
