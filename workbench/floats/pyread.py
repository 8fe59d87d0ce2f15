"""Reading numbers and places out of Python source as data (``ast`` only, never ``eval``): the restricted
arithmetic reader and the ``file:line`` form that KernelBench's problem and answer readers share.

Stage: floats (input readers). Imports nothing of the floats package but its errors, so both readers sit above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from workbench.floats.errors import SpecLoadError


def where(path: str, node) -> str:
    return f"{Path(path).name}:{getattr(node, 'lineno', '?')}"


def number(e, consts: dict, path: str):
    """A restricted arithmetic reader (numbers, module constants, + - * // / **, unary minus): never ``eval``."""
    match e:
        case ast.Constant(value=v) if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        case ast.Name(id=name) if name in consts:
            return consts[name]
        case ast.UnaryOp(op=ast.USub(), operand=x):
            return -number(x, consts, path)
        case ast.BinOp(left=a, op=op, right=b):
            x, y = number(a, consts, path), number(b, consts, path)
            match op:
                case ast.Add():
                    return x + y
                case ast.Sub():
                    return x - y
                case ast.Mult():
                    return x * y
                case ast.FloorDiv():
                    return x // y
                case ast.Div():
                    return x / y
                case ast.Pow() if isinstance(y, int) and 0 <= y <= 64:
                    return x ** y
    raise SpecLoadError(f"`{ast.unparse(e)}` at {where(path, e)} is not a number the reader understands; use "
                        "integer literals and module-level constants")
