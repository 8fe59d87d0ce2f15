"""Captured kernels as data: what Inductor emitted and the symbolic facts it emitted them under.

A :class:`CapturedKernel` is plain data (strings for symbolic expressions, parsed with sympy on demand) so it
saves as JSON beside the kernel's ``.py`` source under ``data/kernels/<program>/`` and loads back unchanged.
Nothing here touches torch: records can be read on machines without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
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

    # -- views ------------------------------------------------------------------------------------------
    @property
    def jit_source(self) -> str:
        """The ``@triton.jit`` function alone (decorators of Inductor's heuristics dropped)."""
        return jit_function_text(self.source, self.name)

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
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(
                f"{where}: captured-kernel record is missing or has a malformed field ({exc}); re-capture it"
            ) from None


def jit_function_text(source: str, name: str) -> str:
    """Extract ``def <name>(...)`` and its body from a kernel module's text."""
    lines = source.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith(f"def {name}(")), None)
    if start is None:
        raise InputError(f"kernel source has no `def {name}(`; is this the module Inductor emitted for {name}?")
    end = start + 1
    while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
        end += 1
    return "\n".join(lines[start:end]).rstrip() + "\n"


def source_hash(source: str, name: str) -> str:
    """SHA-256 of the jit function with the kernel's own name replaced, so the same body hashes the same
    whatever suffix Inductor numbered it with. (The IR's canonical hash, which also ignores temporaries'
    names, lives in ``workbench.kir``.)"""
    text = jit_function_text(source, name)
    text = re.sub(rf"\b{re.escape(name)}\b", "KERNEL", text)
    return hashlib.sha256(text.encode()).hexdigest()


def save(kernel: CapturedKernel, out_dir: str | Path) -> Path:
    """Write ``<name>.json`` and ``<name>.py`` atomically (a temp file renamed into place); return the JSON path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / f"{kernel.name}.json"
    _atomic_write(out / f"{kernel.name}.py", kernel.source)
    _atomic_write(json_path, json.dumps(kernel.to_json(), indent=1, sort_keys=True) + "\n")
    return json_path


def load(path: str | Path) -> CapturedKernel:
    from workbench.jsonfile import read_json

    data = read_json(path, InputError, "kernel record", "capture it (again) with `workbench capture NAME`")
    return CapturedKernel.from_json(data, where=str(path))


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
