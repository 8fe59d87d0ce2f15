"""Adapter: report 1's confirmation record (``narrow_confirm.json``, veritile-narrow-cat, stage 14).

Foreign structure (every key checked; an unknown key is an error naming it):

* top: ``kind, device, gpu_name, torch, triton, compute_capability, cpu, nvidia_smi, TRITON_INTERPRET, seq,
  small, processes, analysis, input_hashes``;
* ``seq``/``small``: ``[rows, family]`` pairs (the record names shape families, not widths);
* ``processes[i]``: ``proc, bitwise ("variant:RxF" -> bool), compile_events, compiles_during_measurement,
  triples, telemetry_ok, telemetry_error, telemetry_static, process_s``;
* ``triples[j]``: ``order`` (a permutation of the variants) and ``blocks`` (variant -> ``variant, T_s,
  seq_us[len(seq)], small_us{small}, telemetry{n, sm_median, sm_min, mem_median, power_w_median,
  power_w_max, temp_max, reason_fraction}``).

Mapping: one workbench block per foreign block, ``round`` = triple index within its process, ``position`` =
index in the triple's order. The authors' statistic is over ``T_s`` (host wall seconds of one synchronized
pass), so the record says ``sequence_field: "sequence_wall_s"`` and the statistics read that field; the
per-shape CUDA-event means (``seq_us``, ``small_us``) and the per-block telemetry summaries are kept verbatim.
The foreign record holds per-block telemetry *summaries*, not raw samples: all of them are kept, and the
process telemetry says so. The plan is synthesized from the record and report 1's published design (its
pre-registered decision rule); settings the record does not state (XBLOCK, L2 flush, telemetry interval)
are ``null``, never guessed. The authors' own analysis is kept under ``provenance.authors_analysis``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from workbench.bench import plan as plan_mod
from workbench.bench.importers.base import Adapter, ImportFormatError, Source

NAME = "veritile-narrow-confirm"
TOP = ("kind", "device", "gpu_name", "torch", "triton", "compute_capability", "cpu", "nvidia_smi",
       "TRITON_INTERPRET", "seq", "small", "processes", "analysis", "input_hashes")
PROC = ("proc", "bitwise", "compile_events", "compiles_during_measurement", "triples", "telemetry_ok",
        "telemetry_error", "telemetry_static", "process_s")
BLOCK = ("variant", "T_s", "seq_us", "small_us", "telemetry")
TELEMETRY = ("n", "sm_median", "sm_min", "mem_median", "power_w_median", "power_w_max", "temp_max", "reason_fraction")
DESCRIPTIONS = {
    "B0": "emitted kernel, unchanged (size arguments i64) — the authors' B0",
    "N": "guarded narrowing with the wide body as fallback — the authors' N",
    "N1": "size arguments declared i32 in the signature, no fallback — the authors' N1",
}
# Report 1's pre-registered rule (CONFIRM.md / the record's module docstring): adopt N1 over N iff the median
# paired ratio >= 1.03, its 95% CI lower bound >= 1.00 and every small shape's lower bound >= 0.97; percentile
# bootstrap with 10,000 resamples. The seed is the workbench's own (numpy), not the authors' stream.
DECISION = {"wide": "N", "narrow": "N1", "median_at_least": 1.03, "ci_lower_at_least": 1.0,
            "per_shape_ci_lower_at_least": 0.97, "confidence": 0.95, "resamples": 10000, "seed": 0}


def matches(raw: Any) -> bool:
    return isinstance(raw, dict) and str(raw.get("kind", "")).startswith("stage 14: N1 confirmation") \
        and isinstance(raw.get("processes"), list)


def _keys(d: Any, expected: tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        raise ImportFormatError(f"{where}: expected an object, got {type(d).__name__}")
    unknown = [k for k in d if k not in expected]
    missing = [k for k in expected if k not in d]
    if unknown:
        raise ImportFormatError(f"{where}: unknown field {unknown[0]!r}; the {NAME} adapter knows {list(expected)}. "
                                "Extend the adapter (workbench/bench/importers/veritile_confirm.py) to keep it")
    if missing:
        raise ImportFormatError(f"{where}: missing field {missing[0]!r} required by the {NAME} format")


def _label(pair: Any, where: str) -> str:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int) and pair[0] >= 1
            and isinstance(pair[1], str) and pair[1]):
        raise ImportFormatError(f"{where}: a shape is [rows, family], got {pair!r}")
    return f"{pair[0]}x{pair[1]}"


def _number(v: Any, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
        raise ImportFormatError(f"{where}: expected a positive number, got {v!r}")
    return v


def convert(raw: Any, src: Source, where: str, sha256: str) -> dict[str, Any]:
    _keys(raw, TOP, where)
    seq = [_label(p, f"{where}: seq[{i}]") for i, p in enumerate(raw["seq"])]
    small = [_label(p, f"{where}: small[{i}]") for i, p in enumerate(raw["small"])]
    for name, labels in (("seq", seq), ("small", small)):
        if len(set(labels)) != len(labels):
            raise ImportFormatError(f"{where}: {name} lists a shape twice ({labels}); per-shape times would be ambiguous")
    procs = raw["processes"]
    if not procs:
        raise ImportFormatError(f"{where}: processes is empty; nothing was measured")
    variants: list[str] | None = None
    correctness, blocks, telemetry, processes = [], [], [], []
    for pi, p in enumerate(procs):
        pw = f"{where}: processes[{pi}]"
        _keys(p, PROC, pw)
        if p["proc"] != pi:
            raise ImportFormatError(f"{pw}.proc is {p['proc']!r}, expected {pi} (processes in order)")
        for ti, t in enumerate(p["triples"]):
            tw = f"{pw}.triples[{ti}]"
            _keys(t, ("order", "blocks"), tw)
            order = t["order"]
            if variants is None:
                known = list(DESCRIPTIONS)
                variants = sorted(order, key=lambda v: (known.index(v) if v in known else len(known), v))
            if sorted(order) != sorted(variants) or len(set(order)) != len(order):
                raise ImportFormatError(f"{tw}.order {order} is not a permutation of the variants {variants}")
            if set(t["blocks"]) != set(order):
                raise ImportFormatError(f"{tw}.blocks has {sorted(t['blocks'])}, but the order names {order}")
            for v, b in t["blocks"].items():
                bw = f"{tw}.blocks.{v}"
                _keys(b, BLOCK, bw)
                _keys(b["telemetry"], TELEMETRY, f"{bw}.telemetry")
                if b["variant"] != v:
                    raise ImportFormatError(f"{bw}.variant is {b['variant']!r}, filed under {v!r}")
                if not isinstance(b["seq_us"], list) or len(b["seq_us"]) != len(seq):
                    raise ImportFormatError(f"{bw}.seq_us has {len(b['seq_us'])} values for {len(seq)} sequence shapes")
                # key order is the order the block ran the small shapes (it rotates between triples): kept as is
                if not isinstance(b["small_us"], dict) or sorted(b["small_us"]) != sorted(small):
                    raise ImportFormatError(f"{bw}.small_us keys {list(b['small_us'])} differ from small {small}")
                blocks.append({
                    "process": pi, "round": ti, "order": list(order), "position": order.index(v), "variant": v,
                    "sequence_wall_s": _number(b["T_s"], f"{bw}.T_s"), "sequence_ms": None,
                    "sequence_per_call_us": {k: _number(x, f"{bw}.seq_us[{k}]") for k, x in zip(seq, b["seq_us"])},
                    "small_per_call_us": {k: _number(x, f"{bw}.small_us[{k}]") for k, x in b["small_us"].items()},
                    "telemetry_summary": b["telemetry"],
                    "sequence_calls_ms": {}, "small_calls_ms": {}, "t_start": None, "t_end": None,
                    "warmup_s": None, "warmup_passes": None, "sequence_host_issue_ms": None,
                    "compiled_during_block": None, "outputs_bitwise_equal": None,
                })
        expected_bitwise = [f"{v}:{s}" for v in variants or [] for s in dict.fromkeys(seq + small)]
        if sorted(p["bitwise"]) != sorted(expected_bitwise):
            extra = sorted(set(p["bitwise"]) ^ set(expected_bitwise))
            raise ImportFormatError(f"{pw}.bitwise does not cover exactly variant x shape; differs at {extra[:4]}")
        for key, ok in p["bitwise"].items():
            if not isinstance(ok, bool):
                raise ImportFormatError(f"{pw}.bitwise[{key!r}] must be true/false, got {ok!r}")
            v, _, s = key.partition(":")
            correctness.append({"process": pi, "variant": v, "shape": s, "bitwise_equal": ok})
        for ei, e in enumerate(p["compile_events"]):
            if not isinstance(e, dict) or e.get("variant") not in (variants or []):
                raise ImportFormatError(f"{pw}.compile_events[{ei}] names variant {e.get('variant') if isinstance(e, dict) else e!r}, "
                                        f"not one of {variants}")
        telemetry.append({"process": pi, "available": p["telemetry_ok"],
                          "reason": p["telemetry_error"] or "per-block summaries only: the source record holds no raw samples",
                          "interval_s": None, "samples": [], "static": p["telemetry_static"]})
        processes.append({"process": pi, "compile_events": p["compile_events"],
                          "compiles_during_measurement": p["compiles_during_measurement"], "process_s": p["process_s"]})
    n_triples = sum(len(p["triples"]) for p in procs)
    a = raw["analysis"]
    if not isinstance(a, dict) or a.get("triples") != n_triples:
        raise ImportFormatError(f"{where}: analysis.triples is {a.get('triples') if isinstance(a, dict) else a!r} "
                                f"but the record holds {n_triples} triples")
    rounds = {len(p["triples"]) for p in procs}
    if len(rounds) != 1:
        raise ImportFormatError(f"{where}: processes hold different numbers of triples {sorted(rounds)}")
    raw_plan = _plan(raw, variants or [], rounds.pop())
    cc = raw["compute_capability"]
    env = {"device": raw["gpu_name"], "torch": raw["torch"], "triton": raw["triton"],
           "capability": f"{cc[0]}.{cc[1]}" if isinstance(cc, list) and len(cc) == 2 else cc, "interpreter": False}
    kernel_names = sorted({e.get("kernel_name") for p in procs for e in p["compile_events"] if isinstance(e, dict)} - {None})
    return {
        "schema": "workbench.bench.run/1",
        "mode": "gpu",
        "timing_claims": True,
        "imported": True,
        "note": (f"{src.label}. Imported by `workbench bench import` ({NAME}); the sequence statistic uses the "
                 "authors' T_s (host wall time of one synchronized pass), per-shape times are their CUDA-event means."),
        "provenance": {
            "label": src.label, "measured_by": src.measured_by, "repository": src.repository, "path": src.path,
            "commit": src.commit, "format": NAME, "source_sha256": sha256,
            "source_top_level": {k: raw[k] for k in ("kind", "device", "gpu_name", "torch", "triton",
                                                     "compute_capability", "cpu", "nvidia_smi", "TRITON_INTERPRET")},
            "seq": raw["seq"], "small": raw["small"], "input_hashes": raw["input_hashes"], "authors_analysis": a,
        },
        "sequence_field": "sequence_wall_s",
        "plan": raw_plan,
        "plan_sha256": plan_mod.digest(raw_plan),
        "plan_path": None,
        "started_at": None,
        "finished_at": None,
        "environment": [dict(env, process=i, process_s=p["process_s"],
                             driver=(p["telemetry_static"] or {}).get("driver")) for i, p in enumerate(procs)],
        "kernel": {"name": kernel_names[0] if len(kernel_names) == 1 else None, "program": "nested_cat_add",
                   "origin": f"imported ({src.repository})", "source_hash": None, "signature": None,
                   "jit_source": None, "fake_cuda_comparison": None},
        "variants": {v: {"description": DESCRIPTIONS.get(v, "from the imported record")} for v in variants or []},
        "correctness": correctness,
        "blocks": blocks,
        "telemetry": telemetry,
        "processes": processes,
    }


def _plan(raw: Mapping[str, Any], variants: list[str], rounds: int) -> dict[str, Any]:
    shape = lambda p: {"rows": p[0], "family": p[1]}  # noqa: E731
    n_orders = len(list(itertools.permutations(variants)))
    if rounds % n_orders:
        raise ImportFormatError(f"{len(raw['processes'])} processes of {rounds} triples: not a multiple of the "
                                f"{n_orders} orders; the workbench's plan format needs balanced rounds")
    return {
        "schema": plan_mod.SCHEMA,
        "name": "report1-l4-confirm",
        "description": ("Synthesized by `workbench bench import` from report 1's confirmation record and its published "
                        "design; not run by the workbench. Settings the record does not state are null."),
        "program": "nested_cat_add",
        "kernel": {"from": "imported"},
        "variants": variants,
        "comparisons": [["B0", "N1"], ["B0", "N"]] if {"B0", "N", "N1"} <= set(variants) else [],
        "order_scheme": "all_orders",
        "l2_flush": None,
        "telemetry_interval_s": None,
        "seed": 0,
        "gpu": {"sequence": [shape(p) for p in raw["seq"]], "small": [shape(p) for p in raw["small"]],
                "calls_sequence": 20, "calls_small": 50, "processes": len(raw["processes"]),
                "rounds_per_process": rounds, "warmup_s": 2.0, "xblock": None},
        "dry_run": None,
        "decision": DECISION,
    }


def export(run: Mapping[str, Any]) -> dict[str, Any]:
    """The foreign record back from an imported run record (key order included)."""
    prov = run["provenance"]
    top = prov["source_top_level"]
    procs = []
    for pr, tele in zip(run["processes"], run["telemetry"]):
        i = pr["process"]
        triples: dict[int, dict[str, Any]] = {}
        for b in (b for b in run["blocks"] if b["process"] == i):
            t = triples.setdefault(b["round"], {"order": b["order"], "blocks": {}})
            t["blocks"][b["variant"]] = {"variant": b["variant"], "T_s": b["sequence_wall_s"],
                                         "seq_us": list(b["sequence_per_call_us"].values()),
                                         "small_us": dict(b["small_per_call_us"]), "telemetry": b["telemetry_summary"]}
        procs.append({
            "proc": i,
            "bitwise": {f"{c['variant']}:{c['shape']}": c["bitwise_equal"] for c in run["correctness"] if c["process"] == i},
            "compile_events": pr["compile_events"], "compiles_during_measurement": pr["compiles_during_measurement"],
            "triples": [triples[r] for r in sorted(triples)], "telemetry_ok": tele["available"],
            "telemetry_error": None if tele["reason"].startswith("per-block summaries only") else tele["reason"],
            "telemetry_static": tele["static"], "process_s": pr["process_s"],
        })
    return {**{k: top[k] for k in TOP[:9]}, "seq": prov["seq"], "small": prov["small"], "processes": procs,
            "analysis": prov["authors_analysis"], "input_hashes": prov["input_hashes"]}


ADAPTER = Adapter(NAME, "report 1's N1 confirmation record (veritile-narrow-cat narrow_confirm.json)",
                  matches, convert, export)
