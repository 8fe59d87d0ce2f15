"""``workbench bench``: run a pre-registered timing plan and report a run record.

``workbench bench run PLAN.json --out RUN.json [--dry-run]`` and ``workbench bench report RUN.json
[--out figures/] [--plan PLAN.json]``; the same commands run as ``python -m workbench.bench ...`` on a CUDA
machine. ``worker`` is internal: one process of a multi-process run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workbench.errors import UsageError
from workbench.workspace import add_argument as add_workspace


def _run(args: argparse.Namespace) -> int:
    from workbench.bench import harness

    rec = harness.run(args.plan, args.out, dry_run=args.dry_run)
    bad = [c for c in rec["correctness"] if not c["bitwise_equal"]]
    print(f"wrote {args.out}: {rec['mode']}, {len(rec['blocks'])} blocks, "
          f"{len(rec['correctness']) - len(bad)}/{len(rec['correctness'])} variant-shape checks bitwise equal to eager")
    if args.dry_run:
        print("dry run: correctness only, nothing was timed")
    return 1 if bad else 0


def _report(args: argparse.Namespace) -> int:
    from workbench import contract
    from workbench.bench import report
    from workbench.workspace import subdir

    out = Path(args.out) if args.out else subdir("runs", args.workspace) / "report"
    r = report.report(args.record, out, args.plan, progress=not args.json)
    if args.json:
        return contract.emit(report.to_document(args.record, r))
    print(r.text, end="")
    print(f"wrote {r.markdown} and {len(r.figures)} figures under {out}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from workbench import contract
    from workbench.bench import importers
    from workbench.bench.records import verify, write

    run, adapter = importers.import_record(args.record, args.format, args.repo, args.source_path, args.commit)
    verify(run, where=f"imported {args.record}")  # the converted record must read back as a run record
    if Path(args.out).resolve() == Path(args.record).resolve():
        raise UsageError(f"--out {args.out!r} is the source record; raw data is never overwritten")
    write(run, args.out)
    n = len(run["blocks"])
    doc = contract.document("bench.import", 1, contract.Verdict.OK, out=str(args.out), format=adapter.name,
                            blocks=n, rounds=len({(b["process"], b["round"]) for b in run["blocks"]}),
                            provenance={k: run["provenance"][k] for k in ("repository", "path", "commit",
                                                                          "measured_by", "source_sha256")})
    if args.json:
        return contract.emit(doc)
    print(f"wrote {args.out}: {adapter.name}, {doc['rounds']} rounds, {n} blocks, from "
          f"{doc['provenance']['repository']} {doc['provenance']['path']} @ {doc['provenance']['commit'][:12]}")
    return 0


def _static(args: argparse.Namespace) -> int:
    import tempfile

    from workbench import contract, progress
    from workbench.bench import static, static_report

    if args.redraw:
        return _static_redraw(args)
    if bool(args.names) == bool(args.all):
        raise UsageError("name kernels (`bench static nested_cat_add`) or pass --all, not both and not neither")
    arches = static.parse_arch(args.arch)
    kernels = static.select(args.names, args.results)
    authors = None
    with tempfile.TemporaryDirectory(prefix="wb-static-") as tmp:
        bar = lambda jobs: progress.track(jobs, desc="compile wide+narrowed", unit="kernel x arch")  # noqa: E731
        reuse = _reusable(args.reuse) if args.reuse else []
        rows, skipped = static.measure_all(kernels, arches, Path(tmp), progress=bar, xblock=args.xblock,
                                           num_warps=args.num_warps, reuse=reuse)
        if "sm_89" in arches and any(k[0] == "nested_cat_add_distinct" for k in kernels):
            authors = _authors_rows(rows, Path(tmp), args)
    doc = static_report.to_document(rows, authors, skipped)
    return _static_outputs(args, doc, rows, arches)


def _reusable(path: str) -> list:
    """Rows of an earlier static.json whose wide and N1 counts may be kept: only when it was made with this
    triton (the counts are the toolchain's)."""
    import triton

    from workbench.bench.static import Row
    from workbench.errors import InputError
    from workbench.jsonfile import read_json

    old = read_json(path, InputError, "static table", "make one with `workbench bench static --all --out DIR`")
    made = (old.get("toolchain") or {}).get("triton")
    if made != triton.__version__:
        raise UsageError(f"--reuse {path}: made with triton {made}, this is {triton.__version__}; recompile everything "
                         "(drop --reuse)")
    return [Row.from_json(r) for r in old.get("rows", [])]


def _static_outputs(args: argparse.Namespace, doc: dict, rows: list, arches: tuple) -> int:
    from workbench import contract
    from workbench.bench import static_report

    if args.out:
        from workbench import figures
        from workbench.bench.records import write

        out = Path(args.out)
        write(doc, out / "static.json")
        (out / "static.md").write_text(static_report.markdown(doc, rows))
        fig = figures.static_change(rows, "sm_89" if "sm_89" in arches else arches[0],
                                    Path(args.figures) if args.figures else out)
        print(f"wrote {out / 'static.json'}, {out / 'static.md'} and {fig}", file=sys.stderr)
    if args.json:
        return contract.emit(doc)
    print(static_report.markdown(doc, rows), end="")
    return 0


def _static_redraw(args: argparse.Namespace) -> int:
    """Tables, comparisons and the figure again from a static.json, without compiling (counts unchanged)."""
    from workbench.bench import static_report
    from workbench.bench.static import Row, Skipped
    from workbench.errors import InputError
    from workbench.jsonfile import read_json

    old = read_json(args.redraw, InputError, "static table", "make one with `workbench bench static --all --out DIR`")
    rows = [Row.from_json(r) for r in old.get("rows", [])]
    skipped = [Skipped(**s) for s in old.get("skipped", [])]
    doc = static_report.to_document(rows, (old.get("authors_sass") or {}).get("rows"), skipped)
    doc["toolchain"] = old.get("toolchain", doc["toolchain"])
    return _static_outputs(args, doc, rows, tuple(dict.fromkeys(r.arch for r in rows)))


def _authors_rows(rows: list, work: Path, args: argparse.Namespace) -> list:
    """Our nested_cat_add_distinct at sm_89 for the XBLOCKs the authors counted, against their numbers."""
    from workbench.bench import static, static_report
    from workbench.errors import InputError
    from workbench.jsonfile import read_json
    from workbench.paths import DATA

    authors = read_json(DATA / "static" / "authors_sass_counts.json", InputError, "authors' SASS counts",
                        "restore data/static/authors_sass_counts.json from git")["counts"]
    (prog, kernel, narrowed), = static.select(["nested_cat_add_distinct"], args.results)
    ours = {}
    for xb in (1024, 512):
        hit = [r for r in rows if r.program == prog and r.arch == "sm_89" and r.xblock == xb and r.num_warps == 4]
        ours[xb] = hit[0] if hit else static.measure(prog, kernel, narrowed, "sm_89", work, xblock=xb, num_warps=4)
    return static_report.authors_comparison(ours, authors)


def _pack(args: argparse.Namespace) -> int:
    from workbench import contract, progress
    from workbench.bench import pack

    with progress.counter(len(pack.PHASES), "pack", "phase") as bar:
        files = pack.build(args.plan, lambda phase: (bar.note(phase), bar.update()))
    out = pack.write(files, args.out)
    doc = contract.document("bench.pack", 1, contract.Verdict.OK, out=str(out), files=sorted(files),
                            bytes=out.stat().st_size,
                            plan_sha256=json.loads(files["manifest.json"])["plan_sha256"])
    if args.json:
        return contract.emit(doc)
    print(f"wrote {out} ({doc['bytes']} bytes, {len(files)} files); on a CUDA host: "
          f"tar xzf {out.name} && cd bundle && pip install -r requirements.txt && python runner.py --out run.json")
    return 0


def _worker(args: argparse.Namespace) -> int:
    from workbench.bench import harness
    from workbench.bench import plan as plan_mod

    plan, _ = plan_mod.load(args.plan)
    part = harness.run_process(plan, args.process, args.dry_run)
    Path(args.out).write_text(json.dumps(part, allow_nan=False))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run a plan: compile the variants, check them against eager, time the blocks")
    run.add_argument("plan", metavar="PLAN.json")
    run.add_argument("--out", required=True, metavar="RUN.json", help="where to write the run record")
    run.add_argument("--dry-run", action="store_true",
                     help="CPU only: the same harness under Triton's interpreter at tiny shapes, no timings")
    run.set_defaults(func=_run)
    rep = sub.add_parser("report", help="tables and figures from a run record (refuses a changed plan)")
    rep.add_argument("record", metavar="RUN.json")
    rep.add_argument("--out", default=None, metavar="DIR",
                     help="output folder (default: <workspace>/runs/report; the shipped figures use --out figures)")
    rep.add_argument("--plan", default=None, metavar="PLAN.json", help="check this plan file against the record")
    rep.add_argument("--json", action="store_true", help="print the workbench.bench.report/1 document")
    add_workspace(rep)
    rep.set_defaults(func=_report)
    imp = sub.add_parser("import", help="convert a run record written by another harness into a workbench run record")
    imp.add_argument("record", metavar="RECORD.json")
    imp.add_argument("--out", required=True, metavar="RUN.json")
    imp.add_argument("--format", default=None, help="adapter name (default: detected)")
    imp.add_argument("--repo", default=None, help="source repository OWNER/NAME (default: SOURCES.tsv beside the record)")
    imp.add_argument("--source-path", default=None, help="the record's path in that repository")
    imp.add_argument("--commit", default=None, help="the commit it was read at")
    imp.add_argument("--json", action="store_true", help="print the workbench.bench.import/1 document")
    imp.set_defaults(func=_import)
    st = sub.add_parser("static", help="static machine-code evidence (not timing): wide vs narrowed SASS/PTX of "
                                       "certified kernels, compiled on this machine for chosen architectures")
    st.add_argument("names", nargs="*", metavar="NAME", help="program or program/kernel (certified corpus kernels)")
    st.add_argument("--all", action="store_true", help="every certified corpus kernel")
    st.add_argument("--arch", default="sm_80,sm_89,sm_90", help="comma-separated: sm_80, sm_89, sm_90 (default: all three)")
    st.add_argument("--xblock", type=int, default=1024, help="XBLOCK to compile with (default 1024)")
    st.add_argument("--num-warps", type=int, default=4, help="num_warps (default 4)")
    st.add_argument("--results", default=None, metavar="RESULTS.json", help="checker results (default data/check/results.json)")
    st.add_argument("--out", default=None, metavar="DIR", help="also write static.json, static.md and the figure here")
    st.add_argument("--figures", default=None, metavar="DIR", help="where the figure goes (default: --out)")
    st.add_argument("--json", action="store_true", help="print the workbench.bench.static/1 document")
    st.add_argument("--reuse", default=None, metavar="STATIC.json",
                    help="keep the wide and N1 counts of an earlier table made with this triton; compile only P")
    st.add_argument("--redraw", default=None, metavar="STATIC.json",
                    help="no compiling: redo the tables and the figure from an earlier static.json")
    st.set_defaults(func=_static)
    pk = sub.add_parser("pack", help="bundle a plan (plan, kernel variants, program, pinned requirements, runner) "
                                     "that runs on any CUDA host without this repository")
    pk.add_argument("plan", metavar="PLAN.json")
    pk.add_argument("--out", required=True, metavar="BUNDLE.tar.gz")
    pk.add_argument("--json", action="store_true", help="print the workbench.bench.pack/1 document")
    pk.set_defaults(func=_pack)
    w = sub.add_parser("worker", help="internal: one process of a multi-process run (started by `run`)")
    w.add_argument("plan")
    w.add_argument("--process", type=int, required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--dry-run", action="store_true")
    w.set_defaults(func=_worker)


def register(subparsers: argparse._SubParsersAction) -> None:
    bench = subparsers.add_parser("bench", help="paired, pre-registered timing of kernel variants")
    add_commands(bench.add_subparsers(dest="bench_command", metavar="COMMAND", required=True))
