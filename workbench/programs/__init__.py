"""Programs: named torch functions with their inputs, which dimensions are dynamic, and shape sequences.

A :class:`Program` is what capture compiles. Registry programs describe each input as a shape over named
dimensions (``("rows", "q")``) so one description yields example inputs, the report's shape tables and
tiny shapes for interpreter runs. User programs come from a Python file that defines ``program(*tensors)`` and
``example_inputs()`` (and optionally ``dynamic_dims()``), or ``model()`` returning an ``nn.Module`` plus
``example_inputs()``; see :func:`load_file`. A program may own modules: module-level ``nn.Module`` objects its
function calls, or a ``build`` function that constructs the model (capture calls it under
``torch.device("meta")``, so a 7B-parameter config allocates no weights). The zoo's models are programs
too (``zoo:NAME``, see :mod:`workbench.zoo`, which registers its namespace here: :func:`register_namespace`).

Example sizes are only used to *trace*; they are never facts about the kernel (capture reads Inductor's
symbolic ranges and guards instead). Each dimension that is meant to be independent gets a distinct example
size, because Dynamo's duck sizing merges equal sizes into one symbol.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

from workbench.errors import InputError, UsageError

from workbench.programs.program import _REGISTRY, Dim, InputSpec, Program, call_module, register  # noqa: F401

def names() -> list[str]:
    _load_corpus()
    return sorted(_REGISTRY)


def get(name: str) -> Program:
    _load_corpus()
    try:
        return _REGISTRY[name]
    except KeyError:
        close = [n for n in _REGISTRY if name.lower() in n or n in name.lower()]
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise UsageError(
            f"unknown program {name!r}.{hint} Run `workbench list` to see the {len(_REGISTRY)} registered "
            "programs, or pass a FILE.py that defines program(*tensors) and example_inputs()."
        ) from None


def _load_corpus() -> None:
    from workbench.programs import corpus, integer, reductions  # noqa: F401  (register on import)


# Namespaces of programs that higher layers own (``zoo:NAME``): prefix -> lookup. A layer registers its own
# on import (:mod:`workbench.zoo.registry` registers ``zoo``); this module never imports them, so programs stay
# below the zoo (no import circle).
_NAMESPACES: dict[str, Callable[[str], Program]] = {}


def register_namespace(prefix: str, lookup: Callable[[str], Program]) -> None:
    """Make ``PREFIX:NAME`` resolve through ``lookup(NAME)``."""
    _NAMESPACES[prefix] = lookup


def namespace_module(ref: str) -> str | None:
    """The module that registered ``ref``'s namespace (a child process imports it to resolve the same ref)."""
    prefix = ref.split(":", 1)[0] if ":" in ref else None
    lookup = _NAMESPACES.get(prefix) if prefix else None
    return None if lookup is None else lookup.__module__


def resolve(name_or_path: str) -> Program:
    """A registered name, ``PREFIX:NAME`` of a registered namespace (``zoo:NAME``, a zoo model, once
    :mod:`workbench.zoo.registry` is imported), or a path to a ``.py`` file defining a program."""
    prefix, sep, rest = name_or_path.partition(":")
    if sep and prefix.isidentifier() and not name_or_path.endswith(".py"):
        if prefix not in _NAMESPACES:
            hint = " (import workbench.zoo.registry first)" if prefix == "zoo" else ""
            raise UsageError(f"unknown program namespace {prefix!r} in {name_or_path!r}{hint}; known: "
                             f"{', '.join(sorted(_NAMESPACES)) or 'none'}")
        return _NAMESPACES[prefix](rest)
    if name_or_path.endswith(".py") or Path(name_or_path).suffix == ".py":
        return load_file(name_or_path)
    path = Path(name_or_path)
    if path.suffix or "/" in name_or_path or path.is_file():  # registered names have neither
        _load_corpus()
        if name_or_path not in _REGISTRY:
            what = "a folder" if path.is_dir() else "a file" if path.exists() else "a path that does not exist"
            raise UsageError(
                f"{name_or_path!r} is not a .py file ({what}): capture takes a registered program name "
                "(`workbench list`) or a FILE.py that defines program(*tensors) and example_inputs()")
    return get(name_or_path)


