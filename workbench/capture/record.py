"""Captured kernels as data: what Inductor emitted and the symbolic facts it emitted them under.

A :class:`CapturedKernel` is plain data (strings for symbolic expressions, parsed with sympy on demand) so it
saves as JSON beside the kernel's ``.py`` source under ``data/kernels/<program>/`` and loads back unchanged.
Nothing here touches torch: records can be read on machines without it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import tempfile
import warnings
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from workbench.errors import InputError

SCHEMA = "workbench.captured_kernel/1"


@dataclass(frozen=True, slots=True)
class SizeArg:
    """A scalar size argument of the kernel (``ks0``), its declared type and its expression in shape symbols."""

    name: str
    expr: str
    type: str


@dataclass(frozen=True, slots=True)
class Numel:
    """An element-count argument (``xnumel``) and its expression; ``type`` is its declared type or
    ``constexpr``/``None`` when Inductor passed it as a constant."""

    name: str
    expr: str
    type: str | None


@dataclass(frozen=True, slots=True)
class ShapeSymbol:
    """A shape symbol, its value range from Inductor's ShapeEnv, and which input dimensions it stands for."""

    name: str
    lower: int | None
    upper: int | None
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CapturedKernel:
    program: str
    name: str
    source: str
    signature: dict[str, str]
    grid_type: str
    index_dtype: str
    size_args: tuple[SizeArg, ...]
    numels: tuple[Numel, ...]
    symbols: tuple[ShapeSymbol, ...]
    guards: tuple[str, ...]
    replacements: dict[str, str]
    device: str
    torch_version: str
    triton_version: str
    source_hash: str
    schema: str = field(default=SCHEMA)
    # Which of the program's graphs emitted the kernel (0 unless Dynamo broke the program into several),
    # the input dimensions that were symbolic (``x.size(0)``), and where the program's graphs broke.
    graph: int = 0
    dynamic_dims: tuple[str, ...] = ()
    graph_breaks: tuple[str, ...] = ()
    # "forward" or "backward": which graph of a training step emitted the kernel (capture ``backward=True``);
    # inference records are "forward" and do not write the key (their JSON is unchanged).
    phase: str = "forward"

    # -- views ------------------------------------------------------------------------------------------
    @property
    def jit_source(self) -> str:
        """The ``@triton.jit`` function alone (decorators of Inductor's heuristics dropped)."""
        return jit_function_text(self.source, self.name)

    @property
    def helper_sources(self) -> tuple[tuple[str, str], ...]:
        """The module's other ``@triton.jit`` functions (a scan's combine helper), ``(name, text)`` in source
        order, located like the kernel (:func:`jit_function`)."""
        return jit_helper_texts(self.source, self.name)

    def size_arg(self, name: str) -> SizeArg:
        for a in self.size_args:
            if a.name == name:
                return a
        raise KeyError(name)

    # -- JSON ---------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["size_args"] = [asdict(a) for a in self.size_args]
        d["numels"] = [asdict(n) for n in self.numels]
        d["symbols"] = [dict(asdict(s), sources=list(s.sources)) for s in self.symbols]
        d["guards"] = list(self.guards)
        d["dynamic_dims"] = list(self.dynamic_dims)
        d["graph_breaks"] = list(self.graph_breaks)
        if self.phase == "forward":
            del d["phase"]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any], where: str = "<dict>") -> CapturedKernel:
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            got = d.get("schema") if isinstance(d, dict) else type(d).__name__
            raise InputError(
                f"{where}: not a captured-kernel record (schema {got!r}, expected {SCHEMA!r}); "
                "re-capture it with `workbench capture NAME`"
            )
        try:
            return cls(
                program=d["program"],
                name=d["name"],
                source=d["source"],
                signature=dict(d["signature"]),
                grid_type=d["grid_type"],
                index_dtype=d["index_dtype"],
                size_args=tuple(SizeArg(**a) for a in d["size_args"]),
                numels=tuple(Numel(**n) for n in d["numels"]),
                symbols=tuple(
                    ShapeSymbol(s["name"], s["lower"], s["upper"], tuple(s["sources"])) for s in d["symbols"]
                ),
                guards=tuple(d["guards"]),
                replacements=dict(d["replacements"]),
                device=d["device"],
                torch_version=d["torch_version"],
                triton_version=d["triton_version"],
                source_hash=d["source_hash"],
                schema=d["schema"],
                graph=int(d.get("graph", 0)),
                dynamic_dims=tuple(str(x) for x in d.get("dynamic_dims", ())),
                graph_breaks=tuple(str(x) for x in d.get("graph_breaks", ())),
                phase=str(d.get("phase", "forward")),
            )
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:  # 1e400 as an int: OverflowError
            raise InputError(
                f"{where}: captured-kernel record is missing or has a malformed field ({exc}); re-capture it"
            ) from None


