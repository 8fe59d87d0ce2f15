"""Driving nvcc: find it, validate the user's flags, compile one ``.cu`` file to PTX (stage: floats/ptx).

Where nvcc is looked for, in order: ``$WORKBENCH_NVCC`` (the nvcc binary), ``$CUDA_HOME/bin/nvcc``,
``$CUDA_PATH/bin/nvcc``, ``nvcc`` on ``PATH``. Without one, ``NvccNotFoundError`` (a ``ToolMissingError``,
exit 2) says how to point at it; the source level never needs nvcc.

Only the flags that change float code generation are accepted (``FLAG_VALUES``): ``--fmad``, ``--ftz``,
``-prec-div``, ``-prec-sqrt`` (each ``=true|false``) and ``-use_fast_math``; anything else is refused by
name, so a verdict always records every flag that produced its PTX. Compilation runs in a temporary folder
(never the checkout) with ``-ptx -arch=<arch>`` and a 120 s timeout.

Limits: one translation unit, no include paths or macros from the command line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import InputError, ToolMissingError, UsageError

TIMEOUT_S = 120
DEFAULT_ARCH = "sm_89"
BOOL_FLAGS = ("--fmad", "--ftz", "-prec-div", "-prec-sqrt")
_ALIASES = {"-fmad": "--fmad", "--fmad": "--fmad", "-ftz": "--ftz", "--ftz": "--ftz", "-prec-div": "-prec-div",
            "--prec-div": "-prec-div", "-prec-sqrt": "-prec-sqrt", "--prec-sqrt": "-prec-sqrt"}
FAST_MATH = ("-use_fast_math", "--use_fast_math")


class NvccNotFoundError(ToolMissingError):
    """No nvcc: the PTX level cannot run (the source level still can)."""


class NvccFlagError(UsageError):
    """A flag in ``--nvcc-flags`` is not one the PTX level accepts."""


class NvccCompileError(InputError):
    """nvcc rejected the kernel; the message carries the first lines of its diagnostics."""


@dataclass(frozen=True, slots=True)
class Flags:
    """nvcc's float code-generation switches; the defaults are nvcc's own."""

    fmad: bool = True
    ftz: bool = False
    prec_div: bool = True
    prec_sqrt: bool = True
    fast_math: bool = False

    @property
    def argv(self) -> tuple[str, ...]:
        if self.fast_math:
            return ("-use_fast_math",)
        out = []
        for name, value, default in (("--fmad", self.fmad, True), ("--ftz", self.ftz, False),
                                     ("-prec-div", self.prec_div, True), ("-prec-sqrt", self.prec_sqrt, True)):
            if value != default:
                out.append(f"{name}={'true' if value else 'false'}")
        return tuple(out)

    @property
    def label(self) -> str:
        return " ".join(self.argv) or "default"


FLAG_SETS = (("default", Flags()), ("--fmad=false", Flags(fmad=False)), ("--ftz=true", Flags(ftz=True)),
             ("-use_fast_math", Flags(fast_math=True)))


def parse_flags(text: str) -> Flags:
    """``"--fmad=false -prec-div=false"`` -> ``Flags``; refuses anything else by name."""
    f = dict(fmad=True, ftz=False, prec_div=True, prec_sqrt=True, fast_math=False)
    for tok in text.split():
        if tok in FAST_MATH:
            f["fast_math"] = True
            continue
        m = re.fullmatch(r"(-{1,2}[a-z_-]+)=(true|false)", tok)
        if not m or m.group(1) not in _ALIASES:
            raise NvccFlagError(
                f"--nvcc-flags: {tok!r} is not accepted; use --fmad=, --ftz=, -prec-div=, -prec-sqrt= (true or "
                "false) or -use_fast_math")
        f[_ALIASES[m.group(1)].lstrip("-").replace("-", "_")] = m.group(2) == "true"
    if f["fast_math"]:  # nvcc documents -use_fast_math as these four (nvcc manual, --use_fast_math)
        f.update(ftz=True, prec_div=False, prec_sqrt=False, fmad=True)
    return Flags(**f)


def check_arch(arch: str) -> str:
    if not re.fullmatch(r"sm_\d{2,3}[af]?", arch):
        raise NvccFlagError(f"--arch {arch!r} is not a GPU architecture like sm_89 or sm_90")
    return arch


def find_nvcc() -> Path:
    env = os.environ
    candidates: list[tuple[str, Path]] = []
    if env.get("WORKBENCH_NVCC"):
        candidates.append(("$WORKBENCH_NVCC", Path(env["WORKBENCH_NVCC"])))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if env.get(var):
            candidates.append((f"${var}/bin/nvcc", Path(env[var]) / "bin" / "nvcc"))
    for where, p in candidates:
        if p.is_file() and os.access(p, os.X_OK):
            return p
    found = shutil.which("nvcc")
    if found:
        return Path(found)
    tried = ", ".join(f"{w} ({p})" for w, p in candidates) or "no $WORKBENCH_NVCC or $CUDA_HOME set"
    raise NvccNotFoundError(
        f"nvcc was not found (tried {tried}, and PATH); the PTX level needs the CUDA toolkit: set "
        "WORKBENCH_NVCC=/path/to/nvcc or CUDA_HOME=/usr/local/cuda, or use --level source")


def compile_ptx(cu: str | Path, flags: Flags = Flags(), arch: str = DEFAULT_ARCH) -> str:
    """PTX text of ``cu`` under ``flags`` for ``arch``."""
    cu = Path(cu)
    if not cu.is_file():
        raise InputError(f"kernel file {str(cu)!r} does not exist; give the path of a .cu file")
    nvcc = find_nvcc()
    with tempfile.TemporaryDirectory(prefix="wb-ptx-") as tmp:
        out = Path(tmp) / "kernel.ptx"
        cmd = [str(nvcc), "-ptx", f"-arch={check_arch(arch)}", *flags.argv, str(cu.resolve()), "-o", str(out)]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=tmp)
        except subprocess.TimeoutExpired as e:
            raise NvccCompileError(f"nvcc took more than {TIMEOUT_S} s on {cu}; simplify the kernel") from e
        if r.returncode != 0:
            first = " | ".join(r.stderr.strip().splitlines()[:3])
            raise NvccCompileError(f"nvcc failed on {cu} ({' '.join(cmd[1:-3])}): {first}")
        return out.read_text()


def nvcc_version() -> str:
    r = subprocess.run([str(find_nvcc()), "--version"], capture_output=True, text=True, timeout=30)
    m = re.search(r"release [\d.]+, V[\d.]+", r.stdout)
    return m.group(0) if m else r.stdout.strip().splitlines()[-1]