def _looks_like_program(path: Path) -> None:
    """Decide from the syntax tree alone, before any of the file runs, that it is a program file: it defines
    ``program`` and ``example_inputs`` at top level and no ``@triton.jit`` kernel (a captured record's
    ``.py`` is a kernel's source, data: it is never imported). Importing a program file runs its code; only
    a file that passes this test is imported."""
    import ast

    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    except (SyntaxError, ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{str(path)!r} is not Python source ({type(exc).__name__}: {exc}); pass a program "
                         "file") from None
    def is_jit(d: ast.expr) -> bool:  # @triton.jit, @jit, @triton.jit(...)
        f = d.func if isinstance(d, ast.Call) else d
        return (isinstance(f, ast.Attribute) and f.attr == "jit") or (isinstance(f, ast.Name) and f.id == "jit")

    for n in ast.walk(tree):
        if any(is_jit(d) for d in getattr(n, "decorator_list", [])):
            raise InputError(f"{str(path)!r} is a Triton kernel's source (@jit on line {n.lineno}), not a program; "
                             "check the captured record beside it (KERNEL.json), which is read as data")
    defined = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            defined |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
    missing = [m for m in ("program", "example_inputs") if m not in defined]
    if "model" in defined and "program" in missing:
        missing.remove("program")  # model() programs (workbench.zoo style) need no program()
    if missing:
        raise InputError(
            f"{str(path)!r} does not define {' and '.join(f'{m}()' for m in missing)} at top level (read "
            "without running it); a program file needs `def program(*tensors)` (or `def model()`) and "
            "`def example_inputs()`")


def load_file(path: str | Path) -> Program:
    """Load a user program: ``program(*tensors)`` or ``model()``, ``example_inputs()`` and optional
    ``dynamic_dims()``.

    ``program`` may call ``nn.Module`` objects defined at module level (capture moves their parameters and
    buffers to the capture device as fake tensors, and puts them back afterwards). ``model()`` returns an
    ``nn.Module`` called as ``model()(*example_inputs())``; capture calls it under ``torch.device("meta")``,
    so it allocates no weights. ``dynamic_dims()`` returns, for each input, the dimension indices that are
    dynamic (default: all, as far as the program allows).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"program file {str(path)!r} does not exist; pass a path to a .py file")
    _looks_like_program(path)
    mod_name = f"_workbench_user_program_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"cannot import {str(path)!r} as a Python module; is it a .py file?")
    module = importlib.util.module_from_spec(spec)
    # A model file that imports torchvision (directly, or through transformers) must import on the CPU torch
    # this project pins, as the zoo's own torchvision models do (torchvision_ops: its CUDA-built operators
    # are declared first). Nothing happens when torchvision is not installed or already imported.
    from workbench.programs.torchvision_ops import ensure_importable

    ensure_importable(optional=True)
    try:
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's code failed at import: report where
        raise InputError(f"importing {str(path)!r} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        sys.modules.pop(mod_name, None)
    has_model = callable(getattr(module, "model", None))
    missing = [n for n in ("program", "example_inputs") if not callable(getattr(module, n, None))]
    if has_model and "program" in missing:
        missing.remove("program")
    if missing:
        raise InputError(
            f"{str(path)!r} does not define {' and '.join(f'{m}()' for m in missing)}; a program file needs "
            "`def program(*tensors)` (the function to compile) or `def model()` (returning an nn.Module), and "
            "`def example_inputs()` returning a tuple of tensors"
        )
    if has_model and callable(getattr(module, "program", None)):
        raise InputError(
            f"{str(path)!r} defines both program() and model(); keep one (program() may call modules itself)"
        )
    examples = module.example_inputs()
    if not isinstance(examples, (tuple, list)) or not examples:
        raise InputError(
            f"example_inputs() in {str(path)!r} returned {type(examples).__name__}; return a non-empty tuple "
            "of tensors"
        )
    import torch

    bad = [i for i, t in enumerate(examples) if not isinstance(t, torch.Tensor)]
    if bad:
        raise InputError(
            f"example_inputs() in {str(path)!r}: item {bad[0]} is {type(examples[bad[0]]).__name__}, "
            "not a tensor; return only tensors"
        )
    fn = call_module if has_model else module.program
    params = list(inspect.signature(fn).parameters.values())[1 if has_model else 0:]
    n_params = len(params)
    if not has_model and n_params != len(examples) and not any(p.kind == p.VAR_POSITIONAL for p in params):
        raise InputError(
            f"program() in {str(path)!r} takes {n_params} arguments but example_inputs() returns "
            f"{len(examples)} tensors; make them match"
        )
    dynamic = None
    if callable(getattr(module, "dynamic_dims", None)):
        dynamic = tuple(tuple(int(d) for d in dims) for dims in module.dynamic_dims())
        if len(dynamic) != len(examples):
            raise InputError(
                f"dynamic_dims() in {str(path)!r} gives {len(dynamic)} entries for {len(examples)} inputs; "
                "give one tuple of dimension indices per input"
            )
    inputs = tuple(
        InputSpec(tuple(int(s) for s in t.shape), str(t.dtype).removeprefix("torch.")) for t in examples
    )
    return Program(
        name=path.stem,
        fn=fn,
        inputs=inputs,
        example=MappingProxyType({}),
        dynamic=dynamic,
        description=(module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else "",
        origin=str(path),
        example_fn=lambda: tuple(examples),
        build=module.model if has_model else None,
        loss=module.loss if callable(getattr(module, "loss", None)) else None,
    )