def _is_jit(dec: ast.expr) -> bool:
    """``@triton.jit``, ``@jit`` or ``@triton.jit(...)`` (the decorator Triton compiles a kernel from)."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(target, ast.Attribute) and target.attr == "jit") or (
        isinstance(target, ast.Name) and target.id == "jit")


@lru_cache(maxsize=512)  # keyed by the text itself; the tree is only read
def _module(source: str, name: str) -> ast.Module:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # odd literals in a hand-edited file: the text is data, not code
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise InputError(f"kernel source of {name} is not valid Python ({type(exc).__name__}: "
                         f"{getattr(exc, 'msg', exc)}); re-capture it with `workbench capture NAME`") from None


def _bound_names(stmt: ast.stmt) -> list[str]:
    """Names a module-level statement binds (Python binds the *last* binding of a name)."""
    match stmt:
        case ast.FunctionDef(name=n) | ast.AsyncFunctionDef(name=n) | ast.ClassDef(name=n):
            return [n]
        case ast.Import(names=names) | ast.ImportFrom(names=names):
            return [(a.asname or a.name).split(".")[0] for a in names]
    return [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


@lru_cache(maxsize=512)
def jit_function(source: str, name: str) -> ast.FunctionDef:
    """The one ``@triton.jit`` function of a kernel module, which must be named ``name``.

    Python binds the last ``def`` of a name and Triton compiles the jit-decorated one, so any ambiguity is
    an input error naming it: a second jit function, a jit function with another name, a second binding of
    ``name`` (another ``def``, an assignment, an import), or a nested definition. A bare ``def`` without
    decorators (rendered IR, hand-written text) is accepted when it is the module's only function."""
    tree = _module(source, name)
    every = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    jit = [n for n in every if not isinstance(n, ast.Lambda) and any(_is_jit(d) for d in n.decorator_list)]
    helpers = [f for f in jit if f.name != name]
    if helpers and len(helpers) == len(jit):
        raise InputError(f"kernel module's @triton.jit function is {helpers[0].name!r}, but the record names "
                         f"{name!r}; re-capture it (or fix the record's name)")
    # Inductor emits helper jit functions beside scan kernels (``_triton_helper_fn_add0`` for cumsum). They are
    # allowed as module-level definitions, each bound exactly once; the kernel is the one jit function with the
    # record's name, and the IR parser refuses any call to a helper (such kernels are out of class).
    for h in helpers:
        if h not in tree.body or len([s for s in tree.body for b in _bound_names(s) if b == h.name]) != 1:
            raise InputError(f"kernel module of {name}: helper @triton.jit function {h.name!r} is nested or bound "
                             "more than once; re-capture it")
    jit = [f for f in jit if f.name == name]
    if len(jit) > 1:
        raise InputError(f"kernel module of {name} has {len(jit)} @triton.jit functions named {name!r}; a record "
                         "holds exactly one kernel — re-capture it")
    if not jit:
        if len(every) != 1 or not isinstance(every[0], ast.FunctionDef):
            raise InputError(f"kernel module of {name} has no @triton.jit function and {len(every)} functions; "
                             "a record holds exactly one kernel — re-capture it")
        jit = every
    fn = jit[0]
    if fn.name != name:
        raise InputError(f"kernel module's @triton.jit function is {fn.name!r}, but the record names {name!r}; "
                         "re-capture it (or fix the record's name)")
    if fn not in tree.body:
        raise InputError(f"kernel {name} is not defined at module level; re-capture it")
    bindings = [s for s in tree.body for b in _bound_names(s) if b == name]
    if len(bindings) != 1:
        lines = ", ".join(str(s.lineno) for s in bindings)
        raise InputError(f"kernel module binds {name!r} {len(bindings)} times (lines {lines}); Python keeps the "
                         "last, a reader the first — exactly one definition is allowed; re-capture it")
    if len(every) != 1 + len(helpers):
        others = sorted({getattr(f, "name", "lambda") for f in every if f is not fn and f not in helpers})
        raise InputError(f"kernel module of {name} defines other functions ({', '.join(others)}); only "
                         "@triton.jit helpers may stand beside the kernel — re-capture it")
    return fn


