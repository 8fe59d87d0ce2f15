"""KernelBench files as they are: a problem file and a ``ModelNew`` answer -> spec, kernel, launch (stage: floats).

``workbench floats check REFERENCE.py ANSWER.py``. REFERENCE is a KernelBench problem (``class Model``,
``get_inputs``, ``get_init_inputs``); ANSWER defines ``class ModelNew`` whose ``forward`` calls a function of
an extension built with ``torch.utils.cpp_extension.load_inline(cuda_sources=...)``.

What is read, and how (nothing in ANSWER.py is executed; REFERENCE.py's ``Model`` is run on the CPU, once,
under ``torch.export``, because the spec *is* that module):

- ANSWER.py is parsed with ``ast``: module-level string constants, the ``load_inline`` call (its
  ``cuda_sources`` and ``functions``), ``ModelNew.__init__``'s ``self.ext = <extension>`` and ``forward``'s
  one ``return self.ext.fn(arg, ...)`` (arguments: ``forward``'s parameters, ``.contiguous()`` allowed).
- The CUDA string is split: host functions that use ``torch::``/``at::`` types (the wrappers) are blanked out
  line for line and read by the restricted interpreter below; torch/c10/ATen includes are blanked; the rest
  (kernels, ``__device__`` helpers, plain host helpers, macros) goes to the floats CUDA frontend
  (``cuda.parse_kernel``) with every line number equal to its line in ANSWER.py.
- The wrapper is read statement by statement, never compiled or run: declarations and assignments of
  integers (``a.numel()``, literals, ``+ - * / %``, casts, ``min``/``max``, calls of host helpers whose body
  is one ``return expr;``), ``dim3`` with one extent, new tensors (``torch::empty_like``, ``zeros_like``,
  ``empty(x.sizes(), x.options())``), ``x.data_ptr<float>()``, calls of other wrappers, ``return t;``,
  and one ``kernel<<<grid, block[, 0[, stream]]>>>(...)`` launch. Checks (``TORCH_CHECK``, ``CHECK_*``
  macros, ``C10_CUDA_KERNEL_LAUNCH_CHECK()``, ``cudaGetLastError()``) are skipped: they only stop bad
  calls. Anything else is refused by name with its ANSWER.py line.
- REFERENCE.py's ``get_inputs`` and ``get_init_inputs`` are read with ``ast`` (``torch.randn(A, B)``,
  ``torch.rand``, ``torch.randn(...).cuda()``; module-level integer constants): the shapes give the element
  count N that the safety gate adds to its sizes (when it has at most ``MAX_GATE_N`` threads to enumerate).
- Only REFERENCE.py's imports, constant assignments and ``class Model`` are executed (a reduced module built
  from its ``ast``), then ``Model(*init_inputs)`` on the CPU and ``torch.export`` of its ``forward``.

Scope: one-thread-per-element kernels over tensors of one shape (the floats frontend's scope). Shared
memory, 2-D launches (``dim3(16, 16)``), ``x.size(k)`` extents and scalar arguments are refused by name:
KernelBench's tiled-matmul example is refused as "2-D launch".
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.floats.cuda.launch import IntExpr, Launch, parse_int_expr
from workbench.floats.pyread import number as _number, where as _where
from workbench.floats.errors import CudaParseError, CudaUnsupportedError, FloatsUsageError, SpecLoadError
from workbench.floats.hostcode import DataPtr, LaunchCall, mask, read_launch, render, split_source

MAX_GATE_N = 1 << 22  # larger element counts from get_inputs are not enumerated thread by thread


@dataclass(frozen=True, slots=True)
class Answer:
    path: str
    cuda: str  # the CUDA string, padded with blank lines so that its lines are ANSWER.py's lines
    extension: str  # the load_inline result's name
    functions: tuple[str, ...]  # load_inline's functions=
    entry: str  # the function forward calls
    entry_args: tuple[int, ...]  # forward parameter number of each argument
    forward_params: tuple[str, ...]
    forward_line: int


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    shapes: tuple[tuple[int, ...], ...]  # get_inputs' tensor shapes
    init_args: tuple  # get_init_inputs' values (numbers)

    @property
    def numel(self) -> int | None:
        """The common element count of the inputs (None when their shapes differ)."""
        counts = {_prod(s) for s in self.shapes}
        return counts.pop() if len(counts) == 1 else None


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for d in shape:
        out *= d
    return out




# -- ANSWER.py -------------------------------------------------------------------------------------------

def read_answer(path: str | Path) -> Answer:
    p = Path(path)
    if not p.is_file():
        raise FloatsUsageError(f"answer file {str(p)!r} does not exist; pass a KernelBench ANSWER.py with ModelNew")
    text = p.read_text()
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise CudaParseError(f"{p.name}:{exc.lineno} is not valid Python ({exc.msg}); fix the answer file") from None
    strings: dict[str, tuple[str, int, bool]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                # a single literal maps line for line (implicit concatenation of several does not)
                exact = v.end_lineno - v.lineno == v.value.count("\n") or '"""' in text.splitlines()[v.lineno - 1] \
                    or "'''" in text.splitlines()[v.lineno - 1]
                strings[node.targets[0].id] = (v.value, v.lineno, exact)
    ext, call = _load_inline(tree, str(p))
    cuda_node = _kwarg(call, "cuda_sources", 2)
    if cuda_node is None:
        raise CudaParseError(f"load_inline at {_where(str(p), call)} has no cuda_sources; pass the CUDA string "
                             "as cuda_sources=...")
    parts = cuda_node.elts if isinstance(cuda_node, (ast.List, ast.Tuple)) else [cuda_node]
    if len(parts) != 1:
        raise CudaUnsupportedError(f"cuda_sources with {len(parts)} strings at {_where(str(p), cuda_node)} is not "
                                   "supported; put the CUDA code in one string", construct="cuda_sources")
    part = parts[0]
    if isinstance(part, ast.Name) and part.id in strings:
        source, line, exact = strings[part.id]
    elif isinstance(part, ast.Constant) and isinstance(part.value, str):
        source, line, exact = part.value, part.lineno, True
    else:
        raise CudaUnsupportedError(f"cuda_sources at {_where(str(p), part)} is not a string literal or the name of "
                                   "one assigned at module level (f-strings and computed strings are not read)",
                                   construct="cuda_sources")
    functions = _kwarg(call, "functions", 4)
    names = tuple(e.value for e in functions.elts if isinstance(e, ast.Constant)) \
        if isinstance(functions, (ast.List, ast.Tuple)) else \
        ((functions.value,) if isinstance(functions, ast.Constant) else ())
    # the string's first character sits on line ``line``: pad so that clang's line k is ANSWER.py's line k
    padded = ("\n" * (line - 1) + source) if exact else source
    entry, args, params, fline = _forward(tree, str(p), ext)
    if names and entry not in names:
        raise FloatsUsageError(f"ModelNew.forward at {Path(p).name}:{fline} calls {ext}.{entry}, which load_inline "
                               f"does not export (functions={list(names)}); add it to functions=")
    return Answer(str(p), padded, ext, names, entry, args, params, fline)


