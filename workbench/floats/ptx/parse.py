"""Parse nvcc's PTX for one ``.entry`` into instructions with typed operands (stage: floats/ptx).

Accepted: the module header (``.version``, ``.target``, ``.address_size``), one or more ``.entry``
kernels (pick one by name), ``.reg`` declarations, labels, and instructions ``[@[!]%p] opcode.mod... ops;``.
Operands: registers (``%r1``), special registers (``%tid.x``, ``%ctaid.x``, ``%ntid.x``, ``%nctaid.x``),
integer immediates (decimal or ``0x``), float immediates (``0fXXXXXXXX`` binary32 bits, ``0dXXXXXXXXXXXXXXXX``
binary64 bits; PTX ISA 4.5 "Constants"), addresses ``[reg+imm]`` / ``[param]``, vector braces ``{a, b}``, and
labels. Refused by name: ``.shared``/``.local``/``.global`` variables, ``.func`` definitions (nvcc inlined
nothing), ``.pragma`` other than ``"nounroll"`` (a loop-unrolling hint without semantics: skipped); the
executor refuses instructions it does not model.

Limits: no ``.extern``, no textual ``.macro``/``.include``; block scoping ``{ }`` inside a body is refused.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from workbench.errors import InputError, UnsupportedError


class PtxParseError(InputError):
    """The PTX text does not have the shape nvcc emits for a kernel."""


class PtxUnsupportedError(UnsupportedError):
    """The PTX uses a construct the PTX level does not model; the message names it and its line."""


class Kind(enum.Enum):
    REG = "reg"
    SPECIAL = "special"
    INT = "int"
    F32 = "f32"  # value: bits
    F64 = "f64"  # value: bits
    ADDR = "addr"  # base: register or param name, value: byte offset
    VEC = "vec"  # items
    LABEL = "label"
    PARAM = "param"  # a kernel parameter name used as an operand (ld.param address without brackets)


@dataclass(frozen=True, slots=True)
class Operand:
    kind: Kind
    text: str
    value: int = 0
    base: str = ""
    items: tuple["Operand", ...] = ()


@dataclass(frozen=True, slots=True)
class Instr:
    line: int  # 1-based line in the PTX text
    text: str
    opcode: str  # the base mnemonic: add, fma, setp, ld, ...
    mods: tuple[str, ...]  # the dotted suffixes in order: ("rn", "ftz", "f32")
    operands: tuple[Operand, ...]
    guard: str = ""  # predicate register guarding the instruction
    guard_negated: bool = False

    @property
    def mnemonic(self) -> str:
        return ".".join((self.opcode,) + self.mods)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    ty: str  # u64, u32, s32, f32, ...
    align: int = 0


@dataclass(frozen=True, slots=True)
class PtxKernel:
    name: str
    params: tuple[Param, ...]
    body: tuple[Instr, ...]
    labels: tuple[tuple[str, int], ...]  # label -> index of the next instruction in body
    target: str = ""

    def label_index(self, name: str) -> int:
        for k, v in self.labels:
            if k == name:
                return v
        raise PtxParseError(f"branch to undefined label {name!r} in {self.name}")


_SPECIAL = re.compile(r"%(tid|ntid|ctaid|nctaid)\.[xyz]$")
_ENTRY = re.compile(r"\.(?:visible\s+)?\.?entry\s+([A-Za-z_$][\w$]*)\s*\(", re.S)
_PARAM = re.compile(r"\.param\s+\.(\w+)\s+(?:\.align\s+(\d+)\s+)?(?:\.ptr\s+\.global\s+(?:\.align\s+\d+\s+)?)?"
                    r"([A-Za-z_$][\w$]*)(\[\d+\])?")


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _int(text: str) -> int | None:
    t = text.strip()
    m = re.fullmatch(r"(-?)(0[xX][0-9a-fA-F]+|\d+)U?", t)
    if not m:
        return None
    v = int(m.group(2), 16) if m.group(2)[:2].lower() == "0x" else int(m.group(2))
    return -v if m.group(1) else v


def operand(text: str, line: int) -> Operand:
    t = text.strip()
    if t.startswith("{"):
        if not t.endswith("}"):
            raise PtxParseError(f"PTX line {line}: unbalanced vector operand {t!r}")
        return Operand(Kind.VEC, t, items=tuple(operand(x, line) for x in t[1:-1].split(",")))
    if t.startswith("["):
        inner = t[1:-1].strip()
        m = re.fullmatch(r"([%\w$]+)\s*(?:\+\s*(-?\w+))?", inner)
        if not m:
            raise PtxUnsupportedError(f"PTX line {line}: address {t!r} is not [reg], [reg+imm] or [param]")
        off = _int(m.group(2)) if m.group(2) else 0
        if off is None:
            raise PtxUnsupportedError(f"PTX line {line}: address offset in {t!r} is not an integer")
        return Operand(Kind.ADDR, t, value=off, base=m.group(1))
    if _SPECIAL.match(t):
        return Operand(Kind.SPECIAL, t)
    if t.startswith("%"):
        return Operand(Kind.REG, t)
    if re.fullmatch(r"0[fF][0-9a-fA-F]{8}", t):
        return Operand(Kind.F32, t, value=int(t[2:], 16))
    if re.fullmatch(r"0[dD][0-9a-fA-F]{16}", t):
        return Operand(Kind.F64, t, value=int(t[2:], 16))
    v = _int(t)
    if v is not None:
        return Operand(Kind.INT, t, value=v)
    if re.fullmatch(r"\$?[A-Za-z_][\w$]*", t):
        return Operand(Kind.LABEL, t)
    raise PtxParseError(f"PTX line {line}: cannot read operand {t!r}")


def _split_operands(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def kernels_in(text: str) -> list[str]:
    return [m.group(1) for m in _ENTRY.finditer(_strip_comments(text))]


def parse_ptx(text: str, name: str | None = None) -> PtxKernel:
    """The ``.entry`` called ``name`` (or the only one) as a ``PtxKernel``."""
    clean = _strip_comments(text)
    entries = list(_ENTRY.finditer(clean))
    if not entries:
        raise PtxParseError("the PTX holds no .entry kernel; the .cu file needs one __global__ function")
    if name is None:
        if len(entries) > 1:
            names = ", ".join(m.group(1) for m in entries)
            raise PtxParseError(f"the PTX holds several kernels ({names}); name one")
        m = entries[0]
    else:
        found = [m for m in entries if m.group(1) == name or demangle(m.group(1)) == name]
        if not found:
            raise PtxParseError(f"no kernel {name!r} in the PTX (has {', '.join(m.group(1) for m in entries)})")
        m = found[0]
    target = re.search(r"\.target\s+(\w+)", clean)
    close = clean.index(")", m.end())
    params = tuple(Param(p.group(3), p.group(1), int(p.group(2) or 0)) for p in _PARAM.finditer(clean[m.end():close]))
    open_ = clean.index("{", close)
    depth, i = 0, open_
    while True:
        if clean[i] == "{":
            depth += 1
        elif clean[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    body_text = clean[open_ + 1:i]
    base_line = clean.count("\n", 0, open_ + 1) + 1
    return PtxKernel(m.group(1), params, *_body(body_text, base_line, m.group(1)), target=target.group(1) if target else "")


def demangle(mangled: str) -> str:
    """`_Z14mul_add_kernelPKfS0_S0_Pfi` -> `mul_add_kernel` (the Itanium prefix only; other names unchanged)."""
    m = re.fullmatch(r"_Z(\d+)(\w+)", mangled)
    return m.group(2)[: int(m.group(1))] if m else mangled


def _body(text: str, base_line: int, kernel: str):
    instrs: list[Instr] = []
    labels: list[tuple[str, int]] = []
    line = base_line
    stmt, stmt_line = "", line
    for raw in text.split("\n"):
        rest = raw.strip()
        while rest:
            lm = re.match(r"^(\$?[A-Za-z_][\w$]*):", rest)
            if lm and not stmt.strip():
                labels.append((lm.group(1), len(instrs)))
                rest = rest[lm.end():].strip()
                continue
            if "{" in rest or "}" in rest:
                if not (rest.count("{") == rest.count("}") and ";" in rest):
                    raise PtxUnsupportedError(f"PTX line {line} of {kernel}: nested block {rest!r} is not modelled")
            if not stmt.strip():
                stmt_line = line
            semi = rest.find(";")
            if semi < 0:
                stmt += " " + rest
                break
            stmt += " " + rest[:semi]
            rest = rest[semi + 1:].strip()
            ins = _instr(stmt.strip(), stmt_line, kernel)
            if ins is not None:
                instrs.append(ins)
            stmt = ""
        line += 1
    return tuple(instrs), tuple(labels)


def _instr(text: str, line: int, kernel: str) -> Instr | None:
    if text.startswith(".reg"):
        return None
    if re.fullmatch(r'\.pragma\s+"nounroll"', text):
        # PTX ISA 11.3 "Performance-tuning directives": .pragma "nounroll" only tells ptxas not to unroll the
        # loop whose header follows; the loop's semantics are unchanged
        return None
    if text.startswith((".shared", ".local", ".global", ".const", ".func", ".pragma", ".maxntid", ".reqntid")):
        raise PtxUnsupportedError(f"PTX line {line} of {kernel}: {text.split()[0]} is not modelled (the PTX level "
                                  "handles elementwise kernels over global memory only)")
    guard, neg = "", False
    m = re.match(r"@(!?)(%\w+)\s+", text)
    if m:
        neg, guard = bool(m.group(1)), m.group(2)
        text = text[m.end():]
    parts = text.split(None, 1)
    mn = parts[0].split(".")
    ops = tuple(operand(o, line) for o in _split_operands(parts[1])) if len(parts) > 1 else ()
    return Instr(line, text, mn[0], tuple(mn[1:]), ops, guard, neg)