PY_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def jit_helper_texts(source: str, name: str) -> tuple[tuple[str, str], ...]:
    """The module-level ``@triton.jit`` helpers beside kernel ``name`` (validated by :func:`jit_function`),
    each ``(name, text)`` with decorators dropped, in source order."""
    jit_function(source, name)
    tree = _module(source, name)
    lines = PY_LINE_BREAK.split(source)
    out = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name != name and any(_is_jit(d) for d in fn.decorator_list):
            out.append((fn.name, "\n".join(lines[fn.lineno - 1 : fn.end_lineno or fn.lineno]).rstrip() + "\n"))
    return tuple(out)


def jit_function_text(source: str, name: str) -> str:
    """The ``@triton.jit`` function ``name`` alone (decorators dropped), located with ``ast`` (see
    :func:`jit_function`), never by matching text."""
    fn = jit_function(source, name)
    # Python's own line breaks (\r\n, \r, \n), which ast's line numbers count; never str.splitlines(),
    # which also breaks at \f, \v, \x1c-\x1e, \x85, U+2028/9 and would shift the slice off the function
    lines = PY_LINE_BREAK.split(source)
    end = fn.end_lineno or fn.lineno
    return "\n".join(lines[fn.lineno - 1 : end]).rstrip() + "\n"


def source_hash(source: str, name: str) -> str:
    """SHA-256 of the jit function with the kernel's own name replaced, so the same body hashes the same
    whatever suffix Inductor numbered it with. (The IR's canonical hash, which also ignores temporaries'
    names, lives in ``workbench.kir``.)"""
    text = jit_function_text(source, name)
    text = re.sub(rf"\b{re.escape(name)}\b", "KERNEL", text)
    return hashlib.sha256(text.encode()).hexdigest()


def source_signature(source: str, name: str) -> dict[str, str] | None:
    got = _source_signature(source, name)
    return None if got is None else dict(got)


@lru_cache(maxsize=512)
def _source_signature(source: str, name: str) -> tuple[tuple[str, str], ...] | None:
    """The ``signature`` of ``triton_meta`` in the kernel's decorators (Inductor's heuristics decorator), read
    from the syntax tree as literals only; ``None`` when the source has no ``triton_meta``."""
    tree = _module(source, name)
    fn = jit_function(source, name)
    found = None
    for stmt in tree.body:
        decs = stmt.decorator_list if isinstance(stmt, ast.FunctionDef) else []
        for dec in decs:
            if not isinstance(dec, ast.Call):
                continue
            for kw in dec.keywords:
                if kw.arg != "triton_meta" or not isinstance(kw.value, ast.Dict):
                    continue
                if stmt.lineno != fn.lineno:
                    raise InputError(f"kernel module of {name}: triton_meta decorates {stmt.name}, not the kernel")
                for k, v in zip(kw.value.keys, kw.value.values):
                    if isinstance(k, ast.Constant) and k.value == "signature":
                        try:
                            sig = ast.literal_eval(v)  # literals only: never evaluates code
                        except (ValueError, TypeError, SyntaxError, RecursionError):
                            raise InputError(f"kernel {name}: triton_meta's signature is not a literal "
                                             "dictionary; re-capture it") from None
                        if not isinstance(sig, dict) or not all(
                                isinstance(a, str) and isinstance(b, str) for a, b in sig.items()):
                            raise InputError(f"kernel {name}: triton_meta's signature is not a str -> str "
                                             "dictionary; re-capture it")
                        if found is not None:
                            raise InputError(f"kernel {name}: two triton_meta signatures; re-capture it")
                        found = tuple(sig.items())
    return found