def _load_inline(tree: ast.Module, path: str) -> tuple[str, ast.Call]:
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            f = node.value.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "load_inline" and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                found.append((node.targets[0].id, node.value))
    if not found:
        raise CudaParseError(f"{Path(path).name} has no `ext = load_inline(...)` at module level; a KernelBench answer "
                             "builds its CUDA extension with torch.utils.cpp_extension.load_inline")
    if len(found) > 1:
        raise CudaUnsupportedError(f"{Path(path).name} builds {len(found)} extensions with load_inline; check one "
                                   "per answer", construct="load_inline")
    return found[0]


def _kwarg(call: ast.Call, name: str, position: int):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return call.args[position] if len(call.args) > position else None


def _forward(tree: ast.Module, path: str, ext: str) -> tuple[str, tuple[int, ...], tuple[str, ...], int]:
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    if cls is None:
        raise CudaParseError(f"{Path(path).name} defines no class ModelNew; a KernelBench answer defines "
                             "`class ModelNew(nn.Module)`")
    attrs = {ext}
    fwd = None
    for f in cls.body:
        if isinstance(f, ast.FunctionDef) and f.name == "__init__":
            for st in ast.walk(f):
                if isinstance(st, ast.Assign) and isinstance(st.value, ast.Name) and st.value.id == ext:
                    for t in st.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            attrs.add("self." + t.attr)
        if isinstance(f, ast.FunctionDef) and f.name == "forward":
            fwd = f
    if fwd is None:
        raise CudaParseError(f"class ModelNew at {_where(path, cls)} has no forward")
    params = tuple(a.arg for a in fwd.args.args[1:])
    body = [s for s in fwd.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    fix = (f"write forward as one `return self.<ext>.<function>(x, ...)` over its parameters (the floats check "
           "reads it, it does not run it)")
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        raise CudaUnsupportedError(f"ModelNew.forward at {_where(path, fwd)} is not one `return ext.fn(...)`; {fix}",
                                   construct="forward", line=fwd.lineno)
    call = body[0].value
    f = call.func
    owner = ast.unparse(f.value) if isinstance(f, ast.Attribute) else ""
    if owner not in attrs:
        raise CudaUnsupportedError(f"ModelNew.forward at {_where(path, call)} calls `{ast.unparse(f)}`, not a function "
                                   f"of the load_inline extension `{ext}`; {fix}", construct="forward", line=call.lineno)
    args = []
    for a in call.args:
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "contiguous" and not a.args:
            a = a.func.value
        if not isinstance(a, ast.Name) or a.id not in params:
            raise CudaUnsupportedError(f"argument `{ast.unparse(a)}` of {f.attr} at {_where(path, call)} is not a "
                                       f"parameter of forward ({', '.join(params)}); {fix}", construct="forward",
                                       line=call.lineno)
        args.append(params.index(a.id))
    if call.keywords:
        raise CudaUnsupportedError(f"keyword arguments in the call at {_where(path, call)}; {fix}", construct="forward",
                                   line=call.lineno)
    return f.attr, tuple(args), params, fwd.lineno


# -- REFERENCE.py ----------------------------------------------------------------------------------------

def read_problem(path: str | Path) -> Problem:
    p = Path(path)
    if not p.is_file():
        raise SpecLoadError(f"reference file {str(p)!r} does not exist; pass a KernelBench problem file")
    try:
        tree = ast.parse(p.read_text())
    except SyntaxError as exc:
        raise SpecLoadError(f"{p.name}:{exc.lineno} is not valid Python ({exc.msg}); fix the reference file") from None
    consts = _constants(tree)
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    if not any(isinstance(n, ast.ClassDef) and n.name == "Model" for n in tree.body) or "get_inputs" not in fns:
        raise SpecLoadError(f"{p.name} is not a KernelBench problem: it needs `class Model`, `get_inputs()` and "
                            "`get_init_inputs()`")
    try:
        shapes = tuple(_shape(e, consts, str(p)) for e in _returned(fns["get_inputs"], str(p)))
        init = tuple(_number(e, consts, str(p)) for e in _returned(fns["get_init_inputs"], str(p))) \
            if "get_init_inputs" in fns else ()
    except SpecLoadError as first:
        return _read_problem_wider(p, first)
    return Problem(str(p), shapes, init)


def _read_problem_wider(p: Path, first: SpecLoadError) -> Problem:
    """The fuller static reader (``problem_inputs.read_inputs``: ``*input_shape``, ``torch.rand(...) * scale``,
    bool and tuple init arguments), taken only where every input is an unstructured float32 tensor: integer
    targets, bool masks, Python numbers and inputs that ``get_inputs`` makes symmetric or triangular would lose
    their meaning as plain shapes, so for those the first reader's refusal stands."""
    from workbench.floats.problem_inputs import InputKind, read_inputs

    try:
        wide = read_inputs(p)
    except SpecLoadError:
        raise first from None
    if any(i.kind is not InputKind.FLOAT or i.structure for i in wide.inputs):
        raise first
    return Problem(str(p), tuple(i.shape for i in wide.inputs), wide.init_args)


def _constants(tree: ast.Module) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            try:
                out[n.targets[0].id] = _number(n.value, out, "")
            except (SpecLoadError, ZeroDivisionError):
                pass
    return out




def _returned(fn: ast.FunctionDef, path: str) -> list:
    """The elements of ``return [a, b]``, with local names resolved to their assigned expressions."""
    local: dict[str, ast.expr] = {}
    for st in fn.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            local[st.targets[0].id] = st.value
        elif isinstance(st, ast.Return) and isinstance(st.value, (ast.List, ast.Tuple)):
            return [local.get(e.id, e) if isinstance(e, ast.Name) else e for e in st.value.elts]
    raise SpecLoadError(f"{fn.name} at {_where(path, fn)} does not end in `return [...]`; return a list of inputs")


def _shape(e, consts: dict, path: str) -> tuple[int, ...]:
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("cuda", "to", "float",
                                                                                             "contiguous"):
        e = e.func.value
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("randn", "rand", "ones",
                                                                                         "zeros", "empty"):
        dims = e.args[0].elts if len(e.args) == 1 and isinstance(e.args[0], (ast.Tuple, ast.List)) else e.args
        for k in e.keywords:
            if k.arg == "dtype" and ast.unparse(k.value) not in ("torch.float32", "torch.float"):
                raise CudaUnsupportedError(f"input of dtype {ast.unparse(k.value)} at {_where(path, e)}; the "
                                           "KernelBench reader takes float32 inputs", construct="dtype")
        shape = tuple(_number(d, consts, path) for d in dims)
        if all(isinstance(d, int) and d >= 0 for d in shape):
            return shape
    raise SpecLoadError(f"get_inputs element `{ast.unparse(e)}` at {_where(path, e)} is not torch.randn/rand(...) with "
                        "integer sizes; the reader takes shapes from those calls")


def capture_reference(problem: Problem, device: str = "cuda"):
    """REFERENCE.py's ``Model`` as a Spec: a copy of the file with every other top-level statement blanked
    (imports, constants and ``class Model`` kept, on their lines) is imported, ``Model(*get_init_inputs())``
    built on the CPU and its ``forward`` exported (``spec.capture_program``)."""
    from workbench.floats.spec import capture_program

    import importlib.util
    import tempfile

    p = Path(problem.path)
    text = p.read_text()
    tree = ast.parse(text)
    lines = text.splitlines()
    for n in tree.body:  # blank every top-level statement but imports, constants and class Model (lines kept)
        keep = isinstance(n, (ast.Import, ast.ImportFrom)) or (isinstance(n, ast.ClassDef) and n.name == "Model") or \
            (isinstance(n, ast.Assign) and all(isinstance(t, ast.Name) for t in n.targets) and
             isinstance(n.value, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Name)))
        if not keep:
            first = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])
            for k in range(first - 1, n.end_lineno):
                lines[k] = ""
    with tempfile.TemporaryDirectory(prefix="workbench-kernelbench-") as tmp:
        reduced = Path(tmp) / p.name
        reduced.write_text("\n".join(lines) + "\n")
        try:  # runs the reference's imports, constants and class Model: the spec is that module
            sp = importlib.util.spec_from_file_location("workbench_kernelbench_reference", reduced)
            module = importlib.util.module_from_spec(sp)
            sp.loader.exec_module(module)
            model = module.Model(*problem.init_args)
        except Exception as exc:  # the user's Model failed to build: bad input, with its cause
            raise SpecLoadError(f"{p.name}: building Model(*get_init_inputs()) failed: {type(exc).__name__}: {exc}; "
                                "fix the reference file") from exc
    model.train(False)  # inference mode (nn.Module.eval), as KernelBench runs it
    spec = capture_program(model.forward, name=p.stem, path=p)
    return spec.on(device)


