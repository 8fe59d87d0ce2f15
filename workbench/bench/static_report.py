"""Tables and comparisons for the static machine-code evidence (:mod:`workbench.bench.static`).

Stage: bench (static report). Pure functions of the measured rows: a JSON document (``workbench.contract``,
schema ``workbench.bench.static/1``), a deterministic Markdown table, and two comparisons stated as data:

* with report 2's statements ("in every certified kernel, all of the 64-bit division call sites (8 to 43
  per kernel) disappear, and the machine code is 21–62% smaller"), measured by its authors on an L4 (sm_89)
  with triton 3.8.0 for 25 kernels; ours are the corpus' certified kernels with triton 3.7.1;
* with report 1's authors' SASS counts for their nested-cat kernel (``sass_counts.json``: B0 and the narrowed
  path of N, XBLOCK 1024 and 512), against our ``nested_cat_add_distinct``, the corpus kernel with their
  seven size arguments.

and, for variant P (report 2's open question: does narrowing only ``//`` and ``%`` recover most of it?), P's
counts against B0 and N1: CALL sites left, SASS instructions, and the share of N1's instruction reduction P
recovers. Everything here is labelled static, not timing (:data:`workbench.bench.static.LABEL`).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.bench.static import LABEL, Row
from workbench.contract import Verdict, document

REPORT2 = {"calls_min": 8, "calls_max": 43, "smaller_min": 0.21, "smaller_max": 0.62, "kernels": 25, "arch": "sm_89"}
AUTHORS_SASS_SOURCE = ("scasella/veritile-narrow-cat", "bench/optimizations/inductor_divmod/sass_counts.json",
                       "4d517d0bcbc6784fb35ba9acaee52afea1e80f6e")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:+.0f}%"


def report2_comparison(rows: Sequence[Row], arch: str = "sm_89") -> dict[str, Any]:
    """Our rows at ``arch`` against report 2's two statements; each statement gets agrees: bool and the numbers."""
    rs = [r for r in rows if r.arch == arch]
    if not rs:
        return {"arch": arch, "kernels": 0, "note": f"no rows at {arch}"}
    with_calls = [r for r in rs if r.wide.sass_calls > 0]
    calls = [r.wide.sass_calls for r in with_calls]
    gone = all(r.narrowed.sass_calls == 0 for r in rs)
    smaller = [-r.change("sass_instructions") for r in with_calls if r.change("sass_instructions") is not None]
    outside = sorted(f"{r.program}/{r.kernel} ({-100 * r.change('sass_instructions'):.0f}%)" for r in with_calls
                     if not REPORT2["smaller_min"] - 0.005 <= -r.change("sass_instructions") <= REPORT2["smaller_max"] + 0.005)
    code = [-r.change("code_bytes") for r in with_calls if r.change("code_bytes") is not None]
    return {
        "arch": arch,
        "kernels": len(rs),
        "kernels_with_64bit_division_calls": len(with_calls),
        "kernels_without": sorted(f"{r.program}/{r.kernel}" for r in rs if r.wide.sass_calls == 0),
        "all_calls_disappear": {"ours": gone, "report2": True, "agrees": gone},
        "calls_per_kernel": {"ours": [min(calls, default=0), max(calls, default=0)],
                             "report2": [REPORT2["calls_min"], REPORT2["calls_max"]],
                             "agrees": bool(calls) and REPORT2["calls_min"] <= min(calls) and max(calls) <= REPORT2["calls_max"]},
        "instructions_smaller": {"ours": [round(min(smaller), 3), round(max(smaller), 3)] if smaller else None,
                                 "median": round(statistics.median(smaller), 3) if smaller else None,
                                 "report2": [REPORT2["smaller_min"], REPORT2["smaller_max"]],
                                 "outside_report2_range": outside,
                                 "agrees": bool(smaller) and REPORT2["smaller_min"] - 0.005 <= min(smaller)
                                 and max(smaller) <= REPORT2["smaller_max"] + 0.005},
        "code_bytes_smaller": {"ours": [round(min(code), 3), round(max(code), 3)] if code else None},
    }