# Inductor's shape symbols (s27, u0, ps0, ...). Names with a leading underscore are reserved for the
# checker's auxiliary atoms (workbench.check.premises), so a record symbol can never collide with one.
SYMBOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
SIGNATURE_TYPE = re.compile(r"\*?(?:i1|i8|i16|i32|i64|u8|u16|u32|u64|fp8\w*|fp16|bf16|fp32|fp64)|constexpr")


def _check_field_types(k: CapturedKernel, at: str) -> None:
    def need(ok: bool, what: str, value: Any) -> None:
        if not ok:
            raise InputError(f"{at}: {what} is {value!r} ({type(value).__name__}); re-capture the kernel")

    for f in ("program", "name", "source", "grid_type", "index_dtype", "source_hash"):
        need(isinstance(getattr(k, f), str), f, getattr(k, f))
    need(isinstance(k.signature, dict), "signature", k.signature)
    need(k.phase in ("forward", "backward"), "phase (forward or backward)", k.phase)
    need(all(isinstance(g, str) for g in k.guards), "a guard", k.guards)
    need(isinstance(k.replacements, dict) and all(isinstance(a, str) and isinstance(b, str)
                                                  for a, b in k.replacements.items()), "replacements", k.replacements)
    for a in k.size_args:
        need(isinstance(a.name, str) and isinstance(a.expr, str) and isinstance(a.type, str), "a size argument", a)
    for n in k.numels:
        need(isinstance(n.name, str) and isinstance(n.expr, str) and (n.type is None or isinstance(n.type, str)),
             "an element count", n)
    names = [a.name for a in k.size_args] + [n.name for n in k.numels]
    need(len(set(names)) == len(names), "the size-argument and element-count names", names)


