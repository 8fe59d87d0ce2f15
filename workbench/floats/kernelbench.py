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
from workbench.floats.errors import CudaParseError, CudaUnsupportedError, FloatsUsageError, SpecLoadError

MAX_GATE_N = 1 << 22  # larger element counts from get_inputs are not enumerated thread by thread
TORCH_HEADERS = re.compile(r"^[ \t]*#\s*include\s*[<\"](torch|c10|ATen|pybind11|THC)/[^>\"]*[>\"].*$", re.M)
SKIPPED_CALLS = ("TORCH_CHECK", "TORCH_INTERNAL_ASSERT", "AT_ASSERT", "C10_CUDA_KERNEL_LAUNCH_CHECK",
                 "C10_CUDA_CHECK", "AT_CUDA_CHECK", "cudaGetLastError", "cudaDeviceSynchronize", "CUDA_CHECK")
NEW_TENSORS = ("torch::empty_like", "torch::zeros_like", "at::empty_like", "at::zeros_like", "torch::empty",
               "torch::zeros", "at::empty", "at::zeros")


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


def _where(path: str, node) -> str:
    return f"{Path(path).name}:{getattr(node, 'lineno', '?')}"


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
    shapes = tuple(_shape(e, consts, str(p)) for e in _returned(fns["get_inputs"], str(p)))
    init = tuple(_number(e, consts, str(p)) for e in _returned(fns["get_init_inputs"], str(p))) \
        if "get_init_inputs" in fns else ()
    return Problem(str(p), shapes, init)


def _constants(tree: ast.Module) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            try:
                out[n.targets[0].id] = _number(n.value, out, "")
            except (SpecLoadError, ZeroDivisionError):
                pass
    return out


def _number(e, consts: dict, path: str):
    """A restricted arithmetic reader (numbers, module constants, + - * // / **, unary minus): never ``eval``."""
    match e:
        case ast.Constant(value=v) if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        case ast.Name(id=name) if name in consts:
            return consts[name]
        case ast.UnaryOp(op=ast.USub(), operand=x):
            return -_number(x, consts, path)
        case ast.BinOp(left=a, op=op, right=b):
            x, y = _number(a, consts, path), _number(b, consts, path)
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
    raise SpecLoadError(f"`{ast.unparse(e)}` at {_where(path, e)} is not a number the reader understands; use "
                        "integer literals and module-level constants")


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


# -- the CUDA string: kernels for the frontend, wrappers for the reader ---------------------------------

@dataclass(frozen=True, slots=True)
class HostFunction:
    name: str
    params: tuple[str, ...]
    tensor_params: tuple[bool, ...]
    body: str  # masked (comments and strings blanked)
    line: int  # first line of the body in ANSWER.py
    wrapper: bool  # uses torch/at types: blanked from the kernel text


