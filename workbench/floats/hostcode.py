"""The host side of a KernelBench answer's CUDA string: split from the kernels, read, never run (stage: floats).

``split_source`` blanks the host wrappers (functions using ``torch::``/``at::``/``c10::``) and the torch
includes line for line, so the kernel text keeps ANSWER.py's line numbers, and returns every host function.
``read_launch`` follows ``forward``'s call through the wrappers with ``WrapperReader``, a restricted
statement reader over C++ tokens (declarations, assignments, ``dim3``, checks that are skipped, calls of
other host functions, one ``<<<grid, block>>>`` launch, ``return``): integers become ``launch.IntExpr`` in
``n`` (``x.numel()``), tensors are inputs (forward's argument k) or new (``empty_like``, ``zeros_like``,
``empty(x.sizes(), x.options())``), ``x.data_ptr<float>()`` a pointer to one of them. Anything else is
refused by name with its ANSWER.py line (docs/floats.md, "KernelBench files as they are").

Over ~450 lines on purpose: it is one small grammar (tokens, statements, expressions, the tensor members it
knows); split over files its refusals would no longer read as one list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from workbench.floats.cuda.launch import IntExpr
from workbench.floats.errors import CudaParseError, CudaUnsupportedError, FloatsUsageError

TORCH_HEADERS = re.compile(r"^[ \t]*#\s*include\s*[<\"](torch|c10|ATen|pybind11|THC)/[^>\"]*[>\"].*$", re.M)
SKIPPED_CALLS = ("TORCH_CHECK", "TORCH_INTERNAL_ASSERT", "AT_ASSERT", "C10_CUDA_KERNEL_LAUNCH_CHECK",
                 "C10_CUDA_CHECK", "AT_CUDA_CHECK", "cudaGetLastError", "cudaDeviceSynchronize", "CUDA_CHECK")
NEW_TENSORS = ("torch::empty_like", "torch::zeros_like", "at::empty_like", "at::zeros_like", "torch::empty",
               "torch::zeros", "at::empty", "at::zeros")


@dataclass(frozen=True, slots=True)
class HostFunction:
    name: str
    params: tuple[str, ...]
    tensor_params: tuple[bool, ...]
    body: str  # masked (comments and strings blanked)
    line: int  # first line of the body in ANSWER.py
    wrapper: bool  # uses torch/at types: blanked from the kernel text


def mask(text: str) -> str:
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
    masked = mask(cuda)
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
        if short in ("getCurrentCUDAStream", "getDefaultCUDAStream"):
            return _Meta(Tensor("stream"))  # only ever the launch's fourth argument, which is not read
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


def read_launch(answer, hosts: dict[str, HostFunction], cuda_text: str) -> LaunchCall:
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


__all__ = ["DataPtr", "HostFunction", "LaunchCall", "Tensor", "WrapperReader", "mask", "read_launch", "render",
           "split_source"]
