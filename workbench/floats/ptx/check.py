"""Verdicts at the PTX level: is what nvcc emitted the PyTorch spec, bit for bit? (stage: floats/ptx)

``check_ptx(spec, cu, flags, arch, nan)`` decides as the source level does (``workbench.floats.check``),
reusing its case split (``case_inputs``), witnesses and comparison, on the PTX element functions:

1. The kernel is compiled with the user's nvcc flags; the PTX's element functions are extracted
   (``extract``); a kernel that is not elementwise gets "not elementwise" with the reason.
2. An implementation-defined instruction (``ex2.approx``, ``div.full``, ``rcp.approx``, ...) in a function,
   or an opaque op in the spec: "undecided", naming the instruction(s) and their PTX lines.
3. Case split over float classes, the constants of both sides and their neighbours, and random and
   adversarial inputs (the source level's ``case_inputs`` with its seed).
4. Unary: all 2**32 inputs (``sweep.sweep_ptx``): only this yields "equivalent"; n-ary: "no counterexample".

The safety gate runs over the PTX addresses (``gate.gate``) and is part of every verdict. The spec is PyTorch on
``spec.device`` (cuda by default, ``--spec-device``): the same device-aware op table (``workbench.floats.aten``)
the source level evaluates, so both levels judge against one meaning. There is no
contraction or FTZ switch here: nvcc decided, and the PTX says what it decided (``.rn``, ``.ftz``, ``fma``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from workbench.contract import Verdict as V, document
from workbench.floats.check import RANDOM_CASES, SEED, Witness, case_inputs
from workbench.floats.errors import FloatsUsageError
from workbench.floats.evaluate import HOST, evaluate as evaluate_spec
from workbench.floats.gate import Safety
from workbench.floats.ir import Op, walk
from workbench.floats.ptx.evaluate import evaluate_many, implementation_defined, nodes
from workbench.floats.ptx.extract import Extraction, extract
from workbench.floats.ptx.gate import gate
from workbench.floats.ptx.nvcc import DEFAULT_ARCH, Flags, nvcc_version
from workbench.floats.ptx.parse import demangle
from workbench.floats.ptx.sweep import sweep_ptx
from workbench.floats.reference import f32_bits
from workbench.floats.sweep import same, signed_class

SCHEMA_VERSION = 1
STATUS = {"equivalent": V.EQUIVALENT, "not equivalent": V.NOT_EQUIVALENT, "no counterexample": V.NO_COUNTEREXAMPLE,
          "undecided": V.UNDECIDED, "not elementwise": V.OUT_OF_CLASS}


@dataclass(frozen=True, slots=True)
class PtxVerdict:
    spec: str
    kernel: str
    arch: str
    flags: Flags
    nan: str
    status: str
    summary: str
    safety: Safety
    witnesses: tuple[Witness, ...] = ()
    mismatches: int | None = None
    cases: int = 0
    exhaustive: bool = False
    undecided: tuple[str, ...] = ()  # implementation-defined instructions / opaque spec ops
    functions: tuple[str, ...] = ()
    spec_device: str = "cuda"  # whose PyTorch kernels define the spec (``Spec.device``)
    notes: tuple[str, ...] = field(default=())

    @property
    def accepted(self) -> bool:
        return self.status == "equivalent" and self.safety.safe and self.safety.complete

    @property
    def verdict(self) -> V:
        """Safety first: unsafe, then "output not fully written", then the semantic result."""
        from workbench.contract import overall

        return overall([STATUS[self.status]] + ([] if self.safety.safe else [V.UNSAFE]) +
                       ([] if self.safety.complete else [V.NOT_FULLY_WRITTEN]))

    def payload(self) -> dict:
        return {
            "level": "ptx", "arch": self.arch, "flags": list(self.flags.argv), "flags_label": self.flags.label,
            "spec": self.spec, "spec_device": self.spec_device, "kernel": self.kernel, "nan": self.nan,
            "status": self.status,
            "summary": self.summary, "accepted": self.accepted, "exhaustive": self.exhaustive, "cases": self.cases,
            "mismatches": self.mismatches, "undecided": list(self.undecided),
            "witnesses": [{"inputs": [f"0x{b:08X}" for b in w.inputs], "kernel": f"0x{w.kernel:08X}",
                           "spec": f"0x{w.spec:08X}", "function": w.function, "text": w.describe()}
                          for w in self.witnesses],
            "safety": {"safe": self.safety.safe, "complete": self.safety.complete, "summary": self.safety.summary(),
                       "findings": [f.describe() for f in self.safety.findings]},
            "functions": list(self.functions), "notes": list(self.notes),
        }

    def document(self) -> dict:
        return document("floats", SCHEMA_VERSION, self.verdict, **self.payload())


def _constants(spec_expr, fns) -> list[int]:
    out = []
    vals = [f32_bits(float(np.float32(n.value))) for n in walk(spec_expr) if n.op is Op.CONST and n.ty.is_float]
    vals += [n.value for f in fns for n in nodes(f) if n.kind == "const" and n.ty == "f32"]
    for b in vals:
        out += [b, (b + 1) & 0xFFFFFFFF, (b - 1) & 0xFFFFFFFF, b ^ 0x80000000]
    return out


def _witness(cols, j: int, got, want, fi: int) -> Witness:
    return Witness(tuple(int(c[j]) for c in cols), int(got[j]), int(want[j]), fi)


def search(spec, fns, nan: str, random_cases: int = RANDOM_CASES) -> tuple[list[Witness], int]:
    rng = np.random.default_rng(SEED)
    cols = case_inputs(spec.arity, _constants(spec.expr, fns), rng, random_cases)
    want = np.broadcast_to(np.asarray(evaluate_spec(spec.expr, {i: c.view(np.float32) for i, c in enumerate(cols)},
                                                    HOST), np.float32), cols[0].shape)
    want = np.ascontiguousarray(want)
    witnesses = []
    for fi, got_bits in enumerate(evaluate_many(fns, cols)):
        got = np.ascontiguousarray(got_bits).view(np.float32)
        bad = np.flatnonzero(~same(got, want, nan))
        picked: dict[tuple[str, ...], int] = {}
        for j in bad[:4096]:
            key = tuple(signed_class(int(c[j])) for c in cols)
            if key not in picked and len(picked) < 8:
                picked[key] = int(j)
        witnesses += [_witness(cols, j, got.view(np.uint32), want.view(np.uint32), fi) for j in sorted(picked.values())]
    return witnesses, len(cols[0])


def check_ptx(spec, cu: str | Path, flags: Flags = Flags(), arch: str = DEFAULT_ARCH, nan: str = "any", *,
              workers: int = 2, progress: bool = True, exhaustive: bool = True, random_cases: int = RANDOM_CASES,
              count_mismatches: bool = True, extraction: Extraction | None = None,
              sweeps: dict | None = None) -> PtxVerdict:
    """``sweeps`` caches exhaustive results by ``(spec expr, element function, nan)`` across calls (flag sets
    that emit the same function are swept once)."""
    if nan not in ("any", "payload"):
        raise FloatsUsageError(f"NaN policy {nan!r} is not any or payload; use --nan any or --nan payload")
    x = extraction or extract(cu, flags, arch)
    safety = gate(x)
    dev = str(spec.device)
    common = dict(spec=spec.name, kernel=demangle(x.kernel.name), arch=arch, flags=flags, nan=nan, safety=safety,
                  spec_device=dev)
    if not x.elementwise:
        return PtxVerdict(status="not elementwise", summary=f"not elementwise: {x.problem} (spec: PyTorch on {dev})",
                          **common)
    if len(x.inputs) != spec.arity:
        raise FloatsUsageError(f"the PTX of {cu} reads {len(x.inputs)} input arrays but program in {spec.path} "
                               f"takes {spec.arity}; pair the kernel with a spec of the same arity")
    fns = x.functions
    rendered = tuple(f"{repr(f)}   [store at PTX line {s}]" for f, s in zip(fns, x.sites))
    impl = tuple(sorted({i for f in fns for i in implementation_defined(f)}))
    if impl or spec.opaque:
        parts = ([f"implementation-defined {', '.join(impl)}"] if impl else []) + (
            [f"{', '.join(spec.opaque)} in PyTorch"] if spec.opaque else [])
        return PtxVerdict(status="undecided", summary="undecided: depends on " + " and ".join(parts)
                          + f" (spec: PyTorch on {dev})",
                          undecided=impl + tuple(spec.opaque), functions=rendered, **common)
    witnesses, cases = search(spec, fns, nan, random_cases)
    mismatches, done = None, False
    if spec.arity == 1 and exhaustive and (count_mismatches or not witnesses):
        cache = sweeps if sweeps is not None else {}
        missing = tuple(dict.fromkeys(f for f in fns if (spec.expr, f, nan) not in cache))
        if missing:
            for f, r in zip(missing, sweep_ptx(spec.expr, missing, nan, workers=workers, progress=progress,
                                               desc=f"{demangle(x.kernel.name)} ptx {flags.label}")):
                cache[(spec.expr, f, nan)] = r
        results = [cache[(spec.expr, f, nan)] for f in fns]
        mismatches, done, cases = sum(r.mismatches for r in results), True, 1 << 32
        seen = {w.inputs for w in witnesses}
        for fi, r in enumerate(results):
            for _cls, b in r.witnesses:
                if (b,) in seen:
                    continue
                col = [np.array([b], np.uint32)]
                got = evaluate_many((fns[fi],), col)[0]
                want = np.asarray(evaluate_spec(spec.expr, {0: col[0].view(np.float32)}, HOST), np.float32)
                want = np.broadcast_to(want, (1,)).view(np.uint32)
                witnesses.append(Witness((b,), int(got[0]), int(want[0]), fi))
                seen.add((b,))
        if bool(mismatches) != bool(witnesses):
            raise AssertionError("case split and exhaustive sweep disagree on whether a counterexample exists")
    notes = [f"nvcc {nvcc_version()} -arch={arch} {' '.join(flags.argv)}".rstrip()] if extraction is None else []
    if len(fns) > 1:
        notes.append(f"{len(fns)} distinct element functions (store sites), each checked")
    common.update(functions=rendered, notes=tuple(notes), cases=cases, exhaustive=done)
    if witnesses:
        count = f"; {mismatches:,} of 2**32 inputs differ" if mismatches is not None else ""
        return PtxVerdict(status="not equivalent", summary=f"not equivalent: {witnesses[0].describe()}{count} "
                          f"(spec: PyTorch on {dev})",
                          witnesses=tuple(witnesses), mismatches=mismatches, **common)
    if done:
        return PtxVerdict(status="equivalent", summary=f"equivalent: identical on all 2**32 inputs (NaN policy: "
                          f"{nan}; spec: PyTorch on {dev})", mismatches=0, **common)
    return PtxVerdict(status="no counterexample", summary=f"no counterexample in {cases:,} cases (not exhaustive; "
                      f"spec: PyTorch on {dev})",
                      **common)