def _mask(text: str) -> str:
    """Comments and string/char literals replaced by spaces (newlines kept): braces and semicolons inside
    them no longer count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(q + " " * (j - i - 2) + q if j - i >= 2 else text[i:j])
            i = j
        elif text[i] == "#":  # a preprocessor line (with continuations) holds no function
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


_HEAD = re.compile(r"([A-Za-z_][\w:<>,\s\*&]*?)\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(?:const\s*)?\{")


def split_source(cuda: str) -> tuple[str, dict[str, HostFunction]]:
    """The kernel text (wrappers and torch headers blanked, lines kept) and the host functions by name."""
    masked = _mask(cuda)
    hosts: dict[str, HostFunction] = {}
    blank: list[tuple[int, int]] = []
    depth, i, start = 0, 0, 0
    while i < len(masked):
        ch = masked[i]
        if ch == "{":
            if depth == 0:
                head_start = max(masked.rfind(";", 0, i), masked.rfind("}", 0, i)) + 1
                start = head_start
                head = masked[head_start:i + 1]
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                m = _HEAD.search(head)
                if m and not re.search(r"__global__|__device__", head) and not re.match(r"\s*(struct|class|union|"
                                                                                       r"namespace|enum)\b", head):
                    params = [x.strip() for x in m.group(3).split(",") if x.strip() and x.strip() != "void"]
                    names = tuple(re.findall(r"([A-Za-z_]\w*)\s*(?:=.*)?$", x)[0] for x in params)
                    tensor = tuple(bool(re.search(r"\b(torch|at)::Tensor\b|\bTensor\b", x)) for x in params)
                    wrapper = bool(re.search(r"\b(torch|at|c10)::", head + masked[start:i]))
                    body_start = start + len(head)
                    hosts[m.group(2)] = HostFunction(m.group(2), names, tensor, masked[body_start:i],
                                                     cuda.count("\n", 0, body_start) + 1, wrapper)
                    if wrapper:
                        blank.append((start, i + 1))
        i += 1
    text = cuda
    for a, b in reversed(blank):
        text = text[:a] + re.sub(r"[^\n]", " ", text[a:b]) + text[b:]
    text = TORCH_HEADERS.sub("", text)
    return text, hosts


# -- the wrapper reader ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tensor:
    origin: str  # "input" (argument number ``index`` of forward) or "new"
    index: int = -1
    how: str = ""  # for new tensors: the call that made it


@dataclass(frozen=True, slots=True)
class DataPtr:
    tensor: Tensor


@dataclass(frozen=True, slots=True)
class LaunchCall:
    kernel: str
    grid: IntExpr
    block: IntExpr
    args: tuple  # IntExpr | DataPtr | float
    line: int
    host: str = ""  # the host function that launches


_TOK = re.compile(r"\s*(\"[^\"\n]*\"|'[^'\n]*'|<<<|>>>|::|->|<<|>>|<=|>=|==|!=|&&|\|\||[A-Za-z_]\w*|\d+[uUlL]*|[-+*/%(){}\[\],;<>=!&.?:])")


def _tokens(text: str, line: int, where: str) -> list[tuple[str, int]]:
    out, pos = [], 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOK.match(text, pos)
        if not m:
            ln = line + text.count("\n", 0, pos)
            raise CudaUnsupportedError(f"host wrapper text {text[pos:].strip()[:20]!r} at {where}:{ln} is not read by "
                                       "the wrapper reader; keep the wrapper to declarations, checks and one launch",
                                       construct="host wrapper", line=ln)
        out.append((m.group(1), line + text.count("\n", 0, m.start(1))))
        pos = m.end()
    return out


class WrapperReader:
    """Reads the host wrapper forward calls, down to the one kernel launch (never compiled or run)."""

    def __init__(self, hosts: dict[str, HostFunction], where: str, macros: frozenset[str]):
        self.hosts, self.where, self.macros = hosts, where, macros
        self.launches: list[LaunchCall] = []
        self.depth = 0
        self.stack: list[str] = []

    def refuse(self, what: str, line: int, fix: str):
        raise CudaUnsupportedError(f"{what} at {self.where}:{line} is not read by the KernelBench wrapper reader; {fix}",
                                   construct=what.split(" `")[0], line=line)

    def call(self, name: str, args: list, line: int):
        fn = self.hosts[name]
        if len(args) != len(fn.params):
            self.refuse(f"call of `{name}` with {len(args)} arguments ({len(fn.params)} parameters)", line,
                        "pass every parameter (default arguments are not read)")
        self.depth += 1
        if self.depth > 8:
            self.refuse(f"recursion through `{name}`", line, "call the kernel from a non-recursive wrapper")
        env = dict(zip(fn.params, args))
        self.stack.append(name)
        try:
            return self.block(_tokens(fn.body, fn.line, self.where), env)
        finally:
            self.depth -= 1
            self.stack.pop()

    def block(self, toks: list, env: dict):
        for st in _statements(toks, self):
            r = self.statement(st, env)
            if r is not _NONE:
                return r
        return None

    def statement(self, st: list, env: dict):
        words = [t for t, _ in st]
        line = st[0][1]
        if words[0] in ("if", "for", "while", "switch", "do", "{", "try"):
            self.refuse(f"`{words[0]}` statement", line, "keep the wrapper straight-line: checks, declarations, "
                        "one launch, return")
        if words[0] == "return":
            return self.expr(st[1:], env) if len(st) > 1 else None
        if words[0] in SKIPPED_CALLS or words[0] in self.macros:
            return _NONE
        if "<<<" in words:
            self.launch(st, env)
            return _NONE
        if "=" in words and words.index("=") >= 1:
            k = words.index("=")
            name = words[k - 1]
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                self.refuse(f"assignment to `{' '.join(words[:k])}`", line, "assign plain local names")
            env[name] = self.expr(st[k + 1:], env)
            return _NONE
        if words[0] == "dim3" and len(words) >= 3 and words[2] == "(":
            vals = _split_args(st[3:-1])
            extents = [self.expr(v, env) for v in vals]
            if any(not (isinstance(e, IntExpr) and e.op == "int" and e.value == 1) for e in extents[1:]):
                self.refuse(f"2-D launch `dim3 {words[1]}({', '.join(' '.join(t for t, _ in v) for v in vals)})`",
                            line, "the floats level checks one-dimensional, one-thread-per-element launches "
                            "(tiled matmul and other 2-D kernels are beyond it)")
            env[words[1]] = extents[0]
            return _NONE
        if len(words) >= 2 and words[1] == "(" and words[0] in self.hosts:
            self.expr(st, env)
            return _NONE
        self.refuse(f"statement `{' '.join(words)[:60]}`", line, "keep the wrapper to declarations, checks "
                    "(TORCH_CHECK, CHECK_* macros), one kernel launch and return")

    def launch(self, st: list, env: dict) -> None:
        words = [t for t, _ in st]
        line = st[0][1]
        a, b = words.index("<<<"), words.index(">>>")
        if a != 1:
            self.refuse(f"launch `{' '.join(words[:a])}<<<...>>>`", line, "launch a __global__ kernel by its name")
        conf = _split_args(st[a + 1:b])
        if len(conf) > 2:
            shmem = self.expr(conf[2], env)
            if not (isinstance(shmem, IntExpr) and shmem.op == "int" and shmem.value == 0):
                self.refuse("dynamic shared memory in the launch", line, "the floats level checks kernels without "
                            "shared memory")
        grid, block = (self.expr(c, env) for c in conf[:2])
        for what, v in (("grid", grid), ("block", block)):
            if not isinstance(v, IntExpr):
                self.refuse(f"launch {what} that is not an integer expression", line, "launch with integers")
        if words[b + 1] != "(" or words[-1] != ")":
            self.refuse("launch without an argument list", line, "pass the kernel's arguments")
        args = tuple(self.expr(x, env) for x in _split_args(st[b + 2:-1]))
        self.launches.append(LaunchCall(words[0], grid, block, args, line, self.stack[-1]))

    # -- expressions: integers over n, tensors, data pointers
    def expr(self, toks: list, env: dict):
        p = _ExprParser(toks, self, env)
        v = p.ternary()
        if p.i != len(toks):
            self.refuse(f"expression `{' '.join(t for t, _ in toks)[:60]}`", toks[p.i][1],
                        "use integers, a.numel(), + - * / %, casts and calls of host helpers")
        return v


class _None:
    pass


_NONE = _None()


def _statements(toks: list, reader: WrapperReader) -> list[list]:
    out, cur, depth = [], [], 0
    for t in toks:
        if t[0] in "({[":
            depth += 1
        elif t[0] in ")}]":
            depth -= 1
        if t[0] == ";" and depth == 0:
            if cur:
                out.append(cur)
            cur = []
            continue
        cur.append(t)
        if t[0] == "}" and depth == 0 and cur[0][0] in ("if", "for", "while", "switch", "do", "{", "try"):
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _split_args(toks: list) -> list[list]:
    out, cur, depth = [], [], 0
    for t in toks:
        if t[0] in "({[":
            depth += 1
        elif t[0] in ")}]":
            depth -= 1
        if t[0] == "," and depth == 0:
            out.append(cur)
            cur = []
            continue
        cur.append(t)
    if cur:
        out.append(cur)
    return out


_INT_TYPES = {"int", "unsigned", "long", "size_t", "int64_t", "int32_t", "uint32_t", "uint64_t", "auto", "const",
              "constexpr", "short", "signed", "float", "double", "dim3"}
_TENSOR_TYPES = {"torch::Tensor", "at::Tensor", "Tensor"}


class _ExprParser:
    """Recursive descent over C++ tokens: integer arithmetic in n (launch.IntExpr), tensors, data pointers."""

    def __init__(self, toks: list, reader: WrapperReader, env: dict):
        self.toks, self.r, self.env, self.i = toks, reader, env, 0
        # a declaration: strip the type words before the name
        words = [t for t, _ in toks]
        while self.i + 1 < len(words) and (words[self.i] in _INT_TYPES | _TENSOR_TYPES or words[self.i] in "*&"):
            self.i += 1

    def peek(self, k: int = 0) -> str | None:
        return self.toks[self.i + k][0] if self.i + k < len(self.toks) else None

    def line(self) -> int:
        return self.toks[min(self.i, len(self.toks) - 1)][1]

    def take(self, want: str | None = None) -> str:
        if self.i >= len(self.toks) or (want is not None and self.toks[self.i][0] != want):
            self.r.refuse(f"expression `{' '.join(t for t, _ in self.toks)[:60]}` (expected {want or 'a term'})",
                          self.line(), "use integers, a.numel(), + - * / %, casts and calls of host helpers")
        self.i += 1
        return self.toks[self.i - 1][0]

    def ternary(self):
        return self.sum()

    def sum(self):
        e = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            e = self.arith(op, e, self.product())
        return e

    def product(self):
        e = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            e = self.arith(op, e, self.unary())
        return e

    def arith(self, op: str, a, b):
        if not (isinstance(a, IntExpr) and isinstance(b, IntExpr)):
            self.r.refuse(f"`{op}` on a tensor or pointer", self.line(), "compute launch sizes from integers")
        return IntExpr(op, (a, b))

    def unary(self):
        if self.peek() == "-":
            self.take()
            return IntExpr("neg", (self.unary(),))
        if self.peek() == "+":
            self.take()
            return self.unary()
        if self.peek() == "(" and self.peek(1) in _INT_TYPES and self.peek(2) in (")", "*", "int", "long"):
            while self.take() != ")":  # a C cast to an integer type: the value is unchanged for n < 2**31
                pass
            return self.unary()
        if self.peek() in ("static_cast", "reinterpret_cast"):
            self.take()
            self.take("<")
            while self.take() != ">":
                pass
            self.take("(")
            v = self.sum()
            self.take(")")
            return v
        return self.postfix(self.primary())

    def primary(self):
        t = self.take()
        if t == "(":
            v = self.sum()
            self.take(")")
            return v
        if re.fullmatch(r"\d+[uUlL]*", t):
            return IntExpr("int", value=int(re.sub(r"[uUlL]", "", t)))
        name = t
        while self.peek() == "::":
            self.take()
            name += "::" + self.take()
        if self.peek() == "(" and name not in self.env:
            args = self.call_args()
            return self.function(name, args)
        if name in self.env:
            return self.env[name]
        self.r.refuse(f"name `{name}`", self.line(), "use the wrapper's parameters and locals")

    def call_args(self) -> list:
        self.take("(")
        start = self.i
        depth = 1
        while depth:
            t = self.take()
            depth += {"(": 1, ")": -1}.get(t, 0)
        return _split_args(self.toks[start:self.i - 1])

    def function(self, name: str, args: list):
        line = self.line()
        short = name.split("::")[-1]
        if name in NEW_TENSORS or short in ("empty_like", "zeros_like"):
            first = self.r.expr(args[0], self.env) if args and args[0][0][0] != "{" else None
            first = first.tensor if isinstance(first, _Meta) else first
            if not isinstance(first, Tensor):
                self.r.refuse(f"`{name}` not shaped like an input tensor", line,
                              "create the output with torch::empty_like(x) / zeros_like(x) or "
                              "torch::empty(x.sizes(), x.options())")
            return Tensor("new", first.index if first.origin == "input" else -1, name)
        if short in ("min", "max") and len(args) == 2:
            a, b = (self.r.expr(x, self.env) for x in args)
            return IntExpr(short, (a, b))
        if name in self.r.hosts:
            return self.r.call(name, [self.r.expr(x, self.env) for x in args], line)
        self.r.refuse(f"call of `{name}`", line, "the reader knows torch::empty_like/zeros_like/empty, min, max and "
                      "the file's own host functions")

    def postfix(self, v):
        while self.peek() in (".", "->"):
            self.take()
            member = self.take()
            line = self.line()
            targs = None
            if self.peek() == "<":
                self.take()
                targs = []
                while self.peek() != ">":
                    targs.append(self.take())
                self.take(">")
            args = self.call_args() if self.peek() == "(" else None
            if not isinstance(v, Tensor):
                self.r.refuse(f"member `.{member}` of a non-tensor", line, "call members of tensors only")
            match member:
                case "numel" if args == []:
                    v = IntExpr("n")
                case "data_ptr" | "data" if args == []:
                    if targs not in (None, ["float"]):
                        self.r.refuse(f"`{member}<{''.join(targs)}>()`", line, "pass float tensors "
                                      "(data_ptr<float>())")
                    v = DataPtr(v)
                case "contiguous" | "cuda" if args == []:
                    pass
                case "sizes" | "options" | "device" | "dtype" | "scalar_type" if args == []:
                    v = _Meta(v)
                    return v
                case "size" | "stride":
                    self.r.refuse(f"`.{member}(...)` of a tensor", line, "the floats level checks flat elementwise "
                                  "kernels over n = x.numel() elements; pass x.numel()")
                case _:
                    self.r.refuse(f"tensor member `.{member}`", line, "use numel(), data_ptr<float>(), contiguous()")
        return v


@dataclass(frozen=True, slots=True)
class _Meta:
    tensor: Tensor  # x.sizes(), x.options(): only as arguments of torch::empty


def _host_helper_call(reader: WrapperReader, name: str, args: list, line: int):
    return reader.call(name, args, line)


def read_launch(answer: Answer, hosts: dict[str, HostFunction], cuda_text: str) -> LaunchCall:
    """The one launch the entry function makes, its arguments in terms of forward's parameters."""
    where = Path(answer.path).name
    if answer.entry not in hosts:
        raise CudaParseError(f"{where}: the CUDA string defines no host function `{answer.entry}` (forward calls "
                             f"{answer.extension}.{answer.entry}); define it in cuda_sources")
    macros = frozenset(m.group(1) for m in re.finditer(r"^[ \t]*#\s*define\s+(\w+)\s*\(", cuda_text, re.M))
    reader = WrapperReader(hosts, where, macros)
    fn = hosts[answer.entry]
    if len(fn.params) != len(answer.entry_args):
        raise FloatsUsageError(f"ModelNew.forward at {where}:{answer.forward_line} passes {len(answer.entry_args)} "
                               f"arguments to {answer.entry}, which takes {len(fn.params)}; fix the call")
    args = [Tensor("input", k) if t else reader.refuse(f"non-tensor parameter `{p}` of {answer.entry}", fn.line,
                                                       "pass tensors only")
            for k, p, t in zip(answer.entry_args, fn.params, fn.tensor_params)]
    result = reader.call(answer.entry, args, fn.line)
    if len(reader.launches) != 1:
        raise CudaUnsupportedError(f"{answer.entry} at {where}:{fn.line} launches {len(reader.launches)} kernels; the "
                                   "floats level checks a wrapper that launches one kernel once",
                                   construct="launch count", line=fn.line)
    (launch,) = reader.launches
    if not isinstance(result, Tensor) or result.origin != "new":
        raise CudaUnsupportedError(f"{answer.entry} at {where}:{fn.line} does not return the tensor it creates for "
                                   "the kernel's output", construct="wrapper result", line=fn.line)
    outs = [a for a in launch.args if isinstance(a, DataPtr) and a.tensor == result]
    if not outs:
        raise CudaUnsupportedError(f"the launch at {where}:{launch.line} does not pass the returned tensor's "
                                   "data_ptr", construct="wrapper result", line=launch.line)
    return launch


def render(e: IntExpr) -> str:
    match e.op:
        case "int":
            return str(e.value)
        case "n":
            return "n"
        case "neg":
            return f"-({render(e.args[0])})"
        case "min" | "max":
            return f"{e.op}({render(e.args[0])}, {render(e.args[1])})"
        case "+" | "-" | "*" | "/" | "%":
            return f"({render(e.args[0])} {e.op} {render(e.args[1])})"
    raise AssertionError(e.op)


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
    masked = _mask(text)
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
           "split_source"]