def partial_comparison(rows: Sequence[Row], arch: str = "sm_89") -> dict[str, Any]:
    """P against B0 and N1 at ``arch``, over the kernels with P and at least one 64-bit division CALL in B0."""
    rs = [r for r in rows if r.arch == arch and r.partial is not None]
    with_calls = [r for r in rs if r.wide.sass_calls > 0]
    if not with_calls:
        return {"arch": arch, "kernels": len(rs), "kernels_with_64bit_division_calls": 0}
    p_smaller = [-r.change_p("sass_instructions") for r in with_calls]
    n_smaller = [-r.change("sass_instructions") for r in with_calls]
    recovered = [(r.wide.sass_instructions - r.partial.sass_instructions)
                 / (r.wide.sass_instructions - r.narrowed.sass_instructions)
                 for r in with_calls if r.wide.sass_instructions != r.narrowed.sass_instructions]
    p_cubin = [-r.change_p("cubin_bytes") for r in with_calls]
    n_cubin = [-r.change("cubin_bytes") for r in with_calls]
    med = lambda xs: round(statistics.median(xs), 3) if xs else None  # noqa: E731
    return {
        "arch": arch,
        "kernels": len(rs),
        "kernels_with_64bit_division_calls": len(with_calls),
        "calls_left": {"P": sum(r.partial.sass_calls for r in with_calls), "N1": sum(r.narrowed.sass_calls for r in with_calls)},
        "ptx_div_rem_64_left": {"P": sum(r.partial.ptx_div_rem_64 for r in with_calls),
                                "N1": sum(r.narrowed.ptx_div_rem_64 for r in with_calls)},
        "instructions_smaller": {"P": [round(min(p_smaller), 3), round(max(p_smaller), 3)], "P_median": med(p_smaller),
                                 "N1": [round(min(n_smaller), 3), round(max(n_smaller), 3)], "N1_median": med(n_smaller)},
        "share_of_N1_reduction_recovered": {"min": round(min(recovered), 3) if recovered else None,
                                            "median": med(recovered),
                                            "max": round(max(recovered), 3) if recovered else None},
        "cubin_smaller": {"P_median": med(p_cubin), "N1_median": med(n_cubin)},
        "registers": {"P_more_than_B0": sum(r.partial.registers > r.wide.registers for r in with_calls),
                      "P_more_than_N1": sum(r.partial.registers > r.narrowed.registers for r in with_calls)},
        "not_compiled": sorted({f"{r.program}/{r.kernel}: {r.partial_note}" for r in rows
                                if r.arch == arch and r.partial is None}),
    }