def bind(kernel, launch: LaunchCall, answer: Answer):
    """The parsed kernel with its launch and its inputs in the spec's argument order (forward's)."""
    where = Path(answer.path).name
    if launch.kernel != kernel.name:
        raise CudaUnsupportedError(f"the wrapper launches `{launch.kernel}` at {where}:{launch.line} but the kernel is "
                                   f"`{kernel.name}`", construct="launch", line=launch.line)
    if len(launch.args) != len(kernel.params):
        raise CudaUnsupportedError(f"the launch at {where}:{launch.line} passes {len(launch.args)} arguments to "
                                   f"{kernel.name}, which takes {len(kernel.params)}", construct="launch",
                                   line=launch.line)
    position: dict[str, int] = {}
    for prm, a in zip(kernel.params, launch.args):
        if prm == kernel.count:
            if not (isinstance(a, IntExpr) and a.op == "n"):
                shown = render(a) if isinstance(a, IntExpr) else type(a).__name__
                raise CudaUnsupportedError(f"the launch at {where}:{launch.line} passes `{shown}` as {kernel.name}'s "
                                           f"element count `{prm}`; the floats level reads it as n = x.numel()",
                                           construct="element count", line=launch.line)
        elif isinstance(a, DataPtr):
            if a.tensor.origin == "input":
                position[prm] = a.tensor.index
            elif prm in kernel.inputs:
                raise CudaUnsupportedError(f"{kernel.name} reads `{prm}`, the new output tensor ({a.tensor.how}) at "
                                           f"{where}:{launch.line}", construct="launch", line=launch.line)
        else:
            raise CudaUnsupportedError(f"the launch at {where}:{launch.line} passes a non-pointer to `{prm}`",
                                       construct="launch", line=launch.line)
    missing = [x for x in kernel.inputs if x not in position]
    if missing:
        raise CudaUnsupportedError(f"{kernel.name}'s input `{missing[0]}` is not bound to a forward argument by the "
                                   f"launch at {where}:{launch.line}", construct="launch", line=launch.line)
    inputs = tuple(sorted(kernel.inputs, key=lambda x: position[x]))
    order = [position[x] for x in inputs]
    if order != list(range(len(answer.forward_params))):
        raise FloatsUsageError(f"{kernel.name} reads forward's arguments {order} of "
                               f"{list(range(len(answer.forward_params)))}; each input must be read once")
    text = Launch(grid=render(launch.grid), block=render(launch.block))
    for t in (text.grid, text.block):
        parse_int_expr(t)
    return replace(kernel, inputs=inputs, launch=text)


