"""Running the oracle: plan shapes and launches per kernel, run the interpreter workers, judge the results.

Stage: oracle. The parent process never imports Triton: it searches shapes (:mod:`~workbench.oracle.shapes`),
plans launches (:mod:`~workbench.oracle.launch`), writes the wide and the narrowed text
(:func:`~workbench.oracle.source.narrow`), and sends one job per kernel to interpreter workers
(``python -m workbench.oracle.worker`` with ``TRITON_INTERPRET=1``), reading their per-kernel result lines as
they arrive (progress with counts after 2 s).

Verdicts (:class:`~workbench.contract.Verdict`), per kernel:

* ``ok`` — every compared lane agrees: the certified narrowing is confirmed at every shape and program tried
  (a sample, not a proof: the proof is the checker's; this is a second, independent opinion);
* ``not-equivalent`` — some active lane differs: a witness (shape, program id, lane, both values) shows the
  wide and the narrowed kernel are not equivalent; on a certified kernel this means the checker is wrong;
* ``undecided`` — no shape satisfies every guard, so nothing could be compared;
* ``out-of-class`` — the kernel uses something the oracle does not model (a grid type, a memory operation);
* ``error`` — the record or the interpreter failed for this kernel (the message says how).
"""

from __future__ import annotations

import ast
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Mapping

from workbench.contract import Verdict
from workbench.errors import WorkbenchError
from workbench.oracle import asserts as asserts_mod
from workbench.oracle import reduction
from workbench.oracle.compare import Differs
from workbench.oracle.corpus import Target
from workbench.oracle.launch import Launch, OutOfClass, SkipShape, plan
from workbench.oracle.memory import ELEMENT, bases, locate
from workbench.oracle.shapes import Shape, numel, search, valid
from workbench.oracle.source import NotTritonLanguage, OracleInputError, narrow, read
from workbench.paths import ROOT

KEEP = 24  # disagreements listed per kernel (all are counted)
INT32 = (-(2**31), 2**31 - 1)
SILENCE_S = 900  # a worker silent this long (no kernel finished) is taken as hung and stopped
STRICT = "strict"


class OracleWorkerError(WorkbenchError):
    """An interpreter worker process died (not a per-kernel failure); carries its stderr tail."""


