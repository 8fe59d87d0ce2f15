"""Static machine-code evidence for narrowing: compile the wide and the narrowed kernel, count what changed.

Stage: bench (static). No GPU: ``triton.compile(ASTSource(...), target=GPUTarget("cuda", cc, 32))`` produces
PTX and a cubin on a CPU-only machine, and the ``cuobjdump`` shipped in the triton wheel
(``triton/backends/nvidia/bin``) disassembles it. For every kernel the checker certified
(``data/check/results.json``, observable mode) and every architecture asked for, :func:`measure` compiles

* ``wide``: the emitted kernel as Inductor compiles it (variant ``B0`` of :mod:`workbench.rule.variants`),
* ``narrowed``: the certified size arguments declared ``i32`` (variant ``N1``, exactly what
  ``workbench.rule.narrowing()`` does to a kernel that binds; refused when the certificate narrows a
  different set of arguments than ``N1`` would),

* ``partial``: variant ``P`` (:mod:`workbench.rule.partial`: every int64 ``//`` and ``%`` on int32 operands,
  size arguments still ``i64``), compiled only where ``workbench check --mode partial`` certifies the kernel
  (the row's ``partial`` is empty otherwise, with the reason in ``partial_note``),

with Inductor's own pointer-alignment hints (the ``tt.divisibility`` entries of the record's
``triton_meta``), ``XBLOCK`` and ``num_warps`` as given, and records per variant: PTX 64-bit and 32-bit
``div``/``rem`` instructions, SASS instruction count (``NOP`` padding excluded), SASS ``CALL`` sites (the
64-bit division subroutine; one per 64-bit ``div``/``rem`` whose operands the fast 32-bit path cannot take),
SASS 32-bit and 64-bit reciprocal division sequences (``I2F.*.RP``), code bytes (16 per SASS instruction
slot), cubin bytes and registers (``cuobjdump -res-usage``).

Limits: this is **static** evidence, not timing. Counts are of one compilation per (kernel, arch, XBLOCK,
num_warps): Inductor's autotuner may choose other configurations on a GPU; ``triton`` here is the project's
pinned version (3.7.1), not the reports' 3.8.0. Where a count depends on LLVM's simplification (a ``div`` and
``rem`` by the same divisor share one sequence), it is what the toolchain emitted, not one per source ``//``.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from workbench.errors import InputError, ToolMissingError, UnsupportedError, UsageError

ARCHES: dict[str, int] = {"sm_80": 80, "sm_89": 89, "sm_90": 90}
DEFAULT_XBLOCK = 1024
DEFAULT_NUM_WARPS = 4
LABEL = "static, not timing: machine code compiled on a CPU machine with triton's own ptxas; no kernel ran"

_PTX_DIV64 = re.compile(r"\b(?:div|rem)(?:\.full)?\.[su]64\b")
_PTX_DIV32 = re.compile(r"\b(?:div|rem)(?:\.full)?\.[su]32\b")
_SASS_INSN = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
_SASS_LINE = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")
_DIV64_OPS = ("I2F.U64.RP", "I2F.S64.RP", "I2F.F64.U64.RP")
_DIVISIBILITY = re.compile(r"\((\d+),\): \[\['tt\.divisibility', 16\]\]")
_REG = re.compile(r"Function ([^:\s]+):\s*\n\s*REG:(\d+)")


class StaticError(UnsupportedError):
    """A kernel cannot be compiled statically (non-1-D constexprs, a narrowed set N1 does not match)."""


@dataclass(frozen=True, slots=True)
class Counts:
    """What one compiled variant contains."""

    ptx_div_rem_64: int
    ptx_div_rem_32: int
    sass_instructions: int
    sass_calls: int  # CALL sites into the 64-bit division slow path (other CALLs not counted)
    sass_div32_sequences: int  # I2F.U32.RP / I2F.RP: a 32-bit reciprocal division set-up
    sass_div64_sequences: int  # I2F.U64.RP / I2F.S64.RP: inside the 64-bit division subroutine
    code_bytes: int  # 16 bytes per SASS instruction slot, NOP padding included
    cubin_bytes: int
    registers: int


@dataclass(frozen=True, slots=True)
class Row:
    program: str
    kernel: str
    arch: str
    xblock: int  # the 1-D block; a 2-D kernel compiles with a tile of as many elements (``blocks``)
    num_warps: int
    narrowed_args: tuple[str, ...]
    wide: Counts
    narrowed: Counts
    blocks: tuple[tuple[str, int], ...] = ()
    partial: Counts | None = None  # variant P, where the checker certifies it (report 2's open question)
    partial_note: str = ""  # why P is missing, when it is

    def change_p(self, field: str) -> float | None:
        """Relative change P vs wide; None without P or when the wide count is 0."""
        a = getattr(self.wide, field)
        return None if self.partial is None or a == 0 else (getattr(self.partial, field) - a) / a

    def change(self, field: str) -> float | None:
        """Relative change narrowed vs wide (-0.4: 40% smaller); None when the wide count is 0."""
        a, b = getattr(self.wide, field), getattr(self.narrowed, field)
        return None if a == 0 else (b - a) / a

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Row:
        """A row back from ``static.json`` (to redraw figures and tables without recompiling)."""
        try:
            return cls(d["program"], d["kernel"], d["arch"], d["xblock"], d["num_warps"], tuple(d["narrowed_args"]),
                       Counts(**d["wide"]), Counts(**d["narrowed"]), tuple(d.get("blocks", {}).items()),
                       Counts(**d["partial"]) if d.get("partial") else None, d.get("partial_note", ""))
        except (KeyError, TypeError) as exc:
            raise InputError(f"static.json row {d.get('program')!r}: malformed ({exc}); regenerate with "
                             "`workbench bench static --all --out data/static`") from None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["narrowed_args"] = list(self.narrowed_args)
        d["blocks"] = dict(self.blocks)
        return d


# ------------------------------------------------------------------------------------------------ tools
def tool(name: str) -> Path:
    """A CUDA binary shipped inside the triton wheel (``cuobjdump``, ``nvdisasm``, ``ptxas``)."""
    import triton

    p = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name
    if not p.is_file():
        raise ToolMissingError(f"{name} not found at {p}; reinstall the pinned triton wheel (it ships {name})")
    return p


def parse_arch(text: str) -> tuple[str, ...]:
    names = tuple(a.strip() for a in text.split(",") if a.strip())
    bad = [a for a in names if a not in ARCHES]
    if bad or not names:
        raise UsageError(f"--arch {text!r}: unknown architecture(s) {bad}; choose from {', '.join(ARCHES)}")
    return names


# ------------------------------------------------------------------------------------------------ corpus
def certified(results: str | Path | None = None) -> list[tuple[str, str, tuple[str, ...]]]:
    """(program, kernel, narrowed size arguments) for every kernel the checker certified in observable mode."""
    from workbench.jsonfile import read_json
    from workbench.paths import DATA

    path = Path(results) if results else DATA / "check" / "results.json"
    data = read_json(path, InputError, "checker results", "regenerate it with `workbench check --all --out data/check`")
    out = []
    for i, k in enumerate(data.get("kernels", [])):
        obs = k.get("observable") or {}
        cert = obs.get("certificate")
        if cert and cert.get("verdict") == "certified":
            out.append((k["program"], k["kernel"], tuple(cert.get("narrowed", ()))))
        elif not isinstance(k, dict) or "program" not in k:
            raise InputError(f"{path}: kernels[{i}] has no 'program'; regenerate it with "
                             "`workbench check --all --out data/check`")
    return out


def select(names: Sequence[str], results: str | Path | None = None) -> list[tuple[str, str, tuple[str, ...]]]:
    """The certified kernels of the named programs (``program`` or ``program/kernel``); all when empty."""
    every = certified(results)
    if not names:
        return every
    out = []
    for n in names:
        prog, _, kern = n.partition("/")
        hit = [c for c in every if c[0] == prog and (not kern or c[1] == kern)]
        if not hit:
            raise UsageError(f"{n!r} is not a certified corpus kernel; `workbench bench static --all` lists them")
        out += hit
    return out


def record_of(program: str, kernel: str) -> Any:
    from workbench.capture.record import load
    from workbench.paths import KERNELS

    return load(KERNELS / program / f"{kernel}.json")


# ----------------------------------------------------------------------------------------------- compile
def fixed_numels(record: Any) -> dict[str, int]:
    """Element counts a one-row kernel takes as constexprs (``xnumel`` with the recorded value ``1``)."""
    return {n.name: int(n.expr) for n in record.numels
            if record.signature.get(n.name) == "constexpr" and str(n.expr).isdigit()}


def blocks_for(constexprs: Sequence[str], xblock: int, kernel: str) -> dict[str, int]:
    """Block sizes to compile with: 1-D kernels ``XBLOCK = xblock``; 2-D (``YBLOCK, XBLOCK``) kernels a square
    tile with the same number of elements per program (``xblock = 1024`` -> 32 x 32); reductions (``XBLOCK,
    R0_BLOCK``) the same square tile of x rows by r positions (a static choice; Inductor's autotuner picks per
    launch)."""
    match tuple(sorted(constexprs)):
        case ("XBLOCK",):
            return {"XBLOCK": xblock}
        case ("XBLOCK", "YBLOCK"):
            side = 1 << ((xblock.bit_length() - 1) // 2)
            return {"YBLOCK": side, "XBLOCK": xblock // side}
        case ("R0_BLOCK", "XBLOCK"):
            side = 1 << ((xblock.bit_length() - 1) // 2)
            return {"XBLOCK": side, "R0_BLOCK": xblock // side}
        case other:
            raise StaticError(f"kernel {kernel}: constexprs {list(other)}; only XBLOCK, YBLOCK/XBLOCK and XBLOCK/R0_BLOCK kernels compile here")


def _compile(variant: Any, record: Any, cc: int, xblock: int, num_warps: int) -> dict[str, Any]:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from workbench.rule import variants as V

    fixed = fixed_numels(record)
    blocks = blocks_for([c for c in variant.constexprs if c not in fixed], xblock, f"{record.program}/{record.name}")
    fn = V.load(variant)
    sig = {p: variant.types.get(p) or record.signature[p] for p in variant.params}
    blocks = {**blocks, **{c: v for c, v in fixed.items() if c in variant.constexprs}}
    sig.update({c: "constexpr" for c in blocks})
    aligned = sorted({int(i) for i in _DIVISIBILITY.findall(record.source)})
    attrs = {(i,): [["tt.divisibility", 16]] for i in aligned}
    src = ASTSource(fn, sig, constexprs=blocks, attrs=attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", cc, 32), options={"num_warps": num_warps})
    return {"ptx": compiled.asm["ptx"], "cubin": compiled.asm["cubin"], "name": variant.fn_name}


def count(ptx: str, cubin: bytes, work: Path, name: str) -> Counts:
    """Counts of one compiled variant (the cubin is written to ``work`` for cuobjdump)."""
    path = work / f"{name}.cubin"
    path.write_bytes(cubin)
    sass = _run([str(tool("cuobjdump")), "-sass", str(path)])
    res = _run([str(tool("cuobjdump")), "-res-usage", str(path)])
    ops = [m.group(1) for ln in sass.splitlines() if (m := _SASS_INSN.match(ln))]
    regs = {f: int(r) for f, r in _REG.findall(res)}
    if not ops or not regs:
        raise ToolMissingError(f"cuobjdump printed no SASS or no resource usage for {path}; is the cubin valid?")
    return Counts(
        ptx_div_rem_64=len(_PTX_DIV64.findall(ptx)),
        ptx_div_rem_32=len(_PTX_DIV32.findall(ptx)),
        sass_instructions=sum(1 for o in ops if o != "NOP"),
        sass_calls=division_calls(sass),
        sass_div32_sequences=sum(1 for o in ops if o in ("I2F.U32.RP", "I2F.RP", "I2F.S32.RP")),
        sass_div64_sequences=sum(1 for o in ops if o in ("I2F.U64.RP", "I2F.S64.RP", "I2F.F64.U64.RP")),
        code_bytes=16 * len(ops),
        cubin_bytes=len(cubin),
        registers=max(regs.values()),
    )


def division_calls(sass: str) -> int:
    """CALL sites whose target subroutine (the instructions from the target address to its first ``RET``)
    contains a 64-bit reciprocal division set-up: the 64-bit ``//``/``%`` slow path. Other CALLs (a float
    division's or square root's slow path, which reduction kernels have) are not counted."""
    lines = [(int(m.group(1), 16), m.group(2), m.group(3)) for ln in sass.splitlines() if (m := _SASS_LINE.match(ln))]
    at = {addr: i for i, (addr, _, _) in enumerate(lines)}
    n = 0
    for _, op, arg in lines:
        if not op.startswith("CALL"):
            continue
        target = re.search(r"0x([0-9a-f]+)", arg)
        i = at.get(int(target.group(1), 16)) if target else None
        body = []
        while i is not None and i < len(lines) and not lines[i][1].startswith("RET"):
            body.append(lines[i][1])
            i += 1
        n += any(o in _DIV64_OPS for o in body)
    return n


def _run(cmd: list[str]) -> str:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise ToolMissingError(f"{Path(cmd[0]).name} failed (exit {p.returncode}): {p.stderr.strip()[:300]}")
    return p.stdout


def measure(program: str, kernel: str, narrowed_args: Sequence[str], arch: str, work: Path,
            xblock: int = DEFAULT_XBLOCK, num_warps: int = DEFAULT_NUM_WARPS, record: Any = None,
            wide_variant: str = "B0", partial: bool = True, known: Row | None = None) -> Row:
    """Compile ``wide_variant`` (default B0) and N1 of one certified kernel for ``arch``, and P where the
    checker certifies partial mode for it (``partial=False``: not at all); count each. ``known``: a row of an
    earlier table for the same kernel, arch, XBLOCK and num_warps whose wide and N1 counts are kept (only
    P is compiled; ``bench static --reuse``)."""
    from workbench.rule import variants as V

    record = record or record_of(program, kernel)
    sizes = tuple(a.name for a in record.size_args)
    if set(narrowed_args) != set(sizes):
        raise StaticError(
            f"kernel {program}/{kernel}: the certificate narrows {sorted(narrowed_args)} but variant N1 narrows "
            f"every size argument {sorted(sizes)}; a partial narrowing variant is needed to compile it"
        )
    out = {}
    for role, vname in (("wide", wide_variant), ("narrowed", "N1")):
        v = V.build(record, vname)
        if known is not None:
            out[role] = getattr(known, role)
            continue
        c = _compile(v, record, ARCHES[arch], xblock, num_warps)
        out[role] = count(c["ptx"], c["cubin"], work, f"{program}-{c['name']}-{arch}")
    note = "not asked for"
    if partial:
        note = _partial_certified(record)
        if not note:
            c = _compile(V.build(record, "P"), record, ARCHES[arch], xblock, num_warps)
            out["partial"] = count(c["ptx"], c["cubin"], work, f"{program}-{c['name']}-{arch}")
    fixed = fixed_numels(record)
    blocks = tuple(blocks_for([c for c in v.constexprs if c not in fixed], xblock, f"{program}/{kernel}").items())
    return Row(program, kernel, arch, xblock, num_warps, tuple(narrowed_args), out["wide"], out["narrowed"], blocks,
               out.get("partial"), "" if "partial" in out else note)


_PARTIAL: dict[str, str] = {}


def _partial_certified(record: Any) -> str:
    """'' when ``workbench check --mode partial`` certifies the kernel, else the checker's reason (cached per
    kernel source: one check serves every architecture)."""
    from workbench.check.api import check_kernel

    key = record.program + "/" + record.name + ":" + record.source_hash
    if key not in _PARTIAL:
        v = check_kernel(record, "partial", counterexample=False)
        _PARTIAL[key] = "" if v.certified else f"P not certified ({v.verdict}): {v.reason}"
    return _PARTIAL[key]


@dataclass(frozen=True, slots=True)
class Skipped:
    program: str
    kernel: str
    arch: str
    reason: str


def measure_all(kernels: Sequence[tuple[str, str, tuple[str, ...]]], arches: Sequence[str], work: Path,
                progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None, reuse: Sequence[Row] = (),
                **kw: Any) -> tuple[list[Row], list[Skipped]]:
    """Every (kernel, arch); a kernel the static compile cannot handle is listed with its reason, not dropped.
    ``reuse``: rows of an earlier table (same toolchain) whose wide and N1 counts are kept, matched by
    program, kernel, arch, XBLOCK, num_warps and narrowed arguments."""
    jobs = [(k, a) for k in kernels for a in arches]
    old = {(r.program, r.kernel, r.arch, r.xblock, r.num_warps, r.narrowed_args): r for r in reuse}
    xb, nw = kw.get("xblock", DEFAULT_XBLOCK), kw.get("num_warps", DEFAULT_NUM_WARPS)
    rows, skipped = [], []
    for (p, k, n), a in (progress(jobs) if progress else jobs):
        try:
            rows.append(measure(p, k, n, a, work, known=old.get((p, k, a, xb, nw, tuple(n))), **kw))
        except StaticError as exc:
            skipped.append(Skipped(p, k, a, str(exc)))
    return rows, skipped