def authors_comparison(ours: Mapping[int, Row], authors: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per XBLOCK: (variant, quantity, authors', ours). ``ours`` maps XBLOCK -> the row of
    nested_cat_add_distinct at sm_89; ``authors`` is the parsed sass_counts.json."""
    out = []
    for xb, row in sorted(ours.items()):
        for theirs, mine, counts in (("B0", "wide (B0)", row.wide), ("N", "narrowed (N1)", row.narrowed)):
            a = authors.get(theirs, {}).get(f"XBLOCK={xb}")
            if a is None:
                continue
            regs = int(a["resource_usage"].split("REG:")[1].split()[0])
            for q, av, ov in (("SASS instructions", a["instructions"], counts.sass_instructions),
                              ("CALL (64-bit division)", a["CALL"], counts.sass_calls),
                              ("registers", regs, counts.registers)):
                out.append({"xblock": xb, "variant": mine, "authors_variant": theirs, "quantity": q,
                            "authors": av, "ours": ov, "relative": round((ov - av) / av, 3) if av else None})
    return out


def to_document(rows: Sequence[Row], authors: list[dict[str, Any]] | None = None,
                skipped: Sequence[Any] = ()) -> dict[str, Any]:
    import triton

    return document(
        "bench.static", 1, Verdict.OK if not skipped else Verdict.UNDECIDED,
        skipped=[{"program": s.program, "kernel": s.kernel, "arch": s.arch, "reason": s.reason} for s in skipped],
        label=LABEL,
        toolchain={"triton": triton.__version__, "assembler": "ptxas from the triton wheel",
                   "disassembler": "cuobjdump -sass / -res-usage from the triton wheel"},
        rows=[r.to_json() for r in rows],
        report2=report2_comparison(rows),
        partial=partial_comparison(rows),
        authors_sass=({"source": dict(zip(("repo", "path", "commit"), AUTHORS_SASS_SOURCE)), "rows": authors}
                      if authors is not None else None),
    )


def table(rows: Sequence[Row]) -> str:
    head = ("| kernel | arch | size args narrowed | PTX div/rem 64/32-bit (B0; P; N1) | SASS CALL B0 → P → N1 | "
            "SASS division sequences 32/64-bit (B0; P; N1) | SASS instructions B0 → P → N1 | change P; N1 | "
            "registers B0 → P → N1 | cubin bytes B0 → P → N1 |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        w, n, p = r.wide, r.narrowed, r.partial
        pv = (lambda f: str(getattr(p, f))) if p is not None else (lambda f: "—")  # noqa: E731
        pdiv = f"{p.ptx_div_rem_64}/{p.ptx_div_rem_32}" if p else "—"
        pseq = f"{p.sass_div32_sequences}/{p.sass_div64_sequences}" if p else "—"
        lines.append(
            f"| {r.program}/`{r.kernel}` | {r.arch} | {', '.join(r.narrowed_args) or '—'} | "
            f"{w.ptx_div_rem_64}/{w.ptx_div_rem_32}; {pdiv}; {n.ptx_div_rem_64}/{n.ptx_div_rem_32} | "
            f"{w.sass_calls} → {pv('sass_calls')} → {n.sass_calls} | {w.sass_div32_sequences}/{w.sass_div64_sequences}; "
            f"{pseq}; {n.sass_div32_sequences}/{n.sass_div64_sequences} | "
            f"{w.sass_instructions} → {pv('sass_instructions')} → {n.sass_instructions} | "
            f"{_pct(r.change_p('sass_instructions'))}; {_pct(r.change('sass_instructions'))} | "
            f"{w.registers} → {pv('registers')} → {n.registers} | {w.cubin_bytes} → {pv('cubin_bytes')} → {n.cubin_bytes} |"
        )
    return "\n".join(lines)


def markdown(doc: Mapping[str, Any], rows: Sequence[Row]) -> str:
    """The whole table file: :func:`summary` and every row."""
    lines = [summary(doc)]
    if doc.get("skipped"):
        lines += ["## Not compiled", ""] + [f"- {s['program']}/`{s['kernel']}` at {s['arch']}: {s['reason']}"
                                            for s in doc["skipped"]] + [""]
    lines += ["## Every kernel", "", "2-D kernels (YBLOCK, XBLOCK) compile with a square tile of XBLOCK elements "
              "(1024 -> 32 x 32). SASS division sequences: `I2F.U32.RP`-style 32-bit reciprocal set-ups (inline) and "
              "`I2F.U64.RP` 64-bit ones (inside the subroutine the CALLs reach). The wide kernel's 32-bit sequences are "
              "the compiler's fast path for operands that happen to fit; the narrowed kernel computes one per divisor.",
              "", table(rows), ""]
    return "\n".join(lines)


def summary(doc: Mapping[str, Any]) -> str:
    """The label and the two comparisons (report 2's statements, the authors' SASS counts), from the document."""
    c = doc["report2"]
    lines = [
        "# Static machine-code evidence: wide vs narrowed, every certified corpus kernel",
        "",
        f"**{LABEL}.** Generated by `workbench bench static --all --out data/static`; do not edit.",
        f"Toolchain: triton {doc['toolchain']['triton']} (ptxas, cuobjdump from its wheel). XBLOCK and num_warps per row; "
        "wide = the emitted kernel (B0), narrowed = certified size arguments declared i32 (N1), P = only the int64 "
        "`//` and `%` computed on int32 operands (where `check --mode partial` certifies it).",
        "",
        "## Against report 2's statements (L4 = sm_89)",
        "",
    ]
    if c.get("kernels"):
        cp, sm = c["calls_per_kernel"], c["instructions_smaller"]
        lines += [
            f"- All 64-bit division call sites disappear: report 2 yes; ours at {c['arch']}: "
            f"{'yes' if c['all_calls_disappear']['ours'] else 'NO'} ({c['kernels']} kernels).",
            f"- Call sites per kernel: report 2 {cp['report2'][0]}–{cp['report2'][1]}; ours {cp['ours'][0]}–{cp['ours'][1]} "
            f"over the {c['kernels_with_64bit_division_calls']} kernels that have any "
            f"({'within' if cp['agrees'] else 'NOT within'} report 2's range). Kernels with none: "
            f"{', '.join(c['kernels_without']) or 'none'}.",
            f"- SASS instructions smaller: report 2 21–62%; ours {100 * sm['ours'][0]:.0f}–{100 * sm['ours'][1]:.0f}% "
            f"(median {100 * sm['median']:.0f}%) — {'agrees' if sm['agrees'] else 'does NOT agree'}"
            + (f" (outside: {', '.join(sm['outside_report2_range'])})" if sm["outside_report2_range"] else "") + ". "
            "Report 2 measured 25 kernels with triton 3.8.0; this corpus has its own kernels and triton 3.7.1, "
            "and report 2 does not say whether 'machine code' means instructions or bytes "
            f"(code bytes here: {100 * c['code_bytes_smaller']['ours'][0]:.0f}–{100 * c['code_bytes_smaller']['ours'][1]:.0f}% smaller)."
            if sm["ours"] else "- No kernel with 64-bit division calls.",
            "",
        ]
    p = doc.get("partial") or {}
    if p.get("kernels_with_64bit_division_calls"):
        sm, rec = p["instructions_smaller"], p["share_of_N1_reduction_recovered"]
        lines += [
            f"## Variant P (only `//` and `%` in int32) against B0 and N1 ({p['arch']})",
            "",
            f"P compiled for {p['kernels']} kernels (where `check --mode partial` certifies it); "
            f"{p['kernels_with_64bit_division_calls']} have 64-bit division CALLs in B0. CALL sites left: "
            f"P {p['calls_left']['P']}, N1 {p['calls_left']['N1']}; PTX 64-bit div/rem left: "
            f"P {p['ptx_div_rem_64_left']['P']}, N1 {p['ptx_div_rem_64_left']['N1']}.",
            f"SASS instructions smaller than B0: P {100 * sm['P'][0]:.0f}–{100 * sm['P'][1]:.0f}% "
            f"(median {100 * sm['P_median']:.0f}%), N1 {100 * sm['N1'][0]:.0f}–{100 * sm['N1'][1]:.0f}% "
            f"(median {100 * sm['N1_median']:.0f}%). Share of N1's instruction reduction that P recovers: "
            + (f"median {100 * rec['median']:.0f}% (range {100 * rec['min']:.0f}–{100 * rec['max']:.0f}%)."
               if rec["median"] is not None else "n/a.")
            + f" Cubin smaller (median): P {100 * p['cubin_smaller']['P_median']:.0f}%, "
            f"N1 {100 * p['cubin_smaller']['N1_median']:.0f}%. Kernels where P needs more registers than B0: "
            f"{p['registers']['P_more_than_B0']}, than N1: {p['registers']['P_more_than_N1']}.",
            "Static counts only: whether P's remaining 64-bit index arithmetic costs time is a timing question "
            "(`bench run` with a plan that includes P, on a GPU).",
            "",
        ]
        if p.get("not_compiled"):
            lines += ["P not compiled: " + "; ".join(p["not_compiled"]), ""]
    if doc.get("authors_sass"):
        s = doc["authors_sass"]["source"]
        lines += [
            "## Against report 1's authors' SASS counts (nested cat, seven size arguments, sm_89)",
            "",
            f"Authors' numbers: `{s['path']}` in `{s['repo']}` at `{s['commit'][:12]}`; B0 and the narrowed path of "
            "their guarded N. Ours: `nested_cat_add_distinct` (the corpus kernel with their seven size arguments; "
            "its body is our capture with torch 2.13, not necessarily byte-identical to theirs), B0 and N1.",
            "",
            "| XBLOCK | variant | quantity | authors' | ours | ours vs authors' |",
            "|---|---|---|---|---|---|",
        ]
        lines += [f"| {a['xblock']} | {a['variant']} | {a['quantity']} | {a['authors']} | {a['ours']} | "
                  f"{_pct(a['relative'])} |" for a in doc["authors_sass"]["rows"]]
        lines.append("")
    return "\n".join(lines)