@dataclass(frozen=True, slots=True)
class ShapeRun:
    label: str
    values: tuple[tuple[str, int], ...]
    numel: int
    blocks: tuple[tuple[str, int], ...]
    grid: tuple[int, int, int]
    programs: int
    lanes: int
    active_lanes: int
    accesses: int
    disagreements: int
    inactive_differences: int  # lane-accesses inactive in both kernels whose addresses differ (not compared)
    masked_differences: int  # ... of which the lane's index is below numel (contradicts a strict certificate)
    outside_premise: int = 0  # lanes set apart: the wide kernel's device assert fails there (never compared)
    asserts: int = 0  # (assert, lane) pairs inside the premise where the narrowed assert was compared
    loop: str = "none"  # reduction loops: "full", "sampled" (some loop ran chosen steps only) or "none"
    steps_run: int = 0  # loop steps executed (per kernel text, summed over programs and loops)
    steps_total: int = 0  # steps the loops have
    reduction: bool = False  # a reduction kernel's launch ([XBLOCK, R0_BLOCK] tiles)
    outside_differences: int = 0  # (access, lane) pairs outside the premise where the two kernels differ anyway


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement: where (shape, program, lane, access) and both kernels' (pointer, element offset,
    mask, stored bits)."""

    shape: str
    values: tuple[tuple[str, int], ...]
    pid: tuple[int, int, int]
    lane: tuple[int, ...]
    index: tuple[int, ...]  # global (y, x) / (x,) element index of the lane
    access: str
    what: Differs
    wide: tuple
    narrowed: tuple


@dataclass(slots=True)
class KernelResult:
    program: str
    kernel: str
    modes: tuple[str, ...]
    narrowed: tuple[str, ...]
    verdict: Verdict = Verdict.OK
    reason: str = ""
    shapes: list[ShapeRun] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    skipped: list[tuple[str, tuple[tuple[str, int], ...], str]] = field(default_factory=list)  # label, shape, why

    @property
    def disagreements(self) -> int:
        return sum(s.disagreements for s in self.shapes)

    @property
    def lanes(self) -> int:
        return sum(s.active_lanes for s in self.shapes)


@dataclass(frozen=True, slots=True)
class _Planned:
    target: Target
    shapes: tuple[Shape, ...]
    launches: tuple[Launch, ...]
    pointers: tuple[tuple[str, str], ...]  # (name, element type) in parameter order
    job: dict
    skipped: tuple[tuple[str, tuple[tuple[str, int], ...], str], ...] = ()


def _prepare(index: int, target: Target, shapes: list[Shape] | None, seed: int,
             draw: str = "inside") -> _Planned | KernelResult:
    rec = target.record
    result = KernelResult(rec.program, rec.name, target.modes, target.narrowed)
    try:
        wide_text = read(rec.source, rec.name, f"{rec.path} (source)")
        narrowed_src = (narrow(rec.source, rec.name, target.narrowed, f"{rec.path} (source)") if target.text is None
                        else target.text)  # the rule's own text, when given (corpus.text_targets)
        read(narrowed_src, rec.name, f"{rec.path} (narrowed text)")
    except OracleInputError as exc:
        result.verdict, result.reason = Verdict.ERROR, str(exc)
        return result
    except NotTritonLanguage as exc:
        result.verdict, result.reason = Verdict.OUT_OF_CLASS, str(exc)
        return result
    declared = {k: v for k, v in rec.signature if v != "constexpr"}
    if declared != dict(wide_text.signature):
        result.verdict = Verdict.ERROR
        result.reason = (f"{rec.path}: the record's signature {declared} differs from the source's "
                         f"{dict(wide_text.signature)}; re-capture the kernel")
        return result
    lanes: list[dict[str, int]] = []
    if shapes is None:
        shapes = []
        for w in target.witnesses:  # the checker's own counterexamples for a refused mode, when valid
            if valid(rec, dict(w.values)) and all(s.values != w.values for s in shapes):
                shapes.append(Shape(f"checker counterexample ({w.mode})", w.values))
                lanes.append(dict(w.lane))
        shapes += [s for s in search(rec, seed) if all(s.values != k.values for k in shapes)]
    if not shapes:
        result.verdict, result.reason = Verdict.UNDECIDED, "no shape satisfies every guard of the record"
        return result
    sig = dict(wide_text.signature)
    pointers = tuple((p, sig[p][1:]) for p in wide_text.params if sig.get(p, "").startswith("*"))
    fn = ast.parse(wide_text.function.lstrip()).body[0]
    assert isinstance(fn, ast.FunctionDef)
    red = reduction.facts(fn)
    try:
        found = asserts_mod.find(fn, frozenset(p for p, _ in pointers))
    except asserts_mod.AssertModelError as exc:
        result.verdict, result.reason = Verdict.OUT_OF_CLASS, f"{rec.path}: {exc}"
        return result
    rng = random.Random(f"{seed}:{rec.key}:pids")
    kept: list[tuple[Shape, Launch]] = []
    skipped = []
    for i, s in enumerate(shapes):
        try:
            kept.append((s, plan(rec, s.as_dict(), i, rng, wide_text.params, wide_text.constexprs,
                                 tuple(p for p, _ in pointers), lanes[i] if i < len(lanes) else None, red)))
        except OutOfClass as exc:
            result.verdict, result.reason = Verdict.OUT_OF_CLASS, str(exc)
            return result
        except SkipShape as exc:
            skipped.append((s.label, s.values, str(exc)))
    if not kept:
        result.verdict, result.skipped = Verdict.UNDECIDED, skipped
        result.reason = f"every shape was skipped ({skipped[0][2] if skipped else 'none'})"
        return result
    runs = []
    for i, (_s, launch) in enumerate(kept):
        tables = asserts_mod.tables(found, {**dict(launch.scalars), **dict(red.static)})
        runs.append(dict(launch.to_job(), shape=i, index={p: list(v) for p, v in tables.items()}, draw=draw))
    job = {"key": f"{index}:{rec.key}", "name": rec.name, "wide": rec.source, "narrowed": narrowed_src, "runs": runs}
    return _Planned(target, tuple(s for s, _ in kept), tuple(la for _, la in kept), pointers, job, tuple(skipped))


def _side(raw: list, where: dict[str, int], elem: dict[str, int]) -> tuple:
    """(pointer, element offset, mask, stored bits); an address no base explains is given as hex."""
    addr, mask, bits = raw
    found = locate(int(addr), where)
    if found is None:
        return ("?", f"address {int(addr):#018x}", bool(mask), bits)
    name, delta = found
    offset = delta // elem[name] if delta % elem[name] == 0 else f"{delta} bytes"
    return (name, offset, bool(mask), bits)


def _index(launch: Launch, pid: tuple[int, ...], lane: tuple[int, ...], tag: tuple) -> tuple[int, ...]:
    """The lane's global (y, x), (x,) or, in a reduction, (x, r) element index, as the kernel computes
    ``xindex``/``yindex``/``r0_index`` (``r0_offset`` from the access's step)."""
    blocks = dict(launch.constexprs)
    if launch.reduction and len(lane) == 2:
        return (pid[0] * dict(launch.reduction)["XBLOCK"] + lane[0], (tag[2] or 0) + lane[1])
    if len(lane) == 2:
        yblock = pid[1] + pid[2] * launch.grid[1]
        return (yblock * blocks["YBLOCK"] + lane[0], pid[0] * blocks["XBLOCK"] + lane[1])
    if len(lane) == 1:
        return (pid[0] * blocks["XBLOCK"] + lane[0],)
    return ()


def _finding(shape: Shape, launch: Launch, d: dict, where: dict[str, int], elem: dict[str, int]) -> Finding:
    pid, lane = tuple(d["pid"]), tuple(d["lane"])
    what = Differs(d["what"])
    tag = tuple(d.get("tag") or (0, None, None))
    raw = what in (Differs.COUNT, Differs.ASSERT)
    sides = [tuple(d[k]) if raw else _side(d[k], where, elem) for k in ("wide", "narrowed")]
    return Finding(shape.label, shape.values, pid, lane, _index(launch, pid, lane, tag), d["access"], what, *sides)


def _judge(p: _Planned, out: dict) -> KernelResult:
    rec = p.target.record
    result = KernelResult(rec.program, rec.name, p.target.modes, p.target.narrowed, skipped=list(p.skipped))
    if "error" in out:
        result.verdict, result.reason = Verdict.ERROR, f"interpreter: {out['error']}"
        return result
    if "out_of_class" in out:
        result.verdict, result.reason = Verdict.OUT_OF_CLASS, out["out_of_class"]
        return result
    where = bases([n for n, _ in p.pointers])
    elem = {n: ELEMENT[t][1] for n, t in p.pointers}
    strict = STRICT in p.target.modes
    errors: list[str] = []
    for run in out["runs"]:
        i = run["shape"]
        shape, launch = p.shapes[i], p.launches[i]
        # A narrowed argument whose value does not fit int32 is a disagreement in itself (the checker's
        # theorem claims every narrowed size argument fits), whatever the lanes below show.
        unfit = [(a, v) for a, v in launch.scalars if a in p.target.narrowed and not INT32[0] <= v <= INT32[1]]
        found = [Finding(shape.label, shape.values, (0, 0, 0), (), (), f"argument {a}", Differs.VALUE, (a, v),
                         (a, (v + 2**31) % 2**32 - 2**31)) for a, v in unfit]
        found += [_finding(shape, launch, d, where, elem) for d in run["disagreements"]]
        # Strict mode also claims every intermediate fits on masked lanes below numel: a differing address
        # there contradicts a strict certificate (and is allowed by an observable-only one).
        if strict:
            found += [_finding(shape, launch, d, where, elem) for d in run["masked"]]
        result.findings.extend(found[: max(0, KEEP - len(result.findings))])
        count = run["disagreement_count"] + len(unfit) + (run["masked_differences"] if strict else 0)
        loop = "none" if not run["steps_total"] else "sampled" if run["sampled_loops"] else "full"
        result.shapes.append(ShapeRun(
            shape.label, shape.values, numel(rec, shape.as_dict()), launch.constexprs, launch.grid,
            run["programs"], run["lanes"], run["active_lanes"], run["accesses"], count,
            run["inactive_differences"], run["masked_differences"], run["outside_premise"], run["asserts"], loop,
            run["steps_run"], run["steps_total"], bool(launch.reduction), run["outside_differences"]))
        errors.extend(e for e in run["assert_errors"] if e not in errors)
    if errors:
        result.verdict = Verdict.ERROR
        result.reason = f"the oracle cannot judge this kernel's device asserts: {'; '.join(errors[:3])}"
    elif result.disagreements:
        first = result.findings[0]
        result.verdict = Verdict.NOT_EQUIVALENT
        result.reason = (f"{result.disagreements} disagreement(s); first at shape "
                         f"{dict(first.values)}, program {first.pid}, index {first.index}: {first.access} "
                         f"{first.what} wide={first.wide} narrowed={first.narrowed}")
    else:
        result.reason = (f"0 disagreements on {result.lanes} active lanes over {len(result.shapes)} shapes")
        steps = sum(s.steps_run for s in result.shapes)
        if steps:
            full = sum(s.loop == "full" for s in result.shapes)
            result.reason += f" ({steps} loop steps run; {full} of {len(result.shapes)} shapes with full loops)"
        outside = sum(s.outside_premise for s in result.shapes)
        if outside:
            result.reason += f" ({outside} lanes outside the asserts' premise set apart, not compared)"
        if strict:
            result.reason += " (and no address differs on a masked lane below numel: strict mode's claim)"
    return result


def _start(jobs: list[dict], lines: queue.Queue, errs) -> subprocess.Popen:
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONWARNINGS="ignore")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen([sys.executable, "-m", "workbench.oracle.worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=errs, text=True, env=env)
    assert proc.stdin and proc.stdout
    try:
        proc.stdin.write(json.dumps({"kernels": jobs}))
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the worker died before reading its job: its exit code and stderr are reported by check()

    def pump(stream=proc.stdout) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)
    threading.Thread(target=pump, daemon=True).start()
    return proc


def check(targets: list[Target], seed: int = 0, jobs: int = 1, shapes: Mapping[str, list[Shape]] | None = None,
          progress: bool = True, draw: str = "inside") -> list[KernelResult]:
    """Run the oracle over ``targets``; ``shapes`` (by ``program/kernel``) replaces the shape search, e.g. for
    a control outside the guards; ``draw="outside"`` fills index tables partly outside the asserted ranges (a
    control: those lanes must come out as ``outside_premise``). Results keep the order of ``targets``."""
    from workbench import progress as progress_mod

    if draw not in ("inside", "outside"):
        raise ValueError(f"draw={draw!r}: 'inside' or 'outside'")
    prepared = [_prepare(i, t, None if shapes is None else shapes.get(t.record.key), seed, draw)
                for i, t in enumerate(targets)]
    planned = [p for p in prepared if isinstance(p, _Planned)]
    results: dict[str, KernelResult] = {}
    if planned:
        lines: queue.Queue = queue.Queue()
        groups = [planned[i::max(1, jobs)] for i in range(max(1, jobs))]
        groups = [g for g in groups if g]
        by_key = {p.job["key"]: p for p in planned}
        with tempfile.TemporaryFile("w+") as errs:
            procs = [_start([p.job for p in g], lines, errs) for g in groups]
            bar = progress_mod.Counter(len(planned), "oracle", "kernel", enabled=progress)
            try:
                done_streams = 0
                while done_streams < len(procs):
                    try:
                        line = lines.get(timeout=SILENCE_S)
                    except queue.Empty:
                        raise OracleWorkerError(
                            f"no interpreter worker reported for {SILENCE_S} s ({len(results)} of {len(planned)} "
                            "kernels done); rerun with `workbench oracle NAME` to isolate the kernel") from None
                    if line is None:
                        done_streams += 1
                        continue
                    out = json.loads(line)
                    results[out["key"]] = _judge(by_key[out["key"]], out)
                    bar.update(1)
            except BaseException:
                for proc in procs:  # stop only our own workers, by their handle
                    if proc.poll() is None:
                        proc.kill()
                raise
            finally:
                bar.close()
            codes = [proc.wait(timeout=SILENCE_S) for proc in procs]
            if any(codes) or len(results) != len(planned):
                errs.seek(0)
                tail = errs.read()[-2000:]
                raise OracleWorkerError(f"an interpreter worker exited with {codes} after {len(results)} of "
                                        f"{len(planned)} kernels: {tail.strip() or 'no output'}; rerun with "
                                        "`workbench oracle NAME` to isolate the kernel")
    out_list = []
    for p in prepared:
        out_list.append(results[p.job["key"]] if isinstance(p, _Planned) else p)
    return out_list
