"""The machine code of a kernel's variants, instruction by instruction, attributed to source lines.

Stage: bench (static). What ``bench static`` counts, shown: the wide kernel **W** (variant ``B0``), **N1**
(certified size arguments declared ``i32``) and **P** (``//`` and ``%`` in int32 where ``check --mode
partial`` certifies it) are compiled exactly as :mod:`workbench.bench.static` compiles them
(``triton.compile`` with ``GPUTarget("cuda", cc, 32)``, Inductor's alignment hints, ``XBLOCK`` 1024, 4 warps;
no GPU needed). PTX is Triton's; SASS is the cubin disassembled by the ``nvdisasm`` shipped in the triton
wheel, with its line table (``-g``).

Alignment: every instruction carries the line of the variant's kernel function that produced it (line 1 is
the ``def``, as in ``workbench show --source`` and KernelView): PTX by its ``.loc`` directives, SASS by
nvdisasm's ``//## File ..., line N`` comments. Instructions whose line lies outside the function (the
division subroutines' bodies, code without line info) are line 0, "no line of the kernel".

64-bit division sites: in PTX each ``div``/``rem`` on ``.s64``/``.u64``; in SASS each ``CALL`` into a
subroutine that sets up a 64-bit reciprocal (``I2F.U64.RP``/``I2F.S64.RP``): the same rule as
:func:`workbench.bench.static.division_calls`, so the counts agree with ``data/static/static.json``.

Limits: one compilation per (kernel, variant, arch); Inductor's autotuner may pick other block sizes on a
GPU. Line attribution is LLVM's and ptxas's: an instruction shared by several source lines (CSE, hoisting)
is shown once, under the line the toolchain recorded.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.bench import static
from workbench.errors import UsageError

# The issue's names for the three variants -> workbench.rule.variants' names.
VARIANTS: dict[str, str] = {"W": "B0", "N1": "N1", "P": "P"}
ASMS = ("ptx", "sass")

_PTX_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+")
_PTX_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
_PTX_DIV64 = re.compile(r"^\s*(?:@%p\d+\s+)?(?:div|rem)(?:\.full)?\.[su]64\b")
_SASS_FILE_LINE = re.compile(r'^\s*//## File "([^"]+)", line (\d+)')
_SASS_LABEL = re.compile(r"^([^\s/][^\s:]*):$")
_SASS_CALL = re.compile(r"\bCALL\.[A-Z.]*\s+`\(([^)]+)\)")


@dataclass(frozen=True, slots=True)
class Instruction:
    text: str
    line: int  # line of the kernel function (1 = def); 0 = no line of the kernel
    division: bool = False  # a 64-bit division site


@dataclass(frozen=True, slots=True)
class Listing:
    """One variant's PTX and SASS, each instruction with its source line."""

    program: str
    kernel: str
    variant: str  # "W", "N1" or "P"
    arch: str
    source: tuple[str, ...]  # the variant's kernel function, line 1 = def
    ptx: tuple[Instruction, ...]
    sass: tuple[Instruction, ...]

    def code(self, asm: str) -> tuple[Instruction, ...]:
        if asm not in ASMS:
            raise UsageError(f"machine code {asm!r}: choose ptx or sass")
        return self.ptx if asm == "ptx" else self.sass

    def divisions(self, asm: str) -> int:
        """64-bit division sites: PTX div/rem.64 instructions, or SASS CALLs into the 64-bit subroutine."""
        return sum(i.division for i in self.code(asm))

    def by_line(self, asm: str) -> list[tuple[int, str, tuple[Instruction, ...]]]:
        """``(line, source text, instructions)`` for every source line (in order, with or without code), then
        line 0 (no line of the kernel) when it has instructions."""
        groups: dict[int, list[Instruction]] = {}
        for ins in self.code(asm):
            groups.setdefault(ins.line, []).append(ins)
        rows = [(n, text, tuple(groups.get(n, ()))) for n, text in enumerate(self.source, start=1)]
        if groups.get(0):
            rows.append((0, "(no line of the kernel: prologue, division subroutines)", tuple(groups[0])))
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"program": self.program, "kernel": self.kernel, "variant": self.variant, "arch": self.arch,
                "source": list(self.source),
                **{asm: [[i.text, i.line, i.division] for i in self.code(asm)] for asm in ASMS}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Listing:
        return cls(d["program"], d["kernel"], d["variant"], d["arch"], tuple(d["source"]),
                   *(tuple(Instruction(t, int(n), bool(v)) for t, n, v in d[asm]) for asm in ASMS))