def validate(kernel: CapturedKernel, *, check_hash: bool = True, where: str = "") -> None:
    """Check that a record agrees with itself; raise :class:`InputError` naming the disagreement.

    * exactly one ``@triton.jit`` function, with the record's name (:func:`jit_function`);
    * the ``def``'s parameters are the record's ``signature`` keys (records store them sorted); the source's ``triton_meta``
      signature (when present) equals the record's;
    * every size argument's and element count's declared ``type`` is its signature entry;
    * signature types are Triton's spellings (``i64``, ``*bf16``, ``constexpr``, ...);
    * shape symbols are named like Inductor's (no leading underscore: that namespace is the checker's);
    * ``source_hash`` is the hash of the source (skipped for live records, which carry none).
    """
    at = where or f"record {getattr(kernel, 'program', '?')}/{getattr(kernel, 'name', '?')}"
    _check_field_types(kernel, at)
    try:
        fn = jit_function(kernel.source, kernel.name)
        meta = source_signature(kernel.source, kernel.name)
    except InputError as exc:
        raise InputError(f"{at}: {exc}") from None
    params = [a.arg for a in fn.args.args]
    if sorted(kernel.signature) != sorted(params) or len(set(params)) != len(params):
        raise InputError(f"{at}: the kernel's parameters {params} are not the record's signature "
                         f"{list(kernel.signature)}; re-capture it")
    for arg, typ in kernel.signature.items():
        if not isinstance(typ, str) or not SIGNATURE_TYPE.fullmatch(typ):
            raise InputError(f"{at}: signature type {typ!r} of {arg} is not a Triton type; re-capture it")
    if meta is not None and meta != dict(kernel.signature):
        diff = sorted(k for k in set(meta) | set(kernel.signature) if meta.get(k) != kernel.signature.get(k))
        raise InputError(f"{at}: the source's triton_meta signature and the record's disagree on "
                         + ", ".join(f"{k} ({meta.get(k)} vs {kernel.signature.get(k)})" for k in diff)
                         + "; re-capture it")
    listed = {a.name for a in kernel.size_args} | {n.name for n in kernel.numels}
    for arg, typ in kernel.signature.items():
        # every size argument (ks0) and element count (xnumel) the kernel takes must have its expression
        if (re.fullmatch(r"ks\d+", arg) or (re.fullmatch(r"[xyzr]\d*_?numel", arg) and typ != "constexpr")) \
                and arg not in listed:
            raise InputError(f"{at}: the kernel takes {arg} ({typ}) but the record gives no expression for it "
                             "(size_args / numels); re-capture it")
    for a in kernel.size_args:
        if kernel.signature.get(a.name) != a.type:
            raise InputError(f"{at}: size argument {a.name} is declared {a.type!r} but the signature says "
                             f"{kernel.signature.get(a.name)!r}; re-capture it")
    for n in kernel.numels:
        if n.name in kernel.signature and kernel.signature[n.name] != (n.type or "constexpr") and not (
                n.type is None and kernel.signature[n.name] == "constexpr"):
            raise InputError(f"{at}: element count {n.name} is declared {n.type!r} but the signature says "
                             f"{kernel.signature[n.name]!r}; re-capture it")
    for s in kernel.symbols:
        if not isinstance(s.name, str) or not SYMBOL_NAME.fullmatch(s.name):
            raise InputError(f"{at}: shape symbol name {s.name!r} is not an Inductor symbol (letters then "
                             "digits; a leading underscore is reserved); re-capture it")
        for v, what in ((s.lower, "lower"), (s.upper, "upper")):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise InputError(f"{at}: {what} bound of {s.name} is {v!r}, not an integer; re-capture it")
    if check_hash and kernel.source_hash:
        got = source_hash(kernel.source, kernel.name)
        if got != kernel.source_hash:
            raise InputError(f"{at}: source_hash {kernel.source_hash[:12]}... does not match the source "
                             f"({got[:12]}...): the kernel text was edited after capture; re-capture it")
    elif check_hash:
        raise InputError(f"{at}: source_hash is empty; re-capture it")


def file_stem(kernel: CapturedKernel) -> str:
    """The file name (without suffix) a record is saved under: the kernel's name, and ``<name>__backward`` for
    a training step's backward kernel (Inductor numbers each graph's kernels from 0, so a backward kernel may
    share a forward kernel's name)."""
    return kernel.name if kernel.phase == "forward" else f"{kernel.name}__{kernel.phase}"


def save(kernel: CapturedKernel, out_dir: str | Path) -> Path:
    """Write ``<name>.json`` and ``<name>.py`` atomically (a temp file renamed into place); return the JSON path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = file_stem(kernel)
    json_path = out / f"{stem}.json"
    _atomic_write(out / f"{stem}.py", kernel.source)
    _atomic_write(json_path, json.dumps(kernel.to_json(), indent=1, sort_keys=True) + "\n")
    return json_path


def load(path: str | Path) -> CapturedKernel:
    from workbench.jsonfile import read_json

    try:
        data = read_json(path, InputError, "kernel record", "capture it (again) with `workbench capture NAME`")
    except UnicodeDecodeError:
        raise InputError(f"kernel record {str(path)!r} is not text (a binary file?); pass a captured "
                         "KERNEL.json written by `workbench capture NAME`") from None
    kernel = CapturedKernel.from_json(data, where=str(path))
    validate(kernel, where=str(path))
    return kernel


def load_dir(directory: str | Path) -> list[CapturedKernel]:
    return [load(p) for p in sorted(Path(directory).glob("*.json"))]


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