def load(reference: str | Path, answer_path: str | Path, spec_device: str = "cuda"):
    """(problem, spec, kernel, answer, notes): everything ``floats check REFERENCE.py ANSWER.py`` needs."""
    from workbench.floats.cuda.parse import parse_kernel

    problem = read_problem(reference)
    answer = read_answer(answer_path)
    text, hosts = split_source(answer.cuda)
    masked = mask(text)
    shared = re.search(r"\b__shared__\b", masked)
    if shared:
        line = masked.count("\n", 0, shared.start()) + 1
        raise CudaUnsupportedError(f"shared memory (`__shared__` at {Path(answer.path).name}:{line}) is beyond the floats "
                                   "level: it checks one-thread-per-element kernels; tiled matmuls, reductions and "
                                   "other kernels that share data between threads get no verdict here (issue 25 "
                                   "item 3)", construct="shared memory", line=line)
    launch = read_launch(answer, hosts, answer.cuda)
    kernel = parse_kernel(answer.path, source=text, name=launch.kernel, embedded=True)
    kernel = bind(kernel, launch, answer)
    spec = capture_reference(problem, spec_device)
    notes = [f"read from KernelBench files: spec = {Path(problem.path).name}'s Model (run on the CPU under "
             f"torch.export), kernel = {kernel.name} from {Path(answer.path).name}'s cuda_sources, launch from "
             f"{launch.host} (line {launch.line}): grid = {kernel.launch.grid}, block = {kernel.launch.block}"]
    return problem, spec, kernel, answer, notes


__all__ = ["Answer", "Problem", "bind", "capture_reference", "load", "read_answer", "read_launch", "read_problem",
           "split_source"]  # read_launch and split_source live in hostcode.py
