"""Verdicts of the block level: two semantic levels and shared-memory safety, as frozen values (stage: floats).

A ``BlockVerdict`` holds, for one KernelBench answer against its reference:

- ``reals``: equivalence as real functions (``RealVerdict``), decided symbolically at the concrete sizes it
  names: a decision at those sizes, never for all sizes;
- ``float32``: equivalence over float32 under named semantics (``FloatVerdict``): "equivalent" only where the
  evaluation order provably matches ATen's on the spec device, otherwise a confirmed witness or "not shown
  equivalent" with the number of trials;
- ``safety``: hazards of shared memory and barriers found by exact interpretation of each launched block
  (``BlockSafety``): races, divergent barriers, out-of-bounds shared indices, uninitialised shared reads,
  plus global out-of-bounds accesses and output elements no thread writes.

Nothing here is called proved: each verdict says what decided it and under which semantics.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from workbench import contract


class RealStatus(enum.StrEnum):
    EQUIVALENT = "equivalent over the reals"
    NOT_EQUIVALENT = "not equivalent over the reals"
    UNDECIDED = "undecided over the reals"


class FloatStatus(enum.StrEnum):
    EQUIVALENT = "equivalent over float32"
    NOT_EQUIVALENT = "not equivalent over float32"
    NOT_SHOWN = "not shown equivalent over float32"  # no differing input found: NOT equivalent, not a proof
    UNDECIDED = "undecided over float32"


class HazardKind(enum.StrEnum):
    RACE = "race"  # two threads of a block touch one shared address between two barriers, one of them writes
    DIVERGENT_BARRIER = "divergent barrier"  # threads of a block reach different barriers / barrier counts
    SHARED_OUT_OF_BOUNDS = "shared out of bounds"  # a shared index outside the array
    UNINITIALISED_READ = "uninitialised shared read"  # a read of shared memory no thread has written
    GLOBAL_OUT_OF_BOUNDS = "global out of bounds"  # a load or store outside a tensor
    SHUFFLE = "shuffle with an inactive lane"  # a __shfl_*_sync whose mask names a lane that is not there
    NOT_WRITTEN = "output not fully written"  # an output element no thread writes (not a memory error)


# These make a kernel unsafe; NOT_WRITTEN alone is its own verdict (output-not-fully-written).
UNSAFE_KINDS = frozenset(HazardKind) - {HazardKind.NOT_WRITTEN}


@dataclass(frozen=True, slots=True)
class BlockOptions:
    """What to check under. ``spec_device``: whose ATen kernels define the float32 spec ("cpu": the reference
    Model is run on this machine's CPU; "cuda": ATen's CUDA order, emulated only where cited). ``fma``: nvcc's
    contraction of a product feeding an add (``-fmad=true``, the default). ``ftz``: subnormals flushed.
    ``trials``: random inputs of the float32 witness search. ``shapes``: the input shapes to decide at
    (default: chosen from the problem's shapes, scaled down so that every loop, tile and tail is run)."""

    spec_device: str = "cpu"
    fma: bool = True
    ftz: bool = False
    trials: int = 200
    seed: int = 0
    shapes: tuple[tuple[int, ...], ...] | None = None
    progress: bool = False

    @property
    def semantics(self) -> str:
        return (f"float32, spec device {self.spec_device} (ATen's {self.spec_device} kernels), "
                f"fma={'on' if self.fma else 'off'} ftz={'on' if self.ftz else 'off'}")


@dataclass(frozen=True, slots=True)
class RealWitness:
    output: tuple[int, ...]  # output element index
    kernel: str  # the kernel's element as a real expression of the inputs x0_i, x1_i, ...
    spec: str
    inputs: tuple[tuple[float, ...], ...] = ()  # concrete input values where the two differ (flattened)
    kernel_value: float | None = None
    spec_value: float | None = None

    def describe(self) -> str:
        txt = f"output {list(self.output)}: kernel {self.kernel}  vs  spec {self.spec}"
        if self.kernel_value is not None:
            txt += f"; at the inputs given they are {self.kernel_value!r} vs {self.spec_value!r}"
        return txt


@dataclass(frozen=True, slots=True)
class RealVerdict:
    status: RealStatus
    text: str
    decided_by: str
    shapes: tuple[tuple[int, ...], ...]  # the input shapes at which it was decided
    witness: RealWitness | None = None


@dataclass(frozen=True, slots=True)
class FloatWitness:
    inputs: tuple[tuple[int, ...], ...]  # float32 bit patterns of each input tensor, flattened
    output: tuple[int, ...]  # the output element that differs
    kernel: int  # kernel output bits
    spec: int  # spec output bits
    ulp: int  # ulp distance of the two (ordered-integer distance of their bits)
    confirmed_by: str  # how both sides were evaluated

    def describe(self) -> str:
        from workbench.floats.block.domains import show_f32

        return (f"output {list(self.output)}: kernel {show_f32(self.kernel)}, spec {show_f32(self.spec)} "
                f"({self.ulp} ulp apart)")


@dataclass(frozen=True, slots=True)
class FloatVerdict:
    status: FloatStatus
    text: str
    decided_by: str
    semantics: str
    witness: FloatWitness | None = None
    trials: int = 0
    differing: int = 0  # trials whose outputs differed
    worst_ulp: int | None = None  # the largest ulp distance found over the search
    shapes: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Hazard:
    kind: HazardKind
    text: str  # the whole witness in words: threads, array, address, lines
    block: tuple[int, ...] = ()
    threads: tuple[tuple[int, ...], ...] = ()  # thread indices (x, y, z) involved
    array: str = ""
    address: int | None = None
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BlockSafety:
    hazards: tuple[Hazard, ...]
    checked: str  # which launches were interpreted, thread by thread

    @property
    def safe(self) -> bool:
        return not any(h.kind in UNSAFE_KINDS for h in self.hazards)

    @property
    def complete(self) -> bool:
        return not any(h.kind is HazardKind.NOT_WRITTEN for h in self.hazards)

    def summary(self) -> str:
        if not self.hazards:
            return f"no hazard found ({self.checked})"
        kinds = sorted({h.kind.value for h in self.hazards})
        return f"{'; '.join(kinds)}: {self.hazards[0].text} ({self.checked})"


_REAL = {RealStatus.EQUIVALENT: contract.Verdict.EQUIVALENT, RealStatus.NOT_EQUIVALENT: contract.Verdict.NOT_EQUIVALENT,
         RealStatus.UNDECIDED: contract.Verdict.UNDECIDED}
_FLOAT = {FloatStatus.EQUIVALENT: contract.Verdict.EQUIVALENT, FloatStatus.NOT_EQUIVALENT: contract.Verdict.NOT_EQUIVALENT,
          FloatStatus.NOT_SHOWN: contract.Verdict.NO_COUNTEREXAMPLE, FloatStatus.UNDECIDED: contract.Verdict.UNDECIDED}


@dataclass(frozen=True, slots=True)
class BlockVerdict:
    reference: str
    answer: str
    kernel: str  # the __global__ function's name
    reals: RealVerdict
    float32: FloatVerdict
    safety: BlockSafety
    options: BlockOptions = BlockOptions()
    notes: tuple[str, ...] = field(default=())

    @property
    def verdict(self) -> contract.Verdict:
        """The one verdict, safety first, then the worse of the two semantic levels."""
        parts = [_REAL[self.reals.status], _FLOAT[self.float32.status]]
        if not self.safety.safe:
            parts.append(contract.Verdict.UNSAFE)
        if not self.safety.complete:
            parts.append(contract.Verdict.NOT_FULLY_WRITTEN)
        return contract.overall(parts)

    @property
    def accepted(self) -> bool:
        return self.verdict in contract.ACCEPTED

    def as_dict(self) -> dict:
        r, f = self.reals, self.float32
        return {
            "verdict": self.verdict.value, "reference": self.reference, "answer": self.answer,
            "cuda_function": self.kernel, "spec_device": self.options.spec_device, "fma": self.options.fma,
            "ftz": self.options.ftz,
            "reals": {"status": r.status.value, "text": r.text, "decided_by": r.decided_by,
                      "shapes": [list(s) for s in r.shapes],
                      "witness": None if r.witness is None else {
                          "output": list(r.witness.output), "kernel": r.witness.kernel, "spec": r.witness.spec,
                          "inputs": [list(x) for x in r.witness.inputs], "kernel_value": r.witness.kernel_value,
                          "spec_value": r.witness.spec_value, "text": r.witness.describe()}},
            "float32": {"status": f.status.value, "text": f.text, "decided_by": f.decided_by,
                        "semantics": f.semantics, "trials": f.trials, "differing": f.differing,
                        "worst_ulp": f.worst_ulp, "shapes": [list(s) for s in f.shapes],
                        "witness": None if f.witness is None else {
                            "output": list(f.witness.output), "kernel": f"0x{f.witness.kernel:08X}",
                            "spec": f"0x{f.witness.spec:08X}", "ulp": f.witness.ulp,
                            "inputs": [[f"0x{b:08X}" for b in x] for x in f.witness.inputs],
                            "confirmed_by": f.witness.confirmed_by, "text": f.witness.describe()}},
            "safety": {"safe": self.safety.safe, "complete": self.safety.complete, "summary": self.safety.summary(),
                       "hazards": [{"kind": h.kind.value, "text": h.text, "block": list(h.block),
                                    "threads": [list(t) for t in h.threads], "array": h.array,
                                    "address": h.address, "lines": list(h.lines)} for h in self.safety.hazards]},
            "notes": list(self.notes),
        }


__all__ = ["BlockOptions", "BlockSafety", "BlockVerdict", "FloatStatus", "FloatVerdict", "FloatWitness", "Hazard",
           "HazardKind", "RealStatus", "RealVerdict", "RealWitness", "UNSAFE_KINDS"]