def function_lines(source: str, fn_name: str) -> tuple[int, tuple[str, ...]]:
    """(1-based line of ``def fn_name`` in the module text, the function's lines from the def on)."""
    lines = source.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith(f"def {fn_name}(")), None)
    if start is None:
        raise static.StaticError(f"variant text has no `def {fn_name}(`; rebuild it with workbench.rule.variants")
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1].isspace()):
        end += 1
    body = lines[start:end]
    while body and not body[-1].strip():
        body.pop()
    return start + 1, tuple(body)


def _relative(line: int, def_line: int, count: int) -> int:
    n = line - def_line + 1
    return n if 1 <= n <= count else 0


def parse_ptx(ptx: str, path: str, def_line: int, count: int) -> tuple[Instruction, ...]:
    """PTX instructions with the kernel line of the ``.loc`` before them (directives and labels dropped)."""
    files = {m.group(1): m.group(2) for ln in ptx.splitlines() if (m := _PTX_FILE.match(ln))}
    ours = {k for k, v in files.items() if Path(v).name == Path(path).name}
    out, line = [], 0
    for raw in ptx.splitlines():
        if m := _PTX_LOC.match(raw):
            line = _relative(int(m.group(2)), def_line, count) if m.group(1) in ours else 0
            continue
        text = raw.strip()
        if not text or text.startswith(("//", ".", "{", "}", "$")) or text.endswith(":") or text.startswith(")"):
            continue
        out.append(Instruction(" ".join(text.split()), line, bool(_PTX_DIV64.match(raw))))
    return tuple(out)


def parse_sass(sass: str, path: str, def_line: int, count: int) -> tuple[Instruction, ...]:
    """nvdisasm ``-g`` output: instructions with their kernel line; CALLs into a 64-bit division subroutine
    marked (the subroutine's body, from its label to the first ``RET``, sets up a 64-bit reciprocal)."""
    rows: list[tuple[str, int, str]] = []  # (text, line, opcode)
    labels: dict[str, int] = {}
    line = 0
    for raw in sass.splitlines():
        if m := _SASS_FILE_LINE.match(raw):
            line = _relative(int(m.group(2)), def_line, count) if Path(m.group(1)).name == Path(path).name else 0
            continue
        if m := static._SASS_LINE.match(raw):
            rows.append((f"/*{m.group(1)}*/ {m.group(2)} {m.group(3).strip()}".rstrip(), line, m.group(2)))
            continue
        if m := _SASS_LABEL.match(raw.strip()):  # `.L_x_1:`, `$__internal_0_$__cuda_sm20_div_s64:`
            labels[m.group(1)] = len(rows)
            if m.group(1).startswith("$__internal"):  # a subroutine: no kernel line until nvdisasm names one
                line = 0

    def is_div64(label: str) -> bool:
        i = labels.get(label)
        while i is not None and i < len(rows) and not rows[i][2].startswith("RET"):
            if rows[i][2] in static._DIV64_OPS:
                return True
            i += 1
        return False

    out = []
    for text, ln, op in rows:
        target = _SASS_CALL.search(text) if op.startswith("CALL") else None
        out.append(Instruction(text, ln, bool(target) and is_div64(target.group(1))))
    return tuple(out)


def _cache_key(variant: Any, arch: str, xblock: int, num_warps: int) -> str:
    import triton

    return f"{variant.digest}-{arch}-x{xblock}-w{num_warps}-triton{triton.__version__}"


def listing(record: Any, variant: str, arch: str = "sm_89", xblock: int = static.DEFAULT_XBLOCK,
            num_warps: int = static.DEFAULT_NUM_WARPS, cache_dir: str | Path | None = None) -> Listing:
    """Compile ``variant`` (W, N1 or P) of ``record`` for ``arch`` as ``bench static`` does and attribute its
    PTX and SASS to the kernel's lines. ``cache_dir``: listings are kept there as JSON, keyed by the variant's
    text, arch, block, warps and the triton version (a second look is instant). P is refused by name where
    ``check --mode partial`` does not certify the kernel (``bench static`` does not compile it either)."""
    from workbench.rule import variants as V

    if variant not in VARIANTS:
        raise UsageError(f"variant {variant!r}: choose from {', '.join(VARIANTS)} (W is the wide kernel B0)")
    if arch not in static.ARCHES:
        raise UsageError(f"--arch {arch!r}: choose from {', '.join(static.ARCHES)}")
    if variant == "P" and (why := static._partial_certified(record)):
        raise static.StaticError(f"{record.program}/{record.name}: no P listing: {why}")
    v = V.build(record, VARIANTS[variant])
    cached = Path(cache_dir) / f"{_cache_key(v, arch, xblock, num_warps)}.json" if cache_dir else None
    if cached is not None and cached.is_file():
        return Listing.from_json(json.loads(cached.read_text()))
    c = static._compile(v, record, static.ARCHES[arch], xblock, num_warps)
    path = str(V.load(v).fn.__code__.co_filename)
    def_line, source = function_lines(v.source, v.fn_name)
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / f"{v.fn_name}.cubin"
        cubin.write_bytes(c["cubin"])
        p = subprocess.run([str(static.tool("nvdisasm")), "-g", "-c", str(cubin)], capture_output=True, text=True,
                           timeout=120)
    if p.returncode != 0 or "/*0000*/" not in p.stdout:
        raise static.ToolMissingError(f"nvdisasm failed on {record.program}/{record.name} {variant} (exit "
                                      f"{p.returncode}): {p.stderr.strip()[:300]}")
    out = Listing(record.program, record.name, variant, arch, source,
                  parse_ptx(c["ptx"], path, def_line, len(source)),
                  parse_sass(p.stdout, path, def_line, len(source)))
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp_path = cached.with_suffix(".tmp")
        tmp_path.write_text(json.dumps(out.to_json()))
        tmp_path.replace(cached)
    return out


def text(listings: Iterable[Listing], asm: str) -> str:
    """The listings as text, source line by source line (``workbench show --ptx|--sass``); a 64-bit division
    site is marked ``>>``."""
    out = []
    for lst in listings:
        code = lst.code(asm)
        out.append(f"== {lst.program}/{lst.kernel} {lst.variant} ({VARIANTS[lst.variant]}), {asm.upper()} for "
                   f"{lst.arch}: {len(code)} instructions, {lst.divisions(asm)} 64-bit division "
                   f"{'CALL sites' if asm == 'sass' else 'div/rem instructions'}")
        for n, src, ins in lst.by_line(asm):
            if not ins and n:
                out.append(f"{n:4d} | {src}")
                continue
            out.append(f"{n:4d} | {src}" if n else f"   - | {src}")
            out += [f"        {'>>' if i.division else '  '} {i.text}" for i in ins]
        out.append("")
    return "\n".join(out)


def show(records: Iterable[Any], asm: str, variants: str = "W,N1,P", arch: str = "sm_89",
         workspace: str | Path | None = None) -> tuple[list[Listing], list[str]]:
    """``workbench show --ptx|--sass``: the listings of every record's variants (cached in the workspace's
    ``asm/``), and one line per variant that could not be listed (P where partial mode is not certified, a
    kernel ``bench static`` cannot compile), naming why."""
    from workbench.errors import WorkbenchError
    from workbench.workspace import subdir

    names = [v.strip() for v in variants.split(",") if v.strip()]
    bad = [v for v in names if v not in VARIANTS]
    if bad or not names:
        raise UsageError(f"--variant {variants!r}: unknown {bad}; choose from {', '.join(VARIANTS)} (comma-separated)")
    if asm not in ASMS:
        raise UsageError(f"machine code {asm!r}: choose ptx or sass")
    if arch not in static.ARCHES:
        raise UsageError(f"--arch {arch!r}: choose from {', '.join(static.ARCHES)}")
    cache = subdir("asm", workspace)
    done, missing = [], []
    for rec in records:
        for v in names:
            try:
                done.append(listing(rec, v, arch, cache_dir=cache))
            except WorkbenchError as exc:
                missing.append(f"{rec.program}/{rec.name} {v}: not listed: {exc}")
    return done, missing
